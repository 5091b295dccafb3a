/* The PDF's executive summary and passing checks
 * (format/pdf/pdf_summary.h). */
#include "format/pdf/pdf_summary.h"

#include <stdlib.h>
#include <string.h>

#include "format/pdf/pdf_chart.h"
#include "util/banned.h"

#define BAR_H 10.0f

/* The summary's texts, each in its own buffer. */
struct sum_text {
	struct strbuf workload, e2e, findings, legend, top, trust;
};

static void e2e_text(struct pdf_ctx *c, struct strbuf *b)
{
	strbuf_addf(b, "%s: ", pdf_v(c, "t_summary_e2e"));
	if (!*pdf_v(c, "sum_known")) {
		strbuf_adds(b, pdf_v(c, "t_summary_time_unknown"));
		return;
	}
	c->fdur(b, pdf_v(c, "sum_time_ns"), strlen(pdf_v(c, "sum_time_ns")));
	strbuf_addf(b, " %s",
	            pdf_v(c, *pdf_v(c, "sum_per_step") ? "t_summary_per_step"
	                                               : "t_summary_whole"));
	if (*pdf_v(c, "sum_time_note"))
		strbuf_addf(b, " (%s)", pdf_v(c, "sum_time_note"));
}

static void legend_text(struct pdf_ctx *c, struct strbuf *b)
{
	size_t i, n = tmpl_nrows(c->m, "sum_bar");

	strbuf_addf(b, "%s: ", pdf_v(c, "sum_split_label"));
	for (i = 0; i < n; i++) {
		const struct tmpl_vars *r = tmpl_row(c->m, "sum_bar", i);
		strbuf_addf(b, "%s%s ", i ? " \xC2\xB7 " : "",
		            tmpl_get(r, "label"));
		c->fdur(b, tmpl_get(r, "ns"), strlen(tmpl_get(r, "ns")));
		strbuf_addch(b, ' ');
		c->fpct(b, tmpl_get(r, "share"), strlen(tmpl_get(r, "share")));
	}
}

static void top_text(struct pdf_ctx *c, struct strbuf *b)
{
	strbuf_addf(b, "%s: ", pdf_v(c, "t_summary_top"));
	if (!*pdf_v(c, "sum_top")) {
		strbuf_adds(b, pdf_v(c, "t_summary_top_none"));
		return;
	}
	strbuf_addf(b, "%s (", pdf_v(c, "top_title"));
	c->fpct(b, pdf_v(c, "top_value"), strlen(pdf_v(c, "top_value")));
	strbuf_adds(b, " > ");
	c->fpct(b, pdf_v(c, "top_threshold"),
	        strlen(pdf_v(c, "top_threshold")));
	strbuf_addch(b, ')');
	if (*pdf_v(c, "top_gain"))
		strbuf_addf(b, " \xC2\xB7 %s: %s", pdf_v(c, "t_summary_gain"),
		            pdf_v(c, "top_gain"));
}

static void build(struct pdf_ctx *c, struct sum_text *t)
{
	memset(t, 0, sizeof(*t));
	strbuf_addf(&t->workload, "%s: %s \xE2\x80\x94 %s",
	            pdf_v(c, "t_summary_workload"), pdf_v(c, "sum_workload"),
	            pdf_v(c, "sum_workload_evidence"));
	if (*pdf_v(c, "sum_workload_note"))
		strbuf_addf(&t->workload, ". %s",
		            pdf_v(c, "sum_workload_note"));
	e2e_text(c, &t->e2e);
	strbuf_addf(&t->findings, "%s: %s",
	            pdf_v(c, "t_summary_findings_label"),
	            pdf_v(c, "sum_findings"));
	legend_text(c, &t->legend);
	top_text(c, &t->top);
	strbuf_addf(&t->trust, "%s: %s \xE2\x80\x94 %s",
	            pdf_v(c, "t_summary_trust"), pdf_v(c, "sum_trust_label"),
	            pdf_v(c, "sum_trust_detail"));
}

/* The stage split: one bar of the content width, a part per stage. */
static void bar(struct pdf_ctx *c, float x, float w)
{
	size_t i, n = tmpl_nrows(c->m, "sum_bar");
	float at = x;

	c->d.y -= BAR_H + 4;
	pt_rect(&c->d, x, c->d.y, w, BAR_H, PDF_TRACK);
	for (i = 0; i < n; i++) {
		const struct tmpl_vars *r = tmpl_row(c->m, "sum_bar", i);
		float part =
		    (float)(strtod(tmpl_get(r, "width"), NULL) / 100) * w;
		if (at + part > x + w)
			part = x + w - at;
		pt_rect(&c->d, at, c->d.y, part, BAR_H,
		        (unsigned long)pdf_chart_stage_rgb(tmpl_get(r, "id")));
		at += part;
	}
	c->d.y -= 4;
}

