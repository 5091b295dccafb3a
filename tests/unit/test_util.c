/* Unit tests of util/: strbuf, utf8, strtab, numfmt, sha256, fileio, err,
 * decimal. */
#include "unit.h"

#include "util/decimal.h"
#include "util/err.h"
#include "util/fileio.h"
#include "util/numfmt.h"
#include "util/sha256.h"
#include "util/sortcmp.h"
#include "util/strbuf.h"
#include "util/strtab.h"
#include "util/utf8.h"

/* ---- strbuf ------------------------------------------------------------ */

static void strbuf_starts_empty_and_nul_terminated(void **state)
{
	struct strbuf a = STRBUF_INIT, b;

	(void)state;
	strbuf_init(&b);
	assert_string_equal(b.buf, "");
	assert_int_equal(b.len, 0);
	strbuf_addch(&a, 'x');
	assert_string_equal(a.buf, "x");
	assert_int_equal(a.len, 1);
	strbuf_release(&a);
	strbuf_release(&b);
	/* usable again after release */
	strbuf_adds(&a, "again");
	assert_string_equal(a.buf, "again");
	strbuf_release(&a);
}

static void strbuf_addf_grows_for_long_output(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char big[5001];
	size_t i;

	(void)state;
	memset(big, 'q', 5000);
	big[5000] = '\0';
	strbuf_addf(&sb, "<%s>", big); /* far beyond the first 64 bytes */
	assert_int_equal(sb.len, 5002);
	assert_true(sb.alloc > sb.len);
	assert_int_equal(sb.buf[0], '<');
	assert_int_equal(sb.buf[5001], '>');
	assert_int_equal(sb.buf[5002], '\0');
	strbuf_reset(&sb);
	assert_int_equal(sb.len, 0);
	assert_string_equal(sb.buf, "");
	for (i = 0; i < 1000; i++)
		strbuf_addf(&sb, "%zu,", i % 10);
	assert_int_equal(sb.len, 2000);
	assert_memory_equal(sb.buf, "0,1,2,3,4,5,6,7,8,9,0,", 22);
	assert_memory_equal(sb.buf + 1980, "0,1,2,3,4,5,6,7,8,9,", 21);
	strbuf_release(&sb);
}

static void strbuf_add_family(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char *s;
	size_t len = 99;

	(void)state;
	strbuf_add(&sb, "ab\0cd", 5);
	assert_int_equal(sb.len, 5);
	assert_memory_equal(sb.buf, "ab\0cd", 6);
	strbuf_adds(&sb, "ef");
	strbuf_addch(&sb, 'g');
	strbuf_addchars(&sb, '-', 3);
	assert_int_equal(sb.len, 11);
	assert_memory_equal(sb.buf, "ab\0cdefg---", 12);
	strbuf_addchars(&sb, '=', 0);
	assert_int_equal(sb.len, 11);
	s = strbuf_detach(&sb, &len);
	assert_int_equal(len, 11);
	assert_memory_equal(s, "ab\0cdefg---", 12);
	/* detach empties the strbuf */
	assert_int_equal(sb.len, 0);
	assert_string_equal(sb.buf, "");
	free(s);
	s = strbuf_detach(&sb, NULL); /* an empty strbuf detaches as "" */
	assert_string_equal(s, "");
	free(s);
	strbuf_release(&sb);
}

static void strbuf_add_sanitized_shows_controls_and_bad_bytes(void **state)
{
	static const struct {
		const char *in;
		size_t len;
		const char *out;
	} t[] = {
	    {"plain", 5, "plain"},
	    {"a\tb\nc\x7f", 6, "a\\x09b\\x0Ac\\x7F"},
	    {"nul\0x", 5, "nul\\x00x"},
	    {"\xe4\xbd\xa0\xe5\xa5\xbd", 6, "\xe4\xbd\xa0\xe5\xa5\xbd"},
	    {"bad\xff\xfe", 5, "bad\\xFF\\xFE"},
	    {"cut\xe4\xbd", 5, "cut\\xE4\\xBD"},
	    {"\xc0\x80", 2, "\\xC0\\x80"},          /* overlong NUL */
	    {"\xed\xa0\x80", 3, "\\xED\\xA0\\x80"}, /* surrogate */
	    {"\x1b]0;PWNED\a\x1b[2J", 14, "\\x1B]0;PWNED\\x07\\x1B[2J"},
	    {"c1\xc2\x9b"
	     "2J",
	     6, "c1\\xC2\\x9B2J"},       /* U+009B, CSI */
	    {"\xc2\xa0", 2, "\xc2\xa0"}, /* U+00A0 is text */
	    /* bidirectional controls (issue 23): U+202E, U+2066, U+200F,
	     * U+061C; U+2010 (a hyphen) and U+2070 are text */
	    {"a\xe2\x80\xae"
	     "b",
	     5, "a\\u202Eb"},
	    {"\xe2\x81\xa6\xe2\x80\x8f\xd8\x9c", 8, "\\u2066\\u200F\\u061C"},
	    {"\xe2\x80\x90\xe2\x81\xb0", 6, "\xe2\x80\x90\xe2\x81\xb0"},
	};
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_LEN(t); i++) {
		strbuf_reset(&sb);
		strbuf_add_sanitized(&sb, t[i].in, t[i].len);
		assert_string_equal(sb.buf, t[i].out);
	}
	/* the multi-line variant keeps newlines, and only them */
	strbuf_reset(&sb);
	strbuf_add_printable(&sb, "a\nb\r\n\x1b[2J\n", 10);
	assert_string_equal(sb.buf, "a\nb\\x0D\n\\x1B[2J\n");
	strbuf_release(&sb);
}

