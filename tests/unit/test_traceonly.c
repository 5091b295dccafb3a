/* Steps of a trace-only profile (analysis/traceonly.c): ProfilerStep
 * ranges mapped to the device through the flows or by time, kernels put
 * in them, the step table summed from the Overlap Analysis spans. The
 * expected numbers are worked out by hand next to the trace. */
#include "unit.h"

#include "analysis/traceonly.h"
#include "input/traceprof.h"
#include "util/strbuf.h"

#define HW                                                                     \
	"{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":7,"                   \
	"\"args\":{\"name\":\"Ascend Hardware\"}},"                            \
	"{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":8,"                   \
	"\"args\":{\"name\":\"Overlap Analysis\"}},"
#define K(name, ts, dur)                                                       \
	"{\"ph\":\"X\",\"name\":\"" name "\",\"pid\":7,\"ts\":\"" ts           \
	"\",\"dur\":" dur "},"
#define OV(name, ts, dur)                                                      \
	"{\"ph\":\"X\",\"name\":\"" name "\",\"pid\":8,\"ts\":\"" ts           \
	"\",\"dur\":" dur "},"
#define STEP(n, ts, dur)                                                       \
	"{\"ph\":\"X\",\"name\":\"ProfilerStep#" n "\",\"pid\":5,\"ts\":\"" ts \
	"\",\"dur\":" dur ",\"cat\":\"cpu_op\"},"
#define FLOW(id, host, dev)                                                    \
	"{\"ph\":\"s\",\"name\":\"torch_to_npu\",\"id\":" id                   \
	",\"pid\":5,\"ts\":\"" host "\"},"                                     \
	"{\"ph\":\"f\",\"name\":\"torch_to_npu\",\"id\":" id                   \
	",\"pid\":7,\"ts\":\"" dev "\"},"

/* Steps 3 [100, 200] and 4 [300, 400] on the host (step 3 given in two
 * pieces); kernels at 140 (before step 3's first launch lands), 150, 250,
 * 260 (step 3: its tail runs on), 350, 500 (step 4). Computing spans over
 * the kernels, Free between them (the one between the steps' windows,
 * [280, 350], belongs to neither). */
static const char *trace(int flows)
{
	static char buf[4096];

	snprintf(
	    buf, sizeof(buf), "%s",
	    "[" HW STEP("3", "100", "60") STEP("3", "160", "40") STEP(
	        "4", "300", "100") K("Add1", "140", "5") K("Add2", "150", "10")
	        K("Add3", "250", "5") K("Add4", "260", "20") K(
	            "Add5", "350", "10") K("Add6", "500", "10")
	            OV("Computing", "140", "5") OV("Computing", "150", "10") OV(
	                "Computing", "250", "30") OV("Computing", "350", "10")
	                OV("Computing", "500", "10") OV("Free", "160", "90")
	                    OV("Free", "280", "70") OV("Free", "360", "140"));
	if (flows)
		strncat(buf,
		        FLOW("1", "110", "150") FLOW("2", "190", "250")
		            FLOW("3", "310", "350"),
		        sizeof(buf) - strlen(buf) - 1);
	/* close the array over the trailing comma */
	buf[strlen(buf) - 1] = ']';
	return buf;
}

static void read_trace(int flows, struct kernel_table *kt, struct traceprof *tp)
{
	const char *t = trace(flows);
	struct err e = ERR_INIT;

	kernel_table_init(kt);
	if (traceprof_read_mem("t.json", t, strlen(t), 0, NULL, NULL, kt, tp,
	                       &e))
		fail_msg("%s", e.msg);
}

