/* Unit tests of the rank summary's serialisation: util/fieldtab.h tables
 * written by format/json/ftjson.c and read back by input/sumread.c, exact
 * both ways; what the reader refuses, by name; what its strings cost; and
 * the JSON writer's limits (format/json/jsonw.c: no bare nan, no abort). */
#include "unit.h"

#include <cjson/cJSON.h>
#include <math.h>

#include "analysis/ranksum.h"
#include "format/json/ftjson.h"
#include "format/json/jsonw.h"
#include "input/sumread.h"
#include "util/strbuf.h"

struct pt {
	int64_t x;
	uint32_t pad;
};

struct all {
	int64_t i64, big;
	uint64_t u64;
	int32_t i32;
	int in;
	unsigned un;
	unsigned char uc;
	size_t sz;
	double d[5];
	double f; /* 0 to 100 */
	char *s, *bytes, *none;
	const char *sym;
	struct pt pts[2];
	struct pt *list;
	size_t nlist;
	int32_t *ids;
	size_t nids;
};

static const char *const syms[] = {"alpha", "beta"};

static const struct ft_field pt_f[] = {
    FT_I64F(struct pt, x),
    FT_NUM(struct pt, pad, FT_UINT, 0, 9),
};
static const struct ft_table pt_t = FT_TABLE(pt_f);
static const struct ft_field id_f[] = {
    {NULL, FT_I32, 0, 1, 0, 0, NULL, 0, NULL, 0, 0, 0},
};
static const struct ft_table id_t = FT_TABLE(id_f);

static const struct ft_field all_f[] = {
    FT_I64F(struct all, i64),
    FT_I64F(struct all, big),
    FT_U64F(struct all, u64),
    FT_NUM(struct all, i32, FT_I32, 0, 0),
    FT_NUM(struct all, in, FT_INT, -5, 5),
    FT_NUM(struct all, un, FT_UINT, 0, 0),
    FT_NUM(struct all, uc, FT_UCH, 0, 0),
    FT_NUM(struct all, sz, FT_SIZE, 0, 0),
    FT_NUMS(struct all, d, FT_DBL, 5, 0, 0),
    FT_DBLR(struct all, f, 0, 100),
    FT_STRF(struct all, s),
    FT_STRF(struct all, bytes),
    FT_STRF(struct all, none),
    FT_SYMF(struct all, sym, syms),
    FT_SUBF(struct all, pts, 2, pt_t, struct pt),
    FT_LISTF(struct all, list, nlist, pt_t, struct pt, 3),
    FT_LISTF(struct all, ids, nids, id_t, int32_t, 4),
};
static const struct ft_table all_t = FT_TABLE(all_f);

static void write_doc(const struct all *a, struct strbuf *out)
{
	cJSON *root = cJSON_CreateObject();
	char *text;

	cJSON_AddItemToObject(root, "sdperf_summary", cJSON_CreateNumber(1));
	ftjson_add_members(root, &all_t, a);
	text = cJSON_PrintUnformatted(root);
	strbuf_adds(out, text);
	free(text);
	cJSON_Delete(root);
}

static void all_free(struct all *a)
{
	free(a->s);
	free(a->bytes);
	free(a->none);
	free(a->list);
	free(a->ids);
	memset(a, 0, sizeof(*a));
}

