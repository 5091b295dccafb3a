/* The field tables of a rank summary: struct result, member by member, as
 * a rank's analysis leaves it (see ranksum.h). A member added to the
 * result that a rank's analysis fills must be added here (and
 * RANKSUM_VERSION bumped); the test cluster_summaries compares a merged
 * report with the one-process one, so a member forgotten shows there. */
#include "analysis/ranksum.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/breakdown.h"
#include "input/sumread.h"
#include "util/banned.h"

/* Enums are read and written as int. */
_Static_assert(sizeof(enum stage) == sizeof(int), "enum stage is an int");
_Static_assert(sizeof(enum category) == sizeof(int), "enum category is an int");

#define TRI(T, M)     FT_NUM(T, M, FT_INT, -1, 1)
#define ENUM(T, M, N) FT_NUM(T, M, FT_INT, 0, (N)-1)
#define I64S(T, M, N) FT_NUMS(T, M, FT_I64, N, -FT_TIME_MAX, FT_TIME_MAX)
#define U64(T, M)     FT_U64F(T, M)
#define I64(T, M)     FT_TIMEF(T, M)
#define SZ(T, M)      FT_NUM(T, M, FT_SIZE, 0, 0)

/* ---- kernel types, stages, segments ------------------------------------ */

static const struct ft_field type_f[] = {
    FT_STRF(struct type_stat, type), ENUM(struct type_stat, cat, CAT_COUNT),
    U64(struct type_stat, count),    I64(struct type_stat, total_ns),
    I64(struct type_stat, min_ns),   I64(struct type_stat, max_ns),
};
static const struct ft_table type_t = FT_TABLE(type_f);

static const struct ft_field cat_f[] = {
    U64(struct cat_stat, count),
    I64(struct cat_stat, time_ns),
};
static const struct ft_table cat_t = FT_TABLE(cat_f);

static const struct ft_field stage_f[] = {
    U64(struct stage_result, kernels),
    U64(struct stage_result, segments),
    I64(struct stage_result, kernel_ns),
    I64(struct stage_result, wall_ns),
    FT_SUBF(struct stage_result, cat, CAT_COUNT, cat_t, struct cat_stat),
    FT_SUBF(struct stage_result, fa_part, FA_PART_COUNT, cat_t,
            struct cat_stat),
    FT_LISTF(struct stage_result, top, ntop, type_t, struct type_stat,
             BREAKDOWN_TOP),
    I64(struct stage_result, comm_ns),
    I64(struct stage_result, comm_union_ns),
    I64(struct stage_result, exposed_comm_ns),
};
static const struct ft_table stage_t = FT_TABLE(stage_f);

static const struct ft_field seg_f[] = {
    ENUM(struct segment, stage, STAGE_COUNT),
    I64(struct segment, start_ns),
    I64(struct segment, end_ns),
    U64(struct segment, kernels),
    I64(struct segment, kernel_ns),
    FT_NUM(struct segment, step, FT_I32, 0, 0),
};
static const struct ft_table seg_t = FT_TABLE(seg_f);

static const struct ft_field step_id_f[] = {
    {NULL, FT_I32, 0, 1, 0, 0, NULL, 0, NULL, 0, 0, 0},
};
static const struct ft_table step_id_t = FT_TABLE(step_id_f);

/* ---- inputs and warnings ------------------------------------------------ */

static const char *const eras[] = {"2023", "2024", "2025-06", "2026-02", "db"};

static const struct ft_field kinfo_f[] = {
    FT_STRF(struct kernels_info, path),
    I64(struct kernels_info, size),
    FT_STRF(struct kernels_info, variant),
    FT_NUM(struct kernels_info, level, FT_INT, -1, 2),
    FT_SYMF(struct kernels_info, era, eras),
    FT_BOOL(struct kernels_info, pmu),
    FT_BOOL(struct kernels_info, shapes),
    FT_BOOL(struct kernels_info, crlf),
    FT_BOOL(struct kernels_info, bom),
    FT_BOOL(struct kernels_info, start_tab),
    I64(struct kernels_info, device_id),
    U64(struct kernels_info, lines),
    U64(struct kernels_info, rows),
    U64(struct kernels_info, skipped),
    U64(struct kernels_info, na_type),
};
static const struct ft_table kinfo_t = FT_TABLE(kinfo_f);

