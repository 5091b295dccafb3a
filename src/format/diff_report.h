/* The human-readable comparison reports of sdperf diff: HTML and Markdown
 * (templates diff.html.tmpl, diff.md.tmpl) and PDF, from one view model,
 * in the catalogue's languages. */
#ifndef SDPERF_DIFF_REPORT_H
#define SDPERF_DIFF_REPORT_H

#include "analysis/compare.h"
#include "format/report.h"
#include "util/err.h"
#include "util/strbuf.h"

/* Renders report `kind` of c into out, with the same options and errors
 * as report_render (o->title NULL: the catalogue's diff title). */
int diff_report_render(const struct comparison *c, enum report_kind kind,
                       const struct report_opts *o, struct strbuf *out,
                       struct err *e);

#endif
