/* --help (the overview and each command's) and the man page's OPTIONS
 * section, both written from the option table (app/cli_opts.h). */
#include <string.h>

#include "app/cli.h"
#include "app/cli_opts.h"
#include "util/banned.h"

#define HELP_COL 27 /* where an option's help text starts */

/* clang-format off */
static const char about[] =
	"Reads an Ascend profiler output (torch_npu.profiler) of a diffusion\n"
	"model and writes a performance report: DiT / VAE / text-encoder stages,\n"
	"FA / MatMul / Conv / Vector / Comm / Other time per stage, exposed\n"
	"communication, and the MindIE-SD tuning verdicts.\n";

static const char path_text[] =
	"PATH   a rank folder (*_ascend_pt), its ASCEND_PROFILER_OUTPUT folder,\n"
	"       a kernel_details.csv file, an ascend_pytorch_profiler[_N].db\n"
	"       file (the SQLite export, also read from a folder that holds\n"
	"       one), or a folder holding rank folders (a multi-card run,\n"
	"       searched 4 levels deep); or a trace_view.json of any name\n"
	"       (prof.export_chrome_trace), a folder holding one, or a folder of\n"
	"       them: read alone, kernels and all. Several PATHs are one run. A\n"
	"       file's kind is told by its .db suffix, else by its bytes; each\n"
	"       text file may be gzip-compressed (kernel_details.csv.gz,\n"
	"       trace_view.json.gz). Or summary files of sdperf summarize, or\n"
	"       folders of them: the ranks merged (see sdperf summarize --help).\n";

static const char diff_text[] =
	"Compares two runs (before / after a change); BASE and NEW are each a\n"
	"PATH (see sdperf report --help) or a report.json written by sdperf\n"
	"report. Writes diff.html, diff.pdf, diff.md, diff.json (default OUTDIR\n"
	"./sdperf-diff).\n";

static const char check_text[] =
	"A CI gate on PATH (a profile, see sdperf report --help, or a\n"
	"report.json): prints one line per failed check and exits 1 when any\n"
	"fails. The checks: --max limits, fired verdicts (unless\n"
	"--no-verdicts), --baseline regressions, --require items.\n";

static const char summarize_text[] =
	"Analyses the one rank behind RANK_PATH (see sdperf report --help for\n"
	"what a PATH may be) into a summary file: the compact, mergeable result\n"
	"of that rank, its size bounded whatever the profile's. Written all or\n"
	"nothing (a temporary file renamed), the same bytes for the same input,\n"
	"so a scheduler may run a task again. sdperf report, diff and check\n"
	"accept summary files, or folders of them, where they accept a PATH, and\n"
	"give exactly the report of the one-process run: run one summarize per\n"
	"rank on any engine (examples/cluster/: Slurm, Kubernetes, GNU\n"
	"parallel), then one report on the summaries. Give both the same\n"
	"--rules.\n";

static const char commands_text[] =
	"commands:\n"
	"  report   the performance report of PATH: report.json, .html, .md, .pdf\n"
	"  diff     compares two runs: diff.json, .html, .md, .pdf\n"
	"  check    a CI gate: limits, verdicts, a baseline, collection items\n"
	"  summarize  one rank's mergeable summary, for cluster runs: -o FILE\n";

static const char conventions[] =
	"Options go before or after the command, in any order: --opt=VALUE or\n"
	"--opt VALUE, -oDIR or -o DIR, flags bundled (-qfjson); a long option\n"
	"may be shortened while it is unambiguous; -- ends the options. Every\n"
	"value is checked before any input is read.\n";

static const char exit_codes[] =
	"exit codes: 0 ok, 1 a check failed (check), 2 usage error, 3 input\n"
	"error (unreadable or invalid profile, a trace without Ascend Hardware\n"
	"kernels, report.json, rules or template, profiles that cannot be\n"
	"compared), 4 output error (report not written), 70 internal\n";
/* clang-format on */

