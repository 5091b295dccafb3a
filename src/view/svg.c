/* SVG charts. Geometry is computed in integers of a fixed view box, so the
 * markup is byte-stable for golden tests. */
#include "view/svg.h"

#include <inttypes.h>
#include <string.h>
#include <stdlib.h>

#include "view/escape.h"
#include "util/checked.h"
#include "util/numfmt.h"
#include "util/banned.h"

#define BAR_W      960
#define BAR_H      28
#define LEGEND_ROW 22

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

/* Legend entries, four to a row, below y. */
static void legend(struct strbuf *out, const struct svg_part *parts, size_t n,
                   int64_t total, int y)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		int x, row;
		if (total > 0 && parts[i].value <= 0)
			continue;
		x = (int)(k % 4) * (BAR_W / 4);
		row = y + (int)(k / 4) * LEGEND_ROW;
		strbuf_addf(out,
		            "<rect class=\"%s\" x=\"%d\" y=\"%d\" width=\"12\" "
		            "height=\"12\"/><text x=\"%d\" y=\"%d\">",
		            parts[i].css, x, row, x + 18, row + 11);
		xml_text(out, parts[i].label);
		if (total > 0)
			strbuf_addf(out, " %.1f%%",
			            100.0 * (double)parts[i].value /
			                (double)total);
		strbuf_adds(out, "</text>");
		k++;
	}
}

static int legend_rows(const struct svg_part *parts, size_t n, int skip_zero)
{
	size_t i, k = 0;
	for (i = 0; i < n; i++)
		k += !skip_zero || parts[i].value > 0;
	return (int)((k + 3) / 4);
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
	int h = BAR_H + 10 + legend_rows(parts, n, 1) * LEGEND_ROW;

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
	legend(out, parts, n, total, BAR_H + 10);
	strbuf_adds(out, "</svg>");
}

void svg_timeline(struct strbuf *out, const char *title,
                  const struct svg_span *spans, size_t n, int64_t t0,
                  int64_t t1, const struct svg_part *legend_parts,
                  size_t nlegend)
{
	int64_t range = t1 > t0 ? checked_sub_sat(t1, t0) : 1;
	size_t i;
	int h = BAR_H + 10 + legend_rows(legend_parts, nlegend, 0) * LEGEND_ROW;

	open_svg(out, title, h);
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
	legend(out, legend_parts, nlegend, 0, BAR_H + 10);
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
	int top = (int)nrows * ROW_H + 8;
	int h = top + legend_rows(parts, nparts, 0) * LEGEND_ROW;
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
	legend(out, parts, nparts, 0, top);
	strbuf_adds(out, "</svg>");
}
