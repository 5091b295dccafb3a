/* Template engine for the ctemplate template language: variable trees, a
 * lexer + recursive-descent parser building a small tree per render call,
 * and a tree walker. sdperf's own code, written from the language's public
 * description (see template.h and docs/templates.md). */
#include "render/template.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

#include "util/banned.h"

/* ---- variable trees ----------------------------------------------------- */

#define SMALL_SCOPE 8 /* names searched linearly before a hash is built */

struct entry {
	char *name;
	uint32_t hash;
	char *value; /* NULL: the entry is a loop */
	size_t len;
	struct tmpl_vars **rows;
	size_t nrows, arows;
};

struct tmpl_vars {
	struct entry *ents;
	size_t n, alloc;
	uint32_t *slots; /* entry index + 1, 0 = empty; NULL while small */
	size_t nslots;   /* a power of two, at least twice n */
};

static uint32_t hash_name(const char *s)
{
	uint32_t h = 2166136261u; /* FNV-1a */

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 16777619u;
	}
	return h;
}

static struct entry *vars_find(const struct tmpl_vars *v, const char *name,
                               uint32_t h)
{
	size_t i, mask;
	struct entry *en;

	if (!v->slots) {
		for (i = 0; i < v->n; i++)
			if (v->ents[i].hash == h &&
			    !strcmp(v->ents[i].name, name))
				return &v->ents[i];
		return NULL;
	}
	mask = v->nslots - 1;
	for (i = h & mask; v->slots[i]; i = (i + 1) & mask) {
		en = &v->ents[v->slots[i] - 1];
		if (en->hash == h && !strcmp(en->name, name))
			return en;
	}
	return NULL;
}

static void index_entry(struct tmpl_vars *v, size_t idx)
{
	size_t mask = v->nslots - 1, i = v->ents[idx].hash & mask;

	while (v->slots[i])
		i = (i + 1) & mask;
	v->slots[i] = (uint32_t)(idx + 1);
}

static void reindex(struct tmpl_vars *v)
{
	size_t i;

	free(v->slots);
	v->nslots = v->nslots ? v->nslots * 2 : 4 * SMALL_SCOPE;
	v->slots = xcalloc(v->nslots, sizeof(*v->slots));
	for (i = 0; i < v->n; i++)
		index_entry(v, i);
}

static void entry_drop_rows(struct entry *en)
{
	size_t i;

	for (i = 0; i < en->nrows; i++)
		tmpl_vars_free(en->rows[i]);
	free(en->rows);
	en->rows = NULL;
	en->nrows = en->arows = 0;
}

/* The entry called name, added (as an empty loop) when missing. */
static struct entry *vars_get(struct tmpl_vars *v, const char *name)
{
	uint32_t h = hash_name(name);
	struct entry *en = vars_find(v, name, h);

	if (en)
		return en;
	v->ents = xgrow(v->ents, sizeof(*v->ents), v->n + 1, &v->alloc);
	en = &v->ents[v->n++];
	memset(en, 0, sizeof(*en));
	en->name = xstrdup(name);
	en->hash = h;
	if (v->n > SMALL_SCOPE) {
		if (!v->slots || v->n * 2 > v->nslots)
			reindex(v);
		else
			index_entry(v, v->n - 1);
	}
	return en;
}

struct tmpl_vars *tmpl_vars_new(void)
{
	return xcalloc(1, sizeof(struct tmpl_vars));
}

void tmpl_vars_free(struct tmpl_vars *v)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < v->n; i++) {
		free(v->ents[i].name);
		free(v->ents[i].value);
		entry_drop_rows(&v->ents[i]);
	}
	free(v->ents);
	free(v->slots);
	free(v);
}

void tmpl_set(struct tmpl_vars *v, const char *name, const char *value)
{
	struct entry *en = vars_get(v, name);

	entry_drop_rows(en);
	free(en->value);
	en->value = xstrdup(value ? value : "");
	en->len = strlen(en->value);
}

void tmpl_setf(struct tmpl_vars *v, const char *name, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	tmpl_set(v, name, sb.buf);
	strbuf_release(&sb);
}

struct tmpl_vars *tmpl_add_row(struct tmpl_vars *v, const char *loop)
{
	struct entry *en = vars_get(v, loop);

	free(en->value);
	en->value = NULL;
	en->len = 0;
	en->rows =
	    xgrow(en->rows, sizeof(*en->rows), en->nrows + 1, &en->arows);
	en->rows[en->nrows] = tmpl_vars_new();
	return en->rows[en->nrows++];
}

/* ---- parse tree --------------------------------------------------------- */

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

struct tmpl {
	char *name;
	const char *src; /* the text; owned by `text` when loaded */
	size_t len;
	struct strbuf text;
	struct node *root;
};

