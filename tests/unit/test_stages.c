/* Unit tests of analysis/stages.c: stage separation on hand-built kernel
 * timelines shaped like real diffusion pipelines (text encoder, denoising
 * loop, VAE), and the grouping into segments. */
#include "unit.h"

#include "analysis/analyse.h"
#include "analysis/rules.h"
#include "analysis/stages.h"
#include "analysis/tracestages.h"
#include "input/kernels.h"
#include "util/membudget.h"
#include "util/xalloc.h"
#include "util/strbuf.h"

/* ---- kernel keys: real type names; signatures and categories from the
 * built-in rules ---------------------------------------------------------- */

enum key {
	LN,
	BMM,
	SOFTMAX,
	ADD,
	MM,
	GELU,
	CAST,
	MUL,
	RMS,
	FA,
	GN,
	SILU,
	CONV,
	RESIZE,
	TRANSPOSE,
	RANDN,
	CONCAT,
	BCAST,
	NKEYS
};

static const char *const key_type[NKEYS] = {
    [LN] = "LayerNorm",        [BMM] = "BatchMatMulV2",
    [SOFTMAX] = "SoftmaxV2",   [ADD] = "Add",
    [MM] = "MatMulV3",         [GELU] = "GeluV2",
    [CAST] = "Cast",           [MUL] = "Mul",
    [RMS] = "RmsNorm",         [FA] = "FlashAttentionScore",
    [GN] = "GroupNorm",        [SILU] = "Silu",
    [CONV] = "Conv2D",         [RESIZE] = "ResizeNearestNeighborV2",
    [TRANSPOSE] = "Transpose", [RANDN] = "StatelessRandomNormalV2",
    [CONCAT] = "ConcatD",      [BCAST] = "hcom_broadcast_",
};

/* one text-encoder layer: attention then MLP ending in Add */
static const enum key te_layer[] = {LN, BMM, SOFTMAX, BMM, ADD,
                                    LN, MM,  GELU,    MM,  ADD};
/* per denoising iteration: timestep embedding, then the blocks */
static const enum key dit_prologue[] = {CAST, MUL, MM, ADD};
/* a DiT block with gated residuals (Mul) */
static const enum key dit_block[] = {RMS, MM, MM,   FA, MM, MUL,
                                     RMS, MM, GELU, MM, MUL};
static const enum key vae_res[] = {GN, SILU, CONV, GN, SILU, CONV, ADD};
static const enum key vae_attn[] = {GN, MM, MM, MM, FA, MM, ADD};
static const enum key vae_up[] = {RESIZE, CONV};
static const enum key vae_out[] = {GN, SILU, CONV};

/* a 4-layer text encoder and its final norm */
#define NTE (4 * ARRAY_LEN(te_layer) + 1)

/* ---- timeline builder -------------------------------------------------- */

struct tl {
	struct rules ru;
	unsigned char key_sig[NKEYS];
	unsigned char key_cat[NKEYS];
	struct kernel k[4096];
	unsigned char want[4096]; /* expected stage of each kernel */
	size_t n;
	int64_t t;
	struct stages_out out;
};

static int tl_setup(void **state)
{
	struct tl *s = calloc(1, sizeof(*s));
	struct err e = ERR_INIT;
	size_t i;

	if (!s || rules_load_builtin(&s->ru, &e)) {
		free(s);
		return -1;
	}
	for (i = 0; i < NKEYS; i++) {
		s->key_sig[i] =
		    (unsigned char)rules_signature(&s->ru, key_type[i]);
		s->key_cat[i] =
		    (unsigned char)rules_classify(&s->ru, key_type[i], "");
	}
	s->t = INT64_C(1736413971558972912);
	*state = s;
	return 0;
}

static int tl_teardown(void **state)
{
	struct tl *s = *state;

	free(s->out.stage);
	rules_release(&s->ru);
	free(s);
	return 0;
}

#define T(f) cmocka_unit_test_setup_teardown(f, tl_setup, tl_teardown)

static void push(struct tl *s, enum key key, enum stage want)
{
	assert_true(s->n < ARRAY_LEN(s->k));
	s->k[s->n].start_ns = s->t;
	s->k[s->n].dur_ns = 10000;
	s->k[s->n].key = key;
	s->k[s->n].step = STEP_NONE;
	s->want[s->n++] = (unsigned char)want;
	s->t += 12000; /* 2 us launch gap */
}

static void push_all(struct tl *s, const enum key *keys, size_t n,
                     enum stage want)
{
	size_t i;

	for (i = 0; i < n; i++)
		push(s, keys[i], want);
}

#define PUSH(s, arr, want) push_all((s), (arr), ARRAY_LEN(arr), (want))

/* The host switches pipeline stage: an idle gap on the device. */
static void idle(struct tl *s, int64_t ns)
{
	s->t += ns;
}

