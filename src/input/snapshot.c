/* report.json -> struct snapshot, and path look-ups into a report.json for
 * sdperf check. Every bad field is named by its JSON path (dotted, array
 * elements by index, as sdperf check --max spells them). */
#include "input/snapshot.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "input/jsonerr.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define QUOTE_MAX 60 /* bytes of a bad value quoted in a message */
/* the largest microsecond value whose ns value llround(us * 1000) is
 * exact: report.json prints 3 decimals, and a double holds every integer
 * below 2^53, so us * 1000 rounds back to the printed integer ns for any
 * |us| < 2^53 / 1000 (about 104 days: any duration, any epoch time) */
#define US_LIMIT    9.0e12
#define COUNT_LIMIT 9.0e15 /* integers below 2^53 are exact */

struct snapdoc {
	cJSON *root;
};

/* ---- typed fields ------------------------------------------------------- */

/* obj[key] when `is` accepts it; else NULL and an error naming the path. */
static const cJSON *field(struct jsonerr *r, const cJSON *obj, const char *key,
                          cJSON_bool (*is)(const cJSON *), const char *what)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	size_t old;

	if (v && is(v))
		return v;
	old = jsonerr_push(r, key);
	if (!v)
		jsonerr_bad(r, "missing", NULL);
	else
		jsonerr_bad(r, what, v);
	jsonerr_pop(r, old);
	return NULL;
}

static const cJSON *get_obj(struct jsonerr *r, const cJSON *o, const char *key)
{
	return field(r, o, key, cJSON_IsObject, "expected an object");
}

static const cJSON *get_arr(struct jsonerr *r, const cJSON *o, const char *key)
{
	return field(r, o, key, cJSON_IsArray, "expected an array");
}

static int get_bool(struct jsonerr *r, const cJSON *o, const char *key,
                    int *out)
{
	const cJSON *v = field(r, o, key, cJSON_IsBool, "expected true/false");

	if (!v)
		return -1;
	*out = cJSON_IsTrue(v) ? 1 : 0;
	return 0;
}

static int get_str(struct jsonerr *r, const cJSON *o, const char *key,
                   const char **out)
{
	const cJSON *v = field(r, o, key, cJSON_IsString, "expected a string");

	if (!v)
		return -1;
	*out = v->valuestring;
	return 0;
}

/* A finite number within [lo, hi]. */
static int get_num(struct jsonerr *r, const cJSON *o, const char *key,
                   double lo, double hi, double *out)
{
	const cJSON *v = field(r, o, key, cJSON_IsNumber, "expected a number");
	size_t old;

	if (!v)
		return -1;
	if (!(v->valuedouble >= lo && v->valuedouble <= hi)) {
		old = jsonerr_push(r, key);
		jsonerr_bad(r, "out of range", v);
		jsonerr_pop(r, old);
		return -1;
	}
	*out = v->valuedouble;
	return 0;
}

/* Microseconds with 3 decimals -> exact integer ns (see US_LIMIT). */
static int get_us(struct jsonerr *r, const cJSON *o, const char *key,
                  int64_t *ns)
{
	double us;

	if (get_num(r, o, key, 0, US_LIMIT, &us))
		return -1;
	*ns = (int64_t)llround(us * 1000.0);
	return 0;
}

static int get_count(struct jsonerr *r, const cJSON *o, const char *key,
                     uint64_t *out)
{
	double v;
	size_t old;

	if (get_num(r, o, key, 0, COUNT_LIMIT, &v))
		return -1;
	if (v != floor(v)) {
		old = jsonerr_push(r, key);
		jsonerr_bad(r, "not an integer",
		            cJSON_GetObjectItemCaseSensitive(o, key));
		jsonerr_pop(r, old);
		return -1;
	}
	*out = (uint64_t)v;
	return 0;
}

/* ---- stages ---------------------------------------------------------------
 */

