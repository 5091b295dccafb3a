/* timeline.c: one compute stream plus one HCCL stream, placed in integer
 * nanoseconds. Comm overlap is constructed, not measured: each collective
 * gets an overlap budget and the compute stream stalls once it is spent. */
#include "timeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"
#include "banned.h"

/* 2026-01-01T00:00:00Z. */
#define EPOCH_2026_S 1767225600LL
#define NS_PER_S     1000000000LL
#define US           1000LL

int64_t tl_origin_ns(const struct opts *o, int rank)
{
	/* Some second of the first ~300 days of 2026, 9:00-17:00 UTC-ish. */
	uint64_t h = rng_mix(o->seed ^ 0x5eed5eedULL);
	int64_t day = (int64_t)(h % 300), sec = (int64_t)((h >> 20) % 28800);
	int64_t ns = (int64_t)((h >> 40) % 1000000) * 1000;

	return (EPOCH_2026_S + day * 86400 + 32400 + sec) * NS_PER_S + ns +
	       rank * 37 * US + rank * 113;
}

static void tl_init_one(struct timeline *tl, const struct model *m,
                        const struct opts *o, int rank)
{
	memset(tl, 0, sizeof(*tl));
	tl->m = m;
	tl->o = o;
	rng_seed(&tl->rng, o->seed, 0x72616e6b00ULL + (uint64_t)rank);
	tl->host_cursor = tl_origin_ns(o, rank);
	tl->task_id = 1000 + (uint32_t)(rng_mix(o->seed) % 20000);
	tl->comm_no = 12 + (uint32_t)(rng_mix(o->seed + 7) % 500);
	tl->rank = rank;
	tl->slow = rank == o->straggler ? o->straggler_f : 1.0;
}

void tl_init(struct timeline *tl, const struct model *m, const struct opts *o,
             int rank)
{
	int q;

	tl_init_one(tl, m, o, rank);
	/* Without a straggler the ranks stay independent, so runs without
	 * --straggler are byte-identical to earlier generator versions. */
	if (o->straggler < 0 || !m->sp)
		return;
	tl->npeers = o->ranks;
	tl->peers = xcalloc((size_t)o->ranks, sizeof(*tl->peers));
	tl->peer_steps = xcalloc((size_t)o->ranks, sizeof(*tl->peer_steps));
	for (q = 0; q < o->ranks; q++)
		tl_init_one(&tl->peers[q], m, o, q);
}

void tl_free(struct timeline *tl)
{
	int q;

	for (q = 0; q < tl->npeers; q++)
		step_free(&tl->peer_steps[q]);
	free(tl->peers);
	free(tl->peer_steps);
	tl->peers = NULL;
	tl->peer_steps = NULL;
	tl->npeers = 0;
}

void step_free(struct step *s)
{
	free(s->k);
	memset(s, 0, sizeof(*s));
}

/* Round to 10 ns like real durations, never below 1 us. */
static int64_t tidy(double ns)
{
	int64_t v = (int64_t)llround(ns / 10.0) * 10;

	return v < 1000 ? 1000 : v;
}

static const struct tmpl *tmpl_of(const struct timeline *tl,
                                  const struct kern *k)
{
	return &tl->m->t[k->tmpl];
}

/* Pass 1: one kernel per program entry with a jittered natural duration. */
static void fill_kernels(struct timeline *tl, struct step *s, double *raw,
                         unsigned char *hit)
{
	const struct model *m = tl->m;
	size_t i;
	int32_t iter = -1;

	s->n = 0;
	for (i = 0; i < m->np; i++) {
		struct kern *k;
		const struct tmpl *t;
		double j;

		iter += m->prog[i] == PROG_ITER_MARK;
		if (m->prog[i] >= PROG_FIRST_MARK)
			continue;
		k = &s->k[s->n];
		memset(k, 0, sizeof(*k));
		k->tmpl = m->prog[i];
		t = &m->t[k->tmpl];
		j = t->op->cat == CAT_COMM ? 0.15 : 0.06;
		raw[s->n] = (double)t->natural_ns *
		            (1.0 - j + 2.0 * j * rng_unit(&tl->rng));
		hit[s->n] = m->hit[i];
		k->iter = t->stage == ST_DIT ? iter : -1;
		s->n++;
	}
}

