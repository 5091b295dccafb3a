/* What app/pipeline.c shares with app/summaries.c (sdperf summarize, and
 * runs merged from summaries): the budget, the rules, the check that a
 * rank has something to read, and the merge of the ranks' results.
 * Internal to app/. */
#ifndef SDPERF_PIPELINE_INT_H
#define SDPERF_PIPELINE_INT_H

#include "analysis/result.h"
#include "analysis/rules.h"
#include "app/cli.h"
#include "input/discover.h"
#include "util/err.h"

/* --max-memory, or the default share of this machine's memory. */
/* -j, or one thread per core this process may run on (taskset, a
 * container's cpuset), else per core online: at least 1. */
long pipeline_jobs(const struct options *o);

void pipeline_set_budget(const struct options *o);
/* The rules (--rules or the built-in ones) with the --threshold values
 * and --device-memory applied. */
int pipeline_load_rules(const struct options *o, struct rules *ru,
                        struct err *e);
/* ERR_INPUT when no rank of rf has kernels, a db or a trace to read. */
int pipeline_no_kernels_error(const struct run_files *rf, struct err *e);
/* Charges a rank's result, waiting to be merged, to the memory budget. */
int pipeline_charge_part(struct result *part, const char *dir, struct err *e);
/* The rf->n ranks' results (parts, in rf's order, ids settled) merged
 * into r (analysis/cluster.h), the collection checked, the PATHs and
 * discovery's notes added: the run's result, as every command reads it. */
void pipeline_merge(const struct options *o, const struct rules *ru,
                    const struct run_files *rf, struct result *parts,
                    struct result *r);

#endif
