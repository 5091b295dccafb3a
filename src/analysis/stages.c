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
 * 4a. The denoising loop by repetition: the iteration's compute-kernel
 *    sequence repeated back to back (>= 2 copies) within one pipeline
 *    call, at the period whose repeats cover the most kernel time, is the
 *    denoiser whatever its signature kernels voted (a UNet's ResBlocks are
 *    Conv/GroupNorm); so are the neutral kernels just before it (latent
 *    noise) back to the last signature kernel. 8 or more VAE signatures
 *    (Conv, GroupNorm, up/down sampling) per iteration make it a UNet.
 * 4. Text encoder: the denoising loop repeats the same kernel sequence every
 *    iteration and every block. DiT-labelled kernels before the first
 *    repetition of the loop's dominant window (less the iteration's own
 *    prologue, found by matching it against the next iteration's) are the
 *    text encoder; where step 4a found the loop's repeats, the loop's
 *    windows are those that occur inside them. In a range without the
 *    loop (an encoder
 *    before a VAE encode) it keeps its output's tail after the final
 *    norm.
 * 5. The DiT's prologue: after a VAE encode (a VAE range that no DiT kernel
 *    precedes within its profiler step and that the DiT follows), less
 *    what also precedes the loop's next iteration (its patch embedding),
 *    the kernels after the encode's last VAE-signature kernel (latent noise,
 *    concatenation, broadcast or scatter to the sequence-parallel group)
 *    prepare the DiT and are its own, wherever the host's idle gap fell. */
#include "analysis/stages.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "analysis/runs.h"
#include "util/checked.h"
#include "util/membudget.h"
#include "util/sortcmp.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* A host-side switch of pipeline stage idles the device far longer than a
 * kernel launch does: 20 us. */
#define IDLE_MIN_NS 20000

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
		if (!nr || runs_label(runs, nr - 1) != label[j])
			runs[nr++] = runs_make(j, label[j]);
	return nr;
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
		unsigned char xl = runs_label(runs, r),
		              yl = runs_label(runs, r + 1);
		size_t xa = runs_start(runs, r), b = runs_start(runs, r + 1),
		       yb = runs_end(runs, nr, m, r + 1);
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
		runs[r + 1] = runs_make(best_t, yl);
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
		if (runs_start(runs, r) == j)
			runs[r] = runs_make(i, runs_label(runs, r)), r++;
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
		    runs_label(runs, r) == SIG_DIT ? STAGE_DIT : STAGE_VAE;
		to = n;
		if (r + 1 < nr) {
			/* the run's last signature kernel, before the next
			 * run's first */
			last = runs_start(runs, r + 1) - 1;
			while (last > runs_start(runs, r) &&
			       key_sig[k[last].key] == SIG_NONE)
				last--;
			to = split_point(k, last, runs_start(runs, r + 1)) + 1;
		}
		for (i = from; i < to; i++)
			stage[i] = st;
		from = to;
	}
}

/* The loop's repeats (step 4a): kernels [lo, hi], ascending; at most
 * SPANS_MAX (a fixed 256 KiB; a profile has one or a few per pipeline
 * call, those past the cap are not used). */
#define SPANS_MAX 16384

struct spans {
	size_t lo[SPANS_MAX], hi[SPANS_MAX];
	size_t n;
};

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
	/* the windows inside the loop's repeats (step 4a), when found: a
	 * loop window is one of them */
	struct wtable span;
	int use_span;
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
	if (c->use_span && !wt_slot(&c->span, h)->count)
		return 0;
	return w && w->count >= 2 && w->weight_ns >= c->min_weight &&
	       w->count * 10 >= c->loop_count * 9 &&
	       w->count * 10 <= c->loop_count * 11;
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
	qsort(gaps, n, sizeof(gaps[0]), sortcmp_i64);
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

/* The heaviest of the windows at the anchor kernels inside the loop's
 * repeats: the loop's, where a text encoder's layers outweigh a short
 * loop's blocks (they repeat too, but not as the loop does). */
static int64_t span_max_window(struct loop_ctx *c, const struct spans *sp,
                               const unsigned char *stage, size_t n)
{
	int64_t maxw = 0;
	size_t q, i, e;

	for (q = 0; q < sp->n; q++) {
		if (stage[sp->lo[q]] != STAGE_DIT)
			continue;
		e = range_end(stage, n, sp->lo[q]);
		for (i = sp->lo[q]; i <= sp->hi[q] && i < e; i++) {
			const struct window *w;
			uint64_t h;
			if (c->k[i].key != c->anchor)
				continue;
			h = window_hash(c->k, c->cat, i, e, c->w);
			wt_add(&c->span, h, 1);
			w = find_window(c, h);
			if (w && w->count >= 2 && w->weight_ns > maxw) {
				maxw = w->weight_ns;
				c->loop_count = w->count;
			}
		}
	}
	return maxw;
}