struct node {
	enum node_kind kind;
	struct node *next;
	size_t off;       /* of the text or tag in its template */
	const char *text; /* N_TEXT: points into the template */
	size_t len;
	char *name; /* VAR, LOOP, INCLUDE */
	uint32_t hash;
	char *dflt;             /* VAR: default= or NULL */
	tmpl_fmt_fn fmt;        /* VAR: NULL for the env's default */
	struct cond *conds;     /* IF */
	struct node *else_body; /* IF */
	struct node *body;      /* LOOP */
	int level;              /* BREAK, CONTINUE */
	struct tmpl *inc;       /* INCLUDE */
};

static void free_tmpl(struct tmpl *t);

static void free_nodes(struct node *n)
{
	struct node *next;
	struct cond *c, *cnext;

	for (; n; n = next) {
		next = n->next;
		for (c = n->conds; c; c = cnext) {
			cnext = c->next;
			free(c->name);
			free(c->value);
			free_nodes(c->body);
			free(c);
		}
		free(n->name);
		free(n->dflt);
		free_nodes(n->else_body);
		free_nodes(n->body);
		free_tmpl(n->inc);
		free(n);
	}
}

static struct tmpl *new_tmpl(const char *name)
{
	struct tmpl *t = xcalloc(1, sizeof(*t));

	t->name = xstrdup(name);
	strbuf_init(&t->text);
	t->src = "";
	return t;
}

static void free_tmpl(struct tmpl *t)
{
	if (!t)
		return;
	free_nodes(t->root);
	strbuf_release(&t->text);
	free(t->name);
	free(t);
}

/* ---- messages ----------------------------------------------------------- */

/* Line and column (1-based; columns count characters, not bytes). */
static void line_col(const char *src, size_t off, unsigned *line, unsigned *col)
{
	size_t i;

	*line = 1;
	*col = 1;
	for (i = 0; i < off; i++) {
		if (src[i] == '\n') {
			++*line;
			*col = 1;
		} else if (((unsigned char)src[i] & 0xC0) != 0x80) {
			++*col;
		}
	}
}

/* Sets "name:line:col: message" as an ERR_INPUT error; returns -1. */
__attribute__((format(printf, 4, 5))) static int
error_at(struct err *e, const struct tmpl *t, size_t off, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned line, col;
	va_list ap;

	line_col(t->src, off, &line, &col);
	strbuf_add_sanitized(&sb, t->name, strlen(t->name));
	strbuf_addf(&sb, ":%u:%u: ", line, col);
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	err_set(e, ERR_INPUT, "%s", sb.buf);
	strbuf_release(&sb);
	return -1;
}

/* error_at for the template a parser is in. */
#define PERR(p, off, ...) error_at((p)->e, (p)->t, (off), __VA_ARGS__)

/* A value from the template or the variables, fit for a message. */
static const char *quoted(struct strbuf *sb, const char *s, size_t len)
{
	strbuf_reset(sb);
	strbuf_add_quoted_value(sb, s, len, 64);
	return sb->buf;
}

/* ---- lexer -------------------------------------------------------------- */

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
static const char *const attr_names[A_COUNT] = {"name", "value", "default",
                                                "fmt", "level"};

static const struct tag_def {
	const char *word;    /* after TMPL_ */
	enum tok_kind open;  /* <TMPL_x> */
	enum tok_kind close; /* </TMPL_x>, T_EOF when there is none */
	unsigned attrs;      /* allowed attributes */
} tags[] = {
    {"VAR", T_VAR, T_EOF, BIT(A_NAME) | BIT(A_DEFAULT) | BIT(A_FMT)},
    {"IF", T_IF, T_END_IF, BIT(A_NAME) | BIT(A_VALUE)},
    {"ELSIF", T_ELSIF, T_EOF, BIT(A_NAME) | BIT(A_VALUE)},
    {"ELSE", T_ELSE, T_EOF, 0},
    {"UNLESS", T_UNLESS, T_END_UNLESS, BIT(A_NAME) | BIT(A_VALUE)},
    {"LOOP", T_LOOP, T_END_LOOP, BIT(A_NAME)},
    {"BREAK", T_BREAK, T_EOF, BIT(A_LEVEL)},
    {"CONTINUE", T_CONTINUE, T_EOF, BIT(A_LEVEL)},
    {"INCLUDE", T_INCLUDE, T_EOF, BIT(A_NAME)},
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
	int loops;                 /* TMPL_LOOPs open at pos, this file */
	size_t *loaded;            /* bytes loaded so far by this render */
	struct strbuf scratch;     /* for quoted() */
};

static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

/* s (len bytes) equals the NUL-terminated word, ignoring ASCII case. */
static int eq_ci(const char *s, size_t len, const char *word)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!word[i] || lower((unsigned char)s[i]) != lower(word[i]))
			return 0;
	return word[len] == '\0';
}

