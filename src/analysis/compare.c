/* The comparison of two snapshots: per-stage times and shares, verdict
 * changes, kernel types matched by name, ranks matched by id, and the shape
 * differences that make a comparison misleading. */
#include "analysis/compare.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/result.h"
#include "util/checked.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* DiT kernels per step may differ this much (percent) before the sides
 * are taken to run another number of iterations or blocks */
#define ITERATIONS_TOLERANCE_PCT 5.0

const char *const verdict_change_names[4] = {"appeared", "cleared", "stayed",
                                             "never"};
const char *const type_status_names[3] = {"both", "added", "removed"};

double cmp_pct(struct cmp_time t, int *defined)
{
	*defined = t.base != 0;
	if (!t.base)
		return 0.0;
	return 100.0 * ((double)t.new_ - (double)t.base) / (double)t.base;
}

/* v / n rounded to nearest (halves away from zero); v as is when n == 0 */
static int64_t per(int64_t v, size_t steps)
{
	int64_t n = (int64_t)steps;

	if (n <= 0 || v == -1) /* -1: "unknown" stays unknown */
		return v;
	if (v >= 0)
		return v / n + (v % n >= n - n / 2 ? 1 : 0);
	/* -v overflows for INT64_MIN: one more than it, then the rest */
	if (v == INT64_MIN)
		return -per(INT64_MAX, steps);
	return -per(-v, steps);
}

static double share(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

/* ---- stages ---------------------------------------------------------------
 */

static void compare_stage(const struct snap_stage *b,
                          const struct snap_stage *n, size_t bs, size_t ns,
                          struct cmp_stage *c)
{
	int k;

	c->in_base = b->present;
	c->in_new = n->present;
	c->kernel.base = per(b->kernel_ns, bs);
	c->kernel.new_ = per(n->kernel_ns, ns);
	c->wall.base = per(b->wall_ns, bs);
	c->wall.new_ = per(n->wall_ns, ns);
	c->exposed.base = per(b->exposed_ns, bs);
	c->exposed.new_ = per(n->exposed_ns, ns);
	/* shares from the undivided times: a ratio needs no normalising */
	c->exposed_share.base = share(b->exposed_ns, b->wall_ns);
	c->exposed_share.new_ = share(n->exposed_ns, n->wall_ns);
	for (k = 0; k < CAT_COUNT; k++) {
		c->cat[k].base = per(b->cat_ns[k], bs);
		c->cat[k].new_ = per(n->cat_ns[k], ns);
		c->cat_share[k].base = share(b->cat_ns[k], b->kernel_ns);
		c->cat_share[k].new_ = share(n->cat_ns[k], n->kernel_ns);
	}
	c->speedup = c->wall.base > 0 && c->wall.new_ > 0
	                 ? (double)c->wall.base / (double)c->wall.new_
	                 : 0.0;
}

static void stage_list(const struct snapshot *s, struct strbuf *sb)
{
	int k, n = 0;

	for (k = 0; k < STAGE_COUNT; k++)
		if (s->stage[k].present)
			strbuf_addf(sb, "%s%s", n++ ? ", " : "",
			            stage_names[k]);
	if (!n)
		strbuf_adds(sb, "no stage with kernels");
}

static int no_common_stage(const struct snapshot *b, const struct snapshot *n,
                           struct err *e)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_adds(&sb, "no common stage: ");
	strbuf_add_sanitized(&sb, b->source, strlen(b->source));
	strbuf_adds(&sb, " has ");
	stage_list(b, &sb);
	strbuf_adds(&sb, "; ");
	strbuf_add_sanitized(&sb, n->source, strlen(n->source));
	strbuf_adds(&sb, " has ");
	stage_list(n, &sb);
	err_set(e, ERR_INPUT, "%s", sb.buf);
	strbuf_release(&sb);
	return -1;
}

/* ---- verdicts -------------------------------------------------------------
 */

/* A snapshot's verdicts sorted by id, then by position: the first of a
 * repeated id is found by binary search (a report may hold any number of
 * verdicts, so no search per verdict walks them all). */
struct verdict_index {
	const struct snap_verdict **v;
	size_t n;
};

static int by_verdict_id(const void *a, const void *b)
{
	const struct snap_verdict *const *x = a, *const *y = b;
	int c = strcmp((*x)->id, (*y)->id);

	return c ? c : (*x > *y) - (*x < *y);
}

