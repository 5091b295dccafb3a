/* Lexer for the template engine: splits a template into text runs and
 * TMPL_ tags with their attributes, skipping comments and line splices. */
#include "tmpl/tmpl_lex.h"

#include <string.h>

#include "tmpl/tmpl_internal.h"

#include "util/banned.h"

static const char *const attr_names[A_COUNT] = {"name", "value", "default",
                                                "fmt", "level"};

static const struct tag_def tags[] = {
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

static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

/* s (len bytes) equals the NUL-terminated word, ignoring ASCII case. */
int tmpl_eq_ci(const char *s, size_t len, const char *word)
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
	return n - i >= 5 && tmpl_eq_ci(s + i, 5, "tmpl_");
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
unsigned tmpl_allowed(const struct token *t)
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
		if (tmpl_eq_ci(name.s, name.len, attr_names[a]))
			break;
	if (a == A_COUNT || !(tmpl_allowed(t) & BIT(a)))
		return PERR(p, t->off, "unknown attribute %s in %sTMPL_%s",
		            tmpl_quoted(&p->scratch, name.s, name.len),
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
				    tmpl_quoted(&p->scratch, word.s, word.len),
				    t->def->word);
			if (lex_word(p, t, &val, &q))
				return -1;
			if (set_attr(p, t, word, val))
				return -1;
		} else if (first && (tmpl_allowed(t) & BIT(A_NAME))) {
			t->attr[A_NAME] = word;
			t->have |= BIT(A_NAME);
		} else {
			return PERR(p, t->off, "unexpected %s in %sTMPL_%s",
			            tmpl_quoted(&p->scratch, word.s, word.len),
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
		if (tmpl_eq_ci(s + w + 5, i - w - 5, tags[d].word))
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

int tmpl_next_token(struct parser *p, struct token *t)
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
