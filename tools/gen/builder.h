/* builder.h: internal contract between model.c (kernel kinds, templates,
 * roofline durations) and stages.c (which kernels each pipeline stage
 * launches, in order). Not used outside the model. */
#ifndef GEN_BUILDER_H
#define GEN_BUILDER_H

#include <stdint.h>

#include "model.h"
#include "opts.h"
#include "rng.h"

/* Kernel kinds; model.c's OPTYPES table gives each its Type/Name/core/category.
 */
enum opid {
	OP_MATMULV3,
	OP_MATMULV2,
	OP_BMM,
	OP_QBMM,
	OP_FA,
	OP_FIA,
	OP_LASER,
	OP_SPARSE,
	OP_SBE,
	OP_CONV2D,
	OP_CONV3D,
	OP_RMSNORM,
	OP_LAYERNORM,
	OP_ROPE,
	OP_MUL,
	OP_ADD,
	OP_SUB,
	OP_CAST,
	OP_GELU,
	OP_FASTGELU,
	OP_RELU,
	OP_SILU,
	OP_SOFTMAX,
	OP_SIN,
	OP_COS,
	OP_CONCAT,
	OP_TRANSPOSE,
	OP_GROUPNORM,
	OP_GNSILU,
	OP_RESIZE,
	OP_DYNQUANT,
	OP_RANDN,
	OP_NONZERO,
	OP_ALLTOALL,
	OP_ALLGATHER,
	OP_BROADCAST,
	OP_SCATTER,
	OP_MEMSET,
	OP_CAPS, /* --trace-generation 2025: an AI Core kernel named in
	          * capitals */
	OP_FAGRAD,
	OP_LNGRAD,
	OP_GELUGRAD,
	OP_ADAMW,
	OP_FOREACH,
	OP_ALLREDUCE,
	OP_CONV3DV2,
	OP_RANGE,
	OP_SLICE,
	OP_ZEROS,
	OP_COUNT
};

/* Per-build state: the model being filled and the options it follows. */
struct builder {
	struct model *m;
	const struct opts *o;
	struct rng rng;
	int aicpu_index; /* numeric suffix of AI_CPU kernel names */
	int in_hit;      /* pushing a cache-hit iteration (--cache) */
	/* --memset: the MemSet helper of each template (0xFFFF: none yet) */
	uint16_t *helper;
	size_t caphelper;
};

/* What a template adder needs; shapes are ';'-separated and unquoted. */
struct spec {
	enum opid op;
	enum stage st;
	char *in;        /* owned: freed by mb_add */
	char *out;       /* owned */
	const char *ity; /* input dtypes, NULL = DT_BF16 per input */
	double gflop;
	double mbytes;
	int conv_dims; /* 4 or 5 for convolutions: NCHW / NCDHW formats */
};

/* A convolution volume: frames (video only), height, width. */
struct vol {
	long d, h, w;
};

/* Each mb_* adder creates one template and returns its id; mb_push appends
 * a template id to the step program. */
uint16_t mb_add(struct builder *b, struct spec *s); /* takes s->in, s->out */
void mb_push(struct builder *b, uint16_t id);
/* rows x k times k x n (QuantBatchMatmulV3 adds its scale inputs). */
uint16_t mb_linear(struct builder *b, enum opid op, enum stage st, long rows,
                   long k, long n);
/* Element-wise or norm op over rows x cols with `nin` inputs. */
uint16_t mb_vec(struct builder *b, enum opid op, enum stage st, long rows,
                long cols, int nin);
uint16_t mb_aicpu(struct builder *b, enum opid op, enum stage st, double mb);
uint16_t mb_comm(struct builder *b, enum opid op, enum stage st, double bytes);
/* Attention: heads x lq queries against lkv keys, head dim hd. */
uint16_t mb_attention(struct builder *b, enum opid op, enum stage st,
                      long heads, long lq, long lkv, long hd);
/* Conv2D (image) or Conv3D (video), k x k[x k], stride on H and W. */
uint16_t mb_conv(struct builder *b, enum stage st, long cin, long cout,
                 struct vol v, int k, int stride);
/* Element-wise op / GroupNorm on an NC[D]HW activation. */
uint16_t mb_act(struct builder *b, enum opid op, enum stage st, long c,
                struct vol v, int nin);

/* The stages, in stages.c; each appends its templates and program. */
void build_t5(struct builder *b);
void build_clip(struct builder *b);
void build_vae_encode(struct builder *b);
void build_vae_decode(struct builder *b);
void build_dit(struct builder *b);
/* The DiT's backward and the optimizer (--workload training). */
void build_backward(struct builder *b);
void build_clip_g(struct builder *b);
void build_unet(struct builder *b);

#endif
