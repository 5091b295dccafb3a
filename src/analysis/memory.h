/* Device memory: peaks over the run, per stage of the timeline and per
 * rank, against the card's memory, read from the one source of each rank
 * the profile has and sdperf prefers (enum mem_source, result.h):
 *
 * 1. memory_record.csv: the framework's allocated and reserved (PTA, GE)
 *    AND the process as the driver sees it (APP), sampled over the run:
 *    the most complete;
 * 2. the db's MEMORY_RECORD: the same table in a db export (a rank is
 *    read from its db or its text files, never both: 1 and 2 never
 *    compete);
 * 3. the db's NPU_MEM (type app) and
 * 4. trace_view.json's NPU MEM counter APP/Memory (else APP/HBM): the
 *    driver's periodic sampling of the process's device memory: the peak
 *    the card holds,
 *    without the framework's allocated/reserved split;
 * 5. operator_memory.csv: the allocator's totals at each operator's
 *    allocation and release: allocated and reserved, but only at operator
 *    events and without what the driver adds (no APP figure: 6 gives it
 *    beside, when the rank has it);
 * 6. npu_module_mem.csv's APP module: the driver's view like 3 and 4, in
 *    a file that real runs often leave sparse (a sample when a module's
 *    figure changes).
 * The first source that gives a sample is used; one that cannot be used
 * (a warning says why) passes to the next. The db reads both of its
 * tables: MEMORY_RECORD for the framework's figures, NPU_MEM for the
 * device's, as memory_record.csv gives both (PTA/GE and APP rows).
 * Two figures, named by what they measure: the framework's allocator
 * (allocated, reserved) and the device memory the process used (the
 * driver's; the larger, and what memory_headroom reads). The trace's counters
 * are read only for a rank read from its trace alone (the pass that reads its
 * kernels collects them; a second pass over a trace of gigabytes for a
 * lower-ranked source is not worth it). */
#ifndef SDPERF_MEMORY_H
#define SDPERF_MEMORY_H

#include "analysis/result.h"
#include "analysis/rules.h"

/* The name of each source, as report.json and the reports give it:
 * "memory_record.csv", "db:MEMORY_RECORD", "db:NPU_MEM",
 * "trace_view.json:NPU MEM", "operator_memory.csv", "npu_module_mem.csv"
 * (NULL for MEMSRC_NONE). */
extern const char *const memory_source_names[MEMSRC_COUNT];

/* Reads the rank's memory_record.csv at path into r->ranks[0].mem, each
 * sample placed in the stage of the segment of r->segs (this rank's
 * timeline, sorted by start) whose [start, end] holds its timestamp: the
 * file's Timestamp(us) is on the kernels' clock. The file is optional: a
 * file that cannot be used becomes a "memory_unreadable" warning and bad
 * rows a "memory_bad_rows" warning (naming the first: line, column,
 * value); neither fails the run. */
void memory_read_rank(const char *path, struct result *r);

/* The same from operator_memory.csv (input/opmem.h) and from
 * npu_module_mem.csv (input/memrec.h, modmem_read). */
void memory_read_opmem(const char *path, struct result *r);
void memory_read_modmem(const char *path, struct result *r);

/* The same from trace_view.json's NPU MEM counters that tp collected
 * (path names the trace in warnings; skipped counters become one
 * "memory_bad_rows" warning naming the first's byte offset). */
struct traceprof;
void memory_read_trace(const struct traceprof *tp, const char *path,
                       struct result *r);

/* A text rank's memory: its memory files (paths by enum disc_memfile,
 * NULL when absent) and, for a rank read from its trace alone, the
 * trace's counters (tp, or NULL), tried in the order above. */
void memory_read_sources(char *const files[], const struct traceprof *tp,
                         const char *trace_path, struct result *r);

/* The same from the db export: MEMORY_RECORD, else NPU_MEM (when the db
 * has them; their rows are already in bytes and ns): bad rows are counted
 * and one "memory_bad_rows" warning says how many. */
struct db;
void memory_read_db(struct db *db, struct result *r);

/* Fills r->memory over the analysed ranks: the peaks (largest over the
 * ranks, the lead rank's per stage), the chip (the first rank that names
 * one), the card memory (--device-memory in ru, else ru's chip table) and
 * the peak's share of it. */
void memory_summarise(const struct rules *ru, struct result *r);

/* The most a set of samples held: the device memory the process used,
 * else the framework's reserved, else its allocated, else -1; and which
 * of them that is (enum mem_basis). */
int64_t memory_top(const struct mem_peak *p);
int memory_basis(const struct mem_peak *p);

/* 1 << 30: the GB of card memory and of the report (GiB, as npu-smi's
 * 65536 MB for a 64 GB card). */
#define MEMORY_GB 1073741824.0

#endif
