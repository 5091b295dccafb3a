/* Unit tests of cli.c: the option table parser and its usage errors. */
#include "unit.h"

#include "analysis/rules.h"
#include "app/cli.h"

/* ---- fixture: a mutable argv and the parsed options -------------------- */

struct cl {
	char *argv[16];
	int argc;
	struct options o;
	struct err e;
	int rc;
};

static int cl_setup(void **state)
{
	struct cl *c = calloc(1, sizeof(*c));

	if (!c)
		return -1;
	*state = c;
	return 0;
}

static int cl_teardown(void **state)
{
	struct cl *c = *state;
	int i;

	cli_release(&c->o);
	for (i = 0; i < c->argc; i++)
		free(c->argv[i]);
	free(c);
	return 0;
}

#define T(f) cmocka_unit_test_setup_teardown(f, cl_setup, cl_teardown)

/* Parses "sdperf" followed by the NULL-terminated arguments. */
static void parse(struct cl *c, ...)
{
	va_list ap;
	const char *a;
	struct err e = ERR_INIT;

	c->argv[c->argc++] = strdup("sdperf");
	va_start(ap, c);
	while ((a = va_arg(ap, const char *))) {
		assert_true(c->argc < (int)ARRAY_LEN(c->argv) - 1);
		c->argv[c->argc++] = strdup(a);
	}
	va_end(ap);
	c->e = e;
	c->rc = cli_parse(c->argc, c->argv, &c->o, &c->e);
}

static void ok(const struct cl *c)
{
	if (c->rc)
		fail_msg("cli_parse failed: %s", c->e.msg);
	assert_int_equal(c->e.code, ERR_NONE);
}

static void usage_error(const struct cl *c, const char *msg)
{
	assert_int_equal(c->rc, -1);
	assert_int_equal(c->e.code, ERR_USAGE);
	assert_string_equal(c->e.msg, msg);
}

/* ---- happy paths ------------------------------------------------------- */

static void cli_parse_report_with_defaults(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "prof/rank0_ascend_pt", NULL);
	ok(c);
	assert_int_equal(c->o.cmd, CMD_REPORT);
	assert_string_equal(c->o.path, "prof/rank0_ascend_pt");
	assert_string_equal(c->o.outdir, "sdperf-report");
	assert_int_equal(c->o.formats,
	                 FORMAT_JSON | FORMAT_HTML | FORMAT_MD | FORMAT_PDF);
	assert_null(c->o.rules);
	assert_int_equal(c->o.nthresholds, 0);
	assert_int_equal(c->o.quiet, 0);
	assert_int_equal(c->o.strict, 0);
}

static void cli_parse_report_with_every_option(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "PATH", "-o", "D", "--format", "json", "--rules",
	      "F", "-t", "a=1", "-t", "b=2", "--strict", "-q", NULL);
	ok(c);
	assert_int_equal(c->o.cmd, CMD_REPORT);
	assert_string_equal(c->o.path, "PATH");
	assert_string_equal(c->o.outdir, "D");
	assert_int_equal(c->o.formats, FORMAT_JSON);
	assert_string_equal(c->o.rules, "F");
	assert_int_equal(c->o.nthresholds, 2);
	assert_string_equal(c->o.thresholds[0], "a=1");
	assert_string_equal(c->o.thresholds[1], "b=2");
	assert_int_equal(c->o.strict, 1);
	assert_int_equal(c->o.quiet, 1);
}

static void cli_parse_options_before_command_and_long_forms(void **state)
{
	struct cl *c = *state;

	parse(c, "--quiet", "--threshold", "matmul_quant=45", "-r", "r.json",
	      "report", "-f", "json", "p.csv", "--threshold=vector_fusion=10",
	      NULL);
	ok(c);
	assert_int_equal(c->o.cmd, CMD_REPORT);
	assert_string_equal(c->o.path, "p.csv");
	assert_string_equal(c->o.rules, "r.json");
	assert_int_equal(c->o.quiet, 1);
	assert_int_equal(c->o.nthresholds, 2);
	assert_string_equal(c->o.thresholds[0], "matmul_quant=45");
	assert_string_equal(c->o.thresholds[1], "vector_fusion=10");
}

