/* What the pieces of input/traceprof share: the state of the one pass
 * over the trace and the steps each piece contributes. Internal to
 * input/traceprof*.c; the contract for callers is input/traceprof.h.
 * - input/traceprof.c: the pass itself (the scanner's callbacks, the
 *   processes and their names, an event's members), what it leaves in
 *   struct traceprof, its errors;
 * - input/traceprof_kernels.c: the kernel rule (which events of the
 *   Ascend Hardware and HCCL processes are kernels) and the kernel table;
 * - input/traceprof_collect.c: the rest the pass collects: Overlap
 *   Analysis spans, host ranges (profiler steps, stage markers), host
 *   events, torch_to_npu flows.
 * Nothing here reports an error itself: a piece that is refused memory
 * or is over a cap sets c->failed (and failed_need, failed_count), the
 * pass then keeps nothing more and traceprof.c names the file. */
#ifndef SDPERF_TRACEPROF_INT_H
#define SDPERF_TRACEPROF_INT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/tasktype.h"
#include "core/vocab.h"
#include "util/idmap.h"
#include "util/strbuf.h"
#include "util/strtab.h"

#define TRACEPROF_UNKNOWN_PROCS 8 /* processes with a tally of their own */

struct kernel_table;
struct traceprof;
struct traceprof_span;

/* What a process is, once its process_name event has been read; from
 * TPR_OTHER on, one with no kernels and no spans. */
enum traceprof_role {
	TPR_UNNAMED,
	TPR_HW,
	TPR_HCCL,
	TPR_OVERLAP,
	TPR_OTHER,
	TPR_CANN,
	TPR_NPU_MEM
};

struct traceprof_spanv {
	struct traceprof_span *v;
	size_t n, alloc;
};

struct traceprof_proc {
	int64_t pid;
	enum traceprof_role role;
	struct traceprof_spanv ov[OV_KINDS]; /* kept while unnamed or overlap */
	uint64_t x_events, c_events, subtasks, bad, first_bad_at;
	const char *first_bad_why;
	/* APP/HBM counters that cannot be used (counted for the process
	 * only once it is named NPU MEM) */
	uint64_t mem_bad, mem_first_bad_at;
	const char *mem_first_bad_why;
};

/* A flow end waiting for the other, keyed by a 64-bit keyed hash of its id
 * (util/hash.h: ids cannot be chosen to collide without the process key). */
struct traceprof_pending {
	uint64_t key; /* 0 = empty, 1 = deleted */
	int64_t ts;
	int is_start;
};

struct traceprof_ctx {
	const char *name;
	int (*match)(const char *name, size_t len, void *ctx); /* or NULL */
	void *mctx;
	struct kernel_table *kt;
	struct traceprof *tp;
	struct strtab types; /* kernel record key = id of its type here */

	struct traceprof_proc *procs;
	size_t nprocs, aprocs;
	struct idmap proc_of; /* pid -> index in procs (keyed: hostile pids
	                       * cannot share a bucket) */
	size_t last;          /* the last process looked up */
	int64_t too_many;     /* the first pid past TRACEPROF_MAX_PIDS, or -1 */

	struct traceprof_pending *pend;
	size_t pcap, plive, pused;

	size_t alloc_ranges, alloc_flows, alloc_mem;
	int rank_samples, rank_conflict;
	struct strbuf tmp;
	struct strbuf tkey; /* a kernel's "Type\0\0Api" in c->types */

	/* the memory budget (util/membudget.h): what the pass holds is
	 * charged to tp->charged (kernels to kt->charged), the pending-flow
	 * table and the type names to pend_charged and types_charged */
	uint64_t pend_charged, types_charged, types_bytes;
	/* task types not in the table (core/tasktype.h), per process until
	 * its name says whether it is the Ascend Hardware's; processes past
	 * TRACEPROF_UNKNOWN_PROCS share the last slot's proc SIZE_MAX (kept
	 * whatever their name) */
	struct traceprof_unk {
		size_t proc;
		struct task_unknowns u;
	} unk[TRACEPROF_UNKNOWN_PROCS];
	size_t nunk;
	const char *failed;   /* what was refused or over a cap: the pass
	                       * stops keeping things, the read fails */
	uint64_t failed_need; /* bytes asked (a refusal), 0 for a cap */
	size_t failed_count;  /* of the structure refused */
};

/* The members of an event the pass reads ("name", "ph", "pid", "ts",
 * "dur", "cat", "id", "args"): the raw bytes of each value (a string with
 * its quotes), NULL when absent; the first of a repeated key counts. */
enum traceprof_member {
	TPM_NAME,
	TPM_PH,
	TPM_PID,
	TPM_TS,
	TPM_DUR,
	TPM_CAT,
	TPM_ID,
	TPM_ARGS,
	TPM_COUNT
};

struct traceprof_members {
	const char *v[TPM_COUNT];
	size_t n[TPM_COUNT];
};

