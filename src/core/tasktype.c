/* The task-type table (core/tasktype.h). Every row is in
 * docs/task-types.md with where the name was seen. */
#include "core/tasktype.h"

#include <string.h>

struct task_row {
	const char *name;
	enum task_class cls;
};

static const struct task_row rows[] = {
    /* compute kernels: the accelerator core of an operator (the Task
     * Type of op_summary and of kernel_details.csv's Accelerator Core) */
    {"AI_CORE", TASK_KERNEL},
    {"AI_VECTOR_CORE", TASK_KERNEL},
    {"AI_CPU", TASK_KERNEL},
    {"MIX_AIC", TASK_KERNEL},
    {"MIX_AIV", TASK_KERNEL},
    {"DSA_SQE", TASK_KERNEL},
    {"DVPP", TASK_KERNEL},
    /* compute kernels: the runtime's launch task types */
    {"KERNEL_AICORE", TASK_KERNEL},
    {"KERNEL_AIVEC", TASK_KERNEL},
    {"KERNEL_MIX_AIC", TASK_KERNEL},
    {"KERNEL_MIX_AIV", TASK_KERNEL},
    {"KERNEL_AICPU", TASK_KERNEL},
    {"KERNEL_FUSION", TASK_KERNEL},
    {"KERNEL_SIMT", TASK_KERNEL},
    {"FFTS_PLUS", TASK_KERNEL},
    {"STARS_COMMON", TASK_KERNEL},
    /* compute kernels: the device's sub-task and queue types */
    {"AIC", TASK_KERNEL},
    {"AIV", TASK_KERNEL},
    {"AIV_SQE", TASK_KERNEL},
    {"DSA", TASK_KERNEL},

    /* the task level of a collective */
    {"Notify Wait", TASK_COMM},
    {"Notify Record", TASK_COMM},
    {"Write Value", TASK_COMM},
    {"SDMA", TASK_COMM},
    {"RDMA", TASK_COMM},
    {"Memcpy", TASK_COMM},
    {"Reduce Inline", TASK_COMM},
    {"Reduce TBE", TASK_COMM},
    {"Notify_Wait", TASK_COMM},
    {"Notify_Record", TASK_COMM},
    {"Reduce_Inline", TASK_COMM},
    {"Reduce_TBE", TASK_COMM},
    {"NOTIFY_WAIT", TASK_COMM},
    {"NOTIFY_RECORD", TASK_COMM},
    {"REDUCE_ASYNC_V2", TASK_COMM},
    {"RDMA_SEND", TASK_COMM},
    {"RDMA_DB_SEND", TASK_COMM},
    {"NOTIFY_WAIT_SQE", TASK_COMM},
    {"NOTIFY_RECORD_SQE", TASK_COMM},
    {"WRITE_VALUE_SQE", TASK_COMM},
    {"SDMA_SQE", TASK_COMM},
    {"ROCCE_SQE", TASK_COMM},
    {"COMMUNICATION", TASK_COMM},
    {"HCCL", TASK_COMM},
    {"HCCL_AI_CPU", TASK_COMM},

    /* runtime tasks */
    {"EVENT_RECORD", TASK_RUNTIME},
    {"EVENT_WAIT", TASK_RUNTIME},
    {"EVENT_RESET", TASK_RUNTIME},
    {"REMOTE_EVENT_WAIT", TASK_RUNTIME},
    {"IPC_EVENT_RECORD", TASK_RUNTIME},
    {"IPC_EVENT_WAIT", TASK_RUNTIME},
    {"CAPTURE_RECORD", TASK_RUNTIME},
    {"CAPTURE_WAIT", TASK_RUNTIME},
    {"DAVID_EVENT_RECORD", TASK_RUNTIME},
    {"DAVID_EVENT_WAIT", TASK_RUNTIME},
    {"DAVID_EVENT_RESET", TASK_RUNTIME},
    {"EVENT_RECORD_SQE", TASK_RUNTIME},
    {"EVENT_WAIT_SQE", TASK_RUNTIME},
    {"PLACE_HOLDER_SQE", TASK_RUNTIME},
    {"MEMCPY_ASYNC", TASK_RUNTIME},
    {"PCIE_DMA_SQE", TASK_RUNTIME},
    {"MEM_WRITE_VALUE", TASK_RUNTIME},
    {"MEM_WAIT_VALUE", TASK_RUNTIME},
    {"WriteValueTask", TASK_RUNTIME},
    {"PROFILING_ENABLE", TASK_RUNTIME},
    {"PROFILING_DISABLE", TASK_RUNTIME},
    {"PROFILER_TRACE", TASK_RUNTIME},
    {"PROFILER_TRACE_EX", TASK_RUNTIME},
    {"STREAM_SWITCH", TASK_RUNTIME},
    {"STREAM_SWITCH_N", TASK_RUNTIME},
    {"STREAM_ACTIVE", TASK_RUNTIME},
    {"LABEL_SET", TASK_RUNTIME},
    {"LABEL_SWITCH", TASK_RUNTIME},
    {"LABEL_GOTO", TASK_RUNTIME},
    {"MODEL_EXECUTE", TASK_RUNTIME},
    {"MODEL_END_GRAPH", TASK_RUNTIME},
    {"MODEL_EXIT_GRAPH", TASK_RUNTIME},
    {"MODEL_MAINTAINCE", TASK_RUNTIME},
    {"MAINTENANCE", TASK_RUNTIME},
    {"CREATE_STREAM", TASK_RUNTIME},
    {"HOSTFUNC_CALLBACK", TASK_RUNTIME},
    {"CMO", TASK_RUNTIME},
    {"BARRIER", TASK_RUNTIME},
    {"NOP", TASK_RUNTIME},
    {"NPU_GET_FLOAT_STATUS", TASK_RUNTIME},
    {"NPU_CLEAR_FLOAT_STATUS", TASK_RUNTIME},
    {"WRITE_BACK", TASK_RUNTIME},

    /* types that say nothing: the name decides */
    {"Other", TASK_BY_NAME},
    {"other", TASK_BY_NAME},
    {"UNKNOWN", TASK_BY_NAME},
};

