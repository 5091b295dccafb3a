/* PDF charts: the stacked category bars, the stage timeline strip with its
 * legend, and the verdict meter, drawn as vector shapes with libharu. */
#include "format/pdf/pdf_chart.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view/palette.h"
#include "view/svg.h"
#include "util/banned.h"

#define BAR_H 14.0f

long pdf_chart_cat_rgb(const char *cat)
{
	return (long)palette_cat_rgb(cat);
}

long pdf_chart_stage_rgb(const char *id)
{
	return (long)palette_stage_rgb(id);
}

void pdf_chart_state_mark(struct pdf_doc *d, float x, float top,
                          const char *state)
{
	int fired = !strcmp(state, "fired"), ok = !strcmp(state, "ok");
	unsigned long rgb = fired ? palette_states[PAL_FIRED].rgb
	                    : ok  ? palette_states[PAL_OK].rgb
	                          : palette_states[PAL_NA].rgb;
	float r = (float)((rgb >> 16) & 0xFF) / 255.0f;
	float g = (float)((rgb >> 8) & 0xFF) / 255.0f;
	float b = (float)(rgb & 0xFF) / 255.0f;

	HPDF_Page_SetRGBFill(d->page, r, g, b);
	HPDF_Page_SetRGBStroke(d->page, r, g, b);
	if (fired) { /* a warning triangle */
		HPDF_Page_MoveTo(d->page, x, top - 10);
		HPDF_Page_LineTo(d->page, x + 10, top - 10);
		HPDF_Page_LineTo(d->page, x + 5, top - 1);
		HPDF_Page_ClosePath(d->page);
		HPDF_Page_Fill(d->page);
		return;
	}
	HPDF_Page_SetLineWidth(d->page, 1.8f);
	if (ok) { /* a tick */
		HPDF_Page_MoveTo(d->page, x + 1, top - 5.5f);
		HPDF_Page_LineTo(d->page, x + 4, top - 9);
		HPDF_Page_LineTo(d->page, x + 9.5f, top - 2);
	} else {
		HPDF_Page_MoveTo(d->page, x + 1, top - 5.5f);
		HPDF_Page_LineTo(d->page, x + 9, top - 5.5f);
	}
	HPDF_Page_Stroke(d->page);
}

struct part {
	const char *label;
	double value;
	long rgb;
};

/* A legend: swatch + label (+ percent of total when total > 0) per part,
 * flowing over as many lines as needed. */
static void legend(struct pdf_doc *d, struct strbuf *label, tmpl_fmt_fn fpct,
                   const struct part *p, size_t n, double total)
{
	float x = MARGIN;
	char num[64];
	size_t i;

	pt_need(d, 12.0f);
	d->y -= 12.0f;
	for (i = 0; i < n; i++) {
		float w;
		if (total > 0 && p[i].value <= 0)
			continue;
		strbuf_reset(label);
		strbuf_adds(label, p[i].label);
		if (total > 0) {
			snprintf(num, sizeof(num), "%.6f",
			         100.0 * p[i].value / total);
			strbuf_addch(label, ' ');
			fpct(label, num, strlen(num));
		}
		w = 10 + pt_text_width(d, label->buf, &PDF_SMALL) + 12;
		if (x > MARGIN && x + w > MARGIN + CONTENT_W) {
			x = MARGIN;
			pt_need(d, 12.0f);
			d->y -= 12.0f;
		}
		pt_rect(d, x, d->y + 2, 7, 7, (unsigned long)p[i].rgb);
		pt_draw_str(d, d->page, &PDF_SMALL, x + 10, d->y + 2.5f,
		            label->buf);
		x += w;
	}
	d->y -= 6.0f;
}

void pdf_chart_axis(struct pdf_doc *d, float x, float w, double lo, double hi,
                    struct strbuf *label)
{
	int64_t step, t;

	pt_need(d, 14.0f);
	pt_hline(d->page, x, x + w, d->y, 0.6f, PDF_MUTED);
	if (hi <= lo || hi > 9e18 || lo < 0) {
		d->y -= 14.0f;
		return;
	}
	step = svg_tick_step((int64_t)(hi - lo), 8);
	for (t = svg_tick_first((int64_t)lo, step); (double)t <= hi;) {
		float px = x + (float)(((double)t - lo) / (hi - lo)) * w, tw;
		strbuf_reset(label);
		svg_tick_label(label, t, step);
		tw = pt_text_width(d, label->buf, &PDF_SMALL);
		HPDF_Page_SetRGBStroke(d->page, 0.36f, 0.39f, 0.46f);
		HPDF_Page_MoveTo(d->page, px, d->y);
		HPDF_Page_LineTo(d->page, px, d->y - 3);
		HPDF_Page_Stroke(d->page);
		pt_draw_str(d, d->page, &PDF_SMALL,
		            px - (px - tw / 2 < x       ? 0
		                  : px + tw / 2 > x + w ? tw
		                                        : tw / 2),
		            d->y - 11, label->buf);
		if (!svg_tick_next(&t, step))
			break;
	}
	d->y -= 14.0f;
}

