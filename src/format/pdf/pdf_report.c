/* The single-run PDF report: the view model laid out section by section
 * in the HTML report's order (templates/report.html.tmpl), with the
 * layout of pdf_layout.h. */
#include "format/pdf/pdf_report.h"
#include "format/pdf/pdf_prov.h"

#include <string.h>

#include "format/pdf/pdf_chart.h"
#include "format/pdf/pdf_collect.h"
#include "format/pdf/pdf_iters.h"
#include "format/pdf/pdf_memory.h"
#include "format/pdf/pdf_ranks.h"
#include "format/pdf/pdf_summary.h"
#include "util/banned.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ---- sections ---------------------------------------------------------- */

static void title_block(struct pdf_ctx *c)
{
	struct strbuf *b = &c->val[0];

	pdf_title(c, 110);
	pdf_summary_section(c);
	pdf_meta(c, "t_meta_profile", pdf_v(c, "profile"));
	if (*pdf_v(c, "multi_rank"))
		pdf_meta(c, "t_meta_rank_dirs", pdf_v(c, "rank_dirs_text"));
	else if (*pdf_v(c, "rank_dir"))
		pdf_meta(c, "t_meta_rank", pdf_v(c, "rank_dir"));
	pdf_meta(c, "t_meta_ranks", pdf_v(c, "ranks"));
	pdf_meta(c, "t_meta_kernels", pdf_fmt(c->fint, b, pdf_v(c, "kernels")));
	pdf_meta(c, "t_meta_steps", pdf_v(c, "steps"));
	pdf_fmt(c->fdur, b, pdf_v(c, "span_ns"));
	if (*pdf_v(c, "span_note"))
		strbuf_adds(b, pdf_v(c, "span_note"));
	pdf_meta(c, "t_meta_span", b->buf);
	if (*pdf_v(c, "redacted"))
		pdf_meta(c, "t_meta_redacted", pdf_v(c, "redaction_text"));
	pdf_brand_meta(c);
	pdf_title_end(c);
}

static unsigned long state_rgb(const char *state)
{
	return !strcmp(state, "fired") ? PDF_FIRED
	       : !strcmp(state, "ok")  ? PDF_OK
	                               : PDF_NA;
}

/* "42.0% > 30.0%" of a verdict row, into c->val[1]. */
static const char *measure(struct pdf_ctx *c, const struct tmpl_vars *r)
{
	struct strbuf *b = &c->val[1];

	pdf_fmt(c->fpct, b, tmpl_get(r, "value"));
	strbuf_adds(b, *tmpl_get(r, "fired") ? " > " : " \xE2\x89\xA4 ");
	c->fpct(b, tmpl_get(r, "threshold"), strlen(tmpl_get(r, "threshold")));
	return b->buf;
}

/* "Read: a, b, c" with each name a link; dry: only counts the lines. */
static size_t doc_links(struct pdf_ctx *c, const struct tmpl_vars *r, float x0,
                        float width, int dry)
{
	size_t i, n = tmpl_nrows(r, "docs"), lines = 1;
	float x = x0;
	const char *sep = pdf_v(c, "t_coll_list_sep");

	strbuf_reset(&c->val[2]);
	strbuf_addf(&c->val[2], "%s: ", pdf_v(c, "t_verdict_docs"));
	if (!dry) {
		pt_need(&c->d, 12.0f);
		c->d.y -= 12.0f;
	}
	x += dry ? pt_text_width(&c->d, c->val[2].buf, &PDF_BODY)
	         : pt_draw_str(&c->d, c->d.page, &PDF_BODY, x, c->d.y + 3.4f,
	                       c->val[2].buf);
	for (i = 0; i < n; i++) {
		const struct tmpl_vars *d = tmpl_row(r, "docs", i);
		const char *name = tmpl_get(d, "name");
		float w = pt_text_width(&c->d, name, &PDF_LINK_TEXT);
		if (x > x0 && x + w > x0 + width) {
			lines++;
			x = x0;
			if (!dry) {
				pt_need(&c->d, 12.0f);
				c->d.y -= 12.0f;
			}
		}
		if (!dry) {
			pt_draw_str(&c->d, c->d.page, &PDF_LINK_TEXT, x,
			            c->d.y + 3.4f, name);
			pt_link(&c->d, x, c->d.y, w, 12.0f, tmpl_get(d, "url"));
		}
		x += w;
		if (i + 1 < n) /* ", " or the Chinese "，" */
			x += dry ? pt_text_width(&c->d, sep, &PDF_BODY)
			         : pt_draw_str(&c->d, c->d.page, &PDF_BODY, x,
			                       c->d.y + 3.4f, sep);
	}
	return lines;
}