static void fieldtab_round_trip_is_exact(void **state)
{
	struct pt list[3] = {{-1, 0}, {2, 9}, {3, 1}};
	int32_t ids[2] = {INT32_MIN, 7};
	char s[] = "a \"quoted\"\tname", bytes[] = "\xff\xfe not UTF-8";
	struct all a = {0}, b = {0};
	struct strbuf w1 = STRBUF_INIT, w2 = STRBUF_INIT;
	struct err e = ERR_INIT;

	(void)state;
	a.i64 = -1234567890123LL;
	a.big = INT64_MIN; /* beyond 2^53: written as a string */
	a.u64 = UINT64_MAX;
	a.i32 = INT32_MIN;
	a.in = -5;
	a.un = 4000000000u;
	a.uc = 255;
	a.sz = 9007199254740993ULL; /* 2^53 + 1: a double would round it */
	a.d[0] = 1.0 / 3.0;
	a.d[1] = -0.0;
	a.d[2] = (double)FT_TIME_MAX; /* the edges of the range */
	a.d[3] = -(double)FT_TIME_MAX;
	a.d[4] = 1e-310; /* subnormal */
	a.f = 100;
	a.s = s;
	a.bytes = bytes;
	a.sym = syms[1];
	a.pts[1].x = 42;
	a.list = list;
	a.nlist = 3;
	a.ids = ids;
	a.nids = 2;
	write_doc(&a, &w1);
	assert_int_equal(
	    sumread_text("t.json", w1.buf, w1.len, 1, &all_t, &b, &e), 0);
	assert_true(b.i64 == a.i64 && b.big == INT64_MIN &&
	            b.u64 == UINT64_MAX && b.i32 == INT32_MIN && b.in == -5 &&
	            b.un == 4000000000u && b.uc == 255 &&
	            b.sz == 9007199254740993ULL);
	assert_true(b.d[0] == 1.0 / 3.0 && b.d[1] == 0 && signbit(b.d[1]) &&
	            b.d[2] == 2305843009213693952.0 &&
	            b.d[3] == -2305843009213693952.0 && b.d[4] == 1e-310 &&
	            b.f == 100);
	assert_string_equal(b.s, s);
	assert_string_equal(b.bytes, bytes); /* byte for byte */
	assert_null(b.none);
	assert_ptr_equal(b.sym, syms[1]); /* the static string itself */
	assert_true(b.pts[1].x == 42 && b.nlist == 3 && b.list[1].x == 2 &&
	            b.list[1].pad == 9 && b.nids == 2 && b.ids[0] == INT32_MIN);
	write_doc(&b, &w2);
	assert_int_equal(w1.len, w2.len);
	assert_memory_equal(w1.buf, w2.buf, w1.len);
	all_free(&b);
	strbuf_release(&w1);
	strbuf_release(&w2);
}

/* The document with member key's value replaced by val (text), read:
 * the error message must contain want. */
static void refused(const char *key, const char *val, const char *want)
{
	struct all a = {0}, b = {0};
	struct strbuf w = STRBUF_INIT, doc = STRBUF_INIT;
	struct err e = ERR_INIT;
	char pat[64];
	const char *at, *end;

	a.sym = syms[0];
	write_doc(&a, &w);
	snprintf(pat, sizeof(pat), "\"%s\":", key);
	at = strstr(w.buf, pat);
	assert_non_null(at);
	at += strlen(pat);
	/* the old value ends at the next member of this object */
	end = *at == '[' || *at == '{' ? strchr(at, *at == '[' ? ']' : '}') + 1
	                               : at + strcspn(at, ",}");
	strbuf_add(&doc, w.buf, (size_t)(at - w.buf));
	strbuf_adds(&doc, val);
	strbuf_adds(&doc, end);
	assert_int_equal(
	    sumread_text("t.json", doc.buf, doc.len, 1, &all_t, &b, &e), -1);
	if (!strstr(e.msg, want))
		fail_msg("'%s' lacks '%s'", e.msg, want);
	assert_int_equal(e.code, ERR_INPUT);
	all_free(&b);
	strbuf_release(&w);
	strbuf_release(&doc);
}