static void text_encoder(struct tl *s)
{
	int l;

	for (l = 0; l < 4; l++)
		PUSH(s, te_layer, STAGE_TEXT_ENCODER);
	push(s, LN, STAGE_TEXT_ENCODER); /* final_layer_norm */
	idle(s, 3000000);
}

static void dit_loop(struct tl *s, int iterations, int blocks)
{
	int i, b;

	for (i = 0; i < iterations; i++) {
		PUSH(s, dit_prologue, STAGE_DIT);
		for (b = 0; b < blocks; b++)
			PUSH(s, dit_block, STAGE_DIT);
		idle(s, 200000); /* scheduler step on the host */
	}
	idle(s, 3000000);
}

static void vae_decode(struct tl *s)
{
	int i;

	push(s, CONV, STAGE_VAE); /* conv_in */
	for (i = 0; i < 3; i++)
		PUSH(s, vae_res, STAGE_VAE);
	PUSH(s, vae_attn, STAGE_VAE); /* mid-block attention */
	for (i = 0; i < 3; i++)
		PUSH(s, vae_res, STAGE_VAE);
	PUSH(s, vae_up, STAGE_VAE);
	for (i = 0; i < 2; i++)
		PUSH(s, vae_res, STAGE_VAE);
	PUSH(s, vae_up, STAGE_VAE);
	for (i = 0; i < 2; i++)
		PUSH(s, vae_res, STAGE_VAE);
	PUSH(s, vae_out, STAGE_VAE);
	idle(s, 3000000);
}

/* The encoder's layers, without the host's idle gap after them. */
static void vae_encode_layers(struct tl *s)
{
	int i;

	push(s, CONV, STAGE_VAE); /* conv_in */
	for (i = 0; i < 4; i++)
		PUSH(s, vae_res, STAGE_VAE);
	push(s, CONV, STAGE_VAE); /* downsample */
	for (i = 0; i < 4; i++)
		PUSH(s, vae_res, STAGE_VAE);
	PUSH(s, vae_res, STAGE_VAE); /* mid-block: res, attention, res */
	PUSH(s, vae_attn, STAGE_VAE);
	PUSH(s, vae_res, STAGE_VAE);
	PUSH(s, vae_out, STAGE_VAE);
	push(s, CONV, STAGE_VAE); /* quant_conv */
}

static void vae_encode(struct tl *s)
{
	vae_encode_layers(s);
	idle(s, 3000000);
}

static void run(struct tl *s)
{
	struct err e = ERR_INIT;

	assert_int_equal(stages_assign(s->k, s->n, s->key_sig, s->key_cat,
	                               &s->ru, &s->out, &e),
	                 0);
	assert_non_null(s->out.stage);
}

static size_t count(const unsigned char *v, size_t n, enum stage st)
{
	size_t i, c = 0;

	for (i = 0; i < n; i++)
		c += v[i] == st;
	return c;
}

/* Asserts every kernel got its expected label; on failure, says where. */
static void assert_labels(const struct tl *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->out.stage[i] != s->want[i])
			fail_msg("kernel %zu (%s): %s, expected %s; counts "
			         "dit/vae/te/other %zu/%zu/%zu/%zu, expected "
			         "%zu/%zu/%zu/%zu",
			         i, key_type[s->k[i].key],
			         stage_names[s->out.stage[i]],
			         stage_names[s->want[i]],
			         count(s->out.stage, s->n, STAGE_DIT),
			         count(s->out.stage, s->n, STAGE_VAE),
			         count(s->out.stage, s->n, STAGE_TEXT_ENCODER),
			         count(s->out.stage, s->n, STAGE_OTHER),
			         count(s->want, s->n, STAGE_DIT),
			         count(s->want, s->n, STAGE_VAE),
			         count(s->want, s->n, STAGE_TEXT_ENCODER),
			         count(s->want, s->n, STAGE_OTHER));
}

/* ---- stages_assign ----------------------------------------------------- */

static void stages_key_signatures_come_from_builtin_rules(void **state)
{
	struct tl *s = *state;

	assert_int_equal(s->key_sig[MM], SIG_DIT);
	assert_int_equal(s->key_sig[FA], SIG_DIT);
	assert_int_equal(s->key_sig[LN], SIG_DIT);
	assert_int_equal(s->key_sig[RMS], SIG_DIT);
	assert_int_equal(s->key_sig[BMM], SIG_DIT);
	assert_int_equal(s->key_sig[CONV], SIG_VAE);
	assert_int_equal(s->key_sig[GN], SIG_VAE);
	assert_int_equal(s->key_sig[RESIZE], SIG_VAE);
	assert_int_equal(s->key_sig[ADD], SIG_NONE);
	assert_int_equal(s->key_sig[SILU], SIG_NONE);
	assert_int_equal(s->key_sig[GELU], SIG_NONE);
	assert_int_equal(s->key_sig[SOFTMAX], SIG_NONE);
}

