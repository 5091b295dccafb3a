/* Unit tests of analysis/rules.c: globs, the built-in classification and
 * signatures, loading and validating users' rules files, --threshold. */
#include "unit.h"

#include "analysis/rules.h"

/* ---- fixture: one rules struct per test -------------------------------- */

static int rules_setup(void **state)
{
	struct rules *r = calloc(1, sizeof(*r));

	if (!r)
		return -1;
	*state = r;
	return 0;
}

static int rules_teardown(void **state)
{
	rules_release(*state);
	free(*state);
	return 0;
}

#define T(f) cmocka_unit_test_setup_teardown(f, rules_setup, rules_teardown)

static void load_builtin(struct rules *r)
{
	struct err e = ERR_INIT;

	if (rules_load_builtin(r, &e))
		fail_msg("built-in rules: %s", e.msg);
}

/* Loads text as "u.json"; returns the error (code ERR_NONE on success). */
static struct err load_text(struct rules *r, const char *text)
{
	struct err e = ERR_INIT;
	int rc = rules_load_text(r, "u.json", text, strlen(text), &e);

	assert_int_equal(rc, e.code == ERR_NONE ? 0 : -1);
	return e;
}

static void load_fails(struct rules *r, const char *text, const char *msg)
{
	struct err e = load_text(r, text);

	assert_int_equal(e.code, ERR_INPUT);
	assert_string_equal(e.msg, msg);
	/* a failed load leaves nothing behind */
	assert_int_equal(r->ncls, 0);
	assert_int_equal(r->nsig, 0);
	assert_int_equal(r->nth, 0);
	assert_null(r->source);
}

static const struct threshold *th(const struct rules *r, const char *id)
{
	size_t i;

	for (i = 0; i < r->nth; i++)
		if (!strcmp(r->th[i].id, id))
			return &r->th[i];
	fail_msg("no threshold '%s'", id);
	return NULL;
}

/* A valid threshold entry with the given id and value. */
#define TH(id, above)                                                          \
	"{\"id\": \"" id "\", \"title\": \"t\", \"recommendation\": \"r\", "   \
	"\"stage\": \"dit\", \"metric\": \"category_share\", "                 \
	"\"category\": \"MatMul\", \"above\": " above ", \"docs\": []}"

/* ---- rules_glob -------------------------------------------------------- */

static void rules_glob_table(void **state)
{
	static const struct {
		const char *pattern, *s;
		int match;
	} t[] = {
	    {"", "", 1},
	    {"", "a", 0},
	    {"*", "", 1},
	    {"*", "anything", 1},
	    {"**", "x", 1},
	    {"?", "", 0},
	    {"?", "x", 1},
	    {"a?c", "abc", 1},
	    {"a?c", "ac", 0},
	    {"a*", "abc", 1},
	    {"*c", "abc", 1},
	    {"*c", "abcd", 0},
	    {"a*b*c", "aXbYc", 1},
	    {"a*b*c", "aXcYb", 0},
	    {"*aab", "aaab", 1}, /* needs backtracking */
	    {"*MatMul*", "BatchMatMulV2", 1},
	    {"matmul*", "MatMulV3", 1}, /* case-insensitive */
	    {"MATMUL*", "matmulv3", 1},
	    {"*NormV?", "LayerNormV3", 1},
	    {"*NormV?", "LayerNormV30", 0},
	    {"Mm", "mm", 1},
	    {"Mm", "Mmx", 0},
	    {"Mm", "M", 0},
	    {"hcom_*", "hcom_allReduce_", 1},
	    {"hcom_*", "xhcom_allReduce_", 0},
	    {"*broadcast_", "hcom_broadcast_", 1},
	    {"*broadcast_", "BroadcastTo", 0},
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_LEN(t); i++)
		if (rules_glob(t[i].pattern, t[i].s) != t[i].match)
			fail_msg("rules_glob('%s', '%s') != %d", t[i].pattern,
			         t[i].s, t[i].match);
}

/* ---- built-in rules ---------------------------------------------------- */

