/* A PNG or JPEG checked from its bytes (contract in imgcheck.h). Written
 * from the PNG specification (ISO/IEC 15948: chunks, IHDR's fields, the
 * CRC-32 of type and data) and the JPEG one (ITU-T T.81, annex B: markers,
 * segment lengths, the frame and scan headers, stuffed bytes and restart
 * markers in the entropy-coded data). */
#include "util/imgcheck.h"

#include <string.h>
#include <zlib.h>

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
	/* libharu 2.3.0 reads an interlaced PNG after libpng's warning that
	 * interlace handling is off, and takes every warning for an error:
	 * it never loads one */
	if (p[12]) {
		strbuf_adds(why, "an interlaced (Adam7) PNG, which the PDF "
		                 "writer cannot load: save it without "
		                 "interlacing");
		return -1;
	}
	in->channels = channels[type];
	if (depth < 8)
		in->depth = 8; /* decoders widen the samples to bytes */
	return check_size(in, why);
}

struct png_walk {
	unsigned type, depth; /* IHDR's colour type and bit depth */
	unsigned entries;     /* PLTE's */
	int plte, idat, trns; /* seen */
	int idat_done;        /* a chunk other than IDAT came after one */
	size_t first_idat;    /* offset of the first IDAT chunk */
};

/* tRNS (len bytes at p): where and how large the specification allows
 * it, each grey or colour sample within the bit depth (libpng warns of
 * others, and libharu 2.3.0 takes a warning for an error). */
static int png_trns(struct png_walk *w, const unsigned char *p, uint32_t len,
                    struct strbuf *why)
{
	unsigned max = w->depth < 16 ? (1u << w->depth) - 1 : 0xffffu, k;

	if (w->trns || w->idat || (w->type == 3 && !w->plte)) {
		strbuf_adds(why, "tRNS: twice, after IDAT, or before PLTE");
		return -1;
	}
	w->trns = 1;
	if (w->type == 4 || w->type == 6) {
		strbuf_adds(why, "tRNS in an image with an alpha channel");
		return -1;
	}
	if (w->type == 3 && (len == 0 || len > w->entries)) {
		strbuf_addf(why, "tRNS: %u entries for a palette of %u",
		            (unsigned)len, w->entries);
		return -1;
	}
	/* libharu 2.3.0 reads the indices of a palette image with
	 * transparency a byte each, past the end of its rows when they are
	 * packed */
	if (w->type == 3 && w->depth < 8) {
		strbuf_addf(why,
		            "a %u-bit palette image with transparency (tRNS), "
		            "which the PDF writer misreads: save it with an "
		            "8-bit palette or as RGBA",
		            w->depth);
		return -1;
	}
	if (w->type != 3 && len != (w->type == 0 ? 2u : 6u)) {
		strbuf_addf(why, "tRNS: %u bytes, not %u", (unsigned)len,
		            w->type == 0 ? 2u : 6u);
		return -1;
	}
	for (k = 0; w->type != 3 && k < len; k += 2)
		if (be16(p + k) > max) {
			strbuf_addf(why,
			            "tRNS: a sample of %u in a %u-bit image",
			            be16(p + k), w->depth);
			return -1;
		}
	return 0;
}

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
		w->entries = len / 3;
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

/* ---- PNG: the image data, inflated as libpng would ----------------- */

/* The data of the IDAT run, read as one stream across its chunks (the
 * chunks' lengths were checked by the walk). */
struct idat_cur {
	const unsigned char *d;
	size_t chunk;    /* offset of the current chunk */
	size_t pos, end; /* its data not yet read */
};

static void idat_open(struct idat_cur *c, const unsigned char *d, size_t at)
{
	c->d = d;
	c->chunk = at;
	c->pos = at + 8;
	c->end = c->pos + be32(d + at);
}

/* 1 with the cursor at the next IDAT chunk, 0 past the last one. */
static int idat_next(struct idat_cur *c)
{
	size_t next = c->end + 4;

	if (memcmp(c->d + next + 4, "IDAT", 4))
		return 0;
	idat_open(c, c->d, next);
	return 1;
}

