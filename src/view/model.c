/* View model: result -> template variables. One function per report
 * section, in the order the report shows them. */
#include "view/model.h"
#include "view/model_collect.h"
#include "view/model_iters.h"
#include "view/model_memory.h"
#include "view/model_prov.h"
#include "view/model_ranks.h"
#include "view/model_gain.h"
#include "view/model_summary.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view/svg.h"
#include "util/checked.h"
#include "util/banned.h"
#include "util/numfmt.h"
#include "util/xalloc.h"

/* CSS classes giving each category and stage its colour (report.css) */
static const char *const cat_css[CAT_COUNT] = {
    "c-FA", "c-MatMul", "c-Conv", "c-Vector", "c-Comm", "c-Other"};
static const char *const stage_css[STAGE_COUNT] = {"s-dit", "s-vae",
                                                   "s-text_encoder", "s-other"};

static int64_t total_kernel_ns(const struct result *r)
{
	int64_t t = 0;
	int s;
	for (s = 0; s < STAGE_COUNT; s++)
		checked_accumulate(&t, r->stages[s].kernel_ns);
	return t;
}

/* The rules' file, or the catalogue's name of the built-in rules (the
 * result says "built-in" in every language). */
static const char *rules_name(const struct model_ctx *c)
{
	const char *s = c->r->rules_source;
	return !s || !strcmp(s, "built-in") ? model_t(c, "rules_builtin") : s;
}

/* "what (n)" for each of the n names whose count is not 0, worded by
 * catalogue key `item` ({n}, {what}) and joined by "redacted_sep", into
 * list. */
static void counted_list(struct model_ctx *c, const char *item,
                         const char *const *what, const uint64_t *count,
                         size_t n, struct strbuf *list)
{
	const char *names[] = {"n", "what"};
	const char *values[2];
	struct strbuf one = STRBUF_INIT;
	char num[24];
	size_t k;

	for (k = 0; k < n; k++) {
		if (!count[k])
			continue;
		snprintf(num, sizeof(num), "%" PRIu64, count[k]);
		values[0] = num;
		values[1] = what[k];
		if (list->len)
			strbuf_adds(list, model_t(c, "redacted_sep"));
		strbuf_reset(&one);
		i18n_format(c->o->cat, item, &one, names, values, 2);
		strbuf_addbuf(list, &one);
	}
	strbuf_release(&one);
}

/* The redaction line's counts: how many distinct originals of each class
 * this profile held ("redacted_found": 2 host names, 1 IP address...,
 * or "redacted_found_none"), and the metadata fields dropped as they could
 * not be made safe ("redacted_dropped": "redacted_field" each:
 * torch_npu_version (2), ...), appended to out. */
static void redaction_found(struct model_ctx *c, const struct redaction *rd,
                            struct strbuf *out)
{
	const char *what[] = {"what"};
	const char *classes[REDACT_CLASSES];
	const char *values[1];
	struct strbuf list = STRBUF_INIT;
	int k;

	for (k = 0; k < REDACT_CLASSES; k++)
		classes[k] =
		    model_tk(c, "redact_class_", redact_class_names[k]);
	counted_list(c, "redacted_count", classes, rd->replaced, REDACT_CLASSES,
	             &list);
	values[0] = list.buf;
	i18n_format(c->o->cat,
	            list.len ? "redacted_found" : "redacted_found_none", out,
	            what, values, 1);
	strbuf_reset(&list);
	counted_list(c, "redacted_field", redact_field_names, rd->dropped,
	             REDACT_FIELDS, &list);
	if (list.len) {
		values[0] = list.buf;
		i18n_format(c->o->cat, "redacted_dropped", out, what, values,
		            1);
	}
	strbuf_release(&list);
}

/* The header's line saying the report was redacted (--redact) and what
 * was replaced: redacted and redaction_text, "" when it was not. The
 * classes listed are those --redact covers, found in this profile or
 * not: the reader learns what cannot be in it. */
