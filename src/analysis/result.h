/* The analysis result: the one model every renderer (JSON, text, and later
 * HTML, Markdown, PDF) reads. Renderers take it const and know nothing of
 * file formats; the analysis knows nothing of rendering. */
#ifndef SDPERF_RESULT_H
#define SDPERF_RESULT_H

#include <stddef.h>
#include <stdint.h>

#include "input/profile.h"

enum category {
	CAT_FA,
	CAT_MATMUL,
	CAT_CONV,
	CAT_VECTOR,
	CAT_COMM,
	CAT_OTHER,
	CAT_COUNT
};
enum stage {
	STAGE_DIT,
	STAGE_VAE,
	STAGE_TEXT_ENCODER,
	STAGE_OTHER,
	STAGE_COUNT
};

/* "FA", "MatMul", "Conv", "Vector", "Comm", "Other" */
extern const char *const category_names[CAT_COUNT];
/* "dit", "vae", "text_encoder", "other" */
extern const char *const stage_names[STAGE_COUNT];
/* The nine MindIE-SD feature docs a verdict may point to. */
extern const char *const feature_doc_keys[];
extern const size_t feature_doc_count;

/* Name -> enum; -1 when unknown. Category names match ignoring case. */
int category_from_name(const char *s);
int stage_from_name(const char *s);
int feature_doc_known(const char *key);

struct type_stat {
	char *type;
	enum category cat;
	uint64_t count;
	int64_t total_ns, min_ns, max_ns;
};

struct cat_stat {
	uint64_t count;
	int64_t time_ns;
};

struct stage_result {
	uint64_t kernels;
	uint64_t segments;
	int64_t kernel_ns; /* T_k: sum of kernel durations */
	int64_t wall_ns; /* T_w: sum over segments of last end - first start */
	struct cat_stat cat[CAT_COUNT];
	struct type_stat *top; /* every kernel type (up to BREAKDOWN_TOP), by
	                        * total time, descending */
	size_t ntop;
	int64_t comm_ns;         /* sum of Comm kernel durations */
	int64_t comm_union_ns;   /* time covered by Comm kernels */
	int64_t exposed_comm_ns; /* covered by Comm and by no other kernel */
};

struct segment {
	enum stage stage;
	int64_t start_ns, end_ns;
	uint64_t kernels;
	int64_t kernel_ns;
	int32_t step; /* Step Id of its first kernel, or STEP_NONE */
};

struct verdict {
	char *id, *title, *metric, *recommendation;
	enum stage stage;
	int applicable; /* the stage has kernels, so a value exists */
	double value;   /* percent */
	double threshold;
	int fired; /* value > threshold */
	char **docs;
	size_t ndocs;
};

struct warning {
	char *code;    /* stable machine-readable id, e.g. "skipped_rows" */
	char *file;    /* NULL when not about one file */
	uint64_t line; /* 0 when not about one line */
	char *message; /* English */
	char *reason;  /* skipped_row: why ("not_a_number", ...), else NULL */
	/* arguments of the message, for catalogues in other languages
	 * (their meaning depends on code; unused ones are NULL) */
	char *args[3];
};

struct input_desc {
	char *role; /* "kernel_details" */
	char *path;
	int64_t size;
	char *variant;   /* English description of the header variant */
	int level;       /* 0 or 1 */
	const char *era; /* "2023", "2024", "2025-06", "2026-02" (static) */
	int pmu;         /* PMU columns present */
	int crlf, bom, start_tab;
	int64_t device_id;
	uint64_t rows, skipped, kernels, typed_from_name;
};

struct result {
	char *profile_path; /* PATH as the user gave it */
	char *rank_dir;     /* the *_ascend_pt folder, or NULL */
	struct input_desc *inputs;
	size_t ninputs;

	uint64_t kernels;
	int64_t span_start_ns, span_end_ns;
	int32_t *steps; /* distinct Step Id values, ascending */
	size_t nsteps;

	struct stage_result stages[STAGE_COUNT];
	struct segment *segs;
	size_t nsegs;
	int text_encoder_detected;
	int loop_found; /* a repeating denoising loop was recognised */
	int seg_window, seg_min_segment; /* segmentation parameters used */
	char *stage_method; /* how stages were found, for the Method section */

	struct type_stat *unmatched; /* Other-category types, by time */
	size_t nunmatched;

	struct verdict *verdicts;
	size_t nverdicts;
	char *rules_source; /* "built-in" or the --rules path */

	struct warning *warnings;
	size_t nwarnings;
};

void result_init(struct result *r);
void result_release(struct result *r);
/* Appends a warning (copies the strings; file may be NULL) and returns it,
 * so the caller can set its args (xstrdup'ed; freed with the result). */
struct warning *result_warn(struct result *r, const char *code,
                            const char *file, uint64_t line,
                            const char *message);

/* Describes a kernel_details.csv the reader read (kernels rows kept) in
 * r's inputs, and turns its skipped rows into warnings. */
void result_add_kernels_input(struct result *r, const struct kernels_info *in,
                              uint64_t kernels);

#endif