static void stages_dit_only(void **state)
{
	struct tl *s = *state;

	dit_loop(s, 4, 4);
	assert_int_equal(s->n, 4 * (4 + 4 * 11));
	run(s);
	assert_labels(s);
	assert_int_equal(count(s->out.stage, s->n, STAGE_DIT), 192);
	assert_int_equal(s->out.text_encoder_detected, 0);
	assert_int_equal(s->out.loop_found, 1);
}

static void stages_text_encoder_dit_loop_vae(void **state)
{
	struct tl *s = *state;

	text_encoder(s);
	dit_loop(s, 4, 4);
	vae_decode(s);
	run(s);
	assert_labels(s);
	assert_int_equal(count(s->out.stage, s->n, STAGE_TEXT_ENCODER), NTE);
	assert_int_equal(count(s->out.stage, s->n, STAGE_DIT), 192);
	/* 1 + 3*7 + 7 + 3*7 + 2 + 2*7 + 2 + 2*7 + 3, attention included */
	assert_int_equal(count(s->out.stage, s->n, STAGE_VAE), 85);
	assert_int_equal(s->out.text_encoder_detected, 1);
	assert_int_equal(s->out.loop_found, 1);
}

/* A text encoder without a final norm, whose layers end like the DiT's
 * blocks (MatMul, Gelu, MatMul, Add): its trailing Add may go to the DiT
 * (neutral kernels after the encoder's last signature kernel belong to the
 * denoising loop's set-up), but its last MatMuls are the encoder's.
 * Regression (was a weakness of stages.c loop_start: the prologue found by
 * matching the first iteration against the next runs on into the text encoder's
 * last layer, whose tail equals a DiT block's tail, so the encoder's last
 * MatMul, Gelu, MatMul are labelled dit). */
static void stages_text_encoder_keeps_its_last_layer(void **state)
{
	static const enum key block_add[] = {RMS, MM, MM,   FA, MM, ADD,
	                                     RMS, MM, GELU, MM, ADD};
	struct tl *s = *state;
	int i, b;

	for (i = 0; i < 4; i++)
		PUSH(s, te_layer, STAGE_TEXT_ENCODER);
	s->want[s->n - 1] = STAGE_DIT; /* the trailing Add */
	idle(s, 3000000);
	for (i = 0; i < 4; i++) {
		PUSH(s, dit_prologue, STAGE_DIT);
		for (b = 0; b < 4; b++)
			PUSH(s, block_add, STAGE_DIT);
		idle(s, 200000);
	}
	idle(s, 3000000);
	vae_decode(s);
	run(s);
	assert_int_equal(s->out.text_encoder_detected, 1);
	assert_labels(s);
	assert_int_equal(count(s->out.stage, s->n, STAGE_TEXT_ENCODER), 39);
}

static void stages_vae_encode_dit_vae_decode(void **state)
{
	struct tl *s = *state;

	vae_encode(s);
	dit_loop(s, 4, 4);
	vae_decode(s);
	run(s);
	assert_labels(s);
	assert_int_equal(count(s->out.stage, s->n, STAGE_DIT), 192);
	/* encoder 1 + 28 + 1 + 28 + 7 + 7 + 7 + 3 + 1 = 83, decoder 85 */
	assert_int_equal(count(s->out.stage, s->n, STAGE_VAE), 83 + 85);
	assert_int_equal(count(s->out.stage, s->n, STAGE_TEXT_ENCODER), 0);
	assert_int_equal(s->out.text_encoder_detected, 0);
	assert_int_equal(s->out.loop_found, 1);
}

/* Image- or video-to-video: the DiT's prologue (latent noise, the
 * concatenation with the encoded condition, the broadcast to the
 * sequence-parallel group) follows the VAE encode at once and the host's
 * idle gap comes before the loop. The prologue is the DiT's, not the VAE's,
 * although the largest gap puts it on the VAE's side. */
static void stages_prologue_after_vae_encode_is_dit(void **state)
{
	static const enum key prologue[] = {RANDN, CONCAT, CAST, BCAST, MUL};
	struct tl *s = *state;

	text_encoder(s);
	vae_encode_layers(s);
	idle(s, 20000);
	PUSH(s, prologue, STAGE_DIT);
	idle(s, 3000000);
	dit_loop(s, 4, 4);
	vae_decode(s);
	run(s);
	assert_labels(s);
	assert_int_equal(count(s->out.stage, s->n, STAGE_TEXT_ENCODER), NTE);
	assert_int_equal(count(s->out.stage, s->n, STAGE_DIT), 5 + 192);
	assert_int_equal(count(s->out.stage, s->n, STAGE_VAE), 83 + 85);
	assert_int_equal(s->out.text_encoder_detected, 1);
}

/* A text encoder before a VAE encode (image-to-video): its output's
 * masking, casts and padding after the final norm are its own, not a
 * short DiT segment; the DiT starts with the noise after the encode. */
