/* End-to-end device time from the lead rank. The span (first kernel to
 * last) includes the device's idle gaps; the stage wall times do not, and
 * their sum is what the stage shares and gains are taken of. */
#include "analysis/e2e.h"

#include <math.h>
#include <string.h>

#include "util/checked.h"
#include "util/banned.h"

/* Profiler steps the lead rank's kernels cover: its step_trace_time rows,
 * else the distinct Step Ids (without STEP_NONE). */
static uint64_t lead_steps(const struct result *r,
                           const struct rank_result *lead)
{
	size_t i, n = 0;

	if (lead->steps_total)
		return lead->steps_total;
	for (i = 0; i < r->nsteps; i++)
		if (r->steps[i] != STEP_NONE)
			n++;
	return n;
}

void e2e_compute(struct result *r)
{
	struct e2e_time *e = &r->e2e;
	const struct rank_result *lead;
	int s;

	memset(e, 0, sizeof(*e));
	if (r->lead >= r->nranks || !r->ranks[r->lead].analysed)
		return;
	lead = &r->ranks[r->lead];
	for (s = 0; s < STAGE_COUNT; s++) {
		e->stage_ns[s] = lead->stage[s].wall_ns;
		checked_accumulate(&e->busy_ns, lead->stage[s].wall_ns);
	}
	e->known = lead->kernels > 0 && e->busy_ns > 0;
	if (!e->known) {
		memset(e, 0, sizeof(*e));
		return;
	}
	e->span_ns = r->span_end_ns > r->span_start_ns
	                 ? r->span_end_ns - r->span_start_ns
	                 : 0;
	e->steps = lead_steps(r, lead);
	e->per_step_ns = e->steps ? e->span_ns / (int64_t)e->steps : e->span_ns;
	for (s = 0; s < STAGE_COUNT; s++)
		e->stage_step_ns[s] =
		    e->steps ? (int64_t)llround((double)e->stage_ns[s] /
		                                (double)e->steps)
		             : e->stage_ns[s];
}

int64_t e2e_per_call_ns(const struct result *r)
{
	if (!r->e2e.known || !r->iters.found || !r->iters.calls)
		return -1;
	return r->e2e.span_ns / (int64_t)r->iters.calls;
}

double e2e_share(const struct result *r, int64_t part_ns)
{
	if (!r->e2e.known || r->e2e.busy_ns <= 0)
		return 0;
	return 100.0 * (double)part_ns / (double)r->e2e.busy_ns;
}