static void find_text_encoder(const struct kernel *k, size_t n,
                              const unsigned char *key_sig,
                              const unsigned char *key_cat, size_t nkeys,
                              const struct rules *r, const struct spans *sp,
                              struct stages_out *out)
{
	struct loop_ctx c = {k, key_cat, (size_t)r->loop_window,      0,   {0},
	                     0, 0,       (size_t)r->min_text_encoder, {0}, 0};
	size_t i, s, e, ls;
	int64_t maxw = 0;
	int from_spans;

	c.anchor = pick_anchor(k, n, out->stage, key_sig, nkeys);
	if (c.anchor == UINT32_MAX)
		return;
	collect_windows(&c, out->stage, n);
	/* The loop's windows repeat blocks x iterations times and carry most
	 * of the time; a text encoder's layers repeat too, but its windows
	 * weigh far less (its sequence is short and it runs once per call). */
	wt_init(&c.span);
	from_spans = sp->n && (maxw = span_max_window(&c, sp, out->stage, n));
	c.use_span = from_spans;
	for (i = 0; !from_spans && i < c.win.cap; i++)
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
		 * after it (latent noise, timestep set-up) belong to the DiT
		 * that follows in the range. A range without the loop (the
		 * encoder before a VAE encode) is the encoder's to its end:
		 * its output's masking, casts and padding included */
		while (ls < e && ls > s && key_sig[k[ls - 1].key] == SIG_NONE)
			ls--;
		if (ls - s < (size_t)r->min_text_encoder)
			continue;
		for (i = s; i < ls; i++)
			out->stage[i] = STAGE_TEXT_ENCODER;
		out->text_encoder_detected = 1;
	}
	free(c.win.slot);
	free(c.span.slot);
}

/* ---- step 4a: the denoising loop by repetition --------------------------- */

/* The loop repeats one iteration's kernel sequence back to back: a tandem
 * repeat of period T (compute kernels; Comm kernels land wherever their
 * stream puts them). Candidate periods are the distances between equal
 * windows at the anchor kernels; the period whose tandem repeats (>= 2
 * copies) cover the most kernel time is the iteration, and what those
 * repeats cover is the denoiser, whatever its signature kernels vote: a
 * UNet's Conv/GroupNorm ResBlocks are no VAE. */

/* A DiT runs one or two convolutions per iteration (its patch embedding);
 * a UNet's ResBlocks, samplers and attention blocks' group norms are dozens
 * (SDXL: about 90): this many VAE-signature kernels per iteration or more
 * make the denoiser a UNet. */
#define UNET_MIN_VAE_SIG 8

/* Candidate periods tried, at most: the 8 distances between consecutive
 * equal windows that recur most, and 4 more to the 2nd to REP_NEXT-th
 * next equal window. With a cache, the iterations it hits repeat among
 * themselves, and the loop's period (a full iteration and its hits) is
 * the distance to a later one; paired that way alone, multiples of the
 * block would crowd out the iteration. */
#define REP_CANDIDATES 12
#define REP_NEXT       4

struct rep {
	uint32_t *key;  /* per compute kernel: its key */
	uint32_t *idx;  /* per compute kernel: its index in k */
	uint32_t *call; /* per compute kernel: its pipeline call */
	size_t m;       /* compute kernels */
};

/* Between two pipeline calls the host idles the device far longer than
 * between two iterations (the scheduler's step) or two stages: 1 ms. A
 * call is also a profiler step where the profile has them. Repeats never
 * span calls: the calls themselves repeat, and would cover every stage. */
#define CALL_IDLE_NS 1000000

/* The DiT-signature key with the most kernel time (the denoiser's
 * attention or matmul: a video VAE's convolutions may take more time). */
static uint32_t rep_anchor(const struct kernel *k, const struct rep *p,
                           const unsigned char *key_sig, size_t nkeys)
{
	int64_t *t = xcalloc(nkeys ? nkeys : 1, sizeof(*t));
	uint32_t best = UINT32_MAX;
	size_t j;

	for (j = 0; j < p->m; j++)
		if (key_sig[p->key[j]] == SIG_DIT)
			checked_accumulate(
			    &t[p->key[j]],
			    checked_add_sat(k[p->idx[j]].dur_ns, 1));
	for (j = 0; j < nkeys; j++)
		if (t[j] && (best == UINT32_MAX || t[j] > t[best]))
			best = (uint32_t)j;
	free(t);
	return best;
}

