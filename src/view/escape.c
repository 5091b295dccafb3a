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

/* A bidirectional formatting character from the data would reorder the
 * page's text around it (a kernel name that reads backwards, a spoofed
 * header line): it is shown as \\uNNNN, as the terminal shows it. */
static const struct context html_context = {html_ascii, utf8_bidi_shown};

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

/* ---- Markdown ------------------------------------------------------------
 *
 * CommonMark with GFM tables. Readable source matters as much as the
 * rendering (tickets show it raw), so only what would change the rendering
 * gets a backslash: a backslash is printed by no renderer, an entity by
 * some (Jira shows "&gt;"), so entities are never written.
 *   anywhere: | (ends a table cell), < (HTML, autolinks), ` (code spans),
 *     * [ ] ~ (emphasis, links, images, strikethrough), & when an entity
 *     follows ("&amp;"), \ before punctuation or at the end (it would
 *     escape what follows);
 *   _ unless after a letter or digit: such an _ can close emphasis but not
 *     open it, and every opener is escaped ("step_trace_" stays, "_x_"
 *     does not);
 *   at the start of the value, when it starts a block (the text before
 *     it on its line in out is blanks and list or quote markers only: a
 *     line, a list item's or a quote's text; not a table cell, not after
 *     other text): # and >, a - + = followed by a space, the end or itself
 *     (list items, rules, setext underlines), and the . or ) after digits
 *     ("1. ").
 * Newlines become spaces, so nothing else starts a line. */
static int md_word(unsigned char c)
{
	return c >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z');
}

static int md_punct(unsigned char c)
{
	return c > ' ' && c < 0x7F && !md_word(c);
}

static int md_blank(const unsigned char *u, size_t len, size_t i)
{
	return i >= len || u[i] == ' ' || u[i] == '\t';
}

/* "&name;" or "&#123;": a renderer would decode it */
static int md_entity(const unsigned char *u, size_t len, size_t i)
{
	size_t j = i + 1, k;

	if (j < len && u[j] == '#')
		j++;
	for (k = j; k < len && md_word(u[k]) && u[k] < 0x80; k++)
		;
	return k > j && k < len && u[k] == ';';
}

/* The index of the character that would make the value's start a block
 * marker, or len when there is none. */
static size_t md_marker(const unsigned char *u, size_t len)
{
	size_t i = 0, d;

	while (i < len && (u[i] == ' ' || u[i] == '\t'))
		i++;
	if (i == len)
		return len;
	if (u[i] == '#' || u[i] == '>')
		return i;
	if (strchr("-+=", u[i]) &&
	    (md_blank(u, len, i + 1) || u[i + 1] == u[i]))
		return i;
	for (d = i; d < len && u[d] >= '0' && u[d] <= '9'; d++)
		;
	if (d > i && d < len && (u[d] == '.' || u[d] == ')') &&
	    md_blank(u, len, d + 1))
		return d;
	return len;
}

/* Whether text appended to out starts a block: the line so far (after
 * out's last newline) holds only blanks and container markers ("- ", "+ ",
 * "* ", "1. ", "1) ", ">"). A table row ("| a | ") or any other text on the
 * line makes it inline text, where no block marker is read. */
static int md_block_start(const struct strbuf *out)
{
	const char *p = out->buf, *end, *q;

	if (!out->len) /* an empty strbuf may have no buffer at all */
		return 1;
	end = p + out->len;
	for (q = end; q > p && q[-1] != '\n'; q--)
		;
	p = q;
	while (p < end) {
		if (*p == ' ' || *p == '\t' || *p == '>') {
			p++;
			continue;
		}
		if (*p && strchr("-+*", *p) && p + 1 < end &&
		    (p[1] == ' ' || p[1] == '\t')) {
			p += 2;
			continue;
		}
		for (q = p; q < end && *q >= '0' && *q <= '9'; q++)
			;
		if (q > p && q + 1 < end && (*q == '.' || *q == ')') &&
		    (q[1] == ' ' || q[1] == '\t')) {
			p = q + 2;
			continue;
		}
		return 0;
	}
	return 1;
}

static int md_escaped(const unsigned char *u, size_t len, size_t i, size_t mark)
{
	unsigned c = u[i];

	if (i == mark || strchr("|<`*[]~", (int)c))
		return 1;
	if (c == '&')
		return md_entity(u, len, i);
	if (c == '\\')
		return i + 1 == len || md_punct(u[i + 1]);
	/* an _ after a letter or digit can close emphasis but never open
	 * it, and every _ that could open one is escaped */
	if (c == '_')
		return !(i > 0 && md_word(u[i - 1]));
	return 0;
}

