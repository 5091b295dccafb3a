/* Internal to the template engine (not part of its API, see template.h):
 * the lexer's tokens, for the parser in template.c. */
#ifndef TMPL_LEX_H
#define TMPL_LEX_H

#include <stddef.h>

struct parser;

enum tok_kind {
	T_EOF,
	T_TEXT,
	T_VAR,
	T_IF,
	T_ELSIF,
	T_ELSE,
	T_UNLESS,
	T_LOOP,
	T_BREAK,
	T_CONTINUE,
	T_INCLUDE,
	T_END_IF,
	T_END_UNLESS,
	T_END_LOOP
};

enum { A_NAME, A_VALUE, A_DEFAULT, A_FMT, A_LEVEL, A_COUNT };
#define BIT(a) (1u << (a))

struct tag_def {
	const char *word;    /* after TMPL_ */
	enum tok_kind open;  /* <TMPL_x> */
	enum tok_kind close; /* </TMPL_x>, T_EOF when there is none */
	unsigned attrs;      /* allowed attributes */
};

struct span {
	const char *s;
	size_t len;
};

struct token {
	enum tok_kind kind;
	size_t off;       /* of the text, or of the tag's '<' */
	struct span text; /* T_TEXT */
	const struct tag_def *def;
	int close;   /* </TMPL_x> */
	int comment; /* written as <!-- ... --> */
	struct span attr[A_COUNT];
	unsigned have; /* BIT(a) for each attribute given */
};

/* The next token at p->pos into t, advancing p->pos past it (and past any
 * <* comment *> and backslash-newline before it): 0, or -1 with p->e set.
 * Spans point into p->t->src. T_EOF at the end of the template. */
int tmpl_next_token(struct parser *p, struct token *t);
/* s (len bytes) equals the NUL-terminated word, ignoring ASCII case. */
int tmpl_eq_ci(const char *s, size_t len, const char *word);
/* The attributes the tag may have (none for a close tag). */
unsigned tmpl_allowed(const struct token *t);

#endif