/* The verdict's metric, with how it was aggregated over ranks when it
 * was ("... (worst: rank 3)"), in c->val[4]. */
static const char *metric(struct pdf_ctx *c, const struct tmpl_vars *r)
{
	strbuf_reset(&c->val[4]);
	strbuf_adds(&c->val[4], tmpl_get(r, "metric"));
	if (*tmpl_get(r, "how"))
		strbuf_addf(&c->val[4], " (%s)", tmpl_get(r, "how"));
	return c->val[4].buf;
}

/* A fired finding's estimated gain line, with its assumption and
 * source, into b (empty when it has none). */
static void gain_line(struct pdf_ctx *c, const struct tmpl_vars *r,
                      struct strbuf *b)
{
	strbuf_reset(b);
	if (!*tmpl_get(r, "gain"))
		return;
	strbuf_addf(b, "%s: %s%s (%s: %s)", pdf_v(c, "t_gain_label"),
	            tmpl_get(r, "gain_text"), tmpl_get(r, "gain_note"),
	            pdf_v(c, "t_gain_source"), tmpl_get(r, "gain_source"));
}

/* Height of the gain line in width w: 0 without one. */
static float gain_height(struct pdf_ctx *c, const struct tmpl_vars *r, float w)
{
	struct strbuf b = STRBUF_INIT;
	float h = 0;

	gain_line(c, r, &b);
	if (b.len)
		h = 3 + 11.0f * (float)pt_nlines(&c->d, b.buf, &PDF_SMALL, w);
	strbuf_release(&b);
	return h;
}

/* Height of a verdict card with inner width w. */
static float card_height(struct pdf_ctx *c, const struct tmpl_vars *r, float w)
{
	float h =
	    8 + 17 +
	    14.0f * (float)pt_nlines(&c->d, tmpl_get(r, "title"), &PDF_H3, w);

	if (*tmpl_get(r, "applicable"))
		h += 20 +
		     10.0f *
		         (float)pt_nlines(&c->d, metric(c, r), &PDF_SMALL, w) +
		     12;
	else
		h += 10.0f * (float)pt_nlines(&c->d, tmpl_get(r, "no_stage"),
		                              &PDF_SMALL, w);
	h += 3 + 12.0f * (float)pt_nlines(&c->d, tmpl_get(r, "recommendation"),
	                                  &PDF_BODY, w);
	h += gain_height(c, r, w);
	return h + 3 + 12.0f * (float)doc_links(c, r, 0, w, 1) + 8;
}

/* Verdict cards: in a grid of GRID_COLS columns GRID_GAP points apart,
 * as the HTML's print layout sets them on A4 (assets/report.css, @media
 * print: three to a row, 8 px apart, the measure at 13 pt). */
#define GRID_COLS 3
#define GRID_GAP  8.0f

/* Draws verdict card r in the column x0, w0 wide, from the current y
 * down (its panel, h points high, drawn by the caller). */
