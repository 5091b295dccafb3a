/* report.json -> struct snapshot. The text is walked in place
 * (input/jsonpull.h): each value read is found by key and parsed alone,
 * so the document is never built into a tree (a tree costs about 40 times
 * the text: a 64 MiB report.json took 2.7 GB). Every bad field is named
 * by its JSON path (dotted, array elements by index, as sdperf check
 * --max spells them). The sections of the document are read here, their
 * values by input/snapread.h. */
#include "input/snapshot.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "input/jsonerr.h"
#include "input/jsonpull.h"
#include "input/snapread.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* ---- stages ---------------------------------------------------------------
 */

static int read_type(struct snapread *r, const struct snapread_val *o, size_t i,
                     void *ctx)
{
	struct snap_type *t = &((struct snap_stage *)ctx)->types[i];
	char *cat = NULL;
	struct snapread_val at;
	int c = -1;

	if (o->t != JP_OBJECT)
		return snapread_bad(r, NULL, "expected an object", o);
	if (snapread_get_str(r, o, "type", &t->type) ||
	    snapread_get_str(r, o, "category", &cat) ||
	    snapread_get_count(r, o, "count", &t->count) ||
	    snapread_get_us(r, o, "total_us", &t->total_ns))
		goto out;
	c = category_from_name(cat);
	if (c < 0) {
		snapread_find(r, o, "category", &at);
		snapread_bad(r, "category", "unknown category", &at);
	} else {
		t->cat = (enum category)c;
	}
out:
	free(cat);
	return c < 0 ? -1 : 0;
}

static int read_types(struct snapread *r, const struct snapread_val *st,
                      struct snap_stage *ss)
{
	struct snapread_val arr;
	size_t n, top;
	int ret;

	if (snapread_get_arr(r, st, "top_kernels", &arr) ||
	    snapread_count(r, &arr, &n))
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
		ret = snapread_each(r, &arr, read_type, ss);
	}
	jsonerr_pop(&r->j, top);
	return ret;
}

static int read_cats(struct snapread *r, const struct snapread_val *st,
                     struct snap_stage *ss)
{
	struct snapread_val cats, co;
	size_t top, old;
	int c, ret = 0;

	if (snapread_get_obj(r, st, "categories", &cats))
		return -1;
	top = jsonerr_push(&r->j, "categories");
	for (c = 0; c < CAT_COUNT && !ret; c++) {
		ret = snapread_get_obj(r, &cats, category_names[c], &co);
		if (!ret) {
			old = jsonerr_push(&r->j, category_names[c]);
			ret =
			    snapread_get_us(r, &co, "time_us", &ss->cat_ns[c]);
			jsonerr_pop(&r->j, old);
		}
	}
	jsonerr_pop(&r->j, top);
	return ret;
}

static int read_stage(struct snapread *r, const struct snapread_val *st,
                      struct snap_stage *ss)
{
	struct snapread_val comm;
	size_t old;
	int ret;

	if (snapread_get_count(r, st, "kernels", &ss->kernels) ||
	    snapread_get_us(r, st, "kernel_time_us", &ss->kernel_ns) ||
	    snapread_get_us(r, st, "wall_time_us", &ss->wall_ns) ||
	    read_cats(r, st, ss))
		return -1;
	if (snapread_get_obj(r, st, "communication", &comm))
		return -1;
	old = jsonerr_push(&r->j, "communication");
	ret = snapread_get_us(r, &comm, "kernel_time_us", &ss->comm_ns) ||
	      snapread_get_us(r, &comm, "exposed_us", &ss->exposed_ns);
	jsonerr_pop(&r->j, old);
	if (ret || read_types(r, st, ss))
		return -1;
	ss->present = ss->kernels > 0;
	return 0;
}

/* A stage that is absent from "stages" has no kernels; keys this version
 * does not know are skipped (new keys may come within a schema version). */
static int read_stages(struct snapread *r, const struct snapread_val *root,
                       struct snapshot *s)
{
	struct snapread_val stages, st;
	size_t top, old;
	int i, rc, ret = 0;

