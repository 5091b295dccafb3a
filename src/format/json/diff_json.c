/* diff.json writer: a cJSON tree built through format/json/jsonw, printed
 * in its two-space layout. Every number is text made from integers or a
 * fixed "%.3f", so the output is byte-for-byte stable, and key order is the
 * documented one. */
#include "format/json/diff_json.h"

#include "format/json/jsonw.h"
#include "util/checked.h"
#include "util/banned.h"

/* ---- values ---------------------------------------------------------------
 */

static void time_obj(cJSON *w, const char *key, struct cmp_time t)
{
	cJSON *o = jsonw_add_object(w, key);
	int defined;
	double pct = cmp_pct(t, &defined);

	jsonw_add_us(o, "base", t.base);
	jsonw_add_us(o, "new", t.new_);
	jsonw_add_us(o, "delta", checked_sub_sat(t.new_, t.base));
	jsonw_add_fixed(o, "delta_pct", pct, defined);
}

/* a time that is -1 ("unknown") on a side is null there */
static void opt_time_obj(cJSON *w, const char *key, struct cmp_time t)
{
	cJSON *o;

	if (t.base >= 0 && t.new_ >= 0) {
		time_obj(w, key, t);
		return;
	}
	o = jsonw_add_object(w, key);
	if (t.base >= 0)
		jsonw_add_us(o, "base", t.base);
	else
		jsonw_add_null(o, "base");
	if (t.new_ >= 0)
		jsonw_add_us(o, "new", t.new_);
	else
		jsonw_add_null(o, "new");
	jsonw_add_null(o, "delta");
	jsonw_add_null(o, "delta_pct");
}

static void share_obj(cJSON *w, const char *key, struct cmp_share s)
{
	cJSON *o = jsonw_add_object(w, key);

	jsonw_add_fixed(o, "base", s.base, 1);
	jsonw_add_fixed(o, "new", s.new_, 1);
	jsonw_add_fixed(o, "delta", s.new_ - s.base, 1);
}

/* ---- sections -------------------------------------------------------------
 */

static void side(cJSON *w, const char *key, const char *source, size_t steps,
                 size_t ranks)
{
	cJSON *o = jsonw_add_object(w, key);

	jsonw_add_str(o, "source", source);
	jsonw_add_u64(o, "steps", steps);
	jsonw_add_u64(o, "ranks", ranks);
}

static void stage(cJSON *w, const char *key, const struct cmp_stage *st)
{
	cJSON *o = jsonw_add_object(w, key), *cats, *co;
	int k;

	jsonw_add_bool(o, "in_base", st->in_base);
	jsonw_add_bool(o, "in_new", st->in_new);
	time_obj(o, "kernel_time_us", st->kernel);
	time_obj(o, "wall_time_us", st->wall);
	time_obj(o, "exposed_comm_us", st->exposed);
	share_obj(o, "exposed_share_of_wall_pct", st->exposed_share);
	jsonw_add_fixed(o, "speedup", st->speedup, st->speedup > 0);
	cats = jsonw_add_object(o, "categories");
	for (k = 0; k < CAT_COUNT; k++) {
		co = jsonw_add_object(cats, category_names[k]);
		time_obj(co, "time_us", st->cat[k]);
		share_obj(co, "share_pct", st->cat_share[k]);
	}
}

static void verdicts(cJSON *w, const struct comparison *c)
{
	cJSON *arr = jsonw_add_array(w, "verdicts"), *o;
	size_t i;

	for (i = 0; i < c->nverdicts; i++) {
		const struct cmp_verdict *v = &c->verdicts[i];
		o = jsonw_add_object(arr, NULL);
		jsonw_add_str(o, "id", v->id);
		jsonw_add_str(o, "stage", stage_names[v->stage]);
		jsonw_add_str(o, "change", verdict_change_names[v->change]);
		jsonw_add_bool(o, "base_applicable", v->base_applicable);
		jsonw_add_bool(o, "new_applicable", v->new_applicable);
		jsonw_add_fixed(o, "base_pct", v->base, v->base_applicable);
		jsonw_add_fixed(o, "new_pct", v->new_, v->new_applicable);
		jsonw_add_fixed(o, "threshold_pct", v->threshold, 1);
		/* the base report's expected gain (end-to-end saving) */
		jsonw_add_fixed(o, "promised_saving_low_pct",
		                v->promised_low_pct, v->promised);
		jsonw_add_fixed(o, "promised_saving_high_pct",
		                v->promised_high_pct, v->promised);
	}
}

