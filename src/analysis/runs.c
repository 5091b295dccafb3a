/* Stage runs shorter than min_segment merged into their neighbours (step 2
 * of analysis/stages.c), shortest first: passes at a growing limit, each
 * flipping the short runs with a strictly longer neighbour, then merging
 * equal neighbours (runs.h).
 *
 * Done literally that is (min_segment passes) x (runs): a user's
 * min_segment of 10^6 over 10^6 alternating runs never finishes. Whether
 * a run flips depends only on its length and its neighbours' lengths, so a
 * pass needs to look only at the runs that reach the limit now, the runs
 * whose neighbourhood a merge changed, and those that flipped without
 * merging: the queue below holds them, and the runs live in a linked list
 * so that a merge is local. Every other run would do what it did at its
 * last look: nothing.
 *
 * The runs stay 4 bytes each: a run ends where the next live one starts.
 * The queue's arrays (9 bytes a run, and the lists of runs to look at)
 * are charged to the memory budget as they grow. */
#include "analysis/runs.h"

#include <stdlib.h>
#include <string.h>

#include "util/membudget.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define NO_RUN UINT32_MAX

/* A run and a key: its length (heap) or its start (list order). */
struct qent {
	uint32_t key, run;
};

struct shortq {
	uint32_t *runs;
	size_t m; /* signature kernels: where the last run ends */
	uint32_t *prev, *next;
	unsigned char *dead;
	size_t live, min;
	struct qent *heap; /* runs to look at when the limit reaches key */
	size_t nheap, aheap;
	struct qent *look; /* runs to look at in this pass */
	size_t nlook, alook;
	uint32_t *again; /* ... and in the next one */
	size_t nagain, aagain;
	uint32_t *flipped;
	size_t nflipped, aflipped;
	uint64_t charged; /* bytes charged for prev, next, dead */
	int refused;      /* the budget refused a list's growth */
};

static size_t rlen(const struct shortq *q, uint32_t i)
{
	size_t b =
	    q->next[i] != NO_RUN ? runs_start(q->runs, q->next[i]) : q->m;

	return b - runs_start(q->runs, i);
}

/* Room for one more element in a queue list, charged to the budget. */
static int qroom(struct shortq *q, void *pp, size_t size, size_t n,
                 size_t *alloc)
{
	if (q->refused ||
	    (n == *alloc && membudget_grow(pp, size, n + 1, alloc)))
		q->refused = 1;
	return q->refused ? -1 : 0;
}

static void heap_push(struct shortq *q, size_t len, uint32_t run)
{
	size_t i, up;

	if (qroom(q, &q->heap, sizeof(*q->heap), q->nheap, &q->aheap))
		return;
	for (i = q->nheap++; i > 0 && q->heap[up = (i - 1) / 2].key > len;
	     i = up)
		q->heap[i] = q->heap[up];
	q->heap[i].key = (uint32_t)len;
	q->heap[i].run = run;
}

static void heap_pop(struct shortq *q)
{
	struct qent last = q->heap[--q->nheap];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < q->nheap) {
		if (c + 1 < q->nheap && q->heap[c + 1].key < q->heap[c].key)
			c++;
		if (q->heap[c].key >= last.key)
			break;
		q->heap[i] = q->heap[c];
		i = c;
	}
	if (q->nheap)
		q->heap[i] = last;
}

static void look_again(struct shortq *q, uint32_t run)
{
	if (run == NO_RUN ||
	    qroom(q, &q->again, sizeof(*q->again), q->nagain, &q->aagain))
		return;
	q->again[q->nagain++] = run;
}

static void look_now(struct shortq *q, uint32_t run)
{
	if (q->dead[run] ||
	    qroom(q, &q->look, sizeof(*q->look), q->nlook, &q->alook))
		return;
	q->look[q->nlook].key = (uint32_t)runs_start(q->runs, run);
	q->look[q->nlook++].run = run;
}

/* Run y (next of x, same label) joins x: x now ends where y did. */
static void absorb(struct shortq *q, uint32_t x, uint32_t y)
{
	q->next[x] = q->next[y];
	if (q->next[y] != NO_RUN)
		q->prev[q->next[y]] = x;
	q->dead[y] = 1;
	q->live--;
}

static int by_key(const void *pa, const void *pb)
{
	const struct qent *a = pa, *b = pb;
	return (a->key > b->key) - (a->key < b->key);
}

/* The runs to look at in the pass at lim, in list order, each once: those
 * reaching the limit, and those marked by the last pass. */
static void gather(struct shortq *q, size_t lim)
{
	size_t i, m = 0;

	q->nlook = 0;
	while (q->nheap && q->heap[0].key <= lim) {
		struct qent e = q->heap[0];
		heap_pop(q);
		if (!q->dead[e.run] && rlen(q, e.run) == e.key)
			look_now(q, e.run);
	}
	for (i = 0; i < q->nagain; i++)
		look_now(q, q->again[i]);
	q->nagain = 0;
	if (q->nlook > 1)
		qsort(q->look, q->nlook, sizeof(*q->look), by_key);
	for (i = 0; i < q->nlook; i++)
		if (!m || q->look[m - 1].run != q->look[i].run)
			q->look[m++] = q->look[i];
	q->nlook = m;
}

