/* SVG charts. Geometry is computed in integers of a fixed view box, so the
 * markup is byte-stable for golden tests. */
#include "view/svg.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <stdlib.h>

#include "view/escape.h"
#include "util/checked.h"
#include "util/numfmt.h"
#include "util/banned.h"

#define BAR_W      960
#define BAR_H      28
#define AXIS_TICKS 8

/* Text inside SVG: the HTML escaper is also correct XML escaping. */
static void xml_text(struct strbuf *out, const char *s)
{
	escape_html(out, s, strlen(s));
}

static void open_svg(struct strbuf *out, const char *title, int h)
{
	strbuf_addf(out,
	            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" "
	            "viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"",
	            BAR_W, h);
	xml_text(out, title);
	strbuf_adds(out, "\"><title>");
	xml_text(out, title);
	strbuf_adds(out, "</title>");
}

/* The legend as HTML text after the chart (it stays readable when the
 * chart shrinks on a phone): one item per part, a swatch of its class,
 * its label and, when total > 0, its percent (parts without a value are
 * then left out). */
static void legend(struct strbuf *out, const struct svg_part *parts, size_t n,
                   int64_t total)
{
	size_t i;

	strbuf_adds(out, "<ul class=\"legend\">");
	for (i = 0; i < n; i++) {
		if (total > 0 && parts[i].value <= 0)
			continue;
		strbuf_addf(out, "<li><span class=\"dot %s\"></span>",
		            parts[i].css);
		xml_text(out, parts[i].label);
		if (total > 0)
			strbuf_addf(out, " %.1f%%",
			            100.0 * (double)parts[i].value /
			                (double)total);
		strbuf_adds(out, "</li>");
	}
	strbuf_adds(out, "</ul>");
}

int64_t svg_tick_step(int64_t span, int max_ticks)
{
	static const int64_t mult[] = {1, 2, 5};
	int64_t mag;
	size_t k;

	if (span <= 0 || max_ticks <= 0)
		return 1;
	for (mag = 1; mag <= INT64_MAX / 10; mag *= 10)
		for (k = 0; k < 3; k++)
			if (span / (mult[k] * mag) < max_ticks)
				return mult[k] * mag;
	return mag;
}

void svg_tick_label(struct strbuf *out, int64_t t, int64_t step)
{
	static const struct {
		int64_t ns;
		const char *unit;
	} units[] = {
	    {1000000000, "s"}, {1000000, "ms"}, {1000, "\xC2\xB5s"}, {1, "ns"}};
	size_t u = 0;

	if (t == 0) {
		strbuf_addch(out, '0');
		return;
	}
	while (u + 1 < sizeof(units) / sizeof(units[0]) && step < units[u].ns)
		u++;
	if (t < 0) {
		strbuf_addch(out, '-');
		t = -t;
	}
	numfmt_count(out, (uint64_t)(t / units[u].ns));
	strbuf_addf(out, " %s", units[u].unit);
}

void svg_axis(struct strbuf *out, int x, int w, int y, int64_t lo, int64_t hi)
{
	int64_t span = hi - lo, step = svg_tick_step(span, AXIS_TICKS), t;

	strbuf_addf(out,
	            "<g class=\"axis\"><line x1=\"%d\" y1=\"%d\" x2=\"%d\" "
	            "y2=\"%d\"/>",
	            x, y, x + w, y);
	t = lo > 0 ? (lo + step - 1) / step * step : 0;
	for (; span > 0 && t <= hi; t += step) {
		int px = x + (int)checked_muldiv(t - lo, w, span);
		const char *anchor = px < x + 20       ? "start"
		                     : px > x + w - 40 ? "end"
		                                       : "middle";
		strbuf_addf(out,
		            "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>"
		            "<text x=\"%d\" y=\"%d\" text-anchor=\"%s\">",
		            px, y, px, y + 5, px, y + 18, anchor);
		svg_tick_label(out, t, step);
		strbuf_adds(out, "</text>");
		if (t > INT64_MAX - step)
			break;
	}
	strbuf_adds(out, "</g>");
}

static void axis(struct strbuf *out, int x, int w, int y, int64_t span)
{
	svg_axis(out, x, w, y, 0, span);
}

/* The pixel of time t on a w-pixel axis from 0 to span (span > 0), kept
 * on the axis whatever t is. */
static int pixel(int64_t t, int64_t span, int w)
{
	int64_t x = checked_muldiv(t, w, span);

	return x < 0 ? 0 : x > w ? w : (int)x;
}

