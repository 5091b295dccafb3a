/* The collection check on the real samples (tests/data/samples, see
 * PROVENANCE.md there) and on runs written by sdperf-gen: every fact, its
 * source and the gaps, each read through the whole pipeline (discovery,
 * the readers, the rank analysis) as `sdperf report` reads them. What each
 * sample holds was read with sqlite3, python3 and zcat:
 *   AlexNet 2024 text (ProfilerStep#50 only): profiler_info Level0 /
 *     Level1, activities CPU+NPU, schedule skip_first 40, warmup 10,
 *     active 1, record_shapes and profile_memory true; memory_record.csv
 *     and operator_memory.csv beside the data; Level0 kernel_details.csv
 *     has no Input Shapes and no PMU columns, Level1 has both; the traces
 *     have a "Python" process, cpu_op events with Input Dims, NPU MEM
 *     counters (APP/DDR, APP/HBM, APP/Memory) and, at Level1 only, CANN
 *     events and HCCL sub-tasks;
 *   AlexNet 2025 db: one STEP_TIME row (50), PYTORCH_API rows with
 *     inputShapes, MEMORY_RECORD / OP_MEMORY / NPU_MEM rows, opType N/A
 *     on every Level0 kernel, TASK_PMU_INFO at Level1 only;
 *   GPT-3 2023: Level1, ACL_AICORE_L0B_AND_WIDTH, schedule _skip_first 1,
 *     _wait 1, _warmup 0; rank 0 has three memory files, rank 1 two;
 *   mstt timeline trace: Python and CANN processes, cpu_op events without
 *     Input Dims, no NPU MEM process. */
#include "unit.h"

#include <fcntl.h>
#include <sys/wait.h>

#include "analysis/collection.h"
#include "analysis/rules.h"
#include "app/pipeline.h"
#include "view/i18n.h"
#include "format/report.h"
#include "util/strbuf.h"

#define ALEXNET  "msinsight-alexnet-2rank-2024/"
#define ALEXDB   "msinsight-alexnet-2rank-2025-db/"
#define OUT      "/ASCEND_PROFILER_OUTPUT/"
#define MEMFILES (1u << DM_MEMORY_RECORD | 1u << DM_OPERATOR_MEMORY)
#define G(x)     (1u << GAP_##x)

struct run {
	struct rules ru;
	struct result r;
	struct err e;
};

/* Analyses the PATHs (each under tests/data/samples unless absolute). */
static void analyse(struct run *x, const char *const *paths, size_t n)
{
	struct options o;
	char full[4][1024];
	const char *p[4];
	size_t i;

	assert_true(n <= 4);
	memset(x, 0, sizeof(*x));
	x->e = (struct err)ERR_INIT;
	for (i = 0; i < n; i++) {
		if (paths[i][0] == '/')
			snprintf(full[i], sizeof(full[i]), "%s", paths[i]);
		else
			unit_join(full[i], sizeof(full[i]), unit_samples_dir(),
			          paths[i]);
		p[i] = full[i];
	}
	memset(&o, 0, sizeof(o));
	o.paths = p;
	o.npaths = n;
	o.path = p[0];
	o.jobs = 1;
	o.quiet = 1;
	assert_int_equal(rules_load_builtin(&x->ru, &x->e), 0);
	if (pipeline_analyse(&o, &x->ru, &x->r, &x->e))
		fail_msg("%s: %s", p[0], x->e.msg);
	assert_true(x->r.collection.checked);
}

static void analyse1(struct run *x, const char *path)
{
	analyse(x, &path, 1);
}

static void done(struct run *x)
{
	result_release(&x->r);
	rules_release(&x->ru);
}

static void src(const char *got, const char *want)
{
	if (!want)
		assert_null(got);
	else if (!got || strcmp(got, want))
		fail_msg("source '%s', want '%s'", got ? got : "(null)", want);
}

/* One rank's decided facts. */
struct want {
	const char *export_type;
	int level;
	const char *level_source;
	int cpu;
	const char *cpu_source;
	uint64_t steps, timed;
	int64_t warmup_before;
	const char *steps_source;
	int shapes;
	const char *shapes_source;
	int memory;
	const char *memory_source;
	unsigned mem_files;
	int aic;
	const char *aic_source;
	unsigned gaps;
};

