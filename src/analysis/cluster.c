/* Merging ranks. Times of kernels are summed: a category's share of the
 * summed time is its share of the card-time the whole run spent. */
#include "analysis/cluster.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/breakdown.h"
#include "analysis/e2e.h"
#include "analysis/gain.h"
#include "analysis/memory.h"
#include "analysis/vaesplit.h"
#include "analysis/verdicts.h"
#include "util/checked.h"
#include "util/sortcmp.h"
#include "util/strbuf.h"
#include "util/strtab.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* Adds the n types of src into the table (by name and category, as the
 * breakdown keeps them apart: "Type\0<category>"), keeping it sorted
 * later; the table owns copies of the names. */
static int add_types(struct strtab *names, struct type_stat **v, size_t *alloc,
                     const struct type_stat *src, size_t n)
{
	struct strbuf key = STRBUF_INIT;
	size_t i;
	int over = 0;

	for (i = 0; i < n; i++) {
		uint32_t id;
		struct type_stat *t;
		strbuf_reset(&key);
		strbuf_adds(&key, src[i].type);
		strbuf_addch(&key, '\0');
		strbuf_addch(&key, (char)('0' + (int)src[i].cat));
		id = strtab_intern(names, key.buf, key.len);
		if (id >= *alloc) {
			size_t old = *alloc;
			*alloc = (id + 1) * 2;
			*v = xrealloc(*v, *alloc * sizeof(**v));
			memset(*v + old, 0, (*alloc - old) * sizeof(**v));
		}
		t = &(*v)[id];
		if (!t->count || src[i].min_ns < t->min_ns)
			t->min_ns = src[i].min_ns;
		if (!t->count || src[i].max_ns > t->max_ns)
			t->max_ns = src[i].max_ns;
		t->cat = src[i].cat;
		if (__builtin_add_overflow(t->count, src[i].count, &t->count)) {
			t->count = UINT64_MAX; /* saturated, and said */
			over = 1;
		}
		checked_accumulate(&t->total_ns, src[i].total_ns);
	}
	strbuf_release(&key);
	return over;
}

static struct type_stat *sorted_types(const struct strtab *names,
                                      struct type_stat *v, size_t max,
                                      size_t *nout)
{
	size_t i, m = 0;
	struct type_stat *out = xcalloc(names->n ? names->n : 1, sizeof(*out));

	for (i = 0; i < names->n; i++) {
		if (!v[i].count)
			continue;
		out[m] = v[i];
		out[m++].type = xstrdup(strtab_str(names, (uint32_t)i));
	}
	qsort(out, m, sizeof(*out), type_stat_cmp);
	while (m > max)
		free(out[--m].type);
	*nout = m;
	return out;
}

static void merge_stage(struct result *parts, size_t n, int s,
                        struct stage_result *out)
{
	struct strtab names;
	struct type_stat *v = NULL;
	size_t alloc = 0, i;
	int c;

	strtab_init(&names);
	for (i = 0; i < n; i++) {
		const struct stage_result *st = &parts[i].stages[s];
		out->kernels += st->kernels;
		out->segments += st->segments;
		checked_accumulate(&out->kernel_ns, st->kernel_ns);
		checked_accumulate(&out->wall_ns, st->wall_ns);
		checked_accumulate(&out->comm_ns, st->comm_ns);
		checked_accumulate(&out->comm_union_ns, st->comm_union_ns);
		checked_accumulate(&out->exposed_comm_ns, st->exposed_comm_ns);
		for (c = 0; c < CAT_COUNT; c++) {
			out->cat[c].count += st->cat[c].count;
			checked_accumulate(&out->cat[c].time_ns,
			                   st->cat[c].time_ns);
		}
		for (c = 0; c < FA_PART_COUNT; c++) {
			out->fa_part[c].count += st->fa_part[c].count;
			checked_accumulate(&out->fa_part[c].time_ns,
			                   st->fa_part[c].time_ns);
		}
		add_types(&names, &v, &alloc, st->top, st->ntop);
	}
	out->top = sorted_types(&names, v, BREAKDOWN_TOP, &out->ntop);
	free(v);
	strtab_release(&names);
}

