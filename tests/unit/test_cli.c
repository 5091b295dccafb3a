/* Unit tests of cli.c: the option table parser and its usage errors. */
#include "unit.h"

#include "analysis/rules.h"
#include "app/brand.h"
#include "app/cli.h"
#include "app/provenance.h"
#include "util/xalloc.h"

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
	            "unknown command 'rport' (commands: report, diff, check, "
	            "summarize)");
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

	parse(c, "report", "P", "--format", "html,md,fragment", "--title",
	      "T <x>", "-l", "zh", "--docs-base=https://m.example/",
	      "--templates", SDPERF_TEST_DATA, NULL);
	ok(c);
	/* the fragment only when asked for (not in the default set) */
	assert_int_equal(c->o.formats,
	                 FORMAT_HTML | FORMAT_MD | FORMAT_FRAGMENT);
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
	               "(available: html, pdf, md, json, fragment)");
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

/* ---- GNU conventions (getopt_long) ------------------------------------ */

static void cli_parse_takes_bundled_flags(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "P", "-qq", NULL);
	ok(c);
	assert_int_equal(c->o.quiet, 1);
}

/* The issue's example: -qfjson failed with "--quiet takes no value". */
static void cli_parse_bundles_a_flag_and_a_value(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "P", "-qfjson", "-qj2", NULL);
	ok(c);
	assert_int_equal(c->o.quiet, 1);
	assert_int_equal(c->o.formats, FORMAT_JSON);
	assert_int_equal(c->o.jobs, 2);
}

static void cli_parse_value_as_next_word_of_a_bundle(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "P", "-qo", "D", "-ql", "zh", NULL);
	ok(c);
	assert_string_equal(c->o.outdir, "D");
	assert_string_equal(c->o.lang, "zh");
	assert_int_equal(c->o.npaths, 1);
}

static void cli_parse_rejects_unknown_letter_in_a_bundle(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "P", "-qx", NULL);
	usage_error(c, "unknown option '-x' (see sdperf --help)");
}

static void cli_parse_long_option_abbreviated(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "P", "--out=D", "--qui", "--la", "zh", NULL);
	ok(c);
	assert_string_equal(c->o.outdir, "D");
	assert_int_equal(c->o.quiet, 1);
	assert_string_equal(c->o.lang, "zh");
}

static void cli_parse_rejects_ambiguous_abbreviation(void **state)
{
	struct cl *c = *state;

	parse(c, "check", "P", "--ma=1", NULL);
	usage_error(c, "option '--ma' is ambiguous (--max-memory, --max, "
	               "--max-regression)");
}

/* An exact name wins over the longer names it begins. */
static void cli_parse_exact_name_is_not_ambiguous(void **state)
{
	struct cl *c = *state;

	parse(c, "check", "P", "--max", "dit.wall_ms=5", NULL);
	ok(c);
	assert_int_equal(c->o.nmax, 1);
}

static void cli_parse_value_may_begin_with_a_dash(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "P", "-o", "-out", "--title", "--x", NULL);
	ok(c);
	assert_string_equal(c->o.outdir, "-out");
	assert_string_equal(c->o.title, "--x");
}

/* POSIXLY_CORRECT would stop getopt at the first word: sdperf's own
 * ordering keeps options after the command working. */
static void cli_parse_options_after_paths_under_posixly_correct(void **state)
{
	struct cl *c = *state;

	setenv("POSIXLY_CORRECT", "1", 1);
	parse(c, "report", "P", "-q", "Q", NULL);
	unsetenv("POSIXLY_CORRECT");
	ok(c);
	assert_int_equal(c->o.quiet, 1);
	assert_int_equal(c->o.npaths, 2);
}

static void cli_parse_parses_twice_in_one_process(void **state)
{
	struct cl *c = *state;
	struct options o2;
	struct err e = ERR_INIT;
	char a0[] = "sdperf", a1[] = "diff", a2[] = "A", a3[] = "B",
	     a4[] = "-qfmd";
	char *argv[] = {a0, a1, a2, a3, a4, NULL};

	parse(c, "report", "P", "-qfjson", NULL);
	ok(c);
	assert_int_equal(cli_parse(5, argv, &o2, &e), 0);
	assert_int_equal(o2.cmd, CMD_DIFF);
	assert_int_equal(o2.formats, FORMAT_MD);
	cli_release(&o2);
}

