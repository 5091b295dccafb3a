/* qsort/bsearch comparators for plain values, written once. */
#ifndef SDPERF_SORTCMP_H
#define SDPERF_SORTCMP_H

/* Orders int64_t values ascending: -1, 0 or 1. */
int sortcmp_i64(const void *a, const void *b);

#endif
