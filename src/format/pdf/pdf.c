/* PDF report: the view model laid out with libharu on A4 pages, section by
 * section in the HTML report's order (templates/report.html.tmpl). */
#include "format/pdf/pdf.h"

#include <stdlib.h>
#include <string.h>

#include "format/pdf/pdf_chart.h"
#include "format/pdf/pdf_collect.h"
#include "format/pdf/pdf_ranks.h"
#include "format/pdf/pdf_text.h"
#include "util/xalloc.h"
#include "util/banned.h"

static const struct pdf_style S_BODY = {9.0f, 0, PDF_FG};
static const struct pdf_style S_H1 = {18.0f, 1, PDF_FG};
static const struct pdf_style S_H2 = {14.0f, 1, PDF_FG};
static const struct pdf_style S_H3 = {11.0f, 1, PDF_FG};
static const struct pdf_style S_LINK = {9.0f, 0, PDF_LINK};

/* ---- basics ------------------------------------------------------------ */

const char *pdf_v(const struct pdf_ctx *c, const char *name)
{
	return tmpl_get(c->m, name);
}

/* value formatted by fn into buf (reset first); returns the text. */
const char *pdf_fmt(tmpl_fmt_fn fn, struct strbuf *buf, const char *value)
{
	strbuf_reset(buf);
	fn(buf, value, strlen(value));
	return buf->buf;
}

/* spec with each heading variable name replaced by its text, in out. */
const struct pdf_col *pdf_heads(const struct pdf_ctx *c,
                                const struct pdf_col *spec, size_t n,
                                struct pdf_col *out)
{
	size_t i;

	for (i = 0; i < n; i++) {
		out[i] = spec[i];
		out[i].head = pdf_v(c, spec[i].head);
	}
	return out;
}

/* ---- text blocks ------------------------------------------------------- */

void pdf_para(struct pdf_ctx *c, const char *s)
{
	pt_para(&c->d, s, &S_BODY, MARGIN, CONTENT_W, 12.0f);
	c->d.y -= 5.0f;
}

/* A list item: a bullet, then s; sub (if any) in small grey under it. */
void pdf_bullet(struct pdf_ctx *c, const char *s, const char *sub)
{
	pt_need(&c->d, 12.0f);
	pt_draw_str(&c->d, c->d.page, &S_BODY, MARGIN + 4, c->d.y - 12 * 0.72f,
	            "\xE2\x80\xA2");
	pt_para(&c->d, s, &S_BODY, MARGIN + 14, CONTENT_W - 14, 12.0f);
	if (sub && *sub)
		pt_para(&c->d, sub, &PDF_SMALL, MARGIN + 14, CONTENT_W - 14,
		        10.0f);
	c->d.y -= 2.0f;
}

/* A section heading with its outline entry (bookmark). */
void pdf_section(struct pdf_ctx *c, const char *var)
{
	const char *title = pdf_v(c, var);
	HPDF_Outline ol;
	HPDF_Destination dst;

	if (c->d.y < TOP)
		c->d.y -= 12.0f;
	pt_need(&c->d, 72.0f); /* never a heading alone at the foot of a page */
	dst = HPDF_Page_CreateDestination(c->d.page);
	HPDF_Destination_SetFitH(dst, c->d.y + 4);
	strbuf_reset(&c->d.sb);
	pt_clean(&c->d.sb, title);
	ol = HPDF_CreateOutline(c->d.pdf, NULL, c->d.sb.buf, c->utf8);
	HPDF_Outline_SetDestination(ol, dst);
	pt_para(&c->d, title, &S_H2, MARGIN, CONTENT_W, 18.0f);
	pt_hline(c->d.page, MARGIN, MARGIN + CONTENT_W, c->d.y - 2, 0.6f,
	         PDF_LINE);
	c->d.y -= 8.0f;
}

void pdf_subheading(struct pdf_ctx *c, const char *s)
{
	c->d.y -= 4.0f;
	pt_need(&c->d, 50.0f);
	pt_para(&c->d, s, &S_H3, MARGIN, CONTENT_W, 15.0f);
	c->d.y -= 3.0f;
}

/* ---- tables ------------------------------------------------------------ */

void pdf_table_end(struct pdf_ctx *c)
{
	c->d.y -= 10.0f;
}