/* ---- --help per command, --completion ---------------------------------- */

static void cli_parse_help_of_a_command(void **state)
{
	struct cl *c = *state;

	parse(c, "diff", "--help", NULL);
	ok(c);
	assert_int_equal(c->o.cmd, CMD_HELP);
	assert_int_equal(c->o.help_cmd, CMD_DIFF);
}

static void cli_parse_help_of_check_short(void **state)
{
	struct cl *c = *state;

	parse(c, "-h", "check", "P", NULL);
	ok(c);
	assert_int_equal(c->o.help_cmd, CMD_CHECK);
}

static void cli_parse_help_overview_has_no_command(void **state)
{
	struct cl *c = *state;

	parse(c, "-qh", NULL);
	ok(c);
	assert_int_equal(c->o.cmd, CMD_HELP);
	assert_int_equal(c->o.help_cmd, CMD_NONE);
}

/* --help answers whatever else is wrong on the line ... */
static void cli_parse_help_wins_over_bad_values(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "--lang", "xx", "--bogus", "-j", "0", "-h", NULL);
	ok(c);
	assert_int_equal(c->o.cmd, CMD_HELP);
	assert_int_equal(c->o.help_cmd, CMD_REPORT);
}

/* ... but there is no help for a command that does not exist. */
static void cli_parse_help_of_unknown_command(void **state)
{
	struct cl *c = *state;

	parse(c, "rport", "--help", NULL);
	usage_error(c,
	            "unknown command 'rport' (commands: report, diff, check, "
	            "summarize)");
}

static void cli_parse_completion(void **state)
{
	struct cl *c = *state;

	parse(c, "--completion", "bash", NULL);
	ok(c);
	assert_int_equal(c->o.cmd, CMD_COMPLETION);
	assert_string_equal(c->o.completion, "bash");
}

static void cli_parse_rejects_unknown_shell(void **state)
{
	struct cl *c = *state;

	parse(c, "--completion=zsh", NULL);
	usage_error(c, "--completion 'zsh': no completion for this shell "
	               "(available: bash)");
}

/* ---- values checked before any input is read ---------------------------- */

static void cli_parse_rejects_unknown_lang(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "no/such/path", "--lang", "xx", "-f", "json", NULL);
	usage_error(c, "--lang 'xx': no such language (available: en, zh)");
}

static void cli_parse_lang_value_shown_safely(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "P", "--lang=\033]0;x\a", NULL);
	usage_error(c, "--lang '\\x1B]0;x\\x07': no such language "
	               "(available: en, zh)");
}

static void cli_parse_rejects_unknown_threshold_name(void **state)
{
	struct cl *c = *state;

	parse(c, "check", "P", "-t", "matmul_qant=40", NULL);
	usage_error(c, "--threshold 'matmul_qant=40': unknown name (known: "
	               "matmul_quant, fa_quant_sparse, vector_fusion, "
	               "comm_overlap, host_bound, rank_imbalance, "
	               "vae_parallel, text_encoder, memory_headroom, cache)");
}

static void cli_parse_device_memory(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "P", "--device-memory", "31.5", NULL);
	ok(c);
	assert_true(c->o.device_memory_gb == 31.5);
}

static void cli_parse_device_memory_with_unit(void **state)
{
	struct cl *c = *state;

	parse(c, "check", "P", "--device-memory=64GB", NULL);
	ok(c);
	assert_true(c->o.device_memory_gb == 64);
}

static void cli_parse_rejects_device_memory(void **state)
{
	static const char *const bad[] = {
	    "0", "-1", "abc", "4097", "1.2345", "64.", "64 GB", "64GiB", ""};
	size_t i;
	char msg[256];

	for (i = 0; i < ARRAY_LEN(bad); i++) {
		struct cl *c = *state;
		cli_release(&c->o);
		memset(&c->o, 0, sizeof(c->o));
		while (c->argc)
			free(c->argv[--c->argc]);
		parse(c, "report", "P", "--device-memory", bad[i], NULL);
		snprintf(msg, sizeof(msg),
		         "--device-memory: expected the card's memory in GB, "
		         "above 0 and at most 4096 (e.g. 64 or 31.5), got "
		         "'%s'",
		         bad[i]);
		usage_error(c, msg);
	}
}

