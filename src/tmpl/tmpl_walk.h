/* Internal to the template engine (not part of its API, see template.h):
 * the parse tree that the parser in template.c builds, and the walker
 * (tmpl_walk.c) that renders it with a variable tree (tmpl_vars.c). It
 * includes no public header but tmpl_vars.h, so that template.c can
 * include it without an include circle. */
#ifndef TMPL_WALK_H
#define TMPL_WALK_H

#include <stddef.h>
#include <stdint.h>

#include "tmpl/tmpl_internal.h"
#include "tmpl/tmpl_vars.h"
#include "util/err.h"
#include "util/strbuf.h"

enum node_kind { N_TEXT, N_VAR, N_IF, N_LOOP, N_BREAK, N_CONTINUE, N_INCLUDE };

/* One test of an IF chain: TMPL_IF / TMPL_UNLESS, then each TMPL_ELSIF. */
struct cond {
	char *name;
	uint32_t hash;
	char *value; /* value= or NULL for a truth test */
	int negate;  /* TMPL_UNLESS */
	struct node *body;
	struct cond *next;
};

struct node {
	enum node_kind kind;
	struct node *next;
	size_t off;       /* of the text or tag in its template */
	const char *text; /* N_TEXT: points into the template */
	size_t len;
	char *name; /* VAR, LOOP, INCLUDE */
	uint32_t hash;
	char *dflt; /* VAR: default= or NULL */
	/* VAR: its formatter (fmt=), NULL for the render's default, and
	 * the formatter's column formatting, or NULL (template.h's
	 * tmpl_fmt_fn, tmpl_col_scan_fn, tmpl_col_fmt_fn) */
	void (*fmt)(struct strbuf *out, const char *value, size_t len);
	double (*scan)(double key, const char *value, size_t len);
	void (*col)(struct strbuf *out, const char *value, size_t len,
	            double key);
	struct cond *conds;     /* IF */
	struct node *else_body; /* IF */
	struct node *body;      /* LOOP */
	int level;              /* BREAK, CONTINUE */
	struct tmpl *inc;       /* INCLUDE */
};

/* Renders t, parsed, with vars (NULL: no variables), appending to out; a
 * TMPL_VAR without fmt= is written by dflt. 0, or -1 with e set: an
 * ERR_INPUT error "name:line:col: message" when the output grows past
 * max_output bytes. vars is not changed, except for its count of
 * misses. */
int tmpl_walk(const struct tmpl *t, const struct tmpl_vars *vars,
              void (*dflt)(struct strbuf *out, const char *value, size_t len),
              size_t max_output, struct strbuf *out, struct err *e);

#endif
