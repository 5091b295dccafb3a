/* The comparison PDF's content (internal to format/pdf): the view model
 * of view/diff_model.h laid out in the order of templates/diff.html.tmpl
 * with the single-run report's layout (pdf_layout.h). Errors longjmp as
 * in pdf_text.h. */
#ifndef SDPERF_FORMAT_PDF_DIFF_H
#define SDPERF_FORMAT_PDF_DIFF_H

#include "format/pdf/pdf_layout.h"

/* Lays out the comparison from the first page's top, c->m its model. */
void pdf_diff_layout(struct pdf_ctx *c);

/* The section with the chart of base and new kernel time per stage and
 * category, drawn at the current position of c (pdf_diff_chart.c). */
void pdf_diff_chart(struct pdf_ctx *c);
/* The waterfall from base to new kernel time through the kernel types
 * that moved most (the view's "waterfall" loop), if it has rows. */
void pdf_diff_waterfall(struct pdf_ctx *c);

#endif
