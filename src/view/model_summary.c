/* View model: the executive summary (view/model_summary.h). */
#include "view/model_summary.h"

#include <inttypes.h>
#include <stdio.h>

#include "analysis/e2e.h"
#include "analysis/summary.h"
#include "analysis/totals.h"
#include "view/model_gain.h"
#include "util/banned.h"
#include "util/numfmt.h"

/* End-to-end device time per profiler step, or of the whole profile;
 * the note gives the steps and, where the denoising loops told the
 * pipeline calls apart, their number and the span per call. */
static void e2e_time(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct e2e_time *e = &c->r->e2e;
	const char *names[] = {"steps", "span", "calls", "per_call"};
	const char *values[4];
	char steps[24], calls[24];
	struct strbuf span = STRBUF_INIT, per_call = STRBUF_INIT;
	uint64_t ncalls = c->r->iters.found ? c->r->iters.calls : 0;

	tmpl_set(v, "sum_known", e->known ? "1" : "");
	model_set_ns(v, "sum_time_ns", e->per_step_ns);
	tmpl_set(v, "sum_per_step", e->steps ? "1" : "");
	if (!e->known || (!e->steps && !ncalls)) {
		tmpl_set(v, "sum_time_note", "");
		return;
	}
	snprintf(steps, sizeof(steps), "%" PRIu64, e->steps);
	snprintf(calls, sizeof(calls), "%" PRIu64, ncalls);
	numfmt_duration(&span, e->span_ns);
	if (ncalls)
		numfmt_duration(&per_call, e2e_per_call_ns(c->r));
	values[0] = steps;
	values[1] = span.buf;
	values[2] = calls;
	values[3] = per_call.buf;
	model_set_msg(c, v, "sum_time_note",
	              !ncalls    ? "summary_time_note"
	              : e->steps ? "summary_time_note_calls"
	                         : "summary_calls_note",
	              names, values, 4);
	strbuf_release(&span);
	strbuf_release(&per_call);
}

/* The stage split: one bar of the stages' share of e2e busy time, each
 * stage's time per profiler step, as the headline beside it (its label
 * says so: sum_split_label). */
static void stage_bar(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct e2e_time *e = &c->r->e2e;
	int s;

	tmpl_set(v, "sum_split_label",
	         model_t(c, e->steps ? "summary_split_per_step"
	                             : "summary_split_whole"));
	tmpl_define_loop(v, "sum_bar");
	for (s = 0; s < STAGE_COUNT && e->known; s++) {
		struct tmpl_vars *row;
		double share = e2e_share(c->r, e->stage_ns[s]);
		if (e->stage_ns[s] <= 0)
			continue;
		row = tmpl_add_row(v, "sum_bar");
		tmpl_set(row, "id", stage_names[s]);
		tmpl_set(row, "label",
		         c->r->workload.one_stage
		             ? model_stage_label(c, s)
		             : model_tk(c, "summary_stage_", stage_names[s]));
		model_set_ns(row, "ns", e->stage_step_ns[s]);
		tmpl_setf(row, "share", "%.3f", share);
		tmpl_setf(row, "width", "%.2f", share);
	}
}

static void findings(struct model_ctx *c, struct tmpl_vars *v)
{
	size_t n = summary_findings(c->r);
	const char *names[] = {"n"};
	const char *values[1];
	char num[24];
	int top = summary_top(c->r);

	snprintf(num, sizeof(num), "%zu", n);
	values[0] = num;
	tmpl_set(v, "sum_findings_n", num);
	model_set_msg(c, v, "sum_findings",
	              n == 0   ? "summary_findings_none"
	              : n == 1 ? "summary_findings_one"
	                       : "summary_findings_many",
	              names, values, 1);
	tmpl_set(v, "sum_top", top >= 0 ? "1" : "");
	tmpl_set(v, "top_gain", "");
	if (top < 0)
		return;
	{
		const struct verdict *vd = &c->r->verdicts[top];
		struct tmpl_vars *t = tmpl_vars_new();
		model_verdict_text(c, t, vd);
		tmpl_set(v, "top_title", tmpl_get(t, "title"));
		tmpl_set(v, "top_rec", tmpl_get(t, "recommendation"));
		tmpl_vars_free(t);
		tmpl_set(v, "top_id", vd->id);
		tmpl_setf(v, "top_value", "%.3f", vd->value);
		tmpl_setf(v, "top_threshold", "%.3f", vd->threshold);
		strbuf_reset(&c->sb);
		model_gain_short(c, vd->gain, &c->sb);
		tmpl_set(v, "top_gain", c->sb.buf);
	}
}

