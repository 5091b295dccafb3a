/* Unit tests of input/trace.c (the streamed trace_view.json scanner) and
 * analysis/tracestages.c (Overlap Analysis per stage, stage markers).
 * Expected numbers come from the files themselves through python3
 * one-offs quoted next to them, or from hand arithmetic shown inline. */
#include "unit.h"

#include <zlib.h>

#include "analysis/tracestages.h"
#include "input/trace.h"
#include "util/strbuf.h"

/* The real traces, stored gzip-compressed in tests/data/samples (read
 * through the same gzip-transparent path as any .gz input). */
#define ALEXNET_L1_R0                                                          \
	"msinsight-alexnet-2rank-2024/level1/rank0_ascend_pt/"                 \
	"ASCEND_PROFILER_OUTPUT/trace_view.json.gz"
#define MSTT_TIMELINE "mstt-test-resources/timeline_advice/trace_view.json.gz"

/* ---- helpers ------------------------------------------------------------- */

/* Every delivered event as one text line, offsets left out (the two forms
 * of one trace differ only in them). */
static void record(const struct trace_event *ev, void *ctx)
{
	strbuf_addf(ctx, "%c|%s|%s|%lld|%lld|%lld|%lld|%s|%s|%s\n",
	            ev->ph ? ev->ph : '0', ev->name, ev->cat,
	            (long long)ev->pid, (long long)ev->tid,
	            (long long)ev->ts_ns, (long long)ev->dur_ns, ev->id, ev->bp,
	            ev->arg_name);
}

static void record_offset(const struct trace_event *ev, void *ctx)
{
	strbuf_addf(ctx, "%llu ", (unsigned long long)ev->offset);
}

/* The raw prefilter view of every element. */
static int record_raw(char ph, const char *name, size_t len, void *ctx)
{
	strbuf_addf(ctx, "%c:%.*s\n", ph ? ph : '0', (int)len, name);
	return 0;
}

struct run {
	struct trace_scan ts;
	struct err e;
	int rc;
	struct strbuf out;
};

static void scan_chunked(struct run *r, const char *text, size_t len,
                         size_t chunk)
{
	struct err e = ERR_INIT;

	r->e = e;
	strbuf_init(&r->out);
	r->rc = trace_scan_mem_chunked("t.json", text, len, chunk, NULL, record,
	                               &r->out, &r->ts, &r->e);
}

static void scan_text(struct run *r, const char *text)
{
	scan_chunked(r, text, strlen(text), TRACE_CHUNK);
}

static void scan_ok(struct run *r, const char *text)
{
	scan_text(r, text);
	if (r->rc)
		fail_msg("scan failed: %s", r->e.msg);
}

static void scan_fails(const char *text, const char *msg)
{
	struct run r;

	scan_text(&r, text);
	assert_int_equal(r.rc, -1);
	assert_int_equal(r.e.code, ERR_INPUT);
	assert_string_equal(r.e.msg, msg);
	strbuf_release(&r.out);
}

/* A sample trace in tests/data/samples; a missing one fails the test. */
static void sample_path(char *out, size_t n, const char *rel)
{
	struct stat st;

	unit_join(out, n, SDPERF_TEST_DATA "/samples", rel);
	if (stat(out, &st))
		fail_msg("sample %s not found", out);
}

