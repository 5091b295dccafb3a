/* The device memory section of the PDF report, laid out from the view
 * model's variables (view/model_memory.h). Internal to the PDF renderer;
 * errors longjmp as in pdf_text.h. */
#ifndef SDPERF_FORMAT_PDF_MEMORY_H
#define SDPERF_FORMAT_PDF_MEMORY_H

#include "format/pdf/pdf_layout.h"

/* The section, absent without memory samples. */
void pdf_memory_section(struct pdf_ctx *c);

#endif
