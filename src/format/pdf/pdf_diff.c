/* The comparison report as a PDF: the diff view model laid out with
 * libharu on A4 pages, section by section in the order of
 * templates/diff.html.tmpl, with the single-run report's text, table and
 * section helpers (pdf_text.h, pdf_ranks.h) and the document set-up,
 * page furniture and saving both reports share (render/pdf_doc.c). */
#include "format/pdf/pdf_diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/pdf/pdf_chart.h"
#include "format/pdf/pdf_ranks.h"
#include "format/pdf/pdf_text.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define N(a)  (sizeof(a) / sizeof((a)[0]))
#define DASH  "\xE2\x80\x93" /* shown for an undefined value */
#define ARROW " \xE2\x86\x92 "
#define MINUS "\xE2\x88\x92" /* U+2212, as diff_model.c writes it */

static const struct pdf_style S_BODY = {9.0f, 0, PDF_FG};
static const struct pdf_style S_H1 = {18.0f, 1, PDF_FG};

/* The layout context: the shared one, plus heading texts that must live
 * as long as their table (repeated on each new page). */
struct dctx {
	struct pdf_ctx p;
	struct strbuf head[PDF_MAX_COLS];
	struct strbuf
	    sub[PDF_MAX_COLS]; /* cell sub-lines c->p.val has no room for */
};

/* ---- small helpers ------------------------------------------------------- */

static const char *v(const struct dctx *c, const char *name)
{
	return tmpl_get(c->p.m, name);
}

/* Column k's heading: variable a, or "a · b" of two variables. */
static const char *head2(struct dctx *c, size_t k, const char *a, const char *b)
{
	strbuf_reset(&c->head[k]);
	strbuf_adds(&c->head[k], v(c, a));
	if (b)
		strbuf_addf(&c->head[k], " \xC2\xB7 %s", v(c, b));
	return c->head[k].buf;
}

/* A raw ns value formatted by dur into c->val[k]. */
static const char *dur(struct dctx *c, size_t k, const char *value)
{
	return pdf_fmt(c->p.fdur, &c->p.val[k], value);
}

static const char *pct(struct dctx *c, size_t k, const char *value)
{
	if (!*value)
		return DASH;
	return pdf_fmt(c->p.fpct, &c->p.val[k], value);
}

static const char *or_dash(const char *s)
{
	return *s ? s : DASH;
}

/* value formatted by dur, its space a no-break one: a narrow cell wraps
 * "173.47 ms → 86.16 ms" at the arrow, never inside a number. */
static void add_dur_nbsp(struct dctx *c, struct strbuf *b, const char *value)
{
	const char *p;

	pdf_fmt(c->p.fdur, &c->sub[0], value);
	for (p = c->sub[0].buf; *p; p++)
		if (*p == ' ')
			strbuf_adds(b, "\xC2\xA0");
		else
			strbuf_addch(b, *p);
}

/* "base → new" of r's prefix_base_ns and prefix_new_ns into c->val[k]. */
static const char *arrow(struct dctx *c, size_t k, const struct tmpl_vars *r,
                         const char *prefix)
{
	struct strbuf *b = &c->p.val[k];
	char key[64];

	strbuf_reset(b);
	snprintf(key, sizeof(key), "%s_base_ns", prefix);
	add_dur_nbsp(c, b, tmpl_get(r, key));
	strbuf_adds(b, ARROW);
	snprintf(key, sizeof(key), "%s_new_ns", prefix);
	add_dur_nbsp(c, b, tmpl_get(r, key));
	return b->buf;
}

/* s as the CJK font can draw it: a string with any Chinese is drawn wholly
 * in that font (pt_font), and WenQuanYi Zen Hei has no U+2212 (an empty box
 * where "−17.0 个百分点" should start), so there each minus becomes "-"
 * (into sb); s itself otherwise. */
static const char *cjk_minus(struct dctx *c, struct strbuf *sb, const char *s)
{
	const char *p = s;

	if (!strstr(s, MINUS) || pt_font(&c->p.d, s, &S_BODY) != c->p.d.cjk)
		return s;
	strbuf_reset(sb);
	while (*p) {
		if (!strncmp(p, MINUS, strlen(MINUS))) {
			strbuf_addch(sb, '-');
			p += strlen(MINUS);
		} else {
			strbuf_addch(sb, *p++);
		}
	}
	return sb->buf;
}