static void stages_text_encoder_before_encode_keeps_its_tail(void **state)
{
	static const enum key tail[] = {MUL, CAST, CONCAT, CONCAT, CAST};
	static const enum key prologue[] = {RANDN, CAST, CONCAT, CAST, BCAST};
	struct tl *s = *state;
	int l;

	for (l = 0; l < 4; l++)
		PUSH(s, te_layer, STAGE_TEXT_ENCODER);
	push(s, LN, STAGE_TEXT_ENCODER);
	PUSH(s, tail, STAGE_TEXT_ENCODER);
	idle(s, 3000000);
	vae_encode_layers(s);
	idle(s, 20000);
	PUSH(s, prologue, STAGE_DIT);
	idle(s, 3000000);
	dit_loop(s, 4, 4);
	vae_decode(s);
	run(s);
	assert_labels(s);
	assert_int_equal(count(s->out.stage, s->n, STAGE_TEXT_ENCODER),
	                 NTE + ARRAY_LEN(tail));
	assert_int_equal(s->out.unet, 0);
}

/* A UNet: every iteration runs Conv/GroupNorm ResBlocks, down and up
 * sampling and attention blocks. The repeated iterations are the
 * denoiser (stage dit), named a UNet; the VAE is the decode after the
 * loop. */
static void stages_unet_loop_is_the_denoiser(void **state)
{
	static const enum key unet_attn[] = {GN, MM,  LN, MM, MM,   MM, FA,
	                                     MM, ADD, LN, MM, GELU, MM, ADD};
	struct tl *s = *state;
	size_t loop;
	int i, r;

	text_encoder(s);
	push(s, RANDN, STAGE_DIT);
	idle(s, 3000000);
	loop = s->n;
	for (i = 0; i < 4; i++) {
		PUSH(s, dit_prologue, STAGE_DIT);
		push(s, CONV, STAGE_DIT); /* conv_in */
		for (r = 0; r < 2; r++)
			PUSH(s, vae_res, STAGE_DIT);
		push(s, CONV, STAGE_DIT); /* downsample */
		for (r = 0; r < 2; r++) {
			PUSH(s, vae_res, STAGE_DIT);
			PUSH(s, unet_attn, STAGE_DIT);
		}
		PUSH(s, vae_up, STAGE_DIT);
		for (r = 0; r < 3; r++)
			PUSH(s, vae_res, STAGE_DIT);
		PUSH(s, vae_out, STAGE_DIT);
		idle(s, 200000);
	}
	loop = s->n - loop;
	idle(s, 3000000);
	vae_decode(s);
	run(s);
	assert_labels(s);
	assert_int_equal(count(s->out.stage, s->n, STAGE_DIT), loop + 1);
	assert_int_equal(count(s->out.stage, s->n, STAGE_VAE), 85);
	assert_int_equal(s->out.unet, 1);
	assert_int_equal(s->out.text_encoder_detected, 1);
}

/* Matching the loop takes 44 bytes per compute kernel, charged to the
 * memory budget: refused, the analysis fails with an input error that
 * names the work, and gives back what it took. */
static void stages_loop_matching_is_charged(void **state)
{
	struct tl *s = *state;
	struct err e = ERR_INIT;

	text_encoder(s);
	dit_loop(s, 4, 4);
	vae_decode(s);
	membudget_set(2 << 10);
	assert_int_equal(stages_assign(s->k, s->n, s->key_sig, s->key_cat,
	                               &s->ru, &s->out, &e),
	                 -1);
	assert_int_equal(e.code, ERR_INPUT);
	/* 41 text encoder + 4 x (4 + 4 x 11) loop + 85 VAE kernels */
	if (!strstr(e.msg, "denoising loop: 318 compute kernels to match"))
		fail_msg("%s", e.msg);
	assert_int_equal(membudget_used(), 0);
	membudget_set(MEMBUDGET_UNLIMITED);
}

/* The timeline of s as a kernel table, through the CSV reader. */
static void tl_table(const struct tl *s, struct kernel_table *kt)
{
	struct strbuf csv = STRBUF_INIT;
	struct kernels_info info = {0};
	struct err e = ERR_INIT;
	size_t i;

	strbuf_adds(&csv, "Name,Type,Start Time(us),Duration(us)\n");
	for (i = 0; i < s->n; i++)
		strbuf_addf(&csv, "k%zu,%s,%lld.%03lld,%lld.%03lld\n", i,
		            key_type[s->k[i].key],
		            (long long)(s->k[i].start_ns / 1000),
		            (long long)(s->k[i].start_ns % 1000),
		            (long long)(s->k[i].dur_ns / 1000),
		            (long long)(s->k[i].dur_ns % 1000));
	kernel_table_init(kt);
	if (kernels_read_mem("p.csv", csv.buf, csv.len, NULL, kt, &info, &e))
		fail_msg("%s", e.msg);
	kernels_info_release(&info);
	strbuf_release(&csv);
}

