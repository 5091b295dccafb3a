/* View model, multi-file and multi-rank sections: rank inputs, the ranks
 * table and chart, steps, collectives, the Overlap Analysis cross-check and
 * the stage boundaries (see model_ranks.h for the variables). */
#include "view/model_ranks.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view/svg.h"
#include "util/checked.h"
#include "util/xalloc.h"
#include "util/banned.h"

static const char *const cat_css[CAT_COUNT] = {
    "c-FA", "c-MatMul", "c-Conv", "c-Vector", "c-Comm", "c-Other"};

/* "Rank 3" / "Step 12" (catalogue key with one placeholder) into sb. */
static const char *labelled(struct model_ctx *c, const char *key,
                            const char *name, int64_t n)
{
	char num[32];
	const char *names[] = {name};
	const char *values[] = {num};

	snprintf(num, sizeof(num), "%" PRId64, n);
	strbuf_reset(&c->sb);
	i18n_format(c->o->cat, key, &c->sb, names, values, 1);
	return c->sb.buf;
}

static void set_i(struct tmpl_vars *v, const char *name, int64_t n)
{
	tmpl_setf(v, name, "%" PRId64, n);
}

/* ---- header, rank inputs ----------------------------------------------- */

/* What a figure is: with several cards, the stage table (and the
 * categories and kernel types) sum every analysed card's time, while the
 * header's device timeline, the summary and the timeline are the lead
 * card's wall time; the labels say so. One card: the plain labels. */
static void figures(struct model_ctx *c, struct tmpl_vars *v, size_t n)
{
	const struct result *r = c->r;
	const char *names[] = {"n", "rank", "folders"};
	char num[32], lead[32], folders[32];
	const char *values[] = {num, lead, folders};

	if (r->nranks < 2) {
		tmpl_set(v, "span_note", "");
		tmpl_set(v, "col_kernel_time_st",
		         model_t(c, "col_kernel_time"));
		tmpl_set(v, "col_wall_time_st", model_t(c, "col_wall_time"));
		tmpl_set(v, "timeline_title", model_t(c, "sec_timeline"));
		tmpl_set(v, "stages_cards_note", "");
		tmpl_set(v, "rank_dirs_text", "");
		return;
	}
	snprintf(num, sizeof(num), "%zu", n);
	snprintf(lead, sizeof(lead), "%" PRId64,
	         (int64_t)r->ranks[r->lead < r->nranks ? r->lead : 0].id);
	snprintf(folders, sizeof(folders), "%zu", r->nranks);
	model_set_msg(c, v, "span_note", "meta_span_lead", names, values, 3);
	model_set_msg(c, v, "col_kernel_time_st", "col_kernel_time_cards",
	              names, values, 3);
	model_set_msg(c, v, "col_wall_time_st", "col_wall_time_cards", names,
	              values, 3);
	model_set_msg(c, v, "timeline_title", "sec_timeline_lead", names,
	              values, 3);
	model_set_msg(c, v, "stages_cards_note", "stages_cards_note", names,
	              values, 3);
	model_set_msg(c, v, "rank_dirs_text", "meta_rank_dirs_value", names,
	              values, 3);
}

static void header(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct result *r = c->r;
	size_t i, n = 0;

	for (i = 0; i < r->nranks; i++)
		n += r->ranks[i].analysed != 0;
	/* a result without rank records is one card's kernel_details.csv */
	tmpl_setf(v, "ranks", "%zu", r->nranks ? n : (size_t)1);
	tmpl_set(v, "multi_rank", r->nranks > 1 ? "1" : "");
	figures(c, v, n);
	/* how sdperf ran, not what it measured: the Method section says
	 * when the ranks were analysed elsewhere, one task per rank */
	if (r->summaries) {
		const char *names[] = {"n"};
		const char *values[1];

		tmpl_setf(v, "summaries", "%zu", r->summaries);
		values[0] = tmpl_get(v, "summaries");
		model_set_msg(c, v, "method_summaries", "method_summaries",
		              names, values, 1);
	}
}

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), k = strlen(tail);
	return n >= k && !strcmp(s + n - k, tail);
}

