/* Before/after comparison of two analysed runs ("sdperf diff BASE NEW").
 *
 * Both sides are first reduced to a snapshot (input/snapshot.h) read from
 * report.json (a profile is analysed and rendered to report.json text
 * first), so a diff against a kept report.json equals the diff against its
 * profile by construction. Times are integer ns (report.json's microseconds
 * with 3 decimals, read exactly). */
#ifndef SDPERF_COMPARE_H
#define SDPERF_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "core/vocab.h"
#include "input/snapshot.h"
#include "util/err.h"

/* ---- the comparison ----------------------------------------------------- */

/* base and new value of one time (ns); delta = new - base */
struct cmp_time {
	int64_t base, new_;
};
/* base and new value of one share (percent) */
struct cmp_share {
	double base, new_;
};

struct cmp_stage {
	int in_base, in_new; /* the stage has kernels on that side */
	struct cmp_time kernel, wall, exposed;
	struct cmp_share exposed_share; /* exposed / wall */
	struct cmp_time cat[CAT_COUNT];
	struct cmp_share cat_share[CAT_COUNT]; /* of the stage's kernel time */
	double speedup; /* base wall / new wall; 0 when either is 0 */
};

enum verdict_change {
	VC_APPEARED, /* fired in new only */
	VC_CLEARED,  /* fired in base only */
	VC_STAYED,   /* fired in both */
	VC_NEVER     /* fired in neither */
};
/* "appeared", "cleared", "stayed", "never" */
extern const char *const verdict_change_names[4];

struct cmp_verdict {
	char *id;
	enum stage stage; /* or STAGE_ALL */
	enum verdict_change change;
	int base_applicable, new_applicable;
	double base, new_, threshold; /* percent */
	/* the base report's expected gain for it, when it fired there with
	 * an estimate (promised): the end-to-end saving in percent, low and
	 * high end; compare with comparison.e2e */
	int promised;
	double promised_low_pct, promised_high_pct;
};

enum type_status { TS_BOTH, TS_ADDED, TS_REMOVED };
/* "both", "added", "removed" */
extern const char *const type_status_names[3];

/* a kernel type of one stage, matched by Type across the two sides */
struct cmp_type {
	char *type;
	enum category cat;
	enum stage stage;
	enum type_status status;
	struct cmp_time time;
	uint64_t base_count, new_count;
};

struct cmp_rank { /* a rank id present on both sides */
	int32_t id;
	struct cmp_time dit_kernel, dit_wall, dit_exposed, dit_compute;
	struct cmp_time comm_wait; /* -1 on a side without it */
};

/* Shape differences the reader must know about: code "ranks_differ",
 * "steps_differ", "iterations_differ" (the DiT kernel types both sides
 * have run, per step, more than 5% more or less often (median over the
 * types): another number of denoising iterations or blocks; replaced
 * kernel types alone do not count), or "versions_differ" (args: base
 * value, new value). */
struct cmp_warning {
	char *code;
	char *args[2];
	char *message; /* English */
};

struct comparison {
	char *base_source, *new_source;
	/* both sides are one stage of the same workload kind (a
	 * workload_kind_names entry, static): the "other" stage is named for
	 * it; else NULL */
	const char *one_stage_kind;
	int per_step; /* times divided by each side's step count */
	size_t base_steps, new_steps;
	size_t base_ranks, new_ranks;
	struct cmp_stage stages[STAGE_COUNT];
	struct cmp_verdict *verdicts; /* base's verdict order, then new-only */
	size_t nverdicts;
	/* every type of every stage present on either side, by |delta|
	 * descending (then stage, then name): the top ones gained or lost the
	 * most; added/removed ones are kernels present on one side only */
	struct cmp_type *types;
	size_t ntypes;
	struct cmp_rank *ranks; /* by id */
	size_t nranks;
	struct cmp_warning *warnings;
	size_t nwarnings;
	/* the end-to-end time per profiler step of each side (report.json's
	 * summary.e2e_time_us), when both sides have one (e2e_known); the
	 * measured saving is cmp_saving_pct(e2e) */
	int e2e_known;
	struct cmp_time e2e;
};

/* Compares base with new into c (initialised here; the caller releases it
 * also on error). With per_step, every time is divided by that side's
 * number of profiler steps (when it has steps). Returns 0, or -1 with
 * ERR_INPUT when nothing can be compared: no stage with kernels on both
 * sides ("no common stage: BASE has dit, vae; NEW has text_encoder"). */
int compare_snapshots(const struct snapshot *base, const struct snapshot *new_,
                      int per_step, struct comparison *c, struct err *e);
void comparison_release(struct comparison *c);

/* The saving from base to new in percent of base: 100 (base - new) /
 * base, positive when new is faster; 0 when base is 0. */
double cmp_saving_pct(struct cmp_time t);

/* delta % = 100 (new - base) / base; 0 with *defined = 0 when base is 0 */
double cmp_pct(struct cmp_time t, int *defined);

#endif
