/* PDF report: the multi-file, multi-rank sections, laid out from the same
 * view-model variables as templates/{ranks,cluster,steps,rank_inputs}.
 * html.tmpl, in the same order and under the same conditions. */
#include "format/pdf/pdf_ranks.h"

#include <stdlib.h>
#include <string.h>

#include "format/pdf/pdf_chart.h"
#include "view/palette.h"
#include "util/banned.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const char *get(const struct tmpl_vars *r, const char *name)
{
	return tmpl_get(r, name);
}

/* "a – b" of two durations into c->val[i]. */
static const char *range(struct pdf_ctx *c, size_t i, const char *a,
                         const char *b)
{
	pdf_fmt(c->fdur, &c->val[i], a);
	strbuf_adds(&c->val[i], " \xE2\x80\x93 ");
	c->fdur(&c->val[i], b, strlen(b));
	return c->val[i].buf;
}

/* ---- ranks ------------------------------------------------------------- */

/* The slowest rank's row in bold, as in the HTML; the rank's mark
 * ("slowest", "median") under its id. */
static void rank_row(struct pdf_ctx *c, const struct tmpl_vars *r,
                     struct pdf_cell *cl)
{
	size_t k;

	(void)c;
	cl[0].sub = get(r, "mark");
	for (k = 0; k < 10; k++)
		cl[k].strong = *get(r, "slowest") != 0;
}

/* The HTML's one rank table: times, category shares, exposed
 * communication, communication wait and compute, the mark under the
 * rank. */
static void ranks_table(struct pdf_ctx *c)
{
	static const struct pdf_col spec[] = {
	    {"t_col_rank", 0.08f, 0},         {"t_col_dit_time", 0.10f, 1},
	    {"t_col_vae_time", 0.10f, 1},     {"t_col_fa_share", 0.09f, 1},
	    {"t_col_matmul_share", 0.09f, 1}, {"t_col_vector_share", 0.09f, 1},
	    {"t_col_comm_share", 0.09f, 1},   {"t_col_dit_exposed", 0.12f, 1},
	    {"t_col_comm_wait", 0.12f, 1},    {"t_col_dit_compute", 0.12f, 1}};
	static const char *const vars[] = {
	    "id",           "dit_ns",       "vae_ns",     "fa_share",
	    "matmul_share", "vector_share", "comm_share", "exposed_share",
	    "wait_ns",      "compute_ns"};
	tmpl_fmt_fn fmts[] = {NULL,    c->fdur, c->fdur, c->fpct, c->fpct,
	                      c->fpct, c->fpct, c->fpct, c->fdur, c->fdur};
	struct pdf_table t = {PDF_TABLE(spec, c->m, "rank_rows"), .vars = vars,
	                      .fmts = fmts, .dash = 1, .row = rank_row};

	pdf_table(c, &t);
}

void pdf_ranks_section(struct pdf_ctx *c)
{
	static const char *const keys[] = {"cat_FA_ns",   "cat_MatMul_ns",
	                                   "cat_Conv_ns", "cat_Vector_ns",
	                                   "cat_Comm_ns", "cat_Other_ns"};
	static const char *const cats[] = {"FA",     "MatMul", "Conv",
	                                   "Vector", "Comm",   "Other"};
	const char *names[N(cats)];
	long rgb[N(cats)];
	size_t k;

	if (!*pdf_v(c, "multi_rank"))
		return;
	pdf_section(c, "t_sec_ranks");
	strbuf_reset(&c->val[7]);
	strbuf_addf(&c->val[7], "%s %s", pdf_v(c, "t_sec_ranks_intro"),
	            pdf_v(c, "ranks_slowest_median"));
	pdf_para(c, c->val[7].buf);
	ranks_table(c);
	pdf_subheading(c, pdf_v(c, "t_chart_ranks_title"));
	for (k = 0; k < N(cats); k++) {
		strbuf_reset(&c->val[k]);
		strbuf_addf(&c->val[k], "t_cat_%s", cats[k]);
		names[k] = pdf_v(c, c->val[k].buf);
		rgb[k] = pdf_chart_cat_rgb(cats[k]);
	}
	pdf_chart_bars(&c->d, c->m, "rank_rows", keys, names, rgb, N(cats),
	               &c->val[7], c->fpct);
	pdf_small(c, pdf_v(c, "ranks_how"));
	c->d.y -= 6.0f;
}