/* User markers stay in charge: a `vae` range that ends with the encode
 * leaves the prologue to the signatures, which give it to the DiT; one
 * that runs on over the prologue keeps it VAE. */
static void stages_prologue_and_markers(void **state)
{
	static const enum key prologue[] = {RANDN, CONCAT, CAST, BCAST, MUL};
	struct tl *s = *state;
	size_t enc, pro, i, cover;

	text_encoder(s);
	enc = s->n;
	vae_encode_layers(s);
	pro = s->n;
	idle(s, 20000);
	PUSH(s, prologue, STAGE_DIT);
	idle(s, 3000000);
	dit_loop(s, 2, 4);
	for (cover = 0; cover < 2; cover++) {
		struct stage_override ov = {0};
		struct kernel_table kt;
		struct err e = ERR_INIT;
		struct result r;
		unsigned char *stage = NULL;
		size_t last = cover ? pro + ARRAY_LEN(prologue) - 1 : pro - 1;

		tl_table(s, &kt);
		assert_int_equal(kt.n, s->n);
		ov.start_ns = s->k[enc].start_ns;
		ov.end_ns = s->k[last].start_ns;
		ov.stage = STAGE_VAE;
		result_init(&r);
		assert_int_equal(
		    analyse_with(&kt, &s->ru, &ov, 1, &r, &stage, &e), 0);
		assert_int_equal(ov.kernels, last + 1 - enc);
		for (i = pro; i < pro + ARRAY_LEN(prologue); i++)
			assert_int_equal(stage[i],
			                 cover ? STAGE_VAE : STAGE_DIT);
		assert_int_equal(stage[pro - 1], STAGE_VAE);
		assert_int_equal(stage[pro + ARRAY_LEN(prologue)], STAGE_DIT);
		free(stage);
		result_release(&r);
		kernel_table_release(&kt);
	}
}

/* The rule is for an encode only: the kernels after a decode (image
 * post-processing) stay VAE even when the next call's loop follows in the
 * same profiler step (a DiT kernel precedes the decode there); and a
 * pipeline without an encode is labelled as before. */
static void stages_no_prologue_after_a_decode(void **state)
{
	static const enum key post[] = {MUL, ADD, CAST, TRANSPOSE};
	struct tl *s = *state;

	text_encoder(s);
	dit_loop(s, 4, 4);
	vae_decode(s);
	s->t -= 3000000; /* post-processing follows the decode at once */
	PUSH(s, post, STAGE_VAE);
	idle(s, 3000000);
	dit_loop(s, 4, 4);
	vae_decode(s);
	run(s);
	assert_labels(s);
	assert_int_equal(count(s->out.stage, s->n, STAGE_TEXT_ENCODER), NTE);
	assert_int_equal(count(s->out.stage, s->n, STAGE_DIT), 2 * 192);
	assert_int_equal(count(s->out.stage, s->n, STAGE_VAE), 2 * 85 + 4);
}

static void stages_two_pipeline_calls(void **state)
{
	struct tl *s = *state;
	size_t first_call;

	text_encoder(s);
	dit_loop(s, 4, 4);
	vae_decode(s);
	first_call = s->n;
	idle(s, 500000000);
	text_encoder(s);
	dit_loop(s, 4, 4);
	vae_decode(s);
	run(s);
	assert_labels(s);
	assert_int_equal(first_call, NTE + 192 + 85);
	assert_int_equal(count(s->out.stage, first_call, STAGE_TEXT_ENCODER),
	                 NTE);
	assert_int_equal(count(s->out.stage + first_call, s->n - first_call,
	                       STAGE_TEXT_ENCODER),
	                 NTE);
	assert_int_equal(count(s->out.stage, s->n, STAGE_DIT), 2 * 192);
	assert_int_equal(count(s->out.stage, s->n, STAGE_VAE), 2 * 85);
	assert_int_equal(s->out.text_encoder_detected, 1);
}

static void stages_dit_patch_embed_conv_stays_dit(void **state)
{
	static const enum key prologue_conv[] = {CONV, TRANSPOSE, CAST,
	                                         MUL,  MM,        ADD};
	struct tl *s = *state;
	int i, b;

	for (i = 0; i < 4; i++) {
		PUSH(s, prologue_conv, STAGE_DIT);
		for (b = 0; b < 4; b++)
			PUSH(s, dit_block, STAGE_DIT);
		idle(s, 200000);
	}
	run(s);
	assert_labels(s);
	assert_int_equal(count(s->out.stage, s->n, STAGE_DIT), 4 * (6 + 44));
	assert_int_equal(count(s->out.stage, s->n, STAGE_VAE), 0);
	assert_int_equal(s->out.text_encoder_detected, 0);
}

