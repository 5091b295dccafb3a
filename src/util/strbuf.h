/* Growable, always NUL-terminated byte string: all text building uses it. */
#ifndef SDPERF_STRBUF_H
#define SDPERF_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct strbuf {
	char *buf; /* always NUL-terminated once initialised */
	size_t len;
	size_t alloc;
};

#define STRBUF_INIT                                                            \
	{                                                                      \
		NULL, 0, 0                                                     \
	}

void strbuf_init(struct strbuf *sb);
/* Frees the buffer; the strbuf can be reused after strbuf_init. */
void strbuf_release(struct strbuf *sb);
/* Empties without freeing. */
void strbuf_reset(struct strbuf *sb);
/* Hands the text to the caller (who frees it); the strbuf is emptied. */
char *strbuf_detach(struct strbuf *sb, size_t *len);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_adds(struct strbuf *sb, const char *s);
void strbuf_addbuf(struct strbuf *sb, const struct strbuf *other);
void strbuf_addch(struct strbuf *sb, int c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
/* A new string printed from fmt (caller frees). */
char *xstrfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Appends n characters c. */
void strbuf_addchars(struct strbuf *sb, int c, size_t n);
/* Appends s with control characters (C0, DEL, C1) and invalid UTF-8
 * bytes shown as \xNN, and the bidirectional formatting characters
 * (U+061C, U+200E/F, U+202A..E, U+2066..9) as \uNNNN: safe to print on a
 * terminal or in a log. */
void strbuf_add_sanitized(struct strbuf *sb, const char *s, size_t len);
/* The same for multi-line text (a summary): newlines are kept. Whatever
 * goes to a terminal passes through one of the two. */
void strbuf_add_printable(struct strbuf *sb, const char *s, size_t len);
/* Appends s[0..n) with every byte that is not part of well-formed UTF-8
 * replaced by U+FFFD: the text is then valid UTF-8 whatever it was (for
 * report.json and the other outputs). */
void strbuf_add_utf8_valid(struct strbuf *sb, const char *s, size_t n);
/* Appends s, shortened to at most max bytes (cut at a UTF-8 boundary, with
 * "..." added) and with control characters shown as \xNN: for quoting bad
 * input values in error messages. */
void strbuf_add_quoted_value(struct strbuf *sb, const char *s, size_t len,
                             size_t max);

#endif