static void expect(const struct rank_collection *c, const struct want *w)
{
	assert_string_equal(c->export_type, w->export_type);
	assert_int_equal(c->level, w->level);
	src(c->level_source, w->level_source);
	assert_int_equal(c->cpu, w->cpu);
	src(c->cpu_source, w->cpu_source);
	assert_int_equal(c->steps, w->steps);
	assert_int_equal(c->timed, w->timed);
	assert_int_equal(c->warmup_before, w->warmup_before);
	src(c->steps_source, w->steps_source);
	assert_int_equal(c->shapes, w->shapes);
	src(c->shapes_source, w->shapes_source);
	assert_int_equal(c->memory, w->memory);
	src(c->memory_source, w->memory_source);
	assert_int_equal(c->mem_files, w->mem_files);
	assert_int_equal(c->aic, w->aic);
	src(c->aic_source, w->aic_source);
	if (c->gaps != w->gaps)
		fail_msg("gaps 0x%x, want 0x%x", c->gaps, w->gaps);
}

/* The run's summary of one-rank-alike runs: the rank's facts, no
 * sources. */
static void expect_sum(const struct collection *col, const struct want *w)
{
	const struct rank_collection *s = &col->sum;

	assert_string_equal(col->export_type, w->export_type);
	assert_int_equal(s->level, w->level);
	assert_int_equal(s->cpu, w->cpu);
	assert_int_equal(s->timed, w->timed);
	assert_int_equal(s->shapes, w->shapes);
	assert_int_equal(s->memory, w->memory);
	assert_int_equal(s->aic, w->aic);
	assert_int_equal(s->gaps, w->gaps);
}

/* ---- the text export --------------------------------------------------- */

static void alexnet_level0_text(void **state)
{
	const struct want w = {
	    .export_type = "text",
	    .level = LEVEL_0,
	    .level_source = "profiler_info",
	    .cpu = TRI_YES,
	    .cpu_source = "trace_view",
	    .steps = 1,
	    .timed = 1,
	    .warmup_before = 50,
	    .steps_source = "step_trace_time",
	    .shapes = TRI_YES,
	    .shapes_source = "trace_view",
	    .memory = TRI_YES,
	    .memory_source = "files",
	    .mem_files = MEMFILES,
	    .aic = TRI_NO,
	    .aic_source = "kernel_details",
	    .gaps = G(LEVEL0) | G(FEW_STEPS) | G(NO_AIC),
	};
	struct run x;
	size_t i;

	(void)state;
	analyse1(&x, ALEXNET "level0");
	assert_int_equal(x.r.nranks, 2);
	for (i = 0; i < 2; i++) {
		const struct coll_evidence *ev = &x.r.ranks[i].ev;
		expect(&x.r.ranks[i].coll, &w);
		/* what each reader said */
		assert_int_equal(ev->info_level, LEVEL_0);
		assert_int_equal(ev->info_cpu, TRI_YES);
		assert_int_equal(ev->info_shapes, TRI_YES);
		assert_int_equal(ev->info_memory, TRI_YES);
		assert_int_equal(ev->info_aic, TRI_NO);
		assert_int_equal(ev->kd_level, LEVEL_0);
		assert_int_equal(ev->kd_shapes, TRI_NO);
		assert_int_equal(ev->kd_pmu, TRI_NO);
		assert_int_equal(ev->trace, 2);
		assert_int_equal(ev->trace_steps, 1); /* ProfilerStep#50 */
		assert_int_equal(ev->trace_memory, TRI_YES);
		assert_int_equal(ev->step_ids, 1);
		assert_int_equal(ev->db_level, LEVEL_UNKNOWN);
	}
	expect_sum(&x.r.collection, &w);
	assert_null(x.r.collection.torch_npu_version);
	assert_null(x.r.collection.cann_version);
	done(&x);
}

