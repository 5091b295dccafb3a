/* A struct written as JSON by its field table (see ftjson.h). Integers of
 * 2^53 and more (in magnitude) are decimal strings: a JSON reader's
 * double holds every integer below 2^53 exactly, and no more. */
#include "format/json/ftjson.h"

#include <math.h>
#include <stdio.h>

#include "format/json/jsonw.h"
#include "util/banned.h"

#define EXACT_MAX ((int64_t)1 << 53)

static cJSON *table_item(const struct ft_table *t, const char *base);

static void add(cJSON *o, const char *key, cJSON *item)
{
	if (key)
		cJSON_AddItemToObject(o, key, item);
	else
		cJSON_AddItemToArray(o, item);
}

static void add_i64(cJSON *o, const char *key, int64_t v)
{
	char buf[32];

	if (v >= EXACT_MAX || v <= -EXACT_MAX) {
		snprintf(buf, sizeof(buf), "%lld", (long long)v);
		jsonw_add_str(o, key, buf);
	} else {
		jsonw_add_i64(o, key, v);
	}
}

static void add_u64(cJSON *o, const char *key, uint64_t v)
{
	char buf[32];

	if (v >= (uint64_t)EXACT_MAX) {
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
		jsonw_add_str(o, key, buf);
	} else {
		jsonw_add_u64(o, key, v);
	}
}

static void add_dbl(cJSON *o, const char *key, double d)
{
	char buf[40];

	if (isnan(d)) {
		jsonw_add_str(o, key, "nan");
	} else if (isinf(d)) {
		jsonw_add_str(o, key, d < 0 ? "-inf" : "inf");
	} else {
		snprintf(buf, sizeof(buf), "%.17g", d);
		add(o, key, cJSON_CreateRaw(buf));
	}
}

/* A string as it is, bytes that are not UTF-8 included (cJSON reads them
 * back unchanged): a kernel name must merge with its equal of another
 * rank exactly as it does in one process. */
static void add_str(cJSON *o, const char *key, const char *s)
{
	add(o, key, s ? cJSON_CreateString(s) : cJSON_CreateNull());
}

static size_t kind_size(enum ft_kind k)
{
	switch (k) {
	case FT_I64:
	case FT_U64:
		return 8;
	case FT_I32:
		return sizeof(int32_t);
	case FT_INT:
		return sizeof(int);
	case FT_UINT:
		return sizeof(unsigned);
	case FT_UCH:
		return 1;
	case FT_SIZE:
		return sizeof(size_t);
	case FT_DBL:
		return sizeof(double);
	default:
		return sizeof(char *);
	}
}

static void add_list(cJSON *o, const char *key, const struct ft_field *f,
                     const char *base)
{
	const char *arr = *(char *const *)(base + f->off);
	size_t n = *(const size_t *)(base + f->count_off), i;
	cJSON *a = jsonw_add_array(o, key);

	for (i = 0; i < n; i++)
		add(a, NULL, table_item(f->sub, arr + i * f->size));
}

/* One value of f at p under key (NULL: an array element). */
static void add_one(cJSON *o, const char *key, const struct ft_field *f,
                    const char *p)
{
	switch (f->kind) {
	case FT_I64:
		add_i64(o, key, *(const int64_t *)p);
		break;
	case FT_I32:
		add_i64(o, key, *(const int32_t *)p);
		break;
	case FT_INT:
		add_i64(o, key, *(const int *)p);
		break;
	case FT_U64:
		add_u64(o, key, *(const uint64_t *)p);
		break;
	case FT_UINT:
		add_u64(o, key, *(const unsigned *)p);
		break;
	case FT_UCH:
		add_u64(o, key, *(const unsigned char *)p);
		break;
	case FT_SIZE:
		add_u64(o, key, *(const size_t *)p);
		break;
	case FT_DBL:
		add_dbl(o, key, *(const double *)p);
		break;
	case FT_STR:
	case FT_SYM:
		add_str(o, key, *(const char *const *)p);
		break;
	case FT_CHARS:
		add_str(o, key, (const char *)p);
		break;
	case FT_SUB:
		add(o, key, table_item(f->sub, p));
		break;
	case FT_LIST:
		add_list(o, key, f, p - f->off);
		break;
	}
}

static void add_field(cJSON *o, const char *key, const struct ft_field *f,
                      const char *base)
{
	size_t stride = f->kind == FT_SUB ? f->size : kind_size(f->kind), i;
	cJSON *a;

	if (f->n <= 1) {
		add_one(o, key, f, base + f->off);
		return;
	}
	a = jsonw_add_array(o, key);
	for (i = 0; i < f->n; i++)
		add_one(a, NULL, f, base + f->off + i * stride);
}

static cJSON *table_item(const struct ft_table *t, const char *base)
{
	cJSON *o, *holder;

	if (t->n == 1 && !t->f[0].key) {
		/* the element itself: built in a holder, then detached */
		holder = cJSON_CreateArray();
		add_field(holder, NULL, &t->f[0], base);
		o = cJSON_DetachItemFromArray(holder, 0);
		cJSON_Delete(holder);
		return o;
	}
	o = cJSON_CreateObject();
	ftjson_add_members(o, t, base);
	return o;
}

void ftjson_add_members(cJSON *o, const struct ft_table *t, const void *base)
{
	size_t k;

	for (k = 0; k < t->n; k++)
		add_field(o, t->f[k].key, &t->f[k], base);
}
