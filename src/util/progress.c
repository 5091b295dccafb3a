/* Progress display: "reading kernel_details.csv  412.0/1024.0 MB  380 MB/s". */
#include "util/progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "util/banned.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void progress_start(struct progress *p, const char *label, int64_t total,
                    int enabled)
{
	p->enabled = enabled && isatty(STDERR_FILENO);
	p->label = label;
	p->total = total;
	p->done = 0;
	p->t0 = p->enabled ? now() : 0;
	p->last =
	    p->t0 - 1.0; /* draw at the first chunk, then 4 times a second */
}

void progress_add(struct progress *p, int64_t n)
{
	double t, rate;

	p->done += n;
	if (!p->enabled)
		return;
	t = now();
	if (t - p->last < 0.25)
		return;
	p->last = t;
	rate = (double)p->done / 1e6 / (t - p->t0 > 1e-9 ? t - p->t0 : 1e-9);
	if (p->total > 0)
		fprintf(stderr, "\r%s  %.1f/%.1f MB (%3.0f%%)  %.0f MB/s\033[K",
		        p->label, (double)p->done / 1e6, (double)p->total / 1e6,
		        100.0 * (double)p->done / (double)p->total, rate);
	else
		fprintf(stderr, "\r%s  %.1f MB  %.0f MB/s\033[K", p->label,
		        (double)p->done / 1e6, rate);
}

void progress_stop(struct progress *p)
{
	if (p->enabled)
		fprintf(stderr, "\r\033[K");
	p->enabled = 0;
}
