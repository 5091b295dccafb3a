/* The analysis pass: parsed kernels + rules -> the result model. */
#ifndef SDPERF_ANALYSE_H
#define SDPERF_ANALYSE_H

#include "analysis/result.h"
#include "analysis/rules.h"
#include "input/profile.h"
#include "util/err.h"

/* Sorts kt by start time (stable), classifies every kernel, separates the
 * stages, sums categories, measures exposed communication and records the
 * profile's sanity warnings (the verdicts come once, over all ranks:
 * cluster_merge). If stage_out is not
 * NULL it receives the per-kernel stage labels (in kt's sorted order; the
 * caller frees). Bad input was rejected by the readers; the per-kernel
 * work arrays fit in what the table charged (KERNEL_COST_BYTES), so the
 * failures are the memory budget refusing what grows with the runs,
 * overrides or segments (the queue merging short runs, the overrides'
 * sweep, the stage segments, charged to r->charged): -1 with an ERR_INPUT
 * error (the caller names the file). Returns 0 otherwise. */
int analyse(struct kernel_table *kt, const struct rules *ru, struct result *r,
            unsigned char **stage_out, struct err *e);

/* A device time range whose kernels belong to a stage whatever their
 * signatures say (a user's stage marker mapped to the device). */
struct stage_override {
	int64_t start_ns, end_ns; /* kernels starting in [start, end] */
	enum stage stage;
	uint64_t kernels; /* out: kernels it labelled */
};

/* analyse(), with the overrides applied after the signature heuristic, in
 * order (a later one wins where they overlap). */
int analyse_with(struct kernel_table *kt, const struct rules *ru,
                 struct stage_override *ov, size_t nov, struct result *r,
                 unsigned char **stage_out, struct err *e);

#endif
