/* stages.c: the diffusion pipeline, stage by stage: text encoder (T5/CLIP),
 * VAE encode/decode (SD-style resnets, one attention block) and the
 * denoising loop: the DiT (timestep + patch embedding, transformer blocks,
 * scheduler) or an SDXL-like UNet (ResBlocks, attention blocks, samplers).
 */
#include "builder.h"

#include <stdlib.h>

#include "xalloc.h"
#include "banned.h"

static uint16_t bmm(struct builder *b, enum stage st, long batch, long mm,
                    long k, long n)
{
	struct spec s = {OP_BMM, st, NULL, NULL, NULL, 0, 0, 0};

	s.in = xfmt("%ld,%ld,%ld;%ld,%ld,%ld", batch, mm, k, batch, k, n);
	s.out = xfmt("%ld,%ld,%ld", batch, mm, n);
	s.gflop =
	    2.0 * (double)batch * (double)mm * (double)k * (double)n / 1e9;
	s.mbytes =
	    2.0 * (double)batch * (double)(mm * k + k * n + mm * n) / 1e6;
	return mb_add(b, &s);
}

/* Text-encoder geometry and flavour. */
struct te_geom {
	long seq, dim, heads, ffn;
	int layers;
	enum opid norm, act;
};

/* What an image-to-video pipeline does with the encoder's output after
 * its final norm (--dit-prologue): the padding mask applied, the cast to
 * bf16, then each prompt (positive, negative) cut to its length and padded
 * back with zeros: 9 element-wise kernels of the text encoder that no
 * norm or matmul follows. */
static void push_te_tail(struct builder *b, const struct te_geom *g)
{
	const enum stage st = ST_TE;
	uint16_t slice = mb_vec(b, OP_SLICE, st, g->seq / 4, g->dim, 1);
	uint16_t zeros = mb_vec(b, OP_ZEROS, st, g->seq, g->dim, 1);
	uint16_t pad = mb_vec(b, OP_CONCAT, st, g->seq, g->dim, 2);
	int p;

	mb_push(b, mb_vec(b, OP_MUL, st, g->seq, g->dim, 2));
	mb_push(b, mb_vec(b, OP_CAST, st, g->seq, g->dim, 1));
	for (p = 0; p < 2; p++) {
		mb_push(b, slice);
		mb_push(b, zeros);
		mb_push(b, pad);
	}
	mb_push(b, mb_vec(b, OP_CAST, st, g->seq, g->dim, 1));
}

/* One encoder layer: pre-norm self-attention with explicit BMM/softmax
 * (no fused attention: that is what sets it apart from the DiT block). */
static void build_te_layers(struct builder *b, const struct te_geom *g)
{
	const enum stage st = ST_TE;
	long hd = g->dim / g->heads;
	uint16_t norm = mb_vec(b, g->norm, st, g->seq, g->dim, 2);
	uint16_t proj = mb_linear(b, OP_MATMULV3, st, g->seq, g->dim, g->dim);
	uint16_t score = bmm(b, st, g->heads, g->seq, hd, g->seq);
	uint16_t soft = mb_vec(b, OP_SOFTMAX, st, g->heads * g->seq, g->seq, 1);
	uint16_t ctx = bmm(b, st, g->heads, g->seq, g->seq, hd);
	uint16_t add = mb_vec(b, OP_ADD, st, g->seq, g->dim, 2);
	uint16_t up = mb_linear(b, OP_MATMULV3, st, g->seq, g->dim, g->ffn);
	uint16_t act = mb_vec(b, g->act, st, g->seq, g->ffn, 1);
	uint16_t down = mb_linear(b, OP_MATMULV3, st, g->seq, g->ffn, g->dim);
	const uint16_t layer[] = {norm, proj, proj, proj, score, soft, ctx,
	                          proj, add,  norm, up,   act,   down, add};
	int l;
	size_t i;

	/* The attention mask's lengths come from an AI_CPU NonZero. */
	mb_push(b, mb_aicpu(b, OP_NONZERO, st, 0.004));
	for (l = 0; l < g->layers; l++)
		for (i = 0; i < sizeof(layer) / sizeof(layer[0]); i++)
			mb_push(b, layer[i]);
	mb_push(b, norm);
	if (b->o->prologue)
		push_te_tail(b, g);
}

