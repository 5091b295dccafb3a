/* The collection check (see collection.h): evidence from the readers, the
 * decision per rank and for the run, and the gap table. */
#include "analysis/collection.h"

#include <string.h>
#include <strings.h>

#include "util/banned.h"

const char *const coll_level_names[4] = {"Level_none", "Level0", "Level1",
                                         "Level2"};

/* ---- the gap table ------------------------------------------------------ */

#define SCHEDULE                                                               \
	"schedule=torch_npu.profiler.schedule(wait=0, warmup=2, active=5, "    \
	"repeat=1),\n"

const struct coll_gap_def coll_gap_defs[GAP_COUNT] = {
    {"level0", "Profiler level below Level1",
     "Level0 records no HCCL task details: no communication.json (nor the "
     "db's task details), so no collective wait, transit or bandwidth "
     "tables; kernel Type is N/A, so types are derived from kernel names.",
     "experimental_config=torch_npu.profiler._ExperimentalConfig(\n"
     "    profiler_level=torch_npu.profiler.ProfilerLevel.Level1),"},
    {"npu_only", "NPU activity only: no CPU events",
     "No host events: no record_function stage markers (stages come from "
     "kernel signatures alone), no ProfilerStep ranges and no host view "
     "(operator launches, Python calls).",
     "activities=[torch_npu.profiler.ProfilerActivity.CPU,\n"
     "            torch_npu.profiler.ProfilerActivity.NPU],"},
    {"no_steps", "No step boundaries",
     "No profiler steps: no per-step figures, no steps table, no warm-up "
     "detection and no device-idle (host_bound) verdict; every figure "
     "covers the whole profile.",
     SCHEDULE "# with CPU activity, and in the loop, after each pipeline "
              "call:\nprof.step()"},
    {"few_steps", "Fewer than 5 timed steps",
     "Per-step figures rest on fewer timed steps than the MindIE-SD guide's "
     "5, so step-to-step noise and outlier steps cannot be judged.",
     SCHEDULE "# run 7 pipeline calls, prof.step() after each"},
    {"no_warmup", "Fewer than 2 warm-up steps",
     "Fewer than 2 steps ran before the timed ones, or a timed step was a "
     "warm-up: compilation and first-call costs land in the profile (sdperf "
     "leaves a warm-up step it recognises out of the device-idle share).",
     SCHEDULE "# 2 warm-up calls before the 5 timed ones"},
    {"no_shapes", "No input shapes",
     "No Input Shapes: a kernel type's time cannot be tied to the shapes "
     "that caused it (sequence length, matrix sizes); shapes need CPU "
     "activity.",
     "record_shapes=True,"},
    {"no_memory", "No memory data",
     "No memory data (memory_record.csv, operator_memory.csv, NPU MEM "
     "counters): no memory peak and no memory per operator.",
     "profile_memory=True,"},
    {"no_aic_metrics", "No AI Core metrics",
     "No AI Core metrics (PMU columns): no pipeline utilisation per kernel, "
     "so a kernel cannot be told compute-bound from memory-bound.",
     "experimental_config=torch_npu.profiler._ExperimentalConfig(\n"
     "    profiler_level=torch_npu.profiler.ProfilerLevel.Level1,\n"
     "    aic_metrics=torch_npu.profiler.AiCMetrics.PipeUtilization),"},
    {"trace_only", "The trace alone (prof.export_chrome_trace)",
     "Read from trace_view.json alone: no kernel_details.csv columns (Input "
     "Shapes, PMU metrics), no communication.json, no step_trace_time.csv "
     "and, when the trace is the only file, no profiler_info (settings, "
     "torch_npu and CANN versions).",
     "on_trace_ready=torch_npu.profiler.tensorboard_trace_handler(\"./"
     "prof\"),\n"
     "# instead of prof.export_chrome_trace(...)"},
};

/* The collection the analysis asks for, around the export type. */
#define SNIPPET_HEAD                                                           \
	"import torch_npu\n"                                                   \
	"\n"                                                                   \
	"experimental_config = torch_npu.profiler._ExperimentalConfig(\n"      \
	"    profiler_level=torch_npu.profiler.ProfilerLevel.Level1,\n"        \
	"    aic_metrics=torch_npu.profiler.AiCMetrics.PipeUtilization,\n"
#define SNIPPET_TAIL                                                           \
	"with torch_npu.profiler.profile(\n"                                   \
	"        activities=[torch_npu.profiler.ProfilerActivity.CPU,\n"       \
	"                    torch_npu.profiler.ProfilerActivity.NPU],\n"      \
	"        schedule=torch_npu.profiler.schedule(wait=0, warmup=2, "      \
	"active=5, repeat=1),\n"                                               \
	"        on_trace_ready=torch_npu.profiler.tensorboard_trace_handler(" \
	"\"./prof\"),\n"                                                       \
	"        record_shapes=True, profile_memory=True,\n"                   \
	"        experimental_config=experimental_config) as prof:\n"          \
	"    for _ in range(7):  # 2 warm-up + 5 timed steps\n"                \
	"        pipe(prompt)    # one pipeline call per step\n"               \
	"        prof.step()\n"

