/* report.json's "summary": end-to-end device time, the stage split, the
 * number of findings, the one to act on first and how far the profile
 * can be trusted (format/json/json_summary.h). */
#include "format/json/json_summary.h"

#include "analysis/e2e.h"
#include "analysis/summary.h"
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
	st = cJSON_AddObjectToObject(o, "stages");
	for (s = 0; s < STAGE_COUNT; s++) {
		cJSON *so = cJSON_AddObjectToObject(st, stage_names[s]);
		jsonw_add_us(so, "time_us", e->stage_ns[s]);
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
}

void json_summary(cJSON *root, const struct result *r)
{
	cJSON *o = cJSON_AddObjectToObject(root, "summary");
	int top = summary_top(r);

	e2e_json(o, r);
	jsonw_add_u64(o, "findings", summary_findings(r));
	jsonw_add_str(o, "top_verdict", top >= 0 ? r->verdicts[top].id : NULL);
	cJSON_AddNullToObject(o, "top_gain");
	trust_json(o, r);
}