/* cells[0..n) reset to plain text from c->val. */
void pdf_cells_init(struct pdf_ctx *c, struct pdf_cell *cells, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		strbuf_reset(&c->val[i]);
		cells[i].text = c->val[i].buf ? c->val[i].buf : "";
		cells[i].sub = cells[i].url = NULL;
		cells[i].dot = -1;
	}
}

/* ---- sections ---------------------------------------------------------- */

/* One "label: value" line of the title block. */
static void meta(struct pdf_ctx *c, const char *label, const char *value)
{
	pt_need(&c->d, 12.0f);
	pt_draw_str(&c->d, c->d.page, &PDF_SMALL, MARGIN, c->d.y - 12 * 0.72f,
	            label);
	pt_para(&c->d, value, &S_BODY, MARGIN + 110, CONTENT_W - 110, 12.0f);
}

static void title_block(struct pdf_ctx *c)
{
	struct strbuf *b = &c->val[0];

	pt_para(&c->d, pdf_v(c, "title"), &S_H1, MARGIN, CONTENT_W, 24.0f);
	c->d.y -= 6.0f;
	meta(c, pdf_v(c, "t_meta_profile"), pdf_v(c, "profile"));
	if (*pdf_v(c, "rank_dir"))
		meta(c, pdf_v(c, "t_meta_rank"), pdf_v(c, "rank_dir"));
	meta(c, pdf_v(c, "t_meta_ranks"), pdf_v(c, "ranks"));
	if (*pdf_v(c, "multi_rank"))
		meta(c, pdf_v(c, "t_meta_threads"), pdf_v(c, "threads"));
	meta(c, pdf_v(c, "t_meta_kernels"),
	     pdf_fmt(c->fint, b, pdf_v(c, "kernels")));
	meta(c, pdf_v(c, "t_meta_steps"), pdf_v(c, "steps"));
	meta(c, pdf_v(c, "t_meta_span"),
	     pdf_fmt(c->fdur, b, pdf_v(c, "span_ns")));
	meta(c, pdf_v(c, "t_meta_date"), pdf_v(c, "date"));
	strbuf_reset(b);
	strbuf_addf(b, "sdperf %s", pdf_v(c, "version"));
	meta(c, pdf_v(c, "t_meta_version"), b->buf);
	c->d.y -= 6.0f;
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

	strbuf_reset(&c->val[2]);
	strbuf_addf(&c->val[2], "%s: ", pdf_v(c, "t_verdict_docs"));
	if (!dry) {
		pt_need(&c->d, 12.0f);
		c->d.y -= 12.0f;
	}
	x += dry ? pt_text_width(&c->d, c->val[2].buf, &S_BODY)
	         : pt_draw_str(&c->d, c->d.page, &S_BODY, x, c->d.y + 3.4f,
	                       c->val[2].buf);
	for (i = 0; i < n; i++) {
		const struct tmpl_vars *d = tmpl_row(r, "docs", i);
		const char *name = tmpl_get(d, "name");
		float w = pt_text_width(&c->d, name, &S_LINK);
		if (x > x0 && x + w > x0 + width) {
			lines++;
			x = x0;
			if (!dry) {
				pt_need(&c->d, 12.0f);
				c->d.y -= 12.0f;
			}
		}
		if (!dry) {
			pt_draw_str(&c->d, c->d.page, &S_LINK, x, c->d.y + 3.4f,
			            name);
			pt_link(&c->d, x, c->d.y, w, 12.0f, tmpl_get(d, "url"));
		}
		x += w;
		if (i + 1 < n)
			x += dry ? pt_text_width(&c->d, ", ", &S_BODY)
			         : pt_draw_str(&c->d, c->d.page, &S_BODY, x,
			                       c->d.y + 3.4f, ", ");
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

/* Height of a verdict card with inner width w. */
static float card_height(struct pdf_ctx *c, const struct tmpl_vars *r, float w)
{
	float h =
	    8 + 17 +
	    14.0f * (float)pt_nlines(&c->d, tmpl_get(r, "title"), &S_H3, w);

	if (*tmpl_get(r, "applicable"))
		h += 22 +
		     10.0f *
		         (float)pt_nlines(&c->d, metric(c, r), &PDF_SMALL, w) +
		     12;
	else
		h += 10.0f * (float)pt_nlines(&c->d, tmpl_get(r, "no_stage"),
		                              &PDF_SMALL, w);
	h += 3 + 12.0f * (float)pt_nlines(&c->d, tmpl_get(r, "recommendation"),
	                                  &S_BODY, w);
	return h + 3 + 12.0f * (float)doc_links(c, r, 0, w, 1) + 8;
}

static void card(struct pdf_ctx *c, const struct tmpl_vars *r)
{
	const char *state = tmpl_get(r, "state");
	unsigned long rgb = state_rgb(state);
	struct pdf_style badge = {7.5f, 1, PDF_WHITE};
	struct pdf_style big = {15.0f, 1, PDF_FG};
	float x = MARGIN + 12, w = CONTENT_W - 22;
	float h = card_height(c, r, w), bw;

	if (h <= TOP - BOTTOM) { /* else it flows, without its panel */
		pt_need(&c->d, h);
		pt_rect(&c->d, MARGIN, c->d.y - h, CONTENT_W, h, PDF_PANEL);
		pt_rect(&c->d, MARGIN, c->d.y - h, 3, h, rgb);
	}
	c->d.y -= 8;
	pt_need(&c->d, 17.0f);
	bw = pt_text_width(&c->d, tmpl_get(r, "state_label"), &badge) + 12;
	pt_rect(&c->d, x, c->d.y - 13, bw, 13, rgb);
	pt_draw_str(&c->d, c->d.page, &badge, x + 6, c->d.y - 9.5f,
	            tmpl_get(r, "state_label"));
	c->d.y -= 17;
	pt_para(&c->d, tmpl_get(r, "title"), &S_H3, x, w, 14.0f);
	if (*tmpl_get(r, "applicable")) {
		pt_para(&c->d, measure(c, r), &big, x, w, 22.0f);
		pt_para(&c->d, metric(c, r), &PDF_SMALL, x, w, 10.0f);
		pdf_chart_meter(&c->d, r, x, w < 240 ? w : 240, rgb);
	} else {
		pt_para(&c->d, tmpl_get(r, "no_stage"), &PDF_SMALL, x, w,
		        10.0f);
	}
	c->d.y -= 3;
	pt_para(&c->d, tmpl_get(r, "recommendation"), &S_BODY, x, w, 12.0f);
	c->d.y -= 3;
	doc_links(c, r, x, w, 0);
	c->d.y -= 8 + 6;
}

static void verdicts(struct pdf_ctx *c)
{
	size_t i, n = tmpl_nrows(c->m, "verdicts");

	pdf_section(c, "t_sec_verdicts");
	pdf_para(c, pdf_v(c, "verdicts_intro"));
	if (!*pdf_v(c, "any_fired")) {
		struct pdf_style ok = {9.0f, 1, PDF_OK};
		pt_para(&c->d, pdf_v(c, "t_verdicts_none_fired"), &ok, MARGIN,
		        CONTENT_W, 12.0f);
		c->d.y -= 6;
	}
	for (i = 0; i < n; i++)
		card(c, tmpl_row(c->m, "verdicts", i));
}

static void stages(struct pdf_ctx *c)
{
	static const struct pdf_col spec[] = {
	    {"t_col_stage", 0.30f, 0},     {"t_col_kernels", 0.12f, 1},
	    {"t_col_segments", 0.12f, 1},  {"t_col_kernel_time", 0.16f, 1},
	    {"t_col_wall_time", 0.16f, 1}, {"t_col_share", 0.14f, 1}};
	struct pdf_cell cl[6];
	struct pdf_col cols[6];
	size_t i, n = tmpl_nrows(c->m, "stages");

	pdf_section(c, "t_sec_stages");
	pdf_para(c, pdf_v(c, "t_sec_stages_intro"));
	pt_table_head(&c->d, pdf_heads(c, spec, 6, cols), 6);
	for (i = 0; i < n; i++) {
		const struct tmpl_vars *r = tmpl_row(c->m, "stages", i);
		pdf_cells_init(c, cl, 6);
		cl[0].text = tmpl_get(r, "label");
		cl[0].dot = pdf_chart_stage_rgb(tmpl_get(r, "id"));
		cl[1].text =
		    pdf_fmt(c->fint, &c->val[1], tmpl_get(r, "kernels"));
		cl[2].text = tmpl_get(r, "segments");
		cl[3].text =
		    pdf_fmt(c->fdur, &c->val[3], tmpl_get(r, "kernel_ns"));
		cl[4].text =
		    pdf_fmt(c->fdur, &c->val[4], tmpl_get(r, "wall_ns"));
		cl[5].text = pdf_fmt(c->fpct, &c->val[5], tmpl_get(r, "share"));
		pt_table_row(&c->d, cols, 6, cl, 0);
	}
	pdf_table_end(c);
	pdf_subheading(c, pdf_v(c, "t_sec_timeline"));
	pdf_chart_timeline(&c->d, c->m, &c->val[0], c->fpct);
}

static void categories(struct pdf_ctx *c)
{
	static const struct pdf_col spec[] = {{"t_col_category", 0.52f, 0},
	                                      {"t_col_time", 0.18f, 1},
	                                      {"t_col_count", 0.15f, 1},
	                                      {"t_col_share", 0.15f, 1}};
	struct pdf_cell cl[4];
	struct pdf_col cols[4];
	size_t s, i, ns = tmpl_nrows(c->m, "stages");

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
		pt_table_head(&c->d, pdf_heads(c, spec, 4, cols), 4);
		for (i = 0; i < tmpl_nrows(st, "categories"); i++) {
			const struct tmpl_vars *r =
			    tmpl_row(st, "categories", i);
			pdf_cells_init(c, cl, 4);
			cl[0].text = tmpl_get(r, "label");
			cl[0].sub = tmpl_get(r, "about");
			cl[0].dot = pdf_chart_cat_rgb(tmpl_get(r, "cat"));
			cl[1].text = pdf_fmt(c->fdur, &c->val[1],
			                     tmpl_get(r, "time_ns"));
			cl[2].text =
			    pdf_fmt(c->fint, &c->val[2], tmpl_get(r, "count"));
			cl[3].text =
			    pdf_fmt(c->fpct, &c->val[3], tmpl_get(r, "share"));
			pt_table_row(&c->d, cols, 4, cl, 0);
		}
		pdf_table_end(c);
	}
}

static void top_table(struct pdf_ctx *c, const struct tmpl_vars *st)
{
	static const struct pdf_col spec[] = {
	    {"t_col_type", 0.31f, 0},  {"t_col_category", 0.11f, 0},
	    {"t_col_count", 0.08f, 1}, {"t_col_total", 0.11f, 1},
	    {"t_col_avg", 0.10f, 1},   {"t_col_min", 0.10f, 1},
	    {"t_col_max", 0.10f, 1},   {"t_col_share", 0.09f, 1}};
	static const char *const ns[] = {"total_ns", "avg_ns", "min_ns",
	                                 "max_ns"};
	struct pdf_cell cl[8];
	struct pdf_col cols[8];
	size_t i, k;

	pt_table_head(&c->d, pdf_heads(c, spec, 8, cols), 8);
	for (i = 0; i < tmpl_nrows(st, "top"); i++) {
		const struct tmpl_vars *r = tmpl_row(st, "top", i);
		pdf_cells_init(c, cl, 8);
		cl[0].text = tmpl_get(r, "type");
		cl[1].text = tmpl_get(r, "cat_label");
		cl[1].dot = pdf_chart_cat_rgb(tmpl_get(r, "cat"));
		cl[2].text = pdf_fmt(c->fint, &c->val[2], tmpl_get(r, "count"));
		for (k = 0; k < 4; k++)
			cl[3 + k].text = pdf_fmt(c->fdur, &c->val[3 + k],
			                         tmpl_get(r, ns[k]));
		cl[7].text = pdf_fmt(c->fpct, &c->val[7], tmpl_get(r, "share"));
		pt_table_row(&c->d, cols, 8, cl, 0);
	}
	pdf_table_end(c);
}

static void unmatched(struct pdf_ctx *c)
{
	static const struct pdf_col spec[] = {{"t_col_type", 0.55f, 0},
	                                      {"t_col_count", 0.13f, 1},
	                                      {"t_col_total", 0.18f, 1},
	                                      {"t_col_share", 0.14f, 1}};
	struct pdf_cell cl[4];
	struct pdf_col cols[4];
	size_t i, n = tmpl_nrows(c->m, "unmatched");

	pdf_subheading(c, pdf_v(c, "t_sec_unmatched"));
	if (!n) {
		pdf_para(c, pdf_v(c, "t_no_unmatched"));
		return;
	}
	pdf_para(c, pdf_v(c, "t_sec_unmatched_intro"));
	pt_table_head(&c->d, pdf_heads(c, spec, 4, cols), 4);
	for (i = 0; i < n; i++) {
		const struct tmpl_vars *r = tmpl_row(c->m, "unmatched", i);
		pdf_cells_init(c, cl, 4);
		cl[0].text = tmpl_get(r, "type");
		cl[1].text = pdf_fmt(c->fint, &c->val[1], tmpl_get(r, "count"));
		cl[2].text =
		    pdf_fmt(c->fdur, &c->val[2], tmpl_get(r, "total_ns"));
		cl[3].text = pdf_fmt(c->fpct, &c->val[3], tmpl_get(r, "share"));
		pt_table_row(&c->d, cols, 4, cl, 0);
	}
	pdf_table_end(c);
}

static void top(struct pdf_ctx *c)
{
	size_t s, ns = tmpl_nrows(c->m, "stages");

	pdf_section(c, "t_sec_top");
	for (s = 0; s < ns; s++) {
		const struct tmpl_vars *st = tmpl_row(c->m, "stages", s);
		pdf_subheading(c, tmpl_get(st, "label"));
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
	static const char *const ns[] = {"comm_ns", "busy_ns", "exposed_ns",
	                                 "wall_ns"};
	struct pdf_cell cl[6];
	struct pdf_col cols[6];
	size_t i, k, n = tmpl_nrows(c->m, "stages");

	pdf_section(c, "t_sec_comm");
	if (!*pdf_v(c, "has_comm")) {
		pdf_para(c, pdf_v(c, "t_no_comm"));
		return;
	}
	pdf_para(c, pdf_v(c, "t_sec_comm_intro"));
	pt_table_head(&c->d, pdf_heads(c, spec, 6, cols), 6);
	for (i = 0; i < n; i++) {
		const struct tmpl_vars *r = tmpl_row(c->m, "stages", i);
		if (!*tmpl_get(r, "has_comm"))
			continue;
		pdf_cells_init(c, cl, 6);
		cl[0].text = tmpl_get(r, "label");
		for (k = 0; k < 4; k++)
			cl[1 + k].text = pdf_fmt(c->fdur, &c->val[1 + k],
			                         tmpl_get(r, ns[k]));
		cl[5].text =
		    pdf_fmt(c->fpct, &c->val[5], tmpl_get(r, "exposed_share"));
		pt_table_row(&c->d, cols, 6, cl, 0);
	}
	pdf_table_end(c);
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
	    "method_categories", "method_stages", "method_text_encoder",
	    "t_method_times",    "t_method_comm", "method_steps"};
	size_t i, n = tmpl_nrows(c->m, "thresholds");

	pdf_section(c, "t_sec_method");
	for (i = 0; i < sizeof(paras) / sizeof(paras[0]); i++)
		pdf_para(c, pdf_v(c, paras[i]));
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

static void inputs(struct pdf_ctx *c)
{
	static const struct pdf_col spec[] = {
	    {"t_col_file", 0.30f, 0},        {"t_col_size", 0.13f, 1},
	    {"t_col_variant", 0.17f, 0},     {"t_col_rows", 0.09f, 1},
	    {"t_col_kernels", 0.09f, 1},     {"t_col_skipped", 0.10f, 1},
	    {"t_col_line_endings", 0.12f, 0}};
	static const char *const ints[] = {"rows", "kernels", "skipped"};
	struct pdf_cell cl[7];
	struct pdf_col cols[7];
	size_t i, k, n = tmpl_nrows(c->m, "inputs");

	pdf_section(c, "t_sec_inputs");
	pt_table_head(&c->d, pdf_heads(c, spec, 7, cols), 7);
	for (i = 0; i < n; i++) {
		const struct tmpl_vars *r = tmpl_row(c->m, "inputs", i);
		pdf_cells_init(c, cl, 7);
		cl[0].text = tmpl_get(r, "path");
		pdf_fmt(c->fint, &c->val[1], tmpl_get(r, "size"));
		strbuf_addf(&c->val[1], " %s", pdf_v(c, "t_bytes"));
		cl[1].text = c->val[1].buf;
		cl[2].text = tmpl_get(r, "variant");
		for (k = 0; k < 3; k++)
			cl[3 + k].text = pdf_fmt(c->fint, &c->val[3 + k],
			                         tmpl_get(r, ints[k]));
		cl[6].text = tmpl_get(r, "line_endings");
		pt_table_row(&c->d, cols, 7, cl, 0);
	}
	pdf_table_end(c);
	strbuf_reset(&c->val[0]);
	strbuf_addf(&c->val[0], "%s: %s", pdf_v(c, "t_meta_rules"),
	            pdf_v(c, "rules_source"));
	pt_para(&c->d, c->val[0].buf, &PDF_SMALL, MARGIN, CONTENT_W, 10.0f);
	c->d.y -= 6.0f;
	pdf_rank_inputs(c);
}

static void docs(struct pdf_ctx *c)
{
	static const struct pdf_col spec[] = {{"t_col_doc", 0.55f, 0},
	                                      {"t_col_when", 0.45f, 0}};
	struct pdf_cell cl[2];
	struct pdf_col cols[2];
	size_t i, n = tmpl_nrows(c->m, "docs");
	float keep;

	pdf_section(c, "t_sec_docs");
	pdf_para(c, pdf_v(c, "t_sec_docs_intro"));
	keep = 16 + 10.0f * (float)pt_nlines(&c->d, pdf_v(c, "footer"),
	                                     &PDF_SMALL, CONTENT_W);
	pt_table_head(&c->d, pdf_heads(c, spec, 2, cols), 2);
	for (i = 0; i < n; i++) {
		const struct tmpl_vars *r = tmpl_row(c->m, "docs", i);
		pdf_cells_init(c, cl, 2);
		cl[0].text = tmpl_get(r, "name");
		cl[0].url = tmpl_get(r, "url");
		cl[0].sub = tmpl_get(r, "summary");
		cl[1].text = tmpl_get(r, "when");
		/* the closing line stays with the last row, never alone */
		pt_table_row(&c->d, cols, 2, cl, i + 1 < n ? 0 : keep);
	}
	pdf_table_end(c);
	c->d.y -= 6;
	pt_para(&c->d, pdf_v(c, "footer"), &PDF_SMALL, MARGIN, CONTENT_W,
	        10.0f);
}

/* ---- document ---------------------------------------------------------- */

/* Builds the whole document; libharu errors longjmp out of it. */
static void build(struct pdf_ctx *c)
{
	pdf_doc_start(c);
	pdf_doc_metadata(c, "t_pdf_subject");
	pt_new_page(&c->d);
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
	warnings(c);
	method(c);
	inputs(c);
	docs(c);
	pdf_doc_decorate(c);
	pdf_doc_save(c);
}

static void ctx_init(struct pdf_ctx *c)
{
	size_t i;

	pt_doc_init(&c->d);
	for (i = 0; i < PDF_MAX_COLS; i++)
		strbuf_init(&c->val[i]);
	strbuf_init(&c->bytes);
}

static void ctx_release(struct pdf_ctx *c)
{
	size_t i;

	pt_doc_release(&c->d);
	for (i = 0; i < PDF_MAX_COLS; i++)
		strbuf_release(&c->val[i]);
	strbuf_release(&c->bytes);
	free(c);
}

int pdf_render(const struct tmpl_vars *model, const struct pdf_opts *o,
               struct strbuf *out, struct err *e)
{
	struct pdf_ctx *c = xcalloc(1, sizeof(*c));
	int ret = 0;

	c->m = model;
	c->o = o;
	ctx_init(c);
	if (setjmp(c->d.jb))
		ret = err_set(e, c->d.err.code ? c->d.err.code : ERR_INTERNAL,
		              "%s", c->d.err.msg);
	else
		build(c);
	if (!ret)
		strbuf_addbuf(out, &c->bytes);
	ctx_release(c);
	return ret;
}
