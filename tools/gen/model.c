/* model.c: the synthetic diffusion pipeline: which kernels one call launches,
 * with realistic names, shapes and roofline durations. */
#include "model.h"

#include <stdlib.h>
#include <string.h>

#include "builder.h"
#include "rng.h"
#include "xalloc.h"
#include "banned.h"

const char *const STAGE_NAMES[ST_COUNT] = {"dit", "vae", "text_encoder"};
const char *const CAT_NAMES[CAT_COUNT] = {"FA",     "MatMul", "Conv",
                                          "Vector", "Comm",   "Other"};
const char *const CORE_NAMES[] = {"AI_CORE", "AI_VECTOR_CORE", "MIX_AIC",
                                  "MIX_AIV", "AI_CPU",         "HCCL"};

/* The one table of kernel kinds. Names follow eager mode's
 * aclnn<Api>_<Impl>_<Type> pattern; AI_CPU and HCCL names are built per
 * launch (Type + index, hcom_<op>__<n>_0_1) like real files. */
static const struct optype OPTYPES[OP_COUNT] = {
    [OP_MATMULV3] = {"MatMulV3", "aclnnMatmul_MatMulV3Common_MatMulV3",
                     CORE_AIC, CAT_MATMUL},
    [OP_MATMULV2] = {"MatMulV2", "aclnnAddmm_MatMulCommon_MatMulV2", CORE_AIC,
                     CAT_MATMUL},
    [OP_BMM] = {"BatchMatMulV2",
                "aclnnBatchMatMul_BatchMatMulCommon_BatchMatMulV2", CORE_AIC,
                CAT_MATMUL},
    [OP_QBMM] = {"QuantBatchMatmulV3",
                 "aclnnQuantMatmulV4_QuantBatchMatmulV3_QuantBatchMatmulV3",
                 CORE_AIC, CAT_MATMUL},
    [OP_FA] =
        {"FlashAttentionScore",
         "aclnnFlashAttentionScore_FlashAttentionScore_FlashAttentionScore",
         CORE_MIX_AIC, CAT_FA},
    [OP_FIA] = {"FusedInferAttentionScore",
                "aclnnFusedInferAttentionScoreV2_FusedInferAttentionScore_"
                "FusedInferAttentionScore",
                CORE_MIX_AIC, CAT_FA},
    [OP_LASER] = {"LaserAttention",
                  "aclnnLaserAttention_LaserAttention_LaserAttention",
                  CORE_MIX_AIC, CAT_FA},
    [OP_SPARSE] = {"AdaBlockSparseAttention",
                   "aclnnAdaBlockSparseAttention_AdaBlockSparseAttention_"
                   "AdaBlockSparseAttention",
                   CORE_MIX_AIC, CAT_FA},
    [OP_SBE] =
        {"SparseBlockEstimate",
         "aclnnSparseBlockEstimate_SparseBlockEstimate_SparseBlockEstimate",
         CORE_MIX_AIV, CAT_FA},
    [OP_CONV2D] = {"Conv2D", "aclnnConvolution_Conv2D_Conv2D", CORE_AIC,
                   CAT_CONV},
    [OP_CONV3D] = {"Conv3D", "aclnnConvolution_Conv3D_Conv3D", CORE_AIC,
                   CAT_CONV},
    [OP_RMSNORM] = {"RmsNorm", "aclnnRmsNorm_RmsNorm_RmsNorm", CORE_AIV,
                    CAT_VECTOR},
    [OP_LAYERNORM] = {"LayerNormV4", "aclnnLayerNorm_LayerNormV4_LayerNormV4",
                      CORE_AIV, CAT_VECTOR},
    [OP_ROPE] = {"RotaryPositionEmbedding",
                 "aclnnRotaryPositionEmbedding_RotaryPositionEmbedding_"
                 "RotaryPositionEmbedding",
                 CORE_AIV, CAT_VECTOR},
    [OP_MUL] = {"Mul", "aclnnMul_Mul_Mul", CORE_AIV, CAT_VECTOR},
    [OP_ADD] = {"Add", "aclnnAdd_AddAiCore_Add", CORE_AIV, CAT_VECTOR},
    [OP_SUB] = {"Sub", "aclnnSub_Sub_Sub", CORE_AIV, CAT_VECTOR},
    [OP_CAST] = {"Cast", "aclnnCast_Cast_Cast", CORE_AIV, CAT_VECTOR},
    [OP_GELU] = {"GeluV2", "aclnnGelu_GeluV2_GeluV2", CORE_AIV, CAT_VECTOR},
    [OP_FASTGELU] = {"FastGelu", "aclnnFastGelu_FastGelu_FastGelu", CORE_AIV,
                     CAT_VECTOR},
    [OP_RELU] = {"Relu", "aclnnRelu_Relu_Relu", CORE_AIV, CAT_VECTOR},
    [OP_SILU] = {"Silu", "aclnnSilu_Silu_Silu", CORE_AIV, CAT_VECTOR},
    [OP_SOFTMAX] = {"SoftmaxV2", "aclnnSoftmax_SoftmaxV2_SoftmaxV2", CORE_AIV,
                    CAT_VECTOR},
    [OP_SIN] = {"Sin", "aclnnSin_Sin_Sin", CORE_AIV, CAT_VECTOR},
    [OP_COS] = {"Cos", "aclnnCos_Cos_Cos", CORE_AIV, CAT_VECTOR},
    [OP_CONCAT] = {"ConcatD", "aclnnCat_ConcatD_ConcatD", CORE_AIV, CAT_VECTOR},
    [OP_TRANSPOSE] = {"Transpose", "aclnnPermute_Transpose_Transpose", CORE_AIV,
                      CAT_VECTOR},
    [OP_GROUPNORM] = {"GroupNorm", "aclnnGroupNorm_GroupNorm_GroupNorm",
                      CORE_AIV, CAT_VECTOR},
    [OP_GNSILU] = {"GroupNormSilu",
                   "aclnnGroupNormSilu_GroupNormSilu_GroupNormSilu", CORE_AIV,
                   CAT_VECTOR},
    [OP_RESIZE] = {"ResizeNearestNeighborV2",
                   "aclnnUpsampleNearest2d_ResizeNearestNeighborV2_"
                   "ResizeNearestNeighborV2",
                   CORE_AIV, CAT_VECTOR},
    [OP_DYNQUANT] = {"DynamicQuant",
                     "aclnnDynamicQuant_DynamicQuant_DynamicQuant", CORE_AIV,
                     CAT_VECTOR},
    [OP_RANDN] = {"StatelessRandomNormalV2", NULL, CORE_AICPU, CAT_OTHER},
    [OP_NONZERO] = {"NonZero", NULL, CORE_AICPU, CAT_OTHER},
    [OP_ALLTOALL] = {"hcom_alltoall_", NULL, CORE_HCCL, CAT_COMM},
    [OP_ALLGATHER] = {"hcom_allGather_", NULL, CORE_HCCL, CAT_COMM},
    [OP_BROADCAST] = {"hcom_broadcast_", NULL, CORE_HCCL, CAT_COMM},
    [OP_SCATTER] = {"hcom_scatter_", NULL, CORE_HCCL, CAT_COMM},
    /* --memset: a clearing helper; its name is built from the kernel it
     * clears for (memset_helper) */
    [OP_MEMSET] = {"MemSet", NULL, CORE_AIV, CAT_VECTOR},
    /* a kernel whose name reads like a runtime task type: only its Task
     * Type (AI_CORE) tells it is a kernel */
    [OP_CAPS] = {"TENSOR_INIT", NULL, CORE_AIC, CAT_OTHER},
    [OP_FAGRAD] = {"FlashAttentionScoreGrad",
                   "aclnnFlashAttentionScoreGrad_FlashAttentionScoreGrad_"
                   "FlashAttentionScoreGrad",
                   CORE_MIX_AIC, CAT_FA},
    [OP_LNGRAD] = {"LayerNormGradV3",
                   "aclnnLayerNormBackward_LayerNormGradV3_LayerNormGradV3",
                   CORE_AIV, CAT_VECTOR},
    [OP_GELUGRAD] = {"FastGeluGrad",
                     "aclnnFastGeluBackward_FastGeluGrad_FastGeluGrad",
                     CORE_AIV, CAT_VECTOR},
    [OP_ADAMW] = {"ApplyAdamW", "aclnnApplyAdamW_ApplyAdamW_ApplyAdamW",
                  CORE_AIV, CAT_VECTOR},
    [OP_FOREACH] = {"ForeachMulScalar",
                    "aclnnForeachMulScalar_ForeachMulScalar_"
                    "ForeachMulScalar",
                    CORE_AIV, CAT_VECTOR},
    [OP_ALLREDUCE] = {"hcom_allReduce_", NULL, CORE_HCCL, CAT_COMM},
    [OP_CONV3DV2] = {"Conv3DV2", "aclnnConvolution_Conv3dv2_Conv3DV2", CORE_AIC,
                     CAT_CONV},
    [OP_RANGE] = {"Range", "aclnnArange_Range_Range", CORE_AIV, CAT_VECTOR},
    [OP_SLICE] = {"StridedSliceD", "aclnnSlice_StridedSliceD_StridedSliceD",
                  CORE_AIV, CAT_VECTOR},
    [OP_ZEROS] = {"ZerosLike", "aclnnZero_ZerosLike_ZerosLike", CORE_AIV,
                  CAT_VECTOR},
};

