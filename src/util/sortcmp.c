/* qsort/bsearch comparators for plain values. */
#include "util/sortcmp.h"

#include <stdint.h>
#include <string.h>

#include "util/banned.h"

int sortcmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

size_t sortcmp_upper_i64(const void *base, size_t n, size_t size, size_t off,
                         int64_t key)
{
	const char *b = base;
	size_t lo = 0, hi = n, mid;
	int64_t v;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		memcpy(&v, b + mid * size + off, sizeof(v));
		if (v <= key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
