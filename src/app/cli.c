/* Command-line parsing with getopt_long, driven by the option table below
 * (which also gives --help and the completion: cli_help.c). */
#include "app/cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/check.h"
#include "app/cli_opts.h"
#include "util/membudget.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* A title is a line: 1 KiB is plenty, and far below the 64 KiB where
 * libharu refuses the PDF's metadata string (error 0x105B). */
#define TITLE_MAX 1024

#define R  CLI_REPORT
#define D  CLI_DIFF
#define C  CLI_CHECK
#define RD (CLI_REPORT | CLI_DIFF)
#define S  CLI_SUMMARIZE
#define ES (CLI_EVERY | CLI_SUMMARIZE)

/* clang-format off */
const struct cli_opt cli_opts[] = {
    {"output", OPT_OUTPUT, "OUTDIR", RD | S, CV_DIR, NULL,
     "where reports go (default ./sdperf-report;\n"
     "sdperf diff: ./sdperf-diff; sdperf summarize:\n"
     "the summary file to write, required)"},
    {"format", OPT_FORMAT, "LIST", RD, CV_LIST, "html pdf md json fragment",
     "comma-separated output formats: html, pdf,\n"
     "md, json (default: these four), fragment\n"
     "(report.fragment.html: the HTML body for a\n"
     "wiki page)"},
    {"rules", OPT_RULES, "FILE", ES, CV_FILE, NULL,
     "classification/threshold rules replacing the\n"
     "built-in ones, or extending them with\n"
     "\"extends\": \"builtin\" (see README)"},
    {"threshold", OPT_THRESHOLD, "NAME=PERCENT", CLI_EVERY, CV_PREFIX, NULL,
     "override a verdict threshold, e.g.\n"
     "matmul_quant=45 (names: matmul_quant,\n"
     "fa_quant_sparse, vector_fusion, comm_overlap,\n"
     "host_bound, rank_imbalance, vae_parallel,\n"
     "text_encoder, memory_headroom, cache;\n"
     "repeatable)"},
    {"jobs", OPT_JOBS, "N", ES, CV_TEXT, NULL,
     "threads: ranks analysed in parallel, and\n"
     "with fewer ranks than N, each rank's\n"
     "kernel_details.csv parsed in chunks on\n"
     "N / ranks threads (default: one per CPU\n"
     "core this process may use)"},
    {"max-memory", OPT_MAX_MEMORY, "SIZE", ES, CV_TEXT, NULL,
     "memory for input-sized data (e.g. 4G, 512M,\n"
     "25% of RAM); more is an input error (exit 3)\n"
     "(default: half the RAM or of ulimit -v)"},
    {"device-memory", OPT_DEVICE_MEMORY, "GB", CLI_EVERY, CV_TEXT, NULL,
     "memory of one card in GB (GiB, as npu-smi's\n"
     "65536 MB = 64), for the memory_headroom\n"
     "finding (default: from the chip the profile\n"
     "names, see README)"},
    {"strict", OPT_STRICT, NULL, ES, CV_NONE, NULL,
     "a malformed row is an error, not a warning"},
    {"follow-links", OPT_FOLLOW_LINKS, NULL, ES, CV_NONE, NULL,
     "follow symlinks that lead out of a PATH\n"
     "(default: skipped and named in a warning)"},
    {"title", OPT_TITLE, "TEXT", RD, CV_TEXT, NULL,
     "title of the HTML and Markdown reports"},
    {"lang", OPT_LANG, "en|zh", RD, CV_WORD, NULL,
     "language of the HTML and Markdown reports"},
    {"docs-base", OPT_DOCS_BASE, "URL", RD, CV_TEXT, NULL,
     "base of the MindIE-SD feature doc links\n"
     "(default https://gitcode.com/Ascend/MindIE-SD)"},
    {"templates", OPT_TEMPLATES, "DIR", RD, CV_DIR, NULL,
     "templates (and report.css) in DIR replace\n"
     "the built-in ones of the same name"},
    {"font", OPT_FONT, "FILE", RD, CV_FILE, NULL,
     "TrueType font of the PDF's Latin text\n"
     "(default: DejaVu Sans, fonts-dejavu-core)"},
    {"cjk-font", OPT_CJK_FONT, "FILE", RD, CV_FILE, NULL,
     "TrueType font (.ttf, or .ttc: first face) of\n"
     "the PDF's Chinese text (default: WenQuanYi\n"
     "Zen Hei, fonts-wqy-zenhei)"},
    {"redact", OPT_REDACT, NULL, R, CV_NONE, NULL,
     "reports safe to hand over: host names, user\n"
     "names, paths, IP addresses and HCCL group\n"
     "names become pseudonyms (host-1, path-1,\n"
     "rank folder 1, ip-1, group-1), the same for\n"
     "the same input; the reports say so"},
    {"redact-keep-names", OPT_REDACT_KEEP_NAMES, NULL, R, CV_NONE, NULL,
     "with --redact, keep kernel type names (the\n"
     "default: they are the analysis)"},
    {"redact-kernels", OPT_REDACT_KERNELS, NULL, R, CV_NONE, NULL,
     "--redact, and operator names outside the\n"
     "rules' categories (Other) become op-1, ..."},
    {"org", OPT_ORG, "NAME", R, CV_TEXT, NULL,
     "organisation named in the reports' header"},
    {"logo", OPT_LOGO, "FILE", R, CV_FILE, NULL,
     "PNG or JPEG image (at most 1 MiB) in the\n"
     "header of the HTML and PDF reports"},
    {"customer", OPT_CUSTOMER, "NAME", R, CV_TEXT, NULL,
     "customer the report is for"},
    {"ticket", OPT_TICKET, "ID", R, CV_TEXT, NULL,
     "ticket or case id the report belongs to"},
    {"confidential", OPT_CONFIDENTIAL, "TEXT", R, CV_TEXT, NULL,
     "a footer line on every page and screen,\n"
     "e.g. \"Confidential: ACME internal\""},
    {"config", OPT_CONFIG, "FILE", R, CV_FILE, NULL,
     "JSON file of branding keys (org, logo,\n"
     "customer, ticket, confidential); default:\n"
     "$XDG_CONFIG_HOME/sdperf/config.json\n"
     "(~/.config/sdperf/config.json) if present,\n"
     "never ./sdperf.json unless named here;\n"
     "options given on the command line win"},
    {"quiet", OPT_QUIET, NULL, ES, CV_NONE, NULL,
     "no summary on stdout, no progress on stderr"},
    {"per-step", OPT_PER_STEP, NULL, D, CV_NONE, NULL,
     "divide each side's times by its number of\n"
     "profiler steps (when the step counts differ)"},
    {"max", OPT_MAX, "NAME=VALUE", C, CV_TEXT, NULL,
     "a report.json number must not exceed VALUE;\n"
     "NAME is its path\n"
     "(stages.dit.categories.FA.share_pct) or a\n"
     "shorthand: STAGE.CAT.share\n"
     "(a fraction: dit.fa.share=0.30),\n"
     "STAGE.exposed_comm.share, STAGE.wall_ms,\n"
     "STAGE.kernel_ms (repeatable)"},
    {"baseline", OPT_BASELINE, "FILE", C, CV_FILE, NULL,
     "a report.json to compare stage wall times with"},
    {"max-regression", OPT_MAX_REGRESSION, "PCT", C, CV_TEXT, NULL,
     "fail when a stage is slower than the baseline\n"
     "by more than PCT percent (default 5%)"},
    {"no-verdicts", OPT_NO_VERDICTS, NULL, C, CV_NONE, NULL,
     "fired verdicts do not fail the check"},
    {"require", OPT_REQUIRE, "LIST", C, CV_LIST,
     "level0 level1 level2 cpu steps steps= shapes memory aic_metrics "
     "export=text export=db export=trace complete",
     "the collection must have each item of the\n"
     "comma list (repeatable): level0, level1,\n"
     "level2, cpu, steps[=N] (N timed steps,\n"
     "default 5), shapes, memory, aic_metrics,\n"
     "export=text|db|trace, complete"},
    {"help", OPT_HELP, NULL, ES | CLI_GENERAL, CV_NONE, NULL,
     "the overview of every option (with a\n"
     "command: that command's options)"},
    {"version", OPT_VERSION, NULL, CLI_GENERAL, CV_NONE, NULL,
     "the version, the git commit built and the\n"
     "versions of the libraries (compiled with,\n"
     "running with)"},
    {"completion", OPT_COMPLETION, "SHELL", CLI_GENERAL, CV_WORD, "bash",
     "print the completion script of SHELL (bash)"},
};
/* clang-format on */
const size_t cli_nopts = sizeof(cli_opts) / sizeof(cli_opts[0]);

