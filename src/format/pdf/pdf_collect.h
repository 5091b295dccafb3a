/* The collection check section of the PDF report, laid out from the view
 * model's variables (view/model_collect.h). Internal to the PDF
 * renderer; errors longjmp as in pdf_text.h. */
#ifndef SDPERF_FORMAT_PDF_COLLECT_H
#define SDPERF_FORMAT_PDF_COLLECT_H

#include "format/pdf/pdf_layout.h"

/* The section, absent when the model has no collection check. */
void pdf_collection_section(struct pdf_ctx *c);

#endif
