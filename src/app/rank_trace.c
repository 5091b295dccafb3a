/* One rank from its trace_view.json alone: the kernels, steps and stages
 * of one streamed pass (input/traceprof.c). */
#include "app/rank.h"
#include "app/rank_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/analyse.h"
#include "analysis/collection.h"
#include "analysis/dbstages.h"
#include "analysis/totals.h"
#include "analysis/memory.h"
#include "analysis/steps.h"
#include "analysis/traceonly.h"
#include "analysis/tracestages.h"
#include "input/commjson.h"
#include "input/db.h"
#include "input/kernels.h"
#include "input/steptrace.h"
#include "input/traceprof.h"
#include "util/checked.h"
#include "util/membudget.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* ---- a rank from its trace alone -------------------------------------- */

static void trace_input(struct result *r, const char *path,
                        const struct traceprof *tp, uint64_t kernels)
{
	struct trace_input in = {path,
	                         tp->scan.size,
	                         tp->hw_events + tp->hccl_ops,
	                         tp->subtasks,
	                         kernels,
	                         tp->bad_events,
	                         tp->first_bad_at,
	                         tp->first_bad_why};

	result_add_trace_input(r, &in);
	result_add_unknown_tasks(r, path, &tp->unknown, "trace");
}

/* The analysis' "no Step Id" warning speaks of kernel_details.csv's
 * column: a trace has ProfilerStep ranges, or none. */
static void step_notes(struct result *r, const struct rank_result *rr,
                       const struct traceonly_steps *st)
{
	struct warning *w;
	size_t i, n = 0;
	char *msg;

	if (st->ranges)
		return;
	for (i = 0; i < r->nwarnings; i++) {
		if (!strcmp(r->warnings[i].code, "no_steps")) {
			warning_release(&r->warnings[i]);
			continue;
		}
		r->warnings[n++] = r->warnings[i];
	}
	r->nwarnings = n;
	msg = xstrfmt("rank %d: trace_view.json has no ProfilerStep#N ranges, "
	              "so the profile has no step boundaries: figures are "
	              "over the whole trace and warm-up runs cannot be told "
	              "from timed ones (collect with a schedule and CPU "
	              "activity: the MindIE-SD guide asks for 2 warm-up "
	              "steps, then 5 or more timed steps)",
	              (int)rr->id);
	w = result_warn(r, "no_step_ranges", rr->files[RF_TRACE], 0, msg);
	w->args[0] = xstrfmt("%d", (int)rr->id);
	free(msg);
}

/* The id the trace carries, unless profiler_info named one. */
static void trace_rank_id(const struct traceprof *tp, struct rank_result *rr)
{
	if (tp->rank_id < 0 || !strcmp(rr->id_source, "profiler_info"))
		return;
	rr->id = tp->rank_id;
	rr->id_source = "trace";
}

/* Stages as rank_analyse_src finds them, from the trace's own kernels, ranges,
 * flows and Overlap Analysis spans: nothing is read twice. */
static int analyse_trace(struct kernel_table *kt, const struct traceprof *tp,
                         const char *path, const struct rules *ru,
                         const struct trace_marker_rule *mr, struct result *r,
                         struct err *e)
{
	struct result a, b;
	struct trace_summary ts;
	struct stage_override *ov = NULL;
	int ret = -1;

	result_init(&a);
	result_init(&b);
	memset(&ts, 0, sizeof(ts));
	if (analyse(kt, ru, &a, NULL, e)) {
		rank_in_file(e, path);
		goto out;
	}
	if (trace_markers_from_profile(tp, path, mr, ru->nmarkers, &ts, e))
		goto out;
	if (ts.nmarkers) {
		if (!(ov = rank_overrides(path, &ts, e)))
			goto out;
		if (analyse_with(kt, ru, ov, ts.nmarkers, &b, NULL, e)) {
			rank_in_file(e, path);
			goto out;
		}
		rank_keep_markers(&ts, ov, r);
		result_release(&a);
		a = b;
		result_init(&b);
	}
	if (trace_overlap_from_spans(tp, path, a.segs, a.nsegs, &ts.ov, e))
		goto out;
	ts.scan = tp->scan;
	rank_keep_overlap(&ts, 1, &r->ranks[0]);
	rank_take_analysis(r, &a);
	ret = 0;
out:
	result_release(&a);
	result_release(&b);
	rank_overrides_free(ov, ts.nmarkers);
	trace_summary_release(&ts);
	return ret;
}

/* The step table from the trace's Overlap Analysis, when no
 * step_trace_time.csv gives it. */
static int trace_steps(const struct kernel_table *kt,
                       const struct traceprof *tp, const char *path,
                       const struct rules *ru, struct result *r, struct err *e)
{
	struct rank_result *rr = &r->ranks[0];

	if (traceonly_step_rows(kt, tp, &rr->steps, &rr->nsteps))
		return membudget_fail(
		    e, (uint64_t)rr->nsteps * sizeof(*rr->steps),
		    "%s: step table (%zu steps)", path, rr->nsteps);
	rank_keep_steps(r, path, rr->nsteps ? "overlap_analysis" : NULL, ru,
	                (uint64_t)rr->nsteps * sizeof(*rr->steps));
	return 0;
}

int rank_from_trace(const struct disc_rank *dr, const struct rules *ru,
                    struct result *r, struct err *e)
{
	const char *trace = dr->files[RF_TRACE];
	struct rank_result *rr = &r->ranks[0];
	struct trace_marker_rule *mr = rank_marker_rules(ru);
	struct trace_matcher *mt = trace_matcher_new(mr, ru->nmarkers);
	struct kernel_table kt;
	struct traceprof tp;
	struct traceonly_steps st;
	int ret = -1;

	kernel_table_init(&kt);
	if (traceprof_read(trace, trace_matcher_match, mt, &kt, &tp, e))
		goto out;
	trace_rank_id(&tp, rr);
	collection_from_trace(&rr->ev, &tp);
	trace_input(r, trace, &tp, kt.n);
	traceonly_assign_steps(&kt, &tp, &st);
	if (analyse_trace(&kt, &tp, trace, ru, mr, r, e))
		goto out;
	step_notes(r, rr, &st);
	/* on the full timeline, the trace's counters at hand */
	memory_read_sources(dr->memfiles, &tp, trace, r);
	rank_keep_listed(r);
	rank_summarise(r, rr);
	rank_warn_truncated(r, rr);
	rank_cross_check(r, rr, ru);
	if (!dr->files[RF_STEPS] && trace_steps(&kt, &tp, trace, ru, r, e))
		goto out;
	if (!dr->files[RF_STEPS] && tp.ov_found)
		totals_check_steps(r, rr, ru, "overlap_analysis", trace);
	rank_check_opstat(dr->opstat, &kt, ru, r);
	ret = 0;
out:
	traceprof_release(&tp);
	kernel_table_release(&kt);
	trace_matcher_free(mt);
	free(mr);
	return ret;
}
