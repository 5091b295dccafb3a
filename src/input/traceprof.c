/* A profile from trace_view.json alone, in one streamed pass: the kernel
 * events are read straight from their bytes (TRACE_RAW: no cJSON tree per
 * event, the scan's cost), the few metadata events are parsed. The pass,
 * its processes and its errors; the kernel rule is in traceprof_kernels.c,
 * the spans, ranges and flows in traceprof_collect.c
 * (input/traceprof_int.h). */
#include "input/traceprof.h"
#include "input/traceprof_int.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "input/jsonerr.h"
#include "input/trace_raw.h"
#include "util/decimal.h"
#include "util/idmap.h"
#include "util/membudget.h"
#include "util/strbuf.h"
#include "util/strtab.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* Grows an array the pass keeps by an eighth, charged to tp->charged: 0,
 * or -1 with the pass failed (what: the structure, for the message). */
int traceprof_grow(struct traceprof_ctx *c, void *pp, size_t size, size_t need,
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
int traceprof_charge(struct traceprof_ctx *c, uint64_t n, const char *what,
                     size_t count)
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

static int ov_kind(const char *s, size_t len)
{
	int k;

	if (!len || (*s != 'C' && *s != 'F'))
		return -1; /* the usual case: a kernel */
	for (k = 0; k < OV_KINDS; k++)
		if (traceprof_raw_eq(s, len, ov_trace_names[k]))
			return k;
	return -1;
}

/* ---- processes ---------------------------------------------------------- */

/* The process of pid, added when new; NULL past TRACEPROF_MAX_PIDS (the
 * read then fails: no profiler trace has that many). */
static struct traceprof_proc *proc_of(struct traceprof_ctx *c, int64_t pid)
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

static enum traceprof_role role_of(const char *process_name)
{
	if (!strcmp(process_name, "Ascend Hardware"))
		return TPR_HW;
	if (!strcmp(process_name, "HCCL") ||
	    !strcmp(process_name, "Communication"))
		return TPR_HCCL;
	if (!strcmp(process_name, "Overlap Analysis"))
		return TPR_OVERLAP;
	if (!strcmp(process_name, "CANN"))
		return TPR_CANN;
	if (!strcmp(process_name, "NPU MEM"))
		return TPR_NPU_MEM;
	return TPR_OTHER;
}

/* The first process_name of a pid names it; spans of a process that turns
 * out not to be the Overlap Analysis are dropped at once. */
static void on_meta(const struct trace_event *ev, void *ctx)
{
	struct traceprof_ctx *c = ctx;
	struct traceprof_proc *p;

	if (ev->ph != 'M' || strcmp(ev->name, "process_name") || ev->pid < 0)
		return;
	p = proc_of(c, ev->pid);
	if (!p || p->role != TPR_UNNAMED)
		return;
	p->role = role_of(ev->arg_name);
	if (p->role != TPR_OVERLAP)
		traceprof_spans_free(c, p);
}

/* ---- reading an event's members ----------------------------------------- */

/* The member a key names, or -1: by length and bytes, compared inline as
 * this runs for every member of every event read. */
static int member_of(const char *k, size_t kl)
{
	switch (kl) {
	case 2:
		return k[0] == 'p' && k[1] == 'h'   ? TPM_PH
		       : k[0] == 't' && k[1] == 's' ? TPM_TS
		       : k[0] == 'i' && k[1] == 'd' ? TPM_ID
		                                    : -1;
	case 3:
		return !memcmp(k, "pid", 3)   ? TPM_PID
		       : !memcmp(k, "dur", 3) ? TPM_DUR
		       : !memcmp(k, "cat", 3) ? TPM_CAT
		                              : -1;
	case 4:
		return !memcmp(k, "name", 4)   ? TPM_NAME
		       : !memcmp(k, "args", 4) ? TPM_ARGS
		                               : -1;
	default:
		return -1;
	}
}

static int members_read(const struct trace_raw_el *el,
                        struct traceprof_members *m)
{
	return trace_raw_members(el, member_of, m->v, m->n, TPM_COUNT);
}

int traceprof_int_of(const char *v, size_t n, int64_t *out)
{
	const char *t;
	size_t tn;

	return trace_raw_text(v, n, &t, &tn) && !decimal_to_i64(t, tn, out);
}

/* The decoded "name" into c->tmp; -1 when it is no string. A name without
 * a backslash is its raw bytes; one with escapes is decoded by cJSON. */
static int name_of(struct traceprof_ctx *c, const struct traceprof_members *m)
{
	const char *end;
	cJSON *s;

	strbuf_reset(&c->tmp);
	if (!m->v[TPM_NAME] || *m->v[TPM_NAME] != '"' || m->n[TPM_NAME] < 2)
		return -1;
	if (!memchr(m->v[TPM_NAME], '\\', m->n[TPM_NAME])) {
		strbuf_add(&c->tmp, m->v[TPM_NAME] + 1, m->n[TPM_NAME] - 2);
		return 0;
	}
	s = jsonerr_cjson_parse(m->v[TPM_NAME], m->n[TPM_NAME], &end);
	if (!cJSON_IsString(s) || !s->valuestring) {
		cJSON_Delete(s);
		return -1;
	}
	strbuf_adds(&c->tmp, s->valuestring);
	cJSON_Delete(s);
	return 0;
}

/* Counts a kernel or span event that cannot be used; always -1. */
int traceprof_bad_event(struct traceprof_proc *p, uint64_t at, const char *why)
{
	if (!p->bad++) {
		p->first_bad_at = at;
		p->first_bad_why = why;
	}
	return -1;
}

/* ---- the raw callback --------------------------------------------------- */

/* An X event: a kernel, a sub-task, an Overlap Analysis span, a host
 * range, or something of no interest. */
static void on_x(struct traceprof_ctx *c, const struct traceprof_members *m,
                 uint64_t at, const char *el_end)
{
	struct traceprof_proc *p;
	int64_t pid;
	int kind, cls;
	const char *tt;
	size_t ttn;

	traceprof_host_event(c, m, el_end);
	if (traceprof_range_add(c, m))
		return;
	if (!traceprof_int_of(m->v[TPM_PID], m->n[TPM_PID], &pid) ||
	    !(p = proc_of(c, pid)))
		return;
	p->x_events++;
	if (p->role >= TPR_OTHER)
		return;
	kind = ov_kind(c->tmp.buf, c->tmp.len);
	if (kind >= 0) {
		if (p->role == TPR_UNNAMED || p->role == TPR_OVERLAP)
			(void)traceprof_span_add(c, p, kind, m, at);
		return;
	}
	if (p->role == TPR_OVERLAP)
		return;
	if (p->role == TPR_HCCL && !traceprof_is_hcom(c->tmp.buf, c->tmp.len)) {
		p->subtasks++;
		traceprof_sample_rank(c, m, el_end);
		return;
	}
	/* the Task Type decides where it says something (core/tasktype.h);
	 * without one, or with one that says nothing, the name does */
	cls = traceprof_task_class(m, el_end, &tt, &ttn);
	if (cls == TASK_COMM || cls == TASK_RUNTIME) {
		p->subtasks++;
		return;
	}
	if (cls == TASK_UNKNOWN) {
		traceprof_unknown_add(c, (size_t)(p - c->procs), m, tt, ttn);
		return;
	}
	if (cls != TASK_KERNEL &&
	    traceprof_is_subtask(c->tmp.buf, c->tmp.len)) {
		p->subtasks++;
		return;
	}
	(void)traceprof_kernel_add(c, (size_t)(p - c->procs), m, at);
}

/* Every element comes here, without the scanner's prefilter: its members
 * are read once, "ph" among them. */
static int on_raw(const struct trace_raw_el *el, uint64_t at, void *ctx)
{
	struct traceprof_ctx *c = ctx;
	struct traceprof_members m;
	const char *ph;
	size_t phn;
	struct traceprof_proc *p;
	int64_t pid;

	if (c->failed)
		return 0; /* the read fails: nothing more is kept */
	/* what does not read as an event goes to cJSON, which names the
	 * byte where it stops reading */
	if (members_read(el, &m))
		return 1;
	if (!trace_raw_text(m.v[TPM_PH], m.n[TPM_PH], &ph, &phn) || phn != 1)
		return 0;
	if (*ph == 'M') /* only process names are wanted: parsed */
		return m.v[TPM_NAME] && m.n[TPM_NAME] == 14 &&
		       !memcmp(m.v[TPM_NAME], "\"process_name\"", 14);
	if (*ph == 'C') { /* a counter: counted, NPU MEM's kept */
		if (traceprof_int_of(m.v[TPM_PID], m.n[TPM_PID], &pid) &&
		    (p = proc_of(c, pid))) {
			p->c_events++;
			if (p->role == TPR_UNNAMED || p->role == TPR_NPU_MEM)
				traceprof_counter(c, (size_t)(p - c->procs), &m,
				                  el->p + el->n, at);
		}
		return 0;
	}
	if (*ph != 'X' && *ph != 's' && *ph != 'f')
		return 0;
	if (name_of(c, &m))
		return *ph == 'X'; /* an X event without a name */
	if (*ph == 'X')
		on_x(c, &m, at, el->p + el->n);
	else
		traceprof_flow_end(c, &m, *ph == 's');
	return 0;
}

/* ---- after the pass ----------------------------------------------------- */

static void procs_finish(struct traceprof_ctx *c)
{
	struct traceprof *tp = c->tp;
	size_t i;
	int k;

	for (i = 0; i < c->nprocs; i++) {
		struct traceprof_proc *p = &c->procs[i];
		int device = p->role == TPR_HW || p->role == TPR_HCCL ||
		             p->role == TPR_OVERLAP;
		tp->hw_found |= p->role == TPR_HW;
		tp->hccl_found |= p->role == TPR_HCCL;
		tp->ov_found |= p->role == TPR_OVERLAP;
		if (p->role == TPR_HW) {
			tp->hw_events += p->x_events;
			tp->subtasks += p->subtasks;
		} else if (!device) {
			tp->cpu_events += p->x_events;
		}
		tp->hccl_subtasks += p->role == TPR_HCCL ? p->subtasks : 0;
		tp->cann_events += p->role == TPR_CANN ? p->x_events : 0;
		tp->mem_counters += p->role == TPR_NPU_MEM ? p->c_events : 0;
		if (device && p->bad &&
		    (!tp->bad_events || p->first_bad_at < tp->first_bad_at)) {
			tp->first_bad_at = p->first_bad_at;
			tp->first_bad_why = p->first_bad_why;
		}
		tp->bad_events += device ? p->bad : 0;
		for (k = 0; p->role == TPR_OVERLAP && k < OV_KINDS; k++)
			traceprof_spans_take(c, k, &p->ov[k]);
		traceprof_spans_free(c, p);
	}
}

static int no_kernels(const struct traceprof_ctx *c, struct err *e)
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
static int pass_failed(const struct traceprof_ctx *c, struct err *e)
{
	if (!c->failed_need)
		return err_set(e, ERR_INPUT,
		               "%s: %s: not a profile sdperf can summarise",
		               c->name, c->failed);
	return membudget_fail(e, c->failed_need, "%s: %s (%zu read)", c->name,
	                      c->failed, c->failed_count);
}

static void ctx_init(struct traceprof_ctx *c, const char *name,
                     traceprof_match_fn match, void *mctx,
                     struct kernel_table *kt, struct traceprof *tp)
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
	strbuf_init(&c->tkey);
	c->pcap = 1024;
	c->pend = xcalloc(c->pcap, sizeof(*c->pend));
	c->too_many = -1;
	idmap_init(&c->proc_of);
}

static void ctx_release(struct traceprof_ctx *c)
{
	size_t i;

	for (i = 0; i < c->nprocs; i++)
		traceprof_spans_free(c, &c->procs[i]);
	free(c->procs);
	idmap_release(&c->proc_of);
	free(c->pend);
	membudget_release(c->pend_charged + c->types_charged);
	strtab_release(&c->types);
	strbuf_release(&c->tmp);
	strbuf_release(&c->tkey);
}

/* data NULL: name is a path. */
static int read_trace(const char *name, const void *data, size_t len,
                      size_t chunk, traceprof_match_fn match, void *mctx,
                      struct kernel_table *kt, struct traceprof *tp,
                      struct err *e)
{
	struct traceprof_ctx c;
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
		traceprof_kernels_finish(&c);
		traceprof_unknown_finish(&c);
		traceprof_counters_finish(&c);
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
	free(tp->mem);
	for (k = 0; k < OV_KINDS; k++)
		free(tp->ov[k]);
	memset(tp, 0, sizeof(*tp));
	tp->rank_id = -1;
}