static void redaction(struct model_ctx *c, struct tmpl_vars *v)
{
	static const enum redact_class listed[] = {
	    REDACT_HOST,        REDACT_USER,    REDACT_PATH,
	    REDACT_RANK_FOLDER, REDACT_ADDRESS, REDACT_GROUP};
	const struct redaction *rd = &c->r->redaction;
	const char *names[] = {"classes", "kernels"};
	const char *values[2];
	struct strbuf classes = STRBUF_INIT;
	size_t i;

	tmpl_set(v, "redacted", rd->on ? "1" : "");
	if (!rd->on) {
		tmpl_set(v, "redaction_text", "");
		return;
	}
	for (i = 0; i < sizeof(listed) / sizeof(listed[0]); i++) {
		if (i)
			strbuf_adds(&classes, model_t(c, "redacted_sep"));
		strbuf_adds(&classes, model_tk(c, "redact_class_",
		                               redact_class_names[listed[i]]));
	}
	values[0] = classes.buf;
	values[1] = model_t(c, rd->kernels ? "redacted_kernels_replaced"
	                                   : "redacted_kernels_kept");
	strbuf_reset(&c->sb);
	i18n_format(c->o->cat, "redacted_value", &c->sb, names, values, 2);
	strbuf_reset(&classes);
	strbuf_addbuf(&classes, &c->sb);
	redaction_found(c, rd, &classes);
	tmpl_set(v, "redaction_text", classes.buf);
	strbuf_release(&classes);
}

static void header(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct result *r = c->r;
	const char *names[] = {"date", "version"};
	const char *values[] = {c->o->date, c->o->version};

	/* a profile that is not diffusion inference is not titled as one */
	model_set_common(c, v,
	                 r->workload.one_stage ? "title_default_other"
	                                       : "title_default");
	model_set_msg(c, v, "generated", "generated", names, values, 2);
	tmpl_set(v, "profile", r->profile_path ? r->profile_path : "");
	tmpl_set(v, "rank_dir", r->rank_dir ? r->rank_dir : "");
	model_set_u64(v, "kernels", r->kernels);
	model_set_u64(v, "steps", r->steps_total);
	model_set_ns(v, "span_ns",
	             checked_sub_sat(r->span_end_ns, r->span_start_ns));
	tmpl_set(v, "rules_source", rules_name(c));
	names[0] = "version";
	model_set_msg(c, v, "footer", "footer", names, values + 1, 1);
	redaction(c, v);
	model_provenance(c, v);
}

/* ---- verdicts ---------------------------------------------------------- */

/* A feature doc's link text: the feature's name in the report's language
 * (doc_name_<file>), the file name only for a doc the catalogue does not
 * know (a rules file may name any); "file" keeps the file name. */
static void doc_name(struct model_ctx *c, struct tmpl_vars *row,
                     const char *file)
{
	strbuf_reset(&c->sb);
	strbuf_addf(&c->sb, "doc_name_%s", file);
	tmpl_set(row, "name",
	         i18n_find(c->o->cat, c->sb.buf) ? model_t(c, c->sb.buf)
	                                         : file);
	tmpl_set(row, "file", file);
}

static void verdict_docs(struct model_ctx *c, struct tmpl_vars *row,
                         const struct verdict *vd)
{
	size_t d;

	/* defined even when empty: the cards' TMPL_LOOP docs would otherwise
	 * find the report's own list of documents */
	tmpl_define_loop(row, "docs");
	for (d = 0; d < vd->ndocs; d++) {
		struct tmpl_vars *doc = tmpl_add_row(row, "docs");
		char *url = model_doc_url(c->o->docs_base, i18n_lang(c->o->cat),
		                          vd->docs[d]);
		doc_name(c, doc, vd->docs[d]);
		tmpl_set(doc, "url", url);
		free(url);
	}
}

