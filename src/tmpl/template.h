/* sdperf's template engine for the ctemplate template language (TMPL_VAR,
 * TMPL_IF/ELSIF/ELSE/UNLESS, TMPL_LOOP, TMPL_BREAK/CONTINUE, TMPL_INCLUDE).
 *
 * This is sdperf's own implementation, written from the public description
 * of the language used by Stephen C. Losen's "ctemplate" C library (a
 * relative of perl's HTML::Template); no code of that library is used. The
 * language, the limits and the error messages are described in
 * docs/templates.md.
 *
 * Each render call parses the template (and its includes) into a small tree
 * and walks it; nothing is cached between calls and no global state is kept,
 * so concurrent renders with separate outputs are safe. */
#ifndef SDPERF_RENDER_TEMPLATE_H
#define SDPERF_RENDER_TEMPLATE_H

#include <stddef.h>

#include "util/err.h"
#include "util/strbuf.h"

/* Limits on untrusted templates: exceeding one is an ERR_INPUT error. */
#define TMPL_MAX_SIZE   ((size_t)4 << 20)   /* bytes of one template */
#define TMPL_MAX_LOADED ((size_t)64 << 20)  /* bytes of all templates */
#define TMPL_MAX_DEPTH  32                  /* nested blocks + includes */
#define TMPL_MAX_OUTPUT ((size_t)256 << 20) /* bytes added to out */

/* A variable tree: named string values and named loops of rows. Names are
 * case-sensitive and share one namespace per scope: setting a value under a
 * loop's name replaces the loop, adding a row under a value's name replaces
 * the value. Lookup is a hash once a scope has more than a few names. */
struct tmpl_vars;

/* A new empty tree (never NULL). */
struct tmpl_vars *tmpl_vars_new(void);
/* Frees v, its values and all its rows, recursively. NULL is a no-op. */
void tmpl_vars_free(struct tmpl_vars *v);
/* Sets name to a copy of value (NULL is stored as ""), replacing any
 * earlier value or loop of that name. */
void tmpl_set(struct tmpl_vars *v, const char *name, const char *value);
/* tmpl_set with a printf-formatted value. */
void tmpl_setf(struct tmpl_vars *v, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Appends a row to loop `loop` of v and returns it (owned by v, valid until
 * v is freed or the loop is replaced by tmpl_set). */
struct tmpl_vars *tmpl_add_row(struct tmpl_vars *v, const char *loop);

/* Appends value (len bytes, any bytes) to out, transformed for one output
 * context. Must not fail. */
/* Reading a tree back (for renderers that lay out the same view model
 * without a template, such as the PDF): the value of name in v's own scope
 * ("" when unset or a loop), the number of rows of loop (0 when it is not a
 * loop), and row i of loop (NULL when out of range). */
const char *tmpl_get(const struct tmpl_vars *v, const char *name);
size_t tmpl_nrows(const struct tmpl_vars *v, const char *loop);
const struct tmpl_vars *tmpl_row(const struct tmpl_vars *v, const char *loop,
                                 size_t i);

typedef void (*tmpl_fmt_fn)(struct strbuf *out, const char *value, size_t len);
struct tmpl_formatter {
	const char *name;
	tmpl_fmt_fn fn;
};
/* Loads template `name` into text (0), or -1 with an ERR_INPUT error. */
typedef int (*tmpl_load_fn)(void *ctx, const char *name, struct strbuf *text,
                            struct err *e);
struct tmpl_env {
	/* fmt= names (compared without case); "raw" is always available and
	 * always means "as is", whatever the table says */
	const struct tmpl_formatter *formatters;
	size_t nformatters;
	/* formatter used when a TMPL_VAR has no fmt= (e.g. "html"); NULL means
	 * "raw". A name missing from the table is an ERR_INTERNAL error. */
	const char *default_fmt;
	/* loads tmpl_render's template and every TMPL_INCLUDE, by the name
	 * written in the tag; may be NULL when neither is used */
	tmpl_load_fn load;
	void *load_ctx;
};

/* Renders template `name` (loaded through env->load) with vars (NULL: no
 * variables), appending to out. 0, or -1 with e set (nothing is guaranteed
 * about out then). Template errors are ERR_INPUT and read
 * "name:line:col: message"; a loader error is passed on as it is for `name`
 * itself and prefixed with the including tag's position for includes. */
int tmpl_render(const struct tmpl_env *env, const char *name,
                const struct tmpl_vars *vars, struct strbuf *out,
                struct err *e);
/* The same for template text already in memory (name is used in messages
 * and for include-cycle detection). text need not be NUL-terminated. */
int tmpl_render_text(const struct tmpl_env *env, const char *name,
                     const char *text, size_t len, const struct tmpl_vars *vars,
                     struct strbuf *out, struct err *e);

#endif
