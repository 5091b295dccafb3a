/* The stage markers' side of the trace analyses: the rules' globs and a
 * matcher that caches their verdict per raw name, and the marker set
 * that charges the markers to the memory budget and keeps the names of
 * the first RESULT_MAX_MARKERS (contract: analysis/tracestages.h). */
#include <stdlib.h>
#include <string.h>

#include "analysis/rules.h"
#include "analysis/tracestages.h"
#include "analysis/tracestages_int.h"
#include "util/hash.h"
#include "util/membudget.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define NAME_CACHE 4096 /* slots of the marker-glob cache (power of 2) */

/* Marker names repeat (the same few hundred operators): the glob verdict
 * of each raw name is cached, so the ~25 globs run once per name. */
struct trace_name_slot {
	uint64_t hash;
	char *name; /* NULL = empty */
	int rule;   /* index of the first matching rule, or -1 */
};

/* ---- the marker globs ------------------------------------------------- */

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
int trace_matcher_rule(struct trace_matcher *c, const char *raw, size_t len)
{
	uint64_t h;
	size_t i, probes;
	struct trace_name_slot *sl;

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

void trace_matcher_init(struct trace_matcher *mt,
                        const struct trace_marker_rule *rules, size_t nrules)
{
	memset(mt, 0, sizeof(*mt));
	mt->rules = rules;
	mt->nrules = rules ? nrules : 0;
	strbuf_init(&mt->tmp);
	if (mt->nrules)
		mt->cache = xcalloc(NAME_CACHE, sizeof(*mt->cache));
}

void trace_matcher_release(struct trace_matcher *mt)
{
	size_t i;

	for (i = 0; mt->cache && i < NAME_CACHE; i++)
		free(mt->cache[i].name);
	free(mt->cache);
	strbuf_release(&mt->tmp);
}

struct trace_matcher *trace_matcher_new(const struct trace_marker_rule *rules,
                                        size_t nrules)
{
	struct trace_matcher *mt = xmalloc(sizeof(*mt));

	trace_matcher_init(mt, rules, nrules);
	return mt;
}

int trace_matcher_match(const char *name, size_t len, void *matcher)
{
	struct trace_matcher *mt = matcher;

	return mt->nrules ? trace_matcher_rule(mt, name, len) : -1;
}

void trace_matcher_free(struct trace_matcher *mt)
{
	if (!mt)
		return;
	trace_matcher_release(mt);
	free(mt);
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
