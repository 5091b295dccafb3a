/* The logo in the PDF: checked before any input is read by
 * util/imgcheck (for a PNG, down to its inflated rows, so that libpng
 * cannot fail on it: libharu 2.3.0 sets no recovery point, and a libpng
 * error would abort), decoded here once, then drawn in the running
 * header of every page. */
#include "format/pdf/pdf_logo.h"

#include "util/imgcheck.h"
#include "util/banned.h"

/* The header band's logo: at most this tall and this wide (points). */
#define LOGO_H 16.0f
#define LOGO_W 120.0f

float pdf_logo_load(struct pdf_doc *d, const unsigned char *logo, size_t len,
                    int png, HPDF_Image *img, float *h)
{
	float w, iw, ih;

	*img = NULL;
	*h = 0;
	if (!logo || !len)
		return 0;
	if (png) {
		/* only the chunks it draws: libharu takes any libpng warning
		 * (a colour profile's, a text chunk's) for an error. In d->sb,
		 * a scratch buffer, so that a libharu error (a longjmp) leaks
		 * nothing */
		strbuf_reset(&d->sb);
		img_png_core(logo, len, &d->sb);
		*img = HPDF_LoadPngImageFromMem(
		    d->pdf, (const HPDF_BYTE *)d->sb.buf, (HPDF_UINT)d->sb.len);
		strbuf_reset(&d->sb);
	} else
		*img = HPDF_LoadJpegImageFromMem(d->pdf, logo, (HPDF_UINT)len);
	iw = (float)HPDF_Image_GetWidth(*img);
	ih = (float)HPDF_Image_GetHeight(*img);
	if (iw <= 0 || ih <= 0) {
		*img = NULL;
		return 0;
	}
	/* as tall as the band allows, narrower when it is wide */
	*h = LOGO_H;
	w = iw * LOGO_H / ih;
	if (w > LOGO_W) {
		w = LOGO_W;
		*h = ih * LOGO_W / iw;
	}
	return w;
}
