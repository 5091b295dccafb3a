/* Unit tests of device memory (issue 13 §3): input/memrec.c on the real
 * samples and on hostile CSVs built here, analysis/memory.c (samples on
 * the stage timeline, peaks, card memory), the rules' chip table and the
 * memory_headroom finding firing and not firing. */
#include "unit.h"

#include "analysis/memory.h"
#include "analysis/rules.h"
#include "analysis/verdicts.h"
#include "input/db.h"
#include "input/memrec.h"
#include "util/xalloc.h"

#define MB 1048576LL

/* ---- the reader ------------------------------------------------------- */

struct seen {
	size_t n;
	struct mem_sample s[16];
	int64_t alloc, reserved, device; /* peaks, -1 none */
};

static void collect(const struct mem_sample *s, void *ctx)
{
	struct seen *w = ctx;

	if (w->n < ARRAY_LEN(w->s))
		w->s[w->n] = *s;
	w->n++;
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

static int read_text(const char *text, struct seen *w, struct memrec_info *in,
                     struct err *e)
{
	memset(w, 0, sizeof(*w));
	w->alloc = w->reserved = w->device = -1;
	return memrec_read_mem("m.csv", text, strlen(text), collect, w, in, e);
}

static void memrec_mb_to_bytes_is_exact(void **state)
{
	int64_t b = 0;

	(void)state;
	assert_int_equal(memrec_mb_to_bytes("2116.09375", 10, &b), 0);
	assert_int_equal(b, 2218885120LL);
	assert_int_equal(memrec_mb_to_bytes(" 8664.0\t", 8, &b), 0);
	assert_int_equal(b, 8664 * MB);
	assert_int_equal(memrec_mb_to_bytes("0", 1, &b), 0);
	assert_int_equal(b, 0);
	/* 0.0000005 MB is half a byte: rounds up */
	assert_int_equal(memrec_mb_to_bytes("0.0000005", 9, &b), 0);
	assert_int_equal(b, 1);
	assert_int_equal(memrec_mb_to_bytes("abc", 3, &b), -1);
	assert_int_equal(memrec_mb_to_bytes("-1", 2, &b), -1);
	assert_int_equal(memrec_mb_to_bytes("1e3", 3, &b), -1);
	assert_int_equal(memrec_mb_to_bytes(".5", 2, &b), -1);
	assert_int_equal(memrec_mb_to_bytes("", 0, &b), -1);
	assert_int_equal(memrec_mb_to_bytes("9999999999999", 13, &b), -1);
}

static const char header[] = "Component,Timestamp(us),Total Allocated(MB),"
                             "Total Reserved(MB),Total Active(MB),Stream "
                             "Ptr,Device Type\n";

static void memrec_skips_bad_rows_and_names_the_first(void **state)
{
	char text[1024];
	struct seen w;
	struct memrec_info in;
	struct err e = ERR_INIT;

	(void)state;
	snprintf(text, sizeof(text),
	         "%sAPP,1000.000\t,,100.5,,,NPU:0\n"
	         "PTA,1001.000,10.25,20.0,10,1,NPU:0\n"
	         "PTA,abc,1,2,,,NPU:0\n"
	         "\n"
	         "PTA,1002.000,x1,2,,,NPU:0\n"
	         "GE,1003.000,1,2\n"
	         "PTA,1004.000,,,,,NPU:0\n",
	         header);
	assert_int_equal(read_text(text, &w, &in, &e), 0);
	assert_int_equal(in.rows, 6);
	assert_int_equal(in.samples, 2);
	assert_int_equal(in.bad, 3);
	assert_int_equal(in.first_bad_line, 4);
	assert_string_equal(in.first_bad,
	                    "column 2 'Timestamp(us)': not a timestamp: 'abc'");
	assert_int_equal(w.n, 2);
	assert_int_equal(w.s[0].comp, MEMC_APP);
	assert_int_equal(w.s[0].ts_ns, 1000000);
	assert_int_equal(w.s[0].allocated_b, -1);
	assert_int_equal(w.s[0].reserved_b, 100 * MB + MB / 2);
	assert_int_equal(w.s[1].comp, MEMC_PTA);
	assert_int_equal(w.s[1].allocated_b, 10 * MB + MB / 4);
	assert_int_equal(w.s[1].reserved_b, 20 * MB);
}

static void memrec_counts_short_rows(void **state)
{
	char text[512];
	struct seen w;
	struct memrec_info in;
	struct err e = ERR_INIT;

	(void)state;
	snprintf(text, sizeof(text), "%sGE,1003.000,1,2\n", header);
	assert_int_equal(read_text(text, &w, &in, &e), 0);
	assert_int_equal(in.bad, 1);
	assert_int_equal(in.first_bad_line, 2);
	assert_string_equal(in.first_bad, "row has 4 fields, header has 7");
	assert_int_equal(w.n, 0);
}

static void memrec_rejects_a_file_without_reserved(void **state)
{
	struct seen w;
	struct memrec_info in;
	struct err e = ERR_INIT;

	(void)state;
	assert_int_equal(
	    read_text("Component,Timestamp(us)\nAPP,1\n", &w, &in, &e), -1);
	assert_int_equal(e.code, ERR_INPUT);
	assert_non_null(strstr(e.msg, "m.csv:1: missing required column "
	                              "'Total Reserved(MB)'"));
}

static void memrec_survives_hostile_input(void **state)
{
	static const char binary[] = "\x01\x02\xff\xfe\x00garbage";
	char text[512];
	struct seen w;
	struct memrec_info in;
	struct err e = ERR_INIT;

	(void)state;
	snprintf(text, sizeof(text), "%sAPP,\"1000,,1,,,NPU:0\n", header);
	assert_int_equal(read_text(text, &w, &in, &e), -1);
	assert_int_equal(e.code, ERR_INPUT);
	err_clear(&e);
	assert_int_equal(read_text("", &w, &in, &e), -1);
	assert_non_null(strstr(e.msg, "empty file"));
	err_clear(&e);
	memset(&w, 0, sizeof(w));
	assert_int_equal(memrec_read_mem("b.csv", binary, sizeof(binary) - 1,
	                                 collect, &w, &in, &e),
	                 -1);
	assert_int_equal(w.n, 0);
	err_clear(&e);
	/* a negative size, a huge one, an exponent: skipped, not fatal */
	snprintf(text, sizeof(text),
	         "%sPTA,1,-5,1,,,\nPTA,1,1,99999999999999999999,,,\n"
	         "PTA,1,1e9,1,,,\nPTA,-1,1,1,,,\n",
	         header);
	assert_int_equal(read_text(text, &w, &in, &e), 0);
	assert_int_equal(in.bad, 4);
	assert_int_equal(w.n, 0);
}

static void read_sample(const char *rel, struct seen *w, struct memrec_info *in)
{
	char path[1024];
	struct err e = ERR_INIT;

	snprintf(path, sizeof(path), "%s/%s", unit_samples_dir(), rel);
	memset(w, 0, sizeof(*w));
	w->alloc = w->reserved = w->device = -1;
	if (memrec_read(path, collect, w, in, &e))
		fail_msg("%s", e.msg);
}

/* Peaks worked out from the files with Python's csv and Decimal. */
static void memrec_reads_the_real_samples(void **state)
{
	struct seen w;
	struct memrec_info in;

	(void)state;
	read_sample("msinsight-alexnet-2rank-2024/level0/rank0_ascend_pt/"
	            "ASCEND_PROFILER_OUTPUT/memory_record.csv.gz",
	            &w, &in);
	assert_int_equal(in.rows, 904);
	assert_int_equal(in.samples, 904);
	assert_int_equal(in.bad, 0);
	assert_int_equal(w.alloc, 1233593856LL);    /* 1176.447... MB */
	assert_int_equal(w.reserved, 1669988352LL); /* 1592.625 MB */
	assert_int_equal(w.device, 2218885120LL);   /* 2116.09375 MB */
	assert_int_equal(w.s[0].ts_ns, 1727592872266510240LL);

	read_sample("msinsight-gpt3-testdata-2023/test_rank_0/"
	            "ASCEND_PROFILER_OUTPUT/memory_record.csv",
	            &w, &in);
	assert_int_equal(in.samples, 11);
	assert_int_equal(w.alloc, 4823308800LL); /* 4599.865... MB */
	assert_int_equal(w.reserved, 8664 * MB); /* PTA */
	assert_int_equal(w.device, 11224 * MB + 3 * MB / 8); /* APP */
}

/* ---- the analysis ----------------------------------------------------- */

struct fx {
	struct result r;
	struct rules ru;
	char dir[512], path[600];
};

static int fx_setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	struct err e = ERR_INIT;
	static const struct segment segs[] = {
	    {STAGE_DIT, 1000000, 2000000, 1, 0, STEP_NONE},
	    {STAGE_VAE, 3000000, 4000000, 1, 0, STEP_NONE}};

	if (!f || rules_load_builtin(&f->ru, &e))
		return -1;
	result_init(&f->r);
	f->r.ranks = xcalloc(1, sizeof(*f->r.ranks));
	f->r.nranks = 1;
	f->r.ranks[0].analysed = 1;
	f->r.segs = xmalloc(sizeof(segs));
	memcpy(f->r.segs, segs, sizeof(segs));
	f->r.nsegs = 2;
	unit_tmpdir(f->dir, sizeof(f->dir));
	snprintf(f->path, sizeof(f->path), "%s/memory_record.csv", f->dir);
	*state = f;
	return 0;
}