static void alexnet_level1_text(void **state)
{
	const struct want w = {
	    .export_type = "text",
	    .level = LEVEL_1,
	    .level_source = "profiler_info",
	    .cpu = TRI_YES,
	    .cpu_source = "trace_view",
	    .steps = 1,
	    .timed = 1,
	    .warmup_before = 50,
	    .steps_source = "step_trace_time",
	    .shapes = TRI_YES,
	    .shapes_source = "kernel_details",
	    .memory = TRI_YES,
	    .memory_source = "files",
	    .mem_files = MEMFILES,
	    .aic = TRI_YES,
	    .aic_source = "kernel_details",
	    .gaps = G(FEW_STEPS),
	};
	struct run x;

	(void)state;
	analyse1(&x, ALEXNET "level1");
	assert_int_equal(x.r.nranks, 2);
	expect(&x.r.ranks[0].coll, &w);
	expect(&x.r.ranks[1].coll, &w);
	expect_sum(&x.r.collection, &w);
	assert_int_equal(x.r.ranks[0].ev.kd_level, LEVEL_1);
	assert_int_equal(x.r.ranks[0].ev.kd_shapes, TRI_YES);
	assert_int_equal(x.r.ranks[0].ev.kd_pmu, TRI_YES);
	done(&x);
}

/* kernel_details.csv given alone: no profiler_info, the data decides. */
static void without_profiler_info_the_data_decides(void **state)
{
	const struct want w0 = {
	    .export_type = "text",
	    .level = LEVEL_0,
	    .level_source = "kernel_details",
	    .cpu = TRI_YES,
	    .cpu_source = "trace_view",
	    .steps = 1,
	    .timed = 1,
	    .warmup_before = -1,
	    .steps_source = "step_trace_time",
	    .shapes = TRI_YES,
	    .shapes_source = "trace_view",
	    .memory = TRI_YES,
	    .memory_source = "files",
	    .mem_files = MEMFILES,
	    .aic = TRI_NO,
	    .aic_source = "kernel_details",
	    .gaps = G(LEVEL0) | G(FEW_STEPS) | G(NO_AIC),
	};
	struct run x;

	(void)state;
	analyse1(&x, ALEXNET "level0/rank0_ascend_pt" OUT "kernel_details.csv");
	expect(&x.r.ranks[0].coll, &w0);
	assert_int_equal(x.r.ranks[0].ev.info_level, LEVEL_UNKNOWN);
	assert_int_equal(x.r.ranks[0].ev.info_cpu, TRI_UNKNOWN);
	done(&x);
}

static void gpt3_2023(void **state)
{
	const struct want w = {
	    .export_type = "text",
	    .level = LEVEL_1,
	    .level_source = "profiler_info",
	    .cpu = TRI_YES,
	    .cpu_source = "profiler_info",
	    .steps = 1,
	    .timed = 1,
	    .warmup_before = 2,
	    .steps_source = "step_trace_time",
	    .shapes = TRI_YES,
	    .shapes_source = "kernel_details",
	    .memory = TRI_YES,
	    .memory_source = "files",
	    .mem_files = 0,
	    .aic = TRI_YES,
	    .aic_source = "kernel_details",
	    .gaps = G(FEW_STEPS),
	};
	struct run x;
	struct want w1 = w;

	(void)state;
	analyse1(&x, "msinsight-gpt3-testdata-2023");
	assert_int_equal(x.r.nranks, 2);
	w1.mem_files = MEMFILES | 1u << DM_NPU_MODULE_MEM;
	expect(&x.r.ranks[0].coll, &w1);
	w1.mem_files = MEMFILES;
	expect(&x.r.ranks[1].coll, &w1);
	expect_sum(&x.r.collection, &w);
	/* the memory files every rank has */
	assert_int_equal(x.r.collection.sum.mem_files, MEMFILES);
	done(&x);
}

static void paddleocr_2026(void **state)
{
	/* its profiler_info.json sits beside kernel_details.csv (not in a
	 * rank folder above it), so only the data files speak */
	const struct want w = {
	    .export_type = "text",
	    .level = LEVEL_1,
	    .level_source = "kernel_details",
	    .cpu = TRI_UNKNOWN,
	    .cpu_source = NULL,
	    .steps = 1,
	    .timed = 1,
	    .warmup_before = -1,
	    .steps_source = "step_trace_time",
	    .shapes = TRI_YES,
	    .shapes_source = "kernel_details",
	    .memory = TRI_NO,
	    .memory_source = "files",
	    .mem_files = 0,
	    .aic = TRI_YES,
	    .aic_source = "kernel_details",
	    .gaps = G(FEW_STEPS) | G(NO_MEMORY),
	};
	struct run x;

	(void)state;
	analyse1(&x, "paddleocrvl-910b-decode-2026");
	expect(&x.r.ranks[0].coll, &w);
	expect_sum(&x.r.collection, &w);
	done(&x);
}

