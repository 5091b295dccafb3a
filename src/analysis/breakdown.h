/* Per-stage sums: kernel and wall time, categories, top kernel types. */
#ifndef SDPERF_BREAKDOWN_H
#define SDPERF_BREAKDOWN_H

#include <stddef.h>

#include "analysis/result.h"
#include "input/profile.h"

/* kernel types kept per stage, by time: all of them, up to a bound that
 * keeps a pathological profile's reports readable */
#define BREAKDOWN_TOP       2000
#define BREAKDOWN_UNMATCHED 20 /* unmatched (Other) types listed */

/* Fills r->stages[*] (kernels, kernel_ns, wall_ns, segments, cat[],
 * fa_part[], comm_ns, top) and r->unmatched from the labelled kernels and
 * segments. key_cat[key] is each kernel key's category, key_part[key] its
 * enum fa_part (read for FA keys only). */
void breakdown_compute(const struct kernel_table *kt,
                       const unsigned char *key_cat,
                       const unsigned char *key_part,
                       const unsigned char *stage, const struct segment *segs,
                       size_t nsegs, struct result *r);

#endif