static void rules_builtin_loads_defaults(void **state)
{
	struct rules *r = *state;

	load_builtin(r);
	assert_string_equal(r->source, "built-in");
	assert_int_equal(r->window, 16);
	assert_int_equal(r->min_segment, 12);
	assert_int_equal(r->loop_window, 16);
	assert_int_equal(r->min_text_encoder, 8);
	assert_int_equal(r->ncomm, 3);
	assert_string_equal(r->comm_cores[0], "HCCL");
	assert_int_equal(r->nth, 10);
	assert_string_equal(r->th[0].id, "matmul_quant");
	assert_string_equal(r->th[1].id, "fa_quant_sparse");
	assert_string_equal(r->th[2].id, "vector_fusion");
	assert_string_equal(r->th[3].id, "comm_overlap");
	assert_string_equal(r->th[4].id, "host_bound");
	assert_int_equal(r->th[4].metric, METRIC_FREE_SHARE);
	assert_int_equal(r->th[4].stage, STAGE_ALL);
	assert_string_equal(r->th[5].id, "rank_imbalance");
	assert_string_equal(r->th[6].id, "vae_parallel");
	assert_int_equal(r->th[6].metric, METRIC_STAGE_SHARE);
	assert_int_equal(r->th[6].stage, STAGE_VAE);
	assert_true(r->th[6].above == 30.0);
	assert_string_equal(r->th[7].id, "text_encoder");
	assert_int_equal(r->th[7].metric, METRIC_STAGE_SHARE);
	assert_int_equal(r->th[7].stage, STAGE_TEXT_ENCODER);
	assert_true(r->th[7].above == 10.0);
	assert_int_equal(r->th[5].metric, METRIC_RANK_IMBALANCE);
	assert_true(r->outlier_factor == 1.5);
	assert_true(r->nmarkers > 10);
	assert_true(r->th[0].above == 50.0);
	assert_true(r->th[1].above == 30.0);
	assert_true(r->th[2].above == 20.0);
	assert_true(r->th[3].above == 30.0);
	assert_int_equal(r->th[0].metric, METRIC_CATEGORY_SHARE);
	assert_int_equal(r->th[0].cat, CAT_MATMUL);
	assert_int_equal(r->th[0].stage, STAGE_DIT);
	assert_int_equal(r->th[3].metric, METRIC_EXPOSED_COMM_SHARE);
	assert_int_equal(r->th[1].ndocs, 2);
	assert_string_equal(r->th[1].docs[0], "quantization");
	assert_string_equal(r->th[1].docs[1], "sparse");
}

static void rules_classify_builtin_table(void **state)
{
	static const struct {
		const char *type, *core;
		enum category cat;
	} t[] = {
	    {"FlashAttentionScore", "MIX_AIC", CAT_FA},
	    {"FlashAttentionScoreGrad", "MIX_AIC", CAT_FA},
	    {"FusedInferAttentionScore", "", CAT_FA},
	    {"PromptFlashAttention", "", CAT_FA},
	    {"IncreFlashAttention", "MIX_AIC", CAT_FA},
	    {"LaserAttention", "", CAT_FA},
	    {"AscendLaserAttention", "", CAT_FA},
	    {"AdaBlockSparseAttention", "", CAT_FA},
	    {"SparseBlockEstimate", "", CAT_FA},
	    {"LaPreprocess", "", CAT_FA},
	    {"MatMulV3", "AI_CORE", CAT_MATMUL},
	    {"MatMulV2", "AI_CORE", CAT_MATMUL},
	    {"MatMul", "AI_CORE", CAT_MATMUL},
	    {"BatchMatMulV2", "AI_CORE", CAT_MATMUL},
	    {"QuantBatchMatmulV3", "", CAT_MATMUL},
	    {"GroupedMatmul", "", CAT_MATMUL},
	    {"DequantGemm", "", CAT_MATMUL},
	    {"MatmulAllReduce", "", CAT_MATMUL}, /* MC2 before Comm */
	    {"Conv2D", "AI_CORE", CAT_CONV},
	    {"Conv3D", "", CAT_CONV},
	    {"Conv2DBackpropInput", "", CAT_CONV},
	    {"Conv2DBackpropFilterD", "AI_CORE", CAT_CONV},
	    {"GeluV2", "", CAT_VECTOR},
	    {"FastGelu", "", CAT_VECTOR},
	    {"Silu", "", CAT_VECTOR},
	    {"Swish", "", CAT_VECTOR},
	    {"RmsNorm", "", CAT_VECTOR},
	    {"InplaceAddRmsNorm", "", CAT_VECTOR},
	    {"LayerNorm", "", CAT_VECTOR},
	    {"LayerNormV3", "", CAT_VECTOR},
	    {"AdaLayerNorm", "", CAT_VECTOR},
	    {"GroupNorm", "", CAT_VECTOR},
	    {"GroupNormSilu", "", CAT_VECTOR},
	    {"RotaryPositionEmbedding", "", CAT_VECTOR},
	    {"ApplyRotaryPosEmb", "", CAT_VECTOR},
	    {"Mul", "", CAT_VECTOR},
	    {"Add", "", CAT_VECTOR},
	    {"Cast", "AI_CPU", CAT_VECTOR},
	    {"Transpose", "", CAT_VECTOR},
	    {"TransData", "", CAT_VECTOR},
	    {"ResizeNearestNeighborV2", "", CAT_VECTOR},
	    {"SoftmaxV2", "", CAT_VECTOR},
	    {"BroadcastTo", "", CAT_VECTOR},
	    {"MemSet", "AI_VECTOR_CORE", CAT_VECTOR},
	    {"AutomaticBufferFusionOp", "", CAT_VECTOR},
	    {"hcom_allReduce_", "HCCL", CAT_COMM},
	    {"hcom_allReduce_", "", CAT_COMM}, /* by name alone too */
	    {"hcom_alltoall_", "", CAT_COMM},
	    {"hcom_alltoallv_", "", CAT_COMM},
	    {"hcom_allGather_", "", CAT_COMM},
	    {"hcom_reduceScatter_", "", CAT_COMM},
	    {"hcom_broadcast_", "", CAT_COMM},
	    {"hcom_send_", "", CAT_COMM},
	    {"hcom_receive_", "", CAT_COMM},
	    {"NonZero", "MIX_AIV", CAT_OTHER},
	    {"StatelessRandomNormalV2", "", CAT_OTHER},
	    {"ApplyAdamW", "", CAT_OTHER},
	    {"0", "AI_VECTOR_CORE", CAT_OTHER},
	    {"", "", CAT_OTHER},
	};
	struct rules r;
	struct err e = ERR_INIT;
	size_t i;

	(void)state;
	memset(&r, 0, sizeof(r));
	assert_int_equal(rules_load_builtin(&r, &e), 0);
	for (i = 0; i < ARRAY_LEN(t); i++) {
		enum category c = rules_classify(&r, t[i].type, t[i].core);
		if (c != t[i].cat)
			fail_msg("'%s' on '%s': %s, expected %s", t[i].type,
			         t[i].core, category_names[c],
			         category_names[t[i].cat]);
	}
	rules_release(&r);
}

