/* Denoising iterations: the loop cut where its head repeats, each
 * iteration counted and timed, cache hits told from what they leave out.
 * Why a head and not a fixed period: a cache changes the length of the
 * iterations it hits, so the loop has no single period; the kernels that
 * open each iteration (timestep embedding, patch embedding) run whether
 * the blocks are cached or not. */
#include "analysis/iterations.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/e2e.h"
#include "util/checked.h"
#include "util/membudget.h"
#include "util/sortcmp.h"
#include "util/xalloc.h"
#include "util/banned.h"

const char *const iter_hit_names[3] = {"full", "dit", "attention"};
const char *const cache_kind_names[3] = {"none", "dit", "attention"};

/* Kernels of a block compared to recognise it: enough to tell a full
 * block from a cached one, few enough that a hostile profile (one kernel
 * type everywhere) costs at most this many comparisons per kernel. */
#define ITER_BLOCK_MAX 64

/* Kernels two sequences are compared back at most. */
#define AGREE_MAX 4096

/* Places of the head tried against the first block's place. */
#define MATCH_TRIES 4096

static int is_comm(const struct iter_input *in, size_t i)
{
	return in->key_cat[in->k[i].key] == CAT_COMM;
}

static int is_dit(const struct iter_input *in, size_t i)
{
	return in->stage[i] == STAGE_DIT;
}

/* The DiT range [s, e) that begins at s: DiT kernels of one Step Id. */
static size_t range_end(const struct iter_input *in, size_t s)
{
	size_t e = s + 1;

	while (e < in->n && is_dit(in, e) && in->k[e].step == in->k[s].step)
		e++;
	return e;
}

/* FNV-1a over the keys of the next w compute kernels from i (Comm kernels
 * land wherever their stream puts them: left out). */
static uint64_t window_hash(const struct iter_input *in, size_t i, size_t e,
                            size_t w)
{
	uint64_t h = 1469598103934665603ull;
	size_t j, used = 0;

	for (j = i; j < e && used < w; j++) {
		if (is_comm(in, j))
			continue;
		h ^= in->k[j].key + 1;
		h *= 1099511628211ull;
		used++;
	}
	return h ^ (uint64_t)used;
}

/* The DiT-signature key with the most DiT time, UINT32_MAX if none. */
static uint32_t pick_anchor(const struct iter_input *in)
{
	int64_t *t = xcalloc(in->nkeys ? in->nkeys : 1, sizeof(*t));
	uint32_t best = UINT32_MAX;
	size_t i;

	for (i = 0; i < in->n; i++)
		if (is_dit(in, i) && in->key_sig[in->k[i].key] == SIG_DIT)
			checked_accumulate(&t[in->k[i].key],
			                   checked_add_sat(in->k[i].dur_ns, 1));
	for (i = 0; i < in->nkeys; i++)
		if (t[i] && (best == UINT32_MAX || t[i] > t[best]))
			best = (uint32_t)i;
	free(t);
	return best;
}

/* A window at an anchor kernel. */
struct win {
	uint64_t h;
	int64_t weight;
	size_t pos;
	size_t range; /* start of its DiT range */
};

static int cmp_win(const void *pa, const void *pb)
{
	const struct win *a = pa, *b = pb;

	if (a->h != b->h)
		return a->h < b->h ? -1 : 1;
	return (a->pos > b->pos) - (a->pos < b->pos);
}

static int64_t group_weight(const struct win *w, size_t m, size_t i, size_t *j)
{
	int64_t sum = 0;

	for (*j = i; *j < m && w[*j].h == w[i].h; (*j)++)
		checked_accumulate(&sum, w[*j].weight);
	return sum;
}

/* The block signature: of the windows that repeat, weigh at least a
 * twentieth of the heaviest in all and half the heaviest per place, the
 * one that comes first. The heaviest alone may be a cache hit's block (an
 * AttentionCache's FFN-only blocks outnumber the full ones), while a
 * call's first iteration always runs in full; per place, a full block's
 * window (from the QKV projection) weighs about what a hit's does (from
 * the FFN), a timestep embedding's far less. *first is its group in w
 * (sorted by hash, then place), *count its size. Returns 0 if no window
 * repeats. */
