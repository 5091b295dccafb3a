/* profiler_info.json / profiler_info_{rank}.json: the rank id and the
 * versions and settings the profile was taken with. */
#ifndef SDPERF_PROFINFO_H
#define SDPERF_PROFINFO_H

#include <stdint.h>

#include "util/err.h"

struct profinfo {
	int64_t rank_id;                        /* -1 when absent */
	char *torch_npu_version, *cann_version; /* NULL when absent */
	char *profiler_level, *aic_metrics;     /* "Level1", "ACL_AICORE_..." */
};

/* Reads the file (at most 4 MiB). Returns 0, or -1 with ERR_INPUT naming
 * the file and, for a syntax error, the line:column. Every field is
 * optional; a field of the wrong type counts as absent. */
int profinfo_read(const char *path, struct profinfo *pi, struct err *e);
void profinfo_release(struct profinfo *pi);

#endif