static void rules_classify_any_type_on_comm_core_is_comm(void **state)
{
	struct rules *r = *state;

	load_builtin(r);
	assert_int_equal(rules_classify(r, "MatMulV3", "HCCL"), CAT_COMM);
	assert_int_equal(rules_classify(r, "FlashAttentionScore", "HCCL"),
	                 CAT_COMM);
	assert_int_equal(rules_classify(r, "Cast", "hccl"), CAT_COMM);
	assert_int_equal(rules_classify(r, "NonZero", "COMMUNICATION"),
	                 CAT_COMM);
	assert_int_equal(rules_classify(r, "Whatever", "HCCL_AI_CPU"),
	                 CAT_COMM);
	/* other cores do not make a kernel Comm */
	assert_int_equal(rules_classify(r, "MatMulV3", "AI_CORE"), CAT_MATMUL);
	assert_int_equal(rules_classify(r, "NonZero", "AI_CPU"), CAT_OTHER);
	assert_int_equal(rules_classify(r, "MatMulV3", ""), CAT_MATMUL);
}

static void rules_signature_builtin_table(void **state)
{
	static const struct {
		const char *type;
		enum sig sig;
	} t[] = {
	    {"FlashAttentionScore", SIG_DIT},
	    {"FusedInferAttentionScore", SIG_DIT},
	    {"LaserAttention", SIG_DIT},
	    {"MatMulV3", SIG_DIT},
	    {"BatchMatMulV2", SIG_DIT},
	    {"DequantGemm", SIG_DIT},
	    {"LayerNorm", SIG_DIT},
	    {"AdaLayerNorm", SIG_DIT},
	    {"RmsNorm", SIG_DIT},
	    {"RotaryPositionEmbedding", SIG_DIT},
	    {"ApplyRotaryPosEmb", SIG_DIT},
	    {"Conv2D", SIG_VAE},
	    {"Conv3D", SIG_VAE},
	    {"Conv2DBackpropInput", SIG_VAE},
	    {"GroupNorm", SIG_VAE},
	    {"GroupNormSilu", SIG_VAE},
	    {"ResizeNearestNeighborV2", SIG_VAE},
	    {"UpsampleNearest3d", SIG_VAE},
	    {"Add", SIG_NONE},
	    {"Mul", SIG_NONE},
	    {"Cast", SIG_NONE},
	    {"GeluV2", SIG_NONE},
	    {"Silu", SIG_NONE},
	    {"SoftmaxV2", SIG_NONE},
	    {"hcom_allReduce_", SIG_NONE},
	    {"NonZero", SIG_NONE},
	};
	struct rules r;
	struct err e = ERR_INIT;
	size_t i;

	(void)state;
	memset(&r, 0, sizeof(r));
	assert_int_equal(rules_load_builtin(&r, &e), 0);
	for (i = 0; i < ARRAY_LEN(t); i++)
		if (rules_signature(&r, t[i].type) != t[i].sig)
			fail_msg("signature of '%s': %d, expected %d",
			         t[i].type, rules_signature(&r, t[i].type),
			         t[i].sig);
	rules_release(&r);
}

/* ---- users' rules files ------------------------------------------------ */

