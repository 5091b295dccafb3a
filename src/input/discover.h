/* Finds the profiler files behind the PATH a user gives. */
#ifndef SDPERF_DISCOVER_H
#define SDPERF_DISCOVER_H

#include "util/err.h"

struct discovered {
	char *kernels_csv; /* path of kernel_details.csv */
	char *output_dir;  /* the ASCEND_PROFILER_OUTPUT folder, or NULL */
	char *rank_dir;    /* the *_ascend_pt folder, or NULL */
};

/* PATH may be a rank folder (*_ascend_pt), an ASCEND_PROFILER_OUTPUT
 * folder, a kernel_details.csv file, or a folder holding exactly one rank
 * folder. Returns 0, or -1 with ERR_INPUT (nothing usable there) or
 * ERR_USAGE (several rank folders: name one). */
int discover_profile(const char *path, struct discovered *d, struct err *e);
void discover_release(struct discovered *d);

#endif
