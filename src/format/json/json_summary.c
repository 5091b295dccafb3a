/* report.json's "summary": end-to-end device time, the stage split, the
 * number of findings, the one to act on first and how far the profile
 * can be trusted (format/json/json_summary.h). */
#include "format/json/json_summary.h"

#include "analysis/e2e.h"
#include "analysis/summary.h"
#include "analysis/totals.h"
#include "format/json/jsonw.h"
#include "util/banned.h"

static void e2e_json(cJSON *o, const struct result *r)
{
	const struct e2e_time *e = &r->e2e;
	cJSON *st;
	int s;

	cJSON_AddBoolToObject(o, "e2e_known", e->known);
	jsonw_add_str(o, "e2e_per", e->steps ? "profiler_step" : "profile");
	jsonw_add_us(o, "e2e_time_us", e->per_step_ns);
	jsonw_add_us(o, "span_us", e->span_ns);
	jsonw_add_u64(o, "steps", e->steps);
	/* pipeline calls: the DiT loops told apart by the iterations */
	jsonw_add_u64(o, "pipeline_calls", r->iters.found ? r->iters.calls : 0);
	if (e2e_per_call_ns(r) >= 0)
		jsonw_add_us(o, "per_call_us", e2e_per_call_ns(r));
	else
		cJSON_AddNullToObject(o, "per_call_us");
	st = cJSON_AddObjectToObject(o, "stages");
	for (s = 0; s < STAGE_COUNT; s++) {
		cJSON *so = cJSON_AddObjectToObject(st, stage_names[s]);
		jsonw_add_us(so, "time_us", e->stage_ns[s]);
		/* what the reports' stage split shows: per profiler step */
		jsonw_add_us(so, "per_step_us", e->stage_step_ns[s]);
		jsonw_add_pct(so, "share_pct", e2e_share(r, e->stage_ns[s]));
	}
}

static void trust_json(cJSON *o, const struct result *r)
{
	const struct rank_collection *c = &r->collection.sum;
	cJSON *t = cJSON_AddObjectToObject(o, "trust");

	jsonw_add_str(t, "level", summary_trust_names[summary_trust(r)]);
	jsonw_add_str(t, "profiler_level",
	              c->level >= LEVEL_NONE && c->level <= LEVEL_2
	                  ? coll_level_names[c->level]
	                  : NULL);
	jsonw_add_u64(t, "steps", c->steps);
	jsonw_add_u64(t, "timed_steps", c->timed);
	jsonw_add_u64(t, "warmup_steps", summary_warmup(r));
	jsonw_add_u64(t, "warnings", r->nwarnings);
	/* the kernels against the profiler's own totals: null when no rank
	 * had any to compare with */
	if (totals_checked(r))
		cJSON_AddBoolToObject(t, "profiler_totals_agree",
		                      !totals_failed(r));
	else
		cJSON_AddNullToObject(t, "profiler_totals_agree");
}

/* A time of the estimate, null when there is none. */
static void gain_us(cJSON *o, const char *key, const struct gain *g, int64_t ns)
{
	if (g->estimated)
		jsonw_add_us(o, key, ns);
	else
		jsonw_add_null(o, key);
}

void json_gain(cJSON *o, const char *key, const struct result *r,
               const struct gain *g)
{
	cJSON *x, *a;
	int range = g && !g->no_speed;

	if (!g) {
		jsonw_add_null(o, key);
		return;
	}
	x = jsonw_add_object(o, key);
	jsonw_add_bool(x, "estimated", g->estimated);
	jsonw_add_bool(x, "no_speed_gain", g->no_speed);
	jsonw_add_str(x, "part", gain_part_names[g->part]);
	jsonw_add_str(x, "stage", stage_names[g->stage]);
	jsonw_add_str(x, "category",
	              g->part == GAIN_PART_CATEGORY ? category_names[g->cat]
	                                            : NULL);
	jsonw_add_str(x, "per", r->e2e.steps ? "profiler_step" : "profile");
	jsonw_add_fixed(x, "speedup_low", g->speedup_low, range);
	jsonw_add_fixed(x, "speedup_high", g->speedup_high, range);
	gain_us(x, "part_us", g, g->part_ns);
	gain_us(x, "stage_before_us", g, g->stage_before_ns);
	gain_us(x, "stage_after_low_us", g, g->stage_after_low_ns);
	gain_us(x, "stage_after_high_us", g, g->stage_after_high_ns);
	gain_us(x, "e2e_before_us", g, g->e2e_before_ns);
	gain_us(x, "e2e_after_low_us", g, g->e2e_after_low_ns);
	gain_us(x, "e2e_after_high_us", g, g->e2e_after_high_ns);
	jsonw_add_fixed(x, "saving_low_pct", g->saving_low_pct, g->estimated);
	jsonw_add_fixed(x, "saving_high_pct", g->saving_high_pct, g->estimated);
	a = jsonw_add_object(x, "assumption");
	jsonw_add_str(a, "en", g->assumption_en);
	jsonw_add_str(a, "zh", g->assumption_zh);
	jsonw_add_str(x, "source", g->source);
}

void json_summary(cJSON *root, const struct result *r)
{
	cJSON *o = cJSON_AddObjectToObject(root, "summary"), *ord;
	int top = summary_top(r);
	size_t i;

	/* what the profile is, first: the figures below depend on it */
	jsonw_add_str(o, "workload", workload_kind_names[r->workload.kind]);
	cJSON_AddBoolToObject(o, "stage_split", !r->workload.one_stage);
	e2e_json(o, r);
	jsonw_add_u64(o, "findings", summary_findings(r));
	jsonw_add_str(o, "top_verdict", top >= 0 ? r->verdicts[top].id : NULL);
	json_gain(o, "top_gain", r, top >= 0 ? r->verdicts[top].gain : NULL);
	/* the fired findings by expected gain (analysis/gain.h) */
	ord = jsonw_add_array(o, "order");
	for (i = 0; i < r->nverdicts; i++)
		if (r->verdicts[i].fired)
			jsonw_add_str(ord, NULL, r->verdicts[i].id);
	trust_json(o, r);
}