enum task_class task_class_of(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (strlen(rows[i].name) == n && !memcmp(rows[i].name, s, n))
			return rows[i].cls;
	return TASK_UNKNOWN;
}

const char *task_type_at(size_t i, enum task_class *c)
{
	if (i >= sizeof(rows) / sizeof(rows[0]))
		return NULL;
	*c = rows[i].cls;
	return rows[i].name;
}

const char *task_class_name(enum task_class c)
{
	switch (c) {
	case TASK_KERNEL:
		return "kernel";
	case TASK_COMM:
		return "communication task";
	case TASK_RUNTIME:
		return "runtime task";
	case TASK_BY_NAME:
		return "by name";
	default:
		return "unknown";
	}
}

/* The slot of type s (n bytes, cut to the cap), added when new; NULL when
 * the table is full (or the name holds a NUL). */
static struct task_unknown *slot_of(struct task_unknowns *u, const char *s,
                                    size_t n)
{
	size_t i;

	if (n > TASK_UNKNOWN_NAME_MAX)
		n = TASK_UNKNOWN_NAME_MAX;
	for (i = 0; i < u->n; i++)
		if (strlen(u->v[i].name) == n && !memcmp(u->v[i].name, s, n))
			return &u->v[i];
	if (u->n == TASK_UNKNOWN_MAX || memchr(s, '\0', n))
		return NULL;
	memcpy(u->v[u->n].name, s, n);
	u->v[u->n].name[n] = '\0';
	u->v[u->n].count = 0;
	u->v[u->n].dur_ns = 0;
	return &u->v[u->n++];
}

void task_unknown_add(struct task_unknowns *u, const char *s, size_t n,
                      long long dur_ns)
{
	struct task_unknown *x = slot_of(u, s, n);

	if (!x) {
		u->more_count++;
		u->more_ns += dur_ns;
		return;
	}
	x->count++;
	x->dur_ns += dur_ns;
}

void task_unknowns_merge(struct task_unknowns *a, const struct task_unknowns *b)
{
	size_t i;

	for (i = 0; i < b->n; i++) {
		struct task_unknown *x =
		    slot_of(a, b->v[i].name, strlen(b->v[i].name));
		if (!x) {
			a->more_count += b->v[i].count;
			a->more_ns += b->v[i].dur_ns;
			continue;
		}
		x->count += b->v[i].count;
		x->dur_ns += b->v[i].dur_ns;
	}
	a->more_count += b->more_count;
	a->more_ns += b->more_ns;
}
