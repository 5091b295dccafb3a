/* A profile from trace_view.json alone, in one streamed pass: the kernel
 * events are read straight from their bytes (TRACE_RAW: no cJSON tree per
 * event, the scan's cost), the few metadata events are parsed. */
#include "input/traceprof.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "input/jsonerr.h"
#include "input/kernels.h"
#include "input/trace_raw.h"
#include "util/checked.h"
#include "util/decimal.h"
#include "util/hash.h"
#include "util/idmap.h"
#include "util/membudget.h"
#include "util/strbuf.h"
#include "util/strtab.h"
#include "util/utf8.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* What a process is, once its process_name event has been read; from
 * R_OTHER on, one with no kernels and no spans. */
enum role { R_UNNAMED, R_HW, R_HCCL, R_OVERLAP, R_OTHER, R_CANN, R_NPU_MEM };

struct spans {
	struct traceprof_span *v;
	size_t n, alloc;
};

struct proc {
	int64_t pid;
	enum role role;
	struct spans ov[OV_KINDS]; /* kept while unnamed or overlap */
	uint64_t x_events, c_events, subtasks, bad, first_bad_at;
	const char *first_bad_why;
};

/* A flow end waiting for the other, keyed by a 64-bit keyed hash of its id
 * (util/hash.h: ids cannot be chosen to collide without the process key). */
struct pending {
	uint64_t key; /* 0 = empty, 1 = deleted */
	int64_t ts;
	int is_start;
};

struct ctx {
	const char *name;
	traceprof_match_fn match;
	void *mctx;
	struct kernel_table *kt;
	struct traceprof *tp;
	struct strtab types; /* kernel record key = id of its type here */

	struct proc *procs;
	size_t nprocs, aprocs;
	struct idmap proc_of; /* pid -> index in procs (keyed: hostile pids
	                       * cannot share a bucket) */
	size_t last;          /* the last process looked up */
	int64_t too_many;     /* the first pid past TRACEPROF_MAX_PIDS, or -1 */

	struct pending *pend;
	size_t pcap, plive, pused;

	size_t alloc_ranges, alloc_flows;
	int rank_samples, rank_conflict;
	struct strbuf tmp;

	/* the memory budget (util/membudget.h): what the pass holds is
	 * charged to tp->charged (kernels to kt->charged), the pending-flow
	 * table and the type names to pend_charged and types_charged */
	uint64_t pend_charged, types_charged, types_bytes;
	const char *failed;   /* what was refused or over a cap: the pass
	                       * stops keeping things, the read fails */
	uint64_t failed_need; /* bytes asked (a refusal), 0 for a cap */
	size_t failed_count;  /* of the structure refused */
};

/* Grows an array the pass keeps by an eighth, charged to tp->charged: 0,
 * or -1 with the pass failed (what: the structure, for the message). */
static int grow(struct ctx *c, void *pp, size_t size, size_t need,
                size_t *alloc, const char *what)
{
	size_t old = *alloc;

	if (c->failed)
		return -1;
	if (membudget_grow(pp, size, need, alloc)) {
		c->failed = what;
		c->failed_need = (uint64_t)(old / 8 + 16) * size;
		c->failed_count = need - 1;
		return -1;
	}
	c->tp->charged += (uint64_t)(*alloc - old) * size;
	return 0;
}

/* Charges n bytes to tp->charged: 0, or -1 with the pass failed. */
static int charge(struct ctx *c, uint64_t n, const char *what, size_t count)
{
	if (c->failed)
		return -1;
	if (membudget_charge(n)) {
		c->failed = what;
		c->failed_need = n;
		c->failed_count = count;
		return -1;
	}
	c->tp->charged += n;
	return 0;
}

/* The members of an event the pass reads ("name", "ph", "pid", "ts",
 * "dur", "cat", "id", "args"): the raw bytes of each value (a string with
 * its quotes), NULL when absent; the first of a repeated key counts. */
enum member { M_NAME, M_PH, M_PID, M_TS, M_DUR, M_CAT, M_ID, M_ARGS, M_COUNT };