/* ---- the db export ------------------------------------------------------- */

static void alexnet_db(void **state)
{
	struct want w0 = {
	    .export_type = "db",
	    .level = LEVEL_0,
	    .level_source = "profiler_info",
	    .cpu = TRI_YES,
	    .cpu_source = "db",
	    .steps = 1,
	    .timed = 1,
	    .warmup_before = 50,
	    .steps_source = "db",
	    .shapes = TRI_YES,
	    .shapes_source = "db",
	    .memory = TRI_YES,
	    .memory_source = "db",
	    .mem_files = 0,
	    .aic = TRI_NO,
	    .aic_source = "db",
	    .gaps = G(LEVEL0) | G(FEW_STEPS) | G(NO_AIC),
	};
	struct want w1 = w0;
	struct run x;

	(void)state;
	analyse1(&x, ALEXDB "level0");
	assert_int_equal(x.r.nranks, 2);
	expect(&x.r.ranks[0].coll, &w0);
	expect(&x.r.ranks[1].coll, &w0);
	expect_sum(&x.r.collection, &w0);
	assert_int_equal(x.r.ranks[0].ev.db_level, LEVEL_0);
	assert_int_equal(x.r.ranks[0].ev.db_pmu, TRI_NO);
	done(&x);

	w1.level = LEVEL_1;
	w1.aic = TRI_YES;
	w1.gaps = G(FEW_STEPS);
	analyse1(&x, ALEXDB "level1");
	expect(&x.r.ranks[0].coll, &w1);
	expect(&x.r.ranks[1].coll, &w1);
	assert_int_equal(x.r.ranks[0].ev.db_level, LEVEL_1);
	assert_int_equal(x.r.ranks[0].ev.db_pmu, TRI_YES);
	done(&x);

	/* the db given alone: its level from its kernels' opType */
	w0.level_source = "db";
	w0.warmup_before = -1;
	analyse1(&x, ALEXDB "level0/rank0_ascend_pt" OUT
	                    "ascend_pytorch_profiler_0.db");
	expect(&x.r.ranks[0].coll, &w0);
	done(&x);
}

/* ---- the trace alone ----------------------------------------------------- */

static void alexnet_level1_trace_alone(void **state)
{
	const struct want w = {
	    .export_type = "trace",
	    .level = LEVEL_1,
	    .level_source = "trace_view",
	    .cpu = TRI_YES,
	    .cpu_source = "trace_view",
	    .steps = 1,
	    .timed = 1,
	    .warmup_before = -1,
	    .steps_source = "trace_view",
	    .shapes = TRI_YES,
	    .shapes_source = "trace_view",
	    .memory = TRI_YES,
	    .memory_source = "trace_view",
	    .mem_files = 0,
	    .aic = TRI_UNKNOWN,
	    .aic_source = NULL,
	    .gaps = G(FEW_STEPS) | G(TRACE_ONLY),
	};
	struct run x;

	(void)state;
	analyse1(&x, ALEXNET "level1/rank0_ascend_pt" OUT "trace_view.json.gz");
	expect(&x.r.ranks[0].coll, &w);
	assert_int_equal(x.r.ranks[0].ev.trace, 1);
	done(&x);
}

/* Level0: no CANN events, no HCCL task details (4 hcom_ operations). */
static void alexnet_level0_trace_alone(void **state)
{
	struct run x;
	const struct rank_collection *c;

	(void)state;
	analyse1(&x, ALEXNET "level0/rank1_ascend_pt" OUT "trace_view.json.gz");
	c = &x.r.ranks[0].coll;
	assert_int_equal(c->level, LEVEL_0);
	src(c->level_source, "trace_view");
	assert_int_equal(c->cpu, TRI_YES);
	assert_int_equal(c->shapes, TRI_YES);
	assert_int_equal(c->memory, TRI_YES);
	assert_int_equal(c->gaps, G(LEVEL0) | G(FEW_STEPS) | G(TRACE_ONLY));
	done(&x);
}