/* ---- collectives, overlap, boundaries ---------------------------------- */

static void collectives(struct pdf_ctx *c)
{
	static const struct pdf_col spec[] = {
	    {"t_col_collective", 0.19f, 0}, {"t_col_ops", 0.11f, 1},
	    {"t_col_elapse", 0.14f, 1},     {"t_col_transit", 0.14f, 1},
	    {"t_col_wait", 0.14f, 1},       {"t_col_wait_ratio", 0.12f, 1},
	    {"t_col_sync", 0.16f, 1}};
	static const char *const vars[] = {
	    "label",   "count",      "elapse_ns", "transit_ns",
	    "wait_ns", "wait_ratio", "sync_ns"};
	static const struct pdf_col lspec[] = {{"t_col_transport", 0.2f, 0},
	                                       {"t_col_ops", 0.2f, 1},
	                                       {"t_col_size_mb", 0.2f, 1},
	                                       {"t_col_time", 0.2f, 1},
	                                       {"t_col_bandwidth", 0.2f, 1}};
	static const char *const lvars[] = {"name", "ops", "size_mb", "time_ns",
	                                    "bandwidth"};
	tmpl_fmt_fn fmts[] = {NULL,    c->fint, c->fdur, c->fdur,
	                      c->fdur, c->fpct, c->fdur};
	tmpl_fmt_fn lfmts[] = {NULL, c->fint, c->ff1, c->fdur, c->ff2};

	if (!*pdf_v(c, "has_collectives"))
		return;
	pdf_section(c, "t_sec_collectives");
	pdf_para(c, pdf_v(c, "collectives_intro"));
	pdf_table(c,
	          &(struct pdf_table){PDF_TABLE(spec, c->m, "collectives"),
	                              .vars = vars, .fmts = fmts, .dash = 1});
	if (!tmpl_nrows(c->m, "transports"))
		return;
	pdf_subheading(c, pdf_v(c, "t_sec_transports"));
	pdf_table(c,
	          &(struct pdf_table){PDF_TABLE(lspec, c->m, "transports"),
	                              .vars = lvars, .fmts = lfmts, .dash = 1});
	if (*pdf_v(c, "transports_note"))
		pdf_small(c, pdf_v(c, "transports_note"));
}

/* communication_matrix.json's rank-to-rank links (several ranks). */
static void links(struct pdf_ctx *c)
{
	static const struct pdf_col spec[] = {
	    {"t_col_reported_by", 0.14f, 1}, {"t_col_link", 0.14f, 0},
	    {"t_col_transport", 0.16f, 0},   {"t_col_size_mb", 0.18f, 1},
	    {"t_col_time", 0.18f, 1},        {"t_col_bandwidth", 0.2f, 1}};
	static const char *const vars[] = {"rank",    "link",    "transport",
	                                   "size_mb", "time_ns", "bandwidth"};
	tmpl_fmt_fn fmts[] = {NULL, NULL, NULL, c->ff1, c->fdur, c->ff2};

	if (!tmpl_nrows(c->m, "links"))
		return;
	pdf_section(c, "t_sec_links");
	pdf_para(c, pdf_v(c, "t_sec_links_intro"));
	pdf_table(c,
	          &(struct pdf_table){PDF_TABLE(spec, c->m, "links"),
	                              .vars = vars, .fmts = fmts, .dash = 1});
	if (*pdf_v(c, "links_note"))
		pdf_small(c, pdf_v(c, "links_note"));
}

