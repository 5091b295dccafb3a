/* Progress on stderr for long reads: only when stderr is a terminal. */
#ifndef SDPERF_PROGRESS_H
#define SDPERF_PROGRESS_H

#include <stdint.h>

struct progress {
	int enabled;
	const char *label;
	int64_t total; /* bytes, or -1 if unknown */
	int64_t done;
	double t0, last; /* monotonic seconds */
};

/* enabled: the caller's wish (not --quiet); progress is shown only if that
 * holds AND stderr is a terminal. */
void progress_start(struct progress *p, const char *label, int64_t total,
                    int enabled);
/* Adds n bytes; redraws at most a few times per second. */
void progress_add(struct progress *p, int64_t n);
/* Clears the line. */
void progress_stop(struct progress *p);

#endif