static int is_word(int c)
{
	c = lower(c);
	return c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z');
}

static int is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

/* Bytes of a backslash-newline at i (removed with the line break), or 0. */
static size_t splice_at(const struct parser *p, size_t i)
{
	const char *s = p->t->src;
	size_t n = p->t->len;

	if (s[i] != '\\' || i + 1 >= n)
		return 0;
	if (s[i + 1] == '\n')
		return 2;
	return s[i + 1] == '\r' && i + 2 < n && s[i + 2] == '\n' ? 3 : 0;
}

static int has_at(const struct parser *p, size_t i, const char *lit)
{
	size_t n = strlen(lit);
	return p->t->len - i >= n && !memcmp(p->t->src + i, lit, n);
}

/* Whether a tag starts at i: where its TMPL_ word begins, how it is
 * written. */
static int tag_start(const struct parser *p, size_t i, struct token *t,
                     size_t *word)
{
	const char *s = p->t->src;
	size_t n = p->t->len;

	t->comment = t->close = 0;
	if (has_at(p, i, "<!--")) {
		t->comment = 1;
		for (i += 4; i < n && is_space(s[i]);)
			i++;
	} else {
		i++;
	}
	if (i < n && s[i] == '/') {
		t->close = 1;
		i++;
	}
	*word = i;
	return n - i >= 5 && eq_ci(s + i, 5, "tmpl_");
}

/* Where the text run from pos ends: a tag, a <* comment *>, a splice. */
static size_t text_end(const struct parser *p)
{
	const char *s = p->t->src;
	struct token tmp;
	size_t i, w;

	for (i = p->pos; i < p->t->len; i++) {
		if (s[i] == '\\' && splice_at(p, i))
			return i;
		if (s[i] == '<' &&
		    (has_at(p, i, "<*") || tag_start(p, i, &tmp, &w)))
			return i;
	}
	return i;
}

static void skip_space(struct parser *p)
{
	size_t k;

	while (p->pos < p->t->len) {
		if (is_space(p->t->src[p->pos]))
			p->pos++;
		else if ((k = splice_at(p, p->pos)) != 0)
			p->pos += k;
		else
			break;
	}
}

/* The attributes the tag may have (none for a close tag). */
static unsigned allowed(const struct token *t)
{
	return t->close ? 0 : t->def->attrs;
}

static int unclosed(struct parser *p, const struct token *t)
{
	return PERR(p, t->off, "unclosed tag '%sTMPL_%s' (missing '%s')",
	            t->close ? "/" : "", t->def->word,
	            t->comment ? "-->" : ">");
}

/* Length of the tag's end marker at pos, or 0. */
static size_t tag_end(const struct parser *p, const struct token *t)
{
	if (t->comment)
		return has_at(p, p->pos, "-->") ? 3 : 0;
	if (has_at(p, p->pos, "/>"))
		return 2;
	return has_at(p, p->pos, ">") ? 1 : 0;
}

/* A quoted or bare word of a tag; *quoted tells which. */
static int lex_word(struct parser *p, const struct token *t, struct span *w,
                    int *quoted)
{
	const char *s = p->t->src, *q;
	size_t start = p->pos;
	char c;

	*quoted = p->pos < p->t->len && (s[p->pos] == '"' || s[p->pos] == '\'');
	if (*quoted) {
		q = memchr(s + start + 1, s[start], p->t->len - start - 1);
		if (!q)
			return unclosed(p, t);
		w->s = s + start + 1;
		w->len = (size_t)(q - w->s);
		p->pos = (size_t)(q - s) + 1;
		return 0;
	}
	for (; p->pos < p->t->len && !tag_end(p, t); p->pos++) {
		c = s[p->pos];
		if (is_space(c) || c == '=' || c == '>' || c == '<' ||
		    c == '"' || c == '\'')
			break;
	}
	w->s = s + start;
	w->len = p->pos - start;
	if (w->len)
		return 0;
	if (p->pos < p->t->len && s[p->pos] == '=')
		return PERR(p, t->off, "unexpected '=' in TMPL_%s",
		            t->def->word);
	return unclosed(p, t);
}

static int set_attr(struct parser *p, struct token *t, struct span name,
                    struct span val)
{
	int a;

	for (a = 0; a < A_COUNT; a++)
		if (eq_ci(name.s, name.len, attr_names[a]))
			break;
	if (a == A_COUNT || !(allowed(t) & BIT(a)))
		return PERR(p, t->off, "unknown attribute %s in %sTMPL_%s",
		            quoted(&p->scratch, name.s, name.len),
		            t->close ? "/" : "", t->def->word);
	if (t->have & BIT(a))
		return PERR(p, t->off, "duplicate attribute '%s' in TMPL_%s",
		            attr_names[a], t->def->word);
	t->attr[a] = val;
	t->have |= BIT(a);
	return 0;
}

