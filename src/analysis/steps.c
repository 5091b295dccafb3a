/* Step outliers and the device-idle share. */
#include "analysis/steps.h"

#include <stdlib.h>

#include "util/xalloc.h"
#include "util/banned.h"

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static int64_t step_time(const struct step_stat *s)
{
	return s->computing_ns + s->not_overlapped_ns + s->free_ns;
}

/* Median step time of all steps but `skip`; the upper median for an even
 * count, so a single fast step does not make the others outliers. */
static int64_t median_without(const struct step_stat *s, size_t n, size_t skip)
{
	int64_t *v = xmalloc(n * sizeof(*v)), m;
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (i != skip)
			v[k++] = step_time(&s[i]);
	qsort(v, k, sizeof(*v), cmp_i64);
	m = v[k / 2];
	free(v);
	return m;
}

double steps_ratio(const struct step_stat *s, size_t n, size_t i)
{
	int64_t med;
	if (n < 2)
		return 0;
	med = median_without(s, n, i);
	return med > 0 ? (double)step_time(&s[i]) / (double)med : 0;
}

int64_t steps_analyse(struct step_stat *s, size_t n, double factor)
{
	int64_t idle = 0, total = 0;
	size_t i;

	for (i = 0; n >= 3 && i < n; i++) {
		int64_t med = median_without(s, n, i);
		s[i].outlier =
		    med > 0 && (double)step_time(&s[i]) >= factor * (double)med
		        ? (i == 0 ? 1 : 2)
		        : 0;
	}
	for (i = 0; i < n; i++) {
		if (s[i].outlier)
			continue;
		idle += s[i].free_ns;
		total += step_time(&s[i]);
	}
	if (total <= 0)
		return -1;
	return (int64_t)((double)idle * 1e6 / (double)total + 0.5);
}
