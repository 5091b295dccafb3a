/* libFuzzer target: the trace-only profile reader (input/traceprof.c) and
 * what the analysis makes of its result (steps, step table, markers,
 * Overlap Analysis) must never crash, hang or leak on any input, and what
 * they return must hold together. The first byte picks the chunk size, so
 * state is carried across chunk edges too. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/traceonly.h"
#include "analysis/tracestages.h"
#include "input/traceprof.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_kernels(const struct kernel_table *kt)
{
	size_t i;

	for (i = 0; i < kt->n; i++) {
		const struct kernel *k = &kt->v[i];
		if (k->dur_ns < 0 || k->start_ns > INT64_MAX - k->dur_ns ||
		    k->key >= kt->keys.n || k->step != STEP_NONE)
			abort();
	}
}

static void check_profile(const struct traceprof *tp, size_t size)
{
	size_t i;
	int k;

	if (tp->scan.raw + tp->scan.parsed > tp->scan.elements ||
	    tp->scan.truncated_at > size || tp->subtasks > tp->hw_events)
		abort();
	for (k = 0; k < OV_KINDS; k++)
		for (i = 0; i < tp->nov[k]; i++)
			if (tp->ov[k][i].end_ns < tp->ov[k][i].start_ns)
				abort();
	for (i = 0; i < tp->nranges; i++)
		if (!tp->ranges[i].name ||
		    tp->ranges[i].end_ns < tp->ranges[i].start_ns ||
		    tp->ranges[i].rule > 1)
			abort();
}

/* The analysis' side, as a trace-only rank runs it. */
static void analyse(struct kernel_table *kt, const struct traceprof *tp,
                    const struct trace_marker_rule *rules)
{
	const struct segment segs[] = {{STAGE_DIT, 0, 1000000, 0, 0, 0},
	                               {STAGE_VAE, 500000, 3000000, 0, 0, 0}};
	struct traceonly_steps st;
	struct step_stat *rows;
	struct trace_summary s;
	struct err e = ERR_INIT;
	size_t n, i;
	int k;

	traceonly_assign_steps(kt, tp, &st);
	if (st.by_flows > st.ranges)
		abort();
	for (i = 1; i < kt->n; i++)
		if (kt->v[i].start_ns < kt->v[i - 1].start_ns)
			abort();
	if (traceonly_step_rows(kt, tp, &rows, &n))
		abort(); /* the budget is unlimited here */
	for (i = 0; i < n; i++)
		if (rows[i].computing_ns < 0 || rows[i].free_ns < 0 ||
		    rows[i].stage_ns < 0)
			abort();
	free(rows);
	memset(&s, 0, sizeof(s));
	if (trace_markers_from_profile(tp, "f.json", rules, 2, &s, &e))
		abort();
	for (i = 0; i < s.nmarkers; i++)
		if (s.markers[i].method == MARKER_TIME && s.markers[i].flows)
			abort();
	if (trace_overlap_from_spans(tp, "f.json", segs, 2, &s.ov, &e))
		abort();
	for (k = 0; k < OV_KINDS; k++)
		if (s.ov.outside[k] < 0 || s.ov.outside[k] > s.ov.total[k])
			abort();
	trace_summary_release(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct trace_marker_rule rules[] = {
	    {"vae*", STAGE_VAE}, {"*transformer*", STAGE_DIT}};
	struct trace_matcher *mt = trace_matcher_new(rules, 2);
	struct kernel_table kt;
	struct traceprof tp;
	struct err e = ERR_INIT;
	size_t chunk = size ? (size_t)(data[0] % 17) + 1 : 1;

	kernel_table_init(&kt);
	if (traceprof_read_mem("fuzz.json", data, size, chunk,
	                       trace_matcher_match, mt, &kt, &tp, &e) == 0) {
		if (!kt.n)
			abort(); /* no kernels is an error */
		check_kernels(&kt);
		check_profile(&tp, size);
		analyse(&kt, &tp, rules);
	} else if (e.code != ERR_INPUT || !e.msg[0]) {
		abort();
	}
	traceprof_release(&tp);
	kernel_table_release(&kt);
	trace_matcher_free(mt);
	return 0;
}
