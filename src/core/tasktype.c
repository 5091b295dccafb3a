/* The task-type table (core/tasktype.h). Every row is in
 * docs/task-types.md with where the name was seen. */
#include "core/tasktype.h"

#include <limits.h>
#include <string.h>

struct task_row {
	const char *name;
	size_t len;
	enum task_class cls;
};

/* A row; the length known at compile time spares a strlen a lookup. */
#define ROW(name, cls)                                                         \
	{                                                                      \
		name, sizeof(name) - 1, cls                                    \
	}

static const struct task_row rows[] = {
    /* compute kernels: the accelerator core of an operator (the Task
     * Type of op_summary and of kernel_details.csv's Accelerator Core) */
    ROW("AI_CORE", TASK_KERNEL),
    ROW("AI_VECTOR_CORE", TASK_KERNEL),
    ROW("AI_CPU", TASK_KERNEL),
    ROW("MIX_AIC", TASK_KERNEL),
    ROW("MIX_AIV", TASK_KERNEL),
    ROW("DSA_SQE", TASK_KERNEL),
    ROW("DVPP", TASK_KERNEL),
    /* compute kernels: the runtime's launch task types */
    ROW("KERNEL_AICORE", TASK_KERNEL),
    ROW("KERNEL_AIVEC", TASK_KERNEL),
    ROW("KERNEL_MIX_AIC", TASK_KERNEL),
    ROW("KERNEL_MIX_AIV", TASK_KERNEL),
    ROW("KERNEL_AICPU", TASK_KERNEL),
    ROW("KERNEL_FUSION", TASK_KERNEL),
    ROW("KERNEL_SIMT", TASK_KERNEL),
    ROW("FFTS_PLUS", TASK_KERNEL),
    ROW("STARS_COMMON", TASK_KERNEL),
    /* compute kernels: the device's sub-task and queue types */
    ROW("AIC", TASK_KERNEL),
    ROW("AIV", TASK_KERNEL),
    ROW("AIV_SQE", TASK_KERNEL),
    ROW("DSA", TASK_KERNEL),

    /* the task level of a collective */
    ROW("Notify Wait", TASK_COMM),
    ROW("Notify Record", TASK_COMM),
    ROW("Write Value", TASK_COMM),
    ROW("SDMA", TASK_COMM),
    ROW("RDMA", TASK_COMM),
    ROW("Memcpy", TASK_COMM),
    ROW("Reduce Inline", TASK_COMM),
    ROW("Reduce TBE", TASK_COMM),
    ROW("Notify_Wait", TASK_COMM),
    ROW("Notify_Record", TASK_COMM),
    ROW("Reduce_Inline", TASK_COMM),
    ROW("Reduce_TBE", TASK_COMM),
    ROW("NOTIFY_WAIT", TASK_COMM),
    ROW("NOTIFY_RECORD", TASK_COMM),
    ROW("REDUCE_ASYNC_V2", TASK_COMM),
    ROW("RDMA_SEND", TASK_COMM),
    ROW("RDMA_DB_SEND", TASK_COMM),
    ROW("NOTIFY_WAIT_SQE", TASK_COMM),
    ROW("NOTIFY_RECORD_SQE", TASK_COMM),
    ROW("WRITE_VALUE_SQE", TASK_COMM),
    ROW("SDMA_SQE", TASK_COMM),
    ROW("ROCCE_SQE", TASK_COMM),
    ROW("COMMUNICATION", TASK_COMM),
    ROW("HCCL", TASK_COMM),
    ROW("HCCL_AI_CPU", TASK_COMM),

    /* runtime tasks */
    ROW("EVENT_RECORD", TASK_RUNTIME),
    ROW("EVENT_WAIT", TASK_RUNTIME),
    ROW("EVENT_RESET", TASK_RUNTIME),
    ROW("REMOTE_EVENT_WAIT", TASK_RUNTIME),
    ROW("IPC_EVENT_RECORD", TASK_RUNTIME),
    ROW("IPC_EVENT_WAIT", TASK_RUNTIME),
    ROW("CAPTURE_RECORD", TASK_RUNTIME),
    ROW("CAPTURE_WAIT", TASK_RUNTIME),
    ROW("DAVID_EVENT_RECORD", TASK_RUNTIME),
    ROW("DAVID_EVENT_WAIT", TASK_RUNTIME),
    ROW("DAVID_EVENT_RESET", TASK_RUNTIME),
    ROW("EVENT_RECORD_SQE", TASK_RUNTIME),
    ROW("EVENT_WAIT_SQE", TASK_RUNTIME),
    ROW("PLACE_HOLDER_SQE", TASK_RUNTIME),
    ROW("MEMCPY_ASYNC", TASK_RUNTIME),
    ROW("PCIE_DMA_SQE", TASK_RUNTIME),
    ROW("MEM_WRITE_VALUE", TASK_RUNTIME),
    ROW("MEM_WAIT_VALUE", TASK_RUNTIME),
    ROW("WriteValueTask", TASK_RUNTIME),
    ROW("PROFILING_ENABLE", TASK_RUNTIME),
    ROW("PROFILING_DISABLE", TASK_RUNTIME),
    ROW("PROFILER_TRACE", TASK_RUNTIME),
    ROW("PROFILER_TRACE_EX", TASK_RUNTIME),
    ROW("STREAM_SWITCH", TASK_RUNTIME),
    ROW("STREAM_SWITCH_N", TASK_RUNTIME),
    ROW("STREAM_ACTIVE", TASK_RUNTIME),
    ROW("LABEL_SET", TASK_RUNTIME),
    ROW("LABEL_SWITCH", TASK_RUNTIME),
    ROW("LABEL_GOTO", TASK_RUNTIME),
    ROW("MODEL_EXECUTE", TASK_RUNTIME),
    ROW("MODEL_END_GRAPH", TASK_RUNTIME),
    ROW("MODEL_EXIT_GRAPH", TASK_RUNTIME),
    ROW("MODEL_MAINTAINCE", TASK_RUNTIME),
    ROW("MAINTENANCE", TASK_RUNTIME),
    ROW("CREATE_STREAM", TASK_RUNTIME),
    ROW("HOSTFUNC_CALLBACK", TASK_RUNTIME),
    ROW("CMO", TASK_RUNTIME),
    ROW("BARRIER", TASK_RUNTIME),
    ROW("NOP", TASK_RUNTIME),
    ROW("NPU_GET_FLOAT_STATUS", TASK_RUNTIME),
    ROW("NPU_CLEAR_FLOAT_STATUS", TASK_RUNTIME),
    ROW("WRITE_BACK", TASK_RUNTIME),

    /* types that say nothing: the name decides */
    ROW("Other", TASK_BY_NAME),
    ROW("other", TASK_BY_NAME),
    ROW("UNKNOWN", TASK_BY_NAME),
};

