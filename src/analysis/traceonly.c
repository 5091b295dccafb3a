/* Profiler steps of a trace-only profile: ProfilerStep ranges mapped to
 * device time, kernels put in them, the step table from Overlap Analysis. */
#include "analysis/traceonly.h"

#include <stdlib.h>
#include <string.h>

#include "util/checked.h"
#include "util/membudget.h"
#include "util/sortcmp.h"
#include "util/xalloc.h"
#include "util/banned.h"

struct srange {
	int32_t step;
	int64_t host_start, host_end;
	int64_t dev_start, dev_end;
	uint64_t flows;
};

static int cmp_host(const void *pa, const void *pb)
{
	const struct srange *a = pa, *b = pb;

	if (a->host_start != b->host_start)
		return a->host_start < b->host_start ? -1 : 1;
	return (a->step > b->step) - (a->step < b->step);
}

static int cmp_dev(const void *pa, const void *pb)
{
	const struct srange *a = pa, *b = pb;

	if (a->dev_start != b->dev_start)
		return a->dev_start < b->dev_start ? -1 : 1;
	return (a->step > b->step) - (a->step < b->step);
}

static int cmp_kernel(const void *pa, const void *pb)
{
	const struct kernel *a = pa, *b = pb;

	return (a->start_ns > b->start_ns) - (a->start_ns < b->start_ns);
}

static int cmp_step(const void *pa, const void *pb)
{
	const struct srange *a = pa, *b = pb;

	return (a->step > b->step) - (a->step < b->step);
}

/* The step ranges of tp, one per step number (a number seen twice spans
 * both), by step number. Sorting, not searching: a hostile trace may hold
 * millions of ranges. */
static size_t step_ranges(const struct traceprof *tp, struct srange **out)
{
	struct srange *v = xcalloc(tp->nranges ? tp->nranges : 1, sizeof(*v));
	size_t i, n = 0, m = 0;

	for (i = 0; i < tp->nranges; i++) {
		const struct traceprof_range *r = &tp->ranges[i];
		if (r->rule >= 0 || r->step == STEP_NONE)
			continue;
		v[n].step = r->step;
		v[n].host_start = r->start_ns;
		v[n++].host_end = r->end_ns;
	}
	qsort(v, n, sizeof(*v), cmp_step);
	for (i = 0; i < n; i++) {
		if (m && v[m - 1].step == v[i].step) {
			if (v[i].host_start < v[m - 1].host_start)
				v[m - 1].host_start = v[i].host_start;
			if (v[i].host_end > v[m - 1].host_end)
				v[m - 1].host_end = v[i].host_end;
			continue;
		}
		v[m++] = v[i];
	}
	*out = v;
	return m;
}

/* The range whose host range holds ts (the latest starting), or NULL. */
static struct srange *range_at(struct srange *v, size_t n, int64_t ts)
{
	size_t lo = sortcmp_upper_i64(v, n, sizeof(*v),
	                              offsetof(struct srange, host_start), ts);

	return lo && v[lo - 1].host_end >= ts ? &v[lo - 1] : NULL;
}

static void map_to_device(struct srange *v, size_t n,
                          const struct traceprof *tp)
{
	size_t i;

	for (i = 0; !tp->flows_overflow && i < tp->nflows; i++) {
		struct srange *r = range_at(v, n, tp->flows[i].host_ns);
		int64_t d = tp->flows[i].dev_ns;
		if (!r)
			continue;
		if (!r->flows || d < r->dev_start)
			r->dev_start = d;
		if (!r->flows || d > r->dev_end)
			r->dev_end = d;
		r->flows++;
	}
	for (i = 0; i < n; i++)
		if (!v[i].flows) {
			v[i].dev_start = v[i].host_start;
			v[i].dev_end = v[i].host_end;
		}
}

void traceonly_assign_steps(struct kernel_table *kt, const struct traceprof *tp,
                            struct traceonly_steps *out)
{
	struct srange *v;
	size_t n = step_ranges(tp, &v), i, r = 0;

	memset(out, 0, sizeof(*out));
	out->ranges = n;
	qsort(v, n, sizeof(*v), cmp_host);
	map_to_device(v, n, tp);
	for (i = 0; i < n; i++)
		out->by_flows += v[i].flows > 0;
	qsort(v, n, sizeof(*v), cmp_dev);
	/* stable enough: the analysis sorts stably by start again */
	qsort(kt->v, kt->n, sizeof(*kt->v), cmp_kernel);
	for (i = 0; i < kt->n; i++) {
		struct kernel *k = &kt->v[i];
		while (r < n && v[r].dev_start <= k->start_ns)
			r++;
		k->step = r ? v[r - 1].step : STEP_NONE;
		out->outside += !r && n;
	}
	free(v);
}

/* ---- the step table ---------------------------------------------------- */

struct window {
	int32_t step;
	int64_t start, end; /* end clipped where the next window begins */
};

/* One window per run of kernels of one step (kt sorted by start): one per
 * step, as steps were given in start order. */
