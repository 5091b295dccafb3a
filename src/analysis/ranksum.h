/* A rank summary (sdperf summarize): one rank's result as rank_analyse
 * leaves it, before the ranks are merged (analysis/cluster.h), with the
 * discovery notes of its folder. It holds everything the merge, the
 * verdicts and every report read of a rank, and nothing more, so that
 * merging summaries gives exactly the report of the one-process run. Its
 * size is bounded whatever the profile's: every list in a rank's result
 * is capped (RESULT_MAX_*, BREAKDOWN_TOP).
 *
 * The field tables below describe the result for the one writer
 * (format/json/ranksum_json.h) and the one reader (input/sumread.h). */
#ifndef SDPERF_RANKSUM_H
#define SDPERF_RANKSUM_H

#include <stddef.h>

#include "analysis/result.h"
#include "input/discover.h"
#include "util/err.h"
#include "util/fieldtab.h"

/* The format version ("sdperf_summary"): bumped whenever the tables
 * change, so that a summary of another sdperf is refused by name instead
 * of misread. */
#define RANKSUM_VERSION                                                        \
	2 /* 2: rank_memory framework_source, device_source;                   \
	   * totals checks, links, unused files; workload */

/* A summary larger than this is refused (a rank's result at its caps is
 * a few MiB). */
#define RANKSUM_MAX_BYTES      (64u << 20)
#define RANKSUM_MAX_BYTES_TEXT "64 MiB"

/* Warnings a summary may hold (a rank's are few: the readers name the
 * first bad rows, not all). */
#define RANKSUM_MAX_WARNINGS 100000

struct ranksum {
	char *tool_version; /* the sdperf that wrote it (SDPERF_VERSION) */
	/* the rules the rank was analysed with: "sha256:HEX" of the rules
	 * text (the built-in one or the --rules file) */
	char *rules;
	struct disc_note *notes; /* discovery's notes of the rank's folder */
	size_t nnotes;
	struct result part; /* ranks[0] describes the rank (nranks 1) */
};

extern const struct ft_table ranksum_table;

/* Reads the summary at path into s (initialised here; released by the
 * caller, also on error, with ranksum_release). Beyond the reader's
 * checks (input/sumread.h): exactly one rank. 0, or -1 with ERR_INPUT. */
int ranksum_read(const char *path, struct ranksum *s, struct err *e);
/* The same from text in memory (name in messages). */
int ranksum_read_text(const char *name, const char *text, size_t len,
                      struct ranksum *s, struct err *e);
void ranksum_release(struct ranksum *s);

#endif