static void cli_parse_output_equals_form(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "P", "--output=out/dir", NULL);
	ok(c);
	assert_string_equal(c->o.outdir, "out/dir");
}

static void cli_parse_output_attached_short_form(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "P", "-oD", "-tmatmul_quant=1", NULL);
	ok(c);
	assert_string_equal(c->o.outdir, "D");
	assert_int_equal(c->o.nthresholds, 1);
	assert_string_equal(c->o.thresholds[0], "matmul_quant=1");
}

static void cli_parse_format_list_with_trailing_comma(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "P", "--format=json,json,", NULL);
	ok(c);
	assert_int_equal(c->o.formats, FORMAT_JSON);
}

static void cli_parse_double_dash_ends_options(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "--", "-odd-name.csv", NULL);
	ok(c);
	assert_string_equal(c->o.path, "-odd-name.csv");
	assert_string_equal(c->o.outdir, "sdperf-report");
}

static void cli_parse_dash_is_a_path(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "-", NULL);
	ok(c);
	assert_string_equal(c->o.path, "-");
}

static void cli_parse_help(void **state)
{
	struct cl *c = *state;

	parse(c, "--help", NULL);
	ok(c);
	assert_int_equal(c->o.cmd, CMD_HELP);
}

static void cli_parse_help_wins_over_missing_arguments(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "-h", NULL);
	ok(c);
	assert_int_equal(c->o.cmd, CMD_HELP);
}

static void cli_parse_help_wins_over_version(void **state)
{
	struct cl *c = *state;

	parse(c, "--help", "--version", NULL);
	ok(c);
	assert_int_equal(c->o.cmd, CMD_HELP);
}

static void cli_parse_version(void **state)
{
	struct cl *c = *state;

	parse(c, "--version", NULL);
	ok(c);
	assert_int_equal(c->o.cmd, CMD_VERSION);
}

static void cli_parse_version_short(void **state)
{
	struct cl *c = *state;

	parse(c, "-V", NULL);
	ok(c);
	assert_int_equal(c->o.cmd, CMD_VERSION);
}

/* ---- usage errors: exact messages -------------------------------------- */

static void cli_parse_rejects_unknown_option(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "P", "--bogus", NULL);
	usage_error(c, "unknown option '--bogus' (see sdperf --help)");
}

static void cli_parse_rejects_option_with_extra_letters(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "P", "--outputs", "D", NULL);
	usage_error(c, "unknown option '--outputs' (see sdperf --help)");
}

static void cli_parse_rejects_unknown_short_option(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "P", "-x", NULL);
	usage_error(c, "unknown option '-x' (see sdperf --help)");
}

static void cli_parse_rejects_missing_value(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "P", "-o", NULL);
	usage_error(c, "--output needs a value");
}

static void cli_parse_rejects_missing_threshold_value(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "P", "--threshold", NULL);
	usage_error(c, "--threshold needs a value");
}

static void cli_parse_rejects_unknown_command(void **state)
{
	struct cl *c = *state;

	parse(c, "rport", "P", NULL);
	usage_error(c,
	            "unknown command 'rport' (commands: report, diff, check)");
}

static void cli_parse_rejects_no_command(void **state)
{
	struct cl *c = *state;

	parse(c, "-q", NULL);
	usage_error(c, "no command given (see sdperf --help)");
}

static void cli_parse_rejects_report_without_path(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "-o", "D", NULL);
	usage_error(c, "report: no PATH given");
}

static void cli_parse_takes_several_paths_and_jobs(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "P", "-j", "3", "Q", "--", "-R", NULL);
	assert_int_equal(c->rc, 0);
	assert_int_equal(c->o.npaths, 3);
	assert_string_equal(c->o.paths[0], "P");
	assert_string_equal(c->o.paths[1], "Q");
	assert_string_equal(c->o.paths[2], "-R");
	assert_string_equal(c->o.path, "P");
	assert_int_equal(c->o.jobs, 3);
}

static void cli_parse_max_memory(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "P", "--max-memory", "1.5G", NULL);
	ok(c);
	assert_int_equal(c->o.max_memory, 3ull << 29);
}

