/* Classification rules, stage signatures, segmentation parameters and verdict
 * thresholds: loaded from assets/rules.json (embedded) or a user's file. */
#ifndef SDPERF_RULES_H
#define SDPERF_RULES_H

#include <stddef.h>

#include "analysis/result.h"
#include "util/err.h"

enum metric {
	METRIC_CATEGORY_SHARE,
	METRIC_EXPOSED_COMM_SHARE,
	METRIC_FREE_SHARE,     /* device idle share of the step (stage "all") */
	METRIC_RANK_IMBALANCE, /* slowest rank's compute vs the median */
	METRIC_STAGE_SHARE,    /* a stage's share of end to end (r->e2e) */
	METRIC_MEMORY_PEAK_SHARE, /* peak device memory / the card's, all */
	METRIC_DIT_LOOP_SHARE     /* the denoising loop's share of end to end,
	                           * stage dit (analysis/iterations.h) */
};
/* A kernel's stage signature; SIG_NONE = says nothing about the stage. */
enum sig { SIG_NONE = 0, SIG_DIT = 1, SIG_VAE = 2 };

struct pattern_rule {
	int target; /* enum category (classify) or enum sig (signatures) */
	int part;   /* enum fa_part of an FA classify entry ("part"), else 0 */
	/* a classify_apis entry with "types": its number (from 1), the key
	 * of its type globs in rules.apit; else 0 */
	int entry;
	char *glob;
};

/* A known chip: a glob over the model the profile names, and its card
 * memory (rules_chips.c). */
struct chip_rule {
	char *glob;
	double memory_gb;
};

struct threshold {
	char *id, *title, *recommendation;
	char *check;      /* neutral name of the check ("check"), or NULL */
	enum stage stage; /* or STAGE_ALL (METRIC_FREE_SHARE) */
	enum metric metric;
	enum category cat; /* METRIC_CATEGORY_SHARE only */
	double above;      /* percent */
	char **docs;
	size_t ndocs;
};

/* A finding's expected speed-up (rules "speedups", keyed by the finding's
 * id; rules_speedups.c): what part of the time it applies to and by how
 * much, the assumption in en and zh, and where the range comes from. */
struct speedup_rule {
	char *id; /* the finding (threshold id) */
	enum gain_part part;
	enum stage stage;  /* category, exposed_comm, stage; STAGE_DIT for
	                    * imbalance, STAGE_ALL for idle and none */
	enum category cat; /* GAIN_PART_CATEGORY only */
	double low, high;  /* factors, 1 <= low <= high; 0 for none */
	char *assumption_en, *assumption_zh, *source;
	char *source_zh; /* NULL: the source is one text for every language */
};

struct rules {
	char *source; /* "built-in", "FILE", or "FILE + built-in" (extends) */
	int extended; /* the file extends the built-in rules */
	/* SHA-256 of the bytes loaded: the rules file's, or the built-in
	 * rules' (hex); for the report's provenance */
	char sha256[SHA256_HEX];
	struct pattern_rule *cls;
	size_t ncls;
	/* "classify_apis": globs over the aclnn API that launched a kernel
	 * (rules_classify_kernel) */
	struct pattern_rule *api;
	size_t napi;
	/* the "types" of the classify_apis entries that have them: target is
	 * the entry's number (pattern_rule.entry) */
	struct pattern_rule *apit;
	size_t napit;
	int api_entries; /* entries numbered so far */
	struct pattern_rule *sig;
	size_t nsig;
	struct pattern_rule *wl; /* "workloads": target = enum workload_kind */
	size_t nwl;
	char **comm_cores;
	size_t ncomm;
	struct threshold *th;
	size_t nth;
	struct pattern_rule *markers; /* user stage markers: target = stage */
	size_t nmarkers;
	double outlier_factor; /* a step this many times the median is an
	                        * outlier (warm-up when it is the first) */
	int window, min_segment, loop_window, min_text_encoder;
	/* "totals": the tolerance of each comparison with the profiler's
	 * own totals (analysis/totals.h), by enum totals_figure, in points
	 * (percent of the comparison's base) */
	double totals_tolerance[TOT_COUNT];
	struct chip_rule *chips; /* "chips": the first match wins */
	size_t nchips;
	double device_memory_gb; /* --device-memory, 0 when not given: wins
	                          * over the chip table */
	struct speedup_rule *speedups; /* "speedups", one per finding id */
	size_t nspeedups;
};

