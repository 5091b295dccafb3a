/* Overlap Analysis sums and stage markers from trace_view.json, each in one
 * streamed pass: the prefilter keeps cJSON away from the millions of
 * kernel and operator events that none of this needs. */
#include "analysis/tracestages.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/rules.h"
#include "util/checked.h"
#include "util/hash.h"
#include "util/idmap.h"
#include "util/membudget.h"
#include "util/sortcmp.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define NAME_CACHE 4096 /* slots of the marker-glob cache (power of 2) */

/* Where the input comes from: a file, or bytes in memory. */
struct input {
	const char *name;
	const void *data; /* NULL: name is a path */
	size_t len;
};

static int scan_input(const struct input *in, trace_want_fn want,
                      trace_event_fn fn, void *ctx, struct trace_scan *ts,
                      struct err *e)
{
	if (in->data)
		return trace_scan_mem(in->name, in->data, in->len, want, fn,
		                      ctx, ts, e);
	return trace_scan_file(in->name, want, fn, ctx, ts, e);
}

static int raw_eq(const char *s, size_t len, const char *lit)
{
	return len == strlen(lit) && !memcmp(s, lit, len);
}

static int ov_kind_of(const char *s, size_t len)
{
	int k;

	for (k = 0; k < OV_KINDS; k++)
		if (raw_eq(s, len, ov_trace_names[k]))
			return k;
	return -1;
}

/* ---- pass 1 / re-attribution: per-pid Overlap Analysis sums ------------- */

struct ov_acc {
	int64_t pid;
	struct trace_overlap ov;
};

/* Marker names repeat (the same few hundred operators): the glob verdict
 * of each raw name is cached, so the ~25 globs run once per name. */
struct name_slot {
	uint64_t hash;
	char *name; /* NULL = empty */
	int rule;   /* index of the first matching rule, or -1 */
};

/* The marker globs with a cache of the verdict per raw name. */
struct trace_matcher {
	const struct trace_marker_rule *rules;
	size_t nrules;
	struct strbuf tmp;
	struct name_slot *cache;
	size_t ncache;
};

struct collect {
	struct trace_matcher mt;
	struct trace_segclip clip;
	int want_markers, want_flows;

	struct ov_acc *acc;
	size_t nacc, aacc;
	struct idmap acc_of;  /* pid -> index in acc */
	struct idmap ovpids;  /* pids named "Overlap Analysis" */
	int too_many_pids;    /* more of them than TRACE_MAX_OVERLAP_PIDS */
	uint64_t acc_charged; /* for acc and acc_of */
	int acc_refused;      /* the budget refused another pid's sums */

	struct trace_markerset ms;
	uint64_t flows;
	int host_process, mem_process, shapes;
	uint64_t step_ranges, app_counters, shape_probes;
};

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

/* What a pid's entry in acc_of costs at most: the map keeps its slots at
 * most a quarter full after growing. */
#define ACC_MAP_COST (4 * sizeof(struct idmap_slot))

/* The sums of pid: a keyed map finds them, as a trace may hold any number
 * of distinct pids. One accumulator per pid with spans, charged to the
 * budget with its map slots: NULL when the budget refuses. */
static struct trace_overlap *acc_for(struct collect *c, int64_t pid)
{
	uint64_t *at = idmap_get(&c->acc_of, (uint64_t)pid, 0);
	size_t old = c->aacc;

