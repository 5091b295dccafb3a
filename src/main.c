/* sdperf entry point: parse, run, print the error, pick the exit code. */
#include <stdio.h>

#include "cli.h"
#include "pipeline.h"
#include "util/banned.h"
#include "util/err.h"
#include "version.h"

int main(int argc, char **argv)
{
	struct options o;
	struct err e = ERR_INIT;
	int ret = 0;

	if (cli_parse(argc, argv, &o, &e)) {
		fprintf(stderr, "sdperf: %s\n", e.msg);
		cli_release(&o);
		return e.code;
	}
	if (o.cmd == CMD_HELP)
		fputs(cli_usage(), stdout);
	else if (o.cmd == CMD_VERSION)
		printf("sdperf %s\n", SDPERF_VERSION);
	else if ((o.cmd == CMD_DIFF    ? pipeline_diff(&o, &e)
	          : o.cmd == CMD_CHECK ? pipeline_check(&o, &e)
	                               : pipeline_report(&o, &e))) {
		/* a failed check is the command's answer, not an error */
		fprintf(stderr, "sdperf: %s%s\n",
		        e.code == ERR_CHECK ? "check: " : "error: ", e.msg);
		ret = e.code;
	}
	cli_release(&o);
	return ret;
}