	if (snapread_get_obj(r, root, "stages", &stages))
		return -1;
	top = jsonerr_push(&r->j, "stages");
	for (i = 0; i < STAGE_COUNT && !ret; i++) {
		rc = snapread_find(r, &stages, stage_names[i], &st);
		if (rc <= 0) {
			ret = rc;
			continue;
		}
		old = jsonerr_push(&r->j, stage_names[i]);
		if (st.t != JP_OBJECT)
			ret = snapread_bad(r, NULL, "expected an object", &st);
		else
			ret = read_stage(r, &st, &s->stage[i]);
		jsonerr_pop(&r->j, old);
	}
	jsonerr_pop(&r->j, top);
	return ret;
}

/* ---- verdicts -------------------------------------------------------------
 */

/* The optional verdict fields: metric and how (strings), rank (a number);
 * absent or of another type, they stay NULL / has_rank 0. */
/* The optional "gain" of a fired finding: the end-to-end saving it
 * promised, read when it is an object that says it is estimated. */
static int read_verdict_gain(struct snapread *r, const struct snapread_val *o,
                             struct snap_verdict *v)
{
	struct snapread_val g;
	size_t old;
	int rc, est = 0, ret = 0;

	if ((rc = snapread_find(r, o, "gain", &g)) <= 0 || g.t != JP_OBJECT)
		return rc < 0 ? -1 : 0;
	old = jsonerr_push(&r->j, "gain");
	ret = snapread_get_bool(r, &g, "estimated", &est);
	if (!ret && est)
		ret = snapread_get_num(r, &g, "saving_low_pct", -1e6, 100,
		                       &v->gain_low_pct) ||
		      snapread_get_num(r, &g, "saving_high_pct", -1e6, 100,
		                       &v->gain_high_pct);
	v->has_gain = !ret && est;
	jsonerr_pop(&r->j, old);
	return ret ? -1 : 0;
}

static int read_verdict_extra(struct snapread *r, const struct snapread_val *o,
                              struct snap_verdict *v)
{
	cJSON *c;
	int rc;

	if ((rc = snapread_opt_scalar(r, o, "metric", JP_STRING, &c)) < 0)
		return -1;
	v->metric = rc ? xstrdup(c->valuestring) : NULL;
	cJSON_Delete(c);
	if ((rc = snapread_opt_scalar(r, o, "how", JP_STRING, &c)) < 0)
		return -1;
	v->how = rc ? xstrdup(c->valuestring) : NULL;
	cJSON_Delete(c);
	if ((rc = snapread_opt_scalar(r, o, "rank", JP_NUMBER, &c)) < 0)
		return -1;
	v->has_rank = rc;
	v->rank = rc ? c->valuedouble : 0;
	cJSON_Delete(c);
	return read_verdict_gain(r, o, v);
}

static int read_verdict(struct snapread *r, const struct snapread_val *o,
                        size_t i, void *ctx)
{
	struct snapshot *s = ctx;
	struct snap_verdict *v = &s->verdicts[i];
	char *stage = NULL;
	struct snapread_val val;
	int st = 0, ret = -1;

	if (o->t != JP_OBJECT)
		return snapread_bad(r, NULL, "expected an object", o);
	if (snapread_get_str(r, o, "id", &v->id) ||
	    snapread_get_str(r, o, "stage", &stage) ||
	    snapread_get_bool(r, o, "applicable", &v->applicable) ||
	    snapread_get_bool(r, o, "fired", &v->fired) ||
	    snapread_get_num(r, o, "threshold_pct", -1e300, 1e300,
	                     &v->threshold))
		goto out;
	st = strcmp(stage, stage_names[STAGE_ALL]) ? stage_from_name(stage)
	                                           : STAGE_ALL;
	if (st < 0) {
		snapread_find(r, o, "stage", &val);
		snapread_bad(r, "stage", "unknown stage", &val);
		goto out;
	}
	v->stage = (enum stage)st;
	/* null is how a not-applicable verdict says "no value" */
	if (v->applicable || snapread_find(r, o, "value_pct", &val) != 1 ||
	    !snapread_is_null(r, &val))
		if (snapread_get_num(r, o, "value_pct", -1e300, 1e300,
		                     &v->value))
			goto out;
	if (read_verdict_extra(r, o, v))
		goto out;
	ret = 0;
out:
	free(stage);
	return ret;
}

static int read_verdicts(struct snapread *r, const struct snapread_val *root,
                         struct snapshot *s)
{
	struct snapread_val arr;
	size_t n, top;
	int ret;