	if (at)
		return &c->acc[*at].ov;
	if (c->acc_refused || membudget_charge(ACC_MAP_COST)) {
		c->acc_refused = 1;
		return NULL;
	}
	c->acc_charged += ACC_MAP_COST;
	if (membudget_grow(&c->acc, sizeof(*c->acc), c->nacc + 1, &c->aacc)) {
		c->acc_refused = 1;
		return NULL;
	}
	c->acc_charged += (uint64_t)(c->aacc - old) * sizeof(*c->acc);
	idmap_put(&c->acc_of, (uint64_t)pid, 0, c->nacc, NULL);
	memset(&c->acc[c->nacc], 0, sizeof(c->acc[0]));
	c->acc[c->nacc].pid = pid;
	return &c->acc[c->nacc++].ov;
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

static void ov_span(struct collect *c, const struct trace_event *ev, int k)
{
	struct trace_overlap *ov = acc_for(c, ev->pid);

	if (ov)
		trace_overlap_add(ov, &c->clip, k, ev->ts_ns, ev->dur_ns);
}

static void ov_add(struct trace_overlap *to, const struct trace_overlap *from)
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

/* The sums of the pids named "Overlap Analysis", each counted once. */
static void ov_finish(const struct collect *c, struct trace_overlap *ov)
{
	size_t i;

	memset(ov, 0, sizeof(*ov));
	ov->found = c->ovpids.n > 0;
	for (i = 0; i < c->nacc; i++)
		if (idmap_get(&c->ovpids, (uint64_t)c->acc[i].pid, 0))
			ov_add(ov, &c->acc[i].ov);
}

/* ---- pass 1: markers ------------------------------------------------------
 */

int trace_marker_rule_of(const struct trace_marker_rule *rules, size_t n,
                         const char *name)
{
	size_t i;

	for (i = 0; rules && i < n; i++)
		if (rules_glob(rules[i].glob, name))
			return (int)i;
	return -1;
}

static int match_rules(const struct trace_matcher *c, const char *name)
{
	return trace_marker_rule_of(c->rules, c->nrules, name);
}

/* The first rule matching the raw name (cached), or -1. */
static int rule_of(struct trace_matcher *c, const char *raw, size_t len)
{
	uint64_t h;
	size_t i, probes;
	struct name_slot *sl;

	if (len > TRACE_MARKER_NAME_MAX)
		return -1; /* not a marker: nothing cached, nothing copied */
	h = hash_bytes(raw, len);
	i = (size_t)h & (NAME_CACHE - 1);
	strbuf_reset(&c->tmp);
	strbuf_add(&c->tmp, raw, len);
	for (probes = 0; probes < 8; probes++) {
		sl = &c->cache[(i + probes) & (NAME_CACHE - 1)];
		if (!sl->name)
			break;
		if (sl->hash == h && !strcmp(sl->name, c->tmp.buf))
			return sl->rule;
	}
	if (probes == 8 || c->ncache >= NAME_CACHE / 2)
		return match_rules(c, c->tmp.buf); /* full: no caching */
	sl->hash = h;
	sl->name = xstrdup(c->tmp.buf);
	sl->rule = match_rules(c, sl->name);
	c->ncache++;
	return sl->rule;
}

/* ---- markers: a charged list, names kept for the first ----------------- */

/* Host start ascending, the outer of two nested ranges first, then the
 * order found: a total order, so the sort and the name heap agree. */
static int marker_cmp(const void *pa, const void *pb)
{
	const struct trace_marker *a = pa, *b = pb;

	if (a->host_start_ns != b->host_start_ns)
		return a->host_start_ns < b->host_start_ns ? -1 : 1;
	if (a->host_end_ns != b->host_end_ns)
		return a->host_end_ns > b->host_end_ns ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static void heap_swap(struct trace_marker *h, size_t i, size_t j)
{
	struct trace_marker t = h[i];

	h[i] = h[j];
	h[j] = t;
}

static void heap_down(struct trace_marker *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, big = i;
		if (l < n && marker_cmp(&h[l], &h[big]) > 0)
			big = l;
		if (l + 1 < n && marker_cmp(&h[l + 1], &h[big]) > 0)
			big = l + 1;
		if (big == i)
			return;
		heap_swap(h, i, big);
		i = big;
	}
}

/* Keeps the name of m if m is among the first RESULT_MAX_MARKERS. */
static void keep_name(struct trace_markerset *ms, const struct trace_marker *m,
                      const char *name)
{
	struct trace_marker *h = ms->named;
	size_t i;

	if (ms->nnamed == RESULT_MAX_MARKERS) {
		if (marker_cmp(m, &h[0]) >= 0)
			return;
		free(h[0].name);
		h[0] = *m;
		h[0].name = xstrdup(name);
		heap_down(h, ms->nnamed, 0);
		return;
	}
	i = ms->nnamed++;
	h[i] = *m;
	h[i].name = xstrdup(name);
	while (i > 0 && marker_cmp(&h[(i - 1) / 2], &h[i]) < 0) {
		heap_swap(h, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

void trace_markerset_init(struct trace_markerset *ms)
{
	memset(ms, 0, sizeof(*ms));
}

int trace_markerset_add(struct trace_markerset *ms, const char *name,
                        enum stage st, int64_t start_ns, int64_t end_ns)
{
	struct trace_marker *m;
	size_t old = ms->alloc;

	if (ms->refused)
		return -1;
	if (ms->n >= UINT32_MAX ||
	    membudget_grow(&ms->m, sizeof(*ms->m), ms->n + 1, &ms->alloc)) {
		ms->refused = 1;
		return -1;
	}
	ms->charged += (uint64_t)(ms->alloc - old) * sizeof(*ms->m);
	m = &ms->m[ms->n];
	memset(m, 0, sizeof(*m));
	m->seq = (uint32_t)ms->n++;
	m->stage = st;
	m->host_start_ns = m->dev_start_ns = start_ns;
	m->host_end_ns = m->dev_end_ns = end_ns;
	m->method = MARKER_TIME;
	keep_name(ms, m, name);
	return 0;
}

void trace_markerset_finish(struct trace_markerset *ms,
                            struct trace_summary *out)
{
	size_t i;

	if (ms->n)
		qsort(ms->m, ms->n, sizeof(*ms->m), marker_cmp);
	/* the heap holds exactly the first nnamed, by the same order */
	qsort(ms->named, ms->nnamed, sizeof(*ms->named), marker_cmp);
	for (i = 0; i < ms->nnamed; i++) {
		if (i < ms->n && ms->m[i].seq == ms->named[i].seq) {
			ms->m[i].name = ms->named[i].name;
			ms->named[i].name = NULL;
		}
	}
	out->markers = ms->m;
	out->nmarkers = ms->n;
	out->charged += ms->charged;
	ms->m = NULL;
	ms->n = ms->alloc = 0;
	ms->charged = 0;
}

void trace_markerset_release(struct trace_markerset *ms)
{
	size_t i;

	for (i = 0; i < ms->n; i++)
		free(ms->m[i].name);
	free(ms->m);
	for (i = 0; i < ms->nnamed; i++)
		free(ms->named[i].name);
	membudget_release(ms->charged);
	memset(ms, 0, sizeof(*ms));
}

int trace_markerset_fail(const struct trace_markerset *ms, const char *name,
                         struct err *e)
{
	return membudget_fail(e,
	                      (uint64_t)(ms->alloc / 8 + 16) * sizeof(*ms->m),
	                      "%s: stage markers (%zu found)", name, ms->n);
}

static void marker_add(struct collect *c, const struct trace_event *ev)
{
	int r;

	if (strcmp(ev->cat, "cpu_op") && strcmp(ev->cat, "user_annotation"))
		return;
	if (ev->ts_ns == INT64_MIN || ev->dur_ns < 0 ||
	    ev->ts_ns > INT64_MAX - ev->dur_ns)
		return;
	r = match_rules(&c->mt, ev->name); /* the decoded name decides */
	if (r >= 0)
		trace_markerset_add(&c->ms, ev->name, c->mt.rules[r].stage,
		                    ev->ts_ns, ev->ts_ns + ev->dur_ns);
}

/* ---- pass 1 callbacks -----------------------------------------------------
 */

static int is_npu_flow(const struct trace_event *ev)
{
	return !strcmp(ev->cat, "async_npu") ||
	       !strcmp(ev->name, "torch_to_npu");
}

static int collect_want(char ph, const char *name, size_t len, void *ctx)
{
	struct collect *c = ctx;

	if (ph == 'M')
		return raw_eq(name, len, "process_name");
	if (ph == 'C') {
		c->app_counters += len > 4 && !memcmp(name, "APP/", 4);
		return 0;
	}
	if (ph == 'X' && len > 13 && !memcmp(name, "ProfilerStep#", 13))
		c->step_ranges++;
	/* a few framework operators parsed for their Input Dims */
	if (ph == 'X' && !c->shapes && c->shape_probes < TRACE_SHAPE_PROBES &&
	    len > 6 && !memcmp(name, "aten::", 6)) {
		c->shape_probes++;
		return 1;
	}
	if (ph == 's' && c->want_flows) {
		if (!raw_eq(name, len, "torch_to_npu"))
			return 1; /* the cat decides: parse */
		c->flows++;       /* no need to parse to count it */
		return 0;
	}
	if (ph != 'X')
		return 0;
	if (ov_kind_of(name, len) >= 0)
		return 1;
	return c->want_markers && rule_of(&c->mt, name, len) >= 0;
}

/* A pid named "Overlap Analysis", once; the set is capped (the profiler
 * writes one per device). */
static void add_ovpid(struct collect *c, int64_t pid)
{
	if (idmap_get(&c->ovpids, (uint64_t)pid, 0))
		return;
	if (c->ovpids.n >= TRACE_MAX_OVERLAP_PIDS) {
		c->too_many_pids = 1;
		return;
	}
	idmap_put(&c->ovpids, (uint64_t)pid, 0, 0, NULL);
}

static void collect_event(const struct trace_event *ev, void *ctx)
{
	struct collect *c = ctx;
	int k;

	if (ev->ph == 'M') {
		if (strcmp(ev->name, "process_name"))
			return;
		if (!strcmp(ev->arg_name, "Overlap Analysis"))
			add_ovpid(c, ev->pid);
		c->host_process |= !strcmp(ev->arg_name, "Python");
		c->mem_process |= !strcmp(ev->arg_name, "NPU MEM");
	} else if (ev->ph == 's') {
		c->flows += is_npu_flow(ev);
	} else if (ev->ph == 'X') {
		c->shapes |= ev->input_dims;
		k = ov_kind_of(ev->name, strlen(ev->name));
		if (k >= 0)
			ov_span(c, ev, k);
		else if (c->want_markers)
			marker_add(c, ev);
	}
}

static void matcher_init(struct trace_matcher *mt,
                         const struct trace_marker_rule *rules, size_t nrules)
{
	memset(mt, 0, sizeof(*mt));
	mt->rules = rules;
	mt->nrules = rules ? nrules : 0;
	strbuf_init(&mt->tmp);
	if (mt->nrules)
		mt->cache = xcalloc(NAME_CACHE, sizeof(*mt->cache));
}

static void matcher_release(struct trace_matcher *mt)
{
	size_t i;

	for (i = 0; mt->cache && i < NAME_CACHE; i++)
		free(mt->cache[i].name);
	free(mt->cache);
	strbuf_release(&mt->tmp);
}

/* rules may be NULL (no markers wanted). 0, or -1 when the budget refuses
 * the clipping sums (c is released). */
static int collect_init(struct collect *c,
                        const struct trace_marker_rule *rules, size_t nrules,
                        const struct segment *segs, size_t nsegs,
                        const char *name, struct err *e)
{
	memset(c, 0, sizeof(*c));
	matcher_init(&c->mt, rules, nrules);
	idmap_init(&c->acc_of);
	idmap_init(&c->ovpids);
	trace_markerset_init(&c->ms);
	return trace_segclip_init(&c->clip, segs, nsegs, name, e);
}

static void collect_release(struct collect *c)
{
	matcher_release(&c->mt);
	trace_markerset_release(&c->ms);
	trace_segclip_release(&c->clip);
	free(c->acc);
	membudget_release(c->acc_charged);
	idmap_release(&c->acc_of);
	idmap_release(&c->ovpids);
}

/* The scan's budget and cap errors (the scan itself went well). */
static int collect_errors(const struct collect *c, const struct input *in,
                          struct err *e)
{
	if (c->too_many_pids)
		return err_set(e, ERR_INPUT,
		               "%s: more than %u processes named \"Overlap "
		               "Analysis\": not a profiler trace",
		               in->name, TRACE_MAX_OVERLAP_PIDS);
	if (c->ms.refused)
		return trace_markerset_fail(&c->ms, in->name, e);
	if (c->acc_refused)
		return membudget_fail(
		    e, (uint64_t)(c->aacc / 8 + 16) * sizeof(*c->acc),
		    "%s: Overlap Analysis sums of %zu processes", in->name,
		    c->nacc);
	return 0;
}

static int collect_input(const struct input *in,
                         const struct trace_marker_rule *rules, size_t nrules,
                         const struct segment *segs, size_t nsegs,
                         struct trace_summary *out, struct err *e)
{
	struct collect c;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = collect_init(&c, rules, nrules, segs, nsegs, in->name, e);
	c.want_markers = c.mt.nrules > 0;
	c.want_flows = 1;
	if (rc == 0)
		rc = scan_input(in, collect_want, collect_event, &c, &out->scan,
		                e);
	if (rc == 0)
		rc = collect_errors(&c, in, e);
	if (rc == 0) {
		ov_finish(&c, &out->ov);
		trace_markerset_finish(&c.ms, out);
		out->flows = c.flows;
		out->host_process = c.host_process;
		out->mem_process = c.mem_process;
		out->step_ranges = c.step_ranges;
		out->shapes = c.shapes;
		out->app_counters = c.app_counters;
	}
	collect_release(&c);
	return rc;
}

static int overlap_input(const struct input *in, const struct segment *segs,
                         size_t nsegs, struct trace_overlap *ov, struct err *e)
{
	struct collect c;
	struct trace_scan ts;
	int rc;

	rc = collect_init(&c, NULL, 0, segs, nsegs, in->name, e);
	if (rc == 0)
		rc = scan_input(in, collect_want, collect_event, &c, &ts, e);
	if (rc == 0)
		rc = collect_errors(&c, in, e);
	if (rc == 0)
		ov_finish(&c, ov);
	collect_release(&c);
	return rc;
}

/* ---- pass 2: flows --------------------------------------------------------
 */

/* A pending flow end, keyed by a 64-bit keyed hash of its id text (2^20
 * pending ids: a false match has odds of about 2^-24 even then, and ids
 * cannot be chosen to collide without the process key). */
struct flow_slot {
	uint64_t key; /* 0 = empty, 1 = deleted */
	int64_t ts;
	char is_start; /* ts is the host ts of the 's' */
};

struct flows {
	struct trace_summary *sum;
	/* a max tree over the markers' host ends: leaf size + i is marker
	 * i (INT64_MIN past the last), node k the max of 2k and 2k + 1 */
	int64_t *tree;
	size_t size; /* leaves: a power of two */
	struct flow_slot *slot;
	size_t cap, live, used;
	int overflow;
	uint64_t charged; /* the tree and the table's growth */
};

static uint64_t id_key(const char *id)
{
	uint64_t h = hash_bytes(id, strlen(id));

	return h < 2 ? h + 2 : h;
}

/* What the tree over n markers takes. */
static uint64_t tree_bytes(size_t n)
{
	size_t size;

	for (size = 1; size < n; size *= 2)
		;
	return 2 * (uint64_t)size * sizeof(int64_t);
}

static void tree_build(struct flows *f)
{
	const struct trace_summary *s = f->sum;
	size_t i;

	for (f->size = 1; f->size < s->nmarkers; f->size *= 2)
		;
	f->tree = xmalloc(2 * f->size * sizeof(*f->tree));
	for (i = 0; i < f->size; i++)
		f->tree[f->size + i] =
		    i < s->nmarkers ? s->markers[i].host_end_ns : INT64_MIN;
	for (i = f->size - 1; i > 0; i--)
		f->tree[i] = f->tree[2 * i] > f->tree[2 * i + 1]
		                 ? f->tree[2 * i]
		                 : f->tree[2 * i + 1];
}

/* The last marker in [0, lo) of node k's range [a, b) whose host range
 * ends at or after ts, or SIZE_MAX. Right child first; a subtree is
 * entered only when it overlaps [0, lo) and its max reaches ts, so the
 * search visits O(log n) nodes (one fixed marker nesting deep under many
 * small ones no longer costs a walk over all of them per flow). */
static size_t last_reaching(const struct flows *f, size_t k, size_t a, size_t b,
                            size_t lo, int64_t ts)
{
	size_t mid = a + (b - a) / 2, r;

	if (a >= lo || f->tree[k] < ts)
		return SIZE_MAX;
	if (b - a == 1)
		return a;
	r = last_reaching(f, 2 * k + 1, mid, b, lo, ts);
	return r != SIZE_MAX ? r : last_reaching(f, 2 * k, a, mid, lo, ts);
}

/* The innermost marker whose host range holds ts, or NULL: the last one
 * (markers are sorted by start, outer before inner) that starts at or
 * before ts and ends at or after it. */
static struct trace_marker *marker_at(const struct flows *f, int64_t ts)
{
	const struct trace_summary *s = f->sum;
	/* the first marker starting after ts */
	size_t lo = sortcmp_upper_i64(
	           s->markers, s->nmarkers, sizeof(*s->markers),
	           offsetof(struct trace_marker, host_start_ns), ts),
	       i;

	i = last_reaching(f, 1, 0, f->size, lo, ts);
	return i == SIZE_MAX ? NULL : &s->markers[i];
}

static void flow_pair(struct flows *f, int64_t host, int64_t dev)
{
	struct trace_marker *m = marker_at(f, host);

	if (!m)
		return;
	if (!m->flows || dev < m->dev_start_ns)
		m->dev_start_ns = dev;
	if (!m->flows || dev > m->dev_end_ns)
		m->dev_end_ns = dev;
	m->flows++;
}

static void flows_rehash(struct flows *f, size_t cap)
{
	struct flow_slot *old = f->slot;
	size_t oldcap = f->cap, i, j;

	f->slot = xcalloc(cap, sizeof(*f->slot));
	f->cap = cap;
	f->used = f->live;
	for (i = 0; i < oldcap; i++) {
		if (old[i].key < 2)
			continue;
		for (j = old[i].key & (cap - 1); f->slot[j].key;
		     j = (j + 1) & (cap - 1))
			;
		f->slot[j] = old[i];
	}
	free(old);
}

/* Looks the id up: the slot holding it, or the empty slot to put it in. */
static struct flow_slot *flows_find(struct flows *f, uint64_t key)
{
	size_t j = key & (f->cap - 1);
	struct flow_slot *tomb = NULL;

	for (;; j = (j + 1) & (f->cap - 1)) {
		if (f->slot[j].key == key)
			return &f->slot[j];
		if (f->slot[j].key == 1 && !tomb)
			tomb = &f->slot[j];
		if (!f->slot[j].key)
			return tomb ? tomb : &f->slot[j];
	}
}

static void flows_put(struct flows *f, uint64_t key, int64_t ts, int start)
{
	struct flow_slot *sl;

	if (f->live >= TRACE_MAX_PENDING_FLOWS) {
		f->overflow = 1;
		return;
	}
	if ((f->used + 1) * 2 > f->cap) {
		size_t cap = f->live * 4 > f->cap ? f->cap * 2 : f->cap;
		uint64_t more = (uint64_t)(cap - f->cap) * sizeof(*f->slot);
		/* a bigger table is charged; refused, the markers fall back
		 * to time alignment as beyond TRACE_MAX_PENDING_FLOWS */
		if (more && membudget_charge(more)) {
			f->overflow = 1;
			return;
		}
		f->charged += more;
		flows_rehash(f, cap);
	}
	sl = flows_find(f, key);
	if (!sl->key)
		f->used++;
	sl->key = key;
	sl->ts = ts;
	sl->is_start = (char)start;
	f->live++;
}

static int flows_want(char ph, const char *name, size_t len, void *ctx)
{
	(void)name;
	(void)len;
	(void)ctx;
	return ph == 's' || ph == 'f';
}

static void flows_event(const struct trace_event *ev, void *ctx)
{
	struct flows *f = ctx;
	struct flow_slot *sl;
	uint64_t key;
	int start = ev->ph == 's';

	if (!is_npu_flow(ev) || !ev->id[0] || ev->ts_ns == INT64_MIN)
		return;
	key = id_key(ev->id);
	sl = flows_find(f, key);
	if (sl->key == key && sl->is_start != start) {
		flow_pair(f, start ? ev->ts_ns : sl->ts,
		          start ? sl->ts : ev->ts_ns);
		sl->key = 1; /* paired: its slot is free again */
		f->live--;
	} else if (sl->key != key) {
		flows_put(f, key, ev->ts_ns, start);
	}
}

static void flows_finish(struct flows *f)
{
	struct trace_summary *s = f->sum;
	size_t i;

	for (i = 0; i < s->nmarkers; i++) {
		struct trace_marker *m = &s->markers[i];
		if (m->flows && !f->overflow) {
			m->method = MARKER_FLOWS;
			continue;
		}
		m->method = MARKER_TIME;
		m->flows = 0;
		m->dev_start_ns = m->host_start_ns;
		m->dev_end_ns = m->host_end_ns;
	}
}

/* The tree over s's markers, charged to the budget: 0, or -1 with e set
 * naming name (nothing allocated). */
static int flows_init(struct flows *f, struct trace_summary *s,
                      const char *name, struct err *e)
{
	uint64_t cost = tree_bytes(s->nmarkers);
	size_t i;

	memset(f, 0, sizeof(*f));
	if (membudget_charge(cost))
		return membudget_fail(e, cost,
		                      "%s: flow mapping of %zu stage markers",
		                      name, s->nmarkers);
	f->charged = cost;
	f->sum = s;
	tree_build(f);
	for (i = 0; i < s->nmarkers; i++)
		s->markers[i].flows = 0;
	f->cap = 1024;
	f->slot = xcalloc(f->cap, sizeof(*f->slot));
	return 0;
}

static void flows_release(struct flows *f)
{
	membudget_release(f->charged);
	free(f->slot);
	free(f->tree);
}

static int map_input(const struct input *in, struct trace_summary *s,
                     struct err *e)
{
	struct flows f;
	struct trace_scan ts;
	int rc;

	if (!s->nmarkers)
		return 0;
	if (flows_init(&f, s, in->name, e))
		return -1;
	rc = scan_input(in, flows_want, flows_event, &f, &ts, e);
	flows_finish(&f);
	flows_release(&f);
	return rc;
}

struct trace_flowmap {
	struct flows f;
};

struct trace_flowmap *trace_flowmap_begin(struct trace_summary *s,
                                          const char *name, struct err *e)
{
	struct trace_flowmap *m = xmalloc(sizeof(*m));

	if (flows_init(&m->f, s, name, e)) {
		free(m);
		return NULL;
	}
	return m;
}

void trace_flowmap_pair(struct trace_flowmap *m, int64_t host_ns,
                        int64_t dev_ns)
{
	if (m->f.sum->nmarkers)
		flow_pair(&m->f, host_ns, dev_ns);
}

void trace_flowmap_end(struct trace_flowmap *m)
{
	if (!m)
		return;
	flows_finish(&m->f);
	flows_release(&m->f);
	free(m);
}

/* ---- a trace read whole in one pass (input/traceprof.h) ------------------ */

struct trace_matcher *trace_matcher_new(const struct trace_marker_rule *rules,
                                        size_t nrules)
{
	struct trace_matcher *mt = xmalloc(sizeof(*mt));

	matcher_init(mt, rules, nrules);
	return mt;
}

int trace_matcher_match(const char *name, size_t len, void *matcher)
{
	struct trace_matcher *mt = matcher;

	return mt->nrules ? rule_of(mt, name, len) : -1;
}

void trace_matcher_free(struct trace_matcher *mt)
{
	if (!mt)
		return;
	matcher_release(mt);
	free(mt);
}

int trace_markers_from_profile(const struct traceprof *tp, const char *name,
                               const struct trace_marker_rule *rules,
                               size_t nrules, struct trace_summary *out,
                               struct err *e)
{
	struct trace_markerset ms;
	struct flows f;
	size_t i;
	int rc = 0;

	trace_markerset_init(&ms);
	for (i = 0; i < tp->nranges; i++) {
		const struct traceprof_range *r = &tp->ranges[i];
		if (r->rule >= 0 && (size_t)r->rule < nrules &&
		    trace_markerset_add(&ms, r->name, rules[r->rule].stage,
		                        r->start_ns, r->end_ns))
			break;
	}
	if (ms.refused)
		rc = trace_markerset_fail(&ms, name, e);
	else
		trace_markerset_finish(&ms, out);
	trace_markerset_release(&ms);
	if (rc || !out->nmarkers)
		return rc;
	if (flows_init(&f, out, name, e))
		return -1;
	f.overflow = tp->flows_overflow;
	for (i = 0; i < tp->nflows; i++)
		flow_pair(&f, tp->flows[i].host_ns, tp->flows[i].dev_ns);
	flows_finish(&f);
	flows_release(&f);
	return 0;
}

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

/* ---- public ---------------------------------------------------------------
 */

int trace_collect(const char *path, const struct trace_marker_rule *rules,
                  size_t nrules, const struct segment *segs, size_t nsegs,
                  struct trace_summary *out, struct err *e)
{
	struct input in = {path, NULL, 0};
	return collect_input(&in, rules, nrules, segs, nsegs, out, e);
}

int trace_collect_mem(const char *name, const void *data, size_t len,
                      const struct trace_marker_rule *rules, size_t nrules,
                      const struct segment *segs, size_t nsegs,
                      struct trace_summary *out, struct err *e)
{
	struct input in = {name, data ? data : "", len};
	return collect_input(&in, rules, nrules, segs, nsegs, out, e);
}

int trace_map_markers(const char *path, struct trace_summary *out,
                      struct err *e)
{
	struct input in = {path, NULL, 0};
	return map_input(&in, out, e);
}

int trace_map_markers_mem(const char *name, const void *data, size_t len,
                          struct trace_summary *out, struct err *e)
{
	struct input in = {name, data ? data : "", len};
	return map_input(&in, out, e);
}

int trace_attribute_overlap(const char *path, const struct segment *segs,
                            size_t nsegs, struct trace_overlap *ov,
                            struct err *e)
{
	struct input in = {path, NULL, 0};
	return overlap_input(&in, segs, nsegs, ov, e);
}

int trace_attribute_overlap_mem(const char *name, const void *data, size_t len,
                                const struct segment *segs, size_t nsegs,
                                struct trace_overlap *ov, struct err *e)
{
	struct input in = {name, data ? data : "", len};
	return overlap_input(&in, segs, nsegs, ov, e);
}

void trace_summary_release(struct trace_summary *s)
{
	size_t i;

	membudget_release(s->charged);
	for (i = 0; i < s->nmarkers; i++)
		free(s->markers[i].name);
	free(s->markers);
	memset(s, 0, sizeof(*s));
}
