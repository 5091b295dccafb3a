/* report.json writer: a cJSON tree built through format/json/jsonw, whose
 * numbers are raw text from integers (a 16-digit epoch timestamp keeps its
 * last microsecond digit), printed in cJSON's layout. */
#include "format/json/json.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/breakdown.h"
#include "format/json/json_collect.h"
#include "format/json/json_iters.h"
#include "format/json/json_memory.h"
#include "format/json/json_prov.h"
#include "format/json/json_summary.h"
#include "format/json/jsonw.h"
#include "util/checked.h"
#include "util/numfmt.h"
#include "util/strbuf.h"
#include "util/utf8.h"
#include "util/banned.h"

/* every kernel type (up to BREAKDOWN_TOP): sdperf diff matches them by
 * Type, so a kept report.json must hold them all */
#define JSON_TOP_KERNELS BREAKDOWN_TOP

static cJSON *type_stat_json(const struct type_stat *t, int64_t whole)
{
	cJSON *o = cJSON_CreateObject();
	jsonw_add_str(o, "type", t->type);
	jsonw_add_str(o, "category", category_names[t->cat]);
	jsonw_add_u64(o, "count", t->count);
	jsonw_add_us(o, "total_us", t->total_ns);
	jsonw_add_us(o, "avg_us",
	             t->count ? t->total_ns / (int64_t)t->count : 0);
	jsonw_add_us(o, "min_us", t->min_ns);
	jsonw_add_us(o, "max_us", t->max_ns);
	jsonw_add_pct(o, "share_pct", numfmt_pct(t->total_ns, whole));
	return o;
}

/* categories.FA.parts: FA time by part (attention, preparation). */
static void fa_parts_json(cJSON *fa, const struct stage_result *st)
{
	cJSON *parts = cJSON_AddObjectToObject(fa, "parts");
	int p;

	for (p = 0; p < FA_PART_COUNT; p++) {
		cJSON *po = cJSON_AddObjectToObject(parts, fa_part_names[p]);
		const struct cat_stat *fp = &st->fa_part[p];
		jsonw_add_us(po, "time_us", fp->time_ns);
		jsonw_add_u64(po, "count", fp->count);
		jsonw_add_pct(po, "share_pct",
		              numfmt_pct(fp->time_ns, st->kernel_ns));
		jsonw_add_pct(po, "share_of_fa_pct",
		              numfmt_pct(fp->time_ns, st->cat[CAT_FA].time_ns));
	}
}

static cJSON *stage_json(const struct stage_result *st, int64_t total_ns)
{
	cJSON *o = cJSON_CreateObject(), *cats, *comm, *top;
	size_t i;
	int c;

	jsonw_add_u64(o, "kernels", st->kernels);
	jsonw_add_u64(o, "segments", st->segments);
	jsonw_add_us(o, "kernel_time_us", st->kernel_ns);
	jsonw_add_us(o, "wall_time_us", st->wall_ns);
	jsonw_add_pct(o, "share_of_profile_pct",
	              numfmt_pct(st->kernel_ns, total_ns));
	cats = cJSON_AddObjectToObject(o, "categories");
	for (c = 0; c < CAT_COUNT; c++) {
		cJSON *co = cJSON_AddObjectToObject(cats, category_names[c]);
		jsonw_add_us(co, "time_us", st->cat[c].time_ns);
		jsonw_add_u64(co, "count", st->cat[c].count);
		jsonw_add_pct(co, "share_pct",
		              numfmt_pct(st->cat[c].time_ns, st->kernel_ns));
		if (c == CAT_FA)
			fa_parts_json(co, st);
	}
	comm = cJSON_AddObjectToObject(o, "communication");
	jsonw_add_us(comm, "kernel_time_us", st->comm_ns);
	jsonw_add_us(comm, "busy_time_us", st->comm_union_ns);
	jsonw_add_us(comm, "exposed_us", st->exposed_comm_ns);
	jsonw_add_pct(comm, "exposed_share_of_wall_pct",
	              numfmt_pct(st->exposed_comm_ns, st->wall_ns));
	top = cJSON_AddArrayToObject(o, "top_kernels");
	for (i = 0; i < st->ntop && i < JSON_TOP_KERNELS; i++)
		cJSON_AddItemToArray(
		    top, type_stat_json(&st->top[i], st->kernel_ns));
	return o;
}

