/* The analysis result: the one model every renderer (JSON, text, and later
 * HTML, Markdown, PDF) reads. Renderers take it const and know nothing of
 * file formats; the analysis knows nothing of rendering. */
#ifndef SDPERF_RESULT_H
#define SDPERF_RESULT_H

#include <stddef.h>
#include <stdint.h>

#include "core/tasktype.h"
#include "core/vocab.h"
#include "input/commjson.h"
#include "input/commmatrix.h"
#include "input/profile.h"
#include "util/sha256.h"

/* The nine MindIE-SD feature docs a verdict may point to. */
extern const char *const feature_doc_keys[];
extern const size_t feature_doc_count;

/* 1 when key is one of feature_doc_keys. */
int feature_doc_known(const char *key);

struct type_stat {
	char *type;
	enum category cat;
	uint64_t count;
	int64_t total_ns, min_ns, max_ns;
};

/* qsort order of type_stat: most total time first, then by name. */
int type_stat_cmp(const void *a, const void *b);
/* Frees the n types' names and the array t. */
void type_stats_free(struct type_stat *t, size_t n);

struct cat_stat {
	uint64_t count;
	int64_t time_ns;
};

struct stage_result {
	uint64_t kernels;
	uint64_t segments;
	int64_t kernel_ns; /* T_k: sum of kernel durations */
	int64_t wall_ns; /* T_w: sum over segments of last end - first start */
	struct cat_stat cat[CAT_COUNT];
	/* cat[CAT_FA] split by part (rules "part"): sums to cat[CAT_FA] */
	struct cat_stat fa_part[FA_PART_COUNT];
	struct type_stat *top; /* every kernel type (up to BREAKDOWN_TOP), by
	                        * total time, descending */
	size_t ntop;
	int64_t comm_ns;         /* sum of Comm kernel durations */
	int64_t comm_union_ns;   /* time covered by Comm kernels */
	int64_t exposed_comm_ns; /* covered by Comm and by no other kernel */
};

struct segment {
	enum stage stage;
	int64_t start_ns, end_ns;
	uint64_t kernels;
	int64_t kernel_ns;
	int32_t step; /* Step Id of its first kernel, or STEP_NONE */
};

/* Distinct Step Ids a result lists (all are counted: steps_total), and
 * step_trace_time.csv rows a rank lists (all are analysed). */
#define RESULT_MAX_STEP_IDS  10000
#define RESULT_MAX_STEP_ROWS 2000

/* User stage markers a rank's result lists (its first, by host start);
 * the analysis uses them all (markers_total). */
#define RESULT_MAX_MARKERS 200

/* Segments a rank's result keeps for the report (its timeline strip and
 * report.json); more are analysed and counted (segs_total), not listed. */
#define RESULT_MAX_SEGMENTS 10000

/* What a finding's speed-up applies to (rules "speedups" "part";
 * analysis/gain.h): a category's kernel time in a stage, a stage's
 * exposed communication, the device's idle time, a whole stage's wall
 * time, the slowest rank's compute above the median's, or nothing (a
 * finding that buys capacity, not speed). A new kind of part is one name
 * here and one case in gain.c. */
enum gain_part {
	GAIN_PART_NONE,
	GAIN_PART_CATEGORY,
	GAIN_PART_EXPOSED_COMM,
	GAIN_PART_IDLE,
	GAIN_PART_STAGE,
	GAIN_PART_IMBALANCE,
	GAIN_PART_LOOP, /* the lead rank's denoising loop (iters.loop_ns) */
	GAIN_PART_COUNT
};
/* "none", "category", "exposed_comm", "idle", "stage", "imbalance" */
extern const char *const gain_part_names[GAIN_PART_COUNT];

/* A fired finding's expected gain (analysis/gain.h): Amdahl's law on the
 * lead rank, per profiler step (of the whole profile without steps).
 * "low" is the estimate with the low speed-up (the smaller saving),
 * "high" with the high one. Times in ns. */
struct gain {
	int estimated; /* the numbers below are set; else no_speed says
	                * why not, or the part is unknown in this
	                * profile */
	int no_speed;  /* part "none": no speed gain (the assumption
	                * says what it buys instead) */
	enum gain_part part;
	enum stage stage;  /* the stage the part belongs to, or STAGE_ALL */
	enum category cat; /* GAIN_PART_CATEGORY only */
	double speedup_low, speedup_high;
	int64_t part_ns;
	int64_t stage_before_ns, stage_after_low_ns, stage_after_high_ns;
	int64_t e2e_before_ns, e2e_after_low_ns, e2e_after_high_ns;
	double saving_low_pct, saving_high_pct; /* of e2e_before_ns */
	char *assumption_en, *assumption_zh, *source;
	char *source_zh; /* NULL: source in every language */
};
/* Frees g and its strings (NULL is fine). */
void gain_free(struct gain *g);

/* What a DiT measure taken over the whole profile measures. */
enum verdict_whole { VW_NONE, VW_CATEGORY, VW_EXPOSED_COMM, VW_IMBALANCE };