void build_t5(struct builder *b)
{
	const struct te_geom g = {512, 4096,       64,     10240,
	                          24,  OP_RMSNORM, OP_RELU};

	build_te_layers(b, &g);
}

void build_clip(struct builder *b)
{
	const struct te_geom g = {77, 768,          12,         3072,
	                          12, OP_LAYERNORM, OP_FASTGELU};

	build_te_layers(b, &g);
}

/* SDXL's second text encoder, OpenCLIP ViT-bigG: 32 layers, d 1280. */
void build_clip_g(struct builder *b)
{
	const struct te_geom g = {77, 1280,         20,     5120,
	                          32, OP_LAYERNORM, OP_GELU};

	build_te_layers(b, &g);
}

/* Pixel / latent volumes of the VAE. Image: 1024x1024 <-> 128x128 latent;
 * video: 21 latent frames of 480x832 <-> 60x104. */
static struct vol latent_vol(const struct opts *o)
{
	struct vol v = {1, 128, 128};

	if (o->video) {
		v.d = 21;
		v.h = 60;
		v.w = 104;
	}
	return v;
}

static struct vol scaled(struct vol v, long f)
{
	v.h *= f;
	v.w *= f;
	return v;
}

static void resnet(struct builder *b, enum stage st, long cin, long cout,
                   struct vol v, int fused)
{
	if (fused) {
		mb_push(b, mb_act(b, OP_GNSILU, st, cin, v, 1));
	} else {
		mb_push(b, mb_act(b, OP_GROUPNORM, st, cin, v, 1));
		mb_push(b, mb_act(b, OP_SILU, st, cin, v, 1));
	}
	mb_push(b, mb_conv(b, st, cin, cout, v, 3, 1));
	if (fused) {
		mb_push(b, mb_act(b, OP_GNSILU, st, cout, v, 1));
	} else {
		mb_push(b, mb_act(b, OP_GROUPNORM, st, cout, v, 1));
		mb_push(b, mb_act(b, OP_SILU, st, cout, v, 1));
	}
	mb_push(b, mb_conv(b, st, cout, cout, v, 3, 1));
	if (cin != cout)
		mb_push(b,
		        mb_conv(b, st, cin, cout, v, 1, 1)); /* conv_shortcut */
	mb_push(b, mb_act(b, OP_ADD, st, cout, v, 2));
}

/* The VAE's single-head attention; video attends within each frame. */
static void vae_attention(struct builder *b, enum stage st, long c,
                          struct vol v)
{
	long tokens = v.h * v.w;
	uint16_t qkv = mb_linear(b, OP_MATMULV3, st, v.d * tokens, c, c);

	mb_push(b, mb_act(b, OP_GROUPNORM, st, c, v, 1));
	mb_push(b, qkv);
	mb_push(b, qkv);
	mb_push(b, qkv);
	mb_push(b, mb_attention(b, OP_FA, st, v.d, tokens, tokens, c));
	mb_push(b, mb_linear(b, OP_MATMULV3, st, v.d * tokens, c, c));
	mb_push(b, mb_act(b, OP_ADD, st, c, v, 2));
}

static void vae_mid(struct builder *b, enum stage st, long c, struct vol v)
{
	resnet(b, st, c, c, v, 0);
	vae_attention(b, st, c, v);
	resnet(b, st, c, c, v, 0);
}

void build_vae_encode(struct builder *b)
{
	const enum stage st = ST_VAE;
	static const long ch[4] = {128, 256, 512, 512};
	struct vol v = scaled(latent_vol(b->o), 8);
	long cin = 128;
	int i;

	mb_push(b, mb_conv(b, st, 3, 128, v, 3, 1));
	for (i = 0; i < 4; i++) {
		resnet(b, st, cin, ch[i], v, 0);
		resnet(b, st, ch[i], ch[i], v, 0);
		cin = ch[i];
		if (i < 3) { /* downsample: strided conv */
			mb_push(b, mb_conv(b, st, cin, cin, v, 3, 2));
			v.h /= 2;
			v.w /= 2;
		}
	}
	vae_mid(b, st, 512, v);
	mb_push(b, mb_act(b, OP_GROUPNORM, st, 512, v, 1));
	mb_push(b, mb_act(b, OP_SILU, st, 512, v, 1));
	mb_push(b, mb_conv(b, st, 512, 32, v, 3, 1));
	mb_push(b, mb_conv(b, st, 32, 32, v, 1, 1)); /* quant_conv */
}