static int read_type(struct jsonerr *r, const cJSON *o, struct snap_type *t)
{
	const char *type, *cat;
	int c;

	if (!cJSON_IsObject(o))
		return jsonerr_bad(r, "expected an object", o);
	if (get_str(r, o, "type", &type) || get_str(r, o, "category", &cat) ||
	    get_count(r, o, "count", &t->count) ||
	    get_us(r, o, "total_us", &t->total_ns))
		return -1;
	c = category_from_name(cat);
	if (c < 0) {
		size_t old = jsonerr_push(r, "category");
		jsonerr_bad(r, "unknown category",
		            cJSON_GetObjectItemCaseSensitive(o, "category"));
		jsonerr_pop(r, old);
		return -1;
	}
	t->cat = (enum category)c;
	t->type = xstrdup(type);
	return 0;
}

static int read_types(struct jsonerr *r, const cJSON *st, struct snap_stage *ss)
{
	const cJSON *arr = get_arr(r, st, "top_kernels"), *it;
	size_t n, old, top;
	int ret = 0;

	if (!arr)
		return -1;
	n = (size_t)cJSON_GetArraySize(arr);
	ss->types = xcalloc(n ? n : 1, sizeof(*ss->types));
	top = jsonerr_push(r, "top_kernels");
	cJSON_ArrayForEach (it, arr) {
		old = jsonerr_push_index(r, ss->ntypes);
		ret = read_type(r, it, &ss->types[ss->ntypes]);
		jsonerr_pop(r, old);
		if (ret)
			break;
		ss->ntypes++;
	}
	jsonerr_pop(r, top);
	return ret;
}

static int read_cats(struct jsonerr *r, const cJSON *st, struct snap_stage *ss)
{
	const cJSON *cats = get_obj(r, st, "categories"), *co;
	size_t top;
	int c, ret = 0;

	if (!cats)
		return -1;
	top = jsonerr_push(r, "categories");
	for (c = 0; c < CAT_COUNT && !ret; c++) {
		co = get_obj(r, cats, category_names[c]);
		if (co) {
			size_t old = jsonerr_push(r, category_names[c]);
			ret = get_us(r, co, "time_us", &ss->cat_ns[c]);
			jsonerr_pop(r, old);
		} else {
			ret = -1;
		}
	}
	jsonerr_pop(r, top);
	return ret;
}

static int read_stage(struct jsonerr *r, const cJSON *st, struct snap_stage *ss)
{
	const cJSON *comm;
	size_t old;
	int ret;

	if (get_count(r, st, "kernels", &ss->kernels) ||
	    get_us(r, st, "kernel_time_us", &ss->kernel_ns) ||
	    get_us(r, st, "wall_time_us", &ss->wall_ns) || read_cats(r, st, ss))
		return -1;
	comm = get_obj(r, st, "communication");
	if (!comm)
		return -1;
	old = jsonerr_push(r, "communication");
	ret = get_us(r, comm, "kernel_time_us", &ss->comm_ns) ||
	      get_us(r, comm, "exposed_us", &ss->exposed_ns);
	jsonerr_pop(r, old);
	if (ret || read_types(r, st, ss))
		return -1;
	ss->present = ss->kernels > 0;
	return 0;
}

/* A stage that is absent from "stages" has no kernels; keys this version
 * does not know are skipped (new keys may come within a schema version). */
static int read_stages(struct jsonerr *r, const cJSON *root, struct snapshot *s)
{
	const cJSON *stages = get_obj(r, root, "stages"), *st;
	size_t top, old;
	int i, ret = 0;

	if (!stages)
		return -1;
	top = jsonerr_push(r, "stages");
	for (i = 0; i < STAGE_COUNT && !ret; i++) {
		st = cJSON_GetObjectItemCaseSensitive(stages, stage_names[i]);
		if (!st)
			continue;
		old = jsonerr_push(r, stage_names[i]);
		if (!cJSON_IsObject(st))
			ret = jsonerr_bad(r, "expected an object", st);
		else
			ret = read_stage(r, st, &s->stage[i]);
		jsonerr_pop(r, old);
	}
	jsonerr_pop(r, top);
	return ret;
}

/* ---- verdicts -------------------------------------------------------------
 */

/* A copy of the string o[key], or NULL when it is absent or no string. */
static char *opt_str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? xstrdup(v->valuestring) : NULL;
}

static int read_verdict(struct jsonerr *r, const cJSON *o,
                        struct snap_verdict *v)
{
	const char *id, *stage;
	const cJSON *val;
	int st;