void pdf_chart_ranking(struct pdf_doc *d, const struct tmpl_vars *m,
                       const char *loop, const char *name_key,
                       const char *value_key, size_t limit,
                       struct strbuf *label, tmpl_fmt_fn fdur)
{
	size_t i, n = tmpl_nrows(m, loop);
	float name_w = CONTENT_W * 0.36f, plot = CONTENT_W - name_w - 50.0f;
	double max = 0, v;
	HPDF_Font f;

	n = n < limit ? n : limit;
	for (i = 0; i < n; i++) {
		v = strtod(tmpl_get(tmpl_row(m, loop, i), value_key), NULL);
		max = v > max ? v : max;
	}
	if (!n || max <= 0)
		return;
	pt_need(d, 12.0f * (float)n + 16.0f);
	for (i = 0; i < n; i++) {
		const struct tmpl_vars *r = tmpl_row(m, loop, i);
		float w;
		v = strtod(tmpl_get(r, value_key), NULL);
		w = v > 0 ? (float)(v / max) * plot : 0;
		d->y -= 12.0f;
		strbuf_reset(label);
		pt_wrap(d, tmpl_get(r, name_key), &PDF_SMALL, name_w - 6, 1, 1,
		        label, &f);
		pt_draw(d, d->page, f, &PDF_SMALL, MARGIN, d->y + 3.0f,
		        label->buf, label->len);
		pt_rect(d, MARGIN + name_w, d->y + 1.5f, w > 0.5f ? w : 0.5f,
		        9.0f,
		        (unsigned long)pdf_chart_cat_rgb(tmpl_get(r, "cat")));
		strbuf_reset(label);
		fdur(label, tmpl_get(r, value_key),
		     strlen(tmpl_get(r, value_key)));
		pt_draw_str(d, d->page, &PDF_SMALL, MARGIN + name_w + w + 4,
		            d->y + 3.0f, label->buf);
	}
	d->y -= 2.0f;
	pdf_chart_axis(d, MARGIN + name_w, plot, 0, max, label);
	d->y -= 6.0f;
}

/* A 100% stacked horizontal bar of the parts, with its legend. */
static void stacked_bar(struct pdf_doc *d, struct strbuf *label,
                        tmpl_fmt_fn fpct, const struct part *p, size_t n)
{
	double total = 0, acc = 0;
	size_t i;

	for (i = 0; i < n; i++)
		total += p[i].value > 0 ? p[i].value : 0;
	pt_need(d, BAR_H + 30.0f);
	d->y -= BAR_H;
	pt_rect(d, MARGIN, d->y, CONTENT_W, BAR_H, PDF_TRACK);
	for (i = 0; total > 0 && i < n; i++) {
		float x0, x1;
		if (p[i].value <= 0)
			continue;
		x0 = MARGIN + (float)(acc / total) * CONTENT_W;
		acc += p[i].value;
		x1 = MARGIN + (float)(acc / total) * CONTENT_W;
		pt_rect(d, x0, d->y, x1 - x0 > 0.5f ? x1 - x0 : 0.5f, BAR_H,
		        (unsigned long)p[i].rgb);
	}
	legend(d, label, fpct, p, n, total);
}

/* The stage timeline: its rank's label ("timeline_rank"), one span per
 * segment (the model's "segments", placed on [span_start_ns,
 * span_end_ns]), then the legend and the note. */
void pdf_chart_timeline(struct pdf_doc *d, const struct tmpl_vars *m,
                        struct strbuf *label, tmpl_fmt_fn fpct)
{
	struct part legend_parts[8];
	double t0 = strtod(tmpl_get(m, "span_start_ns"), NULL);
	double range = strtod(tmpl_get(m, "span_end_ns"), NULL) - t0;
	size_t i, n = tmpl_nrows(m, "stages"), ns = tmpl_nrows(m, "segments");