static int fx_teardown(void **state)
{
	struct fx *f = *state;

	result_release(&f->r);
	rules_release(&f->ru);
	unit_rmtree(f->dir);
	free(f);
	return 0;
}

#define F(fn) cmocka_unit_test_setup_teardown(fn, fx_setup, fx_teardown)

/* DiT at 1500 us, VAE at 3500 us (28000 MB reserved by the process), one
 * sample after the timeline. */
static void fx_write(struct fx *f)
{
	char text[1024];

	snprintf(text, sizeof(text),
	         "%sPTA,1500.000,100.0,200.0,,,NPU:0\n"
	         "APP,1500.000,,1000.0,,,NPU:0\n"
	         "PTA,3500.000,150.0,250.0,,,NPU:0\n"
	         "APP,3500.000,,28000.0,,,NPU:0\n"
	         "PTA,5000.000,900.0,950.0,,,NPU:0\n",
	         header);
	unit_write(f->path, text, strlen(text));
}

static const struct verdict *headroom(const struct result *r)
{
	size_t i;

	for (i = 0; i < r->nverdicts; i++)
		if (!strcmp(r->verdicts[i].id, "memory_headroom"))
			return &r->verdicts[i];
	fail_msg("no memory_headroom verdict");
	return NULL;
}

static void evaluate(struct fx *f)
{
	memory_summarise(&f->ru, &f->r);
	verdicts_evaluate(&f->ru, &f->r);
}