/* Why a verdict has no value: its own message when the catalogue has one
 * (host_bound: no step_trace_time.csv), else "no <stage> kernels". */
static void verdict_na(struct model_ctx *c, struct tmpl_vars *row,
                       const struct verdict *vd)
{
	const char *names[] = {"stage"};
	const char *values[1];
	char key[160];

	/* a specific reason first ("verdict_na_step_totals") */
	snprintf(key, sizeof(key), "verdict_na_%s",
	         vd->na_code ? vd->na_code : "");
	if (vd->na_code && i18n_find(c->o->cat, key)) {
		tmpl_set(row, "no_stage", model_t(c, key));
		return;
	}
	snprintf(key, sizeof(key), "verdict_%s_na", vd->id);
	if (i18n_find(c->o->cat, key)) {
		tmpl_set(row, "no_stage", model_t(c, key));
		return;
	}
	values[0] = model_stage_label(c, vd->stage);
	model_set_msg(c, row, "no_stage", "verdict_no_stage", names, values, 1);
}

/* How a multi-rank value was aggregated: "worst: rank 3" (how), empty for
 * a single rank. */
static void verdict_how(struct model_ctx *c, struct tmpl_vars *row,
                        const struct verdict *vd)
{
	const char *names[] = {"rank"};
	const char *values[1];
	char rank[24], key[64];

	tmpl_set(row, "stage_label", model_stage_label(c, vd->stage));
	if (!vd->how || !vd->applicable) {
		tmpl_set(row, "how", "");
		return;
	}
	snprintf(rank, sizeof(rank), "%d", vd->rank);
	values[0] = rank;
	snprintf(key, sizeof(key), "verdict_how_%s", vd->how);
	if (i18n_find(c->o->cat, key))
		model_set_msg(c, row, "how", key, names, values, 1);
	else
		tmpl_set(row, "how", vd->how);
}

static void verdicts(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct result *r = c->r;
	size_t i, fired = 0;
	const char *names[] = {"stage"};
	const char *values[1];

	/* a profile of one stage: the rules are applied to it whole */
	values[0] = model_stage_label(c, r->workload.one_stage ? STAGE_OTHER
	                                                       : STAGE_DIT);
	model_set_msg(c, v, "verdicts_intro", "sec_verdicts_intro", names,
	              values, 1);
	/* fired verdicts first (r->verdicts: by expected gain), then the
	 * others in rules order */
	for (i = 0; i < 2 * r->nverdicts; i++) {
		const struct verdict *vd = &r->verdicts[i % r->nverdicts];
		struct tmpl_vars *row;
		if ((i < r->nverdicts) != (vd->fired != 0))
			continue;
		row = tmpl_add_row(v, "verdicts");
		const char *state = !vd->applicable ? "na"
		                    : vd->fired     ? "fired"
		                                    : "ok";
		tmpl_set(row, "id", vd->id);
		model_verdict_text(c, row, vd);
		tmpl_set(row, "state", state);
		tmpl_set(row, "state_label", model_tk(c, "verdict_", state));
		tmpl_set(row, "fired", vd->fired ? "1" : "");
		tmpl_set(row, "applicable", vd->applicable ? "1" : "");
		tmpl_setf(row, "value", "%.3f", vd->value);
		tmpl_setf(row, "threshold", "%.3f", vd->threshold);
		verdict_na(c, row, vd);
		verdict_how(c, row, vd);
		verdict_docs(c, row, vd);
		model_gain(c, row, vd);
		tmpl_setf(row, "order", "%d", vd->order);
		fired += vd->fired;
	}
	tmpl_set(v, "any_fired", fired ? "1" : "");
	tmpl_set(v, "any_passing", fired < r->nverdicts ? "1" : "");
}

/* ---- stages ------------------------------------------------------------ */

/* One "categories" row of category k (sub empty) or, when part >= 0, of
 * that part of FA (sub "1"): the tables show it indented under FA. */
