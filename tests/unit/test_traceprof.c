/* The trace-only profile reader (input/traceprof.c): the real AlexNet
 * captures' traces give exactly their kernel_details.csv kernels, the
 * other things it collects, and its behaviour on odd and broken traces.
 *
 * Expected figures not taken from kernel_details.csv come from Python's
 * json module over the same files (decimal.Decimal for times):
 * Ascend Hardware X events, those named like a task type (capitals,
 * digits, '_') or "Other"/"MemcopyAsync", HCCL X events named hcom_*,
 * Overlap Analysis durations summed per name (ns, half up), torch_to_npu
 * 's' events, ProfilerStep ranges, the HCCL sub-tasks' "src rank" set. */
#include "unit.h"

#include "input/kernels.h"
#include "input/traceprof.h"

#define ALEX SDPERF_TEST_DATA "/samples/msinsight-alexnet-2rank-2024/"

struct alex {
	const char *dir;
	uint64_t hw_events, subtasks;
	int64_t ov_ns[OV_KINDS];
	int64_t step_ts, step_dur; /* ns */
	int32_t rank;
};

static const struct alex alex[] = {
    {"level0/rank0_ascend_pt",
     1749,
     1404,
     {9882852, 35563305, 31347481, 3870978},
     1727592872421469657,
     59329993,
     -1},
    {"level0/rank1_ascend_pt",
     1749,
     1404,
     {9960802, 34556365, 30332512, 5601155},
     1727592872416952839,
     63913880,
     -1},
    {"level1/rank0_ascend_pt",
     1749,
     1404,
     {9847664, 70787347, 66526545, 7268626},
     1727593954626254986,
     98485775,
     0},
    {"level1/rank1_ascend_pt",
     1749,
     1404,
     {9893263, 55032360, 50785486, 5849156},
     1727593954645494360,
     78598392,
     1},
};

static int cmp_kernel(const void *a, const void *b)
{
	const struct kernel *x = a, *y = b;

	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	return (x->dur_ns > y->dur_ns) - (x->dur_ns < y->dur_ns);
}

static int64_t total_ns(const struct kernel_table *kt)
{
	int64_t t = 0;
	size_t i;

	for (i = 0; i < kt->n; i++)
		t += kt->v[i].dur_ns;
	return t;
}

/* Count, total duration and each kernel (start, duration; the type where
 * the CSV has none either) against kernel_details.csv. The CSV cuts the
 * HCCL operations' start to the ns, the trace rounds it: 1 ns apart. */
static void compare_with_csv(const struct alex *a, struct kernel_table *tk,
                             int level0)
{
	struct kernel_table ck;
	struct kernels_info info = {0};
	struct kernels_opts ko = {1, 0, 1};
	struct err e = ERR_INIT;
	char path[512];
	size_t i;

	kernel_table_init(&ck);
	snprintf(path, sizeof(path), ALEX "%s/ASCEND_PROFILER_OUTPUT/%s",
	         a->dir, "kernel_details.csv");
	assert_int_equal(kernels_read(path, &ko, &ck, &info, &e), 0);
	assert_int_equal(tk->n, ck.n);
	assert_int_equal(total_ns(tk), total_ns(&ck));
	qsort(tk->v, tk->n, sizeof(*tk->v), cmp_kernel);
	qsort(ck.v, ck.n, sizeof(*ck.v), cmp_kernel);
	for (i = 0; i < ck.n; i++) {
		const char *tcore = kernel_key_core(tk, tk->v[i].key);
		int64_t d = tk->v[i].start_ns - ck.v[i].start_ns;
		assert_int_equal(tk->v[i].dur_ns, ck.v[i].dur_ns);
		assert_true(d == 0 || (d == 1 && !strcmp(tcore, "HCCL")));
		/* Level1 files name the core, a trace does not */
		assert_int_equal(
		    !strcmp(tcore, "HCCL"),
		    !strcmp(kernel_key_core(&ck, ck.v[i].key), "HCCL"));
		if (level0) /* Type N/A: both typed from the name */
			assert_string_equal(kernel_key_type(tk, tk->v[i].key),
			                    kernel_key_type(&ck, ck.v[i].key));
	}
	kernels_info_release(&info);
	kernel_table_release(&ck);
}