static void inputs_json(cJSON *root, const struct result *r)
{
	cJSON *arr = cJSON_AddArrayToObject(root, "inputs");
	size_t i;

	for (i = 0; i < r->ninputs; i++) {
		const struct input_desc *in = &r->inputs[i];
		cJSON *o = cJSON_CreateObject();
		int trace = !strcmp(in->role, "trace_view");
		jsonw_add_str(o, "role", in->role);
		jsonw_add_str(o, "path", in->file.path);
		jsonw_add_i64(o, "size_bytes", in->file.size);
		jsonw_add_str(o, "variant", in->file.variant);
		/* a db and a trace have no lines */
		jsonw_add_str(o, "line_endings",
		              trace || !strcmp(in->role, "db") ? NULL
		              : in->file.crlf                  ? "CRLF"
		                                               : "LF");
		cJSON_AddBoolToObject(o, "utf8_bom", in->file.bom);
		cJSON_AddBoolToObject(o, "start_time_tab", in->file.start_tab);
		jsonw_add_opt_i64(o, "device_id", in->file.device_id,
		                  in->file.device_id >= 0);
		jsonw_add_u64(o, "rows", in->file.rows);
		jsonw_add_u64(o, "kernels", in->kernels);
		jsonw_add_u64(o, "skipped_rows", in->file.skipped);
		jsonw_add_u64(o, "typed_from_name", in->file.na_type);
		if (trace)
			jsonw_add_u64(o, "subtasks", in->subtasks);
		cJSON_AddItemToArray(arr, o);
	}
}

static void profile_json(cJSON *root, const struct result *r)
{
	cJSON *p = cJSON_AddObjectToObject(root, "profile"), *steps, *ids;
	size_t i;

	jsonw_add_str(p, "path", r->profile_path);
	jsonw_add_str(p, "rank_dir", r->rank_dir);
	jsonw_add_u64(p, "kernels", r->kernels);
	jsonw_add_us(p, "start_us", r->span_start_ns);
	jsonw_add_us(p, "end_us", r->span_end_ns);
	steps = cJSON_AddObjectToObject(p, "steps");
	jsonw_add_u64(steps, "count", r->steps_total);
	ids = cJSON_AddArrayToObject(steps, "ids");
	for (i = 0; i < r->nsteps; i++)
		cJSON_AddItemToArray(ids, cJSON_CreateNumber(r->steps[i]));
}

/* stages.vae.split: the VAE's kernel time by part (analysis/vaesplit.h) */
static void vae_split_json(cJSON *vae, const struct vae_split *v)
{
	cJSON *o = cJSON_AddObjectToObject(vae, "split");
	int p;

	for (p = 0; p < VAE_PARTS; p++) {
		cJSON *po = cJSON_AddObjectToObject(o, vae_part_names[p]);
		jsonw_add_us(po, "time_us", v->part_ns[p]);
		jsonw_add_pct(po, "share_pct",
		              numfmt_pct(v->part_ns[p], v->total_ns));
	}
}

/* What the profile is (analysis/workload.h) and the evidence. */
static void workload_json(cJSON *root, const struct workload *w)
{
	cJSON *o = cJSON_AddObjectToObject(root, "workload"), *ev;

	jsonw_add_str(o, "kind", workload_kind_names[w->kind]);
	jsonw_add_str(o, "part", workload_part_names[w->part]);
	cJSON_AddBoolToObject(o, "stage_split", !w->one_stage);
	cJSON_AddBoolToObject(o, "from_markers", w->markers);
	ev = cJSON_AddObjectToObject(o, "evidence");
	cJSON_AddBoolToObject(ev, "denoising_loop",
	                      w->loop_calls > 0 || w->stage_loop);
	cJSON_AddBoolToObject(ev, "iterations_split", w->loop_calls > 0);
	jsonw_add_u64(ev, "loop_iterations", w->loop_iterations);
	jsonw_add_u64(ev, "loop_blocks", w->loop_blocks);
	jsonw_add_u64(ev, "loop_calls", w->loop_calls);
	jsonw_add_u64(ev, "training_kernels", w->training_kernels);
	jsonw_add_u64(ev, "llm_kernels", w->llm_kernels);
	jsonw_add_u64(ev, "dropout_kernels", w->dropout_kernels);
	jsonw_add_u64(ev, "vae_kernels", w->vae_kernels);
	jsonw_add_u64(ev, "dit_kernels", w->dit_kernels);
	jsonw_add_u64(ev, "kernels", w->kernels);
}