static void rules_load_text_complete_file_replaces_builtin(void **state)
{
	struct rules *r = *state;
	struct err e;

	e = load_text(r,
	              "{\"schema\": \"sdperf-rules/1\", \"comment\": \"x\",\n"
	              " \"classify\": [{\"category\": \"conv\", \"types\": "
	              "[\"My*\", \"Other?\"]}],\n"
	              " \"signatures\": [{\"stage\": \"vae\", \"types\": "
	              "[\"My*\"]}],\n"
	              " \"thresholds\": [" TH("only", "10") "]}");
	if (e.code)
		fail_msg("%s", e.msg);
	assert_string_equal(r->source, "u.json");
	assert_int_equal(r->ncls, 2);
	assert_int_equal(r->nsig, 1);
	assert_int_equal(r->nth, 1);
	assert_int_equal(r->ncomm, 0);
	/* category names match ignoring case */
	assert_int_equal(rules_classify(r, "MyConv", ""), CAT_CONV);
	assert_int_equal(rules_classify(r, "OtherX", ""), CAT_CONV);
	/* nothing built-in is left */
	assert_int_equal(rules_classify(r, "FlashAttentionScore", ""),
	                 CAT_OTHER);
	assert_int_equal(rules_classify(r, "hcom_allReduce_", "HCCL"),
	                 CAT_OTHER);
	assert_int_equal(rules_signature(r, "MyConv"), SIG_VAE);
	assert_int_equal(rules_signature(r, "MatMulV3"), SIG_NONE);
	assert_int_equal(r->window, 16);
	assert_int_equal(r->min_text_encoder, 8);
	assert_true(th(r, "only")->above == 10.0);
}

static void
rules_load_text_extends_builtin_puts_user_patterns_first(void **state)
{
	struct rules *r = *state;
	struct rules b;
	struct err e = ERR_INIT;

	memset(&b, 0, sizeof(b));
	assert_int_equal(rules_load_builtin(&b, &e), 0);
	e = load_text(
	    r, "{\"extends\": \"builtin\",\n"
	       " \"classify\": [{\"category\": \"Vector\", \"types\": "
	       "[\"MatMulV3\"]}],\n"
	       " \"signatures\": [{\"stage\": \"none\", \"types\": "
	       "[\"MatMulV3\"]}],\n"
	       " \"segmentation\": {\"window\": 8},\n"
	       " \"thresholds\": [{\"id\": \"matmul_quant\", \"title\": "
	       "\"Mine\", \"recommendation\": \"r\", \"stage\": \"vae\", "
	       "\"metric\": \"category_share\", \"category\": \"Conv\", "
	       "\"above\": 42.5, \"docs\": [\"cache\"]},\n"
	       "  " TH("extra", "99") "]}");
	if (e.code)
		fail_msg("%s", e.msg);
	/* the user's pattern wins over the built-in *MatMul* */
	assert_int_equal(r->ncls, b.ncls + 1);
	assert_string_equal(r->cls[0].glob, "MatMulV3");
	assert_int_equal(rules_classify(r, "MatMulV3", "AI_CORE"), CAT_VECTOR);
	assert_int_equal(rules_signature(r, "MatMulV3"), SIG_NONE);
	/* the built-in rules are all still there, behind it */
	assert_int_equal(rules_classify(r, "MatMulV2", "AI_CORE"), CAT_MATMUL);
	assert_int_equal(rules_classify(r, "FlashAttentionScore", ""), CAT_FA);
	assert_int_equal(rules_signature(r, "MatMulV2"), SIG_DIT);
	assert_int_equal(r->ncomm, 3);
	/* segmentation: only the given field changes */
	assert_int_equal(r->window, 8);
	assert_int_equal(r->min_segment, 12);
	/* a threshold with a built-in id replaces it, in place */
	assert_int_equal(r->nth, 11);
	assert_string_equal(r->th[0].id, "matmul_quant");
	assert_string_equal(r->th[0].title, "Mine");
	assert_true(r->th[0].above == 42.5);
	assert_int_equal(r->th[0].stage, STAGE_VAE);
	assert_int_equal(r->th[0].cat, CAT_CONV);
	assert_int_equal(r->th[0].ndocs, 1);
	assert_string_equal(r->th[0].docs[0], "cache");
	assert_string_equal(r->th[10].id, "extra");
	assert_true(th(r, "fa_quant_sparse")->above == 30.0);
	rules_release(&b);
}

/* Regression (was a bug: rules.h says the source of an extending file is the
 * path "with + built-in"; rules_load_text stores the bare name). */
static void rules_load_text_extends_names_both_sources(void **state)
{
	struct rules *r = *state;
	struct err e = load_text(r, "{\"extends\": \"builtin\"}");

	assert_int_equal(e.code, ERR_NONE);
	assert_string_equal(r->source, "u.json + built-in");
}

static void rules_load_text_rejects_invalid_json(void **state)
{
	load_fails(*state,
	           "{\"extends\": \"builtin\",\n \"classify\": [\n"
	           "  {\"category\": \"FA\" \"types\": []}\n]}",
	           "u.json:3:21: invalid JSON near '\"types\": []}\\x0A]}'");
}

static void
rules_load_text_rejects_invalid_json_shortening_the_quote(void **state)
{
	load_fails(
	    *state,
	    "{\"extends\": tru, \"about\": \"abcdefghijklmnopqrstuvwxyz\"}",
	    "u.json:1:13: invalid JSON near 'tru, \"about\": \"abcdefghij"
	    "klmno...'");
}

static void rules_load_text_rejects_empty_text(void **state)
{
	load_fails(*state, "", "u.json:1:1: invalid JSON near ''");
}

