/* report.json -> struct snapshot. The text is walked in place
 * (input/jsonpull.h): each value read is found by key and parsed alone,
 * so the document is never built into a tree (a tree costs about 40 times
 * the text: a 64 MiB report.json took 2.7 GB). Every bad field is named
 * by its JSON path (dotted, array elements by index, as sdperf check
 * --max spells them). */
#include "input/snapshot.h"

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

/* A value of the document: where it starts, and its type. */
struct val {
	struct jp_mark m;
	enum jp_type t;
};

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
#define NKNOWN (sizeof(known) / sizeof(known[0]))
#define NCACHE 8 /* objects remembered */

struct objcache {
	size_t pos; /* the object's mark; 0 = empty (no object starts at 0
	             * that is not the root, which is cached too: +1) */
	signed char at[NKNOWN]; /* index in v, -1 when absent */
	struct val v[NKNOWN];
};

/* The reader: the text, the JSON path for messages, the objects whose
 * members were found. */
struct sreader {
	struct jpull p;
	struct jsonerr j;
	struct objcache cache[NCACHE];
	unsigned next; /* cache slot to fill next */
};

/* ---- finding values ------------------------------------------------------ */

static int known_index(const char *key)
{
	size_t i;

	for (i = 0; i < NKNOWN; i++)
		if (!strcmp(known[i], key))
			return (int)i;
	return -1;
}

/* The members of obj with a known key (the first of each), in one pass. */
static struct objcache *members(struct sreader *r, const struct val *obj)
{
	struct objcache *c;
	struct strbuf key = STRBUF_INIT;
	unsigned i;
	int k, more;