static void stages_json(cJSON *root, const struct result *r)
{
	cJSON *st = cJSON_AddObjectToObject(root, "stages"), *det, *segs;
	int64_t total = 0;
	size_t i;
	int s;

	for (s = 0; s < STAGE_COUNT; s++)
		checked_accumulate(&total, r->stages[s].kernel_ns);
	for (s = 0; s < STAGE_COUNT; s++)
		cJSON_AddItemToObject(st, stage_names[s],
		                      stage_json(&r->stages[s], total));
	vae_split_json(cJSON_GetObjectItemCaseSensitive(st, "vae"),
	               &r->vae_split);
	det = cJSON_AddObjectToObject(root, "stage_detection");
	jsonw_add_str(det, "method", r->stage_method);
	cJSON_AddBoolToObject(det, "text_encoder_detected",
	                      r->text_encoder_detected);
	workload_json(root, &r->workload);
	/* what the stage id "dit" is: the denoising network */
	jsonw_add_str(det, "denoiser", r->denoiser_unet ? "UNet" : "DiT");
	segs = cJSON_AddArrayToObject(root, "segments");
	for (i = 0; i < r->nsegs; i++) {
		const struct segment *g = &r->segs[i];
		cJSON *o = cJSON_CreateObject();
		jsonw_add_str(o, "stage", stage_names[g->stage]);
		jsonw_add_opt_i64(o, "step", g->step, g->step != INT32_MIN);
		jsonw_add_us(o, "start_us", g->start_ns);
		jsonw_add_us(o, "end_us", g->end_ns);
		jsonw_add_u64(o, "kernels", g->kernels);
		jsonw_add_us(o, "kernel_time_us", g->kernel_ns);
		cJSON_AddItemToArray(segs, o);
	}
	jsonw_add_u64(root, "segments_total",
	              r->segs_total > r->nsegs ? r->segs_total : r->nsegs);
}

static void verdicts_json(cJSON *root, const struct result *r)
{
	cJSON *arr = cJSON_AddArrayToObject(root, "verdicts");
	size_t i, d;

	for (i = 0; i < r->nverdicts; i++) {
		const struct verdict *v = &r->verdicts[i];
		cJSON *o = cJSON_CreateObject(), *docs;
		jsonw_add_str(o, "id", v->id);
		jsonw_add_str(o, "title", v->title);
		jsonw_add_str(o, "check", v->check);
		jsonw_add_str(o, "stage", stage_names[v->stage]);
		jsonw_add_str(o, "metric", v->metric);
		if (v->applicable)
			jsonw_add_pct(o, "value_pct", v->value);
		else
			cJSON_AddNullToObject(o, "value_pct");
		jsonw_add_pct(o, "threshold_pct", v->threshold);
		cJSON_AddBoolToObject(o, "applicable", v->applicable);
		cJSON_AddBoolToObject(o, "fired", v->fired);
		cJSON_AddBoolToObject(o, "whole_profile",
		                      v->whole_profile != VW_NONE);
		jsonw_add_str(o, "na_code", v->na_code);
		jsonw_add_opt_i64(o, "rank", v->rank, v->rank >= 0);
		jsonw_add_str(o, "how", v->how);
		jsonw_add_str(o, "recommendation", v->recommendation);
		docs = cJSON_AddArrayToObject(o, "docs");
		for (d = 0; d < v->ndocs; d++)
			cJSON_AddItemToArray(docs, jsonw_str(v->docs[d]));
		jsonw_add_opt_i64(o, "order", v->order, v->order > 0);
		json_gain(o, "gain", r, v->gain);
		cJSON_AddItemToArray(arr, o);
	}
}

static void misc_json(cJSON *root, const struct result *r)
{
	cJSON *arr = cJSON_AddArrayToObject(root, "unmatched_types"), *w;
	int64_t total = 0;
	size_t i;
	int s;

	for (s = 0; s < STAGE_COUNT; s++)
		checked_accumulate(&total, r->stages[s].kernel_ns);
	for (i = 0; i < r->nunmatched; i++)
		cJSON_AddItemToArray(arr,
		                     type_stat_json(&r->unmatched[i], total));
	w = cJSON_AddArrayToObject(root, "warnings");
	for (i = 0; i < r->nwarnings; i++) {
		const struct warning *x = &r->warnings[i];
		cJSON *o = cJSON_CreateObject();
		jsonw_add_str(o, "code", x->code);
		jsonw_add_str(o, "file", x->file);
		jsonw_add_opt_i64(o, "line", (int64_t)x->line, x->line != 0);
		if (x->reason)
			jsonw_add_str(o, "reason", x->reason);
		jsonw_add_str(o, "message", x->message);
		cJSON_AddItemToArray(w, o);
	}
}

