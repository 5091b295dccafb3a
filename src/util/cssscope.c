/* Scoping a stylesheet under one root selector (contract in cssscope.h).
 * The scanner knows of CSS what decides where a selector or a block ends:
 * comments, strings, escapes, brackets and parentheses (so that the ',' of
 * `:not(a, b)`, the '}' in `content: "}"` and the '+' of `:nth-child(2n+1)`
 * are not taken for structure). */
#include "util/cssscope.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "util/banned.h"

#define CSS_MAX_DEPTH 16
#define PX_PER_REM    16

struct css_scan {
	const char *s;
	size_t n;
	const char *root, *name;
	struct err *e;
};

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

static int is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '_' ||
	       (unsigned char)c >= 0x80;
}

/* 1-based line of offset i, for messages */
static size_t line_of(const struct css_scan *sc, size_t i)
{
	size_t line = 1, k;

	for (k = 0; k < i && k < sc->n; k++)
		line += sc->s[k] == '\n';
	return line;
}

static int fail(const struct css_scan *sc, size_t at, const char *what)
{
	return err_set(sc->e, ERR_INPUT, "%s:%zu: %s", sc->name,
	               line_of(sc, at), what);
}

/* Index just past the comment, string or escape that starts at i in
 * s[0..n), or i when none starts there. An unclosed comment or string
 * runs to n, as CSS reads it. */
static size_t skip_atom(const char *s, size_t n, size_t i)
{
	if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
		for (i += 2; i + 1 < n; i++)
			if (s[i] == '*' && s[i + 1] == '/')
				return i + 2;
		return n;
	}
	if (s[i] == '"' || s[i] == '\'') {
		char q = s[i];
		/* an unescaped newline ends it, as a browser ends a bad
		 * string: what follows is structure again */
		for (i++; i < n && s[i] != q; i++) {
			if (s[i] == '\n' || s[i] == '\r' || s[i] == '\f')
				return i;
			if (s[i] == '\\' && i + 1 < n)
				i++;
		}
		return i < n ? i + 1 : n;
	}
	if ((i == 0 || !is_ident(s[i - 1])) && i + 4 <= n &&
	    !strncasecmp(s + i, "url(", 4)) {
		size_t j = i + 4;
		while (j < n && is_space(s[j]))
			j++;
		if (j < n && s[j] != '"' && s[j] != '\'') {
			/* an unquoted url runs to its ')' whatever quotes or
			 * braces it holds (a bad url too), as a browser reads
			 * it */
			for (; j < n && s[j] != ')'; j++)
				if (s[j] == '\\' && j + 1 < n)
					j++;
			return j < n ? j + 1 : n;
		}
	}
	if (s[i] == '\\' && i + 1 < n)
		return i + 2;
	return i;
}

/* First index from i in s[0..n) of a character in stops outside any
 * comment, string, () or [], or n. */
static size_t find_top(const char *s, size_t n, size_t i, const char *stops)
{
	int depth = 0;
	size_t j;

	while (i < n) {
		j = skip_atom(s, n, i);
		if (j != i) {
			i = j;
			continue;
		}
		if (!depth && s[i] && strchr(stops, s[i]))
			return i;
		if (s[i] == '(' || s[i] == '[')
			depth++;
		else if ((s[i] == ')' || s[i] == ']') && depth > 0)
			depth--;
		i++;
	}
	return n;
}

/* Index of the '}' that closes the block whose '{' is just before i, or
 * n when it is not closed. */
static size_t block_end(const char *s, size_t n, size_t i)
{
	int depth = 1;
	size_t j;

	while (i < n) {
		j = skip_atom(s, n, i);
		if (j != i) {
			i = j;
			continue;
		}
		if (s[i] == '{')
			depth++;
		else if (s[i] == '}' && --depth == 0)
			return i;
		i++;
	}
	return n;
}

/* Cuts out back to its first len bytes. */
static void cut(struct strbuf *out, size_t len)
{
	if (out->buf && len < out->len) {
		out->len = len;
		out->buf[len] = '\0';
	}
}

/* s[0..n) without comments (each one space) and trimmed, into out. */
static void add_clean(struct strbuf *out, const char *s, size_t n)
{
	size_t i = 0, j, start = out->len;

	while (i < n) {
		j = skip_atom(s, n, i);
		if (j != i && s[i] == '/') {
			strbuf_addch(out, ' ');
		} else if (j != i) {
			strbuf_add(out, s + i, j - i);
		} else {
			strbuf_addch(out, s[i]);
			j = i + 1;
		}
		i = j;
	}
	if (!out->buf)
		return;
	while (out->len > start && is_space(out->buf[out->len - 1]))
		out->len--;
	out->buf[out->len] = '\0';
	for (i = start; i < out->len && is_space(out->buf[i]); i++)
		;
	memmove(out->buf + start, out->buf + i, out->len - i + 1);
	out->len -= i - start;
}

/* Length of the page-itself type that starts selector s (":root", "html",
 * "body", ASCII case aside for the last two), or 0. */