static void verdict_index_init(struct verdict_index *ix,
                               const struct snapshot *s)
{
	size_t i;

	ix->n = s->nverdicts;
	ix->v = xcalloc(ix->n + 1, sizeof(*ix->v));
	for (i = 0; i < ix->n; i++)
		ix->v[i] = &s->verdicts[i];
	qsort(ix->v, ix->n, sizeof(*ix->v), by_verdict_id);
}

/* The first verdict of the snapshot with that id, or NULL. */
static const struct snap_verdict *find_verdict(const struct verdict_index *ix,
                                               const char *id)
{
	size_t lo = 0, hi = ix->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(ix->v[mid]->id, id) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ix->n && !strcmp(ix->v[lo]->id, id) ? ix->v[lo] : NULL;
}

/* A verdict one side lacks counts as not applicable and not fired there. */
static void add_verdict(struct comparison *c, const struct snap_verdict *b,
                        const struct snap_verdict *n)
{
	struct cmp_verdict *v = &c->verdicts[c->nverdicts++];
	const struct snap_verdict *any = n ? n : b;
	int bf = b && b->fired, nf = n && n->fired;

	v->id = xstrdup(any->id);
	v->stage = any->stage;
	v->change =
	    bf ? (nf ? VC_STAYED : VC_CLEARED) : (nf ? VC_APPEARED : VC_NEVER);
	v->base_applicable = b && b->applicable;
	v->new_applicable = n && n->applicable;
	v->base = v->base_applicable ? b->value : 0.0;
	v->new_ = v->new_applicable ? n->value : 0.0;
	v->threshold = any->threshold;
	v->promised = bf && b->has_gain;
	v->promised_low_pct = v->promised ? b->gain_low_pct : 0;
	v->promised_high_pct = v->promised ? b->gain_high_pct : 0;
}

static void compare_verdicts(const struct snapshot *b, const struct snapshot *n,
                             struct comparison *c)
{
	struct verdict_index bx, nx;
	size_t i;

	verdict_index_init(&bx, b);
	verdict_index_init(&nx, n);
	c->verdicts =
	    xcalloc(b->nverdicts + n->nverdicts + 1, sizeof(*c->verdicts));
	for (i = 0; i < b->nverdicts; i++)
		if (find_verdict(&bx, b->verdicts[i].id) == &b->verdicts[i])
			add_verdict(c, &b->verdicts[i],
			            find_verdict(&nx, b->verdicts[i].id));
	for (i = 0; i < n->nverdicts; i++)
		if (!find_verdict(&bx, n->verdicts[i].id) &&
		    find_verdict(&nx, n->verdicts[i].id) == &n->verdicts[i])
			add_verdict(c, NULL, &n->verdicts[i]);
	free(bx.v);
	free(nx.v);
}

/* ---- kernel types ---------------------------------------------------------
 */

static int by_type_name(const void *a, const void *b)
{
	const struct snap_type *const *x = a, *const *y = b;
	return strcmp((*x)->type, (*y)->type);
}

/* The stage's types sorted by name (pointers into s). */
static const struct snap_type **sorted_types(const struct snap_stage *s)
{
	const struct snap_type **v = xcalloc(s->ntypes + 1, sizeof(*v));
	size_t i;

	for (i = 0; i < s->ntypes; i++)
		v[i] = &s->types[i];
	qsort(v, s->ntypes, sizeof(*v), by_type_name);
	return v;
}

/* Sums the run of types named like v[*i] (a report repeats a type within
 * a stage when it falls into two categories, a Transpose inside attention
 * and one elsewhere: diff compares the type's whole time) and advances *i
 * past it. */
static void take_run(const struct snap_type **v, size_t n, size_t *i,
                     int64_t *ns, uint64_t *count)
{
	const char *name = v[*i]->type;

	for (; *i < n && !strcmp(v[*i]->type, name); (*i)++) {
		checked_accumulate(ns, v[*i]->total_ns);
		*count += v[*i]->count;
	}
}

struct type_side {
	const struct snap_type **v;
	size_t n, i, steps;
};

static void merge_one(struct comparison *c, enum stage st, struct type_side *b,
                      struct type_side *n)
{
	struct cmp_type *t = &c->types[c->ntypes++];
	int cmp = b->i >= b->n   ? 1
	          : n->i >= n->n ? -1
	                         : strcmp(b->v[b->i]->type, n->v[n->i]->type);
	int64_t bns = 0, nns = 0;

