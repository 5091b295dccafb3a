/* Report rendering: catalogue + view model + templates + formatters. The
 * templates, the CSS and the scripts are embedded; with --templates DIR, a
 * template, report.css, report.js or diff.js found in DIR replaces the
 * built-in one of the same name (only plain file names, no paths); so does
 * fragment.css, the wiki fragment's reset (format/fragment.h). */
#include "format/report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "view/escape.h"
#include "view/i18n.h"
#include "view/model.h"
#include "format/fragment.h"
#include "format/pdf/pdf.h"
#include "tmpl/template.h"
#include "util/banned.h"
#include "util/cjkpunct.h"
#include "util/embed.h"
#include "util/fileio.h"
#include "util/sha256.h"
#include "util/utf8.h"
#include "util/xalloc.h"

#define TEMPLATE_MAX_BYTES (4u << 20)

static int plain_name(const char *name)
{
	return *name && !strchr(name, '/') && !strchr(name, '\\') &&
	       strcmp(name, ".") && strcmp(name, "..");
}

/* The user's file dir/name (a template or an asset) into out: 0, 1 when
 * there is none (the built-in one fills the gap), -1 with e set. The
 * user's file wins; a name that is there but no regular file (a FIFO, a
 * directory) is an error naming it, never waited on. */
static int read_user_file(const char *dir, const char *name, struct strbuf *out,
                          struct err *e)
{
	char *path = fileio_join(dir, name);
	int ret = fileio_kind(path) >= 0 || errno != ENOENT
	              ? fileio_read_small(path, TEMPLATE_MAX_BYTES, out, e)
	              : 1;

	free(path);
	return ret;
}

int report_load_template(void *ctx, const char *name, struct strbuf *text,
                         struct err *e)
{
	const char *dir = ctx;
	const struct embedded_file *f;
	char *path;
	int ret;

	if (!plain_name(name))
		return err_set(
		    e, ERR_INPUT,
		    "template name '%s': only a file name is allowed", name);
	if (dir && (ret = read_user_file(dir, name, text, e)) <= 0)
		return ret;
	path = xstrfmt("templates/%s", name);
	f = embed_find(path);
	free(path);
	if (!f)
		return err_set(e, ERR_INPUT, "template '%s': no such template",
		               name);
	strbuf_add(text, f->data, f->len);
	return 0;
}

int report_load_asset(const char *dir, const char *name, struct strbuf *out,
                      struct err *e)
{
	const struct embedded_file *f;
	char *path;
	int ret;

	if (dir && (ret = read_user_file(dir, name, out, e)) <= 0)
		return ret;
	path = xstrfmt("assets/%s", name);
	f = embed_find(path);
	free(path);
	if (f)
		strbuf_add(out, f->data, f->len);
	return 0;
}

int report_load_css(const char *dir, struct strbuf *css, struct err *e)
{
	return report_load_asset(dir, "report.css", css, e);
}

void report_script_csp(const char *script, size_t len, struct strbuf *out)
{
	unsigned char digest[32];

	sha256(script, len, digest);
	strbuf_adds(out, "sha256-");
	base64_add(out, digest, sizeof(digest));
}

/* Makes out[start..] valid UTF-8 (bad bytes become U+FFFD). The
 * formatters already give valid text for every value; this covers what
 * they do not see: a user's template or report.css, inserted as it is. */
static void valid_utf8(struct strbuf *out, size_t start)
{
	struct strbuf fixed = STRBUF_INIT;

	if (utf8_is_valid(out->buf + start, out->len - start))
		return;
	strbuf_add_utf8_valid(&fixed, out->buf + start, out->len - start);
	out->len = start;
	strbuf_addbuf(out, &fixed);
	strbuf_release(&fixed);
}

/* Renders the finished variables: the PDF layout, or a template. */
static int render_vars(const struct report_spec *spec,
                       const struct tmpl_vars *vars, enum report_kind kind,
                       const struct report_opts *o, struct strbuf *out,
                       struct err *e)
{
	struct tmpl_env env;
	size_t nfmt, start;
	int html = kind == REPORT_HTML || kind == REPORT_FRAGMENT;

	if (kind == REPORT_PDF) {
		const struct brand *b = o->brand;
		struct pdf_opts po = {o->font,
		                      NULL,
		                      o->cjk_font,
		                      tmpl_get(vars, "title"),
		                      o->version,
		                      o->time,
		                      o->lang,
		                      b ? b->logo : NULL,
		                      b ? b->logo_len : 0,
		                      b && b->logo_mime &&
		                          !strcmp(b->logo_mime, "image/png")};
		return spec->pdf(vars, &po, out, e);
	}
	env.formatters = escape_formatters(&nfmt);
	env.nformatters = nfmt;
	env.default_fmt = html ? "html" : "md";
	env.load = report_load_template;
	env.load_ctx = (void *)o->templates_dir;
	start = out->len;
	if (tmpl_render(&env, html ? spec->html_template : spec->md_template,
	                vars, out, e))
		return -1;
	valid_utf8(out, start);
	if (o->lang && !strcmp(o->lang, "zh"))
		cjk_punct(out, start, html ? CJK_HTML : CJK_MD);
	if (kind == REPORT_FRAGMENT) {
		if (!fragment_is_one(out->buf + start))
			return err_set(
			    e, ERR_INPUT,
			    "%s: renders a page, not a wiki fragment: "
			    "a template of your own needs the built-in "
			    "one's <TMPL_IF fragment> (see "
			    "docs/templates.md)",
			    spec->html_template);
		fragment_rewrite(out, start);
	}
	return 0;
}

