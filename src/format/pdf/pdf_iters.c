/* The PDF's denoising iterations: the same sentences as the HTML, the
 * chart drawn as vector shapes (a time axis and a duration axis with
 * ticks; full iterations, cache hits, warm-up and outliers as circles,
 * diamonds, triangles and squares), then the table. */
#include "format/pdf/pdf_iters.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/pdf/pdf_text.h"
#include "util/banned.h"
#include "util/numfmt.h"

#define PLOT_H 120.0f
#define PLOT_L 36.0f /* room for the y tick labels */

static const struct {
	const char *mark, *label_var;
	int shape;
	unsigned long rgb;
} marks[] = {{"full", "t_iters_mark_full", 0, 0x4c78a8},
             {"hit", "t_iters_mark_hit", 1, PDF_OK},
             {"warmup", "t_iters_mark_warmup", 3, 0xf2a541},
             {"outlier", "t_iters_mark_outlier", 2, PDF_FIRED}};

static size_t mark_index(const char *m)
{
	size_t i;

	for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		if (!strcmp(m, marks[i].mark))
			return i;
	return 0;
}

/* A 1-2-5 step for about want ticks over range (> 0). */
static double step_of(double range, int want)
{
	double raw = range / want, mag = pow(10, floor(log10(raw)));

	return raw <= mag       ? mag
	       : raw <= 2 * mag ? 2 * mag
	       : raw <= 5 * mag ? 5 * mag
	                        : 10 * mag;
}

static void tick(struct pdf_ctx *c, float x, float y, double v, double step,
                 int right)
{
	struct strbuf num = STRBUF_INIT;
	float w;

	/* with thousands separators, as every number for people */
	numfmt_fixed(&num, v, step >= 1 ? 0 : step >= 0.1 ? 1 : 2);
	w = right ? pt_text_width(&c->d, num.buf, &PDF_SMALL) : 0;
	pt_draw_str(&c->d, c->d.page, &PDF_SMALL, x - w, y, num.buf);
	strbuf_release(&num);
}

static void axes(struct pdf_ctx *c, float x0, float w, float base, double xr,
                 double yr)
{
	double xs = step_of(xr, 8), ys = step_of(yr, 4), t;

	pt_hline(c->d.page, x0, x0 + w, base, 0.6f, PDF_MUTED);
	for (t = 0; t <= yr * 1.0000001; t += ys) {
		float y = base + (float)(t / yr) * PLOT_H;
		if (t > 0)
			pt_hline(c->d.page, x0, x0 + w, y, 0.3f, PDF_LINE);
		tick(c, x0 - 3, y - 2.5f, t, ys, 1);
	}
	for (t = 0; t <= xr * 1.0000001; t += xs) {
		float x = x0 + (float)(t / xr) * w;
		pt_rect(&c->d, x - 0.3f, base - 3, 0.6f, 3, PDF_MUTED);
		tick(c, x - 6, base - 11, t, xs, 0);
	}
}

static void chart(struct pdf_ctx *c)
{
	size_t i, n = tmpl_nrows(c->m, "iters");
	double xmax = 1e-3, ymax = 1e-3, xr, yr;
	float x0 = MARGIN + PLOT_L, w = CONTENT_W - PLOT_L - 12, base, lx;

	for (i = 0; i < n; i++) {
		const struct tmpl_vars *r = tmpl_row(c->m, "iters", i);
		double x = strtod(tmpl_get(r, "start_ms"), NULL);
		double y = strtod(tmpl_get(r, "dur_ms"), NULL);
		xmax = x > xmax ? x : xmax;
		ymax = y > ymax ? y : ymax;
	}
	xr = ceil(xmax / step_of(xmax, 8)) * step_of(xmax, 8);
	yr = ceil(ymax * 1.1 / step_of(ymax * 1.1, 4)) * step_of(ymax * 1.1, 4);
	pt_need(&c->d, PLOT_H + 70.0f);
	base = c->d.y - PLOT_H - 16;
	pt_draw_str(&c->d, c->d.page, &PDF_SMALL, MARGIN, c->d.y - 6,
	            pdf_v(c, "t_iters_axis_y"));
	axes(c, x0, w, base, xr, yr);
	for (i = 0; i < n; i++) {
		const struct tmpl_vars *r = tmpl_row(c->m, "iters", i);
		size_t k = mark_index(tmpl_get(r, "mark"));
		double x = strtod(tmpl_get(r, "start_ms"), NULL);
		double y = strtod(tmpl_get(r, "dur_ms"), NULL);
		pt_marker(&c->d, marks[k].shape, x0 + (float)(x / xr) * w,
		          base + (float)(y / yr) * PLOT_H, 3.2f, marks[k].rgb);
	}
	pt_draw_str(&c->d, c->d.page, &PDF_SMALL, x0 + w / 2 - 60, base - 22,
	            pdf_v(c, "t_iters_axis_x"));
	c->d.y = base - 34;
	lx = MARGIN;
	for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
		pt_marker(&c->d, marks[i].shape, lx + 4, c->d.y + 2.5f, 3.2f,
		          marks[i].rgb);
		lx += 14 + pt_draw_str(&c->d, c->d.page, &PDF_SMALL, lx + 10,
		                       c->d.y, pdf_v(c, marks[i].label_var));
	}
	c->d.y -= 12;
}

void pdf_iters_section(struct pdf_ctx *c)
{
	static const struct pdf_col spec[] = {
	    {"t_col_call", 0.08f, 1},       {"t_col_iter", 0.1f, 1},
	    {"t_col_iter_start", 0.13f, 1}, {"t_col_iter_dur", 0.13f, 1},
	    {"t_col_kernels", 0.1f, 1},     {"t_col_iter_attention", 0.11f, 1},
	    {"t_col_iter_matmul", 0.1f, 1}, {"t_col_iter_mark", 0.25f, 0}};
	static const char *const vars[] = {"call",   "index",     "start_ms",
	                                   "dur_ms", "kernels",   "attention",
	                                   "matmul", "mark_label"};
	tmpl_fmt_fn fmts[] = {NULL,    NULL,    c->ff2,  c->ff2,
	                      c->fint, c->fint, c->fint, NULL};

	if (!*pdf_v(c, "has_iters"))
		return;
	pdf_section(c, "t_sec_iters");
	pdf_para(c, pdf_v(c, "iters_intro"));
	pdf_para(c, pdf_v(c, "iters_loop"));
	pdf_para(c, pdf_v(c, "iters_outliers"));
	pdf_strong(c, pdf_v(c, "iters_cache"), PDF_FG);
	chart(c);
	pdf_table(c, &(struct pdf_table){PDF_TABLE(spec, c->m, "iters"),
	                                 .vars = vars, .fmts = fmts});
	if (*pdf_v(c, "iters_capped"))
		pdf_small(c, pdf_v(c, "iters_capped"));
}
