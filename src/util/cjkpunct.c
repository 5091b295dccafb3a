/* Full-width punctuation next to Chinese text (contracts in cjkpunct.h). */
#include "util/cjkpunct.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/banned.h"
#include "util/xalloc.h"

/* What becomes of each byte of the text. */
enum mark {
	M_TEXT, /* text: may change */
	M_KEEP, /* markup, code: left as it is */
	M_WIDE, /* a punctuation character that becomes full-width */
	M_DROP  /* a space dropped next to a full-width character */
};

int cjk_is_wide(unsigned long c)
{
	return (c >= 0x3000 && c <= 0x303f) || (c >= 0x3400 && c <= 0x4dbf) ||
	       (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff) ||
	       (c >= 0xff00 && c <= 0xffef);
}

/* The code point of the valid UTF-8 sequence at s. */
static unsigned long decode(const unsigned char *s)
{
	if (s[0] < 0x80)
		return s[0];
	if (s[0] < 0xe0)
		return ((s[0] & 0x1fUL) << 6) | (s[1] & 0x3fUL);
	if (s[0] < 0xf0)
		return ((s[0] & 0x0fUL) << 12) | ((s[1] & 0x3fUL) << 6) |
		       (s[2] & 0x3fUL);
	return ((s[0] & 0x07UL) << 18) | ((s[1] & 0x3fUL) << 12) |
	       ((s[2] & 0x3fUL) << 6) | (s[3] & 0x3fUL);
}

struct text {
	const unsigned char *t;
	size_t n;
	unsigned char *mark;
	int md;   /* Markdown: emphasis marks (*) are no neighbours */
	int html; /* HTML: tags are no neighbours of a space */
};

/* Start of the code point that ends right before byte i (i > 0). */
static size_t back(const struct text *x, size_t i)
{
	do
		i--;
	while (i > 0 && (x->t[i] & 0xc0) == 0x80);
	return i;
}

/* Is the neighbour of byte i on side dir (-1 before, +1 after) Chinese?
 * With skip, one space between is passed over. */
static int wide_near(const struct text *x, size_t i, int dir, int skip)
{
	size_t j;

	if (dir < 0) {
		while (x->md && i > 0 && x->t[i - 1] == '*')
			i--;
		if (i == 0)
			return 0;
		j = back(x, i);
		if (skip && x->t[j] == ' ' && x->mark[j] == M_TEXT && j > 0) {
			j = back(x, j);
			/* "更快** (": the emphasis is no neighbour either */
			while (x->md && j > 0 && x->t[j] == '*')
				j = back(x, j);
		}
		return cjk_is_wide(decode(x->t + j));
	}
	j = i + 1;
	while (x->md && j < x->n && x->t[j] == '*')
		j++;
	if (skip && j < x->n && x->t[j] == ' ' && x->mark[j] == M_TEXT) {
		j++;
		while (x->md && j < x->n && x->t[j] == '*')
			j++;
	}
	return j < x->n && cjk_is_wide(decode(x->t + j));
}

/* Does byte i (, : ; ( or )) have a Chinese neighbour? Past one space only
 * where Latin text puts one and Chinese none: after , : ; ("参阅: x") and
 * before ( (" (note)"). */
static int near_any(const struct text *x, size_t i)
{
	unsigned char ch = x->t[i];

	return wide_near(x, i, -1, ch == '(') ||
	       wide_near(x, i, 1, ch == ',' || ch == ':' || ch == ';');
}

/* Byte i becomes full-width; the space a full-width character replaces
 * goes: the one after , : ; the one before (, and the one after ) when
 * Chinese follows it ("（Transformer） 阶段"). */
static void widen(struct text *x, size_t i)
{
	unsigned char ch = x->t[i];
	size_t sp = ch == '(' ? i - 1 : i + 1;

	x->mark[i] = M_WIDE;
	if (ch == '(' && i == 0)
		return;
	if (ch == ')' && !wide_near(x, i, 1, 1))
		return;
	if (sp < x->n && x->t[sp] == ' ' && x->mark[sp] == M_TEXT)
		x->mark[sp] = M_DROP;
}

/* Bytes [i, end) left as they are; returns end (at most n). */
static size_t keep(struct text *x, size_t i, size_t end)
{
	if (end > x->n)
		end = x->n;
	memset(x->mark + i, M_KEEP, end - i);
	return end;
}

/* End of the match of the case-insensitive closing tag </name> from i,
 * or n. */
static size_t close_tag(const struct text *x, size_t i, const char *name)
{
	size_t k = strlen(name);

	for (; i + k + 3 <= x->n; i++)
		if (x->t[i] == '<' && x->t[i + 1] == '/' &&
		    !strncasecmp((const char *)x->t + i + 2, name, k) &&
		    x->t[i + 2 + k] == '>')
			return i + k + 3;
	return x->n;
}