static size_t page_type_len(const char *s)
{
	static const char *const names[] = {":root", "html", "body"};
	size_t k, len;

	for (k = 0; k < sizeof(names) / sizeof(*names); k++) {
		len = strlen(names[k]);
		if (!strncasecmp(s, names[k], len) && !is_ident(s[len]))
			return len;
	}
	return 0;
}

/* One selector sel (clean, non-empty) scoped into out; 0 when it would
 * reach outside the root (dropped: nothing written). */
static int scope_one(const struct css_scan *sc, const char *sel,
                     struct strbuf *out)
{
	struct strbuf suffix = STRBUF_INIT;
	const char *rest = sel, *after;
	size_t k, end, len = strlen(sel);
	int mapped = 0, ok = 1;

	while ((k = page_type_len(rest)) != 0) {
		end = find_top(rest, strlen(rest), k, " \t\n\r\f>+~");
		strbuf_add(&suffix, rest + k, end - k);
		mapped = 1;
		after = rest + end;
		while (is_space(*after))
			after++;
		if (*after == '>') /* html > body */
			for (after++; is_space(*after); after++)
				;
		if (*after && *after != '+' && *after != '~' &&
		    page_type_len(after)) {
			rest = after;
			continue;
		}
		rest += end;
		break;
	}
	while (is_space(*rest))
		rest++;
	if (*rest == '+' || *rest == '~')
		/* a sibling of the page, or (a selector that starts with the
		 * combinator) of the root: outside it either way */
		ok = 0;
	else if (mapped)
		strbuf_addf(out, "%s%s%s%s", sc->root,
		            suffix.buf ? suffix.buf : "", *rest ? " " : "",
		            rest);
	else
		strbuf_addf(out, "%s %.*s", sc->root, (int)len, sel);
	strbuf_release(&suffix);
	return ok;
}

/* The selector list s[0..n) scoped into out; 0 when every selector was
 * dropped (nothing written), -1 on an empty selector. */
static int scope_list(const struct css_scan *sc, size_t at, const char *s,
                      size_t n, struct strbuf *out)
{
	struct strbuf one = STRBUF_INIT;
	size_t i = 0, comma, mark;
	int wrote = 0, ret = 0;

	while (i <= n) {
		comma = find_top(s, n, i, ",");
		strbuf_reset(&one);
		add_clean(&one, s + i, comma - i);
		if (!one.len) {
			ret = fail(sc, at, "empty selector in a selector list");
			goto out;
		}
		mark = out->len;
		if (wrote)
			strbuf_adds(out, ", ");
		if (scope_one(sc, one.buf, out))
			wrote = 1;
		else
			cut(out, mark);
		i = comma + 1;
	}
	ret = wrote;
out:
	strbuf_release(&one);
	return ret;
}

/* Digits "12", "1.5" or ".85" at s[i..n) as thousandths; the index past
 * them in *end, or i when there is no such number. */
static uint64_t read_number(const char *s, size_t n, size_t i, size_t *end)
{
	uint64_t v = 0;
	int dec = -1;

	*end = i;
	for (; i < n &&
	       ((s[i] >= '0' && s[i] <= '9') || (s[i] == '.' && dec < 0));
	     i++) {
		if (s[i] == '.') {
			if (i + 1 >= n || s[i + 1] < '0' || s[i + 1] > '9')
				break;
			dec = 0;
			continue;
		}
		if (v > UINT64_MAX / 100 || dec >= 3)
			return 0; /* past what a stylesheet means: left alone */
		v = v * 10 + (uint64_t)(s[i] - '0');
		dec += dec >= 0;
	}
	for (dec = dec < 0 ? 0 : dec; dec < 3; dec++)
		v *= 10;
	*end = i;
	return v;
}

/* 1 when a number may start at s[i]: not inside a name ("h1", "#f5f7fa")
 * but after a sign ("-1rem"). */
static int number_may_start(const char *s, size_t i)
{
	if (i == 0)
		return 1;
	if (s[i - 1] == '-')
		return i < 2 || !is_ident(s[i - 2]);
	return !is_ident(s[i - 1]) && s[i - 1] != '#';
}

/* The declarations s[0..n) into out, each length in rem in px. A rule
 * nested in them (CSS nesting: `a { body:has(&) * {...} }`) is dropped
 * with its selector: its selector is not scoped, and `&` lets it reach
 * anywhere on the host page. */