static void card(struct pdf_ctx *c, const struct tmpl_vars *r, float x0,
                 float w0)
{
	unsigned long rgb = state_rgb(tmpl_get(r, "state"));
	struct pdf_style big = {13.0f, 1, PDF_FG};
	float x = x0 + 12, w = w0 - 22;
	struct strbuf gain = STRBUF_INIT;

	c->d.y -= 8;
	pt_need(&c->d, 17.0f);
	pdf_chart_state_mark(&c->d, x, c->d.y - 1.5f, tmpl_get(r, "state"));
	pdf_badge(c, x + 14, tmpl_get(r, "state_label"), rgb);
	pt_para(&c->d, tmpl_get(r, "title"), &PDF_H3, x, w, 14.0f);
	if (*tmpl_get(r, "applicable")) {
		pt_para(&c->d, measure(c, r), &big, x, w, 20.0f);
		pt_para(&c->d, metric(c, r), &PDF_SMALL, x, w, 10.0f);
		pdf_chart_meter(&c->d, r, x, w < 240 ? w : 240, rgb);
	} else {
		pt_para(&c->d, tmpl_get(r, "no_stage"), &PDF_SMALL, x, w,
		        10.0f);
	}
	c->d.y -= 3;
	pt_para(&c->d, tmpl_get(r, "recommendation"), &PDF_BODY, x, w, 12.0f);
	gain_line(c, r, &gain);
	if (gain.len) {
		c->d.y -= 3;
		pt_para(&c->d, gain.buf, &PDF_SMALL, x, w, 11.0f);
	}
	strbuf_release(&gain);
	c->d.y -= 3;
	doc_links(c, r, x, w, 0);
}

/* One row of the card grid: the cards rows[0..n), side by side, each as
 * tall as the tallest; a row taller than a page has each card on its own,
 * full width, flowing over pages. */
static void card_row(struct pdf_ctx *c, const struct tmpl_vars *const *rows,
                     size_t n)
{
	float cw = (CONTENT_W - (GRID_COLS - 1) * GRID_GAP) / GRID_COLS;
	float h = 0, top;
	size_t i;

	for (i = 0; i < n; i++) {
		float ch = card_height(c, rows[i], cw - 22);
		h = ch > h ? ch : h;
	}
	if (h > TOP - BOTTOM) {
		for (i = 0; i < n; i++) {
			pdf_card(c, card_height(c, rows[i], CONTENT_W - 22),
			         state_rgb(tmpl_get(rows[i], "state")));
			card(c, rows[i], MARGIN, CONTENT_W);
			c->d.y -= 8 + 6;
		}
		return;
	}
	pt_need(&c->d, h);
	top = c->d.y;
	for (i = 0; i < n; i++) {
		float x = MARGIN + (float)i * (cw + GRID_GAP);
		c->d.y = top;
		pdf_card_at(c, x, cw, h, state_rgb(tmpl_get(rows[i], "state")));
		card(c, rows[i], x, cw);
	}
	c->d.y = top - h - GRID_GAP;
}

static void verdicts(struct pdf_ctx *c)
{
	const struct tmpl_vars *row[GRID_COLS];
	size_t i, k = 0, n = tmpl_nrows(c->m, "verdicts");

	pdf_section(c, "t_sec_verdicts");
	pdf_para(c, pdf_v(c, "verdicts_intro"));
	if (!*pdf_v(c, "any_fired"))
		pdf_strong(c, pdf_v(c, "t_verdicts_none_fired"), PDF_OK);
	else
		pdf_para(c, pdf_v(c, "t_gain_method"));
	for (i = 0; i < n; i++) {
		const struct tmpl_vars *r = tmpl_row(c->m, "verdicts", i);
		if (!*tmpl_get(r, "fired"))
			continue;
		row[k++] = r;
		if (k == GRID_COLS) {
			card_row(c, row, k);
			k = 0;
		}
	}
	if (k)
		card_row(c, row, k);
	pdf_passing_checks(c);
}

static void stage_row(struct pdf_ctx *c, const struct tmpl_vars *r,
                      struct pdf_cell *cl)
{
	(void)c;
	cl[0].dot = pdf_chart_stage_rgb(tmpl_get(r, "id"));
}

static void stages(struct pdf_ctx *c)
{
	static const struct pdf_col spec[] = {
	    {"t_col_stage", 0.30f, 0},      {"t_col_kernels", 0.12f, 1},
	    {"t_col_segments", 0.12f, 1},   {"col_kernel_time_st", 0.16f, 1},
	    {"col_wall_time_st", 0.16f, 1}, {"t_col_share", 0.14f, 1}};
	static const char *const vars[] = {"label",     "kernels", "segments",
	                                   "kernel_ns", "wall_ns", "share"};
	tmpl_fmt_fn fmts[] = {NULL, c->fint, NULL, c->fdur, c->fdur, c->fpct};
	struct pdf_table t = {PDF_TABLE(spec, c->m, "stages"), .vars = vars,
	                      .fmts = fmts, .row = stage_row};

	pdf_section(c, "t_sec_stages");
	pdf_para(c, pdf_v(c, "t_sec_stages_intro"));
	if (*pdf_v(c, "stages_cards_note"))
		pdf_strong(c, pdf_v(c, "stages_cards_note"), PDF_FG);
	pdf_table(c, &t);
	pdf_subheading(c, pdf_v(c, "timeline_title"));
	pdf_chart_timeline(&c->d, c->m, &c->val[0], c->fpct);
}

