/* The template engine's messages: positions in a template and errors that
 * name them. */
#include "tmpl/tmpl_internal.h"

#include <stdarg.h>
#include <string.h>

#include "util/banned.h"

/* Line and column (1-based; columns count characters, not bytes). */
void tmpl_line_col(const char *src, size_t off, unsigned *line, unsigned *col)
{
	size_t i;

	*line = 1;
	*col = 1;
	for (i = 0; i < off; i++) {
		if (src[i] == '\n') {
			++*line;
			*col = 1;
		} else if (((unsigned char)src[i] & 0xC0) != 0x80) {
			++*col;
		}
	}
}

/* Sets "name:line:col: message" as an ERR_INPUT error; returns -1. */
int tmpl_error_at(struct err *e, const struct tmpl *t, size_t off,
                  const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned line, col;
	va_list ap;

	tmpl_line_col(t->src, off, &line, &col);
	strbuf_add_sanitized(&sb, t->name, strlen(t->name));
	strbuf_addf(&sb, ":%u:%u: ", line, col);
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	err_set(e, ERR_INPUT, "%s", sb.buf);
	strbuf_release(&sb);
	return -1;
}

/* A value from the template or the variables, fit for a message. */
const char *tmpl_quoted(struct strbuf *sb, const char *s, size_t len)
{
	strbuf_reset(sb);
	strbuf_add_quoted_value(sb, s, len, 64);
	return sb->buf;
}