void pdf_summary_section(struct pdf_ctx *c)
{
	static const struct pdf_style big = {12.0f, 1, PDF_FG};
	struct pdf_style count = {12.0f, 1, PDF_OK};
	struct sum_text t;
	float x = MARGIN + 12, w = CONTENT_W - 22, h;
	int has_bar = tmpl_nrows(c->m, "sum_bar") > 0;

	if (*pdf_v(c, "sum_top"))
		count.rgb = PDF_FIRED;
	build(c, &t);
	h = 8 + 14 + 15.0f * (float)pt_nlines(&c->d, t.e2e.buf, &big, w) +
	    15.0f * (float)pt_nlines(&c->d, t.findings.buf, &count, w) +
	    (has_bar ? BAR_H + 8 : 0) +
	    12.0f * (float)(pt_nlines(&c->d, t.workload.buf, &PDF_BODY, w) +
	                    pt_nlines(&c->d, t.legend.buf, &PDF_BODY, w) +
	                    pt_nlines(&c->d, t.top.buf, &PDF_BODY, w) +
	                    pt_nlines(&c->d, t.trust.buf, &PDF_BODY, w)) +
	    8;
	pdf_card(c, h, count.rgb);
	c->d.y -= 8;
	pt_para(&c->d, pdf_v(c, "t_sec_summary"), &PDF_H3, x, w, 14.0f);
	pt_para(&c->d, t.workload.buf, &PDF_BODY, x, w, 12.0f);
	pt_para(&c->d, t.e2e.buf, &big, x, w, 15.0f);
	pdf_chart_state_mark(&c->d, x, c->d.y - 2,
	                     *pdf_v(c, "sum_top") ? "fired" : "ok");
	pt_para(&c->d, t.findings.buf, &count, x + 15, w - 15, 15.0f);
	if (has_bar)
		bar(c, x, w);
	pt_para(&c->d, t.legend.buf, &PDF_BODY, x, w, 12.0f);
	pt_para(&c->d, t.top.buf, &PDF_BODY, x, w, 12.0f);
	pt_para(&c->d, t.trust.buf, &PDF_BODY, x, w, 12.0f);
	c->d.y -= 8 + 10;
	strbuf_release(&t.workload);
	strbuf_release(&t.e2e);
	strbuf_release(&t.findings);
	strbuf_release(&t.legend);
	strbuf_release(&t.top);
	strbuf_release(&t.trust);
}

/* One passing check: "✓ name  value ≤ threshold", the recommendation in
 * small print under it. */
static void passing_line(struct pdf_ctx *c, const struct tmpl_vars *r)
{
	struct strbuf *b = &c->val[0], *s = &c->val[1];
	int ok = *tmpl_get(r, "applicable") != 0;
	struct pdf_style st = {9.0f, 1, ok ? PDF_OK : PDF_NA};

	strbuf_reset(b);
	strbuf_addf(b, "%s: ", tmpl_get(r, "check"));
	if (ok) {
		c->fpct(b, tmpl_get(r, "value"), strlen(tmpl_get(r, "value")));
		strbuf_adds(b, " \xE2\x89\xA4 ");
		c->fpct(b, tmpl_get(r, "threshold"),
		        strlen(tmpl_get(r, "threshold")));
	} else {
		strbuf_adds(b, tmpl_get(r, "no_stage"));
	}
	strbuf_addf(b, " (%s)", tmpl_get(r, "state_label"));
	strbuf_reset(s);
	strbuf_addf(s, "%s: %s", pdf_v(c, "t_check_recommendation"),
	            tmpl_get(r, "recommendation"));
	pt_need(&c->d,
	        12.0f + 9.0f * (float)pt_nlines(&c->d, s->buf, &PDF_SMALL,
	                                        CONTENT_W - 12));
	pdf_chart_state_mark(&c->d, MARGIN, c->d.y - 1, tmpl_get(r, "state"));
	pt_para(&c->d, b->buf, &st, MARGIN + 14, CONTENT_W - 14, 12.0f);
	pt_para(&c->d, s->buf, &PDF_SMALL, MARGIN + 12, CONTENT_W - 12, 9.0f);
	c->d.y -= 4;
}

void pdf_passing_checks(struct pdf_ctx *c)
{
	size_t i, n = tmpl_nrows(c->m, "verdicts");

	if (!*pdf_v(c, "any_passing"))
		return;
	pdf_subheading(c, pdf_v(c, "t_checks_passing"));
	for (i = 0; i < n; i++) {
		const struct tmpl_vars *r = tmpl_row(c->m, "verdicts", i);
		if (!*tmpl_get(r, "fired"))
			passing_line(c, r);
	}
}