/* The next byte of the stream, -1 at its end. */
static int idat_byte(struct idat_cur *c)
{
	while (c->pos == c->end)
		if (!idat_next(c))
			return -1;
	return c->d[c->pos++];
}

/* What libpng would make of the stream: the rows it inflates to. */
struct rows {
	struct idat_cur cur;
	uint64_t stride;    /* bytes a row: its filter byte, then samples */
	uint64_t want, got; /* bytes the header implies, and inflated */
	uint64_t col;       /* position in the current row */
	uint32_t adler;
	int too_long, bad_filter;
};

static unsigned rows_in(void *desc, z_const unsigned char **buf)
{
	struct idat_cur *c = &((struct rows *)desc)->cur;
	size_t len;

	while (c->pos == c->end)
		if (!idat_next(c))
			return 0;
	*buf = (z_const unsigned char *)(c->d + c->pos);
	len = c->end - c->pos;
	c->pos = c->end;
	return (unsigned)len;
}

/* Each row's filter byte (0 to 4; libpng's error on others ends the
 * process: libharu sets no recovery point), and no more than the header
 * implies. Non-zero stops the inflation. */
static int rows_out(void *desc, unsigned char *buf, unsigned len)
{
	struct rows *r = desc;
	uint64_t step;

	r->adler = (uint32_t)adler32(r->adler, buf, len);
	if (len > r->want - r->got) {
		r->too_long = 1;
		return 1;
	}
	while (len) {
		if (!r->col && *buf > 4) {
			r->bad_filter = *buf;
			return 1;
		}
		step = r->stride - r->col;
		if (step > len)
			step = len;
		buf += step;
		len -= (unsigned)step;
		r->got += step;
		r->col = (r->col + step) % r->stride;
	}
	return 0;
}

/* The zlib header's two bytes: deflate, a window of at most 32 KiB, the
 * check bits, no preset dictionary; the window's log2, or -1 with why. */
static int zlib_header(struct idat_cur *c, struct strbuf *why)
{
	int b0 = idat_byte(c), b1 = idat_byte(c);

	if (b1 < 0) {
		strbuf_adds(why, "IDAT: no zlib stream");
		return -1;
	}
	if ((b0 & 15) != 8 || b0 >> 4 > 7 || (b0 << 8 | b1) % 31 || b1 & 0x20) {
		strbuf_addf(why, "IDAT: a bad zlib header (0x%02X 0x%02X)", b0,
		            b1);
		return -1;
	}
	return (b0 >> 4) + 8;
}

/* After the deflate stream: its Adler-32, then nothing. */
static int zlib_trailer(struct rows *r, struct strbuf *why)
{
	uint32_t a = 0;
	int k, b;

	for (k = 0; k < 4; k++) {
		if ((b = idat_byte(&r->cur)) < 0) {
			strbuf_adds(why, "IDAT: the zlib stream is cut short "
			                 "(no Adler-32)");
			return -1;
		}
		a = a << 8 | (uint32_t)b;
	}
	if (a != r->adler) {
		strbuf_adds(why, "IDAT: the image data fails its Adler-32 "
		                 "check");
		return -1;
	}
	if (idat_byte(&r->cur) >= 0) {
		strbuf_adds(why, "IDAT: data after the end of the zlib stream");
		return -1;
	}
	return 0;
}

static void inflate_why(const struct rows *r, int ret, const z_stream *z,
                        struct strbuf *why)
{
	if (r->bad_filter)
		strbuf_addf(why,
		            "IDAT: row %llu has filter type %d (the "
		            "specification knows 0 to 4)",
		            (unsigned long long)(r->got / r->stride + 1),
		            r->bad_filter);
	else if (r->too_long)
		strbuf_addf(why,
		            "IDAT: more image data than the %llu bytes its "
		            "size implies",
		            (unsigned long long)r->want);
	else if (ret == Z_STREAM_END)
		strbuf_addf(why,
		            "IDAT: %llu bytes of image data, short of the "
		            "%llu its size implies",
		            (unsigned long long)r->got,
		            (unsigned long long)r->want);
	else if (ret == Z_BUF_ERROR && !z->next_in)
		strbuf_addf(why,
		            "IDAT: the zlib stream is cut short (%llu of %llu "
		            "bytes of image data)",
		            (unsigned long long)r->got,
		            (unsigned long long)r->want);
	else if (ret == Z_DATA_ERROR)
		strbuf_addf(why, "IDAT: a broken deflate stream (zlib: %s)",
		            z->msg ? z->msg : "data error");
	else
		strbuf_addf(why, "IDAT: cannot inflate (zlib error %d)", ret);
}

