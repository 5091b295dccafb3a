/* The parsed profile: what the readers produce and the analysis consumes. */
#ifndef SDPERF_PROFILE_H
#define SDPERF_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "util/strtab.h"

/* One device kernel, 24 bytes: a 1 GB Level1 kernel_details.csv holds about
 * two million rows, so the table stays near 5% of the input size. Times are
 * integer nanoseconds since the Unix epoch: the profiler prints microseconds
 * with three decimals after 16 integer digits, more than a double holds. */
struct kernel {
	int64_t start_ns;
	int64_t dur_ns;
	uint32_t key; /* id in kernel_table.keys: "Type\0Accelerator Core" */
	int32_t step; /* profiler Step Id, or STEP_NONE */
};

#define STEP_NONE INT32_MIN

/* A row the reader skipped, kept for the report's warnings. */
struct row_warning {
	uint64_t line;
	char *reason; /* "column 10 'Duration(us)': not a number: 'abc'" */
	/* the same, for messages in other languages: a stable code
	 * ("not_a_number", "no_value", "not_a_step", "not_text", "empty",
	 * "out_of_range", "implausible_time", "field_count") and its
	 * arguments: column number, column name, value (quoted, control
	 * bytes escaped); for field_count: fields in the row, fields in the
	 * header */
	const char *code;
	char *args[3];
};

#define KERNELS_MAX_WARNINGS 50 /* listed; all are counted */

/* What the reader learned about one kernel_details.csv. */
struct kernels_info {
	char *path;
	int64_t size; /* bytes */
	char *
	    variant; /* e.g. "level1, 2026-02+ header (Device_id, Block Num)" */
	int level;   /* 0 or 1 */
	const char *era;   /* header generation: "2023", "2024", "2025-06",
	                    * "2026-02" (a static string) */
	int pmu;           /* PMU counter columns present */
	int shapes;        /* an "Input Shapes" column (record_shapes) */
	int crlf;          /* line ends seen */
	int bom;           /* UTF-8 byte order mark present */
	int start_tab;     /* Start Time values carried the trailing TAB */
	int64_t device_id; /* first Device_id value, or -1 */
	uint64_t lines;    /* physical lines */
	uint64_t rows;     /* data rows seen */
	uint64_t skipped;  /* data rows skipped as malformed */
	uint64_t na_type;  /* rows whose Type was N/A: typed from Name */
	struct row_warning *warn;
	size_t nwarn;
};

struct kernel_table {
	struct kernel *v;
	size_t n, alloc;
	/* Interned "Type\0Core" pairs; strtab_str() gives the type alone. */
	struct strtab keys;
};

void kernel_table_init(struct kernel_table *kt);
void kernel_table_release(struct kernel_table *kt);
/* Type part of a key ("MatMulV3"). */
const char *kernel_key_type(const struct kernel_table *kt, uint32_t key);
/* Accelerator Core part of a key ("AI_CORE", "" when the file has none). */
const char *kernel_key_core(const struct kernel_table *kt, uint32_t key);

void kernels_info_release(struct kernels_info *info);

#endif