static void category_row(struct pdf_ctx *c, const struct tmpl_vars *r,
                         struct pdf_cell *cl)
{
	if (*tmpl_get(r, "sub")) {
		/* a part of FA: indented under it, no swatch */
		strbuf_reset(&c->val[0]);
		strbuf_addf(&c->val[0], "\xE2\x80\x93 %s",
		            tmpl_get(r, "label"));
		cl[0].text = c->val[0].buf;
		cl[0].sub = tmpl_get(r, "about");
		cl[0].indent = 2;
		return;
	}
	cl[0].sub = tmpl_get(r, "about");
	cl[0].dot = pdf_chart_cat_rgb(tmpl_get(r, "cat"));
}

/* The VAE's time by part, under the VAE's categories (has_split). */
static void vae_split(struct pdf_ctx *c, const struct tmpl_vars *st)
{
	static const struct pdf_col spec[] = {{"t_col_vae_part", 0.52f, 0},
	                                      {"t_col_time", 0.24f, 1},
	                                      {"t_col_share", 0.24f, 1}};
	static const char *const vars[] = {"label", "time_ns", "share"};
	tmpl_fmt_fn fmts[] = {NULL, c->fdur, c->fpct};
	struct pdf_table t = {PDF_TABLE(spec, st, "split"), .vars = vars,
	                      .fmts = fmts};

	if (!*tmpl_get(st, "has_split"))
		return;
	pdf_subheading(c, pdf_v(c, "t_vae_split_title"));
	pdf_para(c, pdf_v(c, "t_vae_split_intro"));
	pdf_table(c, &t);
}

static void categories(struct pdf_ctx *c)
{
	static const struct pdf_col spec[] = {{"t_col_category", 0.52f, 0},
	                                      {"t_col_time", 0.18f, 1},
	                                      {"t_col_count", 0.15f, 1},
	                                      {"t_col_share", 0.15f, 1}};
	static const char *const vars[] = {"label", "time_ns", "count",
	                                   "share"};
	tmpl_fmt_fn fmts[] = {NULL, c->fdur, c->fint, c->fpct};
	struct pdf_table t = {PDF_TABLE(spec, NULL, "categories"), .vars = vars,
	                      .fmts = fmts, .row = category_row};
	size_t s, ns = tmpl_nrows(c->m, "stages");

	pdf_section(c, "t_sec_categories");
	for (s = 0; s < ns; s++) {
		const struct tmpl_vars *st = tmpl_row(c->m, "stages", s);
		strbuf_reset(&c->val[7]);
		strbuf_addf(&c->val[7], "%s \xE2\x80\x94 ",
		            tmpl_get(st, "label"));
		c->fdur(&c->val[7], tmpl_get(st, "kernel_ns"),
		        strlen(tmpl_get(st, "kernel_ns")));
		pdf_subheading(c, c->val[7].buf);
		pdf_chart_categories(&c->d, st, &c->val[0], c->fpct);
		t.m = st;
		pdf_table(c, &t);
		vae_split(c, st);
	}
}

static void top_row(struct pdf_ctx *c, const struct tmpl_vars *r,
                    struct pdf_cell *cl)
{
	(void)c;
	cl[1].dot = pdf_chart_cat_rgb(tmpl_get(r, "cat"));
}