/* Loads the embedded assets/rules.json. */
int rules_load_builtin(struct rules *r, struct err *e);
/* Loads a user's rules file: a complete replacement, or, with
 * "extends": "builtin", additions placed in front of the built-in rules.
 * Errors (ERR_INPUT) name the file, the line:column of a JSON syntax error,
 * or the JSON path of a bad value. */
int rules_load_file(struct rules *r, const char *path, struct err *e);
/* Parses rules text (name is used in messages). */
int rules_load_text(struct rules *r, const char *name, const char *text,
                    size_t len, struct err *e);
/* Applies "--threshold NAME=VALUE": NAME is a threshold id, VALUE a percent
 * from 0 to 100 ("45" or "45%"). ERR_USAGE on a bad argument. */
int rules_set_threshold(struct rules *r, const char *arg, struct err *e);
void rules_release(struct rules *r);

/* The card memory in GB of the chip model named chip (the first "chips"
 * entry whose glob matches it), or 0 when none does or chip is NULL. */
double rules_chip_memory(const struct rules *r, const char *chip);

/* For rules.c (rules_chips.c): loads "chips": [{"match": GLOB,
 * "memory_gb": N}, ...] of the rules file name into r, in front of the
 * chips already there (a user's file that extends the built-in rules
 * wins). Errors (ERR_INPUT) name the file and the JSON path of the bad
 * value. */
struct cJSON;
int rules_load_chips(const char *name, const struct cJSON *arr, struct rules *r,
                     struct err *e);
void rules_chips_release(struct rules *r);

/* For rules.c (rules_speedups.c): loads "speedups": {"FINDING_ID": {"part":
 * ..., "stage": ..., "category": ..., "low": N, "high": N, "assumption":
 * {"en": ..., "zh": ...}, "source": TEXT or {"en": ..., "zh": ...}}, ...}
 * of the rules file name into
 * r; an id already there is replaced (a user's file that extends the
 * built-in rules wins). Errors (ERR_INPUT) name the file and the key
 * ("speedups.matmul_quant.low") and say what was expected. */
int rules_load_speedups(const char *name, const struct cJSON *obj,
                        struct rules *r, struct err *e);
void rules_speedups_release(struct rules *r);
/* The speed-up of finding id, or NULL. */
const struct speedup_rule *rules_speedup(const struct rules *r, const char *id);

/* Category of a kernel type on an accelerator core (core may be ""). */
enum category rules_classify(const struct rules *r, const char *type,
                             const char *core);
/* The same, and the FA part of the matching entry into *part (always
 * FA_PART_ATTENTION for other categories). */
enum category rules_classify_part(const struct rules *r, const char *type,
                                  const char *core, enum fa_part *part);
/* The category of one kernel: its core (a communication core is Comm),
 * then the aclnn API that launched it (api, "" for none) against
 * "classify_apis", then its type as rules_classify_part. A kernel whose
 * API matches an entry takes that entry's category and part, unless its
 * type alone already gives that category (then the type's part stays: the
 * FlashAttentionScore kernel of aclnnFlashAttentionScore is attention, its
 * Transpose is FA preparation). docs/kernel-types.md has the cases. */
enum category rules_classify_kernel(const struct rules *r, const char *type,
                                    const char *core, const char *api,
                                    enum fa_part *part);
enum sig rules_signature(const struct rules *r, const char *type);
/* The workload kind a kernel type is evidence of (the first "workloads"
 * pattern it matches), WORKLOAD_KINDS for a dropout mask (a training
 * step's weak evidence: an inference pipeline left in train mode launches
 * it too), or WORKLOAD_UNKNOWN. */
enum workload_kind rules_workload(const struct rules *r, const char *type);
/* Case-insensitive glob match with '*' and '?' (util/glob.h: linear in s;
 * a pattern longer than GLOB_MAX_PATTERN bytes, which the loader rejects,
 * matches nothing). */
int rules_glob(const char *pattern, const char *s);

#endif
