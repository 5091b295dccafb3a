/* Branding and provenance in the PDF (contract in pdf_prov.h). */
#include "format/pdf/pdf_prov.h"

#include <string.h>

#include "util/banned.h"

void pdf_brand_meta(struct pdf_ctx *c)
{
	static const char *const lines[][2] = {{"org", "t_meta_org"},
	                                       {"customer", "t_meta_customer"},
	                                       {"ticket", "t_meta_ticket"}};
	size_t i;

	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		if (*pdf_v(c, lines[i][0]))
			pdf_meta(c, lines[i][1], pdf_v(c, lines[i][0]));
	if (*pdf_v(c, "has_prov"))
		pdf_meta(c, "t_meta_captured", pdf_v(c, "captured"));
}

static void inputs(struct pdf_ctx *c)
{
	const struct tmpl_vars *row;
	struct strbuf *b = &c->val[0], *sub = &c->val[1];
	size_t i;

	pdf_subheading(c, pdf_v(c, "t_prov_inputs"));
	if (!tmpl_nrows(c->m, "prov_inputs")) {
		pdf_para(c, pdf_v(c, "t_prov_no_inputs"));
		return;
	}
	for (i = 0; (row = tmpl_row(c->m, "prov_inputs", i)); i++) {
		strbuf_reset(b);
		strbuf_addf(b, "%s %s: %s, ", pdf_v(c, "t_col_rank"),
		            tmpl_get(row, "rank"), tmpl_get(row, "file"));
		c->fint(b, tmpl_get(row, "bytes"),
		        strlen(tmpl_get(row, "bytes")));
		strbuf_addf(b, " %s", pdf_v(c, "t_col_bytes"));
		pdf_bullet(c, b->buf, tmpl_get(row, "path"));
		strbuf_reset(sub);
		strbuf_addf(sub, "SHA-256 %s", tmpl_get(row, "sha256"));
		c->d.y += 2.0f; /* the digest belongs to the bullet above */
		pt_para(&c->d, sub->buf, &PDF_SMALL, MARGIN + 14,
		        CONTENT_W - 14, 10.0f);
		c->d.y -= 2.0f;
	}
}

void pdf_provenance_section(struct pdf_ctx *c)
{
	struct strbuf *b = &c->val[0];

	if (!*pdf_v(c, "has_prov"))
		return;
	pdf_section(c, "t_sec_provenance");
	pdf_para(c, pdf_v(c, "t_prov_intro"));
	c->meta_w = 110;
	strbuf_reset(b);
	strbuf_addf(b, "sdperf %s", pdf_v(c, "prov_version"));
	if (*pdf_v(c, "prov_build"))
		strbuf_addf(b, ", %s", pdf_v(c, "prov_build"));
	pdf_meta(c, "t_meta_version", b->buf);
	pdf_meta(c, "t_prov_command", pdf_v(c, "prov_command"));
	strbuf_reset(b);
	strbuf_addf(b, "%s (SHA-256 %s)", pdf_v(c, "prov_rules"),
	            pdf_v(c, "prov_rules_sha256"));
	pdf_meta(c, "t_meta_rules", b->buf);
	pdf_meta(c, "t_meta_captured", pdf_v(c, "captured"));
	pdf_meta(c, "t_meta_date", pdf_v(c, "date"));
	c->d.y -= 6.0f;
	inputs(c);
}