/* An HTML entity (&name; &#...;) at i: its length, else 0. */
static size_t entity(const struct text *x, size_t i)
{
	size_t j = i + 1;

	while (j < x->n && j - i < 12 &&
	       (x->t[j] == '#' || (x->t[j] >= '0' && x->t[j] <= '9') ||
	        ((x->t[j] | 0x20) >= 'a' && (x->t[j] | 0x20) <= 'z')))
		j++;
	return j < x->n && x->t[j] == ';' && j > i + 1 ? j + 1 - i : 0;
}

static void mark_html(struct text *x)
{
	static const char *const raw[] = {"script", "style", "code", "pre"};
	size_t i = 0, k, e, len;

	while (i < x->n) {
		if (x->t[i] == '&' && (e = entity(x, i)) > 0) {
			i = keep(x, i, i + e);
			continue;
		}
		if (x->t[i] != '<') {
			i++;
			continue;
		}
		for (k = 0; k < sizeof(raw) / sizeof(*raw); k++) {
			len = strlen(raw[k]);
			if (!strncasecmp((const char *)x->t + i + 1, raw[k],
			                 len) &&
			    i + 1 + len < x->n &&
			    (x->t[i + 1 + len] == '>' ||
			     x->t[i + 1 + len] == ' '))
				break;
		}
		if (k < sizeof(raw) / sizeof(*raw))
			e = close_tag(x, i, raw[k]);
		else if (!strncmp((const char *)x->t + i, "<!--", 4)) {
			const char *c = strstr((const char *)x->t + i, "-->");
			e = c ? (size_t)(c - (const char *)x->t) + 3 : x->n;
		} else {
			const char *c = memchr(x->t + i, '>', x->n - i);
			e = c ? (size_t)(c - (const char *)x->t) + 1 : x->n;
		}
		i = keep(x, i, e);
	}
}

/* End of the link target "(...)" opening at i (balanced parentheses, on
 * one line), or i + 1 when it does not close. */
static size_t link_end(const struct text *x, size_t i)
{
	size_t j, depth = 0;

	for (j = i; j < x->n && x->t[j] != '\n'; j++) {
		if (x->t[j] == '(')
			depth++;
		else if (x->t[j] == ')' && --depth == 0)
			return j + 1;
	}
	return i + 1;
}

static void mark_md(struct text *x)
{
	size_t i = 0, e;
	int bol = 1;

	while (i < x->n) {
		const unsigned char *c;
		if (bol && !strncmp((const char *)x->t + i, "```", 3)) {
			/* a fenced block: to the end of its closing fence line
			 */
			const char *f =
			    strstr((const char *)x->t + i + 3, "\n```");
			c = f ? memchr(f + 4, '\n',
			               x->n -
			                   (size_t)(f + 4 - (const char *)x->t))
			      : NULL;
			i = keep(x, i, c ? (size_t)(c - x->t) : x->n);
			continue;
		}
		bol = x->t[i] == '\n';
		if (x->t[i] == '`' &&
		    (c = memchr(x->t + i + 1, '`', x->n - i - 1)) != NULL &&
		    !memchr(x->t + i + 1, '\n', (size_t)(c - x->t) - i - 1)) {
			i = keep(x, i, (size_t)(c - x->t) + 1);
		} else if (x->t[i] == ']' && i + 1 < x->n &&
		           x->t[i + 1] == '(') {
			i = keep(x, i, link_end(x, i + 1));
		} else if (x->t[i] == '&' && (e = entity(x, i)) > 0) {
			i = keep(x, i, i + e);
		} else {
			i++;
		}
	}
}

static int is_digit(const struct text *x, size_t i)
{
	return i < x->n && x->t[i] >= '0' && x->t[i] <= '9';
}

/* wide[i] = the Chinese characters of text in bytes [0, i): whether a
 * pair of parentheses holds one is a difference, not a scan (O(n) for any
 * nesting). */
static size_t *count_wide(const struct text *x)
{
	size_t *wide = xcalloc(x->n + 1, sizeof(*wide)), i;

	for (i = 0; i < x->n; i++)
		wide[i + 1] =
		    wide[i] + (x->t[i] >= 0xe0 && x->mark[i] == M_TEXT &&
		               cjk_is_wide(decode(x->t + i)));
	return wide;
}

/* Decides , : ; and the parentheses, pairs alike. */
static void mark_punct(struct text *x)
{
	size_t *open = xcalloc(x->n + 1, sizeof(*open));
	size_t *wide = count_wide(x);
	size_t nopen = 0, i;

	for (i = 0; i < x->n; i++) {
		unsigned char ch = x->t[i];
		if (x->mark[i] != M_TEXT)
			continue;
		if (ch == ',' || ch == ':' || ch == ';') {
			if (i > 0 && is_digit(x, i - 1) && is_digit(x, i + 1))
				continue;
			if (near_any(x, i))
				widen(x, i);
		} else if (ch == '(') {
			open[nopen++] = i;
		} else if (ch == ')' && nopen > 0) {
			size_t o = open[--nopen];
			if (near_any(x, o) || near_any(x, i) ||
			    wide[i] > wide[o + 1]) {
				widen(x, o);
				widen(x, i);
			}
		} else if (ch == ')' && near_any(x, i)) {
			widen(x, i);
		}
	}
	while (nopen > 0) { /* unmatched: each alone */
		i = open[--nopen];
		if (near_any(x, i))
			widen(x, i);
	}
	free(open);
	free(wide);
}