	if (!cJSON_IsObject(o))
		return jsonerr_bad(r, "expected an object", o);
	if (get_str(r, o, "id", &id) || get_str(r, o, "stage", &stage) ||
	    get_bool(r, o, "applicable", &v->applicable) ||
	    get_bool(r, o, "fired", &v->fired) ||
	    get_num(r, o, "threshold_pct", -1e300, 1e300, &v->threshold))
		return -1;
	st = strcmp(stage, stage_names[STAGE_ALL]) ? stage_from_name(stage)
	                                           : STAGE_ALL;
	if (st < 0) {
		size_t old = jsonerr_push(r, "stage");
		jsonerr_bad(r, "unknown stage",
		            cJSON_GetObjectItemCaseSensitive(o, "stage"));
		jsonerr_pop(r, old);
		return -1;
	}
	v->stage = (enum stage)st;
	val = cJSON_GetObjectItemCaseSensitive(o, "value_pct");
	/* null is how a not-applicable verdict says "no value" */
	if (!(v->applicable == 0 && cJSON_IsNull(val)) &&
	    get_num(r, o, "value_pct", -1e300, 1e300, &v->value))
		return -1;
	v->id = xstrdup(id);
	v->metric = opt_str(o, "metric");
	v->how = opt_str(o, "how");
	val = cJSON_GetObjectItemCaseSensitive(o, "rank");
	v->has_rank = cJSON_IsNumber(val);
	v->rank = v->has_rank ? val->valuedouble : 0;
	return 0;
}

static int read_verdicts(struct jsonerr *r, const cJSON *root,
                         struct snapshot *s)
{
	const cJSON *arr = get_arr(r, root, "verdicts"), *it;
	size_t n, top, old;
	int ret = 0;

	if (!arr)
		return -1;
	n = (size_t)cJSON_GetArraySize(arr);
	s->verdicts = xcalloc(n ? n : 1, sizeof(*s->verdicts));
	top = jsonerr_push(r, "verdicts");
	cJSON_ArrayForEach (it, arr) {
		old = jsonerr_push_index(r, s->nverdicts);
		ret = read_verdict(r, it, &s->verdicts[s->nverdicts]);
		jsonerr_pop(r, old);
		if (ret)
			break;
		s->nverdicts++;
	}
	jsonerr_pop(r, top);
	return ret;
}

/* ---- ranks ----------------------------------------------------------------
 */

static int read_rank_dit(struct jsonerr *r, const cJSON *o, struct snap_rank *k)
{
	const cJSON *st = get_obj(r, o, "stages"), *dit;
	size_t old;
	int ret;

	if (!st)
		return -1;
	old = jsonerr_push(r, "stages");
	dit = get_obj(r, st, stage_names[STAGE_DIT]);
	jsonerr_push(r, stage_names[STAGE_DIT]);
	ret = !dit || get_us(r, dit, "kernel_time_us", &k->dit_kernel_ns) ||
	      get_us(r, dit, "wall_time_us", &k->dit_wall_ns) ||
	      get_us(r, dit, "exposed_comm_us", &k->dit_exposed_ns);
	jsonerr_pop(r, old);
	return ret ? -1 : 0;
}

static int read_rank(struct jsonerr *r, const cJSON *o, struct snap_rank *k)
{
	const cJSON *comm, *steps;
	double id;
	size_t old;
	int ret;

	if (!cJSON_IsObject(o))
		return jsonerr_bad(r, "expected an object", o);
	if (get_num(r, o, "id", -2147483648.0, 2147483647.0, &id) ||
	    get_bool(r, o, "analysed", &k->analysed) ||
	    read_rank_dit(r, o, k) ||
	    get_us(r, o, "dit_compute_us", &k->dit_compute_ns))
		return -1;
	k->id = (int32_t)id;
	comm = cJSON_GetObjectItemCaseSensitive(o, "communication");
	k->comm_wait_ns = -1;
	if (!cJSON_IsNull(comm)) {
		if (!(comm = get_obj(r, o, "communication")))
			return -1;
		old = jsonerr_push(r, "communication");
		ret = get_us(r, comm, "wait_us", &k->comm_wait_ns);
		jsonerr_pop(r, old);
		if (ret)
			return -1;
	}
	steps = get_arr(r, o, "steps");
	if (!steps)
		return -1;
	k->nsteps = (size_t)cJSON_GetArraySize(steps);
	return 0;
}

