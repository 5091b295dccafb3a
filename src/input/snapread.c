/* The value reader of input/snapshot.c (input/snapread.h): the members
 * of an object with a key the reader looks up are found in one pass and
 * remembered; scalars are parsed alone, checked for type and range. */
#include "input/snapread.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "input/jsonerr.h"
#include "input/jsonpull.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define QUOTE_BYTES 64          /* of a value of the wrong type, for messages */
#define SCALAR_MAX  (64u << 10) /* bytes of a string or number read */
/* the largest microsecond value whose ns value llround(us * 1000) is
 * exact: report.json prints 3 decimals, and a double holds every integer
 * below 2^53, so us * 1000 rounds back to the printed integer ns for any
 * |us| < 2^53 / 1000 (about 104 days: any duration, any epoch time) */
#define US_LIMIT    9.0e12
#define COUNT_LIMIT 9.0e15 /* integers below 2^53 are exact */

/* The keys this reader looks up. The members of an object with one of
 * these keys are found in one pass over it and remembered, so that a
 * huge unknown member is passed over once, not once per look-up. */
static const char *const known[] = {"schema_version",
                                    "tool",
                                    "profile",
                                    "stages",
                                    "verdicts",
                                    "ranks",
                                    "name",
                                    "version",
                                    "kernels",
                                    "steps",
                                    "count",
                                    "dit",
                                    "vae",
                                    "text_encoder",
                                    "other",
                                    "kernel_time_us",
                                    "wall_time_us",
                                    "categories",
                                    "FA",
                                    "MatMul",
                                    "Conv",
                                    "Vector",
                                    "Comm",
                                    "Other",
                                    "communication",
                                    "exposed_us",
                                    "top_kernels",
                                    "type",
                                    "category",
                                    "total_us",
                                    "id",
                                    "applicable",
                                    "fired",
                                    "threshold_pct",
                                    "value_pct",
                                    "stage",
                                    "analysed",
                                    "dit_compute_us",
                                    "exposed_comm_us",
                                    "wait_us",
                                    "steps_total",
                                    "time_us",
                                    "metric",
                                    "how",
                                    "rank"};
_Static_assert(sizeof(known) / sizeof(known[0]) == SNAPREAD_NKNOWN,
               "SNAPREAD_NKNOWN counts known[]");

/* ---- finding values ------------------------------------------------------ */

static int known_index(const char *key)
{
	size_t i;

	for (i = 0; i < SNAPREAD_NKNOWN; i++)
		if (!strcmp(known[i], key))
			return (int)i;
	return -1;
}

/* The members of obj with a known key, in one pass; a known key given
 * twice is an error naming it. */
static struct snapread_cache *members(struct snapread *r,
                                      const struct snapread_val *obj)
{
	struct snapread_cache *c;
	struct strbuf key = STRBUF_INIT;
	unsigned i;
	int k, more;

	for (i = 0; i < SNAPREAD_NCACHE; i++)
		if (r->cache[i].pos == obj->m.pos + 1)
			return &r->cache[i];
	/* the root stays: every look-up of a top-level key needs it */
	c = &r->cache[obj->m.depth ? 1 + r->next++ % (SNAPREAD_NCACHE - 1) : 0];
	c->pos = 0;
	memset(c->at, -1, sizeof(c->at));
	jp_reset(&r->p, &obj->m);
	if (jp_enter(&r->p))
		return NULL;
	for (i = 0; (more = jp_next(&r->p, &key)) == 1; i++) {
		k = known_index(key.buf);
		if (k >= 0 && c->at[k] >= 0 && strlen(key.buf) == key.len) {
			/* JSON readers disagree on which of two is meant
			 * (cJSON the first, Python and jq the last): refused,
			 * as the summary reader does */
			struct snapread_val v;
			jp_mark(&r->p, &v.m);
			v.t = jp_type(&r->p);
			snapread_bad(r, key.buf,
			             "given twice (which one is meant?)", &v);
			more = -1;
			break;
		}
		if (k >= 0 && c->at[k] < 0 && strlen(key.buf) == key.len) {
			c->at[k] = (signed char)k;
			jp_mark(&r->p, &c->v[k].m);
			c->v[k].t = jp_type(&r->p);
		}
		if (jp_skip(&r->p)) {
			more = -1;
			break;
		}
	}
	strbuf_release(&key);
	if (more < 0)
		return NULL;
	c->pos = obj->m.pos + 1;
	return c;
}