static const char snippet_text[] = SNIPPET_HEAD
    "    export_type=[torch_npu.profiler.ExportType.Text])\n" SNIPPET_TAIL;
static const char snippet_db[] = SNIPPET_HEAD
    "    export_type=[torch_npu.profiler.ExportType.Db])\n" SNIPPET_TAIL;

const char *collection_snippet(const struct collection *c)
{
	return c->export_type && !strcmp(c->export_type, "db") ? snippet_db
	                                                       : snippet_text;
}

/* ---- levels -------------------------------------------------------------- */

const char *collection_level_name(int level)
{
	return level >= LEVEL_NONE && level <= LEVEL_2 ? coll_level_names[level]
	                                               : NULL;
}

int collection_level_of(const char *s)
{
	int l;

	if (!s)
		return LEVEL_UNKNOWN;
	for (l = LEVEL_NONE; l <= LEVEL_2; l++)
		if (!strcasecmp(s, coll_level_names[l]))
			return l;
	return LEVEL_UNKNOWN;
}

/* ---- evidence ------------------------------------------------------------ */

static int tri_of(int v)
{
	return v < 0 ? TRI_UNKNOWN : v ? TRI_YES : TRI_NO;
}

void collection_from_discovery(struct coll_evidence *ev,
                               const struct disc_rank *dr)
{
	const struct profinfo_setup *s = &dr->setup;

	memset(ev, 0, sizeof(*ev));
	ev->kd_level = ev->db_level = ev->trace_level = LEVEL_UNKNOWN;
	ev->kd_shapes = ev->kd_pmu = TRI_UNKNOWN;
	ev->db_cpu = ev->db_shapes = ev->db_memory = ev->db_pmu = TRI_UNKNOWN;
	ev->trace_cpu = ev->trace_shapes = ev->trace_memory = TRI_UNKNOWN;
	ev->info_level = collection_level_of(dr->profiler_level);
	ev->info_aic =
	    dr->aic_metrics
	        ? tri_of(!!strcasecmp(dr->aic_metrics, "ACL_AICORE_NONE"))
	        : TRI_UNKNOWN;
	ev->info_cpu = tri_of(s->cpu);
	ev->info_shapes = tri_of(s->record_shapes);
	ev->info_memory = tri_of(s->profile_memory);
	ev->info_warmup = -1;
	if (s->schedule == 1)
		ev->info_warmup = (s->skip_first > 0 ? s->skip_first : 0) +
		                  (s->wait > 0 ? s->wait : 0) +
		                  (s->warmup > 0 ? s->warmup : 0);
	ev->mem_files = dr->mem_files;
}

void collection_from_kernels(struct coll_evidence *ev,
                             const struct kernels_info *in)
{
	ev->kd_level = in->level ? LEVEL_1 : LEVEL_0;
	ev->kd_shapes = tri_of(in->shapes);
	ev->kd_pmu = tri_of(in->pmu);
}

void collection_from_db(struct coll_evidence *ev, const struct kernels_info *in,
                        const struct db_facts *f)
{
	ev->db_level = in->level ? LEVEL_1 : LEVEL_0;
	ev->db_cpu = tri_of(f->host);
	ev->db_shapes = tri_of(f->shapes);
	ev->db_memory = tri_of(f->memory);
	ev->db_pmu = tri_of(f->pmu);
}

void collection_from_trace(struct coll_evidence *ev, const struct traceprof *tp)
{
	size_t i;

	ev->trace = 1;
	ev->trace_steps = 0;
	for (i = 0; i < tp->nranges; i++)
		ev->trace_steps += tp->ranges[i].step != STEP_NONE;
	ev->trace_cpu = tri_of(tp->host_ops > 0 || ev->trace_steps > 0);
	ev->trace_shapes = tri_of(tp->host_shapes);
	ev->trace_memory = tri_of(tp->mem_counters > 0);
	ev->trace_level =
	    tp->cann_events || tp->hccl_subtasks ? LEVEL_1 : LEVEL_0;
}

void collection_from_scan(struct coll_evidence *ev,
                          const struct trace_summary *ts)
{
	/* the prefilter sees names only: it can say yes, never no */
	ev->trace = 2;
	ev->trace_steps = ts->step_ranges;
	if (ts->host_process || ts->step_ranges)
		ev->trace_cpu = TRI_YES;
	if (ts->mem_process && ts->app_counters)
		ev->trace_memory = TRI_YES;
	if (ts->shapes)
		ev->trace_shapes = TRI_YES;
}

