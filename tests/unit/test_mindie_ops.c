/* MindIE-SD's operators in the built-in rules (issue 13 §4): a table of
 * operator names of both generations -- the 1.x/2.x torch ops
 * (`*_mindie_sd`, AscendLaserAttention, LaPreprocess, SparseBlockEstimate)
 * and the 3.x kernels (QuantFlashAttn, EagleFfnV2, DynamicBlockQuant, ...)
 * -- each with its category and FA part, checked through the real
 * classifier; a user's "part"; and the FA time per part summed by the
 * breakdown. */
#include "unit.h"

#include "analysis/breakdown.h"
#include "input/kernels.h"
#include "analysis/rules.h"

static void load_builtin(struct rules *r)
{
	struct err e = ERR_INIT;

	memset(r, 0, sizeof(*r));
	if (rules_load_builtin(r, &e))
		fail_msg("built-in rules: %s", e.msg);
}

static const struct {
	const char *type;
	enum category cat;
	enum fa_part part; /* FA only */
	enum sig sig;      /* the DiT signature it gives, SIG_NONE for none */
} ops[] = {
    /* old generation: MindIE-SD's torch ops and their kernels */
    {"la_mindie_sd", CAT_FA, FA_PART_ATTENTION, SIG_DIT},
    {"AscendLaserAttention", CAT_FA, FA_PART_ATTENTION, SIG_DIT},
    {"LaserAttention", CAT_FA, FA_PART_ATTENTION, SIG_DIT},
    {"la_preprocess_mindie_sd", CAT_FA, FA_PART_PREPARATION, SIG_NONE},
    {"LaPreprocess", CAT_FA, FA_PART_PREPARATION, SIG_DIT},
    {"sparse_block_estimate_mindie_sd", CAT_FA, FA_PART_PREPARATION, SIG_NONE},
    {"SparseBlockEstimate", CAT_FA, FA_PART_PREPARATION, SIG_DIT},
    {"block_sparse_attention", CAT_FA, FA_PART_ATTENTION, SIG_DIT},
    {"BlockSparseAttention", CAT_FA, FA_PART_ATTENTION, SIG_DIT},
    {"RainFusionAttention", CAT_FA, FA_PART_ATTENTION, SIG_DIT},
    {"matmulv2_mindie_sd", CAT_MATMUL, 0, SIG_DIT},
    {"batchmatmulv2_mindie_sd", CAT_MATMUL, 0, SIG_DIT},
    {"batchmatmulv3_mindie_sd", CAT_MATMUL, 0, SIG_DIT},
    {"batchmatmulv3duo_mindie_sd", CAT_MATMUL, 0, SIG_DIT},
    {"rope_mindie_sd", CAT_VECTOR, 0, SIG_DIT},
    {"adaln_mindie_sd", CAT_VECTOR, 0, SIG_NONE},
    {"AdaLayerNorm", CAT_VECTOR, 0, SIG_DIT},
    /* 3.x: FP8 attention, fused FFN, quantization, Triton kernels */
    {"QuantFlashAttn", CAT_FA, FA_PART_ATTENTION, SIG_DIT},
    {"QuantFlashAttnV2", CAT_FA, FA_PART_ATTENTION, SIG_DIT},
    {"FusedInferAttentionScore", CAT_FA, FA_PART_ATTENTION, SIG_DIT},
    {"FlashAttentionScore", CAT_FA, FA_PART_ATTENTION, SIG_DIT},
    {"EagleFfnV2", CAT_MATMUL, 0, SIG_DIT},
    {"EagleFfn", CAT_MATMUL, 0, SIG_DIT},
    {"FFN", CAT_MATMUL, 0, SIG_NONE},
    {"FFNV3", CAT_MATMUL, 0, SIG_NONE},
    {"DynamicQuant", CAT_VECTOR, 0, SIG_NONE},
    {"DynamicQuantV2", CAT_VECTOR, 0, SIG_NONE},
    {"DynamicBlockQuant", CAT_VECTOR, 0, SIG_NONE},
    {"DynamicMxQuant", CAT_VECTOR, 0, SIG_NONE},
    {"QuantFourOverSixA5V2", CAT_VECTOR, 0, SIG_NONE},
    {"AscendQuantV2", CAT_VECTOR, 0, SIG_NONE},
    {"FrequencyRegulator", CAT_VECTOR, 0, SIG_NONE},
    {"scale_shift_kernel", CAT_VECTOR, 0, SIG_NONE},
    {"fused_gate_residual_kernel", CAT_VECTOR, 0, SIG_NONE},
    /* a Triton kernel named after a matmul or an attention keeps that
     * category: the Triton rule comes last */
    {"matmul_kernel", CAT_MATMUL, 0, SIG_DIT},
    {"flash_attention_kernel", CAT_FA, FA_PART_ATTENTION, SIG_DIT},
    {"rms_norm_kernel", CAT_VECTOR, 0, SIG_NONE},
    /* not MindIE-SD's, and still Other */
    {"StatelessRandomNormalV2", CAT_OTHER, 0, SIG_NONE},
    {"kernel", CAT_OTHER, 0, SIG_NONE},
};

