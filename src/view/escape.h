/* Output-context escaping: the formatters templates name with fmt=.
 *
 * Every formatter takes any bytes: invalid UTF-8 comes out as U+FFFD (in the
 * formatter's own encoding: "%EF%BF%BD" for url), so a bad byte in a profile
 * can never break the page around it. Escaping happens once, at the output
 * boundary, per context (STYLE.md rule 8). */
#ifndef SDPERF_RENDER_ESCAPE_H
#define SDPERF_RENDER_ESCAPE_H

#include <stddef.h>

#include "tmpl/template.h"
#include "util/strbuf.h"

/* The built-in table, in this order (details in docs/templates.md):
 *   html  & < > " ' as entities: HTML text and quoted attribute values
 *   url   percent-encodes all but RFC 3986 unreserved characters
 *   href  a whole URL for href/src: only http:, https:, mailto:, relative
 *         and #fragment URLs pass (anything else becomes "#"), then html
 *   js    the inside of a JSON/JS string literal, safe within <script>
 *   md    Markdown paragraph / list item / table-cell text: no markup
 *         survives, and only what would change the rendering gets a
 *         backslash (escape_md); never an entity
 *   css   a stylesheet inside <style>: "</" becomes "<\/", so it cannot
 *         end the element
 *   mdcode  a whole Markdown fenced code block around the text, the
 *         fence longer than any run of backticks in it (see
 *         escape_mdcode)
 *   path  a file path in HTML text: html, plus <wbr> after each '/'
 *   raw   as is
 *   int f1 f2 f3 pct1 dur dur_own us   numbers (see below)
 * Number formatters take a decimal number as text ("12345", "-1.5e3");
 * anything else is written html-escaped instead. Numbers for people have
 * thousands separators, and an exact zero is "0" (README, "Numbers"):
 *   int   rounded: "12,345,678"
 *   f1 f2 f3   fixed 1/2/3 decimals: "14,492.0", "3.14"
 *   pct1  a percent value with one decimal: "12.3%", "0%"
 *   dur   integer nanoseconds for people: "81.24 ms", "812.4 µs"
 *         (numfmt_duration); in a TMPL_LOOP a column formatter: every
 *         row in the unit of the column's largest value ("0.13 ms" under
 *         "54.06 ms")
 *   dur_own  dur in the value's own unit, also in a loop: for lists and
 *         headings, which are not table columns
 *   us    integer nanoseconds as microseconds, for machines: "1234.567"
 *         (numfmt_us)
 * The table is static; *n receives its length. */
const struct tmpl_formatter *escape_formatters(size_t *n);

/* The context escapers, for renderers that build markup in C. */
void escape_html(struct strbuf *out, const char *s, size_t len);
void escape_url(struct strbuf *out, const char *s, size_t len);
void escape_href(struct strbuf *out, const char *s, size_t len);
void escape_js(struct strbuf *out, const char *s, size_t len);
/* CommonMark + GFM tables: backslashes before | < ` * [ ] ~, before &
 * when an entity follows, before \ when punctuation or the end follows,
 * before _ unless after a letter or digit, and before a block marker at the
 * start (# > a "- " "+ " "=", the . or ) of "1. ") when the value starts a
 * block: out's line so far is blanks and list or quote markers only (not a
 * table cell, not after other text); newlines become spaces. */
void escape_md(struct strbuf *out, const char *s, size_t len);
void escape_css(struct strbuf *out, const char *s, size_t len);
/* fmt="cssstr": s as a double-quoted CSS string (for `content:` in the
 * stylesheet): '"', '\\', '<', '>', '&' and every control character as
 * a hex escape ("\\22 "), so it can neither end the string nor close the
 * <style> element; invalid UTF-8 as U+FFFD. */
void escape_cssstr(struct strbuf *out, const char *s, size_t len);
/* The fenced code block of fmt="mdcode": a fence of backticks (three, or
 * one more than the longest run in s), a newline, s (control characters
 * but newline and tab, and invalid UTF-8, as U+FFFD), a newline unless s
 * ends with one, the fence (no newline after it). */
void escape_mdcode(struct strbuf *out, const char *s, size_t len);
/* A URL as the destination of a Markdown link, "[text](HERE)": allowed
 * schemes as for escape_href (else "#"), then every character that could
 * end the destination or turn into markup percent-encoded. */
void escape_mdurl(struct strbuf *out, const char *s, size_t len);

#endif
