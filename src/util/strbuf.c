/* strbuf: the growable string every text builder in sdperf uses. */
#include "util/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/banned.h"
#include "util/utf8.h"
#include "util/xalloc.h"

static char strbuf_empty[1];

void strbuf_init(struct strbuf *sb)
{
	sb->buf = strbuf_empty;
	sb->len = 0;
	sb->alloc = 0;
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb);
}

void strbuf_reset(struct strbuf *sb)
{
	if (!sb->buf)
		strbuf_init(sb);
	sb->len = 0;
	if (sb->alloc)
		sb->buf[0] = '\0';
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *s;
	strbuf_grow(sb, 0);
	s = sb->buf;
	if (len)
		*len = sb->len;
	strbuf_init(sb);
	return s;
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	int fresh = !sb->buf || !sb->alloc;
	if (!sb->buf)
		strbuf_init(sb);
	if (sb->len + extra + 1 <= sb->alloc)
		return;
	if (fresh)
		sb->buf = NULL;
	sb->buf = xgrow(sb->buf, 1, sb->len + extra + 1, &sb->alloc);
	if (fresh)
		sb->buf[0] = '\0';
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_adds(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addbuf(struct strbuf *sb, const struct strbuf *other)
{
	strbuf_add(sb, other->buf, other->len);
}

char *xstrfmt(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return strbuf_detach(&sb, NULL);
}

void strbuf_addch(struct strbuf *sb, int c)
{
	strbuf_grow(sb, 1);
	sb->buf[sb->len++] = (char)c;
	sb->buf[sb->len] = '\0';
}

void strbuf_addchars(struct strbuf *sb, int c, size_t n)
{
	strbuf_grow(sb, n);
	memset(sb->buf + sb->len, c, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	strbuf_grow(sb, 64);
	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	if ((size_t)n >= sb->alloc - sb->len) {
		strbuf_grow(sb, (size_t)n);
		n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	}
	sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

/* U+0080..U+009F: C1 control codes, which some terminals obey (U+009B is
 * CSI, like ESC [). */
static int cp_is_c1(const unsigned char *u, size_t k)
{
	return k == 2 && u[0] == 0xC2 && u[1] < 0xA0;
}

static void add_shown(struct strbuf *sb, const char *s, size_t len,
                      int newlines)
{
	size_t i;

	for (i = 0; i < len;) {
		const unsigned char *u = (const unsigned char *)s + i;
		size_t k = utf8_seq_len(u, len - i);
		const char *bidi;
		if (!k || (u[0] < 0x20 && !(newlines && u[0] == '\n')) ||
		    u[0] == 0x7F || cp_is_c1(u, k)) {
			/* control or invalid byte: show it, keep the text valid
			 */
			strbuf_addf(sb, "\\x%02X", u[0]);
			i++;
		} else if ((bidi = utf8_bidi_shown(u, k))) {
			strbuf_adds(sb, bidi);
			i += k;
		} else {
			strbuf_add(sb, u, k);
			i += k;
		}
	}
}

void strbuf_add_sanitized(struct strbuf *sb, const char *s, size_t len)
{
	add_shown(sb, s, len, 0);
}

void strbuf_add_printable(struct strbuf *sb, const char *s, size_t len)
{
	add_shown(sb, s, len, 1);
}

void strbuf_add_quoted_value(struct strbuf *sb, const char *s, size_t len,
                             size_t max)
{
	size_t n = len;
	int cut = 0;

	if (n > max) {
		n = max;
		/* back up to a UTF-8 lead byte so the message stays valid text
		 */
		while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
			n--;
		cut = 1;
	}
	strbuf_addch(sb, '\'');
	strbuf_add_sanitized(sb, s, n);
	if (cut)
		strbuf_adds(sb, "...");
	strbuf_addch(sb, '\'');
}

void strbuf_add_utf8_valid(struct strbuf *out, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, run = 0, k;

	/* copies runs of good bytes whole; a bad byte is one U+FFFD */
	while (i < n) {
		k = u[i] < 0x80 ? 1 : utf8_seq_len(u + i, n - i);
		if (k) {
			i += k;
			continue;
		}
		strbuf_add(out, s + run, i - run);
		strbuf_adds(out, "\xEF\xBF\xBD");
		run = ++i;
	}
	strbuf_add(out, s + run, n - run);
}