static void stages_without_signature_kernels_are_other(void **state)
{
	static const enum key plain[] = {ADD,  MUL,     CAST,     SILU,
	                                 GELU, SOFTMAX, TRANSPOSE};
	struct tl *s = *state;
	int i;

	for (i = 0; i < 20; i++)
		PUSH(s, plain, STAGE_OTHER);
	run(s);
	assert_labels(s);
	assert_int_equal(count(s->out.stage, s->n, STAGE_OTHER), 140);
	assert_int_equal(s->out.text_encoder_detected, 0);
	assert_int_equal(s->out.loop_found, 0);
}

static void stages_with_no_kernels(void **state)
{
	struct tl *s = *state;

	run(s);
	assert_int_equal(s->out.text_encoder_detected, 0);
	assert_int_equal(s->out.loop_found, 0);
}

/* ---- stages_segments --------------------------------------------------- */

static struct kernel kern(int64_t start, int64_t dur, int32_t step)
{
	struct kernel k;

	k.start_ns = start;
	k.dur_ns = dur;
	k.key = 0;
	k.step = step;
	return k;
}

static void stages_segments_split_on_stage_and_step(void **state)
{
	const struct kernel k[] = {
	    kern(0, 100, 1),         kern(10, 40, 1),  /* dit, step 1 */
	    kern(200, 10, 1),        kern(220, 10, 1), /* vae, step 1 */
	    kern(300, 5, 2),                           /* vae, step 2 */
	    kern(400, 50, 2),        kern(460, 20, 2), /* dit, step 2 */
	    kern(500, 1, STEP_NONE),                   /* dit, no step */
	    kern(600, 3, STEP_NONE),                   /* other */
	};
	static const unsigned char stage[] = {
	    STAGE_DIT, STAGE_DIT, STAGE_VAE, STAGE_VAE,   STAGE_VAE,
	    STAGE_DIT, STAGE_DIT, STAGE_DIT, STAGE_OTHER,
	};
	static const struct {
		enum stage stage;
		int32_t step;
		int64_t start, end;
		uint64_t kernels;
		int64_t kernel_ns;
	} want[] = {
	    {STAGE_DIT, 1, 0, 100, 2, 140},
	    {STAGE_VAE, 1, 200, 230, 2, 20},
	    {STAGE_VAE, 2, 300, 305, 1, 5},
	    {STAGE_DIT, 2, 400, 480, 2, 70},
	    {STAGE_DIT, STEP_NONE, 500, 501, 1, 1},
	    {STAGE_OTHER, STEP_NONE, 600, 603, 1, 3},
	};
	struct segment *seg = NULL;
	size_t n, i;
	uint64_t charged;

	(void)state;
	assert_int_equal(
	    stages_segments(k, ARRAY_LEN(k), stage, &seg, &n, &charged), 0);
	assert_int_equal(n, ARRAY_LEN(want));
	assert_int_equal(charged, n * sizeof(*seg));
	for (i = 0; i < n; i++) {
		assert_int_equal(seg[i].stage, want[i].stage);
		assert_int_equal(seg[i].step, want[i].step);
		assert_int_equal(seg[i].start_ns, want[i].start);
		/* the end is the latest end, not the last kernel's */
		assert_int_equal(seg[i].end_ns, want[i].end);
		assert_int_equal(seg[i].kernels, want[i].kernels);
		assert_int_equal(seg[i].kernel_ns, want[i].kernel_ns);
	}
	free(seg);
}

static void stages_segments_of_nothing(void **state)
{
	struct segment *seg = NULL;
	size_t n = 1;
	uint64_t charged = 1;

	(void)state;
	assert_int_equal(stages_segments(NULL, 0, NULL, &seg, &n, &charged), 0);
	assert_int_equal(n, 0);
	assert_int_equal(charged, 0);
	free(seg);
}

/* ---- analyse: the sort and the overrides ------------------------------- */

static uint64_t rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* A kernel table from CSV rows "K<key>,<start us>,<dur us>,<step>". */
static void random_table(struct kernel_table *kt, size_t n, uint64_t seed,
                         int64_t span_us)
{
	struct strbuf csv = STRBUF_INIT;
	struct kernels_info info = {0};
	struct err e = ERR_INIT;
	size_t i;

	strbuf_adds(&csv, "Name,Start Time(us),Duration(us),Step Id\n");
	for (i = 0; i < n; i++)
		strbuf_addf(&csv, "MatMulV%d,%lld,%d,%zu\n",
		            (int)(rnd(&seed) % 3),
		            (long long)(rnd(&seed) % (uint64_t)span_us),
		            (int)(rnd(&seed) % 5), i);
	kernel_table_init(kt);
	if (kernels_read_mem("r.csv", csv.buf, csv.len, NULL, kt, &info, &e))
		fail_msg("%s", e.msg);
	kernels_info_release(&info);
	strbuf_release(&csv);
}

