/* The profiler's own totals as a check on what the kernels give:
 * step_trace_time.csv's (or the db's STEP_TIME split) Computing,
 * Communication(Not Overlapped) and Free summed over the steps, the
 * trace's Overlap Analysis, op_statistic.csv's total time and count. Each
 * comparison has a tolerance in the rules ("totals"); one beyond it is a
 * warning that names the missing or extra time and says which figure the
 * report uses, and makes the trust line low (analysis/summary.h). */
#ifndef SDPERF_TOTALS_H
#define SDPERF_TOTALS_H

#include <stddef.h>

#include "analysis/result.h"
#include "analysis/rules.h"
#include "input/opstat.h"
#include "input/profile.h"

/* One sweep over the kernels (sorted by start): key_cat[key] is each
 * key's category. Fills out (set 1). */
void totals_measure(const struct kernel *k, size_t n,
                    const unsigned char *key_cat, struct kernel_totals *out);

/* Compares rr's step rows (source: "step_trace_time", "db_step_time",
 * ...; static) with rr->ktot; path names the file in warnings. Steps that
 * were not all kept (steps_total > nsteps) or a missing ktot: no check. */
void totals_check_steps(struct result *r, struct rank_result *rr,
                        const struct rules *ru, const char *source,
                        const char *path);

/* Records the Overlap Analysis comparison of the stage that differs
 * most: ours and theirs in ns of exposed communication, base the stage's
 * wall time; the warning is the caller's (overlap_mismatch), this adds
 * which figure the report uses. */
void totals_check_overlap(struct result *r, struct rank_result *rr,
                          const struct rules *ru, int64_t ours, int64_t theirs,
                          int64_t base);

/* Compares op_statistic.csv's sums with the kernels' (kernel time and
 * count per type: types[n], from the kernel table). */
struct kernel_type_sum {
	const char *type; /* borrowed */
	uint64_t count;
	int64_t time_ns;
};
void totals_check_opstat(struct result *r, struct rank_result *rr,
                         const struct rules *ru, const struct opstat *os,
                         const struct kernel_type_sum *types, size_t n);

/* Whether any analysed rank had a total to compare with. */
int totals_checked(const struct result *r);

#endif
