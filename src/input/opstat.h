/* op_statistic.csv reader: the profiler's own per-type sums of the device
 * kernels, `[Device_id,]OP Type,Core Type,Count,Total Time(us),Min
 * Time(us),Avg Time(us),Max Time(us),Ratio(%)`. Only the type, core,
 * count and total time are kept (analysis/totals.h compares them with the
 * kernels). Streamed through input/csvread; columns found by header name. */
#ifndef SDPERF_OPSTAT_H
#define SDPERF_OPSTAT_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

#define OPSTAT_MAX_BYTES (64u << 20) /* a real one is a few KiB */
#define OPSTAT_MAX_ROWS  100000      /* one row per (type, core) */

struct opstat_row {
	char *type, *core;
	uint64_t count;
	int64_t total_ns;
};

struct opstat {
	char *path;
	struct opstat_row *rows;
	size_t nrows;
	uint64_t count;   /* summed over the rows (saturating) */
	int64_t total_ns; /* summed over the rows (saturating) */
	uint64_t charged; /* bytes charged to the memory budget */
};

/* Reads op_statistic.csv (or .gz) at path into os (need not be
 * initialised; release it with opstat_release, also on error). Returns 0,
 * or -1 with an ERR_INPUT error naming the file, the line, the column and
 * the bad value:
 *   "PATH:LINE: missing required column 'Count'; header: ..."
 *   "PATH:LINE: column N 'Count': not a count: 'x'"
 *   "PATH:LINE: column N 'Total Time(us)': not a number: 'x'"
 *   "PATH:LINE: column N 'OP Type': empty"
 *   "PATH:LINE: row has N fields, header has M"
 *   "PATH:LINE: more than 100000 rows (the limit for op_statistic.csv)"
 *   and csvread's syntax, size and memory-budget errors. */
int opstat_read(const char *path, struct opstat *os, struct err *e);
/* The same for bytes in memory; name stands for the path in messages. */
int opstat_read_mem(const char *name, const void *data, size_t len,
                    struct opstat *os, struct err *e);
void opstat_release(struct opstat *os);

#endif
