/* report.json's denoising iterations and cache. */
#include "format/json/json_iters.h"

#include "analysis/iterations.h"
#include "format/json/jsonw.h"
#include "util/banned.h"

static const char *const outlier_names[3] = {NULL, "warmup", "slow"};

static void one(cJSON *arr, const struct iteration *it)
{
	cJSON *o = cJSON_CreateObject();

	jsonw_add_u64(o, "call", it->call);
	jsonw_add_u64(o, "index", it->index);
	jsonw_add_opt_i64(o, "step", it->step, it->step != STEP_NONE);
	jsonw_add_us(o, "start_us", it->start_ns);
	jsonw_add_us(o, "duration_us", it->dur_ns);
	jsonw_add_u64(o, "kernels", it->kernels);
	jsonw_add_u64(o, "attention_kernels", it->attention);
	jsonw_add_u64(o, "matmul_kernels", it->matmul);
	jsonw_add_u64(o, "blocks", it->blocks);
	jsonw_add_str(o, "hit", it->hit ? iter_hit_names[it->hit] : NULL);
	jsonw_add_str(o, "outlier", outlier_names[it->outlier % 3]);
	cJSON_AddItemToArray(arr, o);
}

static void cache_json(cJSON *o, const struct cache_seen *c)
{
	cJSON *co = jsonw_add_object(o, "cache");

	jsonw_add_str(co, "kind", cache_kind_names[c->kind]);
	jsonw_add_u64(co, "hits", c->hits);
	jsonw_add_opt_i64(co, "period", (int64_t)c->period, c->period > 0);
	jsonw_add_bool(co, "regular", c->regular);
	jsonw_add_us(co, "saved_us", c->saved_ns);
}

void json_iters(cJSON *root, const struct result *r)
{
	const struct iter_summary *s = &r->iters;
	cJSON *o = jsonw_add_object(root, "iterations"), *arr;
	double share = iterations_loop_share(r);
	size_t i;

	jsonw_add_bool(o, "found", s->found);
	if (!s->found)
		return;
	jsonw_add_u64(o, "calls", s->calls);
	jsonw_add_u64(o, "total", s->total);
	jsonw_add_u64(o, "full", s->full);
	jsonw_add_u64(o, "head_kernels", s->head);
	jsonw_add_u64(o, "blocks_per_iteration", s->blocks);
	jsonw_add_u64(o, "median_kernels", s->median_kernels);
	jsonw_add_us(o, "median_us", s->median_ns);
	jsonw_add_us(o, "loop_us", s->loop_ns);
	jsonw_add_fixed(o, "loop_share_pct", share, share >= 0);
	jsonw_add_fixed(o, "outlier_factor", s->outlier_factor, 1);
	jsonw_add_u64(o, "outliers", s->outliers);
	jsonw_add_u64(o, "suggest_period", s->suggest_period);
	jsonw_add_u64(o, "would_skip", s->would_skip);
	cache_json(o, &s->cache);
	arr = jsonw_add_array(o, "list");
	for (i = 0; i < s->n; i++)
		one(arr, &s->v[i]);
	jsonw_add_u64(o, "listed", s->n);
}
