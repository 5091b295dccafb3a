/* One rank: kernel_details.csv -> stages (user markers from trace_view.json
 * override the kernel signatures), then what the other files add: the
 * Overlap Analysis per stage, step_trace_time.csv's steps and
 * communication.json's collectives. A rank exported as SQLite gives all of
 * these from its ascend_pytorch_profiler[_N].db instead; a rank with a
 * trace and no kernel_details.csv is read from the trace alone, in one
 * pass. */
#include "app/rank.h"
#include "app/rank_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analyse.h"
#include "analysis/collection.h"
#include "analysis/dbstages.h"
#include "analysis/memory.h"
#include "analysis/steps.h"
#include "analysis/totals.h"
#include "analysis/traceonly.h"
#include "analysis/tracestages.h"
#include "input/commjson.h"
#include "input/commmatrix.h"
#include "input/db.h"
#include "input/kernels.h"
#include "input/opstat.h"
#include "input/steptrace.h"
#include "input/traceprof.h"
#include "util/checked.h"
#include "util/membudget.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* Exposed-communication figures further apart than this (points of the
 * stage's wall time) are worth a warning. */

static void describe(const struct disc_rank *dr, struct rank_result *rr)
{
	int f;

	rr->id = dr->id;
	rr->id_source = dr->id_source;
	rr->dir = xstrdup(dr->dir);
	for (f = 0; f < RF_COUNT; f++)
		rr->files[f] = dr->files[f] ? xstrdup(dr->files[f]) : NULL;
	rr->torch_npu_version =
	    dr->torch_npu_version ? xstrdup(dr->torch_npu_version) : NULL;
	rr->cann_version = dr->cann_version ? xstrdup(dr->cann_version) : NULL;
	rr->profiler_level =
	    dr->profiler_level ? xstrdup(dr->profiler_level) : NULL;
	rr->aic_metrics = dr->aic_metrics ? xstrdup(dr->aic_metrics) : NULL;
	rr->db.path = dr->files[DF_DB] ? xstrdup(dr->files[DF_DB]) : NULL;
	rr->kernel_source = dr->use == EXPORT_DB    ? "db"
	                    : dr->files[RF_KERNELS] ? "kernel_details"
	                    : dr->files[RF_TRACE]   ? "trace_view"
	                                            : NULL;
	rr->free_share_ppm = -1;
	rr->stage_source = "signatures";
	rr->unused_total = dr->unused_total;
	rr->nunused = dr->nunused;
	rr->unused =
	    dr->nunused ? xcalloc(dr->nunused, sizeof(*rr->unused)) : NULL;
	for (f = 0; f < (int)dr->nunused; f++)
		rr->unused[f] = xstrdup(dr->unused[f]);
	collection_from_discovery(&rr->ev, dr);
}

static void warn_missing(struct result *r, const struct rank_result *rr)
{
	static const struct {
		enum rank_file f;
		const char *what;
	} needs[] = {
	    {RF_KERNELS, "the rank is not analysed"},
	    {RF_TRACE, "Overlap Analysis cross-check and user stage markers"},
	    {RF_STEPS, "steps table, warm-up detection and device-idle "
	               "verdict"},
	    {RF_COMM, "collective and bandwidth tables, wait times"}};
	size_t i;
	int from_trace =
	    rr->kernel_source && !strcmp(rr->kernel_source, "trace_view");
	int alone =
	    rr->files[RF_TRACE] && !strcmp(rr->dir, rr->files[RF_TRACE]);

	for (i = 0; i < sizeof(needs) / sizeof(*needs); i++) {
		struct warning *w;
		char *msg;
		if (rr->files[needs[i].f])
			continue;
		/* read from the trace instead: the kernels always, the steps
		 * when its Overlap Analysis gave the rows */
		if (from_trace && (needs[i].f == RF_KERNELS ||
		                   (needs[i].f == RF_STEPS && rr->nsteps)))
			continue;
		msg = xstrfmt("rank %d: no %s %s %s: %s", (int)rr->id,
		              rank_file_names[needs[i].f],
		              alone ? "with the trace read alone:" : "in",
		              rr->dir, needs[i].what);
		w = result_warn(r, "missing_file", NULL, 0, msg);
		w->args[0] = xstrfmt("%d", (int)rr->id);
		w->args[1] = xstrdup(rank_file_names[needs[i].f]);
		w->args[2] = xstrdup(needs[i].what);
		free(msg);
	}
}