/* Attributes up to the tag's end: name=value pairs, and the name alone as
 * the first word. */
static int lex_attrs(struct parser *p, struct token *t)
{
	struct span word, val;
	int first = 1, q;
	size_t k;

	for (;; first = 0) {
		skip_space(p);
		if ((k = tag_end(p, t)) != 0) {
			p->pos += k;
			return 0;
		}
		if (lex_word(p, t, &word, &q))
			return -1;
		skip_space(p);
		if (!q && p->pos < p->t->len && p->t->src[p->pos] == '=') {
			p->pos++;
			skip_space(p);
			if (tag_end(p, t))
				return PERR(
				    p, t->off,
				    "missing value for %s in TMPL_%s",
				    quoted(&p->scratch, word.s, word.len),
				    t->def->word);
			if (lex_word(p, t, &val, &q))
				return -1;
			if (set_attr(p, t, word, val))
				return -1;
		} else if (first && (allowed(t) & BIT(A_NAME))) {
			t->attr[A_NAME] = word;
			t->have |= BIT(A_NAME);
		} else {
			return PERR(p, t->off, "unexpected %s in %sTMPL_%s",
			            quoted(&p->scratch, word.s, word.len),
			            t->close ? "/" : "", t->def->word);
		}
	}
}

static int lex_tag(struct parser *p, struct token *t)
{
	const char *s = p->t->src;
	size_t w, i;
	unsigned d;

	tag_start(p, p->pos, t, &w);
	for (i = w + 5; i < p->t->len && is_word(s[i]);)
		i++;
	for (d = 0; d < sizeof(tags) / sizeof(tags[0]); d++)
		if (eq_ci(s + w + 5, i - w - 5, tags[d].word))
			break;
	if (d == sizeof(tags) / sizeof(tags[0]) ||
	    (t->close && tags[d].close == T_EOF))
		return PERR(p, t->off, "unknown tag '%s%.*s'",
		            t->close ? "/" : "", (int)(i - w < 64 ? i - w : 64),
		            s + w);
	t->def = &tags[d];
	t->kind = t->close ? t->def->close : t->def->open;
	p->pos = i;
	return lex_attrs(p, t);
}

/* Skips a <* comment *>. */
static int skip_comment(struct parser *p)
{
	const char *s = p->t->src;
	size_t i;

	for (i = p->pos + 2; i + 1 < p->t->len; i++)
		if (s[i] == '*' && s[i + 1] == '>') {
			p->pos = i + 2;
			return 0;
		}
	return PERR(p, p->pos, "unclosed comment (missing '*>')");
}

static int next_token(struct parser *p, struct token *t)
{
	size_t end, k;

	memset(t, 0, sizeof(*t));
	for (;;) {
		t->off = p->pos;
		if (p->pos >= p->t->len) {
			t->kind = T_EOF;
			return 0;
		}
		end = text_end(p);
		if (end > p->pos) {
			t->kind = T_TEXT;
			t->text.s = p->t->src + p->pos;
			t->text.len = end - p->pos;
			p->pos = end;
			return 0;
		}
		if ((k = splice_at(p, p->pos)) != 0) {
			p->pos += k;
		} else if (has_at(p, p->pos, "<*")) {
			if (skip_comment(p))
				return -1;
		} else {
			return lex_tag(p, t);
		}
	}
}

/* ---- parser ------------------------------------------------------------- */

static int parse_seq(struct parser *p, struct node **head, struct token *term);
static int parse_template(const struct tmpl_env *env, struct tmpl *t,
                          const struct chain *up, int depth, size_t *loaded,
                          struct err *e);

static char *span_dup(struct span s)
{
	return xstrndup(s.s, s.len);
}

static void fmt_raw(struct strbuf *out, const char *value, size_t len)
{
	strbuf_add(out, value, len);
}

/* The formatter called name: "raw" first, then the env's table. */
static tmpl_fmt_fn find_fmt(const struct tmpl_env *env, const char *name,
                            size_t len)
{
	size_t i;

	if (eq_ci(name, len, "raw"))
		return fmt_raw;
	for (i = 0; i < env->nformatters; i++)
		if (env->formatters[i].name &&
		    eq_ci(name, len, env->formatters[i].name))
			return env->formatters[i].fn;
	return NULL;
}