struct verdict {
	char *id, *title, *metric, *recommendation;
	char *check;      /* neutral name of what is checked (English): the
	                   * threshold's "check", else its metric text; what a
	                   * passing finding is called (never the claim title) */
	enum stage stage; /* or STAGE_ALL */
	int rank;       /* rank id the value comes from (the worst one) when the
	                 * value is per rank, -1 when it is over all ranks */
	char *how;      /* English: how the value was aggregated over ranks, or
	                 * NULL for a single rank */
	int applicable; /* the stage has kernels, so a value exists */
	const char *na_reason; /* not applicable for another reason than a
	                        * stage without kernels: why (English,
	                        * static), else NULL */
	const char *na_code;   /* the same as a code for catalogues
	                        * ("step_totals", ...), or NULL */
	double value;          /* percent */
	double threshold;
	int fired;         /* value > threshold */
	int whole_profile; /* a DiT measure taken over the whole profile,
	                    * which is one stage (struct workload): the
	                    * guide's threshold is meant for a DiT, and no
	                    * gain is estimated; enum verdict_whole */
	int whole_cat;     /* VW_CATEGORY: its enum category */
	char **docs;
	size_t ndocs;
	struct gain *gain; /* a fired finding's expected gain, when the rules
	                    * give it a speed-up; else NULL */
	int order;         /* 1, 2, ...: a fired finding's place by expected
	                    * gain (analysis/gain.h); 0 when not fired */
};

#define WARNING_ARGS 5
struct warning {
	char *code;    /* stable machine-readable id, e.g. "skipped_rows" */
	char *file;    /* NULL when not about one file */
	uint64_t line; /* 0 when not about one line */
	char *message; /* English */
	char *reason;  /* skipped_row: why ("not_a_number", ...), else NULL */
	/* arguments of the message, for catalogues in other languages
	 * (their meaning depends on code; unused ones are NULL) */
	char *args[WARNING_ARGS];
};

struct input_desc {
	char *role; /* "kernel_details", "db", or "trace_view" when the kernels
	             * came from the trace */
	/* what the reader said of the file (input/profile.h), its rows'
	 * warnings moved to the result's (file.warn NULL); for a trace:
	 * rows = device X events read, skipped = unusable kernel events,
	 * na_type = kernels (all typed from their names), level and
	 * device_id -1, the CSV-only fields 0 */
	struct kernels_info file;
	uint64_t kernels;
	uint64_t subtasks; /* trace_view: sub-tasks left out */
};

/* ---- multi-file, multi-rank additions ------------------------------- */

/* communication.json's sums as the reader gave them (input/commjson.h),
 * by collective kind and by transport (core/vocab.h) */
struct comm_result {
	size_t nsteps;
	uint64_t ops;
	struct coll_stat kind[COLL_COUNT];
	struct transport_stat link[TR_COUNT];
	int64_t wait_ns; /* summed over kinds */
};

/* One row of step_trace_time.csv. */
struct step_stat {
	int32_t step; /* STEP_NONE when the file has no step numbers */
	int64_t computing_ns, comm_ns, not_overlapped_ns, free_ns, stage_ns;
	int64_t preparing_ns; /* -1 when the file has no Preparing column */
	int outlier;  /* 0, or 1 = warm-up (a first step far slower than the
	               * median), 2 = outlier (a later one) */
	double ratio; /* its time over the median of the others (0 when
	               * undefined), set by steps_analyse */
};

/* A user stage marker (record_function range) mapped to device time. */
struct stage_marker {
	char *name;
	enum stage stage;
	int64_t host_start_ns, host_end_ns, dev_start_ns, dev_end_ns;
	int by_flows; /* mapped through async_npu flows (else by time) */
	uint64_t flows;
	uint64_t kernels; /* kernels it (re)labelled */
};

/* What the SQLite export could not give, each a line of the report:
 * "overlap_analysis" (no OVERLAP_ANALYSIS table: no cross-check; steps are
 * split from the kernels), "markers" (no PYTORCH_API / MSTX_EVENTS),
 * "steps" (no STEP_TIME rows), "communication" (no COMMUNICATION_OP, or
 * its tasks carry no details, as at Level0), "compute_kernels" (no
 * COMPUTE_TASK_INFO: only the collectives are kernels). */
enum db_gap {
	DBGAP_OVERLAP,
	DBGAP_MARKERS,
	DBGAP_STEPS,
	DBGAP_COMM,
	DBGAP_COMPUTE,
	DBGAP_COUNT
};
extern const char *const db_gap_keys[DBGAP_COUNT];

/* A rank's SQLite export (ascend_pytorch_profiler[_N].db), when found. */
struct rank_db {
	char *path;    /* NULL: the rank has none */
	int used;      /* read; else the text files were */
	char *schema;  /* META_DATA SCHEMA_VERSION, or NULL */
	unsigned gaps; /* 1u << enum db_gap */
};

