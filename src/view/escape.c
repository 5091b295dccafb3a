/* Output-context escaping for templates: one formatter per context, all
 * driven by the same UTF-8 walk so that invalid bytes are handled once. */
#include "view/escape.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/numfmt.h"
#include "util/utf8.h"

#include "util/banned.h"

#define REPLACEMENT "\xEF\xBF\xBD" /* U+FFFD in UTF-8 */

/* How one context rewrites characters: ascii() returns the replacement of
 * an ASCII byte or NULL to copy it (buf is scratch space of 16 bytes);
 * multi() does the same for a well-formed multi-byte sequence. */
struct context {
	const char *(*ascii)(unsigned c, char *buf);
	const char *(*multi)(const unsigned char *s, size_t k);
};

/* Copies s through cx, in runs between the characters that change. */
static void escape_with(struct strbuf *out, const char *s, size_t len,
                        const struct context *cx)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, run = 0, k;
	const char *rep;
	char buf[16];

	while (i < len) {
		k = 1;
		if (u[i] < 0x80) {
			rep = cx->ascii(u[i], buf);
		} else if ((k = utf8_seq_len(u + i, len - i)) != 0) {
			rep = cx->multi ? cx->multi(u + i, k) : NULL;
		} else {
			k = 1;
			rep = REPLACEMENT;
		}
		if (rep) {
			strbuf_add(out, s + run, i - run);
			strbuf_adds(out, rep);
			run = i + k;
		}
		i += k;
	}
	strbuf_add(out, s + run, len - run);
}

/* C0 controls other than TAB, LF and CR, and DEL: never useful in a page,
 * and some (NUL, ESC) confuse tools that read it. */
static int bad_control(unsigned c)
{
	return (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F;
}

static const char *html_ascii(unsigned c, char *buf)
{
	(void)buf;
	switch (c) {
	case '&':
		return "&amp;";
	case '<':
		return "&lt;";
	case '>':
		return "&gt;";
	case '"':
		return "&quot;";
	case '\'':
		return "&#39;";
	default:
		return bad_control(c) ? REPLACEMENT : NULL;
	}
}

static const struct context html_context = {html_ascii, NULL};

void escape_html(struct strbuf *out, const char *s, size_t len)
{
	escape_with(out, s, len, &html_context);
}

static int unreserved(unsigned c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
	       c == '~';
}

void escape_url(struct strbuf *out, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, k, j;

	while (i < len) {
		if (unreserved(u[i])) {
			strbuf_addch(out, u[i++]);
			continue;
		}
		k = u[i] < 0x80 ? 1 : utf8_seq_len(u + i, len - i);
		if (!k) {
			strbuf_adds(out, "%EF%BF%BD");
			i++;
			continue;
		}
		for (j = 0; j < k; j++)
			strbuf_addf(out, "%%%02X", u[i + j]);
		i += k;
	}
}

static int scheme_is(const char *s, size_t len, const char *want)
{
	size_t i;

	if (len != strlen(want))
		return 0;
	for (i = 0; i < len; i++)
		if ((s[i] | 0x20) != want[i])
			return 0;
	return 1;
}

/* A URL is relative when no ':' comes before the first '/', '?' or '#'
 * (that is how browsers find a scheme); otherwise its scheme must be one of
 * the safe ones, spelled exactly: " javascript:" or "java\tscript:" are not
 * "http", so they are refused rather than second-guessed. */
static int href_allowed(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (s[i] == '/' || s[i] == '?' || s[i] == '#')
			return 1;
		if (s[i] == ':')
			return scheme_is(s, i, "http") ||
			       scheme_is(s, i, "https") ||
			       scheme_is(s, i, "mailto");
	}
	return 1;
}

void escape_href(struct strbuf *out, const char *s, size_t len)
{
	if (href_allowed(s, len))
		escape_html(out, s, len);
	else
		strbuf_addch(out, '#');
}

void escape_mdurl(struct strbuf *out, const char *s, size_t len)
{
	size_t i;

	if (!href_allowed(s, len)) {
		strbuf_addch(out, '#');
		return;
	}
	/* inside "[text](...)": what would end the destination, open a
	 * title or become markup is percent-encoded */
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c <= ' ' || c == 0x7F || strchr("()<>\\\"'`|", c))
			strbuf_addf(out, "%%%02X", c);
		else
			strbuf_addch(out, (char)c);
	}
}

