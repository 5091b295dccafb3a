/* Stage separation along the device timeline.
 *
 * 1. Signature kernels (attention/MatMul/LayerNorm/RMSNorm/RoPE for the DiT,
 *    Conv/GroupNorm/Upsample for the VAE) vote: each takes the majority label
 *    of the `window` signature kernels on either side. A VAE's attention
 *    mid-block or a DiT's patch-embedding Conv is outvoted by its neighbours.
 * 2. Runs shorter than `min_segment` signature kernels are merged into their
 *    neighbours, shortest first.
 * 3. Neutral kernels (element-wise, comm, ...) between two runs go to the
 *    side of the largest idle gap between them: the host switches pipeline
 *    stage there.
 * 4. Text encoder: the denoising loop repeats the same kernel sequence every
 *    iteration and every block. DiT-labelled kernels before the first
 *    repetition of the loop's dominant window (less the iteration's own
 *    prologue, found by matching it against the next iteration's) are the
 *    text encoder. */
#include "analysis/stages.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "util/checked.h"
#include "util/membudget.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* A host-side switch of pipeline stage idles the device far longer than a
 * kernel launch does: 20 us. */
#define IDLE_MIN_NS 20000

/* Runs of one label along the signature sequence, 4 bytes each: run r
 * starts at signature index run_a(r) (a kernel index once
 * runs_to_kernels has run) and ends where run r + 1 starts; the top bit
 * is the label. Kernel tables hold fewer than 2^31 kernels
 * (KERNELS_MAX). */
#define RUN_VAE 0x80000000u

static size_t run_a(const uint32_t *runs, size_t r)
{
	return runs[r] & ~RUN_VAE;
}

static size_t run_b(const uint32_t *runs, size_t nr, size_t m, size_t r)
{
	return r + 1 < nr ? run_a(runs, r + 1) : m;
}

static unsigned char run_label(const uint32_t *runs, size_t r)
{
	return (runs[r] & RUN_VAE) ? SIG_VAE : SIG_DIT;
}

static uint32_t run_make(size_t a, unsigned char label)
{
	return (uint32_t)a | (label == SIG_VAE ? RUN_VAE : 0);
}

/* Step 1: windowed majority vote over the signature sequence; the DiT
 * count of the window slides along with it. */
static void vote(const unsigned char *sig, size_t m, size_t w,
                 unsigned char *label)
{
	size_t j, lo = 0, hi = 0, d = 0;

	for (j = 0; j < m; j++) {
		size_t wlo = j > w ? j - w : 0,
		       whi = j + w + 1 < m ? j + w + 1 : m, v;
		for (; hi < whi; hi++)
			d += sig[hi] == SIG_DIT;
		for (; lo < wlo; lo++)
			d -= sig[lo] == SIG_DIT;
		v = (hi - lo) - d;
		label[j] = d > v ? SIG_DIT : v > d ? SIG_VAE : sig[j];
	}
}

static size_t make_runs(const unsigned char *label, size_t m, uint32_t *runs)
{
	size_t j, nr = 0;
	for (j = 0; j < m; j++)
		if (!nr || run_label(runs, nr - 1) != label[j])
			runs[nr++] = run_make(j, label[j]);
	return nr;
}

/* Step 2: flip runs shorter than min to their longer neighbour's label,
 * growing the length limit one at a time so the shortest go first. Each
 * pass at limit lim flips every run of at most lim signature kernels that
 * has a strictly longer neighbour, left to right (a flipped run's label is
 * what its left neighbour holds by then), then merges equal neighbours.
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
	size_t b = q->next[i] != NO_RUN ? run_a(q->runs, q->next[i]) : q->m;

	return b - run_a(q->runs, i);
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
	q->look[q->nlook].key = (uint32_t)run_a(q->runs, run);
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
		q->runs[i] = run_make(run_a(q->runs, i),
		                      run_label(q->runs, lp >= ln ? p : n));
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
		       run_label(q->runs, q->next[s]) == run_label(q->runs, s))
			absorb(q, s, q->next[s]);
		while ((p = q->prev[s]) != NO_RUN &&
		       run_label(q->runs, p) == run_label(q->runs, s)) {
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

/* Merges runs[0..*nr) (over m signature kernels) in place, *nr the runs
 * left: 0, or -1 when the memory budget refuses the queue (*need: the
 * bytes of the refused queue so far, for the message). */
