/* selfcheck.h: re-read a written rank and verify it against the truth. */
#ifndef GEN_SELFCHECK_H
#define GEN_SELFCHECK_H

#include <stdint.h>

#include "model.h"
#include "opts.h"
#include "truth.h"

/* Size of a file in bytes, 0 if it cannot be read. */
uint64_t selfcheck_file_size(const char *path);

/* Re-read kernel_details.csv (and step_trace_time.csv when written) of the
 * rank folder `rank_dir` with the ground-truth CSV, recompute every truth
 * number independently (exposed comm by an interval sweep), and compare
 * with `expected`. Also checks row order, Type-vs-category agreement and
 * the DiT mix targets. Prints findings to stderr; returns 0 when all hold. */
int selfcheck_rank(const struct opts *o, const struct model *m, int rank,
                   const char *rank_dir, const struct truth *expected);

/* Across the ranks in dirs[0 .. o->ranks - 1] (only with --straggler):
 * re-reads each kernel_details.csv and checks that the straggler has the
 * most compute (F x the others' mean, within 5%), the least comm when
 * there are collectives, and that every collective ends within 10 ns on
 * all ranks. Prints one line; returns 0 when all hold. */
int selfcheck_group(const struct opts *o, const char *const *dirs);

#endif