static void cli_parse_rejects_bad_max_memory(void **state)
{
	struct cl *c = *state;

	parse(c, "check", "P", "--max-memory=100K", NULL);
	usage_error(c, "--max-memory: expected a size such as 4G, 512M or 25% "
	               "(at least 1M), got '100K'");
}

static void cli_parse_diff(void **state)
{
	struct cl *c = *state;

	parse(c, "diff", "A", "B/report.json", "--per-step", "-f", "json",
	      NULL);
	ok(c);
	assert_int_equal(c->o.cmd, CMD_DIFF);
	assert_string_equal(c->o.paths[0], "A");
	assert_string_equal(c->o.paths[1], "B/report.json");
	assert_string_equal(c->o.outdir, "sdperf-diff");
	assert_int_equal(c->o.per_step, 1);
	assert_int_equal(c->o.formats, FORMAT_JSON);
}

static void cli_parse_diff_needs_two_paths(void **state)
{
	struct cl *c = *state;

	parse(c, "diff", "A", NULL);
	usage_error(c, "diff: expected BASE and NEW, got 1 path");
}

static void cli_parse_check(void **state)
{
	struct cl *c = *state;

	parse(c, "check", "P", "--max", "dit.fa.share=0.30", "--max=a.b=1",
	      "--baseline", "base.json", "--max-regression", "5%",
	      "--no-verdicts", "-o", "keep", NULL);
	ok(c);
	assert_int_equal(c->o.cmd, CMD_CHECK);
	assert_int_equal(c->o.nmax, 2);
	assert_string_equal(c->o.max[0], "dit.fa.share=0.30");
	assert_string_equal(c->o.max[1], "a.b=1");
	assert_string_equal(c->o.baseline, "base.json");
	assert_string_equal(c->o.max_regression, "5%");
	assert_int_equal(c->o.no_verdicts, 1);
	assert_string_equal(c->o.outdir, "keep");
}

static void cli_parse_check_options_belong_to_check(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "P", "--max", "x=1", NULL);
	usage_error(c, "--max is an option of sdperf check");
}

static void cli_parse_per_step_belongs_to_diff(void **state)
{
	struct cl *c = *state;

	parse(c, "check", "P", "--per-step", NULL);
	usage_error(c, "--per-step is an option of sdperf diff");
}

static void cli_parse_regression_needs_baseline(void **state)
{
	struct cl *c = *state;

	parse(c, "check", "P", "--max-regression", "5", NULL);
	usage_error(c, "check: --max-regression needs --baseline REPORT.json");
}

static void cli_parse_rejects_bad_jobs(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "P", "--jobs", "0", NULL);
	usage_error(c, "--jobs: expected a whole number from 1 to 1024, got "
	               "'0'");
}

static void cli_parse_rejects_jobs_with_junk(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "P", "-j2x", NULL);
	usage_error(c, "--jobs: expected a whole number from 1 to 1024, got "
	               "'2x'");
}

static void cli_parse_report_options(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "P", "--format", "html,md", "--title", "T <x>", "-l",
	      "zh", "--docs-base=https://m.example/", "--templates",
	      SDPERF_TEST_DATA, NULL);
	ok(c);
	assert_int_equal(c->o.formats, FORMAT_HTML | FORMAT_MD);
	assert_string_equal(c->o.title, "T <x>");
	assert_string_equal(c->o.lang, "zh");
	assert_string_equal(c->o.docs_base, "https://m.example/");
	assert_string_equal(c->o.templates_dir, SDPERF_TEST_DATA);
}

/* A --templates folder that is not there is named, not ignored. */
static void cli_parse_rejects_a_missing_templates_dir(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "P", "--templates", "no/such/dir", NULL);
	usage_error(c, "--templates 'no/such/dir': no such directory");
}

static void cli_parse_rejects_a_file_as_templates_dir(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "P", "--templates",
	      SDPERF_TEST_DATA "/hostile/kernel_details.csv", NULL);
	usage_error(c, "--templates '" SDPERF_TEST_DATA
	               "/hostile/kernel_details.csv': not a directory");
}