static inline int traceprof_raw_eq(const char *s, size_t len, const char *lit)
{
	size_t n = strlen(lit);
	return len == n && !memcmp(s, lit, n);
}

/* ---- traceprof.c ------------------------------------------------------- */

/* Grows an array the pass keeps by an eighth, charged to tp->charged: 0,
 * or -1 with the pass failed (what: the structure, for the message). */
int traceprof_grow(struct traceprof_ctx *c, void *pp, size_t size, size_t need,
                   size_t *alloc, const char *what);
/* Charges n bytes to tp->charged: 0, or -1 with the pass failed. */
int traceprof_charge(struct traceprof_ctx *c, uint64_t n, const char *what,
                     size_t count);
/* The integer of a raw value (v, n bytes) into *out: 1, or 0 when it is
 * none. */
int traceprof_int_of(const char *v, size_t n, int64_t *out);
/* Counts a kernel or span event of p at byte offset at that cannot be
 * used (why: static English); always -1. */
int traceprof_bad_event(struct traceprof_proc *p, uint64_t at, const char *why);

/* ---- traceprof_kernels.c: the kernel rule ------------------------------ */

/* A runtime sub-task rather than a kernel (a task-type label, "Other",
 * "MemcopyAsync"), by its name of n bytes: 1 or 0. */
int traceprof_is_subtask(const char *s, size_t n);
/* The class of an Ascend Hardware event by its args["Task Type"]
 * (core/tasktype.h), -1 when it has none; the type's raw text into *t,
 * *tn. */
int traceprof_task_class(const struct traceprof_members *m, const char *el_end,
                         const char **t, size_t *tn);
/* Tallies an event of process index proc whose task type (t, tn bytes) is
 * not in the table. */
void traceprof_unknown_add(struct traceprof_ctx *c, size_t proc,
                           const struct traceprof_members *m, const char *t,
                           size_t tn);
/* After the pass: the tallies of the Ascend Hardware processes into tp. */
void traceprof_unknown_finish(struct traceprof_ctx *c);
/* An HCCL collective operation ("hcom_", any case): 1 or 0. */
int traceprof_is_hcom(const char *s, size_t n);
/* Reads the rank id from an HCCL sub-task's "src rank" (m: its members,
 * el_end: the end of its bytes) into tp->rank_id, up to
 * TRACEPROF_RANK_SAMPLES of them; a disagreement sets c->rank_conflict. */
void traceprof_sample_rank(struct traceprof_ctx *c,
                           const struct traceprof_members *m,
                           const char *el_end);
/* One kernel record (named c->tmp) of process index proc, kept until the
 * process's name decides (its step holds proc until then): 0, or -1 when
 * the event is bad (counted) or the pass failed. */
int traceprof_kernel_add(struct traceprof_ctx *c, size_t proc,
                         const struct traceprof_members *m, uint64_t at);
/* After the pass: keeps the kernels of the device processes, keyed
 * "Type\0Core", counts tp->hccl_ops; the table is cut to size. */
void traceprof_kernels_finish(struct traceprof_ctx *c);

/* ---- traceprof_collect.c: spans, host ranges and events, flows --------- */

/* Frees p's spans, giving their charge back. */
void traceprof_spans_free(struct traceprof_ctx *c, struct traceprof_proc *p);
/* The spans s of kind k of an Overlap Analysis process into tp (taken
 * whole when tp has none of that kind yet, s then emptied). */
void traceprof_spans_take(struct traceprof_ctx *c, int k,
                          struct traceprof_spanv *s);
/* One Overlap Analysis span of kind into p: 0, or -1 when the event is
 * bad (counted) or the pass failed. */
int traceprof_span_add(struct traceprof_ctx *c, struct traceprof_proc *p,
                       int kind, const struct traceprof_members *m,
                       uint64_t at);
/* An X event named c->tmp as a profiler step or a stage marker into
 * tp->ranges: 1 when it is one (kept, or not for want of times or
 * memory), 0 when it is neither. */
int traceprof_range_add(struct traceprof_ctx *c,
                        const struct traceprof_members *m);
/* Counts a host event into tp->host_ops and looks for "Input Dims". */
void traceprof_host_event(struct traceprof_ctx *c,
                          const struct traceprof_members *m,
                          const char *el_end);
/* A counter ("C") event of process index proc: an "APP/HBM" one of a
 * process that is (or may yet be) "NPU MEM" is kept in tp->mem; a bad
 * one is counted in tp->mem_bad. */
void traceprof_counter(struct traceprof_ctx *c, size_t proc,
                       const struct traceprof_members *m, const char *el_end,
                       uint64_t at);
/* After the pass: keeps the counters of the processes named "NPU MEM",
 * and counts their bad ones into tp. */
void traceprof_counters_finish(struct traceprof_ctx *c);
/* A flow end ("s": start 1, "f": 0) named c->tmp: a torch_to_npu one is
 * paired with its other end by id into tp->flows. */
void traceprof_flow_end(struct traceprof_ctx *c,
                        const struct traceprof_members *m, int start);

#endif