static void steps_through_flows(void **state)
{
	static const int32_t want[] = {STEP_NONE, 3, 3, 3, 4, 4};
	struct kernel_table kt;
	struct traceprof tp;
	struct traceonly_steps st;
	struct step_stat *rows;
	size_t i, n;

	(void)state;
	read_trace(1, &kt, &tp);
	traceonly_assign_steps(&kt, &tp, &st);
	assert_int_equal(st.ranges, 2);
	assert_int_equal(st.by_flows, 2);
	assert_int_equal(st.outside, 1);
	assert_int_equal(kt.n, 6);
	for (i = 0; i < kt.n; i++)
		assert_int_equal(kt.v[i].step, want[i]);
	assert_int_equal(traceonly_step_rows(&kt, &tp, &rows, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(rows[0].step, STEP_NONE);
	assert_int_equal(rows[0].computing_ns, 5000);
	assert_int_equal(rows[0].preparing_ns, -1);
	assert_int_equal(rows[1].step, 3);
	assert_int_equal(rows[1].computing_ns, 40000); /* 10 + 30 */
	assert_int_equal(rows[1].free_ns, 90000);
	assert_int_equal(rows[1].stage_ns, 130000);
	assert_int_equal(rows[1].preparing_ns, 50000); /* 150 - 100 */
	assert_int_equal(rows[2].step, 4);
	assert_int_equal(rows[2].computing_ns, 20000);
	assert_int_equal(rows[2].free_ns, 140000);
	assert_int_equal(rows[2].preparing_ns, 50000); /* 350 - 300 */
	free(rows);
	traceprof_release(&tp);
	kernel_table_release(&kt);
}

/* Without flows the host ranges stand for the device's: every kernel from
 * 100 on is in step 3 until step 4 begins at 300. */
static void steps_by_time(void **state)
{
	static const int32_t want[] = {3, 3, 3, 3, 4, 4};
	struct kernel_table kt;
	struct traceprof tp;
	struct traceonly_steps st;
	size_t i;

	(void)state;
	read_trace(0, &kt, &tp);
	traceonly_assign_steps(&kt, &tp, &st);
	assert_int_equal(st.ranges, 2);
	assert_int_equal(st.by_flows, 0);
	assert_int_equal(st.outside, 0);
	for (i = 0; i < kt.n; i++)
		assert_int_equal(kt.v[i].step, want[i]);
	traceprof_release(&tp);
	kernel_table_release(&kt);
}

/* No ranges: no steps, and one row over all the kernels. */
static void no_ranges_one_row(void **state)
{
	const char *t = "[" HW K("Add1", "10", "5") K("Add2", "20", "5")
	    OV("Computing", "10", "5") OV("Free", "15", "5")
	        OV("Computing", "20", "5") OV("Free", "40", "9") "{}]";
	struct kernel_table kt;
	struct traceprof tp;
	struct traceonly_steps st;
	struct step_stat *rows;
	struct err e = ERR_INIT;
	size_t n;

	(void)state;
	kernel_table_init(&kt);
	assert_int_equal(traceprof_read_mem("t.json", t, strlen(t), 0, NULL,
	                                    NULL, &kt, &tp, &e),
	                 0);
	traceonly_assign_steps(&kt, &tp, &st);
	assert_int_equal(st.ranges, 0);
	assert_int_equal(kt.v[0].step, STEP_NONE);
	assert_int_equal(traceonly_step_rows(&kt, &tp, &rows, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(rows[0].computing_ns, 10000);
	assert_int_equal(rows[0].free_ns, 5000); /* [40, 49] is after it */
	free(rows);
	traceprof_release(&tp);
	kernel_table_release(&kt);
}

/* A random trace: steps by time (no flows), kernels, Computing and Free
 * spans, all on a small grid so that spans cover many windows. */
static void random_trace(struct strbuf *sb, unsigned *seed)
{
	int nsteps = 1 + rand_r(seed) % 8, nk = 1 + rand_r(seed) % 24;
	int nsp = rand_r(seed) % 16, i;

	strbuf_reset(sb);
	strbuf_adds(sb, "[" HW "{}");
	for (i = 0; i < nsteps; i++)
		strbuf_addf(sb,
		            ",{\"ph\":\"X\",\"name\":\"ProfilerStep#%d\","
		            "\"pid\":5,\"ts\":\"%d\",\"dur\":%d,"
		            "\"cat\":\"cpu_op\"}",
		            i, i * 30 + rand_r(seed) % 10,
		            5 + rand_r(seed) % 30);
	for (i = 0; i < nk; i++)
		strbuf_addf(sb,
		            ",{\"ph\":\"X\",\"name\":\"Add%d\",\"pid\":7,"
		            "\"ts\":\"%d\",\"dur\":%d}",
		            i, rand_r(seed) % 260, rand_r(seed) % 25);
	for (i = 0; i < nsp; i++)
		strbuf_addf(sb,
		            ",{\"ph\":\"X\",\"name\":\"%s\",\"pid\":8,"
		            "\"ts\":\"%d\",\"dur\":%d}",
		            i % 2 ? "Free" : "Computing",
		            rand_r(seed) % 300 - 20, rand_r(seed) % 300);
	strbuf_addch(sb, ']');
}

/* The definition: the step windows (runs of one step's kernels, sorted,
 * from the first start to the last end, cut where the next begins) and
 * each span clipped to each window. */
static void rows_by_walk(const struct kernel_table *kt,
                         const struct traceprof *tp, int64_t *comp,
                         int64_t *free_ns, size_t *n)
{
	int64_t ws[64], we[64];
	size_t i, j, w = 0;
	int k;

	for (i = 0; i < kt->n; i++) {
		const struct kernel *x = &kt->v[i];
		int64_t end = x->start_ns + x->dur_ns;
		if (!w || kt->v[i - 1].step != x->step) {
			assert_true(w < 64);
			ws[w] = x->start_ns;
			we[w++] = end;
		} else if (end > we[w - 1]) {
			we[w - 1] = end;
		}
	}
	for (i = 0; i + 1 < w; i++)
		if (we[i] > ws[i + 1])
			we[i] = ws[i + 1];
	memset(comp, 0, w * sizeof(*comp));
	memset(free_ns, 0, w * sizeof(*free_ns));
	for (k = 0; k < OV_KINDS; k++)
		for (j = 0; j < tp->nov[k]; j++)
			for (i = 0; i < w; i++) {
				int64_t a = tp->ov[k][j].start_ns;
				int64_t b = tp->ov[k][j].end_ns;
				int64_t x = ws[i] > a ? ws[i] : a;
				int64_t y = we[i] < b ? we[i] : b;
				if (y > x && k == 0)
					comp[i] += y - x;
				else if (y > x && k == 3)
					free_ns[i] += y - x;
			}
	*n = w;
}

/* The step table, whose spans are clipped only at the first and last
 * window they meet (the ones between are counted whole), against the
 * walk over every window, on 2,000 random traces. */
static void step_rows_match_the_walk(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned seed = 20261203;
	int64_t comp[64], free_ns[64];
	int trial;

	(void)state;
	for (trial = 0; trial < 2000; trial++) {
		struct kernel_table kt;
		struct traceprof tp;
		struct traceonly_steps st;
		struct step_stat *rows;
		struct err e = ERR_INIT;
		size_t n, w, i;

		random_trace(&sb, &seed);
		kernel_table_init(&kt);
		if (traceprof_read_mem("r.json", sb.buf, sb.len, 0, NULL, NULL,
		                       &kt, &tp, &e))
			fail_msg("%s: %s", e.msg, sb.buf);
		traceonly_assign_steps(&kt, &tp, &st);
		assert_int_equal(traceonly_step_rows(&kt, &tp, &rows, &n), 0);
		rows_by_walk(&kt, &tp, comp, free_ns, &w);
		assert_int_equal(n, w);
		for (i = 0; i < n; i++) {
			assert_int_equal(rows[i].computing_ns, comp[i]);
			assert_int_equal(rows[i].free_ns, free_ns[i]);
		}
		free(rows);
		traceprof_release(&tp);
		kernel_table_release(&kt);
	}
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(steps_through_flows),
	    cmocka_unit_test(steps_by_time),
	    cmocka_unit_test(no_ranges_one_row),
	    cmocka_unit_test(step_rows_match_the_walk),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