enum cat model_cat_of_type(const char *type)
{
	size_t i;

	if (strncmp(type, "hcom_", 5) == 0)
		return CAT_COMM;
	for (i = 0; i < OP_COUNT; i++)
		if (strcmp(OPTYPES[i].type, type) == 0)
			return OPTYPES[i].cat;
	return CAT_VECTOR;
}

static int count_parts(const char *s)
{
	int n = 1;

	for (; *s; s++)
		n += *s == ';';
	return n;
}

/* "X;X;X" with n copies of `word`. */
static char *repeat(const char *word, int n)
{
	size_t wl = strlen(word), len = 0;
	char *p = xmalloc((wl + 1) * (size_t)n + 1);
	int i;

	for (i = 0; i < n; i++) {
		if (i)
			p[len++] = ';';
		memcpy(p + len, word, wl);
		len += wl;
	}
	p[len] = '\0';
	return p;
}

/* Roofline estimate on a 910B-class card: ~250 TFLOPS of cube, ~1.3 TB/s
 * of HBM, a couple of microseconds of launch tail. */
static int64_t natural_ns(const struct optype *op, double gflop, double mb)
{
	double us;

	if (op->core == CORE_AICPU)
		us = 150.0 + mb * 10.0;
	else if (op->core == CORE_HCCL)
		us = 15.0 + mb * 33.0; /* ~30 GB/s effective per card */
	else {
		double cube = gflop * 4.0, mem = mb * 0.77;
		us = 2.0 + (cube > mem ? cube : mem);
	}
	return (int64_t)(us * 1000.0);
}

