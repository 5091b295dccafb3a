/* Command-line parsing. Options come from one table, so --help, the parser
 * and the README stay in step. */
#include "app/cli.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fileio.h"
#include "util/membudget.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* A title is a line: 1 KiB is plenty, and far below the 64 KiB where
 * libharu refuses the PDF's metadata string (error 0x105B). */
#define TITLE_MAX 1024

/* clang-format off */
static const char usage[] =
	"usage: sdperf report PATH... [-o OUTDIR] [--format LIST] [--rules FILE]\n"
	"                   [--threshold NAME=PERCENT]... [-j N] [--strict] [--quiet]\n"
	"                   [--title TEXT] [--lang en|zh] [--docs-base URL]\n"
	"                   [--templates DIR] [--font FILE] [--cjk-font FILE]\n"
	"                   [--max-memory SIZE]\n"
	"       sdperf diff BASE NEW [-o OUTDIR] [--format LIST] [--per-step]\n"
	"                   [report options]\n"
	"       sdperf check PATH [--max NAME=VALUE]... [--require LIST]...\n"
	"                   [--baseline REPORT.json [--max-regression PCT]]\n"
	"                   [--no-verdicts] [--rules FILE]\n"
	"                   [--threshold NAME=PERCENT]... [-j N]\n"
	"                   [--max-memory SIZE]\n"
	"       sdperf --help | --version\n"
	"\n"
	"Reads an Ascend profiler output (torch_npu.profiler) of a diffusion\n"
	"model and writes a performance report: DiT / VAE / text-encoder stages,\n"
	"FA / MatMul / Conv / Vector / Comm / Other time per stage, exposed\n"
	"communication, and the MindIE-SD tuning verdicts.\n"
	"\n"
	"PATH   a rank folder (*_ascend_pt), its ASCEND_PROFILER_OUTPUT folder,\n"
	"       a kernel_details.csv file, an ascend_pytorch_profiler[_N].db\n"
	"       file (the SQLite export, also read from a folder that holds\n"
	"       one), or a folder holding rank folders (a multi-card run,\n"
	"       searched 4 levels deep); or a trace_view.json of any name\n"
	"       (prof.export_chrome_trace), a folder holding one, or a folder of\n"
	"       them: read alone, kernels and all. Several PATHs are one run. A\n"
	"       file's kind is told by its .db suffix, else by its bytes; each\n"
	"       text file may be gzip-compressed (kernel_details.csv.gz,\n"
	"       trace_view.json.gz).\n"
	"\n"
	"options:\n"
	"  -o, --output OUTDIR      where reports go (default ./sdperf-report)\n"
	"  -f, --format LIST        comma-separated output formats: html, pdf,\n"
	"                           md, json (default: all four)\n"
	"  -r, --rules FILE         classification/threshold rules replacing the\n"
	"                           built-in ones, or extending them with\n"
	"                           \"extends\": \"builtin\" (see README)\n"
	"  -t, --threshold NAME=PERCENT\n"
	"                           override a verdict threshold, e.g.\n"
	"                           matmul_quant=45 (names: matmul_quant,\n"
	"                           fa_quant_sparse, vector_fusion, comm_overlap,\n"
	"                           host_bound, rank_imbalance)\n"
	"  -j, --jobs N             ranks analysed in parallel (default: one\n"
	"                           per CPU core)\n"
	"      --max-memory SIZE    memory for input-sized data (e.g. 4G, 512M,\n"
	"                           25% of RAM); more is an input error (exit 3)\n"
	"                           (default: half the RAM or of ulimit -v)\n"
	"      --strict             a malformed row is an error, not a warning\n"
	"      --title TEXT         title of the HTML and Markdown reports\n"
	"  -l, --lang en|zh         language of the HTML and Markdown reports\n"
	"      --docs-base URL      base of the MindIE-SD feature doc links\n"
	"                           (default https://gitcode.com/Ascend/MindIE-SD)\n"
	"      --templates DIR      templates (and report.css) in DIR replace\n"
	"                           the built-in ones of the same name\n"
	"      --font FILE          TrueType font of the PDF's Latin text\n"
	"                           (default: DejaVu Sans, fonts-dejavu-core)\n"
	"      --cjk-font FILE      TrueType font (.ttf, or .ttc: first face) of\n"
	"                           the PDF's Chinese text (default: WenQuanYi\n"
	"                           Zen Hei, fonts-wqy-zenhei)\n"
	"  -q, --quiet              no summary on stdout, no progress on stderr\n"
	"  -h, --help               this text\n"
	"  -V, --version            the version\n"
	"\n";
