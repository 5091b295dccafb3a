/* Exposed communication = union(Comm) - union(compute), by interval
 * arithmetic: summing durations would count overlapping collectives twice
 * and could not tell hidden communication from exposed. */
#include "analysis/overlap.h"

#include <stdlib.h>
#include <string.h>

#include "util/checked.h"
#include "util/banned.h"

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

/* A union of intervals built from starts in ascending order: the current
 * merged interval [a, b), open or not. */
struct run_iv {
	int open;
	int64_t a, b;
};

/* Per stage: the Comm union and the compute union, swept together. */
struct sweep {
	struct run_iv comm, work;
	int64_t comm_len, inter;
};

static int64_t common(const struct run_iv *x, const struct run_iv *y)
{
	int64_t a = x->a > y->a ? x->a : y->a, b = x->b < y->b ? x->b : y->b;

	return b > a ? checked_sub_sat(b, a) : 0;
}

/* Adds [a, b) to the union u; a closed interval first meets the other
 * union's open one. Every (comm, work) pair of merged intervals that
 * overlap is open at once (the later one opens before the earlier one can
 * close, which needs a start past its end), and is counted once, when the
 * first of the two closes. */
static void sweep_add(struct sweep *sw, int comm, int64_t a, int64_t b)
{
	struct run_iv *u = comm ? &sw->comm : &sw->work;
	struct run_iv *other = comm ? &sw->work : &sw->comm;

	if (u->open && a <= u->b) {
		if (b > u->b)
			u->b = b;
		return;
	}
	if (u->open) {
		if (comm)
			checked_accumulate(&sw->comm_len,
			                   checked_sub_sat(u->b, u->a));
		if (other->open)
			checked_accumulate(&sw->inter, common(u, other));
	}
	u->open = 1;
	u->a = a;
	u->b = b;
}

void overlap_stage_comm(const struct kernel *k, size_t n,
                        const unsigned char *stage,
                        const unsigned char *key_cat, struct result *r)
{
	struct sweep sw[STAGE_COUNT];
	size_t i;
	int s;

	/* kernels are sorted by start: one pass, no interval lists */
	memset(sw, 0, sizeof(sw));
	for (i = 0; i < n; i++)
		if (stage[i] < STAGE_COUNT)
			sweep_add(&sw[stage[i]], key_cat[k[i].key] == CAT_COMM,
			          k[i].start_ns,
			          checked_add_sat(k[i].start_ns, k[i].dur_ns));
	for (s = 0; s < STAGE_COUNT; s++) {
		struct sweep *w = &sw[s];
		if (w->comm.open) {
			checked_accumulate(
			    &w->comm_len,
			    checked_sub_sat(w->comm.b, w->comm.a));
			if (w->work.open)
				checked_accumulate(&w->inter,
				                   common(&w->comm, &w->work));
		}
		r->stages[s].comm_union_ns = w->comm_len;
		r->stages[s].exposed_comm_ns =
		    checked_sub_sat(w->comm_len, w->inter);
	}
}
