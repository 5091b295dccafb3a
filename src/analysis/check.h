/* The checks of "sdperf check": limits on report.json values (--max), fired
 * verdicts, and wall-time regressions against a baseline report. Knows
 * nothing of the command line: the caller hands in the options. */
#ifndef SDPERF_CHECK_H
#define SDPERF_CHECK_H

#include <stddef.h>

#include "analysis/compare.h"
#include "util/err.h"

/* --max NAME=VALUE: NAME is a path into report.json, keys separated by
 * dots and array elements by index ("stages.dit.categories.FA.share_pct",
 * "ranks.2.dit_compute_us", "verdicts.0.value_pct"); its value must be a
 * number. Keys match exactly, else ignoring case. Shorthands (any case),
 * for STAGE in dit, vae, text_encoder, other and CATEGORY in FA, MatMul,
 * Conv, Vector, Comm, Other:
 *   STAGE.CATEGORY.share      stages.STAGE.categories.CATEGORY.share_pct
 *                             / 100 (a fraction: dit.fa.share=0.30)
 *   STAGE.exposed_comm.share  stages.STAGE.communication.
 *                             exposed_share_of_wall_pct / 100
 *   STAGE.wall_ms             stages.STAGE.wall_time_us / 1000
 *   STAGE.kernel_ms           stages.STAGE.kernel_time_us / 1000
 * A value exactly at its limit passes (up to a relative 1e-9, so that a
 * unit change such as us -> ms cannot fail a limit typed from the report). */
struct check_opts {
	const char *const *max; /* "NAME=VALUE" as given to --max */
	size_t nmax;
	int verdicts; /* a fired verdict fails the check (default on) */
	const struct snapshot *baseline; /* NULL: no regression check */
	/* with baseline: a stage whose wall time (per step when both sides
	 * have steps) grew by more than this (percent) fails */
	double max_regression_pct;
	/* --require LIST: collection requirements (comma lists, see
	 * check_require) */
	const char *const *require;
	size_t nrequire;
};

struct check_result {
	char **failures; /* one English line per failed check */
	size_t nfailures;
	size_t nchecks; /* checks evaluated: --max limits, applicable
	                 * verdicts (when on), stages compared with the
	                 * baseline */
};

/* Evaluates the checks on a report.json text (name used in messages) and
 * its snapshot s (read from the same text) into out (initialised here;
 * release it also on error). Failure lines look like
 *   stages.dit.categories.FA.share_pct = 42.1 > 30 (--max)
 *   dit.fa.share = 0.421 > 0.3 (--max)
 *   verdict comm_overlap fired: exposed communication share of dit wall
 *     time 53.6% > 30% (worst: rank 1)
 *   dit wall time per step 812.300 ms vs 760.100 ms in the baseline:
 *     +6.9% > 5% (--max-regression)
 * Returns 0 (failures may be non-empty), or -1 with ERR_USAGE for a bad
 * --max (no '=', VALUE not a number, NAME unknown: the message names the
 * names that exist at that level, or NAME's value is not a number) or
 * ERR_INPUT (json is not valid JSON). */
int check_run(const char *name, const char *json, size_t len,
              const struct snapshot *s, const struct check_opts *o,
              struct check_result *out, struct err *e);
void check_result_release(struct check_result *r);
/* Appends a failure line (taking line, a malloc'ed string) to out. */
void check_fail(struct check_result *out, char *line);

/* --require: each comma-separated item of lists must hold for every
 * analysed rank of report.json's "collection" (or for the run: export,
 * complete). The vocabulary:
 *   level0, level1, level2   profiler level at least that (Level_none is
 *                            below level0)
 *   cpu                      host (CPU activity) events
 *   steps[=N]                at least N timed steps (default 5)
 *   shapes, memory, aic_metrics   input shapes, memory data, AI Core
 *                            metrics present
 *   export=text|db|trace     the export that was read
 *   complete                 no gap at all
 * A fact the files cannot tell fails. Names and values match ignoring
 * case. check_require_validate checks the items alone (-1, ERR_USAGE
 * naming the bad item and listing the known ones); check_require adds
 * one failure line per unmet item to out, e.g.
 *   level1: profiler level Level0, below Level1 (ranks 0, 1) (--require)
 *   steps=5: 1 timed step, fewer than 5 (rank 0) (--require)
 *   cpu: no CPU activity (host events) (rank 0) (--require)
 * and returns 0, or -1: ERR_USAGE as above, ERR_INPUT when doc has no
 * collection check (a report.json of an older sdperf; name is used in
 * the message). */
struct snapdoc;
int check_require_validate(const char *const *lists, size_t n, struct err *e);
int check_require(const char *name, const struct snapdoc *doc,
                  const char *const *lists, size_t n, struct check_result *out,
                  struct err *e);

/* Checks --max arguments without a report (before any input is read):
 * NAME=VALUE, VALUE a number, a shorthand NAME one that exists. A full
 * path is looked up in the report by check_run. -1 with ERR_USAGE as
 * check_run's. */
int check_max_validate(const char *const *max, size_t n, struct err *e);

/* Parses "5%" or "5" (percent, 0..1000) for --max-regression into *out;
 * -1 with ERR_USAGE quoting arg. */
int check_parse_pct(const char *arg, double *out, struct err *e);

#endif