static size_t windows(const struct kernel_table *kt, struct window **out)
{
	struct window *w = NULL;
	size_t n = 0, alloc = 0, i;

	for (i = 0; i < kt->n; i++) {
		const struct kernel *k = &kt->v[i];
		int64_t end = checked_add_sat(k->start_ns, k->dur_ns);
		if (!n || w[n - 1].step != k->step) {
			w = xgrow(w, sizeof(*w), n + 1, &alloc);
			w[n].step = k->step;
			w[n].start = k->start_ns;
			w[n++].end = end;
		} else if (end > w[n - 1].end) {
			w[n - 1].end = end;
		}
	}
	for (i = 0; i + 1 < n; i++)
		if (w[i].end > w[i + 1].start)
			w[i].end = w[i + 1].start; /* the later owns it */
	*out = w;
	return n;
}

static int64_t *row_field(struct step_stat *row, int k)
{
	return k == 0   ? &row->computing_ns
	       : k == 1 ? &row->comm_ns
	       : k == 2 ? &row->not_overlapped_ns
	                : &row->free_ns;
}

/* Adds the part of [a, b) inside window i to its row's kind k. */
static void clip_one(const struct window *w, size_t i, int64_t a, int64_t b,
                     struct step_stat *rows, int k)
{
	int64_t x = w[i].start > a ? w[i].start : a;
	int64_t y = w[i].end < b ? w[i].end : b;

	if (y > x)
		checked_accumulate(row_field(&rows[i], k),
		                   checked_sub_sat(y, x));
}

/* Adds the parts of [a, b) inside each window to that row's kind k. The
 * windows are sorted and disjoint: binary searches find the first and the
 * last one [a, b) meets, which are clipped; the ones between lie wholly
 * inside it and are only counted in full[] (+1 at the first, -1 after the
 * last), summed once at the end (rows_add_full): a span over every step
 * costs O(log n), not a walk over all of them. */
static void clip_span(const struct window *w, size_t n, int64_t a, int64_t b,
                      struct step_stat *rows, int k, int64_t *full)
{
	size_t lo = 0, hi = n, end, mid;

	while (lo < hi) { /* first window ending after a */
		mid = lo + (hi - lo) / 2;
		if (w[mid].end <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo, hi = n; end < hi;) { /* first starting at or after b */
		mid = end + (hi - end) / 2;
		if (w[mid].start < b)
			end = mid + 1;
		else
			hi = mid;
	}
	if (end <= lo)
		return;
	clip_one(w, lo, a, b, rows, k);
	if (end - lo >= 2)
		clip_one(w, end - 1, a, b, rows, k);
	if (end - lo > 2) {
		full[lo + 1]++;
		full[end - 1]--;
	}
}

/* Each window's whole length, times the spans of kind k that cover it. */
static void rows_add_full(const struct window *w, size_t n, const int64_t *full,
                          struct step_stat *rows, int k)
{
	int64_t cover = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		cover += full[i];
		if (cover > 0)
			checked_accumulate(
			    row_field(&rows[i], k),
			    checked_muldiv(
			        checked_sub_sat(w[i].end, w[i].start), cover,
			        1));
	}
}

int traceonly_step_rows(const struct kernel_table *kt,
                        const struct traceprof *tp, struct step_stat **rows,
                        size_t *nrows)
{
	struct window *w;
	struct srange *v, key, *r;
	size_t n, nv, i, j;
	struct step_stat *s;
	int64_t *full;
	uint64_t cost;
	int k;

	*rows = NULL;
	*nrows = 0;
	if (!tp->ov_found || !kt->n)
		return 0;
	n = windows(kt, &w);
	/* the rows (the caller's) and the per-window sums */
	cost = (uint64_t)n * (sizeof(*s) + sizeof(*full));
	if (membudget_charge(cost)) {
		free(w);
		*nrows = n;
		return -1;
	}
	nv = step_ranges(tp, &v);
	s = xcalloc(n, sizeof(*s));
	full = xmalloc((n + 1) * sizeof(*full));
	for (k = 0; k < OV_KINDS; k++) {
		memset(full, 0, (n + 1) * sizeof(*full));
		for (j = 0; j < tp->nov[k]; j++)
			clip_span(w, n, tp->ov[k][j].start_ns,
			          tp->ov[k][j].end_ns, s, k, full);
		rows_add_full(w, n, full, s, k);
	}
	free(full);
	for (i = 0; i < n; i++) {
		s[i].step = w[i].step;
		s[i].stage_ns = checked_add_sat(
		    checked_add_sat(s[i].computing_ns, s[i].not_overlapped_ns),
		    s[i].free_ns);
		s[i].preparing_ns = -1;
		key.step = w[i].step;
		r = w[i].step == STEP_NONE
		        ? NULL
		        : bsearch(&key, v, nv, sizeof(*v), cmp_step);
		if (r)
			s[i].preparing_ns =
			    checked_sub_sat(w[i].start, r->host_start);
	}
	free(v);
	free(w);
	membudget_release((uint64_t)n * sizeof(*full));
	*rows = s;
	*nrows = n;
	return 0;
}
