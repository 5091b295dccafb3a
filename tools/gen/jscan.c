/* jscan.c: recursive-descent JSON scanner over a chunked reader. Only the
 * self-check uses it, so it favours simplicity over speed. */
#include "jscan.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"
#include "banned.h"

#define CHUNK   65536
#define STR_MAX 65536

struct js {
	FILE *fp;
	unsigned char buf[CHUNK];
	size_t pos, len;
	unsigned long long off; /* byte offset of buf[pos] */
	int eof;
	char keys[JS_MAX_DEPTH][JS_KEY_MAX];  /* container names */
	char names[JS_MAX_DEPTH][JS_KEY_MAX]; /* current member names */
	const char *path[JS_MAX_DEPTH];
	char str[STR_MAX];
	js_cb cb;
	void *ctx;
	int stopped;
	char *err;
	size_t errlen;
};

/* Names longer than JS_KEY_MAX - 1 are cut: the generator's are short. */
static void set_name(char *dst, const char *src)
{
	size_t n = strlen(src);

	if (n >= JS_KEY_MAX)
		n = JS_KEY_MAX - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static int peek(struct js *j)
{
	if (j->pos == j->len && !j->eof) {
		j->len = fread(j->buf, 1, CHUNK, j->fp);
		j->pos = 0;
		if (j->len == 0)
			j->eof = 1;
	}
	return j->pos < j->len ? j->buf[j->pos] : -1;
}

static int next(struct js *j)
{
	int c = peek(j);

	if (c >= 0) {
		j->pos++;
		j->off++;
	}
	return c;
}

static int bad(struct js *j, const char *what)
{
	snprintf(j->err, j->errlen, "byte %llu: %s", j->off, what);
	return -1;
}

static void skip_ws(struct js *j)
{
	int c;

	while ((c = peek(j)) == ' ' || c == '\t' || c == '\n' || c == '\r')
		next(j);
}

static int emit(struct js *j, enum js_kind k, int depth, const char *key,
                const char *text, size_t len)
{
	struct js_ev ev;

	ev.kind = k;
	ev.depth = depth;
	ev.key = key;
	ev.text = text;
	ev.len = len;
	ev.path = j->path;
	if (j->cb(j->ctx, &ev)) {
		j->stopped = 1;
		return 1;
	}
	return 0;
}

/* Reads a string after its opening quote into j->str. \uXXXX is kept as
 * written: nothing the generator checks contains one. */
static int read_string(struct js *j, size_t *len)
{
	size_t n = 0;
	int c;

	while ((c = next(j)) != '"') {
		if (c < 0)
			return bad(j, "unterminated string");
		if (c < 0x20)
			return bad(j, "control character in string");
		if (c == '\\') {
			c = next(j);
			if (c < 0 || !strchr("\"\\/bfnrtu", c))
				return bad(j, "bad escape");
			c = c == 'n' ? '\n' : c == 't' ? '\t' : c;
		}
		if (n + 1 >= STR_MAX)
			return bad(j, "string too long");
		j->str[n++] = (char)c;
	}
	j->str[n] = '\0';
	*len = n;
	return 0;
}

static int scalar(struct js *j, int depth, const char *key)
{
	size_t n = 0;
	int c = peek(j);

	if (c == '"') {
		next(j);
		if (read_string(j, &n))
			return -1;
		return emit(j, JS_STRING, depth, key, j->str, n) ? 1 : 0;
	}
	while ((c = peek(j)) >= 0 &&
	       (c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9') ||
	        (c >= 'a' && c <= 'z') || c == 'E')) {
		if (n + 1 >= 64)
			return bad(j, "token too long");
		j->str[n++] = (char)next(j);
	}
	j->str[n] = '\0';
	if (n == 0)
		return bad(j, "value expected");
	if (!strcmp(j->str, "true") || !strcmp(j->str, "false") ||
	    !strcmp(j->str, "null"))
		return emit(j, JS_LITERAL, depth, key, j->str, n) ? 1 : 0;
	if (strspn(j->str, "-+.0123456789eE") != n)
		return bad(j, "bad literal");
	return emit(j, JS_NUMBER, depth, key, j->str, n) ? 1 : 0;
}

static int value(struct js *j, int depth, const char *key);

/* Members or elements of the container just opened at `depth`. */
static int members(struct js *j, int depth, int is_obj)
{
	int c, rc, first = 1;
	size_t n;

	for (;;) {
		skip_ws(j);
		c = peek(j);
		if (c == (is_obj ? '}' : ']') && first) {
			next(j);
			break;
		}
		if (is_obj) {
			if (next(j) != '"' || read_string(j, &n))
				return bad(j, "member name expected");
			/* j->str is reused by the value: keep the name. */
			set_name(j->names[depth], j->str);
			skip_ws(j);
			if (next(j) != ':')
				return bad(j, "':' expected");
		}
		rc = value(j, depth + 1, is_obj ? j->names[depth] : "");
		if (rc)
			return rc;
		skip_ws(j);
		c = next(j);
		if (c == (is_obj ? '}' : ']'))
			break;
		if (c != ',')
			return bad(j, "',' or end of container expected");
		first = 0;
	}
	return emit(j, JS_END, depth, "", "", 0) ? 1 : 0;
}

static int value(struct js *j, int depth, const char *key)
{
	int c;

	skip_ws(j);
	c = peek(j);
	if (c != '{' && c != '[')
		return scalar(j, depth, key);
	if (depth >= JS_MAX_DEPTH)
		return bad(j, "nesting too deep");
	next(j);
	set_name(j->keys[depth], key);
	j->path[depth] = j->keys[depth];
	if (emit(j, c == '{' ? JS_OBJECT : JS_ARRAY, depth, j->keys[depth], "",
	         0))
		return 1;
	return members(j, depth, c == '{');
}

int jscan_file(const char *path, js_cb cb, void *ctx, char *err, size_t errlen)
{
	struct js *j = xcalloc(1, sizeof(*j));
	int rc = -1;

	j->cb = cb;
	j->ctx = ctx;
	j->err = err;
	j->errlen = errlen;
	j->fp = fopen(path, "rb");
	if (!j->fp) {
		snprintf(err, errlen, "%s: cannot open: %s", path,
		         strerror(errno));
		goto out;
	}
	rc = value(j, 0, "");
	if (rc == 0) {
		skip_ws(j);
		if (peek(j) >= 0)
			rc = bad(j, "data after the JSON value");
	}
	if (j->stopped)
		rc = 1;
	fclose(j->fp);
out:
	free(j);
	return rc;
}