static int read_ranks(struct jsonerr *r, const cJSON *root, struct snapshot *s)
{
	const cJSON *arr = get_arr(r, root, "ranks"), *it;
	size_t n, top, old;
	int ret = 0;

	if (!arr)
		return -1;
	n = (size_t)cJSON_GetArraySize(arr);
	s->ranks = xcalloc(n ? n : 1, sizeof(*s->ranks));
	top = jsonerr_push(r, "ranks");
	cJSON_ArrayForEach (it, arr) {
		old = jsonerr_push_index(r, s->nranks);
		ret = read_rank(r, it, &s->ranks[s->nranks]);
		jsonerr_pop(r, old);
		if (ret)
			break;
		s->nranks++;
	}
	jsonerr_pop(r, top);
	return ret;
}

/* ---- the document ---------------------------------------------------------
 */

static int read_profile(struct jsonerr *r, const cJSON *root,
                        struct snapshot *s)
{
	const cJSON *prof = get_obj(r, root, "profile"), *steps;
	uint64_t n = 0;
	size_t old;
	int ret;

	if (!prof)
		return -1;
	old = jsonerr_push(r, "profile");
	ret = get_count(r, prof, "kernels", &s->kernels);
	if (!ret && !(steps = get_obj(r, prof, "steps")))
		ret = -1;
	if (!ret) {
		jsonerr_push(r, "steps");
		ret = get_count(r, steps, "count", &n);
		s->nsteps = (size_t)n;
	}
	jsonerr_pop(r, old);
	return ret;
}

static int read_header(struct jsonerr *r, const cJSON *root, struct snapshot *s)
{
	const cJSON *sv = cJSON_GetObjectItemCaseSensitive(root,
	                                                   "schema_version"),
	            *tool;
	const char *tname, *version;
	size_t old;
	int ret;

	if (!cJSON_IsNumber(sv))
		return err_set(r->e, ERR_INPUT,
		               "%s: not an sdperf report (no schema_version)",
		               r->name);
	if (sv->valuedouble != 1) {
		jsonerr_push(r,
		             "schema_version"); /* the path is for messages */
		return jsonerr_bad(
		    r, "unsupported schema_version (this sdperf reads 1)", sv);
	}
	if (!(tool = get_obj(r, root, "tool")))
		return -1;
	old = jsonerr_push(r, "tool");
	ret = get_str(r, tool, "name", &tname);
	if (!ret && strcmp(tname, "sdperf")) {
		jsonerr_push(r, "name");
		ret =
		    jsonerr_bad(r, "not an sdperf report",
		                cJSON_GetObjectItemCaseSensitive(tool, "name"));
	}
	if (!ret)
		ret = get_str(r, tool, "version", &version);
	jsonerr_pop(r, old);
	if (ret)
		return -1;
	s->tool_version = xstrdup(version);
	return read_profile(r, root, s);
}

int snapshot_from_json(const char *name, const char *text, size_t len,
                       struct snapshot *s, struct err *e)
{
	struct jsonerr r;
	cJSON *root;
	int ret = -1;

	memset(s, 0, sizeof(*s));
	s->source = xstrdup(name);
	s->from_json = 1;
	root = jsonerr_parse(name, text, len, e);
	if (!root)
		return -1;
	jsonerr_init(&r, name, '.', e);
	if (!cJSON_IsObject(root)) {
		err_set(e, ERR_INPUT,
		        "%s: not an sdperf report (not a JSON object)", name);
		goto out;
	}
	if (read_header(&r, root, s) || read_stages(&r, root, s) ||
	    read_verdicts(&r, root, s) || read_ranks(&r, root, s))
		goto out;
	ret = 0;
out:
	jsonerr_release(&r);
	cJSON_Delete(root);
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

/* ---- look-ups by path -----------------------------------------------------
 */

int snapdoc_parse(const char *name, const char *text, size_t len,
                  struct snapdoc **out, struct err *e)
{
	cJSON *root = jsonerr_parse(name, text, len, e);