/* The rank's db export: read, or found beside text files that were. */
static void db_file(struct model_ctx *c, struct tmpl_vars *row,
                    const struct rank_result *rr)
{
	struct tmpl_vars *fr;
	const char *base;

	if (!rr->db.path)
		return;
	base = strrchr(rr->db.path, '/');
	fr = tmpl_add_row(row, "files");
	tmpl_set(fr, "name", base ? base + 1 : rr->db.path);
	tmpl_set(fr, "found", "1");
	tmpl_set(fr, "path", rr->db.path);
	tmpl_set(fr, "state",
	         model_t(c, rr->db.used ? "file_db_used" : "file_db_unused"));
}

static void rank_files(struct model_ctx *c, struct tmpl_vars *row,
                       const struct rank_result *rr)
{
	int f;

	db_file(c, row, rr);
	for (f = 0; f < RF_COUNT; f++) {
		struct tmpl_vars *fr;
		const char *p = rr->files[f];
		/* read from its db, a rank lacks no text file */
		if (rr->db.used && !p)
			continue;
		fr = tmpl_add_row(row, "files");
		tmpl_set(fr, "name", rank_file_names[f]);
		tmpl_set(fr, "found", p ? "1" : "");
		tmpl_set(fr, "path", p ? p : "");
		tmpl_set(fr, "state",
		         model_t(c, !p ? "file_missing"
		                    : rr->db.used && f != RF_INFO
		                        ? "file_text_unused"
		                    : ends_with(p, ".gz") ? "file_found_gz"
		                                          : "file_found"));
	}
}

/* What the db could not give, one line each. */
static void db_not_run(struct model_ctx *c, struct tmpl_vars *row,
                       const struct rank_result *rr, const char *id)
{
	const char *names[] = {"rank"};
	const char *values[] = {id};
	char key[64];
	int g;

	for (g = 0; g < DBGAP_COUNT; g++) {
		if (!(rr->db.gaps & (1u << g)))
			continue;
		snprintf(key, sizeof(key), "not_run_db_%s", db_gap_keys[g]);
		model_set_msg(c, tmpl_add_row(row, "not_run"), "text", key,
		              names, values, 1);
	}
}

/* What could not run for lack of a file, one line each. */
static void not_run(struct model_ctx *c, struct tmpl_vars *row,
                    const struct rank_result *rr)
{
	static const struct {
		enum rank_file f;
		const char *key;
	} lines[] = {{RF_KERNELS, "not_run_kernels"},
	             {RF_TRACE, "not_run_trace"},
	             {RF_STEPS, "not_run_steps"},
	             {RF_COMM, "not_run_comm"}};
	const char *names[] = {"rank"};
	const char *values[1];
	char id[24];
	size_t i;
	int from_trace =
	    rr->kernel_source && !strcmp(rr->kernel_source, "trace_view");

	snprintf(id, sizeof(id), "%" PRId32, rr->id);
	values[0] = id;
	tmpl_define_loop(row, "not_run");
	if (rr->db.used) {
		db_not_run(c, row, rr, id);
		return;
	}
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		const char *key = lines[i].key;
		if (rr->files[lines[i].f])
			continue;
		/* a trace-only rank: kernels, and steps when its Overlap
		 * Analysis gave them, came from the trace */
		if (from_trace && lines[i].f == RF_STEPS && rr->nsteps)
			continue;
		if (from_trace && lines[i].f == RF_KERNELS)
			key = "not_run_kernels_trace";
		model_set_msg(c, tmpl_add_row(row, "not_run"), "text", key,
		              names, values, 1);
		if (lines[i].f == RF_KERNELS && !from_trace)
			break; /* nothing else runs without kernels */
	}
}

/* "torch_npu 2.5.1, CANN 8.0" and "Level1, AIC metrics PipeUtilization";
 * empty when profiler_info gave none of them. */
