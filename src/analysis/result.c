/* Result model: name tables and lifecycle. */
#include "analysis/result.h"

#include <stdlib.h>
#include <string.h>

#include "util/membudget.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

const char *const feature_doc_keys[] = {
    "sparse",      "quantization", "cache",       "cpu_offload", "share_memory",
    "parallelism", "compilation",  "core_layers", "DyEPLB"};
const char *const db_gap_keys[DBGAP_COUNT] = {
    "overlap_analysis", "markers", "steps", "communication", "compute_kernels"};
const size_t feature_doc_count =
    sizeof(feature_doc_keys) / sizeof(feature_doc_keys[0]);

int feature_doc_known(const char *key)
{
	size_t i;
	for (i = 0; i < feature_doc_count; i++)
		if (!strcmp(feature_doc_keys[i], key))
			return 1;
	return 0;
}

void result_init(struct result *r)
{
	memset(r, 0, sizeof(*r));
}

int type_stat_cmp(const void *a, const void *b)
{
	const struct type_stat *x = a, *y = b;
	if (x->total_ns != y->total_ns)
		return x->total_ns > y->total_ns ? -1 : 1;
	return strcmp(x->type, y->type);
}

void type_stats_free(struct type_stat *t, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		free(t[i].type);
	free(t);
}

void warning_release(struct warning *w)
{
	size_t k;

	free(w->code);
	free(w->file);
	free(w->message);
	free(w->reason);
	for (k = 0; k < WARNING_ARGS; k++)
		free(w->args[k]);
	memset(w, 0, sizeof(*w));
}

int totals_failed(const struct result *r)
{
	size_t i;

	for (i = 0; i < r->nranks; i++)
		if (r->ranks[i].analysed && r->ranks[i].totals_failed)
			return 1;
	return 0;
}

void rank_result_release(struct rank_result *rr)
{
	size_t i;

	free(rr->dir);
	for (i = 0; i < RF_COUNT; i++)
		free(rr->files[i]);
	free(rr->torch_npu_version);
	free(rr->cann_version);
	free(rr->profiler_level);
	free(rr->aic_metrics);
	free(rr->steps);
	for (i = 0; i < rr->nmarkers; i++)
		free(rr->markers[i].name);
	free(rr->markers);
	free(rr->db.path);
	free(rr->db.schema);
	free(rr->chip);
	free(rr->host);
	for (i = 0; i < TOT_COUNT; i++)
		free(rr->totals[i].worst_type);
	for (i = 0; i < rr->nunused; i++)
		free(rr->unused[i]);
	free(rr->unused);
	free(rr->links);
	for (i = 0; i < rr->ninputs; i++)
		free(rr->inputs[i].path);
	free(rr->inputs);
	memset(rr, 0, sizeof(*rr));
}

void result_release(struct result *r)
{
	size_t i, k;

	membudget_release(r->charged);
	for (i = 0; i < r->nranks; i++)
		rank_result_release(&r->ranks[i]);
	free(r->ranks);

	free(r->memory.chip);
	free(r->iters.v);
	free(r->brand.org);
	free(r->brand.customer);
	free(r->brand.ticket);
	free(r->brand.confidential);
	free(r->brand.logo);
	free(r->prov.command_line);
	free(r->prov.rules);
	free(r->profile_path);
	free(r->rank_dir);
	for (i = 0; i < r->ninputs; i++) {
		free(r->inputs[i].role);
		kernels_info_release(&r->inputs[i].file);
	}
	free(r->inputs);
	free(r->steps);
	for (i = 0; i < STAGE_COUNT; i++)
		type_stats_free(r->stages[i].top, r->stages[i].ntop);
	free(r->segs);
	free(r->stage_method);
	type_stats_free(r->unmatched, r->nunmatched);
	for (i = 0; i < r->nverdicts; i++) {
		struct verdict *v = &r->verdicts[i];
		free(v->id);
		free(v->title);
		free(v->check);
		free(v->metric);
		free(v->recommendation);
		free(v->how);
		for (k = 0; k < v->ndocs; k++)
			free(v->docs[k]);
		free(v->docs);
		gain_free(v->gain);
	}
	free(r->verdicts);
	free(r->rules_source);
	for (i = 0; i < r->nwarnings; i++)
		warning_release(&r->warnings[i]);
	free(r->warnings);
	result_init(r);
}