void build_vae_decode(struct builder *b)
{
	const enum stage st = ST_VAE;
	static const long ch[4] = {512, 512, 256, 128};
	struct vol v = latent_vol(b->o);
	long cin = 512;
	int i, r;

	mb_push(b, mb_conv(b, st, 16, 16, v, 1, 1));  /* post_quant_conv */
	mb_push(b, mb_conv(b, st, 16, 512, v, 3, 1)); /* conv_in */
	vae_mid(b, st, 512, v);
	for (i = 0; i < 4; i++) {
		for (r = 0; r < 3; r++) {
			resnet(b, st, cin, ch[i], v, i >= 2);
			cin = ch[i];
		}
		if (i < 3) { /* upsample; the last up block has none */
			mb_push(b, mb_act(b, OP_RESIZE, st, cin, v, 1));
			v = scaled(v, 2);
			mb_push(b, mb_conv(b, st, cin, cin, v, 3, 1));
		}
	}
	mb_push(b, mb_act(b, OP_GROUPNORM, st, 128, v, 1));
	mb_push(b, mb_act(b, OP_SILU, st, 128, v, 1));
	mb_push(b, mb_conv(b, st, 128, 3, v, 3, 1)); /* conv_out */
}

/* DiT geometry: tokens per card, attention extents, comm payloads. */
struct dit_geom {
	long L, T, H, heads, F;
	long hq, lq, lkv;
	int n;
};

static struct dit_geom dit_geom(const struct builder *b)
{
	struct dit_geom g;
	const struct opts *o = b->o;

	g.L = o->video ? 21L * 30 * 52 : 4096;
	g.H = 3072;
	g.heads = 24;
	g.F = 4 * g.H;
	g.n = b->m->sp ? o->ranks : 1;
	g.T = g.L / g.n;
	g.hq = g.heads;
	g.lq = g.lkv = g.T;
	if (b->m->sp && o->comm == COMM_ALLTOALL) { /* Ulysses: split heads */
		g.hq = g.heads / g.n > 0 ? g.heads / g.n : 1;
		g.lq = g.lkv = g.T * g.n;
	} else if (b->m->sp) { /* gather K/V: local queries, global keys */
		g.lkv = g.T * g.n;
	}
	return g;
}

/* Patch embedding: ONE Conv2D/Conv3D per iteration inside the DiT. */
static uint16_t patch_embed(struct builder *b, const struct dit_geom *g)
{
	int video = b->o->video;
	/* newer CANN runs the i2v DiT's patch embedding as Conv3DV2 */
	struct spec s = {video ? (b->o->prologue ? OP_CONV3DV2 : OP_CONV3D)
	                       : OP_CONV2D,
	                 ST_DIT,
	                 NULL,
	                 NULL,
	                 NULL,
	                 0,
	                 0,
	                 video ? 5 : 4};

	if (video) {
		s.in = xfmt("1,16,21,60,104;%ld,16,1,2,2;%ld", g->H, g->H);
		s.out = xfmt("1,%ld,21,30,52", g->H);
	} else {
		s.in = xfmt("1,16,128,128;%ld,16,2,2;%ld", g->H, g->H);
		s.out = xfmt("1,%ld,64,64", g->H);
	}
	s.gflop = 2.0 * (double)g->L * 64.0 * (double)g->H / 1e9;
	s.mbytes = 2.0 * (double)g->L * (double)(64 + g->H) / 1e6;
	return mb_add(b, &s);
}

/* Linear layer of a DiT block: bf16 MatMulV3, or DynamicQuant + int8. */
static void dit_linear(struct builder *b, const uint16_t *ids)
{
	if (b->o->quant)
		mb_push(b, ids[1]);
	mb_push(b, ids[0]);
}