static void memory_maps_samples_onto_stages(void **state)
{
	struct fx *f = *state;
	const struct rank_memory *m = &f->r.ranks[0].mem;

	fx_write(f);
	memory_read_rank(f->path, &f->r);
	assert_int_equal(m->read, 1);
	assert_int_equal(m->samples, 5);
	assert_int_equal(m->outside, 1);
	assert_int_equal(m->stage[STAGE_DIT].samples, 2);
	assert_int_equal(m->stage[STAGE_DIT].allocated_b, 100 * MB);
	assert_int_equal(m->stage[STAGE_DIT].reserved_b, 200 * MB);
	assert_int_equal(m->stage[STAGE_DIT].device_b, 1000 * MB);
	assert_int_equal(m->stage[STAGE_VAE].reserved_b, 250 * MB);
	assert_int_equal(m->stage[STAGE_VAE].device_b, 28000 * MB);
	assert_int_equal(m->stage[STAGE_TEXT_ENCODER].samples, 0);
	assert_int_equal(m->stage[STAGE_TEXT_ENCODER].reserved_b, -1);
	assert_int_equal(m->all.allocated_b, 900 * MB);
	assert_int_equal(m->all.reserved_b, 950 * MB);
	assert_int_equal(f->r.nwarnings, 0);
}