/* malloc's header and rounding, per block */
#define BLOCK_OVERHEAD 16

static uint64_t str_bytes(const char *s)
{
	return s ? strlen(s) + 1 + BLOCK_OVERHEAD : 0;
}

static uint64_t types_bytes(const struct type_stat *t, size_t n)
{
	uint64_t b = (uint64_t)n * sizeof(*t) + BLOCK_OVERHEAD;
	size_t i;

	for (i = 0; i < n; i++)
		b += str_bytes(t[i].type);
	return b;
}

static uint64_t rank_bytes(const struct rank_result *rr)
{
	uint64_t b = sizeof(*rr) + str_bytes(rr->dir);
	size_t i;

	for (i = 0; i < RF_COUNT; i++)
		b += str_bytes(rr->files[i]);
	b += (uint64_t)rr->nsteps * sizeof(*rr->steps) + BLOCK_OVERHEAD;
	b += (uint64_t)rr->nmarkers * sizeof(*rr->markers) + BLOCK_OVERHEAD;
	for (i = 0; i < rr->nmarkers; i++)
		b += str_bytes(rr->markers[i].name);
	return b;
}

uint64_t result_bytes(const struct result *r)
{
	uint64_t b = sizeof(*r);
	size_t i, k;
	int s;

	for (i = 0; i < r->nranks; i++)
		b += rank_bytes(&r->ranks[i]);
	b += (uint64_t)r->ninputs * sizeof(*r->inputs);
	b += (uint64_t)r->nsteps * sizeof(*r->steps);
	b += (uint64_t)r->nsegs * sizeof(*r->segs);
	b += (uint64_t)r->iters.n * sizeof(*r->iters.v);
	for (s = 0; s < STAGE_COUNT; s++)
		b += types_bytes(r->stages[s].top, r->stages[s].ntop);
	b += types_bytes(r->unmatched, r->nunmatched);
	for (i = 0; i < r->nwarnings; i++) {
		const struct warning *w = &r->warnings[i];
		b += sizeof(*w) + str_bytes(w->message) + str_bytes(w->file) +
		     str_bytes(w->code);
		for (k = 0; k < WARNING_ARGS; k++)
			b += str_bytes(w->args[k]);
	}
	return b;
}

struct warning *result_warn(struct result *r, const char *code,
                            const char *file, uint64_t line,
                            const char *message)
{
	struct warning *w;

	r->warnings =
	    xrealloc(r->warnings, (r->nwarnings + 1) * sizeof(*r->warnings));
	w = &r->warnings[r->nwarnings++];
	w->code = xstrdup(code);
	w->file = file ? xstrdup(file) : NULL;
	w->line = line;
	w->message = xstrdup(message);
	w->reason = NULL;
	memset(w->args, 0, sizeof(w->args));
	return w;
}

/* Describes the input file in the result and turns skipped rows into
 * warnings. */
void result_add_kernels_input(struct result *r, const struct kernels_info *in,
                              uint64_t kernels)
{
	struct input_desc *d;
	struct strbuf sb = STRBUF_INIT;
	size_t i, k;

	r->inputs = xrealloc(r->inputs, (r->ninputs + 1) * sizeof(*r->inputs));
	d = &r->inputs[r->ninputs++];
	memset(d, 0, sizeof(*d));
	d->role = xstrdup(in->era && !strcmp(in->era, "db") ? "db"
	                                                    : "kernel_details");
	d->file = *in;
	d->file.path = xstrdup(in->path);
	d->file.variant = xstrdup(in->variant ? in->variant : "unknown");
	d->file.warn = NULL;
	d->file.nwarn = 0;
	d->kernels = kernels;
	if (in->skipped) {
		strbuf_addf(&sb,
		            "%llu malformed row%s skipped (listed below%s); "
		            "use --strict to make this an error",
		            (unsigned long long)in->skipped,
		            in->skipped == 1 ? "" : "s",
		            in->skipped > in->nwarn ? ", the first ones" : "");
		result_warn(r, "skipped_rows", in->path, 0, sb.buf)->args[0] =
		    xstrfmt("%llu", (unsigned long long)in->skipped);
	}
	for (i = 0; i < in->nwarn; i++) {
		const struct row_warning *rw = &in->warn[i];
		struct warning *w = result_warn(r, "skipped_row", in->path,
		                                rw->line, rw->reason);
		w->reason = xstrdup(rw->code);
		for (k = 0; k < 3; k++)
			w->args[k] = rw->args[k] ? xstrdup(rw->args[k]) : NULL;
	}
	strbuf_release(&sb);
}

