/* The comparison PDF's content: the diff view model laid out section by
 * section in the order of templates/diff.html.tmpl, with the single-run
 * report's layout (pdf_layout.h); the driver (pdf.c) makes the document
 * around it. */
#include "format/pdf/pdf_diff.h"

#include <stdio.h>
#include <string.h>

#include "format/pdf/pdf_chart.h"
#include "util/banned.h"

#define N(a)  (sizeof(a) / sizeof((a)[0]))
#define DASH  "\xE2\x80\x93" /* shown for an undefined value */
#define ARROW " \xE2\x86\x92 "

/* ---- small helpers ------------------------------------------------------- */

/* Column k's heading: variable a, or "a · b" of two variables. */
static const char *head2(struct pdf_ctx *c, size_t k, const char *a,
                         const char *b)
{
	strbuf_reset(&c->head[k]);
	strbuf_adds(&c->head[k], pdf_v(c, a));
	if (b)
		strbuf_addf(&c->head[k], " \xC2\xB7 %s", pdf_v(c, b));
	return c->head[k].buf;
}

/* A raw ns value formatted by dur into c->val[k]. */
static const char *dur(struct pdf_ctx *c, size_t k, const char *value)
{
	return pdf_fmt(c->fdur, &c->val[k], value);
}

static const char *pct(struct pdf_ctx *c, size_t k, const char *value)
{
	if (!*value)
		return DASH;
	return pdf_fmt(c->fpct, &c->val[k], value);
}

static const char *or_dash(const char *s)
{
	return *s ? s : DASH;
}

/* value formatted by dur, its space a no-break one: a narrow cell wraps
 * "173.47 ms → 86.16 ms" at the arrow, never inside a number. */
static void add_dur_nbsp(struct pdf_ctx *c, struct strbuf *b, const char *value)
{
	const char *p;

	pdf_fmt(c->fdur, &c->sub[0], value);
	for (p = c->sub[0].buf; *p; p++)
		if (*p == ' ')
			strbuf_adds(b, "\xC2\xA0");
		else
			strbuf_addch(b, *p);
}

