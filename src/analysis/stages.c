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

#include "util/checked.h"
#include "util/banned.h"
#include "util/xalloc.h"

/* A host-side switch of pipeline stage idles the device far longer than a
 * kernel launch does: 20 us. */
#define IDLE_MIN_NS 20000

struct run {
	unsigned char label; /* SIG_DIT or SIG_VAE */
	size_t a, b;         /* signature indices [a, b) */
};

/* Step 1: windowed majority vote over the signature sequence. */
static void vote(const unsigned char *sig, size_t m, size_t w,
                 unsigned char *label)
{
	size_t *dit = xmalloc((m + 1) * sizeof(*dit)), j;

	dit[0] = 0;
	for (j = 0; j < m; j++)
		dit[j + 1] = dit[j] + (sig[j] == SIG_DIT);
	for (j = 0; j < m; j++) {
		size_t lo = j > w ? j - w : 0,
		       hi = j + w + 1 < m ? j + w + 1 : m;
		size_t d = dit[hi] - dit[lo], v = (hi - lo) - d;
		label[j] = d > v ? SIG_DIT : v > d ? SIG_VAE : sig[j];
	}
	free(dit);
}

static size_t make_runs(const unsigned char *label, size_t m, struct run *runs)
{
	size_t j, nr = 0;
	for (j = 0; j < m; j++) {
		if (nr && runs[nr - 1].label == label[j]) {
			runs[nr - 1].b = j + 1;
			continue;
		}
		runs[nr].label = label[j];
		runs[nr].a = j;
		runs[nr].b = j + 1;
		nr++;
	}
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
 * last look: nothing. */

#define NO_RUN SIZE_MAX

/* A run and a key: its length (heap) or its start (list order). */
struct qent {
	size_t key, run;
};

struct shortq {
	struct run *runs;
	size_t *prev, *next;
	unsigned char *dead;
	size_t live, min;
	struct qent *heap; /* runs to look at when the limit reaches key */
	size_t nheap, aheap;
	struct qent *look; /* runs to look at in this pass */
	size_t nlook, alook;
	size_t *again, nagain, aagain; /* ... and in the next one */
	size_t *flipped, nflipped, aflipped;
};

static size_t rlen(const struct shortq *q, size_t i)
{
	return q->runs[i].b - q->runs[i].a;
}

static void heap_push(struct shortq *q, size_t len, size_t run)
{
	size_t i = q->nheap++, up;

	q->heap = xgrow(q->heap, sizeof(*q->heap), q->nheap, &q->aheap);
	for (; i > 0 && q->heap[up = (i - 1) / 2].key > len; i = up)
		q->heap[i] = q->heap[up];
	q->heap[i].key = len;
	q->heap[i].run = run;
}

static struct qent heap_pop(struct shortq *q)
{
	struct qent top = q->heap[0], last = q->heap[--q->nheap];
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
	return top;
}

static void look_again(struct shortq *q, size_t run)
{
	if (run == NO_RUN)
		return;
	q->again =
	    xgrow(q->again, sizeof(*q->again), q->nagain + 1, &q->aagain);
	q->again[q->nagain++] = run;
}

static void look_now(struct shortq *q, size_t run)
{
	if (q->dead[run])
		return;
	q->look = xgrow(q->look, sizeof(*q->look), q->nlook + 1, &q->alook);
	q->look[q->nlook].key = q->runs[run].a;
	q->look[q->nlook++].run = run;
}

/* Run y (next of x, same label) joins x. */
static void absorb(struct shortq *q, size_t x, size_t y)
{
	q->runs[x].b = q->runs[y].b;
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
	size_t k, i, p, n, len, lp, ln;

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
		q->runs[i].label =
		    lp >= ln ? q->runs[p].label : q->runs[n].label;
		q->flipped = xgrow(q->flipped, sizeof(*q->flipped),
		                   q->nflipped + 1, &q->aflipped);
		q->flipped[q->nflipped++] = i;
	}
}

/* Merges equal neighbours, which only a flip can have made; a merged run
 * and its neighbours are looked at again, now or when the limit reaches
 * its new length. */