static void memory_headroom_fires_near_the_cards_memory(void **state)
{
	struct fx *f = *state;
	const struct verdict *v;

	fx_write(f);
	memory_read_rank(f->path, &f->r);
	f->r.ranks[0].chip = xstrdup("Ascend910B4");
	evaluate(f);
	assert_true(f->r.memory.known);
	assert_int_equal(f->r.memory.peak_b, 28000 * MB);
	assert_string_equal(f->r.memory.chip, "Ascend910B4");
	assert_string_equal(f->r.memory.card_source, "chip");
	assert_true(f->r.memory.card_gb == 32.0);
	v = headroom(&f->r);
	assert_true(v->applicable);
	/* 28000 MB of 32768 MB */
	assert_true(v->value == 100.0 * 28000.0 / 32768.0);
	assert_true(v->fired);
	assert_string_equal(v->docs[0], "cpu_offload");
	assert_string_equal(v->docs[1], "share_memory");
}

static void memory_headroom_passes_on_a_larger_card(void **state)
{
	struct fx *f = *state;
	const struct verdict *v;

	fx_write(f);
	memory_read_rank(f->path, &f->r);
	f->r.ranks[0].chip = xstrdup("Ascend910B4");
	f->ru.device_memory_gb = 64; /* --device-memory wins over the chip */
	evaluate(f);
	assert_string_equal(f->r.memory.card_source, "option");
	v = headroom(&f->r);
	assert_true(v->applicable);
	assert_true(v->value == 100.0 * 28000.0 / 65536.0);
	assert_false(v->fired);
}

static void memory_headroom_needs_the_cards_memory(void **state)
{
	struct fx *f = *state;
	const struct verdict *v;

	fx_write(f);
	memory_read_rank(f->path, &f->r);
	f->r.ranks[0].chip = xstrdup("Ascend910B"); /* B1..B4: unknown */
	evaluate(f);
	assert_true(f->r.memory.known);
	assert_true(f->r.memory.card_gb == 0);
	assert_null(f->r.memory.card_source);
	v = headroom(&f->r);
	assert_false(v->applicable);
	assert_false(v->fired);
	assert_string_equal(v->na_code, "card_unknown");
}

static void memory_headroom_needs_memory_data(void **state)
{
	struct fx *f = *state;
	const struct verdict *v;

	f->ru.device_memory_gb = 64;
	evaluate(f);
	assert_false(f->r.memory.known);
	v = headroom(&f->r);
	assert_false(v->applicable);
	assert_string_equal(v->na_code, "memory_none");
}

static void memory_bad_file_is_a_warning(void **state)
{
	struct fx *f = *state;
	char text[512];

	snprintf(text, sizeof(text), "%sPTA,1500,1,zz,,,NPU:0\n", header);
	unit_write(f->path, text, strlen(text));
	memory_read_rank(f->path, &f->r);
	assert_int_equal(f->r.nwarnings, 1);
	assert_string_equal(f->r.warnings[0].code, "memory_bad_rows");
	assert_int_equal(f->r.warnings[0].line, 2);
	assert_non_null(strstr(f->r.warnings[0].message,
	                       "1 of 1 memory rows skipped; the first: column "
	                       "4 'Total Reserved(MB)': not a size in MB: "
	                       "'zz'"));
	unit_write(f->path, "Timestamp(us)\n1\n", 16);
	memory_read_rank(f->path, &f->r);
	assert_int_equal(f->r.nwarnings, 2);
	assert_string_equal(f->r.warnings[1].code, "memory_unreadable");
	assert_int_equal(f->r.ranks[0].mem.read, 0);
}

/* The db export's MEMORY_RECORD and NPU_INFO (peaks worked out with
 * Python's sqlite3): its samples are all outside the hand-made timeline. */
