/* operator_memory.csv reader (profile_memory=True): one row per tensor
 * the framework allocated for an operator, with its size, when it was
 * allocated and released, and the allocator's totals at both moments.
 * The totals ARE the allocated-bytes timeline: summing the rows' sizes
 * could not give it, as blocks allocated before the profile began (the
 * weights) have no row. Each row becomes up to two samples (input/memrec.h:
 * component MEMC_PTA, allocated and reserved), one at its allocation and
 * one at its release. Streamed through input/csvread, nothing kept per
 * row; bad rows are skipped and counted, the first described. */
#ifndef SDPERF_OPMEM_H
#define SDPERF_OPMEM_H

#include <stddef.h>

#include "input/memrec.h"
#include "util/err.h"

/* Uncompressed bytes accepted: a real file is ~250 bytes a row. */
#define OPMEM_MAX_BYTES (1024u << 20)

/* Reads operator_memory.csv (or its .gz) at path, calling fn(sample, ctx)
 * for each allocation (Allocation Time(us) with Allocation Total
 * Allocated(MB) and/or Allocation Total Reserved(MB)) and each release
 * (Release Time(us) with the Release totals; an empty Release Time is a
 * tensor still alive at the end: no release sample). info->rows counts
 * data rows, info->samples the samples handed on. A row whose times,
 * sizes (Size(KB) included) are not non-negative numbers, that has a
 * release without totals or the wrong number of fields, is skipped and
 * counted in info (the first described as "column N 'NAME': WHY:
 * 'VALUE'"). Returns 0, or -1 with an ERR_INPUT error when the file as a
 * whole is unusable: it cannot be read, is empty, is larger than
 * OPMEM_MAX_BYTES, lacks column Allocation Time(us) or Allocation Total
 * Allocated(MB), or has a CSV syntax error. */
int opmem_read(const char *path, memrec_fn fn, void *ctx,
               struct memrec_info *info, struct err *e);

/* The same for bytes in memory (tests, fuzzing); name is used in
 * messages. */
int opmem_read_mem(const char *name, const void *data, size_t len, memrec_fn fn,
                   void *ctx, struct memrec_info *info, struct err *e);

#endif
