/* Per-step figures of step_trace_time.csv: warm-up / outlier steps and the
 * device-idle share behind the host_bound verdict. */
#ifndef SDPERF_STEPS_H
#define SDPERF_STEPS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/result.h"

/* Flags outliers in s (a step whose Stage time is at least factor times
 * the median of the other steps: warm-up when it is the first step, else
 * outlier; needs 3 steps or more), sets each step's ratio (its time over
 * the median of the others) and returns the Free share of the other
 * steps' device time (Computing + Not overlapped + Free) in parts per
 * million, or -1 when there is no device time. Sorts the step times once:
 * O(n log n). */
int64_t steps_analyse(struct step_stat *s, size_t n, double factor);

/* Step i's time over the median of the other steps (0 when undefined);
 * O(n log n) for one step: after steps_analyse, read s[i].ratio. */
double steps_ratio(const struct step_stat *s, size_t n, size_t i);

#endif