static void merge_unmatched(struct result *parts, size_t n, struct result *out)
{
	struct strtab names;
	struct type_stat *v = NULL;
	size_t alloc = 0, i;

	strtab_init(&names);
	for (i = 0; i < n; i++)
		add_types(&names, &v, &alloc, parts[i].unmatched,
		          parts[i].nunmatched);
	out->unmatched =
	    sorted_types(&names, v, BREAKDOWN_UNMATCHED, &out->nunmatched);
	free(v);
	strtab_release(&names);
}

/* Whether out had w already (same code, message, line and file): the
 * warnings met so far are interned in seen, so the check is one hash
 * look-up however many ranks and warnings there are. */
static int seen_warning(struct strtab *seen, const struct warning *w)
{
	struct strbuf key = STRBUF_INIT;
	uint32_t n = seen->n;

	strbuf_adds(&key, w->code);
	strbuf_addch(&key, '\0');
	strbuf_adds(&key, w->message);
	strbuf_addch(&key, '\0');
	strbuf_addf(&key, "%llu", (unsigned long long)w->line);
	strbuf_addch(&key, '\0');
	strbuf_adds(&key, w->file ? w->file : "");
	strtab_intern(seen, key.buf, key.len);
	strbuf_release(&key);
	return seen->n == n;
}

/* Moves p's inputs and warnings to out (a warning out already has is
 * dropped: every rank says "no Step Id" alike). */
static void move_lists(struct result *p, struct result *out,
                       struct strtab *seen)
{
	size_t i;

	out->inputs = xrealloc(out->inputs, (out->ninputs + p->ninputs + 1) *
	                                        sizeof(*out->inputs));
	if (p->ninputs)
		memcpy(out->inputs + out->ninputs, p->inputs,
		       p->ninputs * sizeof(*p->inputs));
	out->ninputs += p->ninputs;
	free(p->inputs);
	p->inputs = NULL;
	p->ninputs = 0;
	out->warnings =
	    xrealloc(out->warnings, (out->nwarnings + p->nwarnings + 1) *
	                                sizeof(*out->warnings));
	for (i = 0; i < p->nwarnings; i++) {
		struct warning *w = &p->warnings[i];
		if (!seen_warning(seen, w)) {
			out->warnings[out->nwarnings++] = *w;
			continue;
		}
		warning_release(w);
	}
	free(p->warnings);
	p->warnings = NULL;
	p->nwarnings = 0;
}

/* Appends p's listed Step Ids (at most RESULT_MAX_STEP_IDS) to out's
 * list, sorted and made distinct once all ranks are in (sort_steps); a
 * rank's own count, when larger (a cut list), is kept as the least
 * total. */
static void merge_steps(const struct result *p, struct result *out)
{
	out->steps_total = p->steps_total > out->steps_total ? p->steps_total
	                                                     : out->steps_total;
	if (!p->nsteps)
		return;
	out->steps = xrealloc(out->steps,
	                      (out->nsteps + p->nsteps) * sizeof(*out->steps));
	memcpy(out->steps + out->nsteps, p->steps,
	       p->nsteps * sizeof(*p->steps));
	out->nsteps += p->nsteps;
}