/* Pass 2: scale each DiT category so its share of DiT kernel time is the
 * target exactly (per step, so any number of steps stays on target). The
 * kernels of cache-hit iterations (--cache) are scaled alike but left out
 * of the sums: the target is the full iterations' mix, and a hit costs
 * what its kernels cost there. */
static void scale_dit(struct timeline *tl, struct step *s, double *raw,
                      const unsigned char *hit)
{
	const struct model *m = tl->m;
	double sum[CAT_COUNT] = {0}, scale[CAT_COUNT], main_sum, main_share,
	       total;
	size_t i;
	int c;

	for (i = 0; i < s->n; i++) {
		const struct tmpl *t = tmpl_of(tl, &s->k[i]);
		if (t->stage == ST_DIT && !hit[i])
			sum[t->op->cat] += raw[i];
	}
	main_sum = sum[CAT_FA] + sum[CAT_MATMUL] + sum[CAT_VECTOR];
	main_share =
	    m->share[CAT_FA] + m->share[CAT_MATMUL] + m->share[CAT_VECTOR];
	total = main_sum * 100.0 / main_share;
	/* a UNet keeps its roofline durations: the mix is a DiT's */
	for (c = 0; c < CAT_COUNT; c++)
		scale[c] = sum[c] > 0 && tl->o->denoiser == DEN_DIT
		               ? m->share[c] / 100.0 * total / sum[c]
		               : 1.0;
	for (i = 0; i < s->n; i++) {
		const struct tmpl *t = tmpl_of(tl, &s->k[i]);
		double f = t->stage == ST_DIT ? scale[t->op->cat] : 1.0;
		s->k[i].dur = tidy(raw[i] * f);
	}
}

/* The straggler's compute is uniformly slower (a throttled or shared
 * card); its collectives are not: their transfer runs at the link's speed.
 * Applied after the mix scaling, which would otherwise undo it. */
static void slow_down(struct timeline *tl, struct step *s)
{
	size_t i;

	if (tl->slow == 1.0)
		return;
	for (i = 0; i < s->n; i++)
		if (tmpl_of(tl, &s->k[i])->op->cat != CAT_COMM)
			s->k[i].dur = tidy((double)s->k[i].dur * tl->slow);
}

/* What the program's marks say of the gap before a kernel (bits). */
enum { GAP_ITER = 1, GAP_HOST = 2, GAP_ATTACH = 4 };

/* Idle time the compute stream sees before a kernel: launch gaps mostly,
 * host work between iterations and between pipeline stages. `mark`: the
 * GAP_* bits; GAP_HOST gives the stage-change gap within a stage (the
 * host's set-up before the loop), GAP_ATTACH a launch gap across one (the
 * DiT's prologue right after the VAE encode). */
static int64_t compute_gap(struct timeline *tl, int stage_change, int mark)
{
	struct rng *r = &tl->rng;
	int iter_start = mark & GAP_ITER;

	if (mark & GAP_ATTACH)
		stage_change = 0;
	if (stage_change || (mark & GAP_HOST))
		return rng_between(r, 150 * US, 600 * US);
	if (iter_start)
		return rng_between(r, 30 * US, 90 * US);
	if (rng_unit(r) < 0.03)
		return rng_between(r, 5 * US, 40 * US);
	return rng_between(r, 300, 2500);
}

/* The collective currently running on the HCCL stream. */
struct comm_state {
	int active;
	size_t idx; /* its kernel */
	int64_t start, end, budget, covered;
};

static void comm_finish(struct step *s, struct comm_state *cs)
{
	if (cs->active)
		s->k[cs->idx].covered = cs->covered;
	cs->active = 0;
}

/* Where a compute kernel of duration `d` may start (>= s0) given the running
 * collective, and how much of the collective it covers. Once the budget
 * would be exceeded the stream stalls so that exactly the budget overlaps. */
static int64_t overlap_start(struct step *s, struct comm_state *cs, int64_t s0,
                             int64_t d)
{
	int64_t avail, ov;

	if (!cs->active)
		return s0;
	if (s0 >= cs->end) {
		comm_finish(s, cs);
		return s0;
	}
	avail = cs->budget - cs->covered;
	if (d > avail && cs->end - avail > s0)
		s0 = cs->end - (avail > 0 ? avail : 0);
	ov = (s0 + d < cs->end ? s0 + d : cs->end) - s0;
	if (ov > 0)
		cs->covered += ov;
	if (s0 + d >= cs->end)
		comm_finish(s, cs);
	return s0;
}