static void sumread_refuses_each_bad_value_by_name(void **state)
{
	(void)state;
	refused("in", "1.5",
	        "t.json: in: not an integer from -5 to 5, got '1.5'");
	refused("in", "6", "in: not an integer from -5 to 5");
	refused("un", "-1", "un: not an integer in range, got '-1'");
	refused("uc", "256", "uc: not an integer in range");
	refused("u64", "\"18446744073709551616\"", "u64: not an integer");
	refused("i64", "9007199254740993", "i64: not an integer"); /* rounded */
	refused("i64", "\"12x\"", "i64: not an integer");
	refused("sym", "\"gamma\"", "sym: not a known name, got '\"gamma\"'");
	refused("s", "7", "s: not a string or null, got '7'");
	refused("d", "[1,2]", "d: not an array of 5");
	refused("d", "[1,2,3,4,\"x\"]", "d.4: not a number, got '\"x\"'");
	/* a string is no number: "nan" must not become a NaN (a bare nan in
	 * report.json), nor "inf" an infinity */
	refused("d", "[1,2,3,4,\"nan\"]", "d.4: not a number, got '\"nan\"'");
	refused("d", "[\"inf\",2,3,4,5]", "d.0: not a number, got '\"inf\"'");
	refused("d", "[1,\"-inf\",3,4,5]", "d.1: not a number");
	/* 1e999 parses as an infinity: not finite */
	refused("d", "[1,2,1e999,4,5]", "d.2: not a finite number");
	/* past 2^61 = 2305843009213693952 */
	refused("d", "[1,2,3,4,2.4e18]",
	        "d.4: not a finite number from -2305843009213693952 to "
	        "2305843009213693952, got '2.4e+18'");
	refused("f", "-0.5",
	        "f: not a finite number from 0 to 100, got '-0.5'");
	refused("f", "100.5", "f: not a finite number from 0 to 100");
	refused("pts", "[{\"x\":1,\"pad\":0},{\"x\":1}]", "pts.1.pad: missing");
	refused("list",
	        "[{\"x\":1,\"pad\":0},{\"x\":1,\"pad\":0},"
	        "{\"x\":1,\"pad\":0},{\"x\":1,\"pad\":0}]",
	        "list: 4 elements, more than 3");
	refused("ids", "[1,2.5]", "ids.1: not an integer");
	refused("sdperf_summary", "2",
	        "t.json: a summary of format version 2; this sdperf reads "
	        "version 1");
	refused("sdperf_summary", "\"1\"",
	        "sdperf_summary: not a format version");
}

static void sumread_refuses_what_is_no_summary(void **state)
{
	struct all b = {0};
	struct err e = ERR_INIT;

	(void)state;
	assert_int_equal(sumread_text("t.json", "[1]", 3, 1, &all_t, &b, &e),
	                 -1);
	assert_non_null(strstr(e.msg, "not an sdperf summary"));
	err_clear(&e);
	assert_int_equal(sumread_text("t.json", "", 0, 1, &all_t, &b, &e), -1);
	assert_non_null(strstr(e.msg, "empty"));
	err_clear(&e);
	assert_int_equal(sumread_text("t.json", "{\"sdperf_summary\":1,", 20, 1,
	                              &all_t, &b, &e),
	                 -1);
	assert_non_null(strstr(e.msg, "t.json:1:"));
}

/* Every string read, charged: strlen + 1 + 16 (malloc's block) each. */
static void sumread_counts_the_strings_it_holds(void **state)
{
	struct pt list[2] = {{1, 0}, {2, 0}};
	struct all a = {0};
	char abc[] = "abc", empty[] = "";

	(void)state;
	assert_int_equal(sumread_str_bytes(&all_t, &a), 0);
	a.s = abc;       /* 3 + 1 + 16 = 20 */
	a.bytes = empty; /* 0 + 1 + 16 = 17 */
	a.sym = syms[0]; /* static: nothing */
	a.list = list;   /* no strings in a pt */
	a.nlist = 2;
	assert_int_equal(sumread_str_bytes(&all_t, &a), 37);
}

/* The warning strings of a list, in a struct of the summary's own
 * tables: each string of each element counts, the arrays of two too. */
static void ranksum_counts_warning_strings(void **state)
{
	struct ranksum s;
	struct warning w[2];
	char c[] = "c", hello[] = "hello", xy[] = "xy", r[] = "r";

	(void)state;
	memset(&s, 0, sizeof(s));
	memset(w, 0, sizeof(w));
	w[0].code = c;        /* 1 + 1 + 16 = 18 */
	w[1].message = hello; /* 5 + 1 + 16 = 22 */
	w[1].args[1] = xy;    /* 2 + 1 + 16 = 19 */
	s.part.warnings = w;
	s.part.nwarnings = 2;
	s.rules = r; /* 18 */
	assert_int_equal(sumread_str_bytes(&ranksum_table, &s),
	                 18 + 22 + 19 + 18);
}