struct members {
	const char *v[M_COUNT];
	size_t n[M_COUNT];
};

static int raw_eq(const char *s, size_t len, const char *lit)
{
	size_t n = strlen(lit);
	return len == n && !memcmp(s, lit, n);
}

static int ov_kind(const char *s, size_t len)
{
	int k;

	if (!len || (*s != 'C' && *s != 'F'))
		return -1; /* the usual case: a kernel */
	for (k = 0; k < OV_KINDS; k++)
		if (raw_eq(s, len, ov_trace_names[k]))
			return k;
	return -1;
}

/* ---- processes ---------------------------------------------------------- */

/* The process of pid, added when new; NULL past TRACEPROF_MAX_PIDS (the
 * read then fails: no profiler trace has that many). */
static struct proc *proc_of(struct ctx *c, int64_t pid)
{
	uint64_t *at;

	if (c->nprocs && c->procs[c->last].pid == pid)
		return &c->procs[c->last];
	if ((at = idmap_get(&c->proc_of, (uint64_t)pid, 0))) {
		c->last = (size_t)*at;
		return &c->procs[c->last];
	}
	if (c->nprocs >= TRACEPROF_MAX_PIDS) {
		if (c->too_many < 0)
			c->too_many = pid;
		return NULL;
	}
	c->procs =
	    xgrow(c->procs, sizeof(*c->procs), c->nprocs + 1, &c->aprocs);
	memset(&c->procs[c->nprocs], 0, sizeof(c->procs[0]));
	c->procs[c->nprocs].pid = pid;
	idmap_put(&c->proc_of, (uint64_t)pid, 0, c->nprocs, NULL);
	c->last = c->nprocs++;
	return &c->procs[c->last];
}

static enum role role_of(const char *process_name)
{
	if (!strcmp(process_name, "Ascend Hardware"))
		return R_HW;
	if (!strcmp(process_name, "HCCL") ||
	    !strcmp(process_name, "Communication"))
		return R_HCCL;
	if (!strcmp(process_name, "Overlap Analysis"))
		return R_OVERLAP;
	if (!strcmp(process_name, "CANN"))
		return R_CANN;
	if (!strcmp(process_name, "NPU MEM"))
		return R_NPU_MEM;
	return R_OTHER;
}

/* Frees p's spans, giving their charge back. */
static void spans_free(struct ctx *c, struct proc *p)
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

/* The first process_name of a pid names it; spans of a process that turns
 * out not to be the Overlap Analysis are dropped at once. */
static void on_meta(const struct trace_event *ev, void *ctx)
{
	struct ctx *c = ctx;
	struct proc *p;

	if (ev->ph != 'M' || strcmp(ev->name, "process_name") || ev->pid < 0)
		return;
	p = proc_of(c, ev->pid);
	if (!p || p->role != R_UNNAMED)
		return;
	p->role = role_of(ev->arg_name);
	if (p->role != R_OVERLAP)
		spans_free(c, p);
}

/* ---- reading an event's members ----------------------------------------- */

/* The member a key names, or -1: by length and bytes, compared inline as
 * this runs for every member of every event read. */
static int member_of(const char *k, size_t kl)
{
	switch (kl) {
	case 2:
		return k[0] == 'p' && k[1] == 'h'   ? M_PH
		       : k[0] == 't' && k[1] == 's' ? M_TS
		       : k[0] == 'i' && k[1] == 'd' ? M_ID
		                                    : -1;
	case 3:
		return !memcmp(k, "pid", 3)   ? M_PID
		       : !memcmp(k, "dur", 3) ? M_DUR
		       : !memcmp(k, "cat", 3) ? M_CAT
		                              : -1;
	case 4:
		return !memcmp(k, "name", 4)   ? M_NAME
		       : !memcmp(k, "args", 4) ? M_ARGS
		                               : -1;
	default:
		return -1;
	}
}

static int members_read(const struct trace_raw_el *el, struct members *m)
{
	return trace_raw_members(el, member_of, m->v, m->n, M_COUNT);
}