/* ---- the collection check (analysis/collection.h) ------------------- */

/* A fact that the files may not tell: known no or yes, or unknown. */
enum tri { TRI_UNKNOWN = -1, TRI_NO = 0, TRI_YES = 1 };

/* Profiler levels, lowest first (torch_npu.profiler.ProfilerLevel). */
enum coll_level {
	LEVEL_UNKNOWN = -1,
	LEVEL_NONE, /* Level_none */
	LEVEL_0,
	LEVEL_1,
	LEVEL_2
};
/* "Level_none", "Level0", "Level1", "Level2" */
extern const char *const coll_level_names[4];

/* What each source of one rank says about how it was collected, as the
 * readers reported it; the rank analysis (rank.c) gathers it, the
 * collection check decides from it. -1 (TRI_UNKNOWN, LEVEL_UNKNOWN) where
 * a source was not read or cannot tell. */
struct coll_evidence {
	/* profiler_info */
	int info_level;                         /* _profiler_level */
	int info_cpu, info_shapes, info_memory; /* activities, record_shapes,
	                                         * profile_memory */
	int info_aic;        /* _aic_metrics other than ACL_AICORE_NONE */
	int64_t info_warmup; /* skip_first + wait + warmup: steps run
	                      * before the first profiled one (-1) */
	/* kernel_details.csv */
	int kd_level, kd_shapes, kd_pmu;
	/* the db export */
	int db_level, db_cpu, db_shapes, db_memory, db_pmu;
	/* trace_view.json (trace: read alone, 1; with kernel_details.csv,
	 * 2; not read, 0) */
	int trace;
	int trace_cpu, trace_shapes, trace_memory, trace_level;
	uint64_t trace_steps; /* ProfilerStep#N ranges */
	/* memory files beside the data (1u << enum disc_memfile) */
	unsigned mem_files;
	/* distinct Step Id values of its kernels */
	uint64_t step_ids;
};

/* Ways the collection falls short of what the analysis (and the
 * MindIE-SD guide) asks for; the table of what each costs and how to fix
 * it is in analysis/collection.c. */
enum coll_gap {
	GAP_LEVEL0,     /* profiler level below Level1 */
	GAP_NPU_ONLY,   /* no host (CPU) events */
	GAP_NO_STEPS,   /* no step boundaries */
	GAP_FEW_STEPS,  /* fewer than COLL_MIN_TIMED timed steps */
	GAP_NO_WARMUP,  /* fewer than COLL_MIN_WARMUP warm-up steps */
	GAP_NO_SHAPES,  /* no input shapes */
	GAP_NO_MEMORY,  /* no memory data */
	GAP_NO_AIC,     /* no AI Core metrics */
	GAP_TRACE_ONLY, /* the trace alone (export_chrome_trace) */
	GAP_COUNT
};

/* One rank's collection, decided from its evidence. Sources are static
 * strings: "profiler_info", "kernel_details", "db", "trace_view",
 * "step_trace_time", "files", or NULL when unknown. */
struct rank_collection {
	const char *export_type;      /* "text", "db" or "trace" */
	int level;                    /* enum coll_level */
	int cpu, shapes, memory, aic; /* enum tri */
	const char *level_source, *cpu_source, *shapes_source, *memory_source,
	    *aic_source, *steps_source;
	uint64_t steps;        /* profiler steps in the profile (0: none) */
	uint64_t warmup_in;    /* of which judged warm-up steps */
	uint64_t timed;        /* steps - warmup_in */
	int64_t warmup_before; /* steps run before the first profiled one,
	                        * from the schedule; -1 unknown */
	unsigned mem_files;    /* 1u << enum disc_memfile */
	unsigned gaps;         /* 1u << enum coll_gap */
};

/* ---- device memory (analysis/memory.h) ------------------------------ */

/* Peaks of a set of samples, in bytes; -1 when no sample had the value.
 * allocated and reserved are the framework's (PTA, GE, PTA+GE rows: the
 * torch_npu caching allocator and the graph engine), device the whole
 * process's as the driver sees it (APP rows, reserved only). */
struct mem_peak {
	int64_t allocated_b, reserved_b, device_b;
	uint64_t samples;
};

/* Where a rank's memory samples come from, the most preferred first
 * (analysis/memory.h says why; memory_source_names their names). */
enum mem_source {
	MEMSRC_NONE,
	MEMSRC_MEMORY_RECORD,    /* memory_record.csv */
	MEMSRC_DB_MEMORY_RECORD, /* the db's MEMORY_RECORD */
	MEMSRC_DB_NPU_MEM,       /* the db's NPU_MEM (app) */
	MEMSRC_TRACE,            /* trace_view.json's NPU MEM APP/Memory */
	MEMSRC_OPERATOR_MEMORY,  /* operator_memory.csv */
	MEMSRC_NPU_MODULE_MEM,   /* npu_module_mem.csv (APP) */
	MEMSRC_COUNT
};

/* Which figure a memory peak is: the device memory the process used (the
 * driver's), the framework allocator's reserved, or its allocated. */