static void top_table(struct pdf_ctx *c, const struct tmpl_vars *st)
{
	static const struct pdf_col spec[] = {
	    {"t_col_type", 0.31f, 0},  {"t_col_category", 0.11f, 0},
	    {"t_col_count", 0.08f, 1}, {"t_col_total", 0.11f, 1},
	    {"t_col_avg", 0.10f, 1},   {"t_col_min", 0.10f, 1},
	    {"t_col_max", 0.10f, 1},   {"t_col_share", 0.09f, 1}};
	static const char *const vars[] = {"type",     "cat_label", "count",
	                                   "total_ns", "avg_ns",    "min_ns",
	                                   "max_ns",   "share"};
	tmpl_fmt_fn fmts[] = {NULL,    NULL,    c->fint, c->fdur,
	                      c->fdur, c->fdur, c->fdur, c->fpct};
	struct pdf_table t = {PDF_TABLE(spec, st, "top"), .vars = vars,
	                      .fmts = fmts, .row = top_row};

	pdf_table(c, &t);
}

static void unmatched(struct pdf_ctx *c)
{
	static const struct pdf_col spec[] = {{"t_col_type", 0.55f, 0},
	                                      {"t_col_count", 0.13f, 1},
	                                      {"t_col_total", 0.18f, 1},
	                                      {"t_col_share", 0.14f, 1}};
	static const char *const vars[] = {"type", "count", "total_ns",
	                                   "share"};
	tmpl_fmt_fn fmts[] = {NULL, c->fint, c->fdur, c->fpct};
	struct pdf_table t = {PDF_TABLE(spec, c->m, "unmatched"), .vars = vars,
	                      .fmts = fmts};

	pdf_subheading(c, pdf_v(c, "t_sec_unmatched"));
	if (!tmpl_nrows(c->m, "unmatched")) {
		pdf_para(c, pdf_v(c, "t_no_unmatched"));
		return;
	}
	pdf_para(c, pdf_v(c, "t_sec_unmatched_intro"));
	pdf_table(c, &t);
}

static void top(struct pdf_ctx *c)
{
	size_t s, ns = tmpl_nrows(c->m, "stages");

	pdf_section(c, "t_sec_top");
	for (s = 0; s < ns; s++) {
		const struct tmpl_vars *st = tmpl_row(c->m, "stages", s);
		pdf_subheading(c, tmpl_get(st, "label"));
		pdf_chart_ranking(&c->d, st, "top", "type", "total_ns", 10,
		                  &c->val[0], c->fdur);
		top_table(c, st);
	}
	unmatched(c);
}

static void comm(struct pdf_ctx *c)
{
	static const struct pdf_col spec[] = {
	    {"t_col_stage", 0.25f, 0},     {"t_col_comm_time", 0.15f, 1},
	    {"t_col_comm_busy", 0.15f, 1}, {"t_col_exposed", 0.15f, 1},
	    {"t_col_wall_time", 0.15f, 1}, {"t_col_exposed_share", 0.15f, 1}};
	static const char *const vars[] = {"label",   "comm_ns",
	                                   "busy_ns", "exposed_ns",
	                                   "wall_ns", "exposed_share"};
	tmpl_fmt_fn fmts[] = {NULL,    c->fdur, c->fdur,
	                      c->fdur, c->fdur, c->fpct};
	struct pdf_table t = {PDF_TABLE(spec, c->m, "stages"), .vars = vars,
	                      .fmts = fmts, .when = "has_comm"};

	pdf_section(c, "t_sec_comm");
	if (!*pdf_v(c, "has_comm")) {
		pdf_para(c, pdf_v(c, "t_no_comm"));
		return;
	}
	pdf_para(c, pdf_v(c, "t_sec_comm_intro"));
	pdf_table(c, &t);
}

static void warnings(struct pdf_ctx *c)
{
	size_t i, n = tmpl_nrows(c->m, "warnings");

	pdf_section(c, "t_sec_warnings");
	if (!n)
		pdf_para(c, pdf_v(c, "t_no_warnings"));
	for (i = 0; i < n; i++) {
		const struct tmpl_vars *r = tmpl_row(c->m, "warnings", i);
		pdf_bullet(c, tmpl_get(r, "text"), tmpl_get(r, "file"));
	}
	c->d.y -= 4;
}

