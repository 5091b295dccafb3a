/* profiler_info.json / profiler_info_{rank}.json: the rank id and the
 * versions and settings the profile was taken with. */
#ifndef SDPERF_PROFINFO_H
#define SDPERF_PROFINFO_H

#include <stdint.h>

#include "util/err.h"

/* The collection settings profiler_info records (config.common_config
 * and config.experimental_config); -1 where a setting is absent or of
 * another type. Plain data: no strings to free. */
struct profinfo_setup {
	int cpu, npu; /* activities lists ProfilerActivity.CPU / .NPU (-1:
	               * no activities list) */
	int record_shapes, profile_memory;
	int schedule; /* 1: a schedule object (its numbers below, each -1
	               * when absent); 0 or -1: none */
	int64_t wait, warmup, active, repeat, skip_first;
	/* _export_type: "text", "db", or "text,db" for a list of both;
	 * "" when absent */
	char export_type[16];
};

struct profinfo {
	int64_t rank_id;                        /* -1 when absent */
	char *torch_npu_version, *cann_version; /* NULL when absent */
	char *profiler_level, *aic_metrics;     /* "Level1", "ACL_AICORE_..." */
	struct profinfo_setup setup;
	/* end_info.collectionTimeEnd in seconds since the Unix epoch (UTC):
	 * when the capture ended; -1 when absent */
	int64_t capture_end_s;
};

/* Reads the file (at most 4 MiB). Returns 0, or -1 with ERR_INPUT naming
 * the file and, for a syntax error, the line:column. Every field is
 * optional; a field of the wrong type counts as absent. The schedule's
 * numbers are read under their plain names (wait, warmup, ...) or, as
 * older profilers write them, with a leading '_' (_wait, _warmup, ...). */
int profinfo_read(const char *path, struct profinfo *pi, struct err *e);
void profinfo_release(struct profinfo *pi);
/* Every setting of s unknown (-1, export_type ""). */
void profinfo_setup_init(struct profinfo_setup *s);

#endif