static void mstt_trace_without_shapes_or_memory(void **state)
{
	const struct want w = {
	    .export_type = "trace",
	    .level = LEVEL_1,
	    .level_source = "trace_view",
	    .cpu = TRI_YES,
	    .cpu_source = "trace_view",
	    .steps = 1,
	    .timed = 1,
	    .warmup_before = -1,
	    .steps_source = "trace_view",
	    .shapes = TRI_NO,
	    .shapes_source = "trace_view",
	    .memory = TRI_NO,
	    .memory_source = "trace_view",
	    .mem_files = 0,
	    .aic = TRI_UNKNOWN,
	    .aic_source = NULL,
	    .gaps = G(FEW_STEPS) | G(NO_SHAPES) | G(NO_MEMORY) | G(TRACE_ONLY),
	};
	struct run x;

	(void)state;
	analyse1(&x, "mstt-test-resources/timeline_advice/trace_view.json.gz");
	expect(&x.r.ranks[0].coll, &w);
	done(&x);
}

/* ---- runs written by sdperf-gen ------------------------------------------ */

static void gen(const char *out, const char *const *args)
{
	const char *argv[24] = {SDPERF_GEN, "-o", out, "--no-truth"};
	size_t n = 4;
	int status;
	pid_t pid;

	while (*args && n < 23)
		argv[n++] = *args++;
	argv[n] = NULL;
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0)
			dup2(null, 2);
		execv(SDPERF_GEN, (char *const *)argv);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		fail_msg("sdperf-gen failed (status %d)", status);
}

/* What MindIE-SD's guide collects: NPU activity, export_chrome_trace. */
static void generated_npu_only_trace(void **state)
{
	static const char *const args[] = {
	    "--files", "trace", "--npu-only", "--steps", "2",
	    "--iters", "2",     "--blocks",   "2",       "--no-profiler-info",
	    NULL};
	const struct want w = {
	    .export_type = "trace",
	    .level = LEVEL_0,
	    .level_source = "trace_view",
	    .cpu = TRI_NO,
	    .cpu_source = "trace_view",
	    .steps = 0,
	    .timed = 0,
	    .warmup_before = -1,
	    .steps_source = NULL,
	    .shapes = TRI_NO,
	    .shapes_source = "trace_view",
	    .memory = TRI_NO,
	    .memory_source = "trace_view",
	    .mem_files = 0,
	    .aic = TRI_UNKNOWN,
	    .aic_source = NULL,
	    .gaps = G(LEVEL0) | G(NPU_ONLY) | G(NO_STEPS) | G(NO_SHAPES) |
	            G(NO_MEMORY) | G(TRACE_ONLY),
	};
	char dir[512];
	struct run x;

	(void)state;
	unit_tmpdir(dir, sizeof(dir));
	gen(dir, args);
	analyse1(&x, dir);
	expect(&x.r.ranks[0].coll, &w);
	expect_sum(&x.r.collection, &w);
	assert_int_equal(x.r.ranks[0].ev.trace_cpu, TRI_NO);
	assert_int_equal(x.r.ranks[0].ev.trace_steps, 0);
	done(&x);
	unit_rmtree(dir);
}

/* With its profiler_info (activities NPU alone) beside the trace. */
static void generated_npu_only_with_profiler_info(void **state)
{
	static const char *const args[] = {
	    "--files", "trace", "--npu-only", "--steps", "2",
	    "--iters", "2",     "--blocks",   "2",       NULL};
	char dir[512];
	struct run x;
	const struct rank_collection *c;

	(void)state;
	unit_tmpdir(dir, sizeof(dir));
	gen(dir, args);
	analyse1(&x, dir);
	c = &x.r.ranks[0].coll;
	assert_int_equal(x.r.ranks[0].ev.info_cpu, TRI_NO);
	assert_int_equal(c->cpu, TRI_NO);
	src(c->cpu_source, "trace_view");
	assert_int_equal(c->level, LEVEL_1);
	src(c->level_source, "profiler_info");
	assert_int_equal(c->aic, TRI_YES);
	src(c->aic_source, "profiler_info");
	assert_int_equal(c->warmup_before, 3); /* skip_first 1 + warmup 2 */
	assert_int_equal(c->gaps, G(NPU_ONLY) | G(NO_STEPS) | G(NO_SHAPES) |
	                              G(NO_MEMORY) | G(TRACE_ONLY));
	assert_non_null(x.r.collection.torch_npu_version);
	assert_string_equal(x.r.collection.torch_npu_version, "2.10.0");
	assert_string_equal(x.r.collection.cann_version, "9.0.0");
	done(&x);
	unit_rmtree(dir);
}