enum mem_basis { MEMB_NONE, MEMB_DEVICE, MEMB_RESERVED, MEMB_ALLOCATED };

/* One rank's memory samples, from its most preferred source (and, for
 * the db, NPU_MEM beside MEMORY_RECORD: the two figures). */
struct rank_memory {
	int read;   /* the source was read (samples may be 0) */
	int source; /* enum mem_source of what was read (the first) */
	/* where each of the two figures came from (enum mem_source,
	 * MEMSRC_NONE when the rank has none): the framework's allocator
	 * (allocated/reserved) and the device memory the process used */
	int framework_source, device_source;
	uint64_t samples; /* rows used */
	uint64_t bad;     /* rows skipped (a warning names the first) */
	uint64_t outside; /* samples in no stage segment of the timeline */
	struct mem_peak all;
	struct mem_peak stage[STAGE_COUNT]; /* samples inside the stage's
	                                     * segments (by timestamp) */
};

/* Over the run: what the memory section and memory_headroom read. */
struct memory_summary {
	int known;        /* some rank has memory samples */
	uint64_t ranks;   /* ranks with samples */
	int64_t peak_b;   /* the device memory the process used
	                   * (device_b), else the framework's reserved_b,
	                   * else allocated_b (memory_top), largest over
	                   * the ranks: the most the card held */
	int peak_basis;   /* enum mem_basis of peak_b */
	int peak_rank;    /* rank id of peak_b */
	unsigned sources; /* 1u << enum mem_source of the ranks counted */
	/* the same for each figure: the framework's allocator, the device */
	unsigned framework_sources, device_sources;
	struct mem_peak all;                /* maxima over the ranks */
	struct mem_peak stage[STAGE_COUNT]; /* the lead rank's */
	char *chip;              /* the chip model the profile names, or NULL */
	double card_gb;          /* the card's memory in GB, 0 when unknown */
	const char *card_source; /* "chip" (rules' chip table), "option"
	                          * (--device-memory), or NULL (static) */
	double peak_share; /* peak_b / card memory in percent, -1 unknown */
};

/* A file a rank's analysis read, for the report's provenance: where
 * discovery found it, its size and its SHA-256 (streamed, app/provenance.c). */
struct input_file {
	const char *what; /* "kernel_details.csv", "db", ... (static) */
	char *path;       /* as found: a plain string, for the redactor */
	uint64_t size;
	char sha256[SHA256_HEX]; /* lower-case hex */
};

/* ---- the profiler's own totals as a check (analysis/totals.h) ------- */

/* What the kernels give over the steps, in one sweep: the compute union
 * (time covered by a non-Comm kernel), exposed communication (covered by
 * Comm and no other kernel), the steps' device span (per Step Id run,
 * first start to last end) and the kernel time and count. */
struct kernel_totals {
	int set;
	int64_t compute_ns, exposed_ns, span_ns, kernel_ns;
	uint64_t kernels;
};

/* The figures compared, one check each. */
enum totals_figure {
	TOT_COMPUTING,    /* step_trace Computing / STEP_TIME split */
	TOT_NOT_OVERLAP,  /* Communication(Not Overlapped) */
	TOT_FREE,         /* Free */
	TOT_OVERLAP,      /* the trace's Overlap Analysis, per stage */
	TOT_OPSTAT_TIME,  /* op_statistic.csv's Total Time */
	TOT_OPSTAT_COUNT, /* op_statistic.csv's Count */
	TOT_COUNT
};
extern const char *const totals_figure_names[TOT_COUNT];

/* One comparison. ours/theirs are ns (counts for TOT_OPSTAT_COUNT);
 * diff and tolerance are in points of base (the steps' total time for
 * the step figures, the profiler's figure for op_statistic and the
 * stage's wall time for the Overlap Analysis). */
struct totals_check {
	int checked, passed;
	const char *source; /* "step_trace_time", "db_step_time",
	                     * "op_statistic", "overlap_analysis" (static) */
	int64_t ours, theirs, base;
	double diff_points, tolerance;
	char *worst_type; /* op_statistic: the type that differs most, or
	                   * NULL */
};

/* communication_matrix.json's rank-to-rank links a rank keeps: the
 * RESULT_MAX_LINKS with the most transit time (links_total counts all). */
#define RESULT_MAX_LINKS 256

/* The capture's files that sdperf does not read, listed by name. */
#define RESULT_MAX_UNUSED 64

