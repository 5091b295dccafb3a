/* Verdicts: value vs threshold, fired when strictly above. With several
 * ranks, shares of kernel time are taken over all ranks' kernels, and
 * per-rank measures (exposed communication, device idle) from the worst
 * rank, which is named; a stage's share of end to end comes from the lead
 * rank (r->e2e), also named. */
#include "analysis/verdicts.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/e2e.h"
#include "analysis/iterations.h"
#include "util/banned.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct measure {
	double value;
	int applicable;
	int rank;        /* rank id the value comes from, or -1 */
	const char *how; /* see struct verdict */
};

static double pct(int64_t part, int64_t whole)
{
	return 100.0 * (double)part / (double)whole;
}

static void exposed_comm(const struct threshold *t, const struct result *r,
                         struct measure *m)
{
	const struct stage_result *st = &r->stages[t->stage];
	size_t i;

	if (r->nranks <= 1) {
		m->applicable = st->wall_ns > 0;
		m->value =
		    m->applicable ? pct(st->exposed_comm_ns, st->wall_ns) : 0;
		return;
	}
	for (i = 0; i < r->nranks; i++) {
		const struct rank_result *rr = &r->ranks[i];
		double v;
		if (!rr->analysed || rr->stage[t->stage].wall_ns <= 0)
			continue;
		v = pct(rr->stage[t->stage].exposed_comm_ns,
		        rr->stage[t->stage].wall_ns);
		if (!m->applicable || v > m->value) {
			m->value = v;
			m->rank = rr->id;
		}
		m->applicable = 1;
	}
	m->how = "worst";
}

static void free_share(const struct result *r, struct measure *m)
{
	size_t i;

	for (i = 0; i < r->nranks; i++) {
		const struct rank_result *rr = &r->ranks[i];
		double v;
		if (rr->free_share_ppm < 0)
			continue;
		v = (double)rr->free_share_ppm / 1e4;
		if (!m->applicable || v > m->value) {
			m->value = v;
			m->rank = rr->id;
		}
		m->applicable = 1;
	}
	if (r->nranks > 1)
		m->how = "worst";
	else
		m->rank = -1;
}

/* (slowest - median) / median of the ranks' compute time, the two ranks
 * as cluster_summarise found them. */
static void imbalance(const struct result *r, struct measure *m)
{
	int64_t slow, med;

	if (!r->cluster.ranked)
		return;
	slow = r->ranks[r->cluster.slowest].compute_ns;
	med = r->ranks[r->cluster.median].compute_ns;
	m->rank = r->ranks[r->cluster.slowest].id;
	m->applicable = med > 0;
	m->value = m->applicable ? pct(slow - med, med) : 0;
	m->how = "slowest";
}

/* The stage's share of the end-to-end time (r->e2e: the lead rank's
 * stage wall times), the lead rank named when there are several. */
static void stage_share(const struct threshold *t, const struct result *r,
                        struct measure *m)
{
	m->applicable = r->e2e.known && r->e2e.stage_ns[t->stage] > 0;
	m->value = m->applicable ? e2e_share(r, r->e2e.stage_ns[t->stage]) : 0;
	if (m->applicable && r->nranks > 1) {
		m->rank = r->ranks[r->lead].id;
		m->how = "lead";
	}
}

/* The denoising loop's share of end to end (the lead rank's), when every
 * iteration runs the full block stack: with a cache active there is
 * nothing left to recommend. */
static void loop_share(const struct result *r, struct measure *m)
{
	double v = iterations_loop_share(r);

	m->applicable = v >= 0 && r->iters.cache.kind == CACHE_NONE;
	m->value = m->applicable ? v : 0;
	if (m->applicable && r->nranks > 1) {
		m->rank = r->ranks[r->lead].id;
		m->how = "lead";
	}
}

static void measure(const struct threshold *t, const struct result *r,
                    struct measure *m)
{
	const struct stage_result *st;