static void cli_parse_rejects_threshold_value(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "P", "--threshold=host_bound=101", NULL);
	usage_error(c, "--threshold 'host_bound=101': expected a percentage "
	               "from 0 to 100");
}

static void cli_parse_rejects_threshold_without_value(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "P", "-r", "my.json", "-t", "host_bound", NULL);
	usage_error(c, "--threshold 'host_bound': expected NAME=PERCENT");
}

/* A rules file may add thresholds: their names wait for the file, the
 * built-in ones are checked at once. */
static void cli_parse_threshold_of_a_rules_file_waits(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "P", "-t", "mine=20", "--rules", "my.json", NULL);
	ok(c);
	assert_int_equal(c->o.nthresholds, 1);
}

static void cli_parse_builtin_threshold_checked_with_rules(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "P", "-t", "host_bound=x", "--rules", "my.json",
	      NULL);
	usage_error(c, "--threshold 'host_bound=x': expected a percentage "
	               "from 0 to 100");
}

static void cli_parse_rejects_bad_max_shorthand(void **state)
{
	struct cl *c = *state;

	parse(c, "check", "P", "--max", "vae.fa.shar=0.3", NULL);
	assert_int_equal(c->rc, -1);
	assert_int_equal(c->e.code, ERR_USAGE);
	assert_non_null(strstr(c->e.msg, "--max 'vae.fa.shar=0.3': unknown "
	                                 "metric for stage vae"));
}

static void cli_parse_rejects_max_without_number(void **state)
{
	struct cl *c = *state;

	parse(c, "check", "P", "--max", "dit.wall_ms=fast", NULL);
	usage_error(c, "--max 'dit.wall_ms=fast': VALUE is not a number");
}

static void cli_parse_rejects_max_without_value(void **state)
{
	struct cl *c = *state;

	parse(c, "check", "P", "--max=dit.wall_ms", NULL);
	usage_error(c, "--max 'dit.wall_ms': expected NAME=VALUE");
}

static void cli_parse_rejects_unknown_requirement(void **state)
{
	struct cl *c = *state;

	parse(c, "check", "P", "--require", "cpu,levle1", NULL);
	assert_int_equal(c->rc, -1);
	assert_non_null(strstr(c->e.msg, "--require 'levle1': unknown "
	                                 "requirement"));
}

static void cli_parse_rejects_bad_max_regression(void **state)
{
	struct cl *c = *state;

	parse(c, "check", "P", "--baseline", "b.json", "--max-regression",
	      "lots", NULL);
	assert_int_equal(c->rc, -1);
	assert_int_equal(c->e.code, ERR_USAGE);
	assert_non_null(strstr(c->e.msg, "--max-regression"));
	assert_non_null(strstr(c->e.msg, "lots"));
}

#define DEJAVU     "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
#define NOT_A_FONT SDPERF_TEST_DATA "/hostile/kernel_details.csv"

static void cli_parse_rejects_missing_font(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "P", "-f", "json", "--font", "no/such.ttf", NULL);
	usage_error(c, "--font 'no/such.ttf': no such file");
}

static void cli_parse_rejects_folder_as_cjk_font(void **state)
{
	struct cl *c = *state;

	parse(c, "diff", "A", "B", "--cjk-font", SDPERF_TEST_DATA, NULL);
	usage_error(c, "--cjk-font '" SDPERF_TEST_DATA "': not a regular file");
}

/* With a PDF to write, the structure check libharu relies on. */
static void cli_parse_rejects_a_font_libharu_cannot_read(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "P", "--font", NOT_A_FONT, NULL);
	assert_int_equal(c->rc, -1);
	assert_int_equal(c->e.code, ERR_USAGE);
	assert_int_equal(strncmp(c->e.msg,
	                         "--font '" NOT_A_FONT
	                         "': not a usable TrueType font: ",
	                         strlen("--font '" NOT_A_FONT
	                                "': not a usable TrueType font: ")),
	                 0);
}

/* Without a PDF the font is not read (only that it is there). */
static void cli_parse_font_unread_without_pdf(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "P", "--font", NOT_A_FONT, "-fhtml,md", NULL);
	ok(c);
}

static void cli_parse_takes_a_real_font(void **state)
{
	struct cl *c = *state;

	if (access(DEJAVU, R_OK))
		skip();
	parse(c, "report", "P", "--font", DEJAVU, "--cjk-font=" DEJAVU, NULL);
	ok(c);
	assert_string_equal(c->o.font, DEJAVU);
	assert_string_equal(c->o.cjk_font, DEJAVU);
}

