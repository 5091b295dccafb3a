/* The task-type table: what a device task is, by the task type the
 * profiler gives it (a trace's args["Task Type"] on the Ascend Hardware
 * process, the db's TASK.taskType through STRING_IDS). One table read by
 * both readers (input/traceprof_kernels.c, input/db_kernels.c);
 * docs/task-types.md lists the same rows with the source of each. Ground
 * level: the C library only. */
#ifndef SDPERF_TASKTYPE_H
#define SDPERF_TASKTYPE_H

#include <stddef.h>

enum task_class {
	TASK_UNKNOWN, /* not in the table: counted in no figure, named in a
	               * warning with its count and time */
	TASK_KERNEL,  /* a compute kernel (AI Core, vector core, mixed, AI
	               * CPU, DSA, ...) */
	TASK_COMM,    /* a task of a collective (Notify Wait/Record, Write
	               * Value, SDMA/Memcpy, Reduce Inline, ...): the
	               * collective itself is the kernel */
	TASK_RUNTIME, /* a runtime task (EVENT_RECORD/WAIT, MEMCPY_ASYNC,
	               * PROFILING_ENABLE, ...) */
	TASK_BY_NAME  /* a type that says nothing ("Other"/"other" of the
	               * 2024 generation): the event's name decides, as
	               * for an event with no type */
};

/* The class of the task type s (n bytes, compared exactly). */
enum task_class task_class_of(const char *s, size_t n);

/* Row i of the table (its name, its class into *c), or NULL past the
 * last: for the test that holds docs/task-types.md to it. */
const char *task_type_at(size_t i, enum task_class *c);

/* The class's name for docs and tests: "unknown", "kernel",
 * "communication task", "runtime task", "by name". */
const char *task_class_name(enum task_class c);

/* Distinct unknown task types a reader names; more are summed into the
 * last warning's count as "others". */
#define TASK_UNKNOWN_MAX 16
/* Bytes of an unknown type's name a reader keeps (longer ones are cut). */
#define TASK_UNKNOWN_NAME_MAX 64

/* A reader's tally of the task types it met that are not in the table. */
struct task_unknown {
	char name[TASK_UNKNOWN_NAME_MAX + 1]; /* raw bytes, NUL-ended */
	unsigned long long count;
	long long dur_ns;
};
struct task_unknowns {
	struct task_unknown v[TASK_UNKNOWN_MAX];
	size_t n;
	unsigned long long more_count; /* of types past TASK_UNKNOWN_MAX */
	long long more_ns;
};

/* Adds one task of unknown type s (n bytes) lasting dur_ns to u (times
 * summed up to LLONG_MAX, a negative one as 0). */
void task_unknown_add(struct task_unknowns *u, const char *s, size_t n,
                      long long dur_ns);
/* Adds b's tallies into a. */
void task_unknowns_merge(struct task_unknowns *a,
                         const struct task_unknowns *b);

#endif
