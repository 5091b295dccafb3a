/* The human-readable reports: HTML and Markdown (templated) and PDF (laid
 * out by pdf.c), all from the same view model. */
#ifndef SDPERF_REPORT_H
#define SDPERF_REPORT_H

#include <time.h>

#include "analysis/result.h"
#include "util/err.h"
#include "util/strbuf.h"

/* REPORT_FRAGMENT: the HTML report's body alone, for a wiki page
 * (format/fragment.h): no <html>, <head> or script, its stylesheet scoped
 * inside its root element. */
enum report_kind { REPORT_HTML, REPORT_MARKDOWN, REPORT_PDF, REPORT_FRAGMENT };

struct report_opts {
	const char *lang;          /* "en" or "zh" */
	const char *title;         /* NULL: the catalogue's default */
	const char *docs_base;     /* NULL: MindIE-SD on gitcode */
	const char *templates_dir; /* NULL: the embedded templates */
	time_t time;               /* the report's date (report_time()) */
	const char *version;
	size_t *missing_keys; /* if set: catalogue lookups that found nothing */
	const char *font;     /* PDF: Latin TrueType font, NULL: DejaVu Sans */
	const char *cjk_font; /* PDF: CJK font, NULL: WenQuanYi Zen Hei */
	/* the PDF's logo (the HTML's comes with the view model), NULL:
	 * none */
	const struct brand *brand;
};

/* Test hook: when this environment variable is set (non-empty), a report
 * whose templates or PDF layout looked up a variable the view model does
 * not define fails with ERR_INTERNAL, naming the first misses ("pdf.c:168:
 * no value 'x'", "report.html.tmpl:12:5: TMPL_VAR 'x'"). The tests set it
 * (tests/tmplvars); without it a miss renders as "", as always. */
#define REPORT_MISSES_ENV "SDPERF_TEST_TEMPLATE_MISSES"

/* Renders report `kind` of r into out. Errors: ERR_USAGE (unknown
 * language), ERR_INPUT (a user template is missing or malformed: the
 * message names template:line:column; for a fragment, a stylesheet that
 * cannot be scoped). */
int report_render(const struct result *r, enum report_kind kind,
                  const struct report_opts *o, struct strbuf *out,
                  struct err *e);

struct model_opts;
struct tmpl_vars;
struct pdf_opts;

/* One kind of report: how its template variables are built from its data
 * (a result, a comparison), its two templates and its PDF layout. */
struct report_spec {
	struct tmpl_vars *(*build)(const void *data,
	                           const struct model_opts *mo);
	const char *html_template, *md_template;
	/* the HTML's one inline script: an asset ("report.js"), replaced
	 * by the --templates folder's file of that name */
	const char *script;
	int (*pdf)(const struct tmpl_vars *vars, const struct pdf_opts *o,
	           struct strbuf *out, struct err *e);
};

/* The driver of every report: loads the catalogue of o->lang and (HTML)
 * the stylesheet and the script with its CSP hash, builds the variables with
 * spec, and renders them with the templates or the PDF layout. Errors as
 * report_render. */
int report_render_with(const struct report_spec *spec, const void *data,
                       enum report_kind kind, const struct report_opts *o,
                       struct strbuf *out, struct err *e);

/* The template loader of every templated report (struct tmpl_env's load,
 * ctx = the --templates folder or NULL): templates/<name> from the user's
 * folder when it has it, else the embedded one; only plain file names. */
int report_load_template(void *ctx, const char *name, struct strbuf *text,
                         struct err *e);
/* Asset name (report.css, report.js, diff.js) into out: the user's file
 * of that name when their folder has one, else the embedded assets/NAME.
 * 0, or -1 with ERR_INPUT naming the file when the folder's is there but
 * cannot be read or is no regular file (a FIFO: refused, never waited
 * on). */
int report_load_asset(const char *dir, const char *name, struct strbuf *out,
                      struct err *e);
/* report_load_asset(dir, "report.css", css, e). */
int report_load_css(const char *dir, struct strbuf *css, struct err *e);

/* The Content-Security-Policy source that allows exactly script to run
 * as an inline script, "sha256-BASE64" (CSP level 2 hash source), into
 * out. The HTML reports allow no other script. */
void report_script_csp(const char *script, size_t len, struct strbuf *out);

/* The report time: now, or SOURCE_DATE_EPOCH when it is set (reproducible
 * reports); report_date_text formats it "YYYY-MM-DD HH:MM UTC" (caller
 * frees). */
time_t report_time(void);
/* report_time, and whether it came from SOURCE_DATE_EPOCH (*fixed 1). */
time_t report_time_fixed(int *fixed);
char *report_date_text(time_t t);

#endif
