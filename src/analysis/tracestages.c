/* Overlap Analysis sums and stage markers from trace_view.json, each in one
 * streamed pass: the prefilter keeps cJSON away from the millions of
 * kernel and operator events that none of this needs. */
#include "analysis/tracestages.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/rules.h"
#include "util/membudget.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

const char *const ov_names[OV_KINDS] = {
    "Computing", "Communication", "Communication(Not Overlapped)", "Free"};

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
		if (raw_eq(s, len, ov_names[k]))
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

struct collect {
	const struct trace_marker_rule *rules;
	size_t nrules;
	const struct segment *segs;
	size_t nsegs;
	int want_markers, want_flows;

	struct ov_acc *acc;
	size_t nacc, aacc;
	int64_t *ovpids; /* pids named "Overlap Analysis" */
	size_t novpids, aovpids;
	int too_many_pids; /* more pids named Overlap Analysis than the cap */

	struct trace_marker *m;
	size_t nm, am;
	uint64_t flows;
	uint64_t charged;     /* for m */
	uint64_t acc_charged; /* for acc */
	int refused;          /* the budget refused more markers */
	/* the names of the first RESULT_MAX_MARKERS markers (by
	 * marker_cmp): a max-heap, the last of them on top */
	struct trace_marker named[RESULT_MAX_MARKERS];
	size_t nnamed;

	struct strbuf tmp;
	struct name_slot *cache;
	size_t ncache;
};

/* Sums saturate: hostile durations must not overflow. */
static void add_sat(int64_t *acc, int64_t v)
{
	*acc = *acc > INT64_MAX - v ? INT64_MAX : *acc + v;
}

static int64_t seg_end(const struct segment *s, size_t n, size_t i)
{
	int64_t end = s[i].end_ns;

	if (i + 1 < n && s[i + 1].start_ns < end)
		end =
		    s[i + 1].start_ns; /* the later segment owns the overlap */
	return end > s[i].start_ns ? end : s[i].start_ns;
}

/* Adds the parts of [a, b) inside each segment to ov->stage[][k]; returns
 * the ns covered. seg_end is non-decreasing, so a binary search finds the
 * first segment that can meet a. */
static int64_t clip(const struct segment *s, size_t n, int64_t a, int64_t b,
                    struct trace_overlap *ov, int k)
{
	size_t lo = 0, hi = n, i;
	int64_t covered = 0, x, y;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (seg_end(s, n, mid) <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < n && s[i].start_ns < b; i++) {
		x = s[i].start_ns > a ? s[i].start_ns : a;
		y = seg_end(s, n, i) < b ? seg_end(s, n, i) : b;
		if (y > x && (unsigned)s[i].stage < STAGE_COUNT) {
			add_sat(&ov->stage[s[i].stage][k], y - x);
			covered += y - x;
		}
	}
	return covered;
}

static struct trace_overlap *acc_for(struct collect *c, int64_t pid)
{
	size_t i, old;

	for (i = 0; i < c->nacc; i++)
		if (c->acc[i].pid == pid)
			return &c->acc[i].ov;
	/* one accumulator per pid with spans: charged to the budget */
	old = c->aacc;
	if (c->refused ||
	    membudget_grow(&c->acc, sizeof(*c->acc), c->nacc + 1, &c->aacc)) {
		c->refused = 1;
		return NULL;
	}
	c->acc_charged += (uint64_t)(c->aacc - old) * sizeof(*c->acc);
	memset(&c->acc[c->nacc], 0, sizeof(c->acc[0]));
	c->acc[c->nacc].pid = pid;
	return &c->acc[c->nacc++].ov;
}

static void ov_span(struct collect *c, const struct trace_event *ev, int k)
{
	struct trace_overlap *ov;
	int64_t covered;

	if (ev->ts_ns == INT64_MIN || ev->dur_ns < 0 ||
	    ev->ts_ns > INT64_MAX - ev->dur_ns)
		return;
	ov = acc_for(c, ev->pid);
	if (!ov)
		return;
	ov->events++;
	add_sat(&ov->total[k], ev->dur_ns);
	covered =
	    clip(c->segs, c->nsegs, ev->ts_ns, ev->ts_ns + ev->dur_ns, ov, k);
	add_sat(&ov->outside[k], ev->dur_ns - covered);
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
	size_t i, j;

	memset(ov, 0, sizeof(*ov));
	ov->found = c->novpids > 0;
	for (i = 0; i < c->nacc; i++)
		for (j = 0; j < c->novpids; j++)
			if (c->acc[i].pid == c->ovpids[j]) {
				ov_add(ov, &c->acc[i].ov);
				break;
			}
}

/* ---- pass 1: markers ------------------------------------------------------
 */

static uint64_t hash_bytes(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

static int match_rules(const struct collect *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->nrules; i++)
		if (rules_glob(c->rules[i].glob, name))
			return (int)i;
	return -1;
}