static void category_row(struct model_ctx *c, struct tmpl_vars *row,
                         const struct stage_result *st, int k, int part)
{
	struct tmpl_vars *cr = tmpl_add_row(row, "categories");
	const struct cat_stat *cs = part < 0 ? &st->cat[k] : &st->fa_part[part];
	const char *name = part < 0 ? category_names[k] : fa_part_names[part];
	const char *prefix = part < 0 ? "cat_" : "fa_part_";

	tmpl_set(cr, "cat", category_names[k]);
	tmpl_set(cr, "sub", part < 0 ? "" : "1");
	tmpl_set(cr, "label", model_tk(c, prefix, name));
	strbuf_reset(&c->sb);
	strbuf_addf(&c->sb, "%s%s_about", prefix, name);
	tmpl_set(cr, "about", model_t(c, c->sb.buf));
	model_set_ns(cr, "time_ns", cs->time_ns);
	model_set_u64(cr, "count", cs->count);
	model_set_pct(cr, "share", cs->time_ns, st->kernel_ns);
}

static void categories(struct model_ctx *c, struct tmpl_vars *row,
                       const struct stage_result *st, const char *stage_label)
{
	struct svg_part parts[CAT_COUNT];
	const char *names[] = {"stage"};
	const char *values[] = {stage_label};
	int k;

	for (k = 0; k < CAT_COUNT; k++) {
		int p;
		category_row(c, row, st, k, -1);
		/* FA's parts, under FA, when the stage runs attention */
		for (p = 0;
		     k == CAT_FA && st->cat[k].count && p < FA_PART_COUNT; p++)
			category_row(c, row, st, k, p);
		parts[k].label = model_tk(c, "cat_", category_names[k]);
		parts[k].css = cat_css[k];
		parts[k].value = st->cat[k].time_ns;
	}
	strbuf_reset(&c->sb);
	i18n_format(c->o->cat, "chart_stacked_title", &c->sb, names, values, 1);
	{
		struct strbuf svg = STRBUF_INIT;
		svg_stacked_bar(&svg, c->sb.buf, parts, CAT_COUNT);
		tmpl_set(row, "chart", svg.buf);
		strbuf_release(&svg);
	}
}

#define TOP_CHART_N 10

/* The stage's first TOP_CHART_N kernel types (st->top is largest first)
 * as a bar chart coloured by category, with a legend of those present. */
static void top_chart(struct model_ctx *c, struct tmpl_vars *row,
                      const struct stage_result *st, const char *stage_label)
{
	struct svg_hbar bars[TOP_CHART_N];
	struct svg_part legend[CAT_COUNT];
	const char *names[] = {"n", "stage"};
	const char *values[2];
	char n[16];
	struct strbuf svg = STRBUF_INIT;
	size_t i, nb = st->ntop < TOP_CHART_N ? st->ntop : TOP_CHART_N;
	int k, seen[CAT_COUNT] = {0}, nl = 0;

	for (i = 0; i < nb; i++) {
		bars[i].label = st->top[i].type;
		bars[i].css = cat_css[st->top[i].cat];
		bars[i].value = st->top[i].total_ns;
		seen[st->top[i].cat] = 1;
	}
	for (k = 0; k < CAT_COUNT; k++)
		if (seen[k]) {
			legend[nl].label =
			    model_tk(c, "cat_", category_names[k]);
			legend[nl].css = cat_css[k];
			legend[nl++].value = 0;
		}
	snprintf(n, sizeof(n), "%zu", nb);
	values[0] = n;
	values[1] = stage_label;
	strbuf_reset(&c->sb);
	i18n_format(c->o->cat, "chart_top_title", &c->sb, names, values, 2);
	if (nb)
		svg_hbars(&svg, c->sb.buf, bars, nb, legend, (size_t)nl);
	tmpl_set(row, "top_chart", svg.len ? svg.buf : "");
	strbuf_release(&svg);
}

