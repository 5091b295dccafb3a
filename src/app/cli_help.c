/* --help (the overview and each command's) and the bash completion
 * script, both written from the option table (app/cli_opts.h). */
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

/* The options whose mask, restricted to within, is exactly want (want 0:
 * those that have the bit `within`). */
static void options_of(unsigned within, unsigned want, struct strbuf *out)
{
	size_t k;

	for (k = 0; k < cli_nopts; k++) {
		unsigned m = cli_opts[k].cmds & within;
		if (want ? m == want : m != 0)
			option_lines(&cli_opts[k], out);
	}
}

static void overview(struct strbuf *out)
{
	strbuf_adds(out,
	            "usage: sdperf report PATH... [OPTION]...\n"
	            "       sdperf diff BASE NEW [OPTION]...\n"
	            "       sdperf check PATH [OPTION]...\n"
	            "       sdperf summarize RANK_PATH -o FILE [OPTION]...\n"
	            "       sdperf COMMAND --help\n"
	            "       sdperf --completion bash\n"
	            "       sdperf --help | --version\n\n");
	strbuf_addf(out, "%s\n%s\n%s\n", about, commands_text, path_text);
	strbuf_adds(out, "options of every command:\n");
	options_of(CLI_EVERY | CLI_GENERAL, CLI_EVERY, out);
	strbuf_adds(out, "\noptions of report and diff:\n");
	options_of(CLI_EVERY | CLI_GENERAL, CLI_REPORT | CLI_DIFF, out);
	strbuf_adds(out, "\noptions of diff:\n");
	options_of(CLI_EVERY | CLI_GENERAL, CLI_DIFF, out);
	strbuf_adds(out, "\noptions of check:\n");
	options_of(CLI_EVERY | CLI_GENERAL, CLI_CHECK, out);
	strbuf_adds(out, "\noptions of summarize (see sdperf summarize --help):"
	                 "\n-o FILE (required), --rules, --jobs, --max-memory,"
	                 " --strict, --quiet\n\n");
	options_of(CLI_GENERAL, 0, out);
	strbuf_addf(out, "\n%s\n%s", conventions, exit_codes);
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
	options_of(cmd == CMD_REPORT  ? CLI_REPORT
	           : cmd == CMD_DIFF  ? CLI_DIFF
	           : cmd == CMD_CHECK ? CLI_CHECK
	                              : CLI_SUMMARIZE,
	           0, out);
	strbuf_addf(out, "\n%s\n%s", conventions, exit_codes);
}
