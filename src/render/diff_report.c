/* The comparison reports of sdperf diff: catalogue + view model
 * (diff_model.c) + templates for HTML and Markdown, the PDF laid out by
 * pdf_diff.c from the same variables. Templates and report.css are
 * looked up as for the single-run report: the --templates folder first
 * (plain file names only), then the embedded ones. */
#include "render/diff_report.h"

#include <stdlib.h>
#include <string.h>

#include "render/diff_model.h"
#include "render/escape.h"
#include "render/i18n.h"
#include "render/pdf.h"
#include "render/pdf_diff.h"
#include "render/template.h"
#include "util/embed.h"
#include "util/fileio.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define TEMPLATE_MAX_BYTES (4u << 20)

/* A name that cannot leave the templates folder. */
static int plain_name(const char *name)
{
	return *name && !strchr(name, '/') && !strchr(name, '\\') &&
	       strcmp(name, ".") && strcmp(name, "..");
}

/* Loads templates/<name> (or, with name "report.css", the stylesheet)
 * from the user's folder ctx when it has it, else the embedded copy. */
static int load(void *ctx, const char *name, struct strbuf *text, struct err *e)
{
	const char *dir = ctx;
	const struct embedded_file *f;
	char *path;
	int ret;

	if (!plain_name(name))
		return err_set(
		    e, ERR_INPUT,
		    "template name '%s': only a file name is allowed", name);
	if (dir) {
		path = fileio_join(dir, name);
		ret = fileio_kind(path) == 0
		          ? fileio_read_small(path, TEMPLATE_MAX_BYTES, text, e)
		          : 1;
		free(path);
		if (ret <= 0)
			return ret;
	}
	path = !strcmp(name, "report.css") ? xstrdup("assets/report.css")
	                                   : xstrfmt("templates/%s", name);
	f = embed_find(path);
	free(path);
	if (!f)
		return err_set(e, ERR_INPUT, "template '%s': no such template",
		               name);
	strbuf_add(text, f->data, f->len);
	return 0;
}

/* The stylesheet: the user's report.css, else the built-in one (a user
 * file that cannot be read falls back too, as in report.c). */
static void load_css(const char *dir, struct strbuf *css)
{
	struct err ignore = ERR_INIT;

	if (!load((void *)dir, "report.css", css, &ignore))
		return;
	strbuf_reset(css);
	load(NULL, "report.css", css, &ignore);
}

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
	env.load = load;
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
		load_css(o->templates_dir, &css);
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