/* The first rule matching the raw name (cached), or -1. */
static int rule_of(struct collect *c, const char *raw, size_t len)
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

/* Host start ascending, the outer of two nested ranges first, then file
 * order: a total order, so the sort and the name heap agree. */
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
static void keep_name(struct collect *c, const struct trace_marker *m,
                      const char *name)
{
	struct trace_marker *h = c->named;
	size_t i;

	if (c->nnamed == RESULT_MAX_MARKERS) {
		if (marker_cmp(m, &h[0]) >= 0)
			return;
		free(h[0].name);
		h[0] = *m;
		h[0].name = xstrdup(name);
		heap_down(h, c->nnamed, 0);
		return;
	}
	i = c->nnamed++;
	h[i] = *m;
	h[i].name = xstrdup(name);
	while (i > 0 && marker_cmp(&h[(i - 1) / 2], &h[i]) < 0) {
		heap_swap(h, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

static void marker_add(struct collect *c, const struct trace_event *ev)
{
	struct trace_marker *m;
	size_t old = c->am;
	int r;

	if (strcmp(ev->cat, "cpu_op") && strcmp(ev->cat, "user_annotation"))
		return;
	if (ev->ts_ns == INT64_MIN || ev->dur_ns < 0 ||
	    ev->ts_ns > INT64_MAX - ev->dur_ns)
		return;
	r = match_rules(c, ev->name); /* the decoded name decides */
	if (r < 0 || c->refused)
		return;
	if (c->nm >= UINT32_MAX ||
	    membudget_grow(&c->m, sizeof(*c->m), c->nm + 1, &c->am)) {
		c->refused = 1;
		return;
	}
	c->charged += (uint64_t)(c->am - old) * sizeof(*c->m);
	m = &c->m[c->nm];
	m->name = NULL;
	m->seq = (uint32_t)c->nm++;
	m->stage = c->rules[r].stage;
	m->host_start_ns = m->dev_start_ns = ev->ts_ns;
	m->host_end_ns = m->dev_end_ns = ev->ts_ns + ev->dur_ns;
	m->method = MARKER_TIME;
	m->flows = 0;
	keep_name(c, m, ev->name);
}

/* Sorts the markers and hands the kept names to the first of them (the
 * heap holds exactly those, by the same total order). */
static void markers_finish(struct collect *c)
{
	size_t i;

	if (c->nm)
		qsort(c->m, c->nm, sizeof(*c->m), marker_cmp);
	qsort(c->named, c->nnamed, sizeof(*c->named), marker_cmp);
	for (i = 0; i < c->nnamed; i++) {
		if (i < c->nm && c->m[i].seq == c->named[i].seq) {
			c->m[i].name = c->named[i].name;
			c->named[i].name = NULL;
		}
	}
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
	return c->want_markers && rule_of(c, name, len) >= 0;
}

/* A pid named "Overlap Analysis", once (the list is capped like the
 * accumulators). */
static void add_ovpid(struct collect *c, int64_t pid)
{
	size_t i;

	for (i = 0; i < c->novpids; i++)
		if (c->ovpids[i] == pid)
			return;
	if (c->novpids >= TRACE_MAX_OVERLAP_PIDS) {
		c->too_many_pids = 1;
		return;
	}
	c->ovpids =
	    xgrow(c->ovpids, sizeof(*c->ovpids), c->novpids + 1, &c->aovpids);
	c->ovpids[c->novpids++] = pid;
}

static void collect_event(const struct trace_event *ev, void *ctx)
{
	struct collect *c = ctx;
	int k;

	if (ev->ph == 'M') {
		if (!strcmp(ev->name, "process_name") &&
		    !strcmp(ev->arg_name, "Overlap Analysis"))
			add_ovpid(c, ev->pid);
	} else if (ev->ph == 's') {
		c->flows += is_npu_flow(ev);
	} else if (ev->ph == 'X') {
		k = ov_kind_of(ev->name, strlen(ev->name));
		if (k >= 0)
			ov_span(c, ev, k);
		else if (c->want_markers)
			marker_add(c, ev);
	}
}

static void collect_init(struct collect *c, const struct segment *segs,
                         size_t nsegs)
{
	memset(c, 0, sizeof(*c));
	c->segs = segs;
	c->nsegs = segs ? nsegs : 0;
	strbuf_init(&c->tmp);
}

static void collect_release(struct collect *c)
{
	size_t i;

	for (i = 0; c->cache && i < NAME_CACHE; i++)
		free(c->cache[i].name);
	free(c->cache);
	for (i = 0; i < c->nm; i++)
		free(c->m[i].name);
	free(c->m);
	membudget_release(c->charged);
	membudget_release(c->acc_charged);
	for (i = 0; i < c->nnamed; i++)
		free(c->named[i].name);
	free(c->acc);
	free(c->ovpids);
	strbuf_release(&c->tmp);
}

static int too_many_pids(const struct input *in, struct err *e)
{
	return err_set(e, ERR_INPUT,
	               "%s: more than %u processes named \"Overlap "
	               "Analysis\": not a profiler trace",
	               in->name, TRACE_MAX_OVERLAP_PIDS);
}

static int collect_input(const struct input *in,
                         const struct trace_marker_rule *rules, size_t nrules,
                         const struct segment *segs, size_t nsegs,
                         struct trace_summary *out, struct err *e)
{
	struct collect c;
	int rc;

	memset(out, 0, sizeof(*out));
	collect_init(&c, segs, nsegs);
	c.rules = rules;
	c.nrules = rules ? nrules : 0;
	c.want_markers = c.nrules > 0;
	c.want_flows = 1;
	c.cache = xcalloc(NAME_CACHE, sizeof(*c.cache));
	rc = scan_input(in, collect_want, collect_event, &c, &out->scan, e);
	if (rc == 0 && c.too_many_pids)
		rc = too_many_pids(in, e);
	if (rc == 0 && c.refused)
		rc = membudget_fail(e, (uint64_t)(c.am / 8 + 16) * sizeof(*c.m),
		                    "%s: stage markers (%zu found) and Overlap "
		                    "Analysis processes (%zu)",
		                    in->name, c.nm, c.nacc);
	if (rc == 0) {
		ov_finish(&c, &out->ov);
		markers_finish(&c);
		out->markers = c.m;
		out->nmarkers = c.nm;
		out->flows = c.flows;
		out->charged = c.charged;
		c.m = NULL;
		c.nm = 0;
		c.charged = 0;
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

	collect_init(&c, segs, nsegs);
	rc = scan_input(in, collect_want, collect_event, &c, &ts, e);
	if (rc == 0 && c.too_many_pids)
		rc = too_many_pids(in, e);
	if (rc == 0 && c.refused)
		rc = membudget_fail(
		    e, (uint64_t)(c.aacc / 8 + 16) * sizeof(*c.acc),
		    "%s: Overlap Analysis processes (%zu)", in->name, c.nacc);
	if (rc == 0)
		ov_finish(&c, ov);
	collect_release(&c);
	return rc;
}

/* ---- pass 2: flows --------------------------------------------------------
 */

/* A pending flow end, keyed by a 64-bit hash of its id text (2^20 pending
 * ids: a false match has odds of about 2^-24 even then). */
struct flow_slot {
	uint64_t key; /* 0 = empty, 1 = deleted */
	int64_t ts;
	char is_start; /* ts is the host ts of the 's' */
};

struct flows {
	struct trace_summary *sum;
	int64_t *pmax; /* pmax[i] = max host_end of markers 0..i */
	struct flow_slot *slot;
	size_t cap, live, used;
	int overflow;
	uint64_t charged; /* table growth charged to the memory budget */
};

static uint64_t id_key(const char *id)
{
	uint64_t h = hash_bytes(id, strlen(id));

	h ^= h >> 31; /* splitmix64 finaliser: spread FNV's low bits */
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 27;
	return h < 2 ? h + 2 : h;
}

/* The innermost marker whose host range holds ts, or NULL. */
static struct trace_marker *marker_at(const struct flows *f, int64_t ts)
{
	const struct trace_summary *s = f->sum;
	size_t lo = 0, hi = s->nmarkers;

	while (lo < hi) { /* first marker starting after ts */
		size_t mid = lo + (hi - lo) / 2;
		if (s->markers[mid].host_start_ns <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo > 0 && f->pmax[lo - 1] >= ts) {
		lo--;
		if (s->markers[lo].host_end_ns >= ts)
			return &s->markers[lo];
	}
	return NULL;
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

static int map_input(const struct input *in, struct trace_summary *s,
                     struct err *e)
{
	struct flows f;
	struct trace_scan ts;
	size_t i;
	int rc;

	if (!s->nmarkers)
		return 0;
	if (membudget_charge(s->nmarkers * sizeof(*f.pmax)))
		return membudget_fail(e, s->nmarkers * sizeof(*f.pmax),
		                      "%s: flow mapping of %zu stage markers",
		                      in->name, s->nmarkers);
	memset(&f, 0, sizeof(f));
	f.sum = s;
	f.pmax = xmalloc(s->nmarkers * sizeof(*f.pmax));
	for (i = 0; i < s->nmarkers; i++) {
		int64_t end = s->markers[i].host_end_ns;
		f.pmax[i] = i && f.pmax[i - 1] > end ? f.pmax[i - 1] : end;
		s->markers[i].flows = 0;
	}
	f.cap = 1024;
	f.slot = xcalloc(f.cap, sizeof(*f.slot));
	rc = scan_input(in, flows_want, flows_event, &f, &ts, e);
	flows_finish(&f);
	membudget_release(f.charged);
	free(f.slot);
	free(f.pmax);
	membudget_release(s->nmarkers * sizeof(*f.pmax));
	return rc;
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