/* The sort keeps the file order of equal starts (the Step Id column
 * holds the row number) whatever the table size: through the buffered
 * merge, the rotations past it, and the insertion runs. */
static void analyse_sort_is_stable(void **state)
{
	static const size_t sizes[] = {1, 31, 33, 1000, 20000, 70000};
	struct rules ru = {0};
	struct err e = ERR_INIT;
	size_t z, i;

	(void)state;
	assert_int_equal(rules_load_builtin(&ru, &e), 0);
	for (z = 0; z < ARRAY_LEN(sizes); z++) {
		struct kernel_table kt;
		struct result r;
		/* few distinct starts: long runs of ties */
		random_table(&kt, sizes[z], 7 + z, 50);
		result_init(&r);
		assert_int_equal(analyse(&kt, &ru, &r, NULL, &e), 0);
		assert_int_equal(kt.n, sizes[z]);
		for (i = 1; i < kt.n; i++) {
			assert_true(kt.v[i - 1].start_ns <= kt.v[i].start_ns);
			if (kt.v[i - 1].start_ns == kt.v[i].start_ns)
				assert_true(kt.v[i - 1].step < kt.v[i].step);
		}
		result_release(&r);
		kernel_table_release(&kt);
	}
	rules_release(&ru);
}

/* Overrides: each kernel gets the stage of the last override holding its
 * start, each override counts the kernels in its range; the heap sweep
 * agrees with the plain definition on nested, overlapping, empty and
 * unsorted ranges. */
static void analyse_overrides_last_one_wins(void **state)
{
	enum { NK = 3000, NOV = 300 };
	struct rules ru = {0};
	struct err e = ERR_INIT;
	struct stage_override ov[NOV];
	struct kernel_table kt;
	struct result r;
	unsigned char *stage = NULL;
	uint64_t seed = 99;
	size_t i, j;

	(void)state;
	assert_int_equal(rules_load_builtin(&ru, &e), 0);
	random_table(&kt, NK, 3, 100000);
	for (i = 0; i < NOV; i++) {
		int64_t a = (int64_t)(rnd(&seed) % 100000) * 1000;
		int64_t len = (int64_t)(rnd(&seed) % (i % 10 ? 2000 : 90000));
		ov[i].start_ns = a;
		ov[i].end_ns = i % 37 ? a + len * 1000 : a - 1; /* some empty */
		ov[i].stage = (enum stage)(rnd(&seed) % STAGE_COUNT);
	}
	result_init(&r);
	assert_int_equal(analyse_with(&kt, &ru, ov, NOV, &r, &stage, &e), 0);
	for (i = 0; i < NOV; i++) {
		uint64_t in = 0;
		for (j = 0; j < kt.n; j++)
			in += kt.v[j].start_ns >= ov[i].start_ns &&
			      kt.v[j].start_ns <= ov[i].end_ns;
		assert_int_equal(ov[i].kernels, in);
	}
	for (j = 0; j < kt.n; j++)
		for (i = NOV; i-- > 0;)
			if (kt.v[j].start_ns >= ov[i].start_ns &&
			    kt.v[j].start_ns <= ov[i].end_ns) {
				assert_int_equal(stage[j], ov[i].stage);
				break;
			}
	free(stage);
	result_release(&r);
	kernel_table_release(&kt);
	rules_release(&ru);
}

/* 20,000 runs of signature kernels alternating DiT (8 kernels) and VAE
 * (9: the vote, over 2 each side, keeps them whole): a user's min_segment
 * of 10^6 over them is merged by the queue, not by 10^6 passes over every
 * run: each DiT run has longer neighbours, flips, and all is one VAE run.
 * The queue's lists are charged to the memory budget: refused, the
 * analysis fails with an input error instead of growing. */
static void stages_short_runs_queue_is_charged(void **state)
{
	enum { RUNS = 20000 };
	struct tl *s = *state;
	struct kernel *k = xcalloc((size_t)RUNS * 9, sizeof(*k));
	struct rules ru = s->ru;
	struct stages_out out;
	struct err e = ERR_INIT;
	size_t i, j, n = 0;

	for (i = 0; i < RUNS; i++)
		for (j = 0; j < (i % 2 ? 9u : 8u); j++, n++) {
			k[n].start_ns = (int64_t)n * 1000;
			k[n].dur_ns = 500;
			k[n].key = i % 2 ? CONV : FA;
			k[n].step = STEP_NONE;
		}
	ru.window = 2;
	ru.min_segment = 1000000;
	assert_int_equal(
	    stages_assign(k, n, s->key_sig, s->key_cat, &ru, &out, &e), 0);
	for (i = 0; i < n; i++)
		assert_int_equal(out.stage[i], STAGE_VAE);
	free(out.stage);
	/* the queue (about 17 bytes a run) over a 64 KiB budget */
	membudget_set(64 << 10);
	assert_int_equal(
	    stages_assign(k, n, s->key_sig, s->key_cat, &ru, &out, &e), -1);
	assert_int_equal(e.code, ERR_INPUT);
	if (!strstr(e.msg, "stage runs: 20000 runs of signature kernels") ||
	    !strstr(e.msg, "--max-memory"))
		fail_msg("%s", e.msg);
	assert_int_equal(membudget_used(), 0);
	membudget_set(MEMBUDGET_UNLIMITED);
	free(out.stage);
	free(k);
}