	*out = NULL;
	if (!root)
		return -1;
	*out = xmalloc(sizeof(**out));
	(*out)->root = root;
	return 0;
}

void snapdoc_free(struct snapdoc *d)
{
	if (!d)
		return;
	cJSON_Delete(d->root);
	free(d);
}

static void list_keys(const cJSON *o, struct strbuf *why)
{
	const cJSON *c;

	strbuf_adds(why, "names there: ");
	cJSON_ArrayForEach (c, o) {
		if (c != o->child)
			strbuf_adds(why, ", ");
		strbuf_add_sanitized(why, c->string, strlen(c->string));
	}
	if (!o->child)
		strbuf_adds(why, "none");
}

/* The child of object o whose key is the longest prefix of p ending at a
 * dot or at the end: exact first, then ignoring case. */
static const cJSON *match_key(const cJSON *o, const char *p, size_t *used)
{
	const cJSON *c, *best = NULL;
	size_t n, bestn = 0, plen = strlen(p);
	int pass;

	for (pass = 0; pass < 2 && !best; pass++)
		cJSON_ArrayForEach (c, o) {
			n = strlen(c->string);
			if (n > plen || (p[n] != '.' && p[n] != '\0') ||
			    n < bestn || (best && n == bestn) ||
			    (pass ? strncasecmp(c->string, p, n)
			          : strncmp(c->string, p, n)))
				continue;
			best = c;
			bestn = n;
		}
	*used = bestn;
	return best;
}

/* The element of array a named by the index at the start of p. */
static const cJSON *match_index(const cJSON *a, const char *p, size_t *used)
{
	size_t i = 0, n = 0;

	while (p[n] >= '0' && p[n] <= '9' && n < 9)
		i = i * 10 + (size_t)(p[n++] - '0');
	*used = n;
	if (n == 0 || (p[n] != '.' && p[n] != '\0'))
		return NULL;
	return cJSON_GetArrayItem(a, (int)i);
}

static enum snapdoc_kind leaf(const cJSON *v, double *num, const char **str,
                              struct strbuf *why)
{
	if (cJSON_IsNumber(v)) {
		if (num)
			*num = v->valuedouble;
		return SNAPDOC_NUMBER;
	}
	if (cJSON_IsString(v)) {
		if (str)
			*str = v->valuestring;
		return SNAPDOC_STRING;
	}
	if (cJSON_IsNull(v))
		return SNAPDOC_NULL;
	if (cJSON_IsBool(v)) {
		if (num)
			*num = cJSON_IsTrue(v);
		return SNAPDOC_BOOL;
	}
	if (why && cJSON_IsObject(v))
		list_keys(v, why);
	else if (why && cJSON_IsArray(v))
		strbuf_addf(why, "an array of %d elements",
		            cJSON_GetArraySize(v));
	return SNAPDOC_OTHER;
}

static void missing(const cJSON *at, const char *path, size_t done,
                    const char *p, struct strbuf *why)
{
	size_t n = strcspn(p, ".");

	if (!why)
		return;
	if (cJSON_IsArray(at)) {
		strbuf_adds(why, "no element ");
		strbuf_add_quoted_value(why, p, n, QUOTE_MAX);
		strbuf_addf(why, " in %.*s (indexes 0 to %d)", (int)done, path,
		            cJSON_GetArraySize(at) - 1);
		return;
	}
	strbuf_adds(why, "no key ");
	strbuf_add_quoted_value(why, p, n, QUOTE_MAX);
	if (done)
		strbuf_addf(why, " in %.*s", (int)done, path);
	if (cJSON_IsObject(at)) {
		strbuf_adds(why, "; ");
		list_keys(at, why);
	} else {
		strbuf_adds(why, " (not an object)");
	}
}

enum snapdoc_kind snapdoc_get(const struct snapdoc *d, const char *path,
                              double *num, const char **str, struct strbuf *why)
{
	const cJSON *at = d->root, *next;
	const char *p = path;
	size_t used;

	for (;;) {
		next = NULL;
		if (cJSON_IsObject(at))
			next = match_key(at, p, &used);
		else if (cJSON_IsArray(at))
			next = match_index(at, p, &used);
		if (!next) {
			/* "done" excludes the dot before the failing part */
			missing(at, path, p > path ? (size_t)(p - path - 1) : 0,
			        p, why);
			return SNAPDOC_MISSING;
		}
		at = next;
		p += used;
		if (*p == '\0')
			return leaf(at, num, str, why);
		p++; /* the dot */
	}
}