	memset(m, 0, sizeof(*m));
	m->rank = -1;
	switch (t->metric) {
	case METRIC_CATEGORY_SHARE:
		st = &r->stages[t->stage];
		m->applicable = st->kernel_ns > 0;
		m->value = m->applicable
		               ? pct(st->cat[t->cat].time_ns, st->kernel_ns)
		               : 0;
		m->how = r->nranks > 1 ? "sum" : NULL;
		break;
	case METRIC_EXPOSED_COMM_SHARE:
		exposed_comm(t, r, m);
		break;
	case METRIC_FREE_SHARE:
		free_share(r, m);
		break;
	case METRIC_RANK_IMBALANCE:
		imbalance(r, m);
		break;
	case METRIC_STAGE_SHARE:
		stage_share(t, r, m);
		break;
	case METRIC_DIT_LOOP_SHARE:
		loop_share(r, m);
		break;
	case METRIC_MEMORY_PEAK_SHARE:
		m->applicable = r->memory.peak_share >= 0;
		m->value = m->applicable ? r->memory.peak_share : 0;
		if (r->nranks > 1 && m->applicable) {
			m->rank = r->memory.peak_rank;
			m->how = "worst";
		}
		break;
	}
}

double verdicts_metric(const struct threshold *t, const struct result *r,
                       int *applicable)
{
	struct measure m;
	measure(t, r, &m);
	*applicable = m.applicable;
	return m.value;
}

static char *metric_text(const struct threshold *t)
{
	switch (t->metric) {
	case METRIC_CATEGORY_SHARE:
		return xstrfmt("%s share of %s kernel time",
		               category_names[t->cat], stage_names[t->stage]);
	case METRIC_EXPOSED_COMM_SHARE:
		return xstrfmt("exposed communication share of %s wall time",
		               stage_names[t->stage]);
	case METRIC_FREE_SHARE:
		return xstrdup("device idle (Free) share of the step time");
	case METRIC_RANK_IMBALANCE:
		return xstrfmt("slowest rank's %s compute time above the "
		               "median rank's",
		               stage_names[t->stage]);
	case METRIC_STAGE_SHARE:
		return xstrfmt("%s share of the end-to-end device time (the "
		               "stages' wall time)",
		               stage_names[t->stage]);
	case METRIC_MEMORY_PEAK_SHARE:
		return xstrdup("peak device memory as a share of the card's");
	case METRIC_DIT_LOOP_SHARE:
		return xstrdup("denoising loop share of the end-to-end device "
		               "time (first iteration's start to last "
		               "iteration's end, per call)");
	}
	return xstrdup("");
}

/* Whether some rank has a step_trace_time.csv with steps. */
static int has_steps(const struct result *r)
{
	size_t i;

	for (i = 0; i < r->nranks; i++)
		if (r->ranks[i].nsteps)
			return 1;
	return 0;
}

/* Why the memory peak has no share of the card. */
static const char *memory_na(const struct result *r, const char **code)
{
	if (!r->memory.known) {
		*code = "memory_none";
		return "no memory data with samples (memory_record.csv, "
		       "operator_memory.csv, npu_module_mem.csv, NPU MEM "
		       "counters, the db's MEMORY_RECORD or NPU_MEM: profile "
		       "with profile_memory=True)";
	}
	*code = "card_unknown";
	return "the card's memory is unknown: the profile names no chip of "
	       "the rules' table; give --device-memory GB";
}

/* Why the loop's share is not measured. */
static const char *loop_na(const struct result *r, const char **code)
{
	if (!r->iters.found) {
		*code = "no_loop";
		return "no denoising loop was split into iterations (no "
		       "repeating block stack with a head before it)";
	}
	if (r->iters.cache.kind == CACHE_ATTENTION) {
		*code = "cache_active_attention";
		return "an AttentionCache is already active (see the "
		       "denoising iterations)";
	}
	if (r->iters.cache.kind == CACHE_DIT) {
		*code = "cache_active_dit";
		return "a DiTCache is already active (see the denoising "
		       "iterations)";
	}
	return NULL;
}

/* Why a metric has no value, when the stage's kernels are not the reason
 * (NULL then); *code receives it as a code for catalogues. */