static void strbuf_add_quoted_value_truncates_at_utf8_boundary(void **state)
{
	static const struct {
		const char *in;
		size_t max;
		const char *out;
	} t[] = {
	    {"abc", 10, "'abc'"},
	    {"abc", 3, "'abc'"}, /* exactly max: not cut */
	    {"abcdef", 3, "'abc...'"},
	    {"", 5, "''"},
	    /* "a" + U+00E9 (2 bytes): cutting after 2 bytes would split it */
	    {"a\xc3\xa9z", 2, "'a...'"},
	    {"a\xc3\xa9z", 3, "'a\xc3\xa9...'"},
	    /* two 3-byte CJK characters, max 4 or 5: only the first fits */
	    {"\xe4\xbd\xa0\xe5\xa5\xbd", 4, "'\xe4\xbd\xa0...'"},
	    {"\xe4\xbd\xa0\xe5\xa5\xbd", 5, "'\xe4\xbd\xa0...'"},
	    {"\xe4\xbd\xa0\xe5\xa5\xbd", 2, "'...'"},
	    /* controls inside the kept part are escaped */
	    {"a\x01"
	     "bcdef",
	     3, "'a\\x01b...'"},
	    {"tab\t", 10, "'tab\\x09'"},
	};
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_LEN(t); i++) {
		strbuf_reset(&sb);
		strbuf_add_quoted_value(&sb, t[i].in, strlen(t[i].in),
		                        t[i].max);
		assert_string_equal(sb.buf, t[i].out);
	}
	strbuf_release(&sb);
}

/* ---- utf8 -------------------------------------------------------------- */

static void utf8_seq_len_table(void **state)
{
	static const struct {
		const char *s;
		size_t n, len;
	} t[] = {
	    {"A", 1, 1},
	    {"\x7f", 1, 1},
	    {"\xc3\xa9", 2, 2},         /* U+00E9 */
	    {"\xdf\xbf", 2, 2},         /* U+07FF */
	    {"\xe4\xbd\xa0", 3, 3},     /* U+4F60 */
	    {"\xe0\xa0\x80", 3, 3},     /* U+0800, smallest 3-byte */
	    {"\xed\x9f\xbf", 3, 3},     /* U+D7FF, below surrogates */
	    {"\xee\x80\x80", 3, 3},     /* U+E000, above surrogates */
	    {"\xf0\x9f\x98\x80", 4, 4}, /* U+1F600 */
	    {"\xf0\x90\x80\x80", 4, 4}, /* U+10000 */
	    {"\xf4\x8f\xbf\xbf", 4, 4}, /* U+10FFFF */
	    {"\xc0\x80", 2, 0},         /* overlong U+0000 */
	    {"\xc1\xbf", 2, 0},         /* overlong U+007F */
	    {"\xe0\x9f\xbf", 3, 0},     /* overlong U+07FF */
	    {"\xf0\x8f\xbf\xbf", 4, 0}, /* overlong U+FFFF */
	    {"\xed\xa0\x80", 3, 0},     /* U+D800 surrogate */
	    {"\xed\xbf\xbf", 3, 0},     /* U+DFFF surrogate */
	    {"\xf4\x90\x80\x80", 4, 0}, /* U+110000 */
	    {"\xf5\x80\x80\x80", 4, 0}, /* lead byte beyond F4 */
	    {"\xff", 1, 0},
	    {"\x80", 1, 0},         /* lone continuation */
	    {"\xc3", 1, 0},         /* truncated */
	    {"\xe4\xbd\xa0", 2, 0}, /* truncated by n */
	    {"\xf0\x9f\x98\x80", 3, 0},
	    {"\xc3\x41", 2, 0}, /* not a continuation */
	    {"", 0, 0},
	};
	size_t i, got;

	(void)state;
	for (i = 0; i < ARRAY_LEN(t); i++) {
		got = utf8_seq_len((const unsigned char *)t[i].s, t[i].n);
		if (got != t[i].len)
			fail_msg("case %zu: utf8_seq_len = %zu, expected %zu",
			         i, got, t[i].len);
	}
}

