/* The comparison report's SVG chart: per stage a pair of bars, base and
 * new, stacked by operator category, on one time scale. Geometry is in
 * integers of a fixed view box, as in svg.c, so the markup is byte-stable;
 * colours come from report.css's category classes (c-FA, ...). */
#include "view/diff_model.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "view/escape.h"
#include "view/svg.h"
#include "util/checked.h"
#include "util/numfmt.h"
#include "util/banned.h"

#define ROW_H     20
#define BAR_H     15
#define GROUP_GAP 12
#define STAGE_ROW 20 /* a phone's stage name, on a row of its own */

/* Each chart is drawn for a wide screen and paper, and for a phone (the
 * style sheet shows one; see svg.h): on the phone the names go above
 * their bars and the bars take the width. */
struct dgeo {
	const char *cls;
	int w;
	int tag_end; /* "base" / "new" end here, right-aligned */
	int plot_x;
	int plot_w; /* leaves room for the total after the longest bar */
	int above;  /* names above their bars (a phone) */
	int ticks;
};
static const struct dgeo GEOS[2] = {
    {"wide", 960, 196, 204, 660, 0, 8},
    {"narrow", SVG_NARROW_W, 34, 40, SVG_NARROW_W - 40 - 84, 1, 4}};

static void open_chart(struct strbuf *out, const struct dgeo *g,
                       const char *kind, const char *title, int h)
{
	strbuf_addf(out,
	            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart "
	            "%s %s\" viewBox=\"0 0 %d %d\" role=\"img\" "
	            "aria-label=\"",
	            kind, g->cls, g->w, h);
	escape_html(out, title, strlen(title));
	strbuf_adds(out, "\"><title>");
	escape_html(out, title, strlen(title));
	strbuf_adds(out, "</title>");
}

static void xml_text(struct strbuf *out, const char *s)
{
	escape_html(out, s, strlen(s)); /* also correct XML escaping */
}

static int64_t ns_of(const struct tmpl_vars *r, const char *name)
{
	return strtoll(tmpl_get(r, name), NULL, 10);
}

/* Sum of the positive "key" values of a stage's "cats" rows. */
static int64_t cats_sum(const struct tmpl_vars *s, const char *key)
{
	size_t k, n = tmpl_nrows(s, "cats");
	int64_t sum = 0, v;

	for (k = 0; k < n; k++)
		if ((v = ns_of(tmpl_row(s, "cats", k), key)) > 0)
			checked_accumulate(&sum, v);
	return sum;
}

int64_t diff_chart_max(const struct tmpl_vars *v)
{
	size_t i, n = tmpl_nrows(v, "stages");
	int64_t max = 0, b, w;

	for (i = 0; i < n; i++) {
		const struct tmpl_vars *s = tmpl_row(v, "stages", i);
		b = cats_sum(s, "base_ns");
		w = cats_sum(s, "new_ns");
		max = b > max ? b : max;
		max = w > max ? w : max;
	}
	return max;
}

/* One bar: its tag, its category parts ("base_ns" or "new_ns" of each
 * "cats" row), and its total after it. */
static void bar(struct strbuf *out, const struct dgeo *g,
                const struct tmpl_vars *s, int y, const char *tag,
                const char *key, int64_t max)
{
	size_t k, n = tmpl_nrows(s, "cats");
	int64_t acc = 0, v;
	int x0 = 0, x1 = 0;

	strbuf_addf(out,
	            "<text class=\"tag\" x=\"%d\" y=\"%d\" "
	            "text-anchor=\"end\">",
	            g->tag_end, y + 12);
	xml_text(out, tag);
	strbuf_adds(out, "</text>");
	for (k = 0; k < n && max > 0; k++) {
		const struct tmpl_vars *c = tmpl_row(s, "cats", k);
		if ((v = ns_of(c, key)) <= 0)
			continue;
		x0 = (int)checked_muldiv(acc, g->plot_w, max);
		checked_accumulate(&acc, v);
		x1 = (int)checked_muldiv(acc, g->plot_w, max);
		strbuf_addf(
		    out,
		    "<rect class=\"c-%s\" x=\"%d\" y=\"%d\" width=\"%d\" "
		    "height=\"%d\"><title>",
		    tmpl_get(c, "cat"), g->plot_x + x0, y,
		    x1 > x0 ? x1 - x0 : 1, BAR_H);
		xml_text(out, tmpl_get(c, "label"));
		strbuf_addch(out, ' ');
		numfmt_duration(out, v);
		strbuf_adds(out, "</title></rect>");
	}
	strbuf_addf(out, "<text class=\"total\" x=\"%d\" y=\"%d\">",
	            g->plot_x + x1 + 6, y + 12);
	numfmt_duration(out, acc);
	strbuf_adds(out, "</text>");
}

/* The category legend, as HTML text after the chart (svg.h). */
static void legend(struct model_ctx *c, struct strbuf *out)
{
	int k;

	strbuf_adds(out, "<ul class=\"legend\">");
	for (k = 0; k < CAT_COUNT; k++) {
		strbuf_addf(out, "<li><span class=\"dot c-%s\"></span>",
		            category_names[k]);
		xml_text(out, model_tk(c, "cat_", category_names[k]));
		strbuf_adds(out, "</li>");
	}
	strbuf_adds(out, "</ul>");
}