void svg_stacked_bar(struct strbuf *out, const char *title,
                     const struct svg_part *parts, size_t n)
{
	int64_t total = 0, acc = 0;
	size_t i;
	int h = BAR_H;

	for (i = 0; i < n; i++)
		if (parts[i].value > 0)
			checked_accumulate(&total, parts[i].value);
	open_svg(out, title, h);
	for (i = 0; i < n && total > 0; i++) {
		int x0, x1;
		if (parts[i].value <= 0)
			continue;
		x0 = pixel(acc, total, BAR_W);
		checked_accumulate(&acc, parts[i].value);
		x1 = pixel(acc, total, BAR_W);
		strbuf_addf(out,
		            "<rect class=\"%s\" x=\"%d\" y=\"0\" width=\"%d\" "
		            "height=\"%d\"><title>",
		            parts[i].css, x0, x1 - x0, BAR_H);
		xml_text(out, parts[i].label);
		strbuf_addf(out, " %.1f%%</title></rect>",
		            100.0 * (double)parts[i].value / (double)total);
	}
	strbuf_adds(out, "</svg>");
	legend(out, parts, n, total);
}

/* room above a timeline strip for its label */
#define STRIP_LABEL_H 20

void svg_timeline(struct strbuf *out, const char *title,
                  const char *strip_label, const struct svg_span *spans,
                  size_t n, int64_t t0, int64_t t1,
                  const struct svg_part *legend_parts, size_t nlegend)
{
	int64_t range = t1 > t0 ? checked_sub_sat(t1, t0) : 1;
	size_t i;
	int label = strip_label && *strip_label;
	int h = BAR_H + SVG_AXIS_H + (label ? STRIP_LABEL_H : 0);

	open_svg(out, title, h);
	if (label) {
		strbuf_adds(out, "<text class=\"strip-label\" x=\"0\" "
		                 "y=\"14\">");
		xml_text(out, strip_label);
		strbuf_addf(out, "</text><g transform=\"translate(0,%d)\">",
		            STRIP_LABEL_H);
	}
	strbuf_addf(out,
	            "<rect class=\"track\" x=\"0\" y=\"0\" width=\"%d\" "
	            "height=\"%d\"/>",
	            BAR_W, BAR_H);
	for (i = 0; i < n; i++) {
		int x0 =
		    pixel(checked_sub_sat(spans[i].start, t0), range, BAR_W);
		int x1 = pixel(checked_sub_sat(spans[i].end, t0), range, BAR_W);
		strbuf_addf(out,
		            "<rect class=\"%s\" x=\"%d\" y=\"0\" width=\"%d\" "
		            "height=\"%d\"><title>",
		            spans[i].css, x0, x1 > x0 ? x1 - x0 : 1, BAR_H);
		xml_text(out, spans[i].label);
		strbuf_adds(out, "</title></rect>");
	}
	axis(out, 0, BAR_W - 1, BAR_H, range);
	strbuf_adds(out, label ? "</g></svg>" : "</svg>");
	legend(out, legend_parts, nlegend, 0);
}

/* ---- points on a time axis --------------------------------------------- */

#define PLOT_L     64 /* left of the plot: the y tick labels */
#define PLOT_T     10
#define PLOT_R     24 /* room for the last x tick label */
#define PLOT_H     180
#define AXIS_GAP   44 /* x ticks and the x label under the plot */
#define LEGEND_ROW 22 /* a row of the scatter's legend of shapes */

/* A 1-2-5 step giving about `want` ticks over range (> 0). */
static double nice_step(double range, int want)
{
	double raw = range / want, mag = 1;

	while (mag * 10 <= raw)
		mag *= 10;
	while (mag > raw)
		mag /= 10;
	if (raw <= mag)
		return mag;
	if (raw <= 2 * mag)
		return 2 * mag;
	if (raw <= 5 * mag)
		return 5 * mag;
	return 10 * mag;
}

static void tick_label(struct strbuf *out, double ms, double step)
{
	/* with thousands separators, as every number for people */
	numfmt_fixed(out, ms, step >= 1 ? 0 : step >= 0.1 ? 1 : 2);
}

static void shape(struct strbuf *out, enum svg_shape s, const char *css, int x,
                  int y)
{
	switch (s) {
	case SVG_DIAMOND:
		strbuf_addf(out,
		            "<polygon class=\"%s\" points=\"%d,%d %d,%d %d,%d "
		            "%d,%d\"",
		            css, x, y - 6, x + 6, y, x, y + 6, x - 6, y);
		break;
	case SVG_SQUARE:
		strbuf_addf(out,
		            "<rect class=\"%s\" x=\"%d\" y=\"%d\" width=\"10\" "
		            "height=\"10\"",
		            css, x - 5, y - 5);
		break;
	case SVG_TRIANGLE:
		strbuf_addf(
		    out, "<polygon class=\"%s\" points=\"%d,%d %d,%d %d,%d\"",
		    css, x, y - 6, x + 6, y + 5, x - 6, y + 5);
		break;
	default:
		strbuf_addf(out,
		            "<circle class=\"%s\" cx=\"%d\" cy=\"%d\" r=\"4\"",
		            css, x, y);
	}
}