/* "Δ (Δ %)" of r's prefix_delta and prefix_pct, into sb. */
static const char *delta_pct(struct strbuf *sb, const struct tmpl_vars *r,
                             const char *prefix)
{
	char key[64];

	strbuf_reset(sb);
	snprintf(key, sizeof(key), "%s_delta", prefix);
	strbuf_adds(sb, tmpl_get(r, key));
	snprintf(key, sizeof(key), "%s_pct", prefix);
	strbuf_addf(sb, " (%s)", or_dash(tmpl_get(r, key)));
	return sb->buf;
}

/* ---- header, summary ----------------------------------------------------- */

static void meta(struct dctx *c, const char *label, const char *value)
{
	pt_need(&c->p.d, 12.0f);
	pt_draw_str(&c->p.d, c->p.d.page, &PDF_SMALL, MARGIN,
	            c->p.d.y - 12 * 0.72f, label);
	pt_para(&c->p.d, value, &S_BODY, MARGIN + 130, CONTENT_W - 130, 12.0f);
}

static void title_block(struct dctx *c)
{
	struct strbuf *b = &c->p.val[0];

	pt_para(&c->p.d, v(c, "title"), &S_H1, MARGIN, CONTENT_W, 24.0f);
	c->p.d.y -= 6.0f;
	meta(c, v(c, "t_diff_meta_base"), v(c, "base_source"));
	meta(c, v(c, "t_diff_meta_new"), v(c, "new_source"));
	meta(c, v(c, "t_diff_meta_times"), v(c, "times_note"));
	strbuf_reset(b);
	strbuf_addf(b, "%s" ARROW "%s", v(c, "base_steps"), v(c, "new_steps"));
	meta(c, v(c, "t_diff_meta_steps"), b->buf);
	strbuf_reset(b);
	strbuf_addf(b, "%s" ARROW "%s", v(c, "base_ranks"), v(c, "new_ranks"));
	meta(c, v(c, "t_diff_meta_ranks"), b->buf);
	meta(c, v(c, "t_meta_date"), v(c, "date"));
	strbuf_reset(b);
	strbuf_addf(b, "sdperf %s", v(c, "version"));
	meta(c, v(c, "t_meta_version"), b->buf);
	c->p.d.y -= 6.0f;
}

static unsigned long trend_rgb(const char *trend)
{
	return !strcmp(trend, "faster")   ? PDF_OK
	       : !strcmp(trend, "slower") ? PDF_FIRED
	                                  : PDF_NA;
}

/* One line per stage: a coloured bar, "DiT: 1.23× faster", the walls. */
static void speedups(struct dctx *c)
{
	struct pdf_style big = {13.0f, 1, PDF_FG};
	size_t i, n = tmpl_nrows(c->p.m, "summary");

	for (i = 0; i < n; i++) {
		const struct tmpl_vars *r = tmpl_row(c->p.m, "summary", i);
		struct strbuf *b = &c->p.val[0];
		float w;
		big.rgb = (unsigned)trend_rgb(tmpl_get(r, "trend"));
		pt_need(&c->p.d, 20.0f);
		c->p.d.y -= 18.0f;
		pt_rect(&c->p.d, MARGIN, c->p.d.y - 2, 4, 16, big.rgb);
		strbuf_reset(b);
		strbuf_addf(b, "%s: %s", tmpl_get(r, "label"),
		            tmpl_get(r, "speedup_text"));
		w = pt_draw_str(&c->p.d, c->p.d.page, &big, MARGIN + 10,
		                c->p.d.y + 1, b->buf);
		pt_draw_str(&c->p.d, c->p.d.page, &PDF_SMALL, MARGIN + 22 + w,
		            c->p.d.y + 2, arrow(c, 1, r, "wall"));
	}
	c->p.d.y -= 10.0f;
}

