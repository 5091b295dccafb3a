/* The process-wide memory budget (--max-memory). Every structure whose size
 * follows the input (the kernel table, interned names, stage segments,
 * stage markers, parsed JSON, report.json text, per-rank results) charges
 * the budget before it grows; a charge that does not fit is refused, and
 * the caller turns that into an input error naming the file and what was
 * too large (exit 3) instead of the allocation failing (abort) or the OOM
 * killer. Bounded helpers (fixed-size chunks, capped lists) do not charge.
 *
 * Thread-safe: ranks are analysed in parallel threads and charge one
 * shared account (atomic compare-and-swap). The limit is set once, before
 * any thread starts. Until membudget_set is called the limit is unlimited
 * (unit tests, fuzzers). */
#ifndef SDPERF_MEMBUDGET_H
#define SDPERF_MEMBUDGET_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

#define MEMBUDGET_UNLIMITED UINT64_MAX

/* The default limit: half of the memory this process may use, the least
 * of physical RAM (sysconf), the address-space limit (ulimit -v) and the
 * cgroup v2 limit (memory.max of the process's cgroup, for containers); 4
 * GiB when none of them is known. */
uint64_t membudget_default(void);

/* Sets the limit in bytes (MEMBUDGET_UNLIMITED: none) and zeroes the
 * account. Call before any thread starts. */
void membudget_set(uint64_t limit);
uint64_t membudget_limit(void);
uint64_t membudget_used(void);
uint64_t membudget_peak(void);

/* Charges n bytes: 0, or -1 (nothing charged) when used + n would exceed
 * the limit. */
int membudget_charge(uint64_t n);
/* Gives back n bytes charged before. */
void membudget_release(uint64_t n);

/* Sets ERR_INPUT: "WHAT: needs N MiB more memory than --max-memory allows
 * (limit L MiB, U MiB in use)"; WHAT is printed from fmt and should name
 * the file and the structure ("run/kernel_details.csv: kernel table of
 * 12,000,000 kernels"). Returns -1. */
int membudget_fail(struct err *e, uint64_t need, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Grows the array *pp (elements of size bytes, capacity *alloc) to hold at
 * least need elements, by an eighth of its size (at least 16 elements),
 * charging the added capacity first: the slack stays under 12.5%, and
 * glibc's realloc of large blocks remaps pages instead of copying them.
 * Returns 0, or -1 with *pp, *alloc and the account unchanged when the
 * budget refuses or the allocation fails. */
int membudget_grow(void *pp, size_t size, size_t need, size_t *alloc);

/* Shrinks *pp to exactly n elements (n <= *alloc), giving back the freed
 * capacity. Never fails (a failed shrink keeps the old block). */
void membudget_shrink(void *pp, size_t size, size_t n, size_t *alloc);

/* Parses --max-memory: a number of bytes with an optional binary suffix
 * K, M, G or T (KiB..TiB; "KB", "MiB", ... accepted) or a percentage of
 * physical RAM ("50%"). 0, or -1 when text is not such a size or is
 * below 1 MiB. */
int membudget_parse(const char *text, uint64_t *out);

#endif