static uint64_t rep_hash(const struct rep *p, size_t j, size_t w)
{
	uint64_t h = 1469598103934665603ull;
	size_t e = j + w < p->m ? j + w : p->m, i;

	for (i = j; i < e; i++) {
		h ^= p->key[i] + 1;
		h *= 1099511628211ull;
	}
	return h ^ (uint64_t)(e - j);
}

struct rep_pos {
	uint64_t h;
	uint32_t pos;
};

static int cmp_rep_pos(const void *pa, const void *pb)
{
	const struct rep_pos *a = pa, *b = pb;

	if (a->h != b->h)
		return a->h < b->h ? -1 : 1;
	return (a->pos > b->pos) - (a->pos < b->pos);
}

static int cmp_u32(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	return (a > b) - (a < b);
}

/* Adds to cand (nc of them, at most REP_CANDIDATES) the up to `slots`
 * distances of at least dmin between an anchor window and its r-th next
 * equal one in its call (r0 <= r <= r1) that recur most (count x
 * distance: the kernels they would cover), leaving out those cand holds;
 * returns the new count. a holds na anchor windows sorted by hash, then
 * place; d has room for na x (r1 - r0 + 1) distances. */
static size_t rep_candidates(const struct rep *p, const struct rep_pos *a,
                             size_t na, size_t r0, size_t r1, size_t dmin,
                             size_t slots, uint32_t *d, uint32_t *cand,
                             size_t nc)
{
	size_t i, j, r, nd = 0, ns = 0, c;
	uint64_t cnt[REP_CANDIDATES] = {0}, sc;
	uint32_t top[REP_CANDIDATES];

	for (i = 0; i < na; i++)
		for (r = r0; r <= r1 && i + r < na && a[i + r].h == a[i].h &&
		             p->call[a[i + r].pos] == p->call[a[i].pos];
		     r++)
			if (a[i + r].pos - a[i].pos >= dmin)
				d[nd++] = a[i + r].pos - a[i].pos;
	qsort(d, nd, sizeof(*d), cmp_u32);
	for (i = 0; i < nd; i = j) {
		for (j = i; j < nd && d[j] == d[i]; j++)
			;
		for (c = 0; c < nc && cand[c] != d[i]; c++)
			;
		if (c < nc)
			continue;
		/* keep the `slots` that would cover the most kernels, by
		 * insertion */
		sc = (uint64_t)(j - i) * d[i];
		for (c = ns; c > 0 && cnt[c - 1] < sc; c--)
			if (c < slots) {
				cnt[c] = cnt[c - 1];
				top[c] = top[c - 1];
			}
		if (c < slots) {
			cnt[c] = sc;
			top[c] = d[i];
			ns += ns < slots;
		}
	}
	for (i = 0; i < ns && nc < REP_CANDIDATES; i++)
		cand[nc++] = top[i];
	return nc;
}

/* Whether compute kernels [a, b) repeat a unit shorter than t that
 * divides it (t/2, ..., t/8): a text encoder's layers repeated in threes
 * are one layer repeated; an iteration (blocks with the timestep
 * embedding before them and the scheduler after) is no repeat of a
 * shorter unit. */
static int rep_of_shorter(const struct rep *p, size_t a, size_t b, size_t t)
{
	size_t q, u, j;

	for (q = 2; q <= 8; q++) {
		if (t % q)
			continue;
		u = t / q;
		for (j = a; j + u < b && p->key[j] == p->key[j + u]; j++)
			;
		if (j + u >= b)
			return 1;
	}
	return 0;
}

/* The tandem repeats of period t within a call: compute kernels [a, c)
 * that each equal the one t later, at least t of them (2 copies), with
 * the last copy [c, c + t). Returns the kernel time of those that hold
 * DiT-signature kernels. When stage is given, relabels their VAE kernels
 * DiT, counts their VAE-signature kernels into sig[0] and their
 * iterations (whole periods) into sig[1]. */
static int64_t rep_regions(const struct kernel *k, const struct rep *p,
                           const unsigned char *key_sig, size_t t,
                           unsigned char *stage, uint64_t *sig,
                           struct spans *sp)
{
	size_t j = 0, a, c, i, lo, hi, dit;
	int64_t cover = 0, time;