static void versions(struct model_ctx *c, struct tmpl_vars *row,
                     const struct rank_result *rr)
{
	const char *unknown = model_t(c, "unknown");
	const char *names[] = {"torch", "cann"};
	const char *values[2];

	tmpl_set(row, "versions", "");
	tmpl_set(row, "level", "");
	values[0] = rr->torch_npu_version ? rr->torch_npu_version : unknown;
	values[1] = rr->cann_version ? rr->cann_version : unknown;
	if (rr->torch_npu_version || rr->cann_version)
		model_set_msg(c, row, "versions", "versions_text", names,
		              values, 2);
	names[0] = "level";
	names[1] = "aic";
	values[0] = rr->profiler_level ? rr->profiler_level : unknown;
	values[1] = rr->aic_metrics ? rr->aic_metrics : unknown;
	if (rr->profiler_level || rr->aic_metrics)
		model_set_msg(c, row, "level", "level_text", names, values, 2);
}

static void rank_inputs(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct result *r = c->r;
	size_t i;

	for (i = 0; i < r->nranks; i++) {
		const struct rank_result *rr = &r->ranks[i];
		struct tmpl_vars *row = tmpl_add_row(v, "rank_inputs");
		set_i(row, "id", rr->id);
		tmpl_set(row, "label",
		         labelled(c, "rank_label", "rank", rr->id));
		tmpl_set(row, "source",
		         rr->id_source ? model_tk(c, "rank_src_", rr->id_source)
		                       : "");
		tmpl_set(row, "dir", rr->dir ? rr->dir : "");
		rank_files(c, row, rr);
		versions(c, row, rr);
		not_run(c, row, rr);
	}
}

/* ---- ranks table and chart --------------------------------------------- */

/* The stage the ranks table measures: the DiT, or the whole profile when
 * it is one stage (struct workload), as the ranks' compute is. */
static int main_stage(const struct model_ctx *c)
{
	return c->r->workload.one_stage ? STAGE_OTHER : STAGE_DIT;
}

static void rank_row(struct model_ctx *c, struct tmpl_vars *row,
                     const struct rank_result *rr)
{
	const int ms = main_stage(c);
	int64_t kt = rr->stage[ms].kernel_ns;
	int k;

	set_i(row, "id", rr->id);
	tmpl_set(row, "label", labelled(c, "rank_label", "rank", rr->id));
	tmpl_set(row, "analysed", rr->analysed ? "1" : "");
	model_set_ns(row, "dit_ns", kt);
	model_set_ns(row, "vae_ns", rr->stage[STAGE_VAE].kernel_ns);
	model_set_pct(row, "fa_share", rr->stage[ms].cat_ns[CAT_FA], kt);
	model_set_pct(row, "matmul_share", rr->stage[ms].cat_ns[CAT_MATMUL],
	              kt);
	model_set_pct(row, "vector_share", rr->stage[ms].cat_ns[CAT_VECTOR],
	              kt);
	model_set_pct(row, "comm_share", rr->stage[ms].cat_ns[CAT_COMM], kt);
	model_set_pct(row, "exposed_share", rr->stage[ms].exposed_comm_ns,
	              rr->stage[ms].wall_ns);
	if (rr->comm_read)
		model_set_ns(row, "wait_ns", rr->comm.wait_ns);
	else
		tmpl_set(row, "wait_ns", "");
	model_set_ns(row, "compute_ns", rr->compute_ns);
	for (k = 0; k < CAT_COUNT; k++) {
		char name[32];
		snprintf(name, sizeof(name), "cat_%s_ns", category_names[k]);
		model_set_ns(row, name, rr->stage[ms].cat_ns[k]);
	}
}

static void rank_marks(struct model_ctx *c, struct tmpl_vars *v,
                       struct tmpl_vars **rows)
{
	const char *names[] = {"slow", "median"};
	const char *values[2];
	char slow_id[24] = "", med_id[24] = "";
	size_t slow = c->r->cluster.slowest, med = c->r->cluster.median;

