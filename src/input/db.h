/* ascend_pytorch_profiler[_N].db reader: the SQLite "db" export of
 * torch_npu.profiler (experimental_config(export_type=[ExportType.Db])).
 * The only module that includes sqlite3.h.
 *
 * The file is opened read-only and immutable (URI
 * `file:PATH?mode=ro&immutable=1`): SQLite never writes it, never locks it
 * and creates no -shm/-wal/-journal beside it, so a profile in a read-only
 * folder reads like any other. As an immutable file is taken to be
 * finished, db_open first refuses one that is not: a writer's lock on it,
 * a hot -journal (a write in progress or interrupted) or a non-empty
 * -wal (changes not yet in the file) beside it.
 *
 * The schema is probed (sqlite_master, PRAGMA table_info,
 * META_DATA.SCHEMA_VERSION), never assumed: column names differ across
 * CANN versions (COMPUTE_TASK_INFO blockDim/mixBlockDim or
 * blockNum/mixBlockNum). Only real tables count (a view named TASK is no
 * TASK table). Times in the db are integer ns since the epoch (PYTORCH_API
 * keeps them as decimal text; both are read exactly).
 *
 * Memory: rows are streamed (sqlite3_step), never held whole; strings are
 * resolved through STRING_IDS by id as they are met, through a fixed-size
 * cache; SQLite's own memory is its page cache plus, for the id check
 * (dbi_check_ids), its sorter (spilled to a temporary file when big); the
 * flow join's pairs are an array charged to the budget.
 * Every string or blob SQLite hands over is capped at DB_MAX_VALUE bytes.
 * Reentrant: one struct db per thread, no mutable static state but SQLite's
 * own (thread-safe). */
#ifndef SDPERF_DB_H
#define SDPERF_DB_H

#include <stddef.h>
#include <stdint.h>

#include "input/commjson.h"
#include "input/db_types.h"
#include "input/memrec.h"
#include "input/profile.h"
#include "util/err.h"
#include "util/libversion.h"

/* Longest string or blob accepted from the db (a kernel name, a marker). */
#define DB_MAX_VALUE (1u << 20)
/* STEP_TIME rows read at most (a real profile has a few dozen). */
#define DB_MAX_STEPS (1u << 20)

struct db;

/* Opens the db at path. Returns 0 (*out to close with db_close), or -1
 * with ERR_INPUT naming the file:
 *   "PATH: not an SQLite database (it starts with '...')"
 *   "PATH: corrupt SQLite database: <SQLite's words>"
 *   "PATH: being written: PATH-journal is beside it ..." (or -wal)
 *   "PATH: locked by another process (a writer holds it) ..."
 *   "PATH: no TASK table: not a torch_npu profiler db (tables: ...)"
 *   "PATH: table TASK has no column 'startNs' (columns: ...)"
 * A missing auxiliary table is not an error: db_has() says what is there
 * and the caller warns about what cannot be analysed. */
int db_open(const char *path, struct db **out, struct err *e);
void db_close(struct db *db);

const struct db_about *db_about(const struct db *db);
/* 1 when table t is present and has the columns the reader needs. */
int db_has(const struct db *db, enum db_table t);

/* The rank id RANK_DEVICE_MAP of the db at path names, or -1 (no such
 * table or row, or the file cannot be read: errors are reported when the
 * rank itself is read). For discovery, before ranks are analysed. */
int64_t db_peek_rank(const char *path);

/* The kernels: COMPUTE_TASK_INFO joined with TASK on globalTaskId (name,
 * opType, taskType through STRING_IDS: Type, Accelerator Core), plus one
 * per COMMUNICATION_OP row (opName, opType, core "HCCL"), appended to kt;
 * a Type of N/A (Level0) is derived from the name as for
 * kernel_details.csv. Step ids from STEP_TIME (the step whose range holds
 * the kernel's start). info describes the db as kernels_read describes a
 * CSV (era "db"); the caller releases it. A row with a missing or bad time,
 * or a name not in STRING_IDS, is skipped and listed in info (an error
 * with strict). Returns 0, or -1 with ERR_INPUT: corrupt file, no kernels
 * at all, a bad row with strict, an id the profiler writes once held
 * twice ("PATH: TASK.globalTaskId 42 appears 2 times: ..."; also
 * COMPUTE_TASK_INFO and COMMUNICATION_TASK_INFO.globalTaskId,
 * COMMUNICATION_OP.opId, STRING_IDS.id):
 * a join on it would multiply rows. */
int db_read_kernels(struct db *db, int strict, struct kernel_table *kt,
                    struct kernels_info *info, struct err *e);

