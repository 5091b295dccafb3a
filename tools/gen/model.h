/* model.h: what one pipeline call launches: kernel templates in step order. */
#ifndef GEN_MODEL_H
#define GEN_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "opts.h"

enum stage { ST_DIT, ST_VAE, ST_TE, ST_COUNT };
enum cat {
	CAT_FA,
	CAT_MATMUL,
	CAT_CONV,
	CAT_VECTOR,
	CAT_COMM,
	CAT_OTHER,
	CAT_COUNT
};
enum core {
	CORE_AIC,
	CORE_AIV,
	CORE_MIX_AIC,
	CORE_MIX_AIV,
	CORE_AICPU,
	CORE_HCCL
};

/* Ground-truth spellings, as the ground_truth files use them. */
extern const char *const STAGE_NAMES[ST_COUNT];
extern const char *const CAT_NAMES[CAT_COUNT];
/* `Accelerator Core` column values. */
extern const char *const CORE_NAMES[];

/* One kind of kernel: the Type column and how eager mode names it. */
struct optype {
	const char *type;
	const char *name; /* eager aclnn name; AI_CPU/HCCL names are built */
	enum core core;
	enum cat cat;
};

/* PMU profile of a template, in thousandths of the kernel's busy time. */
struct pmu {
	int busy; /* aicore/aiv time / duration */
	int mac, scalar, mte1, mte2, fixpipe, icache;
	int vec, vscalar, vmte2, vmte3, vicache;
	int cube_util; /* cube_utilization(%) in thousandths of a percent */
};

/* One kernel as it is launched at one place in the pipeline. The shape
 * strings are CSV field text, already quoted ("""1,2;3""") or N/A. */
struct tmpl {
	const struct optype *op;
	char *name;
	enum stage stage;
	int block;
	int mix_block;
	char *in_shapes, *in_types, *in_fmts;
	char *out_shapes, *out_types, *out_fmts;
	int64_t natural_ns;  /* duration before jitter and mix scaling */
	uint64_t comm_bytes; /* payload of a collective */
	struct pmu pmu;
};

/* Marks in the program besides template ids. */
#define PROG_ITER_MARK 0xFFFFu /* start of a denoising iteration (gap) */
#define PROG_HOST_MARK                                                         \
	0xFFFEu /* host work before the next kernel: the idle                  \
	           gap of a stage change */
#define PROG_ATTACH_MARK                                                       \
	0xFFFDu                 /* the next kernel follows at launch pace      \
	                           although its stage differs */
#define PROG_FIRST_MARK 0xFFFDu /* template ids are below the marks */

struct model {
	struct tmpl *t;
	size_t nt, capt;
	uint16_t *prog; /* template ids (or PROG_*_MARK) in launch order */
	size_t np, capp;
	unsigned char *hit; /* per prog entry: 1 in a cache-hit iteration */
	size_t caph;
	double share[CAT_COUNT]; /* DiT target shares in percent, sum 100 */
	int sp;                  /* sequence parallel: comm kernels present */
	int hccl; /* collectives present: sequence parallel, or a training
	           * step's gradient allReduce over several ranks */
};

/* Build templates and the per-step program for the options. Returns 0, or
 * -1 on out-of-memory. Release with model_free. */
int model_build(struct model *m, const struct opts *o);
void model_free(struct model *m);

/* Ground-truth category of a Type string per the generator's rules (the same
 * rules the truth is built from); CAT_VECTOR for anything unlisted. */
enum cat model_cat_of_type(const char *type);

#endif