/* The test hook REPORT_MISSES_ENV: a lookup that found nothing is an
 * error naming the first ones. */
static int check_misses(const struct report_spec *spec,
                        const struct tmpl_vars *vars, enum report_kind kind,
                        struct err *e)
{
	const char *env = getenv(REPORT_MISSES_ENV), *what;
	char *log, *nl;

	if (!env || !*env || !tmpl_vars_misses(vars))
		return 0;
	what = kind == REPORT_PDF        ? "the PDF layout"
	       : kind == REPORT_MARKDOWN ? spec->md_template
	                                 : spec->html_template;
	log = xstrdup(tmpl_vars_miss_log(vars));
	/* one line per miss: joined for the one-line message */
	while ((nl = strrchr(log, '\n')) != NULL)
		*nl = nl[1] ? ';' : '\0';
	err_set(e, ERR_INTERNAL,
	        "%s: %zu lookups of template variables found nothing (%s): %s",
	        what, tmpl_vars_misses(vars), REPORT_MISSES_ENV, log);
	free(log);
	return -1;
}

/* The wiki fragment's stylesheet (format/fragment.h) into css: the
 * fragment's reset and the report's sheet, from dir when it has them. */
static int load_fragment_css(const char *dir, struct strbuf *css, struct err *e)
{
	struct strbuf reset = STRBUF_INIT, sheet = STRBUF_INIT;
	int ret;

	ret = report_load_asset(dir, "fragment.css", &reset, e) ||
	      report_load_css(dir, &sheet, e) ||
	      fragment_css(reset.buf, sheet.buf, css, e);
	strbuf_release(&reset);
	strbuf_release(&sheet);
	return ret;
}

int report_render_with(const struct report_spec *spec, const void *data,
                       enum report_kind kind, const struct report_opts *o,
                       struct strbuf *out, struct err *e)
{
	struct catalog *cat = NULL;
	struct strbuf css = STRBUF_INIT, script = STRBUF_INIT,
	              csp = STRBUF_INIT;
	struct model_opts mo;
	struct tmpl_vars *vars;
	char *date;
	int ret;

	if (i18n_load(o->lang ? o->lang : "en", &cat, e))
		return -1;
	if (kind == REPORT_HTML) {
		/* the script is inserted as it is: its hash is that of the
		 * bytes between <script> and </script> */
		ret = report_load_css(o->templates_dir, &css, e) ||
		      report_load_asset(o->templates_dir, spec->script, &script,
		                        e);
		if (!ret)
			report_script_csp(script.buf ? script.buf : "",
			                  script.len, &csp);
	} else {
		ret = kind == REPORT_FRAGMENT &&
		      load_fragment_css(o->templates_dir, &css, e);
	}
	if (ret) {
		i18n_free(cat);
		strbuf_release(&css);
		strbuf_release(&script);
		return -1;
	}
	date = report_date_text(o->time);
	mo.cat = cat;
	mo.title = o->title;
	mo.docs_base = o->docs_base ? o->docs_base : MODEL_DOCS_BASE;
	mo.date = date;
	mo.version = o->version;
	mo.css = css.buf;
	mo.script = script.buf;
	mo.script_csp = csp.buf;
	mo.fragment = kind == REPORT_FRAGMENT;
	vars = spec->build(data, &mo);
	ret = render_vars(spec, vars, kind, o, out, e);
	if (!ret)
		ret = check_misses(spec, vars, kind, e);
	tmpl_vars_free(vars);
	free(date);
	strbuf_release(&css);
	strbuf_release(&script);
	strbuf_release(&csp);
	if (o->missing_keys)
		*o->missing_keys = i18n_misses(cat);
	i18n_free(cat);
	return ret;
}

static struct tmpl_vars *build_result(const void *data,
                                      const struct model_opts *mo)
{
	return model_build(data, mo);
}

int report_render(const struct result *r, enum report_kind kind,
                  const struct report_opts *o, struct strbuf *out,
                  struct err *e)
{
	static const struct report_spec spec = {
	    build_result, "report.html.tmpl", "report.md.tmpl", "report.js",
	    pdf_render};
	return report_render_with(&spec, r, kind, o, out, e);
}

time_t report_time_fixed(int *fixed)
{
	const char *env = getenv("SOURCE_DATE_EPOCH");
	char *end;
	long long v;

	*fixed = 0;
	if (env && *env) {
		errno = 0;
		v = strtoll(env, &end, 10);
		if (!errno && !*end && v >= 0) {
			*fixed = 1;
			return (time_t)v;
		}
	}
	return time(NULL);
}

time_t report_time(void)
{
	int fixed;

	return report_time_fixed(&fixed);
}

char *report_date_text(time_t t)
{
	struct tm tm;
	char buf[64];

	if (!gmtime_r(&t, &tm) ||
	    !strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M UTC", &tm))
		return xstrdup("unknown date");
	return xstrdup(buf);
}