static void make_linear(struct builder *b, uint16_t ids[2], long rows, long k,
                        long n)
{
	enum opid op = b->o->quant ? OP_QBMM : OP_MATMULV3;

	ids[0] = mb_linear(b, op, ST_DIT, rows, k, n);
	ids[1] = b->o->quant ? mb_vec(b, OP_DYNQUANT, ST_DIT, rows, k, 1) : 0;
}

struct dit_ids {
	uint16_t ln, mul, add, rms, rope, gelu, attn, sbe, a2a_in, a2a_out, ag;
	uint16_t qkv[2], out[2], ff1[2], ff2[2];
};

static void make_block(struct builder *b, const struct dit_geom *g,
                       struct dit_ids *d)
{
	static const enum opid attn_op[] = {OP_FA, OP_FIA, OP_LASER, OP_SPARSE};
	const enum stage st = ST_DIT;
	long hd = g->H / g->heads;

	d->ln = mb_vec(b, OP_LAYERNORM, st, g->T, g->H, 3);
	d->mul = mb_vec(b, OP_MUL, st, g->T, g->H, 2);
	d->add = mb_vec(b, OP_ADD, st, g->T, g->H, 2);
	d->rms = mb_vec(b, OP_RMSNORM, st, g->T * g->heads, hd, 2);
	d->rope = mb_vec(b, OP_ROPE, st, g->T * g->heads, hd, 3);
	d->gelu = mb_vec(b, OP_GELU, st, g->T, g->F, 1);
	make_linear(b, d->qkv, g->T, g->H, 3 * g->H);
	make_linear(b, d->out, g->T, g->H, g->H);
	make_linear(b, d->ff1, g->T, g->H, g->F);
	make_linear(b, d->ff2, g->T, g->F, g->H);
	d->attn =
	    mb_attention(b, attn_op[b->o->attn], st, g->hq, g->lq, g->lkv, hd);
	d->sbe = b->o->attn == ATTN_SPARSE
	             ? mb_attention(b, OP_SBE, st, g->hq, g->lq, g->lkv, hd)
	             : 0;
	d->a2a_in =
	    mb_comm(b, OP_ALLTOALL, st, 3.0 * (double)(g->T * g->H) * 2.0);
	d->a2a_out = mb_comm(b, OP_ALLTOALL, st, (double)(g->T * g->H) * 2.0);
	d->ag =
	    mb_comm(b, OP_ALLGATHER, st, 2.0 * (double)(g->lkv * g->H) * 2.0);
}

/* A block's FFN half: norm, modulation (Mul, Add), the two linears with
 * GELU between them, and the gated residual (Mul, Add). */
static void push_ffn(struct builder *b, const struct dit_ids *d)
{
	mb_push(b, d->ln);
	mb_push(b, d->mul);
	mb_push(b, d->add);
	dit_linear(b, d->ff1);
	mb_push(b, d->gelu);
	dit_linear(b, d->ff2);
	mb_push(b, d->mul);
	mb_push(b, d->add);
}

static void push_block(struct builder *b, const struct dit_ids *d)
{
	enum comm_kind comm = b->m->sp ? b->o->comm : COMM_NONE;

	mb_push(b, d->ln);
	mb_push(b, d->mul);
	mb_push(b, d->add);
	dit_linear(b, d->qkv);
	mb_push(b, d->rms);
	mb_push(b, d->rms);
	mb_push(b, d->rope);
	mb_push(b, d->rope);
	if (comm == COMM_ALLTOALL)
		mb_push(b, d->a2a_in);
	if (comm == COMM_ALLGATHER)
		mb_push(b, d->ag);
	if (b->o->attn == ATTN_SPARSE)
		mb_push(b, d->sbe);
	mb_push(b, d->attn);
	if (comm == COMM_ALLTOALL)
		mb_push(b, d->a2a_out);
	dit_linear(b, d->out);
	mb_push(b, d->mul);
	mb_push(b, d->add);
	push_ffn(b, d);
}

/* A block of an AttentionCache hit: the cached attention output is
 * added back (gate Mul, residual Add) instead of computed; the FFN runs. */