/* \uXXXX rather than \' or \/ so the result is valid JSON as well as JS;
 * < > & as \u escapes so "</script>" and "<!--" cannot appear. */
static const char *js_ascii(unsigned c, char *buf)
{
	if (c == '\\')
		return "\\\\";
	if (c == '"')
		return "\\\"";
	if (c < 0x20 || c == 0x7F || c == '\'' || c == '<' || c == '>' ||
	    c == '&') {
		snprintf(buf, 16, "\\u%04x", c);
		return buf;
	}
	return NULL;
}

/* U+2028 and U+2029 end a line in JS source (before ES2019). */
static const char *js_multi(const unsigned char *s, size_t k)
{
	if (k == 3 && s[0] == 0xE2 && s[1] == 0x80 && s[2] == 0xA8)
		return "\\u2028";
	if (k == 3 && s[0] == 0xE2 && s[1] == 0x80 && s[2] == 0xA9)
		return "\\u2029";
	return NULL;
}

static const struct context js_context = {js_ascii, js_multi};

void escape_js(struct strbuf *out, const char *s, size_t len)
{
	escape_with(out, s, len, &js_context);
}

/* < > & become entities, not backslash escapes: "\&lt;" would show the
 * entity text, and a renderer that ignores backslashes still gets no tag.
 * '~' is escaped too (GFM strikethrough). */
static const char *md_ascii(unsigned c, char *buf)
{
	if (c == '<')
		return "&lt;";
	if (c == '>')
		return "&gt;";
	if (c == '&')
		return "&amp;";
	if (c == '\n' || c == '\r')
		return " ";
	if (c != '\t' && bad_control(c))
		return REPLACEMENT;
	if (c && strchr("\\`*_{}[]()#+-!|~", (int)c)) {
		buf[0] = '\\';
		buf[1] = (char)c;
		buf[2] = '\0';
		return buf;
	}
	return NULL;
}

static const struct context md_context = {md_ascii, NULL};

void escape_md(struct strbuf *out, const char *s, size_t len)
{
	escape_with(out, s, len, &md_context);
}

static void fmt_raw(struct strbuf *out, const char *s, size_t len)
{
	strbuf_add(out, s, len);
}

/* The inside of a <style> element, which only "</style" ends: every "</"
 * becomes "<\/". Valid CSS has "</" only in strings and comments, where
 * "\/" reads as "/" (CSS escapes) or is comment text; a stylesheet that
 * tries to close the element and open markup stays CSS. */
void escape_css(struct strbuf *out, const char *s, size_t len)
{
	size_t i, run = 0;

	for (i = 0; i + 1 < len; i++)
		if (s[i] == '<' && s[i + 1] == '/') {
			strbuf_add_utf8_valid(out, s + run, i + 1 - run);
			strbuf_addch(out, '\\');
			run = i + 1;
		}
	strbuf_add_utf8_valid(out, s + run, len - run);
}

/* A Markdown fenced code block holding the text as it is: the fence is
 * one backtick longer than the longest run of backticks in the text (at
 * least three), so no line of the text can close it; control characters
 * but newline and tab become U+FFFD, as invalid UTF-8 does. */
void escape_mdcode(struct strbuf *out, const char *s, size_t len)
{
	size_t i, run = 0, longest = 0, start = 0, fence;

	for (i = 0; i < len; i++) {
		run = s[i] == '`' ? run + 1 : 0;
		longest = run > longest ? run : longest;
	}
	fence = longest >= 3 ? longest + 1 : 3;
	strbuf_addchars(out, '`', fence);
	strbuf_addch(out, '\n');
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((c >= 0x20 && c != 0x7f) || c == '\n' || c == '\t')
			continue;
		strbuf_add_utf8_valid(out, s + start, i - start);
		strbuf_adds(out, "\xEF\xBF\xBD");
		start = i + 1;
	}
	strbuf_add_utf8_valid(out, s + start, len - start);
	if (!len || s[len - 1] != '\n')
		strbuf_addch(out, '\n');
	strbuf_addchars(out, '`', fence);
}

/* ---- numbers ------------------------------------------------------------ */

/* A decimal number: sign, digits, point, exponent only (no "inf", "nan",
 * hex or spaces, which strtod would take). */