/* The axes: lines, ticks with their labels, the two axis labels. */
static void axes(struct strbuf *out, double xrange_ms, double ymax_ms,
                 const char *xlabel, const char *ylabel)
{
	int w = BAR_W - PLOT_L - PLOT_R, base = PLOT_T + PLOT_H;
	double xs = nice_step(xrange_ms, 8), ys = nice_step(ymax_ms, 4), t;

	strbuf_addf(out,
	            "<path class=\"axis\" d=\"M%d %dV%dH%d\" fill=\"none\"/>",
	            PLOT_L, PLOT_T, base, PLOT_L + w);
	for (t = 0; t <= xrange_ms * 1.0000001; t += xs) {
		int x = PLOT_L + (int)(t / xrange_ms * w);
		strbuf_addf(
		    out,
		    "<path class=\"axis\" d=\"M%d %dv5\"/><text x=\"%d\" "
		    "y=\"%d\" text-anchor=\"middle\">",
		    x, base, x, base + 18);
		tick_label(out, t, xs);
		strbuf_adds(out, "</text>");
	}
	for (t = 0; t <= ymax_ms * 1.0000001; t += ys) {
		int y = base - (int)(t / ymax_ms * PLOT_H);
		strbuf_addf(
		    out,
		    "<path class=\"grid\" d=\"M%d %dH%d\"/><text x=\"%d\" "
		    "y=\"%d\" text-anchor=\"end\">",
		    PLOT_L, y, PLOT_L + w, PLOT_L - 6, y + 4);
		tick_label(out, t, ys);
		strbuf_adds(out, "</text>");
	}
	strbuf_addf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">",
	            PLOT_L + w / 2, base + 38);
	xml_text(out, xlabel);
	strbuf_addf(out,
	            "</text><text x=\"12\" y=\"%d\" text-anchor=\"middle\" "
	            "transform=\"rotate(-90 12 %d)\">",
	            PLOT_T + PLOT_H / 2, PLOT_T + PLOT_H / 2);
	xml_text(out, ylabel);
	strbuf_adds(out, "</text>");
}

void svg_points(struct strbuf *out, const char *title,
                const struct svg_point *p, size_t n, const char *xlabel,
                const char *ylabel, const struct svg_part *legend_parts,
                const enum svg_shape *shapes, size_t nlegend)
{
	int64_t xmax = 1, ymax = 1;
	int w = BAR_W - PLOT_L - PLOT_R, base = PLOT_T + PLOT_H;
	int top = base + AXIS_GAP + 8, i;
	size_t k;
	double xr, yr;

	for (k = 0; k < n; k++) {
		xmax = p[k].x > xmax ? p[k].x : xmax;
		ymax = p[k].y > ymax ? p[k].y : ymax;
	}
	/* the axes end on a tick: the ranges rounded up to their steps */
	xr = (double)xmax / 1e6;
	xr = ceil(xr / nice_step(xr, 8)) * nice_step(xr, 8);
	yr = (double)ymax / 1e6 * 1.1;
	yr = ceil(yr / nice_step(yr, 4)) * nice_step(yr, 4);
	open_svg(out, title, top + (int)((nlegend + 3) / 4) * LEGEND_ROW);
	axes(out, xr, yr, xlabel, ylabel);
	for (k = 0; k < n; k++) {
		int x = PLOT_L + (int)((double)p[k].x / 1e6 / xr * w);
		int y = base - (int)((double)p[k].y / 1e6 / yr * PLOT_H);
		shape(out, p[k].shape, p[k].css, x, y);
		strbuf_adds(out, "><title>");
		xml_text(out, p[k].label);
		strbuf_adds(out, p[k].shape == SVG_CIRCLE ? "</title></circle>"
		                 : p[k].shape == SVG_SQUARE
		                     ? "</title></rect>"
		                     : "</title></polygon>");
	}
	for (i = 0; i < (int)nlegend; i++) {
		int x = (i % 4) * (BAR_W / 4) + 8;
		int y = top + (i / 4) * LEGEND_ROW;
		shape(out, shapes[i], legend_parts[i].css, x, y);
		strbuf_addf(out, "/><text x=\"%d\" y=\"%d\">", x + 14, y + 4);
		xml_text(out, legend_parts[i].label);
		strbuf_adds(out, "</text>");
	}
	strbuf_adds(out, "</svg>");
}

