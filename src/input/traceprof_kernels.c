/* The kernel rule of a trace read alone (input/traceprof.h says which
 * events are kernels): the sub-tasks left out, the HCCL operations, the
 * kernel records kept while their process is unnamed and the table they
 * end in; and the rank id read from the HCCL sub-tasks. */
#include "input/traceprof.h"
#include "input/traceprof_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "input/kernels.h"
#include "input/trace_raw.h"
#include "util/checked.h"
#include "util/decimal.h"
#include "util/membudget.h"
#include "util/strbuf.h"
#include "util/strtab.h"
#include "util/utf8.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* ---- kernels ------------------------------------------------------------ */

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

int traceprof_is_subtask(const char *s, size_t n)
{
	return is_task_type(s, n) || traceprof_raw_eq(s, n, "Other") ||
	       traceprof_raw_eq(s, n, "MemcopyAsync");
}

int traceprof_task_class(const struct traceprof_members *m, const char *el_end,
                         const char **t, size_t *tn)
{
	struct trace_raw_el args;
	struct trace_raw_it it;
	struct trace_raw_member mb;

	*t = NULL;
	*tn = 0;
	if (!m->v[TPM_ARGS])
		return -1;
	args.p = m->v[TPM_ARGS];
	args.n = (size_t)(el_end - m->v[TPM_ARGS]);
	args.d1 = NULL;
	args.nd1 = 0;
	trace_raw_it_init(&it, &args);
	while (trace_raw_it_next(&it, &mb)) {
		if (!traceprof_raw_eq(mb.key, mb.klen, "Task Type"))
			continue;
		/* a type that is no string names nothing: its raw bytes */
		if (!trace_raw_text(mb.val, mb.vlen, t, tn)) {
			*t = mb.val;
			*tn = mb.vlen;
		}
		return (int)task_class_of(*t, *tn);
	}
	return -1;
}

void traceprof_unknown_add(struct traceprof_ctx *c, size_t proc,
                           const struct traceprof_members *m, const char *t,
                           size_t tn)
{
	const char *d;
	size_t dn, i;
	int64_t dur = 0;

	if (!trace_raw_text(m->v[TPM_DUR], m->n[TPM_DUR], &d, &dn) ||
	    decimal_us_to_ns_nearest(d, dn, &dur) || dur < 0)
		dur = 0;
	for (i = 0; i < c->nunk && c->unk[i].proc != proc; i++)
		;
	if (i == c->nunk && c->nunk < TRACEPROF_UNKNOWN_PROCS) {
		/* the last slot is shared by every process past the others */
		c->unk[i].proc =
		    c->nunk == TRACEPROF_UNKNOWN_PROCS - 1 ? SIZE_MAX : proc;
		c->nunk++;
	}
	if (i == c->nunk)
		i = TRACEPROF_UNKNOWN_PROCS - 1;
	task_unknown_add(&c->unk[i].u, t, tn, dur);
}

void traceprof_unknown_finish(struct traceprof_ctx *c)
{
	size_t i;

	for (i = 0; i < c->nunk; i++)
		if (c->unk[i].proc == SIZE_MAX ||
		    c->procs[c->unk[i].proc].role == TPR_HW)
			task_unknowns_merge(&c->tp->unknown, &c->unk[i].u);
}

int traceprof_is_hcom(const char *s, size_t n)
{
	return n >= 5 && !strncasecmp(s, "hcom_", 5);
}

