/* Threshold verdicts: the MindIE-SD guide's rules of thumb, from data. */
#ifndef SDPERF_VERDICTS_H
#define SDPERF_VERDICTS_H

#include "analysis/result.h"
#include "analysis/rules.h"

/* Evaluates every threshold of ru against the stage results in r and
 * fills r->verdicts (one per threshold, in rules order). rank_imbalance
 * reads r->cluster: cluster_summarise(r) first. In a profile of one stage
 * (r->workload.one_stage) a stage finding is not applicable (na_code
 * "one_stage_<kind>") and a DiT category, exposed-communication or
 * imbalance measure is taken over the whole profile, worded so
 * (verdict.whole_profile). */
void verdicts_evaluate(const struct rules *ru, struct result *r);

/* The measured value of a threshold's metric in percent; 0 with
 * *applicable = 0 when the stage has no kernels. */
double verdicts_metric(const struct threshold *t, const struct result *r,
                       int *applicable);

#endif