static void verdict_table(struct dctx *c)
{
	static const float w[] = {0.42f, 0.16f, 0.14f, 0.14f, 0.14f};
	static const char *const h[] = {
	    "t_diff_col_verdict", "t_diff_col_change", "t_diff_col_base",
	    "t_diff_col_new", "t_diff_col_threshold"};
	struct pdf_col cols[5];
	struct pdf_cell cl[5];
	size_t i, n = tmpl_nrows(c->p.m, "verdicts");

	for (i = 0; i < 5; i++)
		cols[i] =
		    (struct pdf_col){head2(c, i, h[i], NULL), w[i], i > 1};
	pt_table_head(&c->p.d, cols, 5);
	for (i = 0; i < n; i++) {
		const struct tmpl_vars *r = tmpl_row(c->p.m, "verdicts", i);
		const char *ch = tmpl_get(r, "change");
		pdf_cells_init(&c->p, cl, 5);
		cl[0].text = tmpl_get(r, "title");
		strbuf_addf(&c->p.val[0], "%s \xC2\xB7 %s", tmpl_get(r, "id"),
		            tmpl_get(r, "stage_label"));
		cl[0].sub = c->p.val[0].buf;
		cl[1].text = tmpl_get(r, "change_label");
		cl[1].dot = !strcmp(ch, "cleared") ? PDF_OK
		            : !strcmp(ch, "never") ? PDF_NA
		                                   : PDF_FIRED;
		cl[2].text = pct(c, 2, tmpl_get(r, "base"));
		cl[3].text = pct(c, 3, tmpl_get(r, "new"));
		pdf_fmt(c->p.fpct, &c->p.val[5], tmpl_get(r, "threshold"));
		strbuf_reset(&c->p.val[4]);
		strbuf_addf(&c->p.val[4], "> %s", c->p.val[5].buf);
		cl[4].text = c->p.val[4].buf;
		pt_table_row(&c->p.d, cols, 5, cl, 0);
	}
	pdf_table_end(&c->p);
}

static void summary(struct dctx *c)
{
	size_t i, n = tmpl_nrows(c->p.m, "warnings");

	pdf_section(&c->p, "t_diff_sec_summary");
	pdf_para(&c->p, v(c, "t_diff_sec_summary_intro"));
	speedups(c);
	pdf_subheading(&c->p, v(c, "t_diff_sec_verdicts"));
	pdf_para(&c->p, v(c, "t_diff_sec_verdicts_intro"));
	if (!*v(c, "any_change"))
		pdf_para(&c->p, v(c, "t_diff_verdicts_none_changed"));
	verdict_table(c);
	pdf_subheading(&c->p, v(c, "t_diff_sec_warnings"));
	if (!n)
		pdf_para(&c->p, v(c, "t_diff_no_warnings"));
	for (i = 0; i < n; i++)
		pdf_bullet(&c->p,
		           tmpl_get(tmpl_row(c->p.m, "warnings", i), "text"),
		           NULL);
}

/* ---- stages, communication ----------------------------------------------- */

static void stage_table(struct dctx *c)
{
	static const float w[] = {0.20f, 0.11f, 0.11f, 0.11f,
	                          0.11f, 0.11f, 0.11f, 0.14f};
	static const char *const g[] = {"t_col_wall_time", "t_col_kernel_time"};
	static const char *const h[] = {"t_diff_col_base", "t_diff_col_new",
	                                "t_diff_col_delta"};
	static const char *const m[] = {"wall", "kernel"};
	struct pdf_col cols[8];
	struct pdf_cell cl[8];
	size_t i, k, j, n = tmpl_nrows(c->p.m, "stages");
	char key[32];

	cols[0] = (struct pdf_col){head2(c, 0, "t_col_stage", NULL), w[0], 0};
	for (k = 0; k < 6; k++)
		cols[1 + k] = (struct pdf_col){
		    head2(c, 1 + k, g[k / 3], h[k % 3]), w[1 + k], 1};
	cols[7] =
	    (struct pdf_col){head2(c, 7, "t_diff_col_speedup", NULL), w[7], 1};
	pt_table_head(&c->p.d, cols, 8);
	for (i = 0; i < n; i++) {
		const struct tmpl_vars *r = tmpl_row(c->p.m, "stages", i);
		pdf_cells_init(&c->p, cl, 8);
		cl[0].text = tmpl_get(r, "label");
		cl[0].sub = tmpl_get(r, "presence");
		cl[0].dot = pdf_chart_stage_rgb(tmpl_get(r, "id"));
		for (j = 0; j < 2; j++) {
			snprintf(key, sizeof(key), "%s_base_ns", m[j]);
			cl[1 + 3 * j].text =
			    dur(c, 1 + 3 * j, tmpl_get(r, key));
			snprintf(key, sizeof(key), "%s_new_ns", m[j]);
			cl[2 + 3 * j].text =
			    dur(c, 2 + 3 * j, tmpl_get(r, key));
			snprintf(key, sizeof(key), "%s_delta", m[j]);
			cl[3 + 3 * j].text = tmpl_get(r, key);
			snprintf(key, sizeof(key), "%s_pct", m[j]);
			cl[3 + 3 * j].sub = or_dash(tmpl_get(r, key));
		}
		cl[7].text = tmpl_get(r, "speedup_text");
		pt_table_row(&c->p.d, cols, 8, cl, 0);
	}
	pdf_table_end(&c->p);
}