/* STEP_TIME's rows sorted by start (NULL/0 without the table; the caller
 * frees them with db_steps_free). Rows with bad times are left out. The
 * array is charged to the memory budget as it grows: more than the budget
 * allows, or than DB_MAX_STEPS rows, is an ERR_INPUT error. */
int db_read_steps(struct db *db, struct db_step **steps, size_t *n,
                  struct err *e);
/* Frees n steps from db_read_steps and gives back their charge. */
void db_steps_free(struct db_step *steps, size_t n);

/* Each OVERLAP_ANALYSIS row as (kind, start, end): kind is its type code,
 * which is core/vocab.h's enum ov (0 Computing, 1 Communication, 2
 * Communication(Not Overlapped), 3 Free, the trace's Overlap Analysis
 * thread ids; the db has no enum table for it). Rows of another type or
 * with bad times are counted in *skipped. */
typedef void (*db_span_fn)(int kind, int64_t start_ns, int64_t end_ns,
                           void *ctx);
int db_overlap_each(struct db *db, db_span_fn fn, void *ctx, uint64_t *skipped,
                    struct err *e);

/* Host ranges that may be stage markers: PYTORCH_API rows of type "op"
 * (ENUM_API_TYPE; record_function ranges are ops) and MSTX_EVENTS ranges,
 * whose name (STRING_IDS) want() accepts. want() is asked once per
 * distinct string; fn gets each accepted range. */
typedef int (*db_want_fn)(const char *name, void *ctx);
typedef void (*db_range_fn)(const char *name, int64_t start_ns, int64_t end_ns,
                            void *ctx);
int db_host_ranges(struct db *db, db_want_fn want, db_range_fn fn, void *ctx,
                   struct err *e);

/* The host -> device links (the trace's torch_to_npu flows): for each
 * distinct CONNECTION_IDS pair (id, connectionId) whose id a PYTORCH_API
 * row carries and whose connectionId a TASK row carries, the earliest
 * start of those ops and the earliest start of those tasks (a
 * collective's HCCL tasks all carry its one id: one link, as the trace has
 * one flow). Each table is read once and each row looked up in the sorted
 * pairs: O(n log n) however the ids repeat (docs/db-reader.md). The pairs
 * (32 bytes each) are charged to the memory budget: beyond it, -1 with
 * ERR_INPUT naming the file. */
typedef void (*db_flow_fn)(int64_t host_ns, int64_t dev_ns, void *ctx);
int db_flows_each(struct db *db, db_flow_fn fn, void *ctx, struct err *e);

/* What the db shows of how it was collected, each 1 or 0: host events
 * (a PYTORCH_API row: ProfilerActivity.CPU), input shapes (a PYTORCH_API
 * inputShapes value, or a COMPUTE_TASK_INFO one other than N/A:
 * record_shapes), memory data (a row in MEMORY_RECORD, OP_MEMORY or
 * NPU_MEM: profile_memory) and AI Core metrics (a row in TASK_PMU_INFO). */
struct db_facts {
	int host, shapes, memory, pmu;
};
/* Fills f. Returns 0, or -1 with ERR_INPUT on a read error. */
int db_collect_facts(struct db *db, struct db_facts *f, struct err *e);

/* What communication.json would give (input/hccl.h), into cs (zeroed
 * first; the caller releases it with commstats_release). Returns 1 when
 * the tables hold no task details (Level0 exports every task as N/A):
 * nothing can be said; 0 when read; -1 with ERR_INPUT. */
int db_read_comm(struct db *db, struct commstats *cs, struct err *e);

/* The MEMORY_RECORD rows (profile_memory=True) as memory samples, in
 * bytes and ns, their component named through STRING_IDS ("PTA", "GE",
 * "PTA+GE", "APP"); a row with a negative or non-integer value is skipped
 * and counted in *bad. 0 with no call when the table is absent, or -1 (e
 * set) on a read error (db_mem.c). */
int db_read_memory(struct db *db, memrec_fn fn, void *ctx, uint64_t *rows,
                   uint64_t *bad, struct err *e);

/* The NPU_MEM rows (profile_memory=True: the driver's sampling of device
 * memory) of type "app" (the process, as memory_record.csv's APP rows) as
 * MEMC_APP samples whose reserved_b is the row's hbm (bytes) at
 * timestampNs; "device" rows (the whole card: every process and the
 * driver) are counted in *rows but handed on as none. A row with a
 * negative or non-integer hbm or time is skipped and counted in *bad.
 * 0 with no call when the table is absent, or -1 (e set) on a read
 * error (db_mem.c). */
int db_read_npu_mem(struct db *db, memrec_fn fn, void *ctx, uint64_t *rows,
                    uint64_t *bad, struct err *e);

/* SQLite's versions (sdperf --version). */
struct libversion db_sqlite_version(void);

#endif