static void method(struct pdf_ctx *c)
{
	static const char *const paras[] = {
	    "method_categories", "method_stages",  "method_text_encoder",
	    "method_denoiser",   "t_method_times", "t_method_comm",
	    "method_steps"};
	size_t i, n = tmpl_nrows(c->m, "thresholds");

	pdf_section(c, "t_sec_method");
	for (i = 0; i < sizeof(paras) / sizeof(paras[0]); i++) {
		const char *p = pdf_v(c, paras[i]);
		if (p && *p) /* method_denoiser: where there is a loop */
			pdf_para(c, p);
	}
	pdf_subheading(c, pdf_v(c, "t_method_thresholds"));
	for (i = 0; i < n; i++) {
		const struct tmpl_vars *r = tmpl_row(c->m, "thresholds", i);
		strbuf_reset(&c->val[0]);
		strbuf_addf(&c->val[0], "%s: %s > ", tmpl_get(r, "id"),
		            tmpl_get(r, "metric"));
		c->fpct(&c->val[0], tmpl_get(r, "threshold"),
		        strlen(tmpl_get(r, "threshold")));
		pdf_bullet(c, c->val[0].buf, NULL);
	}
	c->d.y -= 4;
}

static void input_row(struct pdf_ctx *c, const struct tmpl_vars *r,
                      struct pdf_cell *cl)
{
	pdf_fmt(c->fint, &c->val[1], tmpl_get(r, "size"));
	strbuf_addf(&c->val[1], " %s", pdf_v(c, "t_bytes"));
	cl[1].text = c->val[1].buf;
}

static void inputs(struct pdf_ctx *c)
{
	static const struct pdf_col spec[] = {
	    {"t_col_file", 0.30f, 0},        {"t_col_size", 0.13f, 1},
	    {"t_col_variant", 0.17f, 0},     {"t_col_rows", 0.09f, 1},
	    {"t_col_kernels", 0.09f, 1},     {"t_col_skipped", 0.10f, 1},
	    {"t_col_line_endings", 0.12f, 0}};
	static const char *const vars[] = {"path",        NULL,      "variant",
	                                   "rows",        "kernels", "skipped",
	                                   "line_endings"};
	tmpl_fmt_fn fmts[] = {NULL,    NULL,    NULL, c->fint,
	                      c->fint, c->fint, NULL};
	struct pdf_table t = {PDF_TABLE(spec, c->m, "inputs"), .vars = vars,
	                      .fmts = fmts, .row = input_row};

	pdf_section(c, "t_sec_inputs");
	pdf_table(c, &t);
	strbuf_reset(&c->val[0]);
	strbuf_addf(&c->val[0], "%s: %s", pdf_v(c, "t_meta_rules"),
	            pdf_v(c, "rules_source"));
	pdf_small(c, c->val[0].buf);
	c->d.y -= 6.0f;
	pdf_rank_inputs(c);
}

static void doc_row(struct pdf_ctx *c, const struct tmpl_vars *r,
                    struct pdf_cell *cl)
{
	(void)c;
	cl[0].url = tmpl_get(r, "url");
	cl[0].sub = tmpl_get(r, "summary");
}

static void docs(struct pdf_ctx *c)
{
	static const struct pdf_col spec[] = {{"t_col_doc", 0.55f, 0},
	                                      {"t_col_when", 0.45f, 0}};
	static const char *const vars[] = {"name", "when"};
	struct pdf_table t = {PDF_TABLE(spec, c->m, "docs"), .vars = vars,
	                      .row = doc_row};

	pdf_section(c, "t_sec_docs");
	pdf_para(c, pdf_v(c, "t_sec_docs_intro"));
	/* the closing line stays with the last row, never alone */
	t.keep_last = 16 + 10.0f * (float)pt_nlines(&c->d, pdf_v(c, "footer"),
	                                            &PDF_SMALL, CONTENT_W);
	pdf_table(c, &t);
	c->d.y -= 6;
	pdf_small(c, pdf_v(c, "footer"));
}

void pdf_report_layout(struct pdf_ctx *c)
{
	title_block(c);
	verdicts(c);
	pdf_collection_section(c);
	pdf_ranks_section(c);
	stages(c);
	categories(c);
	top(c);
	comm(c);
	pdf_cluster_sections(c);
	pdf_steps_section(c);
	pdf_memory_section(c);
	pdf_iters_section(c);
	warnings(c);
	method(c);
	inputs(c);
	pdf_provenance_section(c);
	docs(c);
}