static int heaviest(const struct win *w, size_t m, size_t *first, size_t *count)
{
	size_t i, j;
	int64_t best = -1, best_mean = 0, sum;
	int found = 0;

	for (i = 0; i < m; i = j) {
		sum = group_weight(w, m, i, &j);
		if (j - i < 2)
			continue;
		best = sum > best ? sum : best;
		if (sum / (int64_t)(j - i) > best_mean)
			best_mean = sum / (int64_t)(j - i);
	}
	for (i = 0; i < m && best >= 0; i = j) {
		sum = group_weight(w, m, i, &j);
		if (j - i < 2 || sum < best / 20 ||
		    sum / (int64_t)(j - i) < best_mean / 2 ||
		    (found && w[i].pos > w[*first].pos))
			continue;
		*first = i;
		*count = j - i;
		found = 1;
	}
	return found;
}

/* How far back from i the compute-kernel sequences before i and before j
 * agree (j > i); the index where the agreement starts. */
static size_t common_start(const struct iter_input *in, size_t lo, size_t i,
                           size_t j)
{
	size_t start = i, steps = 0;

	for (;;) {
		while (i > lo && is_comm(in, i - 1))
			i--;
		while (j > i && is_comm(in, j - 1))
			j--;
		/* bounded: MATCH_TRIES places each walk at most AGREE_MAX
		 * back, whatever a profile of one kernel type repeats */
		if (i == lo || j <= i || in->k[i - 1].key != in->k[j - 1].key ||
		    ++steps > AGREE_MAX)
			return start;
		start = --i;
		j--;
	}
}

/* Compute kernels in [a, b). */
static size_t compute_in(const struct iter_input *in, size_t a, size_t b)
{
	size_t n = 0;

	for (; a < b; a++)
		n += !is_comm(in, a);
	return n;
}

/* The kernel c compute kernels before a (c >= 1), or SIZE_MAX before lo. */
static size_t back(const struct iter_input *in, size_t lo, size_t a, size_t c)
{
	while (c && a > lo) {
		a--;
		c -= !is_comm(in, a);
	}
	return c ? SIZE_MAX : a;
}

/* Idle device time before kernel x: from the latest end of the few
 * kernels before it (a collective may still run). */
static int64_t idle_before(const struct iter_input *in, size_t lo, size_t x)
{
	int64_t end = INT64_MIN;
	size_t y;

	if (x == SIZE_MAX || x <= lo)
		return 0;
	for (y = x > lo + 8 ? x - 8 : lo; y < x; y++)
		if (checked_add_sat(in->k[y].start_ns, in->k[y].dur_ns) > end)
			end =
			    checked_add_sat(in->k[y].start_ns, in->k[y].dur_ns);
	return in->k[x].start_ns > end ? in->k[x].start_ns - end : 0;
}

/* Where the head begins within [l0, b0): the sequences before the first
 * block and before the later ones may agree further back than the
 * iteration starts (a prologue ending with the same Cast as an
 * iteration's tail). The host leaves the device idle where a new
 * iteration begins (the scheduler's step): of the places in [l0, b0),
 * the one with the most idle time before it, summed over the first
 * aligned iterations (places g[0..cnt) whose agreement reaches as far). */
static size_t head_start(const struct iter_input *in, const struct win *g,
                         size_t cnt, size_t l0, size_t b0)
{
	size_t a0 = g[0].pos, lo = g[0].range, ha = compute_in(in, l0, a0);
	size_t hl = compute_in(in, l0, b0), o, j, best = 0, aligned[8], na = 0;
	int64_t best_idle = -1;

	for (j = 0; j < cnt && j <= MATCH_TRIES && na < 8; j++) {
		if (g[j].range != lo)
			break;
		if (!j || common_start(in, lo, a0, g[j].pos) <= l0)
			aligned[na++] = g[j].pos;
	}
	for (o = 0; o < hl && o < ha; o++) {
		int64_t idle = 0;
		for (j = 0; j < na; j++)
			checked_accumulate(
			    &idle,
			    idle_before(in, lo,
			                back(in, lo, aligned[j], ha - o)));
		if (idle > best_idle) {
			best_idle = idle;
			best = o;
		}
	}
	return best ? back(in, lo, a0, ha - best) : l0;
}