static void push_ffn_block(struct builder *b, const struct dit_ids *d)
{
	mb_push(b, d->ln);
	mb_push(b, d->mul);
	mb_push(b, d->add);
	mb_push(b, d->mul);
	mb_push(b, d->add);
	push_ffn(b, d);
}

/* Timestep embedding (sinusoid + 2-layer MLP) and the patch embedding. */
static void make_pre(struct builder *b, const struct dit_geom *g,
                     uint16_t pre[7])
{
	const enum stage st = ST_DIT;

	pre[0] = mb_vec(b, OP_SIN, st, 1, 128, 1);
	pre[1] = mb_vec(b, OP_COS, st, 1, 128, 1);
	pre[2] = mb_vec(b, OP_CONCAT, st, 1, 256, 2);
	pre[3] = mb_linear(b, OP_MATMULV2, st, 1, 256, g->H);
	pre[4] = mb_vec(b, OP_SILU, st, 1, g->H, 1);
	pre[5] = mb_linear(b, OP_MATMULV2, st, 1, g->H, g->H);
	pre[6] = patch_embed(b, g);
}

/* Final norm + projection, then the scheduler's latent update. */
static void make_post(struct builder *b, const struct dit_geom *g,
                      uint16_t post[9])
{
	const enum stage st = ST_DIT;
	long lat = b->o->video ? 21L * 60 * 104 : 128L * 128;

	post[0] = mb_vec(b, OP_LAYERNORM, st, g->T, g->H, 3);
	post[1] = mb_comm(b, OP_ALLGATHER, st, (double)(g->L * 64) * 2.0);
	post[2] = mb_linear(b, OP_MATMULV3, st, g->T, g->H, 64);
	post[3] = mb_vec(b, OP_TRANSPOSE, st, g->T, 64, 1);
	post[4] = mb_vec(b, OP_MUL, st, 16, lat, 2);
	post[5] = mb_vec(b, OP_SUB, st, 16, lat, 2);
	post[6] = mb_vec(b, OP_ADD, st, 16, lat, 2);
	post[7] = mb_vec(b, OP_CAST, st, 16, lat, 1);
	post[8] = 0;
}

/* The DiT's prologue right after the VAE encode (--dit-prologue): the
 * latent noise, its concatenation with the encoded condition and the cast,
 * at launch pace; with sequence parallelism the latents are broadcast or
 * scattered to the group; then the host sets up the scheduler (the idle
 * gap of a stage change) before the first iteration. All of it is DiT. */
static void push_prologue(struct builder *b)
{
	const enum stage st = ST_DIT;
	long lat = b->o->video ? 21L * 60 * 104 : 128L * 128;

	mb_push(b, PROG_ATTACH_MARK);
	mb_push(b, mb_aicpu(b, OP_RANDN, st, 2.0));
	mb_push(b, mb_vec(b, OP_RANGE, st, 1, 1024, 1));
	mb_push(b, mb_vec(b, OP_CAST, st, 16, lat, 1));
	mb_push(b, mb_vec(b, OP_CONCAT, st, 32, lat, 2));
	mb_push(b, mb_vec(b, OP_CAST, st, 32, lat, 1));
	/* the latents, the encoded condition and the image context to the
	 * group: a long collective (512 MiB at the link's rate before the
	 * DiT's Comm share is applied) */
	if (b->m->sp)
		mb_push(b, mb_comm(b,
		                   b->o->prologue == PROLOGUE_SCATTER
		                       ? OP_SCATTER
		                       : OP_BROADCAST,
		                   st, (double)(1L << 29)));
	mb_push(b, PROG_HOST_MARK);
}