static void alexnet_traces_give_the_kernel_details_kernels(void **state)
{
	size_t i;
	int k;

	(void)state;
	for (i = 0; i < ARRAY_LEN(alex); i++) {
		const struct alex *a = &alex[i];
		struct kernel_table kt;
		struct traceprof tp;
		struct err e = ERR_INIT;
		char path[512];

		kernel_table_init(&kt);
		snprintf(path, sizeof(path),
		         ALEX "%s/ASCEND_PROFILER_OUTPUT/trace_view.json.gz",
		         a->dir);
		assert_int_equal(traceprof_read(path, NULL, NULL, &kt, &tp, &e),
		                 0);
		assert_int_equal(kt.n, 349);
		assert_int_equal(tp.hccl_ops, 4);
		assert_int_equal(tp.hw_events, a->hw_events);
		assert_int_equal(tp.subtasks, a->subtasks);
		assert_int_equal(tp.bad_events, 0);
		assert_true(tp.hw_found && tp.hccl_found && tp.ov_found);
		assert_false(tp.scan.truncated);
		for (k = 0; k < OV_KINDS; k++) {
			int64_t sum = 0;
			size_t j;
			for (j = 0; j < tp.nov[k]; j++)
				sum +=
				    tp.ov[k][j].end_ns - tp.ov[k][j].start_ns;
			assert_int_equal(sum, a->ov_ns[k]);
		}
		assert_int_equal(tp.nranges, 1);
		assert_int_equal(tp.ranges[0].step, 50);
		assert_int_equal(tp.ranges[0].rule, -1);
		assert_int_equal(tp.ranges[0].start_ns, a->step_ts);
		assert_int_equal(tp.ranges[0].end_ns - tp.ranges[0].start_ns,
		                 a->step_dur);
		assert_int_equal(tp.nflows, 349);
		assert_int_equal(tp.rank_id, a->rank);
		compare_with_csv(a, &kt, i < 2);
		traceprof_release(&tp);
		kernel_table_release(&kt);
	}
}

/* The older pid scheme (pid 800 = Ascend Hardware, "Stream Id" args):
 * 276 X events, 2 of them MEMCPY_ASYNC; no HCCL. */
static void mstt_trace_reads(void **state)
{
	struct kernel_table kt;
	struct traceprof tp;
	struct err e = ERR_INIT;

	(void)state;
	kernel_table_init(&kt);
	assert_int_equal(traceprof_read(SDPERF_TEST_DATA
	                                "/samples/mstt-test-resources/"
	                                "timeline_advice/trace_view.json.gz",
	                                NULL, NULL, &kt, &tp, &e),
	                 0);
	assert_int_equal(kt.n, 274);
	assert_int_equal(tp.subtasks, 2);
	assert_int_equal(tp.hccl_ops, 0);
	assert_int_equal(tp.nflows, 274);
	assert_int_equal(tp.nranges, 1);
	assert_int_equal(tp.ranges[0].step, 1);
	assert_int_equal(tp.nov[0] > 0 && tp.nov[3] > 0, 1);
	traceprof_release(&tp);
	kernel_table_release(&kt);
}

/* ---- small traces -------------------------------------------------------- */

static int read_str(const char *json, size_t chunk, struct kernel_table *kt,
                    struct traceprof *tp, struct err *e)
{
	kernel_table_init(kt);
	return traceprof_read_mem("t.json", json, strlen(json), chunk, NULL,
	                          NULL, kt, tp, e);
}

#define HW_META                                                                \
	"{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":7,\"tid\":0,"         \
	"\"args\":{\"name\":\"Ascend Hardware\"}}"
#define HCCL_META                                                              \
	"{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":9,\"tid\":0,"         \
	"\"args\":{\"name\":\"HCCL\"}}"

