/* kernel_details.csv reader: streams the file through input/csvread, one row at
 * a time, into a compact kernel table. Columns are found by header name, so
 * every header variant of FORMATS.md reads the same way. */
#ifndef SDPERF_KERNELS_H
#define SDPERF_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "input/profile.h"
#include "util/err.h"
#include "util/strbuf.h"

struct kernels_opts {
	int strict;   /* a malformed row is an error instead of a warning */
	int progress; /* allow a progress line on stderr (shown on a tty only)
	               */
	unsigned threads; /* parse a plain file in up to this many chunks at
	                     once (input/csvsplit.h); 0 or 1: one thread */
};

/* Reads the file at path, appending its kernels to kt and describing the
 * file in info (which the caller releases with kernels_info_release, also
 * on error). Returns 0, or -1 with an ERR_INPUT error naming the file, line,
 * column and bad value. The file's text is never held in memory: it is read
 * in fixed-size chunks. Each table slot charges KERNEL_COST_BYTES to the
 * memory budget (util/membudget.h) and each new type name its text and
 * bookkeeping; a refused charge, more than KERNELS_MAX_TYPES types,
 * KERNELS_MAX_KEY_BYTES of their names or KERNELS_MAX kernels, or a header
 * name over 4096 bytes, is an ERR_INPUT error. The table's capacity is cut
 * to its kernels at the end (kt->charged: the bytes charged, given back by
 * kernel_table_release). */
/* With o->threads > 1, a plain file of at least two CSVSPLIT_MIN_CHUNK
 * of rows is parsed in chunks on that many threads and merged in file
 * order: kt, info, warnings, errors and their line numbers are the same
 * as one thread's; a chunk boundary inside a quoted field, or any error,
 * sends the read back to one thread, which words the error. */
int kernels_read(const char *path, const struct kernels_opts *o,
                 struct kernel_table *kt, struct kernels_info *info,
                 struct err *e);

/* The same for bytes already in memory; name is used in messages. */
int kernels_read_mem(const char *name, const void *data, size_t len,
                     const struct kernels_opts *o, struct kernel_table *kt,
                     struct kernels_info *info, struct err *e);

/* The kernel type a Name stands for, used when Type is N/A (Level0 files):
 * "aclnnMatmul_MatMulV3Common_MatMulV3" -> "MatMulV3", "trans_Cast_10" ->
 * "Cast", "hcom_allReduce__586_0_1" -> "hcom_allReduce_", "Conv2D12" ->
 * "Conv2D", "AxpyV2111" -> "AxpyV2" (one version digit kept), a memory
 * clearing helper ("Conv2DBackpropFilter6_MemSet", "atomic_memset-1_271")
 * -> "MemSet". docs/kernel-types.md lists every case. Returns the length
 * of the type; *start points into name, or to a static "MemSet". */
size_t kernels_type_from_name(const char *name, size_t len, const char **start);

/* The aclnn API that launched a kernel, from its Name
 * "aclnn<Api>_<Impl>_<OpType>": "aclnnFlashAttentionScore_TransposeAiCore_"
 * "Transpose" -> "aclnnFlashAttentionScore". 0 (no API) for any other name,
 * and for "aclnn<Api>" alone (no part after it). *start points into name. */
size_t kernels_api_from_name(const char *name, size_t len, const char **start);

/* Appends a kernel's key to key: "Type\0Core\0Api" (kernel_key_type,
 * kernel_key_core, kernel_key_api), the API taken from name
 * (kernels_api_from_name). Every reader keys its kernels so. */
void kernels_make_key(struct strbuf *key, const char *type, size_t tl,
                      const char *core, size_t cl, const char *name, size_t nl);

/* Parses a non-negative decimal number of microseconds ("39.15",
 * "1736408883704903.918", surrounding blanks and TAB allowed) into integer
 * nanoseconds, rounding below 1 ns half up. Returns 0, or -1 if the text is
 * not such a number or does not fit. */
int kernels_parse_us(const char *s, size_t len, int64_t *ns);

#endif