static void write_gz(const char *path, const char *text, size_t len)
{
	gzFile g = gzopen(path, "wb");

	assert_non_null(g);
	assert_int_equal(gzwrite(g, text, (unsigned)len), (int)len);
	assert_int_equal(gzclose(g), Z_OK);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n >= 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* ---- the real traces ----------------------------------------------------- */

/* Reference, computed with python3 (json.load(parse_float=Decimal); the
 * pid whose process_name M event says "Overlap Analysis"; per X event of
 * that pid, dur*1000 rounded half up to ns, summed per name):
 *   alexnet level1 rank0: 8750 elements, pid 40509088, 697 events,
 *     ns [9847664, 70787347, 66526545, 7268626]
 *   mstt timeline_advice: 3670 elements, pid 4376751100, 547 events,
 *     ns [1788267, 0, 0, 9481699] (its durs have 4 decimals; exact sums
 *     1788.2505 and 9481.6670 us: per-event rounding adds 16.5/32 ns)
 * and flow starts ('s' with cat async_npu or name torch_to_npu): 349 and
 * 274. */
static void check_real(const char *rel, uint64_t elements, uint64_t events,
                       uint64_t flows, const int64_t total[OV_KINDS])
{
	char path[4096];
	struct trace_summary s;
	struct trace_scan ts;
	struct err e = ERR_INIT;
	int k;

	sample_path(path, sizeof(path), rel);
	assert_int_equal(trace_scan_file(path, NULL, NULL, NULL, &ts, &e), 0);
	assert_int_equal(ts.elements, elements);
	assert_int_equal(ts.parsed, elements);
	assert_int_equal(ts.truncated, 0);
	assert_int_equal(ts.form, TRACE_FORM_ARRAY);
	if (trace_collect(path, NULL, 0, NULL, 0, &s, &e))
		fail_msg("%s", e.msg);
	assert_int_equal(s.scan.elements, elements);
	assert_true(s.scan.parsed < elements / 2); /* the prefilter works */
	assert_int_equal(s.flows, flows);
	assert_int_equal(s.ov.found, 1);
	assert_int_equal(s.ov.events, events);
	for (k = 0; k < OV_KINDS; k++) {
		assert_int_equal(s.ov.total[k], total[k]);
		assert_int_equal(s.ov.outside[k], total[k]); /* no segments */
	}
	trace_summary_release(&s);
}

static void trace_real_alexnet_level1_rank0(void **state)
{
	/* step_trace_time.csv of the same rank (one step, 50) says, in us:
	 * Computing 9847.663999999999, Communication(Not Overlapped)
	 * 66526.54500000003, Communication 70787.347, Free 7268.625999999975:
	 * to the ns the same four numbers */
	const int64_t total[OV_KINDS] = {9847664, 70787347, 66526545, 7268626};
	(void)state;
	check_real(ALEXNET_L1_R0, 8750, 697, 349, total);
}

static void trace_real_mstt_timeline_advice(void **state)
{
	const int64_t total[OV_KINDS] = {1788267, 0, 0, 9481699};
	(void)state;
	check_real(MSTT_TIMELINE, 3670, 547, 274, total);
}

/* ---- forms, separators, strings ------------------------------------------ */

#define EV1                                                                    \
	"{\"ph\": \"X\", \"name\": \"a\\\"b]}{[\", \"pid\": 7, \"tid\": 8, "   \
	"\"ts\": \"1736408883686740.710\", \"dur\": 17.466, \"cat\": "         \
	"\"cpu_op\"}"
#define EV2                                                                    \
	"{\"cat\":\"async_npu\",\"id\":1727593954724238986,\"ts\":"            \
	"\"1727593954661630.828\",\"name\":\"torch_to_npu\",\"bp\":\"e\","     \
	"\"pid\":\"39559\",\"ph\":\"s\",\"tid\":39559}"
#define EV3                                                                    \
	"{\"args\": {\"name\": \"Overlap Analysis\", \"x\": [1, {\"y\": "      \
	"\"]\"}]}, \"name\": \"process_name\", \"ph\": \"M\", \"pid\": 9}"
#define EVENTS EV1 ", " EV2 "," EV3 ",\n  " EV1

#define REC1 "X|a\"b]}{[|cpu_op|7|8|1736408883686740710|17466|||\n"
#define REC2                                                                   \
	"s|torch_to_npu|async_npu|39559|39559|1727593954661630828|-1|"         \
	"1727593954724238986|e|\n"
#define REC3 "M|process_name||9|-1|-9223372036854775808|-1|||Overlap Analysis\n"

static const char expect_events[] = REC1 REC2 REC3 REC1;

static void trace_scan_array_form(void **state)
{
	struct run r;
	(void)state;

	scan_ok(&r, "[" EVENTS "]\n");
	assert_string_equal(r.out.buf, expect_events);
	assert_int_equal(r.ts.form, TRACE_FORM_ARRAY);
	assert_int_equal(r.ts.elements, 4);
	assert_int_equal(r.ts.parsed, 4);
	assert_int_equal(r.ts.truncated, 0);
	strbuf_release(&r.out);
}

static void trace_scan_object_form_same_events(void **state)
{
	struct run r;
	(void)state;

	/* other members before and after, with brackets inside strings and
	 * nested arrays: skipped */
	scan_ok(&r, "{\"meta\": {\"a\": [\"]\", \"}\", [[{}]]], \"b\": "
	            "\"\\\"[\"}, \"n\": -1.5e3, \"t\": true,\n"
	            "\"traceEvents\": [" EVENTS "],\n"
	            "\"displayTimeUnit\": \"ns\", \"x\": [1, 2]}");
	assert_string_equal(r.out.buf, expect_events);
	assert_int_equal(r.ts.form, TRACE_FORM_OBJECT);
	assert_int_equal(r.ts.elements, 4);
	strbuf_release(&r.out);
}

/* Every chunk size gives the same events: state crosses chunk edges. */
static void trace_scan_any_chunk_size(void **state)
{
	const char *texts[] = {"[" EVENTS "]",
	                       "{\"m\": [\"]\"], \"traceEvents\": [" EVENTS
	                       "], \"z\": \"\\\\\"}"};
	size_t chunks[] = {1, 2, 3, 5, 7, 13, 64};
	size_t i, j;
	struct run r;
	(void)state;

	for (i = 0; i < ARRAY_LEN(texts); i++)
		for (j = 0; j < ARRAY_LEN(chunks); j++) {
			scan_chunked(&r, texts[i], strlen(texts[i]), chunks[j]);
			if (r.rc)
				fail_msg("chunk %zu: %s", chunks[j], r.e.msg);
			assert_string_equal(r.out.buf, expect_events);
			assert_int_equal(r.ts.truncated, 0);
			strbuf_release(&r.out);
		}
}

static void trace_scan_prefilter_sees_raw_names(void **state)
{
	struct trace_scan ts;
	struct err e = ERR_INIT;
	struct strbuf sb;
	const char *text = "[" EVENTS ", {\"pid\": 1}]";
	(void)state;

	strbuf_init(&sb);
	assert_int_equal(trace_scan_mem("t.json", text, strlen(text),
	                                record_raw, record, &sb, &ts, &e),
	                 0);
	/* escapes not decoded; absent ph and name give 0 and "" */
	assert_string_equal(sb.buf, "X:a\\\"b]}{[\ns:torch_to_npu\n"
	                            "M:process_name\nX:a\\\"b]}{[\n0:\n");
	assert_int_equal(ts.elements, 5);
	assert_int_equal(ts.parsed, 0);
	strbuf_release(&sb);
}

/* TRACE_RAW hands the element's bytes over; a raw callback may send it to
 * the parser after all, and without one it is parsed. */
static int want_raw(char ph, const char *name, size_t len, void *ctx)
{
	(void)name;
	(void)len;
	(void)ctx;
	return ph == 'X' ? TRACE_RAW : ph == 'M' ? TRACE_PARSE : TRACE_SKIP;
}

static int raw_seen(const struct trace_raw_el *el, uint64_t at, void *ctx)
{
	struct strbuf *sb = ctx;

	(void)el;
	strbuf_addf(sb, "raw@%llu ", (unsigned long long)at);
	return at > 40; /* the second X event: parse it after all */
}

static void trace_scan_raw_callback(void **state)
{
	const char *text = "[{\"ph\":\"X\",\"name\":\"a\",\"ts\":\"1\"}, "
	                   "{\"ph\":\"M\",\"name\":\"process_name\"}, "
	                   "{\"ph\":\"X\",\"name\":\"b\",\"ts\":\"2\"}, "
	                   "{\"ph\":\"s\"}]";
	struct trace_handler h = {want_raw, record, raw_seen, NULL};
	struct strbuf sb = STRBUF_INIT;
	struct trace_scan ts;
	struct err e = ERR_INIT;

	(void)state;
	h.ctx = &sb;
	assert_int_equal(
	    trace_scan_mem_with("t.json", text, strlen(text), 5, &h, &ts, &e),
	    0);
	assert_string_equal(sb.buf, "raw@1 M|process_name||-1|-1|"
	                            "-9223372036854775808|-1|||\n"
	                            "raw@67 X|b||-1|-1|2000|-1|||\n");
	assert_int_equal(ts.elements, 4);
	assert_int_equal(ts.raw, 1);
	assert_int_equal(ts.parsed, 2);
	strbuf_reset(&sb);
	h.raw = NULL; /* no raw callback: parsed */
	assert_int_equal(
	    trace_scan_mem_with("t.json", text, strlen(text), 0, &h, &ts, &e),
	    0);
	assert_int_equal(ts.parsed, 3);
	assert_int_equal(ts.raw, 0);
	strbuf_release(&sb);
}

static void trace_scan_offsets(void **state)
{
	struct trace_scan ts;
	struct err e = ERR_INIT;
	struct strbuf sb;
	const char *text = "\xef\xbb\xbf [ {\"a\": 1},{\"b\": \"}\"} ,\n{}]";
	(void)state;

	strbuf_init(&sb);
	assert_int_equal(trace_scan_mem("t.json", text, strlen(text), NULL,
	                                record_offset, &sb, &ts, &e),
	                 0);
	/* BOM (3 bytes) + " [ " -> first at 6; "{\"a\": 1}" is 8 bytes, then
	 * "," -> 15; "{\"b\": \"}\"}" is 10 bytes, " ,\n" -> 28 */
	assert_string_equal(sb.buf, "6 15 28 ");
	strbuf_release(&sb);
}

static void trace_scan_numbers(void **state)
{
	struct run r;
	(void)state;

	scan_ok(&r, "[{\"ph\":\"X\",\"ts\":1736408883686740.7106,\"dur\":"
	            "\"0.0005\",\"pid\":-3,\"tid\":\"x\",\"id\":\"HostToDevice"
	            "1\"},{\"ts\":\"12\",\"dur\":-1,\"pid\":1.5},"
	            "{\"ts\":\"1e3\",\"dur\":2,\"id\":12345678901234567890}]");
	/* a number ts keeps all its digits (a double would not); 4th
	 * decimal rounds half up; bad values give the defaults */
	assert_string_equal(
	    r.out.buf,
	    "X|||-3|-1|1736408883686740711|1|HostToDevice1||\n"
	    "0|||-1|-1|12000|-1|||\n"
	    "0|||-1|-1|-9223372036854775808|2000|12345678901234567890||\n");
	strbuf_release(&r.out);
}

/* ---- truncation -------------------------------------------------------------
 */

static void trace_scan_truncated_inside_event(void **state)
{
	const char *text = "[" EV1 ", " EV2 ", {\"ph\": \"X\", \"name\": \"ab";
	size_t cut = 1 + strlen(EV1) + 2 + strlen(EV2) + 2;
	struct run r;
	(void)state;

	scan_ok(&r, text);
	assert_int_equal(r.ts.truncated, 1);
	assert_int_equal(r.ts.truncated_at, cut);
	assert_int_equal(r.ts.elements, 2);
	assert_string_equal(r.out.buf, REC1 REC2);
	strbuf_release(&r.out);
}

static void trace_scan_truncated_after_bracket(void **state)
{
	struct run r;
	(void)state;

	scan_ok(&r, "[");
	assert_int_equal(r.ts.truncated, 1);
	assert_int_equal(r.ts.truncated_at, 1);
	assert_int_equal(r.ts.elements, 0);
	strbuf_release(&r.out);
	scan_ok(&r, "[{\"a\": 1}, ");
	assert_int_equal(r.ts.truncated, 1);
	assert_int_equal(r.ts.truncated_at, 11); /* between elements: end */
	assert_int_equal(r.ts.elements, 1);
	strbuf_release(&r.out);
}

static void trace_scan_gzip_reads_the_same(void **state)
{
	char dir[512], plain[1024], gz[1024], cut[1024];
	const char *text = "[" EVENTS "]";
	struct trace_scan ts;
	struct err e = ERR_INIT;
	struct strbuf sb;
	char *data;
	size_t len;
	(void)state;

	unit_tmpdir(dir, sizeof(dir));
	unit_join(plain, sizeof(plain), dir, "trace_view.json");
	unit_join(gz, sizeof(gz), dir, "trace_view.json.gz");
	unit_join(cut, sizeof(cut), dir, "cut.json.gz");
	unit_write(plain, text, strlen(text));
	write_gz(gz, text, strlen(text));
	strbuf_init(&sb);
	assert_int_equal(trace_scan_file(gz, NULL, record, &sb, &ts, &e), 0);
	assert_string_equal(sb.buf, expect_events);
	assert_int_equal(ts.gz, 1);
	assert_int_equal(ts.truncated, 0);
	strbuf_reset(&sb);
	assert_int_equal(trace_scan_file(plain, NULL, record, &sb, &ts, &e), 0);
	assert_string_equal(sb.buf, expect_events);
	assert_int_equal(ts.gz, 0);
	assert_int_equal(ts.size, (int64_t)strlen(text));

	/* a .gz cut short (trailer and part of the data gone) is a
	 * truncated trace, not an error */
	data = slurp(gz, &len);
	unit_write(cut, data, len - 12);
	strbuf_reset(&sb);
	if (trace_scan_file(cut, NULL, record, &sb, &ts, &e))
		fail_msg("%s", e.msg);
	assert_int_equal(ts.truncated, 1);
	assert_true(ts.elements < 4);
	free(data);
	strbuf_release(&sb);
	unit_rmtree(dir);
}

/* ---- errors
 * ------------------------------------------------------------------- */

static void trace_scan_rejects_garbage_between_events(void **state)
{
	(void)state;
	scan_fails("[{\"a\": 1}, xyz\x01 {\"b\": 2}]",
	           "t.json: byte 11: expected an event object: "
	           "'xyz\\x01 {\"b\": 2}]'");
	scan_fails("[{\"a\": 1} {\"b\": 2}]",
	           "t.json: byte 10: expected ',' or ']' after an event: "
	           "'{\"b\": 2}]'");
	scan_fails("[{\"a\": 1}] x", "t.json: byte 11: data after the end of "
	                             "the trace: 'x'");
	scan_fails("[1]", "t.json: byte 1: expected an event object: '1]'");
}

static void trace_scan_rejects_invalid_wanted_event(void **state)
{
	(void)state;
	/* cJSON stops at the bad literal: byte 1 + 17 */
	scan_fails("[{\"ph\": \"X\", \"n\": tru}]",
	           "t.json: byte 18: invalid event: 'tru}]'");
}

static void trace_scan_rejects_unterminated_string(void **state)
{
	(void)state;
	/* the open string swallows the rest of a file that ends with ']' */
	scan_fails("[{\"name\": \"abc}, {\"name\": \"d\"}]",
	           "t.json: byte 1: unterminated string: "
	           "'{\"name\": \"abc}, {\"name\": \"d\"}]'");
	scan_fails("[{\"name\": \"abc}, {\"name\": \"d\"}]\n",
	           "t.json: byte 1: unterminated string (a line break inside "
	           "a string): '{\"name\": \"abc}, {\"name\": \"d\"}]\\x0A'");
	/* a line break cannot be inside a string */
	scan_fails("[{\"name\": \"abc\n}, {\"x\": 1}",
	           "t.json: byte 1: unterminated string (a line break inside "
	           "a string): '{\"name\": \"abc\\x0A}, {\"x\": 1}'");
}

static void trace_scan_rejects_empty_and_scalars(void **state)
{
	(void)state;
	scan_fails("", "t.json: empty file: no trace events");
	scan_fails(" \n\t", "t.json: empty file: no trace events");
	scan_fails("42", "t.json: byte 0: not a json array or object of trace "
	                 "events: '42'");
	scan_fails("  \"x\"", "t.json: byte 2: not a json array or object of "
	                      "trace events: '\"x\"'");
	scan_fails("{\"a\": [1]}", "t.json: no \"traceEvents\" array in the "
	                           "top-level object");
	scan_fails("{\"traceEvents\": 3}",
	           "t.json: byte 16: \"traceEvents\" is "
	           "not an array: '3}'");
}

static void trace_scan_rejects_huge_event(void **state)
{
	size_t n = TRACE_MAX_EVENT + 100, i;
	char *text = malloc(n + 1);
	struct run r;
	(void)state;

	assert_non_null(text);
	memcpy(text, "[{\"name\": \"", 11);
	for (i = 11; i < n - 3; i++)
		text[i] = 'x';
	memcpy(text + n - 3, "\"}]", 4);
	scan_chunked(&r, text, n, TRACE_CHUNK);
	assert_int_equal(r.rc, -1);
	assert_int_equal(strncmp(r.e.msg,
	                         "t.json: byte 1: event larger than 16 MiB: "
	                         "'{\"name\": \"xxx",
	                         55),
	                 0);
	strbuf_release(&r.out);
	free(text);
}

/* ---- Overlap Analysis per stage
 * ----------------------------------------------- */

/* ts/dur in us with 3 decimals: "0.150" = 150 ns */
#define OA(name, ts, dur)                                                      \
	"{\"ph\": \"X\", \"name\": \"" name "\", \"pid\": 77, \"tid\": 0, "    \
	"\"ts\": \"" ts "\", \"dur\": " dur "}, "

static const char oa_trace[] =
    "[" OA("Computing", "0.150", "0.100")                 /* 150-250 */
    OA("Communication", "0.250", "0.200")                 /* 250-450 */
    OA("Free", "0.050", "0.070")                          /* 50-120 */
    OA("Communication(Not Overlapped)", "0.480", "0.120") /* 480-600 */
    "{\"ph\": \"X\", \"name\": \"Computing\", \"pid\": 5, \"ts\": \"0.100\","
    " \"dur\": 5.0}, "
    "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 5, \"args\": "
    "{\"name\": \"Ascend Hardware\"}}, "
    "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 77, \"args\": "
    "{\"name\": \"Overlap Analysis\"}}]";

static void trace_overlap_clipped_to_segments(void **state)
{
	/* dit [100,200), vae [200,300), text encoder [400,500) */
	const struct segment segs[] = {{STAGE_DIT, 100, 200, 0, 0, 0},
	                               {STAGE_VAE, 200, 300, 0, 0, 0},
	                               {STAGE_TEXT_ENCODER, 400, 500, 0, 0, 0}};
	struct trace_summary s;
	struct err e = ERR_INIT;
	(void)state;

	if (trace_collect_mem("t.json", oa_trace, strlen(oa_trace), NULL, 0,
	                      segs, 3, &s, &e))
		fail_msg("%s", e.msg);
	assert_int_equal(s.ov.found, 1);
	assert_int_equal(s.ov.events, 4); /* pid 5's Computing not counted */
	assert_int_equal(s.ov.total[OV_COMPUTING], 100);
	assert_int_equal(s.ov.total[OV_COMM], 200);
	assert_int_equal(s.ov.total[OV_NOT_OVERLAPPED], 120);
	assert_int_equal(s.ov.total[OV_FREE], 70);
	/* Computing 150-250: dit 150-200, vae 200-250 */
	assert_int_equal(s.ov.stage[STAGE_DIT][OV_COMPUTING], 50);
	assert_int_equal(s.ov.stage[STAGE_VAE][OV_COMPUTING], 50);
	assert_int_equal(s.ov.outside[OV_COMPUTING], 0);
	/* Communication 250-450: vae 250-300, none 300-400, te 400-450 */
	assert_int_equal(s.ov.stage[STAGE_VAE][OV_COMM], 50);
	assert_int_equal(s.ov.stage[STAGE_TEXT_ENCODER][OV_COMM], 50);
	assert_int_equal(s.ov.stage[STAGE_DIT][OV_COMM], 0);
	assert_int_equal(s.ov.outside[OV_COMM], 100);
	/* Free 50-120: none 50-100, dit 100-120 */
	assert_int_equal(s.ov.stage[STAGE_DIT][OV_FREE], 20);
	assert_int_equal(s.ov.outside[OV_FREE], 50);
	/* Not overlapped 480-600: te 480-500, none 500-600 */
	assert_int_equal(s.ov.stage[STAGE_TEXT_ENCODER][OV_NOT_OVERLAPPED], 20);
	assert_int_equal(s.ov.outside[OV_NOT_OVERLAPPED], 100);
	assert_int_equal(s.ov.stage[STAGE_OTHER][OV_COMPUTING], 0);
	trace_summary_release(&s);
}

static void trace_overlap_reattributed(void **state)
{
	/* one vae segment [0, 1000) takes everything; then none at all */
	const struct segment segs[] = {{STAGE_VAE, 0, 1000, 0, 0, 0}};
	struct trace_overlap ov;
	struct err e = ERR_INIT;
	int k;
	(void)state;

	assert_int_equal(trace_attribute_overlap_mem("t.json", oa_trace,
	                                             strlen(oa_trace), segs, 1,
	                                             &ov, &e),
	                 0);
	assert_int_equal(ov.found, 1);
	for (k = 0; k < OV_KINDS; k++) {
		assert_int_equal(ov.stage[STAGE_VAE][k], ov.total[k]);
		assert_int_equal(ov.outside[k], 0);
	}
	assert_int_equal(ov.total[OV_COMM], 200);
	assert_int_equal(trace_attribute_overlap_mem("t.json", oa_trace,
	                                             strlen(oa_trace), NULL, 0,
	                                             &ov, &e),
	                 0);
	assert_int_equal(ov.outside[OV_FREE], 70);
	assert_int_equal(ov.stage[STAGE_VAE][OV_FREE], 0);
}

static void trace_overlap_absent(void **state)
{
	const char *text = "[" OA("Computing", "0.150", "0.100") "{}]";
	struct trace_summary s;
	struct err e = ERR_INIT;
	(void)state;

	/* X events named Computing, but no process named Overlap Analysis */
	assert_int_equal(trace_collect_mem("t.json", text, strlen(text), NULL,
	                                   0, NULL, 0, &s, &e),
	                 0);
	assert_int_equal(s.ov.found, 0);
	assert_int_equal(s.ov.events, 0);
	assert_int_equal(s.ov.total[OV_COMPUTING], 0);
	trace_summary_release(&s);
}

/* ---- markers
 * ------------------------------------------------------------------ */

#define HOST(name, cat, ts, dur)                                               \
	"{\"ph\": \"X\", \"name\": \"" name "\", \"cat\": \"" cat "\", "       \
	"\"pid\": 1, \"tid\": 1, \"ts\": \"" ts "\", \"dur\": " dur "}, "
#define FLOW(ph, id, ts)                                                       \
	"{\"ph\": \"" ph "\", \"bp\": \"e\", \"name\": \"torch_to_npu\", "     \
	"\"id\": " id ", \"pid\": 2, \"tid\": 1, \"ts\": \"" ts "\", "         \
	"\"cat\": \"async_npu\"}, "

static const char marker_trace[] =
    "[" HOST("vae", "cpu_op", "1000", "1000")              /* 1000-2000 us */
    HOST("transformer", "user_annotation", "3000", "1000") /* 3000-4000 */
    HOST("dit_block", "cpu_op", "3200", "100")             /* 3200-3300 */
    HOST("vae_decode", "cpu_op", "5000", "10")             /* no flows */
    HOST("vae", "kernel", "6000", "10")                    /* not a host op */
    HOST("aten::mm", "cpu_op", "1100", "5") FLOW("s", "1", "1100")
        FLOW("f", "1", "9000.5") FLOW("s", "2", "1900") FLOW("f", "2", "9500")
            FLOW("f", "3", "9600") FLOW("s", "3", "1500") /* f before s */
    FLOW("s", "4", "3100") FLOW("f", "4", "12000") FLOW("s", "5", "3250")
        FLOW("f", "5", "12100") /* in dit_block */
    FLOW("s", "6", "3900") FLOW("f", "6", "13000") FLOW("s", "7", "2500")
        FLOW("f", "7", "11000") /* in no marker */
    "{\"ph\": \"s\", \"name\": \"other\", \"cat\": \"async_npu\", \"id\": "
    "8, \"ts\": \"1\"}, "
    "{\"ph\": \"s\", \"name\": \"fwdbwd\", \"cat\": \"fwdbwd\", \"id\": 9, "
    "\"ts\": \"1\"}]";

static void trace_markers_mapped_by_flows(void **state)
{
	const struct trace_marker_rule rules[] = {
	    {"vae", STAGE_VAE},
	    {"vae_*", STAGE_VAE},
	    {"TRANSFORMER", STAGE_DIT}, /* globs ignore case */
	    {"dit_*", STAGE_DIT}};
	struct trace_summary s;
	struct err e = ERR_INIT;
	const struct trace_marker *m;
	(void)state;

	if (trace_collect_mem("t.json", marker_trace, strlen(marker_trace),
	                      rules, 4, NULL, 0, &s, &e))
		fail_msg("%s", e.msg);
	/* 7 torch_to_npu starts + 1 other async_npu start; not fwdbwd */
	assert_int_equal(s.flows, 8);
	assert_int_equal(s.nmarkers, 4);
	m = s.markers;
	assert_string_equal(m[0].name, "vae");
	assert_string_equal(m[1].name, "transformer");
	assert_string_equal(m[2].name, "dit_block");
	assert_string_equal(m[3].name, "vae_decode");
	assert_int_equal(m[1].stage, STAGE_DIT);
	assert_int_equal(m[3].stage, STAGE_VAE);
	assert_int_equal(m[0].host_start_ns, 1000000);
	assert_int_equal(m[0].host_end_ns, 2000000);
	assert_int_equal(m[0].method, MARKER_TIME); /* until pass 2 */
	assert_int_equal(m[0].dev_start_ns, m[0].host_start_ns);

	if (trace_map_markers_mem("t.json", marker_trace, strlen(marker_trace),
	                          &s, &e))
		fail_msg("%s", e.msg);
	/* vae: flows 1, 2, 3 -> device 9000.5 .. 9600 us */
	assert_int_equal(m[0].method, MARKER_FLOWS);
	assert_int_equal(m[0].flows, 3);
	assert_int_equal(m[0].dev_start_ns, 9000500);
	assert_int_equal(m[0].dev_end_ns, 9600000);
	/* transformer: flows 4 and 6; 5 goes to the nested dit_block */
	assert_int_equal(m[1].method, MARKER_FLOWS);
	assert_int_equal(m[1].flows, 2);
	assert_int_equal(m[1].dev_start_ns, 12000000);
	assert_int_equal(m[1].dev_end_ns, 13000000);
	assert_int_equal(m[2].flows, 1);
	assert_int_equal(m[2].dev_start_ns, 12100000);
	assert_int_equal(m[2].dev_end_ns, 12100000);
	/* no flow reaches vae_decode: time alignment */
	assert_int_equal(m[3].method, MARKER_TIME);
	assert_int_equal(m[3].flows, 0);
	assert_int_equal(m[3].dev_start_ns, 5000000);
	assert_int_equal(m[3].dev_end_ns, 5010000);
	trace_summary_release(&s);
}

static void trace_markers_need_rules(void **state)
{
	struct trace_summary s;
	struct err e = ERR_INIT;
	(void)state;

	assert_int_equal(trace_collect_mem("t.json", marker_trace,
	                                   strlen(marker_trace), NULL, 0, NULL,
	                                   0, &s, &e),
	                 0);
	assert_int_equal(s.nmarkers, 0);
	assert_int_equal(trace_map_markers_mem("t.json", marker_trace,
	                                       strlen(marker_trace), &s, &e),
	                 0);
	trace_summary_release(&s);
}

/* Many markers: all are kept for the analysis (in host-start order, the
 * outer of two nested first, then file order), names only for the first
 * RESULT_MAX_MARKERS; a name over TRACE_MARKER_NAME_MAX is no marker. */
static void trace_markers_names_only_for_the_listed(void **state)
{
	const struct trace_marker_rule rules[] = {{"vae*", STAGE_VAE}};
	enum { N = 3 * RESULT_MAX_MARKERS };
	struct strbuf t = STRBUF_INIT, longname = STRBUF_INIT;
	struct trace_summary s;
	struct err e = ERR_INIT;
	size_t i;
	(void)state;

	strbuf_adds(&longname, "vae_");
	strbuf_addchars(&longname, 'x', TRACE_MARKER_NAME_MAX);
	strbuf_adds(&t, "[");
	/* written from the last to the first: the sort must reorder */
	for (i = N; i-- > 0;)
		strbuf_addf(&t,
		            "{\"ph\": \"X\", \"name\": \"vae_%zu\", \"cat\": "
		            "\"cpu_op\", \"ts\": \"%zu\", \"dur\": 1},",
		            i, 1000 + i / 2 * 10);
	strbuf_addf(&t,
	            "{\"ph\": \"X\", \"name\": \"%s\", \"cat\": \"cpu_op\", "
	            "\"ts\": \"1\", \"dur\": 1}]",
	            longname.buf);
	if (trace_collect_mem("t.json", t.buf, t.len, rules, 1, NULL, 0, &s,
	                      &e))
		fail_msg("%s", e.msg);
	assert_int_equal(s.nmarkers, N);
	for (i = 0; i < N; i++) {
		char want[32];
		/* pairs share a start: the one written first (i odd) is
		 * earlier in the file */
		size_t id = i % 2 ? i - 1 : i + 1;
		snprintf(want, sizeof(want), "vae_%zu", id);
		assert_int_equal(s.markers[i].host_start_ns,
		                 (int64_t)(1000 + i / 2 * 10) * 1000);
		if (i < RESULT_MAX_MARKERS)
			assert_string_equal(s.markers[i].name, want);
		else
			assert_null(s.markers[i].name);
	}
	assert_true(s.charged >= N * sizeof(*s.markers));
	trace_summary_release(&s);
	strbuf_release(&t);
	strbuf_release(&longname);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(trace_real_alexnet_level1_rank0),
	    cmocka_unit_test(trace_real_mstt_timeline_advice),
	    cmocka_unit_test(trace_scan_array_form),
	    cmocka_unit_test(trace_scan_object_form_same_events),
	    cmocka_unit_test(trace_scan_any_chunk_size),
	    cmocka_unit_test(trace_scan_prefilter_sees_raw_names),
	    cmocka_unit_test(trace_scan_raw_callback),
	    cmocka_unit_test(trace_scan_offsets),
	    cmocka_unit_test(trace_scan_numbers),
	    cmocka_unit_test(trace_scan_truncated_inside_event),
	    cmocka_unit_test(trace_scan_truncated_after_bracket),
	    cmocka_unit_test(trace_scan_gzip_reads_the_same),
	    cmocka_unit_test(trace_scan_rejects_garbage_between_events),
	    cmocka_unit_test(trace_scan_rejects_invalid_wanted_event),
	    cmocka_unit_test(trace_scan_rejects_unterminated_string),
	    cmocka_unit_test(trace_scan_rejects_empty_and_scalars),
	    cmocka_unit_test(trace_scan_rejects_huge_event),
	    cmocka_unit_test(trace_overlap_clipped_to_segments),
	    cmocka_unit_test(trace_overlap_reattributed),
	    cmocka_unit_test(trace_overlap_absent),
	    cmocka_unit_test(trace_markers_mapped_by_flows),
	    cmocka_unit_test(trace_markers_need_rules),
	    cmocka_unit_test(trace_markers_names_only_for_the_listed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
