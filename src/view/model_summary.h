/* The view model's executive summary (internal to view/model.c): the box
 * at the top of every report.
 *
 * Variables set:
 *   sum_known ("1": end-to-end time known), sum_time_ns (per profiler
 *     step, or the whole span without steps), sum_per_step ("1": per
 *     step), sum_time_note ("7 steps, 1.20 s in all" or empty);
 *   loop sum_bar (stages with time, in stage order): id, label, ns, share
 *     (percent of e2e busy time), width (the same, for CSS);
 *   sum_findings_n, sum_findings ("2 findings" / "no findings");
 *   sum_top ("1" when a finding fired), top_id, top_title, top_value,
 *     top_threshold, top_rec, top_gain (its expected gain end to end,
 *     view/model_gain.h, or empty when the rules give it none);
 *   sum_trust (good, fair, low), sum_trust_label, sum_trust_detail
 *     ("Level1, 5 timed steps after 2 warm-up, 0 warnings");
 *   loop sum_warnings (set by view/model.c with the warnings): text, the
 *     first warning that undermines the figures (too few steps, none
 *     told apart), shown beside the trust line; empty without one. */
#ifndef SDPERF_MODEL_SUMMARY_H
#define SDPERF_MODEL_SUMMARY_H

#include "tmpl/template.h"
#include "view/model_ctx.h"

void model_summary(struct model_ctx *c, struct tmpl_vars *v);

#endif