/* The comparator sorts extremes without overflow; the upper bound finds
 * the first greater member at any offset, ties going past. */
static void sortcmp_orders_and_finds_upper_bounds(void **state)
{
	int64_t v[] = {5, INT64_MIN, 0, INT64_MAX, -1, 5};
	struct pair {
		int32_t id;
		int64_t at;
	} p[] = {{1, 10}, {2, 20}, {3, 20}, {4, 30}};
	static const int64_t keys[] = {INT64_MIN, 9, 10, 19, 20, 29, 30, 31};
	static const size_t want[] = {0, 0, 1, 1, 3, 3, 4, 4};
	size_t i;

	(void)state;
	qsort(v, ARRAY_LEN(v), sizeof(*v), sortcmp_i64);
	assert_true(v[0] == INT64_MIN && v[1] == -1 && v[2] == 0);
	assert_true(v[3] == 5 && v[4] == 5 && v[5] == INT64_MAX);
	for (i = 0; i < ARRAY_LEN(keys); i++)
		assert_int_equal(sortcmp_upper_i64(p, ARRAY_LEN(p), sizeof(*p),
		                                   offsetof(struct pair, at),
		                                   keys[i]),
		                 want[i]);
	assert_int_equal(sortcmp_upper_i64(p, 0, sizeof(*p), 0, 0), 0);
	assert_int_equal(sortcmp_upper_i64(v, ARRAY_LEN(v), sizeof(*v), 0, 5),
	                 5);
}

static void strbuf_add_utf8_valid_replaces_each_bad_byte(void **state)
{
	static const struct {
		const char *in;
		size_t len;
		const char *out;
	} t[] = {
	    {"", 0, ""},
	    {"plain\x1b", 6, "plain\x1b"}, /* controls are valid UTF-8 */
	    {"\xe4\xbd\xa0", 3, "\xe4\xbd\xa0"},
	    {"a\xff"
	     "b",
	     3,
	     "a\xef\xbf\xbd"
	     "b"},
	    {"cut\xe4\xbd", 5, "cut\xef\xbf\xbd\xef\xbf\xbd"},
	    {"\xed\xa0\x80", 3, /* an encoded surrogate: three bad bytes */
	     "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"},
	    {"\xc0\x80x", 3, "\xef\xbf\xbd\xef\xbf\xbdx"},
	};
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_LEN(t); i++) {
		strbuf_reset(&sb);
		strbuf_add_utf8_valid(&sb, t[i].in, t[i].len);
		assert_string_equal(sb.buf, t[i].out);
		assert_true(utf8_is_valid(sb.buf, sb.len));
		assert_int_equal(utf8_is_valid(t[i].in, t[i].len),
		                 !strcmp(t[i].in, t[i].out));
	}
	strbuf_release(&sb);
}

static void utf8_json_lone_surrogates_table(void **state)
{
	static const struct {
		const char *in, *out;
		size_t count;
	} t[] = {
	    {"\"plain\"", "\"plain\"", 0},
	    {"\"\\ud800\"", "\"\\uFFFD\"", 1},
	    {"\"\\uDC00x\"", "\"\\uFFFDx\"", 1},             /* lone low */
	    {"\"\\ud83d\\ude00\"", "\"\\ud83d\\ude00\"", 0}, /* a pair */
	    {"\"\\ud800\\ud800\\udc00\"", "\"\\uFFFD\\ud800\\udc00\"", 1},
	    {"\"\\udc00\\ud800\"", "\"\\uFFFD\\uFFFD\"", 2}, /* wrong order */
	    {"\"\\\\ud800\"", "\"\\\\ud800\"", 0}, /* \\ then text "ud800" */
	    {"\"\\ud800\\u0041\"", "\"\\uFFFD\\u0041\"", 1},
	    {"\"\\ud8", "\"\\ud8", 0}, /* cut short: cJSON's to refuse */
	    {"\\", "\\", 0},
	};
	char buf[64];
	size_t i, n;

	(void)state;
	for (i = 0; i < ARRAY_LEN(t); i++) {
		n = strlen(t[i].in);
		memcpy(buf, t[i].in, n + 1);
		assert_int_equal(utf8_json_lone_surrogates(t[i].in, n, NULL),
		                 t[i].count);
		assert_int_equal(utf8_json_lone_surrogates(t[i].in, n, buf),
		                 t[i].count);
		assert_string_equal(buf, t[i].out);
	}
}

