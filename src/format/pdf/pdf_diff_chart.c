/* The comparison PDF's chart: per stage a pair of bars, base and new,
 * stacked by operator category on one time scale, drawn with libharu from
 * the diff view model's "stages" loop (view/diff_model.h), as the SVG
 * of view/diff_chart.c draws it for HTML. */
#include "format/pdf/pdf_diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/pdf/pdf_chart.h"
#include "util/banned.h"

#define CH_LABEL_W 118.0f /* stage label, then the base / new tag */
#define CH_TAG_W   38.0f
#define CH_TOTAL_W 52.0f /* room for the total after the longest bar */
#define CH_ROW     12.0f

/* One bar of stage s (key "base_ns" or "new_ns") on the current line. */
static void chart_bar(struct pdf_ctx *c, const struct tmpl_vars *s,
                      const char *key, const char *tag, double max)
{
	float x0 = MARGIN + CH_LABEL_W + CH_TAG_W;
	float plot = CONTENT_W - CH_LABEL_W - CH_TAG_W - CH_TOTAL_W;
	size_t k, n = tmpl_nrows(s, "cats");
	double acc = 0, x;
	char num[32];

	pt_draw_str(&c->d, c->d.page, &PDF_SMALL, x0 - CH_TAG_W + 4,
	            c->d.y + 3.0f, tag);
	for (k = 0; k < n && max > 0; k++) {
		const struct tmpl_vars *r = tmpl_row(s, "cats", k);
		float w;
		if ((x = strtod(tmpl_get(r, key), NULL)) <= 0)
			continue;
		w = (float)(x / max) * plot;
		pt_rect(&c->d, x0 + (float)(acc / max) * plot, c->d.y + 1.5f,
		        w > 0.5f ? w : 0.5f, CH_ROW - 3.0f,
		        (unsigned long)pdf_chart_cat_rgb(tmpl_get(r, "cat")));
		acc += x;
	}
	snprintf(num, sizeof(num), "%.0f", acc);
	pt_draw_str(&c->d, c->d.page, &PDF_SMALL,
	            x0 + (max > 0 ? (float)(acc / max) * plot : 0) + 4,
	            c->d.y + 3.0f, pdf_fmt(c->fdur, &c->val[0], num));
}

static void chart_legend(struct pdf_ctx *c, const struct tmpl_vars *s)
{
	size_t k, n = tmpl_nrows(s, "cats");
	float x = MARGIN;

	pt_need(&c->d, 16.0f);
	c->d.y -= 14.0f;
	for (k = 0; k < n; k++) {
		const struct tmpl_vars *r = tmpl_row(s, "cats", k);
		pt_rect(&c->d, x, c->d.y + 2, 7, 7,
		        (unsigned long)pdf_chart_cat_rgb(tmpl_get(r, "cat")));
		x += 10 +
		     pt_draw_str(&c->d, c->d.page, &PDF_SMALL, x + 10,
		                 c->d.y + 2.5f, tmpl_get(r, "label")) +
		     14;
	}
	c->d.y -= 8.0f;
}

void pdf_diff_chart(struct pdf_ctx *c)
{
	size_t i, n = tmpl_nrows(c->m, "stages");
	/* the view's scale: the longest bar of any stage, as in the SVG */
	double max = strtod(pdf_v(c, "chart_max_ns"), NULL);

	pdf_section(c, "t_diff_sec_chart");
	pdf_para(c, pdf_v(c, "t_diff_sec_chart_intro"));
	for (i = 0; i < n; i++) {
		const struct tmpl_vars *s = tmpl_row(c->m, "stages", i);
		pt_need(&c->d, 2 * CH_ROW + 6);
		c->d.y -= CH_ROW;
		pt_draw_str(&c->d, c->d.page, &PDF_BODY, MARGIN, c->d.y - 3.0f,
		            tmpl_get(s, "label"));
		chart_bar(c, s, "base_ns", pdf_v(c, "t_diff_tag_base"), max);
		c->d.y -= CH_ROW;
		chart_bar(c, s, "new_ns", pdf_v(c, "t_diff_tag_new"), max);
		c->d.y -= 6;
	}
	if (n)
		chart_legend(c, tmpl_row(c->m, "stages", 0));
}

/* The waterfall of the view's "waterfall" loop on wf_lo_ns..wf_hi_ns, as
 * view/diff_chart.c draws it for HTML. */
void pdf_diff_waterfall(struct pdf_ctx *c)
{
	size_t i, n = tmpl_nrows(c->m, "waterfall");
	double lo = strtod(pdf_v(c, "wf_lo_ns"), NULL);
	double hi = strtod(pdf_v(c, "wf_hi_ns"), NULL);
	float name_w = CONTENT_W * 0.36f, plot = CONTENT_W - name_w - 56.0f;
	struct strbuf *label = &c->val[0];
	HPDF_Font f;

	if (!n || hi <= lo)
		return;
	pdf_subheading(c, pdf_v(c, "t_diff_waterfall_title"));
	pdf_para(c, pdf_v(c, "t_diff_waterfall_intro"));
	pt_need(&c->d, CH_ROW * (float)n + 16.0f);
	for (i = 0; i < n; i++) {
		const struct tmpl_vars *r = tmpl_row(c->m, "waterfall", i);
		double a = strtod(tmpl_get(r, "from_ns"), NULL);
		double b = strtod(tmpl_get(r, "to_ns"), NULL), t;
		float x0, x1;
		if (a > b) {
			t = a;
			a = b;
			b = t;
		}
		a = a < lo ? lo : a;
		x0 = (float)((a - lo) / (hi - lo)) * plot;
		x1 = (float)((b - lo) / (hi - lo)) * plot;
		c->d.y -= CH_ROW;
		strbuf_reset(label);
		pt_wrap(&c->d, tmpl_get(r, "label"), &PDF_SMALL, name_w - 6, 1,
		        1, label, &f);
		pt_draw(&c->d, c->d.page, f, &PDF_SMALL, MARGIN, c->d.y + 3.0f,
		        label->buf, label->len);
		pt_rect(&c->d, MARGIN + name_w + x0, c->d.y + 1.5f,
		        x1 - x0 > 0.5f ? x1 - x0 : 0.5f, CH_ROW - 3.0f,
		        *tmpl_get(r, "total")
		            ? 0xa9b3c2ul /* report.css .wf-total */
		            : (unsigned long)pdf_chart_cat_rgb(
		                  tmpl_get(r, "css") + 2)); /* "c-FA" */
		pt_draw_str(&c->d, c->d.page, &PDF_SMALL,
		            MARGIN + name_w +
		                (x1 > x0 + 0.5f ? x1 : x0 + 0.5f) + 4,
		            c->d.y + 3.0f, tmpl_get(r, "value"));
	}
	c->d.y -= 2.0f;
	pdf_chart_axis(&c->d, MARGIN + name_w, plot, lo, hi, label);
	c->d.y -= 8.0f;
}