/* ---- trace_view.json, or the db's tables ---------------------------------
 */

/* The file markers come from, for messages. */
static const char *src_name(const struct stage_src *s)
{
	return s->db ? db_about(s->db)->path : s->trace;
}

static int src_collect(struct stage_src *s, const struct trace_marker_rule *mr,
                       size_t nmr, const struct segment *segs, size_t nsegs,
                       struct trace_summary *ts, struct err *e)
{
	if (s->db)
		return dbstages_collect(s->db, mr, nmr, segs, nsegs, ts,
		                        &s->skipped, e);
	return trace_collect(s->trace, mr, nmr, segs, nsegs, ts, e);
}

static int src_map_markers(const struct stage_src *s, struct trace_summary *ts,
                           struct err *e)
{
	return s->db ? dbstages_map_markers(s->db, ts, e)
	             : trace_map_markers(s->trace, ts, e);
}

static int src_attribute(const struct stage_src *s, const struct segment *segs,
                         size_t nsegs, struct trace_overlap *ov, struct err *e)
{
	return s->db ? dbstages_attribute_overlap(s->db, segs, nsegs, ov, e)
	             : trace_attribute_overlap(s->trace, segs, nsegs, ov, e);
}

struct trace_marker_rule *rank_marker_rules(const struct rules *ru)
{
	struct trace_marker_rule *mr =
	    xcalloc(ru->nmarkers ? ru->nmarkers : 1, sizeof(*mr));
	size_t i;

	for (i = 0; i < ru->nmarkers; i++) {
		mr[i].glob = ru->markers[i].glob;
		mr[i].stage = (enum stage)ru->markers[i].target;
	}
	return mr;
}

/* "rank N: M things, the first K are listed": a list the report cuts. */
static void warn_unlisted(struct result *r, const char *code, const char *what,
                          size_t total, size_t listed)
{
	struct warning *w;
	char *msg;
	int id = (int)r->ranks[0].id;

	msg = xstrfmt("rank %d: %zu %s, the first %zu are listed", id, total,
	              what, listed);
	w = result_warn(r, code, NULL, 0, msg);
	w->args[0] = xstrfmt("%d", id);
	w->args[1] = xstrfmt("%zu", total);
	w->args[2] = xstrfmt("%zu", listed);
	free(msg);
}

/* The first RESULT_MAX_MARKERS markers (by host start) for the report;
 * the others were analysed and are counted. */
void rank_keep_markers(const struct trace_summary *ts,
                       const struct stage_override *ov, struct result *r)
{
	struct rank_result *rr = &r->ranks[0];
	size_t i, n = ts->nmarkers < RESULT_MAX_MARKERS ? ts->nmarkers
	                                                : RESULT_MAX_MARKERS;
	int flows = 0;

	rr->markers = xcalloc(n ? n : 1, sizeof(*rr->markers));
	rr->nmarkers = n;
	rr->markers_total = ts->nmarkers;
	for (i = 0; i < ts->nmarkers; i++)
		flows |= ts->markers[i].method == MARKER_FLOWS;
	for (i = 0; i < n; i++) {
		const struct trace_marker *m = &ts->markers[i];
		struct stage_marker *sm = &rr->markers[i];
		sm->name = xstrdup(m->name ? m->name : "");
		sm->stage = m->stage;
		sm->host_start_ns = m->host_start_ns;
		sm->host_end_ns = m->host_end_ns;
		sm->dev_start_ns = m->dev_start_ns;
		sm->dev_end_ns = m->dev_end_ns;
		sm->by_flows = m->method == MARKER_FLOWS;
		sm->flows = m->flows;
		sm->kernels = ov[i].kernels;
	}
	rr->stage_source = flows ? "markers_flows" : "markers_time";
	if (ts->nmarkers > n)
		warn_unlisted(r, "markers_unlisted", "stage markers",
		              ts->nmarkers, n);
}

void rank_keep_overlap(const struct trace_summary *ts, int trace,
                       struct rank_result *rr)
{
	int s, k;

