/* Error messages of the cJSON readers: JSON paths, bad values, syntax
 * errors placed at line:column. */
#include "input/jsonerr.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/utf8.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define QUOTE_MAX 60 /* bytes of a bad value quoted in a message */
#define NEAR_MAX  30 /* bytes quoted after a syntax error */

void jsonerr_init(struct jsonerr *j, const char *name, char sep, struct err *e)
{
	j->name = name;
	j->e = e;
	j->sep = sep;
	strbuf_init(&j->path);
}

void jsonerr_release(struct jsonerr *j)
{
	strbuf_release(&j->path);
}

size_t jsonerr_push(struct jsonerr *j, const char *key)
{
	size_t old = j->path.len;

	if (old)
		strbuf_addch(&j->path, j->sep);
	strbuf_adds(&j->path, key);
	return old;
}

size_t jsonerr_push_index(struct jsonerr *j, size_t i)
{
	size_t old = j->path.len;

	if (old)
		strbuf_addch(&j->path, j->sep);
	strbuf_addf(&j->path, "%zu", i);
	return old;
}

void jsonerr_pop(struct jsonerr *j, size_t old)
{
	j->path.len = old;
	j->path.buf[old] = '\0';
}

int jsonerr_number(struct jsonerr *j, const struct cJSON *obj, const char *key,
                   double lo, double hi, double *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	size_t old;
	int ret = 0;

	*out = 0;
	if (!v)
		return 0;
	old = jsonerr_push(j, key);
	if (!cJSON_IsNumber(v))
		ret = jsonerr_bad(j, "expected a number", v);
	else if (!isfinite(v->valuedouble) || v->valuedouble < lo ||
	         v->valuedouble >= hi)
		ret = jsonerr_bad(j, "out of range", v);
	else
		*out = v->valuedouble;
	jsonerr_pop(j, old);
	return ret;
}

int jsonerr_bad(struct jsonerr *j, const char *what, const struct cJSON *v)
{
	struct strbuf sb = STRBUF_INIT;
	char *text = v ? cJSON_PrintUnformatted(v) : NULL;

	/* keys come from the file: no control bytes on the terminal */
	strbuf_add_sanitized(&sb, j->path.buf, j->path.len);
	strbuf_addf(&sb, ": %s", what);
	if (text) {
		strbuf_adds(&sb, ", got ");
		strbuf_add_quoted_value(&sb, text, strlen(text), QUOTE_MAX);
	}
	err_set(j->e, ERR_INPUT, "%s: %s", j->name, sb.buf);
	free(text);
	strbuf_release(&sb);
	return -1;
}

int jsonerr_bad_text(struct jsonerr *j, const char *what, const char *text,
                     size_t len)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add_sanitized(&sb, j->path.buf, j->path.len);
	strbuf_addf(&sb, ": %s, got ", what);
	strbuf_add_quoted_value(&sb, text, len, QUOTE_MAX);
	err_set(j->e, ERR_INPUT, "%s: %s", j->name, sb.buf);
	strbuf_release(&sb);
	return -1;
}

void jsonerr_linecol(const char *text, size_t n, uint64_t *line, uint64_t *col)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (text[i] == '\n') {
			++*line;
			*col = 1;
		} else {
			++*col;
		}
	}
}

int jsonerr_syntax(struct err *e, const char *name, const char *text,
                   size_t len, const char *at, const char *what)
{
	uint64_t line = 1, col = 1;
	size_t off = len;
	struct strbuf sb = STRBUF_INIT;

	if (at && at >= text && (size_t)(at - text) < len)
		off = (size_t)(at - text);
	jsonerr_linecol(text, off, &line, &col);
	strbuf_add_quoted_value(&sb, text + off, len - off, NEAR_MAX);
	err_set(e, ERR_INPUT, "%s:%" PRIu64 ":%" PRIu64 ": %s near %s", name,
	        line, col, what, sb.buf);
	strbuf_release(&sb);
	return -1;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

struct cJSON *jsonerr_cjson_parse(const char *text, size_t len,
                                  const char **end)
{
	char *copy;
	cJSON *root;

	*end = NULL;
	if (!utf8_json_lone_surrogates(text, len, NULL))
		return cJSON_ParseWithLengthOpts(text, len, end, 0);
	/* rare: parse a copy with the lone escapes read as \ufffd (the
	 * same length, so *end maps back to text by its offset) */
	copy = xmalloc(len + 1);
	memcpy(copy, text, len);
	copy[len] = '\0';
	utf8_json_lone_surrogates(text, len, copy);
	root = cJSON_ParseWithLengthOpts(copy, len, end, 0);
	if (*end)
		*end = text + (*end - copy);
	free(copy);
	return root;
}

struct cJSON *jsonerr_parse(const char *name, const char *text, size_t len,
                            struct err *e)
{
	const char *end = NULL;
	cJSON *root;

	/* trailing blanks are not a second value; only blanks: no value */
	while (len && is_blank(text[len - 1]))
		len--;
	if (len == 0) {
		err_set(e, ERR_INPUT, "%s: empty file (no JSON value)", name);
		return NULL;
	}
	/* the end pointer, not cJSON_GetErrorPtr: that one is a global, and
	 * readers may run on several threads */
	root = jsonerr_cjson_parse(text, len, &end);
	while (root && end < text + len && is_blank(*end))
		end++;
	/* a second value after the first: a merge gone wrong */
	if (!root || end < text + len) {
		jsonerr_syntax(e, name, text, len, end, "JSON syntax error");
		cJSON_Delete(root);
		return NULL;
	}
	return root;
}
