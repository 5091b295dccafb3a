/* The logo in the PDF's running header. Internal to format/pdf. */
#ifndef SDPERF_FORMAT_PDF_LOGO_H
#define SDPERF_FORMAT_PDF_LOGO_H

#include "format/pdf/pdf.h"
#include "format/pdf/pdf_text.h"

/* Loads o's logo into d (a libharu error longjmps, as any other): its
 * width in points scaled into the header band, its height in *h; 0 and
 * *img NULL without a logo. */
float pdf_logo_load(struct pdf_doc *d, const struct pdf_opts *o,
                    HPDF_Image *img, float *h);

#endif