/* ---- ranks ------------------------------------------------------------ */

static void rank_files_json(cJSON *o, const struct rank_result *rr)
{
	cJSON *files = cJSON_AddObjectToObject(o, "files");
	int f;

	for (f = 0; f < RF_COUNT; f++)
		jsonw_add_str(files, rank_file_names[f], rr->files[f]);
	jsonw_add_str(o, "torch_npu_version", rr->torch_npu_version);
	jsonw_add_str(o, "cann_version", rr->cann_version);
	jsonw_add_str(o, "profiler_level", rr->profiler_level);
	jsonw_add_str(o, "aic_metrics", rr->aic_metrics);
}

static void rank_stages_json(cJSON *o, const struct rank_result *rr)
{
	cJSON *st = cJSON_AddObjectToObject(o, "stages");
	int s, k;

	for (s = 0; s < STAGE_COUNT; s++) {
		cJSON *so = cJSON_AddObjectToObject(st, stage_names[s]), *cats;
		jsonw_add_us(so, "kernel_time_us", rr->stage[s].kernel_ns);
		jsonw_add_us(so, "wall_time_us", rr->stage[s].wall_ns);
		jsonw_add_us(so, "comm_time_us", rr->stage[s].comm_ns);
		jsonw_add_us(so, "exposed_comm_us",
		             rr->stage[s].exposed_comm_ns);
		jsonw_add_pct(so, "exposed_share_of_wall_pct",
		              numfmt_pct(rr->stage[s].exposed_comm_ns,
		                         rr->stage[s].wall_ns));
		cats = cJSON_AddObjectToObject(so, "categories_us");
		for (k = 0; k < CAT_COUNT; k++)
			jsonw_add_us(cats, category_names[k],
			             rr->stage[s].cat_ns[k]);
		cats = cJSON_AddObjectToObject(so, "fa_parts_us");
		for (k = 0; k < FA_PART_COUNT; k++)
			jsonw_add_us(cats, fa_part_names[k],
			             rr->stage[s].fa_part_ns[k]);
	}
	jsonw_add_us(o, "dit_compute_us", rr->compute_ns);
}

static void rank_steps_json(cJSON *o, const struct rank_result *rr)
{
	static const char *const flags[] = {"", "warmup", "outlier"};
	cJSON *arr;
	size_t i;

	if (rr->free_share_ppm >= 0)
		jsonw_add_pct(o, "free_share_pct",
		              (double)rr->free_share_ppm / 1e4);
	else
		cJSON_AddNullToObject(o, "free_share_pct");
	jsonw_add_str(o, "steps_source", rr->steps_source);
	arr = cJSON_AddArrayToObject(o, "steps");
	for (i = 0; i < rr->nsteps; i++) {
		const struct step_stat *s = &rr->steps[i];
		cJSON *so = cJSON_CreateObject();
		jsonw_add_opt_i64(so, "step", s->step, s->step != STEP_NONE);
		jsonw_add_us(so, "computing_us", s->computing_ns);
		jsonw_add_us(so, "communication_us", s->comm_ns);
		jsonw_add_us(so, "not_overlapped_us", s->not_overlapped_ns);
		jsonw_add_us(so, "free_us", s->free_ns);
		jsonw_add_us(so, "stage_us", s->stage_ns);
		if (s->preparing_ns >= 0)
			jsonw_add_us(so, "preparing_us", s->preparing_ns);
		else
			cJSON_AddNullToObject(so, "preparing_us");
		jsonw_add_str(so, "flag",
		              s->outlier > 0 && s->outlier <= 2
		                  ? flags[s->outlier]
		                  : NULL);
		cJSON_AddItemToArray(arr, so);
	}
	jsonw_add_u64(o, "steps_total",
	              rr->steps_total > rr->nsteps ? rr->steps_total
	                                           : rr->nsteps);
}