static int int_of(const char *v, size_t n, int64_t *out)
{
	const char *t;
	size_t tn;

	return trace_raw_text(v, n, &t, &tn) && !decimal_to_i64(t, tn, out);
}

/* The decoded "name" into c->tmp; -1 when it is no string. A name without
 * a backslash is its raw bytes; one with escapes is decoded by cJSON. */
static int name_of(struct ctx *c, const struct members *m)
{
	const char *end;
	cJSON *s;

	strbuf_reset(&c->tmp);
	if (!m->v[M_NAME] || *m->v[M_NAME] != '"' || m->n[M_NAME] < 2)
		return -1;
	if (!memchr(m->v[M_NAME], '\\', m->n[M_NAME])) {
		strbuf_add(&c->tmp, m->v[M_NAME] + 1, m->n[M_NAME] - 2);
		return 0;
	}
	s = jsonerr_cjson_parse(m->v[M_NAME], m->n[M_NAME], &end);
	if (!cJSON_IsString(s) || !s->valuestring) {
		cJSON_Delete(s);
		return -1;
	}
	strbuf_adds(&c->tmp, s->valuestring);
	cJSON_Delete(s);
	return 0;
}

/* ---- kernels --------------------------------------------------------- */

/* A runtime task-type label rather than a kernel name: capitals, digits
 * and '_' only, with a letter (EVENT_WAIT, REDUCE_ASYNC_V2). */
static int is_task_type(const char *s, size_t n)
{
	size_t i;
	int letter = 0;

	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch >= 'A' && ch <= 'Z')
			letter = 1;
		else if (!(ch >= '0' && ch <= '9') && ch != '_')
			return 0;
	}
	return letter;
}

static int is_subtask(const char *s, size_t n)
{
	return is_task_type(s, n) || raw_eq(s, n, "Other") ||
	       raw_eq(s, n, "MemcopyAsync");
}

static int is_hcom(const char *s, size_t n)
{
	return n >= 5 && !strncasecmp(s, "hcom_", 5);
}

/* Counts a kernel or span event that cannot be used; always -1. */
static int bad_event(struct proc *p, uint64_t at, const char *why)
{
	if (!p->bad++) {
		p->first_bad_at = at;
		p->first_bad_why = why;
	}
	return -1;
}

/* Its HCCL sub-tasks say which rank the trace is from ("src rank"). */
static void sample_rank(struct ctx *c, const struct members *m,
                        const char *el_end)
{
	struct trace_raw_el args = {m->v[M_ARGS],
	                            (size_t)(el_end - m->v[M_ARGS]), NULL, 0};
	struct trace_raw_it it;
	struct trace_raw_member mb;
	int64_t r;

	if (!m->v[M_ARGS] || c->rank_samples >= TRACEPROF_RANK_SAMPLES)
		return;
	trace_raw_it_init(&it, &args);
	while (trace_raw_it_next(&it, &mb)) {
		if (!raw_eq(mb.key, mb.klen, "src rank"))
			continue;
		if (!int_of(mb.val, mb.vlen, &r) || r < 0 || r >= 1000000)
			return; /* 4294967295: no rank */
		if (!c->rank_samples++)
			c->tp->rank_id = (int32_t)r;
		else if (c->tp->rank_id != r)
			c->rank_conflict = 1;
		return;
	}
}

/* Room for one more kernel record: the table grows by an eighth, charged
 * (input/profile.h); 0, or -1 with the pass failed. */
static int table_grow(struct ctx *c)
{
	uint64_t cost;
	int rc = kernel_table_reserve(c->kt, &cost);

	if (rc && !c->failed) {
		c->failed =
		    rc == -2 ? "more than 2147483647 kernels" : "kernel table";
		c->failed_need = rc == -2 ? 0 : cost;
		c->failed_count = c->kt->n;
	}
	return rc ? -1 : 0;
}

/* A new kernel type of tl bytes, within the caps and the budget (as
 * kernels_read's): 0, or -1 with the pass failed. */