static int merge_short(uint32_t *runs, size_t *nr, size_t m, size_t min,
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

/* Step 2b: moves each boundary between two runs, within 2*w signature
 * kernels, to where the most signature kernels agree with their side. The
 * vote alone shifts a boundary towards a VAE whose attention mid-block sits
 * near its start; this puts it back on the change point. */
static void refine_boundaries(const unsigned char *sig, uint32_t *runs,
                              size_t nr, size_t m, size_t w)
{
	size_t r, t;

	for (r = 0; r + 1 < nr; r++) {
		unsigned char xl = run_label(runs, r),
		              yl = run_label(runs, r + 1);
		size_t xa = run_a(runs, r), b = run_a(runs, r + 1),
		       yb = run_b(runs, nr, m, r + 1);
		size_t lo =
		    xa + 1 > (b > 2 * w ? b - 2 * w : 0) ? xa + 1 : b - 2 * w;
		size_t hi = yb - 1 < b + 2 * w ? yb - 1 : b + 2 * w;
		long score = 0, best = 0;
		size_t best_t = b;

		/* score(t) - score(b), walking left then right from b */
		for (t = b; t > lo; t--) {
			score += sig[t - 1] == yl ? 1 : 0;
			score -= sig[t - 1] == xl ? 1 : 0;
			if (score > best) {
				best = score;
				best_t = t - 1;
			}
		}
		score = 0;
		for (t = b; t < hi; t++) {
			score += sig[t] == xl ? 1 : 0;
			score -= sig[t] == yl ? 1 : 0;
			if (score > best) {
				best = score;
				best_t = t + 1;
			}
		}
		runs[r + 1] = run_make(best_t, yl);
	}
}

/* Each run's start, a signature index, becomes the index of that
 * signature kernel in k: one pass instead of a position per signature
 * kernel. */
static void runs_to_kernels(const struct kernel *k, size_t n,
                            const unsigned char *key_sig, uint32_t *runs,
                            size_t nr)
{
	size_t i, j = 0, r = 0;

	for (i = 0; i < n && r < nr; i++) {
		if (key_sig[k[i].key] == SIG_NONE)
			continue;
		if (run_a(runs, r) == j)
			runs[r] = run_make(i, run_label(runs, r)), r++;
		j++;
	}
}

/* Step 3: index of the last kernel of the earlier run, among kernels
 * [a, b] (a, b: kernel indices of the two runs' facing signature kernels). */
static size_t split_point(const struct kernel *k, size_t a, size_t b)
{
	size_t i, best = a;
	int64_t end = k[a].start_ns + k[a].dur_ns, gap, best_gap = INT64_MIN;

	for (i = a; i < b; i++) {
		int64_t e = k[i].start_ns + k[i].dur_ns;
		/* a new profiler step is a new pipeline call */
		if (k[i].step != k[i + 1].step)
			return i;
		end = e > end ? e : end;
		gap = k[i + 1].start_ns - end;
		if (gap > best_gap) {
			best_gap = gap;
			best = i;
		}
	}
	return best;
}

static void label_kernels(const struct kernel *k, size_t n,
                          const unsigned char *key_sig, const uint32_t *runs,
                          size_t nr, unsigned char *stage)
{
	size_t r, i, from = 0, to, last;

	for (r = 0; r < nr; r++) {
		unsigned char st =
		    run_label(runs, r) == SIG_DIT ? STAGE_DIT : STAGE_VAE;
		to = n;
		if (r + 1 < nr) {
			/* the run's last signature kernel, before the next
			 * run's first */
			last = run_a(runs, r + 1) - 1;
			while (last > run_a(runs, r) &&
			       key_sig[k[last].key] == SIG_NONE)
				last--;
			to = split_point(k, last, run_a(runs, r + 1)) + 1;
		}
		for (i = from; i < to; i++)
			stage[i] = st;
		from = to;
	}
}

/* ---- step 4: text encoder ---------------------------------------------- */

/* Comm kernels run on their own stream and land between compute kernels
 * wherever their jittered timing puts them, so the loop's repeating
 * sequence is the compute kernels alone. */
static int skip(const unsigned char *key_cat, const struct kernel *k)
{
	return key_cat[k->key] == CAT_COMM;
}

static uint64_t window_hash(const struct kernel *k, const unsigned char *cat,
                            size_t i, size_t end, size_t w)
{
	uint64_t h = 1469598103934665603ull;
	size_t j, used = 0;
	for (j = i; j < end && used < w; j++) {
		if (skip(cat, &k[j]))
			continue;
		h ^= k[j].key + 1;
		h *= 1099511628211ull;
		used++;
	}
	return h ^ (uint64_t)used;
}

/* A window of the kernel sequence, identified by its hash, with how often
 * it occurs and the time its first kernels took. */
struct window {
	uint64_t h;
	uint64_t count; /* 0: an empty slot */
	int64_t weight_ns;
};

/* The distinct windows: an open-addressing table, its slots placed by the
 * hash mixed with a per-table random seed (window hashes come from the
 * file: a fixed placement could be flooded). At most STAGES_MAX_WINDOWS
 * slots (half used): a profile has a few hundred distinct windows; past the
 * cap, new ones are not counted (they cannot be the loop's). */
#define STAGES_MAX_WINDOWS (1u << 20)

struct wtable {
	struct window *slot;
	size_t cap, n;
	uint64_t seed;
};

struct loop_ctx {
	const struct kernel *k;
	const unsigned char *cat; /* per key: enum category */
	size_t w;
	uint32_t anchor; /* key of the anchor kernel */
	struct wtable win;
	int64_t min_weight;  /* a loop window weighs at least this */
	uint64_t loop_count; /* and occurs about this often */
	size_t min_te;       /* fewest kernels that make a text encoder */
};

static uint64_t mix(uint64_t h)
{
	h ^= h >> 30; /* splitmix64's finaliser */
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebull;
	return h ^ (h >> 31);
}

/* The slot holding h, or the empty slot where it goes. */
static struct window *wt_slot(const struct wtable *t, uint64_t h)
{
	size_t i = (size_t)mix(h ^ t->seed) & (t->cap - 1);

	while (t->slot[i].count && t->slot[i].h != h)
		i = (i + 1) & (t->cap - 1);
	return &t->slot[i];
}

static void wt_init(struct wtable *t)
{
	t->cap = 1024;
	t->n = 0;
	t->slot = xcalloc(t->cap, sizeof(*t->slot));
	if (getrandom(&t->seed, sizeof(t->seed), GRND_NONBLOCK) !=
	    (ssize_t)sizeof(t->seed))
		t->seed = (uint64_t)(uintptr_t)t ^ 0x9e3779b97f4a7c15ull;
}

static void wt_add(struct wtable *t, uint64_t h, int64_t weight)
{
	struct window *w;
	size_t i;

	if ((t->n + 1) * 2 > t->cap && t->cap < STAGES_MAX_WINDOWS) {
		struct wtable old = *t;
		t->cap *= 2;
		t->n = 0;
		t->slot = xcalloc(t->cap, sizeof(*t->slot));
		for (i = 0; i < old.cap; i++)
			if (old.slot[i].count) {
				*wt_slot(t, old.slot[i].h) = old.slot[i];
				t->n++;
			}
		free(old.slot);
	}
	w = wt_slot(t, h);
	if (!w->count) {
		if ((t->n + 1) * 2 > t->cap)
			return; /* full */
		w->h = h;
		t->n++;
	}
	w->count++;
	checked_accumulate(&w->weight_ns, weight);
}

static const struct window *find_window(const struct loop_ctx *c, uint64_t h)
{
	const struct window *w = wt_slot(&c->win, h);
	return w->count ? w : NULL;
}

/* The DiT range [s, e) that begins at s. */
static size_t range_end(const unsigned char *stage, size_t n, size_t s)
{
	size_t e = s;
	while (e < n && stage[e] == STAGE_DIT)
		e++;
	return e;
}

/* How far back from i the compute-kernel sequences ending before i and
 * before j agree (j > i); returns the index where the agreement starts. */
static size_t common_start(const struct kernel *k, const unsigned char *cat,
                           size_t lo, size_t i, size_t j)
{
	size_t start = i;
	for (;;) {
		while (i > lo && skip(cat, &k[i - 1]))
			i--;
		while (j > i && skip(cat, &k[j - 1]))
			j--;
		if (i == lo || j <= i || k[i - 1].key != k[j - 1].key)
			return start;
		start = --i;
		j--;
	}
}

static int is_loop_window(const struct loop_ctx *c, uint64_t h)
{
	const struct window *w = find_window(c, h);
	/* as heavy as the heaviest window, and repeated as often: a text
	 * encoder's layer windows may weigh as much in a short loop, but
	 * they repeat layers x calls times, not blocks x iterations x calls */
	return w && w->count >= 2 && w->weight_ns >= c->min_weight &&
	       w->count * 10 >= c->loop_count * 9 &&
	       w->count * 10 <= c->loop_count * 11;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* Between the text encoder and the denoising loop the host leaves the
 * device idle (it returns to Python, sets up the scheduler and latents).
 * Returns the first kernel after the largest idle gap in [lo, hi] if that
 * gap stands out (10x the median gap there, and at least IDLE_MIN_NS),
 * else `fallback`. */
static size_t idle_split(const struct kernel *k, size_t lo, size_t hi,
                         size_t fallback)
{
	int64_t gaps[512], end = INT64_MIN, g, best_gap = 0;
	size_t i, n = 0, best = hi;

	if (hi - lo >= sizeof(gaps) / sizeof(gaps[0]))
		lo = hi - sizeof(gaps) / sizeof(gaps[0]) + 1;
	for (i = lo; i <= hi; i++) {
		if (i > lo) {
			g = k[i].start_ns - end;
			gaps[n++] = g > 0 ? g : 0;
			if (g > best_gap) {
				best_gap = g;
				best = i;
			}
		}
		if (k[i].start_ns + k[i].dur_ns > end)
			end = k[i].start_ns + k[i].dur_ns;
	}
	if (n < 4)
		return fallback;
	qsort(gaps, n, sizeof(gaps[0]), cmp_i64);
	return best_gap > 10 * gaps[n / 2] && best_gap >= IDLE_MIN_NS
	           ? best
	           : fallback;
}

/* Where the loop begins in DiT range [s, e): its first loop window, moved
 * back over the prologue that the next iteration repeats; e if the range
 * holds no loop window (it is all text encoder). */
static size_t loop_start(const struct loop_ctx *c, size_t s, size_t e)
{
	size_t i, a0 = e, begin = e, tried = 0;
	uint64_t h0 = 0;

	for (i = s; i < e; i++) {
		uint64_t h;
		if (c->k[i].key != c->anchor)
			continue;
		h = window_hash(c->k, c->cat, i, e, c->w);
		if (a0 == e) {
			if (!is_loop_window(c, h))
				continue;
			a0 = begin = i;
			h0 = h;
		} else if (h == h0 && tried++ < 4096) {
			size_t cs = common_start(c->k, c->cat, s, a0, i);
			begin = cs < begin ? cs : begin;
		}
	}
	/* The host's idle gap between encoder and loop settles the boundary
	 * when there is no second iteration to match (searched before the
	 * matched prologue) and when the encoder's last layer happens to end
	 * like an iteration does (searched up to the first loop window, but
	 * only when an encoder precedes: gaps inside the loop are no
	 * boundary). */
	if (begin < e)
		begin = idle_split(c->k,
		                   begin > s + 4 * c->w ? begin - 4 * c->w : s,
		                   begin - s >= c->min_te ? a0 : begin, begin);
	return begin;
}

/* The anchor: the DiT-signature kernel type with the most time in the
 * DiT ranges (an attention or MatMul of the transformer blocks). */
static uint32_t pick_anchor(const struct kernel *k, size_t n,
                            const unsigned char *stage,
                            const unsigned char *key_sig, size_t nkeys)
{
	int64_t *t = xcalloc(nkeys, sizeof(*t));
	size_t i;
	uint32_t best = UINT32_MAX;

	for (i = 0; i < n; i++)
		if (stage[i] == STAGE_DIT && key_sig[k[i].key] == SIG_DIT)
			checked_accumulate(&t[k[i].key],
			                   checked_add_sat(k[i].dur_ns, 1));
	for (i = 0; i < nkeys; i++)
		if (t[i] && (best == UINT32_MAX || t[i] > t[best]))
			best = (uint32_t)i;
	free(t);
	return best;
}

/* Counts every anchor window of the DiT ranges into c->win, with its
 * weight. */
static void collect_windows(struct loop_ctx *c, const unsigned char *stage,
                            size_t n)
{
	size_t i, s, e;

	wt_init(&c->win);
	for (s = 0; s < n; s = e) {
		e = stage[s] == STAGE_DIT ? range_end(stage, n, s) : s + 1;
		for (i = s; stage[s] == STAGE_DIT && i < e; i++)
			if (c->k[i].key == c->anchor)
				wt_add(&c->win,
				       window_hash(c->k, c->cat, i, e, c->w),
				       c->k[i].dur_ns);
	}
}

static void find_text_encoder(const struct kernel *k, size_t n,
                              const unsigned char *key_sig,
                              const unsigned char *key_cat, size_t nkeys,
                              const struct rules *r, struct stages_out *out)
{
	struct loop_ctx c = {k, key_cat, (size_t)r->loop_window,     0, {0},
	                     0, 0,       (size_t)r->min_text_encoder};
	size_t i, s, e, ls;
	int64_t maxw = 0;

	c.anchor = pick_anchor(k, n, out->stage, key_sig, nkeys);
	if (c.anchor == UINT32_MAX)
		return;
	collect_windows(&c, out->stage, n);
	/* The loop's windows repeat blocks x iterations times and carry most
	 * of the time; a text encoder's layers repeat too, but its windows
	 * weigh far less (its sequence is short and it runs once per call). */
	for (i = 0; i < c.win.cap; i++)
		if (c.win.slot[i].count >= 2 &&
		    c.win.slot[i].weight_ns > maxw) {
			maxw = c.win.slot[i].weight_ns;
			c.loop_count = c.win.slot[i].count;
		}
	c.min_weight = maxw / 2 > 1 ? maxw / 2 : 1;
	out->loop_found = maxw > 0;
	for (s = 0; out->loop_found && s < n; s = e) {
		if (out->stage[s] != STAGE_DIT) {
			e = s + 1;
			continue;
		}
		e = range_end(out->stage, n, s);
		ls = loop_start(&c, s, e);
		/* the encoder's output is its last norm/matmul; neutral kernels
		 * after it (latent noise, timestep set-up) belong to the DiT */
		while (ls > s && key_sig[k[ls - 1].key] == SIG_NONE)
			ls--;
		if (ls - s < (size_t)r->min_text_encoder)
			continue;
		for (i = s; i < ls; i++)
			out->stage[i] = STAGE_TEXT_ENCODER;
		out->text_encoder_detected = 1;
	}
	free(c.win.slot);
}

int stages_assign(const struct kernel *k, size_t n,
                  const unsigned char *key_sig, const unsigned char *key_cat,
                  const struct rules *r, struct stages_out *out, struct err *e)
{
	size_t i, m = 0, nr, nkeys = 0;
	unsigned char *sig, *label;
	uint32_t *runs;
	uint64_t need;

	memset(out, 0, sizeof(*out));
	out->stage = xmalloc(n ? n : 1);
	for (i = 0; i < n; i++) {
		m += key_sig[k[i].key] != SIG_NONE;
		nkeys = k[i].key + 1 > nkeys ? k[i].key + 1 : nkeys;
	}
	if (m == 0) {
		memset(out->stage, STAGE_OTHER, n);
		return 0;
	}
	/* 6 bytes per signature kernel, within KERNEL_COST_BYTES */
	sig = xmalloc(m);
	label = xmalloc(m);
	runs = xmalloc(m * sizeof(*runs));
	for (i = 0, m = 0; i < n; i++)
		if (key_sig[k[i].key] != SIG_NONE)
			sig[m++] = key_sig[k[i].key];
	vote(sig, m, (size_t)r->window, label);
	nr = make_runs(label, m, runs);
	free(label);
	if (merge_short(runs, &nr, m, (size_t)r->min_segment, &need)) {
		membudget_fail(e, need,
		               "stage runs: %zu runs of signature kernels to "
		               "merge (min_segment %d)",
		               nr, r->min_segment);
		free(sig);
		free(runs);
		return -1;
	}
	refine_boundaries(sig, runs, nr, m, (size_t)r->window);
	free(sig);
	runs_to_kernels(k, n, key_sig, runs, nr);
	label_kernels(k, n, key_sig, runs, nr, out->stage);
	free(runs);
	find_text_encoder(k, n, key_sig, key_cat, nkeys, r, out);
	return 0;
}

int stages_segments(const struct kernel *k, size_t n,
                    const unsigned char *stage, struct segment **segs,
                    size_t *nsegs, uint64_t *charged)
{
	size_t i, ns = 0;
	struct segment *v = NULL, *s = NULL;

	*segs = NULL;
	*nsegs = 0;
	*charged = 0;
	for (i = 0; i < n; i++)
		ns += !i || stage[i] != stage[i - 1] ||
		      k[i].step != k[i - 1].step;
	if (membudget_charge((uint64_t)ns * sizeof(*v))) {
		*nsegs = ns;
		return -1;
	}
	*charged = (uint64_t)ns * sizeof(*v);
	v = xmalloc((ns ? ns : 1) * sizeof(*v));
	ns = 0;
	for (i = 0; i < n; i++) {
		int64_t end = k[i].start_ns + k[i].dur_ns;
		if (!s || s->stage != stage[i] || s->step != k[i].step) {
			s = &v[ns++];
			s->stage = (enum stage)stage[i];
			s->step = k[i].step;
			s->start_ns = k[i].start_ns;
			s->end_ns = end;
			s->kernels = 0;
			s->kernel_ns = 0;
		}
		s->end_ns = end > s->end_ns ? end : s->end_ns;
		s->kernels++;
		checked_accumulate(&s->kernel_ns, k[i].dur_ns);
	}
	*segs = v;
	*nsegs = ns;
	return 0;
}