static void cli_parse_rejects_value_for_strict(void **state)
{
	struct cl *c = *state;

	parse(c, "report", "P", "--strict=yes", NULL);
	usage_error(c, "--strict takes no value");
}

/* ---- usage text -------------------------------------------------------- */

static void cli_help_names_every_builtin_threshold(void **state)
{
	struct rules r;
	struct err e = ERR_INIT;
	struct strbuf help = STRBUF_INIT;
	size_t i;

	(void)state;
	memset(&r, 0, sizeof(r));
	assert_int_equal(rules_load_builtin(&r, &e), 0);
	cli_help(CMD_NONE, &help);
	assert_int_equal(strncmp(help.buf, "usage: sdperf report PATH", 25), 0);
	for (i = 0; i < r.nth; i++)
		if (!strstr(help.buf, r.th[i].id))
			fail_msg("--help does not name threshold '%s'",
			         r.th[i].id);
	rules_release(&r);
	strbuf_release(&help);
}

/* "--NAME" as a word of text (after a space or a quote, before a space,
 * a quote, '=', ')' or the end of a line). */
static int names_option(const char *text, const char *name)
{
	const char *p = text;
	size_t n = strlen(name);

	while ((p = strstr(p, name))) {
		if (p - text >= 3 && !strncmp(p - 2, "--", 2) &&
		    strchr(" '", p[-3]) && strchr(" \n=')", p[n]))
			return 1;
		p += n;
	}
	return 0;
}

/* Each command's help lists its own options, not another command's. */
static void cli_help_per_command(void **state)
{
	static const struct {
		enum command cmd;
		const char *has, *lacks;
	} cases[] = {{CMD_REPORT, "lang", "max"},
	             {CMD_REPORT, "templates", "per-step"},
	             {CMD_DIFF, "per-step", "require"},
	             {CMD_DIFF, "cjk-font", "baseline"},
	             {CMD_CHECK, "max", "lang"},
	             {CMD_CHECK, "no-verdicts", "output"}};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_LEN(cases); i++) {
		struct strbuf h = STRBUF_INIT;
		cli_help(cases[i].cmd, &h);
		if (!names_option(h.buf, cases[i].has) ||
		    names_option(h.buf, cases[i].lacks))
			fail_msg("help of command %d: --%s or --%s",
			         (int)cases[i].cmd, cases[i].has,
			         cases[i].lacks);
		assert_non_null(strstr(h.buf, "exit codes:"));
		strbuf_release(&h);
	}
}

/* The overview and the completion come from the table the parser reads:
 * every long option parses, and both name it. */
static void cli_help_and_completion_name_every_option(void **state)
{
	static const char *const names[] = {
	    "output",   "format",         "rules",       "threshold",
	    "jobs",     "max-memory",     "strict",      "title",
	    "lang",     "docs-base",      "templates",   "font",
	    "cjk-font", "quiet",          "per-step",    "max",
	    "baseline", "max-regression", "no-verdicts", "require",
	    "help",     "version",        "completion"};
	struct strbuf h = STRBUF_INIT, comp = STRBUF_INIT;
	size_t i;

	(void)state;
	cli_help(CMD_NONE, &h);
	cli_completion("bash", &comp);
	for (i = 0; i < ARRAY_LEN(names); i++) {
		if (!names_option(h.buf, names[i]))
			fail_msg("--help lacks --%s", names[i]);
		if (!names_option(comp.buf, names[i]))
			fail_msg("the completion lacks --%s", names[i]);
	}
	assert_non_null(strstr(comp.buf, "complete -F _sdperf sdperf\n"));
	assert_non_null(strstr(comp.buf, "matmul_quant= "));
	strbuf_release(&h);
	strbuf_release(&comp);
}

/* The man page's OPTIONS body: every option as a tagged paragraph (.TP,
 * the bold name, the help), every '-' escaped as \- (an ASCII minus when
 * copied from the page), and no text line that roff would take for a
 * request. */