#undef R
#undef D
#undef C
#undef RD
#undef S
#undef ES

const struct cli_opt *cli_opt_find(int id)
{
	size_t k;

	for (k = 0; k < cli_nopts; k++)
		if (cli_opts[k].id == id)
			return &cli_opts[k];
	return NULL;
}

/* ---- getopt_long's tables, built from cli_opts ----------------------- */

struct getopt_tables {
	/* "-": PATHs come back in order, as the value of option 1 (and so
	 * whatever POSIXLY_CORRECT says); ":": a missing value is ':' */
	char shorts[2 + 2 * sizeof(cli_opts) / sizeof(cli_opts[0]) + 1];
	struct option longs[sizeof(cli_opts) / sizeof(cli_opts[0]) + 1];
};

static void build_tables(struct getopt_tables *t)
{
	size_t k, n = 0;

	memset(t, 0, sizeof(*t));
	t->shorts[n++] = '-';
	t->shorts[n++] = ':';
	for (k = 0; k < cli_nopts; k++) {
		const struct cli_opt *op = &cli_opts[k];
		t->longs[k].name = op->name;
		t->longs[k].has_arg = op->arg ? required_argument : no_argument;
		t->longs[k].val = op->id;
		if (op->id >= 256)
			continue;
		t->shorts[n++] = (char)op->id;
		if (op->arg)
			t->shorts[n++] = ':';
	}
}

