/* The comparison reports of sdperf diff: catalogue + view model
 * (diff_model.c) + templates for HTML and Markdown, the PDF laid out by
 * pdf_diff.c from the same variables. Templates and report.css are
 * looked up by report.c's loader: the --templates folder first (plain
 * file names only), then the embedded ones. */
#include "render/diff_report.h"

#include <stdlib.h>
#include <string.h>

#include "render/diff_model.h"
#include "render/escape.h"
#include "render/i18n.h"
#include "render/pdf.h"
#include "render/pdf_diff.h"
#include "render/template.h"
#include "util/xalloc.h"
#include "util/banned.h"

static int render_vars(const struct tmpl_vars *vars, enum report_kind kind,
                       const struct report_opts *o, struct strbuf *out,
                       struct err *e)
{
	struct tmpl_env env;
	size_t nfmt;

	if (kind == REPORT_PDF) {
		struct pdf_opts po = {o->font,     NULL,
		                      o->cjk_font, tmpl_get(vars, "title"),
		                      o->version,  o->time};
		return pdf_diff_render(vars, &po, out, e);
	}
	env.formatters = escape_formatters(&nfmt);
	env.nformatters = nfmt;
	env.default_fmt = kind == REPORT_HTML ? "html" : "md";
	env.load = report_load_template;
	env.load_ctx = (void *)o->templates_dir;
	return tmpl_render(
	    &env, kind == REPORT_HTML ? "diff.html.tmpl" : "diff.md.tmpl", vars,
	    out, e);
}

int diff_report_render(const struct comparison *c, enum report_kind kind,
                       const struct report_opts *o, struct strbuf *out,
                       struct err *e)
{
	struct catalog *cat = NULL;
	struct strbuf css = STRBUF_INIT;
	struct model_opts mo = {0};
	struct tmpl_vars *vars;
	char *date;
	int ret;

	if (i18n_load(o->lang ? o->lang : "en", &cat, e))
		return -1;
	if (kind == REPORT_HTML)
		report_load_css(o->templates_dir, &css);
	date = report_date_text(o->time);
	mo.cat = cat;
	mo.title = o->title;
	mo.date = date;
	mo.version = o->version;
	mo.css = css.buf;
	vars = diff_model_build(c, &mo);
	ret = render_vars(vars, kind, o, out, e);
	tmpl_vars_free(vars);
	free(date);
	strbuf_release(&css);
	if (o->missing_keys)
		*o->missing_keys = i18n_misses(cat);
	i18n_free(cat);
	return ret;
}
