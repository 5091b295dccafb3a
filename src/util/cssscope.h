/* A stylesheet scoped under one root: every rule of it then applies only
 * to the element its root selector names and to what is inside it, so that
 * the sheet can sit inside somebody else's page (a wiki) without styling it. */
#ifndef SDPERF_CSSSCOPE_H
#define SDPERF_CSSSCOPE_H

#include <stddef.h>

#include "util/err.h"
#include "util/strbuf.h"

/* Appends to out the stylesheet css[0..len) rewritten for the root selector
 * root (one simple selector, e.g. ".sdperf-report"):
 *
 * - each selector of a rule's comma-separated list is scoped: one that
 *   starts with the page itself (":root", "html", "body", and chains of them
 *   such as "html body") starts with root instead, keeping what follows
 *   (`body.diff h1` -> `.root.diff h1`); any other gets root and a space in
 *   front (`table th` -> `.root table th`, `> p` -> `.root > p`). A
 *   selector that would reach past root to a sibling (`body + p`, and one
 *   that starts with a sibling combinator: `~ *`, `+ p`, which a browser
 *   ignores at the top level) is dropped, and so is a rule left with none;
 *   a selector inside :is(), :where(), :not() or :has() only narrows what
 *   the scoped selector around it matches, so it stays as it is;
 * - a rule nested inside a rule's declarations (CSS nesting) is dropped:
 *   its `&` could place the root anywhere in a selector of the host page;
 * - the rules inside @media, @supports, @container and @layer blocks are
 *   scoped the same way; @font-face, @keyframes, @property and
 *   @counter-style are kept as they are (they select nothing); every other
 *   at-rule is dropped: @page and @import belong to the host page;
 * - a length in rem, which the host's root font size would set, becomes the
 *   same length in px at 16 px to the rem (the size of the stylesheet's own
 *   page); strings and comments are left alone, and comments are dropped.
 *
 * name names the sheet in error messages. Errors (ERR_INPUT, naming name
 * and the line): a block that is not closed, a '}' that closes nothing, a
 * selector list without a block or with an empty selector, blocks nested
 * deeper than 16. out then holds what was written so far. */
int css_scope(const char *css, size_t len, const char *root, const char *name,
              struct strbuf *out, struct err *e);

#endif
