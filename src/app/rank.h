/* One rank, start to finish: every profiler file of one rank folder read
 * and analysed into a result of its own (ranks[0] describes the rank).
 * Called from worker threads: it touches nothing shared but its inputs,
 * which it only reads. */
#ifndef SDPERF_RANK_H
#define SDPERF_RANK_H

#include "analysis/result.h"
#include "analysis/rules.h"
#include "input/discover.h"
#include "util/err.h"

struct rank_opts {
	int strict;   /* malformed kernel rows are errors */
	int progress; /* progress line on stderr (one rank at a time only) */
	unsigned threads; /* threads for one large file (kernels_read) */
};

/* Analyses the rank dr into r (initialised here, released by the caller
 * also on error). Without kernel_details.csv but with a trace, everything
 * comes from the trace alone (input/traceprof.h), in one pass: kernels,
 * steps (and the step table, unless step_trace_time.csv is there), stage
 * markers, Overlap Analysis; ranks[0].id then becomes the id the trace
 * carries unless profiler_info gave one (id_source "trace": the caller
 * makes ids unique again, discover_settle_ids). Without either file the
 * rank is described (ranks[0].analysed == 0) and skipped by the analysis.
 * A rank whose export to read is the db (dr->use == EXPORT_DB) is read
 * from its ascend_pytorch_profiler[_N].db alone (kernel_source "db").
 * Every path also gathers ranks[0].ev, what the files say of how the rank
 * was collected (analysis/collection.h decides from it).
 * Returns 0, or -1 with an ERR_INPUT error from a reader. */
int rank_analyse(const struct disc_rank *dr, const struct rules *ru,
                 const struct rank_opts *o, struct result *r, struct err *e);

#endif
