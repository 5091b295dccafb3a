/* TrueType structure check before libharu (contract in fontcheck.h).
 * Table layouts from the OpenType specification (offset table, head,
 * hhea, maxp, hmtx, loca, cmap formats 0 and 4, name, OS/2); what is
 * checked follows what libharu 2.3.0's loader reads. */
#include "format/pdf/fontcheck.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/xalloc.h"
#include "util/banned.h"

#define MAX_TABLES  512         /* libharu refuses more than 625 */
#define MAX_FACES   4096        /* faces in a collection */
#define CMAP_MAX    (16u << 20) /* bytes of cmap read */
#define NAME_MAX_B  (4u << 20)  /* bytes of name read */
#define NAME_BUDGET 127         /* libharu's base font name buffer */

/* Where the bytes come from: memory, or a file read with pread. */
struct src {
	const unsigned char *mem;
	int fd;
	uint64_t size;
};

/* A table's bytes (up to what is checked of it). */
struct blob {
	unsigned char *p;
	uint32_t len; /* the table's length in its record */
};

struct font {
	struct src src;
	struct strbuf *why;
	uint64_t base; /* the face's offset table */
	unsigned ntables;
	unsigned char *dir; /* ntables records of 16 bytes */
	unsigned ng, nhm, locfmt;
	struct blob head, hhea, maxp, os2, name, cmap, loca, post;
	uint32_t hmtx_len, glyf_len;
};