/* ---- what getopt_long refused ----------------------------------------- */

/* The long options that begin with text (up to an '='), comma-separated
 * into out; their number. */
static size_t prefixed(const char *text, struct strbuf *out)
{
	size_t n = strcspn(text, "="), k, count = 0;

	for (k = 0; k < cli_nopts; k++)
		if (!strncmp(cli_opts[k].name, text, n)) {
			strbuf_addf(out, "%s--%s", count ? ", " : "",
			            cli_opts[k].name);
			count++;
		}
	return count;
}

/* An unknown or ambiguous long option (getopt's optopt 0): word is the
 * whole argument. */
static int bad_long(const char *word, struct err *e)
{
	struct strbuf names = STRBUF_INIT;
	int ret;

	if (prefixed(word + 2, &names) > 1)
		ret = err_set(e, ERR_USAGE, "option '%.*s' is ambiguous (%s)",
		              (int)strcspn(word, "="), word, names.buf);
	else
		ret = err_set(e, ERR_USAGE,
		              "unknown option '%s' (see sdperf --help)", word);
	strbuf_release(&names);
	return ret;
}

/* c is '?' (unknown option, or a value given to a flag) or ':' (a value
 * missing). argv[optind - 1] is the word of a long option. */
static int refused(int c, char **argv, struct err *e)
{
	const struct cli_opt *op = optopt ? cli_opt_find(optopt) : NULL;

	if (c == ':' && op)
		return err_set(e, ERR_USAGE, "--%s needs a value", op->name);
	if (op) /* only a long option can be given a value it takes not */
		return err_set(e, ERR_USAGE, "--%s takes no value", op->name);
	if (optopt)
		return err_set(e, ERR_USAGE,
		               "unknown option '-%c' (see sdperf --help)",
		               optopt);
	return bad_long(argv[optind - 1], e);
}