static void mindie_ops_builtin_table(void **state)
{
	struct rules r;
	size_t i;

	(void)state;
	load_builtin(&r);
	for (i = 0; i < ARRAY_LEN(ops); i++) {
		enum fa_part part = FA_PART_PREPARATION;
		enum category c =
		    rules_classify_part(&r, ops[i].type, "AI_CORE", &part);
		enum fa_part want =
		    ops[i].cat == CAT_FA ? ops[i].part : FA_PART_ATTENTION;
		if (c != ops[i].cat || part != want)
			fail_msg("'%s': %s/%s, expected %s/%s", ops[i].type,
			         category_names[c], fa_part_names[part],
			         category_names[ops[i].cat],
			         fa_part_names[want]);
		assert_int_equal(rules_classify(&r, ops[i].type, ""), c);
		if (ops[i].sig == SIG_DIT &&
		    rules_signature(&r, ops[i].type) != SIG_DIT)
			fail_msg("'%s': no DiT signature", ops[i].type);
	}
	rules_release(&r);
}

/* The attention only changed names (FlashAttentionScore ->
 * QuantFlashAttn after FP8 attention quantization): both are the same FA
 * attention, so a diff compares like with like. */
static void mindie_ops_fp8_attention_stays_fa(void **state)
{
	struct rules r;
	enum fa_part a, b;

	(void)state;
	load_builtin(&r);
	assert_int_equal(
	    rules_classify_part(&r, "FlashAttentionScore", "MIX_AIC", &a),
	    CAT_FA);
	assert_int_equal(
	    rules_classify_part(&r, "QuantFlashAttn", "MIX_AIC", &b), CAT_FA);
	assert_int_equal(a, FA_PART_ATTENTION);
	assert_int_equal(b, FA_PART_ATTENTION);
	rules_release(&r);
}

/* ---- a user's "part" ---------------------------------------------------- */

static struct err load_text(struct rules *r, const char *text)
{
	struct err e = ERR_INIT;

	memset(r, 0, sizeof(*r));
	rules_load_text(r, "my-rules.json", text, strlen(text), &e);
	return e;
}

static void mindie_ops_user_part(void **state)
{
	struct rules r;
	struct err e =
	    load_text(&r, "{\"extends\": \"builtin\", \"classify\": ["
	                  "{\"category\": \"FA\", \"part\": \"preparation\", "
	                  "\"types\": [\"MaskBuild*\"]},"
	                  "{\"category\": \"FA\", \"part\": \"attention\", "
	                  "\"types\": [\"MyAttn*\"]}]}");
	enum fa_part part;

	(void)state;
	assert_int_equal(e.code, ERR_NONE);
	assert_int_equal(rules_classify_part(&r, "MaskBuildV2", "", &part),
	                 CAT_FA);
	assert_int_equal(part, FA_PART_PREPARATION);
	assert_int_equal(rules_classify_part(&r, "MyAttnFwd", "", &part),
	                 CAT_FA);
	assert_int_equal(part, FA_PART_ATTENTION);
	/* the built-in entries behind it keep their parts */
	assert_int_equal(rules_classify_part(&r, "LaPreprocess", "", &part),
	                 CAT_FA);
	assert_int_equal(part, FA_PART_PREPARATION);
	assert_int_equal(
	    rules_classify_part(&r, "FlashAttentionScore", "", &part), CAT_FA);
	assert_int_equal(part, FA_PART_ATTENTION);
	rules_release(&r);
}