/* What splitting needs: the head's keys, the block signature. */
struct plan {
	uint32_t head[ITER_HEAD_MAX];
	size_t nhead;
	uint32_t anchor;
	size_t w;
	/* a block: blk_len compute kernels of the keys blk (blk_len 0:
	 * blocks not counted) */
	uint32_t blk[ITER_BLOCK_MAX];
	size_t blk_len;
};

/* Every anchor kernel's window of the DiT ranges into w (m of them). */
static size_t collect_windows(const struct iter_input *in, const struct plan *p,
                              struct win *w)
{
	size_t i, s, m = 0, end;

	for (s = 0; s < in->n; s = end) {
		if (!is_dit(in, s)) {
			end = s + 1;
			continue;
		}
		end = range_end(in, s);
		for (i = s; i < end; i++)
			if (in->k[i].key == p->anchor) {
				w[m].h = window_hash(in, i, end, p->w);
				w[m].weight = in->k[i].dur_ns;
				w[m].pos = i;
				w[m++].range = s;
			}
	}
	return m;
}

/* The block that the places g[0] and g[1] open (cnt >= 2, one range):
 * from where their sequences agree back to, as long as the distance
 * between them; its keys into p. Returns its first kernel, or g[0]'s
 * place when there is no second place. */
static size_t find_block(const struct iter_input *in, const struct win *g,
                         size_t cnt, struct plan *p)
{
	size_t i, pb = 0, b0;

	if (cnt < 2 || g[1].range != g[0].range)
		return g[0].pos;
	b0 = common_start(in, g[0].range, g[0].pos, g[1].pos);
	for (i = g[0].pos; i < g[1].pos; i++)
		pb += !is_comm(in, i);
	while (b0 < g[0].pos && is_comm(in, b0))
		b0++;
	pb = pb < ITER_BLOCK_MAX ? pb : ITER_BLOCK_MAX;
	for (i = b0; i < g[1].pos && p->blk_len < pb; i++)
		if (!is_comm(in, i))
			p->blk[p->blk_len++] = in->k[i].key;
	return b0;
}

/* The head before the first block g[0]: what the later places of the
 * same window in its range repeat before it, from where the host idles
 * most (head_start) to where the block starts (b0). 0 when found. */
static int find_head(const struct iter_input *in, const struct win *g,
                     size_t cnt, size_t b0, struct plan *p)
{
	size_t i, a0 = g[0].pos, lo = g[0].range, l0 = a0;

	for (i = 1; i < cnt && i <= MATCH_TRIES; i++) {
		size_t cs;
		if (g[i].range != lo)
			break;
		cs = common_start(in, lo, a0, g[i].pos);
		l0 = cs < l0 ? cs : l0;
	}
	/* no head before the blocks: the places all lie in one iteration
	 * (a single full one), or the iterations do not open with kernels of
	 * their own; either way they cannot be told apart */
	if (b0 <= l0)
		return 1;
	l0 = head_start(in, g, cnt, l0, b0);
	for (i = l0; i < b0 && p->nhead < ITER_HEAD_MAX; i++)
		if (!is_comm(in, i))
			p->head[p->nhead++] = in->k[i].key;
	return p->nhead ? 0 : 1;
}

/* Steps 1 and 2: the block signature and the head. 0 when found, 1 when
 * not, -1 when the budget refuses the windows. */
static int make_plan(const struct iter_input *in, const struct rules *ru,
                     struct plan *p, struct err *e)
{
	struct win *w = NULL;
	size_t i, m = 0, g = 0, cnt = 0;
	uint64_t cost;
	int ret = 1;

	memset(p, 0, sizeof(*p));
	p->w = ru->loop_window > 0 ? (size_t)ru->loop_window : 16;
	p->anchor = pick_anchor(in);
	if (p->anchor == UINT32_MAX)
		return 1;
	for (i = 0; i < in->n; i++)
		m += is_dit(in, i) && in->k[i].key == p->anchor;
	cost = (uint64_t)m * sizeof(*w);
	if (membudget_charge(cost))
		return membudget_fail(e, cost,
		                      "denoising iterations: %zu windows", m);
	w = xmalloc((m ? m : 1) * sizeof(*w));
	m = collect_windows(in, p, w);
	qsort(w, m, sizeof(*w), cmp_win);
	if (heaviest(w, m, &g, &cnt))
		ret =
		    find_head(in, w + g, cnt, find_block(in, w + g, cnt, p), p);
	free(w);
	membudget_release(cost);
	return ret;
}