#define ROWS_LABEL_W 120
#define ROW_H        20

void svg_bars(struct strbuf *out, const char *title,
              const struct svg_part *parts, size_t nparts,
              const char *const *row_labels, const int64_t *values,
              size_t nrows)
{
	int64_t max = 0;
	size_t i, k;
	int top = (int)nrows * ROW_H + 2;
	int h = top + SVG_AXIS_H;
	int plot_w = BAR_W - ROWS_LABEL_W;

	for (i = 0; i < nrows; i++) {
		int64_t sum = 0;
		for (k = 0; k < nparts; k++)
			if (values[i * nparts + k] > 0)
				checked_accumulate(&sum,
				                   values[i * nparts + k]);
		max = sum > max ? sum : max;
	}
	open_svg(out, title, h);
	for (i = 0; i < nrows; i++) {
		int64_t acc = 0;
		int y = (int)i * ROW_H;
		strbuf_addf(out, "<text x=\"0\" y=\"%d\">", y + 14);
		xml_text(out, row_labels[i]);
		strbuf_adds(out, "</text>");
		for (k = 0; k < nparts && max > 0; k++) {
			int64_t val = values[i * nparts + k];
			int x0, x1;
			if (val <= 0)
				continue;
			x0 = pixel(acc, max, plot_w);
			checked_accumulate(&acc, val);
			x1 = pixel(acc, max, plot_w);
			strbuf_addf(out,
			            "<rect class=\"%s\" x=\"%d\" y=\"%d\" "
			            "width=\"%d\" height=\"%d\"><title>",
			            parts[k].css, ROWS_LABEL_W + x0, y + 2,
			            x1 > x0 ? x1 - x0 : 1, ROW_H - 4);
			xml_text(out, row_labels[i]);
			strbuf_adds(out, ": ");
			xml_text(out, parts[k].label);
			strbuf_addch(out, ' ');
			numfmt_duration(out, val);
			strbuf_adds(out, "</title></rect>");
		}
	}
	axis(out, ROWS_LABEL_W, plot_w - 1, top, max);
	strbuf_adds(out, "</svg>");
	legend(out, parts, nparts, 0);
}

#define HB_LABEL_W   330 /* room for about 44 characters of a type name */
#define HB_LABEL_MAX 44
#define HB_VALUE_W   90

void svg_cut_label(struct strbuf *out, const char *s, size_t max)
{
	size_t n = strlen(s);

	if (n <= max) {
		xml_text(out, s);
		return;
	}
	n = max - 1;
	while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
		n--;
	escape_html(out, s, n);
	strbuf_adds(out, "\xE2\x80\xA6");
}

void svg_hbars(struct strbuf *out, const char *title,
               const struct svg_hbar *bars, size_t n,
               const struct svg_part *legend_parts, size_t nlegend)
{
	int64_t max = 0;
	int plot_w = BAR_W - HB_LABEL_W - HB_VALUE_W;
	int top = (int)n * ROW_H + 2;
	size_t i;

	for (i = 0; i < n; i++)
		max = bars[i].value > max ? bars[i].value : max;
	open_svg(out, title, top + SVG_AXIS_H);
	for (i = 0; i < n; i++) {
		int y = (int)i * ROW_H;
		int w = max > 0 && bars[i].value > 0
		            ? pixel(bars[i].value, max, plot_w)
		            : 0;
		strbuf_addf(out, "<text class=\"name\" x=\"0\" y=\"%d\">",
		            y + 14);
		svg_cut_label(out, bars[i].label, HB_LABEL_MAX);
		strbuf_addf(out,
		            "</text><rect class=\"%s\" x=\"%d\" y=\"%d\" "
		            "width=\"%d\" height=\"%d\"><title>",
		            bars[i].css, HB_LABEL_W, y + 2, w > 0 ? w : 1,
		            ROW_H - 4);
		xml_text(out, bars[i].label);
		strbuf_addch(out, ' ');
		numfmt_duration(out, bars[i].value);
		strbuf_addf(out,
		            "</title></rect><text class=\"value\" x=\"%d\" "
		            "y=\"%d\">",
		            HB_LABEL_W + w + 6, y + 14);
		numfmt_duration(out, bars[i].value);
		strbuf_adds(out, "</text>");
	}
	axis(out, HB_LABEL_W, plot_w - 1, top, max);
	strbuf_adds(out, "</svg>");
	legend(out, legend_parts, nlegend, 0);
}
