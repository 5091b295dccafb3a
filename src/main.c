/* sdperf entry point: parse, run, print the error, pick the exit code. */
#include <stdio.h>
#include <string.h>

#include "app/about.h"
#include "app/cli.h"
#include "app/pipeline.h"
#include "app/summaries.h"
#include "util/banned.h"
#include "util/err.h"
#include "util/strbuf.h"

/* An error message to stderr. It quotes paths and values from the
 * command line, the file system and the data: control characters and
 * invalid UTF-8 are shown as \xNN, so a folder named with terminal
 * escapes cannot retitle or clear the terminal. */
static void print_error(const char *prefix, const char *msg)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_adds(&sb, prefix);
	strbuf_add_sanitized(&sb, msg, strlen(msg));
	strbuf_addch(&sb, '\n');
	fputs(sb.buf, stderr);
	strbuf_release(&sb);
}

int main(int argc, char **argv)
{
	struct options o;
	struct err e = ERR_INIT;
	int ret = 0;

	if (cli_parse(argc, argv, &o, &e)) {
		print_error("sdperf: ", e.msg);
		cli_release(&o);
		return e.code;
	}
	if (o.cmd == CMD_HELP || o.cmd == CMD_COMPLETION ||
	    o.cmd == CMD_VERSION) {
		struct strbuf sb = STRBUF_INIT;
		if (o.cmd == CMD_HELP)
			cli_help(o.help_cmd, &sb);
		else if (o.cmd == CMD_VERSION)
			about_version(&sb);
		else
			cli_completion(o.completion, &sb);
		fputs(sb.buf, stdout);
		strbuf_release(&sb);
	} else if ((o.cmd == CMD_DIFF        ? pipeline_diff(&o, &e)
	            : o.cmd == CMD_CHECK     ? pipeline_check(&o, &e)
	            : o.cmd == CMD_SUMMARIZE ? pipeline_summarize(&o, &e)
	                                     : pipeline_report(&o, &e))) {
		/* a failed check is the command's answer, not an error */
		print_error(e.code == ERR_CHECK ? "sdperf: check: "
		                                : "sdperf: error: ",
		            e.msg);
		ret = e.code;
	}
	cli_release(&o);
	return ret;
}
