/* The pipeline: discover -> read -> analyse -> render. */
#ifndef SDPERF_PIPELINE_H
#define SDPERF_PIPELINE_H

#include "analysis/result.h"
#include "analysis/rules.h"
#include "cli.h"
#include "util/err.h"

/* Discovers every rank behind o->paths and analyses them (o->jobs at a
 * time) into one result r (initialised here; the caller releases it, also
 * on error). Returns 0, or -1 with e set. */
int pipeline_analyse(const struct options *o, const struct rules *ru,
                     struct result *r, struct err *e);

/* Runs `sdperf report` as described by o. Returns 0, or -1 with e set
 * (its code is the exit code). No report file is left half-written. */
int pipeline_report(const struct options *o, struct err *e);

#endif