/* One option's lines: "  -o, --output OUTDIR      where reports go". */
static void option_lines(const struct cli_opt *op, struct strbuf *out)
{
	size_t start = out->len, col;
	const char *h = op->help, *nl;

	if (op->id < 256)
		strbuf_addf(out, "  -%c, --%s", op->id, op->name);
	else
		strbuf_addf(out, "      --%s", op->name);
	if (op->arg)
		strbuf_addf(out, " %s", op->arg);
	col = out->len - start;
	if (col < HELP_COL)
		strbuf_addchars(out, ' ', HELP_COL - col);
	else {
		strbuf_addch(out, '\n');
		strbuf_addchars(out, ' ', HELP_COL);
	}
	while ((nl = strchr(h, '\n'))) {
		strbuf_add(out, h, (size_t)(nl - h + 1));
		strbuf_addchars(out, ' ', HELP_COL);
		h = nl + 1;
	}
	strbuf_addf(out, "%s\n", h);
}

/* 1 if op's mask, restricted to within, is exactly want (want 0: if it
 * has a bit of within). */
static int in_group(const struct cli_opt *op, unsigned within, unsigned want)
{
	unsigned m = op->cmds & within;

	return want ? m == want : m != 0;
}

typedef void option_fn(const struct cli_opt *op, struct strbuf *out);

/* fn on each option in_group(within, want), in table order; their
 * number. fn NULL: only counts. */
static size_t each_option(unsigned within, unsigned want, option_fn *fn,
                          struct strbuf *out)
{
	size_t k, n = 0;

	for (k = 0; k < cli_nopts; k++)
		if (in_group(&cli_opts[k], within, want)) {
			if (fn)
				fn(&cli_opts[k], out);
			n++;
		}
	return n;
}

/* The groups of the overview and of the man page: the options of each
 * set of commands, the largest sets first, so an option of any commands
 * lands in a group without a change here; then the general ones. */
static const unsigned groups[] = {CLI_EVERY,
                                  CLI_REPORT | CLI_DIFF,
                                  CLI_REPORT | CLI_CHECK,
                                  CLI_DIFF | CLI_CHECK,
                                  CLI_REPORT,
                                  CLI_DIFF,
                                  CLI_CHECK};
#define NGROUPS  (sizeof(groups) / sizeof(groups[0]))
#define ALL_CMDS (CLI_EVERY | CLI_GENERAL)

/* "options of every command", "options of report and diff", ... */
static void group_title(unsigned mask, struct strbuf *out)
{
	static const struct {
		unsigned bit;
		const char *name;
	} cmds[] = {
	    {CLI_REPORT, "report"}, {CLI_DIFF, "diff"}, {CLI_CHECK, "check"}};
	size_t k, n = 0;

	strbuf_adds(out, "options of ");
	if (mask == CLI_EVERY) {
		strbuf_adds(out, "every command");
		return;
	}
	for (k = 0; k < sizeof(cmds) / sizeof(cmds[0]); k++)
		if (mask & cmds[k].bit)
			strbuf_addf(out, "%s%s", n++ ? " and " : "",
			            cmds[k].name);
}

static void overview(struct strbuf *out)
{
	size_t g, shown = 0;

	strbuf_adds(out,
	            "usage: sdperf report PATH... [OPTION]...\n"
	            "       sdperf diff BASE NEW [OPTION]...\n"
	            "       sdperf check PATH [OPTION]...\n"
	            "       sdperf summarize RANK_PATH -o FILE [OPTION]...\n"
	            "       sdperf COMMAND --help\n"
	            "       sdperf --completion bash\n"
	            "       sdperf --help | --version\n\n");
	strbuf_addf(out, "%s\n%s\n%s\n", about, commands_text, path_text);
	for (g = 0; g < NGROUPS; g++) {
		if (!each_option(ALL_CMDS, groups[g], NULL, NULL))
			continue;
		if (shown++)
			strbuf_addch(out, '\n');
		group_title(groups[g], out);
		strbuf_adds(out, ":\n");
		each_option(ALL_CMDS, groups[g], option_lines, out);
	}
	strbuf_adds(out, "\noptions of summarize (see sdperf summarize --help):"
	                 "\n-o FILE (required), --rules, --jobs, --max-memory,"
	                 " --strict, --follow-links, --quiet\n\n");
	each_option(CLI_GENERAL, 0, option_lines, out);
	strbuf_addf(out, "\n%s\n%s", conventions, exit_codes);
}

