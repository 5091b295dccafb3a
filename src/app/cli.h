/* Command line: a table of options parsed into struct options. */
#ifndef SDPERF_CLI_H
#define SDPERF_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

enum output_format {
	FORMAT_JSON = 1,
	FORMAT_HTML = 2,
	FORMAT_MD = 4,
	FORMAT_PDF = 8
};
#define FORMATS_AVAILABLE (FORMAT_JSON | FORMAT_HTML | FORMAT_MD | FORMAT_PDF)

enum command {
	CMD_NONE,
	CMD_REPORT,
	CMD_DIFF,
	CMD_CHECK,
	CMD_HELP,
	CMD_VERSION
};

struct options {
	enum command cmd;
	const char *path;   /* the first PATH */
	const char **paths; /* every PATH, in order given */
	size_t npaths;
	int jobs; /* ranks analysed at once; 0: one per core */
	/* --max-memory in bytes (util/membudget.h); 0: the default */
	uint64_t max_memory;
	const char *outdir;
	int outdir_given; /* -o was given */
	unsigned formats;
	const char *rules;
	const char **thresholds; /* NAME=VALUE, in order given */
	size_t nthresholds;
	int quiet;
	int strict;
	const char *title;         /* report title, NULL: the catalogue's */
	const char *lang;          /* "en" (default) or "zh" */
	const char *docs_base;     /* MindIE-SD doc link base, NULL: default */
	const char *templates_dir; /* user's templates, NULL: embedded */
	const char *font;          /* PDF Latin font file, NULL: DejaVu Sans */
	const char *cjk_font;      /* PDF CJK font file, NULL: WenQuanYi */
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

/* Parses argv. Returns 0, or -1 with an ERR_USAGE error. o->thresholds
 * points into a list the caller frees with cli_release. */
int cli_parse(int argc, char **argv, struct options *o, struct err *e);
void cli_release(struct options *o);
/* The --help text. */
const char *cli_usage(void);

#endif