/* the rest (one literal may hold at most 4095 characters) */
static const char usage_more[] =
	"diff: compares two runs (before / after a change); BASE and NEW are\n"
	"each a PATH as above or a report.json written by sdperf report. Writes\n"
	"diff.html, diff.pdf, diff.md, diff.json (default OUTDIR ./sdperf-diff).\n"
	"      --per-step           divide each side's times by its number of\n"
	"                           profiler steps (when the step counts differ)\n"
	"\n"
	"check: a CI gate on PATH (a profile or a report.json); prints one line\n"
	"per failed check and exits 1 when any fails:\n"
	"      --max NAME=VALUE     a report.json number must not exceed VALUE;\n"
	"                           NAME is its path (stages.dit.categories.FA.\n"
	"                           share_pct) or a shorthand: STAGE.CAT.share\n"
	"                           (a fraction: dit.fa.share=0.30),\n"
	"                           STAGE.exposed_comm.share, STAGE.wall_ms,\n"
	"                           STAGE.kernel_ms (repeatable)\n"
	"      --baseline FILE      a report.json to compare stage wall times with\n"
	"      --max-regression PCT fail when a stage is slower than the baseline\n"
	"                           by more than PCT percent (default 5%)\n"
	"      --no-verdicts        fired verdicts do not fail the check\n"
	"      --require LIST       the collection must have each item of the\n"
	"                           comma list (repeatable): level0, level1,\n"
	"                           level2, cpu, steps[=N] (N timed steps,\n"
	"                           default 5), shapes, memory, aic_metrics,\n"
	"                           export=text|db|trace, complete\n"
	"\n"
	"exit codes: 0 ok, 1 a check failed (check), 2 usage error, 3 input\n"
	"error (unreadable or invalid profile, a trace without Ascend Hardware\n"
	"kernels, report.json, rules or template, profiles that cannot be\n"
	"compared), 4 output error (report not written), 70 internal\n";
/* clang-format on */

const char *cli_usage(void)
{
	static char text[sizeof(usage) + sizeof(usage_more)];

	if (!text[0])
		snprintf(text, sizeof(text), "%s%s", usage, usage_more);
	return text;
}

enum opt_id {
	OPT_TITLE,
	OPT_LANG,
	OPT_DOCS_BASE,
	OPT_TEMPLATES,
	OPT_FONT,
	OPT_CJK_FONT,
	OPT_OUTPUT,
	OPT_FORMAT,
	OPT_RULES,
	OPT_THRESHOLD,
	OPT_STRICT,
	OPT_QUIET,
	OPT_HELP,
	OPT_VERSION,
	OPT_JOBS,
	OPT_PER_STEP,
	OPT_MAX,
	OPT_BASELINE,
	OPT_MAX_REGRESSION,
	OPT_NO_VERDICTS,
	OPT_MAX_MEMORY,
	OPT_REQUIRE
};

static const struct {
	const char *lng;
	char shrt;
	int takes_value;
	enum opt_id id;
} opts[] = {
    {"--output", 'o', 1, OPT_OUTPUT},
    {"--format", 'f', 1, OPT_FORMAT},
    {"--rules", 'r', 1, OPT_RULES},
    {"--threshold", 't', 1, OPT_THRESHOLD},
    {"--strict", 0, 0, OPT_STRICT},
    {"--quiet", 'q', 0, OPT_QUIET},
    {"--help", 'h', 0, OPT_HELP},
    {"--version", 'V', 0, OPT_VERSION},
    {"--title", 0, 1, OPT_TITLE},
    {"--lang", 'l', 1, OPT_LANG},
    {"--docs-base", 0, 1, OPT_DOCS_BASE},
    {"--templates", 0, 1, OPT_TEMPLATES},
    {"--font", 0, 1, OPT_FONT},
    {"--cjk-font", 0, 1, OPT_CJK_FONT},
    {"--jobs", 'j', 1, OPT_JOBS},
    {"--per-step", 0, 0, OPT_PER_STEP},
    {"--max-regression", 0, 1, OPT_MAX_REGRESSION},
    {"--max-memory", 0, 1, OPT_MAX_MEMORY},
    {"--max", 0, 1, OPT_MAX},
    {"--baseline", 0, 1, OPT_BASELINE},
    {"--no-verdicts", 0, 0, OPT_NO_VERDICTS},
    {"--require", 0, 1, OPT_REQUIRE},
};