/* Full-width punctuation, which Chinese sets no space next to: CJK
 * punctuation 、。〈〉《》「」『』【】 and the full-width ！（），．：；？ */
static int fw_punct(unsigned long c)
{
	return (c >= 0x3001 && c <= 0x3011) || c == 0xff01 || c == 0xff08 ||
	       c == 0xff09 || c == 0xff0c || c == 0xff0e || c == 0xff1a ||
	       c == 0xff1b || c == 0xff1f;
}

/* A letter, digit or Chinese character (what a reader sees as part of a
 * word, not punctuation or a symbol such as an arrow or a dash). */
static int word_char(unsigned long c)
{
	if (c < 0x80)
		return (c >= '0' && c <= '9') ||
		       ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
	return !fw_punct(c) && !(c >= 0x2000 && c <= 0x2bff) && c != 0xd7 &&
	       c != 0xf7 && !(c >= 0xa0 && c <= 0xbf && c != 0xb5);
}

/* The code point next to byte i on side dir, passing over Markdown's
 * emphasis marks and HTML's tags; 0 at an end or a line break. *wide is
 * set when it is punctuation that is or becomes full-width. */
static unsigned long neighbour(const struct text *x, size_t i, int dir,
                               int *wide)
{
	size_t j = i;
	const unsigned char *c;

	*wide = 0;
	for (;;) {
		if (dir < 0) {
			if (j == 0)
				return 0;
			j = back(x, j);
		} else if (++j >= x->n) {
			return 0;
		}
		if (x->md && x->t[j] == '*')
			continue;
		if (x->html && dir > 0 && x->t[j] == '<' &&
		    x->mark[j] == M_KEEP &&
		    (c = memchr(x->t + j, '>', x->n - j)) != NULL) {
			j = (size_t)(c - x->t);
			continue;
		}
		if (x->html && dir < 0 && x->t[j] == '>' &&
		    x->mark[j] == M_KEEP) {
			while (j > 0 && x->t[j] != '<')
				j--;
			continue;
		}
		break;
	}
	if (x->mark[j] == M_WIDE) {
		*wide = 1;
		return 0xff08; /* any full-width punctuation */
	}
	*wide = fw_punct(decode(x->t + j));
	return decode(x->t + j);
}

/* A space between full-width punctuation and a letter, digit or Chinese
 * character goes ("DiT（Transformer） 阶段", "参阅：** x", "。 参阅"): the
 * punctuation's own width is the gap. */
static void mark_spaces(struct text *x)
{
	size_t i;
	unsigned long a, b;
	int wa, wb;

	for (i = 0; i < x->n; i++) {
		if (x->t[i] != ' ' || x->mark[i] != M_TEXT)
			continue;
		/* Markdown needs the space after a closing emphasis mark
		 * that punctuation precedes ("**发现：** 3"): without it the
		 * mark cannot close (CommonMark's flanking rules); an opening
		 * one after punctuation needs none ("。**共") */
		a = neighbour(x, i, -1, &wa);
		b = neighbour(x, i, 1, &wb);
		/* (a closing mark followed by punctuation closes: "**（") */
		if (x->md && i > 0 && x->t[i - 1] == '*' && !wb)
			continue;
		if ((wa && !wb && word_char(b)) || (wb && !wa && word_char(a)))
			x->mark[i] = M_DROP;
	}
}

static const char *wide_form(unsigned char ch)
{
	switch (ch) {
	case ',':
		return "\xef\xbc\x8c";
	case ':':
		return "\xef\xbc\x9a";
	case ';':
		return "\xef\xbc\x9b";
	case '(':
		return "\xef\xbc\x88";
	default:
		return "\xef\xbc\x89";
	}
}

void cjk_punct(struct strbuf *sb, size_t start, enum cjk_text kind)
{
	struct text x;
	struct strbuf out = STRBUF_INIT;
	size_t i;

	if (!sb->buf || sb->len <= start)
		return;
	x.t = (const unsigned char *)sb->buf + start;
	x.n = sb->len - start;
	x.mark = xcalloc(x.n, 1);
	x.md = kind == CJK_MD;
	x.html = kind == CJK_HTML;
	if (kind == CJK_HTML)
		mark_html(&x);
	else if (kind == CJK_MD)
		mark_md(&x);
	mark_punct(&x);
	mark_spaces(&x);
	strbuf_grow(&out, x.n + 64);
	for (i = 0; i < x.n; i++) {
		if (x.mark[i] == M_WIDE)
			strbuf_adds(&out, wide_form(x.t[i]));
		else if (x.mark[i] != M_DROP)
			strbuf_addch(&out, x.t[i]);
	}
	free(x.mark);
	sb->len = start;
	strbuf_addbuf(sb, &out);
	strbuf_release(&out);
}