static void comm_table(struct dctx *c)
{
	static const float w[] = {0.22f, 0.13f, 0.13f, 0.13f,
	                          0.13f, 0.13f, 0.13f};
	static const char *const h[] = {"t_col_stage",
	                                "t_diff_col_exposed_base",
	                                "t_diff_col_exposed_new",
	                                "t_diff_col_delta",
	                                "t_diff_col_share_base",
	                                "t_diff_col_share_new",
	                                "t_diff_col_share_delta"};
	struct pdf_col cols[7];
	struct pdf_cell cl[7];
	size_t i, n = tmpl_nrows(c->p.m, "stages");

	for (i = 0; i < 7; i++)
		cols[i] =
		    (struct pdf_col){head2(c, i, h[i], NULL), w[i], i > 0};
	pt_table_head(&c->p.d, cols, 7);
	for (i = 0; i < n; i++) {
		const struct tmpl_vars *r = tmpl_row(c->p.m, "stages", i);
		pdf_cells_init(&c->p, cl, 7);
		cl[0].text = tmpl_get(r, "label");
		cl[1].text = dur(c, 1, tmpl_get(r, "exposed_base_ns"));
		cl[2].text = dur(c, 2, tmpl_get(r, "exposed_new_ns"));
		cl[3].text = tmpl_get(r, "exposed_delta");
		cl[4].text = pct(c, 4, tmpl_get(r, "exposed_share_base"));
		cl[5].text = pct(c, 5, tmpl_get(r, "exposed_share_new"));
		cl[6].text = cjk_minus(c, &c->sub[6],
		                       tmpl_get(r, "exposed_share_delta"));
		pt_table_row(&c->p.d, cols, 7, cl, 0);
	}
	pdf_table_end(&c->p);
}

static void stages(struct dctx *c)
{
	pdf_section(&c->p, "t_diff_sec_stages");
	pdf_para(&c->p, v(c, "t_diff_sec_stages_intro"));
	stage_table(c);
	pdf_subheading(&c->p, v(c, "t_diff_sec_comm"));
	if (!*v(c, "has_comm")) {
		pdf_para(&c->p, v(c, "t_diff_no_comm"));
		return;
	}
	pdf_para(&c->p, v(c, "t_diff_sec_comm_intro"));
	comm_table(c);
}

/* ---- categories, kernel types, ranks ------------------------------------- */

static void cat_table(struct dctx *c, const struct tmpl_vars *st)
{
	static const float w[] = {0.20f, 0.12f, 0.12f, 0.12f,
	                          0.10f, 0.11f, 0.11f, 0.12f};
	static const char *const h[] = {
	    "t_col_category",       "t_diff_col_base",
	    "t_diff_col_new",       "t_diff_col_delta",
	    "t_diff_col_delta_pct", "t_diff_col_share_base",
	    "t_diff_col_share_new", "t_diff_col_share_delta"};
	struct pdf_col cols[8];
	struct pdf_cell cl[8];
	size_t i, n = tmpl_nrows(st, "cats");

	for (i = 0; i < 8; i++)
		cols[i] =
		    (struct pdf_col){head2(c, i, h[i], NULL), w[i], i > 0};
	pt_table_head(&c->p.d, cols, 8);
	for (i = 0; i < n; i++) {
		const struct tmpl_vars *r = tmpl_row(st, "cats", i);
		pdf_cells_init(&c->p, cl, 8);
		cl[0].text = tmpl_get(r, "label");
		cl[0].dot = pdf_chart_cat_rgb(tmpl_get(r, "cat"));
		cl[1].text = dur(c, 1, tmpl_get(r, "base_ns"));
		cl[2].text = dur(c, 2, tmpl_get(r, "new_ns"));
		cl[3].text = tmpl_get(r, "delta");
		cl[4].text = or_dash(tmpl_get(r, "pct"));
		cl[5].text = pct(c, 5, tmpl_get(r, "share_base"));
		cl[6].text = pct(c, 6, tmpl_get(r, "share_new"));
		cl[7].text =
		    cjk_minus(c, &c->sub[7], tmpl_get(r, "share_delta"));
		pt_table_row(&c->p.d, cols, 8, cl, 0);
	}
	pdf_table_end(&c->p);
}