static void trust(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct result *r = c->r;
	const struct rank_collection *col = &r->collection.sum;
	enum summary_trust t = summary_trust(r);
	const char *names[] = {"level", "timed", "warmup", "warnings", "n"};
	const char *values[4];
	char timed[24], warmup[24], warns[64];

	tmpl_set(v, "sum_trust", summary_trust_names[t]);
	tmpl_set(v, "sum_trust_label",
	         model_tk(c, "summary_trust_", summary_trust_names[t]));
	snprintf(timed, sizeof(timed), "%" PRIu64, col->timed);
	snprintf(warmup, sizeof(warmup), "%" PRIu64, summary_warmup(r));
	snprintf(warns, sizeof(warns), "%zu", r->nwarnings);
	values[0] = warns;
	strbuf_reset(&c->sb);
	i18n_format(c->o->cat,
	            r->nwarnings == 1 ? "summary_warnings_one"
	                              : "summary_warnings_many",
	            &c->sb, names + 4, values, 1);
	snprintf(warns, sizeof(warns), "%s", c->sb.buf);
	values[0] = col->level >= LEVEL_NONE && col->level <= LEVEL_2
	                ? coll_level_names[col->level]
	                : model_t(c, "summary_level_unknown");
	values[1] = timed;
	values[2] = warmup;
	values[3] = warns;
	model_set_msg(c, v, "sum_trust_detail",
	              col->steps ? "summary_trust_detail"
	                         : "summary_trust_nosteps",
	              names, values, 4);
	/* the check against the profiler's own totals, passed or not */
	if (totals_checked(r)) {
		strbuf_reset(&c->sb);
		strbuf_adds(&c->sb, tmpl_get(v, "sum_trust_detail"));
		strbuf_adds(&c->sb,
		            model_t(c, totals_failed(r) ? "summary_totals_bad"
		                                        : "summary_totals_ok"));
		tmpl_set(v, "sum_trust_detail", c->sb.buf);
	}
}

/* The kind's name: partial captures by the part they hold. */
static const char *kind_label(struct model_ctx *c, const struct workload *w)
{
	if (w->kind == WORKLOAD_PARTIAL)
		return model_tk(c, "workload_partial_",
		                workload_part_names[w->part]);
	return model_tk(c, "workload_", workload_kind_names[w->kind]);
}

/* The evidence: the loop (or none), then what names the kind. */
static void evidence(struct model_ctx *c, const struct workload *w,
                     struct strbuf *out)
{
	const char *names[] = {"iterations", "blocks", "calls", "n", "total"};
	const char *values[5];
	char num[5][24];
	const char *key = NULL;
	size_t i;

	snprintf(num[0], sizeof(num[0]), "%" PRIu64, w->loop_iterations);
	snprintf(num[1], sizeof(num[1]), "%" PRIu64, w->loop_blocks);
	snprintf(num[2], sizeof(num[2]), "%" PRIu64, w->loop_calls);
	snprintf(num[3], sizeof(num[3]), "%" PRIu64,
	         w->kind == WORKLOAD_TRAINING    ? w->training_kernels
	         : w->kind == WORKLOAD_LLM       ? w->llm_kernels
	         : w->kind == WORKLOAD_DIFFUSION ? w->dit_kernels
	                                         : w->vae_kernels);
	snprintf(num[4], sizeof(num[4]), "%" PRIu64,
	         w->kind == WORKLOAD_DIFFUSION ? w->vae_kernels : w->kernels);
	for (i = 0; i < 5; i++)
		values[i] = num[i];
	i18n_format(c->o->cat,
	            w->markers      ? "workload_ev_markers"
	            : w->loop_calls ? "workload_ev_loop"
	            : w->stage_loop ? "workload_ev_stage_loop"
	                            : "workload_ev_noloop",
	            out, names, values, 5);
	if (w->kind == WORKLOAD_TRAINING &&
	    w->training_kernels == w->dropout_kernels)
		key = "workload_ev_dropout";
	else if (w->kind == WORKLOAD_TRAINING)
		key = "workload_ev_training";
	else if (w->kind == WORKLOAD_LLM)
		key = "workload_ev_llm";
	else if (w->part == WORKLOAD_PART_VAE_ONLY)
		key = "workload_ev_vae_only";
	else if (w->part == WORKLOAD_PART_LOOP_ONLY)
		key = "workload_ev_loop_only";
	else if (w->kind == WORKLOAD_DIFFUSION && !w->loop_calls &&
	         !w->stage_loop && !w->markers)
		key = "workload_ev_once";
	if (!key)
		return;
	strbuf_adds(out, model_t(c, "workload_ev_sep"));
	i18n_format(c->o->cat, key, out, names, values, 5);
}

/* What the profile is, first: its kind, the evidence, and for a profile
 * of one stage what that means for the findings. */
static void workload(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct workload *w = &c->r->workload;

	tmpl_set(v, "sum_workload_kind", workload_kind_names[w->kind]);
	tmpl_set(v, "sum_workload", kind_label(c, w));
	strbuf_reset(&c->sb);
	evidence(c, w, &c->sb);
	tmpl_set(v, "sum_workload_evidence", c->sb.buf);
	tmpl_set(v, "sum_workload_note",
	         w->one_stage ? model_t(c, "workload_one_stage_note")
	         : w->kind == WORKLOAD_PARTIAL
	             ? model_t(c, "workload_partial_note")
	             : "");
}

void model_summary(struct model_ctx *c, struct tmpl_vars *v)
{
	workload(c, v);
	e2e_time(c, v);
	stage_bar(c, v);
	findings(c, v);
	trust(c, v);
}
