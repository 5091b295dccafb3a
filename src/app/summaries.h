/* Map and reduce on the user's own engine: sdperf summarize analyses one
 * rank into a summary file (analysis/ranksum.h), and sdperf report, diff
 * and check merge summaries into exactly the result the one-process run
 * gives. */
#ifndef SDPERF_SUMMARIES_H
#define SDPERF_SUMMARIES_H

#include <stddef.h>

#include "analysis/result.h"
#include "analysis/rules.h"
#include "app/cli.h"
#include "util/err.h"

/* Runs `sdperf summarize RANK_PATH -o FILE`: the one rank behind the PATH
 * analysed and its summary written to FILE all or nothing (a re-run
 * writes the same bytes). 0, or -1 with e set. */
int pipeline_summarize(const struct options *o, struct err *e);

/* Whether the PATHs are summaries: 1 when each is a summary file or a
 * folder holding summary files (*.json, its subfolders not searched), 0
 * when none is, -1 with ERR_USAGE when some are and some are not. */
int summaries_given(const char *const *paths, size_t npaths, struct err *e);

/* The run's result from the summaries behind o->paths, as
 * pipeline_analyse gives it from the profiles (r initialised here,
 * released by the caller). Each summary must have been made with the same
 * rules as ru. 0, or -1 with e set. */
int summaries_analyse(const struct options *o, const struct rules *ru,
                      struct result *r, struct err *e);

#endif