static const char *na_reason(enum metric m, const struct result *r,
                             const char **code)
{
	*code = NULL;
	if (m == METRIC_RANK_IMBALANCE)
		return "needs two or more analysed ranks";
	if (m == METRIC_MEMORY_PEAK_SHARE)
		return memory_na(r, code);
	if (m == METRIC_DIT_LOOP_SHARE)
		return loop_na(r, code);
	if (m != METRIC_FREE_SHARE)
		return NULL;
	if (!has_steps(r))
		return "no step_trace_time.csv";
	/* the file is there, but its totals are 0 or less: say so */
	*code = "step_totals";
	return "step_trace_time.csv: no step's Computing + "
	       "Communication(Not Overlapped) + Free is above 0";
}

/* A rank whose check f against the profiler's own totals failed, or -1.
 * For the kernels' time, a Computing check where the kernels fall short
 * (a truncated or filtered kernel file), or op_statistic.csv's time. */
static int totals_rank(const struct result *r, int f)
{
	size_t i;

	for (i = 0; i < r->nranks; i++) {
		const struct rank_result *rr = &r->ranks[i];
		const struct totals_check *c = &rr->totals[f];
		if (rr->analysed && c->checked && !c->passed &&
		    (f != TOT_COMPUTING || c->ours < c->theirs))
			return (int)i;
	}
	return -1;
}

/* Why a finding measured from the kernels has no value when they
 * disagree with the profiler's own totals (NULL when they agree, or
 * were not checked): shares of kernels the file lacks are not the run's
 * shares, and exposed communication of kernels that do not cover the
 * profiler's Communication(Not Overlapped) is not the run's either. */
static const char *totals_na(enum metric m, const struct result *r,
                             const char **code)
{
	if (m == METRIC_CATEGORY_SHARE || m == METRIC_EXPOSED_COMM_SHARE ||
	    m == METRIC_STAGE_SHARE || m == METRIC_RANK_IMBALANCE ||
	    m == METRIC_DIT_LOOP_SHARE) {
		if (totals_rank(r, TOT_COMPUTING) >= 0 ||
		    totals_rank(r, TOT_OPSTAT_TIME) >= 0) {
			*code = "totals_kernels";
			return "the kernels fall short of the profiler's own "
			       "totals (step_trace_time.csv's Computing or "
			       "op_statistic.csv: see the warnings), so shares "
			       "computed from them are not the run's";
		}
	}
	if (m == METRIC_EXPOSED_COMM_SHARE &&
	    totals_rank(r, TOT_NOT_OVERLAP) >= 0) {
		*code = "totals_comm";
		return "the kernels' exposed communication disagrees with the "
		       "profiler's Communication(Not Overlapped) (see the "
		       "warnings), so it is not the run's";
	}
	return NULL;
}

/* Why a stage finding has no value in a profile of one stage. */
static const char *one_stage_na(const struct result *r)
{
	switch (r->workload.kind) {
	case WORKLOAD_TRAINING:
		return "the profile is a training step, not diffusion "
		       "inference: no DiT/VAE/text-encoder split";
	case WORKLOAD_LLM:
		return "the profile is LLM inference, not diffusion "
		       "inference: no DiT/VAE/text-encoder split";
	case WORKLOAD_PARTIAL:
		return "the profile holds part of a pipeline (a VAE alone, no "
		       "denoising loop): no DiT/VAE/text-encoder split";
	default:
		return "no denoising loop: the profile is not diffusion "
		       "inference, so it has no DiT/VAE/text-encoder split";
	}
}

/* The same as a code for catalogues. */
static const char *one_stage_code(const struct result *r)
{
	switch (r->workload.kind) {
	case WORKLOAD_TRAINING:
		return "one_stage_training";
	case WORKLOAD_LLM:
		return "one_stage_llm_inference";
	case WORKLOAD_PARTIAL:
		return "one_stage_partial";
	default:
		return "one_stage_unknown";
	}
}

/* In a profile of one stage: a stage finding (a stage's share, the loop,
 * any measure of the VAE or the text encoder) has no value (1); a DiT
 * category, communication or compute measure is taken over the whole
 * profile (*t moved to STAGE_OTHER, *whole says which: the ranks' compute
 * is already the whole profile's, app/rank.c). */