static void durations_round_like_kernel_details(void **state)
{
	const char *json =
	    "[" HW_META "," HCCL_META ","
	    "{\"name\":\"Conv2D12\",\"pid\":7,\"tid\":1,\"ts\":\"10.000\","
	    "\"dur\":39.9805,\"ph\":\"X\"},"
	    "{\"name\":\"Conv2D12\",\"pid\":7,\"tid\":1,\"ts\":\"100\","
	    "\"dur\":248.8625,\"ph\":\"X\"},"
	    "{\"name\":\"Cast1\",\"pid\":7,\"tid\":1,\"ts\":\"400.5\","
	    "\"dur\":\"1.5e-3\",\"ph\":\"X\"},"
	    "{\"name\":\"hcom_allReduce__538_2_1\",\"pid\":9,\"tid\":0,"
	    "\"ts\":\"500\",\"dur\":9387.903875,\"ph\":\"X\"}]";
	struct kernel_table kt;
	struct traceprof tp;
	struct err e = ERR_INIT;

	(void)state;
	assert_int_equal(read_str(json, 0, &kt, &tp, &e), 0);
	assert_int_equal(kt.n, 4);
	/* 39.9805 is just below its half as a double, 248.8625 just above */
	assert_int_equal(kt.v[0].dur_ns, 39980);
	assert_int_equal(kt.v[1].dur_ns, 248863);
	/* an exponent: the double of 0.0015 lies just above 1.5 ns */
	assert_int_equal(kt.v[2].dur_ns, 2);
	assert_int_equal(kt.v[2].start_ns, 400500);
	assert_int_equal(kt.v[3].dur_ns, 9387903); /* cut, not rounded */
	assert_string_equal(kernel_key_type(&kt, kt.v[0].key), "Conv2D");
	assert_string_equal(kernel_key_core(&kt, kt.v[0].key), "");
	assert_string_equal(kernel_key_type(&kt, kt.v[3].key),
	                    "hcom_allReduce_");
	assert_string_equal(kernel_key_core(&kt, kt.v[3].key), "HCCL");
	assert_int_equal(kt.v[0].step, STEP_NONE);
	traceprof_release(&tp);
	kernel_table_release(&kt);
}

/* The type and the aclnn API from an event's name (issue 22 §1): a
 * Transpose launched by aclnnFlashAttentionScore keeps its API in the
 * key, apart from a Transpose of another API; a Level0 helper
 * Conv2DBackpropFilter6_MemSet is MemSet. */
static void names_give_type_and_api(void **state)
{
	const char *json =
	    "[" HW_META ","
	    "{\"name\":\"aclnnFlashAttentionScore_TransposeAiCore_Transpose\","
	    "\"pid\":7,\"tid\":1,\"ts\":\"10\",\"dur\":1,\"ph\":\"X\"},"
	    "{\"name\":\"aclnnPermute_TransposeAiCore_Transpose\",\"pid\":7,"
	    "\"tid\":1,\"ts\":\"20\",\"dur\":1,\"ph\":\"X\"},"
	    "{\"name\":\"Conv2DBackpropFilter6_MemSet\",\"pid\":7,\"tid\":1,"
	    "\"ts\":\"30\",\"dur\":1,\"ph\":\"X\"}]";
	struct kernel_table kt;
	struct traceprof tp;
	struct err e = ERR_INIT;

	(void)state;
	assert_int_equal(read_str(json, 0, &kt, &tp, &e), 0);
	assert_int_equal(kt.n, 3);
	assert_string_equal(kernel_key_type(&kt, kt.v[0].key), "Transpose");
	assert_string_equal(kernel_key_api(&kt, kt.v[0].key),
	                    "aclnnFlashAttentionScore");
	assert_string_equal(kernel_key_type(&kt, kt.v[1].key), "Transpose");
	assert_string_equal(kernel_key_api(&kt, kt.v[1].key), "aclnnPermute");
	assert_string_equal(kernel_key_core(&kt, kt.v[1].key), "");
	assert_true(kt.v[0].key != kt.v[1].key);
	assert_string_equal(kernel_key_type(&kt, kt.v[2].key), "MemSet");
	assert_string_equal(kernel_key_api(&kt, kt.v[2].key), "");
	traceprof_release(&tp);
	kernel_table_release(&kt);
}

/* The Task Type decides where it says something (core/tasktype.h), the
 * name where the event has none or "Other"; an unknown type is in no
 * figure but tallied with its count and time, also when the process is
 * named after its events; at every chunk size. Figures by hand: kernels
 * ABC_DEF (AI_CORE, capitals), Other (AI_VECTOR_CORE), Mul1 (no type),
 * Add2 ("Other"): 4; left out: Notify Wait, Write Value (communication
 * tasks), EVENT_RECORD (runtime), EVENT_WAIT ("Other", by its name): 4;
 * FOO_TASK twice, 1.5 + 2.25 us = 3750 ns. */
