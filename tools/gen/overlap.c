/* overlap.c: interval unions and differences over one step's kernels. */
#include "overlap.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"
#include "banned.h"

static void add_merge(struct ivlist *l, int64_t a, int64_t b)
{
	/* Inputs arrive sorted by start, so only the last interval can grow. */
	if (l->n && a <= l->v[l->n - 1].b) {
		if (b > l->v[l->n - 1].b)
			l->v[l->n - 1].b = b;
		return;
	}
	xgrow(&l->v, &l->cap, l->n + 1, sizeof(*l->v));
	l->v[l->n].a = a;
	l->v[l->n].b = b;
	l->n++;
}

static int64_t total(const struct ivlist *l)
{
	int64_t t = 0;
	size_t i;

	for (i = 0; i < l->n; i++)
		t += l->v[i].b - l->v[i].a;
	return t;
}

/* out = x minus y; both sorted and disjoint. */
static void subtract(struct ivlist *out, const struct ivlist *x,
                     const struct ivlist *y)
{
	size_t j = 0, i;

	out->n = 0;
	for (i = 0; i < x->n; i++) {
		int64_t a = x->v[i].a, b = x->v[i].b;
		while (j < y->n && y->v[j].b <= a)
			j++;
		for (size_t k = j; k < y->n && y->v[k].a < b; k++) {
			if (y->v[k].a > a)
				add_merge(out, a, y->v[k].a);
			if (y->v[k].b > a)
				a = y->v[k].b;
		}
		if (a < b)
			add_merge(out, a, b);
	}
}

/* Gaps of (comp U comm) inside [lo, hi). */
static void gaps(struct ivlist *out, const struct ivlist *x,
                 const struct ivlist *y, int64_t lo, int64_t hi)
{
	struct ivlist all = {NULL, 0, 0};
	size_t i = 0, j = 0;
	int64_t cur = lo;

	while (i < x->n || j < y->n) {
		const struct ivl *p =
		    (j >= y->n || (i < x->n && x->v[i].a <= y->v[j].a))
		        ? &x->v[i++]
		        : &y->v[j++];
		add_merge(&all, p->a, p->b);
	}
	out->n = 0;
	for (i = 0; i < all.n; i++) {
		if (all.v[i].a > cur)
			add_merge(out, cur, all.v[i].a);
		if (all.v[i].b > cur)
			cur = all.v[i].b;
	}
	if (cur < hi)
		add_merge(out, cur, hi);
	free(all.v);
}

void overlap_compute(struct overlap *ov, const struct model *m,
                     const struct step *s)
{
	size_t i;

	ov->comp.n = ov->comm.n = 0;
	for (i = 0; i < s->n; i++) {
		const struct kern *k = &s->k[i];
		int comm = m->t[k->tmpl].op->cat == CAT_COMM;
		add_merge(comm ? &ov->comm : &ov->comp, k->start,
		          k->start + k->dur);
	}
	subtract(&ov->commx, &ov->comm, &ov->comp);
	gaps(&ov->freei, &ov->comp, &ov->comm, s->first_start, s->last_end);
	ov->t_comp = total(&ov->comp);
	ov->t_comm = total(&ov->comm);
	ov->t_commx = total(&ov->commx);
	ov->t_free = total(&ov->freei);
}

void overlap_free(struct overlap *ov)
{
	free(ov->comp.v);
	free(ov->comm.v);
	free(ov->commx.v);
	free(ov->freei.v);
	memset(ov, 0, sizeof(*ov));
}
