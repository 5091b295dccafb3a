/* What the profile is: diffusion inference, a training step, LLM
 * inference, part of a diffusion pipeline, or unknown. Decided from the
 * device kernels alone (the MindIE-SD guide's collection, activities=[NPU],
 * has no host ranges), after the stage signatures have voted and the
 * denoising loop has been looked for: only a profile with a loop keeps
 * the DiT / VAE / text-encoder split. */
#ifndef SDPERF_WORKLOAD_H
#define SDPERF_WORKLOAD_H

#include <stddef.h>

#include "analysis/result.h"
#include "analysis/rules.h"
#include "input/profile.h"

/* Fewest kernels matching the rules' training patterns that make a
 * training step (one stray kernel type is not a backward pass). */
#define WORKLOAD_MIN_TRAINING 2
/* Fewest kernels matching the LLM patterns (a decode step launches one
 * incremental attention per layer; a truncated capture may hold one). */
#define WORKLOAD_MIN_LLM 1
/* A profile without a loop whose kernels carry the VAE's signature this
 * share of the time or more (per mille, by count) is a VAE alone. */
#define WORKLOAD_VAE_ONLY_PERMILLE 900
/* ... and at least this many of them: a VAE decode launches hundreds
 * (a handful of convolutions is no evidence of a VAE: mstt's 8-kernel
 * Conv2D file) */
#define WORKLOAD_VAE_ONLY_MIN 32
/* A profile without a loop in which both the DiT and the VAE hold this
 * share of the kernels or more (per mille) is a pipeline whose loop ran
 * once: its split stands. */
#define WORKLOAD_PIPELINE_PERMILLE 50

/* Decides out from the n kernels of kt (sorted by start), their stage
 * labels as the signatures and the markers left them (stage[i]: enum
 * stage), the denoising loop found in them (it) and the rules' workload
 * patterns. The tests run in this order, so that a training run's
 * repeated layer stack and an LLM's repeated decode steps are not taken
 * for a denoising loop:
 * 1. user stage markers decided the stages: kept (diffusion inference,
 *    the user's own split);
 * 2. >= WORKLOAD_MIN_TRAINING backward or optimizer kernels: a training
 *    step;
 * 3. >= WORKLOAD_MIN_LLM LLM kernels: LLM inference;
 * 4. a denoising loop (>= 2 iterations per call, or the repeating
 *    window the stage signatures found, stage_loop): diffusion
 *    inference, or, with no kernel left to the VAE, a partial capture of
 *    the loop alone (the split stands: it is all DiT);
 * 4b. no loop, and >= WORKLOAD_MIN_TRAINING training kernels with the
 *    dropout masks (weak evidence: a pipeline left in train mode runs
 *    them, so only where no loop is found): a training step;
 * 5. no loop, and WORKLOAD_VAE_ONLY_PERMILLE of the kernels VAE, at least
 *    WORKLOAD_VAE_ONLY_MIN of them: a partial capture of a VAE alone;
 * 6. no loop, but a DiT and a VAE each with WORKLOAD_PIPELINE_PERMILLE
 *    of the kernels: diffusion inference whose loop ran once (the split
 *    stands, trust is low: no loop confirms it);
 * 7. otherwise unknown.
 * out->one_stage is 1 when the stage split does not stand. Allocates a byte per
 * kernel key while it works (within the kernel table's charge). */
void workload_decide(const struct kernel_table *kt, const unsigned char *stage,
                     const struct iter_summary *it, int stage_loop,
                     const struct rules *ru, int markers, struct workload *out);

/* When w->one_stage is set, puts every one of the n kernels in the one stage
 * of the whole profile, STAGE_OTHER (report.json keeps its stage ids:
 * "dit" stays the denoising network's). */
void workload_apply(const struct workload *w, unsigned char *stage, size_t n);

/* The English evidence line ("denoising loop: 50 iterations of a
 * 40-block stack, 2 calls", "no denoising loop; 52 backward, optimizer or
 * dropout kernels"); the caller frees it. */
char *workload_evidence(const struct workload *w);

#endif
