/* Overlap Analysis, stage markers and per-step split from the SQLite
 * export: its rows go through tracestages.h's arithmetic (see dbstages.h).
 */
#include "analysis/dbstages.h"

#include <stdlib.h>
#include <string.h>

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
	trace_segclip_init(&c.clip, segs, nsegs);
	memset(ov, 0, sizeof(*ov));
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
	struct trace_marker *m;
	size_t n, alloc;
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
	struct trace_marker *m;

	if (r < 0)
		return;
	c->m = xgrow(c->m, sizeof(*c->m), c->n + 1, &c->alloc);
	m = &c->m[c->n++];
	memset(m, 0, sizeof(*m));
	m->name = xstrdup(name);
	m->stage = c->rules[r].stage;
	m->host_start_ns = m->dev_start_ns = a;
	m->host_end_ns = m->dev_end_ns = b;
	m->method = MARKER_TIME;
}

int dbstages_collect(struct db *db, const struct trace_marker_rule *rules,
                     size_t nrules, const struct segment *segs, size_t nsegs,
                     struct trace_summary *out, uint64_t *skipped,
                     struct err *e)
{
	struct mk_ctx c = {rules, rules ? nrules : 0, NULL, 0, 0};
	int rc;

	memset(out, 0, sizeof(*out));
	out->scan.size = db_about(db)->size;
	rc = overlap(db, segs, nsegs, &out->ov, skipped, e);
	if (!rc && c.nrules)
		rc = db_host_ranges(db, mk_want, mk_range, &c, e);
	trace_markers_sort(c.m, c.n);
	out->markers = c.m;
	out->nmarkers = c.n;
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
	m = trace_flowmap_begin(out);
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
	size_t lo = 0, hi = p->n, i;

	while (lo < hi) { /* first step starting after a */
		size_t mid = lo + (hi - lo) / 2;
		if (p->s[mid].start_ns <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
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
	size_t n, alloc;
};

/* Adds [a, b) to a union built from intervals sorted by start. */
static void ivl_add(struct ivls *u, int64_t a, int64_t b)
{
	if (u->n && a <= u->v[u->n - 1][1]) {
		if (b > u->v[u->n - 1][1])
			u->v[u->n - 1][1] = b;
		return;
	}
	u->v = xgrow(u->v, sizeof(*u->v), u->n + 1, &u->alloc);
	u->v[u->n][0] = a;
	u->v[u->n++][1] = b;
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

static void split_step(const struct kernel_table *kt, const char *hccl,
                       const struct db_step *s, struct ivls *u,
                       struct step_stat *st)
{
	size_t i = first_at(kt, s->start_ns);
	int64_t first = INT64_MAX, last = INT64_MIN, comp, comm, both;

	u[0].n = u[1].n = 0;
	for (; i < kt->n && kt->v[i].start_ns <= s->end_ns; i++) {
		const struct kernel *k = &kt->v[i];
		int64_t end = k->start_ns + k->dur_ns;
		ivl_add(&u[hccl[k->key] != 0], k->start_ns, end);
		first = k->start_ns < first ? k->start_ns : first;
		last = end > last ? end : last;
	}
	if (first == INT64_MAX)
		return;
	comp = ivl_len(&u[0]);
	comm = ivl_len(&u[1]);
	both = ivl_common(&u[0], &u[1]);
	st->computing_ns = comp;
	st->comm_ns = comm;
	st->not_overlapped_ns = comm - both;
	st->free_ns = (last - first) - (comp + comm - both);
	st->preparing_ns = first - s->start_ns;
}

static void split_by_kernels(const struct kernel_table *kt,
                             const struct db_step *s, size_t n,
                             struct step_stat *st)
{
	char *hccl = xcalloc(kt->keys.n ? kt->keys.n : 1, 1);
	struct ivls u[2] = {{NULL, 0, 0}, {NULL, 0, 0}};
	size_t i;

	for (i = 0; i < kt->keys.n; i++)
		hccl[i] = !strcmp(kernel_key_core(kt, (uint32_t)i), "HCCL");
	for (i = 0; i < n; i++)
		split_step(kt, hccl, &s[i], u, &st[i]);
	free(u[0].v);
	free(u[1].v);
	free(hccl);
}

int dbstages_steps(struct db *db, const struct kernel_table *kt,
                   struct step_stat **out, size_t *n, int *from_kernels,
                   struct err *e)
{
	struct split p = {NULL, 0, NULL, NULL};
	struct db_step *s;
	struct step_stat *st;
	size_t i;
	int rc = 0;

	*out = NULL;
	*n = 0;
	*from_kernels = !db_has(db, DBT_OVERLAP_ANALYSIS);
	if (db_read_steps(db, &s, n, e))
		return -1;
	if (!*n)
		return 0;
	st = xcalloc(*n, sizeof(*st));
	for (i = 0; i < *n; i++) {
		st[i].step = s[i].id;
		st[i].preparing_ns = -1;
	}
	if (*from_kernels) {
		split_by_kernels(kt, s, *n, st);
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
		st[i].stage_ns = st[i].computing_ns + st[i].not_overlapped_ns +
		                 st[i].free_ns;
	free(p.sum);
	free(p.first);
	free(s);
	*out = st;
	return rc;
}
