/* The collection check: how each rank's profile was collected (profiler
 * level, CPU activity, schedule and timed steps, input shapes, memory
 * data, AI Core metrics, export type), told from its files alone, and
 * what each shortfall costs with the torch_npu.profiler code that fixes
 * it. The readers report facts (profiler_info's settings, the
 * kernel_details.csv header, the trace's processes and events, the db's
 * tables); this module gathers them into each rank's evidence, decides,
 * and sums the run up. It knows nothing of rendering: the texts of the
 * gap table are English, the reports take theirs from the catalogues by
 * gap id.
 *
 * Which source decides each fact, in order (the first that can tell):
 *   level   profiler_info _profiler_level (the only one to tell Level2
 *           and Level_none), the kernel_details.csv header (Type N/A,
 *           no Model ID: Level0), the db (opType N/A on every kernel:
 *           Level0), the trace read alone (CANN API events or HCCL task
 *           details: Level1, else Level0);
 *   cpu     the trace (host events: a "Python" process or ProfilerStep
 *           ranges; read alone, cpu_op / python_function events decide
 *           either way), the db (PYTORCH_API rows), profiler_info
 *           activities;
 *   steps   the step table's numbered rows (step_trace_time.csv, the
 *           db's STEP_TIME, the trace's ProfilerStep ranges), else the
 *           kernels' distinct Step Ids, else the trace's ProfilerStep
 *           ranges; none of them: no step boundaries. Timed steps are
 *           those not judged warm-up; warm-up before the profile comes
 *           from profiler_info's schedule (skip_first + wait + warmup);
 *   shapes  present in any source (kernel_details.csv Input Shapes, a
 *           trace cpu_op's Input Dims, the db's inputShapes); absent
 *           where a source would show them (a Level1 header without the
 *           column, the db, a trace read alone), else profiler_info
 *           record_shapes;
 *   memory  memory files beside the data, NPU MEM counters in the trace,
 *           the db's MEMORY_RECORD / OP_MEMORY / NPU_MEM rows; absent in
 *           a text export's folder, the db or a trace read alone, else
 *           profiler_info profile_memory;
 *   aic     PMU columns of kernel_details.csv, the db's TASK_PMU_INFO
 *           rows, else profiler_info _aic_metrics (not ACL_AICORE_NONE).
 */
#ifndef SDPERF_COLLECTION_H
#define SDPERF_COLLECTION_H

#include "analysis/result.h"
#include "analysis/tracestages.h"
#include "input/db.h"
#include "input/discover.h"
#include "input/traceprof.h"

/* The MindIE-SD guide: 2 warm-up steps, then 5 or more timed steps. */
#define COLL_MIN_WARMUP 2
#define COLL_MIN_TIMED  5

/* ---- evidence, from each reader ---------------------------------------- */

/* Starts rr's evidence from what discovery found: profiler_info's level,
 * AI Core metrics and settings, and the memory files beside the data. */
void collection_from_discovery(struct coll_evidence *ev,
                               const struct disc_rank *dr);
/* kernel_details.csv's header: level, Input Shapes, PMU columns. */
void collection_from_kernels(struct coll_evidence *ev,
                             const struct kernels_info *in);
/* The db: its kernels' level (in), and f. */
void collection_from_db(struct coll_evidence *ev, const struct kernels_info *in,
                        const struct db_facts *f);
/* A trace read alone (traceprof). */
void collection_from_trace(struct coll_evidence *ev,
                           const struct traceprof *tp);
/* The trace of a text rank, from trace_collect's first pass. */
void collection_from_scan(struct coll_evidence *ev,
                          const struct trace_summary *ts);

/* ---- the decision -------------------------------------------------------- */

/* Decides every rank's collection (rr->coll) from its evidence and
 * analysis (its step table, rr->ev.step_ids), then the run's
 * (r->collection): after the ranks are merged. */
void collection_check(struct result *r);

/* "Level0", ... for an enum coll_level; NULL when unknown. */
const char *collection_level_name(int level);
/* The level named s ("Level1", "level1", "Level_none", "LEVEL0", ...), or
 * LEVEL_UNKNOWN. */
int collection_level_of(const char *s);

/* ---- the gap table ------------------------------------------------------- */

/* One gap: its id (report.json, catalogue keys coll_gap_ID and
 * coll_gap_ID_disables), a title, what it disables and the
 * torch_npu.profiler code that fixes it (English; the code is Python). */
struct coll_gap_def {
	const char *id, *title, *disables, *fix;
};
extern const struct coll_gap_def coll_gap_defs[GAP_COUNT];

/* The whole collection the analysis asks for, as one snippet to copy,
 * keeping the run's export (the db export asks for ExportType.Db). */
const char *collection_snippet(const struct collection *c);

#endif