	while (j + t < p->m) {
		if (p->key[j] != p->key[j + t] ||
		    p->call[j] != p->call[j + t]) {
			j++;
			continue;
		}
		for (a = j; j + t < p->m && p->key[j] == p->key[j + t] &&
		            p->call[j] == p->call[j + t];
		     j++)
			;
		c = j;
		if (c - a < t || rep_of_shorter(p, a, c + t, t))
			continue;
		lo = p->idx[a];
		hi = p->idx[c + t - 1];
		for (i = lo, dit = 0, time = 0; i <= hi; i++) {
			checked_accumulate(&time, k[i].dur_ns);
			dit += key_sig[k[i].key] == SIG_DIT;
		}
		/* a denoiser's blocks hold attention and matmuls; a VAE's
		 * repeated ResBlocks none */
		if (dit < 2)
			continue;
		checked_accumulate(&cover, time);
		if (!stage)
			continue;
		for (i = lo; i <= hi; i++) {
			if (stage[i] == STAGE_VAE)
				stage[i] = STAGE_DIT;
			sig[0] += key_sig[k[i].key] == SIG_VAE;
		}
		sig[1] += (c + t - a) / t;
		if (sp->n < SPANS_MAX) {
			sp->lo[sp->n] = lo;
			sp->hi[sp->n++] = hi;
		}
		/* what prepares the loop (latent noise, mask lengths) runs
		 * right before its first iteration, after the last signature
		 * kernel of what came before */
		for (i = lo; i > 0 && k[i - 1].step == k[lo].step &&
		             stage[i - 1] == STAGE_VAE &&
		             key_sig[k[i - 1].key] == SIG_NONE &&
		             checked_sub_sat(k[i].start_ns,
		                             checked_add_sat(k[i - 1].start_ns,
		                                             k[i - 1].dur_ns)) <
		                 CALL_IDLE_NS;
		     i--)
			stage[i - 1] = STAGE_DIT;
	}
	return cover;
}

/* Relabels the loop's tandem repeats as DiT (the denoiser); *unet set when
 * they hold a UNet's VAE-signature kernels (Conv, GroupNorm, up/down
 * sampling: UNET_MIN_VAE_SIG per iteration or more, where a DiT has its
 * patch embedding). 0, or -1 when the budget refuses the work lists. */
static int loop_by_repetition(const struct kernel *k, size_t n,
                              const unsigned char *key_sig,
                              const unsigned char *key_cat, size_t nkeys,
                              const struct rules *r, unsigned char *stage,
                              int *unet, struct spans *sp, struct err *e)
{
	struct rep p = {NULL, NULL, NULL, 0};
	int64_t end = INT64_MIN;
	uint32_t call = 0;
	struct rep_pos *a;
	uint32_t anchor, cand[REP_CANDIDATES], *d;
	size_t i, j, na = 0, nc,
	             w = r->loop_window > 0 ? (size_t)r->loop_window : 16,
	             best_t = 0;
	int64_t best = 0;
	uint64_t cost, sig[2] = {0, 0}; /* VAE signatures, iterations */

	*unet = 0;
	for (i = 0; i < n; i++)
		p.m += key_cat[k[i].key] != CAT_COMM;
	if (p.m < 4 || n > UINT32_MAX)
		return 0;
	cost = (uint64_t)p.m * ((3 + REP_NEXT) * sizeof(uint32_t) + sizeof(*a));
	if (membudget_charge(cost))
		return membudget_fail(e, cost,
		                      "denoising loop: %zu compute kernels to "
		                      "match",
		                      p.m);
	p.key = xmalloc(p.m * sizeof(*p.key));
	p.idx = xmalloc(p.m * sizeof(*p.idx));
	p.call = xmalloc(p.m * sizeof(*p.call));
	a = xmalloc(p.m * sizeof(*a));
	d = xmalloc(p.m * REP_NEXT * sizeof(*d));
	for (i = 0, j = 0; i < n; i++) {
		if (i > 0 &&
		    (k[i].step != k[i - 1].step ||
		     checked_sub_sat(k[i].start_ns, end) >= CALL_IDLE_NS))
			call++;
		if (checked_add_sat(k[i].start_ns, k[i].dur_ns) > end)
			end = checked_add_sat(k[i].start_ns, k[i].dur_ns);
		if (key_cat[k[i].key] != CAT_COMM) {
			p.key[j] = k[i].key;
			p.call[j] = call;
			p.idx[j++] = (uint32_t)i;
		}
	}
	anchor = rep_anchor(k, &p, key_sig, nkeys);
	for (j = 0; j < p.m; j++)
		if (p.key[j] == anchor) {
			a[na].h = rep_hash(&p, j, w);
			a[na++].pos = (uint32_t)j;
		}
	/* an iteration runs at least a block and the timestep and scheduler
	 * work around it: more than two windows */
	qsort(a, na, sizeof(*a), cmp_rep_pos);
	nc = rep_candidates(&p, a, na, 1, 1, 2 * w, 8, d, cand, 0);
	nc = rep_candidates(&p, a, na, 2, REP_NEXT, 2 * w, 4, d, cand, nc);
	for (i = 0; i < nc; i++) {
		int64_t c =
		    rep_regions(k, &p, key_sig, cand[i], NULL, NULL, NULL);
		if (c > best || (c == best && c > 0 && cand[i] < best_t)) {
			best = c;
			best_t = cand[i];
		}
	}
	if (best_t) {
		rep_regions(k, &p, key_sig, best_t, stage, sig, sp);
		*unet = sig[1] > 0 && sig[0] >= UNET_MIN_VAE_SIG * sig[1];
	}
	free(a);
	free(d);
	free(p.key);
	free(p.idx);
	free(p.call);
	membudget_release(cost);
	return 0;
}

