/* report.json writer (cJSON). Numbers are written as raw text built from
 * integers, so a 16-digit epoch timestamp keeps its last microsecond digit
 * and the output is byte-for-byte stable for golden tests. */
#include "render/json.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdlib.h>

#include "util/banned.h"
#include "util/numfmt.h"

/* report.json lists the heaviest kernel types of each stage; the HTML,
 * Markdown and PDF reports list them all */
#define JSON_TOP_KERNELS 15

static void add_raw(cJSON *o, const char *key, struct strbuf *sb)
{
	cJSON_AddItemToObject(o, key, cJSON_CreateRaw(sb->buf));
	strbuf_reset(sb);
}

static void add_us(cJSON *o, const char *key, int64_t ns)
{
	struct strbuf sb = STRBUF_INIT;
	numfmt_us(&sb, ns);
	add_raw(o, key, &sb);
	strbuf_release(&sb);
}

static void add_u64(cJSON *o, const char *key, uint64_t v)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%" PRIu64, v);
	add_raw(o, key, &sb);
	strbuf_release(&sb);
}

static void add_i64(cJSON *o, const char *key, int64_t v)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%" PRId64, v);
	add_raw(o, key, &sb);
	strbuf_release(&sb);
}

/* An integer, or null when it is unknown (present == 0). */
static void add_opt_i64(cJSON *o, const char *key, int64_t v, int present)
{
	if (present)
		add_i64(o, key, v);
	else
		cJSON_AddNullToObject(o, key);
}

static void add_pct(cJSON *o, const char *key, double v)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%.3f", v);
	add_raw(o, key, &sb);
	strbuf_release(&sb);
}

static void add_str(cJSON *o, const char *key, const char *s)
{
	if (s)
		cJSON_AddStringToObject(o, key, s);
	else
		cJSON_AddNullToObject(o, key);
}

static cJSON *type_stat_json(const struct type_stat *t, int64_t whole)
{
	cJSON *o = cJSON_CreateObject();
	add_str(o, "type", t->type);
	add_str(o, "category", category_names[t->cat]);
	add_u64(o, "count", t->count);
	add_us(o, "total_us", t->total_ns);
	add_us(o, "avg_us", t->count ? t->total_ns / (int64_t)t->count : 0);
	add_us(o, "min_us", t->min_ns);
	add_us(o, "max_us", t->max_ns);
	add_pct(o, "share_pct", numfmt_pct(t->total_ns, whole));
	return o;
}

static cJSON *stage_json(const struct stage_result *st, int64_t total_ns)
{
	cJSON *o = cJSON_CreateObject(), *cats, *comm, *top;
	size_t i;
	int c;

	add_u64(o, "kernels", st->kernels);
	add_u64(o, "segments", st->segments);
	add_us(o, "kernel_time_us", st->kernel_ns);
	add_us(o, "wall_time_us", st->wall_ns);
	add_pct(o, "share_of_profile_pct", numfmt_pct(st->kernel_ns, total_ns));
	cats = cJSON_AddObjectToObject(o, "categories");
	for (c = 0; c < CAT_COUNT; c++) {
		cJSON *co = cJSON_AddObjectToObject(cats, category_names[c]);
		add_us(co, "time_us", st->cat[c].time_ns);
		add_u64(co, "count", st->cat[c].count);
		add_pct(co, "share_pct",
		        numfmt_pct(st->cat[c].time_ns, st->kernel_ns));
	}
	comm = cJSON_AddObjectToObject(o, "communication");
	add_us(comm, "kernel_time_us", st->comm_ns);
	add_us(comm, "busy_time_us", st->comm_union_ns);
	add_us(comm, "exposed_us", st->exposed_comm_ns);
	add_pct(comm, "exposed_share_of_wall_pct",
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
		add_str(o, "role", in->role);
		add_str(o, "path", in->path);
		add_i64(o, "size_bytes", in->size);
		add_str(o, "variant", in->variant);
		add_str(o, "line_endings", in->crlf ? "CRLF" : "LF");
		cJSON_AddBoolToObject(o, "utf8_bom", in->bom);
		cJSON_AddBoolToObject(o, "start_time_tab", in->start_tab);
		add_opt_i64(o, "device_id", in->device_id, in->device_id >= 0);
		add_u64(o, "rows", in->rows);
		add_u64(o, "kernels", in->kernels);
		add_u64(o, "skipped_rows", in->skipped);
		add_u64(o, "typed_from_name", in->typed_from_name);
		cJSON_AddItemToArray(arr, o);
	}
}

