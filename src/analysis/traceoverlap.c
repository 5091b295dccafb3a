/* The Overlap Analysis spans attributed to the stage segments: each span
 * clipped to the segments by binary search and per-stage prefix sums
 * (contract: analysis/tracestages.h). */
#include <stdlib.h>
#include <string.h>

#include "analysis/tracestages.h"
#include "analysis/tracestages_int.h"
#include "util/checked.h"
#include "util/membudget.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* Sums saturate: hostile durations must not overflow. */
static void add_sat(int64_t *acc, int64_t v)
{
	checked_accumulate(acc, v);
}

static int64_t seg_end(const struct segment *s, size_t n, size_t i)
{
	int64_t end = s[i].end_ns;

	if (i + 1 < n && s[i + 1].start_ns < end)
		end =
		    s[i + 1].start_ns; /* the later segment owns the overlap */
	return end > s[i].start_ns ? end : s[i].start_ns;
}

int trace_segclip_init(struct trace_segclip *sc, const struct segment *segs,
                       size_t nsegs, const char *name, struct err *e)
{
	size_t n = segs ? nsegs : 0, i;
	uint64_t cost = (uint64_t)STAGE_COUNT * (n + 1) * sizeof(int64_t);
	int st;

	memset(sc, 0, sizeof(*sc));
	if (membudget_charge(cost))
		return membudget_fail(e, cost,
		                      "%s: Overlap Analysis by stage over %zu "
		                      "stage segments",
		                      name, n);
	sc->charged = cost;
	sc->segs = segs;
	sc->nsegs = n;
	for (st = 0; st < STAGE_COUNT; st++) {
		sc->pre[st] = xcalloc(n + 1, sizeof(*sc->pre[st]));
		for (i = 0; i < n; i++) {
			sc->pre[st][i + 1] = sc->pre[st][i];
			if ((int)segs[i].stage == st)
				add_sat(&sc->pre[st][i + 1],
				        seg_end(segs, n, i) - segs[i].start_ns);
		}
	}
	return 0;
}

void trace_segclip_release(struct trace_segclip *sc)
{
	int st;

	for (st = 0; st < STAGE_COUNT; st++) {
		free(sc->pre[st]);
		sc->pre[st] = NULL;
	}
	membudget_release(sc->charged);
	sc->charged = 0;
}

/* Adds the part of [a, b) inside segment i to ov->stage[][k] and covered. */
static void clip_one(const struct segment *s, size_t n, size_t i, int64_t a,
                     int64_t b, struct trace_overlap *ov, int k,
                     int64_t *covered)
{
	int64_t x = s[i].start_ns > a ? s[i].start_ns : a;
	int64_t y = seg_end(s, n, i) < b ? seg_end(s, n, i) : b;

	if (y > x && (unsigned)s[i].stage < STAGE_COUNT) {
		add_sat(&ov->stage[s[i].stage][k], y - x);
		add_sat(covered, y - x);
	}
}

/* Adds the parts of [a, b) inside each segment to ov->stage[][k]; returns
 * the ns covered. seg_end and the starts are non-decreasing, so binary
 * searches find the first segment that can meet a and the first that
 * starts at or after b; the segments between lie wholly inside [a, b) and
 * add their prefix sums: an event over the whole profile costs O(log n),
 * not a walk over every segment. */
static int64_t clip(const struct trace_segclip *c, int64_t a, int64_t b,
                    struct trace_overlap *ov, int k)
{
	const struct segment *s = c->segs;
	size_t n = c->nsegs, lo = 0, hi = n, end, mid;
	int64_t covered = 0, part;
	int st;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (seg_end(s, n, mid) <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo, hi = n; end < hi;) {
		mid = end + (hi - end) / 2;
		if (s[mid].start_ns < b)
			end = mid + 1;
		else
			hi = mid;
	}
	if (end <= lo)
		return 0;
	clip_one(s, n, lo, a, b, ov, k, &covered);
	if (end - lo >= 2)
		clip_one(s, n, end - 1, a, b, ov, k, &covered);
	for (st = 0; end - lo > 2 && st < STAGE_COUNT; st++) {
		part = c->pre[st][end - 1] - c->pre[st][lo + 1];
		add_sat(&ov->stage[st][k], part);
		add_sat(&covered, part);
	}
	return covered;
}

void trace_overlap_add(struct trace_overlap *ov, const struct trace_segclip *sc,
                       int k, int64_t start_ns, int64_t dur_ns)
{
	int64_t covered;

	if (k < 0 || k >= OV_KINDS || start_ns == INT64_MIN || dur_ns < 0 ||
	    start_ns > INT64_MAX - dur_ns)
		return;
	ov->events++;
	add_sat(&ov->total[k], dur_ns);
	covered = clip(sc, start_ns, start_ns + dur_ns, ov, k);
	add_sat(&ov->outside[k], checked_sub_sat(dur_ns, covered));
}

void trace_overlap_merge(struct trace_overlap *to,
                         const struct trace_overlap *from)
{
	int k, st;

	to->events += from->events;
	for (k = 0; k < OV_KINDS; k++) {
		add_sat(&to->total[k], from->total[k]);
		add_sat(&to->outside[k], from->outside[k]);
		for (st = 0; st < STAGE_COUNT; st++)
			add_sat(&to->stage[st][k], from->stage[st][k]);
	}
}

/* ---- a trace read whole in one pass (input/traceprof.h) ------------------ */

int trace_overlap_from_spans(const struct traceprof *tp, const char *name,
                             const struct segment *segs, size_t nsegs,
                             struct trace_overlap *ov, struct err *e)
{
	struct trace_segclip sc;
	size_t i;
	int k;

	memset(ov, 0, sizeof(*ov));
	ov->found = tp->ov_found;
	if (trace_segclip_init(&sc, segs, nsegs, name, e))
		return -1;
	for (k = 0; k < OV_KINDS; k++)
		for (i = 0; i < tp->nov[k]; i++)
			trace_overlap_add(
			    ov, &sc, k, tp->ov[k][i].start_ns,
			    checked_sub_sat(tp->ov[k][i].end_ns,
			                    tp->ov[k][i].start_ns));
	trace_segclip_release(&sc);
	return 0;
}