static int new_type(struct ctx *c, size_t tl)
{
	if (c->failed)
		return -1;
	if (c->types.n >= KERNELS_MAX_TYPES ||
	    c->types_bytes + tl > KERNELS_MAX_KEY_BYTES) {
		c->failed = c->types.n >= KERNELS_MAX_TYPES
		                ? "more than " KERNELS_MAX_TYPES_TEXT
		                  " distinct kernel types"
		                : "more than " KERNELS_MAX_KEY_TEXT
		                  " of distinct kernel type names";
		c->failed_need = 0;
		return -1;
	}
	if (membudget_charge(tl + 96)) {
		c->failed = "kernel type names";
		c->failed_need = tl + 96;
		c->failed_count = c->types.n;
		return -1;
	}
	c->types_charged += tl + 96;
	c->types_bytes += tl;
	return 0;
}

/* One kernel record; the process's name, when it comes, decides whether
 * it stays. The step field holds the process's index until then. */
static int kernel_add(struct ctx *c, size_t proc, const struct members *m,
                      uint64_t at)
{
	struct proc *p = &c->procs[proc];
	int hcom = is_hcom(c->tmp.buf, c->tmp.len);
	const char *t, *type;
	size_t tn, tl, bad;
	int64_t ts, dur, end;
	uint32_t key;
	struct kernel *k;

	if (!trace_raw_text(m->v[M_TS], m->n[M_TS], &t, &tn) ||
	    decimal_us_to_ns(t, tn, &ts))
		return bad_event(p, at, "ts");
	if (!trace_raw_text(m->v[M_DUR], m->n[M_DUR], &t, &tn) ||
	    (hcom ? decimal_us_to_ns_trunc(t, tn, &dur)
	          : decimal_us_to_ns_nearest(t, tn, &dur)) ||
	    checked_add(ts, dur, &end))
		return bad_event(p, at, "dur");
	tl = kernels_type_from_name(c->tmp.buf, c->tmp.len, &type);
	key = strtab_find(&c->types, type, tl);
	if (key == UINT32_MAX) {
		if (!tl || !utf8_is_text(type, tl, &bad))
			return bad_event(p, at, "name");
		if (new_type(c, tl))
			return -1;
		key = strtab_intern(&c->types, type, tl);
	}
	if (c->kt->n == c->kt->alloc && table_grow(c))
		return -1;
	k = &c->kt->v[c->kt->n++];
	k->start_ns = ts;
	k->dur_ns = dur;
	k->key = key;
	k->step = (int32_t)proc;
	return 0;
}

/* "ts" and "dur" of a span or a range, exactly; -1 when either is not a
 * time or they overflow. */
static int times_of(const struct members *m, int64_t *ts, int64_t *dur)
{
	const char *t;
	size_t tn;
	int64_t end;

	if (!trace_raw_text(m->v[M_TS], m->n[M_TS], &t, &tn) ||
	    decimal_us_to_ns(t, tn, ts) ||
	    !trace_raw_text(m->v[M_DUR], m->n[M_DUR], &t, &tn) ||
	    decimal_us_to_ns(t, tn, dur) || *dur < 0 ||
	    checked_add(*ts, *dur, &end))
		return -1;
	return 0;
}

static int span_add(struct ctx *c, struct proc *p, int kind,
                    const struct members *m, uint64_t at)
{
	struct spans *s = &p->ov[kind];
	int64_t ts, dur;

	if (times_of(m, &ts, &dur))
		return bad_event(p, at, "span");
	if (grow(c, &s->v, sizeof(*s->v), s->n + 1, &s->alloc,
	         "Overlap Analysis spans"))
		return -1;
	s->v[s->n].start_ns = ts;
	s->v[s->n++].end_ns = ts + dur;
	return 0;
}

/* ---- host ranges ------------------------------------------------------ */

static int32_t step_number(const char *s, size_t n)
{
	int64_t v;

	if (n <= 13 || memcmp(s, "ProfilerStep#", 13) ||
	    decimal_to_i64(s + 13, n - 13, &v) || v < 0 || v > INT32_MAX)
		return STEP_NONE;
	return (int32_t)v;
}