static int parse_double(const char *s, size_t len, double *d)
{
	char buf[64], *end;
	size_t i;

	if (!len || len >= sizeof(buf))
		return 0;
	for (i = 0; i < len; i++)
		if (!s[i] || !strchr("0123456789+-.eE", s[i]))
			return 0;
	memcpy(buf, s, len);
	buf[len] = '\0';
	*d = strtod(buf, &end);
	return end == buf + len && isfinite(*d);
}

/* An integer, exactly when written as one (beyond 2^53 a double would
 * round), else the nearest integer to a decimal number. */
static int parse_int(const char *s, size_t len, int64_t *v)
{
	char buf[64], *end;
	double d;
	long long ll;

	if (!parse_double(s, len, &d))
		return 0;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	ll = strtoll(buf, &end, 10);
	if (end == buf + len && errno == 0) {
		*v = (int64_t)ll;
		return 1;
	}
	if (!(d > -9.2e18 && d < 9.2e18))
		return 0;
	*v = (int64_t)(d < 0 ? d - 0.5 : d + 0.5);
	return 1;
}

static void fmt_int(struct strbuf *out, const char *s, size_t len)
{
	int64_t v;

	if (!parse_int(s, len, &v)) {
		escape_html(out, s, len);
		return;
	}
	if (v < 0)
		strbuf_addch(out, '-');
	numfmt_count(out, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v);
}

/* Fixed decimals; a result that rounds to zero loses its sign ("-0.0"
 * would only puzzle a reader). */
static void fixed(struct strbuf *out, const char *s, size_t len, int prec,
                  const char *suffix)
{
	char buf[512];
	double d;
	int n;

	if (!parse_double(s, len, &d)) {
		escape_html(out, s, len);
		return;
	}
	n = snprintf(buf, sizeof(buf), "%.*f", prec, d);
	if (n < 0 || (size_t)n >= sizeof(buf)) {
		escape_html(out, s, len);
		return;
	}
	if (buf[0] == '-' && strspn(buf + 1, "0.") == (size_t)n - 1)
		strbuf_add(out, buf + 1, (size_t)n - 1);
	else
		strbuf_add(out, buf, (size_t)n);
	strbuf_adds(out, suffix);
}

static void fmt_f1(struct strbuf *out, const char *s, size_t len)
{
	fixed(out, s, len, 1, "");
}

static void fmt_f2(struct strbuf *out, const char *s, size_t len)
{
	fixed(out, s, len, 2, "");
}

static void fmt_f3(struct strbuf *out, const char *s, size_t len)
{
	fixed(out, s, len, 3, "");
}

static void fmt_pct1(struct strbuf *out, const char *s, size_t len)
{
	fixed(out, s, len, 1, "%");
}

static void fmt_dur(struct strbuf *out, const char *s, size_t len)
{
	int64_t v;

	if (parse_int(s, len, &v))
		numfmt_duration(out, v);
	else
		escape_html(out, s, len);
}

static void fmt_us(struct strbuf *out, const char *s, size_t len)
{
	int64_t v;

	if (parse_int(s, len, &v))
		numfmt_us(out, v);
	else
		escape_html(out, s, len);
}

/* A file path in HTML text: escaped, with a break opportunity (<wbr>)
 * after each '/' so that a narrow column breaks it between folders, not
 * inside a file name. */
static void fmt_path(struct strbuf *out, const char *s, size_t len)
{
	size_t i, from = 0;

	for (i = 0; i < len; i++) {
		if (s[i] != '/')
			continue;
		escape_html(out, s + from, i + 1 - from);
		strbuf_adds(out, "<wbr>");
		from = i + 1;
	}
	escape_html(out, s + from, len - from);
}

static const struct tmpl_formatter formatters[] = {
    {"html", escape_html}, {"url", escape_url},
    {"href", escape_href}, {"js", escape_js},
    {"md", escape_md},     {"raw", fmt_raw},
    {"int", fmt_int},      {"f1", fmt_f1},
    {"f2", fmt_f2},        {"f3", fmt_f3},
    {"pct1", fmt_pct1},    {"dur", fmt_dur},
    {"us", fmt_us},        {"mdurl", escape_mdurl},
    {"css", escape_css},   {"mdcode", escape_mdcode},
    {"path", fmt_path},
};

const struct tmpl_formatter *escape_formatters(size_t *n)
{
	*n = sizeof(formatters) / sizeof(formatters[0]);
	return formatters;
}