static void part_fails(const char *entry, const char *msg)
{
	struct rules r;
	char text[512];
	struct err e;

	snprintf(text, sizeof(text),
	         "{\"extends\": \"builtin\", \"classify\": ["
	         "{\"category\": \"FA\", \"types\": [\"A*\"]}, %s]}",
	         entry);
	e = load_text(&r, text);
	assert_int_equal(e.code, ERR_INPUT);
	assert_string_equal(e.msg, msg);
	assert_int_equal(r.ncls, 0);
	rules_release(&r);
}

static void mindie_ops_bad_part_is_an_error(void **state)
{
	(void)state;
	part_fails("{\"category\": \"FA\", \"part\": \"prep\", "
	           "\"types\": [\"B*\"]}",
	           "my-rules.json: 'classify[1].part': expected \"attention\" "
	           "or \"preparation\"");
	part_fails("{\"category\": \"FA\", \"part\": 1, \"types\": [\"B*\"]}",
	           "my-rules.json: 'classify[1].part': expected \"attention\" "
	           "or \"preparation\"");
	part_fails("{\"category\": \"MatMul\", \"part\": \"preparation\", "
	           "\"types\": [\"B*\"]}",
	           "my-rules.json: 'classify[1].part': only an FA entry has a "
	           "part");
}

/* ---- the breakdown sums FA per part ---------------------------------------
 */

static void mindie_ops_breakdown_splits_fa(void **state)
{
	/* keys: 0 QuantFlashAttn, 1 SparseBlockEstimate, 2 EagleFfnV2 */
	static const unsigned char key_cat[] = {CAT_FA, CAT_FA, CAT_MATMUL};
	static const unsigned char key_part[] = {
	    FA_PART_ATTENTION, FA_PART_PREPARATION, FA_PART_ATTENTION};
	static const char *const types[] = {
	    "QuantFlashAttn", "SparseBlockEstimate", "EagleFfnV2"};
	static const struct {
		uint32_t key;
		int64_t start, dur;
		unsigned char stage;
	} k[] = {{1, 0, 100, STAGE_DIT},    {0, 100, 700, STAGE_DIT},
	         {2, 800, 400, STAGE_DIT},  {1, 1200, 50, STAGE_DIT},
	         {0, 1250, 650, STAGE_DIT}, {0, 5000, 300, STAGE_VAE}};
	struct kernel_table kt;
	struct result r;
	unsigned char stage[ARRAY_LEN(k)];
	const struct stage_result *dit, *vae;
	size_t i;

	(void)state;
	kernel_table_init(&kt);
	for (i = 0; i < ARRAY_LEN(types); i++) {
		char key[64];
		int n = snprintf(key, sizeof(key), "%s%cAI_CORE", types[i], 0);
		uint32_t id;
		uint64_t cost;
		assert_int_equal(
		    kernel_table_key(&kt, key, (size_t)n, &id, &cost), 0);
		assert_int_equal(id, (uint32_t)i);
	}
	for (i = 0; i < ARRAY_LEN(k); i++) {
		struct kernel *kk;
		uint64_t cost;
		assert_int_equal(kernel_table_reserve(&kt, &cost), 0);
		kk = &kt.v[kt.n++];
		kk->key = k[i].key;
		kk->start_ns = k[i].start;
		kk->dur_ns = k[i].dur;
		kk->step = STEP_NONE;
		stage[i] = k[i].stage;
	}
	result_init(&r);
	breakdown_compute(&kt, key_cat, key_part, stage, NULL, 0, &r);
	dit = &r.stages[STAGE_DIT];
	vae = &r.stages[STAGE_VAE];
	assert_int_equal(dit->cat[CAT_FA].time_ns, 1500);
	assert_int_equal(dit->cat[CAT_FA].count, 4);
	assert_int_equal(dit->fa_part[FA_PART_ATTENTION].time_ns, 1350);
	assert_int_equal(dit->fa_part[FA_PART_ATTENTION].count, 2);
	assert_int_equal(dit->fa_part[FA_PART_PREPARATION].time_ns, 150);
	assert_int_equal(dit->fa_part[FA_PART_PREPARATION].count, 2);
	/* MatMul time is no part of FA */
	assert_int_equal(dit->cat[CAT_MATMUL].time_ns, 400);
	assert_int_equal(vae->fa_part[FA_PART_ATTENTION].time_ns, 300);
	assert_int_equal(vae->fa_part[FA_PART_PREPARATION].count, 0);
	result_release(&r);
	kernel_table_release(&kt);
}

