/* Overlap Analysis, stage markers and per-step split from the SQLite
 * export: its rows go through tracestages.h's arithmetic (see dbstages.h).
 */
#include "analysis/dbstages.h"

#include <stdlib.h>
#include <string.h>

#include "util/checked.h"
#include "util/membudget.h"
#include "util/sortcmp.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* ---- Overlap Analysis ---------------------------------------------------
 */

struct ov_ctx {
	struct trace_overlap *ov;
	struct trace_segclip clip;
};

static void ov_span(int k, int64_t a, int64_t b, void *ctx)
{
	struct ov_ctx *c = ctx;
	trace_overlap_add(c->ov, &c->clip, k, a, b - a);
}

static int overlap(struct db *db, const struct segment *segs, size_t nsegs,
                   struct trace_overlap *ov, uint64_t *skipped, struct err *e)
{
	struct ov_ctx c;
	int rc;

	c.ov = ov;
	memset(ov, 0, sizeof(*ov));
	if (trace_segclip_init(&c.clip, segs, nsegs, db_about(db)->path, e))
		return -1;
	ov->found = db_has(db, DBT_OVERLAP_ANALYSIS);
	rc = db_overlap_each(db, ov_span, &c, skipped, e);
	trace_segclip_release(&c.clip);
	return rc;
}

int dbstages_attribute_overlap(struct db *db, const struct segment *segs,
                               size_t nsegs, struct trace_overlap *ov,
                               struct err *e)
{
	uint64_t skipped;
	return overlap(db, segs, nsegs, ov, &skipped, e);
}

/* ---- markers ------------------------------------------------------------
 */

struct mk_ctx {
	const struct trace_marker_rule *rules;
	size_t nrules;
	struct trace_markerset ms; /* charged, names kept for the first */
};

static int mk_want(const char *name, void *ctx)
{
	const struct mk_ctx *c = ctx;
	return trace_marker_rule_of(c->rules, c->nrules, name) >= 0;
}

static void mk_range(const char *name, int64_t a, int64_t b, void *ctx)
{
	struct mk_ctx *c = ctx;
	int r = trace_marker_rule_of(c->rules, c->nrules, name);

	if (r >= 0)
		trace_markerset_add(&c->ms, name, c->rules[r].stage, a, b);
}

int dbstages_collect(struct db *db, const struct trace_marker_rule *rules,
                     size_t nrules, const struct segment *segs, size_t nsegs,
                     struct trace_summary *out, uint64_t *skipped,
                     struct err *e)
{
	struct mk_ctx c;
	int rc;

	c.rules = rules;
	c.nrules = rules ? nrules : 0;
	trace_markerset_init(&c.ms);
	memset(out, 0, sizeof(*out));
	out->scan.size = db_about(db)->size;
	rc = overlap(db, segs, nsegs, &out->ov, skipped, e);
	if (!rc && c.nrules)
		rc = db_host_ranges(db, mk_want, mk_range, &c, e);
	if (!rc && c.ms.refused)
		rc = trace_markerset_fail(&c.ms, db_about(db)->path, e);
	if (!rc)
		trace_markerset_finish(&c.ms, out);
	trace_markerset_release(&c.ms);
	return rc;
}

static void flow(int64_t host, int64_t dev, void *ctx)
{
	trace_flowmap_pair(ctx, host, dev);
}

int dbstages_map_markers(struct db *db, struct trace_summary *out,
                         struct err *e)
{
	struct trace_flowmap *m;
	int rc;

	if (!out->nmarkers)
		return 0;
	if (!(m = trace_flowmap_begin(out, db_about(db)->path, e)))
		return -1;
	rc = db_flows_each(db, flow, m, e);
	trace_flowmap_end(m);
	return rc;
}

/* ---- steps from OVERLAP_ANALYSIS ----------------------------------------
 */

struct split {
	const struct db_step *s;
	size_t n;
	int64_t (*sum)[OV_KINDS];
	int64_t *first; /* first computing/communication start, per step */
};