	rr->trace_read = trace;
	rr->trace_events = ts->scan.elements;
	rr->trace_truncated = ts->scan.truncated;
	rr->trace_truncated_at = ts->scan.truncated_at;
	rr->overlap_found = ts->ov.found;
	for (k = 0; k < OV_KINDS; k++) {
		rr->ov_total[k] = ts->ov.total[k];
		for (s = 0; s < STAGE_COUNT; s++)
			rr->ov_stage[s][k] = ts->ov.stage[s][k];
	}
}

/* Moves what the analysis computed from a into r (whose inputs, ranks
 * and reader warnings stay), and a's warnings after r's. */
void rank_take_analysis(struct result *r, struct result *a)
{
	size_t i;

	r->kernels = a->kernels;
	r->span_start_ns = a->span_start_ns;
	r->span_end_ns = a->span_end_ns;
	r->steps = a->steps;
	r->nsteps = a->nsteps;
	r->steps_total = a->steps_total;
	memcpy(r->stages, a->stages, sizeof(r->stages));
	r->segs = a->segs;
	r->nsegs = a->nsegs;
	r->segs_total = a->segs_total;
	r->charged += a->charged;
	r->text_encoder_detected = a->text_encoder_detected;
	r->loop_found = a->loop_found;
	r->denoiser_unet = a->denoiser_unet;
	r->seg_window = a->seg_window;
	r->seg_min_segment = a->seg_min_segment;
	r->stage_method = a->stage_method;
	r->unmatched = a->unmatched;
	r->ktot = a->ktot;
	r->iters = a->iters;
	r->workload = a->workload;
	r->nunmatched = a->nunmatched;
	r->rules_source = a->rules_source;
	r->warnings = xrealloc(r->warnings, (r->nwarnings + a->nwarnings + 1) *
	                                        sizeof(*r->warnings));
	for (i = 0; i < a->nwarnings; i++)
		r->warnings[r->nwarnings++] = a->warnings[i];
	free(a->warnings);
	memset(a, 0, sizeof(*a));
}

/* The markers' device ranges as overrides, charged to the budget: NULL
 * with e set naming path when it refuses. Give the charge back with
 * rank_overrides_free. */
struct stage_override *
rank_overrides(const char *path, const struct trace_summary *ts, struct err *e)
{
	struct stage_override *ov;
	size_t i;

	if (membudget_charge(ts->nmarkers * sizeof(*ov))) {
		membudget_fail(e, ts->nmarkers * sizeof(*ov),
		               "%s: stage overrides of %zu markers", path,
		               ts->nmarkers);
		return NULL;
	}
	ov = xcalloc(ts->nmarkers, sizeof(*ov));
	for (i = 0; i < ts->nmarkers; i++) {
		ov[i].start_ns = ts->markers[i].dev_start_ns;
		ov[i].end_ns = ts->markers[i].dev_end_ns;
		ov[i].stage = ts->markers[i].stage;
	}
	return ov;
}

void rank_overrides_free(struct stage_override *ov, size_t n)
{
	if (ov)
		membudget_release(n * sizeof(*ov));
	free(ov);
}

/* Puts "PATH: " before an analysis error that names no file. */
void rank_in_file(struct err *e, const char *path)
{
	char msg[sizeof(e->msg)];
	enum err_code code = e->code;

	snprintf(msg, sizeof(msg), "%s", e->msg);
	err_clear(e);
	err_set(e, code, "%s: %s", path, msg);
}

/* Analyses kt into r: by kernel signatures, then, when the trace (or the
 * db) has user stage markers, again with the markers in charge. */