static int is_host_range_cat(const struct members *m)
{
	const char *t;
	size_t tn;

	return trace_raw_text(m->v[M_CAT], m->n[M_CAT], &t, &tn) &&
	       (raw_eq(t, tn, "cpu_op") || raw_eq(t, tn, "user_annotation"));
}

/* A profiler step or a user's stage marker; 0 when the event is neither. */
static int range_add(struct ctx *c, const struct members *m)
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
	if (grow(c, &tp->ranges, sizeof(*tp->ranges), tp->nranges + 1,
	         &c->alloc_ranges, "profiler step and stage marker ranges") ||
	    charge(c, c->tmp.len + 1 + 16, "range names", tp->nranges))
		return 1;
	r = &tp->ranges[tp->nranges++];
	r->name = xstrdup(c->tmp.buf);
	r->rule = rule;
	r->step = step;
	r->start_ns = ts;
	r->end_ns = ts + dur;
	return 1;
}

/* ---- how the trace was collected ------------------------------------- */

/* A host (CPU activity) event, cat cpu_op, user_annotation or
 * python_function, is counted; an operator's args are searched for
 * "Input Dims" (record_shapes) until the first is found. */
static void host_event(struct ctx *c, const struct members *m,
                       const char *el_end)
{
	struct trace_raw_el args = {m->v[M_ARGS], 0, NULL, 0};
	struct trace_raw_it it;
	struct trace_raw_member mb;
	const char *t;
	size_t tn;

	if (!trace_raw_text(m->v[M_CAT], m->n[M_CAT], &t, &tn))
		return;
	if (raw_eq(t, tn, "user_annotation") ||
	    raw_eq(t, tn, "python_function"))
		c->tp->host_ops++;
	if (!raw_eq(t, tn, "cpu_op"))
		return;
	c->tp->host_ops++;
	if (c->tp->host_shapes || !args.p || *args.p != '{')
		return;
	args.n = (size_t)(el_end - args.p);
	trace_raw_it_init(&it, &args);
	while (!c->tp->host_shapes && trace_raw_it_next(&it, &mb))
		c->tp->host_shapes = raw_eq(mb.key, mb.klen, "Input Dims");
}

/* ---- flows ----------------------------------------------------------- */

static uint64_t id_key(const char *s, size_t n)
{
	uint64_t h = hash_bytes(s, n);

	return h < 2 ? h + 2 : h;
}

static struct pending *pend_find(struct ctx *c, uint64_t key)
{
	size_t j = key & (c->pcap - 1);
	struct pending *tomb = NULL;

	for (;; j = (j + 1) & (c->pcap - 1)) {
		if (c->pend[j].key == key)
			return &c->pend[j];
		if (c->pend[j].key == 1 && !tomb)
			tomb = &c->pend[j];
		if (!c->pend[j].key)
			return tomb ? tomb : &c->pend[j];
	}
}

