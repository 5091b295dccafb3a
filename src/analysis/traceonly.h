/* Profiler steps of a profile read from trace_view.json alone
 * (input/traceprof.h), which has no Step Id column and no
 * step_trace_time.csv: the kernels are put in steps through the
 * ProfilerStep#N host ranges, and the step table is summed from the
 * trace's own Overlap Analysis, as the profiler sums step_trace_time.csv. */
#ifndef SDPERF_TRACEONLY_H
#define SDPERF_TRACEONLY_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/result.h"
#include "input/profile.h"
#include "input/traceprof.h"

/* How the steps were mapped to device time. */
struct traceonly_steps {
	size_t ranges;    /* ProfilerStep ranges (one per step number) */
	size_t by_flows;  /* of which mapped through torch_to_npu flows; the
	                   * others by time (host range = device range) */
	uint64_t outside; /* kernels before the first step: no Step Id */
};

/* Sets every kernel's step (kt in any order; left sorted by start). Each
 * ProfilerStep#N range is mapped to the device: [first, last] device ts of
 * the flows launched inside it, or, without flows, its host range. A kernel
 * belongs to the step whose device range starts last at or before the
 * kernel's start (the tail of a step runs on after its last launch);
 * kernels before every step keep STEP_NONE, and all of them without
 * ranges. */
void traceonly_assign_steps(struct kernel_table *kt, const struct traceprof *tp,
                            struct traceonly_steps *out);

/* The rows step_trace_time.csv would have (kt sorted, steps assigned):
 * per step, the Overlap Analysis spans clipped to the step's device window
 * (first kernel start to last kernel end; where windows overlap the later
 * step owns the overlap): Computing, Communication, Not Overlapped, Free;
 * Stage = Computing + Not Overlapped + Free; Preparing = window start -
 * the ProfilerStep's host start (-1 without one). Without ranges, one row
 * (STEP_NONE) over all the kernels. No rows without an Overlap Analysis
 * process. *rows (*nrows of them) is the caller's to free, and charged to
 * the memory budget (*nrows x sizeof(struct step_stat)): the caller gives
 * that back. Returns 0, or -1 when the budget refuses (nothing allocated;
 * *nrows: the rows it would have). */
int traceonly_step_rows(const struct kernel_table *kt,
                        const struct traceprof *tp, struct step_stat **rows,
                        size_t *nrows);

#endif
