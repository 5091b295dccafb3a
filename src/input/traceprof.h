/* A profile from trace_view.json alone: what torch_npu's
 * prof.export_chrome_trace() leaves (MindIE-SD's guide collects exactly
 * that), or a rank folder without kernel_details.csv. One streamed pass
 * over the trace (input/trace.h) collects everything the analysis needs;
 * nothing else of the trace is kept.
 *
 * Kernels:
 * - the complete ("ph": "X") events of the process named "Ascend Hardware"
 *   (found by its process_name event, never by pid) whose args["Task
 *   Type"] the task-type table (core/tasktype.h, docs/task-types.md) calls
 *   a kernel, whatever their name; not those it calls a communication or
 *   runtime task, nor those of a type it lacks (tallied in tp->unknown:
 *   the report names them);
 * - where an event has no Task Type, or one that says nothing ("Other",
 *   as on every task of the 2024 generation), the name rule worked out on
 *   the real AlexNet Level0 and Level1 captures (exactly their
 *   kernel_details.csv rows: count, names, starts, durations to the ns):
 *   every such event except its runtime sub-tasks: events named after a
 *   task type (capitals, digits and '_' only: EVENT_RECORD, EVENT_WAIT,
 *   NOTIFY_RECORD, NOTIFY_WAIT, MEMCPY_ASYNC, REDUCE_ASYNC_V2, ...),
 *   "Other" (a sub-task of a communication stream that lost its name) and
 *   "MemcopyAsync" (a host memory copy);
 * - the X events of the process named "HCCL" (or "Communication") whose
 *   name starts with "hcom_" (case-insensitive): the top-level collective
 *   operations, not their Notify/Memcpy/Reduce sub-tasks.
 * The type comes from the name as for Level0 kernel_details.csv
 * (kernels_type_from_name); the accelerator core is "HCCL" for the HCCL
 * operations, none ("", as for N/A in kernel_details.csv) for the rest: a
 * trace names no core. Start = "ts"
 * exactly; duration = "dur" (a printed double) rounded to the nearest ns,
 * the HCCL operations' cut to the ns, as kernel_details.csv has them.
 *
 * Besides the kernels: the Overlap Analysis spans, the host ranges of the
 * profiler steps ("ProfilerStep#N") and of the user's stage markers
 * (record_function ranges a caller's matcher accepts), the host-to-device
 * flows that tie them to device time (torch_to_npu / async_npu), and the
 * rank id where the trace carries one (the "src rank" of the HCCL
 * sub-tasks, which is the rank's own), and what tells how the trace was
 * collected: host events, input shapes, memory counters, CANN events and
 * HCCL task details (see struct traceprof).
 *
 * Processes are often named after their events (the Python process's
 * name comes mid-file in real traces): events of a pid not yet named are
 * kept as 24-byte kernel records (or 16-byte spans) until its name
 * decides. Memory: the kernel records, the spans and the flow pairs
 * (16 bytes each), the scanner's chunk. Reentrant. */
#ifndef SDPERF_TRACEPROF_H
#define SDPERF_TRACEPROF_H

#include <stddef.h>
#include <stdint.h>

#include "core/tasktype.h"
#include "core/vocab.h"
#include "input/profile.h"
#include "input/trace.h"
#include "util/err.h"

/* Overlap Analysis spans are kept per kind: enum ov (core/vocab.h),
 * matched by ov_trace_names. */

#define TRACEPROF_MAX_PIDS 65536 /* distinct processes; more is an error */
#define TRACEPROF_MAX_PENDING_FLOWS                                            \
	(1u << 20)                /* flow ends waiting for                     \
	                           * their other end */
#define TRACEPROF_RANK_SAMPLES 64 /* HCCL sub-tasks whose src rank is read */

struct traceprof_span {
	int64_t start_ns, end_ns;
};

/* A host range: a profiler step or a user's stage marker. */
struct traceprof_range {
	char *name;   /* decoded (owned) */
	int rule;     /* the matcher's rule index; -1 for a profiler step */
	int32_t step; /* N of "ProfilerStep#N", or STEP_NONE */
	int64_t start_ns, end_ns;
};

/* A device-memory counter of the "NPU MEM" process (profile_memory: the
 * process's device memory as the driver samples it), args {"KB": N} in
 * bytes. Its "APP/Memory" events are HBM + DDR, the same figure as
 * memory_record.csv's APP rows (AlexNet 2024: 2,166,880 KB = 2,116.09 MB
 * in both; "APP/HBM" alone, 2,050 MB, is 66 MB short of it); a trace
 * without them keeps its "APP/HBM" events. */