static void categories(struct dctx *c)
{
	size_t i, n = tmpl_nrows(c->p.m, "stages");

	pdf_section(&c->p, "t_diff_sec_categories");
	pdf_para(&c->p, v(c, "t_diff_sec_categories_intro"));
	for (i = 0; i < n; i++) {
		const struct tmpl_vars *st = tmpl_row(c->p.m, "stages", i);
		pdf_subheading(&c->p, tmpl_get(st, "label"));
		cat_table(c, st);
	}
}

static void type_table(struct dctx *c, const struct tmpl_vars *tab)
{
	static const float w[] = {0.30f, 0.15f, 0.11f, 0.11f,
	                          0.11f, 0.12f, 0.10f};
	static const char *const h[] = {
	    "t_col_type",          "t_col_stage",    "t_col_category",
	    "t_diff_col_base",     "t_diff_col_new", "t_diff_col_delta",
	    "t_diff_col_delta_pct"};
	struct pdf_col cols[7];
	struct pdf_cell cl[7];
	size_t i, n = tmpl_nrows(tab, "types");

	pdf_subheading(&c->p, tmpl_get(tab, "heading"));
	if (!n) {
		pdf_para(&c->p, v(c, "t_diff_types_none"));
		return;
	}
	for (i = 0; i < 7; i++)
		cols[i] =
		    (struct pdf_col){head2(c, i, h[i], NULL), w[i], i > 2};
	pt_table_head(&c->p.d, cols, 7);
	for (i = 0; i < n; i++) {
		const struct tmpl_vars *r = tmpl_row(tab, "types", i);
		pdf_cells_init(&c->p, cl, 7);
		cl[0].text = tmpl_get(r, "type");
		cl[0].sub = tmpl_get(r, "status_label");
		cl[1].text = tmpl_get(r, "stage_label");
		cl[2].text = tmpl_get(r, "cat_label");
		cl[2].dot = pdf_chart_cat_rgb(tmpl_get(r, "cat"));
		cl[3].text = dur(c, 3, tmpl_get(r, "base_ns"));
		cl[4].text = dur(c, 4, tmpl_get(r, "new_ns"));
		cl[5].text = tmpl_get(r, "delta");
		cl[6].text = or_dash(tmpl_get(r, "pct"));
		pt_table_row(&c->p.d, cols, 7, cl, 0);
	}
	pdf_table_end(&c->p);
}

/* The types of one side only: a bullet each, "stage · category · time". */
static void type_list(struct dctx *c, const char *heading, const char *loop,
                      const char *more)
{
	size_t i, n = tmpl_nrows(c->p.m, loop);

	pdf_subheading(&c->p, v(c, heading));
	if (!n)
		pdf_para(&c->p, v(c, "t_diff_types_none"));
	for (i = 0; i < n; i++) {
		const struct tmpl_vars *r = tmpl_row(c->p.m, loop, i);
		struct strbuf *b = &c->p.val[1];
		strbuf_reset(b);
		strbuf_addf(b, "%s \xC2\xB7 %s \xC2\xB7 ",
		            tmpl_get(r, "stage_label"),
		            tmpl_get(r, "cat_label"));
		c->p.fdur(b, tmpl_get(r, "ns"), strlen(tmpl_get(r, "ns")));
		pdf_bullet(&c->p, tmpl_get(r, "type"), b->buf);
	}
	if (*v(c, more))
		pdf_para(&c->p, v(c, more));
}

static void types(struct dctx *c)
{
	size_t i, n = tmpl_nrows(c->p.m, "type_tables");

	pdf_section(&c->p, "t_diff_sec_types");
	pdf_para(&c->p, v(c, "types_intro"));
	for (i = 0; i < n; i++)
		type_table(c, tmpl_row(c->p.m, "type_tables", i));
	type_list(c, "t_diff_types_added", "added", "added_more");
	type_list(c, "t_diff_types_removed", "removed", "removed_more");
}