static void pend_rehash(struct ctx *c, size_t cap)
{
	struct pending *old = c->pend;
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

static void flow_pair(struct ctx *c, int64_t host, int64_t dev)
{
	struct traceprof *tp = c->tp;

	if (grow(c, &tp->flows, sizeof(*tp->flows), tp->nflows + 1,
	         &c->alloc_flows, "torch_to_npu flows"))
		return;
	tp->flows[tp->nflows].host_ns = host;
	tp->flows[tp->nflows++].dev_ns = dev;
}

/* A torch_to_npu flow end: paired with its other end by id. */
static void flow_end(struct ctx *c, const struct members *m, int start)
{
	const char *t, *id;
	size_t tn, idn;
	int64_t ts;
	uint64_t key;
	struct pending *p;

	if (!((trace_raw_text(m->v[M_CAT], m->n[M_CAT], &t, &tn) &&
	       raw_eq(t, tn, "async_npu")) ||
	      raw_eq(c->tmp.buf, c->tmp.len, "torch_to_npu")))
		return;
	if (!trace_raw_text(m->v[M_ID], m->n[M_ID], &id, &idn) || !idn ||
	    !trace_raw_text(m->v[M_TS], m->n[M_TS], &t, &tn) ||
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

/* ---- the raw callback ------------------------------------------------- */

/* An X event: a kernel, a sub-task, an Overlap Analysis span, a host
 * range, or something of no interest. */
static void on_x(struct ctx *c, const struct members *m, uint64_t at,
                 const char *el_end)
{
	struct proc *p;
	int64_t pid;
	int kind;

	host_event(c, m, el_end);
	if (range_add(c, m))
		return;
	if (!int_of(m->v[M_PID], m->n[M_PID], &pid) || !(p = proc_of(c, pid)))
		return;
	p->x_events++;
	if (p->role >= R_OTHER)
		return;
	kind = ov_kind(c->tmp.buf, c->tmp.len);
	if (kind >= 0) {
		if (p->role == R_UNNAMED || p->role == R_OVERLAP)
			(void)span_add(c, p, kind, m, at);
		return;
	}
	if (p->role == R_OVERLAP)
		return;
	if (p->role == R_HCCL && !is_hcom(c->tmp.buf, c->tmp.len)) {
		p->subtasks++;
		sample_rank(c, m, el_end);
		return;
	}
	if (is_subtask(c->tmp.buf, c->tmp.len)) {
		p->subtasks++;
		return;
	}
	(void)kernel_add(c, (size_t)(p - c->procs), m, at);
}

/* Every element comes here, without the scanner's prefilter: its members
 * are read once, "ph" among them. */
static int on_raw(const struct trace_raw_el *el, uint64_t at, void *ctx)
{
	struct ctx *c = ctx;
	struct members m;
	const char *ph;
	size_t phn;
	struct proc *p;
	int64_t pid;

	if (c->failed)
		return 0; /* the read fails: nothing more is kept */
	/* what does not read as an event goes to cJSON, which names the
	 * byte where it stops reading */
	if (members_read(el, &m))
		return 1;
	if (!trace_raw_text(m.v[M_PH], m.n[M_PH], &ph, &phn) || phn != 1)
		return 0;
	if (*ph == 'M') /* only process names are wanted: parsed */
		return m.v[M_NAME] && m.n[M_NAME] == 14 &&
		       !memcmp(m.v[M_NAME], "\"process_name\"", 14);
	if (*ph == 'C') { /* a counter: only counted, per process */
		if (int_of(m.v[M_PID], m.n[M_PID], &pid) &&
		    (p = proc_of(c, pid)))
			p->c_events++;
		return 0;
	}
	if (*ph != 'X' && *ph != 's' && *ph != 'f')
		return 0;
	if (name_of(c, &m))
		return *ph == 'X'; /* an X event without a name */
	if (*ph == 'X')
		on_x(c, &m, at, el->p + el->n);
	else
		flow_end(c, &m, *ph == 's');
	return 0;
}

/* ---- after the pass ------------------------------------------------------ */

static int keeps(const struct ctx *c, const struct kernel *k)
{
	const struct proc *p = &c->procs[k->step];

	if (p->role == R_HW)
		return 1;
	return p->role == R_HCCL &&
	       is_hcom(strtab_str(&c->types, k->key), c->types.lens[k->key]);
}

/* Keeps the kernels of the device processes, each keyed "Type\0Core" in
 * kt->keys (HCCL operations on core HCCL, the rest on none), charged as
 * kernels_read charges its keys; the table is cut to size. */
static void kernels_finish(struct ctx *c)
{
	struct kernel_table *kt = c->kt;
	uint32_t *memo =
	    xmalloc((c->types.n ? c->types.n : 1) * 2 * sizeof(*memo));
	uint64_t cost;
	size_t i, n = 0;

	memset(memo, 0xff, (c->types.n ? c->types.n : 1) * 2 * sizeof(*memo));
	for (i = 0; i < kt->n; i++) {
		struct kernel k = kt->v[i];
		int hccl = c->procs[k.step].role == R_HCCL;
		uint32_t *m = &memo[k.key * 2 + hccl];
		if (!keeps(c, &k)) {
			/* an HCCL task named before its process was */
			c->procs[k.step].subtasks += hccl;
			continue;
		}
		if (*m == UINT32_MAX) {
			strbuf_reset(&c->tmp);
			strbuf_add(&c->tmp, strtab_str(&c->types, k.key),
			           c->types.lens[k.key]);
			strbuf_addch(&c->tmp, '\0');
			strbuf_adds(&c->tmp, hccl ? "HCCL" : "");
			if (kernel_table_key(kt, c->tmp.buf, c->tmp.len, m,
			                     &cost)) {
				c->failed = "kernel types";
				c->failed_need = cost;
				c->failed_count = kt->keys.n;
				break;
			}
		}
		c->tp->hccl_ops += hccl;
		k.key = *m;
		k.step = STEP_NONE;
		kt->v[n++] = k;
	}
	kt->n = n;
	kernel_table_fit(kt);
	free(memo);
}

/* The spans of an Overlap Analysis process into tp: taken whole from the
 * first such process (no copy of the largest arrays of the pass), added
 * from any other. */
static void spans_take(struct ctx *c, int k, struct spans *s)
{
	struct traceprof *tp = c->tp;

	if (!tp->ov[k]) {
		tp->ov[k] = s->v;
		tp->nov[k] = s->n;
		memset(s, 0, sizeof(*s)); /* its charge stays, for tp */
		return;
	}
	if (charge(c, (uint64_t)(s->n + 1) * sizeof(*s->v),
	           "Overlap Analysis spans", tp->nov[k] + s->n))
		return;
	tp->ov[k] =
	    xrealloc(tp->ov[k], (tp->nov[k] + s->n + 1) * sizeof(*tp->ov[k]));
	if (s->n)
		memcpy(tp->ov[k] + tp->nov[k], s->v, s->n * sizeof(*s->v));
	tp->nov[k] += s->n;
}

static void procs_finish(struct ctx *c)
{
	struct traceprof *tp = c->tp;
	size_t i;
	int k;

	for (i = 0; i < c->nprocs; i++) {
		struct proc *p = &c->procs[i];
		int device = p->role == R_HW || p->role == R_HCCL ||
		             p->role == R_OVERLAP;
		tp->hw_found |= p->role == R_HW;
		tp->hccl_found |= p->role == R_HCCL;
		tp->ov_found |= p->role == R_OVERLAP;
		if (p->role == R_HW) {
			tp->hw_events += p->x_events;
			tp->subtasks += p->subtasks;
		} else if (!device) {
			tp->cpu_events += p->x_events;
		}
		tp->hccl_subtasks += p->role == R_HCCL ? p->subtasks : 0;
		tp->cann_events += p->role == R_CANN ? p->x_events : 0;
		tp->mem_counters += p->role == R_NPU_MEM ? p->c_events : 0;
		if (device && p->bad &&
		    (!tp->bad_events || p->first_bad_at < tp->first_bad_at)) {
			tp->first_bad_at = p->first_bad_at;
			tp->first_bad_why = p->first_bad_why;
		}
		tp->bad_events += device ? p->bad : 0;
		for (k = 0; p->role == R_OVERLAP && k < OV_KINDS; k++)
			spans_take(c, k, &p->ov[k]);
		spans_free(c, p);
	}
}

static int no_kernels(const struct ctx *c, struct err *e)
{
	const struct traceprof *tp = c->tp;

	if (!tp->hw_found)
		return err_set(
		    e, ERR_INPUT,
		    "%s: no Ascend Hardware kernel events: the trace "
		    "has no \"Ascend Hardware\" process (%llu host "
		    "events; a CPU-only trace? collect with "
		    "ProfilerActivity.NPU)",
		    c->name, (unsigned long long)tp->cpu_events);
	return err_set(e, ERR_INPUT,
	               "%s: no Ascend Hardware kernel events: its %llu events "
	               "are runtime sub-tasks (EVENT_WAIT, MEMCPY_ASYNC, ...), "
	               "not kernels",
	               c->name, (unsigned long long)tp->hw_events);
}

/* What was refused (a budget error naming the structure) or over a cap. */
static int pass_failed(const struct ctx *c, struct err *e)
{
	if (!c->failed_need)
		return err_set(e, ERR_INPUT,
		               "%s: %s: not a profile sdperf can summarise",
		               c->name, c->failed);
	return membudget_fail(e, c->failed_need, "%s: %s (%zu read)", c->name,
	                      c->failed, c->failed_count);
}

static void ctx_init(struct ctx *c, const char *name, traceprof_match_fn match,
                     void *mctx, struct kernel_table *kt, struct traceprof *tp)
{
	memset(c, 0, sizeof(*c));
	memset(tp, 0, sizeof(*tp));
	c->name = name;
	c->match = match;
	c->mctx = mctx;
	c->kt = kt;
	c->tp = tp;
	tp->rank_id = -1;
	strtab_init(&c->types);
	strbuf_init(&c->tmp);
	c->pcap = 1024;
	c->pend = xcalloc(c->pcap, sizeof(*c->pend));
	c->too_many = -1;
	idmap_init(&c->proc_of);
}

static void ctx_release(struct ctx *c)
{
	size_t i;

	for (i = 0; i < c->nprocs; i++)
		spans_free(c, &c->procs[i]);
	free(c->procs);
	idmap_release(&c->proc_of);
	free(c->pend);
	membudget_release(c->pend_charged + c->types_charged);
	strtab_release(&c->types);
	strbuf_release(&c->tmp);
}

/* data NULL: name is a path. */
static int read_trace(const char *name, const void *data, size_t len,
                      size_t chunk, traceprof_match_fn match, void *mctx,
                      struct kernel_table *kt, struct traceprof *tp,
                      struct err *e)
{
	struct ctx c;
	struct trace_handler h = {NULL, on_meta, on_raw, NULL};
	int rc;

	ctx_init(&c, name, match, mctx, kt, tp);
	h.ctx = &c;
	rc = data
	         ? trace_scan_mem_with(name, data, len, chunk, &h, &tp->scan, e)
	         : trace_scan_file_with(name, &h, &tp->scan, e);
	if (!rc && c.too_many >= 0)
		rc = err_set(e, ERR_INPUT,
		             "%s: more than %u processes (pid %lld is one too "
		             "many): not a profiler trace",
		             name, (unsigned)TRACEPROF_MAX_PIDS,
		             (long long)c.too_many);
	if (!rc && !c.failed) {
		kernels_finish(&c);
		procs_finish(&c);
		if (c.rank_conflict)
			tp->rank_id = -1;
	}
	if (!rc && c.failed)
		rc = pass_failed(&c, e);
	else if (!rc && !kt->n)
		rc = no_kernels(&c, e);
	ctx_release(&c);
	return rc;
}

int traceprof_read(const char *path, traceprof_match_fn match, void *mctx,
                   struct kernel_table *kt, struct traceprof *tp, struct err *e)
{
	return read_trace(path, NULL, 0, 0, match, mctx, kt, tp, e);
}

int traceprof_read_mem(const char *name, const void *data, size_t len,
                       size_t chunk, traceprof_match_fn match, void *mctx,
                       struct kernel_table *kt, struct traceprof *tp,
                       struct err *e)
{
	return read_trace(name, data ? data : "", len, chunk, match, mctx, kt,
	                  tp, e);
}

void traceprof_release(struct traceprof *tp)
{
	size_t i;
	int k;

	membudget_release(tp->charged);
	for (i = 0; i < tp->nranges; i++)
		free(tp->ranges[i].name);
	free(tp->ranges);
	free(tp->flows);
	for (k = 0; k < OV_KINDS; k++)
		free(tp->ov[k]);
	memset(tp, 0, sizeof(*tp));
	tp->rank_id = -1;
}
