/* Which kernel times are plausible next to the others of their file. One
 * corrupt row (Start Time 0 among epoch times, a duration of centuries)
 * stretches the timeline over 55 years: stage wall times, charts and
 * sums then overflow or mean nothing. The median start of the file's
 * first PLAUSIBLE_PROBE kernels is the reference; a kernel that starts or
 * ends more than PLAUSIBLE_SPAN_NS from it is implausible, and the reader
 * skips it with a warning naming the line and the value. A profile spans
 * seconds to hours; a week either side leaves room for any real one. */
#ifndef SDPERF_PLAUSIBLE_H
#define SDPERF_PLAUSIBLE_H

#include <stddef.h>
#include <stdint.h>

#define PLAUSIBLE_PROBE     1024
#define PLAUSIBLE_DAYS      7
#define PLAUSIBLE_DAYS_TEXT "7" /* for messages */
#define PLAUSIBLE_SPAN_NS   ((int64_t)PLAUSIBLE_DAYS * 86400 * 1000000000)

/* A kernel kept while the reference is not known yet. */
struct plausible_kernel {
	int64_t start, end;
	uint64_t line; /* of its row, for the warning */
};

struct plausible {
	int ready;                      /* ref is set */
	int64_t ref;                    /* the median start of the probe */
	struct plausible_kernel *probe; /* the first kernels, in file order */
	size_t n;
};

void plausible_init(struct plausible *p);
void plausible_release(struct plausible *p);

/* Records a kernel kept before the reference is set. Returns 1 when the
 * probe is full: call plausible_settle. */
int plausible_add(struct plausible *p, int64_t start, int64_t end,
                  uint64_t line);

/* Sets the reference from the probe (none: every time is plausible). The
 * probe stays for the caller to judge with plausible_ok, then release. */
void plausible_settle(struct plausible *p);

/* 0 when [start, end] is plausible, else 1 when start is not, 2 when only
 * end is not. Always 0 before plausible_settle. */
int plausible_check(const struct plausible *p, int64_t start, int64_t end);

#endif