static void cli_man_options_are_roff_with_every_option(void **state)
{
	static const char *const names[] = {
	    "\\fB\\-o\\fR, \\fB\\-\\-output\\fR \\fIOUTDIR\\fR\n",
	    "\\fB\\-\\-max\\-memory\\fR \\fISIZE\\fR\n",
	    "\\fB\\-\\-strict\\fR\n",
	    "\\fB\\-\\-per\\-step\\fR\n",
	    "\\fB\\-\\-no\\-verdicts\\fR\n",
	    "\\fB\\-h\\fR, \\fB\\-\\-help\\fR\n",
	    "\\fB\\-V\\fR, \\fB\\-\\-version\\fR\n",
	    "\\fB\\-\\-completion\\fR \\fISHELL\\fR\n"};
	struct strbuf m = STRBUF_INIT, h = STRBUF_INIT;
	const char *p, *line;
	size_t i, paragraphs = 0, options = 0;

	(void)state;
	cli_man_options(&m);
	for (i = 0; i < ARRAY_LEN(names); i++)
		if (!strstr(m.buf, names[i]))
			fail_msg("the man page lacks %s", names[i]);
	for (p = m.buf; (p = strchr(p, '-')); p++)
		if (p == m.buf || p[-1] != '\\')
			fail_msg("a bare '-' in the man page: '%.20s'", p);
	for (line = m.buf; *line; line = strchr(line, '\n') + 1) {
		if (!strncmp(line, ".TP\n", 4))
			paragraphs++;
		else if ((*line == '.' || *line == '\'') &&
		         strncmp(line, ".SS \"Options of ", 16) &&
		         strncmp(line, ".SS \"General options\"\n", 22))
			fail_msg("a request in the man page: '%.40s'", line);
	}
	/* as many as the overview's option lines ("  -o, --output",
	 * "      --strict") */
	cli_help(CMD_NONE, &h);
	for (line = h.buf; *line; line = strchr(line, '\n') + 1)
		options +=
		    !strncmp(line, "  -", 3) || !strncmp(line, "      --", 8);
	assert_int_equal(paragraphs, options);
	assert_true(options >= 24);
	assert_non_null(strstr(m.buf, ".SS \"Options of every command\"\n"));
	assert_non_null(strstr(m.buf, ".SS \"Options of report and diff\"\n"));
	strbuf_release(&m);
	strbuf_release(&h);
}

/* ---- provenance: the command line, the folder's time, image kinds --- */

static void provenance_quotes_the_command_line(void **state)
{
	const char *argv[] = {"/usr/local/bin/sdperf",
	                      "report",
	                      "a b",
	                      "it's",
	                      "-o",
	                      "out/x",
	                      "",
	                      "--org=A&B",
	                      "$HOME",
	                      "x;rm"};
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	prov_command_line(10, argv, NULL, 0, &sb);
	assert_string_equal(sb.buf, "sdperf report 'a b' 'it'\\''s' -o out/x "
	                            "'' '--org=A&B' '$HOME' 'x;rm'");
	strbuf_release(&sb);
}

/* -j changes no output byte: the provenance's command line leaves it out
 * however it was written, and keeps what shares its word. */
static void provenance_leaves_out_jobs(void **state)
{
	static const struct {
		const char *args[6];
		const char *want;
	} cases[] = {
	    {{"report", "run", "-j", "2", "-q"}, "sdperf report run -q"},
	    {{"report", "run", "-j7"}, "sdperf report run"},
	    {{"report", "--jobs=3", "run"}, "sdperf report run"},
	    {{"report", "--jo", "3", "run"}, "sdperf report run"},
	    {{"report", "-qj2", "run"}, "sdperf report -q run"},
	    {{"report", "-qj", "2", "run"}, "sdperf report -q run"},
	    {{"report", "-j", "1", "run", "-j", "4"}, "sdperf report run"},
	    {{"report", "run", "--title", "-j 2"},
	     "sdperf report run --title '-j 2'"},
	};
	size_t k;

	(void)state;
	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		char *argv[8] = {NULL};
		int argc = 1, i;
		struct options o;
		struct err e = ERR_INIT;
		struct strbuf sb = STRBUF_INIT;

		argv[0] = xstrdup("sdperf");
		while (argc < 7 && cases[k].args[argc - 1]) {
			argv[argc] = xstrdup(cases[k].args[argc - 1]);
			argc++;
		}
		assert_int_equal(cli_parse(argc, argv, &o, &e), 0);
		prov_command_line(o.argc, (const char *const *)o.argv, o.cuts,
		                  o.ncuts, &sb);
		assert_string_equal(sb.buf, cases[k].want);
		strbuf_release(&sb);
		cli_release(&o);
		for (i = 0; i < argc; i++)
			free(argv[i]);
	}
}

