/* The pipeline: discover -> read -> analyse -> render. */
#ifndef SDPERF_PIPELINE_H
#define SDPERF_PIPELINE_H

#include "cli.h"
#include "util/err.h"

/* Runs `sdperf report` as described by o. Returns 0, or -1 with e set
 * (its code is the exit code). No report file is left half-written. */
int pipeline_report(const struct options *o, struct err *e);

#endif
