/* PDF: the collection check (see pdf_collect.h), in the HTML report's
 * order: the facts per rank, the versions, then each gap with what it
 * disables and the code that fixes it, and the whole snippet. */
#include "format/pdf/pdf_collect.h"

#include "util/banned.h"

static const struct pdf_style S_GAP = {9.0f, 1, PDF_FG};

#define CODE_SIZE 7.5f
#define CODE_LEAD 10.0f

static void facts(struct pdf_ctx *c)
{
	static const struct pdf_col spec[] = {
	    {"t_col_rank", 0.06f, 1},        {"t_col_export", 0.10f, 0},
	    {"t_col_level", 0.11f, 0},       {"t_col_cpu", 0.09f, 0},
	    {"t_col_timed_steps", 0.27f, 0}, {"t_col_shapes", 0.11f, 0},
	    {"t_col_memory", 0.11f, 0},      {"t_col_aic", 0.15f, 0}};
	static const char *const keys[] = {"id",    "export", "level",  "cpu",
	                                   "steps", "shapes", "memory", "aic"};
	struct pdf_table t = {PDF_TABLE(spec, c->m, "coll_ranks"),
	                      .vars = keys};

	pdf_table(c, &t);
	pdf_small(c, pdf_v(c, "coll_versions"));
	c->d.y -= 6.0f;
}

/* A gap: its title (and ranks) in bold, what it disables, its code. */
static void gap(struct pdf_ctx *c, const struct tmpl_vars *r)
{
	struct strbuf *b = &c->val[0];

	strbuf_reset(b);
	strbuf_adds(b, tmpl_get(r, "title"));
	if (*tmpl_get(r, "ranks"))
		strbuf_adds(b, tmpl_get(r, "ranks"));
	pt_need(&c->d, 12.0f + 12.0f + 3 * CODE_LEAD);
	pt_para(&c->d, b->buf, &S_GAP, MARGIN, CONTENT_W, 12.0f);
	pdf_para(c, tmpl_get(r, "disables"));
	c->d.y += 3.0f;
	pt_code(&c->d, tmpl_get(r, "fix"), MARGIN, CONTENT_W, CODE_SIZE,
	        CODE_LEAD, PDF_PANEL);
	c->d.y -= 8.0f;
}

/* The checks against the profiler's own totals and the files nothing
 * reads, as the HTML report shows them. */
static void totals(struct pdf_ctx *c)
{
	size_t i, n = tmpl_nrows(c->m, "coll_totals");

	if (n)
		pdf_subheading(c, pdf_v(c, "t_coll_totals_title"));
	for (i = 0; i < n; i++) {
		const struct tmpl_vars *r = tmpl_row(c->m, "coll_totals", i);
		if (*tmpl_get(r, "ok"))
			pdf_strong(c, tmpl_get(r, "text"), PDF_OK);
		else
			pdf_strong(c, tmpl_get(r, "text"), PDF_FIRED);
	}
	n = tmpl_nrows(c->m, "coll_unused");
	for (i = 0; i < n; i++)
		pdf_small(c,
		          tmpl_get(tmpl_row(c->m, "coll_unused", i), "text"));
}

void pdf_collection_section(struct pdf_ctx *c)
{
	size_t i, n = tmpl_nrows(c->m, "coll_gaps");

	if (!*pdf_v(c, "collection"))
		return;
	pdf_section(c, "t_sec_collection");
	pdf_para(c, pdf_v(c, "t_sec_collection_intro"));
	facts(c);
	totals(c);
	if (*pdf_v(c, "coll_complete")) {
		pdf_strong(c, pdf_v(c, "t_coll_complete"), PDF_OK);
		return;
	}
	pdf_para(c, pdf_v(c, "t_coll_gaps_intro"));
	for (i = 0; i < n; i++)
		gap(c, tmpl_row(c->m, "coll_gaps", i));
	pdf_subheading(c, pdf_v(c, "t_coll_snippet_title"));
	pdf_para(c, pdf_v(c, "t_coll_snippet_intro"));
	pt_code(&c->d, pdf_v(c, "coll_snippet"), MARGIN, CONTENT_W, CODE_SIZE,
	        CODE_LEAD, PDF_PANEL);
	c->d.y -= 10.0f;
}