/* ---- the aclnn API in the kernel's name (issue 22 §1) ---------------------
 * Each expected category is read off the name by hand: the API (first
 * part) says which framework op launched the kernel, the last part is its
 * type. */
static const struct {
	const char *name;
	enum category cat;
	enum fa_part part;
} by_name[] = {
    /* a transpose inside attention is the attention's preparation */
    {"aclnnFlashAttentionScore_TransposeAiCore_Transpose", CAT_FA,
     FA_PART_PREPARATION},
    {"aclnnFlashAttentionScore_FlashAttentionScore_FlashAttentionScore", CAT_FA,
     FA_PART_ATTENTION},
    {"aclnnFlashAttentionScore_MemSetAiCore_MemSet", CAT_FA,
     FA_PART_PREPARATION},
    /* MindIE-SD 3.x's own operators */
    {"aclnnLaserAttention_LaserAttention_LaserAttention", CAT_FA,
     FA_PART_ATTENTION},
    {"aclnnLaserAttention_CastAiCore_Cast", CAT_FA, FA_PART_PREPARATION},
    {"aclnnRainFusionAttention_RainFusionAttention_RainFusionAttention", CAT_FA,
     FA_PART_ATTENTION},
    {"aclnnRainFusionAttention_TransposeAiCore_Transpose", CAT_FA,
     FA_PART_PREPARATION},
    {"aclnnBlockSparseAttention_BlockSparseAttention_BlockSparseAttention",
     CAT_FA, FA_PART_ATTENTION},
    {"aclnnAdaBlockSparseAttention_AdaBlockSparseAttention_"
     "AdaBlockSparseAttention",
     CAT_FA, FA_PART_ATTENTION},
    {"aclnnAdaBlockSparseAttention_MulAiCore_Mul", CAT_FA, FA_PART_PREPARATION},
    {"aclnnLaPreprocess_LaPreprocess_LaPreprocess", CAT_FA,
     FA_PART_PREPARATION},
    {"aclnnLaPreprocess_PadV3AiCore_PadV3", CAT_FA, FA_PART_PREPARATION},
    {"aclnnSparseBlockEstimate_SparseBlockEstimate_SparseBlockEstimate", CAT_FA,
     FA_PART_PREPARATION},
    {"aclnnSparseBlockEstimate_MatMulCommon_MatMulV2", CAT_FA,
     FA_PART_PREPARATION},
    {"aclnnAdaLayerNorm_AdaLayerNorm_AdaLayerNorm", CAT_VECTOR, 0},
    {"aclnnAdaLayerNormV2_AdaLayerNormV2_AdaLayerNormV2", CAT_VECTOR, 0},
    {"aclnnAdaLayerNormV2_MatMulCommon_MatMulV2", CAT_VECTOR, 0},
    {"aclnnLayerNormWithImplMode_LayerNormV4_LayerNormV4", CAT_VECTOR, 0},
    /* a Conv3d patch embedding run by a batched matmul is Conv work */
    {"aclnnConvolution_BatchMatMulNd_BatchMatMulV2", CAT_CONV, 0},
    {"aclnnConvolution_Conv3DV2_Conv3DV2", CAT_CONV, 0},
    /* but not its layout and clearing helpers: they are what their type
     * says, as msprof-analyze counts them */
    {"aclnnConvolution_TransData_TransData", CAT_VECTOR, 0},
    {"aclnnConvolution_Conv2D_MemSet", CAT_VECTOR, 0},
    /* other APIs: the type decides, as before */
    {"aclnnMatmul_MatMulV3Common_MatMulV3", CAT_MATMUL, 0},
    {"aclnnEqTensor_TransposeAiCore_Transpose", CAT_VECTOR, 0},
    {"aclnnMm_MatMulCommon_MemSet", CAT_VECTOR, 0},
    {"aclnnNLLLoss_NLLLossAiCore_MemSet", CAT_VECTOR, 0},
    /* not aclnn names: no API */
    {"Conv2DBackpropFilter6_MemSet", CAT_VECTOR, 0},
    {"Transpose43", CAT_VECTOR, 0},
    {"aclnnFlashAttentionScore", CAT_FA, FA_PART_ATTENTION},
};