static void task_types_decide_before_names(void **state)
{
	const char *json =
	    "[{\"name\":\"ABC_DEF\",\"pid\":7,\"tid\":1,\"ts\":\"10\","
	    "\"dur\":1,\"ph\":\"X\",\"args\":{\"Task "
	    "Type\":\"AI_CORE\"}}," HW_META ","
	    "{\"name\":\"Other\",\"pid\":7,\"tid\":1,\"ts\":\"20\",\"dur\":1,"
	    "\"ph\":\"X\",\"args\":{\"Model Id\":1,\"Task Type\":"
	    "\"AI_VECTOR_CORE\"}},"
	    "{\"name\":\"Mul1\",\"pid\":7,\"tid\":1,\"ts\":\"30\",\"dur\":1,"
	    "\"ph\":\"X\"},"
	    "{\"name\":\"Add2\",\"pid\":7,\"tid\":1,\"ts\":\"40\",\"dur\":1,"
	    "\"ph\":\"X\",\"args\":{\"Task Type\":\"Other\"}},"
	    "{\"name\":\"Notify Wait\",\"pid\":7,\"tid\":3,\"ts\":\"50\","
	    "\"dur\":100,\"ph\":\"X\",\"args\":{\"Task Type\":\"Notify "
	    "Wait\"}},"
	    "{\"name\":\"Notify Record\",\"pid\":7,\"tid\":3,\"ts\":\"150\","
	    "\"dur\":1,\"ph\":\"X\",\"args\":{\"Task Type\":\"Write Value\"}},"
	    "{\"name\":\"EVENT_RECORD\",\"pid\":7,\"tid\":1,\"ts\":\"160\","
	    "\"dur\":1,\"ph\":\"X\",\"args\":{\"Task Type\":\"EVENT_RECORD\"}},"
	    "{\"name\":\"EVENT_WAIT\",\"pid\":7,\"tid\":1,\"ts\":\"170\","
	    "\"dur\":1,\"ph\":\"X\",\"args\":{\"Task Type\":\"Other\"}},"
	    "{\"name\":\"Foo\",\"pid\":7,\"tid\":1,\"ts\":\"180\","
	    "\"dur\":1.5,\"ph\":\"X\",\"args\":{\"Task Type\":\"FOO_TASK\"}},"
	    "{\"name\":\"Foo\",\"pid\":7,\"tid\":1,\"ts\":\"190\","
	    "\"dur\":2.25,\"ph\":\"X\",\"args\":{\"Task Type\":\"FOO_TASK\"}},"
	    "{\"name\":\"Bar\",\"pid\":8,\"tid\":1,\"ts\":\"190\","
	    "\"dur\":2.25,\"ph\":\"X\",\"args\":{\"Task Type\":\"BAR_TASK\"}},"
	    "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":8,\"tid\":0,"
	    "\"args\":{\"name\":\"Python\"}}]";
	static const size_t chunks[] = {0, 7, 64};
	struct kernel_table kt;
	struct traceprof tp;
	struct err e = ERR_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
		assert_int_equal(read_str(json, chunks[i], &kt, &tp, &e), 0);
		assert_int_equal(kt.n, 4);
		assert_string_equal(kernel_key_type(&kt, kt.v[0].key),
		                    "ABC_DEF");
		assert_string_equal(kernel_key_type(&kt, kt.v[1].key), "Other");
		assert_int_equal(tp.subtasks, 4);
		/* BAR_TASK is the Python process's: no device task */
		assert_int_equal(tp.unknown.n, 1);
		assert_string_equal(tp.unknown.v[0].name, "FOO_TASK");
		assert_int_equal(tp.unknown.v[0].count, 2);
		assert_int_equal(tp.unknown.v[0].dur_ns, 3750);
		traceprof_release(&tp);
		kernel_table_release(&kt);
	}
}

/* Process names after their events (as the Python process's in real
 * files); sub-tasks, HCCL sub-tasks and host events left out; an escaped
 * name decoded; the object form; the same at every chunk size. */