/* obj[key]: 1 with *out set (and the reader at it), 0 when absent, -1 on
 * error. */
int snapread_find(struct snapread *r, const struct snapread_val *obj,
                  const char *key, struct snapread_val *out)
{
	int k = known_index(key), rc;
	struct snapread_cache *c;

	if (obj->t != JP_OBJECT)
		return 0;
	if (k >= 0) {
		if (!(c = members(r, obj)))
			return -1;
		if (c->at[k] < 0)
			return 0;
		*out = c->v[k];
		jp_reset(&r->p, &out->m);
		return 1;
	}
	rc = jp_find(&r->p, &obj->m, key, &out->m);
	if (rc == 1) {
		jp_reset(&r->p, &out->m);
		out->t = jp_type(&r->p);
	}
	return rc;
}

/* The scalar at v as a cJSON value (the caller deletes it). */
cJSON *snapread_scalar(struct snapread *r, const struct snapread_val *v)
{
	jp_reset(&r->p, &v->m);
	return jp_parse(&r->p, SCALAR_MAX, "a value in report.json");
}

int snapread_is_null(const struct snapread *r, const struct snapread_val *v)
{
	return v->t == JP_LITERAL && r->p.buf[v->m.pos] == 'n';
}

/* "PATH.key: what, got 'VALUE'" for the value at v. */
int snapread_bad(struct snapread *r, const char *key, const char *what,
                 const struct snapread_val *v)
{
	struct strbuf q = STRBUF_INIT;
	size_t old = key ? jsonerr_push(&r->j, key) : r->j.path.len;

	if (!v) {
		jsonerr_bad(&r->j, what, NULL);
	} else {
		jp_reset(&r->p, &v->m);
		if (!jp_skip_quote(&r->p, &q, QUOTE_BYTES))
			jsonerr_bad_text(&r->j, what, q.buf, q.len);
	}
	jsonerr_pop(&r->j, old);
	strbuf_release(&q);
	return -1;
}

/* obj[key] when its type is t; else -1 and an error naming the path. */
static int field(struct snapread *r, const struct snapread_val *obj,
                 const char *key, enum jp_type t, const char *what,
                 struct snapread_val *out)
{
	int rc = snapread_find(r, obj, key, out);

	if (rc < 0)
		return -1;
	if (rc == 0)
		return snapread_bad(r, key, "missing", NULL);
	if (out->t != t)
		return snapread_bad(r, key, what, out);
	return 0;
}

int snapread_get_obj(struct snapread *r, const struct snapread_val *o,
                     const char *key, struct snapread_val *out)
{
	return field(r, o, key, JP_OBJECT, "expected an object", out);
}

int snapread_get_arr(struct snapread *r, const struct snapread_val *o,
                     const char *key, struct snapread_val *out)
{
	return field(r, o, key, JP_ARRAY, "expected an array", out);
}

/* obj[key] parsed when `is` accepts it. */
static cJSON *get_scalar(struct snapread *r, const struct snapread_val *o,
                         const char *key, cJSON_bool (*is)(const cJSON *),
                         const char *what)
{
	struct snapread_val v;
	cJSON *c;
	size_t old;
	int rc = snapread_find(r, o, key, &v);

	if (rc <= 0) {
		if (rc == 0)
			snapread_bad(r, key, "missing", NULL);
		return NULL;
	}
	if (v.t == JP_OBJECT || v.t == JP_ARRAY) {
		snapread_bad(r, key, what, &v);
		return NULL;
	}
	if (!(c = snapread_scalar(r, &v)))
		return NULL;
	if (is(c))
		return c;
	old = jsonerr_push(&r->j, key);
	jsonerr_bad(&r->j, what, c);
	jsonerr_pop(&r->j, old);
	cJSON_Delete(c);
	return NULL;
}

