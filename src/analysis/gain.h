/* Expected gains: for each fired finding, what the end-to-end time per
 * step becomes if the part of the time its recommendation attacks runs
 * s times faster, s in the rules' range (Amdahl's law), and the findings
 * ordered by it. */
#ifndef SDPERF_GAIN_H
#define SDPERF_GAIN_H

#include <stdint.h>

#include "analysis/result.h"
#include "analysis/rules.h"

/* Gives each fired verdict of r whose id has a rules speed-up a gain
 * (r->verdicts[i].gain), then orders r->verdicts: the fired ones with an
 * estimate first, by the high end of their end-to-end saving, largest
 * first; then the other fired ones; then the rest; equal ones keep their
 * rules order. Sets each fired verdict's order (1, 2, ...). Reads r->e2e
 * and the lead rank: verdicts_evaluate(ru, r) first. A measure taken over
 * a whole profile of one stage (verdict.whole_profile) gets no gain: the
 * rules' speed-ups are measured on DiTs. */
void gain_evaluate(const struct rules *ru, struct result *r);

/* The time left when part of before runs s times faster:
 * before - part (1 - 1/s), rounded to the ns; part is clamped to
 * [0, before] and s below 1 counts as 1. */
int64_t gain_after(int64_t before, int64_t part, double s);

/* Fills g's times and savings from the part, the stage and the
 * end-to-end time (each per step, in ns) and g's speed-ups; sets
 * g->estimated. The saving is taken of e2e_ns, so a part larger than
 * its stage is cut to the stage. */
void gain_amdahl(struct gain *g, int64_t part_ns, int64_t stage_ns,
                 int64_t e2e_ns);

/* The part of the lead rank's time (the whole profile's, in ns) that
 * speed-up s applies to; -1 when this profile does not measure it (no
 * kernels, no step_trace_time.csv for idle, one rank for imbalance). */
int64_t gain_part_ns(const struct speedup_rule *s, const struct result *r);

#endif