/* Adds the parts of [a, b) inside each step (steps do not overlap). */
static void split_span(int k, int64_t a, int64_t b, void *ctx)
{
	struct split *p = ctx;
	/* the first step starting after a */
	size_t lo = sortcmp_upper_i64(p->s, p->n, sizeof(*p->s),
	                              offsetof(struct db_step, start_ns), a),
	       i;

	for (i = lo ? lo - 1 : 0; i < p->n && p->s[i].start_ns < b; i++) {
		int64_t x = a > p->s[i].start_ns ? a : p->s[i].start_ns;
		int64_t y = b < p->s[i].end_ns ? b : p->s[i].end_ns;
		if (y <= x)
			continue;
		p->sum[i][k] += y - x;
		if (k <= OV_COMM && x < p->first[i])
			p->first[i] = x;
	}
}

static int split_by_overlap(struct db *db, struct split *p,
                            struct step_stat *st, struct err *e)
{
	uint64_t skipped;
	size_t i;

	if (db_overlap_each(db, split_span, p, &skipped, e))
		return -1;
	for (i = 0; i < p->n; i++) {
		st[i].computing_ns = p->sum[i][OV_COMPUTING];
		st[i].comm_ns = p->sum[i][OV_COMM];
		st[i].not_overlapped_ns = p->sum[i][OV_NOT_OVERLAPPED];
		st[i].free_ns = p->sum[i][OV_FREE];
		st[i].preparing_ns = p->first[i] == INT64_MAX
		                         ? -1
		                         : p->first[i] - p->s[i].start_ns;
	}
	return 0;
}

/* ---- steps from the kernels ---------------------------------------------
 */

struct ivls {
	int64_t (*v)[2];
	size_t n, alloc; /* alloc: charged to the memory budget */
};

/* Adds [a, b) to a union built from intervals sorted by start: 0, or -1
 * when the budget refuses its growth. */
static int ivl_add(struct ivls *u, int64_t a, int64_t b)
{
	if (u->n && a <= u->v[u->n - 1][1]) {
		if (b > u->v[u->n - 1][1])
			u->v[u->n - 1][1] = b;
		return 0;
	}
	if (membudget_grow(&u->v, sizeof(*u->v), u->n + 1, &u->alloc))
		return -1;
	u->v[u->n][0] = a;
	u->v[u->n++][1] = b;
	return 0;
}

static int64_t ivl_len(const struct ivls *u)
{
	int64_t t = 0;
	size_t i;

	for (i = 0; i < u->n; i++)
		t += u->v[i][1] - u->v[i][0];
	return t;
}

/* Length of the intersection of two unions. */
static int64_t ivl_common(const struct ivls *x, const struct ivls *y)
{
	size_t i = 0, j = 0;
	int64_t t = 0;

	while (i < x->n && j < y->n) {
		int64_t a = x->v[i][0] > y->v[j][0] ? x->v[i][0] : y->v[j][0];
		int64_t b = x->v[i][1] < y->v[j][1] ? x->v[i][1] : y->v[j][1];
		t += b > a ? b - a : 0;
		if (x->v[i][1] < y->v[j][1])
			i++;
		else
			j++;
	}
	return t;
}

