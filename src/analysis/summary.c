/* The executive summary's decisions (analysis/summary.h). */
#include "analysis/summary.h"

#include "analysis/collection.h"
#include "analysis/totals.h"
#include "util/banned.h"

const char *const summary_trust_names[3] = {"good", "fair", "low"};

size_t summary_findings(const struct result *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->nverdicts; i++)
		n += r->verdicts[i].fired != 0;
	return n;
}

/* Whether fired verdict a promises more than b: an estimate beats none,
 * a larger high-end saving beats a smaller one. */
static int better(const struct verdict *a, const struct verdict *b)
{
	int ea = a->gain && a->gain->estimated;
	int eb = b->gain && b->gain->estimated;

	if (ea != eb)
		return ea;
	return ea && a->gain->saving_high_pct > b->gain->saving_high_pct;
}

int summary_top(const struct result *r)
{
	size_t i;
	int top = -1;

	for (i = 0; i < r->nverdicts; i++)
		if (r->verdicts[i].fired &&
		    (top < 0 || better(&r->verdicts[i], &r->verdicts[top])))
			top = (int)i;
	return top;
}

enum summary_trust summary_trust(const struct result *r)
{
	const struct rank_collection *c = &r->collection.sum;
	const unsigned low =
	    1u << GAP_LEVEL0 | 1u << GAP_NO_STEPS | 1u << GAP_TRACE_ONLY;
	const unsigned fair = 1u << GAP_FEW_STEPS | 1u << GAP_NO_WARMUP;

	if (!r->collection.checked || (c->gaps & low) ||
	    r->workload.kind != WORKLOAD_DIFFUSION ||
	    (!r->workload.loop_calls && !r->workload.stage_loop &&
	     !r->workload.markers))
		return TRUST_LOW;
	/* the kernels disagree with the profiler's own totals */
	if (totals_failed(r))
		return TRUST_LOW;
	if ((c->gaps & fair) || c->level == LEVEL_UNKNOWN || r->nwarnings)
		return TRUST_FAIR;
	return TRUST_GOOD;
}

uint64_t summary_warmup(const struct result *r)
{
	const struct rank_collection *c = &r->collection.sum;

	return c->warmup_in +
	       (c->warmup_before > 0 ? (uint64_t)c->warmup_before : 0);
}