int rank_analyse_src(struct stage_src *src, struct kernel_table *kt,
                     const struct rules *ru, struct result *r, struct err *e)
{
	struct result a, b;
	struct trace_summary ts;
	struct trace_marker_rule *mr = rank_marker_rules(ru);
	struct stage_override *ov = NULL;
	int ret = -1;

	result_init(&a);
	result_init(&b);
	memset(&ts, 0, sizeof(ts));
	if (analyse(kt, ru, &a, NULL, e)) {
		rank_in_file(e, src->kernels);
		goto out;
	}
	if (!src->trace && !src->db) {
		ret = 0;
		goto out;
	}
	if (src_collect(src, mr, ru->nmarkers, a.segs, a.nsegs, &ts, e))
		goto out;
	if (src->trace)
		collection_from_scan(&r->ranks[0].ev, &ts);
	if (ts.nmarkers) {
		if (src_map_markers(src, &ts, e) ||
		    !(ov = rank_overrides(src_name(src), &ts, e)))
			goto out;
		if (analyse_with(kt, ru, ov, ts.nmarkers, &b, NULL, e)) {
			rank_in_file(e, src->kernels);
			goto out;
		}
		if (ts.ov.found &&
		    src_attribute(src, b.segs, b.nsegs, &ts.ov, e))
			goto out;
		rank_keep_markers(&ts, ov, r);
		result_release(&a);
		a = b;
		result_init(&b);
	}
	rank_keep_overlap(&ts, src->trace != NULL, &r->ranks[0]);
	ret = 0;
out:
	if (!ret)
		rank_take_analysis(r, &a);
	result_release(&a);
	result_release(&b);
	rank_overrides_free(ov, ts.nmarkers);
	trace_summary_release(&ts);
	free(mr);
	return ret;
}

/* Warnings for the warm-up and outlier steps: the first
 * RESULT_MAX_OUTLIERS named, the others counted in one more. */
#define RESULT_MAX_OUTLIERS 20

static void warn_outliers(struct result *r, const char *path)
{
	struct rank_result *rr = &r->ranks[0];
	size_t i, n = 0;

	for (i = 0; i < rr->nsteps; i++) {
		const struct step_stat *s = &rr->steps[i];
		struct warning *w;
		char *msg;
		if (!s->outlier || n++ >= RESULT_MAX_OUTLIERS)
			continue;
		msg =
		    xstrfmt("rank %d: step %d is an %s: it took %.1f times "
		            "the median step, so it is left out of the "
		            "device-idle share",
		            (int)rr->id, s->step == STEP_NONE ? -1 : s->step,
		            s->outlier == 1 ? "warm-up step (JIT compilation, "
		                              "first-call caches)"
		                            : "outlier",
		            s->ratio);
		w = result_warn(
		    r, s->outlier == 1 ? "warmup_step" : "outlier_step", path,
		    0, msg);
		w->args[0] = xstrfmt("%d", (int)rr->id);
		w->args[1] = s->step == STEP_NONE ? xstrfmt("#%zu", i + 1)
		                                  : xstrfmt("%d", s->step);
		w->args[2] = xstrfmt("%.1f", s->ratio);
		free(msg);
	}
	if (n > RESULT_MAX_OUTLIERS)
		warn_unlisted(r, "outliers_unlisted",
		              "warm-up or outlier steps", n,
		              RESULT_MAX_OUTLIERS);
}

/* The rows of rr->steps, from any source (step_trace_time.csv at path, the
 * db, the trace's Overlap Analysis; source: steps_source, static): every
 * row is flagged (warm-up, outliers) and counted in the device-idle share,
 * then the list is cut
 * to RESULT_MAX_STEP_ROWS for the report and the charge for the rows
 * (charged, by their reader) is given back. */
void rank_keep_steps(struct result *r, const char *path, const char *source,
                     const struct rules *ru, uint64_t charged)
{
	struct rank_result *rr = &r->ranks[0];

	rr->steps_total = rr->nsteps;
	rr->steps_source = source;
	rr->free_share_ppm =
	    steps_analyse(rr->steps, rr->nsteps, ru->outlier_factor);
	warn_outliers(r, path);
	if (rr->nsteps > RESULT_MAX_STEP_ROWS) {
		warn_unlisted(r, "steps_unlisted", "steps", rr->nsteps,
		              RESULT_MAX_STEP_ROWS);
		rr->nsteps = RESULT_MAX_STEP_ROWS;
		rr->steps =
		    xrealloc(rr->steps, rr->nsteps * sizeof(*rr->steps));
	}
	membudget_release(charged);
}

static int read_steps(const char *path, const struct rules *ru,
                      struct result *r, struct err *e)
{
	struct rank_result *rr = &r->ranks[0];
	struct steptrace st;
	uint64_t cost;
	size_t i;
	int ret = -1;