static void merge_flipped(struct shortq *q, size_t lim)
{
	size_t k, s, len;

	for (k = 0; k < q->nflipped; k++) {
		s = q->flipped[k];
		if (q->dead[s])
			continue;
		len = rlen(q, s);
		while (q->next[s] != NO_RUN &&
		       q->runs[q->next[s]].label == q->runs[s].label)
			absorb(q, s, q->next[s]);
		while (q->prev[s] != NO_RUN &&
		       q->runs[q->prev[s]].label == q->runs[s].label) {
			size_t p = q->prev[s];
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
static size_t merge_short(struct run *runs, size_t nr, size_t min)
{
	struct shortq q;
	size_t i, lim, out = 0;

	if (nr < 2 || min < 2)
		return nr;
	memset(&q, 0, sizeof(q));
	q.runs = runs;
	q.min = min;
	q.live = nr;
	q.prev = xmalloc(nr * sizeof(*q.prev));
	q.next = xmalloc(nr * sizeof(*q.next));
	q.dead = xcalloc(nr, 1);
	for (i = 0; i < nr; i++) {
		q.prev[i] = i ? i - 1 : NO_RUN;
		q.next[i] = i + 1 < nr ? i + 1 : NO_RUN;
		if (rlen(&q, i) < min)
			heap_push(&q, rlen(&q, i), i);
	}
	for (lim = 1; lim < min && q.live > 1; lim++) {
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
	/* run 0 is never absorbed (only a later run is): the list's head */
	for (i = 0; i != NO_RUN; i = q.next[i])
		runs[out++] = runs[i];
	free(q.prev);
	free(q.next);
	free(q.dead);
	free(q.heap);
	free(q.look);
	free(q.again);
	free(q.flipped);
	return out;
}

/* Step 2b: moves each boundary between two runs, within 2*w signature
 * kernels, to where the most signature kernels agree with their side. The
 * vote alone shifts a boundary towards a VAE whose attention mid-block sits
 * near its start; this puts it back on the change point. */
static void refine_boundaries(const unsigned char *sig, struct run *runs,
                              size_t nr, size_t w)
{
	size_t r, t;

	for (r = 0; r + 1 < nr; r++) {
		struct run *x = &runs[r], *y = &runs[r + 1];
		size_t b = x->b;
		size_t lo = x->a + 1 > (b > 2 * w ? b - 2 * w : 0) ? x->a + 1
		                                                   : b - 2 * w;
		size_t hi = y->b - 1 < b + 2 * w ? y->b - 1 : b + 2 * w;
		long score = 0, best = 0;
		size_t best_t = b;

		/* score(t) - score(b), walking left then right from b */
		for (t = b; t > lo; t--) {
			score += sig[t - 1] == y->label ? 1 : 0;
			score -= sig[t - 1] == x->label ? 1 : 0;
			if (score > best) {
				best = score;
				best_t = t - 1;
			}
		}
		score = 0;
		for (t = b; t < hi; t++) {
			score += sig[t] == x->label ? 1 : 0;
			score -= sig[t] == y->label ? 1 : 0;
			if (score > best) {
				best = score;
				best_t = t + 1;
			}
		}
		x->b = y->a = best_t;
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

static void label_kernels(const struct kernel *k, size_t n, const size_t *pos,
                          const struct run *runs, size_t nr,
                          unsigned char *stage)
{
	size_t r, i, from = 0, to;

	for (r = 0; r < nr; r++) {
		unsigned char st =
		    runs[r].label == SIG_DIT ? STAGE_DIT : STAGE_VAE;
		to = r + 1 < nr ? split_point(k, pos[runs[r].b - 1],
		                              pos[runs[r + 1].a]) +
		                      1
		                : n;
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
	uint64_t count;
	int64_t weight_ns;
};

static int cmp_window(const void *a, const void *b)
{
	uint64_t x = ((const struct window *)a)->h;
	uint64_t y = ((const struct window *)b)->h;
	return x < y ? -1 : x > y;
}

struct loop_ctx {
	const struct kernel *k;
	const unsigned char *cat; /* per key: enum category */
	size_t w;
	uint32_t anchor;    /* key of the anchor kernel */
	struct window *win; /* distinct windows, sorted by hash */
	size_t nwin;
	int64_t min_weight;  /* a loop window weighs at least this */
	uint64_t loop_count; /* and occurs about this often */
	size_t min_te;       /* fewest kernels that make a text encoder */
};

static const struct window *find_window(const struct loop_ctx *c, uint64_t h)
{
	struct window key = {h, 0, 0};
	return bsearch(&key, c->win, c->nwin, sizeof(key), cmp_window);
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

/* Collects every anchor window of the DiT ranges, then merges equal
 * hashes into c->win with their count and weight. */
static void collect_windows(struct loop_ctx *c, const unsigned char *stage,
                            size_t n)
{
	size_t i, s, e, m = 0, out = 0;
	struct window *v;

	for (i = 0; i < n; i++)
		m += stage[i] == STAGE_DIT && c->k[i].key == c->anchor;
	v = xmalloc((m ? m : 1) * sizeof(*v));
	m = 0;
	for (s = 0; s < n; s = e) {
		e = stage[s] == STAGE_DIT ? range_end(stage, n, s) : s + 1;
		for (i = s; stage[s] == STAGE_DIT && i < e; i++) {
			if (c->k[i].key != c->anchor)
				continue;
			v[m].h = window_hash(c->k, c->cat, i, e, c->w);
			v[m].count = 1;
			v[m++].weight_ns = c->k[i].dur_ns;
		}
	}
	qsort(v, m, sizeof(*v), cmp_window);
	for (i = 0; i < m; i++) {
		if (out && v[out - 1].h == v[i].h) {
			v[out - 1].count++;
			checked_accumulate(&v[out - 1].weight_ns,
			                   v[i].weight_ns);
		} else {
			v[out++] = v[i];
		}
	}
	c->win = v;
	c->nwin = out;
}

static void find_text_encoder(const struct kernel *k, size_t n,
                              const unsigned char *key_sig,
                              const unsigned char *key_cat, size_t nkeys,
                              const struct rules *r, struct stages_out *out)
{
	struct loop_ctx c = {k, key_cat, (size_t)r->loop_window,     0, NULL, 0,
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
	for (i = 0; i < c.nwin; i++)
		if (c.win[i].count >= 2 && c.win[i].weight_ns > maxw) {
			maxw = c.win[i].weight_ns;
			c.loop_count = c.win[i].count;
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
	free(c.win);
}

void stages_assign(const struct kernel *k, size_t n,
                   const unsigned char *key_sig, const unsigned char *key_cat,
                   const struct rules *r, struct stages_out *out)
{
	size_t i, m = 0, nr, nkeys = 0;
	size_t *pos;
	unsigned char *sig, *label;
	struct run *runs;

	memset(out, 0, sizeof(*out));
	out->stage = xmalloc(n ? n : 1);
	for (i = 0; i < n; i++) {
		m += key_sig[k[i].key] != SIG_NONE;
		nkeys = k[i].key + 1 > nkeys ? k[i].key + 1 : nkeys;
	}
	if (m == 0) {
		memset(out->stage, STAGE_OTHER, n);
		return;
	}
	pos = xmalloc(m * sizeof(*pos));
	sig = xmalloc(m);
	label = xmalloc(m);
	runs = xmalloc(m * sizeof(*runs));
	for (i = 0, m = 0; i < n; i++)
		if (key_sig[k[i].key] != SIG_NONE) {
			pos[m] = i;
			sig[m++] = key_sig[k[i].key];
		}
	vote(sig, m, (size_t)r->window, label);
	nr = make_runs(label, m, runs);
	nr = merge_short(runs, nr, (size_t)r->min_segment);
	refine_boundaries(sig, runs, nr, (size_t)r->window);
	label_kernels(k, n, pos, runs, nr, out->stage);
	find_text_encoder(k, n, key_sig, key_cat, nkeys, r, out);
	free(pos);
	free(sig);
	free(label);
	free(runs);
}

size_t stages_segments(const struct kernel *k, size_t n,
                       const unsigned char *stage, struct segment **segs)
{
	size_t i, ns = 0, alloc = 0;
	struct segment *v = NULL, *s = NULL;

	for (i = 0; i < n; i++) {
		int64_t end = k[i].start_ns + k[i].dur_ns;
		if (!s || s->stage != stage[i] || s->step != k[i].step) {
			v = xgrow(v, sizeof(*v), ns + 1, &alloc);
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
	return ns;
}