	memset(t, 0, sizeof(*t));
	t->stage = st;
	t->status = cmp < 0 ? TS_REMOVED : cmp > 0 ? TS_ADDED : TS_BOTH;
	t->type = xstrdup(cmp <= 0 ? b->v[b->i]->type : n->v[n->i]->type);
	t->cat = cmp < 0 ? b->v[b->i]->cat : n->v[n->i]->cat;
	if (cmp <= 0)
		take_run(b->v, b->n, &b->i, &bns, &t->base_count);
	if (cmp >= 0)
		take_run(n->v, n->n, &n->i, &nns, &t->new_count);
	t->time.base = per(bns, b->steps);
	t->time.new_ = per(nns, n->steps);
}

static void compare_stage_types(const struct snapshot *bs,
                                const struct snapshot *ns, enum stage st,
                                struct comparison *c)
{
	struct type_side b = {NULL, bs->stage[st].ntypes, 0, bs->nsteps};
	struct type_side n = {NULL, ns->stage[st].ntypes, 0, ns->nsteps};

	if (!c->per_step)
		b.steps = n.steps = 0;
	b.v = sorted_types(&bs->stage[st]);
	n.v = sorted_types(&ns->stage[st]);
	while (b.i < b.n || n.i < n.n)
		merge_one(c, st, &b, &n);
	free(b.v);
	free(n.v);
}

static int64_t abs_delta(const struct cmp_type *t)
{
	return checked_abs_diff(t->time.new_, t->time.base);
}

static int by_delta(const void *a, const void *b)
{
	const struct cmp_type *x = a, *y = b;
	int64_t dx = abs_delta(x), dy = abs_delta(y);

	if (dx != dy)
		return dx > dy ? -1 : 1;
	if (x->stage != y->stage)
		return x->stage < y->stage ? -1 : 1;
	return strcmp(x->type, y->type);
}

static void compare_types(const struct snapshot *b, const struct snapshot *n,
                          struct comparison *c)
{
	size_t total = 1;
	int s;

	for (s = 0; s < STAGE_COUNT; s++)
		total += b->stage[s].ntypes + n->stage[s].ntypes;
	c->types = xcalloc(total, sizeof(*c->types));
	for (s = 0; s < STAGE_COUNT; s++)
		compare_stage_types(b, n, (enum stage)s, c);
	qsort(c->types, c->ntypes, sizeof(*c->types), by_delta);
}

/* ---- ranks ----------------------------------------------------------------
 */

/* A snapshot's ranks sorted by id, then by position (see verdict_index). */
static int by_snap_rank(const void *a, const void *b)
{
	const struct snap_rank *const *x = a, *const *y = b;

	if ((*x)->id != (*y)->id)
		return (*x)->id < (*y)->id ? -1 : 1;
	return (*x > *y) - (*x < *y);
}

static const struct snap_rank **rank_index(const struct snapshot *s)
{
	const struct snap_rank **v = xcalloc(s->nranks + 1, sizeof(*v));
	size_t i;

	for (i = 0; i < s->nranks; i++)
		v[i] = &s->ranks[i];
	qsort(v, s->nranks, sizeof(*v), by_snap_rank);
	return v;
}

/* The first rank of the snapshot (ix: its rank_index) with id, or NULL. */
static const struct snap_rank *find_rank(const struct snap_rank **ix, size_t n,
                                         int32_t id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ix[mid]->id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && ix[lo]->id == id ? ix[lo] : NULL;
}

static struct cmp_time rank_time(int64_t b, int64_t n, size_t bs, size_t ns)
{
	struct cmp_time t;

	t.base = per(b, bs);
	t.new_ = per(n, ns);
	return t;
}

