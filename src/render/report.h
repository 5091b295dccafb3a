/* The templated reports: HTML and Markdown from the same view model. */
#ifndef SDPERF_REPORT_H
#define SDPERF_REPORT_H

#include "analysis/result.h"
#include "util/err.h"
#include "util/strbuf.h"

enum report_kind { REPORT_HTML, REPORT_MARKDOWN };

struct report_opts {
	const char *lang;          /* "en" or "zh" */
	const char *title;         /* NULL: the catalogue's default */
	const char *docs_base;     /* NULL: MindIE-SD on gitcode */
	const char *templates_dir; /* NULL: the embedded templates */
	const char *date;          /* shown in the header */
	const char *version;
	size_t *missing_keys; /* if set: catalogue lookups that found nothing */
};

/* Renders report `kind` of r into out. Errors: ERR_USAGE (unknown
 * language), ERR_INPUT (a user template is missing or malformed: the
 * message names template:line:column). */
int report_render(const struct result *r, enum report_kind kind,
                  const struct report_opts *o, struct strbuf *out,
                  struct err *e);

/* "YYYY-MM-DD HH:MM UTC" for now, or for SOURCE_DATE_EPOCH when it is set
 * (reproducible reports). Caller frees. */
char *report_date(void);

#endif