static void chart_as(struct model_ctx *c, const struct tmpl_vars *v,
                     const struct dgeo *g, struct strbuf *out)
{
	size_t i, n = tmpl_nrows(v, "stages");
	int64_t max = diff_chart_max(v);
	int head = g->above ? STAGE_ROW : 0;
	int group = head + 2 * ROW_H + GROUP_GAP;

	open_chart(out, g, "diff-chart", model_t(c, "diff_chart_title"),
	           (int)n * group);
	for (i = 0; i < n; i++) {
		const struct tmpl_vars *s = tmpl_row(v, "stages", i);
		int y = (int)i * group;
		strbuf_addf(out, "<text class=\"stage\" x=\"0\" y=\"%d\">",
		            g->above ? y + 14 : y + ROW_H + 5);
		xml_text(out, tmpl_get(s, "label"));
		strbuf_adds(out, "</text>");
		bar(out, g, s, y + head, model_t(c, "diff_tag_base"), "base_ns",
		    max);
		bar(out, g, s, y + head + ROW_H, model_t(c, "diff_tag_new"),
		    "new_ns", max);
	}
	strbuf_adds(out, "</svg>");
}

void diff_chart_svg(struct model_ctx *c, const struct tmpl_vars *v,
                    struct strbuf *out)
{
	chart_as(c, v, &GEOS[0], out);
	chart_as(c, v, &GEOS[1], out);
	legend(c, out);
}

#define WF_LABEL_W   330
#define WF_LABEL_MAX 44
#define WF_PLOT_W    540
#define WF_ROW_H     22
/* a phone: the name above its bar, room for the value after it */
#define WF_NARROW_ROW_H  38
#define WF_NARROW_PLOT_W (SVG_NARROW_W - 90)

/* A waterfall row's bar: from..to on lo..hi, at least a pixel wide, from
 * x = left on a plot w wide. */
static void wf_bar(struct strbuf *out, const struct tmpl_vars *r, int y,
                   int64_t lo, int64_t hi, int left, int w, int *end)
{
	int64_t from = ns_of(r, "from_ns"), to = ns_of(r, "to_ns");
	int64_t a = from < to ? from : to, b = from < to ? to : from;
	int x0 = (int)checked_muldiv(a > lo ? a - lo : 0, w, hi - lo);
	int x1 = (int)checked_muldiv(b > lo ? b - lo : 0, w, hi - lo);

	strbuf_addf(out,
	            "<rect class=\"%s\" x=\"%d\" y=\"%d\" width=\"%d\" "
	            "height=\"%d\"><title>",
	            tmpl_get(r, "css"), left + x0, y + 3, x1 > x0 ? x1 - x0 : 1,
	            WF_ROW_H - 6);
	xml_text(out, tmpl_get(r, "label"));
	if (*tmpl_get(r, "stage_label")) {
		strbuf_adds(out, " (");
		xml_text(out, tmpl_get(r, "stage_label"));
		strbuf_addch(out, ')');
	}
	strbuf_addch(out, ' ');
	xml_text(out, tmpl_get(r, "value"));
	strbuf_adds(out, "</title></rect>");
	*end = left + (x1 > x0 ? x1 : x0 + 1);
}

static void waterfall_as(struct model_ctx *c, const struct tmpl_vars *v,
                         const struct dgeo *g, struct strbuf *out)
{
	size_t i, n = tmpl_nrows(v, "waterfall");
	int64_t lo = ns_of(v, "wf_lo_ns"), hi = ns_of(v, "wf_hi_ns");
	int row_h = g->above ? WF_NARROW_ROW_H : WF_ROW_H;
	int left = g->above ? 0 : WF_LABEL_W;
	int plot_w = g->above ? WF_NARROW_PLOT_W : WF_PLOT_W;
	int top = (int)n * row_h + 2, end = 0;

	open_chart(out, g, "waterfall", model_t(c, "diff_waterfall_title"),
	           top + SVG_AXIS_H);
	for (i = 0; i < n; i++) {
		const struct tmpl_vars *r = tmpl_row(v, "waterfall", i);
		int y = (int)i * row_h, total = *tmpl_get(r, "total") != 0;
		int by = g->above ? y + 16 : y;
		strbuf_addf(out, "<text class=\"%s\" x=\"0\" y=\"%d\">",
		            total ? "stage" : "name", y + 15);
		svg_cut_label(out, tmpl_get(r, "label"), WF_LABEL_MAX);
		strbuf_adds(out, "</text>");
		wf_bar(out, r, by, lo, hi, left, plot_w, &end);
		strbuf_addf(out, "<text class=\"total\" x=\"%d\" y=\"%d\">",
		            end + 6, by + 15);
		xml_text(out, tmpl_get(r, "value"));
		strbuf_adds(out, "</text>");
	}
	svg_axis_ticks(out, left, plot_w, top, lo, hi, g->ticks);
	strbuf_adds(out, "</svg>");
}

void diff_waterfall_svg(struct model_ctx *c, const struct tmpl_vars *v,
                        struct strbuf *out)
{
	int64_t lo = ns_of(v, "wf_lo_ns"), hi = ns_of(v, "wf_hi_ns");

	strbuf_reset(out);
	if (!tmpl_nrows(v, "waterfall") || hi <= lo)
		return;
	waterfall_as(c, v, &GEOS[0], out);
	waterfall_as(c, v, &GEOS[1], out);
}