/* A title is bounded: libharu refuses 64 KiB in the PDF's metadata. */
static void cli_parse_takes_a_title_of_1024_bytes(void **state)
{
	struct cl *c = *state;
	static char title[1025];

	memset(title, 'T', 1024);
	parse(c, "report", "P", "--title", title, NULL);
	ok(c);
}

static void cli_parse_rejects_a_longer_title(void **state)
{
	struct cl *c = *state;
	static char title[1026];

	memset(title, 'T', 1025);
	parse(c, "report", "P", "--title", title, NULL);
	usage_error(c, "--title: 1025 bytes, at most 1024");
}

static void cli_parse_rejects_unknown_format(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "P", "--format", "json,docx", NULL);
	usage_error(c, "--format: unknown or unavailable format 'docx' "
	               "(available: html, pdf, md, json)");
}

static void cli_parse_rejects_empty_format_list(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "P", "--format=", NULL);
	usage_error(c, "--format: empty list");
}

static void cli_parse_rejects_value_for_flag(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "P", "--quiet=1", NULL);
	usage_error(c, "--quiet takes no value");
}

static void cli_parse_rejects_attached_value_for_short_flag(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "P", "-qq", NULL);
	usage_error(c, "--quiet takes no value");
}

static void cli_parse_rejects_value_for_strict(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "P", "--strict=yes", NULL);
	usage_error(c, "--strict takes no value");
}

/* ---- usage text -------------------------------------------------------- */

static void cli_usage_names_every_builtin_threshold(void **state)
{
	struct rules r;
	struct err e = ERR_INIT;
	size_t i;

	(void)state;
	memset(&r, 0, sizeof(r));
	assert_int_equal(rules_load_builtin(&r, &e), 0);
	assert_int_equal(strncmp(cli_usage(), "usage: sdperf report PATH", 25),
	                 0);
	for (i = 0; i < r.nth; i++)
		if (!strstr(cli_usage(), r.th[i].id))
			fail_msg("--help does not name threshold '%s'",
			         r.th[i].id);
	rules_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(cli_parse_report_with_defaults),
	    T(cli_parse_report_with_every_option),
	    T(cli_parse_options_before_command_and_long_forms),
	    T(cli_parse_output_equals_form),
	    T(cli_parse_output_attached_short_form),
	    T(cli_parse_format_list_with_trailing_comma),
	    T(cli_parse_double_dash_ends_options),
	    T(cli_parse_dash_is_a_path),
	    T(cli_parse_help),
	    T(cli_parse_help_wins_over_missing_arguments),
	    T(cli_parse_help_wins_over_version),
	    T(cli_parse_version),
	    T(cli_parse_version_short),
	    T(cli_parse_rejects_unknown_option),
	    T(cli_parse_rejects_option_with_extra_letters),
	    T(cli_parse_rejects_unknown_short_option),
	    T(cli_parse_rejects_missing_value),
	    T(cli_parse_rejects_missing_threshold_value),
	    T(cli_parse_rejects_unknown_command),
	    T(cli_parse_rejects_no_command),
	    T(cli_parse_rejects_report_without_path),
	    T(cli_parse_takes_several_paths_and_jobs),
	    T(cli_parse_max_memory),
	    T(cli_parse_rejects_bad_max_memory),
	    T(cli_parse_rejects_bad_jobs),
	    T(cli_parse_diff),
	    T(cli_parse_diff_needs_two_paths),
	    T(cli_parse_check),
	    T(cli_parse_check_options_belong_to_check),
	    T(cli_parse_per_step_belongs_to_diff),
	    T(cli_parse_regression_needs_baseline),
	    T(cli_parse_rejects_jobs_with_junk),
	    T(cli_parse_report_options),
	    T(cli_parse_rejects_a_missing_templates_dir),
	    T(cli_parse_rejects_a_file_as_templates_dir),
	    T(cli_parse_takes_a_title_of_1024_bytes),
	    T(cli_parse_rejects_a_longer_title),
	    T(cli_parse_rejects_unknown_format),
	    T(cli_parse_rejects_empty_format_list),
	    T(cli_parse_rejects_value_for_flag),
	    T(cli_parse_rejects_attached_value_for_short_flag),
	    T(cli_parse_rejects_value_for_strict),
	    cmocka_unit_test(cli_usage_names_every_builtin_threshold),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
