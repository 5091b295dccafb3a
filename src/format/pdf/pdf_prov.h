/* The PDF's branding lines in the title block and its "How this report
 * was made" section (view/model_prov.h's variables). Internal to
 * format/pdf. */
#ifndef SDPERF_FORMAT_PDF_PROV_H
#define SDPERF_FORMAT_PDF_PROV_H

#include "format/pdf/pdf_layout.h"

/* Organisation, customer and ticket lines of the title block (those
 * given), and the capture time. */
void pdf_brand_meta(struct pdf_ctx *c);
/* The section: version, command line, rules, times, and each input
 * file as a bullet (rank, file, bytes) with its path and SHA-256 under
 * it. */
void pdf_provenance_section(struct pdf_ctx *c);

#endif