static void top_kernels(const struct model_ctx *c, struct tmpl_vars *row,
                        const struct stage_result *st)
{
	size_t i;

	tmpl_define_loop(row, "top");
	for (i = 0; i < st->ntop; i++) {
		const struct type_stat *ts = &st->top[i];
		struct tmpl_vars *tr = tmpl_add_row(row, "top");
		tmpl_set(tr, "type", ts->type);
		tmpl_set(tr, "cat", category_names[ts->cat]);
		tmpl_set(tr, "cat_label",
		         model_tk(c, "cat_", category_names[ts->cat]));
		model_set_u64(tr, "count", ts->count);
		model_set_ns(tr, "total_ns", ts->total_ns);
		model_set_ns(tr, "avg_ns",
		             ts->count ? ts->total_ns / (int64_t)ts->count : 0);
		model_set_ns(tr, "min_ns", ts->min_ns);
		model_set_ns(tr, "max_ns", ts->max_ns);
		model_set_pct(tr, "share", ts->total_ns, st->kernel_ns);
	}
}

/* The VAE's time by part (analysis/vaesplit.h), in the VAE's stage row:
 * has_split is set there only, so the other stages show no table. */
static void vae_split(struct model_ctx *c, struct tmpl_vars *row, int stage)
{
	const struct vae_split *vs = &c->r->vae_split;
	int p;

	tmpl_define_loop(row, "split");
	tmpl_set(row, "has_split",
	         stage == STAGE_VAE && vs->total_ns > 0 ? "1" : "");
	if (stage != STAGE_VAE || vs->total_ns <= 0)
		return;
	for (p = 0; p < VAE_PARTS; p++) {
		struct tmpl_vars *pr = tmpl_add_row(row, "split");
		tmpl_set(pr, "part", vae_part_names[p]);
		tmpl_set(pr, "label",
		         model_tk(c, "vae_part_", vae_part_names[p]));
		model_set_ns(pr, "time_ns", vs->part_ns[p]);
		model_set_pct(pr, "share", vs->part_ns[p], vs->total_ns);
	}
}

static void stages(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct result *r = c->r;
	int64_t total = total_kernel_ns(r);
	int s, comm = 0;

	for (s = 0; s < STAGE_COUNT; s++) {
		const struct stage_result *st = &r->stages[s];
		struct tmpl_vars *row;
		if (!st->kernels)
			continue;
		row = tmpl_add_row(v, "stages");
		tmpl_set(row, "id", stage_names[s]);
		tmpl_set(row, "label", model_stage_label(c, s));
		model_set_u64(row, "kernels", st->kernels);
		model_set_u64(row, "segments", st->segments);
		model_set_ns(row, "kernel_ns", st->kernel_ns);
		model_set_ns(row, "wall_ns", st->wall_ns);
		model_set_pct(row, "share", st->kernel_ns, total);
		model_set_ns(row, "comm_ns", st->comm_ns);
		model_set_ns(row, "busy_ns", st->comm_union_ns);
		model_set_ns(row, "exposed_ns", st->exposed_comm_ns);
		model_set_pct(row, "exposed_share", st->exposed_comm_ns,
		              st->wall_ns);
		tmpl_set(row, "has_comm", st->comm_ns ? "1" : "");
		comm |= st->comm_ns > 0;
		categories(c, row, st, model_stage_label(c, s));
		top_kernels(c, row, st);
		top_chart(c, row, st, model_stage_label(c, s));
		vae_split(c, row, s);
	}
	tmpl_set(v, "has_comm", comm ? "1" : "");
}

/* timeline_rank: whose device timeline the strip is, "Rank 0", or
 * "Rank 0 (lead card)" among several; "" without rank records (one
 * card's kernel_details.csv). */
