/* tracecheck.h: the self-check of a rank's JSON files: trace_view.json
 * (form, kernels, stage markers, torch_to_npu flows), communication.json,
 * profiler_info and ground_truth/rank{r}.json, each re-read with jscan. */
#ifndef GEN_TRACECHECK_H
#define GEN_TRACECHECK_H

#include <stdint.h>

#include "model.h"
#include "opts.h"
#include "truth.h"

/* Checks every JSON file of rank `rank` in `rank_dir` that the options say
 * was written (and that profiler_info is absent with --no-profiler-info)
 * against `t`. `got_compute` is the compute time re-measured from
 * kernel_details.csv. Prints findings to stderr; returns the number of
 * problems found. */
int tracecheck_rank(const struct opts *o, int rank, const char *rank_dir,
                    const struct truth *t, int64_t got_compute);

#endif
