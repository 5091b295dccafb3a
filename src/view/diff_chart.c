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

#define VIEW_W    960
#define TAG_END   196 /* "base" / "new" end here, right-aligned */
#define PLOT_X    204
#define PLOT_W    660 /* leaves room for the total after the longest bar */
#define ROW_H     20
#define BAR_H     15
#define GROUP_GAP 12

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
static void bar(struct strbuf *out, const struct tmpl_vars *s, int y,
                const char *tag, const char *key, int64_t max)
{
	size_t k, n = tmpl_nrows(s, "cats");
	int64_t acc = 0, v;
	int x0 = 0, x1 = 0;

	strbuf_addf(out,
	            "<text class=\"tag\" x=\"%d\" y=\"%d\" "
	            "text-anchor=\"end\">",
	            TAG_END, y + 12);
	xml_text(out, tag);
	strbuf_adds(out, "</text>");
	for (k = 0; k < n && max > 0; k++) {
		const struct tmpl_vars *c = tmpl_row(s, "cats", k);
		if ((v = ns_of(c, key)) <= 0)
			continue;
		x0 = (int)checked_muldiv(acc, PLOT_W, max);
		checked_accumulate(&acc, v);
		x1 = (int)checked_muldiv(acc, PLOT_W, max);
		strbuf_addf(
		    out,
		    "<rect class=\"c-%s\" x=\"%d\" y=\"%d\" width=\"%d\" "
		    "height=\"%d\"><title>",
		    tmpl_get(c, "cat"), PLOT_X + x0, y, x1 > x0 ? x1 - x0 : 1,
		    BAR_H);
		xml_text(out, tmpl_get(c, "label"));
		strbuf_addch(out, ' ');
		numfmt_duration(out, v);
		strbuf_adds(out, "</title></rect>");
	}
	strbuf_addf(out, "<text class=\"total\" x=\"%d\" y=\"%d\">",
	            PLOT_X + x1 + 6, y + 12);
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

void diff_chart_svg(struct model_ctx *c, const struct tmpl_vars *v,
                    struct strbuf *out)
{
	size_t i, n = tmpl_nrows(v, "stages");
	int64_t max = diff_chart_max(v);
	int group = 2 * ROW_H + GROUP_GAP;
	int h = (int)n * group;
	const char *title = model_t(c, "diff_chart_title");

	strbuf_addf(out,
	            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart "
	            "diff-chart\" viewBox=\"0 0 %d %d\" role=\"img\" "
	            "aria-label=\"",
	            VIEW_W, h);
	xml_text(out, title);
	strbuf_adds(out, "\"><title>");
	xml_text(out, title);
	strbuf_adds(out, "</title>");
	for (i = 0; i < n; i++) {
		const struct tmpl_vars *s = tmpl_row(v, "stages", i);
		int y = (int)i * group;
		strbuf_addf(out, "<text class=\"stage\" x=\"0\" y=\"%d\">",
		            y + ROW_H + 5);
		xml_text(out, tmpl_get(s, "label"));
		strbuf_adds(out, "</text>");
		bar(out, s, y, model_t(c, "diff_tag_base"), "base_ns", max);
		bar(out, s, y + ROW_H, model_t(c, "diff_tag_new"), "new_ns",
		    max);
	}
	strbuf_adds(out, "</svg>");
	legend(c, out);
}

#define WF_LABEL_W   330
#define WF_LABEL_MAX 44
#define WF_PLOT_W    540
#define WF_ROW_H     22

/* A waterfall row's bar: from..to on lo..hi, at least a pixel wide. */
static void wf_bar(struct strbuf *out, const struct tmpl_vars *r, int y,
                   int64_t lo, int64_t hi, int *end)
{
	int64_t from = ns_of(r, "from_ns"), to = ns_of(r, "to_ns");
	int64_t a = from < to ? from : to, b = from < to ? to : from;
	int x0 = (int)checked_muldiv(a > lo ? a - lo : 0, WF_PLOT_W, hi - lo);
	int x1 = (int)checked_muldiv(b > lo ? b - lo : 0, WF_PLOT_W, hi - lo);

	strbuf_addf(out,
	            "<rect class=\"%s\" x=\"%d\" y=\"%d\" width=\"%d\" "
	            "height=\"%d\"><title>",
	            tmpl_get(r, "css"), WF_LABEL_W + x0, y + 3,
	            x1 > x0 ? x1 - x0 : 1, WF_ROW_H - 6);
	xml_text(out, tmpl_get(r, "label"));
	if (*tmpl_get(r, "stage_label")) {
		strbuf_adds(out, " (");
		xml_text(out, tmpl_get(r, "stage_label"));
		strbuf_addch(out, ')');
	}
	strbuf_addch(out, ' ');
	xml_text(out, tmpl_get(r, "value"));
	strbuf_adds(out, "</title></rect>");
	*end = WF_LABEL_W + (x1 > x0 ? x1 : x0 + 1);
}

void diff_waterfall_svg(struct model_ctx *c, const struct tmpl_vars *v,
                        struct strbuf *out)
{
	size_t i, n = tmpl_nrows(v, "waterfall");
	int64_t lo = ns_of(v, "wf_lo_ns"), hi = ns_of(v, "wf_hi_ns");
	const char *title = model_t(c, "diff_waterfall_title");
	int top = (int)n * WF_ROW_H + 2, end = 0;

	strbuf_reset(out);
	if (!n || hi <= lo)
		return;
	strbuf_addf(out,
	            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart "
	            "waterfall\" viewBox=\"0 0 %d %d\" role=\"img\" "
	            "aria-label=\"",
	            VIEW_W, top + SVG_AXIS_H);
	xml_text(out, title);
	strbuf_adds(out, "\"><title>");
	xml_text(out, title);
	strbuf_adds(out, "</title>");
	for (i = 0; i < n; i++) {
		const struct tmpl_vars *r = tmpl_row(v, "waterfall", i);
		int y = (int)i * WF_ROW_H, total = *tmpl_get(r, "total") != 0;
		strbuf_addf(out, "<text class=\"%s\" x=\"0\" y=\"%d\">",
		            total ? "stage" : "name", y + 15);
		svg_cut_label(out, tmpl_get(r, "label"), WF_LABEL_MAX);
		strbuf_adds(out, "</text>");
		wf_bar(out, r, y, lo, hi, &end);
		strbuf_addf(out, "<text class=\"total\" x=\"%d\" y=\"%d\">",
		            end + 6, y + 15);
		xml_text(out, tmpl_get(r, "value"));
		strbuf_adds(out, "</text>");
	}
	svg_axis(out, WF_LABEL_W, WF_PLOT_W, top, lo, hi);
	strbuf_adds(out, "</svg>");
}