static const struct ft_field input_f[] = {
    FT_STRF(struct input_desc, role),
    FT_SUBF(struct input_desc, file, 1, kinfo_t, struct kernels_info),
    U64(struct input_desc, kernels),
    U64(struct input_desc, subtasks),
};
static const struct ft_table input_t = FT_TABLE(input_f);

static const struct ft_field warn_f[] = {
    FT_STRF(struct warning, code),
    FT_STRF(struct warning, file),
    U64(struct warning, line),
    FT_STRF(struct warning, message),
    FT_STRF(struct warning, reason),
    {"args", FT_STR, offsetof(struct warning, args), WARNING_ARGS, 0, 0, NULL,
     0, NULL, 0, 0, 0},
};
static const struct ft_table warn_t = FT_TABLE(warn_f);

/* ---- a rank ------------------------------------------------------------- */

static const struct ft_field step_f[] = {
    FT_NUM(struct step_stat, step, FT_I32, 0, 0),
    I64(struct step_stat, computing_ns),
    I64(struct step_stat, comm_ns),
    I64(struct step_stat, not_overlapped_ns),
    I64(struct step_stat, free_ns),
    I64(struct step_stat, stage_ns),
    I64(struct step_stat, preparing_ns),
    FT_NUM(struct step_stat, outlier, FT_INT, 0, 2),
    FT_DBLF(struct step_stat, ratio),
};
static const struct ft_table step_t = FT_TABLE(step_f);

static const struct ft_field marker_f[] = {
    FT_STRF(struct stage_marker, name),
    ENUM(struct stage_marker, stage, STAGE_COUNT),
    I64(struct stage_marker, host_start_ns),
    I64(struct stage_marker, host_end_ns),
    I64(struct stage_marker, dev_start_ns),
    I64(struct stage_marker, dev_end_ns),
    FT_BOOL(struct stage_marker, by_flows),
    U64(struct stage_marker, flows),
    U64(struct stage_marker, kernels),
};
static const struct ft_table marker_t = FT_TABLE(marker_f);

static const struct ft_field coll_f[] = {
    U64(struct coll_stat, count),      I64(struct coll_stat, elapse_ns),
    I64(struct coll_stat, transit_ns), I64(struct coll_stat, wait_ns),
    I64(struct coll_stat, sync_ns),    I64(struct coll_stat, idle_ns),
};
static const struct ft_table coll_t = FT_TABLE(coll_f);

static const struct ft_field link_f[] = {
    U64(struct transport_stat, ops),
    FT_DBLF(struct transport_stat, size_mb),
    I64(struct transport_stat, time_ns),
};
static const struct ft_table link_t = FT_TABLE(link_f);

static const struct ft_field comm_f[] = {
    SZ(struct comm_result, nsteps),
    U64(struct comm_result, ops),
    FT_SUBF(struct comm_result, kind, COLL_COUNT, coll_t, struct coll_stat),
    FT_SUBF(struct comm_result, link, TR_COUNT, link_t, struct transport_stat),
    I64(struct comm_result, wait_ns),
};
static const struct ft_table comm_t = FT_TABLE(comm_f);

static const struct ft_field db_f[] = {
    FT_STRF(struct rank_db, path),
    FT_BOOL(struct rank_db, used),
    FT_STRF(struct rank_db, schema),
    FT_NUM(struct rank_db, gaps, FT_UINT, 0, (1 << DBGAP_COUNT) - 1),
};
static const struct ft_table db_t = FT_TABLE(db_f);