/* Whether the compute kernels from i (within [i, e)) have the keys
 * want[0..n); stops at the first that differs. */
static int seq_at(const struct iter_input *in, const uint32_t *want, size_t n,
                  size_t i, size_t e)
{
	size_t j = 0;

	for (; i < e && j < n; i++)
		if (!is_comm(in, i) && in->k[i].key != want[j++])
			return 0;
	return j == n;
}

/* The head matches at compute kernel i (within [i, e)): the index after
 * its last kernel, or 0. */
static size_t head_at(const struct iter_input *in, const struct plan *p,
                      size_t i, size_t e)
{
	size_t j = 0;

	for (; i < e && j < p->nhead; i++) {
		if (is_comm(in, i))
			continue;
		if (in->k[i].key != p->head[j++])
			return 0;
	}
	return j == p->nhead ? i : 0;
}

/* A growing list of iterations charged to the budget. */
struct ilist {
	struct iteration *v;
	size_t n, alloc;
};

static int push_iter(struct ilist *l, const struct iteration *it, struct err *e)
{
	if (l->n == l->alloc &&
	    membudget_grow(&l->v, sizeof(*l->v), l->n + 1, &l->alloc))
		return membudget_fail(e, sizeof(*l->v) * (l->n + 1),
		                      "denoising iterations: %zu iterations",
		                      l->n + 1);
	l->v[l->n++] = *it;
	return 0;
}

/* Counts and times kernels [a, b) as iteration it. */
static void measure(const struct iter_input *in, const struct plan *p, size_t a,
                    size_t b, size_t e, struct iteration *it)
{
	int64_t end = in->k[a].start_ns;
	size_t i;

	it->start_ns = in->k[a].start_ns;
	it->step = in->k[a].step;
	for (i = a; i < b; i++) {
		const struct kernel *k = &in->k[i];
		int64_t ke = checked_add_sat(k->start_ns, k->dur_ns);
		end = ke > end ? ke : end;
		it->kernels++;
		if (in->key_cat[k->key] == CAT_FA &&
		    in->key_part[k->key] == FA_PART_ATTENTION)
			it->attention++;
		if (in->key_cat[k->key] == CAT_MATMUL)
			it->matmul++;
		if (p->blk_len && k->key == p->blk[0] &&
		    seq_at(in, p->blk, p->blk_len, i, e))
			it->blocks++;
	}
	it->dur_ns = checked_sub_sat(end, it->start_ns);
}

/* Step 3 over one DiT range [s, e): its iterations, call number call. */
static int split_range(const struct iter_input *in, const struct plan *p,
                       size_t s, size_t e, uint32_t call, struct ilist *l,
                       int *any, struct err *e_)
{
	size_t i, next, start = SIZE_MAX;
	uint32_t idx = 0;
	struct iteration it;

	*any = 0;
	for (i = s; i < e; i = next) {
		size_t after = is_comm(in, i) ? 0 : head_at(in, p, i, e);
		next = after ? after : i + 1;
		if (!after)
			continue;
		if (start != SIZE_MAX) {
			memset(&it, 0, sizeof(it));
			it.call = call;
			it.index = idx++;
			measure(in, p, start, i, e, &it);
			if (push_iter(l, &it, e_))
				return -1;
		}
		start = i;
	}
	if (start == SIZE_MAX)
		return 0;
	memset(&it, 0, sizeof(it));
	it.call = call;
	it.index = idx;
	measure(in, p, start, e, e, &it);
	*any = 1;
	return push_iter(l, &it, e_);
}

/* ---- classification ------------------------------------------------------ */