/* Pass 3 state: compute kernels are serial on one stream; a collective
 * starts after its producer and lets the following compute run alongside
 * it for `overlap` of its own (transfer) duration. */
struct placer {
	struct comm_state cs;
	int64_t cur, hccl_free, prev_end;
	int prev_stage;
	int at_comm; /* stopped at the collective s->k[i] */
	size_t i;
	const uint8_t *iter_start;
};

static void placer_init(struct placer *p, const struct step *s,
                        const uint8_t *iter_start)
{
	memset(p, 0, sizeof(*p));
	p->cur = s->first_start;
	p->prev_end = -1;
	p->prev_stage = -1;
	p->iter_start = iter_start;
}

static void place_compute(struct timeline *tl, struct step *s, struct placer *p,
                          int change, int64_t gap)
{
	struct kern *k = &s->k[p->i];

	if (change && p->cs.active) { /* stages never share a collective */
		if (p->cur + gap < p->cs.end)
			gap = p->cs.end - p->cur;
		comm_finish(s, &p->cs);
	}
	k->start = overlap_start(s, &p->cs, p->cur + gap, k->dur);
	k->wait = p->prev_end < 0 ? 0 : k->start - p->prev_end;
	k->seq = tl->task_id;
	tl->task_id = tl->task_id >= 65535 ? 1 : tl->task_id + 1;
	p->cur = p->prev_end = k->start + k->dur;
	p->prev_stage = (int)tmpl_of(tl, k)->stage;
}

/* Places kernels from p->i on. Stops at a collective once its start is
 * fixed (place_commit finishes it) and returns 1; 0 at the step's end. */
static int place_to_comm(struct timeline *tl, struct step *s, struct placer *p)
{
	for (; p->i < s->n; p->i++) {
		struct kern *k = &s->k[p->i];
		const struct tmpl *t = tmpl_of(tl, k);
		int change =
		    p->prev_stage >= 0 && (int)t->stage != p->prev_stage;
		/* Drawn for collectives too (unused) to keep the PRNG
		 * sequence, and so the files, of earlier versions. */
		int64_t gap =
		    p->i == 0 ? 0
		              : compute_gap(tl, change, p->iter_start[p->i]);

		if (t->op->cat == CAT_COMM) {
			int64_t st = p->cur + rng_between(&tl->rng, 500, 3000);
			comm_finish(s, &p->cs);
			k->start = st < p->hccl_free ? p->hccl_free : st;
			return p->at_comm = 1;
		}
		place_compute(tl, s, p, change, gap);
	}
	comm_finish(s, &p->cs);
	return p->at_comm = 0;
}

/* The collective p->i has its final duration: open it on the HCCL stream.
 * The overlap budget follows the transfer, not the wait for peers. */
static void place_commit(struct timeline *tl, struct step *s, struct placer *p)
{
	struct kern *k = &s->k[p->i];
	int64_t st = k->start;

	k->wait = p->hccl_free ? st - p->hccl_free : st - p->cur;
	k->seq = tl->comm_no++;
	p->hccl_free = st + k->dur;
	p->cs.active = 1;
	p->cs.idx = p->i;
	p->cs.start = st;
	p->cs.end = st + k->dur;
	p->cs.budget =
	    (int64_t)llround(tl->o->overlap * (double)(k->dur - k->sync_wait));
	p->cs.covered = 0;
	p->cur = st;
	p->at_comm = 0;
	p->i++;
}

/* Places `n` ranks' steps together, collective by collective: each one
 * ends when the last rank's own transfer would, rounded up to 10 ns, so
 * all ranks leave it together. With n == 1 it is plain placement. */
static void place_all(struct timeline *tls, struct step *ss, struct placer *ps,
                      int n)
{
	int q, more;

	for (;;) {
		int64_t end = INT64_MIN;

		for (q = more = 0; q < n; q++)
			more |= place_to_comm(&tls[q], &ss[q], &ps[q]);
		if (!more)
			break;
		for (q = 0; q < n; q++) {
			const struct kern *k = &ss[q].k[ps[q].i];
			if (ps[q].at_comm && k->start + k->dur > end)
				end = k->start + k->dur;
		}
		for (q = 0; q < n; q++) {
			struct kern *k = &ss[q].k[ps[q].i];
			if (!ps[q].at_comm)
				continue; /* cannot happen: one program */
			k->sync_wait = (end - k->start - k->dur + 9) / 10 * 10;
			k->dur += k->sync_wait;
			place_commit(&tls[q], &ss[q], &ps[q]);
		}
	}
}

