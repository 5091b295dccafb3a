/* The comparison report as a PDF (internal to render/diff_report.c): the
 * view model of render/diff_model.h laid out with libharu on A4 pages, in
 * the order of templates/diff.html.tmpl, with the single-run report's
 * fonts, styles, tables and page furniture (render/pdf_ranks.h). */
#ifndef SDPERF_RENDER_PDF_DIFF_H
#define SDPERF_RENDER_PDF_DIFF_H

#include "format/pdf/pdf.h"
#include "tmpl/template.h"
#include "util/err.h"
#include "util/strbuf.h"

/* As pdf_render, for a model built by diff_model_build: appends the PDF to
 * out and returns 0, or -1 with ERR_INPUT (a font cannot be loaded) or
 * ERR_INTERNAL (a libharu error); nothing is appended on error. */
int pdf_diff_render(const struct tmpl_vars *model, const struct pdf_opts *o,
                    struct strbuf *out, struct err *e);

/* Internal to the layout (render/pdf_diff_chart.c): the section with the
 * chart of base and new kernel time per stage and category, drawn at the
 * current position of c. Errors longjmp as in pdf_text.h. */
struct pdf_ctx;
void pdf_diff_chart(struct pdf_ctx *c);

#endif