static void rank_trace_json(cJSON *o, const struct rank_result *rr)
{
	cJSON *t = cJSON_AddObjectToObject(o, "trace"), *tot, *st, *m;
	size_t i;
	int k, s;

	cJSON_AddBoolToObject(t, "read", rr->trace_read);
	jsonw_add_u64(t, "events", rr->trace_events);
	cJSON_AddBoolToObject(t, "truncated", rr->trace_truncated);
	jsonw_add_opt_i64(t, "truncated_at_byte",
	                  (int64_t)rr->trace_truncated_at, rr->trace_truncated);
	cJSON_AddBoolToObject(t, "overlap_found", rr->overlap_found);
	tot = cJSON_AddObjectToObject(t, "overlap_us");
	for (k = 0; k < OV_KINDS; k++)
		jsonw_add_us(tot, ov_keys[k], rr->ov_total[k]);
	st = cJSON_AddObjectToObject(t, "overlap_by_stage_us");
	for (s = 0; s < STAGE_COUNT; s++) {
		cJSON *so = cJSON_AddObjectToObject(st, stage_names[s]);
		for (k = 0; k < OV_KINDS; k++)
			jsonw_add_us(so, ov_keys[k], rr->ov_stage[s][k]);
	}
	jsonw_add_str(o, "stage_source", rr->stage_source);
	m = cJSON_AddArrayToObject(o, "markers");
	for (i = 0; i < rr->nmarkers; i++) {
		const struct stage_marker *mk = &rr->markers[i];
		cJSON *mo = cJSON_CreateObject();
		jsonw_add_str(mo, "name", mk->name);
		jsonw_add_str(mo, "stage", stage_names[mk->stage]);
		jsonw_add_us(mo, "host_start_us", mk->host_start_ns);
		jsonw_add_us(mo, "host_end_us", mk->host_end_ns);
		jsonw_add_us(mo, "device_start_us", mk->dev_start_ns);
		jsonw_add_us(mo, "device_end_us", mk->dev_end_ns);
		jsonw_add_str(mo, "method", mk->by_flows ? "flows" : "time");
		jsonw_add_u64(mo, "flows", mk->flows);
		jsonw_add_u64(mo, "kernels", mk->kernels);
		cJSON_AddItemToArray(m, mo);
	}
	jsonw_add_u64(o, "markers_total",
	              rr->markers_total > rr->nmarkers ? rr->markers_total
	                                               : rr->nmarkers);
}

/* A comm_result's collectives and transports into co. */
static void comm_sums_json(cJSON *co, const struct comm_result *c)
{
	cJSON *kinds, *links;
	int k;

	kinds = cJSON_AddObjectToObject(co, "collectives");
	for (k = 0; k < COLL_COUNT; k++) {
		const struct coll_stat *s = &c->kind[k];
		cJSON *ko = cJSON_AddObjectToObject(kinds, coll_names[k]);
		jsonw_add_u64(ko, "count", s->count);
		jsonw_add_us(ko, "elapse_us", s->elapse_ns);
		jsonw_add_us(ko, "transit_us", s->transit_ns);
		jsonw_add_us(ko, "wait_us", s->wait_ns);
		jsonw_add_us(ko, "sync_us", s->sync_ns);
		jsonw_add_us(ko, "idle_us", s->idle_ns);
		jsonw_add_pct(
		    ko, "wait_ratio_pct",
		    numfmt_pct(s->wait_ns,
		               checked_add_sat(s->wait_ns, s->transit_ns)));
	}
	links = cJSON_AddObjectToObject(co, "transports");
	for (k = 0; k < TR_COUNT; k++) {
		const struct transport_stat *l = &c->link[k];
		cJSON *lo = cJSON_AddObjectToObject(links, transport_names[k]);
		jsonw_add_u64(lo, "ops", l->ops);
		jsonw_add_pct(lo, "size_mb", l->size_mb);
		jsonw_add_us(lo, "time_us", l->time_ns);
		if (l->time_ns > 0) /* MB per ms is GB per s */
			jsonw_add_pct(lo, "bandwidth_gbps",
			              l->size_mb / ((double)l->time_ns / 1e6));
		else
			cJSON_AddNullToObject(lo, "bandwidth_gbps");
	}
}

static void rank_comm_json(cJSON *o, const struct rank_result *rr)
{
	const struct comm_result *c = &rr->comm;
	cJSON *co;

	if (!rr->comm_read) {
		cJSON_AddNullToObject(o, "communication");
		return;
	}
	co = cJSON_AddObjectToObject(o, "communication");
	jsonw_add_u64(co, "steps", c->nsteps);
	jsonw_add_u64(co, "ops", c->ops);
	jsonw_add_us(co, "wait_us", c->wait_ns);
	comm_sums_json(co, c);
}

