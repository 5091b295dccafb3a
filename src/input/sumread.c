/* A summary file read back by its field table (util/fieldtab.h). The
 * whole file is parsed into a cJSON tree: a summary is small by design
 * (every list in it is capped), and its size is checked and charged to
 * the memory budget before the tree is built. */
#include "input/sumread.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "input/jsonerr.h"
#include "util/fileio.h"
#include "util/membudget.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* What a parsed tree costs per byte of text, at most: a cJSON node is 64
 * bytes, and the densest summary text spends two bytes per number ("0,"). */
#define TREE_PER_BYTE 32

/* Integers of 2^53 and more (in magnitude) are written as decimal strings
 * (a double would round them); below it, as numbers. */
#define EXACT_MAX 9007199254740992.0

int sumread_sniff(const char *path)
{
	char buf[64];
	size_t n, i = 0, m = strlen(SUMREAD_MAGIC);
	FILE *f;

	if (fileio_kind(path) != 0 || !(f = fopen(path, "rb")))
		return 0;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	while (i < n && strchr(" \t\r\n", buf[i]))
		i++;
	return n - i >= m && !memcmp(buf + i, SUMREAD_MAGIC, m);
}

struct rd {
	struct jsonerr j;
};

static int read_table(struct rd *r, const cJSON *o, const struct ft_table *t,
                      char *base);

/* An integer value: a number without a fraction within +-2^53, or a
 * string of decimal digits (the writer's form beyond that). */
static int get_int(const cJSON *v, int is_unsigned, int64_t *i, uint64_t *u)
{
	const char *s;
	char *end;

	if (cJSON_IsNumber(v)) {
		double d = v->valuedouble;
		if (d != floor(d) || d >= EXACT_MAX || d <= -EXACT_MAX ||
		    (is_unsigned && d < 0))
			return -1;
		*i = (int64_t)d;
		*u = (uint64_t)(is_unsigned ? d : 0);
		return 0;
	}
	if (!cJSON_IsString(v) || !(s = v->valuestring) ||
	    !((*s >= '0' && *s <= '9') || (*s == '-' && !is_unsigned)))
		return -1;
	errno = 0;
	if (is_unsigned)
		*u = strtoull(s, &end, 10);
	else
		*i = strtoll(s, &end, 10);
	return errno || *end || end == s ? -1 : 0;
}

static int bad_int(struct rd *r, const struct ft_field *f, const cJSON *v)
{
	char what[96];

	if (f->min < f->max)
		snprintf(what, sizeof(what), "not an integer from %lld to %lld",
		         (long long)f->min, (long long)f->max);
	else
		snprintf(what, sizeof(what), "not an integer in range");
	return jsonerr_bad(&r->j, what, v);
}

/* Stores integer v (already in the kind's range) at p. */
static void put_int(enum ft_kind k, void *p, int64_t i, uint64_t u)
{
	switch (k) {
	case FT_I64:
		*(int64_t *)p = i;
		break;
	case FT_U64:
		*(uint64_t *)p = u;
		break;
	case FT_I32:
		*(int32_t *)p = (int32_t)i;
		break;
	case FT_INT:
		*(int *)p = (int)i;
		break;
	case FT_UINT:
		*(unsigned *)p = (unsigned)u;
		break;
	case FT_UCH:
		*(unsigned char *)p = (unsigned char)u;
		break;
	case FT_SIZE:
		*(size_t *)p = (size_t)u;
		break;
	default:
		break;
	}
}

/* The range of each integer kind, where the table gives none. */
static void kind_range(enum ft_kind k, int64_t *lo, uint64_t *hi)
{
	*lo = 0;
	switch (k) {
	case FT_I64:
		*lo = INT64_MIN;
		*hi = INT64_MAX;
		break;
	case FT_I32:
		*lo = INT32_MIN;
		*hi = INT32_MAX;
		break;
	case FT_INT:
		*lo = -2147483647 - 1;
		*hi = 2147483647;
		break;
	case FT_UINT:
		*hi = 0xffffffffu;
		break;
	case FT_UCH:
		*hi = 255;
		break;
	case FT_SIZE:
		*hi = SIZE_MAX;
		break;
	default:
		*hi = UINT64_MAX;
		break;
	}
}

static int is_unsigned_kind(enum ft_kind k)
{
	return k == FT_U64 || k == FT_UINT || k == FT_UCH || k == FT_SIZE;
}

static int read_int(struct rd *r, const struct ft_field *f, const cJSON *v,
                    void *p)
{
	int64_t i = 0, lo;
	uint64_t u = 0, hi;
	int uns = is_unsigned_kind(f->kind);

	kind_range(f->kind, &lo, &hi);
	if (f->min < f->max) {
		lo = f->min;
		hi = (uint64_t)f->max;
	}
	if (get_int(v, uns, &i, &u))
		return bad_int(r, f, v);
	if (uns ? u > hi || (lo > 0 && u < (uint64_t)lo)
	        : i < lo || (i >= 0 && (uint64_t)i > hi))
		return bad_int(r, f, v);
	put_int(f->kind, p, i, u);
	return 0;
}