	if (steptrace_read(path, &st, e))
		goto out;
	cost = (uint64_t)st.nrows * sizeof(*rr->steps);
	if (membudget_charge(cost)) {
		membudget_fail(e, cost, "%s: steps (%zu rows)", path, st.nrows);
		goto out;
	}
	rr->steps = xcalloc(st.nrows ? st.nrows : 1, sizeof(*rr->steps));
	rr->nsteps = st.nrows;
	for (i = 0; i < st.nrows; i++) {
		const struct step_row *row = &st.rows[i];
		struct step_stat *s = &rr->steps[i];
		s->step = row->step;
		s->computing_ns = row->computing_ns;
		s->comm_ns = row->comm_ns;
		s->not_overlapped_ns = row->comm_not_overlapped_ns;
		s->free_ns = row->free_ns;
		s->stage_ns = row->stage_ns;
		s->preparing_ns = row->preparing_ns;
	}
	steptrace_release(&st);
	rank_keep_steps(r, path, "step_trace_time", ru, cost);
	ret = 0;
out:
	steptrace_release(&st);
	return ret;
}

/* communication.json's sums (or the db's) into rr. */
void rank_keep_comm(const struct commstats *cs, struct rank_result *rr)
{
	int k;

	rr->comm_read = 1;
	rr->comm.nsteps = cs->nsteps;
	rr->comm.ops = cs->ops;
	memcpy(rr->comm.kind, cs->coll, sizeof(rr->comm.kind));
	memcpy(rr->comm.link, cs->tr, sizeof(rr->comm.link));
	for (k = 0; k < COLL_COUNT; k++)
		checked_accumulate(&rr->comm.wait_ns, cs->coll[k].wait_ns);
}

static int cmp_link(const void *a, const void *b)
{
	const struct comm_link *x = a, *y = b;

	if (x->time_ns != y->time_ns)
		return x->time_ns > y->time_ns ? -1 : 1;
	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	if (x->dst != y->dst)
		return x->dst < y->dst ? -1 : 1;
	return strcmp(x->transport, y->transport);
}

/* communication_matrix.json's links into rr, the RESULT_MAX_LINKS with the
 * most transit time; a file that cannot be read is a warning naming it
 * and the bad value (the table is left out). */
static void read_matrix(const char *path, struct result *r)
{
	struct rank_result *rr = &r->ranks[0];
	struct commmatrix cm;
	struct err e;

	memset(&e, 0, sizeof(e));
	if (commmatrix_read(path, &cm, &e)) {
		result_warn(r, "matrix_unreadable", path, 0, e.msg)->args[0] =
		    xstrdup(e.msg);
		commmatrix_release(&cm);
		return;
	}
	if (cm.nlinks > 1)
		qsort(cm.links, cm.nlinks, sizeof(*cm.links), cmp_link);
	rr->links_total = cm.nlinks;
	rr->nlinks =
	    cm.nlinks < RESULT_MAX_LINKS ? cm.nlinks : RESULT_MAX_LINKS;
	if (rr->nlinks) {
		rr->links = xcalloc(rr->nlinks, sizeof(*rr->links));
		memcpy(rr->links, cm.links, rr->nlinks * sizeof(*rr->links));
	}
	commmatrix_release(&cm);
}

static int read_comm(const char *path, struct rank_result *rr, struct err *e)
{
	struct commstats cs;

	if (commstats_read(path, &cs, e)) {
		commstats_release(&cs);
		return -1;
	}
	rank_keep_comm(&cs, rr);
	commstats_release(&cs);
	return 0;
}

void rank_summarise(const struct result *r, struct rank_result *rr)
{
	int s, c;

	rr->analysed = 1;
	rr->kernels = r->kernels;
	rr->ev.step_ids = r->nsteps;
	for (s = 0; s < STAGE_COUNT; s++) {
		const struct stage_result *st = &r->stages[s];
		rr->stage[s].kernel_ns = st->kernel_ns;
		rr->stage[s].wall_ns = st->wall_ns;
		rr->stage[s].comm_ns = st->comm_ns;
		rr->stage[s].exposed_comm_ns = st->exposed_comm_ns;
		for (c = 0; c < CAT_COUNT; c++)
			rr->stage[s].cat_ns[c] = st->cat[c].time_ns;
		for (c = 0; c < FA_PART_COUNT; c++)
			rr->stage[s].fa_part_ns[c] = st->fa_part[c].time_ns;
	}
	rr->ktot = r->ktot;
	/* the denoiser's compute; the whole profile's when it is one stage */
	s = r->workload.one_stage ? STAGE_OTHER : STAGE_DIT;
	rr->compute_ns = checked_sub_sat(r->stages[s].kernel_ns,
	                                 r->stages[s].cat[CAT_COMM].time_ns);
}