/* Regression (was a bug: rules.c parse_into ignores text after the JSON
 * value, so a file with a stray second object or bracket loads). */
static void rules_load_text_rejects_text_after_the_object(void **state)
{
	load_fails(*state, "{\"extends\": \"builtin\"}\n}",
	           "u.json:2:1: invalid JSON near '}'");
}

static void rules_load_text_rejects_top_level_array(void **state)
{
	load_fails(*state, "[]",
	           "u.json: '(top level)': expected a JSON object");
}

static void rules_load_text_rejects_unknown_category(void **state)
{
	load_fails(
	    *state,
	    "{\"extends\": \"builtin\", \"classify\": [{\"category\": "
	    "\"Vector\", \"types\": [\"A\"]}, {\"category\": \"Matmul2\", "
	    "\"types\": [\"X\"]}]}",
	    "u.json: 'classify[1].category': unknown category 'Matmul2' "
	    "(expected FA, MatMul, Conv, Vector, Comm or Other)");
}

static void
rules_load_text_rejects_classify_entry_without_category(void **state)
{
	load_fails(
	    *state,
	    "{\"extends\": \"builtin\", \"classify\": [{\"types\": "
	    "[\"X\"]}]}",
	    "u.json: 'classify[0].category': expected a non-empty string");
}

static void rules_load_text_rejects_empty_types(void **state)
{
	load_fails(*state,
	           "{\"extends\": \"builtin\", \"classify\": [{\"category\": "
	           "\"FA\", \"types\": []}]}",
	           "u.json: 'classify[0].types': expected a non-empty array of "
	           "patterns");
}

static void rules_load_text_rejects_non_string_pattern(void **state)
{
	load_fails(
	    *state,
	    "{\"extends\": \"builtin\", \"signatures\": [{\"stage\": "
	    "\"dit\", \"types\": [\"A\", 3]}]}",
	    "u.json: 'signatures[0].types[1]': expected a non-empty string");
}

static void rules_load_text_rejects_unknown_signature_stage(void **state)
{
	load_fails(*state,
	           "{\"extends\": \"builtin\", \"signatures\": [{\"stage\": "
	           "\"unet\", \"types\": [\"x\"]}]}",
	           "u.json: 'signatures[0].stage': expected 'dit', 'vae' or "
	           "'none'");
}

/* The built-in workload patterns: backward, optimizer and dropout kernels
 * are training; incremental and paged attention LLM decoding; forward
 * kernels (a fused inference attention included: diffusion transformers
 * run it) neither. */
static void rules_workload_builtin_table(void **state)
{
	static const struct {
		const char *type;
		enum workload_kind kind;
	} t[] = {
	    {"ReluGrad", WORKLOAD_TRAINING},
	    {"MaxPoolGradWithArgmaxV1", WORKLOAD_TRAINING},
	    {"FlashAttentionScoreGrad", WORKLOAD_TRAINING},
	    {"Conv2DBackpropFilterD", WORKLOAD_TRAINING},
	    {"ApplyAdamW", WORKLOAD_TRAINING},
	    {"ForeachAddList", WORKLOAD_TRAINING},
	    {"DropOutDoMask", WORKLOAD_KINDS /* dropout */},
	    {"DSAStatelessGenBitMask", WORKLOAD_KINDS},
	    {"IncreFlashAttention", WORKLOAD_LLM},
	    {"PagedAttentionMaskNdKernel", WORKLOAD_LLM},
	    {"ReshapeAndCacheNdKernel", WORKLOAD_LLM},
	    {"FusedInferAttentionScore", WORKLOAD_UNKNOWN},
	    {"FlashAttentionScore", WORKLOAD_UNKNOWN},
	    {"ApplyRotaryPosEmb", WORKLOAD_UNKNOWN},
	    {"Conv2D", WORKLOAD_UNKNOWN},
	    {"MatMulV3", WORKLOAD_UNKNOWN},
	};
	struct rules r;
	struct err e = ERR_INIT;
	size_t i;

	(void)state;
	memset(&r, 0, sizeof(r));
	assert_int_equal(rules_load_builtin(&r, &e), 0);
	for (i = 0; i < ARRAY_LEN(t); i++)
		if (rules_workload(&r, t[i].type) != t[i].kind)
			fail_msg("workload of '%s': %d, expected %d", t[i].type,
			         rules_workload(&r, t[i].type), t[i].kind);
	rules_release(&r);
}

static void rules_load_text_rejects_unknown_workload_kind(void **state)
{
	load_fails(*state,
	           "{\"extends\": \"builtin\", \"workloads\": [{\"kind\": "
	           "\"diffusion\", \"types\": [\"x\"]}]}",
	           "u.json: 'workloads[0].kind': expected 'training', "
	           "'dropout' or 'llm_inference'");
}

