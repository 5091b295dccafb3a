/* What app/rank.c shares with the readers of a whole rank from one file,
 * app/rank_db.c (the SQLite export) and app/rank_trace.c (a trace read
 * alone): where stages come from, the analysis of a kernel table, and
 * what of it a rank's result keeps. Internal to app/. */
#ifndef SDPERF_APP_RANK_INT_H
#define SDPERF_APP_RANK_INT_H

#include <stddef.h>
#include <stdint.h>

struct commstats;
struct disc_rank;
struct rank_opts;
struct db;
struct kernel_table;
struct rank_result;
struct result;
struct rules;
struct stage_override;
struct trace_marker_rule;
struct trace_summary;
struct err;

/* Where the kernels, stage markers and the Overlap Analysis come from. */
struct stage_src {
	const char *kernels; /* the kernels' file, for analysis errors */
	const char *trace;   /* trace_view.json, or NULL */
	struct db *db;       /* or the SQLite export, or NULL */
	uint64_t skipped;    /* db: OVERLAP_ANALYSIS rows of no known type */
};

/* The rules' stage markers as the trace readers match them (an array of
 * ru->nmarkers, never NULL); free with free(). */
struct trace_marker_rule *rank_marker_rules(const struct rules *ru);
/* The first RESULT_MAX_MARKERS markers of ts (by host start) into r's
 * first rank for the report; the others were analysed and are counted. */
void rank_keep_markers(const struct trace_summary *ts,
                       const struct stage_override *ov, struct result *r);
/* What the trace (or db) scan of ts found into rr: events, a cut, the
 * Overlap Analysis totals and per stage; trace: 1 when a trace was read. */
void rank_keep_overlap(const struct trace_summary *ts, int trace,
                       struct rank_result *rr);
/* Moves what the analysis computed from a into r (whose inputs, ranks and
 * reader warnings stay), and a's warnings after r's. */
void rank_take_analysis(struct result *r, struct result *a);
/* The markers' device ranges as overrides, charged to the budget: NULL
 * with e set naming path when it refuses; give them back with
 * rank_overrides_free. */
struct stage_override *
rank_overrides(const char *path, const struct trace_summary *ts, struct err *e);
void rank_overrides_free(struct stage_override *ov, size_t n);
/* Puts "PATH: " before an analysis error that names no file. */
void rank_in_file(struct err *e, const char *path);
/* Analyses kt into r: by kernel signatures, then, when the trace (or the
 * db) of src has user stage markers, again with the markers in charge.
 * 0, or -1 with e set. */
int rank_analyse_src(struct stage_src *src, struct kernel_table *kt,
                     const struct rules *ru, struct result *r, struct err *e);
/* The step rows of r's first rank, from any source (path; source: its
 * steps_source, static): every row flagged (warm-up, outliers) and counted
 * in the device-idle share, then the list cut to RESULT_MAX_STEP_ROWS and
 * the rows' charge (charged, by their reader) given back. */
void rank_keep_steps(struct result *r, const char *path, const char *source,
                     const struct rules *ru, uint64_t charged);
/* communication.json's sums (or the db's) into rr. */
void rank_keep_comm(const struct commstats *cs, struct rank_result *rr);
/* rr's figures (kernels, step ids, per-stage times) from r's analysis. */
void rank_summarise(const struct result *r, struct rank_result *rr);
/* Compares the two measures of exposed communication per stage (kernel
 * intervals, the Overlap Analysis) and warns in r where they disagree. */
void rank_cross_check(struct result *r, struct rank_result *rr,
                      const struct rules *ru);
/* op_statistic.csv at path (NULL: none) against kt's kernels, into r's
 * first rank (analysis/totals.h); a file it cannot read is a warning. */
void rank_check_opstat(const char *path, const struct kernel_table *kt,
                       const struct rules *ru, struct result *r);
/* A warning in r when rr's trace_view.json ends early. */
void rank_warn_truncated(struct result *r, const struct rank_result *rr);
/* Cuts r's segment list to RESULT_MAX_SEGMENTS for the report, with a
 * segments_unlisted warning (the analysis needed all of them), and gives
 * back what r has charged to the memory budget. */
void rank_keep_listed(struct result *r);

/* A whole rank from its db (dr->files[DF_DB]) or its trace alone. */
int rank_from_db(const struct disc_rank *dr, const struct rules *ru,
                 const struct rank_opts *o, struct result *r, struct err *e);
int rank_from_trace(const struct disc_rank *dr, const struct rules *ru,
                    struct result *r, struct err *e);

#endif
