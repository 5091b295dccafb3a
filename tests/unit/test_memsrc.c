/* Unit tests of the device-memory sources besides memory_record.csv
 * (issue 13 §3): operator_memory.csv (input/opmem.c), npu_module_mem.csv
 * (modmem_read), the trace's NPU MEM counters (input/traceprof*.c), the
 * db's NPU_MEM (input/db_mem.c), on the real samples and on hostile input
 * built here, and the precedence of analysis/memory.c between them.
 *
 * Every expected peak on a real sample was worked out apart from sdperf,
 * with a Python one-off over the same file: csv.DictReader and Decimal
 * for the CSVs (bytes = round(Decimal(MB) * 1048576), the maximum over
 * the columns named), json + gzip for the trace (the "APP/HBM" C events
 * of the process named "NPU MEM": int(Decimal(KB) * 1024)), and sqlite3
 * for the db ("SELECT max(hbm) FROM NPU_MEM JOIN STRING_IDS ... WHERE
 * value = 'app'"). */
#include "unit.h"

#include "analysis/memory.h"
#include "analysis/rules.h"
#include "input/db.h"
#include "input/discover.h"
#include "input/kernels.h"
#include "input/memrec.h"
#include "input/opmem.h"
#include "input/traceprof.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define MB 1048576LL

struct seen {
	size_t n;
	struct mem_sample first, last;
	int64_t alloc, reserved, device; /* peaks, -1 none */
};

static void collect(const struct mem_sample *s, void *ctx)
{
	struct seen *w = ctx;

	if (!w->n++)
		w->first = *s;
	w->last = *s;
	if (s->comp == MEMC_APP) {
		if (s->reserved_b > w->device)
			w->device = s->reserved_b;
		return;
	}
	if (s->allocated_b > w->alloc)
		w->alloc = s->allocated_b;
	if (s->reserved_b > w->reserved)
		w->reserved = s->reserved_b;
}

static void seen_init(struct seen *w)
{
	memset(w, 0, sizeof(*w));
	w->alloc = w->reserved = w->device = -1;
}

static void sample_path(char *out, size_t n, const char *rel)
{
	unit_join(out, n, unit_samples_dir(), rel);
}

/* ---- operator_memory.csv ---------------------------------------------- */

static void opmem_sample(const char *rel, struct seen *w,
                         struct memrec_info *in)
{
	char path[1024];
	struct err e = ERR_INIT;

	sample_path(path, sizeof(path), rel);
	seen_init(w);
	if (opmem_read(path, collect, w, in, &e))
		fail_msg("%s", e.msg);
}

static void opmem_reads_the_real_samples(void **state)
{
	struct seen w;
	struct memrec_info in;

	(void)state;
	/* the old 10-column header (2023) */
	opmem_sample("msinsight-gpt3-testdata-2023/test_rank_0/"
	             "ASCEND_PROFILER_OUTPUT/operator_memory.csv",
	             &w, &in);
	assert_int_equal(in.rows, 28);
	assert_int_equal(in.samples, 56); /* every tensor released */
	assert_int_equal(in.bad, 0);
	assert_int_equal(w.n, 56);
	assert_int_equal(w.alloc, 84017152LL);     /* 80.125 MB */
	assert_int_equal(w.reserved, 253755392LL); /* 242.0 MB */
	assert_int_equal(w.device, -1);            /* no driver view */
	assert_int_equal(w.first.ts_ns, 1695115378723902500LL);
	assert_int_equal(w.first.comp, MEMC_PTA);

	/* the 15-column header, TAB after the times, two tensors never
	 * released (no release sample) */
	opmem_sample("msinsight-gpt3-testdata-2023/test_rank_1/"
	             "ASCEND_PROFILER_OUTPUT/operator_memory.csv",
	             &w, &in);
	assert_int_equal(in.rows, 21);
	assert_int_equal(in.samples, 40);
	assert_int_equal(in.bad, 0);
	assert_int_equal(w.alloc, 3638092800LL);     /* 3469.552... MB */
	assert_int_equal(w.reserved, 26971471872LL); /* 25722.0 MB */
	assert_int_equal(w.first.ts_ns, 1706704429088523015LL);

	/* the AlexNet capture (gzip here), CRLF */
	opmem_sample("msinsight-alexnet-2rank-2024/level0/rank0_ascend_pt/"
	             "ASCEND_PROFILER_OUTPUT/operator_memory.csv.gz",
	             &w, &in);
	assert_int_equal(in.rows, 161);
	assert_int_equal(in.samples, 298);
	assert_int_equal(in.bad, 0);
	assert_int_equal(w.alloc, 1149240832LL);    /* 1095.999... MB */
	assert_int_equal(w.reserved, 1287651328LL); /* 1228.0 MB */
}