/* Only for a rank that has a db export, so that the report.json of a
 * text export keeps its shape. */
static void rank_export_json(cJSON *o, const struct rank_result *rr)
{
	cJSON *x, *gaps;
	int g;

	if (!rr->db.path)
		return;
	x = cJSON_AddObjectToObject(o, "export");
	jsonw_add_str(x, "used", rr->db.used ? "db" : "text");
	jsonw_add_str(x, "db", rr->db.path);
	jsonw_add_str(x, "schema_version", rr->db.schema);
	gaps = cJSON_AddArrayToObject(x, "not_available");
	for (g = 0; g < DBGAP_COUNT; g++)
		if (rr->db.gaps & (1u << g))
			cJSON_AddItemToArray(
			    gaps, cJSON_CreateString(db_gap_keys[g]));
}

/* The comparisons with the profiler's own totals (analysis/totals.h),
 * and the files of the rank that nothing reads. */
static void rank_totals_json(cJSON *o, const struct rank_result *rr)
{
	cJSON *arr = cJSON_AddArrayToObject(o, "totals_check");
	size_t i;
	int f;

	for (f = 0; f < TOT_COUNT; f++) {
		const struct totals_check *c = &rr->totals[f];
		cJSON *x;
		if (!c->checked)
			continue;
		x = cJSON_CreateObject();
		jsonw_add_str(x, "figure", totals_figure_names[f]);
		jsonw_add_str(x, "source", c->source);
		if (f == TOT_OPSTAT_COUNT) {
			jsonw_add_i64(x, "kernels", c->ours);
			jsonw_add_i64(x, "profiler", c->theirs);
			jsonw_add_i64(x, "base", c->base);
		} else {
			jsonw_add_us(x, "kernels_us", c->ours);
			jsonw_add_us(x, "profiler_us", c->theirs);
			jsonw_add_us(x, "base_us", c->base);
		}
		jsonw_add_fixed(x, "diff_points", c->diff_points, 1);
		jsonw_add_fixed(x, "tolerance_points", c->tolerance, 1);
		cJSON_AddBoolToObject(x, "passed", c->passed);
		jsonw_add_str(x, "uses", "kernels");
		if (c->worst_type)
			jsonw_add_str(x, "worst_type", c->worst_type);
		cJSON_AddItemToArray(arr, x);
	}
	arr = cJSON_AddArrayToObject(o, "links");
	for (i = 0; i < rr->nlinks; i++) {
		const struct comm_link *k = &rr->links[i];
		cJSON *x = cJSON_CreateObject();
		jsonw_add_i64(x, "src", k->src);
		jsonw_add_i64(x, "dst", k->dst);
		jsonw_add_str(x, "transport", k->transport);
		jsonw_add_fixed(x, "size_mb", k->size_mb, 1);
		jsonw_add_us(x, "time_us", k->time_ns);
		jsonw_add_fixed(x, "bandwidth_gbps",
		                k->time_ns > 0
		                    ? k->size_mb / ((double)k->time_ns / 1e6)
		                    : 0,
		                k->time_ns > 0);
		cJSON_AddItemToArray(arr, x);
	}
	jsonw_add_u64(o, "links_total", rr->links_total);
	arr = cJSON_AddArrayToObject(o, "unused_files");
	for (i = 0; i < rr->nunused; i++)
		cJSON_AddItemToArray(arr, cJSON_CreateString(rr->unused[i]));
	jsonw_add_u64(o, "unused_files_total", rr->unused_total);
}

static void ranks_json(cJSON *root, const struct result *r)
{
	cJSON *arr = cJSON_AddArrayToObject(root, "ranks");
	size_t i;

	if (r->nranks)
		jsonw_add_i64(root, "lead_rank", r->ranks[r->lead].id);
	else
		cJSON_AddNullToObject(root, "lead_rank");
	for (i = 0; i < r->nranks; i++) {
		const struct rank_result *rr = &r->ranks[i];
		cJSON *o = cJSON_CreateObject();
		jsonw_add_i64(o, "id", rr->id);
		jsonw_add_str(o, "id_source", rr->id_source);
		jsonw_add_str(o, "dir", rr->dir);
		cJSON_AddBoolToObject(o, "analysed", rr->analysed);
		jsonw_add_str(o, "kernel_source", rr->kernel_source);
		jsonw_add_u64(o, "kernels", rr->kernels);
		rank_files_json(o, rr);
		rank_export_json(o, rr);
		rank_stages_json(o, rr);
		rank_steps_json(o, rr);
		rank_trace_json(o, rr);
		rank_comm_json(o, rr);
		json_rank_memory(o, rr);
		rank_totals_json(o, rr);
		jsonw_add_str(o, "chip", rr->chip);
		cJSON_AddItemToArray(arr, o);
	}
}

