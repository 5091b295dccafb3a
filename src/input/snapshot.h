/* report.json read back: what one side of a comparison says
 * (struct snapshot, snapshot_from_json: input/snapshot.c) and look-ups by
 * path for sdperf check (input/snapdoc.c). Both walk the text in place
 * (input/jsonpull.h), so memory is the text and what is read from it. */
#ifndef SDPERF_SNAPSHOT_H
#define SDPERF_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>

#include "core/vocab.h"
#include "util/err.h"
#include "util/strbuf.h"

/* What snapshot_from_json reads at most, beyond which a report.json is
 * refused (sdperf writes at most 2,000 types per stage). */
#define SNAPSHOT_MAX_TYPES      65536 /* per stage's top_kernels */
#define SNAPSHOT_MAX_TYPES_TEXT "65,536"
#define SNAPSHOT_MAX_VERDICTS   4096
#define SNAPSHOT_MAX_RANKS      65536

struct snap_type {
	char *type;
	enum category cat;
	uint64_t count;
	int64_t total_ns;
};

struct snap_stage {
	int present; /* the stage has kernels */
	uint64_t kernels;
	int64_t kernel_ns, wall_ns, comm_ns, exposed_ns;
	int64_t cat_ns[CAT_COUNT];
	struct snap_type *types; /* report.json's top_kernels, by time */
	size_t ntypes;
};

struct snap_verdict {
	char *id;
	enum stage stage; /* or STAGE_ALL */
	int applicable, fired;
	double value, threshold; /* percent */
	/* for sdperf check's messages, read with the rest (one look-up by
	 * path per verdict walked the whole array: quadratic): "metric" and
	 * "how" (NULL when absent or not strings), "rank" (when has_rank) */
	char *metric, *how;
	int has_rank;
	double rank;
	/* the end-to-end saving its expected gain promised, in percent of
	 * the end-to-end time ("gain": saving_low_pct, saving_high_pct),
	 * when has_gain (the gain is there and estimated) */
	int has_gain;
	double gain_low_pct, gain_high_pct;
};

struct snap_rank {
	int32_t id;
	int analysed;
	int64_t dit_kernel_ns, dit_wall_ns, dit_exposed_ns, dit_compute_ns;
	int64_t comm_wait_ns; /* -1 without communication.json */
	size_t nsteps;        /* step_trace_time.csv rows */
};

struct snapshot {
	char *source;       /* the PATH given (profile or report.json) */
	int from_json;      /* 1: read from a report.json file */
	char *tool_version; /* sdperf version that wrote it */
	uint64_t kernels;
	size_t nsteps; /* distinct profiler steps (profile.steps.count) */
	struct snap_stage stage[STAGE_COUNT];
	struct snap_verdict *verdicts;
	size_t nverdicts;
	struct snap_rank *ranks;
	size_t nranks;
	/* summary.e2e_time_us when summary.e2e_known (has_e2e): the
	 * end-to-end time per profiler step (of the profile without steps) */
	int has_e2e;
	int64_t e2e_ns;
	/* summary.workload when summary.stage_split is false (a profile of
	 * one stage, named for what it is: "training", ...), else NULL;
	 * reports before the workload have neither */
	char *one_stage_kind;
};

/* Reads a report.json text (schema_version 1) into s. name is used in
 * messages. Returns 0, or -1 with ERR_INPUT: not JSON (line:column), not
 * an sdperf report (no schema_version / a newer one), a missing or
 * wrong-typed field (named by its JSON path). */
int snapshot_from_json(const char *name, const char *text, size_t len,
                       struct snapshot *s, struct err *e);
void snapshot_release(struct snapshot *s);

/* A report.json for look-ups by path: the text, checked, never built into
 * a tree (each look-up walks it). Opaque. */
struct snapdoc;

/* Checks any JSON text (name used in messages), which must outlive the
 * doc. Returns 0 with *out set (free it with snapdoc_free), or -1 with
 * ERR_INPUT naming line:column of a syntax error. */
int snapdoc_parse(const char *name, const char *text, size_t len,
                  struct snapdoc **out, struct err *e);
void snapdoc_free(struct snapdoc *d);

enum snapdoc_kind {
	SNAPDOC_MISSING, /* the path leads nowhere: *why says where and why */
	SNAPDOC_NUMBER,  /* *num set */
	SNAPDOC_STRING,  /* *str set (owned by d, freed with it) */
	SNAPDOC_NULL,
	SNAPDOC_BOOL, /* *num set to 1 (true) or 0 (false) */
	SNAPDOC_OTHER /* object or array: *why lists an object's keys */
};

/* Follows path: keys separated by dots, array elements by index
 * ("stages.dit.categories.FA.share_pct", "ranks.2.dit_compute_us"). A key
 * matches exactly, else ignoring case; keys that contain dots
 * ("kernel_details.csv") match whole. num, str and why may be NULL; why
 * receives an English explanation for SNAPDOC_MISSING ("no key 'XX' in
 * stages.dit.categories; names there: FA, MatMul, ...") and the keys of
 * an object for SNAPDOC_OTHER (the first 50 names, then how many more). */
enum snapdoc_kind snapdoc_get(const struct snapdoc *d, const char *path,
                              double *num, const char **str,
                              struct strbuf *why);

#endif