static void rules_load_text_rejects_unknown_doc_key(void **state)
{
	load_fails(
	    *state,
	    "{\"extends\": \"builtin\", \"thresholds\": [{\"id\": \"x\", "
	    "\"title\": \"t\", \"recommendation\": \"r\", \"stage\": "
	    "\"dit\", \"metric\": \"category_share\", \"category\": "
	    "\"FA\", \"above\": 10, \"docs\": [\"sparse\", \"nope\"]}]}",
	    "u.json: 'thresholds[0].docs': unknown feature doc (expected "
	    "one of: sparse quantization cache cpu_offload share_memory "
	    "parallelism compilation core_layers DyEPLB)");
}

static void
rules_load_text_rejects_missing_classify_without_extends(void **state)
{
	load_fails(*state, "{\"signatures\": [], \"thresholds\": []}",
	           "u.json: '(top level)': a complete rules file needs "
	           "'classify', 'signatures' and 'thresholds' (or add "
	           "\"extends\": \"builtin\")");
}

static void rules_load_text_rejects_bad_extends_value(void **state)
{
	struct rules *r = *state;

	load_fails(r, "{\"extends\": \"builtins\"}",
	           "u.json: 'extends': the only value allowed is \"builtin\"");
	load_fails(r, "{\"extends\": true}",
	           "u.json: 'extends': the only value allowed is \"builtin\"");
}

static void rules_load_text_rejects_unknown_top_level_key(void **state)
{
	load_fails(*state, "{\"extends\": \"builtin\", \"classfy\": []}",
	           "u.json: 'classfy': unknown key");
}

static void rules_load_text_rejects_threshold_above_100(void **state)
{
	load_fails(
	    *state,
	    "{\"extends\": \"builtin\", \"thresholds\": [" TH("matmul_quant",
	                                                      "150") "]}",
	    "u.json: 'thresholds[0].above': expected a percentage from 0 "
	    "to 100");
}

static void rules_load_text_rejects_unknown_threshold_stage(void **state)
{
	load_fails(
	    *state,
	    "{\"extends\": \"builtin\", \"thresholds\": [{\"id\": \"a\", "
	    "\"title\": \"t\", \"recommendation\": \"r\", \"stage\": "
	    "\"unet\", \"metric\": \"category_share\", \"category\": "
	    "\"FA\", \"above\": 1, \"docs\": []}]}",
	    "u.json: 'thresholds[0].stage': expected dit, vae, "
	    "text_encoder or other");
}

/* Regression (was a bug: rules.c load_metric appends '.metric' to the path
 * buffer that already holds '...stage', without resetting it). */
static void rules_load_text_rejects_unknown_metric(void **state)
{
	load_fails(
	    *state,
	    "{\"extends\": \"builtin\", \"thresholds\": [{\"id\": \"a\", "
	    "\"title\": \"t\", \"recommendation\": \"r\", \"stage\": "
	    "\"dit\", \"metric\": \"share\", \"above\": 1, \"docs\": []}]}",
	    "u.json: 'thresholds[0].metric': expected 'category_share', "
	    "'exposed_comm_share', 'free_share', 'rank_imbalance', "
	    "'stage_share', 'memory_peak_share' or 'dit_loop_share'");
}

static void rules_load_text_free_share_needs_stage_all(void **state)
{
	load_fails(*state,
	           "{\"extends\": \"builtin\", \"thresholds\": [{\"id\": "
	           "\"a\", \"title\": \"t\", \"recommendation\": \"r\", "
	           "\"stage\": \"dit\", \"metric\": \"free_share\", "
	           "\"above\": 1, \"docs\": []}]}",
	           "u.json: 'thresholds[0].stage': free_share is measured over "
	           "the whole step: expected 'all'");
}

/* stage_share: any one stage (vae, text_encoder...), no category needed;
 * "all" is not a stage. */
static void rules_load_text_stage_share(void **state)
{
	struct rules *r = *state;
	struct err e = load_text(
	    r, "{\"extends\": \"builtin\", \"thresholds\": [{\"id\": "
	       "\"te\", \"title\": \"t\", "
	       "\"recommendation\": \"r\", \"stage\": \"text_encoder\", "
	       "\"metric\": \"stage_share\", \"above\": 7.5, "
	       "\"docs\": [\"cpu_offload\"]}]}");

	if (e.code)
		fail_msg("%s", e.msg);
	assert_int_equal(th(r, "te")->metric, METRIC_STAGE_SHARE);
	assert_int_equal(th(r, "te")->stage, STAGE_TEXT_ENCODER);
	assert_true(th(r, "te")->above == 7.5);
	assert_string_equal(th(r, "te")->docs[0], "cpu_offload");
}

static void rules_load_text_stage_share_needs_a_stage(void **state)
{
	load_fails(*state,
	           "{\"extends\": \"builtin\", \"thresholds\": [{\"id\": "
	           "\"a\", \"title\": \"t\", \"recommendation\": \"r\", "
	           "\"stage\": \"all\", \"metric\": \"stage_share\", "
	           "\"above\": 1, \"docs\": []}]}",
	           "u.json: 'thresholds[0].stage': expected dit, vae, "
	           "text_encoder or other");
}