/* The checks every tag of a kind needs, whatever its surroundings. */
static int check_tag(struct parser *p, struct token *t, int *level)
{
	struct span lv = t->attr[A_LEVEL];
	size_t i;

	if ((allowed(t) & BIT(A_NAME)) && !t->attr[A_NAME].len)
		return PERR(p, t->off, "missing name in TMPL_%s", t->def->word);
	*level = 1;
	if (!(t->have & BIT(A_LEVEL)))
		return 0;
	*level = 0;
	for (i = 0; i < lv.len && lv.s[i] >= '0' && lv.s[i] <= '9'; i++)
		if ((*level = *level * 10 + (lv.s[i] - '0')) > TMPL_MAX_DEPTH)
			break;
	if (!lv.len || i < lv.len || *level < 1)
		return PERR(p, t->off, "bad level %s in TMPL_%s (want 1 to %d)",
		            quoted(&p->scratch, lv.s, lv.len), t->def->word,
		            TMPL_MAX_DEPTH);
	return 0;
}

static int enter(struct parser *p, size_t off)
{
	if (p->depth >= TMPL_MAX_DEPTH)
		return PERR(p, off, "nesting deeper than %d", TMPL_MAX_DEPTH);
	p->depth++;
	return 0;
}

/* A token that ends a sequence where it does not belong. */
static int stray(struct parser *p, const struct token *t)
{
	if (t->kind == T_ELSE)
		return PERR(p, t->off,
		            "TMPL_ELSE outside TMPL_IF or TMPL_UNLESS");
	if (t->kind == T_ELSIF)
		return PERR(p, t->off, "TMPL_ELSIF outside TMPL_IF");
	return PERR(p, t->off, "'/TMPL_%s' without an open TMPL_%s",
	            t->def->word, t->def->word);
}

/* term ended the body of the block opened by `open`: it must close it. */
static int close_block(struct parser *p, const struct token *open,
                       const struct token *term)
{
	unsigned line, col;

	if (term->kind == open->def->close)
		return 0;
	if (term->kind == T_EOF)
		return PERR(p, open->off,
		            "TMPL_%s is not closed (missing '/TMPL_%s')",
		            open->def->word, open->def->word);
	if (!term->close)
		return stray(p, term);
	line_col(p->t->src, open->off, &line, &col);
	return PERR(p, term->off,
	            "'/TMPL_%s' does not close TMPL_%s opened at %u:%u",
	            term->def->word, open->def->word, line, col);
}

static struct cond *new_cond(const struct token *t, int negate)
{
	struct cond *c = xcalloc(1, sizeof(*c));

	c->name = span_dup(t->attr[A_NAME]);
	c->hash = hash_name(c->name);
	if (t->have & BIT(A_VALUE))
		c->value = span_dup(t->attr[A_VALUE]);
	c->negate = negate;
	return c;
}

/* TMPL_IF ... [TMPL_ELSIF ...]* [TMPL_ELSE ...] /TMPL_IF, or TMPL_UNLESS
 * ... [TMPL_ELSE ...] /TMPL_UNLESS. */
static int parse_if(struct parser *p, const struct token *open, struct node *n)
{
	struct token t = *open;
	struct cond **tail = &n->conds, *c;
	struct node **body;
	int unless = open->kind == T_UNLESS, in_else = 0, r = -1;

	n->kind = N_IF;
	if (enter(p, open->off))
		return -1;
	for (;;) {
		if (t.kind == T_ELSE) {
			body = &n->else_body;
		} else {
			*tail = c = new_cond(&t, unless);
			tail = &c->next;
			body = &c->body;
		}
		if (parse_seq(p, body, &t))
			goto out;
		if (t.kind == T_ELSIF && unless) {
			PERR(p, t.off, "TMPL_ELSIF inside TMPL_UNLESS");
			goto out;
		}
		if ((t.kind == T_ELSIF || t.kind == T_ELSE) && in_else) {
			PERR(p, t.off, "TMPL_%s after TMPL_ELSE", t.def->word);
			goto out;
		}
		if (t.kind != T_ELSIF && t.kind != T_ELSE)
			break;
		in_else = t.kind == T_ELSE;
	}
	r = close_block(p, open, &t);
out:
	p->depth--;
	return r;
}

static int parse_loop(struct parser *p, const struct token *open,
                      struct node *n)
{
	struct token t;
	int r;

	n->kind = N_LOOP;
	n->name = span_dup(open->attr[A_NAME]);
	n->hash = hash_name(n->name);
	if (enter(p, open->off))
		return -1;
	p->loops++;
	r = parse_seq(p, &n->body, &t);
	if (!r)
		r = close_block(p, open, &t);
	p->loops--;
	p->depth--;
	return r;
}