static void names_decide_late_and_any_chunking(void **state)
{
	const char *json =
	    "{\"other\": [1, {\"x\": \"]\"}], \"traceEvents\": ["
	    "{\"name\":\"aten::add\",\"pid\":5,\"tid\":5,\"ts\":\"1\","
	    "\"dur\":3,\"ph\":\"X\",\"cat\":\"cpu_op\"},"
	    "{\"name\":\"MatMul_3\",\"pid\":7,\"tid\":1,\"ts\":\"20\","
	    "\"dur\":2,\"ph\":\"X\"},"
	    "{\"name\":\"EVENT_WAIT\",\"pid\":7,\"tid\":1,\"ts\":\"22\","
	    "\"dur\":2,\"ph\":\"X\"},"
	    "{\"name\":\"Other\",\"pid\":7,\"tid\":11,\"ts\":\"22\","
	    "\"dur\":2,\"ph\":\"X\"},"
	    "{\"name\":\"Notify_Wait\",\"pid\":9,\"tid\":1,\"ts\":\"23\","
	    "\"dur\":2,\"ph\":\"X\",\"args\":{\"src rank\":3}},"
	    "{\"name\":\"HCOM_allGather__1_0_1\",\"pid\":9,\"tid\":0,"
	    "\"ts\":\"23\",\"dur\":5,\"ph\":\"X\"},"
	    "{\"ph\":\"X\",\"pid\":7,\"name\":\"Add\\u0031\",\"ts\":\"30\","
	    "\"dur\":1},"
	    "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":5,\"tid\":0,"
	    "\"args\":{\"name\":\"Python\"}}," HW_META "," HCCL_META "]}";
	struct kernel_table kt;
	struct traceprof tp;
	struct err e = ERR_INIT;
	size_t chunks[] = {0, 1, 2, 7, 64};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_LEN(chunks); i++) {
		assert_int_equal(read_str(json, chunks[i], &kt, &tp, &e), 0);
		assert_int_equal(kt.n, 3);
		assert_string_equal(kernel_key_type(&kt, kt.v[0].key),
		                    "MatMul");
		assert_string_equal(kernel_key_type(&kt, kt.v[1].key),
		                    "HCOM_allGather_");
		assert_string_equal(kernel_key_core(&kt, kt.v[1].key), "HCCL");
		assert_string_equal(kernel_key_type(&kt, kt.v[2].key), "Add");
		assert_int_equal(tp.subtasks, 2);
		assert_int_equal(tp.hw_events, 4);
		assert_int_equal(tp.cpu_events, 1);
		/* named after its sub-tasks were read: no rank sample */
		assert_int_equal(tp.rank_id, -1);
		traceprof_release(&tp);
		kernel_table_release(&kt);
	}
}

static void cpu_only_trace_is_an_input_error(void **state)
{
	const char *json =
	    "[{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":5,\"tid\":0,"
	    "\"args\":{\"name\":\"Python\"}},"
	    "{\"name\":\"ProfilerStep#3\",\"pid\":5,\"tid\":5,\"ts\":\"1\","
	    "\"dur\":30,\"ph\":\"X\",\"cat\":\"cpu_op\"}]";
	struct kernel_table kt;
	struct traceprof tp;
	struct err e = ERR_INIT;

	(void)state;
	assert_int_equal(read_str(json, 0, &kt, &tp, &e), -1);
	assert_int_equal(e.code, ERR_INPUT);
	assert_non_null(strstr(e.msg, "t.json: no Ascend Hardware kernel "
	                              "events"));
	assert_non_null(strstr(e.msg, "CPU-only"));
	traceprof_release(&tp);
	kernel_table_release(&kt);
}

static void subtasks_only_is_an_input_error(void **state)
{
	const char *json = "[" HW_META ",{\"name\":\"EVENT_RECORD\",\"pid\":7,"
	                   "\"ts\":\"1\",\"dur\":1,\"ph\":\"X\"}]";
	struct kernel_table kt;
	struct traceprof tp;
	struct err e = ERR_INIT;

	(void)state;
	assert_int_equal(read_str(json, 0, &kt, &tp, &e), -1);
	assert_non_null(strstr(e.msg, "no Ascend Hardware kernel events: its "
	                              "1 events are runtime sub-tasks"));
	traceprof_release(&tp);
	kernel_table_release(&kt);
}