/* ---- the man page's OPTIONS section ----------------------------------- */

/* s as roff text: a backslash as \e; every '-' as \-, so option names
 * and paths copy from the page as ASCII; a '.' or '\'' that starts a line,
 * which would make a request, after \&. The --help line breaks stay: in
 * filled text a newline only separates words (help lines never break
 * inside a word). */
static void roff_text(const char *s, struct strbuf *out)
{
	int bol = 1;

	for (; *s; s++) {
		if (bol && (*s == '.' || *s == '\''))
			strbuf_adds(out, "\\&");
		if (*s == '\\')
			strbuf_adds(out, "\\e");
		else if (*s == '-')
			strbuf_adds(out, "\\-");
		else
			strbuf_addch(out, *s);
		bol = *s == '\n';
	}
}

/* One option as a tagged paragraph:
 *   .TP
 *   \fB\-o\fR, \fB\-\-output\fR \fIOUTDIR\fR
 *   where reports go ... */
static void man_option(const struct cli_opt *op, struct strbuf *out)
{
	strbuf_adds(out, ".TP\n");
	if (op->id < 256)
		strbuf_addf(out, "\\fB\\-%c\\fR, ", op->id);
	strbuf_adds(out, "\\fB\\-\\-");
	roff_text(op->name, out);
	strbuf_adds(out, "\\fR");
	if (op->arg) {
		strbuf_adds(out, " \\fI");
		roff_text(op->arg, out);
		strbuf_adds(out, "\\fR");
	}
	strbuf_addch(out, '\n');
	roff_text(op->help, out);
	strbuf_addch(out, '\n');
}

void cli_man_options(struct strbuf *out)
{
	size_t g, at;

	for (g = 0; g < NGROUPS; g++) {
		if (!each_option(ALL_CMDS, groups[g], NULL, NULL))
			continue;
		strbuf_adds(out, ".SS \"");
		at = out->len;
		group_title(groups[g], out);
		out->buf[at] = 'O'; /* "Options of ..." */
		strbuf_adds(out, "\"\n");
		each_option(ALL_CMDS, groups[g], man_option, out);
	}
	strbuf_adds(out, ".SS \"General options\"\n");
	each_option(CLI_GENERAL, 0, man_option, out);
}

void cli_help(enum command cmd, struct strbuf *out)
{
	if (cmd == CMD_REPORT)
		strbuf_addf(out,
		            "usage: sdperf report PATH... [OPTION]...\n\n%s\n"
		            "%s\noptions:\n",
		            about, path_text);
	else if (cmd == CMD_DIFF)
		strbuf_addf(out,
		            "usage: sdperf diff BASE NEW [OPTION]...\n\n%s\n"
		            "options:\n",
		            diff_text);
	else if (cmd == CMD_CHECK)
		strbuf_addf(out,
		            "usage: sdperf check PATH [OPTION]...\n\n%s\n"
		            "options:\n",
		            check_text);
	else if (cmd == CMD_SUMMARIZE)
		strbuf_addf(out,
		            "usage: sdperf summarize RANK_PATH -o FILE "
		            "[OPTION]...\n\n%s\noptions:\n",
		            summarize_text);
	else {
		overview(out);
		return;
	}
	each_option(cmd == CMD_REPORT  ? CLI_REPORT
	            : cmd == CMD_DIFF  ? CLI_DIFF
	            : cmd == CMD_CHECK ? CLI_CHECK
	                               : CLI_SUMMARIZE,
	            0, option_lines, out);
	strbuf_addf(out, "\n%s\n%s", conventions, exit_codes);
}
