/* libFuzzer target: the logo's check from its bytes (util/imgcheck.h,
 * issue 23). Any input is accepted or refused with a reason, reading
 * nothing past its end (ASan); an accepted one is a PNG or JPEG by its
 * first bytes, within the size limits, with the decoded size that follows
 * from its header; an accepted PNG, cut to its core (img_png_core), is
 * loaded by libharu here, in this process, as the PDF loads it: libpng
 * must neither fail (an abort: libharu sets it no recovery point) nor
 * warn (libharu takes a warning for an error). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <hpdf.h>

#include "util/imgcheck.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void on_error(HPDF_STATUS no, HPDF_STATUS detail, void *data)
{
	(void)no;
	(void)detail;
	*(int *)data = 1;
}

/* libharu loads the accepted PNG's core, with no error */
static void load_png(const unsigned char *d, size_t n,
                     const struct img_info *in)
{
	struct strbuf core = STRBUF_INIT;
	int bad = 0;
	HPDF_Doc pdf = HPDF_New(on_error, &bad);
	HPDF_Image img;

	if (!pdf)
		abort();
	img_png_core(d, n, &core);
	img = HPDF_LoadPngImageFromMem(pdf, (const HPDF_BYTE *)core.buf,
	                               (HPDF_UINT)core.len);
	if (!img || bad || HPDF_Image_GetWidth(img) != in->width ||
	    HPDF_Image_GetHeight(img) != in->height)
		abort();
	HPDF_Free(pdf);
	strbuf_release(&core);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf why = STRBUF_INIT;
	struct img_info in;
	/* a copy of exactly size bytes, so ASan sees any read past it */
	unsigned char *copy = malloc(size ? size : 1);
	int r;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	r = img_check(copy, size, &in, &why);
	if (r == 0) {
		if (in.kind == IMG_NONE || in.kind != img_sniff(copy, size) ||
		    !in.width || !in.height || in.width > IMG_MAX_SIDE ||
		    in.height > IMG_MAX_SIDE ||
		    (uint64_t)in.width * in.height > IMG_MAX_PIXELS ||
		    in.decoded_bytes < (uint64_t)in.width * in.height ||
		    why.len)
			abort();
		if (in.kind == IMG_PNG)
			load_png(copy, size, &in);
	} else if (r != -1 || !why.len) {
		abort();
	}
	strbuf_release(&why);
	free(copy);
	return 0;
}
