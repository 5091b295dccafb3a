/* The executive summary's decisions, shared by every format: how many
 * findings fired, which one to act on first, and how far the profile can
 * be trusted. The numbers it shows (end-to-end time, stage split) are
 * r->e2e (analysis/e2e.h). */
#ifndef SDPERF_SUMMARY_H
#define SDPERF_SUMMARY_H

#include <stddef.h>

#include "analysis/result.h"

/* How far the profile can be trusted: low when the profiler level is
 * below Level1, there are no step boundaries, only the trace was
 * exported, or the profile is not whole diffusion inference, or no
 * denoising loop nor user marker confirms that it is (struct workload:
 * the guide's findings are meant for a DiT pipeline); fair when there are
 * fewer than COLL_MIN_TIMED timed steps, warm-up is missing or profiled,
 * the level is unknown or the analysis left warnings; good otherwise. */
enum summary_trust { TRUST_GOOD, TRUST_FAIR, TRUST_LOW };
/* "good", "fair", "low" */
extern const char *const summary_trust_names[3];

/* Fired verdicts. */
size_t summary_findings(const struct result *r);

/* Index in r->verdicts of the finding to act on first, or -1 when none
 * fired. The one place that chooses: the fired verdict with the largest
 * expected gain (the high end of its end-to-end saving, analysis/gain.h),
 * else the first fired one; the first of equals. */
int summary_top(const struct result *r);

enum summary_trust summary_trust(const struct result *r);

/* Warm-up steps the trust line names: those run before the first
 * profiled one (the schedule's) plus those judged warm-up inside it. */
uint64_t summary_warmup(const struct result *r);

#endif