/* First kernel of kt starting at or after t. */
static size_t first_at(const struct kernel_table *kt, int64_t t)
{
	size_t lo = 0, hi = kt->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (kt->v[mid].start_ns < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int split_step(const struct kernel_table *kt, const char *hccl,
                      const struct db_step *s, struct ivls *u,
                      struct step_stat *st)
{
	size_t i = first_at(kt, s->start_ns);
	int64_t first = INT64_MAX, last = INT64_MIN, comp, comm, both;

	u[0].n = u[1].n = 0;
	for (; i < kt->n && kt->v[i].start_ns <= s->end_ns; i++) {
		const struct kernel *k = &kt->v[i];
		int64_t end = k->start_ns + k->dur_ns;
		if (ivl_add(&u[hccl[k->key] != 0], k->start_ns, end))
			return -1;
		first = k->start_ns < first ? k->start_ns : first;
		last = end > last ? end : last;
	}
	if (first == INT64_MAX)
		return 0;
	comp = ivl_len(&u[0]);
	comm = ivl_len(&u[1]);
	both = ivl_common(&u[0], &u[1]);
	st->computing_ns = comp;
	st->comm_ns = comm;
	st->not_overlapped_ns = comm - both;
	st->free_ns = (last - first) - (comp + comm - both);
	st->preparing_ns = first - s->start_ns;
	return 0;
}

/* 0, or -1 with e set when the budget refuses the interval unions. */
static int split_by_kernels(const struct kernel_table *kt, struct db *db,
                            const struct db_step *s, size_t n,
                            struct step_stat *st, struct err *e)
{
	char *hccl = xcalloc(kt->keys.n ? kt->keys.n : 1, 1);
	struct ivls u[2] = {{NULL, 0, 0}, {NULL, 0, 0}};
	size_t i;
	int rc = 0;

	for (i = 0; i < kt->keys.n; i++)
		hccl[i] = !strcmp(kernel_key_core(kt, (uint32_t)i), "HCCL");
	for (i = 0; i < n && !rc; i++)
		rc = split_step(kt, hccl, &s[i], u, &st[i]);
	if (rc)
		membudget_fail(
		    e, (uint64_t)(u[0].alloc + u[1].alloc) / 8 * 16 + 256,
		    "%s: STEP_TIME step %d split by its kernels",
		    db_about(db)->path, (int)s[i - 1].id);
	membudget_release((uint64_t)(u[0].alloc + u[1].alloc) *
	                  sizeof(*u[0].v));
	free(u[0].v);
	free(u[1].v);
	free(hccl);
	return rc;
}

int dbstages_steps(struct db *db, const struct kernel_table *kt,
                   struct step_stat **out, size_t *n, int *from_kernels,
                   struct err *e)
{
	struct split p = {NULL, 0, NULL, NULL};
	struct db_step *s;
	struct step_stat *st;
	uint64_t cost, work;
	size_t i;
	int rc = 0;

	*out = NULL;
	*n = 0;
	*from_kernels = !db_has(db, DBT_OVERLAP_ANALYSIS);
	if (db_read_steps(db, &s, n, e))
		return -1;
	if (!*n)
		return 0;
	/* the rows (the caller's, charged) and the split's sums */
	cost = (uint64_t)*n * sizeof(*st);
	work = *from_kernels ? 0 : (uint64_t)*n * (sizeof(*p.sum) + 8);
	if (membudget_charge(cost + work)) {
		rc = membudget_fail(e, cost + work, "%s: STEP_TIME (%zu steps)",
		                    db_about(db)->path, *n);
		db_steps_free(s, *n);
		*n = 0;
		return rc;
	}
	st = xcalloc(*n, sizeof(*st));
	for (i = 0; i < *n; i++) {
		st[i].step = s[i].id;
		st[i].preparing_ns = -1;
	}
	if (*from_kernels) {
		rc = split_by_kernels(kt, db, s, *n, st, e);
	} else {
		p.s = s;
		p.n = *n;
		p.sum = xcalloc(*n, sizeof(*p.sum));
		p.first = xmalloc(*n * sizeof(*p.first));
		for (i = 0; i < *n; i++)
			p.first[i] = INT64_MAX;
		rc = split_by_overlap(db, &p, st, e);
	}
	for (i = 0; i < *n; i++)
		st[i].stage_ns =
		    checked_add_sat(checked_add_sat(st[i].computing_ns,
		                                    st[i].not_overlapped_ns),
		                    st[i].free_ns);
	free(p.sum);
	free(p.first);
	membudget_release(work);
	db_steps_free(s, *n);
	*out = st;
	return rc;
}
