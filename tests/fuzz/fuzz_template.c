/* libFuzzer target: any template text renders or fails cleanly (an
 * ERR_INPUT error with a message), with a fixed small variable tree and a
 * loader that serves two fixed partials. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "view/escape.h"
#include "tmpl/template.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const partials[][2] = {
    {"a.tmpl", "<TMPL_VAR x>\\\n<TMPL_LOOP rows>[<TMPL_VAR n fmt=int>"
               "<TMPL_UNLESS __last__>,</TMPL_UNLESS>]</TMPL_LOOP>"},
    {"b.tmpl", "<!-- TMPL_IF x --><TMPL_INCLUDE a.tmpl><* c *>"
               "<!-- TMPL_ELSE --><TMPL_VAR html fmt=js><!-- /TMPL_IF -->"},
    /* a fan-out: each includes the next twice (shared, charged) */
    {"c.tmpl", "<TMPL_INCLUDE b.tmpl><TMPL_INCLUDE b.tmpl>"},
    {"d.tmpl", "<TMPL_LOOP rows><TMPL_INCLUDE c.tmpl></TMPL_LOOP>"
               "<TMPL_INCLUDE c.tmpl>"},
    {"e.tmpl", "<TMPL_INCLUDE d.tmpl><TMPL_INCLUDE d.tmpl>"
               "<TMPL_INCLUDE e.tmpl>"},
};

static int load(void *ctx, const char *name, struct strbuf *text, struct err *e)
{
	size_t i;

	(void)ctx;
	for (i = 0; i < sizeof(partials) / sizeof(partials[0]); i++)
		if (!strcmp(partials[i][0], name)) {
			strbuf_adds(text, partials[i][1]);
			return 0;
		}
	return err_set(e, ERR_INPUT, "no such template '%s'", name);
}

static struct tmpl_vars *make_vars(void)
{
	struct tmpl_vars *v = tmpl_vars_new(), *r, *c;
	int i, j;

	tmpl_set(v, "x", "X");
	tmpl_set(v, "empty", "");
	tmpl_set(v, "zero", "0");
	tmpl_set(v, "html", "<script>alert('&')</script>\xff");
	tmpl_set(v, "n", "12345.678");
	for (i = 0; i < 3; i++) {
		r = tmpl_add_row(v, "rows");
		tmpl_setf(r, "n", "%d", i * 1000);
		tmpl_setf(r, "name", "row %d", i);
		for (j = 0; j < 2; j++) {
			c = tmpl_add_row(r, "cells");
			tmpl_setf(c, "v", "%d", j);
		}
	}
	return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tmpl_vars *vars;
	struct tmpl_env env = {NULL, 0, "html", load, NULL};
	struct strbuf out = STRBUF_INIT;
	struct err e = ERR_INIT;

	if (!vars)
		vars = make_vars(); /* kept for the whole run */
	env.formatters = escape_formatters(&env.nformatters);
	if (tmpl_render_text(&env, "fuzz.tmpl", (const char *)data, size, vars,
	                     &out, &e) == 0) {
		if (e.code != ERR_NONE || out.len > TMPL_MAX_OUTPUT)
			abort();
	} else if (e.code != ERR_INPUT || !e.msg[0]) {
		abort();
	}
	/* the misses of the whole run: 32 sites described, each line short */
	if (strlen(tmpl_vars_miss_log(vars)) > 32 * 400)
		abort();
	strbuf_release(&out);
	return 0;
}
