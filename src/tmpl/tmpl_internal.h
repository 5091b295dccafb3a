/* Internal to the template engine (not part of its API, see template.h):
 * the types and message helpers the lexer (tmpl_lex.c) shares with the
 * parser and renderer (template.c). Needs nothing of the public header. */
#ifndef TMPL_INTERNAL_H
#define TMPL_INTERNAL_H

#include <stddef.h>

#include "util/err.h"
#include "util/strbuf.h"

struct node;
struct tmpl_cache;
struct tmpl_env;

struct tmpl {
	char *name;
	const char *src; /* the text; owned by `text` when loaded */
	size_t len;
	struct strbuf text;
	struct node *root;
	/* once parsed: how deep its blocks and includes nest below its top
	 * level, and the bytes of template text it expands to (its own and,
	 * recursively, each include's, once per TMPL_INCLUDE tag) */
	int maxrel;
	size_t expand;
};

struct chain {
	const char *name;
	const struct chain *up;
};

struct parser {
	const struct tmpl_env *env;
	struct err *e;
	struct tmpl *t;
	size_t pos;
	const struct chain *chain; /* this template and its includers */
	int depth;                 /* blocks + includes open at pos */
	int maxdepth;              /* the deepest depth reached */
	int loops;                 /* TMPL_LOOPs open at pos, this file */
	size_t *loaded; /* template bytes expanded so far by this render */
	struct tmpl_cache *cache; /* the includes parsed, by name */
	struct strbuf scratch;    /* for tmpl_quoted() */
};

/* Line and column of byte off of src (1-based; columns count characters,
 * not bytes). */
void tmpl_line_col(const char *src, size_t off, unsigned *line, unsigned *col);
/* Sets "name:line:col: message" (t's name, the position of off in t) as an
 * ERR_INPUT error in e; returns -1. */
int tmpl_error_at(struct err *e, const struct tmpl *t, size_t off,
                  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* error_at for the template a parser is in. */
#define PERR(p, off, ...) tmpl_error_at((p)->e, (p)->t, (off), __VA_ARGS__)

/* s (len bytes) as strbuf_add_quoted_value shows it (at most 64 bytes), in
 * sb, which is reset first; returns sb->buf. For values in messages. */
const char *tmpl_quoted(struct strbuf *sb, const char *s, size_t len);

#endif