/* What one rank contributed. Times in ns. */
struct rank_result {
	int32_t id;
	const char *id_source; /* "profiler_info", "db", "folder", "trace",
	                        * "file_name", "order" (static) */
	char *dir;             /* rank folder, or the PATH given */
	char *files[RF_COUNT]; /* path of each file found, or NULL */
	char *torch_npu_version, *cann_version, *profiler_level,
	    *aic_metrics; /* from profiler_info, NULL when absent */
	int analysed;     /* its kernels were read */
	/* where the kernels came from: "kernel_details", "db" (the SQLite
	 * export) or "trace_view" (a trace-only rank), NULL when none
	 * (static) */
	const char *kernel_source;
	uint64_t kernels;
	struct {
		int64_t kernel_ns, wall_ns, comm_ns, exposed_comm_ns;
		int64_t cat_ns[CAT_COUNT];
		int64_t fa_part_ns[FA_PART_COUNT]; /* cat_ns[CAT_FA] by part */
	} stage[STAGE_COUNT];
	int64_t compute_ns; /* DiT kernel time outside Comm: what a
	                     * straggler has more of */

	/* step_trace_time.csv: the first RESULT_MAX_STEP_ROWS rows */
	struct step_stat *steps;
	size_t nsteps;
	size_t steps_total;     /* its rows, listed or not */
	int64_t free_share_ppm; /* Free / (Computing + Not overlapped +
	                         * Free) over the non-outlier steps, parts per
	                         * million; -1 without the file */
	/* "step_trace_time" or "overlap_analysis" (a trace-only rank: the
	 * rows summed from the trace), NULL without rows (static) */
	const char *steps_source;

	/* trace_view.json */
	int trace_read, trace_truncated, overlap_found;
	uint64_t trace_events, trace_truncated_at;
	int64_t ov_total[OV_KINDS];
	int64_t ov_stage[STAGE_COUNT][OV_KINDS];
	struct stage_marker *markers; /* the first RESULT_MAX_MARKERS */
	size_t nmarkers;
	size_t markers_total;     /* markers found, listed or not */
	const char *stage_source; /* "signatures", "markers_flows",
	                           * "markers_time" (static) */

	/* communication.json */
	int comm_read;
	struct comm_result comm;

	/* the SQLite export: when used, it gave all of the above */
	struct rank_db db;

	/* how it was collected: the evidence, and the check's decision */
	struct coll_evidence ev;
	struct rank_collection coll;

	/* the kernels' totals against the profiler's (totals_check) */
	struct kernel_totals ktot;
	struct totals_check totals[TOT_COUNT];
	int totals_failed; /* checks beyond their tolerance */
	/* communication_matrix.json summed over its steps (input/commmatrix.h),
	 * by transit time, descending */
	struct comm_link *links;
	size_t nlinks, links_total;
	/* files in its folders that nothing reads (names, the first
	 * RESULT_MAX_UNUSED; unused_total counts them all) */
	char **unused;
	size_t nunused, unused_total;

	struct rank_memory mem; /* device memory samples */
	char *chip;             /* chip model the profile names, or NULL */
	char *host; /* the host the db's HOST_INFO names, or NULL: never
	             * shown; --redact looks for it in every string */

	/* provenance: the files read, and when the profile was captured
	 * (seconds since the epoch, -1 unknown) and how that is known:
	 * "profiler_info" (end_info.collectionTimeEnd, UTC) or "folder" (the
	 * {host}_{pid}_{YYYYMMDDhhmmssmmm}_ascend_pt name, the capturing
	 * host's clock), NULL (static) */
	struct input_file *inputs;
	size_t ninputs;
	int64_t captured_s;
	const char *captured_from;
};

/* The whole run's collection: every fact at its worst over the analysed
 * ranks (the lowest level, a fact "no" when one rank lacks it, "unknown"
 * when none lacks it but one cannot tell, the fewest steps), and the
 * gaps of every rank. */
struct collection {
	int checked;                /* collection_check ran */
	struct rank_collection sum; /* sources: NULL */
	const char *export_type;    /* "text", "db", "trace" or "mixed" */
	const char *torch_npu_version, *cann_version; /* the lead rank's (or
	                                               * the first known),
	                                               * borrowed, or NULL */
	int versions_differ; /* ranks name different versions */
};

/* What the analysis works out over the ranks, once (cluster_summarise,
 * analysis/cluster.h); the renderers only read it. */
struct cluster_summary {
	/* ranked: two or more analysed ranks have DiT compute time above 0;
	 * then slowest and median are indexes in result.ranks of the one
	 * with the most (the first of equals) and of the lower median one
	 * (the first with that time) among them; 0 otherwise */
	int ranked;
	size_t slowest, median;
	/* communication.json summed over the comm_ranks ranks that have one:
	 * each collective kind's and transport's counts, times and sizes,
	 * ops and wait_ns (comm.nsteps is not summed: 0) */
	size_t comm_ranks;
	struct comm_result comm;
};

/* End-to-end device time (analysis/e2e.h), from the lead rank: what the
 * summary, the expected gains and the stage findings measure against.
 * Times in ns. */
struct e2e_time {
	int known;       /* the lead rank has kernels; else everything is 0 */
	int64_t span_ns; /* its first kernel's start to its last kernel's end */
	int64_t stage_ns[STAGE_COUNT]; /* its stages' wall time */
	int64_t busy_ns;               /* the sum of stage_ns */
	uint64_t steps;      /* profiler steps in the span; 0 when unknown */
	int64_t per_step_ns; /* span_ns / steps; span_ns when steps is 0 */
	/* stage_ns / steps, rounded (stage_ns when steps is 0): the stage
	 * split beside the per-step headline */
	int64_t stage_step_ns[STAGE_COUNT];
};