	/* no sentence when fewer than two ranks have DiT compute */
	tmpl_set(v, "ranks_slowest_median", "");
	if (c->r->cluster.ranked) {
		tmpl_set(rows[slow], "slowest", "1");
		tmpl_set(rows[med], "median", "1");
		tmpl_set(rows[slow], "mark", model_t(c, "rank_slowest"));
		if (med != slow)
			tmpl_set(rows[med], "mark", model_t(c, "rank_median"));
		snprintf(slow_id, sizeof(slow_id), "%" PRId32,
		         c->r->ranks[slow].id);
		snprintf(med_id, sizeof(med_id), "%" PRId32,
		         c->r->ranks[med].id);
		values[0] = slow_id;
		values[1] = med_id;
		model_set_msg(c, v, "ranks_slowest_median",
		              "ranks_slowest_median", names, values, 2);
	}
}

static void rank_chart(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct result *r = c->r;
	struct svg_part parts[CAT_COUNT];
	struct strbuf labels = STRBUF_INIT, svg = STRBUF_INIT;
	int64_t *vals = xcalloc(r->nranks * CAT_COUNT, sizeof(*vals));
	const char **rl = xcalloc(r->nranks, sizeof(*rl));
	size_t i, *offs = xcalloc(r->nranks, sizeof(*offs));
	int k;

	for (k = 0; k < CAT_COUNT; k++) {
		parts[k].label = model_tk(c, "cat_", category_names[k]);
		parts[k].css = cat_css[k];
		parts[k].value = 0;
	}
	for (i = 0; i < r->nranks; i++) {
		offs[i] = labels.len;
		strbuf_adds(&labels,
		            labelled(c, "rank_label", "rank", r->ranks[i].id));
		strbuf_addch(&labels, '\0');
		for (k = 0; k < CAT_COUNT; k++)
			vals[i * CAT_COUNT + (size_t)k] =
			    r->ranks[i].stage[main_stage(c)].cat_ns[k];
	}
	for (i = 0; i < r->nranks; i++)
		rl[i] = labels.buf + offs[i];
	svg_bars(&svg, model_t(c, "chart_ranks_title"), parts, CAT_COUNT, rl,
	         vals, r->nranks);
	tmpl_set(v, "rank_chart", svg.buf);
	strbuf_release(&svg);
	strbuf_release(&labels);
	free(offs);
	free(rl);
	free(vals);
}

static void ranks_table(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct result *r = c->r;
	struct tmpl_vars **rows;
	size_t i;

	if (r->nranks < 2)
		return;
	rows = xcalloc(r->nranks, sizeof(*rows));
	for (i = 0; i < r->nranks; i++) {
		rows[i] = tmpl_add_row(v, "rank_rows");
		tmpl_set(rows[i], "mark", "");
		tmpl_set(rows[i], "slowest", ""); /* the PDF reads it of each */
		rank_row(c, rows[i], &r->ranks[i]);
		if (!r->ranks[i].analysed)
			tmpl_set(rows[i], "mark",
			         model_t(c, "rank_not_analysed"));
	}
	rank_marks(c, v, rows);
	rank_chart(c, v);
	if (r->workload.one_stage) {
		/* the DiT columns hold the whole profile's figures: say so */
		tmpl_set(v, "t_col_dit_time", model_t(c, "col_whole_time"));
		tmpl_set(v, "t_col_dit_exposed",
		         model_t(c, "col_whole_exposed"));
		tmpl_set(v, "t_col_dit_compute",
		         model_t(c, "col_whole_compute"));
	}
	tmpl_set(v, "ranks_how", model_t(c, "ranks_how"));
	free(rows);
}

/* ---- steps ------------------------------------------------------------- */