/* ---- one rank ------------------------------------------------------------ */

/* The first of n (value, source) pairs whose value is known. */
static int first_known(const int *v, const char *const *src, size_t n,
                       const char **source)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] >= 0) {
			*source = src[i];
			return v[i];
		}
	*source = NULL;
	return -1;
}

static const char *kernels_source(const struct rank_result *rr)
{
	return rr->db.used ? "db"
	       : rr->kernel_source && !strcmp(rr->kernel_source, "trace_view")
	           ? "trace_view"
	           : "kernel_details";
}

static void decide_level_cpu(const struct rank_result *rr,
                             struct rank_collection *c)
{
	const struct coll_evidence *ev = &rr->ev;
	const int lv[] = {ev->info_level, ev->kd_level, ev->db_level,
	                  ev->trace_level};
	const char *const ls[] = {"profiler_info", "kernel_details", "db",
	                          "trace_view"};
	const int cv[] = {ev->trace_cpu, ev->db_cpu, ev->info_cpu};
	const char *const cs[] = {"trace_view", "db", "profiler_info"};

	c->level = first_known(lv, ls, 4, &c->level_source);
	c->cpu = first_known(cv, cs, 3, &c->cpu_source);
}

/* Steps: the step table's numbered rows, else the kernels' Step Ids,
 * else the trace's ProfilerStep ranges. */
static void decide_steps(const struct rank_result *rr,
                         struct rank_collection *c)
{
	const char *ss = rr->steps_source;
	size_t i;

	for (i = 0; i < rr->nsteps; i++) {
		if (rr->steps[i].step == STEP_NONE)
			continue;
		c->steps++;
		c->warmup_in += rr->steps[i].outlier == 1;
	}
	if (c->steps)
		c->steps_source = !ss ? NULL
		                  : !strcmp(ss, "overlap_analysis")
		                      ? "trace_view"
		                      : ss;
	else if ((c->steps = rr->ev.step_ids))
		c->steps_source = kernels_source(rr);
	else if ((c->steps = rr->ev.trace_steps))
		c->steps_source = "trace_view";
	c->timed = c->steps - c->warmup_in;
	c->warmup_before = rr->ev.info_warmup;
}

/* Present in any of the n data sources, else absent where one would
 * show it, else what profiler_info says (info). */
static int present_absent(const int *yes, const int *no, const char *const *src,
                          size_t n, int info, const char **source)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (yes[i] == TRI_YES) {
			*source = src[i];
			return TRI_YES;
		}
	for (i = 0; i < n; i++)
		if (no[i] == TRI_NO) {
			*source = src[i];
			return TRI_NO;
		}
	*source = info != TRI_UNKNOWN ? "profiler_info" : NULL;
	return info;
}

static void decide_shapes_memory(const struct rank_result *rr,
                                 struct rank_collection *c)
{
	const struct coll_evidence *ev = &rr->ev;
	const char *const ss[] = {"kernel_details", "trace_view", "db"};
	const char *const ms[] = {"files", "trace_view", "db"};
	/* a Level1 header always has the column; a trace read alone shows
	 * Input Dims on its operators */
	const int sy[] = {ev->kd_shapes, ev->trace_shapes, ev->db_shapes};
	const int sn[] = {ev->kd_level == LEVEL_1 ? ev->kd_shapes : -1,
	                  ev->trace == 1 ? ev->trace_shapes : -1,
	                  ev->db_shapes};
	/* a text export writes the memory files beside kernel_details.csv */
	int files = ev->mem_files ? TRI_YES : TRI_NO;
	const int my[] = {files, ev->trace_memory, ev->db_memory};
	const int mn[] = {ev->kd_level >= 0 ? files : -1,
	                  ev->trace == 1 ? ev->trace_memory : -1,
	                  ev->db_memory};

	c->shapes =
	    present_absent(sy, sn, ss, 3, ev->info_shapes, &c->shapes_source);
	c->memory =
	    present_absent(my, mn, ms, 3, ev->info_memory, &c->memory_source);
	c->mem_files = ev->mem_files;
}

static void decide_aic(const struct rank_result *rr, struct rank_collection *c)
{
	const int v[] = {rr->ev.kd_pmu, rr->ev.db_pmu, rr->ev.info_aic};
	const char *const s[] = {"kernel_details", "db", "profiler_info"};

	c->aic = first_known(v, s, 3, &c->aic_source);
}