	if (snapread_get_arr(r, root, "verdicts", &arr) ||
	    snapread_count(r, &arr, &n))
		return -1;
	top = jsonerr_push(&r->j, "verdicts");
	if (n > SNAPSHOT_MAX_VERDICTS) {
		ret = jsonerr_bad(&r->j, "more than 4,096 verdicts", NULL);
	} else {
		s->verdicts = xcalloc(n ? n : 1, sizeof(*s->verdicts));
		s->nverdicts = n;
		ret = snapread_each(r, &arr, read_verdict, s);
	}
	jsonerr_pop(&r->j, top);
	return ret;
}

/* ---- ranks ----------------------------------------------------------------
 */

static int read_rank_dit(struct snapread *r, const struct snapread_val *o,
                         struct snap_rank *k)
{
	struct snapread_val st, dit;
	size_t old;
	int ret;

	if (snapread_get_obj(r, o, "stages", &st))
		return -1;
	old = jsonerr_push(&r->j, "stages");
	ret = snapread_get_obj(r, &st, stage_names[STAGE_DIT], &dit);
	jsonerr_push(&r->j, stage_names[STAGE_DIT]);
	ret = ret ||
	      snapread_get_us(r, &dit, "kernel_time_us", &k->dit_kernel_ns) ||
	      snapread_get_us(r, &dit, "wall_time_us", &k->dit_wall_ns) ||
	      snapread_get_us(r, &dit, "exposed_comm_us", &k->dit_exposed_ns);
	jsonerr_pop(&r->j, old);
	return ret ? -1 : 0;
}

/* step_trace_time.csv rows: "steps_total" when the report lists only
 * the first ones, else the length of "steps". */
static int read_rank_steps(struct snapread *r, const struct snapread_val *o,
                           struct snap_rank *k)
{
	struct snapread_val steps, tot;
	uint64_t n;

	if (snapread_get_arr(r, o, "steps", &steps) ||
	    snapread_count(r, &steps, &k->nsteps))
		return -1;
	if (snapread_find(r, o, "steps_total", &tot) == 1) {
		if (snapread_get_count(r, o, "steps_total", &n))
			return -1;
		k->nsteps = (size_t)n;
	}
	return 0;
}

static int read_rank(struct snapread *r, const struct snapread_val *o, size_t i,
                     void *ctx)
{
	struct snap_rank *k = &((struct snapshot *)ctx)->ranks[i];
	struct snapread_val comm;
	double id;
	size_t old;
	int ret, rc;

	if (o->t != JP_OBJECT)
		return snapread_bad(r, NULL, "expected an object", o);
	if (snapread_get_num(r, o, "id", -2147483648.0, 2147483647.0, &id) ||
	    snapread_get_bool(r, o, "analysed", &k->analysed) ||
	    read_rank_dit(r, o, k) ||
	    snapread_get_us(r, o, "dit_compute_us", &k->dit_compute_ns))
		return -1;
	k->id = (int32_t)id;
	k->comm_wait_ns = -1;
	rc = snapread_find(r, o, "communication", &comm);
	if (rc < 0)
		return -1;
	if (rc == 0 || !snapread_is_null(r, &comm)) {
		if (snapread_get_obj(r, o, "communication", &comm))
			return -1;
		old = jsonerr_push(&r->j, "communication");
		ret = snapread_get_us(r, &comm, "wait_us", &k->comm_wait_ns);
		jsonerr_pop(&r->j, old);
		if (ret)
			return -1;
	}
	return read_rank_steps(r, o, k);
}

static int read_ranks(struct snapread *r, const struct snapread_val *root,
                      struct snapshot *s)
{
	struct snapread_val arr;
	size_t n, top;
	int ret;

	if (snapread_get_arr(r, root, "ranks", &arr) ||
	    snapread_count(r, &arr, &n))
		return -1;
	top = jsonerr_push(&r->j, "ranks");
	if (n > SNAPSHOT_MAX_RANKS) {
		ret = jsonerr_bad(&r->j, "more than 65,536 ranks", NULL);
	} else {
		s->ranks = xcalloc(n ? n : 1, sizeof(*s->ranks));
		s->nranks = n;
		ret = snapread_each(r, &arr, read_rank, s);
	}
	jsonerr_pop(&r->j, top);
	return ret;
}