static void step_row(struct model_ctx *c, struct tmpl_vars *row,
                     const struct step_stat *s)
{
	static const char *const flags[] = {"", "warmup", "outlier"};
	int f = s->outlier >= 0 && s->outlier <= 2 ? s->outlier : 0;

	if (s->step == STEP_NONE) {
		tmpl_set(row, "step", model_t(c, "step_none"));
		tmpl_set(row, "label", model_t(c, "step_none"));
	} else {
		tmpl_setf(row, "step", "%" PRId32, s->step);
		tmpl_set(row, "label",
		         labelled(c, "step_label", "step", s->step));
	}
	model_set_ns(row, "computing_ns", s->computing_ns);
	model_set_ns(row, "comm_ns", s->comm_ns);
	model_set_ns(row, "not_overlapped_ns", s->not_overlapped_ns);
	model_set_ns(row, "free_ns", s->free_ns);
	model_set_ns(row, "stage_ns", s->stage_ns);
	if (s->preparing_ns >= 0)
		model_set_ns(row, "preparing_ns", s->preparing_ns);
	tmpl_set(row, "flag", flags[f]);
	tmpl_set(row, "flag_label", f ? model_tk(c, "step_", flags[f]) : "");
}

/* Computing / Not-overlapped comm / Free per step, one bar each. */
static void steps_chart(struct model_ctx *c, struct tmpl_vars *v,
                        const struct rank_result *rr)
{
	static const char *const css[] = {"o-computing", "o-not_overlapped",
	                                  "o-free"};
	static const char *const keys[] = {"col_computing",
	                                   "col_not_overlapped", "col_free"};
	struct svg_part parts[3];
	struct strbuf labels = STRBUF_INIT, svg = STRBUF_INIT;
	int64_t *vals = xcalloc(rr->nsteps * 3, sizeof(*vals));
	const char **rl = xcalloc(rr->nsteps, sizeof(*rl));
	size_t i, k, *offs = xcalloc(rr->nsteps, sizeof(*offs));

	for (k = 0; k < 3; k++) {
		parts[k].label = model_t(c, keys[k]);
		parts[k].css = css[k];
		parts[k].value = 0;
	}
	for (i = 0; i < rr->nsteps; i++) {
		const struct step_stat *s = &rr->steps[i];
		offs[i] = labels.len;
		if (s->step == STEP_NONE)
			strbuf_adds(&labels, model_t(c, "step_none"));
		else
			strbuf_adds(&labels,
			            labelled(c, "step_label", "step", s->step));
		strbuf_addch(&labels, '\0');
		vals[i * 3] = s->computing_ns;
		vals[i * 3 + 1] = s->not_overlapped_ns;
		vals[i * 3 + 2] = s->free_ns;
	}
	for (i = 0; i < rr->nsteps; i++)
		rl[i] = labels.buf + offs[i];
	svg_bars(&svg, model_t(c, "chart_steps_title"), parts, 3, rl, vals,
	         rr->nsteps);
	tmpl_set(v, "steps_chart", svg.buf);
	strbuf_release(&svg);
	strbuf_release(&labels);
	free(offs);
	free(rl);
	free(vals);
}

/* The per-rank summary: steps, mean step, free share, flagged steps. */
static void step_ranks(struct tmpl_vars *v, const struct result *r)
{
	size_t i, k;

	for (i = 0; i < r->nranks && r->nranks > 1; i++) {
		const struct rank_result *rr = &r->ranks[i];
		struct tmpl_vars *row;
		int64_t sum = 0;
		uint64_t warm = 0, out = 0;
		if (!rr->nsteps)
			continue;
		row = tmpl_add_row(v, "step_ranks");
		for (k = 0; k < rr->nsteps; k++) {
			checked_accumulate(&sum, rr->steps[k].stage_ns);
			warm += rr->steps[k].outlier == 1;
			out += rr->steps[k].outlier == 2;
		}
		set_i(row, "id", rr->id);
		model_set_u64(row, "steps", rr->nsteps);
		model_set_ns(row, "mean_ns", sum / (int64_t)rr->nsteps);
		if (rr->free_share_ppm >= 0)
			tmpl_setf(row, "free_share", "%.3f",
			          (double)rr->free_share_ppm / 1e4);
		model_set_u64(row, "warmup", warm);
		model_set_u64(row, "outliers", out);
	}
}