#define LEVEL(T, M) FT_NUM(T, M, FT_INT, -1, 3)
static const struct ft_field ev_f[] = {
    LEVEL(struct coll_evidence, info_level),
    TRI(struct coll_evidence, info_cpu),
    TRI(struct coll_evidence, info_shapes),
    TRI(struct coll_evidence, info_memory),
    TRI(struct coll_evidence, info_aic),
    FT_NUM(struct coll_evidence, info_warmup, FT_I64, -1, INT64_MAX),
    LEVEL(struct coll_evidence, kd_level),
    TRI(struct coll_evidence, kd_shapes),
    TRI(struct coll_evidence, kd_pmu),
    LEVEL(struct coll_evidence, db_level),
    TRI(struct coll_evidence, db_cpu),
    TRI(struct coll_evidence, db_shapes),
    TRI(struct coll_evidence, db_memory),
    TRI(struct coll_evidence, db_pmu),
    FT_NUM(struct coll_evidence, trace, FT_INT, 0, 2),
    TRI(struct coll_evidence, trace_cpu),
    TRI(struct coll_evidence, trace_shapes),
    TRI(struct coll_evidence, trace_memory),
    LEVEL(struct coll_evidence, trace_level),
    U64(struct coll_evidence, trace_steps),
    FT_NUM(struct coll_evidence, mem_files, FT_UINT, 0, (1 << DM_COUNT) - 1),
    U64(struct coll_evidence, step_ids),
};
static const struct ft_table ev_t = FT_TABLE(ev_f);

static const struct ft_field peak_f[] = {
    I64(struct mem_peak, allocated_b),
    I64(struct mem_peak, reserved_b),
    I64(struct mem_peak, device_b),
    U64(struct mem_peak, samples),
};
static const struct ft_table peak_t = FT_TABLE(peak_f);

static const struct ft_field mem_f[] = {
    FT_BOOL(struct rank_memory, read),
    ENUM(struct rank_memory, source, MEMSRC_COUNT),
    ENUM(struct rank_memory, framework_source, MEMSRC_COUNT),
    ENUM(struct rank_memory, device_source, MEMSRC_COUNT),
    U64(struct rank_memory, samples),
    U64(struct rank_memory, bad),
    U64(struct rank_memory, outside),
    FT_SUBF(struct rank_memory, all, 1, peak_t, struct mem_peak),
    FT_SUBF(struct rank_memory, stage, STAGE_COUNT, peak_t, struct mem_peak),
};
static const struct ft_table mem_t = FT_TABLE(mem_f);

/* rank_result's per-stage times: an unnamed struct, described by offsets
 * within its first element */
#define RS(M)                                                                  \
	(offsetof(struct rank_result, stage[0].M) -                            \
	 offsetof(struct rank_result, stage[0]))
static const struct ft_field rstage_f[] = {
    {"kernel_ns", FT_I64, RS(kernel_ns), 1, -FT_TIME_MAX, FT_TIME_MAX, NULL, 0,
     NULL, 0, 0, 0},
    {"wall_ns", FT_I64, RS(wall_ns), 1, -FT_TIME_MAX, FT_TIME_MAX, NULL, 0,
     NULL, 0, 0, 0},
    {"comm_ns", FT_I64, RS(comm_ns), 1, -FT_TIME_MAX, FT_TIME_MAX, NULL, 0,
     NULL, 0, 0, 0},
    {"exposed_comm_ns", FT_I64, RS(exposed_comm_ns), 1, -FT_TIME_MAX,
     FT_TIME_MAX, NULL, 0, NULL, 0, 0, 0},
    {"cat_ns", FT_I64, RS(cat_ns), CAT_COUNT, -FT_TIME_MAX, FT_TIME_MAX, NULL,
     0, NULL, 0, 0, 0},
    {"fa_part_ns", FT_I64, RS(fa_part_ns), FA_PART_COUNT, -FT_TIME_MAX,
     FT_TIME_MAX, NULL, 0, NULL, 0, 0, 0},
};
static const struct ft_table rstage_t = FT_TABLE(rstage_f);

static const char *const id_sources[] = {"profiler_info", "db",        "folder",
                                         "trace",         "file_name", "order"};
static const char *const kernel_sources[] = {"kernel_details", "db",
                                             "trace_view"};
static const char *const steps_sources[] = {"step_trace_time", "db",
                                            "overlap_analysis"};
static const char *const stage_sources[] = {"signatures", "markers_flows",
                                            "markers_time"};

/* The provenance of a rank: each file read, and when it was captured
 * (app/provenance.c), so that a report merged from summaries names the
 * same files and hashes as the one-process report. */
static const char *const input_whats[] = {
    "kernel_details.csv", "trace_view.json",     "step_trace_time.csv",
    "communication.json", "profiler_info.json",  "db",
    "memory_record.csv",  "operator_memory.csv", "npu_module_mem.csv"};
static const char *const captured_froms[] = {"profiler_info", "folder"};

