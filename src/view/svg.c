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

/* A chart is drawn twice, for a wide screen (and paper) and for a phone,
 * and the style sheet shows one (assets/report.css: .wide above 700 px,
 * .narrow below): in a view box as wide as the phone's column, its text
 * stays at its 13 px where a 960-unit chart shrunk to fit would set it
 * at 5 px, so it fits the phone without scrolling in its figure. */
struct geo {
	const char *cls; /* "wide" or "narrow" */
	int w;           /* view box width */
	int ticks;       /* at most this many time-axis ticks */
};
static const struct geo WIDE = {"wide", BAR_W, AXIS_TICKS};
static const struct geo NARROW = {"narrow", SVG_NARROW_W, 4};

static void open_svg_as(struct strbuf *out, const char *cls, int w,
                        const char *title, int h)
{
	strbuf_addf(
	    out,
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart%s%s\" "
	    "viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"",
	    cls ? " " : "", cls ? cls : "", w, h);
	xml_text(out, title);
	strbuf_adds(out, "\"><title>");
	xml_text(out, title);
	strbuf_adds(out, "</title>");
}

static void open_svg(struct strbuf *out, const struct geo *g, const char *title,
                     int h)
{
	open_svg_as(out, g->cls, g->w, title, h);
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

int64_t svg_tick_first(int64_t lo, int64_t step)
{
	return lo > 0 ? checked_add_sat(lo, step - 1) / step * step : 0;
}

int svg_tick_next(int64_t *t, int64_t step)
{
	if (*t > INT64_MAX - step)
		return 0;
	*t += step;
	return 1;
}

void svg_tick_label(struct strbuf *out, int64_t t, int64_t step)
{
	static const struct {
		int64_t ns;
		const char *unit;
	} units[] = {
	    {1000000000, "s"}, {1000000, "ms"}, {1000, "\xC2\xB5s"}, {1, "ns"}};
	size_t u = 0;
	uint64_t m; /* |t|: INT64_MIN's too */

	if (t == 0) {
		strbuf_addch(out, '0');
		return;
	}
	while (u + 1 < sizeof(units) / sizeof(units[0]) && step < units[u].ns)
		u++;
	m = t < 0 ? 0 - (uint64_t)t : (uint64_t)t;
	if (t < 0)
		strbuf_addch(out, '-');
	numfmt_count(out, m / (uint64_t)units[u].ns);
	strbuf_addf(out, " %s", units[u].unit);
}

/* The pixel of time t on a w-pixel axis from 0 to span (span > 0), kept
 * on the axis whatever t is. */
static int pixel(int64_t t, int64_t span, int w)
{
	int64_t x = checked_muldiv(t, w, span);

	return x < 0 ? 0 : x > w ? w : (int)x;
}

void svg_axis_ticks(struct strbuf *out, int x, int w, int y, int64_t lo,
                    int64_t hi, int ticks)
{
	int64_t span = checked_sub_sat(hi, lo),
	        step = svg_tick_step(span, ticks), t;

	strbuf_addf(out,
	            "<g class=\"axis\"><line x1=\"%d\" y1=\"%d\" x2=\"%d\" "
	            "y2=\"%d\"/>",
	            x, y, x + w, y);
	for (t = svg_tick_first(lo, step); span > 0 && t <= hi;) {
		int px = x + pixel(checked_sub_sat(t, lo), span, w);
		const char *anchor = px < x + 20       ? "start"
		                     : px > x + w - 40 ? "end"
		                                       : "middle";
		strbuf_addf(out,
		            "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>"
		            "<text x=\"%d\" y=\"%d\" text-anchor=\"%s\">",
		            px, y, px, y + 5, px, y + 18, anchor);
		svg_tick_label(out, t, step);
		strbuf_adds(out, "</text>");
		if (!svg_tick_next(&t, step))
			break;
	}
	strbuf_adds(out, "</g>");
}

void svg_axis(struct strbuf *out, int x, int w, int y, int64_t lo, int64_t hi)
{
	svg_axis_ticks(out, x, w, y, lo, hi, AXIS_TICKS);
}

static void axis(struct strbuf *out, const struct geo *g, int x, int w, int y,
                 int64_t span)
{
	svg_axis_ticks(out, x, w, y, 0, span, g->ticks);
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
	/* no text inside: it fits any width as it is */
	open_svg_as(out, "fluid", BAR_W, title, h);
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

static void timeline_as(struct strbuf *out, const struct geo *g,
                        const char *title, const char *strip_label,
                        const struct svg_span *spans, size_t n, int64_t t0,
                        int64_t t1)
{
	int64_t range = t1 > t0 ? checked_sub_sat(t1, t0) : 1;
	size_t i;
	int label = strip_label && *strip_label;
	int h = BAR_H + SVG_AXIS_H + (label ? STRIP_LABEL_H : 0);

	open_svg(out, g, title, h);
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
	            g->w, BAR_H);
	for (i = 0; i < n; i++) {
		int x0 =
		    pixel(checked_sub_sat(spans[i].start, t0), range, g->w);
		int x1 = pixel(checked_sub_sat(spans[i].end, t0), range, g->w);
		strbuf_addf(out,
		            "<rect class=\"%s\" x=\"%d\" y=\"0\" width=\"%d\" "
		            "height=\"%d\"><title>",
		            spans[i].css, x0, x1 > x0 ? x1 - x0 : 1, BAR_H);
		xml_text(out, spans[i].label);
		strbuf_adds(out, "</title></rect>");
	}
	axis(out, g, 0, g->w - 1, BAR_H, range);
	strbuf_adds(out, label ? "</g></svg>" : "</svg>");
}

void svg_timeline(struct strbuf *out, const char *title,
                  const char *strip_label, const struct svg_span *spans,
                  size_t n, int64_t t0, int64_t t1,
                  const struct svg_part *legend_parts, size_t nlegend)
{
	timeline_as(out, &WIDE, title, strip_label, spans, n, t0, t1);
	timeline_as(out, &NARROW, title, strip_label, spans, n, t0, t1);
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
static void axes(struct strbuf *out, const struct geo *g, double xrange_ms,
                 double ymax_ms, const char *xlabel, const char *ylabel)
{
	int w = g->w - PLOT_L - PLOT_R, base = PLOT_T + PLOT_H;
	double xs = nice_step(xrange_ms, g->ticks), ys = nice_step(ymax_ms, 4),
	       t;

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

/* The pixel of fraction f of a px-pixel axis, kept on the axis: a point
 * before its start (a negative time: iterations out of order, forged
 * times in a summary) is drawn at the start, one past its end at the end,
 * and the conversion to int never overflows. */
static int plot_at(double f, int px)
{
	if (!(f > 0)) /* NaN too */
		return 0;
	if (f >= 1)
		return px;
	return (int)(f * px);
}

static void points_as(struct strbuf *out, const struct geo *g,
                      const char *title, const struct svg_point *p, size_t n,
                      const char *xlabel, const char *ylabel,
                      const struct svg_part *legend_parts,
                      const enum svg_shape *shapes, size_t nlegend)
{
	int64_t xmax = 1, ymax = 1;
	int w = g->w - PLOT_L - PLOT_R, base = PLOT_T + PLOT_H;
	int top = base + AXIS_GAP + 8, i;
	/* the legend of shapes: four to a row, two on a phone */
	int per_row = g->w >= 600 ? 4 : 2;
	size_t k;
	double xr, yr;

	for (k = 0; k < n; k++) {
		xmax = p[k].x > xmax ? p[k].x : xmax;
		ymax = p[k].y > ymax ? p[k].y : ymax;
	}
	/* the axes end on a tick: the ranges rounded up to their steps */
	xr = (double)xmax / 1e6;
	xr = ceil(xr / nice_step(xr, g->ticks)) * nice_step(xr, g->ticks);
	yr = (double)ymax / 1e6 * 1.1;
	yr = ceil(yr / nice_step(yr, 4)) * nice_step(yr, 4);
	open_svg(out, g, title,
	         top + ((int)nlegend + per_row - 1) / per_row * LEGEND_ROW);
	axes(out, g, xr, yr, xlabel, ylabel);
	for (k = 0; k < n; k++) {
		int x = PLOT_L + plot_at((double)p[k].x / 1e6 / xr, w);
		int y = base - plot_at((double)p[k].y / 1e6 / yr, PLOT_H);
		shape(out, p[k].shape, p[k].css, x, y);
		strbuf_adds(out, "><title>");
		xml_text(out, p[k].label);
		strbuf_adds(out, p[k].shape == SVG_CIRCLE ? "</title></circle>"
		                 : p[k].shape == SVG_SQUARE
		                     ? "</title></rect>"
		                     : "</title></polygon>");
	}
	for (i = 0; i < (int)nlegend; i++) {
		int x = (i % per_row) * (g->w / per_row) + 8;
		int y = top + (i / per_row) * LEGEND_ROW;
		shape(out, shapes[i], legend_parts[i].css, x, y);
		strbuf_addf(out, "/><text x=\"%d\" y=\"%d\">", x + 14, y + 4);
		xml_text(out, legend_parts[i].label);
		strbuf_adds(out, "</text>");
	}
	strbuf_adds(out, "</svg>");
}

void svg_points(struct strbuf *out, const char *title,
                const struct svg_point *p, size_t n, const char *xlabel,
                const char *ylabel, const struct svg_part *legend_parts,
                const enum svg_shape *shapes, size_t nlegend)
{
	points_as(out, &WIDE, title, p, n, xlabel, ylabel, legend_parts, shapes,
	          nlegend);
	points_as(out, &NARROW, title, p, n, xlabel, ylabel, legend_parts,
	          shapes, nlegend);
}

#define ROWS_LABEL_W 120
#define ROW_H        20

static void bars_as(struct strbuf *out, const struct geo *g, const char *title,
                    const struct svg_part *parts, size_t nparts,
                    const char *const *row_labels, const int64_t *values,
                    size_t nrows)
{
	int64_t max = 0;
	size_t i, k;
	int top = (int)nrows * ROW_H + 2;
	int h = top + SVG_AXIS_H;
	int plot_w = g->w - ROWS_LABEL_W;

	for (i = 0; i < nrows; i++) {
		int64_t sum = 0;
		for (k = 0; k < nparts; k++)
			if (values[i * nparts + k] > 0)
				checked_accumulate(&sum,
				                   values[i * nparts + k]);
		max = sum > max ? sum : max;
	}
	open_svg(out, g, title, h);
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
	axis(out, g, ROWS_LABEL_W, plot_w - 1, top, max);
	strbuf_adds(out, "</svg>");
}

void svg_bars(struct strbuf *out, const char *title,
              const struct svg_part *parts, size_t nparts,
              const char *const *row_labels, const int64_t *values,
              size_t nrows)
{
	bars_as(out, &WIDE, title, parts, nparts, row_labels, values, nrows);
	bars_as(out, &NARROW, title, parts, nparts, row_labels, values, nrows);
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

/* On a phone the name goes above its bar, which then has the width */
#define HB_NARROW_ROW_H 34

static void hbars_as(struct strbuf *out, const struct geo *g, const char *title,
                     const struct svg_hbar *bars, size_t n)
{
	int64_t max = 0;
	int above = g->w < 600;
	int label_w = above ? 0 : HB_LABEL_W;
	int row_h = above ? HB_NARROW_ROW_H : ROW_H;
	int plot_w = g->w - label_w - HB_VALUE_W;
	int top = (int)n * row_h + 2;
	size_t i;

	for (i = 0; i < n; i++)
		max = bars[i].value > max ? bars[i].value : max;
	open_svg(out, g, title, top + SVG_AXIS_H);
	for (i = 0; i < n; i++) {
		int y = (int)i * row_h;
		int by = above ? y + 18 : y;
		int w = max > 0 && bars[i].value > 0
		            ? pixel(bars[i].value, max, plot_w)
		            : 0;
		strbuf_addf(out, "<text class=\"name\" x=\"0\" y=\"%d\">",
		            y + 14);
		svg_cut_label(out, bars[i].label, HB_LABEL_MAX);
		strbuf_addf(out,
		            "</text><rect class=\"%s\" x=\"%d\" y=\"%d\" "
		            "width=\"%d\" height=\"%d\"><title>",
		            bars[i].css, label_w, by + 2, w > 0 ? w : 1,
		            ROW_H - 4);
		xml_text(out, bars[i].label);
		strbuf_addch(out, ' ');
		numfmt_duration(out, bars[i].value);
		strbuf_addf(out,
		            "</title></rect><text class=\"value\" x=\"%d\" "
		            "y=\"%d\">",
		            label_w + w + 6, by + 14);
		numfmt_duration(out, bars[i].value);
		strbuf_adds(out, "</text>");
	}
	axis(out, g, label_w, plot_w - 1, top, max);
	strbuf_adds(out, "</svg>");
}

void svg_hbars(struct strbuf *out, const char *title,
               const struct svg_hbar *bars, size_t n,
               const struct svg_part *legend_parts, size_t nlegend)
{
	hbars_as(out, &WIDE, title, bars, n);
	hbars_as(out, &NARROW, title, bars, n);
	legend(out, legend_parts, nlegend, 0);
}
