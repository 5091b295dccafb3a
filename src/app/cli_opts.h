/* The option table of the command line, shared by the parser (cli.c),
 * the value checks (cli_values.c) and the --help text and shell
 * completion (cli_help.c): one row per option, so the three cannot drift.
 * Internal to app/cli*.c. */
#ifndef SDPERF_CLI_OPTS_H
#define SDPERF_CLI_OPTS_H

#include <stddef.h>

#include "util/err.h"
#include "util/strbuf.h"

struct options; /* app/cli.h (cli.c includes this header, not the reverse) */

/* The commands an option belongs to (a mask). */
enum cli_cmds {
	CLI_REPORT = 1,
	CLI_DIFF = 2,
	CLI_CHECK = 4,
	CLI_GENERAL = 8, /* --help, --version, --completion */
	CLI_EVERY = CLI_REPORT | CLI_DIFF | CLI_CHECK,
	/* sdperf summarize takes only the options that change a rank's
	 * analysis (and -o, -q): any other is an error with it */
	CLI_SUMMARIZE = 16
};

/* What a value is, for completion. */
enum cli_value {
	CV_NONE,  /* a flag */
	CV_TEXT,  /* free text: nothing to offer */
	CV_FILE,  /* a file name */
	CV_DIR,   /* a folder name */
	CV_WORD,  /* one of words */
	CV_LIST,  /* a comma list of words */
	CV_PREFIX /* words are prefixes (NAME=): no space after one */
};

/* Option ids: getopt_long's val, the short letter when there is one. */
enum cli_id {
	OPT_OUTPUT = 'o',
	OPT_FORMAT = 'f',
	OPT_RULES = 'r',
	OPT_THRESHOLD = 't',
	OPT_JOBS = 'j',
	OPT_LANG = 'l',
	OPT_QUIET = 'q',
	OPT_HELP = 'h',
	OPT_VERSION = 'V',
	OPT_STRICT = 256,
	OPT_MAX_MEMORY,
	OPT_TITLE,
	OPT_DOCS_BASE,
	OPT_TEMPLATES,
	OPT_FONT,
	OPT_CJK_FONT,
	OPT_PER_STEP,
	OPT_MAX,
	OPT_BASELINE,
	OPT_MAX_REGRESSION,
	OPT_NO_VERDICTS,
	OPT_REQUIRE,
	OPT_COMPLETION,
	OPT_DEVICE_MEMORY,
	OPT_REDACT,
	OPT_REDACT_KEEP_NAMES,
	OPT_REDACT_KERNELS,
	OPT_ORG,
	OPT_LOGO,
	OPT_CUSTOMER,
	OPT_TICKET,
	OPT_CONFIDENTIAL,
	OPT_CONFIG,
	OPT_FOLLOW_LINKS
};

struct cli_opt {
	const char *name; /* long name, without "--" */
	int id;           /* enum cli_id; a short option when below 256 */
	const char *arg;  /* the value's name in --help; NULL: a flag */
	unsigned cmds;    /* enum cli_cmds: where --help and completion
	                   * show it. An option of one command only is an
	                   * error with another; report and diff options
	                   * are accepted (and ignored) by check, as they
	                   * always were. */
	enum cli_value value;
	const char *words; /* CV_WORD, CV_LIST, CV_PREFIX: space-separated;
	                    * NULL: from the program (--lang: the catalogues,
	                    * --threshold: the built-in thresholds) */
	const char *help;  /* --help text, lines separated by '\n'; the
	                    * man page flows the lines together, so
	                    * never break inside a word */
};

extern const struct cli_opt cli_opts[];
extern const size_t cli_nopts;

/* The row of option id, or NULL. */
const struct cli_opt *cli_opt_find(int id);

/* ---- cli_values.c: option values checked before any input is read ---- */

/* Values checked as each option is read (argv order): --format, --jobs,
 * --max-memory, --title, --lang, --max, --require, --max-regression,
 * --completion. 0, or -1 with an ERR_USAGE error naming the option and
 * quoting the value. */
int cli_value_format(const char *val, unsigned *out, struct err *e);
int cli_value_jobs(const char *val, int *out, struct err *e);
int cli_value_lang(const char *val, struct err *e);
int cli_value_completion(const char *val, struct err *e);
/* --device-memory GB: a number above 0 and at most 4096, with up to 3
 * decimals, "G" or "GB" after it allowed ("64", "31.5", "64GB"). */
int cli_value_device_memory(const char *val, double *gb, struct err *e);
/* Values checked once the command and every option are known: the
 * --threshold names and values (the built-in names; with --rules, names
 * the rules file may add are checked when it is read, still before any
 * profile), the --templates folder, the --font and --cjk-font files
 * (readable; with a PDF to write, the TrueType structure check of
 * format/pdf/fontcheck.h). */
int cli_values_final(const struct options *o, struct err *e);
/* The names of the built-in thresholds, space-separated, into out. */
void cli_threshold_names(struct strbuf *out);

#endif
