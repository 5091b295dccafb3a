/* A template engine for the ctemplate template language: TMPL_VAR,
 * TMPL_IF/ELSIF/ELSE/UNLESS, TMPL_LOOP, TMPL_BREAK/CONTINUE, TMPL_INCLUDE.
 *
 * An independent implementation, written from the public description of the
 * language used by Stephen C. Losen's "ctemplate" C library (a relative of
 * perl's HTML::Template); no code of that library is used. The language, the
 * limits and the error messages are described in docs/templates.md.
 *
 * The engine knows no output format: escaping is done by formatters the
 * caller registers (struct tmpl_env), and templates are read through the
 * caller's loader. It depends only on util/ (strbuf, err, xalloc, hash,
 * strtab).
 *
 * Each render call parses the template (and its includes) into a small tree
 * and walks it; nothing is cached between calls and no global state is kept,
 * so concurrent renders with separate outputs and trees are safe.
 *
 * Misses (see tmpl_vars.h): a render counts, in the tree it reads, each
 * TMPL_VAR without default= that finds no value and each TMPL_LOOP that
 * finds no loop (define empty loops with tmpl_define_loop). TMPL_IF,
 * TMPL_ELSIF and TMPL_UNLESS are not counted: in the language an absent name
 * is false, and templates test optional parts that way; nor are the loop
 * variables (__first__ ...), which exist only inside loops. */
#ifndef TMPL_TEMPLATE_H
#define TMPL_TEMPLATE_H

#include <stddef.h>

#include "tmpl/tmpl_vars.h"
#include "util/err.h"
#include "util/strbuf.h"

/* Limits on untrusted templates: exceeding one is an ERR_INPUT error. */
#define TMPL_MAX_SIZE   ((size_t)4 << 20)   /* bytes of one template */
#define TMPL_MAX_LOADED ((size_t)64 << 20)  /* bytes of all templates */
#define TMPL_MAX_DEPTH  32                  /* nested blocks + includes */
#define TMPL_MAX_OUTPUT ((size_t)256 << 20) /* bytes added to out */

/* Appends value (len bytes, any bytes) to out, transformed for one output
 * context (escaped for HTML, formatted as a number, ...). Must not fail. */
typedef void (*tmpl_fmt_fn)(struct strbuf *out, const char *value, size_t len);
/* Column formatting (optional): a TMPL_VAR inside a TMPL_LOOP is one cell
 * of a column, the variable's values in the loop's rows. Before the rows
 * are rendered, scan folds each row's own value of the variable into a key
 * (starting from 0; rows without the variable are left out), and each cell
 * is then written by col with that key: so a column can share one unit,
 * chosen from its largest value. A TMPL_VAR whose loop's rows all lack the
 * variable is written by fn. */
typedef double (*tmpl_col_scan_fn)(double key, const char *value, size_t len);
typedef void (*tmpl_col_fmt_fn)(struct strbuf *out, const char *value,
                                size_t len, double key);
struct tmpl_formatter {
	const char *name;
	tmpl_fmt_fn fn;
	tmpl_col_scan_fn scan; /* NULL: no column formatting */
	tmpl_col_fmt_fn col;
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
 * itself and prefixed with the including tag's position for includes.
 * vars is not changed, except for its count of misses. */
int tmpl_render(const struct tmpl_env *env, const char *name,
                const struct tmpl_vars *vars, struct strbuf *out,
                struct err *e);
/* The same for template text already in memory (name is used in messages
 * and for include-cycle detection). text need not be NUL-terminated. */
int tmpl_render_text(const struct tmpl_env *env, const char *name,
                     const char *text, size_t len, const struct tmpl_vars *vars,
                     struct strbuf *out, struct err *e);

#endif
