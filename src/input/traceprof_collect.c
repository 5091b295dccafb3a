/* What a trace's pass collects besides the kernels: the Overlap Analysis
 * spans, the host ranges (profiler steps, user stage markers), the host
 * events that tell how the trace was collected, and the torch_to_npu
 * flows paired by id through a table of pending flow ends. */
#include "input/traceprof.h"
#include "input/traceprof_int.h"

#include <stdlib.h>
#include <string.h>

#include "input/memrec.h"
#include "input/trace_raw.h"
#include "util/checked.h"
#include "util/decimal.h"
#include "util/hash.h"
#include "util/membudget.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* Frees p's spans, giving their charge back. */
void traceprof_spans_free(struct traceprof_ctx *c, struct traceprof_proc *p)
{
	int k;

	for (k = 0; k < OV_KINDS; k++) {
		uint64_t bytes = (uint64_t)p->ov[k].alloc * sizeof(*p->ov[k].v);
		membudget_release(bytes);
		c->tp->charged -=
		    bytes < c->tp->charged ? bytes : c->tp->charged;
		free(p->ov[k].v);
		memset(&p->ov[k], 0, sizeof(p->ov[k]));
	}
}

/* The spans of an Overlap Analysis process into tp: taken whole from the
 * first such process (no copy of the largest arrays of the pass), added
 * from any other. */
void traceprof_spans_take(struct traceprof_ctx *c, int k,
                          struct traceprof_spanv *s)
{
	struct traceprof *tp = c->tp;

	if (!tp->ov[k]) {
		tp->ov[k] = s->v;
		tp->nov[k] = s->n;
		memset(s, 0, sizeof(*s)); /* its charge stays, for tp */
		return;
	}
	if (traceprof_charge(c, (uint64_t)(s->n + 1) * sizeof(*s->v),
	                     "Overlap Analysis spans", tp->nov[k] + s->n))
		return;
	tp->ov[k] =
	    xrealloc(tp->ov[k], (tp->nov[k] + s->n + 1) * sizeof(*tp->ov[k]));
	if (s->n)
		memcpy(tp->ov[k] + tp->nov[k], s->v, s->n * sizeof(*s->v));
	tp->nov[k] += s->n;
}

/* ---- Overlap Analysis spans --------------------------------------------- */

/* "ts" and "dur" of a span or a range, exactly; -1 when either is not a
 * time or they overflow. */
static int times_of(const struct traceprof_members *m, int64_t *ts,
                    int64_t *dur)
{
	const char *t;
	size_t tn;
	int64_t end;

	if (!trace_raw_text(m->v[TPM_TS], m->n[TPM_TS], &t, &tn) ||
	    decimal_us_to_ns(t, tn, ts) ||
	    !trace_raw_text(m->v[TPM_DUR], m->n[TPM_DUR], &t, &tn) ||
	    decimal_us_to_ns(t, tn, dur) || *dur < 0 ||
	    checked_add(*ts, *dur, &end))
		return -1;
	return 0;
}

int traceprof_span_add(struct traceprof_ctx *c, struct traceprof_proc *p,
                       int kind, const struct traceprof_members *m, uint64_t at)
{
	struct traceprof_spanv *s = &p->ov[kind];
	int64_t ts, dur;

	if (times_of(m, &ts, &dur))
		return traceprof_bad_event(p, at, "span");
	if (traceprof_grow(c, &s->v, sizeof(*s->v), s->n + 1, &s->alloc,
	                   "Overlap Analysis spans"))
		return -1;
	s->v[s->n].start_ns = ts;
	s->v[s->n++].end_ns = ts + dur;
	return 0;
}

/* ---- host ranges -------------------------------------------------------- */

static int32_t step_number(const char *s, size_t n)
{
	int64_t v;

	if (n <= 13 || memcmp(s, "ProfilerStep#", 13) ||
	    decimal_to_i64(s + 13, n - 13, &v) || v < 0 || v > INT32_MAX)
		return STEP_NONE;
	return (int32_t)v;
}

static int is_host_range_cat(const struct traceprof_members *m)
{
	const char *t;
	size_t tn;

	return trace_raw_text(m->v[TPM_CAT], m->n[TPM_CAT], &t, &tn) &&
	       (traceprof_raw_eq(t, tn, "cpu_op") ||
	        traceprof_raw_eq(t, tn, "user_annotation"));
}