static int parse_jump(struct parser *p, const struct token *t, struct node *n,
                      int level)
{
	n->kind = t->kind == T_BREAK ? N_BREAK : N_CONTINUE;
	n->level = level;
	if (!p->loops)
		return PERR(p, t->off, "TMPL_%s outside TMPL_LOOP",
		            t->def->word);
	if (level > p->loops)
		return PERR(p, t->off,
		            "TMPL_%s level=%d but only %d TMPL_LOOP%s "
		            "enclose%s it",
		            t->def->word, level, p->loops,
		            p->loops == 1 ? "" : "s", p->loops == 1 ? "s" : "");
	return 0;
}

static int parse_var(struct parser *p, const struct token *t, struct node *n)
{
	struct span f = t->attr[A_FMT];

	n->kind = N_VAR;
	n->name = span_dup(t->attr[A_NAME]);
	n->hash = hash_name(n->name);
	if (t->have & BIT(A_DEFAULT))
		n->dflt = span_dup(t->attr[A_DEFAULT]);
	if (!(t->have & BIT(A_FMT)))
		return 0;
	n->fmt = find_fmt(p->env, f.s, f.len);
	if (!n->fmt)
		return PERR(p, t->off, "unknown formatter %s",
		            quoted(&p->scratch, f.s, f.len));
	return 0;
}

static int cycle_error(struct parser *p, const struct token *t,
                       const char *name)
{
	const struct chain *c, *links[TMPL_MAX_DEPTH + 2];
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0;
	int r;

	for (c = p->chain; c && n < TMPL_MAX_DEPTH + 1; c = c->up)
		links[n++] = c;
	while (n--) {
		strbuf_add_sanitized(&sb, links[n]->name,
		                     strlen(links[n]->name));
		strbuf_adds(&sb, " -> ");
	}
	strbuf_add_sanitized(&sb, name, strlen(name));
	r = PERR(p, t->off, "include cycle: %s", sb.buf);
	strbuf_release(&sb);
	return r;
}

/* Fetches t->name through the loader; `from` is the including parser (its
 * tag at off), or NULL for the template tmpl_render was asked for. */
static int load_tmpl(const struct tmpl_env *env, struct tmpl *t,
                     struct parser *from, size_t off, struct err *e)
{
	struct err le = ERR_INIT;

	if (!env->load)
		return from ? error_at(e, from->t, off,
		                       "cannot include %s: no template loader",
		                       quoted(&from->scratch, t->name,
		                              strlen(t->name)))
		            : err_set(e, ERR_INTERNAL,
		                      "cannot load template '%s': no loader",
		                      t->name);
	if (env->load(env->load_ctx, t->name, &t->text, &le) == 0) {
		t->src = t->text.buf ? t->text.buf : "";
		t->len = t->text.len;
		return 0;
	}
	if (!le.msg[0])
		snprintf(le.msg, sizeof(le.msg), "cannot load template '%s'",
		         t->name);
	if (!from)
		return err_set(e, le.code ? le.code : ERR_INPUT, "%s", le.msg);
	return error_at(e, from->t, off, "%s", le.msg);
}

static int parse_include(struct parser *p, const struct token *t,
                         struct node *n)
{
	const struct chain *c;

	n->kind = N_INCLUDE;
	n->name = span_dup(t->attr[A_NAME]);
	if (p->depth >= TMPL_MAX_DEPTH)
		return enter(p, t->off);
	for (c = p->chain; c; c = c->up)
		if (!strcmp(c->name, n->name))
			return cycle_error(p, t, n->name);
	n->inc = new_tmpl(n->name);
	if (load_tmpl(p->env, n->inc, p, t->off, p->e))
		return -1;
	return parse_template(p->env, n->inc, p->chain, p->depth + 1, p->loaded,
	                      p->e);
}

/* One node from token t, linked in at *slot before its children are parsed
 * so that a failed parse leaves everything reachable for free_nodes. */
static int parse_node(struct parser *p, struct token *t, int level,
                      struct node **slot)
{
	struct node *n = xcalloc(1, sizeof(*n));

	*slot = n;
	n->off = t->off;
	if (t->kind == T_TEXT) {
		n->kind = N_TEXT;
		n->text = t->text.s;
		n->len = t->text.len;
		return 0;
	}
	switch (t->kind) {
	case T_VAR:
		return parse_var(p, t, n);
	case T_IF:
	case T_UNLESS:
		return parse_if(p, t, n);
	case T_LOOP:
		return parse_loop(p, t, n);
	case T_BREAK:
	case T_CONTINUE:
		return parse_jump(p, t, n, level);
	default:
		return parse_include(p, t, n);
	}
}

/* Nodes up to the next ELSIF, ELSE, close tag or the end, which is left in
 * term for the caller to judge. */