	for (i = 0; i < NCACHE; i++)
		if (r->cache[i].pos == obj->m.pos + 1)
			return &r->cache[i];
	/* the root stays: every look-up of a top-level key needs it */
	c = &r->cache[obj->m.depth ? 1 + r->next++ % (NCACHE - 1) : 0];
	c->pos = 0;
	memset(c->at, -1, sizeof(c->at));
	jp_reset(&r->p, &obj->m);
	if (jp_enter(&r->p))
		return NULL;
	for (i = 0; (more = jp_next(&r->p, &key)) == 1; i++) {
		k = known_index(key.buf);
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
static int find(struct sreader *r, const struct val *obj, const char *key,
                struct val *out)
{
	int k = known_index(key), rc;
	struct objcache *c;

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
static cJSON *scalar(struct sreader *r, const struct val *v)
{
	jp_reset(&r->p, &v->m);
	return jp_parse(&r->p, SCALAR_MAX, "a value in report.json");
}

static int is_null(const struct sreader *r, const struct val *v)
{
	return v->t == JP_LITERAL && r->p.buf[v->m.pos] == 'n';
}

/* "PATH.key: what, got 'VALUE'" for the value at v. */
static int bad(struct sreader *r, const char *key, const char *what,
               const struct val *v)
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
static int field(struct sreader *r, const struct val *obj, const char *key,
                 enum jp_type t, const char *what, struct val *out)
{
	int rc = find(r, obj, key, out);

	if (rc < 0)
		return -1;
	if (rc == 0)
		return bad(r, key, "missing", NULL);
	if (out->t != t)
		return bad(r, key, what, out);
	return 0;
}

static int get_obj(struct sreader *r, const struct val *o, const char *key,
                   struct val *out)
{
	return field(r, o, key, JP_OBJECT, "expected an object", out);
}

static int get_arr(struct sreader *r, const struct val *o, const char *key,
                   struct val *out)
{
	return field(r, o, key, JP_ARRAY, "expected an array", out);
}

/* obj[key] parsed when `is` accepts it. */
static cJSON *get_scalar(struct sreader *r, const struct val *o,
                         const char *key, cJSON_bool (*is)(const cJSON *),
                         const char *what)
{
	struct val v;
	cJSON *c;
	size_t old;
	int rc = find(r, o, key, &v);

	if (rc <= 0) {
		if (rc == 0)
			bad(r, key, "missing", NULL);
		return NULL;
	}
	if (v.t == JP_OBJECT || v.t == JP_ARRAY) {
		bad(r, key, what, &v);
		return NULL;
	}
	if (!(c = scalar(r, &v)))
		return NULL;
	if (is(c))
		return c;
	old = jsonerr_push(&r->j, key);
	jsonerr_bad(&r->j, what, c);
	jsonerr_pop(&r->j, old);
	cJSON_Delete(c);
	return NULL;
}

static int get_bool(struct sreader *r, const struct val *o, const char *key,
                    int *out)
{
	cJSON *c = get_scalar(r, o, key, cJSON_IsBool, "expected true/false");

	if (!c)
		return -1;
	*out = cJSON_IsTrue(c) ? 1 : 0;
	cJSON_Delete(c);
	return 0;
}

/* A string: *out is the caller's (xstrdup'ed). */
static int get_str(struct sreader *r, const struct val *o, const char *key,
                   char **out)
{
	cJSON *c = get_scalar(r, o, key, cJSON_IsString, "expected a string");

	if (!c)
		return -1;
	*out = xstrdup(c->valuestring);
	cJSON_Delete(c);
	return 0;
}

/* A finite number within [lo, hi]. */
static int get_num(struct sreader *r, const struct val *o, const char *key,
                   double lo, double hi, double *out)
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
static int get_us(struct sreader *r, const struct val *o, const char *key,
                  int64_t *ns)
{
	double us;

	if (get_num(r, o, key, 0, US_LIMIT, &us))
		return -1;
	*ns = (int64_t)llround(us * 1000.0);
	return 0;
}

static int get_count(struct sreader *r, const struct val *o, const char *key,
                     uint64_t *out)
{
	double v;
	struct val at;

	if (get_num(r, o, key, 0, COUNT_LIMIT, &v))
		return -1;
	if (v != floor(v)) {
		find(r, o, key, &at);
		return bad(r, key, "not an integer", &at);
	}
	*out = (uint64_t)v;
	return 0;
}

/* ---- arrays ---------------------------------------------------------------
 */

/* Elements of the array at a (after the caller checked its type). */
static int count(struct sreader *r, const struct val *a, size_t *n)
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

typedef int (*element_fn)(struct sreader *r, const struct val *el, size_t i,
                          void *ctx);

/* Calls fn on each element of the array at a, its index pushed on the
 * path. */
static int each(struct sreader *r, const struct val *a, element_fn fn,
                void *ctx)
{
	struct val el;
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

/* ---- stages ---------------------------------------------------------------
 */

static int read_type(struct sreader *r, const struct val *o, size_t i,
                     void *ctx)
{
	struct snap_type *t = &((struct snap_stage *)ctx)->types[i];
	char *cat = NULL;
	struct val at;
	int c = -1;

	if (o->t != JP_OBJECT)
		return bad(r, NULL, "expected an object", o);
	if (get_str(r, o, "type", &t->type) ||
	    get_str(r, o, "category", &cat) ||
	    get_count(r, o, "count", &t->count) ||
	    get_us(r, o, "total_us", &t->total_ns))
		goto out;
	c = category_from_name(cat);
	if (c < 0) {
		find(r, o, "category", &at);
		bad(r, "category", "unknown category", &at);
	} else {
		t->cat = (enum category)c;
	}
out:
	free(cat);
	return c < 0 ? -1 : 0;
}

static int read_types(struct sreader *r, const struct val *st,
                      struct snap_stage *ss)
{
	struct val arr;
	size_t n, top;
	int ret;

	if (get_arr(r, st, "top_kernels", &arr) || count(r, &arr, &n))
		return -1;
	top = jsonerr_push(&r->j, "top_kernels");
	if (n > SNAPSHOT_MAX_TYPES) {
		ret =
		    jsonerr_bad(&r->j,
		                "more than " SNAPSHOT_MAX_TYPES_TEXT " kernel "
		                "types (sdperf lists at most 2,000)",
		                NULL);
	} else {
		ss->types = xcalloc(n ? n : 1, sizeof(*ss->types));
		ss->ntypes = n; /* zeroed: freed whole, also after an error */
		ret = each(r, &arr, read_type, ss);
	}
	jsonerr_pop(&r->j, top);
	return ret;
}

static int read_cats(struct sreader *r, const struct val *st,
                     struct snap_stage *ss)
{
	struct val cats, co;
	size_t top, old;
	int c, ret = 0;

	if (get_obj(r, st, "categories", &cats))
		return -1;
	top = jsonerr_push(&r->j, "categories");
	for (c = 0; c < CAT_COUNT && !ret; c++) {
		ret = get_obj(r, &cats, category_names[c], &co);
		if (!ret) {
			old = jsonerr_push(&r->j, category_names[c]);
			ret = get_us(r, &co, "time_us", &ss->cat_ns[c]);
			jsonerr_pop(&r->j, old);
		}
	}
	jsonerr_pop(&r->j, top);
	return ret;
}

static int read_stage(struct sreader *r, const struct val *st,
                      struct snap_stage *ss)
{
	struct val comm;
	size_t old;
	int ret;

	if (get_count(r, st, "kernels", &ss->kernels) ||
	    get_us(r, st, "kernel_time_us", &ss->kernel_ns) ||
	    get_us(r, st, "wall_time_us", &ss->wall_ns) || read_cats(r, st, ss))
		return -1;
	if (get_obj(r, st, "communication", &comm))
		return -1;
	old = jsonerr_push(&r->j, "communication");
	ret = get_us(r, &comm, "kernel_time_us", &ss->comm_ns) ||
	      get_us(r, &comm, "exposed_us", &ss->exposed_ns);
	jsonerr_pop(&r->j, old);
	if (ret || read_types(r, st, ss))
		return -1;
	ss->present = ss->kernels > 0;
	return 0;
}

/* A stage that is absent from "stages" has no kernels; keys this version
 * does not know are skipped (new keys may come within a schema version). */
static int read_stages(struct sreader *r, const struct val *root,
                       struct snapshot *s)
{
	struct val stages, st;
	size_t top, old;
	int i, rc, ret = 0;

	if (get_obj(r, root, "stages", &stages))
		return -1;
	top = jsonerr_push(&r->j, "stages");
	for (i = 0; i < STAGE_COUNT && !ret; i++) {
		rc = find(r, &stages, stage_names[i], &st);
		if (rc <= 0) {
			ret = rc;
			continue;
		}
		old = jsonerr_push(&r->j, stage_names[i]);
		if (st.t != JP_OBJECT)
			ret = bad(r, NULL, "expected an object", &st);
		else
			ret = read_stage(r, &st, &s->stage[i]);
		jsonerr_pop(&r->j, old);
	}
	jsonerr_pop(&r->j, top);
	return ret;
}

/* ---- verdicts -------------------------------------------------------------
 */

/* The optional scalar o[key] when its type is t: 1 with *out parsed (the
 * caller deletes it), 0 when absent or of another type, -1 on error. */
static int opt_scalar(struct sreader *r, const struct val *o, const char *key,
                      enum jp_type t, cJSON **out)
{
	struct val v;
	int rc = find(r, o, key, &v);

	*out = NULL;
	if (rc <= 0 || v.t != t)
		return rc < 0 ? -1 : 0;
	*out = scalar(r, &v);
	return *out ? 1 : -1;
}

/* The optional verdict fields: metric and how (strings), rank (a number);
 * absent or of another type, they stay NULL / has_rank 0. */
static int read_verdict_extra(struct sreader *r, const struct val *o,
                              struct snap_verdict *v)
{
	cJSON *c;
	int rc;

	if ((rc = opt_scalar(r, o, "metric", JP_STRING, &c)) < 0)
		return -1;
	v->metric = rc ? xstrdup(c->valuestring) : NULL;
	cJSON_Delete(c);
	if ((rc = opt_scalar(r, o, "how", JP_STRING, &c)) < 0)
		return -1;
	v->how = rc ? xstrdup(c->valuestring) : NULL;
	cJSON_Delete(c);
	if ((rc = opt_scalar(r, o, "rank", JP_NUMBER, &c)) < 0)
		return -1;
	v->has_rank = rc;
	v->rank = rc ? c->valuedouble : 0;
	cJSON_Delete(c);
	return 0;
}

static int read_verdict(struct sreader *r, const struct val *o, size_t i,
                        void *ctx)
{
	struct snapshot *s = ctx;
	struct snap_verdict *v = &s->verdicts[i];
	char *stage = NULL;
	struct val val;
	int st = 0, ret = -1;

	if (o->t != JP_OBJECT)
		return bad(r, NULL, "expected an object", o);
	if (get_str(r, o, "id", &v->id) || get_str(r, o, "stage", &stage) ||
	    get_bool(r, o, "applicable", &v->applicable) ||
	    get_bool(r, o, "fired", &v->fired) ||
	    get_num(r, o, "threshold_pct", -1e300, 1e300, &v->threshold))
		goto out;
	st = strcmp(stage, stage_names[STAGE_ALL]) ? stage_from_name(stage)
	                                           : STAGE_ALL;
	if (st < 0) {
		find(r, o, "stage", &val);
		bad(r, "stage", "unknown stage", &val);
		goto out;
	}
	v->stage = (enum stage)st;
	/* null is how a not-applicable verdict says "no value" */
	if (v->applicable || find(r, o, "value_pct", &val) != 1 ||
	    !is_null(r, &val))
		if (get_num(r, o, "value_pct", -1e300, 1e300, &v->value))
			goto out;
	if (read_verdict_extra(r, o, v))
		goto out;
	ret = 0;
out:
	free(stage);
	return ret;
}

static int read_verdicts(struct sreader *r, const struct val *root,
                         struct snapshot *s)
{
	struct val arr;
	size_t n, top;
	int ret;

	if (get_arr(r, root, "verdicts", &arr) || count(r, &arr, &n))
		return -1;
	top = jsonerr_push(&r->j, "verdicts");
	if (n > SNAPSHOT_MAX_VERDICTS) {
		ret = jsonerr_bad(&r->j, "more than 4,096 verdicts", NULL);
	} else {
		s->verdicts = xcalloc(n ? n : 1, sizeof(*s->verdicts));
		s->nverdicts = n;
		ret = each(r, &arr, read_verdict, s);
	}
	jsonerr_pop(&r->j, top);
	return ret;
}

/* ---- ranks ----------------------------------------------------------------
 */

static int read_rank_dit(struct sreader *r, const struct val *o,
                         struct snap_rank *k)
{
	struct val st, dit;
	size_t old;
	int ret;

	if (get_obj(r, o, "stages", &st))
		return -1;
	old = jsonerr_push(&r->j, "stages");
	ret = get_obj(r, &st, stage_names[STAGE_DIT], &dit);
	jsonerr_push(&r->j, stage_names[STAGE_DIT]);
	ret = ret || get_us(r, &dit, "kernel_time_us", &k->dit_kernel_ns) ||
	      get_us(r, &dit, "wall_time_us", &k->dit_wall_ns) ||
	      get_us(r, &dit, "exposed_comm_us", &k->dit_exposed_ns);
	jsonerr_pop(&r->j, old);
	return ret ? -1 : 0;
}

/* step_trace_time.csv rows: "steps_total" when the report lists only
 * the first ones, else the length of "steps". */
static int read_rank_steps(struct sreader *r, const struct val *o,
                           struct snap_rank *k)
{
	struct val steps, tot;
	uint64_t n;

	if (get_arr(r, o, "steps", &steps) || count(r, &steps, &k->nsteps))
		return -1;
	if (find(r, o, "steps_total", &tot) == 1) {
		if (get_count(r, o, "steps_total", &n))
			return -1;
		k->nsteps = (size_t)n;
	}
	return 0;
}

static int read_rank(struct sreader *r, const struct val *o, size_t i,
                     void *ctx)
{
	struct snap_rank *k = &((struct snapshot *)ctx)->ranks[i];
	struct val comm;
	double id;
	size_t old;
	int ret, rc;

	if (o->t != JP_OBJECT)
		return bad(r, NULL, "expected an object", o);
	if (get_num(r, o, "id", -2147483648.0, 2147483647.0, &id) ||
	    get_bool(r, o, "analysed", &k->analysed) ||
	    read_rank_dit(r, o, k) ||
	    get_us(r, o, "dit_compute_us", &k->dit_compute_ns))
		return -1;
	k->id = (int32_t)id;
	k->comm_wait_ns = -1;
	rc = find(r, o, "communication", &comm);
	if (rc < 0)
		return -1;
	if (rc == 0 || !is_null(r, &comm)) {
		if (get_obj(r, o, "communication", &comm))
			return -1;
		old = jsonerr_push(&r->j, "communication");
		ret = get_us(r, &comm, "wait_us", &k->comm_wait_ns);
		jsonerr_pop(&r->j, old);
		if (ret)
			return -1;
	}
	return read_rank_steps(r, o, k);
}

static int read_ranks(struct sreader *r, const struct val *root,
                      struct snapshot *s)
{
	struct val arr;
	size_t n, top;
	int ret;

	if (get_arr(r, root, "ranks", &arr) || count(r, &arr, &n))
		return -1;
	top = jsonerr_push(&r->j, "ranks");
	if (n > SNAPSHOT_MAX_RANKS) {
		ret = jsonerr_bad(&r->j, "more than 65,536 ranks", NULL);
	} else {
		s->ranks = xcalloc(n ? n : 1, sizeof(*s->ranks));
		s->nranks = n;
		ret = each(r, &arr, read_rank, s);
	}
	jsonerr_pop(&r->j, top);
	return ret;
}

/* ---- the document ---------------------------------------------------------
 */

static int read_profile(struct sreader *r, const struct val *root,
                        struct snapshot *s)
{
	struct val prof, steps;
	uint64_t n = 0;
	size_t old;
	int ret;

	if (get_obj(r, root, "profile", &prof))
		return -1;
	old = jsonerr_push(&r->j, "profile");
	ret = get_count(r, &prof, "kernels", &s->kernels);
	if (!ret)
		ret = get_obj(r, &prof, "steps", &steps);
	if (!ret) {
		jsonerr_push(&r->j, "steps");
		ret = get_count(r, &steps, "count", &n);
		s->nsteps = (size_t)n;
	}
	jsonerr_pop(&r->j, old);
	return ret;
}

static int read_header(struct sreader *r, const struct val *root,
                       struct snapshot *s)
{
	struct val sv, tool;
	cJSON *c;
	char *tname = NULL;
	size_t old;
	int ret, v1;

	if (find(r, root, "schema_version", &sv) != 1 || sv.t != JP_NUMBER)
		return err_set(r->j.e, ERR_INPUT,
		               "%s: not an sdperf report (no schema_version)",
		               r->j.name);
	if (!(c = scalar(r, &sv)))
		return -1;
	v1 = c->valuedouble == 1;
	if (!v1) {
		jsonerr_push(&r->j, "schema_version");
		jsonerr_bad(&r->j,
		            "unsupported schema_version (this sdperf reads 1)",
		            c);
	}
	cJSON_Delete(c);
	if (!v1 || get_obj(r, root, "tool", &tool))
		return -1;
	old = jsonerr_push(&r->j, "tool");
	ret = get_str(r, &tool, "name", &tname);
	if (!ret && strcmp(tname, "sdperf")) {
		find(r, &tool, "name", &sv);
		ret = bad(r, "name", "not an sdperf report", &sv);
	}
	if (!ret)
		ret = get_str(r, &tool, "version", &s->tool_version);
	jsonerr_pop(&r->j, old);
	free(tname);
	if (ret)
		return -1;
	return read_profile(r, root, s);
}

/* Checks the whole text (a syntax error anywhere is an error) and marks
 * the top-level value. */
static int open_doc(struct jpull *p, const char *name, const char *text,
                    size_t len, struct val *root, struct err *e)
{
	jp_open_mem(p, name, text, len, e);
	if (jp_type(p) == JP_NONE)
		return jp_eof(p)
		           ? err_set(e, ERR_INPUT,
		                     "%s: empty file (no JSON value)", name)
		           : jp_error(p, "JSON syntax error");
	jp_mark(p, &root->m);
	root->t = jp_type(p);
	if (jp_skip(p) || jp_end(p))
		return -1;
	return 0;
}

int snapshot_from_json(const char *name, const char *text, size_t len,
                       struct snapshot *s, struct err *e)
{
	struct sreader r;
	struct val root;
	int ret = -1;

	memset(s, 0, sizeof(*s));
	memset(&r, 0, sizeof(r));
	s->source = xstrdup(name);
	s->from_json = 1;
	jsonerr_init(&r.j, name, '.', e);
	if (open_doc(&r.p, name, text, len, &root, e))
		goto out;
	if (root.t != JP_OBJECT) {
		err_set(e, ERR_INPUT,
		        "%s: not an sdperf report (not a JSON object)", name);
		goto out;
	}
	if (read_header(&r, &root, s) || read_stages(&r, &root, s) ||
	    read_verdicts(&r, &root, s) || read_ranks(&r, &root, s))
		goto out;
	ret = 0;
out:
	jp_close(&r.p);
	jsonerr_release(&r.j);
	return ret;
}

void snapshot_release(struct snapshot *s)
{
	size_t i;
	int k;

	if (!s)
		return;
	for (k = 0; k < STAGE_COUNT; k++) {
		for (i = 0; i < s->stage[k].ntypes; i++)
			free(s->stage[k].types[i].type);
		free(s->stage[k].types);
	}
	for (i = 0; i < s->nverdicts; i++) {
		free(s->verdicts[i].id);
		free(s->verdicts[i].metric);
		free(s->verdicts[i].how);
	}
	free(s->verdicts);
	free(s->ranks);
	free(s->source);
	free(s->tool_version);
	memset(s, 0, sizeof(*s));
}