static void timeline_rank(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct result *r = c->r;
	const char *names[] = {"rank"};
	const char *values[1];
	char id[32];

	if (!r->nranks) {
		tmpl_set(v, "timeline_rank", "");
		return;
	}
	snprintf(id, sizeof(id), "%" PRId64,
	         (int64_t)r->ranks[r->lead < r->nranks ? r->lead : 0].id);
	values[0] = id;
	model_set_msg(c, v, "timeline_rank",
	              r->nranks > 1 ? "chart_timeline_rank_lead"
	                            : "chart_timeline_rank",
	              names, values, 1);
}

static void timeline(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct result *r = c->r;
	struct svg_span *spans =
	    xcalloc(r->nsegs ? r->nsegs : 1, sizeof(*spans));
	struct svg_part legend[STAGE_COUNT];
	struct strbuf labels = STRBUF_INIT, svg = STRBUF_INIT;
	size_t i, *offs = xcalloc(r->nsegs ? r->nsegs : 1, sizeof(*offs));
	const char *names[] = {"n"};
	const char *values[1];
	char n[32];
	int s, nl = 0;

	tmpl_define_loop(v, "segments");
	for (i = 0; i < r->nsegs; i++) { /* tooltips: "VAE 118.49 ms" */
		offs[i] = labels.len;
		strbuf_adds(&labels, model_stage_label(c, r->segs[i].stage));
		strbuf_addch(&labels, ' ');
		numfmt_duration(&labels, checked_sub_sat(r->segs[i].end_ns,
		                                         r->segs[i].start_ns));
		strbuf_addch(&labels, '\0');
	}
	for (i = 0; i < r->nsegs; i++) {
		spans[i].label = labels.buf + offs[i];
		struct tmpl_vars *row = tmpl_add_row(v, "segments");
		spans[i].css = stage_css[r->segs[i].stage];
		spans[i].start = r->segs[i].start_ns;
		spans[i].end = r->segs[i].end_ns;
		/* the same spans for renderers that draw without SVG (PDF) */
		tmpl_set(row, "stage", stage_names[r->segs[i].stage]);
		model_set_ns(row, "start_ns", r->segs[i].start_ns);
		model_set_ns(row, "end_ns", r->segs[i].end_ns);
	}
	model_set_ns(v, "span_start_ns", r->span_start_ns);
	model_set_ns(v, "span_end_ns", r->span_end_ns);
	for (s = 0; s < STAGE_COUNT; s++) {
		if (!r->stages[s].kernels)
			continue;
		legend[nl].label = model_stage_label(c, s);
		legend[nl].css = stage_css[s];
		legend[nl++].value = 0;
	}
	timeline_rank(c, v);
	svg_timeline(&svg, model_t(c, "chart_timeline_title"),
	             tmpl_get(v, "timeline_rank"), spans, r->nsegs,
	             r->span_start_ns, r->span_end_ns, legend, (size_t)nl);
	tmpl_set(v, "timeline", svg.buf);
	snprintf(n, sizeof(n), "%zu",
	         r->segs_total > r->nsegs ? r->segs_total : r->nsegs);
	values[0] = n;
	model_set_msg(c, v, "segments_note", "segments_note", names, values, 1);
	strbuf_release(&labels);
	strbuf_release(&svg);
	free(offs);
	free(spans);
}

/* ---- warnings, unmatched ------------------------------------------------ */

/* Warnings about how many steps were profiled: too few, or none told
 * apart, make every time in the report noisy or mixed with warm-up. */
static int warn_on_figures(const char *code)
{
	static const char *const codes[] = {"few_steps",
	                                    "no_steps",
	                                    "no_step_ranges",
	                                    "unknown_task_type",
	                                    "unknown_task_types_more",
	                                    "totals_mismatch"};
	size_t i;

	for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (!strcmp(code, codes[i]))
			return 1;
	return 0;
}