/* The two measures of exposed communication, per stage: kernel intervals
 * (Comm kernels covered by no other kernel of the stage) and the trace's
 * Overlap Analysis (Communication(Not Overlapped) inside the stage). */
void rank_cross_check(struct result *r, struct rank_result *rr,
                      const struct rules *ru)
{
	int s;

	for (s = 0; rr->overlap_found && s < STAGE_COUNT; s++) {
		int64_t wall = rr->stage[s].wall_ns;
		double k, o;
		struct warning *w;
		char *msg;
		if (wall <= 0 || (!rr->stage[s].comm_ns &&
		                  !rr->ov_stage[s][OV_NOT_OVERLAPPED]))
			continue;
		k = 100.0 * (double)rr->stage[s].exposed_comm_ns / (double)wall;
		o = 100.0 * (double)rr->ov_stage[s][OV_NOT_OVERLAPPED] /
		    (double)wall;
		totals_check_overlap(r, rr, ru, rr->stage[s].exposed_comm_ns,
		                     rr->ov_stage[s][OV_NOT_OVERLAPPED], wall);
		if (k - o <= ru->totals_tolerance[TOT_OVERLAP] &&
		    o - k <= ru->totals_tolerance[TOT_OVERLAP])
			continue;
		msg = xstrfmt("rank %d, %s: exposed communication is %.1f%% of "
		              "the stage from kernel intervals but %.1f%% from "
		              "the trace's Overlap Analysis; the report's "
		              "exposed-communication figures use the kernel "
		              "intervals",
		              (int)rr->id, stage_names[s], k, o);
		w = result_warn(r, "overlap_mismatch",
		                rr->db.used ? rr->db.path : rr->files[RF_TRACE],
		                0, msg);
		w->args[0] = xstrfmt("%d", (int)rr->id);
		w->args[1] = xstrdup(stage_names[s]);
		w->args[2] = xstrfmt("%.1f", k);
		w->args[3] = xstrfmt("%.1f", o);
		free(msg);
	}
}

void rank_warn_truncated(struct result *r, const struct rank_result *rr)
{
	struct warning *w;
	char *msg;

	if (!rr->trace_truncated)
		return;
	msg = xstrfmt("rank %d: trace_view.json ends early at byte %llu (the "
	              "profiler was stopped?): the events before it are used",
	              (int)rr->id, (unsigned long long)rr->trace_truncated_at);
	w = result_warn(r, "trace_truncated", rr->files[RF_TRACE], 0, msg);
	w->args[0] = xstrfmt("%d", (int)rr->id);
	w->args[1] =
	    xstrfmt("%llu", (unsigned long long)rr->trace_truncated_at);
	free(msg);
}

/* The analysis needed every segment; the report lists the first
 * RESULT_MAX_SEGMENTS (segs_total counts them all), so what the rank keeps
 * is bounded and its charge is given back. */
void rank_keep_listed(struct result *r)
{
	if (r->nsegs > RESULT_MAX_SEGMENTS) {
		warn_unlisted(r, "segments_unlisted", "stage segments",
		              r->nsegs, RESULT_MAX_SEGMENTS);
		r->nsegs = RESULT_MAX_SEGMENTS;
		r->segs = xrealloc(r->segs, r->nsegs * sizeof(*r->segs));
	}
	membudget_release(r->charged);
	r->charged = 0;
}

/* ---- a rank ------------------------------------------------------------ */

/* op_statistic.csv's sums against the kernels' (kt, before it is freed):
 * the kernel time and count per type. A file that cannot be read is a
 * warning naming it, the line, the column and the value; the report goes
 * on without the check. */
