/* diff.json writer. Written by hand rather than through cJSON: every number
 * is text made from integers or a fixed "%.3f", so the output is
 * byte-for-byte stable, and key order is the documented one. */
#include "format/json/diff_json.h"

#include <inttypes.h>
#include <string.h>

#include "view/escape.h"
#include "util/checked.h"
#include "util/numfmt.h"
#include "util/banned.h"

#define JW_DEPTH 16

/* A pretty-printing writer: two spaces per level, one member per line. */
struct jw {
	struct strbuf *out;
	int depth;
	int first[JW_DEPTH];
};

static void jw_str(struct jw *w, const char *s)
{
	if (!s) {
		strbuf_adds(w->out, "null");
		return;
	}
	strbuf_addch(w->out, '"');
	escape_js(w->out, s, strlen(s));
	strbuf_addch(w->out, '"');
}

/* Starts a member (key may be NULL inside an array). */
static void jw_key(struct jw *w, const char *key)
{
	if (!w->first[w->depth])
		strbuf_addch(w->out, ',');
	w->first[w->depth] = 0;
	strbuf_addch(w->out, '\n');
	strbuf_addchars(w->out, ' ', 2 * (size_t)w->depth);
	if (key) {
		jw_str(w, key);
		strbuf_adds(w->out, ": ");
	}
}

static void jw_open(struct jw *w, const char *key, char bracket)
{
	jw_key(w, key);
	strbuf_addch(w->out, bracket);
	w->first[++w->depth] = 1;
}

static void jw_close(struct jw *w, char bracket)
{
	int empty = w->first[w->depth];

	w->depth--;
	if (!empty) {
		strbuf_addch(w->out, '\n');
		strbuf_addchars(w->out, ' ', 2 * (size_t)w->depth);
	}
	strbuf_addch(w->out, bracket);
}

static void jw_raw(struct jw *w, const char *key, const char *text)
{
	jw_key(w, key);
	strbuf_adds(w->out, text);
}

static void jw_string(struct jw *w, const char *key, const char *s)
{
	jw_key(w, key);
	jw_str(w, s);
}

static void jw_bool(struct jw *w, const char *key, int v)
{
	jw_raw(w, key, v ? "true" : "false");
}

static void jw_u64(struct jw *w, const char *key, uint64_t v)
{
	jw_key(w, key);
	strbuf_addf(w->out, "%" PRIu64, v);
}

static void jw_us(struct jw *w, const char *key, int64_t ns)
{
	jw_key(w, key);
	numfmt_us(w->out, ns);
}

/* "%.3f", with -0.000 written as 0.000 */
static void jw_fixed(struct jw *w, const char *key, double v)
{
	jw_key(w, key);
	if (v > -0.0005 && v < 0.0005)
		v = 0.0;
	strbuf_addf(w->out, "%.3f", v);
}

static void jw_opt_fixed(struct jw *w, const char *key, double v, int defined)
{
	if (defined)
		jw_fixed(w, key, v);
	else
		jw_raw(w, key, "null");
}

/* ---- values ---------------------------------------------------------------
 */

static void time_obj(struct jw *w, const char *key, struct cmp_time t)
{
	int defined;
	double pct = cmp_pct(t, &defined);

	jw_open(w, key, '{');
	jw_us(w, "base", t.base);
	jw_us(w, "new", t.new_);
	jw_us(w, "delta", checked_sub_sat(t.new_, t.base));
	jw_opt_fixed(w, "delta_pct", pct, defined);
	jw_close(w, '}');
}

/* a time that is -1 ("unknown") on a side is null there */
static void opt_time_obj(struct jw *w, const char *key, struct cmp_time t)
{
	if (t.base >= 0 && t.new_ >= 0) {
		time_obj(w, key, t);
		return;
	}
	jw_open(w, key, '{');
	if (t.base >= 0)
		jw_us(w, "base", t.base);
	else
		jw_raw(w, "base", "null");
	if (t.new_ >= 0)
		jw_us(w, "new", t.new_);
	else
		jw_raw(w, "new", "null");
	jw_raw(w, "delta", "null");
	jw_raw(w, "delta_pct", "null");
	jw_close(w, '}');
}

static void share_obj(struct jw *w, const char *key, struct cmp_share s)
{
	jw_open(w, key, '{');
	jw_fixed(w, "base", s.base);
	jw_fixed(w, "new", s.new_);
	jw_fixed(w, "delta", s.new_ - s.base);
	jw_close(w, '}');
}

/* ---- sections -------------------------------------------------------------
 */

static void side(struct jw *w, const char *key, const char *source,
                 size_t steps, size_t ranks)
{
	jw_open(w, key, '{');
	jw_string(w, "source", source);
	jw_u64(w, "steps", steps);
	jw_u64(w, "ranks", ranks);
	jw_close(w, '}');
}