/* The VAE's kernel time split by what its kernels do (analysis/vaesplit.h):
 * Conv = the Conv category, attention = the FA category, GroupNorm = the
 * Vector kernel types matching *GroupNorm*, other = the rest (resizing,
 * element-wise, data movement, communication...). Summed over the
 * analysed ranks, like stages[STAGE_VAE]; times in ns. */
enum vae_part { VAE_CONV, VAE_GROUPNORM, VAE_ATTENTION, VAE_OTHER, VAE_PARTS };
extern const char *const vae_part_names[VAE_PARTS];
struct vae_split {
	int64_t part_ns[VAE_PARTS];
	int64_t total_ns; /* stages[STAGE_VAE].kernel_ns: their sum */
};

/* ---- denoising iterations (analysis/iterations.h) -------------------- */

/* Iterations a result lists (all are analysed: iters.total). */
#define RESULT_MAX_ITERS 5000

/* What an iteration ran: the full block stack, or a cache hit. */
enum iter_hit { ITER_FULL, ITER_HIT_DIT, ITER_HIT_ATTENTION };
/* "full", "dit", "attention" */
extern const char *const iter_hit_names[3];

/* One denoising iteration of the lead rank: from its first kernel (the
 * start of the iteration's head, the kernels that open every iteration)
 * to the last kernel before the next iteration's head. Times in ns. */
struct iteration {
	uint32_t call;    /* DiT loop (pipeline call) it belongs to, from 0 */
	uint32_t index;   /* within its call, from 0 */
	int32_t step;     /* Step Id of its first kernel, or STEP_NONE */
	int64_t start_ns; /* its first kernel's start */
	int64_t dur_ns;   /* to the latest end of its kernels */
	uint64_t kernels, attention, matmul; /* all, FA attention, MatMul */
	uint64_t blocks;   /* full transformer blocks (the block signature) */
	unsigned char hit; /* enum iter_hit */
	unsigned char outlier; /* 0, 1 warm-up (first of its call), 2 slow */
};

enum cache_kind { CACHE_NONE, CACHE_DIT, CACHE_ATTENTION };
/* "none", "dit", "attention" */
extern const char *const cache_kind_names[3];

/* An active cache, seen in the iterations (analysis/iterations.h). */
struct cache_seen {
	enum cache_kind kind; /* the hits' kind (the more frequent one) */
	uint64_t hits;        /* hit iterations (both kinds) */
	uint64_t period;      /* a full iteration every `period` (0: no
	                       * full iteration after a hit to tell it) */
	int regular;          /* every gap between full iterations around
	                       * hits is `period` */
	int64_t saved_ns;     /* sum over hits of median_ns - its duration */
};

/* The lead rank's denoising loops split into iterations: what the
 * iteration chart, the cache report and the cache finding read. */
struct iter_summary {
	int found;           /* some loop was split into iterations */
	uint64_t calls;      /* DiT loops with iterations */
	struct iteration *v; /* the first RESULT_MAX_ITERS, in time order */
	size_t n;
	uint64_t total;          /* iterations, listed or not */
	uint64_t full;           /* of which ran the full block stack */
	int64_t loop_ns;         /* sum over calls of first start to last end */
	int64_t median_ns;       /* median duration of the full iterations */
	uint64_t median_kernels; /* of the full iterations' kernel counts */
	uint64_t blocks;         /* blocks in a full iteration (their median) */
	uint64_t head;         /* kernels of the head that opens an iteration */
	double outlier_factor; /* a full iteration this many times the
	                        * median or more is an outlier */
	uint64_t outliers;     /* full iterations flagged (warm-up or slow) */
	struct cache_seen cache;
	/* for an expected gain: a cache at suggest_period (one full
	 * iteration every suggest_period, the first of each call full)
	 * would skip would_skip of the iterations */
	uint64_t suggest_period, would_skip;
};

/* ---- the workload (analysis/workload.h) ---------------------------- */

/* What the profile is, decided from the device kernels before the stage
 * split is trusted: only diffusion inference (a denoising loop found) is
 * split into DiT, VAE and text encoder. */
enum workload_kind {
	WORKLOAD_DIFFUSION, /* a denoising loop: >= 2 iterations per call */
	WORKLOAD_TRAINING,  /* backward, optimizer or dropout kernels */
	WORKLOAD_LLM,       /* incremental or paged attention, KV cache */
	WORKLOAD_PARTIAL,   /* part of a diffusion pipeline (see part) */
	WORKLOAD_UNKNOWN,   /* none of these */
	WORKLOAD_KINDS
};
/* "diffusion_inference", "training", "llm_inference", "partial",
 * "unknown" */
extern const char *const workload_kind_names[WORKLOAD_KINDS];

