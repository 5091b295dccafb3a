/* dbout.h: ascend_pytorch_profiler[_N].db, the SQLite "db" export
 * (--export db|both), written through SQLite's C API with the real table
 * layout: the tables and columns of the real samples (schema 1.0.0;
 * COMPUTE_TASK_INFO's block columns blockNum/mixBlockNum for level1-2026,
 * blockDim/mixBlockDim otherwise), every name interned in STRING_IDS (the
 * framework's from 1 << 28 on, as torch_npu numbers them), the enum tables
 * with their real contents. What it holds per step:
 *   TASK + COMPUTE_TASK_INFO  one row each per compute kernel (Level0:
 *                             opType and taskType N/A);
 *   COMMUNICATION_OP          one row per collective, and its HCCL tasks in
 *                             TASK + COMMUNICATION_TASK_INFO: an on-chip
 *                             local copy on plane 0, then on plane 1 (the
 *                             main plane) Notify_Wait (the synchronisation
 *                             part of the wait), Notify_Record, the HCCS
 *                             Memcpy (transit, the bytes sent) and
 *                             Notify_Wait (the rest of the wait): exactly
 *                             communication.json's split (Level0: every
 *                             task field N/A, as real Level0 dbs have);
 *   STEP_TIME                 the ProfilerStep's host range;
 *   OVERLAP_ANALYSIS          the step's Overlap Analysis intervals;
 *   PYTORCH_API               the ProfilerStep#N op; with --markers the
 *                             stage ranges (record_function ops) and, with
 *                             flows, one launch op per kernel whose
 *                             CONNECTION_IDS reach the kernel's
 *                             TASK.connectionId (the trace's torch_to_npu
 *                             flow).
 * Plus META_DATA, RANK_DEVICE_MAP, and the indexes of the real files. */
#ifndef GEN_DBOUT_H
#define GEN_DBOUT_H

#include <stdint.h>

#include "launch.h"
#include "overlap.h"
#include "rankctx.h"
#include "timeline.h"
#include "truth.h"

struct dbout; /* opaque */

/* Creates the db at path (an existing file is replaced). Returns NULL with
 * a message in err (errlen bytes) on failure. */
struct dbout *dbout_open(const char *path, const struct rankctx *rc, char *err,
                         size_t errlen);

/* Writes one step (l: the host side with --markers, else NULL). */
void dbout_step(struct dbout *d, const struct rankctx *rc, const struct step *s,
                const struct overlap *ov, const struct launch *l);

/* Writes the strings, enums and metadata, builds the indexes, commits and
 * closes. Returns 0, or -1 with a message in err. Frees d either way. */
int dbout_close(struct dbout *d, const struct rankctx *rc, char *err,
                size_t errlen);

/* The self-check of a written db (read back with plain SQL): kernel count,
 * summed kernel and Comm time against the truth, step count. Prints
 * findings to stderr; returns 0 when all hold. */
int dbout_check(const char *path, const struct truth *t);

#endif