static const char op_header[] =
    "Name,Size(KB),Allocation Time(us),Release Time(us),Duration(us),"
    "Allocation Total Allocated(MB),Allocation Total Reserved(MB),"
    "Release Total Allocated(MB),Release Total Reserved(MB),Device Type\n";

static int op_text(const char *text, struct seen *w, struct memrec_info *in,
                   struct err *e)
{
	seen_init(w);
	return opmem_read_mem("operator_memory.csv", text, strlen(text),
	                      collect, w, in, e);
}

static void opmem_skips_bad_rows_and_names_the_first(void **state)
{
	char text[2048];
	struct seen w;
	struct memrec_info in;
	struct err e = ERR_INIT;

	(void)state;
	snprintf(text, sizeof(text),
	         "%s"
	         "a,64,100,200,100,1.0,2.0,0.5,2.0,NPU:0\n"  /* good */
	         "b,zz,100,200,100,1.0,2.0,0.5,2.0,NPU:0\n"  /* size */
	         "c,64,-5,200,100,1.0,2.0,0.5,2.0,NPU:0\n"   /* time */
	         "d,64,100,200,100,1.0,2.0,,,NPU:0\n"        /* no totals */
	         "e,64,,200,100,1.0,2.0,0.5,2.0,NPU:0\n"     /* no alloc */
	         "f,64,100,200,100,-1,2.0,0.5,2.0,NPU:0\n"   /* negative */
	         "g,64,100,200\n"                            /* short */
	         "h,64,300,,,9.0,10.0,,,NPU:0\n"             /* alive */
	         "i,64,100,200,100,1e9,2.0,0.5,2.0,NPU:0\n", /* exponent */
	         op_header);
	assert_int_equal(op_text(text, &w, &in, &e), 0);
	assert_int_equal(in.rows, 9);
	assert_int_equal(in.bad, 7);
	assert_int_equal(in.samples, 3);
	assert_int_equal(w.alloc, 9 * MB);
	assert_int_equal(w.reserved, 10 * MB);
	assert_int_equal(in.first_bad_line, 3);
	assert_string_equal(in.first_bad,
	                    "column 2 'Size(KB)': not a size in KB: 'zz'");
}

static void opmem_rejects_what_is_no_operator_memory(void **state)
{
	static const char binary[] = "\x01\x02\xff\xfe\x00garbage";
	struct seen w;
	struct memrec_info in;
	struct err e = ERR_INIT;

	(void)state;
	/* memory_record.csv is no operator_memory.csv */
	assert_int_equal(op_text("Component,Timestamp(us),Total Reserved(MB)\n"
	                         "APP,1,2\n",
	                         &w, &in, &e),
	                 -1);
	assert_non_null(strstr(e.msg, "missing required column "
	                              "'Allocation Time(us)'"));
	assert_non_null(strstr(e.msg, "operator_memory.csv"));
	err_clear(&e);
	assert_int_equal(op_text("", &w, &in, &e), -1);
	assert_non_null(strstr(e.msg, "empty file"));
	err_clear(&e);
	assert_int_equal(opmem_read_mem("b.csv", binary, sizeof(binary) - 1,
	                                collect, &w, &in, &e),
	                 -1);
	assert_int_equal(w.n, 0);
	err_clear(&e);
	/* an unclosed quote is a syntax error, not a hang */
	{
		char text[512];
		snprintf(text, sizeof(text), "%s\"a,64,100\n", op_header);
		assert_int_equal(op_text(text, &w, &in, &e), -1);
		assert_int_equal(e.code, ERR_INPUT);
		err_clear(&e);
	}
	/* a duplicate column */
	assert_int_equal(
	    op_text("Allocation Time(us),Allocation Time(us)\n", &w, &in, &e),
	    -1);
	assert_non_null(strstr(e.msg, "duplicate column"));
}