static const struct ft_field infile_f[] = {
    FT_SYMF(struct input_file, what, input_whats),
    FT_STRF(struct input_file, path),
    U64(struct input_file, size),
    FT_CHARSF(struct input_file, sha256),
};
static const struct ft_table infile_t = FT_TABLE(infile_f);

/* The checks against the profiler's own totals (analysis/totals.h). */
static const struct ft_field ktot_f[] = {
    FT_BOOL(struct kernel_totals, set),
    I64(struct kernel_totals, compute_ns),
    I64(struct kernel_totals, exposed_ns),
    I64(struct kernel_totals, span_ns),
    I64(struct kernel_totals, kernel_ns),
    U64(struct kernel_totals, kernels),
};
static const struct ft_table ktot_t = FT_TABLE(ktot_f);

static const char *const totals_sources[] = {
    "step_trace_time", "db_step_time", "op_statistic", "overlap_analysis"};

static const struct ft_field totals_f[] = {
    FT_BOOL(struct totals_check, checked),
    FT_BOOL(struct totals_check, passed),
    FT_SYMF(struct totals_check, source, totals_sources),
    I64(struct totals_check, ours),
    I64(struct totals_check, theirs),
    I64(struct totals_check, base),
    FT_DBLR(struct totals_check, diff_points, 0, FT_TIME_MAX),
    FT_DBLR(struct totals_check, tolerance, 0, FT_TIME_MAX),
    FT_STRF(struct totals_check, worst_type),
};
static const struct ft_table totals_t = FT_TABLE(totals_f);

static const struct ft_field link_row_f[] = {
    FT_NUM(struct comm_link, src, FT_I32, 0, INT32_MAX),
    FT_NUM(struct comm_link, dst, FT_I32, 0, INT32_MAX),
    FT_CHARSF(struct comm_link, transport),
    FT_DBLF(struct comm_link, size_mb),
    I64(struct comm_link, time_ns),
};
static const struct ft_table link_row_t = FT_TABLE(link_row_f);

static const struct ft_field name_f[] = {
    {NULL, FT_STR, 0, 1, 0, 0, NULL, 0, NULL, 0, 0, 0},
};
static const struct ft_table name_t = FT_TABLE(name_f);

static const struct ft_field rank_f[] = {
    FT_NUM(struct rank_result, id, FT_I32, 0, INT32_MAX),
    FT_SYMF(struct rank_result, id_source, id_sources),
    FT_STRF(struct rank_result, dir),
    {"files", FT_STR, offsetof(struct rank_result, files), RF_COUNT, 0, 0, NULL,
     0, NULL, 0, 0, 0},
    FT_STRF(struct rank_result, torch_npu_version),
    FT_STRF(struct rank_result, cann_version),
    FT_STRF(struct rank_result, profiler_level),
    FT_STRF(struct rank_result, aic_metrics),
    FT_BOOL(struct rank_result, analysed),
    FT_SYMF(struct rank_result, kernel_source, kernel_sources),
    U64(struct rank_result, kernels),
    {"stage", FT_SUB, offsetof(struct rank_result, stage), STAGE_COUNT, 0, 0,
     NULL, 0, &rstage_t, sizeof(((struct rank_result *)0)->stage[0]), 0, 0},
    I64(struct rank_result, compute_ns),
    FT_LISTF(struct rank_result, steps, nsteps, step_t, struct step_stat,
             RESULT_MAX_STEP_ROWS),
    SZ(struct rank_result, steps_total),
    FT_NUM(struct rank_result, free_share_ppm, FT_I64, -1, 1000000),
    FT_SYMF(struct rank_result, steps_source, steps_sources),
    FT_BOOL(struct rank_result, trace_read),
    FT_BOOL(struct rank_result, trace_truncated),
    FT_BOOL(struct rank_result, overlap_found),
    U64(struct rank_result, trace_events),
    U64(struct rank_result, trace_truncated_at),
    I64S(struct rank_result, ov_total, OV_KINDS),
    I64S(struct rank_result, ov_stage, STAGE_COUNT *OV_KINDS),
    FT_LISTF(struct rank_result, markers, nmarkers, marker_t,
             struct stage_marker, RESULT_MAX_MARKERS),
    SZ(struct rank_result, markers_total),
    FT_SYMF(struct rank_result, stage_source, stage_sources),
    FT_BOOL(struct rank_result, comm_read),
    FT_SUBF(struct rank_result, comm, 1, comm_t, struct comm_result),
    FT_SUBF(struct rank_result, db, 1, db_t, struct rank_db),
    FT_SUBF(struct rank_result, ev, 1, ev_t, struct coll_evidence),
    FT_SUBF(struct rank_result, mem, 1, mem_t, struct rank_memory),
    FT_STRF(struct rank_result, chip),
    FT_LISTF(struct rank_result, inputs, ninputs, infile_t, struct input_file,
             64),
    FT_NUM(struct rank_result, captured_s, FT_I64, -1, FT_TIME_MAX),
    FT_SYMF(struct rank_result, captured_from, captured_froms),
    FT_SUBF(struct rank_result, ktot, 1, ktot_t, struct kernel_totals),
    FT_SUBF(struct rank_result, totals, TOT_COUNT, totals_t,
            struct totals_check),
    FT_NUM(struct rank_result, totals_failed, FT_INT, 0, TOT_COUNT),
    FT_LISTF(struct rank_result, unused, nunused, name_t, char *,
             RESULT_MAX_UNUSED),
    SZ(struct rank_result, unused_total),
    FT_LISTF(struct rank_result, links, nlinks, link_row_t, struct comm_link,
             RESULT_MAX_LINKS),
    SZ(struct rank_result, links_total),
};
static const struct ft_table rank_t = FT_TABLE(rank_f);

