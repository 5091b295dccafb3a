/* The view model's multi-file, multi-rank sections (internal to
 * view/model.c): the rank inputs, the per-rank table and chart, the steps
 * of step_trace_time.csv, the collectives of communication.json, the
 * Overlap Analysis cross-check and the stage boundaries.
 *
 * Variables set (all numbers raw: ns, percents with three decimals; every
 * text from the catalogue or the profile, escaped by the templates):
 *   ranks, multi_rank ("1" when more than one rank);
 *   summaries (rank summaries merged, only when there were some),
 *   method_summaries (then: the ranks were analysed by sdperf summarize);
 *   what a figure is (with several ranks: card-time summed over the
 *     cards, or wall time on the lead card): span_note (after the
 *     header's device timeline: " (lead card, rank 0)"), col_kernel_time_st and
 * col_wall_time_st (the stage table's headers), timeline_title,
 * stages_cards_note and rank_dirs_text ("4 rank folders, ..."; both "" for one
 * rank); loop rank_inputs: id, label ("Rank 3"), source, dir, files (loop:
 *     name, state, path),
 *     versions, level; loop not_run: text;
 *   loop rank_rows (multi_rank only): id, analysed, dit_ns, vae_ns,
 *     fa_share, matmul_share, vector_share, comm_share, exposed_share,
 *     wait_ns (empty without communication.json), compute_ns, slowest,
 *     median, mark, cat_<Category>_ns; rank_chart (SVG), ranks_how,
 *     ranks_slowest_median;
 *   has_steps (some rank has steps), steps_collapse ("1" when more than
 *     one rank has steps); loop step_tables, one row per rank with steps in
 *     rank order: id, label ("Rank 3"), open ("1" for the lead rank, or the
 *     first rank with steps when the lead has none), free_share_text,
 *     has_preparing, steps_chart (SVG), loop step_rows: step, label,
 *     computing_ns, comm_ns, not_overlapped_ns, free_ns, stage_ns,
 *     preparing_ns (unset when absent), flag, flag_label;
 *     loop step_ranks (multi_rank only): id, steps, mean_ns, free_share,
 *     warmup, outliers;
 *   has_collectives, collectives_intro; loops collectives (kind, label,
 *     count, elapse_ns, transit_ns, wait_ns, wait_ratio, sync_ns) and
 *     transports (name, ops, size_mb, time_ns, bandwidth), transports_note
 *     (what the SDMA row is, "" without one);
 *   has_overlap; loops overlap_rows (rank, stage, stage_label, wall_ns,
 *     kernel_share, oa_share) and overlap_totals (rank, computing_ns,
 *     comm_ns, not_overlapped_ns, free_ns);
 *   loop boundaries (rank, method); loop markers (rank, name, stage,
 *     stage_label, host_start_ns, host_end_ns, dev_start_ns, dev_end_ns,
 *     method, flows, kernels). */
#ifndef SDPERF_MODEL_RANKS_H
#define SDPERF_MODEL_RANKS_H

#include "tmpl/template.h"
#include "view/model_ctx.h"

/* Sets every variable listed above into v. */
void model_ranks(struct model_ctx *c, struct tmpl_vars *v);

#endif