/* ---- npu_module_mem.csv ----------------------------------------------- */

static void modmem_reads_the_real_sample(void **state)
{
	char path[1024];
	struct seen w;
	struct memrec_info in;
	struct err e = ERR_INIT;

	(void)state;
	sample_path(path, sizeof(path),
	            "msinsight-gpt3-testdata-2023/test_rank_0/"
	            "ASCEND_PROFILER_OUTPUT/npu_module_mem.csv");
	seen_init(&w);
	if (modmem_read(path, collect, &w, &in, &e))
		fail_msg("%s", e.msg);
	assert_int_equal(in.rows, 78);
	assert_int_equal(in.bad, 0);
	assert_int_equal(in.samples, 9); /* the APP rows only */
	assert_int_equal(w.n, 9);
	assert_int_equal(w.device, 25750 * MB); /* 25750.0 MB */
	assert_int_equal(w.alloc, -1);
	assert_int_equal(w.reserved, -1); /* HCCL's 816 MB is no sample */
	assert_int_equal(w.first.comp, MEMC_APP);
}

static void modmem_skips_bad_rows(void **state)
{
	static const char text[] =
	    "Component,Timestamp(us),Total Reserved(MB),Device\r\n"
	    "APP,100.5\t,10.0,NPU:0\r\n"
	    "APP,abc,11.0,NPU:0\r\n"
	    "APP,101,-3,NPU:0\r\n"
	    "HCCL,101,900.0,NPU:0\r\n"
	    "APP,102,12.5,NPU:0,extra\r\n";
	struct seen w;
	struct memrec_info in;
	struct err e = ERR_INIT;

	(void)state;
	seen_init(&w);
	assert_int_equal(modmem_read_mem("npu_module_mem.csv", text,
	                                 sizeof(text) - 1, collect, &w, &in,
	                                 &e),
	                 0);
	assert_int_equal(in.rows, 5);
	assert_int_equal(in.bad, 3);
	assert_int_equal(in.samples, 1);
	assert_int_equal(w.device, 10 * MB);
	assert_int_equal(w.first.ts_ns, 100500);
	assert_int_equal(in.first_bad_line, 3);
	assert_string_equal(in.first_bad, "column 2 'Timestamp(us)': not a "
	                                  "timestamp: 'abc'");
}

/* ---- the trace's NPU MEM counters -------------------------------------- */

static void trace_counters_of_the_real_samples(void **state)
{
	static const struct {
		const char *rel;
		size_t n;
		int64_t peak, first_ts;
	} cases[] = {
	    {"msinsight-alexnet-2rank-2024/level0/rank0_ascend_pt/"
	     "ASCEND_PROFILER_OUTPUT/trace_view.json.gz",
	     26, 2218885120LL /* APP/Memory 2166880.0 KB */,
	     1727592872266510240LL},
	    {"msinsight-alexnet-2rank-2024/level1/rank0_ascend_pt/"
	     "ASCEND_PROFILER_OUTPUT/trace_view.json.gz",
	     28, 2233565184LL /* APP/Memory 2181216.0 KB */,
	     1727593954494062866LL},
	};
	size_t c, i;

	(void)state;
	for (c = 0; c < ARRAY_LEN(cases); c++) {
		char path[1024];
		struct kernel_table kt;
		struct traceprof tp;
		struct err e = ERR_INIT;
		int64_t peak = -1, first = INT64_MAX;

		sample_path(path, sizeof(path), cases[c].rel);
		kernel_table_init(&kt);
		if (traceprof_read(path, NULL, NULL, &kt, &tp, &e))
			fail_msg("%s", e.msg);
		assert_int_equal(tp.nmem, cases[c].n);
		assert_int_equal(tp.mem_bad, 0);
		for (i = 0; i < tp.nmem; i++) {
			if (tp.mem[i].bytes > peak)
				peak = tp.mem[i].bytes;
			if (tp.mem[i].ts_ns < first)
				first = tp.mem[i].ts_ns;
		}
		assert_int_equal(peak, cases[c].peak);
		assert_int_equal(first, cases[c].first_ts);
		traceprof_release(&tp);
		kernel_table_release(&kt);
	}
}