/* ---- the lead rank's iterations ---------------------------------------- */

static const struct ft_field iter_f[] = {
    FT_NUM(struct iteration, call, FT_UINT, 0, 0),
    FT_NUM(struct iteration, index, FT_UINT, 0, 0),
    FT_NUM(struct iteration, step, FT_I32, 0, 0),
    I64(struct iteration, start_ns),
    I64(struct iteration, dur_ns),
    U64(struct iteration, kernels),
    U64(struct iteration, attention),
    U64(struct iteration, matmul),
    U64(struct iteration, blocks),
    FT_NUM(struct iteration, hit, FT_UCH, 0, 2),
    FT_NUM(struct iteration, outlier, FT_UCH, 0, 2),
};
static const struct ft_table iter_t = FT_TABLE(iter_f);

static const struct ft_field cache_f[] = {
    ENUM(struct cache_seen, kind, 3), U64(struct cache_seen, hits),
    U64(struct cache_seen, period),   FT_BOOL(struct cache_seen, regular),
    I64(struct cache_seen, saved_ns),
};
static const struct ft_table cache_t = FT_TABLE(cache_f);

static const struct ft_field iters_f[] = {
    FT_BOOL(struct iter_summary, found),
    U64(struct iter_summary, calls),
    FT_LISTF(struct iter_summary, v, n, iter_t, struct iteration,
             RESULT_MAX_ITERS),
    U64(struct iter_summary, total),
    U64(struct iter_summary, full),
    I64(struct iter_summary, loop_ns),
    I64(struct iter_summary, median_ns),
    U64(struct iter_summary, median_kernels),
    U64(struct iter_summary, blocks),
    U64(struct iter_summary, head),
    FT_DBLR(struct iter_summary, outlier_factor, 0, 100), /* 0: none */
    U64(struct iter_summary, outliers),
    FT_SUBF(struct iter_summary, cache, 1, cache_t, struct cache_seen),
    U64(struct iter_summary, suggest_period),
    U64(struct iter_summary, would_skip),
};
static const struct ft_table iters_t = FT_TABLE(iters_f);

static const struct ft_field workload_f[] = {
    ENUM(struct workload, kind, WORKLOAD_KINDS),
    ENUM(struct workload, part, 3),
    FT_BOOL(struct workload, one_stage),
    FT_BOOL(struct workload, markers),
    U64(struct workload, loop_iterations),
    U64(struct workload, loop_blocks),
    U64(struct workload, loop_calls),
    U64(struct workload, training_kernels),
    U64(struct workload, llm_kernels),
    U64(struct workload, dropout_kernels),
    U64(struct workload, vae_kernels),
    U64(struct workload, dit_kernels),
    U64(struct workload, kernels),
    FT_BOOL(struct workload, stage_loop),
};
static const struct ft_table workload_t = FT_TABLE(workload_f);