/* A profiler step or a user's stage marker; 0 when the event is neither. */
int traceprof_range_add(struct traceprof_ctx *c,
                        const struct traceprof_members *m)
{
	struct traceprof *tp = c->tp;
	struct traceprof_range *r;
	int32_t step = step_number(c->tmp.buf, c->tmp.len);
	int rule = -1;
	int64_t ts, dur;

	if (step == STEP_NONE) {
		if (!c->match || !is_host_range_cat(m))
			return 0;
		rule = c->match(c->tmp.buf, c->tmp.len, c->mctx);
		if (rule < 0)
			return 0;
	}
	if (times_of(m, &ts, &dur))
		return 1; /* a range without times: nothing to map */
	if (traceprof_grow(c, &tp->ranges, sizeof(*tp->ranges), tp->nranges + 1,
	                   &c->alloc_ranges,
	                   "profiler step and stage marker ranges") ||
	    traceprof_charge(c, c->tmp.len + 1 + 16, "range names",
	                     tp->nranges))
		return 1;
	r = &tp->ranges[tp->nranges++];
	r->name = xstrdup(c->tmp.buf);
	r->rule = rule;
	r->step = step;
	r->start_ns = ts;
	r->end_ns = ts + dur;
	return 1;
}

/* ---- how the trace was collected ---------------------------------------- */

/* A host (CPU activity) event, cat cpu_op, user_annotation or
 * python_function, is counted; an operator's args are searched for
 * "Input Dims" (record_shapes) until the first is found. */
void traceprof_host_event(struct traceprof_ctx *c,
                          const struct traceprof_members *m, const char *el_end)
{
	struct trace_raw_el args = {m->v[TPM_ARGS], 0, NULL, 0};
	struct trace_raw_it it;
	struct trace_raw_member mb;
	const char *t;
	size_t tn;

	if (!trace_raw_text(m->v[TPM_CAT], m->n[TPM_CAT], &t, &tn))
		return;
	if (traceprof_raw_eq(t, tn, "user_annotation") ||
	    traceprof_raw_eq(t, tn, "python_function"))
		c->tp->host_ops++;
	if (!traceprof_raw_eq(t, tn, "cpu_op"))
		return;
	c->tp->host_ops++;
	if (c->tp->host_shapes || !args.p || *args.p != '{')
		return;
	args.n = (size_t)(el_end - args.p);
	trace_raw_it_init(&it, &args);
	while (!c->tp->host_shapes && trace_raw_it_next(&it, &mb))
		c->tp->host_shapes =
		    traceprof_raw_eq(mb.key, mb.klen, "Input Dims");
}

/* ---- device-memory counters --------------------------------------------- */

static void counter_bad(struct traceprof_proc *p, uint64_t at, const char *why)
{
	if (!p->mem_bad++) {
		p->mem_first_bad_at = at;
		p->mem_first_bad_why = why;
	}
}

/* args {"KB": N}: N (a non-negative decimal) in bytes, or -1. */
static int64_t counter_bytes(const struct traceprof_members *m,
                             const char *el_end)
{
	struct trace_raw_el args = {m->v[TPM_ARGS], 0, NULL, 0};
	struct trace_raw_it it;
	struct trace_raw_member mb;
	int64_t mib_b;

	if (!args.p || *args.p != '{')
		return -1;
	args.n = (size_t)(el_end - args.p);
	trace_raw_it_init(&it, &args);
	while (trace_raw_it_next(&it, &mb))
		if (traceprof_raw_eq(mb.key, mb.klen, "KB"))
			/* N KB = N MiB / 1024: exact for whole KB */
			return mb.vlen && *mb.val != '"' &&
			               !memrec_mb_to_bytes(mb.val, mb.vlen,
			                                   &mib_b)
			           ? (mib_b + 512) / 1024
			           : -1;
	return -1;
}

void traceprof_counter(struct traceprof_ctx *c, size_t proc,
                       const struct traceprof_members *m, const char *el_end,
                       uint64_t at)
{
	struct traceprof *tp = c->tp;
	struct traceprof_mem *x;
	const char *t;
	size_t tn;
	int64_t ts, b;
	int total;

	if (!m->v[TPM_NAME])
		return;
	total =
	    traceprof_raw_eq(m->v[TPM_NAME], m->n[TPM_NAME], "\"APP/Memory\"");
	if (!total &&
	    !traceprof_raw_eq(m->v[TPM_NAME], m->n[TPM_NAME], "\"APP/HBM\""))
		return;
	if (!trace_raw_text(m->v[TPM_TS], m->n[TPM_TS], &t, &tn) ||
	    trace_raw_parse_us(t, tn, &ts) || ts < 0) {
		counter_bad(&c->procs[proc], at, "no usable \"ts\"");
		return;
	}
	if ((b = counter_bytes(m, el_end)) < 0) {
		counter_bad(&c->procs[proc], at, "no usable args \"KB\"");
		return;
	}
	if (traceprof_grow(c, &tp->mem, sizeof(*tp->mem), tp->nmem + 1,
	                   &c->alloc_mem, "memory counters"))
		return;
	x = &tp->mem[tp->nmem++];
	x->ts_ns = ts;
	x->bytes = b;
	x->proc = proc;
	x->total = total;
}