#define HW_META                                                                \
	"{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":7,\"tid\":0,"         \
	"\"args\":{\"name\":\"Ascend Hardware\"}}"
#define KERNEL                                                                 \
	"{\"name\":\"Conv2D12\",\"pid\":7,\"tid\":1,\"ts\":\"1000\","          \
	"\"dur\":10,\"ph\":\"X\"}"
#define CTR(pid, name, ts, args)                                               \
	"{\"name\":\"" name "\",\"pid\":" #pid ",\"tid\":0,\"ts\":" ts         \
	",\"args\":" args ",\"ph\":\"C\"}"

/* The NPU MEM process named after its counters (as real traces may do),
 * another process's APP/HBM (a bad one of it not counted), other NPU MEM
 * counters, and hostile ones. */
static void trace_counters_keep_npu_mem_only(void **state)
{
	/* clang-format off */
	const char *json =
	    "[" HW_META "," KERNEL ","
	    CTR(5, "APP/HBM", "\"1000.5\"", "{\"KB\": 2.0}") ","
	    CTR(5, "APP/DDR", "\"1000.5\"", "{\"KB\": 99999.0}") ","
	    CTR(5, "Device/HBM", "\"1000.5\"", "{\"KB\": 99999.0}") ","
	    CTR(6, "APP/HBM", "\"1001\"", "{\"KB\": 88888}") ","
	    CTR(6, "APP/HBM", "\"y\"", "{\"KB\": 1}") ","
	    CTR(5, "APP/HBM", "\"1002\"", "{\"KB\": 3}") ","
	    CTR(5, "APP/HBM", "\"x\"", "{\"KB\": 3}") ","
	    CTR(5, "APP/HBM", "\"1003\"", "{\"KB\": -3}") ","
	    CTR(5, "APP/HBM", "\"1003\"", "{\"KB\": \"7\"}") ","
	    CTR(5, "APP/HBM", "\"1003\"", "{\"MB\": 7}") ","
	    CTR(5, "APP/HBM", "\"1003\"", "[1,2]") ","
	    "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":5,\"tid\":0,"
	    "\"args\":{\"name\":\"NPU MEM\"}},"
	    "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":6,\"tid\":0,"
	    "\"args\":{\"name\":\"HBM\"}}]";
	/* clang-format on */
	struct kernel_table kt;
	struct traceprof tp;
	struct err e = ERR_INIT;

	(void)state;
	kernel_table_init(&kt);
	if (traceprof_read_mem("t.json", json, strlen(json), 0, NULL, NULL, &kt,
	                       &tp, &e))
		fail_msg("%s", e.msg);
	assert_int_equal(tp.nmem, 2);
	assert_int_equal(tp.mem[0].ts_ns, 1000500);
	assert_int_equal(tp.mem[0].bytes, 2048);
	assert_int_equal(tp.mem[1].bytes, 3072);
	assert_int_equal(tp.mem_bad, 5);
	assert_string_equal(tp.mem_first_bad_why, "no usable \"ts\"");
	assert_true(tp.mem_first_bad_at > 0);
	traceprof_release(&tp);
	kernel_table_release(&kt);
}

/* ---- the db's NPU_MEM ------------------------------------------------- */

static void db_npu_mem_of_the_real_sample(void **state)
{
	char path[1024];
	struct db *db = NULL;
	struct err e = ERR_INIT;
	struct seen w;
	uint64_t rows, bad;

	(void)state;
	sample_path(path, sizeof(path),
	            "msinsight-alexnet-2rank-2025-db/level0/rank0_ascend_pt/"
	            "ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db");
	if (db_open(path, &db, &e))
		fail_msg("%s", e.msg);
	seen_init(&w);
	assert_int_equal(db_read_npu_mem(db, collect, &w, &rows, &bad, &e), 0);
	db_close(db);
	assert_int_equal(rows, 26); /* 13 app, 13 device */
	assert_int_equal(bad, 0);
	assert_int_equal(w.n, 13);
	assert_int_equal(w.device, 2212081664LL);
	assert_int_equal(w.first.ts_ns, 1736407067830875900LL);
}

/* ---- precedence (analysis/memory.c) ------------------------------------ */

struct fx {
	struct result r;
	char dir[512];
	char *files[DM_COUNT];
};