/* ---- step 5: the DiT's prologue ----------------------------------------- */

/* Places of the DiT range's first window tried for its next iteration. */
#define HEAD_TRIES 4096

/* Where the loop's first iteration begins, at or before b (the first DiT
 * kernel after an encode [a, b)): what ends the encode range and also
 * precedes the same window at its next place in the DiT range (the next
 * iteration's head: the patch embedding, a convolution the encode's
 * neighbours outvoted) is the loop's. b when the window has no next
 * place. */
static size_t head_before(const struct kernel *k, size_t n,
                          const unsigned char *key_cat, unsigned char *stage,
                          size_t a, size_t b, size_t w)
{
	size_t e = range_end(stage, n, b), j, tries = 0;
	uint64_t h = window_hash(k, key_cat, b, e, w);

	for (j = b + 1; j < e && tries < HEAD_TRIES; j++) {
		if (k[j].key != k[b].key)
			continue;
		tries++;
		if (window_hash(k, key_cat, j, e, w) == h)
			return common_start(k, key_cat, a, b, j);
	}
	return b;
}

/* The VAE range [a, b) of one profiler step: an encode when the DiT's loop
 * follows it in the same step and no DiT kernel precedes it there (a
 * decode follows the loop). Its kernels after its last VAE-signature
 * kernel before the loop's first iteration go to the DiT. */
static void prologue_to_dit(const struct kernel *k, size_t n,
                            const unsigned char *key_sig,
                            const unsigned char *key_cat, size_t w,
                            unsigned char *stage, size_t a, size_t b)
{
	size_t last;

	if (b >= n || stage[b] != STAGE_DIT || k[b].step != k[a].step)
		return;
	if (a > 0 && k[a - 1].step == k[a].step && stage[a - 1] == STAGE_DIT)
		return;
	last = head_before(k, n, key_cat, stage, a, b, w);
	while (last > a && key_sig[k[last - 1].key] != SIG_VAE)
		last--;
	if (last == a)
		return; /* no VAE signature: not an encode */
	memset(stage + last, STAGE_DIT, b - last);
}

static void give_prologues(const struct kernel *k, size_t n,
                           const unsigned char *key_sig,
                           const unsigned char *key_cat, size_t w,
                           unsigned char *stage)
{
	size_t a, b;

	for (a = 0; a < n; a = b) {
		b = a + 1;
		if (stage[a] != STAGE_VAE)
			continue;
		while (b < n && stage[b] == STAGE_VAE && k[b].step == k[a].step)
			b++;
		prologue_to_dit(k, n, key_sig, key_cat, w, stage, a, b);
	}
}

int stages_assign(const struct kernel *k, size_t n,
                  const unsigned char *key_sig, const unsigned char *key_cat,
                  const struct rules *r, struct stages_out *out, struct err *e)
{
	size_t i, m = 0, nr, nkeys = 0;
	unsigned char *sig, *label;
	uint32_t *runs;
	uint64_t need;
	struct spans *sp;

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
	if (runs_merge_short(runs, &nr, m, (size_t)r->min_segment, &need)) {
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
	sp = xmalloc(sizeof(*sp));
	sp->n = 0;
	if (loop_by_repetition(k, n, key_sig, key_cat, nkeys, r, out->stage,
	                       &out->unet, sp, e)) {
		free(sp);
		return -1;
	}
	find_text_encoder(k, n, key_sig, key_cat, nkeys, r, sp, out);
	free(sp);
	give_prologues(k, n, key_sig, key_cat,
	               r->loop_window > 0 ? (size_t)r->loop_window : 16,
	               out->stage);
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