static void add_declarations(const char *s, size_t n, struct strbuf *out)
{
	size_t i = 0, j, num_end, decl = out->len;
	uint64_t v;

	while (i < n) {
		j = skip_atom(s, n, i);
		if (j != i) {
			if (s[i] != '/')
				strbuf_add(out, s + i, j - i);
			i = j;
			continue;
		}
		if (s[i] == '{' || s[i] == '}') {
			cut(out, decl); /* the nested rule's selector */
			i = s[i] == '{' ? block_end(s, n, i + 1) + 1 : i + 1;
			decl = out->len;
			continue;
		}
		if (s[i] == ';') {
			strbuf_addch(out, s[i++]);
			decl = out->len;
			continue;
		}
		v = 0;
		num_end = i;
		if (number_may_start(s, i))
			v = read_number(s, n, i, &num_end);
		if (num_end > i && num_end + 3 <= n &&
		    !strncasecmp(s + num_end, "rem", 3) &&
		    (num_end + 3 == n || !is_ident(s[num_end + 3]))) {
			v *= PX_PER_REM;
			strbuf_addf(out, "%llu",
			            (unsigned long long)(v / 1000));
			if (v % 1000) {
				char frac[8];
				int k = snprintf(frac, sizeof(frac), "%03u",
				                 (unsigned)(v % 1000));
				while (k > 0 && frac[k - 1] == '0')
					frac[--k] = '\0';
				strbuf_addf(out, ".%s", frac);
			}
			strbuf_adds(out, "px");
			i = num_end + 3;
		} else if (num_end > i) {
			strbuf_add(out, s + i, num_end - i);
			i = num_end;
		} else {
			strbuf_addch(out, s[i++]);
		}
	}
}

enum at_kind { AT_DROP, AT_NEST, AT_KEEP };

static enum at_kind at_kind(const char *name, size_t len)
{
	static const char *const nest[] = {"media", "supports", "container",
	                                   "layer"};
	static const char *const keep[] = {
	    "font-face", "keyframes",     "-webkit-keyframes",
	    "property",  "counter-style", "font-feature-values"};
	size_t k;

	for (k = 0; k < sizeof(nest) / sizeof(*nest); k++)
		if (strlen(nest[k]) == len && !strncasecmp(name, nest[k], len))
			return AT_NEST;
	for (k = 0; k < sizeof(keep) / sizeof(*keep); k++)
		if (strlen(keep[k]) == len && !strncasecmp(name, keep[k], len))
			return AT_KEEP;
	return AT_DROP;
}

static int scope_rules(const struct css_scan *sc, size_t i, size_t to,
                       int depth, struct strbuf *out);

/* The at-rule at s[i] (its '@'); *next gets the index past it. */
static int scope_at_rule(const struct css_scan *sc, size_t i, size_t to,
                         int depth, struct strbuf *out, size_t *next)
{
	const char *s = sc->s;
	size_t name = i + 1, name_end = name, open, close;

	while (name_end < to && is_ident(s[name_end]))
		name_end++;
	open = find_top(s, to, i, "{;}");
	if (open >= to || s[open] != '{') {
		/* a statement (@import, @charset): the host's business */
		*next = open < to && s[open] == ';' ? open + 1 : open;
		return 0;
	}
	close = block_end(s, to, open + 1);
	if (close >= to)
		return fail(sc, open, "block not closed");
	*next = close + 1;
	switch (at_kind(s + name, name_end - name)) {
	case AT_NEST:
		if (depth >= CSS_MAX_DEPTH)
			return fail(sc, open, "blocks nested too deep");
		strbuf_addch(out, '@');
		add_clean(out, s + name, open - name);
		strbuf_adds(out, " {\n");
		if (scope_rules(sc, open + 1, close, depth + 1, out))
			return -1;
		strbuf_adds(out, "}\n");
		break;
	case AT_KEEP:
		strbuf_add(out, s + i, close + 1 - i);
		strbuf_addch(out, '\n');
		break;
	case AT_DROP:
		break;
	}
	return 0;
}

/* The rules in s[i..to) scoped into out. */
static int scope_rules(const struct css_scan *sc, size_t i, size_t to,
                       int depth, struct strbuf *out)
{
	const char *s = sc->s;
	size_t j, open, close, mark;
	int r;

	while (i < to) {
		j = skip_atom(s, to, i);
		if (j != i || is_space(s[i])) {
			i = j != i ? j : i + 1;
			continue;
		}
		if (s[i] == '}')
			return fail(sc, i, "'}' closes no block");
		if (s[i] == '@') {
			if (scope_at_rule(sc, i, to, depth, out, &i))
				return -1;
			continue;
		}
		open = find_top(s, to, i, "{;}");
		if (open >= to || s[open] != '{')
			return fail(sc, i, "selector without a block");
		close = block_end(s, to, open + 1);
		if (close >= to)
			return fail(sc, open, "block not closed");
		mark = out->len;
		r = scope_list(sc, i, s + i, open - i, out);
		if (r < 0)
			return -1;
		if (r) {
			strbuf_adds(out, " {");
			add_declarations(s + open + 1, close - open - 1, out);
			strbuf_adds(out, "}\n");
		} else {
			cut(out, mark);
		}
		i = close + 1;
	}
	return 0;
}

int css_scope(const char *css, size_t len, const char *root, const char *name,
              struct strbuf *out, struct err *e)
{
	struct css_scan sc = {css, len, root, name, e};

	strbuf_grow(out, len + len / 4);
	return scope_rules(&sc, 0, len, 0, out);
}