static void utf8_is_text_table(void **state)
{
	static const struct {
		const char *s;
		size_t n;
		int ok;
		size_t bad;
	} t[] = {
	    {"", 0, 1, 0},
	    {"hello\tworld", 11, 1, 0},
	    {"\xe4\xbd\xa0\xe5\xa5\xbd", 6, 1, 0},
	    {"a\nb", 3, 0, 1},
	    {"ab\rc", 4, 0, 2},
	    {"ab\0c", 4, 0, 2},
	    {"\x7f", 1, 0, 0},
	    {"ok\xff", 3, 0, 2},
	    {"ok\xc0\x80", 4, 0, 2},
	    {"\xe4\xbd\xa0\xed\xa0\x80", 6, 0, 3},
	    {"\xe4\xbd\xa0\xe5\xa5", 5, 0, 3},
	};
	size_t i, bad;

	(void)state;
	for (i = 0; i < ARRAY_LEN(t); i++) {
		bad = 12345;
		assert_int_equal(utf8_is_text(t[i].s, t[i].n, &bad), t[i].ok);
		if (!t[i].ok && bad != t[i].bad)
			fail_msg("case %zu: bad = %zu, expected %zu", i, bad,
			         t[i].bad);
	}
	/* bad may be NULL */
	assert_int_equal(utf8_is_text("\x01", 1, NULL), 0);
}

/* ---- strtab ------------------------------------------------------------ */

static void strtab_interns_equal_strings_once(void **state)
{
	struct strtab t;
	uint32_t a, b, c;

	(void)state;
	strtab_init(&t);
	assert_int_equal(strtab_find(&t, "MatMulV3", 8), UINT32_MAX);
	a = strtab_intern(&t, "MatMulV3", 8);
	b = strtab_intern(&t, "Cast", 4);
	c = strtab_intern(&t, "MatMulV3", 8);
	assert_int_equal(a, 0);
	assert_int_equal(b, 1);
	assert_int_equal(c, a);
	assert_int_equal(t.n, 2);
	assert_int_equal(strtab_find(&t, "Cast", 4), b);
	assert_int_equal(strtab_find(&t, "Cas", 3), UINT32_MAX);
	assert_string_equal(strtab_str(&t, a), "MatMulV3");
	/* only len bytes count */
	assert_int_equal(strtab_intern(&t, "CastXYZ", 4), b);
	strtab_release(&t);
	assert_int_equal(t.n, 0);
}

static void strtab_keeps_embedded_nul_bytes(void **state)
{
	struct strtab t;
	uint32_t ab, ac, a, empty;

	(void)state;
	strtab_init(&t);
	ab = strtab_intern(&t, "a\0b", 3);
	ac = strtab_intern(&t, "a\0c", 3);
	a = strtab_intern(&t, "a", 1);
	empty = strtab_intern(&t, "", 0);
	assert_int_equal(t.n, 4);
	assert_int_not_equal(ab, ac);
	assert_int_not_equal(ab, a);
	assert_int_equal(strtab_find(&t, "a\0b", 3), ab);
	assert_int_equal(strtab_find(&t, "a\0c", 3), ac);
	assert_int_equal(strtab_find(&t, "", 0), empty);
	assert_int_equal(t.lens[ab], 3);
	assert_memory_equal(strtab_str(&t, ac), "a\0c", 4);
	strtab_release(&t);
}

static void strtab_survives_many_rehashes(void **state)
{
	struct strtab t;
	char s[32];
	uint32_t i, n = 20000;
	int len;

	(void)state;
	strtab_init(&t);
	for (i = 0; i < n; i++) {
		len = snprintf(s, sizeof(s), "kernel-%u", i);
		assert_int_equal(strtab_intern(&t, s, (size_t)len), i);
	}
	assert_int_equal(t.n, n);
	assert_true(t.nslots >= 2 * (size_t)n);
	for (i = 0; i < n; i++) {
		len = snprintf(s, sizeof(s), "kernel-%u", i);
		assert_int_equal(strtab_find(&t, s, (size_t)len), i);
		assert_int_equal(strtab_intern(&t, s, (size_t)len), i);
		assert_string_equal(strtab_str(&t, i), s);
	}
	assert_int_equal(t.n, n);
	assert_int_equal(strtab_find(&t, "kernel-20000", 12), UINT32_MAX);
	strtab_release(&t);
}

