/* The single-run PDF report's content (internal to format/pdf): every
 * section of the view model of view/model.h, in the order of
 * templates/report.html.tmpl. Errors longjmp as in pdf_text.h. */
#ifndef SDPERF_FORMAT_PDF_REPORT_H
#define SDPERF_FORMAT_PDF_REPORT_H

#include "format/pdf/pdf_layout.h"

/* Lays out the report from the first page's top, c->m its model. */
void pdf_report_layout(struct pdf_ctx *c);

#endif