/* The flips of the pass at lim, left to right, on the lengths the pass
 * began with (merges come after). A run that flips is looked at again in
 * the next pass whatever becomes of it: unmerged, it still flips. */
static void flip(struct shortq *q, size_t lim)
{
	size_t k, len, lp, ln;
	uint32_t i, p, n;

	q->nflipped = 0;
	for (k = 0; k < q->nlook; k++) {
		i = q->look[k].run;
		p = q->prev[i];
		n = q->next[i];
		len = rlen(q, i);
		lp = p != NO_RUN ? rlen(q, p) : 0;
		ln = n != NO_RUN ? rlen(q, n) : 0;
		if (len > lim || (lp <= len && ln <= len))
			continue;
		if (qroom(q, &q->flipped, sizeof(*q->flipped), q->nflipped,
		          &q->aflipped))
			return;
		q->runs[i] = runs_make(runs_start(q->runs, i),
		                       runs_label(q->runs, lp >= ln ? p : n));
		q->flipped[q->nflipped++] = i;
	}
}

/* Merges equal neighbours, which only a flip can have made; a merged run
 * and its neighbours are looked at again, now or when the limit reaches
 * its new length. */
static void merge_flipped(struct shortq *q, size_t lim)
{
	size_t k, len;
	uint32_t s, p;

	for (k = 0; k < q->nflipped; k++) {
		s = q->flipped[k];
		if (q->dead[s])
			continue;
		len = rlen(q, s);
		while (q->next[s] != NO_RUN &&
		       runs_label(q->runs, q->next[s]) ==
		           runs_label(q->runs, s))
			absorb(q, s, q->next[s]);
		while ((p = q->prev[s]) != NO_RUN &&
		       runs_label(q->runs, p) == runs_label(q->runs, s)) {
			absorb(q, p, s);
			s = p;
		}
		look_again(q, s);
		look_again(q, q->prev[s]);
		look_again(q, q->next[s]);
		if (rlen(q, s) != len && rlen(q, s) > lim &&
		    rlen(q, s) < q->min)
			heap_push(q, rlen(q, s), s);
	}
}

/* The linked list and the first heap: 0, or -1 when the budget refuses
 * prev, next and dead. */
static int shortq_init(struct shortq *q, uint32_t *runs, size_t nr, size_t m,
                       size_t min)
{
	uint32_t i;

	memset(q, 0, sizeof(*q));
	q->runs = runs;
	q->m = m;
	q->min = min;
	q->live = nr;
	q->charged = (uint64_t)nr * (2 * sizeof(*q->prev) + 1);
	if (membudget_charge(q->charged)) {
		q->charged = 0;
		return -1;
	}
	q->prev = xmalloc(nr * sizeof(*q->prev));
	q->next = xmalloc(nr * sizeof(*q->next));
	q->dead = xcalloc(nr, 1);
	for (i = 0; i < nr; i++) {
		q->prev[i] = i ? i - 1 : NO_RUN;
		q->next[i] = i + 1 < nr ? i + 1 : NO_RUN;
		if (rlen(q, i) < min)
			heap_push(q, rlen(q, i), i);
	}
	return q->refused ? -1 : 0;
}

static void shortq_release(struct shortq *q)
{
	membudget_release(q->charged + q->aheap * sizeof(*q->heap) +
	                  q->alook * sizeof(*q->look) +
	                  q->aagain * sizeof(*q->again) +
	                  q->aflipped * sizeof(*q->flipped));
	free(q->prev);
	free(q->next);
	free(q->dead);
	free(q->heap);
	free(q->look);
	free(q->again);
	free(q->flipped);
}

int runs_merge_short(uint32_t *runs, size_t *nr, size_t m, size_t min,
                     uint64_t *need)
{
	struct shortq q;
	size_t lim, out = 0;
	uint32_t i;
	int ret = -1;

	*need = (uint64_t)*nr * (2 * sizeof(uint32_t) + 1 + sizeof(q.heap[0]));
	if (*nr < 2 || min < 2)
		return 0;
	if (shortq_init(&q, runs, *nr, m, min))
		goto out;
	for (lim = 1; lim < min && q.live > 1 && !q.refused; lim++) {
		if (!q.nagain && (!q.nheap || q.heap[0].key > lim)) {
			/* nothing can flip before the next length */
			if (!q.nheap || q.heap[0].key >= min)
				break;
			lim = q.heap[0].key;
		}
		gather(&q, lim);
		flip(&q, lim);
		merge_flipped(&q, lim);
	}
	if (q.refused)
		goto out;
	/* run 0 is never absorbed (only a later run is): the list's head */
	for (i = 0; i != NO_RUN; i = q.next[i])
		runs[out++] = runs[i];
	*nr = out;
	ret = 0;
out:
	shortq_release(&q);
	return ret;
}
