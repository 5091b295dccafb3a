/* The wiki fragment (-f fragment): the HTML report's body for a place inside
 * somebody else's page. Its stylesheet is scoped under one root class, its
 * ids cannot clash with the host's, and it links to nothing relative. */
#ifndef SDPERF_FRAGMENT_H
#define SDPERF_FRAGMENT_H

#include <stddef.h>

#include "util/err.h"
#include "util/strbuf.h"

/* The class of the fragment's root element, and the prefix of its ids. */
#define FRAGMENT_ROOT      ".sdperf-report"
#define FRAGMENT_ID_PREFIX "sdperf-"

/* The fragment's stylesheet into css: reset (fragment.css, the rules
 * against the host page's) then sheet (report.css), scoped under
 * FRAGMENT_ROOT (util/cssscope.h); NULL reads as empty. Errors: ERR_INPUT,
 * a stylesheet that cannot be read as CSS (the message names it and the
 * line). */
int fragment_css(const char *reset, const char *sheet, struct strbuf *css,
                 struct err *e);

/* 1 when html (NUL-terminated) is a fragment's markup: after white space,
 * the root element's start tag fragment_open.html.tmpl writes. A user's
 * template without the fragment mode renders a whole page instead. */
int fragment_is_one(const char *html);

/* Rewrites the markup html->buf[start..], which sdperf rendered (every
 * attribute value quoted, every '<' in text escaped), for a host page:
 * - each id and each reference to one (for, headers, aria-labelledby,
 *   aria-describedby, aria-controls, an href or xlink:href "#x", and
 *   url(#x) in any other attribute) gets FRAGMENT_ID_PREFIX, so the
 *   fragment's anchors work and cannot clash;
 * - an href or src that is not absolute (http:, https:, mailto:, or data:
 *   for src) is removed: it would point into the wiki, not at the report's
 *   files. The element and its text stay.
 * Comments and the content of <style> and <script> are left as they are. */
void fragment_rewrite(struct strbuf *html, size_t start);

#endif
