/* Unit tests on the real profiler samples in tests/data/samples (see
 * PROVENANCE.md there): each file is read with kernels_read and analysed,
 * and the figures are compared with ones computed independently.
 *
 * Every expected figure below comes from
 *     python3 tests/data/samples/expected.py
 * which reads the CSVs with Python's csv module (quoted shape fields
 * contain commas, so awk -F, would miscount), converts times with
 * decimal.Decimal (ns, half up below 1 ns, per kernel) and classifies with
 * fnmatch over assets/rules.json. Rows whose field count differs from the
 * header are the skipped ones. As a cross-check of the totals:
 *     python3 -c 'import csv,sys; from decimal import Decimal as D;
 *       r=list(csv.reader(open(sys.argv[1],newline="")));
 *       i=r[0].index("Duration(us)");
 *       print(sum(D(x[i]) for x in r[1:] if len(x)==len(r[0])))' FILE
 * (equal to total_ns / 1000 wherever Duration has at most 3 decimals). */
#include "unit.h"

#include "analysis/analyse.h"
#include "analysis/result.h"
#include "analysis/rules.h"
#include "input/kernels.h"
#include "input/profile.h"
#include "util/fileio.h"

#define SAMPLES SDPERF_TEST_DATA "/samples/"

struct cat_figure {
	uint64_t count;
	int64_t ns;
};

struct sample {
	const char *path; /* under tests/data/samples */
	const char *variant;
	int crlf, start_tab;
	int64_t device_id;
	uint64_t lines, rows, skipped;
	int64_t total_ns;
	struct cat_figure cat[CAT_COUNT]; /* FA MatMul Conv Vector Comm Other */
	int32_t step; /* the one Step Id of the file, or STEP_NONE */
};

/* ---- fixture: the sample read and analysed ----------------------------- */

struct run {
	struct kernel_table kt;
	struct kernels_info info;
	struct rules ru;
	struct result r;
	struct err e;
	int rc;
};

static int run_setup(void **state)
{
	struct run *x = calloc(1, sizeof(*x));
	struct err e = ERR_INIT;

	if (!x)
		return -1;
	kernel_table_init(&x->kt);
	result_init(&x->r);
	if (rules_load_builtin(&x->ru, &e)) {
		free(x);
		return -1;
	}
	*state = x;
	return 0;
}

static int run_teardown(void **state)
{
	struct run *x = *state;

	result_release(&x->r);
	rules_release(&x->ru);
	kernel_table_release(&x->kt);
	kernels_info_release(&x->info);
	free(x);
	return 0;
}

#define T(f) cmocka_unit_test_setup_teardown(f, run_setup, run_teardown)

static void read_sample(struct run *x, const char *rel)
{
	struct kernels_opts o = {0, 0, 1};
	struct err e = ERR_INIT;
	char path[1024];

	unit_join(path, sizeof(path), SDPERF_TEST_DATA "/samples", rel);
	x->e = e;
	x->rc = kernels_read(path, &o, &x->kt, &x->info, &x->e);
	if (x->rc)
		fail_msg("%s", x->e.msg);
	assert_int_equal(x->info.size, fileio_size(path));
}

