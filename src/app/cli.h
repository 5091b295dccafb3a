/* Command line, GNU style (getopt_long): a table of options parsed into
 * struct options, every value checked before any input is read; the same
 * table gives --help (overview and per command) and the bash completion. */
#ifndef SDPERF_CLI_H
#define SDPERF_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"
#include "util/strbuf.h"

enum output_format {
	FORMAT_JSON = 1,
	FORMAT_HTML = 2,
	FORMAT_MD = 4,
	FORMAT_PDF = 8,
	FORMAT_FRAGMENT = 16 /* the HTML body for a wiki page */
};
/* Without --format: the four a reader opens. The fragment is asked for by
 * name: it is for the few who publish on a wiki, and a fifth file in every
 * run would only be one more to ignore. */
#define FORMATS_DEFAULT (FORMAT_JSON | FORMAT_HTML | FORMAT_MD | FORMAT_PDF)

enum command {
	CMD_NONE,
	CMD_REPORT,
	CMD_DIFF,
	CMD_CHECK,
	CMD_SUMMARIZE,
	CMD_HELP,
	CMD_VERSION,
	CMD_COMPLETION
};

struct options {
	enum command cmd;
	/* CMD_HELP: the command whose help is asked for (sdperf report
	 * --help), CMD_NONE: the overview (sdperf --help) */
	enum command help_cmd;
	const char *completion; /* CMD_COMPLETION: the shell ("bash") */
	const char *path;       /* the first PATH */
	const char **paths;     /* every PATH, in order given */
	size_t npaths;
	int jobs;                /* ranks analysed at once; 0: one per core */
	double device_memory_gb; /* --device-memory; 0: from the chip */
	/* --max-memory in bytes (util/membudget.h); 0: the default */
	uint64_t max_memory;
	const char *outdir; /* summarize: the summary file */
	int outdir_given;   /* -o was given */
	unsigned formats;
	const char *rules;
	const char **thresholds; /* NAME=VALUE, in order given */
	size_t nthresholds;
	int quiet;
	int strict;
	int follow_links;      /* --follow-links: discovery follows symlinks out
	                        * of a PATH */
	const char *title;     /* report title, NULL: the catalogue's */
	const char *lang;      /* "en" (default) or "zh" */
	const char *docs_base; /* MindIE-SD doc link base, NULL: default */
	const char *templates_dir; /* user's templates, NULL: embedded */
	const char *font;          /* PDF Latin font file, NULL: DejaVu Sans */
	const char *cjk_font;      /* PDF CJK font file, NULL: WenQuanYi */
	/* sdperf report --redact: pseudonyms for what identifies the
	 * machine, the people and the network (analysis/redact.h);
	 * redact_kernels: Other operator names too (--redact-kernels) */
	int redact, redact_kernels;
	/* branding (app/brand.h): from the command line or the config
	 * file, NULL when neither gives it */
	const char *org, *logo, *customer, *ticket, *confidential;
	const char *config;      /* --config FILE */
	const char *config_used; /* the config file read, NULL: none */
	/* "sdperf.json" or ".sdperf.json": found in the current folder and
	 * not read (brand_note), NULL: none */
	const char *config_ignored;
	uint64_t logo_charged; /* the logo's bytes charged to the budget */
	unsigned char from_config[5]; /* the org..confidential above came
	                               * from the config file */
	unsigned char *logo_data;     /* the logo's bytes (brand_resolve) */
	size_t logo_len;
	const char *logo_mime; /* "image/png", "image/jpeg" */
	char **owned;          /* strings the config file gave */
	size_t nowned;
	/* the command line as given, for the report's provenance */
	int argc;
	char **argv;
	/* what the provenance leaves out of it: -j N (--jobs) changes no
	 * output byte, so the reports are the same bytes for every -j
	 * (cuts[k].keep: the bytes of word kept, a "-q" of "-qj2"; 0: the
	 * whole word) */
	struct argv_cut {
		const char *word;
		size_t keep;
	} cuts[8];
	size_t ncuts;
	/* sdperf diff */
	int per_step; /* compare times per profiler step */
	/* sdperf check */
	const char **max; /* --max NAME=VALUE, in order given */
	size_t nmax;
	const char *baseline;       /* --baseline report.json */
	const char *max_regression; /* --max-regression PCT, NULL: none */
	int no_verdicts;            /* a fired verdict does not fail */
	const char **require;       /* --require LIST, in order given */
	size_t nrequire;
};

/* Parses argv with getopt_long: options before or after the command and
 * PATHs, "--opt=VALUE" and "--opt VALUE", "-oDIR" and "-o DIR", bundled
 * flags ("-qfjson"), unambiguous abbreviations of long options, "--" ends
 * the options, "-" is a PATH. --help (or -h) wins over any other error on
 * the line. Then every option value is checked, still before any input
 * is read (cli_opts.h says which checks, and when). Returns 0, or -1 with
 * an ERR_USAGE error naming the option and quoting the value. o's lists
 * point into argv; the caller frees them with cli_release (also after an
 * error). */
int cli_parse(int argc, char **argv, struct options *o, struct err *e);
void cli_release(struct options *o);
/* The --help text of cmd (CMD_REPORT, CMD_DIFF, CMD_CHECK), or the
 * overview (CMD_NONE), appended to out. */
void cli_help(enum command cmd, struct strbuf *out);
/* The body of the man page's OPTIONS section in roff, appended to out:
 * one subsection per set of commands, as in the overview, one tagged
 * paragraph per option. The rest of the page is written by hand
 * (docs/sdperf.1.in); src/mangen.c joins them at build time. */
void cli_man_options(struct strbuf *out);
/* The completion script for shell ("bash", the one cli_parse accepts),
 * appended to out: commands, each command's options, the values of
 * --lang, --format, --threshold, --require and --completion, file and
 * folder names where a path is asked for. Source it, or install it as
 * share/bash-completion/completions/sdperf. */
void cli_completion(const char *shell, struct strbuf *out);

#endif