/* A double: a finite JSON number within the field's range (f->min to
 * f->max when they differ), else within +-2^61, so that the sums of
 * 65,536 summaries stay finite. A string is no number: "nan", "inf" and
 * "-inf" are refused as any other (a summary is data from a stranger, and
 * a NaN taken from it would reach report.json as a bare nan, which is no
 * JSON). */
static int read_dbl(struct rd *r, const struct ft_field *f, const cJSON *v,
                    double *d)
{
	double lo = -(double)FT_TIME_MAX, hi = (double)FT_TIME_MAX, x;
	char what[96];

	if (f->min < f->max) {
		lo = (double)f->min;
		hi = (double)f->max;
	}
	if (!cJSON_IsNumber(v))
		return jsonerr_bad(&r->j, "not a number", v);
	x = v->valuedouble;
	if (!isfinite(x) || x < lo || x > hi) {
		snprintf(what, sizeof(what),
		         "not a finite number from %.0f to %.0f", lo, hi);
		return jsonerr_bad(&r->j, what, v);
	}
	*d = x;
	return 0;
}

static int read_str(struct rd *r, const struct ft_field *f, const cJSON *v,
                    void *p)
{
	size_t k;

	if (cJSON_IsNull(v))
		return 0;
	if (!cJSON_IsString(v) || !v->valuestring)
		return jsonerr_bad(&r->j, "not a string or null", v);
	if (f->kind == FT_STR) {
		*(char **)p = xstrdup(v->valuestring);
		return 0;
	}
	if (f->kind == FT_CHARS) {
		if (strlen(v->valuestring) >= f->size)
			return jsonerr_bad(&r->j, "a string too long", v);
		memcpy(p, v->valuestring, strlen(v->valuestring) + 1);
		return 0;
	}
	for (k = 0; k < f->nsyms; k++)
		if (!strcmp(f->syms[k], v->valuestring)) {
			*(const char **)p = f->syms[k];
			return 0;
		}
	return jsonerr_bad(&r->j, "not a known name", v);
}

static int read_list(struct rd *r, const struct ft_field *f, const cJSON *v,
                     char *base)
{
	size_t n, i;
	const cJSON *el;
	char *arr;

	if (!cJSON_IsArray(v))
		return jsonerr_bad(&r->j, "not an array", NULL);
	n = (size_t)cJSON_GetArraySize(v);
	if (n > f->maxn) {
		char what[80];
		snprintf(what, sizeof(what), "%zu elements, more than %zu", n,
		         f->maxn);
		return jsonerr_bad(&r->j, what, NULL);
	}
	arr = xcalloc(n ? n : 1, f->size);
	*(char **)(base + f->off) = arr;
	*(size_t *)(base + f->count_off) = n;
	i = 0;
	cJSON_ArrayForEach (el, v) {
		size_t old = jsonerr_push_index(&r->j, i);
		if (read_table(r, el, f->sub, arr + i * f->size))
			return -1;
		jsonerr_pop(&r->j, old);
		i++;
	}
	return 0;
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
	case FT_STR:
	case FT_SYM:
		return sizeof(char *);
	default:
		return 0;
	}
}

/* One value of field f at p (one element of a fixed array when n > 1). */
static int read_one(struct rd *r, const struct ft_field *f, const cJSON *v,
                    char *p)
{
	switch (f->kind) {
	case FT_DBL:
		return read_dbl(r, f, v, (double *)p);
	case FT_STR:
	case FT_SYM:
	case FT_CHARS:
		return read_str(r, f, v, p);
	case FT_SUB:
		return read_table(r, v, f->sub, p);
	case FT_LIST:
		return read_list(r, f, v, p - f->off);
	default:
		return read_int(r, f, v, p);
	}
}

static int read_field(struct rd *r, const struct ft_field *f, const cJSON *v,
                      char *base)
{
	size_t stride = f->kind == FT_SUB ? f->size : kind_size(f->kind), i;
	const cJSON *el;

	if (f->n <= 1)
		return read_one(r, f, v, base + f->off);
	if (!cJSON_IsArray(v) || (size_t)cJSON_GetArraySize(v) != f->n) {
		char what[64];
		snprintf(what, sizeof(what), "not an array of %zu", f->n);
		return jsonerr_bad(&r->j, what, NULL);
	}
	i = 0;
	cJSON_ArrayForEach (el, v) {
		size_t old = jsonerr_push_index(&r->j, i);
		if (read_one(r, f, el, base + f->off + i * stride))
			return -1;
		jsonerr_pop(&r->j, old);
		i++;
	}
	return 0;
}