/* Reads, checks the reader's figures, analyses, checks the categories. */
static void check(struct run *x, const struct sample *s)
{
	int64_t sum = 0;
	size_t i;
	int c, st;
	struct cat_figure got[CAT_COUNT];

	read_sample(x, s->path);
	assert_int_equal(x->info.lines, s->lines);
	assert_int_equal(x->info.rows, s->rows);
	assert_int_equal(x->info.skipped, s->skipped);
	assert_int_equal(x->kt.n, s->rows - s->skipped);
	assert_int_equal(x->info.crlf, s->crlf);
	assert_int_equal(x->info.bom, 0);
	assert_int_equal(x->info.start_tab, s->start_tab);
	assert_int_equal(x->info.device_id, s->device_id);
	if (s->variant)
		assert_string_equal(x->info.variant, s->variant);
	for (i = 0; i < x->kt.n; i++)
		sum += x->kt.v[i].dur_ns;
	assert_int_equal(sum, s->total_ns);

	assert_int_equal(analyse(&x->kt, &x->ru, &x->r, NULL, &x->e), 0);
	assert_int_equal(x->r.kernels, x->kt.n);
	memset(got, 0, sizeof(got));
	for (st = 0; st < STAGE_COUNT; st++)
		for (c = 0; c < CAT_COUNT; c++) {
			got[c].count += x->r.stages[st].cat[c].count;
			got[c].ns += x->r.stages[st].cat[c].time_ns;
		}
	for (c = 0; c < CAT_COUNT; c++)
		if (got[c].count != s->cat[c].count ||
		    got[c].ns != s->cat[c].ns)
			fail_msg(
			    "%s: %s: %llu kernels, %lld ns; expected %llu, "
			    "%lld",
			    s->path, category_names[c],
			    (unsigned long long)got[c].count,
			    (long long)got[c].ns,
			    (unsigned long long)s->cat[c].count,
			    (long long)s->cat[c].ns);
	sum = 0;
	for (st = 0; st < STAGE_COUNT; st++)
		sum += x->r.stages[st].kernel_ns;
	assert_int_equal(sum, s->total_ns);
	if (s->step == STEP_NONE) {
		assert_int_equal(x->r.nsteps, 0);
	} else {
		assert_int_equal(x->r.nsteps, 1);
		assert_int_equal(x->r.steps[0], s->step);
	}
}

/* Distinct Step Id values: `tail -n +2 FILE | cut -d, -f1 | sort -u` (Step
 * Id is the first column wherever it exists, never quoted). Lines:
 * physical lines, `wc -l` plus one when the last line has no newline. */

/* Level0 2024: Type N/A everywhere (typed from Name), HCCL core on the
 * 4 allReduce rows, CRLF, Start Time with a trailing TAB. */
static const struct sample alexnet_level0 = {
    "msinsight-alexnet-2rank-2024/level0/rank0_ascend_pt/"
    "ASCEND_PROFILER_OUTPUT/kernel_details.csv",
    "level0, 2024-2025 header (Step Id)",
    1,
    1,
    -1,
    350,
    349,
    0,
    45446127,
    {{0, 0},
     {13, 781856},
     {14, 1420495},
     {314, 7481441},
     {4, 35563303},
     {4, 199032}},
    50,
};

/* Level1 of the same model (another capture): Types given, PMU columns
 * without aic_/aiv_ prefix, quoted shapes. */
static const struct sample alexnet_level1 = {
    "msinsight-alexnet-2rank-2024/level1/rank0_ascend_pt/"
    "ASCEND_PROFILER_OUTPUT/kernel_details.csv",
    "level1, 2024-2025 header (Step Id), PMU columns",
    1,
    1,
    -1,
    350,
    349,
    0,
    80749400,
    {{0, 0},
     {13, 777445},
     {14, 1421598},
     {314, 7553630},
     {4, 70787345},
     {4, 209382}},
    50,
};

/* 2026 header (Device_id, Block Num), graph-mode names, device 6. */
static const struct sample paddle = {
    "paddleocrvl-910b-decode-2026/kernel_details.csv",
    "level1, 2026-02+ header (Device_id, Block Num), PMU columns",
    1,
    1,
    6,
    50,
    49,
    0,
    171460,
    {{1, 29040}, {6, 45680}, {0, 0}, {41, 92600}, {0, 0}, {1, 4140}},
    0,
};

/* Start Time quoted with the TAB inside: "1736413971558972.912\t"; LF;
 * no newline after the last row. */
static const struct sample compute_advice = {
    "mstt-test-resources/compute_advice_data/kernel_details.csv",
    "level1, 2024-2025 header (Step Id), PMU columns",
    0,
    1,
    -1,
    30,
    29,
    0,
    10061159,
    {{9, 5072220}, {12, 4872937}, {0, 0}, {8, 116002}, {0, 0}, {0, 0}},
    19,
};

/* GPT-style training step: hcom_* on HCCL, NonZero, ApplyAdamW (Other). */
static const struct sample advisor = {
    "mstt-test-resources/advisor_backend_compute_advice/kernel_details.csv",
    "level1, 2024-2025 header (Step Id), PMU columns",
    0,
    0,
    -1,
    592,
    591,
    0,
    396807040,
    {{0, 0},
     {13, 14252720},
     {0, 0},
     {442, 19253620},
     {19, 346398740},
     {117, 16901960}},
    1,
};