static unsigned u16(const unsigned char *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

static uint32_t u32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static int bad(struct font *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int bad(struct font *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(f->why, fmt, ap);
	va_end(ap);
	return -1;
}

/* Reads n bytes at off into buf; -1 when they are not all in the file. */
static int src_read(struct font *f, uint64_t off, void *buf, size_t n)
{
	const struct src *s = &f->src;
	size_t done = 0;

	if (off > s->size || n > s->size - off)
		return bad(f,
		           "truncated: %zu bytes at offset %llu are past "
		           "the end of the file (%llu bytes)",
		           n, (unsigned long long)off,
		           (unsigned long long)s->size);
	if (s->mem) {
		memcpy(buf, s->mem + off, n);
		return 0;
	}
	while (done < n) {
		ssize_t r = pread(s->fd, (char *)buf + done, n - done,
		                  (off_t)(off + done));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return bad(f, "read failed: %s",
			           r < 0 ? strerror(errno) : "file shrank");
		done += (size_t)r;
	}
	return 0;
}

/* The table record of tag (the first, as libharu's FindTable). */
static const unsigned char *record(const struct font *f, const char *tag)
{
	unsigned i;

	for (i = 0; i < f->ntables; i++)
		if (!memcmp(f->dir + 16 * i, tag, 4))
			return f->dir + 16 * i;
	return NULL;
}

/* Loads the first min(length, cap) bytes of table tag into b; the table
 * must exist and be at least min bytes long. */
static int load(struct font *f, const char *tag, uint32_t min, uint32_t cap,
                struct blob *b)
{
	const unsigned char *r = record(f, tag);
	uint32_t n;

	if (!r)
		return bad(f, "required table '%s' is missing", tag);
	b->len = u32(r + 12);
	if (b->len < min)
		return bad(f, "%s: %u bytes, at least %u needed", tag,
		           (unsigned)b->len, (unsigned)min);
	n = b->len < cap ? b->len : cap;
	b->p = xmalloc(n ? n : 1);
	return src_read(f, u32(r + 8), b->p, n);
}

/* The collection header: base receives the offset of face's font. */
static int check_ttc(struct font *f, int face)
{
	unsigned char h[12], o[4];
	uint32_t nfaces, version;

	if (src_read(f, 0, h, 12))
		return -1;
	if (memcmp(h, "ttcf", 4))
		return bad(f, "not a TrueType collection (no 'ttcf' tag), "
		              "though named .ttc");
	version = u32(h + 4);
	nfaces = u32(h + 8);
	if (version != 0x10000 && version != 0x20000)
		return bad(f, "collection version 0x%08X unknown",
		           (unsigned)version);
	if (nfaces < 1 || nfaces > MAX_FACES)
		return bad(f, "collection: %u fonts (1 to %u expected)",
		           (unsigned)nfaces, MAX_FACES);
	if ((uint32_t)face >= nfaces)
		return bad(f, "collection: no font %d (it has %u)", face,
		           (unsigned)nfaces);
	if (src_read(f, 12 + 4 * (uint64_t)face, o, 4))
		return -1;
	f->base = u32(o);
	return 0;
}

/* The offset table and the table records: each inside the file. */
static int check_dir(struct font *f)
{
	unsigned char h[12];
	uint32_t version;
	unsigned i;

	if (src_read(f, f->base, h, 12))
		return -1;
	version = u32(h);
	if (version == 0x4F54544Fu) /* 'OTTO' */
		return bad(f, "an OpenType font with CFF outlines; the PDF "
		              "needs TrueType (glyf) outlines");
	if (version == 0x74746366u) /* 'ttcf' */
		return bad(f, "a TrueType collection: name it with a .ttc "
		              "extension (its first font is used)");
	if (version != 0x10000 && version != 0x74727565u) /* 'true' */
		return bad(f, "not a TrueType font (sfnt version 0x%08X)",
		           (unsigned)version);
	f->ntables = u16(h + 4);
	if (f->ntables < 1 || f->ntables > MAX_TABLES)
		return bad(f, "%u tables (1 to %u expected)", f->ntables,
		           MAX_TABLES);
	f->dir = xmalloc(16 * (size_t)f->ntables);
	if (src_read(f, f->base + 12, f->dir, 16 * (size_t)f->ntables))
		return -1;
	for (i = 0; i < f->ntables; i++) {
		const unsigned char *r = f->dir + 16 * i;
		uint64_t off = u32(r + 8), len = u32(r + 12);
		if (off + len > f->src.size)
			return bad(f,
			           "table '%.4s': offset %llu + length %llu "
			           "is past the end of the file (%llu bytes)",
			           (const char *)r, (unsigned long long)off,
			           (unsigned long long)len,
			           (unsigned long long)f->src.size);
	}
	return 0;
}

/* head, maxp, hhea, hmtx: the numbers libharu divides by and sizes its
 * arrays with. */
static int check_metrics(struct font *f)
{
	const unsigned char *hmtx = record(f, "hmtx");
	unsigned upem;

	if (load(f, "head", 54, 54, &f->head) ||
	    load(f, "maxp", 6, 6, &f->maxp) ||
	    load(f, "hhea", 36, 36, &f->hhea))
		return -1;
	if (u32(f->head.p + 12) != 0x5F0F3CF5u)
		return bad(f, "head: wrong magic number 0x%08X",
		           (unsigned)u32(f->head.p + 12));
	upem = u16(f->head.p + 18);
	if (upem < 16 || upem > 16384)
		return bad(f, "head: unitsPerEm %u (16 to 16384 expected)",
		           upem);
	f->locfmt = u16(f->head.p + 50);
	if (f->locfmt > 1)
		return bad(f, "head: indexToLocFormat %u (0 or 1 expected)",
		           f->locfmt);
	f->ng = u16(f->maxp.p + 4);
	if (f->ng < 1)
		return bad(f, "maxp: numGlyphs is 0");
	f->nhm = u16(f->hhea.p + 34);
	if (f->nhm < 1 || f->nhm > f->ng)
		return bad(f,
		           "hhea: numberOfHMetrics %u (1 to numGlyphs %u "
		           "expected)",
		           f->nhm, f->ng);
	if (!hmtx)
		return bad(f, "required table 'hmtx' is missing");
	f->hmtx_len = u32(hmtx + 12);
	if (f->hmtx_len < 4u * f->nhm + 2u * (f->ng - f->nhm))
		return bad(f, "hmtx: %u bytes, %u needed for %u glyphs",
		           (unsigned)f->hmtx_len,
		           4u * f->nhm + 2u * (f->ng - f->nhm), f->ng);
	return 0;
}

/* loca: numGlyphs + 1 offsets, rising, the last inside glyf. */
static int check_loca(struct font *f)
{
	const unsigned char *glyf = record(f, "glyf");
	unsigned w = f->locfmt ? 4 : 2, i;
	uint64_t prev = 0, cur;

	if (!glyf)
		return bad(f, "required table 'glyf' is missing");
	f->glyf_len = u32(glyf + 12);
	if (load(f, "loca", (f->ng + 1) * w, (f->ng + 1) * w, &f->loca))
		return -1;
	for (i = 0; i <= f->ng; i++, prev = cur) {
		const unsigned char *p = f->loca.p + (size_t)i * w;
		cur = f->locfmt ? u32(p) : 2u * (uint64_t)u16(p);
		if (cur < prev)
			return bad(f, "loca: glyph %u starts before glyph %u",
			           i, i - 1);
	}
	if (prev > f->glyf_len)
		return bad(f, "loca: glyphs end at %llu, past glyf's %u bytes",
		           (unsigned long long)prev, (unsigned)f->glyf_len);
	return 0;
}

/* The cmap subtable libharu uses: its offset in cmap and format (4 or
 * 0), or -1. */
static int pick_subtable(struct font *f, uint32_t *off, unsigned *format)
{
	const unsigned char *c = f->cmap.p;
	uint32_t n = f->cmap.len, ms = 0, byte = 0, uni = 0, o;
	unsigned count = u16(c + 2), i, pid, eid, fmt;

	if (u16(c) != 0)
		return bad(f, "cmap: version %u (0 expected)", u16(c));
	if (4 + 8 * (uint64_t)count > n)
		return bad(f,
		           "cmap: %u encoding records do not fit in %u "
		           "bytes",
		           count, (unsigned)n);
	for (i = 0; i < count && !ms; i++) {
		pid = u16(c + 4 + 8 * i);
		eid = u16(c + 6 + 8 * i);
		o = u32(c + 8 + 8 * i);
		if ((uint64_t)o + 2 > n)
			return bad(f,
			           "cmap: subtable %u at offset %u is past "
			           "the table's %u bytes",
			           i, (unsigned)o, (unsigned)n);
		fmt = u16(c + o);
		if (pid == 3 && eid == 1 && fmt == 4)
			ms = o;
		else if (pid == 1 && eid == 0 && fmt == 0)
			byte = o;
		else if (pid == 0 && eid == 3 && fmt == 4)
			uni = o;
	}
	*off = ms ? ms : byte ? byte : uni;
	*format = ms || (!byte && uni) ? 4 : 0;
	if (!*off)
		return bad(f, "cmap: no Unicode subtable ((3,1) or (0,3) "
		              "format 4, or (1,0) format 0)");
	return 0;
}

/* The glyph libharu's lookup gives code point c in segment i of the
 * format 4 subtable at s (segments already checked): idDelta is added to
 * the glyph index array's entry even when that entry is 0. */
static unsigned f4_glyph(const unsigned char *s, unsigned segs, unsigned i,
                         unsigned c)
{
	const unsigned char *start = s + 16 + 2 * segs;
	const unsigned char *delta = start + 2 * segs, *ro = delta + 2 * segs;
	unsigned r = u16(ro + 2 * i);

	if (!r)
		return (c + u16(delta + 2 * i)) & 0xFFFF;
	return (u16(ro + 2 * i + r + 2 * (c - u16(start + 2 * i))) +
	        u16(delta + 2 * i)) &
	       0xFFFF;
}

/* One segment of format 4: in order, its glyph index array entries
 * inside the array (libharu reads glyph_id_array[idx] with idx up to the
 * array's count inclusive: one past its end), every glyph it maps below
 * numGlyphs (libharu reads the glyph's loca entry unchecked). */
static int f4_segment(struct font *f, const unsigned char *s, uint32_t len,
                      unsigned segs, unsigned i, unsigned prev_end)
{
	unsigned e = u16(s + 14 + 2 * i), b = u16(s + 16 + 2 * segs + 2 * i);
	unsigned r = u16(s + 16 + 6 * segs + 2 * i), c, g;
	uint64_t arr = 16 + 8 * (uint64_t)segs, first, last;

	if (b > e || (i && b <= prev_end))
		return bad(f, "cmap: segment %u (%04X-%04X) out of order", i, b,
		           e);
	if (r) {
		/* the entry of code c: idRangeOffset[i] + r + 2 (c - b) */
		first = 16 + 6 * (uint64_t)segs + 2 * i + r;
		last = first + 2 * (uint64_t)(e - b);
		if ((r & 1) || first < arr ||
		    (last - arr) / 2 >= (len - arr) / 2)
			return bad(f,
			           "cmap: segment %u reads outside its glyph "
			           "index array",
			           i);
	}
	for (c = b; c <= e; c++)
		if ((g = f4_glyph(s, segs, i, c)) >= f->ng)
			return bad(f,
			           "cmap: U+%04X maps to glyph %u, the font "
			           "has %u",
			           c, g, f->ng);
	return 0;
}

static int check_format4(struct font *f, uint32_t off)
{
	const unsigned char *s = f->cmap.p + off;
	uint32_t room = f->cmap.len - off, len;
	unsigned segs, i, prev = 0;

	if (room < 14)
		return bad(f, "cmap: format 4 subtable cut short");
	len = u16(s + 2);
	segs = u16(s + 6) / 2;
	if (len > room)
		return bad(f, "cmap: format 4 length %u past the table",
		           (unsigned)len);
	if ((u16(s + 6) & 1) || segs < 1)
		return bad(f, "cmap: segCountX2 %u (even, >= 2 expected)",
		           u16(s + 6));
	if (16 + 8 * (uint64_t)segs > len)
		return bad(f,
		           "cmap: %u segments do not fit in the format 4 "
		           "length %u",
		           segs, (unsigned)len);
	if (u16(s + 14 + 2 * (segs - 1)) != 0xFFFF)
		return bad(f, "cmap: the last segment does not end at U+FFFF");
	for (i = 0; i < segs; i++) {
		if (f4_segment(f, s, len, segs, i, prev))
			return -1;
		prev = u16(s + 14 + 2 * i);
	}
	return 0;
}

static int check_cmap(struct font *f)
{
	uint32_t off;
	unsigned format, i;

	if (load(f, "cmap", 4, CMAP_MAX, &f->cmap))
		return -1;
	if (f->cmap.len > CMAP_MAX)
		return bad(f, "cmap: %u bytes, more than %u MiB",
		           (unsigned)f->cmap.len, CMAP_MAX >> 20);
	if (pick_subtable(f, &off, &format))
		return -1;
	if (format == 4)
		return check_format4(f, off);
	if ((uint64_t)off + 6 + 256 > f->cmap.len)
		return bad(f, "cmap: format 0 subtable cut short");
	for (i = 0; i < 256; i++)
		if (f->cmap.p[off + 6 + i] >= f->ng)
			return bad(f,
			           "cmap: code %u maps to glyph %u, the font "
			           "has %u",
			           i, f->cmap.p[off + 6 + i], f->ng);
	return 0;
}

/* The name records libharu copies: the PostScript name (6) and the
 * subfamily (2), Macintosh Roman (1,0) or Windows Unicode US English
 * (3,1,0x409), the last of each kind; slot k = 0, 1 (Macintosh 6, 2) and
 * 2, 3 (Windows 6, 2). */
static void name_pick(const unsigned char *r, int have[4], unsigned len[4])
{
	unsigned pid = u16(r), eid = u16(r + 2), lid = u16(r + 4);
	unsigned nid = u16(r + 6), k;

	if (nid != 6 && nid != 2)
		return;
	if (pid == 1 && eid == 0)
		k = nid == 6 ? 0 : 1;
	else if (pid == 3 && eid == 1 && lid == 0x409)
		k = nid == 6 ? 2 : 3;
	else
		return;
	have[k] = 1;
	len[k] = u16(r + 8);
}

static int check_name(struct font *f)
{
	const unsigned char *n;
	unsigned count, i, len[4] = {0, 0, 0, 0}, ps, sub;
	int have[4] = {0, 0, 0, 0};
	uint32_t strings;

	if (load(f, "name", 6, NAME_MAX_B, &f->name))
		return -1;
	if (f->name.len > NAME_MAX_B)
		return bad(f, "name: %u bytes, more than %u MiB",
		           (unsigned)f->name.len, NAME_MAX_B >> 20);
	n = f->name.p;
	count = u16(n + 2);
	strings = u16(n + 4);
	if (6 + 12 * (uint64_t)count > f->name.len || strings > f->name.len)
		return bad(f, "name: %u records do not fit in %u bytes", count,
		           (unsigned)f->name.len);
	for (i = 0; i < count; i++) {
		const unsigned char *r = n + 6 + 12 * i;
		if ((uint64_t)strings + u16(r + 10) + u16(r + 8) > f->name.len)
			return bad(f,
			           "name: record %u's string is past the "
			           "table",
			           i);
		name_pick(r, have, len);
	}
	if (!(have[0] || have[2]) || !(have[1] || have[3]))
		return bad(f, "name: no PostScript name or no subfamily name");
	/* libharu: the Macintosh length, else half the Unicode one; the two
	 * and 8 more must fit its 127-byte buffer */
	ps = len[0] ? len[0] : len[2] / 2 + len[2] % 2;
	sub = len[1] ? len[1] : len[3] / 2 + len[3] % 2;
	if (!ps)
		return bad(f, "name: the PostScript name is empty");
	if (ps + sub + 8 > NAME_BUDGET)
		return bad(f,
		           "name: PostScript name (%u) and subfamily (%u) "
		           "longer than %u bytes together",
		           ps, sub, NAME_BUDGET - 8);
	return 0;
}

static int check_os2(struct font *f)
{
	unsigned version, need;

	if (load(f, "OS/2", 78, 90, &f->os2))
		return -1;
	version = u16(f->os2.p);
	need = version >= 2 ? 90 : version == 1 ? 86 : 78;
	if (f->os2.len < need)
		return bad(f, "OS/2: version %u needs %u bytes, has %u",
		           version, need, (unsigned)f->os2.len);
	if (u16(f->os2.p + 8) & 0x0302)
		return bad(f, "OS/2: fsType 0x%04X forbids embedding the font",
		           u16(f->os2.p + 8));
	if (record(f, "post") && load(f, "post", 12, 12, &f->post))
		return -1;
	return 0;
}

static void font_release(struct font *f)
{
	struct blob *b[] = {&f->head, &f->hhea, &f->maxp, &f->os2,
	                    &f->name, &f->cmap, &f->loca, &f->post};
	size_t i;

	for (i = 0; i < sizeof(b) / sizeof(b[0]); i++)
		free(b[i]->p);
	free(f->dir);
}

static int check(struct src *s, int face, struct strbuf *why)
{
	struct font f;
	int ret;

	memset(&f, 0, sizeof(f));
	f.src = *s;
	f.why = why;
	ret = (face >= 0 && check_ttc(&f, face)) || check_dir(&f) ||
	              check_metrics(&f) || check_loca(&f) || check_cmap(&f) ||
	              check_name(&f) || check_os2(&f)
	          ? -1
	          : 0;
	font_release(&f);
	return ret;
}

int fontcheck_mem(const unsigned char *data, size_t n, int face,
                  struct strbuf *why)
{
	struct src s = {data, -1, n};
	return check(&s, face, why);
}

int fontcheck_file(const char *path, int face, struct strbuf *why)
{
	struct src s = {NULL, -1, 0};
	struct stat st;
	int ret;

	s.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (s.fd < 0) {
		strbuf_adds(why, strerror(errno));
		return -1;
	}
	if (fstat(s.fd, &st) || !S_ISREG(st.st_mode)) {
		strbuf_adds(why, "not a regular file");
		ret = -1;
	} else if ((uint64_t)st.st_size > FONTCHECK_MAX_BYTES) {
		strbuf_addf(why, "larger than %u MiB",
		            FONTCHECK_MAX_BYTES >> 20);
		ret = -1;
	} else {
		s.size = (uint64_t)st.st_size;
		ret = check(&s, face, why);
	}
	close(s.fd);
	return ret;
}