/* ---- one option --------------------------------------------------------- */

static void push(const char ***list, size_t *n, const char *val)
{
	*list = xrealloc(*list, (*n + 1) * sizeof(**list));
	(*list)[(*n)++] = val;
}

/* Options whose value is kept as given (checked later, or free text). */
static int apply_text(struct options *o, int id, const char *val)
{
	switch (id) {
	case OPT_OUTPUT:
		o->outdir = val;
		o->outdir_given = 1;
		return 0;
	case OPT_RULES:
		o->rules = val;
		return 0;
	case OPT_THRESHOLD:
		push(&o->thresholds, &o->nthresholds, val);
		return 0;
	case OPT_DOCS_BASE:
		o->docs_base = val;
		return 0;
	case OPT_TEMPLATES:
		o->templates_dir = val;
		return 0;
	case OPT_FONT:
		o->font = val;
		return 0;
	case OPT_CJK_FONT:
		o->cjk_font = val;
		return 0;
	case OPT_BASELINE:
		o->baseline = val;
		return 0;
	case OPT_ORG:
		o->org = val;
		return 0;
	case OPT_LOGO:
		o->logo = val;
		return 0;
	case OPT_CUSTOMER:
		o->customer = val;
		return 0;
	case OPT_TICKET:
		o->ticket = val;
		return 0;
	case OPT_CONFIDENTIAL:
		o->confidential = val;
		return 0;
	case OPT_CONFIG:
		o->config = val;
		return 0;
	default:
		return -1;
	}
}

static int apply_flag(struct options *o, int id)
{
	switch (id) {
	case OPT_STRICT:
		o->strict = 1;
		return 0;
	case OPT_FOLLOW_LINKS:
		o->follow_links = 1;
		return 0;
	case OPT_QUIET:
		o->quiet = 1;
		return 0;
	case OPT_PER_STEP:
		o->per_step = 1;
		return 0;
	case OPT_NO_VERDICTS:
		o->no_verdicts = 1;
		return 0;
	case OPT_REDACT:
		o->redact = 1;
		return 0;
	case OPT_REDACT_KEEP_NAMES: /* the last of the two wins */
		o->redact_kernels = 0;
		return 0;
	case OPT_REDACT_KERNELS:
		o->redact = 1;
		o->redact_kernels = 1;
		return 0;
	default:
		return -1;
	}
}

/* Options whose value is checked now, in the order given. */
static int apply_checked(struct options *o, int id, const char *val,
                         struct err *e)
{
	double pct;

	switch (id) {
	case OPT_FORMAT:
		return cli_value_format(val, &o->formats, e);
	case OPT_JOBS:
		return cli_value_jobs(val, &o->jobs, e);
	case OPT_LANG:
		o->lang = val;
		return cli_value_lang(val, e);
	case OPT_TITLE:
		o->title = val;
		if (strlen(val) > TITLE_MAX)
			return err_set(e, ERR_USAGE,
			               "--title: %zu bytes, at most %d",
			               strlen(val), TITLE_MAX);
		return 0;
	case OPT_MAX_MEMORY:
		if (membudget_parse(val, &o->max_memory))
			return err_set(
			    e, ERR_USAGE,
			    "--max-memory: expected a size such as "
			    "4G, 512M or 25%% (at least 1M), got '%s'",
			    val);
		return 0;
	case OPT_DEVICE_MEMORY:
		return cli_value_device_memory(val, &o->device_memory_gb, e);
	case OPT_MAX:
		push(&o->max, &o->nmax, val);
		return check_max_validate(&val, 1, e);
	case OPT_REQUIRE:
		push(&o->require, &o->nrequire, val);
		return check_require_validate(&val, 1, e);
	case OPT_MAX_REGRESSION:
		o->max_regression = val;
		return check_parse_pct(val, &pct, e);
	default: /* OPT_COMPLETION */
		o->completion = val;
		return cli_value_completion(val, e);
	}
}