static void warnings(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct result *r = c->r;
	const char *names[] = {"line", "1", "2", "3", "4", "5"};
	size_t i;

	tmpl_define_loop(v, "sum_warnings");
	for (i = 0; i < r->nwarnings; i++) {
		const struct warning *w = &r->warnings[i];
		struct tmpl_vars *row = tmpl_add_row(v, "warnings");
		char line[32], key[96];
		const char *values[6];
		snprintf(line, sizeof(line), "%" PRIu64, w->line);
		values[0] = line;
		values[1] = w->args[0];
		values[2] = w->args[1];
		values[3] = w->args[2];
		values[4] = w->args[3];
		values[5] = w->args[4];
		/* a stage argument ("dit") in the report's language */
		if (w->args[1] && stage_from_name(w->args[1]) >= 0)
			values[2] = model_tk(c, "stage_", w->args[1]);
		if (w->reason)
			snprintf(key, sizeof(key), "warn_%s_%s", w->code,
			         w->reason);
		else
			snprintf(key, sizeof(key), "warn_%s", w->code);
		if (i18n_find(c->o->cat, key))
			model_set_msg(c, row, "text", key, names, values, 6);
		else
			tmpl_set(row, "text", w->message);
		tmpl_set(row, "file", w->file ? w->file : "");
		tmpl_set(row, "code", w->code);
		/* the first warning that undermines the figures themselves is
		 * shown again in the summary, beside the trust line */
		if (!tmpl_nrows(v, "sum_warnings") && warn_on_figures(w->code))
			tmpl_set(tmpl_add_row(v, "sum_warnings"), "text",
			         tmpl_get(row, "text"));
	}
}

static void unmatched(const struct model_ctx *c, struct tmpl_vars *v)
{
	const struct result *r = c->r;
	int64_t total = total_kernel_ns(r);
	size_t i;

	tmpl_define_loop(v, "unmatched");
	for (i = 0; i < r->nunmatched; i++) {
		struct tmpl_vars *row = tmpl_add_row(v, "unmatched");
		tmpl_set(row, "type", r->unmatched[i].type);
		model_set_u64(row, "count", r->unmatched[i].count);
		model_set_ns(row, "total_ns", r->unmatched[i].total_ns);
		model_set_pct(row, "share", r->unmatched[i].total_ns, total);
	}
}

/* ---- method, inputs, docs ---------------------------------------------- */

static void method(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct result *r = c->r;
	const char *names[] = {"rules", "window", "min_segment", "n"};
	char window[16], min_seg[16], n[16];
	const char *values[4];
	size_t i;

	snprintf(window, sizeof(window), "%d", r->seg_window);
	snprintf(min_seg, sizeof(min_seg), "%d", r->seg_min_segment);
	snprintf(n, sizeof(n), "%zu", r->steps_total);
	values[0] = rules_name(c);
	values[1] = window;
	values[2] = min_seg;
	values[3] = n;
	model_set_msg(c, v, "method_categories", "method_categories", names,
	              values, 4);
	model_set_msg(c, v, "method_stages", "method_stages", names, values, 4);
	model_set_msg(c, v, "method_steps", "method_steps", names, values, 4);
	tmpl_set(v, "method_text_encoder",
	         model_t(c, r->workload.one_stage ? "method_one_stage"
	                    : r->text_encoder_detected
	                        ? "method_text_encoder_found"
	                    : r->loop_found ? "method_text_encoder_none"
	                                    : "method_text_encoder_unknown"));
	/* what the loop's network is, where there is a loop */
	tmpl_set(v, "method_denoiser",
	         !r->loop_found     ? ""
	         : r->denoiser_unet ? model_t(c, "method_denoiser_unet")
	                            : model_t(c, "method_denoiser_dit"));
	for (i = 0; i < r->nverdicts; i++) {
		struct tmpl_vars *row = tmpl_add_row(v, "thresholds");
		tmpl_set(row, "id", r->verdicts[i].id);
		model_verdict_text(c, row, &r->verdicts[i]);
		tmpl_setf(row, "threshold", "%.3f", r->verdicts[i].threshold);
	}
}

