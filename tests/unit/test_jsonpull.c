/* Unit tests of input/jsonpull.c: the grammar it checks, the same answers
 * through a window refilled one byte at a time as with the whole text in
 * memory, keys decoded, one value parsed at a time, marks and look-ups. */
#include "unit.h"

#include <cjson/cJSON.h>

#include "input/jsonpull.h"
#include "util/strbuf.h"

/* Checks the whole text (skip + end): 0 or -1, the message in msg. */
static int check_doc(const char *text, size_t chunk, char *msg, size_t n)
{
	struct jpull p;
	struct err e = ERR_INIT;
	int rc;

	if (chunk)
		jp_open_mem_chunked(&p, "t.json", text, strlen(text), chunk,
		                    &e);
	else
		jp_open_mem(&p, "t.json", text, strlen(text), &e);
	rc = jp_type(&p) == JP_NONE        ? jp_error(&p, "no value")
	     : (jp_skip(&p) || jp_end(&p)) ? -1
	                                   : 0;
	jp_close(&p);
	snprintf(msg, n, "%s", e.msg);
	return rc;
}

/* Every window size gives the in-memory answer, message and all. */
static void same_everywhere(const char *text, int want_ok, const char *want)
{
	char msg[1024], first[1024];
	size_t chunk;

	if (check_doc(text, 0, first, sizeof(first)) != (want_ok ? 0 : -1))
		fail_msg("'%s': %s", text, first);
	if (want && strcmp(first, want))
		fail_msg("'%s': got \"%s\", want \"%s\"", text, first, want);
	for (chunk = 1; chunk <= 9; chunk++) {
		check_doc(text, chunk, msg, sizeof(msg));
		if (strcmp(msg, first))
			fail_msg("'%s' chunk %zu: \"%s\" vs \"%s\"", text,
			         chunk, msg, first);
	}
}

static void jsonpull_accepts_the_grammar(void **state)
{
	static const char *const good[] = {
	    "{}",
	    "[]",
	    " [ ] ",
	    "0",
	    "-0",
	    "-1.5e+10",
	    "1E-2",
	    "123",
	    "\"\"",
	    "\"a\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\"",
	    "true",
	    "false",
	    "null",
	    "{\"a\": [1, {\"b\": null}], \"c\": \"d\"}",
	    "[[[[[]]]]]",
	    "\"\\ud800\"",
	    "{\"\": 0}",
	    "\r\n\t[1]\n",
	    "\"caf\xc3\xa9\""};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_LEN(good); i++)
		same_everywhere(good[i], 1, NULL);
}

static void jsonpull_rejects_with_line_and_column(void **state)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
	    {"[1,]", "t.json:1:4: JSON syntax error near ']'"},
	    {"{,}", "t.json:1:2: JSON syntax error near ',}'"},
	    {"{\"a\" 1}", "t.json:1:6: JSON syntax error near '1}'"},
	    {"{\"a\": 1,}", "t.json:1:9: JSON syntax error near '}'"},
	    {"[01]", "t.json:1:3: JSON syntax error near '1]'"},
	    {"[1.]", "t.json:1:4: JSON syntax error near ']'"},
	    {"[.5]", "t.json:1:2: JSON syntax error near '.5]'"},
	    {"[+1]", "t.json:1:2: JSON syntax error near '+1]'"},
	    {"[1e]", "t.json:1:4: JSON syntax error near ']'"},
	    {"[tru]", "t.json:1:2: JSON syntax error near 'tru]'"},
	    {"[nulll]", "t.json:1:6: JSON syntax error near 'l]'"},
	    {"[\"a\nb\"]", "t.json:1:4: JSON syntax error near '\\x0Ab\"]'"},
	    {"[\"\\x\"]", "t.json:1:4: JSON syntax error near 'x\"]'"},
	    {"[\"\\u12g4\"]", "t.json:1:7: JSON syntax error near 'g4\"]'"},
	    {"[\"abc", "t.json:1:6: JSON syntax error near ''"},
	    {"[1\n,\n2", "t.json:3:2: JSON syntax error near ''"},
	    {"{}\n{}", "t.json:2:1: JSON syntax error near '{}'"},
	    {"[1] x", "t.json:1:5: JSON syntax error near 'x'"},
	    {"]", "t.json:1:1: no value near ']'"},
	    {"", "t.json:1:1: no value near ''"},
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_LEN(bad); i++)
		same_everywhere(bad[i].text, 0, bad[i].msg);
}