static int read_table(struct rd *r, const cJSON *o, const struct ft_table *t,
                      char *base)
{
	size_t k;

	if (t->n == 1 && !t->f[0].key)
		return read_field(r, &t->f[0], o, base);
	if (!cJSON_IsObject(o))
		return jsonerr_bad(&r->j, "not an object", NULL);
	for (k = 0; k < t->n; k++) {
		const struct ft_field *f = &t->f[k];
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, f->key);
		size_t old = jsonerr_push(&r->j, f->key);
		const cJSON *d = v;
		if (!v)
			return jsonerr_bad(&r->j, "missing", NULL);
		/* a member twice would be read as its first here and as
		 * its last by most other readers: which one is meant? */
		while ((d = d->next) &&
		       (!d->string || strcmp(d->string, f->key)))
			;
		if (d)
			return jsonerr_bad(
			    &r->j, "given twice (which one is meant?)", d);
		if (read_field(r, f, v, base))
			return -1;
		jsonerr_pop(&r->j, old);
	}
	return 0;
}

/* ---- what the strings read hold ---------------------------------------- */

static uint64_t table_str_bytes(const struct ft_table *t, const char *base);

/* malloc's header and rounding, per block */
#define STR_OVERHEAD 16

static uint64_t field_str_bytes(const struct ft_field *f, const char *base)
{
	size_t stride = f->kind == FT_SUB ? f->size : kind_size(f->kind);
	size_t n = f->n > 1 ? f->n : 1, i, k, cnt;
	uint64_t b = 0;

	for (i = 0; i < n; i++) {
		const char *p = base + f->off + i * stride;
		const char *s;
		switch (f->kind) {
		case FT_STR:
			s = *(char *const *)p;
			b += s ? strlen(s) + 1 + STR_OVERHEAD : 0;
			break;
		case FT_SUB:
			b += table_str_bytes(f->sub, p);
			break;
		case FT_LIST:
			cnt = *(const size_t *)(base + f->count_off);
			s = *(char *const *)p;
			for (k = 0; s && k < cnt; k++)
				b += table_str_bytes(f->sub, s + k * f->size);
			break;
		default:
			break;
		}
	}
	return b;
}

static uint64_t table_str_bytes(const struct ft_table *t, const char *base)
{
	uint64_t b = 0;
	size_t k;

	for (k = 0; k < t->n; k++)
		b += field_str_bytes(&t->f[k], base);
	return b;
}

uint64_t sumread_str_bytes(const struct ft_table *t, const void *base)
{
	return table_str_bytes(t, base);
}

static int check_version(struct rd *r, const cJSON *root, int version)
{
	const cJSON *v =
	    cJSON_GetObjectItemCaseSensitive(root, "sdperf_summary");
	size_t old = jsonerr_push(&r->j, "sdperf_summary");

	if (!cJSON_IsObject(root) || !v)
		return err_set(r->j.e, ERR_INPUT,
		               "%s: not an sdperf summary (no "
		               "\"sdperf_summary\" member)",
		               r->j.name);
	if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) ||
	    v->valuedouble < 1 || v->valuedouble > 1e6)
		return jsonerr_bad(&r->j, "not a format version", v);
	if ((int)v->valuedouble != version)
		return err_set(
		    r->j.e, ERR_INPUT,
		    "%s: a summary of format version %d; this sdperf "
		    "reads version %d: run sdperf summarize again "
		    "with this sdperf",
		    r->j.name, (int)v->valuedouble, version);
	jsonerr_pop(&r->j, old);
	return 0;
}

int sumread_text(const char *name, const char *text, size_t len, int version,
                 const struct ft_table *t, void *base, struct err *e)
{
	struct rd r;
	cJSON *root;
	uint64_t cost = (uint64_t)len * TREE_PER_BYTE;
	int ret = -1;

	if (membudget_charge(cost))
		return membudget_fail(e, cost, "%s: the summary's %.1f MiB",
		                      name, (double)len / 1048576.0);
	jsonerr_init(&r.j, name, '.', e);
	root = jsonerr_parse(name, text, len, e);
	if (root && !check_version(&r, root, version))
		ret = read_table(&r, root, t, base);
	cJSON_Delete(root);
	jsonerr_release(&r.j);
	membudget_release(cost);
	return ret;
}

int sumread_file(const char *path, size_t max, int version,
                 const struct ft_table *t, void *base, struct err *e)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = -1;

	if (fileio_read_small(path, max, &sb, e) == 0)
		ret = sumread_text(path, sb.buf ? sb.buf : "", sb.len, version,
		                   t, base, e);
	strbuf_release(&sb);
	return ret;
}