static void mindie_ops_aclnn_api_decides(void **state)
{
	struct rules r;
	size_t i;

	(void)state;
	load_builtin(&r);
	for (i = 0; i < ARRAY_LEN(by_name); i++) {
		const char *n = by_name[i].name, *t, *a;
		size_t tl = kernels_type_from_name(n, strlen(n), &t);
		size_t al = kernels_api_from_name(n, strlen(n), &a);
		char type[128], api[128];
		enum fa_part part = FA_PART_PREPARATION;
		enum category c;
		enum fa_part want = by_name[i].cat == CAT_FA
		                        ? by_name[i].part
		                        : FA_PART_ATTENTION;

		snprintf(type, sizeof(type), "%.*s", (int)tl, t);
		snprintf(api, sizeof(api), "%.*s", (int)al, a);
		c = rules_classify_kernel(&r, type, "AI_CORE", api, &part);
		if (c != by_name[i].cat || part != want)
			fail_msg(
			    "'%s' (type %s, api %s): %s/%s, expected %s/%s", n,
			    type, api, category_names[c], fa_part_names[part],
			    category_names[by_name[i].cat],
			    fa_part_names[want]);
	}
	/* a communication core stays Comm whatever launched it */
	assert_int_equal(rules_classify_kernel(&r, "Transpose", "HCCL",
	                                       "aclnnFlashAttentionScore",
	                                       &(enum fa_part){0}),
	                 CAT_COMM);
	rules_release(&r);
}

static void mindie_ops_api_of_a_name(void **state)
{
	const char *a;
	(void)state;
	assert_int_equal(kernels_api_from_name("aclnnFoo_Bar_Baz", 16, &a), 8);
	assert_memory_equal(a, "aclnnFoo", 8);
	assert_int_equal(kernels_api_from_name("aclnnFoo_", 9, &a), 0);
	assert_int_equal(kernels_api_from_name("aclnn_Bar_Baz", 13, &a), 0);
	assert_int_equal(kernels_api_from_name("aclnnFoo", 8, &a), 0);
	assert_int_equal(kernels_api_from_name("MatMul_3", 8, &a), 0);
	/* an API is letters and digits only */
	assert_int_equal(kernels_api_from_name("aclnnF\xffo_B", 10, &a), 0);
}