static void profile_json(cJSON *root, const struct result *r)
{
	cJSON *p = cJSON_AddObjectToObject(root, "profile"), *steps, *ids;
	size_t i;

	add_str(p, "path", r->profile_path);
	add_str(p, "rank_dir", r->rank_dir);
	add_u64(p, "kernels", r->kernels);
	add_us(p, "start_us", r->span_start_ns);
	add_us(p, "end_us", r->span_end_ns);
	steps = cJSON_AddObjectToObject(p, "steps");
	add_u64(steps, "count", r->nsteps);
	ids = cJSON_AddArrayToObject(steps, "ids");
	for (i = 0; i < r->nsteps; i++)
		cJSON_AddItemToArray(ids, cJSON_CreateNumber(r->steps[i]));
}

static void stages_json(cJSON *root, const struct result *r)
{
	cJSON *st = cJSON_AddObjectToObject(root, "stages"), *det, *segs;
	int64_t total = 0;
	size_t i;
	int s;

	for (s = 0; s < STAGE_COUNT; s++)
		total += r->stages[s].kernel_ns;
	for (s = 0; s < STAGE_COUNT; s++)
		cJSON_AddItemToObject(st, stage_names[s],
		                      stage_json(&r->stages[s], total));
	det = cJSON_AddObjectToObject(root, "stage_detection");
	add_str(det, "method", r->stage_method);
	cJSON_AddBoolToObject(det, "text_encoder_detected",
	                      r->text_encoder_detected);
	segs = cJSON_AddArrayToObject(root, "segments");
	for (i = 0; i < r->nsegs; i++) {
		const struct segment *g = &r->segs[i];
		cJSON *o = cJSON_CreateObject();
		add_str(o, "stage", stage_names[g->stage]);
		add_opt_i64(o, "step", g->step, g->step != INT32_MIN);
		add_us(o, "start_us", g->start_ns);
		add_us(o, "end_us", g->end_ns);
		add_u64(o, "kernels", g->kernels);
		add_us(o, "kernel_time_us", g->kernel_ns);
		cJSON_AddItemToArray(segs, o);
	}
}

static void verdicts_json(cJSON *root, const struct result *r)
{
	cJSON *arr = cJSON_AddArrayToObject(root, "verdicts");
	size_t i, d;

	for (i = 0; i < r->nverdicts; i++) {
		const struct verdict *v = &r->verdicts[i];
		cJSON *o = cJSON_CreateObject(), *docs;
		add_str(o, "id", v->id);
		add_str(o, "title", v->title);
		add_str(o, "stage", stage_names[v->stage]);
		add_str(o, "metric", v->metric);
		if (v->applicable)
			add_pct(o, "value_pct", v->value);
		else
			cJSON_AddNullToObject(o, "value_pct");
		add_pct(o, "threshold_pct", v->threshold);
		cJSON_AddBoolToObject(o, "applicable", v->applicable);
		cJSON_AddBoolToObject(o, "fired", v->fired);
		add_str(o, "recommendation", v->recommendation);
		docs = cJSON_AddArrayToObject(o, "docs");
		for (d = 0; d < v->ndocs; d++)
			cJSON_AddItemToArray(docs,
			                     cJSON_CreateString(v->docs[d]));
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
		total += r->stages[s].kernel_ns;
	for (i = 0; i < r->nunmatched; i++)
		cJSON_AddItemToArray(arr,
		                     type_stat_json(&r->unmatched[i], total));
	w = cJSON_AddArrayToObject(root, "warnings");
	for (i = 0; i < r->nwarnings; i++) {
		const struct warning *x = &r->warnings[i];
		cJSON *o = cJSON_CreateObject();
		add_str(o, "code", x->code);
		add_str(o, "file", x->file);
		add_opt_i64(o, "line", (int64_t)x->line, x->line != 0);
		if (x->reason)
			add_str(o, "reason", x->reason);
		add_str(o, "message", x->message);
		cJSON_AddItemToArray(w, o);
	}
}

void render_json(const struct result *r, const char *tool_version,
                 struct strbuf *out)
{
	cJSON *root = cJSON_CreateObject(), *tool, *rules;
	char *text;

	cJSON_AddNumberToObject(root, "schema_version", REPORT_SCHEMA_VERSION);
	tool = cJSON_AddObjectToObject(root, "tool");
	add_str(tool, "name", "sdperf");
	add_str(tool, "version", tool_version);
	profile_json(root, r);
	inputs_json(root, r);
	rules = cJSON_AddObjectToObject(root, "rules");
	add_str(rules, "source", r->rules_source);
	stages_json(root, r);
	verdicts_json(root, r);
	misc_json(root, r);
	text = cJSON_Print(root);
	strbuf_adds(out, text);
	strbuf_addch(out, '\n');
	free(text);
	cJSON_Delete(root);
}