static int fx_setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	static const struct segment segs[] = {
	    {STAGE_DIT, 1000000, 2000000, 1, 0, STEP_NONE}};

	if (!f)
		return -1;
	result_init(&f->r);
	f->r.ranks = xcalloc(1, sizeof(*f->r.ranks));
	f->r.nranks = 1;
	f->r.ranks[0].analysed = 1;
	f->r.segs = xmalloc(sizeof(segs));
	memcpy(f->r.segs, segs, sizeof(segs));
	f->r.nsegs = 1;
	unit_tmpdir(f->dir, sizeof(f->dir));
	*state = f;
	return 0;
}

static int fx_teardown(void **state)
{
	struct fx *f = *state;
	int m;

	result_release(&f->r);
	for (m = 0; m < DM_COUNT; m++)
		free(f->files[m]);
	unit_rmtree(f->dir);
	free(f);
	return 0;
}

#define F(fn) cmocka_unit_test_setup_teardown(fn, fx_setup, fx_teardown)

static void fx_file(struct fx *f, int m, const char *text)
{
	free(f->files[m]); /* a test may write the same file twice */
	f->files[m] = xstrfmt("%s/%s", f->dir, discover_memfile_names[m]);
	unit_write(f->files[m], text, strlen(text));
}

static const char rec_text[] =
    "Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB)\n"
    "PTA,1500,100.0,200.0\nAPP,1500,,1000.0\n";
static const char op_text_ok[] =
    "Name,Allocation Time(us),Release Time(us),"
    "Allocation Total Allocated(MB),Allocation Total Reserved(MB),"
    "Release Total Allocated(MB),Release Total Reserved(MB)\n"
    "a,1200,1800,300.0,400.0,250.0,400.0\n";
static const char mod_text[] =
    "Component,Timestamp(us),Total Reserved(MB),Device\n"
    "APP,1500,5000.0,NPU:0\nHCCL,1500,800.0,NPU:0\n";

static const struct rank_memory *mem(const struct fx *f)
{
	return &f->r.ranks[0].mem;
}

static void precedence_prefers_memory_record(void **state)
{
	struct fx *f = *state;

	fx_file(f, DM_MEMORY_RECORD, rec_text);
	fx_file(f, DM_OPERATOR_MEMORY, op_text_ok);
	fx_file(f, DM_NPU_MODULE_MEM, mod_text);
	memory_read_sources(f->files, NULL, NULL, &f->r);
	assert_int_equal(mem(f)->source, MEMSRC_MEMORY_RECORD);
	assert_int_equal(mem(f)->all.device_b, 1000 * MB);
	assert_int_equal(mem(f)->stage[STAGE_DIT].reserved_b, 200 * MB);
	assert_int_equal(f->r.nwarnings, 0);
}

static void precedence_then_operator_memory_then_modules(void **state)
{
	struct fx *f = *state;

	fx_file(f, DM_OPERATOR_MEMORY, op_text_ok);
	fx_file(f, DM_NPU_MODULE_MEM, mod_text);
	memory_read_sources(f->files, NULL, NULL, &f->r);
	assert_int_equal(mem(f)->source, MEMSRC_OPERATOR_MEMORY);
	assert_int_equal(mem(f)->stage[STAGE_DIT].allocated_b, 300 * MB);
	assert_int_equal(mem(f)->stage[STAGE_DIT].reserved_b, 400 * MB);
	/* operator_memory.csv has no device figure: npu_module_mem.csv's APP
	 * row (5000.0 MB at 1500 us, in the DiT segment) gives it, beside */
	assert_int_equal(mem(f)->samples, 2 + 1);
	assert_int_equal(mem(f)->all.device_b, 5000 * MB);
	assert_int_equal(mem(f)->framework_source, MEMSRC_OPERATOR_MEMORY);
	assert_int_equal(mem(f)->device_source, MEMSRC_NPU_MODULE_MEM);
	assert_int_equal(memory_top(&mem(f)->all), 5000 * MB);

	/* without npu_module_mem.csv: the framework's figures alone */
	free(f->files[DM_NPU_MODULE_MEM]);
	f->files[DM_NPU_MODULE_MEM] = NULL;
	memory_read_sources(f->files, NULL, NULL, &f->r);
	assert_int_equal(mem(f)->samples, 2);
	assert_int_equal(mem(f)->all.device_b, -1);
	assert_int_equal(mem(f)->device_source, MEMSRC_NONE);
	fx_file(f, DM_NPU_MODULE_MEM, mod_text);

	free(f->files[DM_OPERATOR_MEMORY]);
	f->files[DM_OPERATOR_MEMORY] = NULL;
	memory_read_sources(f->files, NULL, NULL, &f->r);
	assert_int_equal(mem(f)->source, MEMSRC_NPU_MODULE_MEM);
	assert_int_equal(mem(f)->all.device_b, 5000 * MB);
	assert_int_equal(mem(f)->stage[STAGE_DIT].device_b, 5000 * MB);
}