/* A user's "classify_apis" entry wins over the built-in ones. */
static void mindie_ops_user_api(void **state)
{
	struct rules r;
	enum fa_part part;
	struct err e = ERR_INIT;
	static const char text[] =
	    "{\"extends\": \"builtin\", \"classify_apis\": ["
	    "{\"category\": \"Other\", \"apis\": [\"aclnnLaserAtt*\"]}]}";

	(void)state;
	memset(&r, 0, sizeof(r));
	assert_int_equal(
	    rules_load_text(&r, "my-rules.json", text, strlen(text), &e), 0);
	assert_int_equal(
	    rules_classify_kernel(&r, "Cast", "", "aclnnLaserAttention", &part),
	    CAT_OTHER);
	assert_int_equal(rules_classify_kernel(
	                     &r, "Cast", "", "aclnnFlashAttentionScore", &part),
	                 CAT_FA);
	assert_int_equal(part, FA_PART_PREPARATION);
	rules_release(&r);
}

/* The top-kernel table keeps the type, one line per type and category:
 * a Transpose of attention (FA preparation) and one elsewhere (Vector)
 * are two lines, each with its own time (hand-summed below). */
static void mindie_ops_top_types_split_by_category(void **state)
{
	static const unsigned char key_cat[] = {CAT_FA, CAT_VECTOR};
	static const unsigned char key_part[] = {FA_PART_PREPARATION, 0};
	static const char k0[] = "Transpose\0AI_VECTOR_CORE\0"
	                         "aclnnFlashAttentionScore";
	static const char k1[] = "Transpose\0AI_VECTOR_CORE\0aclnnPermute";
	unsigned char stage[3] = {STAGE_DIT, STAGE_DIT, STAGE_DIT};
	static const int64_t dur[3] = {100, 30, 7};
	static const uint32_t key[3] = {0, 1, 0};
	struct kernel_table kt;
	struct result r;
	const struct stage_result *dit;
	uint32_t id;
	uint64_t cost;
	size_t i;

	(void)state;
	kernel_table_init(&kt);
	assert_int_equal(kernel_table_key(&kt, k0, sizeof(k0) - 1, &id, &cost),
	                 0);
	assert_int_equal(kernel_table_key(&kt, k1, sizeof(k1) - 1, &id, &cost),
	                 0);
	assert_string_equal(kernel_key_api(&kt, 0), "aclnnFlashAttentionScore");
	assert_string_equal(kernel_key_core(&kt, 0), "AI_VECTOR_CORE");
	for (i = 0; i < 3; i++) {
		struct kernel *kk;
		assert_int_equal(kernel_table_reserve(&kt, &cost), 0);
		kk = &kt.v[kt.n++];
		kk->key = key[i];
		kk->start_ns = (int64_t)i * 1000;
		kk->dur_ns = dur[i];
		kk->step = STEP_NONE;
	}
	result_init(&r);
	breakdown_compute(&kt, key_cat, key_part, stage, NULL, 0, &r);
	dit = &r.stages[STAGE_DIT];
	assert_int_equal(dit->ntop, 2);
	for (i = 0; i < dit->ntop; i++) {
		assert_string_equal(dit->top[i].type, "Transpose");
		if (dit->top[i].cat == CAT_FA)
			assert_int_equal(dit->top[i].total_ns, 107);
		else
			assert_int_equal(dit->top[i].total_ns, 30);
	}
	assert_int_equal(dit->fa_part[FA_PART_PREPARATION].time_ns, 107);
	assert_int_equal(dit->cat[CAT_VECTOR].time_ns, 30);
	result_release(&r);
	kernel_table_release(&kt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(mindie_ops_builtin_table),
	    cmocka_unit_test(mindie_ops_fp8_attention_stays_fa),
	    cmocka_unit_test(mindie_ops_user_part),
	    cmocka_unit_test(mindie_ops_bad_part_is_an_error),
	    cmocka_unit_test(mindie_ops_breakdown_splits_fa),
	    cmocka_unit_test(mindie_ops_aclnn_api_decides),
	    cmocka_unit_test(mindie_ops_api_of_a_name),
	    cmocka_unit_test(mindie_ops_user_api),
	    cmocka_unit_test(mindie_ops_top_types_split_by_category),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
