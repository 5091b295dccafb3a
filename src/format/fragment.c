/* The wiki fragment's stylesheet and the rewriting of its markup for a
 * host page (contract in fragment.h). The markup is sdperf's own, rendered
 * by its templates with every value escaped: a tag scanner is enough. */
#include "format/fragment.h"

#include <string.h>
#include <strings.h>

#include "util/cssscope.h"
#include "util/banned.h"

int fragment_css(const char *reset, const char *sheet, struct strbuf *css,
                 struct err *e)
{
	reset = reset ? reset : "";
	sheet = sheet ? sheet : "";
	if (css_scope(reset, strlen(reset), FRAGMENT_ROOT, "fragment.css", css,
	              e))
		return -1;
	return css_scope(sheet, strlen(sheet), FRAGMENT_ROOT, "report.css", css,
	                 e);
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

int fragment_is_one(const char *html)
{
	static const char root[] = "<div class=\"sdperf-report\"";

	while (is_space(*html))
		html++;
	return !strncmp(html, root, sizeof(root) - 1);
}

static int is_name_char(char c)
{
	return c && !is_space(c) && c != '=' && c != '>' && c != '/' &&
	       c != '"' && c != '\'';
}

static int name_is(const char *s, size_t n, const char *want)
{
	return strlen(want) == n && !strncasecmp(s, want, n);
}

static int starts_with(const char *s, size_t n, const char *p)
{
	size_t k = strlen(p);
	return n >= k && !strncasecmp(s, p, k);
}

/* What becomes of an attribute's value. */
enum attr_kind { A_KEEP, A_ID, A_IDREFS, A_HREF, A_SRC };

static enum attr_kind attr_kind(const char *name, size_t n)
{
	static const char *const idrefs[] = {"headers", "aria-labelledby",
	                                     "aria-describedby",
	                                     "aria-controls", "aria-owns"};
	size_t k;

	if (name_is(name, n, "id") || name_is(name, n, "for"))
		return A_ID;
	for (k = 0; k < sizeof(idrefs) / sizeof(*idrefs); k++)
		if (name_is(name, n, idrefs[k]))
			return A_IDREFS;
	if (name_is(name, n, "href") || name_is(name, n, "xlink:href"))
		return A_HREF;
	if (name_is(name, n, "src"))
		return A_SRC;
	return A_KEEP;
}

static int absolute_url(const char *v, size_t n, int src)
{
	return starts_with(v, n, "https://") || starts_with(v, n, "http://") ||
	       (!src && starts_with(v, n, "mailto:")) ||
	       (src && starts_with(v, n, "data:"));
}

/* v[0..n) with each reference to an id of the fragment, url(#x) (an SVG
 * fill or a style), as url(#PREFIXx). */
static void add_local_urls(struct strbuf *out, const char *v, size_t n)
{
	static const char url[] = "url(#";
	size_t i = 0, k = sizeof(url) - 1;

	while (i < n) {
		if (n - i >= k && !strncasecmp(v + i, url, k)) {
			strbuf_add(out, v + i, k);
			strbuf_adds(out, FRAGMENT_ID_PREFIX);
			i += k;
		} else {
			strbuf_addch(out, v[i++]);
		}
	}
}

/* The value v[0..n) of an attribute of kind k, rewritten, into out. */
static void add_value(struct strbuf *out, enum attr_kind k, const char *v,
                      size_t n)
{
	size_t i = 0, j;

	switch (k) {
	case A_ID:
		strbuf_adds(out, FRAGMENT_ID_PREFIX);
		strbuf_add(out, v, n);
		break;
	case A_IDREFS:
		while (i < n) {
			for (j = i; j < n && !is_space(v[j]); j++)
				;
			if (j > i) {
				strbuf_adds(out, FRAGMENT_ID_PREFIX);
				strbuf_add(out, v + i, j - i);
			}
			for (i = j; i < n && is_space(v[i]); i++)
				strbuf_addch(out, v[i]);
		}
		break;
	case A_HREF:
	case A_SRC:
	case A_KEEP:
		if (k == A_HREF && n > 1 && v[0] == '#') {
			strbuf_addch(out, '#');
			strbuf_adds(out, FRAGMENT_ID_PREFIX);
			strbuf_add(out, v + 1, n - 1);
			break;
		}
		add_local_urls(out, v, n);
		break;
	}
}

/* The attribute at s[i..n) (its name first) into out; returns the index
 * past it. */
static size_t rewrite_attr(const char *s, size_t n, size_t i,
                           struct strbuf *out)
{
	size_t name = i, name_end, v = 0, v_end = 0, end;
	enum attr_kind k;
	char q = 0;