static void rules_load_text_markers_go_in_front(void **state)
{
	struct rules *r = *state;
	struct err e =
	    load_text(r, "{\"extends\": \"builtin\", \"markers\": [{\"stage\": "
	                 "\"vae\", \"names\": [\"my_decoder*\"]}], \"steps\": "
	                 "{\"outlier_factor\": 2.5}}");

	if (e.code)
		fail_msg("%s", e.msg);
	assert_string_equal(r->markers[0].glob, "my_decoder*");
	assert_int_equal(r->markers[0].target, STAGE_VAE);
	assert_true(r->nmarkers > 1);
	assert_true(r->outlier_factor == 2.5);
}

static void rules_load_text_rejects_bad_marker_stage(void **state)
{
	load_fails(*state,
	           "{\"extends\": \"builtin\", \"markers\": [{\"stage\": "
	           "\"unet\", \"names\": [\"x\"]}]}",
	           "u.json: 'markers[0].stage': expected dit, vae, "
	           "text_encoder or other");
}

static void rules_load_text_rejects_bad_outlier_factor(void **state)
{
	load_fails(*state,
	           "{\"extends\": \"builtin\", \"steps\": "
	           "{\"outlier_factor\": 0.5}}",
	           "u.json: 'steps.outlier_factor': expected a number from 1 "
	           "to 100");
}

static void rules_load_text_rejects_bad_segmentation_value(void **state)
{
	struct rules *r = *state;

	load_fails(
	    r,
	    "{\"extends\": \"builtin\", \"segmentation\": "
	    "{\"window\": 0}}",
	    "u.json: 'segmentation.window': expected a whole number from 1 "
	    "to 100000");
	load_fails(
	    r,
	    "{\"extends\": \"builtin\", \"segmentation\": "
	    "{\"loop_window\": 2.5}}",
	    "u.json: 'segmentation.loop_window': expected a whole number "
	    "from 2 to 4096");
}

static void rules_load_text_rejects_non_string_comm_core(void **state)
{
	load_fails(*state, "{\"extends\": \"builtin\", \"comm_cores\": [1]}",
	           "u.json: 'comm_cores': expected an array of strings");
}

static void rules_load_file_reads_and_names_the_file(void **state)
{
	struct rules *r = *state;
	struct err e = ERR_INIT;
	char dir[512], path[600], msg[1200];
	static const char text[] =
	    "{\"extends\": \"builtin\", \"classify\": [{\"category\": "
	    "\"Other\", \"types\": [\"FlashAttentionScore\"]}]}";

	unit_tmpdir(dir, sizeof(dir));
	unit_join(path, sizeof(path), dir, "rules.json");
	unit_write(path, text, sizeof(text) - 1);
	assert_int_equal(rules_load_file(r, path, &e), 0);
	assert_int_equal(rules_classify(r, "FlashAttentionScore", ""),
	                 CAT_OTHER);
	rules_release(r);

	unit_write(path, "{\"extends\": 1}", 14);
	assert_int_equal(rules_load_file(r, path, &e), -1);
	snprintf(msg, sizeof(msg),
	         "%s: 'extends': the only value allowed is \"builtin\"", path);
	assert_int_equal(e.code, ERR_INPUT);
	assert_string_equal(e.msg, msg);
	unit_rmtree(dir);
}

static void rules_load_file_reports_missing_file(void **state)
{
	struct rules *r = *state;
	struct err e = ERR_INIT;
	char dir[512], path[600], msg[1200];

	unit_tmpdir(dir, sizeof(dir));
	unit_join(path, sizeof(path), dir, "none.json");
	assert_int_equal(rules_load_file(r, path, &e), -1);
	snprintf(msg, sizeof(msg), "%s: cannot open: No such file or directory",
	         path);
	assert_int_equal(e.code, ERR_INPUT);
	assert_string_equal(e.msg, msg);
	unit_rmtree(dir);
}

static void rules_load_file_rejects_files_over_4_mib(void **state)
{
	struct rules *r = *state;
	struct err e = ERR_INIT;
	char dir[512], path[600], msg[1200];
	size_t n = (4u << 20) + 1;
	char *big = malloc(n);

	assert_non_null(big);
	memset(big, ' ', n);
	big[0] = '{';
	big[n - 1] = '}';
	unit_tmpdir(dir, sizeof(dir));
	unit_join(path, sizeof(path), dir, "big.json");
	unit_write(path, big, n);
	free(big);
	assert_int_equal(rules_load_file(r, path, &e), -1);
	snprintf(msg, sizeof(msg), "%s: file too large (limit 4194304 bytes)",
	         path);
	assert_int_equal(e.code, ERR_INPUT);
	assert_string_equal(e.msg, msg);
	unit_rmtree(dir);
}

/* ---- --threshold ------------------------------------------------------- */