/* The end-to-end time per step of both sides and the saving measured,
 * null when a side has none. */
static void e2e(cJSON *w, const struct comparison *c)
{
	cJSON *o = jsonw_add_object(w, "e2e");

	if (c->e2e_known) {
		jsonw_add_us(o, "base_us", c->e2e.base);
		jsonw_add_us(o, "new_us", c->e2e.new_);
	} else {
		jsonw_add_null(o, "base_us");
		jsonw_add_null(o, "new_us");
	}
	jsonw_add_fixed(o, "saving_pct", cmp_saving_pct(c->e2e), c->e2e_known);
}

static void types(cJSON *w, const struct comparison *c)
{
	cJSON *arr = jsonw_add_array(w, "types"), *o;
	size_t i;
	int defined;
	double pct;

	for (i = 0; i < c->ntypes; i++) {
		const struct cmp_type *t = &c->types[i];
		pct = cmp_pct(t->time, &defined);
		o = jsonw_add_object(arr, NULL);
		jsonw_add_str(o, "stage", stage_names[t->stage]);
		jsonw_add_str(o, "type", t->type);
		jsonw_add_str(o, "category", category_names[t->cat]);
		jsonw_add_str(o, "status", type_status_names[t->status]);
		jsonw_add_us(o, "base_us", t->time.base);
		jsonw_add_us(o, "new_us", t->time.new_);
		jsonw_add_us(o, "delta_us",
		             checked_sub_sat(t->time.new_, t->time.base));
		jsonw_add_fixed(o, "delta_pct", pct, defined);
		jsonw_add_u64(o, "base_count", t->base_count);
		jsonw_add_u64(o, "new_count", t->new_count);
	}
}

static void ranks(cJSON *w, const struct comparison *c)
{
	cJSON *arr = jsonw_add_array(w, "ranks"), *o;
	size_t i;

	for (i = 0; i < c->nranks; i++) {
		const struct cmp_rank *r = &c->ranks[i];
		o = jsonw_add_object(arr, NULL);
		jsonw_add_i64(o, "id", r->id);
		time_obj(o, "dit_kernel_time_us", r->dit_kernel);
		time_obj(o, "dit_wall_time_us", r->dit_wall);
		time_obj(o, "dit_exposed_comm_us", r->dit_exposed);
		time_obj(o, "dit_compute_us", r->dit_compute);
		opt_time_obj(o, "comm_wait_us", r->comm_wait);
	}
}

static void warnings(cJSON *w, const struct comparison *c)
{
	cJSON *arr = jsonw_add_array(w, "warnings"), *o, *args;
	size_t i;

	for (i = 0; i < c->nwarnings; i++) {
		const struct cmp_warning *x = &c->warnings[i];
		o = jsonw_add_object(arr, NULL);
		jsonw_add_str(o, "code", x->code);
		args = jsonw_add_array(o, "args");
		jsonw_add_str(args, NULL, x->args[0]);
		jsonw_add_str(args, NULL, x->args[1]);
		jsonw_add_str(o, "message", x->message);
	}
}

void render_diff_json(const struct comparison *c, const char *version,
                      struct strbuf *out)
{
	cJSON *root = cJSON_CreateObject(), *tool, *st;
	int s;

	jsonw_add_str(root, "schema", "sdperf-diff/1");
	tool = jsonw_add_object(root, "tool");
	jsonw_add_str(tool, "name", "sdperf");
	jsonw_add_str(tool, "version", version);
	side(root, "base", c->base_source, c->base_steps, c->base_ranks);
	side(root, "new", c->new_source, c->new_steps, c->new_ranks);
	jsonw_add_bool(root, "per_step", c->per_step);
	st = jsonw_add_object(root, "stages");
	for (s = 0; s < STAGE_COUNT; s++)
		stage(st, stage_names[s], &c->stages[s]);
	verdicts(root, c);
	e2e(root, c);
	types(root, c);
	ranks(root, c);
	warnings(root, c);
	{
		struct err never = ERR_INIT; /* the two-space printer's own */
		jsonw_print(root, JSONW_SPACES, "diff.json", out, &never);
	}
	cJSON_Delete(root);
}