/* Generation order is already start order (see place()); this stable
 * insertion sort is a cheap guarantee that costs O(n) when sorted. */
static void sort_by_start(struct step *s)
{
	size_t i, j;

	for (i = 1; i < s->n; i++) {
		struct kern x = s->k[i];
		for (j = i; j > 0 && s->k[j - 1].start > x.start; j--)
			s->k[j] = s->k[j - 1];
		s->k[j] = x;
	}
}

static void mark_iters(const struct model *m, uint8_t *iter_start)
{
	size_t i, n = 0;
	int pending = 0;

	for (i = 0; i < m->np; i++) {
		if (m->prog[i] == PROG_ITER_MARK ||
		    m->prog[i] == PROG_HOST_MARK ||
		    m->prog[i] == PROG_ATTACH_MARK) {
			pending |= m->prog[i] == PROG_ITER_MARK   ? GAP_ITER
			           : m->prog[i] == PROG_HOST_MARK ? GAP_HOST
			                                          : GAP_ATTACH;
			continue;
		}
		iter_start[n++] = (uint8_t)pending;
		pending = 0;
	}
}

static void span(struct step *s)
{
	size_t i;

	s->first_start = s->k[0].start;
	s->last_end = s->k[0].start + s->k[0].dur;
	for (i = 1; i < s->n; i++)
		if (s->k[i].start + s->k[i].dur > s->last_end)
			s->last_end = s->k[i].start + s->k[i].dur;
}

/* Passes 1-2 and the straggler factor: durations, before placement. */
static void step_prepare(struct timeline *tl, struct step *s, int number)
{
	double *raw = xmalloc(tl->m->np * sizeof(*raw));
	unsigned char *hit = xmalloc(tl->m->np ? tl->m->np : 1);

	xgrow(&s->k, &s->cap, tl->m->np, sizeof(*s->k));
	s->number = number;
	s->host_start = tl->host_cursor;
	s->first_start =
	    s->host_start + rng_between(&tl->rng, 600 * US, 1500 * US);
	fill_kernels(tl, s, raw, hit);
	scale_dit(tl, s, raw, hit);
	slow_down(tl, s);
	free(raw);
	free(hit);
}

static void step_finish(struct timeline *tl, struct step *s)
{
	sort_by_start(s);
	span(s);
	s->host_dur = s->last_end - s->host_start +
	              rng_between(&tl->rng, 100 * US, 400 * US);
	tl->host_cursor = s->host_start + s->host_dur +
	                  rng_between(&tl->rng, 1000 * US, 3000 * US);
}

/* Copies a peer's step into the caller's buffer. */
static void step_copy(struct step *dst, const struct step *src)
{
	struct kern *k;
	size_t cap;

	xgrow(&dst->k, &dst->cap, src->n ? src->n : 1, sizeof(*dst->k));
	k = dst->k;
	cap = dst->cap;
	memcpy(k, src->k, src->n * sizeof(*k));
	*dst = *src;
	dst->k = k;
	dst->cap = cap;
}

void tl_next_step(struct timeline *tl, struct step *s, int number)
{
	uint8_t *iter_start = xcalloc(tl->m->np, 1);
	int q, n = tl->peers ? tl->npeers : 1;
	struct timeline *tls = tl->peers ? tl->peers : tl;
	struct step *ss = tl->peers ? tl->peer_steps : s;
	struct placer *ps = xcalloc((size_t)n, sizeof(*ps));

	mark_iters(tl->m, iter_start);
	for (q = 0; q < n; q++) {
		step_prepare(&tls[q], &ss[q], number);
		placer_init(&ps[q], &ss[q], iter_start);
	}
	place_all(tls, ss, ps, n);
	for (q = 0; q < n; q++)
		step_finish(&tls[q], &ss[q]);
	if (tl->peers)
		step_copy(s, &tl->peer_steps[tl->rank]);
	free(ps);
	free(iter_start);
}