/* Inflates the IDAT run at offset first with zlib, a window at a time
 * and keeping no pixels, to prove that libpng cannot fail on it (libharu
 * 2.3.0 sets no recovery point, so a libpng error aborts the process):
 * a sound zlib header, a deflate stream that zlib inflates, whose
 * distances stay within the window the header declares (inflateBack
 * enforces that for any split of the input, where inflate's check
 * depends on how the output is cut), exactly the bytes the header
 * implies, every row's filter byte 0 to 4, the Adler-32, nothing after. */
static int png_idat(const unsigned char *d, size_t first,
                    const struct img_info *in, unsigned bits,
                    struct strbuf *why)
{
	unsigned char window[32768];
	struct rows r;
	z_stream z;
	int wbits, ret, bad = -1;

	memset(&r, 0, sizeof(r));
	memset(&z, 0, sizeof(z));
	idat_open(&r.cur, d, first);
	r.stride = 1 + ((uint64_t)in->width * bits + 7) / 8;
	r.want = r.stride * in->height;
	r.adler = (uint32_t)adler32(0, NULL, 0);
	if ((wbits = zlib_header(&r.cur, why)) < 0)
		return -1;
	if (inflateBackInit(&z, wbits, window) != Z_OK) {
		strbuf_adds(why, "cannot check the image data: zlib");
		return -1;
	}
	z.next_in = (z_const unsigned char *)(d + r.cur.pos);
	z.avail_in = (unsigned)(r.cur.end - r.cur.pos);
	r.cur.pos = r.cur.end;
	if (!z.avail_in)
		z.next_in = Z_NULL;
	ret = inflateBack(&z, rows_in, &r, rows_out, &r);
	/* the input the stream did not use goes back to the cursor */
	if (ret == Z_STREAM_END)
		r.cur.pos = r.cur.end - z.avail_in;
	if (ret != Z_STREAM_END || r.got != r.want || r.bad_filter ||
	    r.too_long)
		inflate_why(&r, ret, &z, why);
	else if (!zlib_trailer(&r, why))
		bad = 0;
	inflateBackEnd(&z);
	return bad;
}

static int png_check(const unsigned char *d, size_t n, struct img_info *in,
                     struct strbuf *why)
{
	struct png_walk w = {0, 0, 0, 0, 0, 0, 0, 0};
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
		if (crc32(0L, t, 4 + (uInt)len) != be32(t + 4 + len)) {
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
			if (!w.idat && !memcmp(t, "IDAT", 4))
				w.first_idat = i;
			if (t[0] >= 'A' && t[0] <= 'Z' &&
			    png_critical(&w, t, len, why))
				return -1;
			if (!memcmp(t, "tRNS", 4) &&
			    png_trns(&w, t + 4, len, why))
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
	return png_idat(d, w.first_idat, in, in->channels * w.depth, why);
}

void img_png_core(const unsigned char *d, size_t n, struct strbuf *out)
{
	size_t i = 8, len;
	const unsigned char *t;
	int palette = 0;

	strbuf_add(out, d, 8);
	while (n - i >= 12 && (len = be32(d + i)) <= n - i - 12) {
		t = d + i + 4;
		if (!memcmp(t, "IHDR", 4) && len == 13)
			palette = t[4 + 9] == 3;
		if (!memcmp(t, "IHDR", 4) || !memcmp(t, "IDAT", 4) ||
		    !memcmp(t, "IEND", 4) ||
		    (palette &&
		     (!memcmp(t, "PLTE", 4) || !memcmp(t, "tRNS", 4))))
			strbuf_add(out, d + i, 12 + len);
		if (!memcmp(t, "IEND", 4))
			break;
		i += 12 + len;
	}
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