/* ---- numfmt ------------------------------------------------------------ */

static void numfmt_us_table(void **state)
{
	static const struct {
		int64_t ns;
		const char *s;
	} t[] = {
	    {0, "0.000"},
	    {1, "0.001"},
	    {999, "0.999"},
	    {1000, "1.000"},
	    {1234567, "1234.567"},
	    {-1, "-0.001"},
	    {-1234567, "-1234.567"},
	    {INT64_C(1736413971558972912), "1736413971558972.912"},
	    {INT64_MAX, "9223372036854775.807"},
	    {INT64_MIN, "-9223372036854775.808"},
	};
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_LEN(t); i++) {
		strbuf_reset(&sb);
		numfmt_us(&sb, t[i].ns);
		assert_string_equal(sb.buf, t[i].s);
	}
	/* it appends */
	strbuf_reset(&sb);
	strbuf_adds(&sb, "t=");
	numfmt_us(&sb, 5);
	assert_string_equal(sb.buf, "t=0.005");
	strbuf_release(&sb);
}

static void numfmt_count_table(void **state)
{
	static const struct {
		uint64_t n;
		const char *s;
	} t[] = {
	    {0, "0"},
	    {7, "7"},
	    {999, "999"},
	    {1000, "1,000"},
	    {100000, "100,000"},
	    {1000000, "1,000,000"},
	    {12345678, "12,345,678"},
	    {UINT64_MAX, "18,446,744,073,709,551,615"},
	};
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_LEN(t); i++) {
		strbuf_reset(&sb);
		numfmt_count(&sb, t[i].n);
		assert_string_equal(sb.buf, t[i].s);
	}
	strbuf_release(&sb);
}

static void numfmt_duration_table(void **state)
{
	static const struct {
		int64_t ns;
		const char *s;
	} t[] = {
	    {0, "0"},
	    {812400, "812.4 \xC2\xB5s"},
	    {812449, "812.4 \xC2\xB5s"},
	    {999, "1.0 \xC2\xB5s"},
	    {999949, "999.9 \xC2\xB5s"},
	    {999950, "1.00 ms"},
	    {1000000, "1.00 ms"},
	    {81240000, "81.24 ms"},
	    {-81240000, "-81.24 ms"},
	    {1000000000, "1.000 s"},
	    {INT64_C(8124000000), "8.124 s"},
	    {INT64_C(3600000000000), "3,600.000 s"},
	    {40, "0.040 \xC2\xB5s"},
	};
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_LEN(t); i++) {
		strbuf_reset(&sb);
		numfmt_duration(&sb, t[i].ns);
		assert_string_equal(sb.buf, t[i].s);
	}
	strbuf_release(&sb);
}

/* One unit for a column, from its largest value: small values keep two
 * significant digits rather than reading as zero. */
static void numfmt_duration_in_a_column_unit(void **state)
{
	static const struct {
		int64_t ns;
		enum numfmt_unit u;
		const char *s;
	} t[] = {
	    {134700, NUMFMT_MS, "0.13 ms"},
	    {54060000, NUMFMT_MS, "54.06 ms"},
	    {1600, NUMFMT_MS, "0.0016 ms"},
	    {9500, NUMFMT_MS, "0.01 ms"},
	    {0, NUMFMT_MS, "0"},
	    {0, NUMFMT_US, "0"},
	    {1, NUMFMT_S, "0.0000000010 s"},
	    {-4600000, NUMFMT_S, "-0.005 s"},
	    {-400000, NUMFMT_S, "-0.00040 s"},
	    {INT64_C(5000000000), NUMFMT_US, "5,000,000.0 \xC2\xB5s"},
	};
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	(void)state;
	assert_int_equal(numfmt_unit_of(999949), NUMFMT_US);
	assert_int_equal(numfmt_unit_of(-999950), NUMFMT_MS);
	assert_int_equal(numfmt_unit_of(999994999), NUMFMT_MS);
	assert_int_equal(numfmt_unit_of(999995000), NUMFMT_S);
	for (i = 0; i < ARRAY_LEN(t); i++) {
		strbuf_reset(&sb);
		numfmt_duration_in(&sb, t[i].ns, t[i].u);
		assert_string_equal(sb.buf, t[i].s);
	}
	strbuf_release(&sb);
}