static void overlap(struct pdf_ctx *c)
{
	static const struct pdf_col spec[] = {
	    {"t_col_rank", 0.1f, 0},
	    {"t_col_stage", 0.24f, 0},
	    {"t_col_wall_time", 0.18f, 1},
	    {"t_col_exposed_kernels", 0.24f, 1},
	    {"t_col_exposed_oa", 0.24f, 1}};
	static const char *const vars[] = {"rank", "stage_label", "wall_ns",
	                                   "kernel_share", "oa_share"};
	static const struct pdf_col tspec[] = {
	    {"t_col_rank", 0.2f, 0},
	    {"t_col_computing", 0.2f, 1},
	    {"t_col_communication", 0.2f, 1},
	    {"t_col_not_overlapped", 0.2f, 1},
	    {"t_col_free", 0.2f, 1}};
	static const char *const tvars[] = {"rank", "computing_ns", "comm_ns",
	                                    "not_overlapped_ns", "free_ns"};
	tmpl_fmt_fn fmts[] = {NULL, NULL, c->fdur, c->fpct, c->fpct};
	tmpl_fmt_fn tfmts[] = {NULL, c->fdur, c->fdur, c->fdur, c->fdur};

	if (!*pdf_v(c, "has_overlap"))
		return;
	pdf_section(c, "t_sec_overlap");
	pdf_para(c, pdf_v(c, "t_sec_overlap_intro"));
	pdf_table(c,
	          &(struct pdf_table){PDF_TABLE(spec, c->m, "overlap_rows"),
	                              .vars = vars, .fmts = fmts, .dash = 1});
	pdf_small(c, pdf_v(c, "t_overlap_why"));
	c->d.y -= 6.0f;
	pdf_subheading(c, pdf_v(c, "t_overlap_totals"));
	pdf_table(c,
	          &(struct pdf_table){PDF_TABLE(tspec, c->m, "overlap_totals"),
	                              .vars = tvars, .fmts = tfmts, .dash = 1});
}

static void marker_row(struct pdf_ctx *c, const struct tmpl_vars *r,
                       struct pdf_cell *cl)
{
	cl[2].dot = pdf_chart_stage_rgb(get(r, "stage"));
	cl[3].text =
	    range(c, 3, get(r, "host_start_ns"), get(r, "host_end_ns"));
	cl[4].text = *get(r, "has_dev") ? range(c, 4, get(r, "dev_start_ns"),
	                                        get(r, "dev_end_ns"))
	                                : "\xE2\x80\x93";
}

static void markers(struct pdf_ctx *c)
{
	static const struct pdf_col spec[] = {
	    {"t_col_rank", 0.07f, 0},         {"t_col_marker", 0.19f, 0},
	    {"t_col_stage", 0.13f, 0},        {"t_col_host_range", 0.17f, 1},
	    {"t_col_device_range", 0.17f, 1}, {"t_col_method", 0.11f, 0},
	    {"t_col_flows", 0.07f, 1},        {"t_col_relabelled", 0.09f, 1}};
	static const char *const vars[] = {"rank",  "name",   "stage_label",
	                                   NULL,    NULL,     "method",
	                                   "flows", "kernels"};
	tmpl_fmt_fn fmts[] = {NULL, NULL, NULL,    NULL,
	                      NULL, NULL, c->fint, c->fint};
	struct pdf_table t = {PDF_TABLE(spec, c->m, "markers"), .vars = vars,
	                      .fmts = fmts, .row = marker_row};

	if (!tmpl_nrows(c->m, "markers")) {
		pdf_para(c, pdf_v(c, "t_no_markers"));
		return;
	}
	pdf_table(c, &t);
	pdf_small(c, pdf_v(c, "t_markers_note"));
	c->d.y -= 6.0f;
}

static void boundaries(struct pdf_ctx *c)
{
	static const struct pdf_col spec[] = {{"t_col_rank", 0.2f, 0},
	                                      {"t_col_method", 0.8f, 0}};
	static const char *const vars[] = {"rank", "method"};
	tmpl_fmt_fn fmts[] = {NULL, NULL};

	if (!tmpl_nrows(c->m, "boundaries"))
		return;
	pdf_section(c, "t_sec_boundaries");
	pdf_para(c, pdf_v(c, "t_sec_boundaries_intro"));
	pdf_table(c,
	          &(struct pdf_table){PDF_TABLE(spec, c->m, "boundaries"),
	                              .vars = vars, .fmts = fmts, .dash = 1});
	markers(c);
}

void pdf_cluster_sections(struct pdf_ctx *c)
{
	collectives(c);
	links(c);
	overlap(c);
	boundaries(c);
}

/* ---- steps ------------------------------------------------------------- */

