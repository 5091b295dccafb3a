/* Template engine for the ctemplate template language: the render API
 * (template.h) and a recursive-descent parser building a small tree per
 * render call over the tokens of tmpl_lex.c; tmpl_walk.c renders the
 * tree. An independent implementation, written from the language's
 * public description (see template.h and docs/templates.md). */
#include "tmpl/template.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tmpl/tmpl_cache.h"
#include "tmpl/tmpl_internal.h"
#include "tmpl/tmpl_lex.h"
#include "tmpl/tmpl_tree.h"
#include "tmpl/tmpl_walk.h"
#include "util/hash.h"
#include "util/xalloc.h"

#include "util/banned.h"

/* ---- parse tree (its types: tmpl_walk.h) -------------------------------- */

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
		free(n); /* n->inc belongs to the render's cache */
	}
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

/* ---- parser ------------------------------------------------------------- */

static int parse_seq(struct parser *p, struct node **head, struct token *term);
static int parse_template(const struct parser *from, struct tmpl *t,
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

/* The formatter called name in the env's table, NULL for "raw" (always
 * as is) or a name the table lacks. */
static const struct tmpl_formatter *find_entry_fmt(const struct tmpl_env *env,
                                                   const char *name, size_t len)
{
	size_t i;

	if (tmpl_eq_ci(name, len, "raw"))
		return NULL;
	for (i = 0; i < env->nformatters; i++)
		if (env->formatters[i].name &&
		    tmpl_eq_ci(name, len, env->formatters[i].name))
			return &env->formatters[i];
	return NULL;
}

/* The formatter called name: "raw" first, then the env's table. */
static tmpl_fmt_fn find_fmt(const struct tmpl_env *env, const char *name,
                            size_t len)
{
	const struct tmpl_formatter *f;

	if (tmpl_eq_ci(name, len, "raw"))
		return fmt_raw;
	f = find_entry_fmt(env, name, len);
	return f ? f->fn : NULL;
}

/* The checks every tag of a kind needs, whatever its surroundings. */
static int check_tag(struct parser *p, struct token *t, int *level)
{
	struct span lv = t->attr[A_LEVEL];
	size_t i;

	if ((tmpl_allowed(t) & BIT(A_NAME)) && !t->attr[A_NAME].len)
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
		            tmpl_quoted(&p->scratch, lv.s, lv.len),
		            t->def->word, TMPL_MAX_DEPTH);
	return 0;
}

static int enter(struct parser *p, size_t off)
{
	if (p->depth >= TMPL_MAX_DEPTH)
		return PERR(p, off, "nesting deeper than %d", TMPL_MAX_DEPTH);
	p->depth++;
	if (p->depth > p->maxdepth)
		p->maxdepth = p->depth;
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
	tmpl_line_col(p->t->src, open->off, &line, &col);
	return PERR(p, term->off,
	            "'/TMPL_%s' does not close TMPL_%s opened at %u:%u",
	            term->def->word, open->def->word, line, col);
}

static struct cond *new_cond(const struct token *t, int negate)
{
	struct cond *c = xcalloc(1, sizeof(*c));

	c->name = span_dup(t->attr[A_NAME]);
	c->hash = tmpl_hash_name(c->name);
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
	n->hash = tmpl_hash_name(n->name);
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
	const struct tmpl_formatter *fe;