static int parse_seq(struct parser *p, struct node **head, struct token *term)
{
	struct node **tail = head;
	int level = 1;

	for (;;) {
		if (next_token(p, term))
			return -1;
		if (term->kind != T_TEXT && term->kind != T_EOF &&
		    check_tag(p, term, &level))
			return -1;
		switch (term->kind) {
		case T_EOF:
		case T_ELSIF:
		case T_ELSE:
		case T_END_IF:
		case T_END_UNLESS:
		case T_END_LOOP:
			return 0;
		default:
			break;
		}
		if (parse_node(p, term, level, tail))
			return -1;
		tail = &(*tail)->next;
	}
}

static int parse_template(const struct tmpl_env *env, struct tmpl *t,
                          const struct chain *up, int depth, size_t *loaded,
                          struct err *e)
{
	struct chain link = {t->name, up};
	struct parser p;
	struct token term;
	int r = -1;

	if (t->len > TMPL_MAX_SIZE)
		return err_set(e, ERR_INPUT,
		               "%s: template larger than %zu MiB (%zu bytes)",
		               t->name, TMPL_MAX_SIZE >> 20, t->len);
	*loaded += t->len;
	if (*loaded > TMPL_MAX_LOADED)
		return err_set(e, ERR_INPUT,
		               "%s: templates of one render exceed %zu MiB",
		               t->name, TMPL_MAX_LOADED >> 20);
	memset(&p, 0, sizeof(p));
	p.env = env;
	p.e = e;
	p.t = t;
	p.chain = &link;
	p.depth = depth;
	p.loaded = loaded;
	strbuf_init(&p.scratch);
	if (parse_seq(&p, &t->root, &term))
		goto out;
	r = term.kind == T_EOF ? 0 : stray(&p, &term);
out:
	strbuf_release(&p.scratch);
	return r;
}

/* ---- rendering ---------------------------------------------------------- */

/* A scope: the variables given to the render, or one row of a loop. */
struct frame {
	const struct tmpl_vars *vars; /* may be NULL */
	const struct entry *loop;     /* NULL for the outermost scope */
	size_t index;                 /* of the row in loop */
	const struct frame *up;
};

enum { R_ERR = -1, R_OK = 0, R_BREAK, R_CONTINUE };

struct render {
	struct strbuf *out;
	size_t start; /* out->len before the render */
	struct err *e;
	tmpl_fmt_fn dflt;
	int level; /* loops still to leave for a BREAK/CONTINUE */
	char num[24];
	struct strbuf scratch; /* for quoted() */
};

static const struct entry *find_entry(const struct frame *f, const char *name,
                                      uint32_t h)
{
	const struct entry *en;

	for (; f; f = f->up)
		if (f->vars && (en = vars_find(f->vars, name, h)) != NULL)
			return en;
	return NULL;
}

/* The loop-position variables of the innermost loop; 0 when name is not
 * one (or no loop is open). */
static int loop_var(struct render *rs, const struct frame *f, const char *name,
                    const char **val, size_t *len)
{
	size_t i, n;
	int b;

	if (!f->loop || name[0] != '_' || name[1] != '_')
		return 0;
	i = f->index;
	n = f->loop->nrows;
	if (!strcmp(name, "__first__"))
		b = i == 0;
	else if (!strcmp(name, "__last__"))
		b = i + 1 == n;
	else if (!strcmp(name, "__odd__"))
		b = i % 2 == 0; /* rows count from 1 */
	else if (!strcmp(name, "__even__"))
		b = i % 2 == 1;
	else if (!strcmp(name, "__index__") || !strcmp(name, "__count__"))
		b = -1;
	else
		return 0;
	if (b >= 0) {
		*val = b ? "1" : "";
		*len = (size_t)b;
		return 1;
	}
	snprintf(rs->num, sizeof(rs->num), "%zu", name[2] == 'i' ? i + 1 : n);
	*val = rs->num;
	*len = strlen(rs->num);
	return 1;
}

/* The string value of name (NULL when unset or a loop); *en receives the
 * entry found, if any. */
static const char *value_of(struct render *rs, const struct frame *f,
                            const char *name, uint32_t h, size_t *len,
                            const struct entry **en)
{
	const char *v;

	*en = NULL;
	if (loop_var(rs, f, name, &v, len))
		return v;
	*en = find_entry(f, name, h);
	if (!*en || !(*en)->value)
		return NULL;
	*len = (*en)->len;
	return (*en)->value;
}

static int is_true(struct render *rs, const struct frame *f,
                   const struct cond *c)
{
	const struct entry *en;
	size_t len = 0;
	const char *v = value_of(rs, f, c->name, c->hash, &len, &en);
	int t;

	if (c->value)
		t = len == strlen(c->value) &&
		    (!len || !memcmp(v, c->value, len));
	else if (en && !en->value)
		t = en->nrows > 0;
	else
		t = v && len && !(len == 1 && v[0] == '0');
	return t != c->negate;
}

static int render_seq(struct render *rs, const struct tmpl *t,
                      const struct node *n, const struct frame *f);