/* The reader's codes for an unusable kernel event (input/traceprof.h). */
static const char *bad_event_text(const char *code)
{
	static const char *const t[][2] = {
	    {"ts", "no start time ('ts')"},
	    {"dur", "no duration ('dur')"},
	    {"name", "a name that is not UTF-8 text"},
	    {"span", "an Overlap Analysis span without 'ts' or 'dur'"}};
	size_t i;

	for (i = 0; code && i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(code, t[i][0]))
			return t[i][1];
	return "unusable";
}

void result_add_trace_input(struct result *r, const struct trace_input *in)
{
	struct input_desc *d;
	struct warning *w;
	char *msg;

	r->inputs = xrealloc(r->inputs, (r->ninputs + 1) * sizeof(*r->inputs));
	d = &r->inputs[r->ninputs++];
	memset(d, 0, sizeof(*d));
	d->role = xstrdup("trace_view");
	d->file.path = xstrdup(in->path);
	d->file.size = in->size;
	d->file.variant =
	    xstrfmt("trace_view.json: kernels from the Ascend Hardware "
	            "and HCCL events (%llu sub-tasks left out)",
	            (unsigned long long)in->subtasks);
	d->file.level = -1;
	d->file.device_id = -1;
	d->file.rows = in->events;
	d->file.skipped = in->bad;
	d->file.na_type = in->kernels;
	d->kernels = in->kernels;
	d->subtasks = in->subtasks;
	if (!in->bad)
		return;
	msg = xstrfmt("%llu kernel event%s skipped, the first at byte %llu: %s",
	              (unsigned long long)in->bad, in->bad == 1 ? "" : "s",
	              (unsigned long long)in->first_bad_at,
	              bad_event_text(in->first_bad_why));
	w = result_warn(r, "trace_bad_events", in->path, 0, msg);
	w->reason = xstrdup(in->first_bad_why ? in->first_bad_why : "ts");
	w->args[0] = xstrfmt("%llu", (unsigned long long)in->bad);
	w->args[1] = xstrfmt("%llu", (unsigned long long)in->first_bad_at);
	free(msg);
}

void result_add_unknown_tasks(struct result *r, const char *path,
                              const struct task_unknowns *u, const char *source)
{
	const char *where = !strcmp(source, "db") ? "the db's TASK.taskType"
	                                          : "the trace's \"Task Type\"";
	struct strbuf q = STRBUF_INIT;
	struct warning *w;
	char *msg;
	size_t i;

	for (i = 0; i < u->n; i++) {
		const struct task_unknown *x = &u->v[i];
		strbuf_reset(&q);
		strbuf_add_quoted_value(&q, x->name, strlen(x->name), 60);
		msg = xstrfmt(
		    "%llu device task%s of task type %s (read from %s), "
		    "%.3f ms, are counted in no figure: the type is "
		    "not in sdperf's task-type table "
		    "(docs/task-types.md)",
		    x->count, x->count == 1 ? "" : "s", q.buf, where,
		    (double)x->dur_ns / 1e6);
		w = result_warn(r, "unknown_task_type", path, 0, msg);
		w->reason = xstrdup(source);
		w->args[0] = xstrdup(q.buf);
		w->args[1] = xstrfmt("%llu", x->count);
		w->args[2] = xstrfmt("%.3f", (double)x->dur_ns / 1e6);
		free(msg);
	}
	if (u->more_count) {
		msg =
		    xstrfmt("%llu more device tasks of other task types not in "
		            "sdperf's task-type table (read from %s), %.3f "
		            "ms, are counted in no figure",
		            u->more_count, where, (double)u->more_ns / 1e6);
		w = result_warn(r, "unknown_task_types_more", path, 0, msg);
		w->reason = xstrdup(source);
		w->args[0] = xstrfmt("%llu", u->more_count);
		w->args[1] = xstrfmt("%.3f", (double)u->more_ns / 1e6);
		free(msg);
	}
	strbuf_release(&q);
}