void traceprof_counters_finish(struct traceprof_ctx *c)
{
	struct traceprof *tp = c->tp;
	size_t i, n = 0;
	int total = 0;

	/* APP/Memory (HBM + DDR) where the trace has it, else APP/HBM */
	for (i = 0; i < tp->nmem; i++)
		total |= tp->mem[i].total &&
		         c->procs[tp->mem[i].proc].role == TPR_NPU_MEM;
	for (i = 0; i < tp->nmem; i++)
		if (c->procs[tp->mem[i].proc].role == TPR_NPU_MEM &&
		    tp->mem[i].total == total)
			tp->mem[n++] = tp->mem[i];
	tp->nmem = n;
	for (i = 0; i < c->nprocs; i++) {
		const struct traceprof_proc *p = &c->procs[i];
		if (p->role != TPR_NPU_MEM || !p->mem_bad)
			continue;
		if (!tp->mem_bad ||
		    p->mem_first_bad_at < tp->mem_first_bad_at) {
			tp->mem_first_bad_at = p->mem_first_bad_at;
			tp->mem_first_bad_why = p->mem_first_bad_why;
		}
		tp->mem_bad += p->mem_bad;
	}
}

/* ---- flows -------------------------------------------------------------- */

static uint64_t id_key(const char *s, size_t n)
{
	uint64_t h = hash_bytes(s, n);

	return h < 2 ? h + 2 : h;
}

static struct traceprof_pending *pend_find(struct traceprof_ctx *c,
                                           uint64_t key)
{
	size_t j = key & (c->pcap - 1);
	struct traceprof_pending *tomb = NULL;

	for (;; j = (j + 1) & (c->pcap - 1)) {
		if (c->pend[j].key == key)
			return &c->pend[j];
		if (c->pend[j].key == 1 && !tomb)
			tomb = &c->pend[j];
		if (!c->pend[j].key)
			return tomb ? tomb : &c->pend[j];
	}
}

static void pend_rehash(struct traceprof_ctx *c, size_t cap)
{
	struct traceprof_pending *old = c->pend;
	size_t oldcap = c->pcap, i, j;

	c->pend = xcalloc(cap, sizeof(*c->pend));
	c->pend_charged += (uint64_t)(cap - oldcap) * sizeof(*c->pend);
	c->pcap = cap;
	c->pused = c->plive;
	for (i = 0; i < oldcap; i++) {
		if (old[i].key < 2)
			continue;
		for (j = old[i].key & (cap - 1); c->pend[j].key;
		     j = (j + 1) & (cap - 1))
			;
		c->pend[j] = old[i];
	}
	free(old);
}

static void flow_pair(struct traceprof_ctx *c, int64_t host, int64_t dev)
{
	struct traceprof *tp = c->tp;

	if (traceprof_grow(c, &tp->flows, sizeof(*tp->flows), tp->nflows + 1,
	                   &c->alloc_flows, "torch_to_npu flows"))
		return;
	tp->flows[tp->nflows].host_ns = host;
	tp->flows[tp->nflows++].dev_ns = dev;
}

/* A torch_to_npu flow end: paired with its other end by id. */
void traceprof_flow_end(struct traceprof_ctx *c,
                        const struct traceprof_members *m, int start)
{
	const char *t, *id;
	size_t tn, idn;
	int64_t ts;
	uint64_t key;
	struct traceprof_pending *p;

	if (!((trace_raw_text(m->v[TPM_CAT], m->n[TPM_CAT], &t, &tn) &&
	       traceprof_raw_eq(t, tn, "async_npu")) ||
	      traceprof_raw_eq(c->tmp.buf, c->tmp.len, "torch_to_npu")))
		return;
	if (!trace_raw_text(m->v[TPM_ID], m->n[TPM_ID], &id, &idn) || !idn ||
	    !trace_raw_text(m->v[TPM_TS], m->n[TPM_TS], &t, &tn) ||
	    decimal_us_to_ns(t, tn, &ts))
		return;
	key = id_key(id, idn);
	p = pend_find(c, key);
	if (p->key == key && p->is_start != start) {
		flow_pair(c, start ? ts : p->ts, start ? p->ts : ts);
		p->key = 1;
		c->plive--;
		return;
	}
	if (p->key == key)
		return; /* the same end twice: keep the first */
	if (c->plive >= TRACEPROF_MAX_PENDING_FLOWS) {
		c->tp->flows_overflow = 1;
		return;
	}
	if ((c->pused + 1) * 2 > c->pcap) {
		size_t cap = c->plive * 4 > c->pcap ? c->pcap * 2 : c->pcap;
		/* a bigger table is charged; refused, the flows are
		 * incomplete as past TRACEPROF_MAX_PENDING_FLOWS */
		if (cap > c->pcap &&
		    membudget_charge((cap - c->pcap) * sizeof(*c->pend))) {
			c->tp->flows_overflow = 1;
			return;
		}
		pend_rehash(c, cap);
		p = pend_find(c, key);
	}
	c->pused += !p->key;
	p->key = key;
	p->ts = ts;
	p->is_start = start;
	c->plive++;
}
