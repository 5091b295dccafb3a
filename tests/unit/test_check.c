/* Unit tests of analysis/check.c: the checks of sdperf check. Values of the
 * video example were read with python3's json module; the regression
 * percentages were computed by hand: (812.3 - 760.1) / 760.1 = +6.87%,
 * (798.105 - 760.1) / 760.1 = +5.00%. */
#include "unit.h"

#include "analysis/check.h"
#include "input/snapshot.h"
#include "util/fileio.h"
#include "util/strbuf.h"

#define VIDEO                                                                  \
	SDPERF_TEST_DATA "/../../examples/video-dit-4card/report/report.json"

struct ck {
	struct strbuf text;
	struct snapshot s;
	struct check_result r;
	struct err e;
	int rc;
};

static int ck_setup(void **state)
{
	struct ck *k = calloc(1, sizeof(*k));
	struct err e = ERR_INIT;

	if (!k)
		return -1;
	strbuf_init(&k->text);
	if (fileio_read_small(VIDEO, 64u << 20, &k->text, &e) ||
	    snapshot_from_json("report.json", k->text.buf, k->text.len, &k->s,
	                       &e)) {
		fprintf(stderr, "%s\n", e.msg);
		return -1;
	}
	*state = k;
	return 0;
}

static int ck_teardown(void **state)
{
	struct ck *k = *state;

	check_result_release(&k->r);
	snapshot_release(&k->s);
	strbuf_release(&k->text);
	free(k);
	return 0;
}

#define T(f) cmocka_unit_test_setup_teardown(f, ck_setup, ck_teardown)

/* Runs one --max on the video report, verdicts off. */
static void run_max(struct ck *k, const char *arg)
{
	const char *max[1] = {arg};
	struct check_opts o = {max, 1, 0, NULL, 0, NULL, 0};
	struct err e = ERR_INIT;

	check_result_release(&k->r);
	k->e = e;
	k->rc = check_run("report.json", k->text.buf, k->text.len, &k->s, &o,
	                  &k->r, &k->e);
}

static void passes(struct ck *k, const char *arg)
{
	run_max(k, arg);
	if (k->rc)
		fail_msg("%s: %s", arg, k->e.msg);
	assert_int_equal(k->r.nchecks, 1);
	if (k->r.nfailures)
		fail_msg("%s: failed: %s", arg, k->r.failures[0]);
}

static void fails(struct ck *k, const char *arg, const char *line)
{
	run_max(k, arg);
	if (k->rc)
		fail_msg("%s: %s", arg, k->e.msg);
	assert_int_equal(k->r.nfailures, 1);
	assert_string_equal(k->r.failures[0], line);
}

static void usage_error(struct ck *k, const char *arg, const char *msg)
{
	run_max(k, arg);
	assert_int_equal(k->rc, -1);
	assert_int_equal(k->e.code, ERR_USAGE);
	assert_string_equal(k->e.msg, msg);
}

/* ---- --max ----------------------------------------------------------------
 */

static void max_on_full_paths_passes_at_the_limit(void **state)
{
	struct ck *k = *state;

	passes(k, "stages.dit.categories.FA.share_pct=6.156");
	fails(k, "stages.dit.categories.FA.share_pct=6.155",
	      "stages.dit.categories.FA.share_pct = 6.156 > 6.155 (--max)");
	passes(k, "ranks.2.dit_compute_us=720289.22");
	fails(k, "ranks.2.dit_compute_us=720289.2",
	      "ranks.2.dit_compute_us = 720289.22 > 720289.2 (--max)");
	/* the last verdict is memory_headroom in rules order and in gain
	 * order alike (fired ones come first, passing ones in rules order) */
	passes(k, "verdicts.8.threshold_pct=85");
	fails(k, "verdicts.8.threshold_pct=84.9",
	      "verdicts.8.threshold_pct = 85 > 84.9 (--max)");
	/* a key with a dot in it, a key in another case */
	usage_error(k, "ranks.0.files.kernel_details.csv=1",
	            "--max 'ranks.0.files.kernel_details.csv=1': not a "
	            "number: a string");
	passes(k, "STAGES.dit.Kernels=2456");
}

static void max_on_shorthands(void **state)
{
	struct ck *k = *state;

	passes(k, "dit.fa.share=0.06156");
	fails(k, "DIT.FA.Share=0.0615",
	      "DIT.FA.Share = 0.06156 > 0.0615 (--max)");
	/* 4743446.798 us / 1000 is one ulp above 4743.446798 */
	passes(k, "dit.wall_ms=4743.446798");
	fails(k, "dit.wall_ms=4743.4",
	      "dit.wall_ms = 4743.446798 > 4743.4 (--max)");
	passes(k, "vae.kernel_ms=9264.23226");
	fails(k, "vae.kernel_ms=9000",
	      "vae.kernel_ms = 9264.23226 > 9000 (--max)");
	passes(k, "dit.exposed_comm.share=0.47987");
	fails(k, "dit.exposed_comm.share=0.4",
	      "dit.exposed_comm.share = 0.47987 > 0.4 (--max)");
	passes(k, "dit.matmul.share=0.39247");
}