static void render_var(struct render *rs, const struct node *n,
                       const struct frame *f)
{
	const struct entry *en;
	size_t len = 0;
	const char *v = value_of(rs, f, n->name, n->hash, &len, &en);

	if ((!v || !len) && n->dflt) {
		v = n->dflt;
		len = strlen(v);
	}
	(n->fmt ? n->fmt : rs->dflt)(rs->out, v ? v : "", len);
}

static int render_if(struct render *rs, const struct tmpl *t,
                     const struct node *n, const struct frame *f)
{
	const struct cond *c;

	for (c = n->conds; c; c = c->next)
		if (is_true(rs, f, c))
			return render_seq(rs, t, c->body, f);
	return render_seq(rs, t, n->else_body, f);
}

static int render_loop(struct render *rs, const struct tmpl *t,
                       const struct node *n, const struct frame *f)
{
	const struct entry *en = find_entry(f, n->name, n->hash);
	const struct frame *g;
	struct frame row = {NULL, en, 0, f};
	int r;

	if (!en || en->value)
		return R_OK;
	/* the rows of a loop are looked up from inside it too: iterating them
	 * again there would nest without end, multiplying the work */
	for (g = f; g; g = g->up)
		if (g->loop == en)
			return error_at(
			    rs->e, t, n->off, "TMPL_LOOP %s inside itself",
			    quoted(&rs->scratch, n->name, strlen(n->name)));
	for (row.index = 0; row.index < en->nrows; row.index++) {
		row.vars = en->rows[row.index];
		r = render_seq(rs, t, n->body, &row);
		if (r == R_ERR ||
		    ((r == R_BREAK || r == R_CONTINUE) && --rs->level > 0))
			return r;
		if (r == R_BREAK)
			break;
	}
	return R_OK;
}

static int render_node(struct render *rs, const struct tmpl *t,
                       const struct node *n, const struct frame *f)
{
	switch (n->kind) {
	case N_TEXT:
		strbuf_add(rs->out, n->text, n->len);
		return R_OK;
	case N_VAR:
		render_var(rs, n, f);
		return R_OK;
	case N_IF:
		return render_if(rs, t, n, f);
	case N_LOOP:
		return render_loop(rs, t, n, f);
	case N_BREAK:
	case N_CONTINUE:
		rs->level = n->level;
		return n->kind == N_BREAK ? R_BREAK : R_CONTINUE;
	default:
		return render_seq(rs, n->inc, n->inc->root, f);
	}
}

static int render_seq(struct render *rs, const struct tmpl *t,
                      const struct node *n, const struct frame *f)
{
	int r;

	for (; n; n = n->next) {
		if ((r = render_node(rs, t, n, f)) != R_OK)
			return r;
		if (rs->out->len - rs->start > TMPL_MAX_OUTPUT)
			return error_at(rs->e, t, n->off,
			                "output larger than %zu MiB",
			                TMPL_MAX_OUTPUT >> 20);
	}
	return R_OK;
}

static int parse_and_render(const struct tmpl_env *env, struct tmpl *t,
                            const struct tmpl_vars *vars, struct strbuf *out,
                            struct err *e)
{
	struct frame top = {vars, NULL, 0, NULL};
	struct render rs;
	size_t loaded = 0;
	int r;

	memset(&rs, 0, sizeof(rs));
	rs.out = out;
	rs.start = out->len;
	rs.e = e;
	rs.dflt = env->default_fmt ? find_fmt(env, env->default_fmt,
	                                      strlen(env->default_fmt))
	                           : fmt_raw;
	if (!rs.dflt)
		return err_set(e, ERR_INTERNAL,
		               "unknown default formatter '%s'",
		               env->default_fmt);
	if (parse_template(env, t, NULL, 0, &loaded, e))
		return -1;
	strbuf_init(&rs.scratch);
	r = render_seq(&rs, t, t->root, &top);
	strbuf_release(&rs.scratch);
	return r == R_OK ? 0 : -1;
}

int tmpl_render(const struct tmpl_env *env, const char *name,
                const struct tmpl_vars *vars, struct strbuf *out, struct err *e)
{
	struct tmpl *t = new_tmpl(name);
	int r = load_tmpl(env, t, NULL, 0, e);

	if (!r)
		r = parse_and_render(env, t, vars, out, e);
	free_tmpl(t);
	return r;
}

int tmpl_render_text(const struct tmpl_env *env, const char *name,
                     const char *text, size_t len, const struct tmpl_vars *vars,
                     struct strbuf *out, struct err *e)
{
	struct tmpl *t = new_tmpl(name);
	int r;

	t->src = text ? text : "";
	t->len = text ? len : 0;
	r = parse_and_render(env, t, vars, out, e);
	free_tmpl(t);
	return r;
}
