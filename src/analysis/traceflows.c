/* Pass 2 of the trace analyses: the stage markers mapped to device time
 * through the torch_to_npu flows, whoever reads the flows (the trace
 * streamed again, the db's rows, a trace-only profile); contract:
 * analysis/tracestages.h. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/tracestages.h"
#include "analysis/tracestages_int.h"
#include "util/hash.h"
#include "util/membudget.h"
#include "util/sortcmp.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* ---- pass 2: flows --------------------------------------------------------
 */

int trace_is_npu_flow(const struct trace_event *ev)
{
	return !strcmp(ev->cat, "async_npu") ||
	       !strcmp(ev->name, "torch_to_npu");
}

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

	if (!trace_is_npu_flow(ev) || !ev->id[0] || ev->ts_ns == INT64_MIN)
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

int trace_map_input(const struct trace_src *in, struct trace_summary *s,
                    struct err *e)
{
	struct flows f;
	struct trace_scan ts;
	int rc;

	if (!s->nmarkers)
		return 0;
	if (flows_init(&f, s, in->name, e))
		return -1;
	rc = trace_src_scan(in, flows_want, flows_event, &f, &ts, e);
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