	pt_need(d, BAR_H + 66.0f);
	/* whose timeline it is, on the strip, as the HTML's chart */
	if (*tmpl_get(m, "timeline_rank")) {
		struct pdf_style st = {7.5f, 1, PDF_FG};
		pt_para(d, tmpl_get(m, "timeline_rank"), &st, MARGIN, CONTENT_W,
		        11.0f);
		d->y -= 1.0f;
	}
	d->y -= BAR_H;
	pt_rect(d, MARGIN, d->y, CONTENT_W, BAR_H, PDF_TRACK);
	for (i = 0; range > 0 && i < ns; i++) {
		const struct tmpl_vars *g = tmpl_row(m, "segments", i);
		double a = strtod(tmpl_get(g, "start_ns"), NULL) - t0;
		double b = strtod(tmpl_get(g, "end_ns"), NULL) - t0;
		float w = (float)((b - a) / range) * CONTENT_W;
		pt_rect(
		    d, MARGIN + (float)(a / range) * CONTENT_W, d->y,
		    w > 0.5f ? w : 0.5f, BAR_H,
		    (unsigned long)pdf_chart_stage_rgb(tmpl_get(g, "stage")));
	}
	pdf_chart_axis(d, MARGIN, CONTENT_W, 0, range, label);
	for (i = 0; i < n && i < 8; i++) {
		const struct tmpl_vars *s = tmpl_row(m, "stages", i);
		legend_parts[i].label = tmpl_get(s, "label");
		legend_parts[i].value = 0;
		legend_parts[i].rgb = pdf_chart_stage_rgb(tmpl_get(s, "id"));
	}
	legend(d, label, fpct, legend_parts, i, 0);
	pt_para(d, tmpl_get(m, "segments_note"), &PDF_SMALL, MARGIN, CONTENT_W,
	        10.0f);
	d->y -= 6.0f;
}

/* The value bar of a verdict card: fill to value, a mark at threshold. */
void pdf_chart_meter(struct pdf_doc *d, const struct tmpl_vars *r, float x,
                     float w, unsigned long rgb)
{
	double val = strtod(tmpl_get(r, "value"), NULL);
	double thr = strtod(tmpl_get(r, "threshold"), NULL);

	val = val < 0 ? 0 : val > 100 ? 100 : val;
	thr = thr < 0 ? 0 : thr > 100 ? 100 : thr;
	pt_need(d, 12.0f);
	d->y -= 12.0f;
	pt_rect(d, x, d->y + 3, w, 6, PDF_TRACK);
	pt_rect(d, x, d->y + 3, (float)(val / 100) * w, 6, rgb);
	pt_rect(d, x + (float)(thr / 100) * w - 1, d->y, 2, 12, PDF_FG);
}

void pdf_chart_categories(struct pdf_doc *d, const struct tmpl_vars *st,
                          struct strbuf *label, tmpl_fmt_fn fpct)
{
	struct part parts[8];
	size_t i, m = 0, n = tmpl_nrows(st, "categories");

	for (i = 0; i < n && m < 8; i++) {
		const struct tmpl_vars *r = tmpl_row(st, "categories", i);
		if (*tmpl_get(r, "sub"))
			continue; /* FA's parts: FA is in the bar already */
		parts[m].label = tmpl_get(r, "label");
		parts[m].value = strtod(tmpl_get(r, "time_ns"), NULL);
		parts[m].rgb = pdf_chart_cat_rgb(tmpl_get(r, "cat"));
		m++;
	}
	stacked_bar(d, label, fpct, parts, m);
}

#define ROW_LABEL_W 70.0f
#define ROW_H       12.0f

static double row_total(const struct tmpl_vars *r, const char *const *keys,
                        size_t nparts)
{
	double sum = 0, x;
	size_t k;

	for (k = 0; k < nparts; k++) {
		x = strtod(tmpl_get(r, keys[k]), NULL);
		sum += x > 0 ? x : 0;
	}
	return sum;
}

void pdf_chart_bars(struct pdf_doc *d, const struct tmpl_vars *m,
                    const char *loop, const char *const *keys,
                    const char *const *names, const long *rgb, size_t nparts,
                    struct strbuf *label, tmpl_fmt_fn fpct)
{
	struct part parts[8];
	size_t i, k, n = tmpl_nrows(m, loop);
	double max = 0, t;
	float plot = CONTENT_W - ROW_LABEL_W;

	for (i = 0; i < n; i++) {
		t = row_total(tmpl_row(m, loop, i), keys, nparts);
		max = t > max ? t : max;
	}
	for (i = 0; i < n; i++) {
		const struct tmpl_vars *r = tmpl_row(m, loop, i);
		double acc = 0;
		pt_need(d, ROW_H);
		d->y -= ROW_H;
		pt_draw_str(d, d->page, &PDF_SMALL, MARGIN, d->y + 3.0f,
		            tmpl_get(r, "label"));
		for (k = 0; k < nparts && max > 0; k++) {
			double x = strtod(tmpl_get(r, keys[k]), NULL);
			float x0, w;
			if (x <= 0)
				continue;
			x0 = MARGIN + ROW_LABEL_W + (float)(acc / max) * plot;
			acc += x;
			w = (float)(x / max) * plot;
			pt_rect(d, x0, d->y + 1.5f, w > 0.5f ? w : 0.5f,
			        ROW_H - 3.0f, (unsigned long)rgb[k]);
		}
	}
	d->y -= 2.0f;
	pdf_chart_axis(d, MARGIN + ROW_LABEL_W, plot, 0, max, label);
	for (k = 0; k < nparts && k < 8; k++) {
		parts[k].label = names[k];
		parts[k].value = 0;
		parts[k].rgb = rgb[k];
	}
	legend(d, label, fpct, parts, k, 0);
}