static void numfmt_pct_table(void **state)
{
	(void)state;
	assert_true(numfmt_pct(1, 4) == 25.0);
	assert_true(numfmt_pct(4, 4) == 100.0);
	assert_true(numfmt_pct(0, 4) == 0.0);
	assert_true(numfmt_pct(5, 0) == 0.0);
	assert_true(numfmt_pct(3, -1) == 0.0);
	/* one decimal, more for a share one decimal would show as 0.0 */
	assert_int_equal(numfmt_pct_decimals(0.0), 1);
	assert_int_equal(numfmt_pct_decimals(34.1), 1);
	assert_int_equal(numfmt_pct_decimals(0.05), 1);
	assert_int_equal(numfmt_pct_decimals(0.04), 2);
	assert_int_equal(numfmt_pct_decimals(-0.04), 2);
	assert_int_equal(numfmt_pct_decimals(0.004), 3);
	assert_int_equal(numfmt_pct_decimals(1e-12), 6);
}

/* ---- sha256, base64 ---------------------------------------------------- */

static void hex_of(const unsigned char d[32], char out[65])
{
	int i;

	for (i = 0; i < 32; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

/* FIPS 180-2 appendix B examples, and 'a' repeated across the padding
 * boundaries (55, 56, 63, 64, 65, 119, 120 bytes; digests from Python's
 * hashlib). */
static void sha256_known_digests(void **state)
{
	static const struct {
		const char *in;
		size_t len;
		const char *hex;
	} t[] = {
	    {"", 0,
	     "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b85"
	     "5"},
	    {"abc", 3,
	     "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015a"
	     "d"},
	    {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
	     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c"
	     "1"},
	};
	static const struct {
		size_t len;
		const char *hex;
	} a[] = {
	    {55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734"
	         "318"},
	    {56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec67"
	         "38a"},
	    {63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2"
	         "f34"},
	    {64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df15466"
	         "8eb"},
	    {65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0"
	         "ae0"},
	    {119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584"
	          "dcfb"},
	    {120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904"
	          "c21c"},
	    {1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39cc"
	              "c7112cd0"},
	};
	unsigned char d[32];
	char hex[65];
	char *as = malloc(1000000);
	size_t i;

	(void)state;
	assert_non_null(as);
	memset(as, 'a', 1000000);
	for (i = 0; i < ARRAY_LEN(t); i++) {
		sha256(t[i].in, t[i].len, d);
		hex_of(d, hex);
		assert_string_equal(hex, t[i].hex);
	}
	for (i = 0; i < ARRAY_LEN(a); i++) {
		sha256(as, a[i].len, d);
		hex_of(d, hex);
		assert_string_equal(hex, a[i].hex);
	}
	free(as);
}

/* The digest fed in pieces of every size from 1 to 130 bytes (across
 * block boundaries) equals the one-shot digest of the million 'a's, and
 * sha256_file streams a file to the same digest and its size. */
static void sha256_streamed_equals_one_shot(void **state)
{
	static const char million_a[] =
	    "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
	struct sha256_ctx c;
	struct err e = ERR_INIT;
	unsigned char d[32];
	char hex[SHA256_HEX], path[] = "/tmp/sdperf-sha-XXXXXX";
	char *as = malloc(1000000);
	size_t piece, done;
	uint64_t size = 0;
	FILE *f;
	int fd;

	(void)state;
	assert_non_null(as);
	memset(as, 'a', 1000000);
	for (piece = 1; piece <= 130; piece += 7) {
		sha256_init(&c);
		for (done = 0; done < 1000000; done += piece)
			sha256_update(&c, as + done,
			              1000000 - done < piece ? 1000000 - done
			                                     : piece);
		sha256_final(&c, d);
		sha256_hex(d, hex);
		assert_string_equal(hex, million_a);
	}
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(as, 1, 1000000, f), 1000000);
	fclose(f);
	assert_int_equal(sha256_file(path, &size, hex, &e), 0);
	assert_string_equal(hex, million_a);
	assert_int_equal(size, 1000000);
	unlink(path);
	assert_int_equal(sha256_file(path, &size, hex, &e), -1);
	assert_int_equal(e.code, ERR_INPUT);
	assert_non_null(strstr(e.msg, path));
	free(as);
}

/* RFC 4648 section 10, and a digest as a CSP source gives it. */
static void base64_rfc4648_vectors(void **state)
{
	static const char *const out[] = {
	    "", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
	struct strbuf sb = STRBUF_INIT;
	unsigned char d[32];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_LEN(out); i++) {
		strbuf_reset(&sb);
		base64_add(&sb, (const unsigned char *)"foobar", i);
		assert_string_equal(sb.buf, out[i]);
	}
	strbuf_reset(&sb);
	sha256("x", 1, d);
	base64_add(&sb, d, 32);
	assert_string_equal(sb.buf,
	                    "LXEWQrcmsEQBYnyp+6wy9chTD7GQPMTbAiWHF5IaSIE=");
	strbuf_release(&sb);
}

/* ---- fileio ------------------------------------------------------------ */

struct dir {
	char path[512];
};

static int dir_setup(void **state)
{
	struct dir *d = calloc(1, sizeof(*d));

	if (!d)
		return -1;
	unit_tmpdir(d->path, sizeof(d->path));
	*state = d;
	return 0;
}

static int dir_teardown(void **state)
{
	struct dir *d = *state;

	unit_rmtree(d->path);
	free(d);
	return 0;
}

#define TD(f) cmocka_unit_test_setup_teardown(f, dir_setup, dir_teardown)

static void fileio_mkdirs_creates_nested_dirs(void **state)
{
	struct dir *d = *state;
	struct err e = ERR_INIT;
	char path[600];

	unit_join(path, sizeof(path), d->path, "a/b/c");
	assert_int_equal(fileio_mkdirs(path, &e), 0);
	assert_int_equal(fileio_kind(path), 1);
	/* again: nothing to do, no error */
	assert_int_equal(fileio_mkdirs(path, &e), 0);
	unit_join(path, sizeof(path), d->path, "a/x//y/");
	assert_int_equal(fileio_mkdirs(path, &e), 0);
	unit_join(path, sizeof(path), d->path, "a/x/y");
	assert_int_equal(fileio_kind(path), 1);
	assert_int_equal(e.code, ERR_NONE);
}

static void fileio_mkdirs_fails_on_a_file(void **state)
{
	struct dir *d = *state;
	struct err e = ERR_INIT;
	char file[600], path[700], msg[1400];

	unit_join(file, sizeof(file), d->path, "file");
	unit_write(file, "x", 1);
	assert_int_equal(fileio_mkdirs(file, &e), -1);
	assert_int_equal(e.code, ERR_OUTPUT);
	snprintf(msg, sizeof(msg), "%s: not a directory", file);
	assert_string_equal(e.msg, msg);

	err_clear(&e);
	unit_join(path, sizeof(path), file, "sub");
	assert_int_equal(fileio_mkdirs(path, &e), -1);
	assert_int_equal(e.code, ERR_OUTPUT);
	snprintf(msg, sizeof(msg),
	         "%s: cannot create directory: Not a directory", path);
	assert_string_equal(e.msg, msg);

	err_clear(&e);
	assert_int_equal(fileio_mkdirs("", &e), -1);
	assert_int_equal(e.code, ERR_OUTPUT);
	assert_string_equal(e.msg, "empty output directory name");
}

static void fileio_read_small_limits_size(void **state)
{
	struct dir *d = *state;
	struct err e = ERR_INIT;
	struct strbuf sb = STRBUF_INIT;
	char path[600], msg[1200];

	unit_join(path, sizeof(path), d->path, "r.json");
	unit_write(path, "0123456789", 10);
	assert_int_equal(fileio_read_small(path, 10, &sb, &e), 0);
	assert_string_equal(sb.buf, "0123456789");
	strbuf_reset(&sb);
	assert_int_equal(fileio_read_small(path, 9, &sb, &e), -1);
	assert_int_equal(e.code, ERR_INPUT);
	snprintf(msg, sizeof(msg), "%s: file too large (limit 9 bytes)", path);
	assert_string_equal(e.msg, msg);

	err_clear(&e);
	unit_join(path, sizeof(path), d->path, "none");
	assert_int_equal(fileio_read_small(path, 9, &sb, &e), -1);
	snprintf(msg, sizeof(msg), "%s: cannot open: No such file or directory",
	         path);
	assert_string_equal(e.msg, msg);
	strbuf_release(&sb);
}

static void fileio_kind_size_and_join(void **state)
{
	struct dir *d = *state;
	char path[600];
	char *j;

	unit_join(path, sizeof(path), d->path, "f");
	unit_write(path, "12345", 5);
	assert_int_equal(fileio_kind(path), 0);
	assert_int_equal(fileio_kind(d->path), 1);
	assert_int_equal(fileio_size(path), 5);
	unit_join(path, sizeof(path), d->path, "none");
	assert_int_equal(fileio_kind(path), -1);
	assert_int_equal(fileio_size(path), -1);

	j = fileio_join("a", "b");
	assert_string_equal(j, "a/b");
	free(j);
	j = fileio_join("a//", "//b/c");
	assert_string_equal(j, "a/b/c");
	free(j);
	j = fileio_join("/", "x");
	assert_string_equal(j, "/x");
	free(j);
	j = fileio_join("/", "/");
	assert_string_equal(j, "/");
	free(j);
}

/* ---- err --------------------------------------------------------------- */

static void err_set_keeps_the_first_error(void **state)
{
	struct err e = ERR_INIT;

	(void)state;
	assert_int_equal(err_set(&e, ERR_INPUT, "%s:%d: first", "f.csv", 3),
	                 -1);
	assert_int_equal(err_set(&e, ERR_OUTPUT, "second"), -1);
	assert_int_equal(e.code, ERR_INPUT);
	assert_string_equal(e.msg, "f.csv:3: first");
	err_clear(&e);
	assert_int_equal(e.code, ERR_NONE);
	assert_string_equal(e.msg, "");
	assert_int_equal(err_set(NULL, ERR_INPUT, "ignored"), -1);
}

/* ---- decimal ----------------------------------------------------------- */

/* A double printed by a profiler, to the ns: nearest of the double (a tie
 * in the digits decided by the binary value, as Python's round and
 * printf("%.3f") decide it), or cut. Expected values from Python:
 * Decimal(float(text)) * 1000 rounded. */
static void decimal_us_to_ns_nearest_and_trunc_table(void **state)
{
	static const struct {
		const char *s;
		int rc;
		int64_t nearest, trunc;
	} t[] = {
	    {"39.9805", 0, 39980, 39980},    /* double just below .5 */
	    {"248.8625", 0, 248863, 248862}, /* just above */
	    {"63.110625", 0, 63111, 63110},  /* not a tie */
	    {"9387.903875", 0, 9387904, 9387903},
	    {"4.14", 0, 4140, 4140}, /* the double is below 4.14: cut the
	                              * digits, not the double */
	    {"0.01", 0, 10, 10},
	    {"17", 0, 17000, 17000},
	    {"1543.3953857421875", 0, 1543395, 1543395},
	    {"1e-05", 0, 0, 0},
	    {"1.5e-3", 0, 2, 1},
	    {"2.5E+1", 0, 25000, 25000},
	    {"0.0004999", 0, 0, 0},
	    {"0.0005001", 0, 1, 0},
	    {"-1", -1, 0, 0},
	    {"", -1, 0, 0},
	    {"abc", -1, 0, 0},
	    {"1.2.3", -1, 0, 0},
	    {"nan", -1, 0, 0},
	    {"1e300", -1, 0, 0},
	    {"99999999999999999999", -1, 0, 0},
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_LEN(t); i++) {
		int64_t n = -7, c = -7;
		int rn = decimal_us_to_ns_nearest(t[i].s, strlen(t[i].s), &n);
		int rc = decimal_us_to_ns_trunc(t[i].s, strlen(t[i].s), &c);
		if (rn != t[i].rc || rc != t[i].rc ||
		    (!rn && (n != t[i].nearest || c != t[i].trunc)))
			fail_msg("%s: rc %d/%d ns %lld/%lld", t[i].s, rn, rc,
			         (long long)n, (long long)c);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(strbuf_starts_empty_and_nul_terminated),
	    cmocka_unit_test(strbuf_addf_grows_for_long_output),
	    cmocka_unit_test(strbuf_add_family),
	    cmocka_unit_test(strbuf_add_sanitized_shows_controls_and_bad_bytes),
	    cmocka_unit_test(
	        strbuf_add_quoted_value_truncates_at_utf8_boundary),
	    cmocka_unit_test(utf8_seq_len_table),
	    cmocka_unit_test(utf8_is_text_table),
	    cmocka_unit_test(sortcmp_orders_and_finds_upper_bounds),
	    cmocka_unit_test(strbuf_add_utf8_valid_replaces_each_bad_byte),
	    cmocka_unit_test(utf8_json_lone_surrogates_table),
	    cmocka_unit_test(strtab_interns_equal_strings_once),
	    cmocka_unit_test(strtab_keeps_embedded_nul_bytes),
	    cmocka_unit_test(strtab_survives_many_rehashes),
	    cmocka_unit_test(numfmt_us_table),
	    cmocka_unit_test(numfmt_duration_in_a_column_unit),
	    cmocka_unit_test(numfmt_count_table),
	    cmocka_unit_test(numfmt_duration_table),
	    cmocka_unit_test(numfmt_pct_table),
	    cmocka_unit_test(sha256_known_digests),
	    cmocka_unit_test(sha256_streamed_equals_one_shot),
	    cmocka_unit_test(base64_rfc4648_vectors),
	    TD(fileio_mkdirs_creates_nested_dirs),
	    TD(fileio_mkdirs_fails_on_a_file),
	    TD(fileio_read_small_limits_size),
	    TD(fileio_kind_size_and_join),
	    cmocka_unit_test(err_set_keeps_the_first_error),
	    cmocka_unit_test(decimal_us_to_ns_nearest_and_trunc_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
