/* report.json's "collection": the run's facts at their worst over the
 * ranks, the gaps with what each disables and the code that fixes it,
 * the whole snippet, and each rank's facts with their sources. */
#include "format/json/json_collect.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/collection.h"
#include "format/json/jsonw.h"
#include "input/discover.h"
#include "util/strbuf.h"
#include "util/utf8.h"
#include "util/banned.h"

static void add_tri(cJSON *o, const char *key, int v)
{
	if (v == TRI_UNKNOWN)
		cJSON_AddNullToObject(o, key);
	else
		cJSON_AddBoolToObject(o, key, v == TRI_YES);
}

/* The facts both the run and a rank have; with sources for a rank. */
static void facts(cJSON *o, const struct rank_collection *c, int sources)
{
	jsonw_add_str(o, "export", c->export_type);
	jsonw_add_str(o, "profiler_level", collection_level_name(c->level));
	add_tri(o, "cpu", c->cpu);
	jsonw_add_i64(o, "steps", (int64_t)c->steps);
	jsonw_add_i64(o, "timed_steps", (int64_t)c->timed);
	jsonw_add_i64(o, "warmup_steps_in_profile", (int64_t)c->warmup_in);
	if (c->warmup_before >= 0)
		jsonw_add_i64(o, "warmup_steps_before", c->warmup_before);
	else
		cJSON_AddNullToObject(o, "warmup_steps_before");
	add_tri(o, "shapes", c->shapes);
	add_tri(o, "memory", c->memory);
	add_tri(o, "aic_metrics", c->aic);
	if (!sources)
		return;
	jsonw_add_str(o, "profiler_level_source", c->level_source);
	jsonw_add_str(o, "cpu_source", c->cpu_source);
	jsonw_add_str(o, "steps_source", c->steps_source);
	jsonw_add_str(o, "shapes_source", c->shapes_source);
	jsonw_add_str(o, "memory_source", c->memory_source);
	jsonw_add_str(o, "aic_metrics_source", c->aic_source);
}

static cJSON *gap_ids(unsigned gaps)
{
	cJSON *a = cJSON_CreateArray();
	int g;

	for (g = 0; g < GAP_COUNT; g++)
		if (gaps & (1u << g))
			cJSON_AddItemToArray(
			    a, cJSON_CreateString(coll_gap_defs[g].id));
	return a;
}

static cJSON *rank_json(const struct rank_result *rr)
{
	const struct rank_collection *c = &rr->coll;
	cJSON *o = cJSON_CreateObject(), *files;
	int m;

	jsonw_add_i64(o, "id", rr->id);
	cJSON_AddBoolToObject(o, "analysed", rr->analysed);
	facts(o, c, 1);
	files = cJSON_AddArrayToObject(o, "memory_files");
	for (m = 0; m < DM_COUNT; m++)
		if (c->mem_files & (1u << m))
			cJSON_AddItemToArray(
			    files,
			    cJSON_CreateString(discover_memfile_names[m]));
	jsonw_add_str(o, "aic_metrics_name", rr->aic_metrics);
	jsonw_add_str(o, "torch_npu_version", rr->torch_npu_version);
	jsonw_add_str(o, "cann_version", rr->cann_version);
	cJSON_AddItemToObject(o, "gaps", gap_ids(c->gaps));
	return o;
}

static void gaps_json(cJSON *col, const struct result *r)
{
	cJSON *arr = cJSON_AddArrayToObject(col, "gaps");
	size_t i;
	int g;

	for (g = 0; g < GAP_COUNT; g++) {
		const struct coll_gap_def *d = &coll_gap_defs[g];
		cJSON *o, *ranks;
		if (!(r->collection.sum.gaps & (1u << g)))
			continue;
		o = cJSON_CreateObject();
		jsonw_add_str(o, "id", d->id);
		jsonw_add_str(o, "title", d->title);
		ranks = cJSON_AddArrayToObject(o, "ranks");
		for (i = 0; i < r->nranks; i++)
			if (r->ranks[i].analysed &&
			    (r->ranks[i].coll.gaps & (1u << g)))
				cJSON_AddItemToArray(
				    ranks, cJSON_CreateNumber(r->ranks[i].id));
		jsonw_add_str(o, "disables", d->disables);
		jsonw_add_str(o, "fix", d->fix);
		cJSON_AddItemToArray(arr, o);
	}
}

void json_collection(cJSON *root, const struct result *r)
{
	const struct collection *c = &r->collection;
	cJSON *col, *ranks;
	size_t i;

	if (!c->checked) {
		cJSON_AddNullToObject(root, "collection");
		return;
	}
	col = cJSON_AddObjectToObject(root, "collection");
	cJSON_AddBoolToObject(col, "complete", !c->sum.gaps);
	facts(col, &c->sum, 0);
	jsonw_add_str(col, "torch_npu_version", c->torch_npu_version);
	jsonw_add_str(col, "cann_version", c->cann_version);
	cJSON_AddBoolToObject(col, "versions_differ", c->versions_differ);
	gaps_json(col, r);
	jsonw_add_str(col, "collect_like_this",
	              c->sum.gaps ? collection_snippet(c) : NULL);
	ranks = cJSON_AddArrayToObject(col, "ranks");
	for (i = 0; i < r->nranks; i++)
		cJSON_AddItemToArray(ranks, rank_json(&r->ranks[i]));
}
