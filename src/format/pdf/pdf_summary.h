/* The executive summary and the compact passing checks of the PDF
 * report, laid out from the view model's variables
 * (view/model_summary.h). Internal to the PDF renderer; errors longjmp as
 * in pdf_text.h. */
#ifndef SDPERF_FORMAT_PDF_SUMMARY_H
#define SDPERF_FORMAT_PDF_SUMMARY_H

#include "format/pdf/pdf_layout.h"

/* The summary box, right under the title: end-to-end time, findings, the
 * stage split as one vector bar with its legend, the top action, trust. */
void pdf_summary_section(struct pdf_ctx *c);

/* The passing checks of the "verdicts" loop, one line each (check name,
 * value, threshold) with the recommendation in small print under it. */
void pdf_passing_checks(struct pdf_ctx *c);

#endif