/* Which part of a pipeline a partial capture holds. */
enum workload_part {
	WORKLOAD_PART_NONE,     /* not a partial capture */
	WORKLOAD_PART_VAE_ONLY, /* VAE kernels alone, no denoising loop */
	WORKLOAD_PART_LOOP_ONLY /* denoising iterations, no VAE */
};
/* "none", "vae_only", "loop_only" */
extern const char *const workload_part_names[3];

struct workload {
	enum workload_kind kind;
	enum workload_part part;
	int one_stage; /* no DiT/VAE/text-encoder split: every kernel is in
	                * one stage, "other" (0: the split stands; so a
	                * result that was never decided keeps it) */
	int markers;   /* user stage markers decided the stages: kept */
	/* the evidence: the denoising loop (analysis/iterations.h) */
	uint64_t loop_iterations, loop_blocks, loop_calls;
	/* kernels matching the rules' "workloads" patterns */
	uint64_t training_kernels, llm_kernels;
	/* of training_kernels, the dropout masks: evidence of training only
	 * where no denoising loop is found */
	uint64_t dropout_kernels;
	/* kernels labelled VAE and DiT by their signatures, of all kernels,
	 * before the decision (a VAE-only capture; a pipeline whose loop ran
	 * once) */
	uint64_t vae_kernels, dit_kernels, kernels;
	int stage_loop; /* the stage signatures saw a repeating loop (its
	                 * iterations perhaps not told apart) */
};

/* ---- redaction (analysis/redact.h) ---------------------------------- */

/* What --redact replaces, each a class of originals numbered apart. */
enum redact_class {
	REDACT_HOST,
	REDACT_USER,
	REDACT_PATH,
	REDACT_RANK_FOLDER,
	REDACT_ADDRESS,
	REDACT_GROUP,
	REDACT_KERNEL,
	REDACT_CLASSES
};
/* "hosts", "users", "paths", "rank_folders", "addresses", "groups",
 * "kernels" */
extern const char *const redact_class_names[REDACT_CLASSES];

/* The profile's metadata fields --redact keeps only when they have the
 * shape of their kind (a version, a chip model, a profiler level...) and
 * hold nothing the redactor would replace; any other value is dropped
 * (analysis/redact.c says the rules). */
enum redact_field {
	REDACT_F_TORCH_NPU_VERSION, /* profiler_info torch_npu_version */
	REDACT_F_CANN_VERSION,      /* profiler_info cann_version */
	REDACT_F_PROFILER_LEVEL,    /* profiler_info _profiler_level */
	REDACT_F_AIC_METRICS,       /* profiler_info _aic_metrics */
	REDACT_F_CHIP,              /* the db's NPU_INFO name */
	REDACT_F_DB_SCHEMA,         /* the db's META_DATA SCHEMA_VERSION */
	REDACT_FIELDS
};
/* "torch_npu_version", "cann_version", "profiler_level", "aic_metrics",
 * "chip", "db_schema_version" */
extern const char *const redact_field_names[REDACT_FIELDS];

/* The report says it was redacted and what was replaced. */
struct redaction {
	int on;      /* --redact: the strings below were rewritten */
	int kernels; /* --redact-kernels: Other operator names too (else
	              * kernel type names are kept) */
	uint64_t replaced[REDACT_CLASSES]; /* distinct originals replaced */
	/* values of each metadata field dropped (over the ranks), as they
	 * could not be made safe */
	uint64_t dropped[REDACT_FIELDS];
};

struct redactor; /* analysis/redact.h */
/* Who a report is for (--org, --logo, --customer, --ticket,
 * --confidential, or the config file): the user's text, shown as given
 * (escaped by each format); NULL when not given. */
struct brand {
	char *org, *customer, *ticket, *confidential;
	unsigned char *logo; /* the image's bytes (checked: PNG or JPEG) */
	size_t logo_len;
	const char *logo_mime; /* "image/png", "image/jpeg" (static) */
	char logo_sha256[SHA256_HEX];
};

/* How a report was made: the run's facts that are not analysis. The
 * command line and (in ranks[].inputs) the input paths are plain strings
 * in this one place, so that one pass can redact them. */
struct provenance {
	int set;            /* filled (a result analysed for diff is not) */
	char *command_line; /* argv, shell-quoted, argv[0] as "sdperf" */
	const char *version, *build;   /* sdperf's; build "" when unknown */
	char *rules;                   /* "built-in" or the --rules path */
	char rules_sha256[SHA256_HEX]; /* of the rules' bytes as read */
	/* the earliest capture time over the ranks (seconds since the
	 * epoch, -1 unknown) and its source (rank_result's captured_from) */
	int64_t captured_s;
	const char *captured_from;
	int64_t generated_s; /* when the report was made */
	int generated_fixed; /* from SOURCE_DATE_EPOCH, not the clock */
};

struct result {
	char *profile_path; /* PATH as the user gave it */
	char *rank_dir;     /* the *_ascend_pt folder, or NULL */
	struct input_desc *inputs;
	size_t ninputs;