/* One rank's steps (row st of step_tables); the Preparing column only
 * when the rank's file has it, its width then shared by the others. */
static void step_table(struct pdf_ctx *c, const struct tmpl_vars *st)
{
	static const struct pdf_col spec[] = {
	    {"t_col_step", 0.09f, 0},
	    {"t_col_computing", 0.13f, 1},
	    {"t_col_communication", 0.14f, 1},
	    {"t_col_not_overlapped", 0.14f, 1},
	    {"t_col_free", 0.12f, 1},
	    {"t_col_stage_total", 0.13f, 1},
	    {"t_col_preparing", 0.13f, 1},
	    {"t_col_flag", 0.12f, 0}};
	static const char *const vars[] = {
	    "step",    "computing_ns", "comm_ns",      "not_overlapped_ns",
	    "free_ns", "stage_ns",     "preparing_ns", "flag_label"};
	static const struct pdf_col nspec[] = {
	    {"t_col_step", 0.10f, 0},
	    {"t_col_computing", 0.15f, 1},
	    {"t_col_communication", 0.16f, 1},
	    {"t_col_not_overlapped", 0.16f, 1},
	    {"t_col_free", 0.14f, 1},
	    {"t_col_stage_total", 0.15f, 1},
	    {"t_col_flag", 0.14f, 0}};
	static const char *const nvars[] = {
	    "step",    "computing_ns", "comm_ns",   "not_overlapped_ns",
	    "free_ns", "stage_ns",     "flag_label"};
	tmpl_fmt_fn fmts[] = {NULL,    c->fdur, c->fdur, c->fdur,
	                      c->fdur, c->fdur, c->fdur, NULL};
	tmpl_fmt_fn nfmts[] = {NULL,    c->fdur, c->fdur, c->fdur,
	                       c->fdur, c->fdur, NULL};

	if (*get(st, "has_preparing"))
		pdf_table(c, &(struct pdf_table){
		                 PDF_TABLE(spec, st, "step_rows"), .vars = vars,
		                 .fmts = fmts, .dash = 1});
	else
		pdf_table(c, &(struct pdf_table){
		                 PDF_TABLE(nspec, st, "step_rows"),
		                 .vars = nvars, .fmts = nfmts, .dash = 1});
}

static void step_ranks(struct pdf_ctx *c)
{
	static const struct pdf_col spec[] = {
	    {"t_col_rank", 0.15f, 0},     {"t_col_steps", 0.15f, 1},
	    {"t_col_mean_step", 0.2f, 1}, {"t_col_free_share", 0.2f, 1},
	    {"t_col_warmup", 0.15f, 1},   {"t_col_outliers", 0.15f, 1}};
	static const char *const vars[] = {"id",         "steps",  "mean_ns",
	                                   "free_share", "warmup", "outliers"};
	tmpl_fmt_fn fmts[] = {NULL, NULL, c->fdur, c->fpct, NULL, NULL};

	if (!tmpl_nrows(c->m, "step_ranks"))
		return;
	pdf_subheading(c, pdf_v(c, "t_steps_per_rank"));
	pdf_table(c,
	          &(struct pdf_table){PDF_TABLE(spec, c->m, "step_ranks"),
	                              .vars = vars, .fmts = fmts, .dash = 1});
}

