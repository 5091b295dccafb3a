/* The logo in the PDF's running header. Internal to format/pdf. */
#ifndef SDPERF_FORMAT_PDF_LOGO_H
#define SDPERF_FORMAT_PDF_LOGO_H

#include <stddef.h>

#include "format/pdf/pdf_text.h"

/* Loads the PNG (png 1) or JPEG logo[0..len) into d (a libharu error
 * longjmps, as any other): its width in points scaled into the header
 * band, its height in *h; 0 and *img NULL without a logo. */
float pdf_logo_load(struct pdf_doc *d, const unsigned char *logo, size_t len,
                    int png, HPDF_Image *img, float *h);

#endif
