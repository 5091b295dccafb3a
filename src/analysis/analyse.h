/* The analysis pass: parsed kernels + rules -> the result model. */
#ifndef SDPERF_ANALYSE_H
#define SDPERF_ANALYSE_H

#include "analysis/result.h"
#include "analysis/rules.h"
#include "input/profile.h"

/* Sorts kt by start time (stable), classifies every kernel, separates the
 * stages, sums categories, measures exposed communication, evaluates the
 * verdicts and records the profile's sanity warnings. If stage_out is not
 * NULL it receives the per-kernel stage labels (in kt's sorted order; the
 * caller frees). Never fails: bad input was rejected by the readers. */
void analyse(struct kernel_table *kt, const struct rules *ru, struct result *r,
             unsigned char **stage_out);

#endif
