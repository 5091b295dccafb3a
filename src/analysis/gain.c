/* Expected gains (analysis/gain.h). Everything is measured on the lead
 * rank, per profiler step, like the summary's end-to-end time (r->e2e):
 * the end-to-end time is the span per step, a stage's time its wall time
 * per step, the part the speed-up applies to the lead rank's share of it.
 * Amdahl's law assumes the part lies on the critical path: a part that
 * overlaps other work saves less. */
#include "analysis/gain.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/banned.h"
#include "util/xalloc.h"

const char *const gain_part_names[GAIN_PART_COUNT] = {
    "none", "category", "exposed_comm", "idle", "stage", "imbalance", "loop"};

void gain_free(struct gain *g)
{
	if (!g)
		return;
	free(g->assumption_en);
	free(g->assumption_zh);
	free(g->source);
	free(g->source_zh);
	free(g);
}

int64_t gain_after(int64_t before, int64_t part, double s)
{
	double saved;

	if (part < 0)
		part = 0;
	if (part > before)
		part = before;
	if (!(s >= 1))
		s = 1;
	saved = (double)part * (1.0 - 1.0 / s);
	return before - (int64_t)llround(saved);
}

static double saving_pct(int64_t before, int64_t after)
{
	return before > 0 ? 100.0 * (double)(before - after) / (double)before
	                  : 0;
}

void gain_amdahl(struct gain *g, int64_t part_ns, int64_t stage_ns,
                 int64_t e2e_ns)
{
	if (part_ns > stage_ns)
		part_ns = stage_ns;
	g->part_ns = part_ns;
	g->stage_before_ns = stage_ns;
	g->stage_after_low_ns = gain_after(stage_ns, part_ns, g->speedup_low);
	g->stage_after_high_ns = gain_after(stage_ns, part_ns, g->speedup_high);
	g->e2e_before_ns = e2e_ns;
	/* what the stage saves, the end to end saves */
	g->e2e_after_low_ns = e2e_ns - (stage_ns - g->stage_after_low_ns);
	g->e2e_after_high_ns = e2e_ns - (stage_ns - g->stage_after_high_ns);
	if (g->e2e_after_low_ns < 0)
		g->e2e_after_low_ns = 0;
	if (g->e2e_after_high_ns < 0)
		g->e2e_after_high_ns = 0;
	g->saving_low_pct = saving_pct(e2e_ns, g->e2e_after_low_ns);
	g->saving_high_pct = saving_pct(e2e_ns, g->e2e_after_high_ns);
	g->estimated = 1;
}

int64_t gain_part_ns(const struct speedup_rule *s, const struct result *r)
{
	const struct rank_result *lead;

	if (!r->e2e.known || r->lead >= r->nranks)
		return -1;
	lead = &r->ranks[r->lead];
	switch (s->part) {
	case GAIN_PART_NONE:
		return -1;
	case GAIN_PART_CATEGORY:
		return lead->stage[s->stage].cat_ns[s->cat];
	case GAIN_PART_EXPOSED_COMM:
		return lead->stage[s->stage].exposed_comm_ns;
	case GAIN_PART_STAGE:
		return lead->stage[s->stage].wall_ns;
	case GAIN_PART_IDLE:
		if (lead->free_share_ppm < 0)
			return -1;
		return (int64_t)llround((double)r->e2e.span_ns *
		                        (double)lead->free_share_ppm / 1e6);
	case GAIN_PART_IMBALANCE:
		/* every rank waits for the straggler in each collective:
		 * its compute above the median's is what all of them lose */
		if (!r->cluster.ranked)
			return -1;
		return r->ranks[r->cluster.slowest].compute_ns -
		       r->ranks[r->cluster.median].compute_ns;
	case GAIN_PART_LOOP:
		/* the DiT's denoising loop, as the cache finding measures it */
		if (!r->iters.found)
			return -1;
		return r->iters.loop_ns;
	case GAIN_PART_COUNT:
		break;
	}
	return -1;
}

static int64_t per_step(const struct result *r, int64_t ns)
{
	if (!r->e2e.steps)
		return ns;
	return (int64_t)llround((double)ns / (double)r->e2e.steps);
}

static struct gain *estimate(const struct speedup_rule *s,
                             const struct result *r)
{
	struct gain *g = xcalloc(1, sizeof(*g));
	int64_t part = gain_part_ns(s, r), stage;

	g->part = s->part;
	g->stage = s->stage;
	g->cat = s->cat;
	g->speedup_low = s->low;
	g->speedup_high = s->high;
	g->no_speed = s->part == GAIN_PART_NONE;
	g->assumption_en = xstrdup(s->assumption_en);
	g->assumption_zh = xstrdup(s->assumption_zh);
	g->source = xstrdup(s->source);
	g->source_zh = s->source_zh ? xstrdup(s->source_zh) : NULL;
	if (part < 0)
		return g;
	stage = s->stage == STAGE_ALL ? r->e2e.per_step_ns
	                              : per_step(r, r->e2e.stage_ns[s->stage]);
	gain_amdahl(g, per_step(r, part), stage, r->e2e.per_step_ns);
	return g;
}

/* Sort key: 0 fired with an estimate, 1 fired without, 2 the rest. */
static int group(const struct verdict *v)
{
	if (!v->fired)
		return 2;
	return v->gain && v->gain->estimated ? 0 : 1;
}

struct ranked {
	struct verdict v;
	size_t rules_index;
};

static int by_gain(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	int gx = group(&x->v), gy = group(&y->v);

	if (gx != gy)
		return gx < gy ? -1 : 1;
	if (gx == 0 && x->v.gain->saving_high_pct != y->v.gain->saving_high_pct)
		return x->v.gain->saving_high_pct > y->v.gain->saving_high_pct
		           ? -1
		           : 1;
	return x->rules_index < y->rules_index   ? -1
	       : x->rules_index > y->rules_index ? 1
	                                         : 0;
}

static void order(struct result *r)
{
	struct ranked *t;
	size_t i;
	int n = 0;

	if (!r->nverdicts)
		return;
	t = xcalloc(r->nverdicts, sizeof(*t));
	for (i = 0; i < r->nverdicts; i++) {
		t[i].v = r->verdicts[i];
		t[i].rules_index = i;
	}
	qsort(t, r->nverdicts, sizeof(*t), by_gain);
	for (i = 0; i < r->nverdicts; i++) {
		r->verdicts[i] = t[i].v;
		r->verdicts[i].order = r->verdicts[i].fired ? ++n : 0;
	}
	free(t);
}

void gain_evaluate(const struct rules *ru, struct result *r)
{
	size_t i;
	/* the guide's speed-ups are measured on DiT pipelines: none for a
	 * profile of another kind; and none where the kernels disagree with
	 * the profiler's own totals, whose end to end is not the run's */
	int none = r->workload.one_stage || totals_failed(r);

	for (i = 0; i < r->nverdicts; i++) {
		struct verdict *v = &r->verdicts[i];
		const struct speedup_rule *s = rules_speedup(ru, v->id);
		gain_free(v->gain);
		v->gain = v->fired && s && !v->whole_profile && !none
		              ? estimate(s, r)
		              : NULL;
	}
	order(r);
}