	n->kind = N_VAR;
	n->name = span_dup(t->attr[A_NAME]);
	n->hash = tmpl_hash_name(n->name);
	if (t->have & BIT(A_DEFAULT))
		n->dflt = span_dup(t->attr[A_DEFAULT]);
	if (!(t->have & BIT(A_FMT)))
		return 0;
	n->fmt = find_fmt(p->env, f.s, f.len);
	if (!n->fmt)
		return PERR(p, t->off, "unknown formatter %s",
		            tmpl_quoted(&p->scratch, f.s, f.len));
	fe = find_entry_fmt(p->env, f.s, f.len);
	if (fe && fe->scan && fe->col) {
		n->scan = fe->scan;
		n->col = fe->col;
	}
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
		return from ? tmpl_error_at(
		                  e, from->t, off,
		                  "cannot include %s: no template loader",
		                  tmpl_quoted(&from->scratch, t->name,
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
	return tmpl_error_at(e, from->t, off, "%s", le.msg);
}

/* Adds the expansion of t, met once more, to the render's budget. */
static int charge(struct parser *p, const struct tmpl *t)
{
	if (t->expand > TMPL_MAX_LOADED - *p->loaded)
		return err_set(p->e, ERR_INPUT,
		               "%s: templates of one render exceed %zu MiB",
		               t->name, TMPL_MAX_LOADED >> 20);
	*p->loaded += t->expand;
	return 0;
}

static int parse_include(struct parser *p, const struct token *t,
                         struct node *n)
{
	const struct chain *c;
	struct tmpl *inc;
	size_t before = *p->loaded;
	int fresh;

	n->kind = N_INCLUDE;
	n->name = span_dup(t->attr[A_NAME]);
	if (p->depth >= TMPL_MAX_DEPTH)
		return enter(p, t->off);
	for (c = p->chain; c; c = c->up)
		if (!strcmp(c->name, n->name))
			return cycle_error(p, t, n->name);
	n->inc = inc = tmpl_cache_get(p->cache, n->name, &fresh);
	if (!fresh) { /* parsed before (never on the chain: no cycle) */
		if (p->depth + 1 + inc->maxrel > TMPL_MAX_DEPTH)
			return PERR(p, t->off, "nesting deeper than %d",
			            TMPL_MAX_DEPTH);
	} else if (load_tmpl(p->env, inc, p, t->off, p->e) ||
	           parse_template(p, inc, p->chain, p->depth + 1, p->loaded,
	                          p->e)) {
		return -1;
	} else {
		inc->expand = *p->loaded - before;
	}
	if (p->depth + 1 + inc->maxrel > p->maxdepth)
		p->maxdepth = p->depth + 1 + inc->maxrel;
	return fresh ? 0 : charge(p, inc);
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
		if (tmpl_next_token(p, term))
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

/* Parses t at depth (nested in `from`'s include tag, or the template a
 * render was asked for when from has no template yet). */
static int parse_template(const struct parser *from, struct tmpl *t,
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
	p.env = from->env;
	p.e = e;
	p.t = t;
	p.chain = &link;
	p.depth = p.maxdepth = depth;
	p.loaded = loaded;
	p.cache = from->cache;
	strbuf_init(&p.scratch);
	if (parse_seq(&p, &t->root, &term))
		goto out;
	r = term.kind == T_EOF ? 0 : stray(&p, &term);
	t->maxrel = p.maxdepth - depth;
out:
	strbuf_release(&p.scratch);
	return r;
}

/* ---- the API ------------------------------------------------------------ */

static int parse_and_render(const struct tmpl_env *env, struct tmpl *t,
                            const struct tmpl_vars *vars, struct strbuf *out,
                            struct err *e)
{
	struct tmpl_cache cache;
	struct parser root;
	size_t loaded = 0;
	tmpl_fmt_fn dflt = env->default_fmt ? find_fmt(env, env->default_fmt,
	                                               strlen(env->default_fmt))
	                                    : fmt_raw;
	int r = -1;

	if (!dflt)
		return err_set(e, ERR_INTERNAL,
		               "unknown default formatter '%s'",
		               env->default_fmt);
	tmpl_cache_init(&cache, free_tmpl);
	memset(&root, 0, sizeof(root));
	root.env = env;
	root.cache = &cache;
	if (!parse_template(&root, t, NULL, 0, &loaded, e))
		r = tmpl_walk(t, vars, dflt, TMPL_MAX_OUTPUT, out, e);
	tmpl_cache_release(&cache);
	return r;
}

int tmpl_render(const struct tmpl_env *env, const char *name,
                const struct tmpl_vars *vars, struct strbuf *out, struct err *e)
{
	struct tmpl *t = tmpl_new(name);
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
	struct tmpl *t = tmpl_new(name);
	int r;

	t->src = text ? text : "";
	t->len = text ? len : 0;
	r = parse_and_render(env, t, vars, out, e);
	free_tmpl(t);
	return r;
}