static void provenance_reads_the_folder_time(void **state)
{
	(void)state;
	/* 2026-05-12 09:50:11 = 1778579411 */
	assert_int_equal(prov_folder_time("/d/synth-node_1000_"
	                                  "20260512095011733_ascend_pt"),
	                 1778579411);
	assert_int_equal(prov_folder_time("x/h_1_20260512095011733_ascend_pt/"
	                                  "ASCEND_PROFILER_OUTPUT/k.csv"),
	                 1778579411);
	assert_int_equal(prov_folder_time("rank0_ascend_pt"), -1);
	assert_int_equal(prov_folder_time("h_1_2026051209501173_ascend_pt"),
	                 -1); /* 16 digits */
	assert_int_equal(prov_folder_time("h_1_20261312095011733_ascend_pt"),
	                 -1); /* month 13 */
}

static void brand_tells_images_by_their_first_bytes(void **state)
{
	static const unsigned char png[] = {0x89, 'P',  'N',  'G',
	                                    '\r', '\n', 0x1a, '\n'};
	static const unsigned char jpg[] = {0xff, 0xd8, 0xff, 0xe0};

	(void)state;
	assert_string_equal(brand_image_mime(png, sizeof(png)), "image/png");
	assert_string_equal(brand_image_mime(jpg, sizeof(jpg)), "image/jpeg");
	assert_null(brand_image_mime(png, 7));
	assert_null(brand_image_mime((const unsigned char *)"GIF89a", 6));
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
	    T(cli_parse_takes_bundled_flags),
	    T(cli_parse_bundles_a_flag_and_a_value),
	    T(cli_parse_value_as_next_word_of_a_bundle),
	    T(cli_parse_rejects_unknown_letter_in_a_bundle),
	    T(cli_parse_long_option_abbreviated),
	    T(cli_parse_rejects_ambiguous_abbreviation),
	    T(cli_parse_exact_name_is_not_ambiguous),
	    T(cli_parse_value_may_begin_with_a_dash),
	    T(cli_parse_options_after_paths_under_posixly_correct),
	    T(cli_parse_parses_twice_in_one_process),
	    T(cli_parse_help_of_a_command),
	    T(cli_parse_help_of_check_short),
	    T(cli_parse_help_overview_has_no_command),
	    T(cli_parse_help_wins_over_bad_values),
	    T(cli_parse_help_of_unknown_command),
	    T(cli_parse_completion),
	    T(cli_parse_rejects_unknown_shell),
	    T(cli_parse_rejects_unknown_lang),
	    T(cli_parse_lang_value_shown_safely),
	    T(cli_parse_rejects_unknown_threshold_name),
	    T(cli_parse_rejects_threshold_value),
	    T(cli_parse_device_memory),
	    T(cli_parse_device_memory_with_unit),
	    T(cli_parse_rejects_device_memory),
	    T(cli_parse_rejects_threshold_without_value),
	    T(cli_parse_threshold_of_a_rules_file_waits),
	    T(cli_parse_builtin_threshold_checked_with_rules),
	    T(cli_parse_rejects_bad_max_shorthand),
	    T(cli_parse_rejects_max_without_number),
	    T(cli_parse_rejects_max_without_value),
	    T(cli_parse_rejects_unknown_requirement),
	    T(cli_parse_rejects_bad_max_regression),
	    T(cli_parse_rejects_missing_font),
	    T(cli_parse_rejects_folder_as_cjk_font),
	    T(cli_parse_rejects_a_font_libharu_cannot_read),
	    T(cli_parse_font_unread_without_pdf),
	    T(cli_parse_takes_a_real_font),
	    T(cli_parse_rejects_value_for_strict),
	    cmocka_unit_test(cli_help_names_every_builtin_threshold),
	    cmocka_unit_test(cli_help_per_command),
	    cmocka_unit_test(cli_help_and_completion_name_every_option),
	    cmocka_unit_test(cli_man_options_are_roff_with_every_option),
	    cmocka_unit_test(provenance_quotes_the_command_line),
	    cmocka_unit_test(provenance_leaves_out_jobs),
	    cmocka_unit_test(provenance_reads_the_folder_time),
	    cmocka_unit_test(brand_tells_images_by_their_first_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