static void jsonpull_limits_nesting(void **state)
{
	struct strbuf t = STRBUF_INIT;
	char msg[1024];

	(void)state;
	strbuf_addchars(&t, '[', JP_MAX_DEPTH);
	strbuf_addchars(&t, ']', JP_MAX_DEPTH);
	assert_int_equal(check_doc(t.buf, 0, msg, sizeof(msg)), 0);
	strbuf_reset(&t);
	strbuf_addchars(&t, '[', JP_MAX_DEPTH + 1);
	strbuf_addchars(&t, ']', JP_MAX_DEPTH + 1);
	assert_int_equal(check_doc(t.buf, 3, msg, sizeof(msg)), -1);
	assert_string_equal(msg,
	                    "t.json:1:1001: JSON nested deeper than 1000 "
	                    "levels near '[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]'");
	strbuf_release(&t);
}

/* Members and keys, values parsed one at a time, through any window. */
static void jsonpull_walks_and_parses_values(void **state)
{
	static const char text[] =
	    "{\"a\\u00e9\": [1, 2], \"skip\": {\"x\": [true, null]},\n"
	    " \"pair\\ud83d\\ude00\": \"v\", \"lone\\udc00\": 3.5}";
	size_t chunk;

	(void)state;
	for (chunk = 0; chunk <= 8; chunk++) {
		struct jpull p;
		struct err e = ERR_INIT;
		struct strbuf key = STRBUF_INIT;
		cJSON *v;

		if (chunk)
			jp_open_mem_chunked(&p, "t.json", text, strlen(text),
			                    chunk, &e);
		else
			jp_open_mem(&p, "t.json", text, strlen(text), &e);
		assert_int_equal(jp_enter(&p), 0);
		assert_int_equal(jp_next(&p, &key), 1);
		assert_string_equal(key.buf, "a\xc3\xa9");
		assert_int_equal(jp_type(&p), JP_ARRAY);
		v = jp_parse(&p, 100, "a test");
		assert_non_null(v);
		assert_int_equal(cJSON_GetArraySize(v), 2);
		cJSON_Delete(v);
		assert_int_equal(jp_next(&p, &key), 1);
		assert_string_equal(key.buf, "skip");
		assert_int_equal(jp_skip(&p), 0);
		assert_int_equal(jp_next(&p, &key), 1);
		assert_string_equal(key.buf, "pair\xf0\x9f\x98\x80");
		v = jp_parse(&p, 100, "a test");
		assert_string_equal(v->valuestring, "v");
		cJSON_Delete(v);
		assert_int_equal(jp_next(&p, &key), 1);
		/* a lone surrogate is U+FFFD */
		assert_string_equal(key.buf, "lone\xef\xbf\xbd");
		assert_int_equal(jp_type(&p), JP_NUMBER);
		assert_int_equal(jp_skip(&p), 0);
		assert_int_equal(jp_next(&p, &key), 0);
		assert_int_equal(jp_end(&p), 0);
		jp_close(&p);
		strbuf_release(&key);
	}
}

/* A value over the limit is refused where it starts; through a window it
 * is never held longer than the limit. */
static void jsonpull_parse_limits_one_value(void **state)
{
	struct strbuf t = STRBUF_INIT;
	struct jpull p;
	struct err e = ERR_INIT;
	size_t chunk;

	(void)state;
	strbuf_adds(&t, "[\n  [");
	strbuf_addchars(&t, '1', 3000);
	strbuf_adds(&t, "]]");
	for (chunk = 0; chunk <= 700; chunk += 350) {
		err_clear(&e);
		if (chunk)
			jp_open_mem_chunked(&p, "t.json", t.buf, t.len, chunk,
			                    &e);
		else
			jp_open_mem(&p, "t.json", t.buf, t.len, &e);
		assert_int_equal(jp_enter(&p), 0);
		assert_int_equal(jp_next(&p, NULL), 1);
		assert_null(jp_parse(&p, 1024, "a test value"));
		assert_string_equal(e.msg, "t.json:2:3: a JSON value larger "
		                           "than 1 KiB (the limit for a test "
		                           "value)");
		if (chunk)
			assert_true(p.cap.alloc < 4096);
		jp_close(&p);
	}
	strbuf_release(&t);
}

/* A parsed value with a lone surrogate escape reads it as U+FFFD (through
 * jsonerr_cjson_parse, as every reader of profile JSON), from memory and
 * through a window; a pair stays one character. */