enum task_class task_class_of(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (rows[i].len == n && !memcmp(rows[i].name, s, n))
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

/* a + b of two times >= 0, held at LLONG_MAX (a forged trace's sum) */
static long long sat_add(long long a, long long b)
{
	if (b < 0)
		b = 0;
	return a > LLONG_MAX - b ? LLONG_MAX : a + b;
}

void task_unknown_add(struct task_unknowns *u, const char *s, size_t n,
                      long long dur_ns)
{
	struct task_unknown *x = slot_of(u, s, n);

	if (!x) {
		u->more_count++;
		u->more_ns = sat_add(u->more_ns, dur_ns);
		return;
	}
	x->count++;
	x->dur_ns = sat_add(x->dur_ns, dur_ns);
}

void task_unknowns_merge(struct task_unknowns *a, const struct task_unknowns *b)
{
	size_t i;

	for (i = 0; i < b->n; i++) {
		struct task_unknown *x =
		    slot_of(a, b->v[i].name, strlen(b->v[i].name));
		if (!x) {
			a->more_count += b->v[i].count;
			a->more_ns = sat_add(a->more_ns, b->v[i].dur_ns);
			continue;
		}
		x->count += b->v[i].count;
		x->dur_ns = sat_add(x->dur_ns, b->v[i].dur_ns);
	}
	a->more_count += b->more_count;
	a->more_ns = sat_add(a->more_ns, b->more_ns);
}