void rank_check_opstat(const char *path, const struct kernel_table *kt,
                       const struct rules *ru, struct result *r)
{
	struct rank_result *rr = &r->ranks[0];
	uint32_t nkeys = kt->keys.n, k;
	uint64_t cost =
	    (uint64_t)(nkeys ? nkeys : 1) * sizeof(struct kernel_type_sum);
	struct kernel_type_sum *t;
	struct opstat os;
	struct err e;
	size_t i;

	if (!path)
		return;
	memset(&e, 0, sizeof(e));
	if (membudget_charge(cost)) {
		membudget_fail(&e, cost, "%s: kernel types (%u)", path, nkeys);
		goto fail;
	}
	if (opstat_read(path, &os, &e)) {
		membudget_release(cost);
		opstat_release(&os);
		goto fail;
	}
	t = xcalloc(nkeys ? nkeys : 1, sizeof(*t));
	for (k = 0; k < nkeys; k++)
		t[k].type = kernel_key_type(kt, k);
	for (i = 0; i < kt->n; i++) {
		t[kt->v[i].key].count++;
		checked_accumulate(&t[kt->v[i].key].time_ns, kt->v[i].dur_ns);
	}
	totals_check_opstat(r, rr, ru, &os, t, nkeys);
	free(t);
	membudget_release(cost);
	opstat_release(&os);
	return;
fail:
	result_warn(r, "opstat_unreadable", path, 0, e.msg)->args[0] =
	    xstrdup(e.msg);
}

static int rank_from_kernels(const struct disc_rank *dr, const struct rules *ru,
                             const struct rank_opts *o, struct result *r,
                             struct err *e)
{
	struct kernel_table kt;
	struct kernels_info info = {0};
	struct kernels_opts ko = {o->strict, o->progress, o->threads};
	struct stage_src src = {dr->files[RF_KERNELS], dr->files[RF_TRACE],
	                        NULL, 0};
	struct rank_result *rr = &r->ranks[0];
	int ret = -1;

	kernel_table_init(&kt);
	if (kernels_read(dr->files[RF_KERNELS], &ko, &kt, &info, e))
		goto out;
	collection_from_kernels(&rr->ev, &info);
	result_add_kernels_input(r, &info, kt.n);
	if (rank_analyse_src(&src, &kt, ru, r, e))
		goto out;
	rank_check_opstat(dr->opstat, &kt, ru, r);
	/* the kernel table is the big one: free it before the small files */
	kernel_table_release(&kt);
	/* on the full timeline */
	memory_read_sources(dr->memfiles, NULL, NULL, r);
	rank_keep_listed(r);
	rank_summarise(r, rr);
	rank_warn_truncated(r, rr);
	rank_cross_check(r, rr, ru);
	ret = 0;
out:
	kernels_info_release(&info);
	kernel_table_release(&kt);
	return ret;
}

int rank_analyse(const struct disc_rank *dr, const struct rules *ru,
                 const struct rank_opts *o, struct result *r, struct err *e)
{
	struct rank_result *rr;
	int trace_only = !dr->files[RF_KERNELS] && dr->files[RF_TRACE];

	result_init(r);
	r->ranks = xcalloc(1, sizeof(*r->ranks));
	r->nranks = 1;
	rr = &r->ranks[0];
	describe(dr, rr);
	r->profile_path = xstrdup(dr->dir);
	r->rank_dir = xstrdup(dr->dir);
	if (dr->use == EXPORT_DB)
		return rank_from_db(dr, ru, o, r, e);
	if (!trace_only)
		warn_missing(r, rr);
	if (!dr->files[RF_KERNELS] && !trace_only)
		return 0;
	if (trace_only ? rank_from_trace(dr, ru, r, e)
	               : rank_from_kernels(dr, ru, o, r, e))
		return -1;
	if (trace_only)
		warn_missing(r, rr); /* after the trace said what it gave */
	if (dr->files[RF_STEPS] && read_steps(dr->files[RF_STEPS], ru, r, e))
		return -1;
	if (dr->files[RF_STEPS])
		totals_check_steps(r, rr, ru, "step_trace_time",
		                   dr->files[RF_STEPS]);
	if (dr->files[RF_COMM] && read_comm(dr->files[RF_COMM], rr, e))
		return -1;
	if (dr->matrix)
		read_matrix(dr->matrix, r);
	return 0;
}