static int clampi(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* Plausible PipeUtilization numbers: cube kernels are MAC/MTE2 bound,
 * vector kernels are MTE2/MTE3 bound; a little variation per template. */
static void make_pmu(struct builder *b, struct tmpl *t)
{
	struct pmu *p = &t->pmu;
	int j = (int)rng_between(&b->rng, -60, 60);

	memset(p, 0, sizeof(*p));
	p->busy = clampi(930 + j / 3, 850, 990);
	if (t->op->core == CORE_AIC || t->op->core == CORE_MIX_AIC ||
	    t->op->core == CORE_MIX_AIV) {
		p->mac =
		    clampi(t->op->cat == CAT_VECTOR ? 120 : 720 + j, 50, 980);
		p->scalar = clampi(180 - j, 20, 600);
		p->mte1 = clampi(560 + j, 50, 950);
		p->mte2 = clampi(830 - j, 100, 990);
		p->fixpipe = clampi(90 + j / 2, 5, 400);
		p->icache = clampi(3 + j / 30, 1, 60);
		p->cube_util = clampi(82000 + j * 150, 20000, 99000);
	}
	if (t->op->core != CORE_AIC) {
		p->vec = clampi(540 + j, 20, 980);
		p->vscalar = clampi(140 - j / 2, 10, 600);
		p->vmte2 = clampi(610 + j, 50, 990);
		p->vmte3 = clampi(260 - j / 2, 20, 900);
		p->vicache = clampi(12 + j / 10, 1, 200);
	}
}

static int block_dims(const struct optype *op, double mb, int *mix)
{
	*mix = 0;
	switch (op->core) {
	case CORE_AIC:
		return 24;
	case CORE_AIV:
		return mb < 0.05 ? 8 : 48;
	case CORE_MIX_AIC:
		*mix = 48;
		return 24;
	case CORE_MIX_AIV:
		*mix = 24;
		return 48;
	default:
		return 0;
	}
}

static char *quoted(const char *shapes)
{
	return xfmt("\"\"\"%s\"\"\"", shapes);
}

/* Adds a template from a spec; takes ownership of spec->in / spec->out. */
uint16_t mb_add(struct builder *b, struct spec *s)
{
	struct model *m = b->m;
	const struct optype *op = &OPTYPES[s->op];
	struct tmpl *t;

	xgrow(&m->t, &m->capt, m->nt + 1, sizeof(*m->t));
	t = &m->t[m->nt];
	memset(t, 0, sizeof(*t));
	t->op = op;
	t->stage = s->st;
	if (op->core == CORE_AICPU)
		t->name = xfmt("%s%d", op->type, b->aicpu_index++);
	else
		t->name = xstrdup(op->name ? op->name : op->type);
	t->block = block_dims(op, s->mbytes, &t->mix_block);
	t->natural_ns = natural_ns(op, s->gflop, s->mbytes);
	if (s->in && op->core != CORE_AICPU && op->core != CORE_HCCL) {
		int ni = count_parts(s->in), no = count_parts(s->out);
		const char *fmt = s->conv_dims == 5   ? "NCDHW"
		                  : s->conv_dims == 4 ? "NCHW"
		                                      : "ND";
		t->in_shapes = quoted(s->in);
		t->in_types = s->ity ? xstrdup(s->ity) : repeat("DT_BF16", ni);
		t->in_fmts = repeat(fmt, ni);
		t->out_shapes = quoted(s->out);
		t->out_types = repeat("DT_BF16", no);
		t->out_fmts = repeat(fmt, no);
	}
	free(s->in);
	free(s->out);
	make_pmu(b, t);
	return (uint16_t)m->nt++;
}

/* The MemSet helper of template id (made once): torch_npu clears an
 * output before a kernel that accumulates into it. Named as real files
 * name them: after a convolution's node, "Conv2D7_MemSet" (as
 * Conv2DBackpropFilter6_MemSet), and after an aclnn matmul, its name with
 * the last part MemSet ("aclnnMatmul_MatMulV3Common_MemSet", as
 * aclnnMm_MatMulCommon_MemSet). It is a MemSet, Vector, whatever the name
 * begins with. */
static uint16_t memset_helper(struct builder *b, uint16_t id)
{
	struct model *m = b->m;
	const struct tmpl *t;
	struct tmpl *h;
	size_t i;
	const char *us;

	if (b->caphelper <= id) {
		size_t old = b->caphelper;
		xgrow(&b->helper, &b->caphelper, (size_t)id + 1,
		      sizeof(*b->helper));
		for (i = old; i < b->caphelper; i++)
			b->helper[i] = 0xFFFFu;
	}
	if (b->helper[id] != 0xFFFFu)
		return b->helper[id];
	xgrow(&m->t, &m->capt, m->nt + 1, sizeof(*m->t));
	t = &m->t[id];
	h = &m->t[m->nt];
	memset(h, 0, sizeof(*h));
	h->op = &OPTYPES[OP_MEMSET];
	h->stage = t->stage;
	us = strrchr(t->name, '_');
	if (t->op->cat == CAT_CONV || !us)
		h->name = xfmt("%s%u_MemSet", t->op->type, (unsigned)id);
	else
		h->name = xfmt("%.*s_MemSet", (int)(us - t->name), t->name);
	h->block = 8;
	h->natural_ns = 2500; /* a few microseconds, as in real captures */
	make_pmu(b, h);
	b->helper[id] = (uint16_t)m->nt;
	return (uint16_t)m->nt++;
}

void mb_push(struct builder *b, uint16_t id)
{
	struct model *m = b->m;

	if (b->o->memset && id < PROG_FIRST_MARK &&
	    (m->t[id].op->cat == CAT_CONV || m->t[id].op->cat == CAT_MATMUL)) {
		uint16_t h = memset_helper(b, id);
		xgrow(&m->prog, &m->capp, m->np + 1, sizeof(*m->prog));
		xgrow(&m->hit, &m->caph, m->np + 1, sizeof(*m->hit));
		m->hit[m->np] = (unsigned char)b->in_hit;
		m->prog[m->np++] = h;
	}
	xgrow(&m->prog, &m->capp, m->np + 1, sizeof(*m->prog));
	xgrow(&m->hit, &m->caph, m->np + 1, sizeof(*m->hit));
	m->hit[m->np] = (unsigned char)b->in_hit;
	m->prog[m->np++] = id;
}

/* ---- building blocks shared by the stages ------------------------------ */

/* rows x k times k x n. */
uint16_t mb_linear(struct builder *b, enum opid op, enum stage st, long rows,
                   long k, long n)
{
	struct spec s = {op, st, NULL, NULL, NULL, 0, 0, 0};

	if (op == OP_QBMM) {
		s.in = xfmt("%ld,%ld;%ld,%ld;%ld;%ld", rows, k, k, n, n, rows);
		s.ity = "INT8;INT8;FLOAT;FLOAT";
	} else {
		s.in = xfmt("%ld,%ld;%ld,%ld", rows, k, k, n);
	}
	s.out = xfmt("%ld,%ld", rows, n);
	s.gflop = 2.0 * (double)rows * (double)k * (double)n / 1e9;
	s.mbytes = 2.0 * (double)(rows * k + k * n + rows * n) / 1e6;
	if (op == OP_QBMM)
		s.gflop /= 2.0; /* int8 cube runs at twice the bf16 rate */
	return mb_add(b, &s);
}

/* Element-wise / normalisation op over `rows` x `cols`, `nin` inputs of
 * that shape (the extra inputs of norms are weights: shape `cols`). */
uint16_t mb_vec(struct builder *b, enum opid op, enum stage st, long rows,
                long cols, int nin)
{
	struct spec s = {op, st, NULL, NULL, NULL, 0, 0, 0};
	int norm = op == OP_RMSNORM || op == OP_LAYERNORM;

	if (norm)
		s.in = xfmt(nin == 3 ? "1,%ld,%ld;%ld;%ld" : "1,%ld,%ld;%ld",
		            rows, cols, cols, cols);
	else if (nin == 2)
		s.in = xfmt("1,%ld,%ld;1,%ld,%ld", rows, cols, rows, cols);
	else
		s.in = xfmt("1,%ld,%ld", rows, cols);
	if (norm)
		s.out = xfmt("1,%ld,%ld;1,%ld,1", rows, cols, rows);
	else
		s.out = xfmt("1,%ld,%ld", rows, cols);
	s.mbytes = 2.0 * (double)rows * (double)cols * (nin + 1) / 1e6;
	return mb_add(b, &s);
}

uint16_t mb_aicpu(struct builder *b, enum opid op, enum stage st, double mb)
{
	struct spec s = {op, st, NULL, NULL, NULL, 0, mb, 0};

	return mb_add(b, &s);
}

uint16_t mb_comm(struct builder *b, enum opid op, enum stage st, double bytes)
{
	struct spec s = {op, st, NULL, NULL, NULL, 0, bytes / 1e6, 0};
	uint16_t id = mb_add(b, &s);

	b->m->t[id].comm_bytes = (uint64_t)bytes;
	return id;
}

/* Attention over q: heads x lq, kv: heads x lkv, head dim hd. */
uint16_t mb_attention(struct builder *b, enum opid op, enum stage st,
                      long heads, long lq, long lkv, long hd)
{
	struct spec s = {op, st, NULL, NULL, NULL, 0, 0, 0};

	s.in = xfmt("1,%ld,%ld,%ld;1,%ld,%ld,%ld;1,%ld,%ld,%ld", heads, lq, hd,
	            heads, lkv, hd, heads, lkv, hd);
	s.out = xfmt("1,%ld,%ld,8;1,%ld,%ld,8;;1,%ld,%ld,%ld", heads, lq, heads,
	             lq, heads, lq, hd);
	s.gflop =
	    4.0 * (double)heads * (double)lq * (double)lkv * (double)hd / 1e9;
	if (op == OP_SPARSE)
		s.gflop *= 0.35; /* skips most blocks */
	if (op == OP_SBE)
		s.gflop *= 0.02;
	s.mbytes =
	    2.0 * (double)heads * (double)(2 * lq + 2 * lkv) * (double)hd / 1e6;
	return mb_add(b, &s);
}

uint16_t mb_conv(struct builder *b, enum stage st, long cin, long cout,
                 struct vol v, int k, int stride)
{
	int video = b->o->video;
	struct spec s = {video ? OP_CONV3D : OP_CONV2D,
	                 st,
	                 NULL,
	                 NULL,
	                 NULL,
	                 0,
	                 0,
	                 video ? 5 : 4};
	long ho = v.h / stride, wo = v.w / stride;
	double kk = (double)k * k * (video ? k : 1);
	double pix = (double)v.d * (double)ho * (double)wo;

	if (video) {
		s.in = xfmt("1,%ld,%ld,%ld,%ld;%ld,%ld,%d,%d,%d;%ld", cin, v.d,
		            v.h, v.w, cout, cin, k, k, k, cout);
		s.out = xfmt("1,%ld,%ld,%ld,%ld", cout, v.d, ho, wo);
	} else {
		s.in = xfmt("1,%ld,%ld,%ld;%ld,%ld,%d,%d;%ld", cin, v.h, v.w,
		            cout, cin, k, k, cout);
		s.out = xfmt("1,%ld,%ld,%ld", cout, ho, wo);
	}
	s.gflop = 2.0 * pix * (double)cin * (double)cout * kk / 1e9;
	s.mbytes = 2.0 *
	           (pix * (double)(cin + cout) + kk * (double)(cin * cout)) /
	           1e6;
	return mb_add(b, &s);
}

/* Element-wise op on an NC[D]HW activation. */
uint16_t mb_act(struct builder *b, enum opid op, enum stage st, long c,
                struct vol v, int nin)
{
	struct spec s = {op, st, NULL, NULL, NULL, 0, 0, b->o->video ? 5 : 4};
	char *one = b->o->video ? xfmt("1,%ld,%ld,%ld,%ld", c, v.d, v.h, v.w)
	                        : xfmt("1,%ld,%ld,%ld", c, v.h, v.w);
	double elems = (double)c * (double)v.d * (double)v.h * (double)v.w;

	if (op == OP_GROUPNORM || op == OP_GNSILU) {
		s.in = xfmt("%s;%ld;%ld", one, c, c);
		s.out = xfmt("%s;1,32;1,32", one);
		elems *= 2.0; /* statistics pass + normalise pass */
	} else if (nin == 2) {
		s.in = xfmt("%s;%s", one, one);
		s.out = xstrdup(one);
	} else {
		s.in = xstrdup(one);
		s.out = xstrdup(one);
	}
	if (op == OP_RESIZE) {
		free(s.out);
		s.out =
		    b->o->video
		        ? xfmt("1,%ld,%ld,%ld,%ld", c, v.d, v.h * 2, v.w * 2)
		        : xfmt("1,%ld,%ld,%ld", c, v.h * 2, v.w * 2);
		elems *= 2.5;
	}
	s.mbytes = 2.0 * elems * (nin + 1) / 1e6;
	free(one);
	return mb_add(b, &s);
}

static void set_shares(struct model *m, const struct opts *o)
{
	double rest = 100.0 - o->mix[0] - o->mix[1] - o->mix[2];

	m->share[CAT_FA] = o->mix[0];
	m->share[CAT_MATMUL] = o->mix[1];
	m->share[CAT_VECTOR] = o->mix[2];
	/* The rest goes to what the DiT has besides FA/MatMul/Vector: mostly
	 * comm when collectives run (sequence parallel, or a training step's
	 * gradient allReduce), else the patch-embedding conv. */
	if (m->hccl) {
		m->share[CAT_COMM] = rest * 0.90;
		m->share[CAT_CONV] = rest * 0.075;
		m->share[CAT_OTHER] = rest * 0.025;
	} else {
		m->share[CAT_CONV] = rest * 0.75;
		m->share[CAT_OTHER] = rest * 0.25;
	}
}

int model_build(struct model *m, const struct opts *o)
{
	struct builder b;

	memset(m, 0, sizeof(*m));
	b.m = m;
	b.o = o;
	b.aicpu_index = 17 + (int)(o->seed % 40);
	b.in_hit = 0;
	b.helper = NULL;
	b.caphelper = 0;
	rng_seed(&b.rng, o->seed, 0x6d6f64656cULL);
	m->sp = o->ranks > 1 && o->comm != COMM_NONE;
	m->hccl = m->sp || (o->ranks > 1 && o->workload == WORKLOAD_TRAINING);
	if (o->workload == WORKLOAD_VAE_ONLY) {
		build_vae_decode(&b);
		set_shares(m, o);
		return 0;
	}
	if (o->te == TE_T5 && o->workload == WORKLOAD_DIFFUSION)
		build_t5(&b);
	else if (o->te == TE_CLIP && o->workload == WORKLOAD_DIFFUSION)
		build_clip(&b);
	if (o->te == TE_CLIP && o->denoiser == DEN_UNET &&
	    o->workload == WORKLOAD_DIFFUSION)
		build_clip_g(&b); /* SDXL's second text encoder */
	if (o->vae_encode && o->workload == WORKLOAD_DIFFUSION)
		build_vae_encode(&b);
	if (o->denoiser == DEN_UNET)
		build_unet(&b);
	else
		build_dit(&b);
	if (o->workload == WORKLOAD_TRAINING)
		build_backward(&b);
	if (o->workload == WORKLOAD_DIFFUSION)
		build_vae_decode(&b);
	set_shares(m, o);
	free(b.helper);
	return 0;
}

void model_free(struct model *m)
{
	size_t i;

	for (i = 0; i < m->nt; i++) {
		struct tmpl *t = &m->t[i];
		free(t->name);
		free(t->in_shapes);
		free(t->in_types);
		free(t->in_fmts);
		free(t->out_shapes);
		free(t->out_types);
		free(t->out_fmts);
	}
	free(m->t);
	free(m->prog);
	free(m->hit);
	memset(m, 0, sizeof(*m));
}