static void rules_set_threshold_sets_value(void **state)
{
	struct rules *r = *state;
	struct err e = ERR_INIT;

	load_builtin(r);
	assert_int_equal(rules_set_threshold(r, "matmul_quant=45", &e), 0);
	assert_true(th(r, "matmul_quant")->above == 45.0);
	assert_int_equal(rules_set_threshold(r, "fa_quant_sparse=12.5%", &e),
	                 0);
	assert_true(th(r, "fa_quant_sparse")->above == 12.5);
	assert_int_equal(rules_set_threshold(r, "comm_overlap=0", &e), 0);
	assert_true(th(r, "comm_overlap")->above == 0.0);
	assert_int_equal(rules_set_threshold(r, "vector_fusion=100", &e), 0);
	assert_true(th(r, "vector_fusion")->above == 100.0);
	assert_int_equal(e.code, ERR_NONE);
}

static void set_fails(struct rules *r, const char *arg, const char *msg)
{
	struct err e = ERR_INIT;
	double before = th(r, "matmul_quant")->above;

	assert_int_equal(rules_set_threshold(r, arg, &e), -1);
	assert_int_equal(e.code, ERR_USAGE);
	assert_string_equal(e.msg, msg);
	assert_true(th(r, "matmul_quant")->above == before);
}

static void rules_set_threshold_rejects_unknown_name(void **state)
{
	struct rules *r = *state;

	load_builtin(r);
	set_fails(r, "matmul=45",
	          "--threshold 'matmul=45': unknown name (known: matmul_quant, "
	          "fa_quant_sparse, vector_fusion, comm_overlap, host_bound, "
	          "rank_imbalance, vae_parallel, text_encoder, "
	          "memory_headroom, cache)");
}

static void rules_set_threshold_rejects_bad_values(void **state)
{
	struct rules *r = *state;
	static const char *const bad[] = {
	    "matmul_quant=101", "matmul_quant=-1",   "matmul_quant=",
	    "matmul_quant=abc", "matmul_quant=45%%", "matmul_quant=45 %",
	    "matmul_quant=nan", "matmul_quant=inf",
	};
	char msg[256];
	size_t i;

	load_builtin(r);
	for (i = 0; i < ARRAY_LEN(bad); i++) {
		snprintf(
		    msg, sizeof(msg),
		    "--threshold '%s': expected a percentage from 0 to 100",
		    bad[i]);
		set_fails(r, bad[i], msg);
	}
}

static void rules_set_threshold_rejects_missing_equals(void **state)
{
	struct rules *r = *state;

	load_builtin(r);
	set_fails(r, "matmul_quant",
	          "--threshold 'matmul_quant': expected NAME=PERCENT");
	set_fails(r, "=45", "--threshold '=45': expected NAME=PERCENT");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(rules_glob_table),
	    T(rules_builtin_loads_defaults),
	    cmocka_unit_test(rules_classify_builtin_table),
	    T(rules_classify_any_type_on_comm_core_is_comm),
	    cmocka_unit_test(rules_signature_builtin_table),
	    cmocka_unit_test(rules_workload_builtin_table),
	    T(rules_load_text_complete_file_replaces_builtin),
	    T(rules_load_text_extends_builtin_puts_user_patterns_first),
	    T(rules_load_text_extends_names_both_sources),
	    T(rules_load_text_rejects_invalid_json),
	    T(rules_load_text_rejects_invalid_json_shortening_the_quote),
	    T(rules_load_text_rejects_empty_text),
	    T(rules_load_text_rejects_text_after_the_object),
	    T(rules_load_text_rejects_top_level_array),
	    T(rules_load_text_rejects_unknown_category),
	    T(rules_load_text_rejects_classify_entry_without_category),
	    T(rules_load_text_rejects_empty_types),
	    T(rules_load_text_rejects_non_string_pattern),
	    T(rules_load_text_rejects_unknown_signature_stage),
	    T(rules_load_text_rejects_unknown_workload_kind),
	    T(rules_load_text_rejects_unknown_doc_key),
	    T(rules_load_text_rejects_missing_classify_without_extends),
	    T(rules_load_text_rejects_bad_extends_value),
	    T(rules_load_text_rejects_unknown_top_level_key),
	    T(rules_load_text_rejects_threshold_above_100),
	    T(rules_load_text_rejects_unknown_threshold_stage),
	    T(rules_load_text_rejects_unknown_metric),
	    T(rules_load_text_free_share_needs_stage_all),
	    T(rules_load_text_stage_share),
	    T(rules_load_text_stage_share_needs_a_stage),
	    T(rules_load_text_markers_go_in_front),
	    T(rules_load_text_rejects_bad_marker_stage),
	    T(rules_load_text_rejects_bad_outlier_factor),
	    T(rules_load_text_rejects_bad_segmentation_value),
	    T(rules_load_text_rejects_non_string_comm_core),
	    T(rules_load_file_reads_and_names_the_file),
	    T(rules_load_file_reports_missing_file),
	    T(rules_load_file_rejects_files_over_4_mib),
	    T(rules_set_threshold_sets_value),
	    T(rules_set_threshold_rejects_unknown_name),
	    T(rules_set_threshold_rejects_bad_values),
	    T(rules_set_threshold_rejects_missing_equals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