static int by_rank_id(const void *a, const void *b)
{
	const struct cmp_rank *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

static void compare_ranks(const struct snapshot *b, const struct snapshot *n,
                          struct comparison *c)
{
	size_t i, bs = c->per_step ? b->nsteps : 0,
	          ns = c->per_step ? n->nsteps : 0;

	const struct snap_rank **bx = rank_index(b), **nx = rank_index(n);

	c->ranks = xcalloc(b->nranks + 1, sizeof(*c->ranks));
	for (i = 0; i < b->nranks; i++) {
		const struct snap_rank *x = &b->ranks[i],
		                       *y = find_rank(nx, n->nranks, x->id);
		struct cmp_rank *r;
		/* first of a repeated id */
		if (!y || find_rank(bx, b->nranks, x->id) != x)
			continue;
		r = &c->ranks[c->nranks++];
		r->id = x->id;
		r->dit_kernel =
		    rank_time(x->dit_kernel_ns, y->dit_kernel_ns, bs, ns);
		r->dit_wall = rank_time(x->dit_wall_ns, y->dit_wall_ns, bs, ns);
		r->dit_exposed =
		    rank_time(x->dit_exposed_ns, y->dit_exposed_ns, bs, ns);
		r->dit_compute =
		    rank_time(x->dit_compute_ns, y->dit_compute_ns, bs, ns);
		r->comm_wait =
		    rank_time(x->comm_wait_ns, y->comm_wait_ns, bs, ns);
	}
	free(bx);
	free(nx);
	qsort(c->ranks, c->nranks, sizeof(*c->ranks), by_rank_id);
}

/* ---- warnings -------------------------------------------------------------
 */

static void warn(struct comparison *c, const char *code, char *a0, char *a1,
                 char *message)
{
	struct cmp_warning *w;

	c->warnings =
	    xrealloc(c->warnings, (c->nwarnings + 1) * sizeof(*c->warnings));
	w = &c->warnings[c->nwarnings++];
	w->code = xstrdup(code);
	w->args[0] = a0;
	w->args[1] = a1;
	w->message = message;
}

static void warn_counts(struct comparison *c, const char *code, size_t b,
                        size_t n, char *message)
{
	warn(c, code, xstrfmt("%zu", b), xstrfmt("%zu", n), message);
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* How many times as often per step the new run launches the DiT kernel
 * types both runs have: the median over those types (the DiT's kernel
 * counts when they share none). Quantization, sparse attention or fusion
 * replace some types, which moves the total kernel count but not the
 * count of the many types they leave alone; another number of denoising
 * iterations or blocks moves them all. *kb, *kn: the DiT kernels per
 * step of each side, for the message. */
static double dit_count_ratio(const struct snapshot *b,
                              const struct snapshot *n, double *kb, double *kn)
{
	const struct snap_stage *sb = &b->stage[STAGE_DIT],
	                        *sn = &n->stage[STAGE_DIT];
	double fb = b->nsteps ? 1.0 / (double)b->nsteps : 1.0,
	       fn = n->nsteps ? 1.0 / (double)n->nsteps : 1.0, med;
	double *r = xcalloc(sb->ntypes + 1, sizeof(*r));
	/* both sides' types by name, walked together: a name's kernels are
	 * summed over its entries (a name may repeat) on each side */
	struct type_side x = {sorted_types(sb), sb->ntypes, 0, 0};
	struct type_side y = {sorted_types(sn), sn->ntypes, 0, 0};
	size_t m = 0;

	while (x.i < x.n) {
		const char *name = x.v[x.i]->type;
		uint64_t cb = 0, cn = 0;
		int64_t ignored = 0;
		int c = -1;
		while (y.i < y.n && (c = strcmp(y.v[y.i]->type, name)) < 0)
			y.i++;
		take_run(x.v, x.n, &x.i, &ignored, &cb);
		if (y.i < y.n && c == 0)
			take_run(y.v, y.n, &y.i, &ignored, &cn);
		if (cb && cn)
			r[m++] = (double)cn * fn / ((double)cb * fb);
	}
	free(x.v);
	free(y.v);
	*kb = (double)sb->kernels * fb;
	*kn = (double)sn->kernels * fn;
	if (m) {
		qsort(r, m, sizeof(*r), cmp_double);
		med = m % 2 ? r[m / 2] : (r[m / 2 - 1] + r[m / 2]) / 2;
	} else {
		med = *kb > 0 ? *kn / *kb : 1.0;
	}
	free(r);
	return med;
}

static void warn_iterations(const struct snapshot *b, const struct snapshot *n,
                            struct comparison *c)
{
	double kb, kn, ratio;

	if (!b->stage[STAGE_DIT].present || !n->stage[STAGE_DIT].present)
		return;
	ratio = dit_count_ratio(b, n, &kb, &kn);
	/* multiplied, not divided: exactly 5% is not "more than 5%" */
	if ((ratio > 1 ? ratio - 1 : 1 - ratio) * 100.0 <=
	    ITERATIONS_TOLERANCE_PCT + 1e-9)
		return;
	warn(c, "iterations_differ", xstrfmt("%.1f", kb), xstrfmt("%.1f", kn),
	     xstrfmt("the DiT runs %.1f kernels per step in the base and %.1f "
	             "in the new run, and the kernel types both have run %.2f "
	             "times as often: a different number of denoising "
	             "iterations or blocks, so times are not like for like",
	             kb, kn, ratio));
}

static void compare_shape(const struct snapshot *b, const struct snapshot *n,
                          struct comparison *c)
{
	if (b->nranks != n->nranks)
		warn_counts(c, "ranks_differ", b->nranks, n->nranks,
		            xstrfmt("the base has %zu rank%s, the new run %zu: "
		                    "only ranks with the same id are compared "
		                    "one to one",
		                    b->nranks, b->nranks == 1 ? "" : "s",
		                    n->nranks));
	if (b->nsteps != n->nsteps)
		warn_counts(
		    c, "steps_differ", b->nsteps, n->nsteps,
		    xstrfmt(
		        "the base has %zu profiler steps, the new run %zu%s",
		        b->nsteps, n->nsteps,
		        c->per_step ? ": times are per step"
		                    : ": times are totals over all steps; "
		                      "use --per-step to compare per step"));
	warn_iterations(b, n, c);
	if (b->tool_version && n->tool_version &&
	    strcmp(b->tool_version, n->tool_version))
		warn(c, "versions_differ", xstrdup(b->tool_version),
		     xstrdup(n->tool_version),
		     xstrfmt("the reports were written by different sdperf "
		             "versions (%s and %s): analysis changes between "
		             "versions show up as differences",
		             b->tool_version, n->tool_version));
}

/* ---- the comparison -------------------------------------------------------
 */

/* The kind both sides share when each is one stage, as the analysis
 * names it (a report's text is matched against the names, never kept). */
static const char *one_stage_kind(const struct snapshot *b,
                                  const struct snapshot *n)
{
	int k;

	if (!b->one_stage_kind || !n->one_stage_kind ||
	    strcmp(b->one_stage_kind, n->one_stage_kind))
		return NULL;
	for (k = 0; k < WORKLOAD_KINDS; k++)
		if (!strcmp(b->one_stage_kind, workload_kind_names[k]))
			return workload_kind_names[k];
	return NULL;
}

int compare_snapshots(const struct snapshot *base, const struct snapshot *new_,
                      int per_step, struct comparison *c, struct err *e)
{
	size_t bs = per_step ? base->nsteps : 0,
	       ns = per_step ? new_->nsteps : 0;
	int s, common = 0;

	memset(c, 0, sizeof(*c));
	c->base_source = xstrdup(base->source ? base->source : "base");
	c->new_source = xstrdup(new_->source ? new_->source : "new");
	c->per_step = per_step;
	c->base_steps = base->nsteps;
	c->new_steps = new_->nsteps;
	c->base_ranks = base->nranks;
	c->new_ranks = new_->nranks;
	for (s = 0; s < STAGE_COUNT; s++) {
		compare_stage(&base->stage[s], &new_->stage[s], bs, ns,
		              &c->stages[s]);
		common |= c->stages[s].in_base && c->stages[s].in_new;
	}
	if (!common)
		return no_common_stage(base, new_, e);
	c->one_stage_kind = one_stage_kind(base, new_);
	compare_verdicts(base, new_, c);
	c->e2e_known = base->has_e2e && new_->has_e2e;
	c->e2e.base = c->e2e_known ? base->e2e_ns : 0;
	c->e2e.new_ = c->e2e_known ? new_->e2e_ns : 0;
	compare_types(base, new_, c);
	compare_ranks(base, new_, c);
	compare_shape(base, new_, c);
	return 0;
}

void comparison_release(struct comparison *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->nverdicts; i++)
		free(c->verdicts[i].id);
	for (i = 0; i < c->ntypes; i++)
		free(c->types[i].type);
	for (i = 0; i < c->nwarnings; i++) {
		free(c->warnings[i].code);
		free(c->warnings[i].args[0]);
		free(c->warnings[i].args[1]);
		free(c->warnings[i].message);
	}
	free(c->verdicts);
	free(c->types);
	free(c->ranks);
	free(c->warnings);
	free(c->base_source);
	free(c->new_source);
	memset(c, 0, sizeof(*c));
}

double cmp_saving_pct(struct cmp_time t)
{
	if (!t.base)
		return 0;
	return 100.0 * (double)(t.base - t.new_) / (double)t.base;
}
