/* Stage separation: which kernels are the DiT's, the VAE's, a text
 * encoder's. Found from the kernels along the device timeline, not from
 * per-kernel lookup: a VAE's attention block is still VAE work. */
#ifndef SDPERF_STAGES_H
#define SDPERF_STAGES_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/result.h"
#include "analysis/rules.h"
#include "input/profile.h"
#include "util/err.h"

struct stages_out {
	unsigned char *stage; /* per kernel: enum stage (caller frees) */
	int text_encoder_detected;
	int loop_found; /* a repeating denoising loop was recognised */
	int unet; /* the loop's network is a UNet (Conv/GroupNorm ResBlocks) */
};

/* Labels each of the n kernels (sorted by start time); the denoising
 * loop's repeated iterations (and the neutral kernels that prepare it)
 * are DiT whatever their signatures, out->unet says whether that network
 * is a UNet; after a VAE encode
 * (a VAE range that the DiT follows and no DiT kernel precedes in its
 * profiler step), the kernels after its last VAE-signature kernel are the
 * DiT's prologue and labelled DiT. key_sig[key] is the
 * signature of each kernel key (enum sig), key_cat[key] its category (enum
 * category; Comm kernels are left out of loop recognition). Returns 0, or
 * -1 with an ERR_INPUT error when the memory budget refuses the work lists
 * of merging short runs (a linked list and a queue of the runs, charged as
 * they grow, beyond the 6 bytes a signature kernel takes within
 * KERNEL_COST_BYTES) or those of matching the loop (44 bytes per compute
 * kernel); out->stage is set in either case (the caller frees it). */
int stages_assign(const struct kernel *k, size_t n,
                  const unsigned char *key_sig, const unsigned char *key_cat,
                  const struct rules *r, struct stages_out *out, struct err *e);

/* Groups consecutive kernels with the same stage and Step Id into
 * segments: *segs (caller frees) receives *nsegs of them. They are counted
 * first and charged to the memory budget (*charged: the bytes, for the
 * caller to give back); returns 0, or -1 (nothing allocated, *nsegs the
 * count) when the budget refuses. */
int stages_segments(const struct kernel *k, size_t n,
                    const unsigned char *stage, struct segment **segs,
                    size_t *nsegs, uint64_t *charged);

#endif
