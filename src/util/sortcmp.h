/* qsort/bsearch comparators for plain values, written once. */
#ifndef SDPERF_SORTCMP_H
#define SDPERF_SORTCMP_H

#include <stddef.h>
#include <stdint.h>

/* Orders int64_t values ascending: -1, 0 or 1. */
int sortcmp_i64(const void *a, const void *b);

/* The index of the first of the n elements at base (size bytes apart,
 * sorted by the int64_t member at byte offset off) whose member is greater
 * than key; n when there is none. O(log n). */
size_t sortcmp_upper_i64(const void *base, size_t n, size_t size, size_t off,
                         int64_t key);

#endif
