/* Step outliers and the device-idle share. */
#include "analysis/steps.h"

#include <stdlib.h>

#include "util/checked.h"
#include "util/sortcmp.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* Computing + Not overlapped + Free, saturated: the parts come from the
 * file and may be anything up to INT64_MAX. */
static int64_t step_time(const struct step_stat *s)
{
	return checked_add_sat(
	    checked_add_sat(s->computing_ns, s->not_overlapped_ns), s->free_ns);
}

/* The step times, sorted (the caller frees). */
static int64_t *sorted_times(const struct step_stat *s, size_t n)
{
	int64_t *v = xmalloc((n ? n : 1) * sizeof(*v));
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = step_time(&s[i]);
	qsort(v, n, sizeof(*v), sortcmp_i64);
	return v;
}

/* The median of the sorted times v[0..n) without one occurrence of x (a
 * member of v): the upper median of the other n - 1, so a single fast step
 * does not make the others outliers. Removing x shifts the elements after
 * its first occurrence p down by one, so the median is v[k] or v[k + 1]. */
static int64_t median_without(const int64_t *v, size_t n, int64_t x)
{
	size_t lo = 0, hi = n, k = (n - 1) / 2;

	while (lo < hi) { /* p: the first element >= x */
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return k < lo ? v[k] : v[k + 1];
}

static double ratio(int64_t t, int64_t med)
{
	return med > 0 ? (double)t / (double)med : 0;
}

double steps_ratio(const struct step_stat *s, size_t n, size_t i)
{
	int64_t *v;
	double r;

	if (n < 2)
		return 0;
	v = sorted_times(s, n);
	r = ratio(step_time(&s[i]), median_without(v, n, step_time(&s[i])));
	free(v);
	return r;
}

int64_t steps_analyse(struct step_stat *s, size_t n, double factor)
{
	int64_t *v = sorted_times(s, n);
	double idle = 0, total = 0; /* a ratio of sums: no int64 to overflow,
	                             * exact below 2^53 ns (104 days) */
	size_t i;

	/* one sort for all steps: each step's median of the others is then
	 * a binary search away */
	for (i = 0; i < n; i++) {
		int64_t t = step_time(&s[i]);
		int64_t med = n >= 2 ? median_without(v, n, t) : 0;
		s[i].ratio = ratio(t, med);
		s[i].outlier =
		    n >= 3 && med > 0 && (double)t >= factor * (double)med
		        ? (i == 0 ? 1 : 2)
		        : 0;
	}
	free(v);
	for (i = 0; i < n; i++) {
		if (s[i].outlier)
			continue;
		idle += (double)s[i].free_ns;
		total += (double)s[i].computing_ns +
		         (double)s[i].not_overlapped_ns + (double)s[i].free_ns;
	}
	if (total <= 0)
		return -1;
	return (int64_t)(idle * 1e6 / total + 0.5);
}
