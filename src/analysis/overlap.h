/* Interval arithmetic for exposed communication. */
#ifndef SDPERF_OVERLAP_H
#define SDPERF_OVERLAP_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/result.h"
#include "input/profile.h"

struct interval {
	int64_t a, b; /* [a, b) in ns */
};

/* Sorts v by start and merges overlapping/touching intervals in place;
 * returns the new count. */
size_t overlap_union(struct interval *v, size_t n);
/* Total length of disjoint sorted intervals. */
int64_t overlap_length(const struct interval *v, size_t n);
/* Length of the intersection of two disjoint sorted interval lists. */
int64_t overlap_intersection(const struct interval *x, size_t nx,
                             const struct interval *y, size_t ny);

/* For each stage: comm_union_ns = length of the union of its Comm kernels'
 * intervals; exposed_comm_ns = that union minus the union of all its other
 * kernels' intervals. key_cat[key] is each key's category. The kernels
 * must be sorted by start: one sweep, no memory per kernel. */
void overlap_stage_comm(const struct kernel *k, size_t n,
                        const unsigned char *stage,
                        const unsigned char *key_cat, struct result *r);

#endif