static void inputs(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct result *r = c->r;
	size_t i;

	tmpl_define_loop(v, "inputs");
	for (i = 0; i < r->ninputs; i++) {
		const struct input_desc *in = &r->inputs[i];
		struct tmpl_vars *row = tmpl_add_row(v, "inputs");
		tmpl_set(row, "role", in->role);
		tmpl_set(row, "path", in->file.path);
		tmpl_setf(row, "size", "%" PRId64, in->file.size);
		if (!strcmp(in->role, "trace_view")) {
			const char *names[] = {"subtasks"};
			char sub[24];
			const char *values[] = {sub};
			snprintf(sub, sizeof(sub), "%" PRIu64, in->subtasks);
			model_set_msg(c, row, "variant", "variant_trace", names,
			              values, 1);
		} else if (in->file.era) {
			const char *names[] = {"level", "era", "pmu"};
			const char *values[3];
			char level[8];
			snprintf(level, sizeof(level), "%d", in->file.level);
			values[0] = level;
			values[1] = model_tk(c, "era_", in->file.era);
			values[2] =
			    in->file.pmu ? model_t(c, "variant_pmu") : "";
			model_set_msg(c, row, "variant", "variant", names,
			              values, 3);
		} else {
			tmpl_set(row, "variant", in->file.variant);
		}
		tmpl_set(row, "line_endings",
		         !strcmp(in->role, "db")           ? "SQLite"
		         : !strcmp(in->role, "trace_view") ? "–"
		         : in->file.crlf                   ? "CRLF"
		                                           : "LF");
		tmpl_set(row, "bom", model_t(c, in->file.bom ? "yes" : "no"));
		tmpl_set(row, "tab",
		         model_t(c, in->file.start_tab ? "yes" : "no"));
		if (in->file.device_id >= 0)
			tmpl_setf(row, "device", "%" PRId64,
			          in->file.device_id);
		model_set_u64(row, "rows", in->file.rows);
		model_set_u64(row, "kernels", in->kernels);
		model_set_u64(row, "skipped", in->file.skipped);
		model_set_u64(row, "typed_from_name", in->file.na_type);
	}
}

static void docs(struct model_ctx *c, struct tmpl_vars *v)
{
	size_t i;

	for (i = 0; i < feature_doc_count; i++) {
		const char *name = feature_doc_keys[i];
		struct tmpl_vars *row = tmpl_add_row(v, "docs");
		char *url =
		    model_doc_url(c->o->docs_base, i18n_lang(c->o->cat), name);
		doc_name(c, row, name);
		tmpl_set(row, "url", url);
		tmpl_set(row, "summary", model_tk(c, "doc_", name));
		strbuf_reset(&c->sb);
		strbuf_addf(&c->sb, "doc_%s_when", name);
		tmpl_set(row, "when", model_t(c, c->sb.buf));
		free(url);
	}
}

char *model_doc_url(const char *base, const char *lang, const char *name)
{
	size_t n = strlen(base);
	while (n && base[n - 1] == '/')
		n--;
	return xstrfmt("%.*s/blob/master/docs/%s/features/%s.md", (int)n, base,
	               lang, name);
}

struct tmpl_vars *model_build(const struct result *r,
                              const struct model_opts *o)
{
	struct model_ctx c = {r, o, STRBUF_INIT};
	struct tmpl_vars *v = tmpl_vars_new();

	header(&c, v);
	model_summary(&c, v);
	verdicts(&c, v);
	model_collection(&c, v);
	stages(&c, v);
	timeline(&c, v);
	warnings(&c, v);
	unmatched(&c, v);
	method(&c, v);
	inputs(&c, v);
	model_ranks(&c, v);
	model_memory(&c, v);
	model_iters(&c, v);
	docs(&c, v);
	strbuf_release(&c.sb);
	return v;
}