static void generated_db_run(void **state)
{
	static const char *const args[] = {"--export", "db",      "--steps",
	                                   "5",        "--iters", "2",
	                                   "--blocks", "2",       NULL};
	const struct want w = {
	    .export_type = "db",
	    .level = LEVEL_1,
	    .level_source = "profiler_info",
	    .cpu = TRI_YES,
	    .cpu_source = "db",
	    .steps = 5,
	    .timed = 5,
	    .warmup_before = 3,
	    .steps_source = "db",
	    .shapes = TRI_YES,
	    .shapes_source = "db",
	    .memory = TRI_NO,
	    .memory_source = "db",
	    .mem_files = 0,
	    .aic = TRI_NO,
	    .aic_source = "db",
	    .gaps = G(NO_MEMORY) | G(NO_AIC),
	};
	char dir[512];
	struct run x;

	(void)state;
	unit_tmpdir(dir, sizeof(dir));
	gen(dir, args);
	analyse1(&x, dir);
	expect(&x.r.ranks[0].coll, &w);
	expect_sum(&x.r.collection, &w);
	done(&x);
	unit_rmtree(dir);
}

/* ---- the section in the reports ------------------------------------------ */

static char *render(const struct result *r, enum report_kind kind,
                    const char *lang)
{
	struct strbuf out = STRBUF_INIT;
	struct err e = ERR_INIT;
	size_t missing = 99;
	struct report_opts o = {lang,       NULL,     NULL, NULL, 1767225600,
	                        "0.0-test", &missing, NULL, NULL, NULL};

	if (report_render(r, kind, &o, &out, &e))
		fail_msg("render failed: %s", e.msg);
	assert_int_equal(missing, 0);
	return strbuf_detach(&out, NULL);
}

static void has(const char *doc, const char *needle, int want)
{
	if (!!strstr(doc, needle) != want)
		fail_msg("%s '%s'", want ? "missing" : "unexpected", needle);
}

/* 5 timed steps after 3, Level1 with PMU, CPU, shapes, and a memory file
 * beside the data: nothing to add, one line says so. */
static void a_complete_collection_says_so(void **state)
{
	static const char *const args[] = {"--steps",  "5", "--iters", "2",
	                                   "--blocks", "2", NULL};
	char dir[512], mem[1024];
	struct run x;
	char *html, *md, *zh;
	DIR *d;
	struct dirent *de;

	(void)state;
	unit_tmpdir(dir, sizeof(dir));
	gen(dir, args);
	assert_non_null(d = opendir(dir));
	while ((de = readdir(d)))
		if (strstr(de->d_name, "_ascend_pt"))
			snprintf(
			    mem, sizeof(mem),
			    "%s/%s/ASCEND_PROFILER_OUTPUT/memory_record.csv",
			    dir, de->d_name);
	closedir(d);
	unit_write(mem, "Component,Timestamp(us)\n", 24);
	analyse1(&x, dir);
	assert_int_equal(x.r.collection.sum.gaps, 0);
	assert_int_equal(x.r.ranks[0].coll.timed, 5);
	assert_int_equal(x.r.ranks[0].coll.warmup_before, 3);
	html = render(&x.r, REPORT_HTML, "en");
	md = render(&x.r, REPORT_MARKDOWN, "en");
	zh = render(&x.r, REPORT_MARKDOWN, "zh");
	has(html, "<p class=\"all-ok\">The collection is complete", 1);
	has(html, "Collect like this", 0);
	has(md, "The collection is complete: it has everything", 1);
	has(md, "```", 0);
	has(zh, "采集完整", 1);
	free(html);
	free(md);
	free(zh);
	done(&x);
	unit_rmtree(dir);
}