/* cJSON_Print returns NULL past 2 GiB of text (its buffer's length is an
 * int) or without memory: an error naming the file and the limit, never
 * abort(). The NULL is made here by cJSON's allocation hooks refusing
 * blocks over 64 bytes once the tree is built. */
static void *small_only(size_t n)
{
	return n > 64 ? NULL : malloc(n);
}

static void jsonw_print_failure_is_an_error(void **state)
{
	cJSON_Hooks hooks = {small_only, free};
	cJSON *root = cJSON_CreateObject();
	struct strbuf out = STRBUF_INIT;
	struct err e = ERR_INIT;
	int i;

	(void)state;
	for (i = 0; i < 40; i++)
		jsonw_add_str(root, NULL, "a string long enough");
	cJSON_InitHooks(&hooks);
	assert_int_equal(jsonw_print(root, JSONW_TABS, "report.json", &out, &e),
	                 -1);
	cJSON_InitHooks(NULL);
	assert_int_equal(e.code, ERR_OUTPUT);
	if (!strstr(e.msg, "report.json: too large to write: JSON text over "
	                   "2147483647 bytes"))
		fail_msg("%s", e.msg);
	assert_int_equal(out.len, 0);
	cJSON_Delete(root);
	strbuf_release(&out);
}

/* JSON has no NaN nor infinity: the writer puts null, in both layouts. */
static void jsonw_writes_no_bare_nan(void **state)
{
	cJSON *root = cJSON_CreateObject();
	struct strbuf out = STRBUF_INIT, sp = STRBUF_INIT;
	struct err e = ERR_INIT;

	(void)state;
	jsonw_add_pct(root, "a", NAN);
	jsonw_add_pct(root, "b", -INFINITY);
	jsonw_add_fixed(root, "c", INFINITY, 1);
	jsonw_add_pct(root, "d", 1.5);
	cJSON_AddItemToObject(root, "e", cJSON_CreateNumber(NAN));
	assert_int_equal(jsonw_print(root, JSONW_TABS, "r.json", &out, &e), 0);
	assert_int_equal(jsonw_print(root, JSONW_SPACES, "r.json", &sp, &e), 0);
	assert_string_equal(out.buf, "{\n\t\"a\":\tnull,\n\t\"b\":\tnull,\n"
	                             "\t\"c\":\tnull,\n\t\"d\":\t1.500,\n"
	                             "\t\"e\":\tnull\n}\n");
	assert_string_equal(sp.buf, "{\n  \"a\": null,\n  \"b\": null,\n  "
	                            "\"c\": null,\n  \"d\": 1.500,\n  "
	                            "\"e\": null\n}\n");
	cJSON_Delete(root);
	strbuf_release(&out);
	strbuf_release(&sp);
}

static void ranksum_holds_exactly_one_rank(void **state)
{
	const char *doc = "{\"sdperf_summary\":2,\"tool_version\":\"0\","
	                  "\"rules\":\"r\",\"notes\":[],\"part\":{}}";
	struct ranksum s;
	struct err e = ERR_INIT;

	(void)state;
	assert_int_equal(ranksum_read_text("r.json", doc, strlen(doc), &s, &e),
	                 -1);
	assert_non_null(strstr(e.msg, "r.json: part.rank_dir: missing"));
	ranksum_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(fieldtab_round_trip_is_exact),
	    cmocka_unit_test(sumread_refuses_each_bad_value_by_name),
	    cmocka_unit_test(sumread_refuses_what_is_no_summary),
	    cmocka_unit_test(ranksum_holds_exactly_one_rank),
	    cmocka_unit_test(sumread_counts_the_strings_it_holds),
	    cmocka_unit_test(ranksum_counts_warning_strings),
	    cmocka_unit_test(jsonw_print_failure_is_an_error),
	    cmocka_unit_test(jsonw_writes_no_bare_nan),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