/* A memory_record.csv that cannot be used, or has no sample, passes to
 * the next source; its warning stays. */
static void precedence_passes_over_an_unusable_source(void **state)
{
	struct fx *f = *state;

	fx_file(f, DM_MEMORY_RECORD, "Timestamp(us)\n1\n");
	fx_file(f, DM_OPERATOR_MEMORY, op_text_ok);
	memory_read_sources(f->files, NULL, NULL, &f->r);
	assert_int_equal(mem(f)->source, MEMSRC_OPERATOR_MEMORY);
	assert_int_equal(f->r.nwarnings, 1);
	assert_string_equal(f->r.warnings[0].code, "memory_unreadable");

	fx_file(f, DM_MEMORY_RECORD,
	        "Component,Timestamp(us),Total Reserved(MB)\n");
	memory_read_sources(f->files, NULL, NULL, &f->r);
	assert_int_equal(mem(f)->source, MEMSRC_OPERATOR_MEMORY);
}

/* The trace's counters come after memory_record.csv, before
 * operator_memory.csv; a bad counter is a memory_bad_rows warning. */
static void precedence_places_the_trace(void **state)
{
	struct fx *f = *state;
	struct traceprof tp;
	struct traceprof_mem m[2] = {{1500000, 7 * MB, 0, 0},
	                             {3000000, 9 * MB, 0, 0}};

	memset(&tp, 0, sizeof(tp));
	tp.mem = m;
	tp.nmem = 2;
	tp.mem_bad = 1;
	tp.mem_first_bad_at = 77;
	tp.mem_first_bad_why = "no usable \"ts\"";
	fx_file(f, DM_OPERATOR_MEMORY, op_text_ok);
	memory_read_sources(f->files, &tp, "trace_view.json", &f->r);
	assert_int_equal(mem(f)->source, MEMSRC_TRACE);
	assert_int_equal(mem(f)->samples, 2);
	assert_int_equal(mem(f)->outside, 1);
	assert_int_equal(mem(f)->all.device_b, 9 * MB);
	assert_int_equal(mem(f)->stage[STAGE_DIT].device_b, 7 * MB);
	assert_int_equal(f->r.nwarnings, 1);
	assert_string_equal(f->r.warnings[0].code, "memory_bad_rows");
	assert_string_equal(f->r.warnings[0].args[2],
	                    "byte 77: no usable \"ts\"");

	fx_file(f, DM_MEMORY_RECORD, rec_text);
	memory_read_sources(f->files, &tp, "trace_view.json", &f->r);
	assert_int_equal(mem(f)->source, MEMSRC_MEMORY_RECORD);

	/* a trace without counters leaves the next source its turn */
	free(f->files[DM_MEMORY_RECORD]);
	f->files[DM_MEMORY_RECORD] = NULL;
	memset(&tp, 0, sizeof(tp));
	memory_read_sources(f->files, &tp, "trace_view.json", &f->r);
	assert_int_equal(mem(f)->source, MEMSRC_OPERATOR_MEMORY);
}