int snapread_get_bool(struct snapread *r, const struct snapread_val *o,
                      const char *key, int *out)
{
	cJSON *c = get_scalar(r, o, key, cJSON_IsBool, "expected true/false");

	if (!c)
		return -1;
	*out = cJSON_IsTrue(c) ? 1 : 0;
	cJSON_Delete(c);
	return 0;
}

/* A string: *out is the caller's (xstrdup'ed). */
int snapread_get_str(struct snapread *r, const struct snapread_val *o,
                     const char *key, char **out)
{
	cJSON *c = get_scalar(r, o, key, cJSON_IsString, "expected a string");

	if (!c)
		return -1;
	*out = xstrdup(c->valuestring);
	cJSON_Delete(c);
	return 0;
}

/* A finite number within [lo, hi]. */
int snapread_get_num(struct snapread *r, const struct snapread_val *o,
                     const char *key, double lo, double hi, double *out)
{
	cJSON *c = get_scalar(r, o, key, cJSON_IsNumber, "expected a number");
	size_t old;

	if (!c)
		return -1;
	*out = c->valuedouble;
	if (!(c->valuedouble >= lo && c->valuedouble <= hi)) {
		old = jsonerr_push(&r->j, key);
		jsonerr_bad(&r->j, "out of range", c);
		jsonerr_pop(&r->j, old);
		cJSON_Delete(c);
		return -1;
	}
	cJSON_Delete(c);
	return 0;
}

/* Microseconds with 3 decimals -> exact integer ns (see US_LIMIT). */
int snapread_get_us(struct snapread *r, const struct snapread_val *o,
                    const char *key, int64_t *ns)
{
	double us;

	if (snapread_get_num(r, o, key, 0, US_LIMIT, &us))
		return -1;
	*ns = (int64_t)llround(us * 1000.0);
	return 0;
}

int snapread_get_count(struct snapread *r, const struct snapread_val *o,
                       const char *key, uint64_t *out)
{
	double v;
	struct snapread_val at;

	if (snapread_get_num(r, o, key, 0, COUNT_LIMIT, &v))
		return -1;
	if (v != floor(v)) {
		snapread_find(r, o, key, &at);
		return snapread_bad(r, key, "not an integer", &at);
	}
	*out = (uint64_t)v;
	return 0;
}

/* ---- arrays ---------------------------------------------------------------
 */

/* Elements of the array at a (after the caller checked its type). */
int snapread_count(struct snapread *r, const struct snapread_val *a, size_t *n)
{
	int more;

	*n = 0;
	jp_reset(&r->p, &a->m);
	if (jp_enter(&r->p))
		return -1;
	while ((more = jp_next(&r->p, NULL)) == 1) {
		if (jp_skip(&r->p))
			return -1;
		++*n;
	}
	return more;
}

/* Calls fn on each element of the array at a, its index pushed on the
 * path. */
int snapread_each(struct snapread *r, const struct snapread_val *a,
                  snapread_element_fn fn, void *ctx)
{
	struct snapread_val el;
	size_t i, old;
	int more;

	jp_reset(&r->p, &a->m);
	if (jp_enter(&r->p))
		return -1;
	for (i = 0; (more = jp_next(&r->p, NULL)) == 1; i++) {
		jp_mark(&r->p, &el.m);
		el.t = jp_type(&r->p);
		old = jsonerr_push_index(&r->j, i);
		more = fn(r, &el, i, ctx);
		jsonerr_pop(&r->j, old);
		/* fn looked around: back to the element, then past it */
		jp_reset(&r->p, &el.m);
		if (more || jp_skip(&r->p))
			return -1;
	}
	return more;
}

/* The optional scalar o[key] when its type is t: 1 with *out parsed (the
 * caller deletes it), 0 when absent or of another type, -1 on error. */
int snapread_opt_scalar(struct snapread *r, const struct snapread_val *o,
                        const char *key, enum jp_type t, cJSON **out)
{
	struct snapread_val v;
	int rc = snapread_find(r, o, key, &v);

	*out = NULL;
	if (rc <= 0 || v.t != t)
		return rc < 0 ? -1 : 0;
	*out = snapread_scalar(r, &v);
	return *out ? 1 : -1;
}