static void stage(struct jw *w, const char *key, const struct cmp_stage *st)
{
	int k;

	jw_open(w, key, '{');
	jw_bool(w, "in_base", st->in_base);
	jw_bool(w, "in_new", st->in_new);
	time_obj(w, "kernel_time_us", st->kernel);
	time_obj(w, "wall_time_us", st->wall);
	time_obj(w, "exposed_comm_us", st->exposed);
	share_obj(w, "exposed_share_of_wall_pct", st->exposed_share);
	jw_opt_fixed(w, "speedup", st->speedup, st->speedup > 0);
	jw_open(w, "categories", '{');
	for (k = 0; k < CAT_COUNT; k++) {
		jw_open(w, category_names[k], '{');
		time_obj(w, "time_us", st->cat[k]);
		share_obj(w, "share_pct", st->cat_share[k]);
		jw_close(w, '}');
	}
	jw_close(w, '}');
	jw_close(w, '}');
}

static void verdicts(struct jw *w, const struct comparison *c)
{
	size_t i;

	jw_open(w, "verdicts", '[');
	for (i = 0; i < c->nverdicts; i++) {
		const struct cmp_verdict *v = &c->verdicts[i];
		jw_open(w, NULL, '{');
		jw_string(w, "id", v->id);
		jw_string(w, "stage", stage_names[v->stage]);
		jw_string(w, "change", verdict_change_names[v->change]);
		jw_bool(w, "base_applicable", v->base_applicable);
		jw_bool(w, "new_applicable", v->new_applicable);
		jw_opt_fixed(w, "base_pct", v->base, v->base_applicable);
		jw_opt_fixed(w, "new_pct", v->new_, v->new_applicable);
		jw_fixed(w, "threshold_pct", v->threshold);
		jw_close(w, '}');
	}
	jw_close(w, ']');
}

static void types(struct jw *w, const struct comparison *c)
{
	size_t i;
	int defined;
	double pct;

	jw_open(w, "types", '[');
	for (i = 0; i < c->ntypes; i++) {
		const struct cmp_type *t = &c->types[i];
		pct = cmp_pct(t->time, &defined);
		jw_open(w, NULL, '{');
		jw_string(w, "stage", stage_names[t->stage]);
		jw_string(w, "type", t->type);
		jw_string(w, "category", category_names[t->cat]);
		jw_string(w, "status", type_status_names[t->status]);
		jw_us(w, "base_us", t->time.base);
		jw_us(w, "new_us", t->time.new_);
		jw_us(w, "delta_us",
		      checked_sub_sat(t->time.new_, t->time.base));
		jw_opt_fixed(w, "delta_pct", pct, defined);
		jw_u64(w, "base_count", t->base_count);
		jw_u64(w, "new_count", t->new_count);
		jw_close(w, '}');
	}
	jw_close(w, ']');
}

static void ranks(struct jw *w, const struct comparison *c)
{
	size_t i;

	jw_open(w, "ranks", '[');
	for (i = 0; i < c->nranks; i++) {
		const struct cmp_rank *r = &c->ranks[i];
		jw_open(w, NULL, '{');
		jw_key(w, "id");
		strbuf_addf(w->out, "%" PRId32, r->id);
		time_obj(w, "dit_kernel_time_us", r->dit_kernel);
		time_obj(w, "dit_wall_time_us", r->dit_wall);
		time_obj(w, "dit_exposed_comm_us", r->dit_exposed);
		time_obj(w, "dit_compute_us", r->dit_compute);
		opt_time_obj(w, "comm_wait_us", r->comm_wait);
		jw_close(w, '}');
	}
	jw_close(w, ']');
}

static void warnings(struct jw *w, const struct comparison *c)
{
	size_t i;

	jw_open(w, "warnings", '[');
	for (i = 0; i < c->nwarnings; i++) {
		const struct cmp_warning *x = &c->warnings[i];
		jw_open(w, NULL, '{');
		jw_string(w, "code", x->code);
		jw_open(w, "args", '[');
		jw_string(w, NULL, x->args[0]);
		jw_string(w, NULL, x->args[1]);
		jw_close(w, ']');
		jw_string(w, "message", x->message);
		jw_close(w, '}');
	}
	jw_close(w, ']');
}

void render_diff_json(const struct comparison *c, const char *version,
                      struct strbuf *out)
{
	struct jw w = {out, 1, {1, 1}}; /* inside the root object */
	int s;

	strbuf_addch(out, '{');
	jw_string(&w, "schema", "sdperf-diff/1");
	jw_open(&w, "tool", '{');
	jw_string(&w, "name", "sdperf");
	jw_string(&w, "version", version);
	jw_close(&w, '}');
	side(&w, "base", c->base_source, c->base_steps, c->base_ranks);
	side(&w, "new", c->new_source, c->new_steps, c->new_ranks);
	jw_bool(&w, "per_step", c->per_step);
	jw_open(&w, "stages", '{');
	for (s = 0; s < STAGE_COUNT; s++)
		stage(&w, stage_names[s], &c->stages[s]);
	jw_close(&w, '}');
	verdicts(&w, c);
	types(&w, c);
	ranks(&w, c);
	warnings(&w, c);
	jw_close(&w, '}');
	strbuf_addch(out, '\n');
}