static uint64_t median_u64(uint64_t *v, size_t n)
{
	size_t i, j;

	/* insertion sort: called on the reference iterations' counts */
	for (i = 1; i < n; i++) {
		uint64_t x = v[i];
		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	return n ? v[(n - 1) / 2] : 0;
}

/* The full iterations' yardsticks: medians over those with at least 3/4
 * of the most kernels. */
struct yard {
	uint64_t kernels, attention, matmul, blocks;
};

static int yardstick(const struct ilist *l, struct yard *y)
{
	uint64_t kmax = 0, *v[4];
	size_t i, m = 0, q;
	uint64_t cost = 4 * sizeof(uint64_t) * (uint64_t)l->n;

	for (i = 0; i < l->n; i++)
		kmax = l->v[i].kernels > kmax ? l->v[i].kernels : kmax;
	if (membudget_charge(cost))
		return -1;
	for (q = 0; q < 4; q++)
		v[q] = xmalloc((l->n ? l->n : 1) * sizeof(uint64_t));
	for (i = 0; i < l->n; i++) {
		const struct iteration *it = &l->v[i];
		if (it->kernels * 4 < kmax * 3)
			continue;
		v[0][m] = it->kernels;
		v[1][m] = it->attention;
		v[2][m] = it->matmul;
		v[3][m++] = it->blocks;
	}
	y->kernels = median_u64(v[0], m);
	y->attention = median_u64(v[1], m);
	y->matmul = median_u64(v[2], m);
	y->blocks = median_u64(v[3], m);
	for (q = 0; q < 4; q++)
		free(v[q]);
	membudget_release(cost);
	return 0;
}

static enum iter_hit classify(const struct iteration *it, const struct yard *y)
{
	double fa, fm;

	if (y->attention && y->matmul) {
		fa = (double)it->attention / (double)y->attention;
		fm = (double)it->matmul / (double)y->matmul;
		/* attention gone, the FFN's MatMuls still there */
		if (fa <= 0.5 && fm - fa >= 0.25)
			return ITER_HIT_ATTENTION;
	}
	if (it->kernels * 2 <= y->kernels)
		return ITER_HIT_DIT;
	return ITER_FULL;
}

static int cmp_i64(const void *a, const void *b)
{
	return sortcmp_i64(a, b);
}

/* Median duration of the full iterations; flags the slow ones. */
static int full_median(struct ilist *l, double factor, struct iter_summary *o)
{
	uint64_t cost = sizeof(int64_t) * (uint64_t)l->n;
	int64_t *d;
	size_t i, m = 0;

	if (membudget_charge(cost))
		return -1;
	d = xmalloc((l->n ? l->n : 1) * sizeof(*d));
	for (i = 0; i < l->n; i++)
		if (l->v[i].hit == ITER_FULL)
			d[m++] = l->v[i].dur_ns;
	qsort(d, m, sizeof(*d), cmp_i64);
	o->full = m;
	o->median_ns = m ? d[(m - 1) / 2] : 0;
	free(d);
	membudget_release(cost);
	for (i = 0; i < l->n && o->median_ns > 0; i++) {
		struct iteration *it = &l->v[i];
		if (it->hit != ITER_FULL ||
		    (double)it->dur_ns < factor * (double)o->median_ns)
			continue;
		it->outlier = it->index == 0 ? 1 : 2;
		o->outliers++;
	}
	return 0;
}

/* The cache's period: the most frequent gap between consecutive full
 * iterations of a call that have hits between them. */
static void cache_period(const struct ilist *l, struct cache_seen *c)
{
	uint64_t count[64] = {0};
	size_t i, last = SIZE_MAX, g, best = 0;
	int other = 0;

	for (i = 0; i < l->n; i++) {
		const struct iteration *it = &l->v[i];
		if (last != SIZE_MAX && l->v[last].call != it->call)
			last = SIZE_MAX;
		if (it->hit != ITER_FULL)
			continue;
		if (last != SIZE_MAX && it->index - l->v[last].index > 1) {
			g = it->index - l->v[last].index;
			if (g < 64)
				count[g]++;
			else
				other = 1;
		}
		last = i;
	}
	for (g = 2; g < 64; g++)
		if (count[g] > count[best])
			best = g;
	c->period = count[best] ? best : 0;
	c->regular = c->period && !other;
	for (g = 2; g < 64 && c->regular; g++)
		if (count[g] && g != best)
			c->regular = 0;
}

static void summarise(struct ilist *l, const struct yard *y, double factor,
                      struct iter_summary *o)
{
	uint64_t nk[3] = {0};
	size_t i, calls = 0, first = 0;

	for (i = 0; i < l->n; i++) {
		l->v[i].hit = (unsigned char)classify(&l->v[i], y);
		nk[l->v[i].hit]++;
	}
	o->blocks = y->blocks;
	o->median_kernels = y->kernels;
	o->outlier_factor = factor;
	o->suggest_period = ITER_SUGGEST_PERIOD;
	for (i = 0; i <= l->n; i++) {
		/* a call's loop: first start to last end; what a cache at
		 * the suggested period would skip of its iterations */
		if (i < l->n && (i == 0 || l->v[i].call == l->v[i - 1].call))
			continue;
		if (i > 0) {
			const struct iteration *a = &l->v[first],
			                       *b = &l->v[i - 1];
			uint64_t n = b->index + 1u;
			checked_accumulate(
			    &o->loop_ns,
			    checked_sub_sat(
			        checked_add_sat(b->start_ns, b->dur_ns),
			        a->start_ns));
			o->would_skip += n - (n + ITER_SUGGEST_PERIOD - 1) /
			                         ITER_SUGGEST_PERIOD;
			calls++;
		}
		first = i;
	}
	o->calls = calls;
	if (nk[ITER_HIT_DIT] + nk[ITER_HIT_ATTENTION] >= 2) {
		o->cache.kind = nk[ITER_HIT_ATTENTION] > nk[ITER_HIT_DIT]
		                    ? CACHE_ATTENTION
		                    : CACHE_DIT;
		o->cache.hits = nk[ITER_HIT_DIT] + nk[ITER_HIT_ATTENTION];
		cache_period(l, &o->cache);
	}
}

static void saved(const struct ilist *l, struct iter_summary *o)
{
	size_t i;

	if (o->cache.kind == CACHE_NONE)
		return;
	for (i = 0; i < l->n; i++)
		if (l->v[i].hit != ITER_FULL && l->v[i].dur_ns < o->median_ns)
			checked_accumulate(&o->cache.saved_ns,
			                   o->median_ns - l->v[i].dur_ns);
}

static int split_all(const struct iter_input *in, const struct plan *p,
                     struct ilist *l, struct err *e)
{
	size_t s, end;
	uint32_t call = 0;
	int any;

	for (s = 0; s < in->n; s = end) {
		if (!is_dit(in, s)) {
			end = s + 1;
			continue;
		}
		end = range_end(in, s);
		if (split_range(in, p, s, end, call, l, &any, e))
			return -1;
		call += any ? 1 : 0;
	}
	return 0;
}

int iterations_find(const struct iter_input *in, const struct rules *ru,
                    struct iter_summary *out, struct err *e)
{
	struct ilist l = {NULL, 0, 0};
	struct plan p;
	struct yard y;
	int ret = -1, pr;

	memset(out, 0, sizeof(*out));
	pr = make_plan(in, ru, &p, e);
	if (pr)
		return pr < 0 ? -1 : 0;
	if (split_all(in, &p, &l, e))
		goto out;
	if (!l.n) {
		ret = 0;
		goto out;
	}
	if (yardstick(&l, &y) || (summarise(&l, &y, ru->outlier_factor, out),
	                          full_median(&l, ru->outlier_factor, out))) {
		membudget_fail(e, sizeof(uint64_t) * 4 * (uint64_t)l.n,
		               "denoising iterations: medians of %zu "
		               "iterations",
		               l.n);
		goto out;
	}
	/* a denoising loop runs transformer blocks, and a cache computes in
	 * full more than once: a sequence that repeats in another kind of
	 * profile (a training step, a decode loop) is no loop */
	ret = 0;
	if (out->full < 2 || y.blocks < 1) {
		memset(out, 0, sizeof(*out));
		goto out;
	}
	saved(&l, out);
	out->found = 1;
	out->head = p.nhead;
	out->total = l.n;
	out->n = l.n < RESULT_MAX_ITERS ? l.n : RESULT_MAX_ITERS;
	out->v = xmalloc(out->n * sizeof(*out->v));
	memcpy(out->v, l.v, out->n * sizeof(*out->v));
out:
	membudget_shrink(&l.v, sizeof(*l.v), 0, &l.alloc);
	free(l.v);
	return ret;
}

void iter_summary_release(struct iter_summary *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}

double iterations_loop_share(const struct result *r)
{
	if (!r->iters.found || !r->e2e.known || r->e2e.busy_ns <= 0)
		return -1;
	return e2e_share(r, r->iters.loop_ns);
}