static int parse_formats(const char *list, unsigned *out, struct err *e)
{
	static const struct {
		const char *name;
		unsigned bit;
	} names[] = {{"json", FORMAT_JSON},
	             {"html", FORMAT_HTML},
	             {"md", FORMAT_MD},
	             {"markdown", FORMAT_MD},
	             {"pdf", FORMAT_PDF}};
	const char *p = list;
	size_t i, n;

	*out = 0;
	while (*p) {
		n = strcspn(p, ",");
		for (i = 0; i < sizeof(names) / sizeof(*names); i++)
			if (strlen(names[i].name) == n &&
			    !strncmp(names[i].name, p, n))
				break;
		if (i == sizeof(names) / sizeof(*names))
			return err_set(
			    e, ERR_USAGE,
			    "--format: unknown or unavailable format "
			    "'%.*s' (available: html, pdf, md, json)",
			    (int)n, p);
		*out |= names[i].bit;
		p += n + (p[n] == ',');
	}
	if (!*out)
		return err_set(e, ERR_USAGE, "--format: empty list");
	return 0;
}

static int parse_jobs(const char *val, int *out, struct err *e)
{
	long n = 0;
	const char *p = val;

	while (*p >= '0' && *p <= '9' && n <= 1024)
		n = n * 10 + (*p++ - '0');
	if (p == val || *p || n < 1 || n > 1024)
		return err_set(e, ERR_USAGE,
		               "--jobs: expected a whole number from 1 to "
		               "1024, got '%s'",
		               val);
	*out = (int)n;
	return 0;
}

/* Finds the table entry for argv[*i]; sets *val for options with values
 * ("--output DIR", "--output=DIR", "-o DIR", "-oDIR"). */
static int match(int argc, char **argv, int *i, const char **val, struct err *e)
{
	const char *a = argv[*i], *eq;
	size_t k, n;

	for (k = 0; k < sizeof(opts) / sizeof(*opts); k++) {
		n = strlen(opts[k].lng);
		eq = NULL;
		if (!strncmp(a, opts[k].lng, n) &&
		    (a[n] == '\0' || a[n] == '='))
			eq = a[n] == '=' ? a + n + 1 : NULL;
		else if (!(opts[k].shrt && a[0] == '-' && a[1] == opts[k].shrt))
			continue;
		else if (a[2] != '\0')
			eq = opts[k].takes_value ? a + 2 : NULL;
		if (!opts[k].takes_value) {
			if (eq || (a[1] != '-' && a[2] != '\0'))
				return err_set(e, ERR_USAGE,
				               "%s takes no value",
				               opts[k].lng);
			return (int)opts[k].id;
		}
		if (!eq && *i + 1 >= argc)
			return err_set(e, ERR_USAGE, "%s needs a value",
			               opts[k].lng);
		*val = eq ? eq : argv[++*i];
		return (int)opts[k].id;
	}
	return err_set(e, ERR_USAGE, "unknown option '%s' (see sdperf --help)",
	               a);
}

/* A folder option must name a folder sdperf can read: a mistyped one
 * would silently give the built-in templates. */
static int check_dir(const char *opt, const char *dir, struct err *e)
{
	int kind = fileio_kind(dir);
	DIR *d;

	if (kind == 0 || (kind < 0 && errno == EINVAL))
		return err_set(e, ERR_USAGE, "%s '%s': not a directory", opt,
		               dir);
	if (kind < 0)
		return err_set(e, ERR_USAGE, "%s '%s': %s", opt, dir,
		               errno == ENOENT ? "no such directory"
		                               : strerror(errno));
	d = opendir(dir);
	if (!d)
		return err_set(e, ERR_USAGE, "%s '%s': cannot read: %s", opt,
		               dir, strerror(errno));
	closedir(d);
	return 0;
}

static int apply(struct options *o, int id, const char *val, struct err *e)
{
	switch (id) {
	case OPT_OUTPUT:
		o->outdir = val;
		o->outdir_given = 1;
		return 0;
	case OPT_FORMAT:
		return parse_formats(val, &o->formats, e);
	case OPT_RULES:
		o->rules = val;
		return 0;
	case OPT_THRESHOLD:
		o->thresholds = xrealloc(o->thresholds,
		                         (o->nthresholds + 1) * sizeof(char *));
		o->thresholds[o->nthresholds++] = val;
		return 0;
	case OPT_TITLE:
		if (strlen(val) > TITLE_MAX)
			return err_set(e, ERR_USAGE,
			               "--title: %zu bytes, at most %d",
			               strlen(val), TITLE_MAX);
		o->title = val;
		return 0;
	case OPT_LANG:
		o->lang = val;
		return 0;
	case OPT_DOCS_BASE:
		o->docs_base = val;
		return 0;
	case OPT_TEMPLATES:
		o->templates_dir = val;
		return check_dir("--templates", val, e);
	case OPT_FONT:
		o->font = val;
		return 0;
	case OPT_CJK_FONT:
		o->cjk_font = val;
		return 0;
	case OPT_STRICT:
		o->strict = 1;
		return 0;
	case OPT_QUIET:
		o->quiet = 1;
		return 0;
	case OPT_HELP:
		o->cmd = CMD_HELP;
		return 0;
	case OPT_JOBS:
		return parse_jobs(val, &o->jobs, e);
	case OPT_PER_STEP:
		o->per_step = 1;
		return 0;
	case OPT_MAX:
		o->max = xrealloc(o->max, (o->nmax + 1) * sizeof(char *));
		o->max[o->nmax++] = val;
		return 0;
	case OPT_BASELINE:
		o->baseline = val;
		return 0;
	case OPT_MAX_REGRESSION:
		o->max_regression = val;
		return 0;
	case OPT_NO_VERDICTS:
		o->no_verdicts = 1;
		return 0;
	case OPT_MAX_MEMORY:
		if (membudget_parse(val, &o->max_memory))
			return err_set(
			    e, ERR_USAGE,
			    "--max-memory: expected a size such as "
			    "4G, 512M or 25%% (at least 1M), got '%s'",
			    val);
		return 0;
	case OPT_REQUIRE:
		o->require =
		    xrealloc(o->require, (o->nrequire + 1) * sizeof(char *));
		o->require[o->nrequire++] = val;
		return 0;
	default:
		o->cmd = o->cmd == CMD_HELP ? CMD_HELP : CMD_VERSION;
		return 0;
	}
}

