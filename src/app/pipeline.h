/* The pipeline: discover -> read -> analyse -> render. */
#ifndef SDPERF_PIPELINE_H
#define SDPERF_PIPELINE_H

#include "analysis/result.h"
#include "analysis/rules.h"
#include "app/cli.h"
#include "util/err.h"

/* Discovers every rank behind o->paths and analyses them (o->jobs at a
 * time) into one result r (initialised here; the caller releases it, also
 * on error). Returns 0, or -1 with e set. */
int pipeline_analyse(const struct options *o, const struct rules *ru,
                     struct result *r, struct err *e);

/* Runs `sdperf report` as described by o: first the branding
 * (app/brand.h: the config file and the logo, read into o) before any
 * input, then the run. Returns 0, or -1 with e set (its code is the exit
 * code). No report file is left half-written. */
int pipeline_report(struct options *o, struct err *e);

/* Runs `sdperf diff BASE NEW`: both sides analysed (or read from their
 * report.json), compared, the comparison written as diff.json/html/md/pdf.
 * Returns 0, or -1 with e set (ERR_INPUT when they cannot be compared). */
int pipeline_diff(const struct options *o, struct err *e);

/* Runs `sdperf check PATH`: prints one line per failed check; returns 0
 * when all pass, -1 with ERR_CHECK when some failed, or another error. */
int pipeline_check(const struct options *o, struct err *e);

#endif