/* Applies option id (with its value val, NULL for a flag) to o. Errors
 * are recorded in e (the first one stays) and the parse goes on, so that
 * a --help later on the line still wins. */
static void apply(struct options *o, int id, const char *val, int *help,
                  int *version, struct err *e)
{
	if (id == OPT_HELP)
		*help = 1;
	else if (id == OPT_VERSION)
		*version = 1;
	else if (apply_flag(o, id) && apply_text(o, id, val))
		apply_checked(o, id, val, e);
}

/* ---- the command and its PATHs ----------------------------------------- */

static const struct {
	const char *name;
	enum command cmd;
	unsigned bit;
} commands[] = {{"report", CMD_REPORT, CLI_REPORT},
                {"diff", CMD_DIFF, CLI_DIFF},
                {"check", CMD_CHECK, CLI_CHECK},
                {"summarize", CMD_SUMMARIZE, CLI_SUMMARIZE}};

static int command_of(const char *word, enum command *cmd, unsigned *bit,
                      struct err *e)
{
	size_t i;

	for (i = 0; i < sizeof(commands) / sizeof(*commands); i++)
		if (!strcmp(commands[i].name, word)) {
			*cmd = commands[i].cmd;
			*bit = commands[i].bit;
			return 0;
		}
	return err_set(e, ERR_USAGE,
	               "unknown command '%s' (commands: report, diff, check, "
	               "summarize)",
	               word);
}

/* An option of one other command only is an error (report and diff
 * options are accepted by check, which ignores them). */
static int misplaced(const unsigned char *given, unsigned bit, struct err *e)
{
	size_t k, i;
	unsigned cmds;

	for (k = 0; k < cli_nopts; k++) {
		if (bit == CLI_SUMMARIZE && given[k] &&
		    !(cli_opts[k].cmds & CLI_SUMMARIZE))
			return err_set(e, ERR_USAGE,
			               "--%s is no option of sdperf summarize "
			               "(see sdperf summarize --help)",
			               cli_opts[k].name);
		cmds = cli_opts[k].cmds & CLI_EVERY;
		if (!given[k] || !cmds || (cmds & bit) || (cmds & (cmds - 1)))
			continue;
		for (i = 0; !(commands[i].bit & cmds); i++)
			;
		return err_set(e, ERR_USAGE, "--%s is an option of sdperf %s",
		               cli_opts[k].name, commands[i].name);
	}
	return 0;
}

static int paths_needed(struct options *o, struct err *e)
{
	if (o->cmd == CMD_REPORT && !o->npaths)
		return err_set(e, ERR_USAGE, "report: no PATH given");
	if (o->cmd == CMD_DIFF && o->npaths != 2)
		return err_set(e, ERR_USAGE,
		               "diff: expected BASE and NEW, got %zu path%s",
		               o->npaths, o->npaths == 1 ? "" : "s");
	if (o->cmd == CMD_CHECK && o->npaths != 1)
		return err_set(e, ERR_USAGE,
		               "check: expected one PATH, got %zu", o->npaths);
	if (o->cmd == CMD_CHECK && o->max_regression && !o->baseline)
		return err_set(e, ERR_USAGE,
		               "check: --max-regression needs --baseline "
		               "REPORT.json");
	if (o->cmd == CMD_SUMMARIZE && o->npaths != 1)
		return err_set(e, ERR_USAGE,
		               "summarize: expected one RANK_PATH, got %zu",
		               o->npaths);
	if (o->cmd == CMD_SUMMARIZE && !o->outdir_given)
		return err_set(e, ERR_USAGE,
		               "summarize: -o FILE is required (the summary "
		               "to write, e.g. -o rank-0.json)");
	if (o->cmd == CMD_DIFF && !o->outdir_given)
		o->outdir = "sdperf-diff";
	o->path = o->paths[0];
	return 0;
}

/* The first word is the command, the others its PATHs. */
static int command(const char *word, const unsigned char *given,
                   struct options *o, struct err *e)
{
	unsigned bit = 0;