static void ranks(struct dctx *c)
{
	static const float w[] = {0.08f,  0.184f, 0.184f,
	                          0.184f, 0.184f, 0.184f};
	static const char *const h[] = {
	    "t_col_rank",          "t_col_dit_time",
	    "t_diff_col_dit_wall", "t_diff_col_dit_exposed",
	    "t_col_dit_compute",   "t_col_comm_wait"};
	static const char *const m[] = {"dit_kernel", "dit_wall", "dit_exposed",
	                                "dit_compute", "comm_wait"};
	struct pdf_col cols[6];
	struct pdf_cell cl[6];
	size_t i, k, n = tmpl_nrows(c->p.m, "ranks");

	if (!*v(c, "has_ranks"))
		return;
	pdf_section(&c->p, "t_diff_sec_ranks");
	pdf_para(&c->p, v(c, "t_diff_sec_ranks_intro"));
	for (i = 0; i < 6; i++)
		cols[i] = (struct pdf_col){head2(c, i, h[i], NULL), w[i], 1};
	pt_table_head(&c->p.d, cols, 6);
	for (i = 0; i < n; i++) {
		const struct tmpl_vars *r = tmpl_row(c->p.m, "ranks", i);
		pdf_cells_init(&c->p, cl, 6);
		cl[0].text = tmpl_get(r, "id");
		for (k = 0; k < 5; k++) {
			if (k == 4 && !*tmpl_get(r, "has_wait")) {
				cl[5].text = DASH;
				break;
			}
			cl[1 + k].text = arrow(c, 1 + k, r, m[k]);
			cl[1 + k].sub = delta_pct(&c->sub[1 + k], r, m[k]);
		}
		pt_table_row(&c->p.d, cols, 6, cl, 0);
	}
	pdf_table_end(&c->p);
}

static void method(struct dctx *c)
{
	static const char *const paras[] = {
	    "t_diff_method_match", "method_steps", "t_diff_method_json",
	    "t_diff_method_numbers"};
	size_t i;

	pdf_section(&c->p, "t_diff_sec_method");
	for (i = 0; i < N(paras); i++)
		pdf_para(&c->p, cjk_minus(c, &c->sub[0], v(c, paras[i])));
	c->p.d.y -= 6;
	pt_para(&c->p.d, v(c, "footer"), &PDF_SMALL, MARGIN, CONTENT_W, 10.0f);
}

/* ---- document ---------------------------------------------------------- */

/* Builds the whole document; libharu errors longjmp out of it. */
static void build(struct dctx *c)
{
	pdf_doc_start(&c->p);
	pdf_doc_metadata(&c->p, "t_diff_pdf_subject");
	pt_new_page(&c->p.d);
	title_block(c);
	summary(c);
	stages(c);
	pdf_diff_chart(&c->p);
	categories(c);
	types(c);
	ranks(c);
	method(c);
	pdf_doc_decorate(&c->p);
	pdf_doc_save(&c->p);
}

static void ctx_init(struct dctx *c)
{
	size_t i;

	pt_doc_init(&c->p.d);
	for (i = 0; i < PDF_MAX_COLS; i++) {
		strbuf_init(&c->p.val[i]);
		strbuf_init(&c->head[i]);
		strbuf_init(&c->sub[i]);
	}
	strbuf_init(&c->p.bytes);
}

static void ctx_release(struct dctx *c)
{
	size_t i;

	pt_doc_release(&c->p.d);
	for (i = 0; i < PDF_MAX_COLS; i++) {
		strbuf_release(&c->p.val[i]);
		strbuf_release(&c->head[i]);
		strbuf_release(&c->sub[i]);
	}
	strbuf_release(&c->p.bytes);
	free(c);
}

int pdf_diff_render(const struct tmpl_vars *model, const struct pdf_opts *o,
                    struct strbuf *out, struct err *e)
{
	/* on the heap, as in pdf.c: what setjmp/longjmp cross must not live
	 * in registers */
	struct dctx *c = xcalloc(1, sizeof(*c));
	int ret = 0;

	c->p.m = model;
	c->p.o = o;
	ctx_init(c);
	if (setjmp(c->p.d.jb))
		ret =
		    err_set(e, c->p.d.err.code ? c->p.d.err.code : ERR_INTERNAL,
		            "%s", c->p.d.err.msg);
	else
		build(c);
	if (!ret)
		strbuf_addbuf(out, &c->p.bytes);
	ctx_release(c);
	return ret;
}