/* "base → new" of r's prefix_base_ns and prefix_new_ns into c->val[k]. */
static const char *arrow(struct pdf_ctx *c, size_t k, const struct tmpl_vars *r,
                         const char *prefix)
{
	struct strbuf *b = &c->val[k];
	char key[64];

	strbuf_reset(b);
	snprintf(key, sizeof(key), "%s_base_ns", prefix);
	add_dur_nbsp(c, b, tmpl_get(r, key));
	strbuf_adds(b, ARROW);
	snprintf(key, sizeof(key), "%s_new_ns", prefix);
	add_dur_nbsp(c, b, tmpl_get(r, key));
	return b->buf;
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

static void title_block(struct pdf_ctx *c)
{
	struct strbuf *b = &c->val[0];

	pdf_title(c, 130);
	pdf_meta(c, "t_diff_meta_base", pdf_v(c, "base_source"));
	pdf_meta(c, "t_diff_meta_new", pdf_v(c, "new_source"));
	pdf_meta(c, "t_diff_meta_times", pdf_v(c, "times_note"));
	strbuf_reset(b);
	strbuf_addf(b, "%s" ARROW "%s", pdf_v(c, "base_steps"),
	            pdf_v(c, "new_steps"));
	pdf_meta(c, "t_diff_meta_steps", b->buf);
	strbuf_reset(b);
	strbuf_addf(b, "%s" ARROW "%s", pdf_v(c, "base_ranks"),
	            pdf_v(c, "new_ranks"));
	pdf_meta(c, "t_diff_meta_ranks", b->buf);
	pdf_title_end(c);
}

/* The colour of a speed-up: green faster, red slower; a change within
 * the noise band keeps the text colour (grey would read as disabled) and
 * its card a grey bar, as in the HTML. */
static unsigned long trend_rgb(const char *trend, int text)
{
	return !strcmp(trend, "faster")   ? PDF_OK
	       : !strcmp(trend, "slower") ? PDF_FIRED
	       : text                     ? PDF_FG
	                                  : PDF_NA;
}

/* Speed-up cards, as the HTML's grid of them: SPEEDUP_COLS side by side,
 * each with the stage (its colour dot and name), the factor, and the wall
 * times base → new. */
#define SPEEDUP_COLS 3
#define SPEEDUP_GAP  10.0f

static const struct pdf_style S_STAGE = {8.0f, 0, PDF_MUTED};

/* The factor's style: 13 points, or 11 when a factor would not fit on
 * one line of a card w wide at 13 ("1.00×：变化在 2% 以内"). */
static struct pdf_style factor_style(struct pdf_ctx *c, float w)
{
	struct pdf_style st = {13.0f, 1, PDF_FG};
	size_t i, n = tmpl_nrows(c->m, "summary");

	for (i = 0; i < n; i++)
		if (pt_text_width(
		        &c->d,
		        tmpl_get(tmpl_row(c->m, "summary", i), "speedup_text"),
		        &st) > w)
			st.size = 11.0f;
	return st;
}

/* Height of the card of summary row r, inner width w. */
static float speedup_height(struct pdf_ctx *c, const struct tmpl_vars *r,
                            const struct pdf_style *fs, float w)
{
	return 8 +
	       11.0f * (float)pt_nlines(&c->d, tmpl_get(r, "label"), &S_STAGE,
	                                w - 10) +
	       (fs->size + 4) *
	           (float)pt_nlines(&c->d, tmpl_get(r, "speedup_text"), fs, w) +
	       10.0f * (float)pt_nlines(&c->d, arrow(c, 1, r, "wall"),
	                                &PDF_SMALL, w) +
	       8;
}

static void speedup_card(struct pdf_ctx *c, const struct tmpl_vars *r,
                         const struct pdf_style *fs, float x0, float w0,
                         float h)
{
	struct pdf_style factor = *fs;
	float x = x0 + 12, w = w0 - 20;
	long dot = pdf_chart_stage_rgb(tmpl_get(r, "id"));

	factor.rgb = (unsigned)trend_rgb(tmpl_get(r, "trend"), 1);
	pdf_card_at(c, x0, w0, h, trend_rgb(tmpl_get(r, "trend"), 0));
	c->d.y -= 8;
	if (dot >= 0)
		pt_rect(&c->d, x, c->d.y - 8.5f, 7, 7, (unsigned long)dot);
	pt_para(&c->d, tmpl_get(r, "label"), &S_STAGE, x + 10, w - 10, 11.0f);
	pt_para(&c->d, tmpl_get(r, "speedup_text"), &factor, x, w,
	        factor.size + 4);
	pt_para(&c->d, arrow(c, 1, r, "wall"), &PDF_SMALL, x, w, 10.0f);
}

static void speedups(struct pdf_ctx *c)
{
	float cw =
	    (CONTENT_W - (SPEEDUP_COLS - 1) * SPEEDUP_GAP) / SPEEDUP_COLS;
	size_t i, k, n = tmpl_nrows(c->m, "summary");
	struct pdf_style fs = factor_style(c, cw - 20);

	c->d.y -= 4.0f;
	for (i = 0; i < n; i += SPEEDUP_COLS) {
		size_t m = n - i < SPEEDUP_COLS ? n - i : SPEEDUP_COLS;
		float h = 0, top;
		for (k = 0; k < m; k++) {
			float ch = speedup_height(
			    c, tmpl_row(c->m, "summary", i + k), &fs, cw - 20);
			h = ch > h ? ch : h;
		}
		pt_need(&c->d, h);
		top = c->d.y;
		for (k = 0; k < m; k++) {
			c->d.y = top;
			speedup_card(c, tmpl_row(c->m, "summary", i + k), &fs,
			             MARGIN + (float)k * (cw + SPEEDUP_GAP), cw,
			             h);
		}
		c->d.y = top - h - SPEEDUP_GAP;
	}
	c->d.y -= 4.0f;
}

static void verdict_row(struct pdf_ctx *c, const struct tmpl_vars *r,
                        struct pdf_cell *cl)
{
	const char *ch = tmpl_get(r, "change");

	strbuf_addf(&c->val[0], "%s \xC2\xB7 %s", tmpl_get(r, "id"),
	            tmpl_get(r, "stage_label"));
	cl[0].sub = c->val[0].buf;
	/* fired and ok differ by shape as well as colour, as the HTML's ▲
	 * and ✓: a triangle where the verdict fires (appeared, stayed), a
	 * tick where it cleared, a dash where it never fired */
	cl[1].state = !strcmp(ch, "cleared") ? "ok"
	              : !strcmp(ch, "never") ? "na"
	                                     : "fired";
	cl[2].text = pct(c, 2, tmpl_get(r, "base"));
	cl[3].text = pct(c, 3, tmpl_get(r, "new"));
	pdf_fmt(c->fpct, &c->val[5], tmpl_get(r, "threshold"));
	strbuf_reset(&c->val[4]);
	strbuf_addf(&c->val[4], "> %s", c->val[5].buf);
	cl[4].text = c->val[4].buf;
}

static void verdict_table(struct pdf_ctx *c)
{
	static const struct pdf_col spec[] = {
	    {"t_diff_col_verdict", 0.42f, 0},
	    {"t_diff_col_change", 0.16f, 0},
	    {"t_diff_col_base", 0.14f, 1},
	    {"t_diff_col_new", 0.14f, 1},
	    {"t_diff_col_threshold", 0.14f, 1}};
	static const char *const vars[] = {"title", "change_label", NULL, NULL,
	                                   NULL};
	struct pdf_table t = {PDF_TABLE(spec, c->m, "verdicts"), .vars = vars,
	                      .row = verdict_row};

	pdf_table(c, &t);
}

/* What the base report's estimates promised, next to the measured
 * end-to-end change: only when it promised something. */
static void promises(struct pdf_ctx *c)
{
	size_t i, n = tmpl_nrows(c->m, "promises");

	if (!n)
		return;
	pdf_subheading(c, pdf_v(c, "t_diff_sec_promises"));
	pdf_para(c, pdf_v(c, "t_diff_promises_intro"));
	for (i = 0; i < n; i++)
		pdf_bullet(c, tmpl_get(tmpl_row(c->m, "promises", i), "text"),
		           NULL);
}

static void summary(struct pdf_ctx *c)
{
	size_t i, n = tmpl_nrows(c->m, "warnings");

	pdf_section(c, "t_diff_sec_summary");
	pdf_para(c, pdf_v(c, "t_diff_sec_summary_intro"));
	speedups(c);
	pdf_subheading(c, pdf_v(c, "t_diff_sec_verdicts"));
	pdf_para(c, pdf_v(c, "t_diff_sec_verdicts_intro"));
	if (!*pdf_v(c, "any_change"))
		pdf_para(c, pdf_v(c, "t_diff_verdicts_none_changed"));
	verdict_table(c);
	promises(c);
	pdf_subheading(c, pdf_v(c, "t_diff_sec_warnings"));
	if (!n)
		pdf_para(c, pdf_v(c, "t_diff_no_warnings"));
	for (i = 0; i < n; i++)
		pdf_bullet(c, tmpl_get(tmpl_row(c->m, "warnings", i), "text"),
		           NULL);
}

/* ---- stages, communication ----------------------------------------------- */

static void stage_row(struct pdf_ctx *c, const struct tmpl_vars *r,
                      struct pdf_cell *cl)
{
	static const char *const m[] = {"wall", "kernel"};
	char key[32];
	size_t j;

	cl[0].sub = tmpl_get(r, "presence");
	cl[0].dot = pdf_chart_stage_rgb(tmpl_get(r, "id"));
	for (j = 0; j < 2; j++) {
		snprintf(key, sizeof(key), "%s_base_ns", m[j]);
		cl[1 + 3 * j].text = dur(c, 1 + 3 * j, tmpl_get(r, key));
		snprintf(key, sizeof(key), "%s_new_ns", m[j]);
		cl[2 + 3 * j].text = dur(c, 2 + 3 * j, tmpl_get(r, key));
		snprintf(key, sizeof(key), "%s_delta", m[j]);
		cl[3 + 3 * j].text = tmpl_get(r, key);
		snprintf(key, sizeof(key), "%s_pct", m[j]);
		cl[3 + 3 * j].sub = or_dash(tmpl_get(r, key));
	}
}

/* Wall and kernel time, each base, new and delta: headings "a · b". */
static void stage_table(struct pdf_ctx *c)
{
	static const float w[] = {0.20f, 0.11f, 0.11f, 0.11f,
	                          0.11f, 0.11f, 0.11f, 0.14f};
	static const char *const g[] = {"t_col_wall_time", "t_col_kernel_time"};
	static const char *const h[] = {"t_diff_col_base", "t_diff_col_new",
	                                "t_diff_col_delta"};
	static const char *const vars[] = {"label", NULL, NULL, NULL,
	                                   NULL,    NULL, NULL, "speedup_text"};
	struct pdf_col cols[8];
	struct pdf_table t = {PDF_TABLE(cols, c->m, "stages"), .head_text = 1,
	                      .vars = vars, .row = stage_row};
	size_t k;

	cols[0] = (struct pdf_col){head2(c, 0, "t_col_stage", NULL), w[0], 0};
	for (k = 0; k < 6; k++)
		cols[1 + k] = (struct pdf_col){
		    head2(c, 1 + k, g[k / 3], h[k % 3]), w[1 + k], 1};
	cols[7] =
	    (struct pdf_col){head2(c, 7, "t_diff_col_speedup", NULL), w[7], 1};
	pdf_table(c, &t);
}

static void comm_row(struct pdf_ctx *c, const struct tmpl_vars *r,
                     struct pdf_cell *cl)
{
	cl[1].text = dur(c, 1, tmpl_get(r, "exposed_base_ns"));
	cl[2].text = dur(c, 2, tmpl_get(r, "exposed_new_ns"));
	cl[4].text = pct(c, 4, tmpl_get(r, "exposed_share_base"));
	cl[5].text = pct(c, 5, tmpl_get(r, "exposed_share_new"));
	cl[6].text = tmpl_get(r, "exposed_share_delta");
}

static void comm_table(struct pdf_ctx *c)
{
	static const struct pdf_col spec[] = {
	    {"t_col_stage", 0.22f, 0},
	    {"t_diff_col_exposed_base", 0.13f, 1},
	    {"t_diff_col_exposed_new", 0.13f, 1},
	    {"t_diff_col_delta", 0.13f, 1},
	    {"t_diff_col_share_base", 0.13f, 1},
	    {"t_diff_col_share_new", 0.13f, 1},
	    {"t_diff_col_share_delta", 0.13f, 1}};
	static const char *const vars[] = {"label", NULL, NULL, "exposed_delta",
	                                   NULL,    NULL, NULL};
	struct pdf_table t = {PDF_TABLE(spec, c->m, "stages"), .vars = vars,
	                      .row = comm_row};

	pdf_table(c, &t);
}

static void stages(struct pdf_ctx *c)
{
	pdf_section(c, "t_diff_sec_stages");
	pdf_para(c, pdf_v(c, "t_diff_sec_stages_intro"));
	if (*pdf_v(c, "cards_note"))
		pdf_strong(c, pdf_v(c, "cards_note"), PDF_FG);
	stage_table(c);
	pdf_subheading(c, pdf_v(c, "t_diff_sec_comm"));
	if (!*pdf_v(c, "has_comm")) {
		pdf_para(c, pdf_v(c, "t_diff_no_comm"));
		return;
	}
	pdf_para(c, pdf_v(c, "t_diff_sec_comm_intro"));
	comm_table(c);
}

/* ---- categories, kernel types, ranks ------------------------------------- */

static void cat_row(struct pdf_ctx *c, const struct tmpl_vars *r,
                    struct pdf_cell *cl)
{
	cl[0].dot = pdf_chart_cat_rgb(tmpl_get(r, "cat"));
	cl[1].text = dur(c, 1, tmpl_get(r, "base_ns"));
	cl[2].text = dur(c, 2, tmpl_get(r, "new_ns"));
	cl[4].text = or_dash(tmpl_get(r, "pct"));
	cl[5].text = pct(c, 5, tmpl_get(r, "share_base"));
	cl[6].text = pct(c, 6, tmpl_get(r, "share_new"));
	cl[7].text = tmpl_get(r, "share_delta");
}

static void cat_table(struct pdf_ctx *c, const struct tmpl_vars *st)
{
	static const struct pdf_col spec[] = {
	    {"t_col_category", 0.20f, 0},
	    {"t_diff_col_base", 0.12f, 1},
	    {"t_diff_col_new", 0.12f, 1},
	    {"t_diff_col_delta", 0.12f, 1},
	    {"t_diff_col_delta_pct", 0.10f, 1},
	    {"t_diff_col_share_base", 0.11f, 1},
	    {"t_diff_col_share_new", 0.11f, 1},
	    {"t_diff_col_share_delta", 0.12f, 1}};
	static const char *const vars[] = {"label", NULL, NULL, "delta",
	                                   NULL,    NULL, NULL, NULL};
	struct pdf_table t = {PDF_TABLE(spec, st, "cats"), .vars = vars,
	                      .row = cat_row};

	pdf_table(c, &t);
}

static void categories(struct pdf_ctx *c)
{
	size_t i, n = tmpl_nrows(c->m, "stages");

	pdf_section(c, "t_diff_sec_categories");
	pdf_para(c, pdf_v(c, "t_diff_sec_categories_intro"));
	for (i = 0; i < n; i++) {
		const struct tmpl_vars *st = tmpl_row(c->m, "stages", i);
		pdf_subheading(c, tmpl_get(st, "label"));
		cat_table(c, st);
	}
}

static void type_row(struct pdf_ctx *c, const struct tmpl_vars *r,
                     struct pdf_cell *cl)
{
	cl[0].sub = tmpl_get(r, "status_label");
	cl[2].dot = pdf_chart_cat_rgb(tmpl_get(r, "cat"));
	cl[3].text = dur(c, 3, tmpl_get(r, "base_ns"));
	cl[4].text = dur(c, 4, tmpl_get(r, "new_ns"));
	cl[6].text = or_dash(tmpl_get(r, "pct"));
}

static void type_table(struct pdf_ctx *c, const struct tmpl_vars *tab)
{
	static const struct pdf_col spec[] = {
	    {"t_col_type", 0.30f, 0},          {"t_col_stage", 0.15f, 0},
	    {"t_col_category", 0.11f, 0},      {"t_diff_col_base", 0.11f, 1},
	    {"t_diff_col_new", 0.11f, 1},      {"t_diff_col_delta", 0.12f, 1},
	    {"t_diff_col_delta_pct", 0.10f, 1}};
	static const char *const vars[] = {
	    "type", "stage_label", "cat_label", NULL, NULL, "delta", NULL};
	struct pdf_table t = {PDF_TABLE(spec, tab, "types"), .vars = vars,
	                      .row = type_row};

	pdf_subheading(c, tmpl_get(tab, "heading"));
	if (!tmpl_nrows(tab, "types")) {
		pdf_para(c, pdf_v(c, "t_diff_types_none"));
		return;
	}
	pdf_table(c, &t);
}

/* The types of one side only: a bullet each, "stage · category · time". */
static void type_list(struct pdf_ctx *c, const char *heading, const char *loop,
                      const char *more)
{
	size_t i, n = tmpl_nrows(c->m, loop);

	pdf_subheading(c, pdf_v(c, heading));
	if (!n)
		pdf_para(c, pdf_v(c, "t_diff_types_none"));
	for (i = 0; i < n; i++) {
		const struct tmpl_vars *r = tmpl_row(c->m, loop, i);
		struct strbuf *b = &c->val[1];
		strbuf_reset(b);
		strbuf_addf(b, "%s \xC2\xB7 %s \xC2\xB7 ",
		            tmpl_get(r, "stage_label"),
		            tmpl_get(r, "cat_label"));
		c->fdur(b, tmpl_get(r, "ns"), strlen(tmpl_get(r, "ns")));
		pdf_bullet(c, tmpl_get(r, "type"), b->buf);
	}
	if (*pdf_v(c, more))
		pdf_para(c, pdf_v(c, more));
}

static void types(struct pdf_ctx *c)
{
	size_t i, n = tmpl_nrows(c->m, "type_tables");

	pdf_section(c, "t_diff_sec_types");
	pdf_para(c, pdf_v(c, "types_intro"));
	pdf_diff_waterfall(c);
	for (i = 0; i < n; i++)
		type_table(c, tmpl_row(c->m, "type_tables", i));
	type_list(c, "t_diff_types_added", "added", "added_more");
	type_list(c, "t_diff_types_removed", "removed", "removed_more");
}

static void rank_row(struct pdf_ctx *c, const struct tmpl_vars *r,
                     struct pdf_cell *cl)
{
	static const char *const m[] = {"dit_kernel", "dit_wall", "dit_exposed",
	                                "dit_compute", "comm_wait"};
	size_t k;

	for (k = 0; k < N(m); k++) {
		if (k == 4 && !*tmpl_get(r, "has_wait")) {
			cl[5].text = DASH;
			break;
		}
		cl[1 + k].text = arrow(c, 1 + k, r, m[k]);
		cl[1 + k].sub = delta_pct(&c->sub[1 + k], r, m[k]);
	}
}

static void ranks(struct pdf_ctx *c)
{
	static const struct pdf_col spec[] = {
	    {"t_col_rank", 0.08f, 1},
	    {"t_col_dit_time", 0.184f, 1},
	    {"t_diff_col_dit_wall", 0.184f, 1},
	    {"t_diff_col_dit_exposed", 0.184f, 1},
	    {"t_col_dit_compute", 0.184f, 1},
	    {"t_col_comm_wait", 0.184f, 1}};
	static const char *const vars[] = {"id", NULL, NULL, NULL, NULL, NULL};
	struct pdf_table t = {PDF_TABLE(spec, c->m, "ranks"), .vars = vars,
	                      .row = rank_row};

	if (!*pdf_v(c, "has_ranks"))
		return;
	pdf_section(c, "t_diff_sec_ranks");
	pdf_para(c, pdf_v(c, "t_diff_sec_ranks_intro"));
	pdf_table(c, &t);
}

static void method(struct pdf_ctx *c)
{
	static const char *const paras[] = {
	    "t_diff_method_match", "method_steps", "t_diff_method_json",
	    "t_diff_method_numbers"};
	size_t i;

	pdf_section(c, "t_diff_sec_method");
	for (i = 0; i < N(paras); i++)
		pdf_para(c, pdf_v(c, paras[i]));
	c->d.y -= 6;
	pt_para(&c->d, pdf_v(c, "footer"), &PDF_SMALL, MARGIN, CONTENT_W,
	        10.0f);
}

/* ---- document ---------------------------------------------------------- */

void pdf_diff_layout(struct pdf_ctx *c)
{
	title_block(c);
	summary(c);
	stages(c);
	pdf_diff_chart(c);
	categories(c);
	types(c);
	ranks(c);
	method(c);
}