/* The code is escaped for where it lands: HTML text in <pre><code>, a
 * Markdown fence; the texts in Chinese with full-width separators. */
static void the_code_is_escaped_for_each_format(void **state)
{
	struct run x;
	char *html, *md, *zh;

	(void)state;
	analyse1(&x, "mstt-test-resources/timeline_advice/trace_view.json.gz");
	html = render(&x.r, REPORT_HTML, "en");
	md = render(&x.r, REPORT_MARKDOWN, "en");
	zh = render(&x.r, REPORT_HTML, "zh");
	has(html, "<a href=\"#collection\">Collection check</a>", 1);
	has(html, "tensorboard_trace_handler(&quot;./prof&quot;)", 1);
	has(html, "tensorboard_trace_handler(\"./prof\")", 0);
	has(html, "<pre class=\"fix\"><code>record_shapes=True,</code></pre>",
	    1);
	has(md,
	    "\n```\non_trace_ready=torch_npu.profiler."
	    "tensorboard_trace_handler(\"./prof\"),\n# instead of "
	    "prof.export_chrome_trace(...)\n```\n",
	    1);
	has(md,
	    "| 0 | trace alone | Level1 | yes | 1 timed | no | no | "
	    "unknown |",
	    1);
	has(md, "**No input shapes**: No Input Shapes", 1);
	has(zh, "<strong>没有输入 shape</strong>：没有 Input Shapes", 1);
	has(zh, "仅 trace", 1);
	free(html);
	free(md);
	free(zh);
	done(&x);
}

/* ---- the decision and the run's summary ---------------------------------- */

/* A rank with evidence set by hand. */
static void fake_rank(struct rank_result *rr, int32_t id)
{
	struct disc_rank dr;

	memset(rr, 0, sizeof(*rr));
	memset(&dr, 0, sizeof(dr));
	profinfo_setup_init(&dr.setup);
	collection_from_discovery(&rr->ev, &dr);
	rr->id = id;
	rr->analysed = 1;
	rr->kernel_source = "kernel_details";
	rr->ev.kd_level = LEVEL_1;
	rr->ev.kd_shapes = rr->ev.kd_pmu = TRI_YES;
	rr->ev.mem_files = MEMFILES;
	rr->ev.trace_cpu = TRI_YES;
	rr->ev.info_warmup = 2;
}

static void warmup_steps_are_not_timed(void **state)
{
	struct result r;
	struct step_stat steps[6];
	size_t i;

	(void)state;
	result_init(&r);
	r.ranks = calloc(1, sizeof(*r.ranks));
	assert_non_null(r.ranks);
	r.nranks = 1;
	fake_rank(&r.ranks[0], 0);
	memset(steps, 0, sizeof(steps));
	for (i = 0; i < 6; i++)
		steps[i].step = (int32_t)(3 + i);
	steps[0].outlier = 1; /* judged warm-up */
	r.ranks[0].steps = steps;
	r.ranks[0].nsteps = 6;
	r.ranks[0].steps_source = "step_trace_time";
	collection_check(&r);
	assert_int_equal(r.ranks[0].coll.steps, 6);
	assert_int_equal(r.ranks[0].coll.warmup_in, 1);
	assert_int_equal(r.ranks[0].coll.timed, 5);
	assert_int_equal(r.ranks[0].coll.gaps, G(NO_WARMUP));
	/* the step table's rows without a number are no profiler steps */
	for (i = 0; i < 6; i++)
		steps[i].step = STEP_NONE;
	collection_check(&r);
	assert_int_equal(r.ranks[0].coll.steps, 0);
	assert_int_equal(r.ranks[0].coll.gaps, G(NO_STEPS));
	r.ranks[0].steps = NULL;
	r.ranks[0].nsteps = 0;
	r.ranks[0].ev.step_ids = 7;
	collection_check(&r);
	assert_int_equal(r.ranks[0].coll.timed, 7);
	src(r.ranks[0].coll.steps_source, "kernel_details");
	assert_int_equal(r.ranks[0].coll.gaps, 0);
	assert_int_equal(r.collection.sum.gaps, 0);
	free(r.ranks);
	r.ranks = NULL;
	r.nranks = 0;
	result_release(&r);
}

/* The run: the lowest level, "no" over "unknown" over "yes", the fewest
 * steps, a mixed export, the union of the gaps; an unanalysed rank does
 * not count. */
