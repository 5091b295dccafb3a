/* Command line: a table of options parsed into struct options. */
#ifndef SDPERF_CLI_H
#define SDPERF_CLI_H

#include <stddef.h>

#include "util/err.h"

enum output_format { FORMAT_JSON = 1 };
#define FORMATS_AVAILABLE FORMAT_JSON

enum command { CMD_NONE, CMD_REPORT, CMD_HELP, CMD_VERSION };

struct options {
	enum command cmd;
	const char *path;
	const char *outdir;
	unsigned formats;
	const char *rules;
	const char **thresholds; /* NAME=VALUE, in order given */
	size_t nthresholds;
	int quiet;
	int strict;
};

/* Parses argv. Returns 0, or -1 with an ERR_USAGE error. o->thresholds
 * points into a list the caller frees with cli_release. */
int cli_parse(int argc, char **argv, struct options *o, struct err *e);
void cli_release(struct options *o);
/* The --help text. */
const char *cli_usage(void);

#endif
