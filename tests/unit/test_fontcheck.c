/* Unit tests of render/fontcheck: real fonts pass, each corruption libharu
 * would mishandle is refused with its reason. The corruptions are made in
 * a copy of DejaVu Sans (fonts-dejavu-core, a build dependency). */
#include "unit.h"

#include "format/pdf/fontcheck.h"
#include "util/fileio.h"
#include "util/strbuf.h"

#define DEJAVU "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
#define WQY    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"

struct font {
	struct strbuf bytes;
};

static int font_setup(void **state)
{
	struct font *f = calloc(1, sizeof(*f));
	struct err e = ERR_INIT;

	if (!f || fileio_read_small(DEJAVU, 8u << 20, &f->bytes, &e))
		return -1;
	*state = f;
	return 0;
}

static int font_teardown(void **state)
{
	struct font *f = *state;

	strbuf_release(&f->bytes);
	free(f);
	return 0;
}

static unsigned char *b(struct font *f)
{
	return (unsigned char *)f->bytes.buf;
}

static unsigned get16(const unsigned char *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

static void put16(unsigned char *p, unsigned v)
{
	p[0] = (unsigned char)(v >> 8);
	p[1] = (unsigned char)v;
}

static void put32(unsigned char *p, unsigned long v)
{
	put16(p, (unsigned)(v >> 16));
	put16(p + 2, (unsigned)(v & 0xFFFF));
}

/* The table record of tag in the font. */
static unsigned char *rec(struct font *f, const char *tag)
{
	unsigned n = get16(b(f) + 4), i;

	for (i = 0; i < n; i++)
		if (!memcmp(b(f) + 12 + 16 * i, tag, 4))
			return b(f) + 12 + 16 * i;
	fail_msg("no table %s", tag);
	return NULL;
}

/* The table data of tag. */
static unsigned char *tab(struct font *f, const char *tag)
{
	const unsigned char *r = rec(f, tag);
	return b(f) + ((unsigned long)get16(r + 8) << 16 | get16(r + 10));
}

/* The check's verdict on f: "" when accepted, else the reason. */
static const char *verdict(struct font *f, int face, struct strbuf *why)
{
	strbuf_reset(why);
	if (!fontcheck_mem(b(f), f->bytes.len, face, why))
		return "";
	assert_true(why->len > 0);
	return why->buf;
}

#define REFUSED(f, face, text)                                                 \
	do {                                                                   \
		struct strbuf w_ = STRBUF_INIT;                                \
		const char *v_ = verdict(f, face, &w_);                        \
		if (!strstr(v_, text))                                         \
			fail_msg("expected '%s', got '%s'", text, v_);         \
		strbuf_release(&w_);                                           \
	} while (0)

static void fontcheck_accepts_the_default_fonts(void **state)
{
	struct strbuf why = STRBUF_INIT;

	(void)state;
	assert_int_equal(fontcheck_file(DEJAVU, -1, &why), 0);
	assert_int_equal(fontcheck_file(WQY, 0, &why), 0);
	assert_int_equal(why.len, 0);
	/* DejaVu is no collection; a missing file is refused with errno */
	assert_int_equal(fontcheck_file(DEJAVU, 0, &why), -1);
	assert_non_null(strstr(why.buf, "no 'ttcf' tag"));
	strbuf_reset(&why);
	assert_int_equal(fontcheck_file("/nonexistent.ttf", -1, &why), -1);
	assert_string_equal(why.buf, "No such file or directory");
	strbuf_release(&why);
}

static void fontcheck_refuses_hmetrics_above_glyphs(void **state)
{
	struct font *f = *state;

	/* libharu writes numberOfHMetrics records into a numGlyphs array */
	put16(tab(f, "hhea") + 34, 65535);
	REFUSED(f, -1, "hhea: numberOfHMetrics 65535 (1 to numGlyphs");
}

static void fontcheck_refuses_zero_units_per_em(void **state)
{
	struct font *f = *state;

	/* libharu divides by it */
	put16(tab(f, "head") + 18, 0);
	REFUSED(f, -1, "head: unitsPerEm 0 (16 to 16384 expected)");
}

static void fontcheck_refuses_zero_glyphs(void **state)
{
	struct font *f = *state;

	put16(tab(f, "maxp") + 4, 0);
	REFUSED(f, -1, "maxp: numGlyphs is 0");
}

static void fontcheck_refuses_a_table_past_the_end(void **state)
{
	struct font *f = *state;

	put32(rec(f, "loca") + 8, (unsigned long)f->bytes.len - 10);
	REFUSED(f, -1, "table 'loca': offset");
	REFUSED(f, -1, "is past the end of the file");
}

static void fontcheck_refuses_a_truncated_file(void **state)
{
	struct font *f = *state;

	f->bytes.len = 5000;
	REFUSED(f, -1, "is past the end of the file (5000 bytes)");
	f->bytes.len = 7;
	REFUSED(f, -1, "truncated: 12 bytes at offset 0");
	f->bytes.len = 0;
	REFUSED(f, -1, "truncated");
}

static void fontcheck_refuses_bad_table_counts(void **state)
{
	struct font *f = *state;

	put16(b(f) + 4, 60000);
	REFUSED(f, -1, "60000 tables (1 to 512 expected)");
	put16(b(f) + 4, 0);
	REFUSED(f, -1, "0 tables");
}

static void fontcheck_refuses_other_formats(void **state)
{
	struct font *f = *state;

	memcpy(b(f), "OTTO", 4);
	REFUSED(f, -1, "CFF outlines");
	memcpy(b(f), "ttcf", 4);
	REFUSED(f, -1, "a TrueType collection: name it with a .ttc");
	memcpy(b(f), "wOFF", 4);
	REFUSED(f, -1, "not a TrueType font (sfnt version 0x774F4646)");
}

static void fontcheck_refuses_a_missing_table(void **state)
{
	struct font *f = *state;

	memcpy(rec(f, "cmap"), "xmap", 4);
	REFUSED(f, -1, "required table 'cmap' is missing");
}

static void fontcheck_refuses_loca_going_backwards(void **state)
{
	struct font *f = *state;
	unsigned char *loca = tab(f, "loca");
	int longfmt = get16(tab(f, "head") + 50) == 1;

	/* glyph 5 starting at 0 again */
	if (longfmt)
		put32(loca + 4 * 5, 0);
	else
		put16(loca + 2 * 5, 0);
	REFUSED(f, -1, "loca: glyph 5 starts before glyph 4");
}

/* The (3,1) format 4 subtable of f. */
static unsigned char *format4(struct font *f)
{
	unsigned char *c = tab(f, "cmap");
	unsigned n = get16(c + 2), i;

	for (i = 0; i < n; i++)
		if (get16(c + 4 + 8 * i) == 3 && get16(c + 6 + 8 * i) == 1)
			return c + ((unsigned long)get16(c + 8 + 8 * i) << 16 |
			            get16(c + 10 + 8 * i));
	fail_msg("no (3,1) cmap");
	return NULL;
}

static void fontcheck_refuses_bad_cmap_segments(void **state)
{
	struct font *f = *state;
	unsigned char *s = format4(f);
	unsigned segs = get16(s + 6) / 2;

	/* the lookup runs past the segments when U+FFFF is not closed */
	put16(s + 14 + 2 * (segs - 1), 0xFFFE);
	REFUSED(f, -1, "the last segment does not end at U+FFFF");
	put16(s + 14 + 2 * (segs - 1), 0xFFFF);
	put16(s + 6, 65534);
	REFUSED(f, -1, "32767 segments do not fit");
	put16(s + 6, 2 * segs + 1);
	REFUSED(f, -1, "segCountX2");
}

static void fontcheck_refuses_glyphs_beyond_num_glyphs(void **state)
{
	struct font *f = *state;
	unsigned char *s = format4(f);
	unsigned segs = get16(s + 6) / 2;

	/* segment 0 (with idRangeOffset 0) shifted by idDelta far up */
	put16(s + 16 + 6 * segs, 0);
	put16(s + 16 + 4 * segs, 0x8000);
	REFUSED(f, -1, "maps to glyph");
}

static void fontcheck_refuses_long_names(void **state)
{
	struct font *f = *state;
	unsigned char *n = tab(f, "name");
	unsigned count = get16(n + 2), i;

	/* libharu copies the PostScript name into a 127-byte buffer */
	for (i = 0; i < count; i++) {
		unsigned char *r = n + 6 + 12 * i;
		if (get16(r + 6) == 6)
			put16(r + 8, 200);
	}
	REFUSED(f, -1, "name: PostScript name (200)");
}

static void fontcheck_refuses_restricted_embedding(void **state)
{
	struct font *f = *state;

	put16(tab(f, "OS/2") + 8, 0x0002);
	REFUSED(f, -1, "OS/2: fsType 0x0002 forbids embedding");
}

static void fontcheck_refuses_bad_collections(void **state)
{
	struct font *f = *state;
	struct strbuf ttc = STRBUF_INIT;
	unsigned char *h;

	/* a collection header in front of DejaVu: face 0's offset is past
	 * the end, then there are 2^31 faces, then face 3 of 1 */
	strbuf_addchars(&ttc, 0, 16);
	strbuf_addbuf(&ttc, &f->bytes);
	h = (unsigned char *)ttc.buf;
	memcpy(h, "ttcf", 4);
	put32(h + 4, 0x10000);
	put32(h + 8, 1);
	put32(h + 12, 0x7FFFFFF0ul);
	strbuf_release(&f->bytes);
	f->bytes = ttc;
	REFUSED(f, 0, "truncated: 12 bytes at offset 2147483632");
	put32(b(f) + 8, 0x7FFFFFFFul);
	REFUSED(f, 0, "collection: 2147483647 fonts");
	put32(b(f) + 8, 1);
	REFUSED(f, 3, "collection: no font 3 (it has 1)");
	put32(b(f) + 4, 0x30000);
	REFUSED(f, 0, "collection version 0x00030000 unknown");
}

#define TF(t) cmocka_unit_test_setup_teardown(t, font_setup, font_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(fontcheck_accepts_the_default_fonts),
	    TF(fontcheck_refuses_hmetrics_above_glyphs),
	    TF(fontcheck_refuses_zero_units_per_em),
	    TF(fontcheck_refuses_zero_glyphs),
	    TF(fontcheck_refuses_a_table_past_the_end),
	    TF(fontcheck_refuses_a_truncated_file),
	    TF(fontcheck_refuses_bad_table_counts),
	    TF(fontcheck_refuses_other_formats),
	    TF(fontcheck_refuses_a_missing_table),
	    TF(fontcheck_refuses_loca_going_backwards),
	    TF(fontcheck_refuses_bad_cmap_segments),
	    TF(fontcheck_refuses_glyphs_beyond_num_glyphs),
	    TF(fontcheck_refuses_long_names),
	    TF(fontcheck_refuses_restricted_embedding),
	    TF(fontcheck_refuses_bad_collections),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
