/* communication_matrix.json reader: HCCL's rank-to-rank links per
 * collective and point-to-point operation, summed over the file's steps
 * into one row per (source rank, destination rank, transport). Two layouts
 * exist: keyed by operation name (2023: "hcom_allReduce__483_2@<group>",
 * with HCCL's own sum "Total Op Info" per section) and aggregated by
 * operation kind (2024: "allreduce-top1@<group>", "-middle", "-bottom1"
 * are the slowest, median and fastest operation, "-total" their sum). Per
 * section the reader takes "Total Op Info" when present, else the "-total"
 * entries, else every operation: one sum, never a statistic counted as
 * an operation. Streamed: one operation's value is parsed at a time. */
#ifndef SDPERF_COMMMATRIX_H
#define SDPERF_COMMMATRIX_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

#define COMMMATRIX_MAX_BYTES      (256u << 20) /* uncompressed */
#define COMMMATRIX_MAX_OP         (256u << 10) /* one operation's value */
#define COMMMATRIX_MAX_LINKS      4096 /* distinct (src, dst, transport) */
#define COMMMATRIX_MAX_TRANSPORTS 16
#define COMMMATRIX_TRANSPORT_LEN  31

struct comm_link {
	int32_t src, dst;
	char transport[COMMMATRIX_TRANSPORT_LEN + 1]; /* "HCCS", "RDMA", ... */
	double size_mb;
	int64_t time_ns; /* the file's ms, to the nearest ns */
};

struct commmatrix {
	char *path;
	size_t nsteps;
	struct comm_link *links; /* in the order first seen */
	size_t nlinks;
	uint64_t charged; /* bytes charged to the memory budget */
};

/* Reads communication_matrix.json (or .gz) at path into cm (need not be
 * initialised; release with commmatrix_release, also on error). Returns
 * 0, or -1 with an ERR_INPUT error naming the file and the JSON path of a
 * bad value, with the value:
 *   "PATH: step2/collective/OP/0-x: not a link 'src-dst', got '0-x'"
 *   "PATH: step2/collective/OP/0-1/Transit Size(MB): expected a number,
 *    got '\"abc\"'"
 *   "PATH: step2/collective/OP/0-1/Transport Type: expected a name of at
 *    most 31 bytes, got ..."
 *   "PATH: more than 4096 rank-to-rank links" (or 16 transports)
 *   and the syntax, size and memory-budget errors of the JSON readers. */
int commmatrix_read(const char *path, struct commmatrix *cm, struct err *e);
int commmatrix_read_mem(const char *name, const void *data, size_t len,
                        struct commmatrix *cm, struct err *e);
void commmatrix_release(struct commmatrix *cm);

#endif