static void memory_reads_the_db_export(void **state)
{
	struct fx *f = *state;
	struct db *db = NULL;
	struct err e = ERR_INIT;
	char path[1024];
	const struct rank_memory *m = &f->r.ranks[0].mem;

	snprintf(path, sizeof(path),
	         "%s/msinsight-alexnet-2rank-2025-db/level0/rank0_ascend_pt/"
	         "ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db",
	         unit_samples_dir());
	if (db_open(path, &db, &e))
		fail_msg("%s", e.msg);
	assert_string_equal(db_about(db)->chip, "Ascend910B");
	memory_read_db(db, &f->r);
	db_close(db);
	assert_int_equal(m->read, 1);
	/* MEMORY_RECORD's 990 rows and NPU_MEM's 13 "app" rows */
	assert_int_equal(m->samples, 990 + 13);
	assert_int_equal(m->bad, 0);
	assert_int_equal(m->outside, 990 + 13);
	assert_int_equal(m->all.allocated_b, 1245819904LL);
	assert_int_equal(m->all.reserved_b, 1600913408LL);
	/* the device figure from NPU_MEM (max(hbm) of the app rows) */
	assert_int_equal(m->all.device_b, 2212081664LL);
}

/* ---- the chip table --------------------------------------------------- */

static void rules_chip_table_is_exact(void **state)
{
	struct fx *f = *state;

	assert_true(rules_chip_memory(&f->ru, "Ascend910B4") == 32);
	assert_true(rules_chip_memory(&f->ru, "ascend910b4") == 32);
	assert_true(rules_chip_memory(&f->ru, "Ascend910B4-1") == 64);
	assert_true(rules_chip_memory(&f->ru, "Ascend910B2C") == 64);
	assert_true(rules_chip_memory(&f->ru, "Ascend910_9391") == 64);
	assert_true(rules_chip_memory(&f->ru, "Ascend910B") == 0);
	assert_true(rules_chip_memory(&f->ru, NULL) == 0);
}

static void rules_user_chips_win(void **state)
{
	static const char text[] =
	    "{\"extends\": \"builtin\", \"chips\": [{\"match\": "
	    "\"Ascend910B*\", \"memory_gb\": 48}]}";
	struct rules ru;
	struct err e = ERR_INIT;

	(void)state;
	assert_int_equal(rules_load_text(&ru, "u.json", text, strlen(text), &e),
	                 0);
	assert_true(rules_chip_memory(&ru, "Ascend910B4") == 48);
	assert_true(rules_chip_memory(&ru, "Ascend910_9391") == 64);
	rules_release(&ru);
}

static void rules_bad_chips_are_errors(void **state)
{
	static const char *const bad[][2] = {
	    {"{\"extends\": \"builtin\", \"chips\": {}}",
	     "u.json: 'chips': expected an array"},
	    {"{\"extends\": \"builtin\", \"chips\": [{\"memory_gb\": 1}]}",
	     "u.json: 'chips[0].match': expected a non-empty string"},
	    {"{\"extends\": \"builtin\", \"chips\": [{\"match\": \"A\", "
	     "\"memory_gb\": 0}]}",
	     "u.json: 'chips[0].memory_gb': expected a number of GB above 0, "
	     "at most 4096"}};
	struct rules ru;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_LEN(bad); i++) {
		struct err e = ERR_INIT;
		assert_int_equal(rules_load_text(&ru, "u.json", bad[i][0],
		                                 strlen(bad[i][0]), &e),
		                 -1);
		assert_string_equal(e.msg, bad[i][1]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(memrec_mb_to_bytes_is_exact),
	    cmocka_unit_test(memrec_skips_bad_rows_and_names_the_first),
	    cmocka_unit_test(memrec_counts_short_rows),
	    cmocka_unit_test(memrec_rejects_a_file_without_reserved),
	    cmocka_unit_test(memrec_survives_hostile_input),
	    cmocka_unit_test(memrec_reads_the_real_samples),
	    F(memory_maps_samples_onto_stages),
	    F(memory_headroom_fires_near_the_cards_memory),
	    F(memory_headroom_passes_on_a_larger_card),
	    F(memory_headroom_needs_the_cards_memory),
	    F(memory_headroom_needs_memory_data),
	    F(memory_bad_file_is_a_warning),
	    F(memory_reads_the_db_export),
	    F(rules_chip_table_is_exact),
	    F(rules_user_chips_win),
	    F(rules_bad_chips_are_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
