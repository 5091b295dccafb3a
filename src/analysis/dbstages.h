/* What the analysis takes from the SQLite export beside its kernels, in
 * the shapes the text export gives: the profiler's Overlap Analysis per
 * stage and the user's stage markers (as tracestages.h takes them from
 * trace_view.json: OVERLAP_ANALYSIS; PYTORCH_API / MSTX_EVENTS ranges
 * mapped to the device through CONNECTION_IDS -> TASK, the db's
 * torch_to_npu flows), and the per-step split of step_trace_time.csv
 * (STEP_TIME's steps, split by OVERLAP_ANALYSIS, or, without it, by the
 * kernels themselves as the profiler computes Overlap Analysis). */
#ifndef SDPERF_DBSTAGES_H
#define SDPERF_DBSTAGES_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/result.h"
#include "analysis/tracestages.h"
#include "input/db.h"
#include "util/err.h"

/* trace_collect for the db: the Overlap Analysis attributed to segs (found
 * when the db has OVERLAP_ANALYSIS), the markers' host ranges (method
 * MARKER_TIME until dbstages_map_markers). out is overwritten; release it
 * with trace_summary_release (also after an error). out->scan.size is the
 * db's size; *skipped counts OVERLAP_ANALYSIS rows of no known type. */
int dbstages_collect(struct db *db, const struct trace_marker_rule *rules,
                     size_t nrules, const struct segment *segs, size_t nsegs,
                     struct trace_summary *out, uint64_t *skipped,
                     struct err *e);

/* trace_map_markers for the db: every PYTORCH_API -> TASK link. */
int dbstages_map_markers(struct db *db, struct trace_summary *out,
                         struct err *e);

/* trace_attribute_overlap for the db. */
int dbstages_attribute_overlap(struct db *db, const struct segment *segs,
                               size_t nsegs, struct trace_overlap *ov,
                               struct err *e);

/* One step_stat per STEP_TIME row (by start; *out owned by the caller,
 * NULL/0 without steps), split into Computing, Communication, Not
 * Overlapped and Free by the OVERLAP_ANALYSIS spans clipped to the step
 * when the db has them (*from_kernels = 0), else from kt's kernels
 * starting in the step (*from_kernels = 1): Computing = union of the
 * non-HCCL kernels, Communication = union of the HCCL ones, Not Overlapped
 * = Communication minus Computing, Free = the kernels' span minus both.
 * Stage = Computing + Not Overlapped + Free; Preparing = the first
 * computing or communication start in the step - the step's start. kt
 * must be sorted by start (as analyse() leaves it). *out is charged to the
 * memory budget (*n x sizeof(struct step_stat), also after an error):
 * the caller gives that back; a refused charge is an ERR_INPUT error. */
int dbstages_steps(struct db *db, const struct kernel_table *kt,
                   struct step_stat **out, size_t *n, int *from_kernels,
                   struct err *e);

#endif