	if (!word)
		return err_set(e, ERR_USAGE,
		               "no command given (see sdperf --help)");
	if (command_of(word, &o->cmd, &bit, e) || misplaced(given, bit, e) ||
	    paths_needed(o, e))
		return -1;
	return cli_values_final(o, e);
}

/* --help, --version and --completion answer at once, whatever else the
 * line holds (an unknown command excepted: its help does not exist). */
static int general(int help, int version, const char *word, struct options *o,
                   struct err *e)
{
	unsigned bit;

	err_clear(e);
	o->cmd = help ? CMD_HELP : version ? CMD_VERSION : CMD_COMPLETION;
	if (help && word)
		return command_of(word, &o->help_cmd, &bit, e);
	return 0;
}

/* Notes the words of the -j just parsed (optind past it) for the
 * provenance to leave out: "-j 2", "-j2", "--jobs=2", "--jo 2", or the
 * "j2" of a bundle "-qj2" ("-qj 2"). Past 8, the rest stay. */
static void cut_jobs(struct options *o, char **argv, const char *val)
{
	int sep = val == argv[optind - 1]; /* the value is a word of its own */
	const char *ow = argv[optind - 1 - sep];
	size_t keep = 0;

	if (o->ncuts + 2 > sizeof(o->cuts) / sizeof(o->cuts[0]))
		return;
	if (ow[1] != '-') { /* a short option, maybe inside a bundle */
		const char *j = sep ? ow + strlen(ow) - 1 : val - 1;
		keep = j > ow + 1 ? (size_t)(j - ow) : 0;
	}
	o->cuts[o->ncuts].word = ow;
	o->cuts[o->ncuts++].keep = keep;
	if (sep) {
		o->cuts[o->ncuts].word = val;
		o->cuts[o->ncuts++].keep = 0;
	}
}

int cli_parse(int argc, char **argv, struct options *o, struct err *e)
{
	struct getopt_tables t;
	unsigned char given[sizeof(cli_opts) / sizeof(cli_opts[0])] = {0};
	const char *word = NULL;
	int c, help = 0, version = 0;

	memset(o, 0, sizeof(*o));
	o->argc = argc;
	o->argv = argv;
	o->outdir = "sdperf-report";
	o->formats = FORMATS_DEFAULT;
	build_tables(&t);
	optind = 0; /* a fresh scan (glibc), also when called again */
	opterr = 0;
	while ((c = getopt_long(argc, argv, t.shorts, t.longs, NULL)) != -1) {
		if (c == 1) /* a word: the command, then PATHs */
			push(&o->paths, &o->npaths, optarg);
		else if (c == '?' || c == ':')
			refused(c, argv, e);
		else {
			given[cli_opt_find(c) - cli_opts] = 1;
			apply(o, c, optarg, &help, &version, e);
			if (c == OPT_JOBS)
				cut_jobs(o, argv, optarg);
		}
	}
	for (; optind < argc; optind++) /* after "--" */
		push(&o->paths, &o->npaths, argv[optind]);
	if (o->npaths) {
		word = o->paths[0];
		memmove(o->paths, o->paths + 1,
		        --o->npaths * sizeof(*o->paths));
	}
	if (help || version || (o->completion && e->code == ERR_NONE))
		return general(help, version, word, o, e);
	if (e->code != ERR_NONE)
		return -1;
	return command(word, given, o, e);
}

void cli_release(struct options *o)
{
	size_t i;

	for (i = 0; i < o->nowned; i++)
		free(o->owned[i]);
	free(o->owned);
	o->owned = NULL;
	o->nowned = 0;
	free(o->logo_data);
	o->logo_data = NULL;
	membudget_release(o->logo_charged);
	o->logo_charged = 0;
	free(o->max);
	o->max = NULL;
	o->nmax = 0;
	free(o->require);
	o->require = NULL;
	o->nrequire = 0;
	free(o->paths);
	o->paths = NULL;
	o->npaths = 0;
	free(o->thresholds);
	o->thresholds = NULL;
	o->nthresholds = 0;
}
