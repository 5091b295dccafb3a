/* The parsed profile: what the readers produce and the analysis consumes. */
#ifndef SDPERF_PROFILE_H
#define SDPERF_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "core/vocab.h"
#include "util/strtab.h"

/* One device kernel, 24 bytes: a 1 GB Level1 kernel_details.csv holds about
 * three million rows, so the table stays near 7% of the input size. Times
 * are integer nanoseconds since the Unix epoch: the profiler prints
 * microseconds with three decimals after 16 integer digits, more than a
 * double holds. */
struct kernel {
	int64_t start_ns;
	int64_t dur_ns;
	uint32_t key; /* id in kernel_table.keys: "Type\0Accelerator Core" */
	int32_t step; /* profiler Step Id, or STEP_NONE (core/vocab.h) */
};

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
	unsigned chunks;   /* parsed in this many chunks at once (1: whole) */
	struct row_warning *warn;
	size_t nwarn;
};

/* What one kernel costs, whatever its row looks like: the 24-byte record
 * (the table grows by an eighth, and is cut to size when the file is read)
 * plus 8 bytes for the analysis's per-kernel work arrays (the sort buffer,
 * the stage labels, the signature runs). The memory budget is charged this
 * much per table slot; the analysis stays within it. */
#define KERNEL_COST_BYTES 32

struct kernel_table {
	struct kernel *v;
	size_t n, alloc;
	/* Interned "Type\0Core" pairs; strtab_str() gives the type alone. */
	struct strtab keys;
	uint64_t charged;   /* bytes charged to the memory budget */
	uint64_t key_bytes; /* text of the keys kernel_table_key interned */
};

/* Kernels one table holds at most: indexes and run starts are 31-bit. */
#define KERNELS_MAX 0x7fffffffu

/* Caps on what one table holds (each an input error naming the line):
 * distinct "Type, Accelerator Core" pairs (a real profile has hundreds),
 * the text of those names, and kernels (KERNELS_MAX). */
#define KERNELS_MAX_TYPES      65536
#define KERNELS_MAX_TYPES_TEXT "65,536"
#define KERNELS_MAX_KEY_BYTES  (16u << 20)
#define KERNELS_MAX_KEY_TEXT   "16 MiB"

void kernel_table_init(struct kernel_table *kt);
/* Gives back what the table charged to the memory budget, frees it. */
void kernel_table_release(struct kernel_table *kt);
/* Room for one more kernel: when full, the table grows by an eighth (at
 * least 1024 slots), charging KERNEL_COST_BYTES per slot to the memory
 * budget first (*cost: the charge asked). 0; -1 when the budget refuses,
 * -2 at KERNELS_MAX, -3 when the allocation fails (nothing charged). */
int kernel_table_reserve(struct kernel_table *kt, uint64_t *cost);
/* Room for want kernels in all at once (a reader that knows its row
 * count), charged as kernel_table_reserve charges: the same returns. */
int kernel_table_reserve_for(struct kernel_table *kt, size_t want,
                             uint64_t *cost);
/* Interns key (len bytes, "Type\0Core") in kt->keys within the caps above, a
 * new key's text and bookkeeping charged to the memory budget (kt->charged)
 * first: 0 with *id; -1 when the budget refuses
 * (*cost: the charge asked), -2 past KERNELS_MAX_TYPES keys, -3 past
 * KERNELS_MAX_KEY_BYTES of their text. For the readers other than
 * kernels_read (the db, a trace alone), which charge keys the same way. */
int kernel_table_key(struct kernel_table *kt, const char *key, size_t len,
                     uint32_t *id, uint64_t *cost);
/* Cuts the capacity to the kernels held, giving back the charge. */
void kernel_table_fit(struct kernel_table *kt);
/* Type part of a key ("MatMulV3"). */
const char *kernel_key_type(const struct kernel_table *kt, uint32_t key);
/* Accelerator Core part of a key ("AI_CORE", "" when the file has none). */
const char *kernel_key_core(const struct kernel_table *kt, uint32_t key);
/* aclnn API part of a key ("aclnnFlashAttentionScore"; "" for a kernel
 * whose name is not an aclnn name). */
const char *kernel_key_api(const struct kernel_table *kt, uint32_t key);

void kernels_info_release(struct kernels_info *info);

#endif
