/* qsort/bsearch comparators for plain values. */
#include "util/sortcmp.h"

#include <stdint.h>

#include "util/banned.h"

int sortcmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}