/* A cut trace keeps the kernels before the cut and says where it ends. */
static void truncated_trace_keeps_the_kernels_before_the_cut(void **state)
{
	const char *json = "[" HW_META ","
	                   "{\"name\":\"Add1\",\"pid\":7,\"ts\":\"1\","
	                   "\"dur\":1,\"ph\":\"X\"},"
	                   "{\"name\":\"Add2\",\"pid\":7,\"ts\":\"5\",\"du";
	struct kernel_table kt;
	struct traceprof tp;
	struct err e = ERR_INIT;

	(void)state;
	assert_int_equal(read_str(json, 3, &kt, &tp, &e), 0);
	assert_int_equal(kt.n, 1);
	assert_true(tp.scan.truncated);
	assert_int_equal(tp.scan.truncated_at,
	                 strstr(json, "{\"name\":\"Add2") - json);
	traceprof_release(&tp);
	kernel_table_release(&kt);
}

/* A kernel event without a usable time is counted, not kept; a garbage
 * element is the scanner's error with its byte offset. */
static void bad_events_are_counted_garbage_is_an_error(void **state)
{
	const char *bad = "[" HW_META ","
	                  "{\"name\":\"Add1\",\"pid\":7,\"ts\":\"x\","
	                  "\"dur\":1,\"ph\":\"X\"},"
	                  "{\"name\":\"Add2\",\"pid\":7,\"ts\":\"5\","
	                  "\"dur\":-1,\"ph\":\"X\"},"
	                  "{\"name\":\"Add3\",\"pid\":7,\"ts\":\"5\","
	                  "\"dur\":1,\"ph\":\"X\"},"
	                  "{\"ph\":\"M\",\"name\":\"process_name\","
	                  "\"pid\":8,\"args\":{\"name\":\"Overlap "
	                  "Analysis\"}},"
	                  "{\"name\":\"Free\",\"pid\":8,\"ts\":\"5\","
	                  "\"dur\":\"x\",\"ph\":\"X\"}]";
	const char *garbage = "[" HW_META ", garbage]";
	struct kernel_table kt;
	struct traceprof tp;
	struct err e = ERR_INIT;

	(void)state;
	assert_int_equal(read_str(bad, 0, &kt, &tp, &e), 0);
	assert_int_equal(kt.n, 1);
	assert_int_equal(tp.bad_events, 3); /* the span's too */
	assert_int_equal(tp.nov[3], 0);
	assert_int_equal(tp.first_bad_at,
	                 strstr(bad, "{\"name\":\"Add1") - bad);
	assert_string_equal(tp.first_bad_why, "ts");
	traceprof_release(&tp);
	kernel_table_release(&kt);
	assert_int_equal(read_str(garbage, 0, &kt, &tp, &e), -1);
	assert_non_null(strstr(e.msg, "t.json: byte"));
	assert_non_null(strstr(e.msg, "expected an event object: 'garbage]'"));
	traceprof_release(&tp);
	kernel_table_release(&kt);
}

/* An event that does not read as members is cJSON's to judge: an error
 * naming its byte offset, as for any invalid wanted event. */
static void malformed_events_are_errors(void **state)
{
	static const char *const bad[] = {
	    "[{\"ph\":\"X\",\"name\":\"a\" \"pid\":7}]",
	    "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":7 x}]",
	    "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":x7}]",
	    "[{\"ph\":\"X\",\"name\":\"a\\q\",\"pid\":7}]",
	    "[{\"ph\":\"X\",\"name\" \"a\"}]",
	    "[{\"ph\":\"X\", garbage}]",
	};
	struct kernel_table kt;
	struct traceprof tp;
	struct err e = ERR_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_LEN(bad); i++) {
		err_clear(&e);
		if (read_str(bad[i], 0, &kt, &tp, &e) != -1 ||
		    !strstr(e.msg, "t.json: byte ") ||
		    !strstr(e.msg, ": invalid event: "))
			fail_msg("%s: %s", bad[i], e.msg);
		traceprof_release(&tp);
		kernel_table_release(&kt);
	}
}

/* Steps, markers (through the matcher) and flows paired by id, whichever
 * end comes first; flows of other kinds ignored. */