/* One rank's sub-section: heading, step rows, free share, chart. */
static void step_table(struct model_ctx *c, struct tmpl_vars *row,
                       const struct rank_result *rr, int open)
{
	const char *names[] = {"rank", "pct"};
	const char *values[2];
	char id[24], pct[32];
	size_t i;

	set_i(row, "id", rr->id);
	/* rows a trace-only rank summed from its own Overlap Analysis */
	tmpl_set(row, "label",
	         labelled(c,
	                  rr->steps_source &&
	                          !strcmp(rr->steps_source, "overlap_analysis")
	                      ? "rank_label_steps_trace"
	                      : "rank_label",
	                  "rank", rr->id));
	tmpl_set(row, "open", open ? "1" : "");
	tmpl_set(row, "has_preparing", "");
	for (i = 0; i < rr->nsteps; i++) {
		step_row(c, tmpl_add_row(row, "step_rows"), &rr->steps[i]);
		if (rr->steps[i].preparing_ns >= 0)
			tmpl_set(row, "has_preparing", "1");
	}
	if (rr->free_share_ppm >= 0) {
		snprintf(id, sizeof(id), "%" PRId32, rr->id);
		snprintf(pct, sizeof(pct), "%.1f%%",
		         (double)rr->free_share_ppm / 1e4);
		values[0] = id;
		values[1] = pct;
		model_set_msg(c, row, "free_share_text", "steps_free_share",
		              names, values, 2);
	}
	steps_chart(c, row, rr);
}

/* A sub-section per rank that has steps, in rank order; the lead rank's
 * (or, when it has none, the first one's) is the one open on screen. A
 * rank without steps is left out: the Inputs section says why. */
static void steps(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct result *r = c->r;
	size_t i, open = r->nranks, n = 0;

	tmpl_define_loop(v, "step_tables");
	tmpl_define_loop(v, "step_ranks");
	if (r->lead < r->nranks && r->ranks[r->lead].nsteps)
		open = r->lead;
	for (i = 0; i < r->nranks; i++) {
		if (!r->ranks[i].nsteps)
			continue;
		if (open == r->nranks)
			open = i;
		step_table(c, tmpl_add_row(v, "step_tables"), &r->ranks[i],
		           i == open);
		n++;
	}
	tmpl_set(v, "has_steps", n ? "1" : "");
	tmpl_set(v, "steps_collapse", n > 1 ? "1" : "");
	if (n)
		step_ranks(v, r);
}

/* ---- communication.json ------------------------------------------------ */

static void collective_rows(struct tmpl_vars *v, const struct model_ctx *c,
                            const struct comm_result *sum)
{
	size_t k;

	for (k = 0; k < COLL_COUNT; k++) {
		const struct coll_stat *s = &sum->kind[k];
		struct tmpl_vars *row;
		if (!s->count)
			continue;
		row = tmpl_add_row(v, "collectives");
		tmpl_set(row, "kind", coll_names[k]);
		tmpl_set(row, "label", model_tk(c, "coll_", coll_names[k]));
		model_set_u64(row, "count", s->count);
		model_set_ns(row, "elapse_ns", s->elapse_ns);
		model_set_ns(row, "transit_ns", s->transit_ns);
		model_set_ns(row, "wait_ns", s->wait_ns);
		model_set_pct(row, "wait_ratio", s->wait_ns,
		              checked_add_sat(s->wait_ns, s->transit_ns));
		model_set_ns(row, "sync_ns", s->sync_ns);
	}
	tmpl_set(v, "transports_note", "");
	for (k = 0; k < TR_COUNT; k++) {
		const struct transport_stat *l = &sum->link[k];
		struct tmpl_vars *row;
		if (!l->ops && l->size_mb <= 0)
			continue;
		row = tmpl_add_row(v, "transports");
		/* the profiler's SDMA is no link of its own but the sum of
		 * the on-server ones (as input/hccl.c builds it from the db):
		 * the name says so, and a note below the table */
		tmpl_set(row, "name",
		         k == TR_SDMA ? "SDMA (HCCS + PCIE + SIO)"
		                      : transport_names[k]);
		if (k == TR_SDMA)
			tmpl_set(v, "transports_note",
			         model_t(c, "transports_sdma_note"));
		model_set_u64(row, "ops", l->ops);
		tmpl_setf(row, "size_mb", "%.3f", l->size_mb);
		model_set_ns(row, "time_ns", l->time_ns);
		/* MB per ms is GB per s */
		if (l->time_ns > 0)
			tmpl_setf(row, "bandwidth", "%.3f",
			          l->size_mb / ((double)l->time_ns / 1e6));
	}
}

