/* memory_record.csv reader (profile_memory=True): the device memory the
 * process held over time, one row per sample. The file is streamed through
 * input/csvread and each usable row handed to a callback; nothing is kept
 * per row, so memory stays bounded whatever the file's length. A bad row
 * is skipped and counted (the first is described for a warning), never
 * fatal: memory is an optional part of a profile. */
#ifndef SDPERF_MEMREC_H
#define SDPERF_MEMREC_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

/* Uncompressed bytes accepted: a real file is ~80 bytes a row. */
#define MEMREC_MAX_BYTES (1024u << 20)
#define MEMREC_WHY_MAX   200 /* bytes of the first bad row's description */

/* Who recorded the sample (column Component): "APP" (the whole process
 * as the driver sees it, reserved only), "PTA" (torch_npu's caching
 * allocator), "GE" (the graph engine), "PTA+GE" (the two summed), or
 * anything else. */
enum memrec_comp { MEMC_APP, MEMC_PTA, MEMC_GE, MEMC_PTA_GE, MEMC_OTHER };

struct mem_sample {
	enum memrec_comp comp; /* MEMC_OTHER without a Component column */
	int64_t ts_ns;         /* Timestamp(us) in ns (the kernels' clock) */
	int64_t allocated_b;   /* Total Allocated(MB) in bytes, -1 if empty */
	int64_t reserved_b;    /* Total Reserved(MB) in bytes, -1 if empty */
};

typedef void (*memrec_fn)(const struct mem_sample *s, void *ctx);

struct memrec_info {
	int64_t size;                   /* bytes on disk */
	uint64_t rows;                  /* data rows */
	uint64_t samples;               /* rows handed to the callback */
	uint64_t bad;                   /* rows skipped */
	uint64_t first_bad_line;        /* physical line, 0 when none */
	char first_bad[MEMREC_WHY_MAX]; /* "column N 'NAME': WHY: 'VALUE'" */
};

/* Reads memory_record.csv (or its .gz) at path, calling fn(sample, ctx)
 * for each row with a timestamp and at least one of Total Allocated and
 * Total Reserved. A row with a bad number, a negative value, or the wrong
 * number of fields is skipped and counted in info. Returns 0, or -1 with an
 * ERR_INPUT error when the file as a whole is unusable: it cannot be read,
 * is empty, is larger than MEMREC_MAX_BYTES, lacks column Timestamp(us) or
 * Total Reserved(MB), or has a CSV syntax error (csvread's messages). */
int memrec_read(const char *path, memrec_fn fn, void *ctx,
                struct memrec_info *info, struct err *e);

/* The same for bytes in memory (tests); name is used in messages. */
int memrec_read_mem(const char *name, const void *data, size_t len,
                    memrec_fn fn, void *ctx, struct memrec_info *info,
                    struct err *e);

struct csvread;

/* For the memory readers (memrec.c, opmem.c): counts a bad field or row
 * in *row_bad and, for the file's first bad row, describes it in info:
 * "column N 'NAME': WHY: 'VALUE'" (the value cut at 60 bytes), or WHY
 * alone when col is (size_t)-1 (the row as a whole). */
void memrec_note_bad(struct memrec_info *info, const struct csvread *csv,
                     int *row_bad, size_t col, const char *why, const char *s,
                     size_t len);

/* Parses a non-negative decimal number of MiB ("2116.09375", "8664.0",
 * "0") into bytes, rounded to the nearest byte; blanks around it are
 * allowed. Returns 0, or -1 when s is not such a number or is too big. */
int memrec_mb_to_bytes(const char *s, size_t len, int64_t *bytes);

/* npu_module_mem.csv (profile_memory=True: the driver's memory per
 * module, "Component,Timestamp(us),Total Reserved(MB),Device"), read as
 * memory_record.csv is: the same columns, rows and errors (its messages
 * name npu_module_mem.csv's kind). Only the rows of module APP (the
 * process's own device memory, as memory_record.csv's APP rows) are
 * handed on; the driver's other modules (HCCL, RUNTIME, SLOG, ...) are
 * counted in info->rows but are no sample: memory the user cannot move
 * with cpu_offload or share_memory. */
int modmem_read(const char *path, memrec_fn fn, void *ctx,
                struct memrec_info *info, struct err *e);
int modmem_read_mem(const char *name, const void *data, size_t len,
                    memrec_fn fn, void *ctx, struct memrec_info *info,
                    struct err *e);

/* Helpers the memory readers share: *s..*end without the blanks (space,
 * tab, CR) around them; a field that is blank or "N/A" (1) or not (0). */
void memrec_trim(const char **s, const char **end);
int memrec_is_empty(const char *s, size_t len);

#endif