static void max_with_unknown_names_is_a_usage_error(void **state)
{
	struct ck *k = *state;

	usage_error(k, "stages.dit.categories.XX.share_pct=1",
	            "--max 'stages.dit.categories.XX.share_pct=1': no key 'XX' "
	            "in stages.dit.categories; names there: FA, MatMul, Conv, "
	            "Vector, Comm, Other");
	usage_error(k, "ranks.9.id=1",
	            "--max 'ranks.9.id=1': no element '9' in ranks (indexes 0 "
	            "to 3)");
	run_max(k, "nosuch=1");
	assert_int_equal(k->e.code, ERR_USAGE);
	assert_non_null(strstr(k->e.msg, "no key 'nosuch'; names there: "
	                                 "schema_version, tool, profile,"));
	run_max(k, "dit.foo.share=1");
	assert_int_equal(k->e.code, ERR_USAGE);
	assert_non_null(strstr(k->e.msg, "unknown metric for stage dit; "
	                                 "shorthands: dit.wall_ms"));
	usage_error(k, "dit.wall_ms=abc",
	            "--max 'dit.wall_ms=abc': VALUE is not a number");
	usage_error(k, "dit.wall_ms",
	            "--max 'dit.wall_ms': expected NAME=VALUE");
	run_max(k, "stages.dit=1");
	assert_int_equal(k->e.code, ERR_USAGE);
	assert_non_null(strstr(k->e.msg, "not a number: an object"));
	assert_non_null(strstr(k->e.msg, "names there: kernels, segments"));
	usage_error(k, "ranks.0.communication.steps.x=1",
	            "--max 'ranks.0.communication.steps.x=1': no key 'x' in "
	            "ranks.0.communication.steps (not an object)");
}

/* ---- verdicts -------------------------------------------------------------
 */

static void fired_verdicts_fail_unless_turned_off(void **state)
{
	struct ck *k = *state;
	struct check_opts o = {NULL, 0, 1, NULL, 0, NULL, 0};

	assert_int_equal(check_run("report.json", k->text.buf, k->text.len,
	                           &k->s, &o, &k->r, &k->e),
	                 0);
	assert_int_equal(k->r.nchecks, 9); /* nine applicable verdicts */
	assert_int_equal(k->r.nfailures, 3);
	/* in the report's order: by expected gain */
	assert_string_equal(k->r.failures[0],
	                    "verdict vae_parallel fired: vae share of the "
	                    "end-to-end device time (the stages' wall time) "
	                    "63.5% > 30% (lead: rank 0)");
	assert_string_equal(k->r.failures[1],
	                    "verdict comm_overlap fired: exposed communication "
	                    "share of dit wall time 53.6% > 30% (worst: rank "
	                    "1)");
	assert_string_equal(k->r.failures[2],
	                    "verdict rank_imbalance fired: slowest rank's dit "
	                    "compute time above the median rank's 24.0% > 10% "
	                    "(slowest: rank 2)");
	check_result_release(&k->r);
	o.verdicts = 0; /* --no-verdicts */
	assert_int_equal(check_run("report.json", k->text.buf, k->text.len,
	                           &k->s, &o, &k->r, &k->e),
	                 0);
	assert_int_equal(k->r.nfailures, 0);
	assert_int_equal(k->r.nchecks, 0);
}

/* ---- regression -----------------------------------------------------------
 */

/* A minimal report: only the DiT has kernels. */
static char *report(unsigned steps, const char *dit_wall_us)
{
	struct strbuf sb = STRBUF_INIT;
	static const char *const stages[] = {"dit", "vae", "text_encoder",
	                                     "other"};
	size_t i;

	strbuf_addf(&sb,
	            "{\"schema_version\": 1, \"tool\": {\"name\": \"sdperf\", "
	            "\"version\": \"0.1.0\"}, \"profile\": {\"kernels\": 10, "
	            "\"steps\": {\"count\": %u}}, \"stages\": {",
	            steps);
	for (i = 0; i < 4; i++)
		strbuf_addf(
		    &sb,
		    "%s\"%s\": {\"kernels\": %d, \"kernel_time_us\": "
		    "1.000, \"wall_time_us\": %s, \"categories\": {"
		    "\"FA\": {\"time_us\": 0}, \"MatMul\": {\"time_us\": "
		    "0}, \"Conv\": {\"time_us\": 0}, \"Vector\": "
		    "{\"time_us\": 0}, \"Comm\": {\"time_us\": 0}, "
		    "\"Other\": {\"time_us\": 1.000}}, "
		    "\"communication\": {\"kernel_time_us\": 0, "
		    "\"exposed_us\": 0}, \"top_kernels\": []}",
		    i ? ", " : "", stages[i], i ? 0 : 10,
		    i ? "0" : dit_wall_us);
	strbuf_adds(&sb, "}, \"verdicts\": [], \"ranks\": []}");
	return strbuf_detach(&sb, NULL);
}

