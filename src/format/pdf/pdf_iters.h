/* The PDF's denoising iterations section. Internal to format/pdf. */
#ifndef SDPERF_FORMAT_PDF_ITERS_H
#define SDPERF_FORMAT_PDF_ITERS_H

#include "format/pdf/pdf_layout.h"

/* The section from the view model's has_iters, iters_* and "iters"
 * loop: the lines, the chart of durations over time (marks by shape
 * and colour, a legend), the table. Nothing without has_iters. */
void pdf_iters_section(struct pdf_ctx *c);

#endif