/* Nested markers, as the readers leave them (trace_markerset: host start,
 * outer first) and rank.c turns them into overrides (in that order): the
 * innermost marker holding a kernel gives its stage, a kernel after an
 * inner marker's end goes back to the outer one, and two markers starting
 * together nest by their ends. */
static void analyse_nested_markers_innermost_wins(void **state)
{
	static const struct {
		int64_t a, b;
		enum stage st;
	} m[] = {
	    {0, 100, STAGE_VAE},          /* outer */
	    {50, 90, STAGE_DIT},          /* starts with the next, longer */
	    {10, 20, STAGE_DIT},          /* inner */
	    {12, 14, STAGE_TEXT_ENCODER}, /* innermost */
	    {50, 60, STAGE_TEXT_ENCODER}, /* inner of the pair */
	};
	/* kernel starts (us) and the stage each must get */
	static const struct {
		int64_t t;
		enum stage st;
	} want[] = {{5, STAGE_VAE},  {11, STAGE_DIT}, {13, STAGE_TEXT_ENCODER},
	            {16, STAGE_DIT}, {30, STAGE_VAE}, {55, STAGE_TEXT_ENCODER},
	            {70, STAGE_DIT}, {95, STAGE_VAE}};
	struct tl *s = *state;
	struct trace_markerset ms;
	struct trace_summary ts;
	struct stage_override ov[ARRAY_LEN(m)];
	struct kernel_table kt;
	struct result r;
	struct err e = ERR_INIT;
	unsigned char *stage = NULL;
	size_t i;
	uint64_t cost;

	kernel_table_init(&kt);
	for (i = 0; i < ARRAY_LEN(want); i++) {
		assert_int_equal(kernel_table_reserve(&kt, &cost), 0);
		kt.v[kt.n].start_ns = want[i].t * 1000;
		kt.v[kt.n].dur_ns = 100;
		kt.v[kt.n].key = strtab_intern(&kt.keys, "Add\0", 4);
		kt.v[kt.n++].step = STEP_NONE;
	}
	trace_markerset_init(&ms);
	memset(&ts, 0, sizeof(ts));
	for (i = 0; i < ARRAY_LEN(m); i++)
		assert_int_equal(trace_markerset_add(&ms, "m", m[i].st,
		                                     m[i].a * 1000,
		                                     m[i].b * 1000),
		                 0);
	trace_markerset_finish(&ms, &ts);
	for (i = 0; i < ts.nmarkers; i++) {
		ov[i].start_ns = ts.markers[i].dev_start_ns;
		ov[i].end_ns = ts.markers[i].dev_end_ns;
		ov[i].stage = ts.markers[i].stage;
	}
	result_init(&r);
	assert_int_equal(
	    analyse_with(&kt, &s->ru, ov, ts.nmarkers, &r, &stage, &e), 0);
	for (i = 0; i < ARRAY_LEN(want); i++)
		if (stage[i] != want[i].st)
			fail_msg("kernel at %lld us: stage %d, want %d",
			         (long long)want[i].t, stage[i], want[i].st);
	free(stage);
	result_release(&r);
	trace_summary_release(&ts);
	trace_markerset_release(&ms);
	kernel_table_release(&kt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(stages_key_signatures_come_from_builtin_rules),
	    T(analyse_sort_is_stable),
	    T(analyse_overrides_last_one_wins),
	    T(analyse_nested_markers_innermost_wins),
	    T(stages_short_runs_queue_is_charged),
	    T(stages_dit_only),
	    T(stages_text_encoder_dit_loop_vae),
	    T(stages_text_encoder_keeps_its_last_layer),
	    T(stages_vae_encode_dit_vae_decode),
	    T(stages_prologue_after_vae_encode_is_dit),
	    T(stages_no_prologue_after_a_decode),
	    T(stages_text_encoder_before_encode_keeps_its_tail),
	    T(stages_unet_loop_is_the_denoiser),
	    T(stages_loop_matching_is_charged),
	    T(stages_prologue_and_markers),
	    T(stages_two_pipeline_calls),
	    T(stages_dit_patch_embed_conv_stays_dit),
	    T(stages_without_signature_kernels_are_other),
	    T(stages_with_no_kernels),
	    cmocka_unit_test(stages_segments_split_on_stage_and_step),
	    cmocka_unit_test(stages_segments_of_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