void build_dit(struct builder *b)
{
	struct dit_geom g = dit_geom(b);
	struct dit_ids d;
	uint16_t pre[7], post[9];
	int it, blk, i;

	make_pre(b, &g, pre);
	make_block(b, &g, &d);
	make_post(b, &g, post);
	/* Initial latent noise is drawn on the AI_CPU. */
	if (b->o->prologue)
		push_prologue(b);
	else
		mb_push(b, mb_aicpu(b, OP_RANDN, ST_DIT, 2.0));
	/* the newer generation: an AI Core kernel named in capitals */
	if (b->o->trace_gen == TRACE_GEN_2025)
		mb_push(b, mb_aicpu(b, OP_CAPS, ST_DIT, 0.5));
	if (b->o->te == TE_NONE)
		mb_push(b, mb_aicpu(b, OP_NONZERO, ST_DIT, 0.004));
	for (it = 0; it < b->o->iters; it++) {
		int hit = b->o->cache && it % b->o->cache_period != 0;
		b->in_hit = hit;
		mb_push(b, PROG_ITER_MARK);
		/* an i2v DiT (Wan-like) embeds the patches first, then the
		 * timestep; the others the other way round */
		if (b->o->prologue)
			mb_push(b, pre[6]);
		for (i = 0; i < 6; i++)
			mb_push(b, pre[i]);
		if (!b->o->prologue)
			mb_push(b, pre[6]);
		if (hit && b->o->cache == CACHE_DIT) {
			/* the first block, then the other blocks' cached
			 * residual added back */
			push_block(b, &d);
			mb_push(b, d.add);
		}
		for (blk = 0; !hit && blk < b->o->blocks; blk++)
			push_block(b, &d);
		for (blk = 0; hit && b->o->cache == CACHE_ATTENTION &&
		              blk < b->o->blocks;
		     blk++)
			push_ffn_block(b, &d);
		mb_push(b, post[0]);
		if (b->m->sp && b->o->comm == COMM_ALLGATHER)
			mb_push(b, post[1]);
		for (i = 2; i < 8; i++)
			mb_push(b, post[i]);
	}
	b->in_hit = 0;
}

/* One linear's backward: the input's gradient and the weight's. */
static void push_linear_grad(struct builder *b, long rows, long k, long n)
{
	mb_push(b, mb_linear(b, OP_MATMULV3, ST_DIT, rows, n, k));
	mb_push(b, mb_linear(b, OP_MATMULV3, ST_DIT, k, rows, n));
}

/* The DiT's backward, block by block in reverse (norm, FFN, attention and
 * QKV gradients), the gradients' allReduce over the data-parallel ranks,
 * then the optimizer: a gradient-clipping scale over every tensor
 * (ForeachMulScalar) and one AdamW update per block. */
void build_backward(struct builder *b)
{
	struct dit_geom g = dit_geom(b);
	long hd = g.H / g.heads;
	int blk;

	for (blk = 0; blk < b->o->blocks; blk++) {
		mb_push(b, mb_vec(b, OP_LNGRAD, ST_DIT, g.T, g.H, 3));
		push_linear_grad(b, g.T, g.F, g.H);
		mb_push(b, mb_vec(b, OP_GELUGRAD, ST_DIT, g.T, g.F, 2));
		push_linear_grad(b, g.T, g.H, g.F);
		mb_push(b, mb_vec(b, OP_LNGRAD, ST_DIT, g.T, g.H, 3));
		mb_push(b, mb_attention(b, OP_FAGRAD, ST_DIT, g.hq, g.lq, g.lkv,
		                        hd));
		push_linear_grad(b, g.T, g.H, 3 * g.H);
	}
	if (b->o->ranks > 1)
		mb_push(b, mb_comm(b, OP_ALLREDUCE, ST_DIT,
		                   (double)b->o->blocks * 12.0 *
		                       (double)(g.H * g.H) * 2.0));
	mb_push(b, mb_vec(b, OP_FOREACH, ST_DIT, g.H, g.H, 1));
	for (blk = 0; blk < b->o->blocks; blk++)
		mb_push(b, mb_vec(b, OP_ADAMW, ST_DIT, 12 * g.H, g.H, 4));
}

/* ---- the UNet (--denoiser unet): SDXL-like, 1024x1024 <-> 128x128 ------ */

/* Ids the UNet's ResBlocks and transformer blocks of one width share. */
struct unet_ids {
	uint16_t temb_silu, temb_mm[3];
};

/* A ResBlock: GroupNorm, SiLU, 3x3 conv, the timestep projection added,
 * GroupNorm, SiLU, 3x3 conv, a 1x1 shortcut when the width changes, the
 * residual. */