static void the_run_is_its_worst_rank(void **state)
{
	struct result r;

	(void)state;
	result_init(&r);
	r.ranks = calloc(3, sizeof(*r.ranks));
	assert_non_null(r.ranks);
	r.nranks = 3;
	fake_rank(&r.ranks[0], 0);
	fake_rank(&r.ranks[1], 1);
	fake_rank(&r.ranks[2], 2);
	r.ranks[0].ev.step_ids = 9;
	r.ranks[1].ev.step_ids = 6;
	r.ranks[1].ev.info_level = LEVEL_2;
	r.ranks[1].ev.trace_cpu = TRI_UNKNOWN; /* cannot tell */
	r.ranks[1].db.used = 1;
	r.ranks[2].analysed = 0; /* Level0, no CPU: not counted */
	r.ranks[2].ev.kd_level = LEVEL_0;
	r.ranks[2].ev.trace_cpu = TRI_NO;
	collection_check(&r);
	assert_int_equal(r.collection.sum.level, LEVEL_1);
	assert_int_equal(r.collection.sum.cpu, TRI_UNKNOWN);
	assert_int_equal(r.collection.sum.timed, 6);
	assert_string_equal(r.collection.export_type, "mixed");
	assert_int_equal(r.collection.sum.gaps, 0);
	assert_int_equal(r.ranks[2].coll.gaps,
	                 G(LEVEL0) | G(NPU_ONLY) | G(NO_STEPS));
	r.ranks[0].ev.trace_cpu = TRI_NO;
	collection_check(&r);
	assert_int_equal(r.collection.sum.cpu, TRI_NO);
	assert_int_equal(r.collection.sum.gaps, G(NPU_ONLY));
	free(r.ranks);
	r.ranks = NULL;
	r.nranks = 0;
	result_release(&r);
}

/* The reports take the gap texts from the catalogues: English there is
 * the table's English, and Chinese has every one. */
static void catalogues_carry_the_gap_table(void **state)
{
	struct catalog *en, *zh;
	struct err e = ERR_INIT;
	char key[64];
	int g;

	(void)state;
	assert_int_equal(i18n_load("en", &en, &e), 0);
	assert_int_equal(i18n_load("zh", &zh, &e), 0);
	for (g = 0; g < GAP_COUNT; g++) {
		const struct coll_gap_def *d = &coll_gap_defs[g];
		snprintf(key, sizeof(key), "coll_gap_%s", d->id);
		assert_non_null(i18n_find(en, key));
		assert_string_equal(i18n_find(en, key), d->title);
		assert_non_null(i18n_find(zh, key));
		snprintf(key, sizeof(key), "coll_gap_%s_disables", d->id);
		assert_non_null(i18n_find(en, key));
		assert_string_equal(i18n_find(en, key), d->disables);
		assert_non_null(i18n_find(zh, key));
		assert_non_null(strstr(d->fix, "="));
	}
	i18n_free(en);
	i18n_free(zh);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(alexnet_level0_text),
	    cmocka_unit_test(alexnet_level1_text),
	    cmocka_unit_test(without_profiler_info_the_data_decides),
	    cmocka_unit_test(gpt3_2023),
	    cmocka_unit_test(paddleocr_2026),
	    cmocka_unit_test(alexnet_db),
	    cmocka_unit_test(alexnet_level1_trace_alone),
	    cmocka_unit_test(alexnet_level0_trace_alone),
	    cmocka_unit_test(mstt_trace_without_shapes_or_memory),
	    cmocka_unit_test(generated_npu_only_trace),
	    cmocka_unit_test(generated_npu_only_with_profiler_info),
	    cmocka_unit_test(generated_db_run),
	    cmocka_unit_test(a_complete_collection_says_so),
	    cmocka_unit_test(the_code_is_escaped_for_each_format),
	    cmocka_unit_test(warmup_steps_are_not_timed),
	    cmocka_unit_test(the_run_is_its_worst_rank),
	    cmocka_unit_test(catalogues_carry_the_gap_table),
	};

	/* a template variable the view model does not define fails the
	 * render (format/report.h) */
	setenv(REPORT_MISSES_ENV, "1", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
