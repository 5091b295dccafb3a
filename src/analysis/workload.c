/* The workload decision (analysis/workload.h). */
#include "analysis/workload.h"

#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

const char *const workload_kind_names[WORKLOAD_KINDS] = {
    "diffusion_inference", "training", "llm_inference", "partial", "unknown"};
const char *const workload_part_names[3] = {"none", "vae_only", "loop_only"};

/* Kernels of each evidence kind and of the VAE stage. */
static void count(const struct kernel_table *kt, const unsigned char *stage,
                  const struct rules *ru, struct workload *out)
{
	uint32_t nkeys = kt->keys.n, key;
	unsigned char *kind = xmalloc(nkeys ? nkeys : 1);
	size_t i;

	for (key = 0; key < nkeys; key++)
		kind[key] =
		    (unsigned char)rules_workload(ru, kernel_key_type(kt, key));
	for (i = 0; i < kt->n; i++) {
		unsigned char k = kind[kt->v[i].key];
		out->training_kernels +=
		    k == WORKLOAD_TRAINING || k == WORKLOAD_KINDS;
		out->dropout_kernels += k == WORKLOAD_KINDS;
		out->llm_kernels += k == WORKLOAD_LLM;
		out->vae_kernels += stage[i] == STAGE_VAE;
		out->dit_kernels += stage[i] == STAGE_DIT;
	}
	out->kernels = kt->n;
	free(kind);
}

/* A denoising loop: found, and at least two iterations per call. */
static int has_loop(const struct iter_summary *it)
{
	return it->found && it->calls > 0 && it->total >= 2 * it->calls;
}

/* Kernels of part are at least permille of the whole. */
static int share_at_least(uint64_t part, uint64_t whole, uint64_t permille)
{
	return whole && part * 1000 >= whole * permille;
}

/* The kind, in the order workload.h gives. */
static void decide(const struct iter_summary *it, struct workload *out)
{
	int loop = has_loop(it) || out->stage_loop;
	uint64_t backward = out->training_kernels - out->dropout_kernels;

	if (out->markers)
		out->kind = WORKLOAD_DIFFUSION;
	else if (backward >= WORKLOAD_MIN_TRAINING)
		out->kind = WORKLOAD_TRAINING;
	else if (out->llm_kernels >= WORKLOAD_MIN_LLM)
		out->kind = WORKLOAD_LLM;
	else if (loop && !out->vae_kernels) {
		out->kind = WORKLOAD_PARTIAL;
		out->part = WORKLOAD_PART_LOOP_ONLY;
	} else if (loop)
		out->kind = WORKLOAD_DIFFUSION;
	else if (out->training_kernels >= WORKLOAD_MIN_TRAINING)
		out->kind = WORKLOAD_TRAINING;
	else if (out->vae_kernels >= WORKLOAD_VAE_ONLY_MIN &&
	         share_at_least(out->vae_kernels, out->kernels,
	                        WORKLOAD_VAE_ONLY_PERMILLE)) {
		out->kind = WORKLOAD_PARTIAL;
		out->part = WORKLOAD_PART_VAE_ONLY;
	} else if (share_at_least(out->vae_kernels, out->kernels,
	                          WORKLOAD_PIPELINE_PERMILLE) &&
	           share_at_least(out->dit_kernels, out->kernels,
	                          WORKLOAD_PIPELINE_PERMILLE))
		out->kind = WORKLOAD_DIFFUSION;
	else
		out->kind = WORKLOAD_UNKNOWN;
}

void workload_decide(const struct kernel_table *kt, const unsigned char *stage,
                     const struct iter_summary *it, int stage_loop,
                     const struct rules *ru, int markers, struct workload *out)
{
	memset(out, 0, sizeof(*out));
	count(kt, stage, ru, out);
	if (has_loop(it)) {
		out->loop_iterations = it->total;
		out->loop_blocks = it->blocks;
		out->loop_calls = it->calls;
	}
	out->stage_loop = stage_loop;
	out->markers = markers;
	decide(it, out);
	out->one_stage = out->kind != WORKLOAD_DIFFUSION &&
	                 out->part != WORKLOAD_PART_LOOP_ONLY;
}

void workload_apply(const struct workload *w, unsigned char *stage, size_t n)
{
	if (w->one_stage)
		memset(stage, STAGE_OTHER, n);
}

char *workload_evidence(const struct workload *w)
{
	struct strbuf sb = STRBUF_INIT;

	if (w->markers)
		strbuf_adds(&sb, "the user's stage markers name the stages");
	else if (w->loop_calls)
		strbuf_addf(&sb,
		            "denoising loop: %llu iterations of a %llu-block "
		            "stack, %llu call%s",
		            (unsigned long long)w->loop_iterations,
		            (unsigned long long)w->loop_blocks,
		            (unsigned long long)w->loop_calls,
		            w->loop_calls == 1 ? "" : "s");
	else if (w->stage_loop)
		strbuf_adds(&sb, "denoising loop: a repeating block stack, its "
		                 "iterations not told apart");
	else
		strbuf_adds(&sb, "no denoising loop");
	if (w->kind == WORKLOAD_TRAINING &&
	    w->training_kernels == w->dropout_kernels)
		strbuf_addf(
		    &sb,
		    "; %llu dropout-mask kernels and no backward kernel "
		    "(dropout runs only when training: weak evidence)",
		    (unsigned long long)w->dropout_kernels);
	else if (w->kind == WORKLOAD_TRAINING)
		strbuf_addf(&sb,
		            "; %llu backward, optimizer or dropout kernels",
		            (unsigned long long)w->training_kernels);
	else if (w->kind == WORKLOAD_LLM)
		strbuf_addf(&sb,
		            "; %llu incremental or paged attention or KV-cache "
		            "kernels",
		            (unsigned long long)w->llm_kernels);
	else if (w->part == WORKLOAD_PART_VAE_ONLY)
		strbuf_addf(&sb,
		            "; %llu of %llu kernels carry the VAE's "
		            "signature",
		            (unsigned long long)w->vae_kernels,
		            (unsigned long long)w->kernels);
	else if (w->part == WORKLOAD_PART_LOOP_ONLY)
		strbuf_adds(&sb, "; no VAE kernel: the capture holds the loop "
		                 "alone");
	else if (w->kind == WORKLOAD_DIFFUSION && !w->loop_calls &&
	         !w->stage_loop && !w->markers)
		strbuf_addf(&sb,
		            "; %llu DiT and %llu VAE kernels by their "
		            "signatures: a pipeline whose loop ran once",
		            (unsigned long long)w->dit_kernels,
		            (unsigned long long)w->vae_kernels);
	return strbuf_detach(&sb, NULL);
}
