/* Overlap Analysis sums and stage markers from trace_view.json, each in one
 * streamed pass: the prefilter keeps cJSON away from the millions of
 * kernel and operator events that none of this needs. Pass 1 and the
 * re-attribution are here; the markers, the clipping and pass 2 are in
 * tracemarkers.c, traceoverlap.c and traceflows.c
 * (analysis/tracestages_int.h). */
#include "analysis/tracestages.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/tracestages_int.h"
#include "util/idmap.h"
#include "util/membudget.h"
#include "util/banned.h"

int trace_src_scan(const struct trace_src *in, trace_want_fn want,
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

static void ov_span(struct collect *c, const struct trace_event *ev, int k)
{
	struct trace_overlap *ov = acc_for(c, ev->pid);

	if (ov)
		trace_overlap_add(ov, &c->clip, k, ev->ts_ns, ev->dur_ns);
}

/* The sums of the pids named "Overlap Analysis", each counted once. */
static void ov_finish(const struct collect *c, struct trace_overlap *ov)
{
	size_t i;

	memset(ov, 0, sizeof(*ov));
	ov->found = c->ovpids.n > 0;
	for (i = 0; i < c->nacc; i++)
		if (idmap_get(&c->ovpids, (uint64_t)c->acc[i].pid, 0))
			trace_overlap_merge(ov, &c->acc[i].ov);
}

/* ---- pass 1: markers ------------------------------------------------------
 */

static void marker_add(struct collect *c, const struct trace_event *ev)
{
	int r;

	if (strcmp(ev->cat, "cpu_op") && strcmp(ev->cat, "user_annotation"))
		return;
	if (ev->ts_ns == INT64_MIN || ev->dur_ns < 0 ||
	    ev->ts_ns > INT64_MAX - ev->dur_ns)
		return;
	r = trace_marker_rule_of(c->mt.rules, c->mt.nrules,
	                         ev->name); /* the decoded name decides */
	if (r >= 0)
		trace_markerset_add(&c->ms, ev->name, c->mt.rules[r].stage,
		                    ev->ts_ns, ev->ts_ns + ev->dur_ns);
}

/* ---- pass 1 callbacks -----------------------------------------------------
 */

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
	return c->want_markers && trace_matcher_rule(&c->mt, name, len) >= 0;
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
		c->flows += trace_is_npu_flow(ev);
	} else if (ev->ph == 'X') {
		c->shapes |= ev->input_dims;
		k = ov_kind_of(ev->name, strlen(ev->name));
		if (k >= 0)
			ov_span(c, ev, k);
		else if (c->want_markers)
			marker_add(c, ev);
	}
}

/* rules may be NULL (no markers wanted). 0, or -1 when the budget refuses
 * the clipping sums (c is released). */
static int collect_init(struct collect *c,
                        const struct trace_marker_rule *rules, size_t nrules,
                        const struct segment *segs, size_t nsegs,
                        const char *name, struct err *e)
{
	memset(c, 0, sizeof(*c));
	trace_matcher_init(&c->mt, rules, nrules);
	idmap_init(&c->acc_of);
	idmap_init(&c->ovpids);
	trace_markerset_init(&c->ms);
	return trace_segclip_init(&c->clip, segs, nsegs, name, e);
}

static void collect_release(struct collect *c)
{
	trace_matcher_release(&c->mt);
	trace_markerset_release(&c->ms);
	trace_segclip_release(&c->clip);
	free(c->acc);
	membudget_release(c->acc_charged);
	idmap_release(&c->acc_of);
	idmap_release(&c->ovpids);
}

/* The scan's budget and cap errors (the scan itself went well). */
static int collect_errors(const struct collect *c, const struct trace_src *in,
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

static int collect_input(const struct trace_src *in,
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
		rc = trace_src_scan(in, collect_want, collect_event, &c,
		                    &out->scan, e);
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

static int overlap_input(const struct trace_src *in, const struct segment *segs,
                         size_t nsegs, struct trace_overlap *ov, struct err *e)
{
	struct collect c;
	struct trace_scan ts;
	int rc;

	rc = collect_init(&c, NULL, 0, segs, nsegs, in->name, e);
	if (rc == 0)
		rc =
		    trace_src_scan(in, collect_want, collect_event, &c, &ts, e);
	if (rc == 0)
		rc = collect_errors(&c, in, e);
	if (rc == 0)
		ov_finish(&c, ov);
	collect_release(&c);
	return rc;
}

/* ---- public ---------------------------------------------------------------
 */

int trace_collect(const char *path, const struct trace_marker_rule *rules,
                  size_t nrules, const struct segment *segs, size_t nsegs,
                  struct trace_summary *out, struct err *e)
{
	struct trace_src in = {path, NULL, 0};
	return collect_input(&in, rules, nrules, segs, nsegs, out, e);
}

int trace_collect_mem(const char *name, const void *data, size_t len,
                      const struct trace_marker_rule *rules, size_t nrules,
                      const struct segment *segs, size_t nsegs,
                      struct trace_summary *out, struct err *e)
{
	struct trace_src in = {name, data ? data : "", len};
	return collect_input(&in, rules, nrules, segs, nsegs, out, e);
}

int trace_map_markers(const char *path, struct trace_summary *out,
                      struct err *e)
{
	struct trace_src in = {path, NULL, 0};
	return trace_map_input(&in, out, e);
}

int trace_map_markers_mem(const char *name, const void *data, size_t len,
                          struct trace_summary *out, struct err *e)
{
	struct trace_src in = {name, data ? data : "", len};
	return trace_map_input(&in, out, e);
}

int trace_attribute_overlap(const char *path, const struct segment *segs,
                            size_t nsegs, struct trace_overlap *ov,
                            struct err *e)
{
	struct trace_src in = {path, NULL, 0};
	return overlap_input(&in, segs, nsegs, ov, e);
}

int trace_attribute_overlap_mem(const char *name, const void *data, size_t len,
                                const struct segment *segs, size_t nsegs,
                                struct trace_overlap *ov, struct err *e)
{
	struct trace_src in = {name, data ? data : "", len};
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