static void jsonpull_parse_reads_a_lone_surrogate_as_fffd(void **state)
{
	static const char text[] =
	    "[\"a\\ud800b\", {\"n\": \"\\udc00\\ud83d\\ude00\"}]";
	size_t chunk;

	(void)state;
	for (chunk = 0; chunk <= 3; chunk += 3) {
		struct jpull p;
		struct err e = ERR_INIT;
		cJSON *v;

		if (chunk)
			jp_open_mem_chunked(&p, "t.json", text, strlen(text),
			                    chunk, &e);
		else
			jp_open_mem(&p, "t.json", text, strlen(text), &e);
		assert_int_equal(jp_enter(&p), 0);
		assert_int_equal(jp_next(&p, NULL), 1);
		v = jp_parse(&p, 100, "a test");
		assert_non_null(v);
		assert_string_equal(v->valuestring, "a\xef\xbf\xbd"
		                                    "b");
		cJSON_Delete(v);
		assert_int_equal(jp_next(&p, NULL), 1);
		v = jp_parse(&p, 100, "a test");
		assert_non_null(v);
		assert_string_equal(
		    cJSON_GetObjectItemCaseSensitive(v, "n")->valuestring,
		    "\xef\xbf\xbd\xf0\x9f\x98\x80");
		cJSON_Delete(v);
		assert_int_equal(jp_next(&p, NULL), 0);
		assert_int_equal(jp_end(&p), 0);
		jp_close(&p);
	}
}

static void jsonpull_quotes_a_value_compactly(void **state)
{
	static const char text[] = "[ [1, 2, {\"a\": \" b \"}] ]";
	struct strbuf q = STRBUF_INIT;
	struct jpull p;
	struct err e = ERR_INIT;

	(void)state;
	jp_open_mem_chunked(&p, "t.json", text, strlen(text), 2, &e);
	assert_int_equal(jp_enter(&p), 0);
	assert_int_equal(jp_next(&p, NULL), 1);
	assert_int_equal(jp_skip_quote(&p, &q, 64), 0);
	assert_string_equal(q.buf, "[1,2,{\"a\":\" b \"}]");
	assert_int_equal(jp_next(&p, NULL), 0);
	jp_close(&p);
	jp_open_mem(&p, "t.json", text, strlen(text), &e);
	assert_int_equal(jp_enter(&p), 0);
	assert_int_equal(jp_next(&p, NULL), 1);
	assert_int_equal(jp_skip_quote(&p, &q, 5), 0); /* the first 5 bytes */
	assert_string_equal(q.buf, "[1,2");
	jp_close(&p);
	strbuf_release(&q);
}

static void jsonpull_finds_members_and_comes_back(void **state)
{
	static const char text[] =
	    "{\"a\": {\"x\": 1, \"y\": [5, 6]}, \"b\": 2, \"a\": 3}";
	struct jpull p;
	struct err e = ERR_INIT;
	struct jp_mark root, a, y, el;
	cJSON *v;

	(void)state;
	jp_open_mem(&p, "t.json", text, strlen(text), &e);
	jp_mark(&p, &root);
	assert_int_equal(jp_find(&p, &root, "zz", &a), 0);
	assert_int_equal(jp_find(&p, &root, "a", &a), 1); /* the first */
	assert_int_equal(jp_type(&p), JP_OBJECT);
	assert_int_equal(jp_find(&p, &a, "y", &y), 1);
	assert_int_equal(jp_find(&p, &root, "b", &el), 1);
	v = jp_parse(&p, 10, "t");
	assert_int_equal(v->valueint, 2);
	cJSON_Delete(v);
	/* back into y, element by element */
	jp_reset(&p, &y);
	assert_int_equal(jp_enter(&p), 0);
	assert_int_equal(jp_next(&p, NULL), 1);
	jp_mark(&p, &el);
	assert_int_equal(jp_skip(&p), 0);
	assert_int_equal(jp_next(&p, NULL), 1);
	v = jp_parse(&p, 10, "t");
	assert_int_equal(v->valueint, 6);
	cJSON_Delete(v);
	jp_reset(&p, &el);
	v = jp_parse(&p, 10, "t");
	assert_int_equal(v->valueint, 5);
	cJSON_Delete(v);
	assert_int_equal(jp_next(&p, NULL), 1);
	assert_int_equal(jp_skip(&p), 0);
	assert_int_equal(jp_next(&p, NULL), 0);
	jp_close(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(jsonpull_accepts_the_grammar),
	    cmocka_unit_test(jsonpull_rejects_with_line_and_column),
	    cmocka_unit_test(jsonpull_limits_nesting),
	    cmocka_unit_test(jsonpull_walks_and_parses_values),
	    cmocka_unit_test(jsonpull_parse_limits_one_value),
	    cmocka_unit_test(jsonpull_parse_reads_a_lone_surrogate_as_fffd),
	    cmocka_unit_test(jsonpull_quotes_a_value_compactly),
	    cmocka_unit_test(jsonpull_finds_members_and_comes_back),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