/* A source that gives allocated only still has a peak. */
static void allocated_only_is_a_peak(void **state)
{
	struct fx *f = *state;
	struct rules ru;
	struct err e = ERR_INIT;

	fx_file(f, DM_OPERATOR_MEMORY,
	        "Name,Allocation Time(us),Allocation Total Allocated(MB)\n"
	        "a,1500,12.5\nb,2500,30.0\n");
	memory_read_sources(f->files, NULL, NULL, &f->r);
	if (rules_load_builtin(&ru, &e))
		fail_msg("%s", e.msg);
	memory_summarise(&ru, &f->r);
	rules_release(&ru);
	assert_true(f->r.memory.known);
	assert_int_equal(f->r.memory.peak_b, 30 * MB);
	assert_int_equal(f->r.memory.sources, 1u << MEMSRC_OPERATOR_MEMORY);
	assert_int_equal(f->r.memory.stage[STAGE_DIT].allocated_b,
	                 12 * MB + MB / 2);
}

/* The db: both tables, the two figures (issue 22 §1): MEMORY_RECORD the
 * framework's allocator, NPU_MEM the device memory the process used; with
 * no MEMORY_RECORD (a copy of the real sample without it, made with
 * python3's sqlite3) the device figure alone. The expected bytes are
 * sqlite3's: max(totalReserved) of MEMORY_RECORD = 1600913408 (1526.75
 * MiB), max(hbm) of NPU_MEM's "app" rows = 2212081664 (2109.61 MiB), 990
 * + 13 rows. */
static void precedence_in_the_db(void **state)
{
	struct fx *f = *state;
	char src[1024], *dst, *cmd;
	struct db *db = NULL;
	struct err e = ERR_INIT;

	sample_path(src, sizeof(src),
	            "msinsight-alexnet-2rank-2025-db/level0/rank0_ascend_pt/"
	            "ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db");
	if (db_open(src, &db, &e))
		fail_msg("%s", e.msg);
	memory_read_db(db, &f->r);
	db_close(db);
	assert_int_equal(mem(f)->source, MEMSRC_DB_MEMORY_RECORD);
	assert_int_equal(mem(f)->all.reserved_b, 1600913408LL);
	assert_int_equal(mem(f)->all.device_b, 2212081664LL);
	assert_int_equal(mem(f)->samples, 990 + 13);
	assert_int_equal(mem(f)->framework_source, MEMSRC_DB_MEMORY_RECORD);
	assert_int_equal(mem(f)->device_source, MEMSRC_DB_NPU_MEM);
	/* the peak, and so memory_headroom, is the device figure */
	assert_int_equal(memory_top(&mem(f)->all), 2212081664LL);
	assert_int_equal(memory_basis(&mem(f)->all), MEMB_DEVICE);

	dst = xstrfmt("%s/nomem.db", f->dir);
	cmd = xstrfmt("python3 -c 'import shutil, sqlite3, sys; "
	              "shutil.copy(sys.argv[1], sys.argv[2]); "
	              "c = sqlite3.connect(sys.argv[2]); "
	              "c.execute(\"DROP TABLE MEMORY_RECORD\"); c.commit()' "
	              "'%s' '%s'",
	              src, dst);
	assert_int_equal(system(cmd), 0);
	if (db_open(dst, &db, &e))
		fail_msg("%s", e.msg);
	memory_read_db(db, &f->r);
	db_close(db);
	assert_int_equal(mem(f)->source, MEMSRC_DB_NPU_MEM);
	assert_int_equal(mem(f)->samples, 13);
	assert_int_equal(mem(f)->all.device_b, 2212081664LL);
	assert_int_equal(mem(f)->all.reserved_b, -1);
	assert_int_equal(mem(f)->framework_source, MEMSRC_NONE);
	assert_int_equal(mem(f)->device_source, MEMSRC_DB_NPU_MEM);
	free(cmd);
	free(dst);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(opmem_reads_the_real_samples),
	    cmocka_unit_test(opmem_skips_bad_rows_and_names_the_first),
	    cmocka_unit_test(opmem_rejects_what_is_no_operator_memory),
	    cmocka_unit_test(modmem_reads_the_real_sample),
	    cmocka_unit_test(modmem_skips_bad_rows),
	    cmocka_unit_test(trace_counters_of_the_real_samples),
	    cmocka_unit_test(trace_counters_keep_npu_mem_only),
	    cmocka_unit_test(db_npu_mem_of_the_real_sample),
	    F(precedence_prefers_memory_record),
	    F(precedence_then_operator_memory_then_modules),
	    F(precedence_passes_over_an_unusable_source),
	    F(precedence_places_the_trace),
	    F(allocated_only_is_a_peak),
	    F(precedence_in_the_db),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