/* What the analysis worked out over the ranks (struct cluster_summary). */
static void cluster_json(cJSON *root, const struct result *r)
{
	const struct cluster_summary *cs = &r->cluster;
	cJSON *o = cJSON_AddObjectToObject(root, "cluster"), *co;

	jsonw_add_opt_i64(o, "slowest_rank",
	                  cs->ranked ? r->ranks[cs->slowest].id : 0,
	                  cs->ranked);
	jsonw_add_opt_i64(o, "median_rank",
	                  cs->ranked ? r->ranks[cs->median].id : 0, cs->ranked);
	if (!cs->comm_ranks) {
		cJSON_AddNullToObject(o, "communication");
		return;
	}
	co = cJSON_AddObjectToObject(o, "communication");
	jsonw_add_u64(co, "ranks", cs->comm_ranks);
	jsonw_add_u64(co, "ops", cs->comm.ops);
	jsonw_add_us(co, "wait_us", cs->comm.wait_ns);
	comm_sums_json(co, &cs->comm);
}

/* "redaction", with --redact only: the classes replaced, whether kernel
 * type names were kept, how many distinct originals of each class were
 * replaced, and the metadata fields dropped (name: values dropped). */
static void redaction_json(cJSON *root, const struct result *r)
{
	const struct redaction *rd = &r->redaction;
	cJSON *o, *classes, *n;
	int k;

	if (!rd->on)
		return;
	o = jsonw_add_object(root, "redaction");
	jsonw_add_bool(o, "redacted", 1);
	classes = jsonw_add_array(o, "classes");
	n = jsonw_add_object(o, "replaced");
	for (k = 0; k < REDACT_CLASSES; k++) {
		if (k == REDACT_KERNEL && !rd->kernels)
			continue;
		cJSON_AddItemToArray(classes, jsonw_str(redact_class_names[k]));
		jsonw_add_u64(n, redact_class_names[k], rd->replaced[k]);
	}
	jsonw_add_str(o, "kernel_names", rd->kernels ? "replaced" : "kept");
	/* the metadata fields dropped, each with how many values */
	n = jsonw_add_object(o, "dropped");
	for (k = 0; k < REDACT_FIELDS; k++)
		if (rd->dropped[k])
			jsonw_add_u64(n, redact_field_names[k], rd->dropped[k]);
}

int render_json(const struct result *r, const char *tool_version,
                struct strbuf *out, struct err *e)
{
	cJSON *root = cJSON_CreateObject(), *tool, *rules;
	int ret;

	cJSON_AddNumberToObject(root, "schema_version", REPORT_SCHEMA_VERSION);
	tool = cJSON_AddObjectToObject(root, "tool");
	jsonw_add_str(tool, "name", "sdperf");
	jsonw_add_str(tool, "version", tool_version);
	profile_json(root, r);
	json_summary(root, r);
	inputs_json(root, r);
	rules = cJSON_AddObjectToObject(root, "rules");
	jsonw_add_str(rules, "source", r->rules_source);
	stages_json(root, r);
	verdicts_json(root, r);
	json_collection(root, r);
	misc_json(root, r);
	ranks_json(root, r);
	cluster_json(root, r);
	json_memory(root, r);
	json_iters(root, r);
	redaction_json(root, r);
	json_provenance(root, r);
	ret = jsonw_print(root, JSONW_TABS, "report.json", out, e);
	cJSON_Delete(root);
	return ret;
}

struct libversion json_cjson_version(void)
{
	struct libversion v = {
	    "cJSON",
	    LIBVERSION_STR(CJSON_VERSION_MAJOR) "." LIBVERSION_STR(
	        CJSON_VERSION_MINOR) "." LIBVERSION_STR(CJSON_VERSION_PATCH),
	    cJSON_Version()};
	return v;
}