void escape_md(struct strbuf *out, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, k, mark = md_block_start(out) ? md_marker(u, len) : len;
	const char *bidi;

	while (i < len) {
		if (u[i] >= 0x80) {
			k = utf8_seq_len(u + i, len - i);
			if (k && (bidi = utf8_bidi_shown(u + i, k)))
				strbuf_adds(out, bidi);
			else if (k)
				strbuf_add(out, s + i, k);
			else
				strbuf_adds(out, REPLACEMENT);
			i += k ? k : 1;
			continue;
		}
		if (u[i] == '\n' || u[i] == '\r') {
			strbuf_addch(out, ' ');
		} else if (bad_control(u[i])) {
			strbuf_adds(out, REPLACEMENT);
		} else {
			if (md_escaped(u, len, i, mark))
				strbuf_addch(out, '\\');
			strbuf_addch(out, (char)u[i]);
		}
		i++;
	}
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

void escape_cssstr(struct strbuf *out, const char *s, size_t len)
{
	size_t i, run = 0;

	strbuf_addch(out, '"');
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c != 0x7f && !strchr("\"\\<>&", c))
			continue;
		strbuf_add_utf8_valid(out, s + run, i - run);
		strbuf_addf(out, "\\%X ", c);
		run = i + 1;
	}
	strbuf_add_utf8_valid(out, s + run, len - run);
	strbuf_addch(out, '"');
}

/* A Markdown fenced code block holding the text as it is: the fence is
 * one backtick longer than the longest run of backticks in the text (at
 * least three), so no line of the text can close it; control characters
 * but newline and tab become U+FFFD, as invalid UTF-8 does, and the
 * bidirectional formatting characters \\uNNNN. */
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
		size_t k =
		    c >= 0x80
		        ? utf8_seq_len((const unsigned char *)s + i, len - i)
		        : 0;
		const char *bidi =
		    k ? utf8_bidi_shown((const unsigned char *)s + i, k) : NULL;
		if (bidi) {
			strbuf_add_utf8_valid(out, s + start, i - start);
			strbuf_adds(out, bidi);
			start = i + k;
			i += k - 1;
			continue;
		}
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

/* Fixed decimals with thousands separators (numfmt_fixed); an exact zero
 * is "0", as numfmt_duration writes it (README, "Numbers"). */
static void fixed(struct strbuf *out, const char *s, size_t len, int prec,
                  const char *suffix)
{
	double d;

	if (!parse_double(s, len, &d) || !(d > -1e300 && d < 1e300)) {
		escape_html(out, s, len);
		return;
	}
	if (d == 0)
		strbuf_addch(out, '0');
	else
		numfmt_fixed(out, d, prec);
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

/* A percent with one decimal, more for a small share (numfmt.h): a text
 * encoder of 0.04% does not read "0.0%". */
static void fmt_pct1(struct strbuf *out, const char *s, size_t len)
{
	double d;

	fixed(out, s, len,
	      parse_double(s, len, &d) ? numfmt_pct_decimals(d) : 1, "%");
}

static void fmt_dur(struct strbuf *out, const char *s, size_t len)
{
	int64_t v;

	if (parse_int(s, len, &v))
		numfmt_duration(out, v);
	else
		escape_html(out, s, len);
}

/* A column of durations shares the unit of its largest magnitude. */
static double dur_scan(double key, const char *s, size_t len)
{
	int64_t v;

	if (!parse_int(s, len, &v))
		return key;
	if (v < 0)
		v = v == INT64_MIN ? INT64_MAX : -v;
	return (double)v > key ? (double)v : key;
}

static void dur_col(struct strbuf *out, const char *s, size_t len, double key)
{
	int64_t v;

	/* (double)INT64_MAX is 2^63, which no int64_t holds */
	int64_t max = key < 9.2e18 ? (int64_t)key : INT64_MAX;

	if (parse_int(s, len, &v))
		numfmt_duration_in(out, v, numfmt_unit_of(max));
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
    {"html", escape_html, NULL, NULL},
    {"url", escape_url, NULL, NULL},
    {"href", escape_href, NULL, NULL},
    {"js", escape_js, NULL, NULL},
    {"md", escape_md, NULL, NULL},
    {"raw", fmt_raw, NULL, NULL},
    {"int", fmt_int, NULL, NULL},
    {"f1", fmt_f1, NULL, NULL},
    {"f2", fmt_f2, NULL, NULL},
    {"f3", fmt_f3, NULL, NULL},
    {"pct1", fmt_pct1, NULL, NULL},
    {"dur", fmt_dur, dur_scan, dur_col},
    {"dur_own", fmt_dur, NULL, NULL},
    {"us", fmt_us, NULL, NULL},
    {"mdurl", escape_mdurl, NULL, NULL},
    {"css", escape_css, NULL, NULL},
    {"cssstr", escape_cssstr, NULL, NULL},
    {"mdcode", escape_mdcode, NULL, NULL},
    {"path", fmt_path, NULL, NULL},
};

const struct tmpl_formatter *escape_formatters(size_t *n)
{
	*n = sizeof(formatters) / sizeof(formatters[0]);
	return formatters;
}