/* Its HCCL sub-tasks say which rank the trace is from ("src rank"). */
void traceprof_sample_rank(struct traceprof_ctx *c,
                           const struct traceprof_members *m,
                           const char *el_end)
{
	struct trace_raw_el args = {m->v[TPM_ARGS],
	                            (size_t)(el_end - m->v[TPM_ARGS]), NULL, 0};
	struct trace_raw_it it;
	struct trace_raw_member mb;
	int64_t r;

	if (!m->v[TPM_ARGS] || c->rank_samples >= TRACEPROF_RANK_SAMPLES)
		return;
	trace_raw_it_init(&it, &args);
	while (trace_raw_it_next(&it, &mb)) {
		if (!traceprof_raw_eq(mb.key, mb.klen, "src rank"))
			continue;
		if (!traceprof_int_of(mb.val, mb.vlen, &r) || r < 0 ||
		    r >= 1000000)
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
static int table_grow(struct traceprof_ctx *c)
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
static int new_type(struct traceprof_ctx *c, size_t tl)
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
int traceprof_kernel_add(struct traceprof_ctx *c, size_t proc,
                         const struct traceprof_members *m, uint64_t at)
{
	struct traceprof_proc *p = &c->procs[proc];
	int hcom = traceprof_is_hcom(c->tmp.buf, c->tmp.len);
	const char *t, *type;
	size_t tn, tl, bad;
	int64_t ts, dur, end;
	uint32_t key;
	struct kernel *k;

	if (!trace_raw_text(m->v[TPM_TS], m->n[TPM_TS], &t, &tn) ||
	    decimal_us_to_ns(t, tn, &ts))
		return traceprof_bad_event(p, at, "ts");
	if (!trace_raw_text(m->v[TPM_DUR], m->n[TPM_DUR], &t, &tn) ||
	    (hcom ? decimal_us_to_ns_trunc(t, tn, &dur)
	          : decimal_us_to_ns_nearest(t, tn, &dur)) ||
	    checked_add(ts, dur, &end))
		return traceprof_bad_event(p, at, "dur");
	tl = kernels_type_from_name(c->tmp.buf, c->tmp.len, &type);
	/* "Type\0Api": the aclnn API goes into the kernel's key */
	kernels_make_key(&c->tkey, type, tl, "", 0, c->tmp.buf, c->tmp.len);
	key = strtab_find(&c->types, c->tkey.buf, c->tkey.len);
	if (key == UINT32_MAX) {
		/* a key found was checked when it was new */
		if (!tl || !utf8_is_text(type, tl, &bad))
			return traceprof_bad_event(p, at, "name");
		if (new_type(c, c->tkey.len))
			return -1;
		key = strtab_intern(&c->types, c->tkey.buf, c->tkey.len);
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

static int keeps(const struct traceprof_ctx *c, const struct kernel *k)
{
	const struct traceprof_proc *p = &c->procs[k->step];

	if (p->role == TPR_HW)
		return 1;
	const char *t = strtab_str(&c->types, k->key);

	return p->role == TPR_HCCL && traceprof_is_hcom(t, strlen(t));
}

/* Keeps the kernels of the device processes, each keyed "Type\0Core" in
 * kt->keys (HCCL operations on core HCCL, the rest on none), charged as
 * kernels_read charges its keys; the table is cut to size. */
void traceprof_kernels_finish(struct traceprof_ctx *c)
{
	struct kernel_table *kt = c->kt;
	uint32_t *memo =
	    xmalloc((c->types.n ? c->types.n : 1) * 2 * sizeof(*memo));
	uint64_t cost;
	size_t i, n = 0;

	memset(memo, 0xff, (c->types.n ? c->types.n : 1) * 2 * sizeof(*memo));
	for (i = 0; i < kt->n; i++) {
		struct kernel k = kt->v[i];
		int hccl = c->procs[k.step].role == TPR_HCCL;
		uint32_t *m = &memo[k.key * 2 + hccl];
		if (!keeps(c, &k)) {
			/* an HCCL task named before its process was */
			c->procs[k.step].subtasks += hccl;
			continue;
		}
		if (*m == UINT32_MAX) {
			const char *t = strtab_str(&c->types, k.key);
			size_t tl = strlen(t);
			strbuf_reset(&c->tmp);
			strbuf_add(&c->tmp, t, tl);
			strbuf_addch(&c->tmp, '\0');
			strbuf_adds(&c->tmp, hccl ? "HCCL" : "");
			if (tl + 1 < c->types.lens[k.key]) {
				/* the API, after the type's empty core */
				strbuf_addch(&c->tmp, '\0');
				strbuf_add(&c->tmp, t + tl + 2,
				           c->types.lens[k.key] - tl - 2);
			}
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
