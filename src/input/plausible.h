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

#include "input/profile.h"

#define PLAUSIBLE_PROBE   1024
#define PLAUSIBLE_DAYS    7
#define PLAUSIBLE_SPAN_NS ((int64_t)PLAUSIBLE_DAYS * 86400 * 1000000000)

/* A kernel kept while the reference is not known yet. */
struct plausible_kernel {
	int64_t start, dur;
	uint64_t line; /* of its row, for the warning */
};

struct plausible {
	int ready;   /* probing is over (plausible_settle was called) */
	int has_ref; /* ... and found a reference: */
	int64_t ref; /* the median start of the probe */
	struct plausible_kernel *probe; /* the first kernels, in file order */
	size_t n;
	size_t from; /* the first one's index in the kernel table */
};

void plausible_init(struct plausible *p);
void plausible_release(struct plausible *p);

/* Records a kernel kept before the reference is set, at index idx of the
 * kernel table. Returns 1 when the probe is full: call plausible_settle. */
int plausible_add(struct plausible *p, int64_t start, int64_t dur,
                  uint64_t line, size_t idx);

/* 0 when [start, start + dur] is plausible, else 1 when start is not, 2
 * when only the end is not. Always 0 before plausible_settle. */
int plausible_check(const struct plausible *p, int64_t start, int64_t dur);

/* Why a time is implausible (which: 1 or 2, as plausible_check says),
 * for messages. */
const char *plausible_why(int which);

typedef void (*plausible_skip_fn)(void *ctx, const struct plausible_kernel *k,
                                  int which);

/* Sets the reference from the probe and judges the probed kernels, which
 * are v[from..from + n) in file order: the plausible ones are moved down,
 * each other one is passed to skip. Returns the new end of v (from when
 * nothing was probed); the probe is released, and later kernels are
 * judged with plausible_check. */
size_t plausible_settle(struct plausible *p, struct kernel *v,
                        plausible_skip_fn skip, void *ctx);

#endif