struct traceprof_mem {
	int64_t ts_ns, bytes;
	size_t proc; /* internal to the pass: its process */
	int total;   /* internal to the pass: an APP/Memory event */
};

/* A torch_to_npu flow: where the host launched, where the device ran. */
struct traceprof_flow {
	int64_t host_ns, dev_ns;
};

struct traceprof {
	struct trace_scan scan;
	int hw_found;       /* an "Ascend Hardware" process was named */
	int hccl_found;     /* an "HCCL" process was named */
	int ov_found;       /* an "Overlap Analysis" process was named */
	uint64_t hw_events; /* its X events */
	uint64_t subtasks;  /* of which left out as sub-tasks */
	/* of which left out because their Task Type is not in the table
	 * (core/tasktype.h): each type with its count and time */
	struct task_unknowns unknown;
	uint64_t hccl_ops;     /* hcom_ operations kept */
	uint64_t cpu_events;   /* X events of other processes (host) */
	uint64_t bad_events;   /* kernel events without a usable ts/dur/name */
	uint64_t first_bad_at; /* byte offset of the first */
	const char *first_bad_why; /* static English, or NULL */

	/* Overlap Analysis spans per kind, in file order */
	struct traceprof_span *ov[OV_KINDS];
	size_t nov[OV_KINDS];

	struct traceprof_range *ranges; /* steps and markers, file order */
	size_t nranges;
	struct traceprof_flow *flows; /* paired flows, pairing order */
	size_t nflows;
	int flows_overflow; /* too many pending: pairs are incomplete */

	int32_t rank_id; /* from the trace, or -1 */
	/* bytes charged to the memory budget for what tp holds (spans,
	 * ranges and their names, flows); traceprof_release gives them
	 * back */
	uint64_t charged;

	/* what the trace shows of how it was collected */
	uint64_t host_ops;     /* X events of cat cpu_op, user_annotation or
	                        * python_function (ProfilerActivity.CPU) */
	int host_shapes;       /* a cpu_op event's args have "Input Dims"
	                        * (record_shapes) */
	uint64_t mem_counters; /* C events of the "NPU MEM" process
	                        * (profile_memory) */
	/* its APP/HBM counters, file order (charged to tp->charged), and
	 * those without a usable ts or KB (skipped; the first's byte offset
	 * and why, static English) */
	struct traceprof_mem *mem;
	size_t nmem;
	uint64_t mem_bad, mem_first_bad_at;
	const char *mem_first_bad_why;
	uint64_t cann_events;   /* X events of the "CANN" process (the
	                         * AscendCL layer: Level1 and above) */
	uint64_t hccl_subtasks; /* X events of the HCCL process that are no
	                         * hcom_ operation (task details: Level1 and
	                         * above) */
};

/* A user stage-marker matcher: the index of the first rule the range name
 * (len bytes: raw, escapes not decoded, or decoded) matches, or -1. */
typedef int (*traceprof_match_fn)(const char *name, size_t len, void *ctx);

/* Reads the trace at path: appends its kernels to kt (which must be empty;
 * their step is STEP_NONE: steps are the analysis' business) and fills tp
 * (release it with traceprof_release, also after an error). match may be
 * NULL (no markers). A truncated trace is not an error: the kernels before
 * the cut are kept and tp->scan.truncated says so.
 *
 * Everything kept grows charged to the memory budget (util/membudget.h):
 * the kernel table as kernels_read's (KERNEL_COST_BYTES a slot, cut to
 * size at the end, its keys within the caps of input/profile.h), the
 * spans, ranges (with their names) and flows to tp->charged.
 *
 * Returns -1 with ERR_INPUT for the scanner's errors (input/trace.h), for
 * a trace without a single kernel event (a CPU-only trace, or a JSON file
 * that is no profiler trace), for one with more than TRACEPROF_MAX_PIDS
 * processes or over the kernel-type caps, and when the memory budget
 * refuses what the pass keeps, naming the file. */
int traceprof_read(const char *path, traceprof_match_fn match, void *mctx,
                   struct kernel_table *kt, struct traceprof *tp,
                   struct err *e);

/* The same over len bytes in memory, read chunk bytes at a time (0 =
 * TRACE_CHUNK); name is used in messages. For tests and fuzzing. */
int traceprof_read_mem(const char *name, const void *data, size_t len,
                       size_t chunk, traceprof_match_fn match, void *mctx,
                       struct kernel_table *kt, struct traceprof *tp,
                       struct err *e);

void traceprof_release(struct traceprof *tp);

#endif