	while (i < n && is_name_char(s[i]))
		i++;
	name_end = i;
	if (name_end == name) { /* a stray character: as it is */
		strbuf_addch(out, s[i]);
		return i + 1;
	}
	end = i;
	while (i < n && is_space(s[i]))
		i++;
	if (i < n && s[i] == '=') {
		for (i++; i < n && is_space(s[i]); i++)
			;
		if (i < n && (s[i] == '"' || s[i] == '\'')) {
			q = s[i++];
			v = i;
			while (i < n && s[i] != q)
				i++;
			v_end = i;
			end = i < n ? i + 1 : n;
		} else {
			v = i;
			while (i < n && !is_space(s[i]) && s[i] != '>')
				i++;
			v_end = end = i;
		}
	} else {
		strbuf_add(out, s + name, end - name);
		return end;
	}
	k = attr_kind(s + name, name_end - name);
	if ((k == A_HREF || k == A_SRC) && !(k == A_HREF && s[v] == '#') &&
	    !absolute_url(s + v, v_end - v, k == A_SRC)) {
		/* a relative link: gone, with the space before it */
		while (out->len && is_space(out->buf[out->len - 1]))
			out->len--;
		out->buf[out->len] = '\0';
		return end;
	}
	strbuf_add(out, s + name, name_end - name);
	strbuf_addch(out, '=');
	if (q)
		strbuf_addch(out, q);
	add_value(out, k, s + v, v_end - v);
	if (q)
		strbuf_addch(out, q);
	return end;
}

/* The start tag at s[i] ('<' then a letter) into out, rewritten; returns
 * the index past its '>'. *raw is set when the element's content is text
 * (style, script). */
static size_t rewrite_tag(const char *s, size_t n, size_t i, struct strbuf *out,
                          int *raw)
{
	size_t name = i + 1;

	for (i = name; i < n && is_name_char(s[i]); i++)
		;
	*raw = name_is(s + name, i - name, "style") ||
	       name_is(s + name, i - name, "script");
	strbuf_add(out, s + name - 1, i - name + 1);
	while (i < n && s[i] != '>') {
		if (is_space(s[i]) || s[i] == '/')
			strbuf_addch(out, s[i++]);
		else
			i = rewrite_attr(s, n, i, out);
	}
	if (i < n)
		strbuf_addch(out, s[i++]);
	return i;
}

/* Index of "</name" (any case) from i, or n. */
static size_t find_close(const char *s, size_t n, size_t i, const char *name)
{
	size_t k = strlen(name);

	for (; i + 2 + k <= n; i++)
		if (s[i] == '<' && s[i + 1] == '/' &&
		    !strncasecmp(s + i + 2, name, k))
			return i;
	return n;
}

void fragment_rewrite(struct strbuf *html, size_t start)
{
	struct strbuf out = STRBUF_INIT;
	const char *s = html->buf + start, *p;
	size_t n = html->len - start, i = 0, j;
	int raw;

	if (!html->buf)
		return;
	while (i < n) {
		if (s[i] != '<') {
			p = memchr(s + i, '<', n - i);
			j = p ? (size_t)(p - s) : n;
			strbuf_add(&out, s + i, j - i);
			i = j;
		} else if (starts_with(s + i, n - i, "<!--")) {
			p = strstr(s + i + 4, "-->");
			j = p ? (size_t)(p - s) + 3 : n;
			strbuf_add(&out, s + i, j - i);
			i = j;
		} else if (i + 1 < n && ((s[i + 1] | 0x20) >= 'a' &&
		                         (s[i + 1] | 0x20) <= 'z')) {
			j = i;
			i = rewrite_tag(s, n, i, &out, &raw);
			if (raw) {
				size_t name_len = strcspn(s + j + 1, " \t\n>/");
				char name[8] = {0};
				memcpy(name, s + j + 1,
				       name_len < 7 ? name_len : 7);
				j = find_close(s, n, i, name);
				strbuf_add(&out, s + i, j - i);
				i = j;
			}
		} else {
			strbuf_addch(&out, s[i++]);
		}
	}
	html->len = start;
	html->buf[start] = '\0';
	strbuf_addbuf(html, &out);
	strbuf_release(&out);
}
