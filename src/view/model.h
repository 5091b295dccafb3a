/* The report's view model: the analysis result turned into the variable
 * tree the HTML and Markdown templates render, with every human-readable
 * string taken from the message catalogue. Numbers stay raw (nanoseconds,
 * percents); templates pick their formatter. */
#ifndef SDPERF_MODEL_H
#define SDPERF_MODEL_H

#include "analysis/result.h"
#include "tmpl/template.h"
#include "view/model_ctx.h"

/* Default base of the MindIE-SD feature doc links. */
#define MODEL_DOCS_BASE "https://gitcode.com/Ascend/MindIE-SD"

/* Builds the variable tree (caller frees with tmpl_vars_free). */
struct tmpl_vars *model_build(const struct result *r,
                              const struct model_opts *o);

/* The URL of feature doc `name` in the catalogue's language. */
char *model_doc_url(const char *base, const char *lang, const char *name);

#endif