static int command(const char *cmd, struct options *o, struct err *e);

int cli_parse(int argc, char **argv, struct options *o, struct err *e)
{
	const char *val = NULL;
	int i, id, only_args = 0, nargs = 0;
	const char *cmd = NULL;

	memset(o, 0, sizeof(*o));
	o->outdir = "sdperf-report";
	o->formats = FORMATS_AVAILABLE;
	for (i = 1; i < argc; i++) {
		if (only_args || argv[i][0] != '-' || !argv[i][1]) {
			if (nargs++ == 0) {
				cmd = argv[i];
				continue;
			}
			o->paths = xrealloc(o->paths,
			                    (o->npaths + 1) * sizeof(char *));
			o->paths[o->npaths++] = argv[i];
			continue;
		}
		if (!strcmp(argv[i], "--")) {
			only_args = 1;
			continue;
		}
		if ((id = match(argc, argv, &i, &val, e)) < 0 ||
		    apply(o, id, val, e))
			return -1;
	}
	if (o->cmd == CMD_HELP || o->cmd == CMD_VERSION)
		return 0;
	if (!cmd)
		return err_set(e, ERR_USAGE,
		               "no command given (see sdperf --help)");
	return command(cmd, o, e);
}

/* Options that belong to one command only. */
static int misplaced(const struct options *o, struct err *e)
{
	const char *opt = NULL, *owner = NULL;

	if (o->cmd != CMD_DIFF && o->per_step)
		opt = "--per-step", owner = "diff";
	else if (o->cmd != CMD_CHECK && o->nmax)
		opt = "--max", owner = "check";
	else if (o->cmd != CMD_CHECK && o->baseline)
		opt = "--baseline", owner = "check";
	else if (o->cmd != CMD_CHECK && o->max_regression)
		opt = "--max-regression", owner = "check";
	else if (o->cmd != CMD_CHECK && o->no_verdicts)
		opt = "--no-verdicts", owner = "check";
	else if (o->cmd != CMD_CHECK && o->nrequire)
		opt = "--require", owner = "check";
	else if (o->max_regression && !o->baseline)
		return err_set(e, ERR_USAGE,
		               "check: --max-regression needs --baseline "
		               "REPORT.json");
	if (opt)
		return err_set(e, ERR_USAGE, "%s is an option of sdperf %s",
		               opt, owner);
	return 0;
}

static int command(const char *cmd, struct options *o, struct err *e)
{
	if (!strcmp(cmd, "report")) {
		o->cmd = CMD_REPORT;
		if (!o->npaths)
			return err_set(e, ERR_USAGE, "report: no PATH given");
	} else if (!strcmp(cmd, "diff")) {
		o->cmd = CMD_DIFF;
		if (o->npaths != 2)
			return err_set(e, ERR_USAGE,
			               "diff: expected BASE and NEW, got %zu "
			               "path%s",
			               o->npaths, o->npaths == 1 ? "" : "s");
		if (!o->outdir_given)
			o->outdir = "sdperf-diff";
	} else if (!strcmp(cmd, "check")) {
		o->cmd = CMD_CHECK;
		if (o->npaths != 1)
			return err_set(e, ERR_USAGE,
			               "check: expected one PATH, got %zu",
			               o->npaths);
	} else {
		return err_set(e, ERR_USAGE,
		               "unknown command '%s' (commands: report, diff, "
		               "check)",
		               cmd);
	}
	o->path = o->paths[0];
	return misplaced(o, e);
}

void cli_release(struct options *o)
{
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
