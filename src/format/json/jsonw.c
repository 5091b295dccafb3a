/* The JSON writer: helpers that put values into a cJSON tree, and its two
 * printed layouts (cJSON's own for report.json, two-space for diff.json). */
#include "format/json/jsonw.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/numfmt.h"
#include "util/utf8.h"
#include "view/escape.h"
#include "util/banned.h"

/* ---- values ------------------------------------------------------------ */

cJSON *jsonw_str(const char *s)
{
	struct strbuf sb;
	cJSON *item;

	if (!s)
		return cJSON_CreateNull();
	strbuf_init(&sb);
	strbuf_add_utf8_valid(&sb, s, strlen(s));
	item = cJSON_CreateString(sb.buf);
	strbuf_release(&sb);
	return item;
}

static void add_item(cJSON *o, const char *key, cJSON *item)
{
	if (key)
		cJSON_AddItemToObject(o, key, item);
	else
		cJSON_AddItemToArray(o, item);
}

/* raw text: the number as written in sb, which is reset */
static void add_raw(cJSON *o, const char *key, struct strbuf *sb)
{
	add_item(o, key, cJSON_CreateRaw(sb->buf));
	strbuf_reset(sb);
}

void jsonw_add_str(cJSON *o, const char *key, const char *s)
{
	add_item(o, key, jsonw_str(s));
}

void jsonw_add_null(cJSON *o, const char *key)
{
	add_item(o, key, cJSON_CreateNull());
}

void jsonw_add_bool(cJSON *o, const char *key, int v)
{
	add_item(o, key, cJSON_CreateBool(v != 0));
}

void jsonw_add_u64(cJSON *o, const char *key, uint64_t v)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%" PRIu64, v);
	add_raw(o, key, &sb);
	strbuf_release(&sb);
}

void jsonw_add_i64(cJSON *o, const char *key, int64_t v)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%" PRId64, v);
	add_raw(o, key, &sb);
	strbuf_release(&sb);
}

void jsonw_add_opt_i64(cJSON *o, const char *key, int64_t v, int present)
{
	if (present)
		jsonw_add_i64(o, key, v);
	else
		jsonw_add_null(o, key);
}

void jsonw_add_us(cJSON *o, const char *key, int64_t ns)
{
	struct strbuf sb = STRBUF_INIT;

	numfmt_us(&sb, ns);
	add_raw(o, key, &sb);
	strbuf_release(&sb);
}

void jsonw_add_pct(cJSON *o, const char *key, double v)
{
	struct strbuf sb = STRBUF_INIT;

	if (!isfinite(v)) {
		jsonw_add_null(o, key);
		return;
	}
	strbuf_addf(&sb, "%.3f", v);
	add_raw(o, key, &sb);
	strbuf_release(&sb);
}

void jsonw_add_fixed(cJSON *o, const char *key, double v, int defined)
{
	if (!defined) {
		jsonw_add_null(o, key);
		return;
	}
	if (v > -0.0005 && v < 0.0005)
		v = 0.0;
	jsonw_add_pct(o, key, v);
}

cJSON *jsonw_add_object(cJSON *o, const char *key)
{
	cJSON *item = cJSON_CreateObject();

	add_item(o, key, item);
	return item;
}

cJSON *jsonw_add_array(cJSON *o, const char *key)
{
	cJSON *item = cJSON_CreateArray();

	add_item(o, key, item);
	return item;
}

/* ---- printing ---------------------------------------------------------- */

static void spaces_string(struct strbuf *out, const char *s)
{
	strbuf_addch(out, '"');
	escape_js(out, s, strlen(s));
	strbuf_addch(out, '"');
}

/* The two-space layout; depth is v's level (0 at the root). Recursive:
 * the depth is that of the tree the writer built, not of any input. */
static void spaces_value(struct strbuf *out, const cJSON *v, size_t depth)
{
	const cJSON *c;
	int obj = cJSON_IsObject(v);

	if (cJSON_IsNull(v))
		strbuf_adds(out, "null");
	else if (cJSON_IsBool(v))
		strbuf_adds(out, cJSON_IsTrue(v) ? "true" : "false");
	else if (cJSON_IsRaw(v))
		strbuf_adds(out, v->valuestring);
	else if (cJSON_IsNumber(v) && !isfinite(v->valuedouble))
		strbuf_adds(out, "null"); /* as cJSON prints them */
	else if (cJSON_IsNumber(v))
		strbuf_addf(out, "%.17g", v->valuedouble);
	else if (cJSON_IsString(v))
		spaces_string(out, v->valuestring);
	if (!obj && !cJSON_IsArray(v))
		return;
	strbuf_addch(out, obj ? '{' : '[');
	for (c = v->child; c; c = c->next) {
		strbuf_adds(out, c == v->child ? "\n" : ",\n");
		strbuf_addchars(out, ' ', 2 * (depth + 1));
		if (obj) {
			spaces_string(out, c->string);
			strbuf_adds(out, ": ");
		}
		spaces_value(out, c, depth + 1);
	}
	if (v->child) {
		strbuf_addch(out, '\n');
		strbuf_addchars(out, ' ', 2 * depth);
	}
	strbuf_addch(out, obj ? '}' : ']');
}

int jsonw_print(const cJSON *root, enum jsonw_layout layout, const char *name,
                struct strbuf *out, struct err *e)
{
	char *text;

	if (layout == JSONW_SPACES) {
		spaces_value(out, root, 0);
	} else {
		text = cJSON_Print(root);
		if (!text) /* its buffer would pass INT_MAX, or no memory */
			return err_set(
			    e, ERR_OUTPUT,
			    "%s: too large to write: JSON text over "
			    "%u bytes (2 GiB, the JSON writer's "
			    "limit), or out of memory while printing "
			    "it; --max-memory bounds what is read",
			    name, JSONW_MAX_TEXT);
		strbuf_adds(out, text);
		free(text);
	}
	strbuf_addch(out, '\n');
	return 0;
}