static void collectives(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct cluster_summary *cs = &c->r->cluster;
	const char *names[] = {"n"};
	const char *values[1];
	char n[24];

	tmpl_set(v, "has_collectives", cs->comm_ranks ? "1" : "");
	if (!cs->comm_ranks)
		return;
	snprintf(n, sizeof(n), "%zu", cs->comm_ranks);
	values[0] = n;
	model_set_msg(c, v, "collectives_intro", "sec_collectives_intro", names,
	              values, 1);
	collective_rows(v, c, &cs->comm);
}

/* ---- Overlap Analysis cross-check -------------------------------------- */

static void overlap(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct result *r = c->r;
	size_t i;
	int s, any = 0;

	for (i = 0; i < r->nranks; i++) {
		const struct rank_result *rr = &r->ranks[i];
		struct tmpl_vars *row;
		if (!rr->overlap_found)
			continue;
		any = 1;
		for (s = 0; s < STAGE_COUNT; s++) {
			int64_t wall = rr->stage[s].wall_ns;
			if (wall <= 0)
				continue;
			row = tmpl_add_row(v, "overlap_rows");
			set_i(row, "rank", rr->id);
			tmpl_set(row, "stage", stage_names[s]);
			tmpl_set(row, "stage_label", model_stage_label(c, s));
			model_set_ns(row, "wall_ns", wall);
			model_set_pct(row, "kernel_share",
			              rr->stage[s].exposed_comm_ns, wall);
			model_set_pct(row, "oa_share",
			              rr->ov_stage[s][OV_NOT_OVERLAPPED], wall);
		}
		row = tmpl_add_row(v, "overlap_totals");
		set_i(row, "rank", rr->id);
		model_set_ns(row, "computing_ns", rr->ov_total[OV_COMPUTING]);
		model_set_ns(row, "comm_ns", rr->ov_total[OV_COMM]);
		model_set_ns(row, "not_overlapped_ns",
		             rr->ov_total[OV_NOT_OVERLAPPED]);
		model_set_ns(row, "free_ns", rr->ov_total[OV_FREE]);
	}
	tmpl_set(v, "has_overlap", any ? "1" : "");
}

/* ---- stage boundaries -------------------------------------------------- */

/* The earliest time of a rank's markers: ranges are shown from there. */
static int64_t markers_origin(const struct rank_result *rr)
{
	int64_t t0 = INT64_MAX;
	size_t i;

	for (i = 0; i < rr->nmarkers; i++) {
		const struct stage_marker *m = &rr->markers[i];
		t0 = m->host_start_ns < t0 ? m->host_start_ns : t0;
		if (m->dev_end_ns > m->dev_start_ns && m->dev_start_ns < t0)
			t0 = m->dev_start_ns;
	}
	return t0;
}

static void marker_row(struct model_ctx *c, struct tmpl_vars *row,
                       const struct rank_result *rr,
                       const struct stage_marker *m, int64_t t0)
{
	set_i(row, "rank", rr->id);
	tmpl_set(row, "name", m->name ? m->name : "");
	tmpl_set(row, "stage", stage_names[m->stage]);
	tmpl_set(row, "stage_label", model_stage_label(c, m->stage));
	model_set_ns(row, "host_start_ns",
	             checked_sub_sat(m->host_start_ns, t0));
	model_set_ns(row, "host_end_ns", checked_sub_sat(m->host_end_ns, t0));
	if (m->dev_end_ns > m->dev_start_ns) {
		model_set_ns(row, "dev_start_ns",
		             checked_sub_sat(m->dev_start_ns, t0));
		model_set_ns(row, "dev_end_ns",
		             checked_sub_sat(m->dev_end_ns, t0));
		tmpl_set(row, "has_dev", "1");
	}
	tmpl_set(
	    row, "method",
	    model_t(c, m->by_flows ? "marker_by_flows" : "marker_by_time"));
	model_set_u64(row, "flows", m->flows);
	model_set_u64(row, "kernels", m->kernels);
}