/* Checks new (steps, wall) against base with --max-regression 5. */
static void regression(struct check_result *r, unsigned bsteps,
                       const char *bwall, unsigned nsteps, const char *nwall)
{
	char *bt = report(bsteps, bwall), *nt = report(nsteps, nwall);
	struct snapshot b, n;
	struct err e = ERR_INIT;
	struct check_opts o = {NULL, 0, 1, &b, 5.0, NULL, 0};

	if (snapshot_from_json("base.json", bt, strlen(bt), &b, &e) ||
	    snapshot_from_json("new.json", nt, strlen(nt), &n, &e) ||
	    check_run("new.json", nt, strlen(nt), &n, &o, r, &e))
		fail_msg("%s", e.msg);
	assert_int_equal(r->nchecks, 1); /* the DiT: the only common stage */
	snapshot_release(&b);
	snapshot_release(&n);
	free(bt);
	free(nt);
}

static void regression_over_the_limit_fails(void **state)
{
	struct check_result r;

	(void)state;
	regression(&r, 2, "1520200.000", 2, "1624600.000");
	assert_int_equal(r.nfailures, 1);
	assert_string_equal(r.failures[0],
	                    "dit wall time per step 812.300 ms vs 760.100 ms "
	                    "in the baseline: +6.9% > 5% (--max-regression)");
	check_result_release(&r);
	/* exactly +5.0%: passes */
	regression(&r, 2, "1520200.000", 2, "1596210.000");
	assert_int_equal(r.nfailures, 0);
	check_result_release(&r);
	/* faster: passes */
	regression(&r, 2, "1520200.000", 2, "1000000.000");
	assert_int_equal(r.nfailures, 0);
	check_result_release(&r);
	/* no steps on one side: totals */
	regression(&r, 0, "760100.000", 2, "812300.000");
	assert_int_equal(r.nfailures, 1);
	assert_string_equal(r.failures[0],
	                    "dit wall time 812.300 ms vs 760.100 ms in the "
	                    "baseline: +6.9% > 5% (--max-regression)");
	check_result_release(&r);
}

static void regression_is_per_step_with_other_step_counts(void **state)
{
	struct check_result r;

	(void)state;
	/* twice the steps, twice the total: the same per step */
	regression(&r, 2, "1520200.000", 4, "3040400.000");
	assert_int_equal(r.nfailures, 0);
	check_result_release(&r);
	regression(&r, 2, "1520200.000", 4, "3249200.000");
	assert_int_equal(r.nfailures, 1);
	assert_string_equal(r.failures[0],
	                    "dit wall time per step 812.300 ms vs 760.100 ms "
	                    "in the baseline: +6.9% > 5% (--max-regression)");
	check_result_release(&r);
}

/* ---- --max-regression's argument ------------------------------------------
 */

static void parse_pct_takes_percent_with_or_without_sign(void **state)
{
	struct err e = ERR_INIT;
	double v = -1;

	(void)state;
	assert_int_equal(check_parse_pct("5%", &v, &e), 0);
	assert_true(v == 5.0);
	assert_int_equal(check_parse_pct("2.5", &v, &e), 0);
	assert_true(v == 2.5);
	assert_int_equal(check_parse_pct("1000", &v, &e), 0);
	assert_int_equal(check_parse_pct("0", &v, &e), 0);
	assert_int_equal(check_parse_pct("abc", &v, &e), -1);
	assert_int_equal(e.code, ERR_USAGE);
	assert_string_equal(e.msg, "--max-regression: not a percentage from 0 "
	                           "to 1000: 'abc' (write e.g. 5 or 5%)");
	err_clear(&e);
	assert_int_equal(check_parse_pct("1001", &v, &e), -1);
	err_clear(&e);
	assert_int_equal(check_parse_pct("-1", &v, &e), -1);
	err_clear(&e);
	assert_int_equal(check_parse_pct("%", &v, &e), -1);
	err_clear(&e);
	assert_int_equal(check_parse_pct("5%%", &v, &e), -1);
	err_clear(&e);
	assert_int_equal(check_parse_pct("nan", &v, &e), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(max_on_full_paths_passes_at_the_limit),
	    T(max_on_shorthands),
	    T(max_with_unknown_names_is_a_usage_error),
	    T(fired_verdicts_fail_unless_turned_off),
	    cmocka_unit_test(regression_over_the_limit_fails),
	    cmocka_unit_test(regression_is_per_step_with_other_step_counts),
	    cmocka_unit_test(parse_pct_takes_percent_with_or_without_sign),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