static int match_vae(const char *name, size_t len, void *ctx)
{
	(void)ctx;
	return len == 3 && !memcmp(name, "vae", 3) ? 2 : -1;
}

static void ranges_and_flows(void **state)
{
	const char *json =
	    "[" HW_META ","
	    "{\"name\":\"ProfilerStep#7\",\"pid\":5,\"ts\":\"100\","
	    "\"dur\":50,\"ph\":\"X\",\"cat\":\"cpu_op\"},"
	    "{\"name\":\"vae\",\"pid\":5,\"ts\":\"110\",\"dur\":20,"
	    "\"ph\":\"X\",\"cat\":\"user_annotation\"},"
	    "{\"name\":\"vae\",\"pid\":5,\"ts\":\"110\",\"dur\":20,"
	    "\"ph\":\"X\"},"
	    "{\"ph\":\"f\",\"bp\":\"e\",\"name\":\"torch_to_npu\",\"id\":\"a\","
	    "\"pid\":7,\"ts\":\"300\"},"
	    "{\"ph\":\"s\",\"name\":\"torch_to_npu\",\"id\":\"a\",\"pid\":5,"
	    "\"ts\":\"115\"},"
	    "{\"ph\":\"s\",\"name\":\"x\",\"cat\":\"async_npu\",\"id\":12,"
	    "\"pid\":5,\"ts\":\"116\"},"
	    "{\"ph\":\"f\",\"name\":\"x\",\"cat\":\"async_npu\",\"id\":12,"
	    "\"pid\":7,\"ts\":\"310\"},"
	    "{\"ph\":\"s\",\"name\":\"fwdbwd\",\"cat\":\"fwdbwd\",\"id\":13,"
	    "\"pid\":5,\"ts\":\"116\"},"
	    "{\"ph\":\"f\",\"name\":\"fwdbwd\",\"cat\":\"fwdbwd\",\"id\":13,"
	    "\"pid\":7,\"ts\":\"320\"},"
	    "{\"name\":\"Add1\",\"pid\":7,\"ts\":\"300\",\"dur\":1,"
	    "\"ph\":\"X\"}]";
	struct kernel_table kt;
	struct traceprof tp;
	struct err e = ERR_INIT;

	(void)state;
	kernel_table_init(&kt);
	assert_int_equal(traceprof_read_mem("t.json", json, strlen(json), 0,
	                                    match_vae, NULL, &kt, &tp, &e),
	                 0);
	assert_int_equal(tp.nranges, 2);
	assert_int_equal(tp.ranges[0].step, 7);
	assert_int_equal(tp.ranges[0].start_ns, 100000);
	assert_int_equal(tp.ranges[0].end_ns, 150000);
	assert_int_equal(tp.ranges[1].rule, 2);
	assert_int_equal(tp.ranges[1].step, STEP_NONE);
	assert_string_equal(tp.ranges[1].name, "vae");
	assert_int_equal(tp.nflows, 2);
	assert_int_equal(tp.flows[0].host_ns, 115000);
	assert_int_equal(tp.flows[0].dev_ns, 300000);
	assert_int_equal(tp.flows[1].host_ns, 116000);
	assert_int_equal(tp.flows[1].dev_ns, 310000);
	/* the un-categorised "vae" X event is no marker, nor a kernel */
	assert_int_equal(kt.n, 1);
	traceprof_release(&tp);
	kernel_table_release(&kt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(alexnet_traces_give_the_kernel_details_kernels),
	    cmocka_unit_test(mstt_trace_reads),
	    cmocka_unit_test(durations_round_like_kernel_details),
	    cmocka_unit_test(names_give_type_and_api),
	    cmocka_unit_test(names_decide_late_and_any_chunking),
	    cmocka_unit_test(cpu_only_trace_is_an_input_error),
	    cmocka_unit_test(subtasks_only_is_an_input_error),
	    cmocka_unit_test(truncated_trace_keeps_the_kernels_before_the_cut),
	    cmocka_unit_test(bad_events_are_counted_garbage_is_an_error),
	    cmocka_unit_test(malformed_events_are_errors),
	    cmocka_unit_test(ranges_and_flows),
	    cmocka_unit_test(task_types_decide_before_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
