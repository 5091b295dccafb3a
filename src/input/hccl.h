/* What communication.json says about each collective, worked out from its
 * HCCL tasks: the db export has no communication.json, only the tasks
 * (COMMUNICATION_TASK_INFO) of each operation (COMMUNICATION_OP). Pure
 * arithmetic on rows the db reader hands over; knows no file format.
 *
 * The rules are HCCL's own (its communication analysis, as the profiler
 * applies it when it writes communication.json or analysis.db), checked
 * against analysis.db's CommAnalyzerTime / CommAnalyzerBandwidth on the
 * real samples:
 *   - Elapse = the operation's end - start.
 *   - Time figures come from one plane, the operation's main one: the
 *     lowest plane that has a Notify_Wait or a transfer (a plane holding
 *     only on-chip local copies is not it).
 *   - Transit = the plane's transfers: an SDMA Memcpy / Reduce_Inline over
 *     a link other than ON_CHIP (its duration), or an RDMA payload followed
 *     by RDMASend and Notify_Wait on its plane (payload start to that
 *     Notify_Wait's end).
 *   - Wait = the plane's Notify_Wait durations (those of RDMA transfers
 *     excepted); Synchronization = the part before its first transfer.
 *   - Idle = Elapse - Transit - Wait.
 *   - Bandwidth: every plane's transfers by transport: HCCS (links HCCS,
 *     HCCS_SW), PCIE, SIO, RDMA; SDMA is the sum of HCCS, PCIE and SIO.
 *     Sizes are bytes / 10^6 (the profiler's MB). */
#ifndef SDPERF_HCCL_H
#define SDPERF_HCCL_H

#include <stddef.h>
#include <stdint.h>

#include "input/commjson.h"
#include "util/err.h"

/* The most tasks one operation may have (a real one has tens to a few
 * thousand); more is an error, not an allocation. */
#define HCCL_MAX_TASKS (1u << 20)

/* One HCCL task of an operation, strings as the db spells them (taskType
 * "Notify_Wait", "Memcpy", ...; transport "SDMA", "RDMA", "LOCAL"; link
 * "ON_CHIP", "HCCS", "PCIE", ...; NULL when unknown). */
struct hccl_task {
	int64_t plane;
	const char *type, *transport, *link;
	int64_t size; /* bytes */
	int64_t start_ns, end_ns;
};

/* The operation being summed (plain data; hccl_op_init zeroes it). */
struct hccl_op {
	char *name;
	int64_t start_ns, end_ns;
	struct hccl_task_rec *t; /* its tasks, in arrival order */
	size_t n, alloc;
	uint64_t detailed; /* tasks of a known type (Level0 has none) */
};

void hccl_op_init(struct hccl_op *op);
void hccl_op_release(struct hccl_op *op);

/* Starts operation name (copied) spanning [start, end]. */
void hccl_op_begin(struct hccl_op *op, const char *name, int64_t start_ns,
                   int64_t end_ns);

/* Adds a task of the current operation. Tasks must come grouped by plane
 * (ascending) and by start within a plane. Returns 0, or -1 when the
 * operation already has HCCL_MAX_TASKS tasks. */
int hccl_op_task(struct hccl_op *op, const struct hccl_task *t);

/* Sums the current operation into cs (kind from its name, as
 * commstats_kind). Its tasks are dropped. */
void hccl_op_end(struct hccl_op *op, struct commstats *cs);

#endif