/* ---- the result ---------------------------------------------------------- */

static const struct ft_field result_f[] = {
    FT_STRF(struct result, rank_dir),
    FT_LISTF(struct result, inputs, ninputs, input_t, struct input_desc, 64),
    U64(struct result, kernels),
    I64(struct result, span_start_ns),
    I64(struct result, span_end_ns),
    FT_LISTF(struct result, steps, nsteps, step_id_t, int32_t,
             RESULT_MAX_STEP_IDS),
    SZ(struct result, steps_total),
    FT_SUBF(struct result, stages, STAGE_COUNT, stage_t, struct stage_result),
    FT_LISTF(struct result, segs, nsegs, seg_t, struct segment,
             RESULT_MAX_SEGMENTS),
    SZ(struct result, segs_total),
    FT_BOOL(struct result, text_encoder_detected),
    FT_BOOL(struct result, loop_found),
    FT_BOOL(struct result, denoiser_unet),
    FT_NUM(struct result, seg_window, FT_INT, 0, 0),
    FT_NUM(struct result, seg_min_segment, FT_INT, 0, 0),
    FT_STRF(struct result, stage_method),
    FT_LISTF(struct result, unmatched, nunmatched, type_t, struct type_stat,
             BREAKDOWN_TOP),
    FT_LISTF(struct result, warnings, nwarnings, warn_t, struct warning,
             RANKSUM_MAX_WARNINGS),
    FT_LISTF(struct result, ranks, nranks, rank_t, struct rank_result, 1),
    FT_SUBF(struct result, iters, 1, iters_t, struct iter_summary),
    FT_SUBF(struct result, workload, 1, workload_t, struct workload),
};
static const struct ft_table result_t = FT_TABLE(result_f);

/* ---- the summary --------------------------------------------------------- */

static const char *const note_codes[] = {"duplicate_rank", "bad_profiler_info",
                                         "folder_loop", "link_outside"};

static const struct ft_field note_f[] = {
    FT_SYMF(struct disc_note, code, note_codes),
    {"args", FT_STR, offsetof(struct disc_note, args), 2, 0, 0, NULL, 0, NULL,
     0, 0, 0},
};
static const struct ft_table note_t = FT_TABLE(note_f);

static const struct ft_field summary_f[] = {
    FT_STRF(struct ranksum, tool_version),
    FT_STRF(struct ranksum, rules),
    FT_LISTF(struct ranksum, notes, nnotes, note_t, struct disc_note, 64),
    FT_SUBF(struct ranksum, part, 1, result_t, struct result),
};
const struct ft_table ranksum_table = FT_TABLE(summary_f);

void ranksum_release(struct ranksum *s)
{
	size_t i;

	free(s->tool_version);
	free(s->rules);
	for (i = 0; i < s->nnotes; i++) {
		free(s->notes[i].args[0]);
		free(s->notes[i].args[1]);
	}
	free(s->notes);
	result_release(&s->part);
	memset(s, 0, sizeof(*s));
	result_init(&s->part);
}

/* What the reader cannot check by the table. */
static int whole(const char *name, struct ranksum *s, struct err *e)
{
	if (s->part.nranks != 1)
		return err_set(e, ERR_INPUT,
		               "%s: result.ranks: %zu ranks, a summary holds "
		               "one",
		               name, s->part.nranks);
	if (!s->rules || !s->part.ranks[0].dir)
		return err_set(e, ERR_INPUT, "%s: %s: null, expected a string",
		               name,
		               !s->rules ? "rules" : "result.ranks.0.dir");
	return 0;
}

int ranksum_read_text(const char *name, const char *text, size_t len,
                      struct ranksum *s, struct err *e)
{
	memset(s, 0, sizeof(*s));
	result_init(&s->part);
	if (sumread_text(name, text, len, RANKSUM_VERSION, &ranksum_table, s,
	                 e))
		return -1;
	return whole(name, s, e);
}

int ranksum_read(const char *path, struct ranksum *s, struct err *e)
{
	memset(s, 0, sizeof(*s));
	result_init(&s->part);
	if (sumread_file(path, RANKSUM_MAX_BYTES, RANKSUM_VERSION,
	                 &ranksum_table, s, e))
		return -1;
	return whole(path, s, e);
}