/* One rank's sub-section: heading, table, free share, chart. */
static void step_rank(struct pdf_ctx *c, const struct tmpl_vars *st, int first)
{
	static const char *const keys[] = {"computing_ns", "not_overlapped_ns",
	                                   "free_ns"};
	const long rgb[] = {(long)palette_overlap[PAL_COMPUTING].rgb,
	                    (long)palette_overlap[PAL_NOT_OVERLAPPED].rgb,
	                    (long)palette_overlap[PAL_FREE].rgb};
	const char *names[3];
	float n = (float)tmpl_nrows(st, "step_rows");
	float h = 40.0f + 12.0f * n;
	float all = h + 60.0f + 18.0f * n; /* heading, table, free share */

	/* a short rank stays on one page rather than its chart on the next;
	 * not the first, which would leave the section's intro alone */
	if (!first && all < 360.0f)
		pt_need(&c->d, all);
	pdf_subheading(c, get(st, "label"));
	step_table(c, st);
	if (*get(st, "free_share_text"))
		pdf_para(c, get(st, "free_share_text"));
	/* title, bars and legend on one page when they fit on one: the bars
	 * of one rank split over two pages read as two charts */
	pt_need(&c->d, h < 400.0f ? h : 400.0f);
	if (*pdf_v(c, "steps_collapse")) {
		/* under a "Rank N" heading: a caption, not a heading of its
		 * own */
		c->d.y -= 2.0f;
		pdf_small(c, pdf_v(c, "t_chart_steps_title"));
	} else {
		pdf_subheading(c, pdf_v(c, "t_chart_steps_title"));
	}
	names[0] = pdf_v(c, "t_col_computing");
	names[1] = pdf_v(c, "t_col_not_overlapped");
	names[2] = pdf_v(c, "t_col_free");
	pdf_chart_bars(&c->d, st, "step_rows", keys, names, rgb, 3, &c->val[7],
	               c->fpct);
}

/* As templates/steps.html.tmpl: the summary per rank first, then every
 * rank that has steps, one after the other (nothing collapses on paper). */
void pdf_steps_section(struct pdf_ctx *c)
{
	size_t i, n = tmpl_nrows(c->m, "step_tables");

	if (!*pdf_v(c, "has_steps")) {
		if (tmpl_nrows(c->m, "rank_inputs")) {
			pdf_section(c, "t_sec_steps");
			pdf_para(c, pdf_v(c, "t_no_steps_file"));
		}
		return;
	}
	pdf_section(c, "t_sec_steps");
	pdf_para(c, pdf_v(c, "t_sec_steps_intro"));
	step_ranks(c);
	for (i = 0; i < n; i++)
		step_rank(c, tmpl_row(c->m, "step_tables", i), i == 0);
}

/* ---- inputs per rank --------------------------------------------------- */

/* "kernel_details.csv: found; ..." of the files found (found set) or
 * missing, into b. */
static const char *files_text(struct strbuf *b, const struct tmpl_vars *r,
                              int found)
{
	size_t i, n = tmpl_nrows(r, "files");

	strbuf_reset(b);
	for (i = 0; i < n; i++) {
		const struct tmpl_vars *f = tmpl_row(r, "files", i);
		if (!*get(f, "found") == !found)
			strbuf_addf(b, "%s%s: %s", b->len ? "; " : "",
			            get(f, "name"), get(f, "state"));
	}
	return b->buf ? b->buf : "";
}

/* The files found, then the missing ones under them in the colour of a
 * fired finding, as the HTML marks them. */
static void input_row(struct pdf_ctx *c, const struct tmpl_vars *r,
                      struct pdf_cell *cl)
{
	cl[0].sub = get(r, "source");
	cl[2].text = files_text(&c->val[2], r, 1);
	cl[2].sub = files_text(&c->sub[2], r, 0);
	cl[2].sub_rgb = PDF_FIRED;
}

void pdf_rank_inputs(struct pdf_ctx *c)
{
	static const struct pdf_col spec[] = {{"t_col_rank", 0.14f, 0},
	                                      {"t_col_folder", 0.26f, 0},
	                                      {"t_col_files", 0.28f, 0},
	                                      {"t_col_versions", 0.15f, 0},
	                                      {"t_col_level", 0.17f, 0}};
	static const char *const vars[] = {"label", "dir", NULL, "versions",
	                                   "level"};
	struct pdf_table t = {PDF_TABLE(spec, c->m, "rank_inputs"),
	                      .vars = vars, .row = input_row};
	size_t i, k, n = tmpl_nrows(c->m, "rank_inputs");

	if (!n)
		return;
	pdf_para(c, pdf_v(c, "t_sec_inputs_ranks_intro"));
	pdf_table(c, &t);
	for (i = 0; i < n; i++) {
		const struct tmpl_vars *r = tmpl_row(c->m, "rank_inputs", i);
		for (k = 0; k < tmpl_nrows(r, "not_run"); k++)
			pdf_bullet(c, get(tmpl_row(r, "not_run", k), "text"),
			           NULL);
	}
}
