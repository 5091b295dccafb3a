/* Exposed communication = union(Comm) - union(compute), by interval
 * arithmetic: summing durations would count overlapping collectives twice
 * and could not tell hidden communication from exposed. */
#include "analysis/overlap.h"

#include <stdlib.h>

#include "util/checked.h"
#include "util/banned.h"
#include "util/xalloc.h"

static int cmp_iv(const void *a, const void *b)
{
	const struct interval *x = a, *y = b;
	if (x->a != y->a)
		return x->a < y->a ? -1 : 1;
	return (x->b > y->b) - (x->b < y->b);
}

size_t overlap_union(struct interval *v, size_t n)
{
	size_t i, out = 0;

	if (!n)
		return 0;
	for (i = 1; i < n && cmp_iv(&v[i - 1], &v[i]) <= 0; i++)
		;
	if (i < n) /* kernels arrive sorted by start: usually nothing to do */
		qsort(v, n, sizeof(*v), cmp_iv);
	for (i = 1; i < n; i++) {
		if (v[i].a <= v[out].b) {
			if (v[i].b > v[out].b)
				v[out].b = v[i].b;
		} else {
			v[++out] = v[i];
		}
	}
	return out + 1;
}

int64_t overlap_length(const struct interval *v, size_t n)
{
	int64_t t = 0;
	size_t i;
	for (i = 0; i < n; i++)
		checked_accumulate(&t, checked_sub_sat(v[i].b, v[i].a));
	return t;
}

int64_t overlap_intersection(const struct interval *x, size_t nx,
                             const struct interval *y, size_t ny)
{
	size_t i = 0, j = 0;
	int64_t t = 0;

	while (i < nx && j < ny) {
		int64_t a = x[i].a > y[j].a ? x[i].a : y[j].a;
		int64_t b = x[i].b < y[j].b ? x[i].b : y[j].b;
		if (b > a)
			checked_accumulate(&t, checked_sub_sat(b, a));
		if (x[i].b < y[j].b)
			i++;
		else
			j++;
	}
	return t;
}

void overlap_stage_comm(const struct kernel *k, size_t n,
                        const unsigned char *stage,
                        const unsigned char *key_cat, struct result *r)
{
	struct interval *comm = NULL, *work = NULL;
	size_t i, nc, nw, ac = 0, aw = 0;
	int s;

	for (s = 0; s < STAGE_COUNT; s++) {
		struct stage_result *st = &r->stages[s];
		nc = nw = 0;
		for (i = 0; i < n; i++) {
			struct interval iv = {k[i].start_ns,
			                      k[i].start_ns + k[i].dur_ns};
			if (stage[i] != s)
				continue;
			if (key_cat[k[i].key] == CAT_COMM) {
				comm = xgrow(comm, sizeof(*comm), nc + 1, &ac);
				comm[nc++] = iv;
			} else {
				work = xgrow(work, sizeof(*work), nw + 1, &aw);
				work[nw++] = iv;
			}
		}
		nc = overlap_union(comm, nc);
		nw = overlap_union(work, nw);
		st->comm_union_ns = overlap_length(comm, nc);
		st->exposed_comm_ns =
		    checked_sub_sat(st->comm_union_ns,
		                    overlap_intersection(comm, nc, work, nw));
	}
	free(comm);
	free(work);
}