	uint64_t kernels;
	int64_t span_start_ns, span_end_ns;
	int32_t *steps; /* distinct Step Id values, ascending: the first
	                 * RESULT_MAX_STEP_IDS */
	size_t nsteps;
	size_t steps_total; /* distinct Step Ids, listed or not */

	struct stage_result stages[STAGE_COUNT];
	struct segment *segs; /* the first RESULT_MAX_SEGMENTS, after a rank's
	                       * analysis (the analysis uses them all) */
	size_t nsegs;
	size_t segs_total; /* segments of the timeline, listed or not */
	int text_encoder_detected;
	int loop_found; /* a repeating denoising loop was recognised */
	/* the loop's network (stage id "dit" either way) is a UNet: Conv /
	 * GroupNorm ResBlocks, 8 or more VAE signatures per iteration */
	int denoiser_unet;
	int seg_window, seg_min_segment; /* segmentation parameters used */
	char *stage_method; /* how stages were found, for the Method section */

	struct kernel_totals ktot;   /* analysis/totals.h */
	struct type_stat *unmatched; /* Other-category types, by time */
	size_t nunmatched;

	struct verdict *verdicts;
	size_t nverdicts;
	char *rules_source; /* "built-in" or the --rules path */

	struct warning *warnings;
	size_t nwarnings;

	/* every rank found (one for a single-card profile), by rank id; the
	 * stages, categories, kernel types and unmatched types above are
	 * summed over the analysed ranks, the timeline (segs) is lead's */
	struct rank_result *ranks;
	size_t nranks;
	size_t lead; /* index in ranks of the timeline's rank */
	int threads; /* worker threads used */
	/* rank summaries merged (sdperf summarize's files), 0 when the ranks
	 * were analysed in this process */
	size_t summaries;
	/* bytes charged to the memory budget (util/membudget.h) for what
	 * this result holds beyond its caps (a rank's full segment list
	 * during its analysis); result_release gives them back */
	uint64_t charged;

	struct collection collection;   /* analysis/collection.h */
	struct cluster_summary cluster; /* analysis/cluster.h */
	struct e2e_time e2e;            /* analysis/e2e.h */
	struct vae_split vae_split;     /* analysis/vaesplit.h */
	struct memory_summary memory;   /* analysis/memory.h */
	struct iter_summary iters;      /* analysis/iterations.h: lead's */
	struct workload workload;       /* analysis/workload.h: lead's */
	struct redaction redaction;     /* analysis/redact.h */
	/* --redact: the map of originals to pseudonyms (borrowed: the
	 * caller of redact_result frees it after the result), to rewrite
	 * strings added after the analysis (redactor_rewrite); NULL
	 * without --redact */
	struct redactor *redactor;

	struct brand brand;     /* app/provenance.c */
	struct provenance prov; /* app/provenance.c */
};

void result_init(struct result *r);
void result_release(struct result *r);
void rank_result_release(struct rank_result *rr);
/* Whether any analysed rank has a check against the profiler's own totals
 * beyond its tolerance (analysis/totals.h). */
int totals_failed(const struct result *r);
/* About what r holds in memory (its lists and strings), to charge a
 * rank's result to the memory budget while the ranks wait to be merged. */
uint64_t result_bytes(const struct result *r);
/* Frees what a warning owns (not the warning itself). */
void warning_release(struct warning *w);
/* Appends a warning (copies the strings; file may be NULL) and returns it,
 * so the caller can set its args (xstrdup'ed; freed with the result). */
struct warning *result_warn(struct result *r, const char *code,
                            const char *file, uint64_t line,
                            const char *message);

/* Describes a kernel_details.csv the reader read (kernels rows kept) in
 * r's inputs, and turns its skipped rows into warnings. */
void result_add_kernels_input(struct result *r, const struct kernels_info *in,
                              uint64_t kernels);

/* Describes a trace_view.json the kernels were read from: its size, the
 * device X events read (rows), the sub-tasks left out, the kernels kept
 * (all typed from their names) and the unusable kernel events (skipped,
 * with a warning naming the first's byte offset and why). */
struct trace_input {
	const char *path;
	int64_t size;
	uint64_t events, subtasks, kernels, bad;
	uint64_t first_bad_at;
	const char *first_bad_why; /* the reader's code ("ts", "dur", ...) */
};
void result_add_trace_input(struct result *r, const struct trace_input *in);

/* A warning for each task type the reader of path met that is not in the
 * task-type table (core/tasktype.h): "unknown_task_type", reason source
 * ("trace": its "Task Type" args, "db": TASK.taskType), args the type
 * (quoted: control bytes as \xNN, cut at 60 bytes), the events' count
 * and their time in ms (3 decimals); the types past TASK_UNKNOWN_MAX as
 * one "unknown_task_types_more" (count, ms). Those events are in no
 * figure. */
void result_add_unknown_tasks(struct result *r, const char *path,
                              const struct task_unknowns *u,
                              const char *source);

#endif