static void unet_resnet(struct builder *b, const struct unet_ids *u, int lvl,
                        long cin, long cout, struct vol v)
{
	const enum stage st = ST_DIT;

	mb_push(b, mb_act(b, OP_GROUPNORM, st, cin, v, 1));
	mb_push(b, mb_act(b, OP_SILU, st, cin, v, 1));
	mb_push(b, mb_conv(b, st, cin, cout, v, 3, 1));
	mb_push(b, u->temb_silu);
	mb_push(b, u->temb_mm[lvl]);
	mb_push(b, mb_act(b, OP_ADD, st, cout, v, 2));
	mb_push(b, mb_act(b, OP_GROUPNORM, st, cout, v, 1));
	mb_push(b, mb_act(b, OP_SILU, st, cout, v, 1));
	mb_push(b, mb_conv(b, st, cout, cout, v, 3, 1));
	if (cin != cout)
		mb_push(b, mb_conv(b, st, cin, cout, v, 1, 1));
	mb_push(b, mb_act(b, OP_ADD, st, cout, v, 2));
}

/* A Transformer2D block: GroupNorm, proj_in, `depth` layers of self
 * attention, cross attention over the 77 text tokens and a GEGLU FFN,
 * proj_out, the residual. */
static void unet_transformer(struct builder *b, long c, struct vol v, int depth)
{
	const enum stage st = ST_DIT;
	long t = v.h * v.w, heads = c / 64;
	uint16_t proj = mb_linear(b, OP_MATMULV3, st, t, c, c);
	uint16_t ln = mb_vec(b, OP_LAYERNORM, st, t, c, 3);
	uint16_t kv = mb_linear(b, OP_MATMULV3, st, 77, 2048, c);
	uint16_t self = mb_attention(b, OP_FA, st, heads, t, t, 64);
	uint16_t cross = mb_attention(b, OP_FA, st, heads, t, 77, 64);
	uint16_t add = mb_vec(b, OP_ADD, st, t, c, 2);
	uint16_t ff1 = mb_linear(b, OP_MATMULV3, st, t, c, 8 * c);
	uint16_t gelu = mb_vec(b, OP_GELU, st, t, 4 * c, 1);
	uint16_t mul = mb_vec(b, OP_MUL, st, t, 4 * c, 2);
	uint16_t ff2 = mb_linear(b, OP_MATMULV3, st, t, 4 * c, c);
	int l;

	mb_push(b, mb_act(b, OP_GROUPNORM, st, c, v, 1));
	mb_push(b, proj);
	for (l = 0; l < depth; l++) {
		const uint16_t layer[] = {
		    ln, proj,  proj, proj, self, proj, add,  ln,  proj, kv,
		    kv, cross, proj, add,  ln,   ff1,  gelu, mul, ff2,  add};
		size_t i;
		for (i = 0; i < sizeof(layer) / sizeof(layer[0]); i++)
			mb_push(b, layer[i]);
	}
	mb_push(b, proj);
	mb_push(b, add);
}

/* One UNet forward: 3 levels (320, 640, 1280 channels at 128, 64, 32),
 * attention on levels 2 and 3 (depth 2 and --blocks), 2 ResBlocks down
 * and 3 up per level with the skip connections concatenated, strided conv
 * down, nearest upsample + conv up. */
