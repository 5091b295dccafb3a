/* step_trace_time.csv reader: the profiler's own per-step split of device
 * time (computing, communication, overlap, free, bubble, preparing). The
 * file is streamed through input/csvread in 1 MiB chunks; columns are found by
 * header name. */
#ifndef SDPERF_STEPTRACE_H
#define SDPERF_STEPTRACE_H

#include <stddef.h>
#include <stdint.h>

#include "input/profile.h"
#include "util/err.h"

/* Uncompressed bytes accepted: a real file is a few hundred bytes per step,
 * so anything larger is not a step_trace_time.csv. */
#define STEPTRACE_MAX_BYTES (64u << 20)

/* One row. Times are integer nanoseconds, converted exactly from the
 * file's decimal microseconds (rounded to the nearest ns, halves away from
 * zero); they may be negative (Overlapped is a difference of floats). */
struct step_row {
	int32_t step;      /* STEP_NONE (input/profile.h) when empty */
	int64_t device_id; /* -1 without a Device_id column */
	int64_t computing_ns, comm_not_overlapped_ns, overlapped_ns, comm_ns,
	    free_ns, stage_ns, bubble_ns, comm_not_overlapped_excl_recv_ns;
	int64_t preparing_ns; /* -1 without a Preparing column */
};

struct steptrace {
	char *path;
	int64_t size;    /* bytes on disk (or given to _read_mem) */
	int gz;          /* the file was gzip-compressed */
	const char *era; /* "2023" (no Preparing) | "2024" (+Preparing) |
	                    "2026" (Device_id first); static */
	int has_preparing, has_device;
	struct step_row *rows; /* in file order */
	size_t nrows;
	uint64_t charged; /* bytes of rows charged to the memory budget */
};

/* Reads step_trace_time.csv (or its .gz) at path into st, which need not be
 * initialised; the caller releases st with steptrace_release, also on
 * error. A header with no rows is valid (nrows 0). Returns 0, or -1 with an
 * ERR_INPUT error:
 *   "PATH: empty file (no header, no rows)"
 *   "PATH: larger than 64 MiB uncompressed (the limit for
 *    step_trace_time.csv)"
 *   "PATH:LINE: missing required column 'Free'; header: Step,..."
 *   "PATH:LINE: column N: duplicate column: 'Free'"
 *   "PATH:LINE: row has N fields, header has M"
 *   "PATH:LINE: column N 'Name': not a number: 'x'"
 *   "PATH:LINE: column N 'Step': not a step number: 'x'"
 *   "PATH:LINE: column N 'Device_id': not a device id: 'x'"
 *   "PATH:LINE: column N: malformed quoting (...): 'the line'"
 *   "PATH:LINE: unterminated quoted field"
 *   "PATH:LINE: column N: too many columns (limit 256): 'x'" (or a header
 *    name over 4096 bytes)
 *   "PATH:LINE: column N: field longer than 1 MiB (unterminated quote?)"
 *   "PATH:LINE: steps (N rows read): needs ... --max-memory ..." (the
 *    rows are charged to the memory budget, util/membudget.h)
 * LINE is the physical line (1-based) where the row begins. */
int steptrace_read(const char *path, struct steptrace *st, struct err *e);

/* The same for bytes in memory; name stands for the path in messages. */
int steptrace_read_mem(const char *name, const void *data, size_t len,
                       struct steptrace *st, struct err *e);

/* Frees what st owns and zeroes it. */
void steptrace_release(struct steptrace *st);

#endif