/* ---- the document ---------------------------------------------------------
 */

static int read_profile(struct snapread *r, const struct snapread_val *root,
                        struct snapshot *s)
{
	struct snapread_val prof, steps;
	uint64_t n = 0;
	size_t old;
	int ret;

	if (snapread_get_obj(r, root, "profile", &prof))
		return -1;
	old = jsonerr_push(&r->j, "profile");
	ret = snapread_get_count(r, &prof, "kernels", &s->kernels);
	if (!ret)
		ret = snapread_get_obj(r, &prof, "steps", &steps);
	if (!ret) {
		jsonerr_push(&r->j, "steps");
		ret = snapread_get_count(r, &steps, "count", &n);
		s->nsteps = (size_t)n;
	}
	jsonerr_pop(&r->j, old);
	return ret;
}

static int read_header(struct snapread *r, const struct snapread_val *root,
                       struct snapshot *s)
{
	struct snapread_val sv, tool;
	cJSON *c;
	char *tname = NULL;
	size_t old;
	int ret, v1;

	if (snapread_find(r, root, "schema_version", &sv) != 1 ||
	    sv.t != JP_NUMBER)
		return err_set(r->j.e, ERR_INPUT,
		               "%s: not an sdperf report (no schema_version)",
		               r->j.name);
	if (!(c = snapread_scalar(r, &sv)))
		return -1;
	v1 = c->valuedouble == 1;
	if (!v1) {
		jsonerr_push(&r->j, "schema_version");
		jsonerr_bad(&r->j,
		            "unsupported schema_version (this sdperf reads 1)",
		            c);
	}
	cJSON_Delete(c);
	if (!v1 || snapread_get_obj(r, root, "tool", &tool))
		return -1;
	old = jsonerr_push(&r->j, "tool");
	ret = snapread_get_str(r, &tool, "name", &tname);
	if (!ret && strcmp(tname, "sdperf")) {
		snapread_find(r, &tool, "name", &sv);
		ret = snapread_bad(r, "name", "not an sdperf report", &sv);
	}
	if (!ret)
		ret = snapread_get_str(r, &tool, "version", &s->tool_version);
	jsonerr_pop(&r->j, old);
	free(tname);
	if (ret)
		return -1;
	return read_profile(r, root, s);
}

/* The optional workload of a profile of one stage (reports before the
 * workload have none). */
static int read_one_stage(struct snapread *r, const struct snapread_val *sum,
                          struct snapshot *s)
{
	struct snapread_val v;
	int split = 1, rc;

	if ((rc = snapread_find(r, sum, "stage_split", &v)) <= 0)
		return rc < 0 ? -1 : 0;
	if (snapread_get_bool(r, sum, "stage_split", &split))
		return -1;
	if (split)
		return 0;
	return snapread_get_str(r, sum, "workload", &s->one_stage_kind);
}

/* The optional summary's end-to-end time (reports before the summary
 * have none). */
static int read_e2e(struct snapread *r, const struct snapread_val *root,
                    struct snapshot *s)
{
	struct snapread_val sum;
	size_t old;
	int rc, known = 0, ret;

	if ((rc = snapread_find(r, root, "summary", &sum)) <= 0 ||
	    sum.t != JP_OBJECT)
		return rc < 0 ? -1 : 0;
	old = jsonerr_push(&r->j, "summary");
	ret = snapread_get_bool(r, &sum, "e2e_known", &known);
	if (!ret && known)
		ret = snapread_get_us(r, &sum, "e2e_time_us", &s->e2e_ns);
	s->has_e2e = !ret && known && s->e2e_ns > 0;
	if (!ret)
		ret = read_one_stage(r, &sum, s);
	jsonerr_pop(&r->j, old);
	return ret ? -1 : 0;
}

/* Checks the whole text (a syntax error anywhere is an error) and marks
 * the top-level value. */
static int open_doc(struct jpull *p, const char *name, const char *text,
                    size_t len, struct snapread_val *root, struct err *e)
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
	struct snapread r;
	struct snapread_val root;
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
	    read_verdicts(&r, &root, s) || read_ranks(&r, &root, s) ||
	    read_e2e(&r, &root, s))
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
	free(s->one_stage_kind);
	memset(s, 0, sizeof(*s));
}