static int one_stage(const struct result *r, struct threshold *t, int *whole)
{
	*whole = VW_NONE;
	if (!r->workload.one_stage || t->stage == STAGE_ALL)
		return 0;
	if (t->metric == METRIC_STAGE_SHARE ||
	    t->metric == METRIC_DIT_LOOP_SHARE || t->stage != STAGE_DIT)
		return 1;
	*whole = t->metric == METRIC_CATEGORY_SHARE       ? VW_CATEGORY
	         : t->metric == METRIC_EXPOSED_COMM_SHARE ? VW_EXPOSED_COMM
	         : t->metric == METRIC_RANK_IMBALANCE     ? VW_IMBALANCE
	                                                  : VW_NONE;
	if (*whole != VW_NONE)
		t->stage = STAGE_OTHER;
	return 0;
}

static char *whole_metric_text(const struct threshold *t, int whole)
{
	if (whole == VW_CATEGORY)
		return xstrfmt("%s share of the whole profile's kernel time "
		               "(the threshold is meant for a DiT)",
		               category_names[t->cat]);
	if (whole == VW_IMBALANCE)
		return xstrdup("slowest rank's compute time above the median "
		               "rank's, over the whole profile (the threshold "
		               "is meant for a DiT)");
	return xstrdup("exposed communication share of the whole profile's "
	               "wall time (the threshold is meant for a DiT)");
}

static char *whole_title(const struct threshold *t, int whole)
{
	if (whole == VW_CATEGORY)
		return xstrfmt("%s is a large share of the whole profile "
		               "(above the guide's threshold for a DiT)",
		               category_names[t->cat]);
	if (whole == VW_IMBALANCE)
		return xstrdup("One card computes much longer than the others "
		               "(over the whole profile)");
	return xstrdup("Communication is exposed in the whole profile "
	               "(above the guide's threshold for a DiT)");
}

void verdicts_evaluate(const struct rules *ru, struct result *r)
{
	size_t i, d;
	struct measure m;
	struct threshold th;
	int na, whole;

	r->verdicts = xcalloc(ru->nth ? ru->nth : 1, sizeof(*r->verdicts));
	r->nverdicts = ru->nth;
	for (i = 0; i < ru->nth; i++) {
		const struct threshold *t = &th;
		struct verdict *v = &r->verdicts[i];
		th = ru->th[i];
		na = one_stage(r, &th, &whole);
		measure(t, r, &m);
		if (na)
			m.applicable = 0;
		v->id = xstrdup(t->id);
		v->title = whole ? whole_title(t, whole) : xstrdup(t->title);
		v->recommendation = xstrdup(t->recommendation);
		v->metric =
		    whole ? whole_metric_text(t, whole) : metric_text(t);
		v->check =
		    t->check && !whole ? xstrdup(t->check) : xstrdup(v->metric);
		v->stage = t->stage;
		v->whole_profile = whole;
		v->whole_cat = whole == VW_CATEGORY ? (int)t->cat : 0;
		v->threshold = t->above;
		v->value = m.applicable ? m.value : 0;
		v->applicable = m.applicable;
		v->na_reason =
		    m.applicable ? NULL : na_reason(t->metric, r, &v->na_code);
		if (na) {
			v->na_reason = one_stage_na(r);
			v->na_code = one_stage_code(r);
		} else if (m.applicable) {
			const char *code = NULL,
			           *why = totals_na(t->metric, r, &code);
			if (why) {
				v->applicable = 0;
				v->value = 0;
				v->na_reason = why;
				v->na_code = code;
			}
		}
		v->rank = m.rank;
		v->how = m.how ? xstrdup(m.how) : NULL;
		v->fired = v->applicable && v->value > t->above;
		v->docs = xmalloc((t->ndocs ? t->ndocs : 1) * sizeof(char *));
		for (d = 0; d < t->ndocs; d++)
			v->docs[d] = xstrdup(t->docs[d]);
		v->ndocs = t->ndocs;
	}
}