static unsigned rank_gaps(const struct rank_collection *c)
{
	unsigned g = 0;

	if (c->level == LEVEL_NONE || c->level == LEVEL_0)
		g |= 1u << GAP_LEVEL0;
	if (c->cpu == TRI_NO)
		g |= 1u << GAP_NPU_ONLY;
	if (!c->steps)
		g |= 1u << GAP_NO_STEPS;
	if (c->steps && c->timed < COLL_MIN_TIMED)
		g |= 1u << GAP_FEW_STEPS;
	if (c->steps && (c->warmup_in || (c->warmup_before >= 0 &&
	                                  c->warmup_before < COLL_MIN_WARMUP)))
		g |= 1u << GAP_NO_WARMUP;
	if (c->shapes == TRI_NO)
		g |= 1u << GAP_NO_SHAPES;
	if (c->memory == TRI_NO)
		g |= 1u << GAP_NO_MEMORY;
	if (c->aic == TRI_NO)
		g |= 1u << GAP_NO_AIC;
	if (!strcmp(c->export_type, "trace"))
		g |= 1u << GAP_TRACE_ONLY;
	return g;
}

static void decide_rank(struct rank_result *rr)
{
	struct rank_collection *c = &rr->coll;

	memset(c, 0, sizeof(*c));
	c->export_type = rr->db.used                                 ? "db"
	                 : !strcmp(kernels_source(rr), "trace_view") ? "trace"
	                                                             : "text";
	decide_level_cpu(rr, c);
	decide_steps(rr, c);
	decide_shapes_memory(rr, c);
	decide_aic(rr, c);
	c->gaps = rank_gaps(c);
}

/* ---- the run ------------------------------------------------------------- */

/* A tri-state fact over ranks: no when one has no, else unknown when one
 * cannot tell, else yes. */
static int worst_tri(int sum, int v, int first)
{
	if (first || v == TRI_NO || sum == TRI_NO)
		return first ? v : TRI_NO;
	return v == TRI_UNKNOWN ? TRI_UNKNOWN : sum;
}

static void sum_rank(struct rank_collection *s, const struct rank_collection *c,
                     int first)
{
	if (first || (c->level != LEVEL_UNKNOWN &&
	              (s->level == LEVEL_UNKNOWN || c->level < s->level)))
		s->level = c->level;
	s->cpu = worst_tri(s->cpu, c->cpu, first);
	s->shapes = worst_tri(s->shapes, c->shapes, first);
	s->memory = worst_tri(s->memory, c->memory, first);
	s->aic = worst_tri(s->aic, c->aic, first);
	if (first || c->steps < s->steps)
		s->steps = c->steps;
	if (first || c->timed < s->timed)
		s->timed = c->timed;
	if (first || c->warmup_in > s->warmup_in)
		s->warmup_in = c->warmup_in;
	if (first ||
	    (c->warmup_before >= 0 &&
	     (s->warmup_before < 0 || c->warmup_before < s->warmup_before)))
		s->warmup_before = c->warmup_before;
	s->mem_files = first ? c->mem_files : s->mem_files & c->mem_files;
	s->gaps |= c->gaps;
}

static void versions(struct collection *col, const struct result *r)
{
	size_t i, k;

	for (k = 0; k < r->nranks; k++) {
		const struct rank_result *rr =
		    &r->ranks[(r->lead + k) % r->nranks];
		if (!col->torch_npu_version && rr->torch_npu_version)
			col->torch_npu_version = rr->torch_npu_version;
		if (!col->cann_version && rr->cann_version)
			col->cann_version = rr->cann_version;
	}
	for (i = 0; i < r->nranks; i++) {
		const struct rank_result *rr = &r->ranks[i];
		if ((rr->torch_npu_version && col->torch_npu_version &&
		     strcmp(rr->torch_npu_version, col->torch_npu_version)) ||
		    (rr->cann_version && col->cann_version &&
		     strcmp(rr->cann_version, col->cann_version)))
			col->versions_differ = 1;
	}
}

void collection_check(struct result *r)
{
	struct collection *col = &r->collection;
	size_t i;
	int first = 1;

	memset(col, 0, sizeof(*col));
	col->sum.level = LEVEL_UNKNOWN;
	col->sum.cpu = col->sum.shapes = col->sum.memory = col->sum.aic =
	    TRI_UNKNOWN;
	col->sum.warmup_before = -1;
	for (i = 0; i < r->nranks; i++) {
		struct rank_result *rr = &r->ranks[i];
		decide_rank(rr);
		if (!rr->analysed)
			continue;
		sum_rank(&col->sum, &rr->coll, first);
		if (!col->export_type)
			col->export_type = rr->coll.export_type;
		else if (strcmp(col->export_type, rr->coll.export_type))
			col->export_type = "mixed";
		first = 0;
	}
	col->sum.export_type = col->export_type;
	versions(col, r);
	col->checked = 1;
}
