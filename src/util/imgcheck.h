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
 *   in one run), a palette image has no PLTE, or IEND is missing;
 * - JPEG: a segment runs past the end, the frame (SOF) is not baseline,
 *   extended sequential or progressive Huffman-coded, its precision is not
 *   8 bits, it has other than 1 or 3 components (CMYK and YCCK are
 *   refused), its height is 0 (set by a DNL), there is no DQT or DHT
 *   before the first scan, no scan (SOS), a scan with no data, or no EOI.
 * Reads nothing past data[n); allocates nothing. */
int img_check(const unsigned char *data, size_t n, struct img_info *info,
              struct strbuf *why);

#endif
