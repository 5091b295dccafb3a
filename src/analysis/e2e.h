/* End-to-end device time: the yardstick of the summary, the expected
 * gains and the findings on whole stages. */
#ifndef SDPERF_E2E_H
#define SDPERF_E2E_H

#include "analysis/result.h"

/* Works out r->e2e from the lead rank (r->ranks[r->lead]) and the
 * timeline's span: its stages' wall time, their sum, and the span per
 * profiler step (the lead rank's step_trace_time rows, else the distinct
 * Step Ids of the kernels). cluster_summarise calls it. */
void e2e_compute(struct result *r);

/* The span per pipeline call: the timeline's span over the lead rank's
 * DiT loops that were split into iterations (iters.calls), one a call;
 * -1 when no call was told apart. */
int64_t e2e_per_call_ns(const struct result *r);

/* Share of the end-to-end time (busy_ns) in percent: 0 when unknown. */
double e2e_share(const struct result *r, int64_t part_ns);

#endif