static void boundaries(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct result *r = c->r;
	size_t i, k;

	tmpl_define_loop(v, "markers");
	for (i = 0; i < r->nranks; i++) {
		const struct rank_result *rr = &r->ranks[i];
		struct tmpl_vars *row;
		int64_t t0 = markers_origin(rr);
		if (!rr->analysed)
			continue;
		row = tmpl_add_row(v, "boundaries");
		set_i(row, "rank", rr->id);
		tmpl_set(row, "method",
		         model_tk(c, "stage_src_",
		                  rr->stage_source ? rr->stage_source
		                                   : "signatures"));
		for (k = 0; k < rr->nmarkers; k++)
			marker_row(c, tmpl_add_row(v, "markers"), rr,
			           &rr->markers[k], t0);
	}
}

/* ---- communication_matrix.json: rank-to-rank links --------------------- */

#define LINKS_SHOWN 50

struct link_ref {
	int32_t rank;
	const struct comm_link *k;
};

static int cmp_link_ref(const void *a, const void *b)
{
	const struct link_ref *x = a, *y = b;

	if (x->k->time_ns != y->k->time_ns)
		return x->k->time_ns > y->k->time_ns ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->k->src != y->k->src)
		return x->k->src < y->k->src ? -1 : 1;
	return x->k->dst < y->k->dst ? -1 : x->k->dst > y->k->dst;
}

/* With several ranks: every rank's links, the LINKS_SHOWN with the most
 * transit time (report.json has each rank's). */
static void links(struct model_ctx *c, struct tmpl_vars *v)
{
	const struct result *r = c->r;
	struct link_ref *refs;
	size_t i, j, n = 0, total = 0;
	const char *names[] = {"shown", "n"};
	const char *values[2];
	char shown[24], all[24];

	tmpl_define_loop(v, "links");
	tmpl_set(v, "links_note", "");
	for (i = 0; i < r->nranks; i++)
		n += r->ranks[i].nlinks;
	if (r->nranks < 2 || !n)
		return;
	refs = xcalloc(n, sizeof(*refs));
	for (i = n = 0; i < r->nranks; i++) {
		total += r->ranks[i].links_total;
		for (j = 0; j < r->ranks[i].nlinks; j++) {
			refs[n].rank = r->ranks[i].id;
			refs[n++].k = &r->ranks[i].links[j];
		}
	}
	qsort(refs, n, sizeof(*refs), cmp_link_ref);
	for (i = 0; i < n && i < LINKS_SHOWN; i++) {
		const struct comm_link *k = refs[i].k;
		struct tmpl_vars *row = tmpl_add_row(v, "links");
		tmpl_setf(row, "rank", "%" PRId32, refs[i].rank);
		tmpl_setf(row, "link", "%" PRId32 " → %" PRId32, k->src,
		          k->dst);
		tmpl_set(row, "transport", k->transport);
		tmpl_setf(row, "size_mb", "%.3f", k->size_mb);
		model_set_ns(row, "time_ns", k->time_ns);
		if (k->time_ns > 0) /* MB per ms is GB per s */
			tmpl_setf(row, "bandwidth", "%.3f",
			          k->size_mb / ((double)k->time_ns / 1e6));
	}
	if (total > LINKS_SHOWN) {
		snprintf(shown, sizeof(shown), "%d", LINKS_SHOWN);
		snprintf(all, sizeof(all), "%zu", total);
		values[0] = shown;
		values[1] = all;
		model_set_msg(c, v, "links_note", "links_more", names, values,
		              2);
	}
	free(refs);
}

void model_ranks(struct model_ctx *c, struct tmpl_vars *v)
{
	header(c, v);
	rank_inputs(c, v);
	ranks_table(c, v);
	steps(c, v);
	collectives(c, v);
	links(c, v);
	overlap(c, v);
	boundaries(c, v);
}