static int cmp_step(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

/* One sort of every rank's ids: O(n log n) however many ranks. The count
 * is the union's, or a rank's own count when that is larger; the list
 * keeps the first RESULT_MAX_STEP_IDS. */
static void sort_steps(struct result *out)
{
	size_t i, m = 0;

	if (out->nsteps)
		qsort(out->steps, out->nsteps, sizeof(*out->steps), cmp_step);
	for (i = 0; i < out->nsteps; i++)
		if (!m || out->steps[m - 1] != out->steps[i])
			out->steps[m++] = out->steps[i];
	out->steps_total = m > out->steps_total ? m : out->steps_total;
	out->nsteps = m < RESULT_MAX_STEP_IDS ? m : RESULT_MAX_STEP_IDS;
}

/* ---- kernel types folded one rank at a time ----------------------------- */

void cluster_fold_init(struct type_fold *f)
{
	int k;

	memset(f, 0, sizeof(*f));
	for (k = 0; k <= STAGE_COUNT; k++)
		strtab_init(&f->names[k]);
}

/* What one more type costs the fold: its slot (the array doubles), the
 * interning table's entry and the name. */
static uint64_t fold_grew(const struct strtab *t, uint32_t from)
{
	uint64_t b = 0;
	uint32_t i;

	for (i = from; i < t->n; i++)
		b += 2 * sizeof(struct type_stat) + 40 + t->lens[i] + 1;
	return b;
}

uint64_t cluster_fold_add(struct type_fold *f, const struct result *p)
{
	uint64_t b = 0;
	uint32_t n;
	int k;

	for (k = 0; k <= STAGE_COUNT; k++) {
		n = f->names[k].n;
		if (k < STAGE_COUNT)
			f->overflow |=
			    add_types(&f->names[k], &f->v[k], &f->alloc[k],
			              p->stages[k].top, p->stages[k].ntop);
		else
			f->overflow |=
			    add_types(&f->names[k], &f->v[k], &f->alloc[k],
			              p->unmatched, p->nunmatched);
		b += fold_grew(&f->names[k], n);
	}
	return b;
}

void cluster_fold_take(struct type_fold *f, struct result *p)
{
	int k;

	for (k = 0; k < STAGE_COUNT; k++) {
		type_stats_free(p->stages[k].top, p->stages[k].ntop);
		p->stages[k].top = sorted_types(&f->names[k], f->v[k],
		                                (size_t)-1, &p->stages[k].ntop);
	}
	type_stats_free(p->unmatched, p->nunmatched);
	p->unmatched = sorted_types(&f->names[STAGE_COUNT], f->v[STAGE_COUNT],
	                            (size_t)-1, &p->nunmatched);
	cluster_fold_release(f);
	cluster_fold_init(f);
}

void cluster_fold_release(struct type_fold *f)
{
	int k;

	for (k = 0; k <= STAGE_COUNT; k++) {
		strtab_release(&f->names[k]);
		free(f->v[k]);
	}
	memset(f, 0, sizeof(*f));
}

/* The lead rank's timeline and method become out's. */
static void take_lead(struct result *lead, struct result *out)
{
	out->span_start_ns = lead->span_start_ns;
	out->span_end_ns = lead->span_end_ns;
	out->segs = lead->segs;
	out->nsegs = lead->nsegs;
	out->segs_total = lead->segs_total;
	lead->segs = NULL;
	lead->nsegs = 0;
	out->stage_method = lead->stage_method;
	lead->stage_method = NULL;
	out->text_encoder_detected = lead->text_encoder_detected;
	out->loop_found = lead->loop_found;
	out->denoiser_unet = lead->denoiser_unet;
	out->seg_window = lead->seg_window;
	out->seg_min_segment = lead->seg_min_segment;
	out->rank_dir = lead->rank_dir;
	lead->rank_dir = NULL;
	out->iters = lead->iters;
	memset(&lead->iters, 0, sizeof(lead->iters));
	out->workload = lead->workload;
}

/* The slowest and the (lower) median rank by DiT compute time, among the
 * analysed ranks with some: a rank without compute time (no DiT kernels)
 * is no straggler's yardstick. */
static void slowest_median(struct result *r)
{
	int64_t *v = xcalloc(r->nranks ? r->nranks : 1, sizeof(*v)), med;
	size_t i, n = 0, slow = 0;

	for (i = 0; i < r->nranks; i++) {
		const struct rank_result *rr = &r->ranks[i];
		if (!rr->analysed || rr->compute_ns <= 0)
			continue;
		if (!n || rr->compute_ns > r->ranks[slow].compute_ns)
			slow = i;
		v[n++] = rr->compute_ns;
	}
	if (n >= 2) {
		qsort(v, n, sizeof(*v), sortcmp_i64);
		med = v[(n - 1) / 2]; /* with two ranks: the faster one */
		for (i = 0; i < r->nranks; i++)
			if (r->ranks[i].analysed &&
			    r->ranks[i].compute_ns == med)
				break;
		r->cluster.ranked = 1;
		r->cluster.slowest = slow;
		r->cluster.median = i;
	}
	free(v);
}

static uint64_t add_u64_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static void add_comm(struct comm_result *sum, const struct comm_result *c)
{
	size_t k;

	sum->ops = add_u64_sat(sum->ops, c->ops);
	checked_accumulate(&sum->wait_ns, c->wait_ns);
	for (k = 0; k < COLL_COUNT; k++) {
		struct coll_stat *d = &sum->kind[k];
		const struct coll_stat *s = &c->kind[k];
		d->count = add_u64_sat(d->count, s->count);
		checked_accumulate(&d->elapse_ns, s->elapse_ns);
		checked_accumulate(&d->transit_ns, s->transit_ns);
		checked_accumulate(&d->wait_ns, s->wait_ns);
		checked_accumulate(&d->sync_ns, s->sync_ns);
		checked_accumulate(&d->idle_ns, s->idle_ns);
	}
	for (k = 0; k < TR_COUNT; k++) {
		struct transport_stat *d = &sum->link[k];
		d->ops = add_u64_sat(d->ops, c->link[k].ops);
		d->size_mb += c->link[k].size_mb;
		checked_accumulate(&d->time_ns, c->link[k].time_ns);
	}
}

void cluster_summarise(struct result *r)
{
	size_t i;

	memset(&r->cluster, 0, sizeof(r->cluster));
	slowest_median(r);
	for (i = 0; i < r->nranks; i++) {
		if (!r->ranks[i].comm_read)
			continue;
		r->cluster.comm_ranks++;
		add_comm(&r->cluster.comm, &r->ranks[i].comm);
	}
	e2e_compute(r);
	vae_split_compute(r);
}

void cluster_merge(struct result *parts, size_t n, const struct rules *ru,
                   struct result *out)
{
	size_t i, lead = n;
	struct strtab seen;
	int s;

	strtab_init(&seen);
	for (i = 0; i < out->nwarnings; i++)
		seen_warning(&seen, &out->warnings[i]);
	out->ranks = xcalloc(n ? n : 1, sizeof(*out->ranks));
	for (i = 0; i < n; i++) {
		struct result *p = &parts[i];
		out->ranks[out->nranks++] = p->ranks[0];
		memset(&p->ranks[0], 0, sizeof(p->ranks[0]));
		if (lead == n && out->ranks[i].analysed) {
			lead = i;
			out->lead = i;
		}
		out->kernels += p->kernels;
		merge_steps(p, out);
		move_lists(p, out, &seen);
	}
	strtab_release(&seen);
	sort_steps(out);
	for (s = 0; s < STAGE_COUNT; s++)
		merge_stage(parts, n, s, &out->stages[s]);
	merge_unmatched(parts, n, out);
	if (lead < n)
		take_lead(&parts[lead], out);
	cluster_summarise(out);
	memory_summarise(ru, out);
	verdicts_evaluate(ru, out);
	gain_evaluate(ru, out);
	out->rules_source = xstrdup(ru->source ? ru->source : "built-in");
	for (i = 0; i < n; i++) {
		for (s = 0; s < STAGE_COUNT; s++) {
			type_stats_free(parts[i].stages[s].top,
			                parts[i].stages[s].ntop);
			parts[i].stages[s].top = NULL;
			parts[i].stages[s].ntop = 0;
		}
	}
}
