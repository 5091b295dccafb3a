/* A PNG or JPEG image checked from its bytes alone, before anything
 * decodes it: its structure (PNG chunks and their CRCs, JPEG markers and
 * segments) and its size in pixels, so that a decoder is only ever handed
 * an image of a bounded size, and a JPEG is only passed on (a PDF carries
 * it as it is, DCTDecode) when a viewer can decode it. */
#ifndef SDPERF_IMGCHECK_H
#define SDPERF_IMGCHECK_H

#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

/* The largest image accepted: a side of at most IMG_MAX_SIDE pixels and
 * at most IMG_MAX_PIXELS pixels in all (a 2048 x 2048 square, or 4096 x
 * 1024). A logo drawn 16 points tall never needs more. */
#define IMG_MAX_SIDE   4096u
#define IMG_MAX_PIXELS (4u << 20)

enum img_kind { IMG_NONE, IMG_PNG, IMG_JPEG };

struct img_info {
	enum img_kind kind;
	uint32_t width, height;
	unsigned channels; /* PNG: 1..4 (palette: 1); JPEG: 1 or 3 */
	unsigned depth;    /* bits per sample */
	int progressive;   /* JPEG: a progressive (SOF2) image */
	/* bytes a decoder holds for the decoded pixels (every sample
	 * widened to 8 or 16 bits, alpha included) */
	uint64_t decoded_bytes;
};

/* The kind of image data[0..n) is by its first bytes (the PNG signature,
 * or a JPEG's SOI followed by a marker), else IMG_NONE. */
enum img_kind img_sniff(const unsigned char *data, size_t n);

/* Checks the PNG or JPEG image data[0..n) and fills *info. Returns 0, or
 * -1 with the reason appended to why (lower case, no file name), when:
 * - it is neither a PNG nor a JPEG;
 * - it is larger than IMG_MAX_SIDE or IMG_MAX_PIXELS (from the header,
 *   before any decoding);
 * - PNG: a chunk runs past the end or has a bad CRC, the IHDR is missing,
 *   not first or holds values the PNG specification does not allow, a
 *   critical chunk is unknown or out of order (PLTE after IDAT, IDAT not
 *   in one run), a palette image has no PLTE, a tRNS is out of place, of
 *   a size its colour type does not allow or holds a sample past the bit
 *   depth, or IEND is missing; the image is interlaced (libharu 2.3.0
 *   never loads one), or a palette image of fewer than 8 bits has a tRNS
 *   (libharu 2.3.0 reads its rows past their end); or the image data
 *   would make libpng fail: the IDAT run, inflated with zlib a window at
 *   a time (no pixels kept), is not one sound zlib stream (header,
 *   deflate data whose distances stay within the declared window,
 *   Adler-32, nothing after it) of exactly the bytes the header implies,
 *   height x (1 + the row's bytes), with every row's filter type 0 to 4.
 *   Palette indices past the palette are not checked: libpng does not
 *   fail on them (it only warns in png_read_end, which libharu does not
 *   call), and a PDF viewer draws them with some palette colour;
 * - JPEG: a segment runs past the end, the frame (SOF) is not baseline,
 *   extended sequential or progressive Huffman-coded, its precision is not
 *   8 bits, it has other than 1 or 3 components (CMYK and YCCK are
 *   refused), its height is 0 (set by a DNL), there is no DQT or DHT
 *   before the first scan, no scan (SOS), a scan with no data, or no EOI.
 * A PNG that passes can be handed to libpng (through libharu, which sets
 * no recovery point) after img_png_core: libpng then cannot fail on it.
 * Reads nothing past data[n); allocates only zlib's state (a few KiB;
 * the 32 KiB window is on the stack). Time: one inflation, bounded by
 * the size limits. */
int img_check(const unsigned char *data, size_t n, struct img_info *info,
              struct strbuf *why);

/* For a PNG data[0..n) that img_check accepted: appends to out a copy
 * with only the chunks a decoder needs to draw it (IHDR; PLTE and tRNS
 * of a palette image; the IDAT run; IEND). libpng warns of many a flaw
 * in the chunks left out (a colour profile, text, gamma), and libharu
 * 2.3.0 takes a warning for an error; it uses none of them. */
void img_png_core(const unsigned char *data, size_t n, struct strbuf *out);

#endif