/* Hand-trimmed upstream: line 17 has 31 fields against 32. Its PMU columns
 * are bandwidths, none named *_ratio (variant checked separately). */
static const struct sample gpt3 = {
    "msinsight-gpt3-testdata-2023/test_rank_0/ASCEND_PROFILER_OUTPUT/"
    "kernel_details.csv",
    NULL,
    0,
    0,
    -1,
    22,
    21,
    1,
    37369125,
    {{3, 21112851}, {0, 0}, {0, 0}, {6, 651392}, {4, 10238538}, {7, 5366344}},
    2,
};

/* Old Level0 header without Step Id; 0-4 decimals; Type N/A. The sum in
 * microseconds, `awk -F, 'NR>1{s+=$5} END{printf "%.4f", s}'`, is
 * 1000.8498; per kernel, 932.0498 us rounds to 932050 ns. */
static const struct sample resource_test = {
    "mstt-test-resources/resource/test.csv",
    "level0, 2023 header (no Step Id)",
    0,
    0,
    -1,
    9,
    8,
    0,
    1000850,
    {{0, 0}, {0, 0}, {1, 24260}, {7, 976590}, {0, 0}, {0, 0}},
    STEP_NONE,
};

static void samples_alexnet_level0(void **state)
{
	check(*state, &alexnet_level0);
}

static void samples_alexnet_level1(void **state)
{
	check(*state, &alexnet_level1);
}

static void samples_paddleocrvl_2026(void **state)
{
	check(*state, &paddle);
}

static void samples_compute_advice_quoted_tab(void **state)
{
	struct run *x = *state;

	read_sample(x, compute_advice.path);
	/* the first row, before analyse() sorts: "1736413971558972.912\t",
	 * 185.504 */
	assert_int_equal(x->kt.v[0].start_ns, INT64_C(1736413971558972912));
	assert_int_equal(x->kt.v[0].dur_ns, 185504);
	kernel_table_release(&x->kt);
	kernels_info_release(&x->info);
	check(x, &compute_advice);
	/* after sorting, the earliest kernel (python: sorted by Decimal of
	 * Start Time): a FlashAttentionScore at 1736413971411629.128, 410.188
	 */
	assert_int_equal(x->kt.v[0].start_ns, INT64_C(1736413971411629128));
	assert_int_equal(x->kt.v[0].dur_ns, 410188);
	assert_string_equal(kernel_key_type(&x->kt, x->kt.v[0].key),
	                    "FlashAttentionScore");
}

static void samples_advisor_backend(void **state)
{
	check(*state, &advisor);
}

static void samples_gpt3_skips_the_short_row(void **state)
{
	struct run *x = *state;

	check(x, &gpt3);
	assert_int_equal(x->info.nwarn, 1);
	assert_int_equal(x->info.warn[0].line, 17);
	assert_string_equal(x->info.warn[0].reason,
	                    "row has 31 fields, header has 32");
}

/* Regression (was a bug: kernels.c header_field recognises PMU columns only by
 * a "_ratio" in their name; this Level1 file's PMU columns are
 * aicore_time(us), aic_total_cycles, aic_l0a_read_bw(GB/s), ...). */
static void samples_gpt3_variant_names_its_pmu_columns(void **state)
{
	struct run *x = *state;

	read_sample(x, gpt3.path);
	assert_string_equal(x->info.variant,
	                    "level1, 2024-2025 header (Step Id), PMU columns");
}

static void samples_resource_test_old_level0(void **state)
{
	struct run *x = *state;

	check(x, &resource_test);
	assert_int_equal(x->info.na_type, 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(samples_alexnet_level0),
	    T(samples_alexnet_level1),
	    T(samples_paddleocrvl_2026),
	    T(samples_compute_advice_quoted_tab),
	    T(samples_advisor_backend),
	    T(samples_gpt3_skips_the_short_row),
	    T(samples_gpt3_variant_names_its_pmu_columns),
	    T(samples_resource_test_old_level0),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