static void unet_forward(struct builder *b, const struct unet_ids *u,
                         const uint16_t pre[6])
{
	static const long ch[3] = {320, 640, 1280};
	const enum stage st = ST_DIT;
	const int depth[3] = {0, 2, b->o->blocks};
	struct vol v = {1, 128, 128};
	long c = 320, skip[9];
	int lvl, r, ns = 0, i;

	for (i = 0; i < 6; i++)
		mb_push(b, pre[i]);
	mb_push(b, mb_conv(b, st, 4, 320, v, 3, 1)); /* conv_in */
	skip[ns++] = c;
	for (lvl = 0; lvl < 3; lvl++) {
		for (r = 0; r < 2; r++) {
			unet_resnet(b, u, lvl, c, ch[lvl], v);
			c = ch[lvl];
			if (depth[lvl])
				unet_transformer(b, c, v, depth[lvl]);
			skip[ns++] = c;
		}
		if (lvl < 2) { /* downsample: strided conv */
			mb_push(b, mb_conv(b, st, c, c, v, 3, 2));
			v.h /= 2;
			v.w /= 2;
			skip[ns++] = c;
		}
	}
	unet_resnet(b, u, 2, c, c, v); /* mid block */
	unet_transformer(b, c, v, depth[2]);
	unet_resnet(b, u, 2, c, c, v);
	for (lvl = 2; lvl >= 0; lvl--) {
		for (r = 0; r < 3; r++) {
			long sc = skip[--ns];
			mb_push(b, mb_act(b, OP_CONCAT, st, c + sc, v, 2));
			unet_resnet(b, u, lvl, c + sc, ch[lvl], v);
			c = ch[lvl];
			if (depth[lvl])
				unet_transformer(b, c, v, depth[lvl]);
		}
		if (lvl > 0) { /* upsample */
			mb_push(b, mb_act(b, OP_RESIZE, st, c, v, 1));
			v = scaled(v, 2);
			mb_push(b, mb_conv(b, st, c, c, v, 3, 1));
		}
	}
	mb_push(b, mb_act(b, OP_GROUPNORM, st, c, v, 1));
	mb_push(b, mb_act(b, OP_SILU, st, c, v, 1));
	mb_push(b, mb_conv(b, st, c, 4, v, 3, 1)); /* conv_out */
}

void build_unet(struct builder *b)
{
	const enum stage st = ST_DIT;
	struct unet_ids u;
	uint16_t pre[6], cfg[3], sched[4];
	long lat = 4L * 128 * 128;
	size_t first, end, j;
	int it, i;

	u.temb_silu = mb_vec(b, OP_SILU, st, 1, 1280, 1);
	for (i = 0; i < 3; i++)
		u.temb_mm[i] =
		    mb_linear(b, OP_MATMULV2, st, 1, 1280, 320L << i);
	/* timestep embedding: sinusoid, 2-layer MLP */
	pre[0] = mb_vec(b, OP_SIN, st, 1, 160, 1);
	pre[1] = mb_vec(b, OP_COS, st, 1, 160, 1);
	pre[2] = mb_vec(b, OP_CONCAT, st, 1, 320, 2);
	pre[3] = mb_linear(b, OP_MATMULV2, st, 1, 320, 1280);
	pre[4] = mb_vec(b, OP_SILU, st, 1, 1280, 1);
	pre[5] = mb_linear(b, OP_MATMULV2, st, 1, 1280, 1280);
	/* classifier-free guidance, then the scheduler's update */
	cfg[0] = mb_vec(b, OP_SUB, st, 1, lat, 2);
	cfg[1] = mb_vec(b, OP_MUL, st, 1, lat, 2);
	cfg[2] = mb_vec(b, OP_ADD, st, 1, lat, 2);
	sched[0] = mb_vec(b, OP_MUL, st, 1, lat, 2);
	sched[1] = mb_vec(b, OP_SUB, st, 1, lat, 2);
	sched[2] = mb_vec(b, OP_ADD, st, 1, lat, 2);
	sched[3] = mb_vec(b, OP_CAST, st, 1, lat, 1);
	mb_push(b, mb_aicpu(b, OP_RANDN, st, 0.2)); /* initial latents */
	if (b->o->te == TE_NONE)
		mb_push(b, mb_aicpu(b, OP_NONZERO, st, 0.004));
	/* the first iteration builds the templates, the others repeat its
	 * program */
	mb_push(b, PROG_ITER_MARK);
	first = b->m->np;
	unet_forward(b, &u, pre);
	for (i = 0; i < 3; i++)
		mb_push(b, cfg[i]);
	for (i = 0; i < 4; i++)
		mb_push(b, sched[i]);
	end = b->m->np;
	for (it = 1; it < b->o->iters; it++) {
		mb_push(b, PROG_ITER_MARK);
		for (j = first; j < end; j++)
			mb_push(b, b->m->prog[j]);
	}
}
