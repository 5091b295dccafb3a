/* A PNG or JPEG checked from its bytes (contract in imgcheck.h). Written
 * from the PNG specification (ISO/IEC 15948: chunks, IHDR's fields, the
 * CRC-32 of type and data) and the JPEG one (ITU-T T.81, annex B: markers,
 * segment lengths, the frame and scan headers, stuffed bytes and restart
 * markers in the entropy-coded data). */
#include "util/imgcheck.h"

#include <string.h>

#include "util/banned.h"

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static unsigned be16(const unsigned char *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

enum img_kind img_sniff(const unsigned char *d, size_t n)
{
	static const unsigned char png[8] = {0x89, 'P',  'N',  'G',
	                                     '\r', '\n', 0x1a, '\n'};

	if (n >= 8 && !memcmp(d, png, 8))
		return IMG_PNG;
	if (n >= 3 && d[0] == 0xff && d[1] == 0xd8 && d[2] == 0xff)
		return IMG_JPEG;
	return IMG_NONE;
}

/* The size the header claims, against the limits; 0 or -1 with why. */
static int check_size(struct img_info *in, struct strbuf *why)
{
	uint64_t px = (uint64_t)in->width * in->height;

	if (!in->width || !in->height) {
		strbuf_addf(why, "the header gives a size of %u x %u pixels",
		            (unsigned)in->width, (unsigned)in->height);
		return -1;
	}
	if (in->width > IMG_MAX_SIDE || in->height > IMG_MAX_SIDE ||
	    px > IMG_MAX_PIXELS) {
		strbuf_addf(why,
		            "%u x %u pixels, larger than a logo needs (at most "
		            "%u pixels a side and %u megapixels)",
		            (unsigned)in->width, (unsigned)in->height,
		            IMG_MAX_SIDE, IMG_MAX_PIXELS >> 20);
		return -1;
	}
	in->decoded_bytes = px * in->channels * (in->depth > 8 ? 2u : 1u);
	return 0;
}

/* ---- PNG ------------------------------------------------------------- */

/* Bit by bit: the images are small (a logo), and there is no table to
 * share between threads. */
static uint32_t crc32_png(const unsigned char *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	size_t i;
	unsigned b;

	for (i = 0; i < n; i++) {
		c ^= p[i];
		for (b = 0; b < 8; b++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
	}
	return c ^ 0xffffffffu;
}

/* IHDR's fields (13 bytes at p), as the specification allows them. */
static int png_header(const unsigned char *p, struct img_info *in,
                      struct strbuf *why)
{
	static const unsigned channels[7] = {1, 0, 3, 1, 2, 0, 4};
	unsigned depth = p[8], type = p[9];
	int ok;

	in->width = be32(p);
	in->height = be32(p + 4);
	in->depth = depth;
	ok = type < 7 && channels[type];
	if (ok && type == 0)
		ok = depth == 1 || depth == 2 || depth == 4 || depth == 8 ||
		     depth == 16;
	else if (ok && type == 3)
		ok = depth == 1 || depth == 2 || depth == 4 || depth == 8;
	else if (ok)
		ok = depth == 8 || depth == 16;
	if (!ok) {
		strbuf_addf(why, "IHDR: colour type %u with bit depth %u", type,
		            depth);
		return -1;
	}
	if (p[10] || p[11] || p[12] > 1) {
		strbuf_addf(
		    why,
		    "IHDR: compression %u, filter %u, interlace %u (the "
		    "specification knows 0, 0, 0 or 1)",
		    p[10], p[11], p[12]);
		return -1;
	}
	if (in->width > 0x7fffffffu || in->height > 0x7fffffffu) {
		strbuf_adds(why, "IHDR: a size past 2^31 - 1");
		return -1;
	}
	in->channels = channels[type];
	if (depth < 8)
		in->depth = 8; /* decoders widen the samples to bytes */
	return check_size(in, why);
}

struct png_walk {
	unsigned type, depth; /* IHDR's colour type and bit depth */
	int plte, idat;       /* seen */
	int idat_done;        /* a chunk other than IDAT came after one */
};

/* One critical chunk t (4 letters) of length len after IHDR, in order. */
static int png_critical(struct png_walk *w, const unsigned char *t,
                        uint32_t len, struct strbuf *why)
{
	if (!memcmp(t, "PLTE", 4)) {
		if (w->plte || w->idat || w->type == 0 || w->type == 4 ||
		    len == 0 || len % 3 || len / 3 > 256 ||
		    (w->type == 3 && len / 3 > (1u << w->depth))) {
			strbuf_adds(why, "PLTE: twice, after IDAT, in a grey "
			                 "image, or of a bad length");
			return -1;
		}
		w->plte = 1;
	} else if (!memcmp(t, "IDAT", 4)) {
		if (w->idat_done) {
			strbuf_adds(why, "IDAT chunks not in one run");
			return -1;
		}
		if (w->type == 3 && !w->plte) {
			strbuf_adds(why, "a palette image without PLTE");
			return -1;
		}
		w->idat = 1;
	} else if (memcmp(t, "IEND", 4)) {
		strbuf_addf(why,
		            "an unknown critical chunk '%.4s' (or IHDR "
		            "twice)",
		            (const char *)t);
		return -1;
	}
	return 0;
}

static int png_check(const unsigned char *d, size_t n, struct img_info *in,
                     struct strbuf *why)
{
	struct png_walk w = {0, 0, 0, 0, 0};
	size_t i = 8, k;
	uint32_t len;
	const unsigned char *t;
	int first = 1;

	for (;;) {
		if (n - i < 12) {
			strbuf_adds(why, first ? "no IHDR chunk"
			                       : "truncated: no IEND chunk");
			return -1;
		}
		len = be32(d + i);
		t = d + i + 4;
		if (len > 0x7fffffffu || len > n - i - 12) {
			strbuf_addf(why,
			            "chunk at byte %zu: length %u runs "
			            "past the end of the file",
			            i, (unsigned)len);
			return -1;
		}
		for (k = 0; k < 4; k++)
			if (!((t[k] >= 'a' && t[k] <= 'z') ||
			      (t[k] >= 'A' && t[k] <= 'Z'))) {
				strbuf_addf(why,
				            "chunk at byte %zu: a type that is "
				            "not four letters",
				            i);
				return -1;
			}
		if (crc32_png(t, 4 + (size_t)len) != be32(t + 4 + len)) {
			strbuf_addf(why, "chunk '%.4s' at byte %zu: bad CRC",
			            (const char *)t, i);
			return -1;
		}
		if (first) {
			if (memcmp(t, "IHDR", 4) || len != 13) {
				strbuf_adds(why, "the first chunk is not a "
				                 "13-byte IHDR");
				return -1;
			}
			if (png_header(t + 4, in, why))
				return -1;
			w.type = t[4 + 9];
			w.depth = t[4 + 8];
			first = 0;
		} else {
			if (w.idat && memcmp(t, "IDAT", 4))
				w.idat_done = 1;
			if (t[0] >= 'A' && t[0] <= 'Z' &&
			    png_critical(&w, t, len, why))
				return -1;
			if (!memcmp(t, "IEND", 4))
				break;
		}
		i += 12 + (size_t)len;
	}
	if (!w.idat) {
		strbuf_adds(why, "no image data (IDAT)");
		return -1;
	}
	return 0;
}

/* ---- JPEG ------------------------------------------------------------ */

struct jpeg_walk {
	int sof, dqt, dht, scans, progressive;
};

/* The frame header: the segment s[0..len) after its marker and length. */
static int jpeg_frame(unsigned m, const unsigned char *s, unsigned len,
                      struct img_info *in, struct strbuf *why)
{
	unsigned nf, k;

	if (m == 0xc3 || m >= 0xc5) {
		strbuf_addf(why,
		            "a %s JPEG (SOF marker 0x%02X): only baseline, "
		            "extended sequential and progressive Huffman-coded "
		            "JPEG is accepted",
		            m == 0xc3 || m == 0xc7 || m == 0xcb || m == 0xcf
		                ? "lossless"
		            : m >= 0xc9 ? "arithmetic-coded"
		                        : "hierarchical",
		            m);
		return -1;
	}
	if (len < 6) {
		strbuf_adds(why, "a frame header (SOF) that is too short");
		return -1;
	}
	nf = s[5];
	if (s[0] != 8) {
		strbuf_addf(why, "%u-bit samples (only 8-bit JPEG is accepted)",
		            s[0]);
		return -1;
	}
	if (nf != 1 && nf != 3) {
		strbuf_addf(why,
		            "%u components (only greyscale or colour, 1 or 3; "
		            "CMYK and YCCK JPEG are refused)",
		            nf);
		return -1;
	}
	if (len != 6 + 3 * nf) {
		strbuf_adds(why, "a frame header (SOF) of a bad length");
		return -1;
	}
	for (k = 0; k < nf; k++) {
		unsigned h = s[7 + 3 * k] >> 4, v = s[7 + 3 * k] & 15;
		if (h < 1 || h > 4 || v < 1 || v > 4 || s[8 + 3 * k] > 3) {
			strbuf_addf(why,
			            "component %u: bad sampling factors "
			            "or table",
			            k + 1);
			return -1;
		}
	}
	in->height = be16(s + 1);
	in->width = be16(s + 3);
	in->channels = nf;
	in->depth = 8;
	in->progressive = m == 0xc2;
	return check_size(in, why);
}

/* Index past the entropy-coded data starting at i (the next marker), its
 * data bytes counted in *bytes. */
static size_t jpeg_entropy(const unsigned char *d, size_t n, size_t i,
                           size_t *bytes)
{
	*bytes = 0;
	while (i < n) {
		if (d[i] != 0xff) {
			i++;
			++*bytes;
		} else if (i + 1 >= n) {
			return n;
		} else if (d[i + 1] == 0x00) {
			i += 2; /* a stuffed 0xFF */
			++*bytes;
		} else if (d[i + 1] == 0xff) {
			i++; /* fill */
		} else if (d[i + 1] >= 0xd0 && d[i + 1] <= 0xd7) {
			i += 2; /* a restart marker */
		} else {
			return i;
		}
	}
	return n;
}

/* Whether a scan of ns components with Ss, Se, Ah/Al at p[0..3) is one a
 * frame allows (T.81 B.2.3, G.1.1.1.1): sequential 0..63 without
 * approximation; progressive, a DC scan 0..0 or an AC scan of one
 * component within 1..63, with the point transform below 14. */
static int jpeg_spectral(int progressive, unsigned ns, const unsigned char *p)
{
	unsigned ss = p[0], se = p[1], ah = p[2] >> 4, al = p[2] & 15;

	if (!progressive)
		return ss == 0 && se == 63 && ah == 0 && al == 0;
	if (ah > 13 || al > 13)
		return 0;
	if (ss == 0)
		return se == 0;
	return ns == 1 && ss <= se && se <= 63;
}

/* The scan header s[0..len) and the data after it (from *i); *i moves
 * past the data. */
static int jpeg_scan(struct jpeg_walk *w, const unsigned char *d, size_t n,
                     const unsigned char *s, unsigned len, size_t *i,
                     struct strbuf *why)
{
	size_t bytes;

	if (!w->sof || !w->dqt || !w->dht) {
		strbuf_addf(why, "a scan (SOS) before its %s",
		            !w->sof   ? "frame header (SOF)"
		            : !w->dqt ? "quantisation tables (DQT)"
		                      : "Huffman tables (DHT)");
		return -1;
	}
	if (len < 1 || s[0] < 1 || s[0] > 4 || len != 4u + 2u * s[0]) {
		strbuf_adds(why, "a scan header (SOS) of a bad length");
		return -1;
	}
	if (!jpeg_spectral(w->progressive, s[0], s + 1 + 2 * s[0])) {
		strbuf_addf(
		    why,
		    "a scan (SOS) with a spectral selection %u..%u and "
		    "approximation %u/%u that a %s frame does not allow",
		    s[1 + 2 * s[0]], s[2 + 2 * s[0]], s[3 + 2 * s[0]] >> 4,
		    s[3 + 2 * s[0]] & 15,
		    w->progressive ? "progressive" : "sequential");
		return -1;
	}
	*i = jpeg_entropy(d, n, *i, &bytes);
	if (!bytes) {
		strbuf_adds(why, "a scan (SOS) with no data");
		return -1;
	}
	w->scans++;
	return 0;
}

static int jpeg_check(const unsigned char *d, size_t n, struct img_info *in,
                      struct strbuf *why)
{
	struct jpeg_walk w = {0, 0, 0, 0, 0};
	size_t i = 2;
	unsigned m, len;

	for (;;) {
		if (i >= n || d[i] != 0xff) {
			strbuf_addf(why, "%s at byte %zu",
			            i >= n ? "truncated: no EOI marker"
			                   : "not a marker",
			            i);
			return -1;
		}
		while (i < n && d[i] == 0xff)
			i++; /* fill bytes before a marker */
		if (i >= n)
			continue;
		m = d[i++];
		if (m == 0xd9) {
			if (!w.scans) {
				strbuf_adds(why, "no scan (SOS): no image "
				                 "data");
				return -1;
			}
			return 0;
		}
		if (m == 0x01 || (m >= 0xd0 && m <= 0xd7))
			continue; /* standalone */
		if (m == 0xd8 || m == 0x00) {
			strbuf_addf(why, "marker 0x%02X at byte %zu", m, i - 1);
			return -1;
		}
		if (n - i < 2 || (len = be16(d + i)) < 2 || len > n - i) {
			strbuf_addf(why,
			            "segment 0x%02X at byte %zu runs past the "
			            "end of the file",
			            m, i - 1);
			return -1;
		}
		i += len;
		len -= 2;
		if (m >= 0xc0 && m <= 0xcf && m != 0xc4 && m != 0xc8 &&
		    m != 0xcc) {
			if (w.sof++) {
				strbuf_adds(why, "two frame headers (SOF)");
				return -1;
			}
			if (jpeg_frame(m, d + i - len, len, in, why))
				return -1;
			w.progressive = in->progressive;
		} else if (m == 0xcc) {
			strbuf_adds(why, "arithmetic coding (DAC)");
			return -1;
		} else if (m == 0xdb) {
			w.dqt = 1;
		} else if (m == 0xc4) {
			w.dht = 1;
		} else if (m == 0xda &&
		           jpeg_scan(&w, d, n, d + i - len, len, &i, why)) {
			return -1;
		}
	}
}

int img_check(const unsigned char *data, size_t n, struct img_info *info,
              struct strbuf *why)
{
	memset(info, 0, sizeof(*info));
	info->kind = img_sniff(data, n);
	if (info->kind == IMG_PNG)
		return png_check(data, n, info, why);
	if (info->kind == IMG_JPEG)
		return jpeg_check(data, n, info, why);
	strbuf_adds(why, "not a PNG or JPEG image (by its first bytes)");
	return -1;
}
