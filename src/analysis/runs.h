/* Runs of one stage label along the signature kernels of the timeline
 * (analysis/stages.c), 4 bytes each: run r starts at signature index
 * runs_start(r) (a kernel index once stages.c has mapped it back) and ends
 * where run r + 1 starts; the top bit is the label. Kernel tables hold
 * fewer than 2^31 kernels (KERNELS_MAX). */
#ifndef SDPERF_RUNS_H
#define SDPERF_RUNS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/rules.h"

#define RUNS_VAE 0x80000000u

static inline size_t runs_start(const uint32_t *runs, size_t r)
{
	return runs[r] & ~RUNS_VAE;
}

/* The end of run r of nr, over m signature kernels. */
static inline size_t runs_end(const uint32_t *runs, size_t nr, size_t m,
                              size_t r)
{
	return r + 1 < nr ? runs_start(runs, r + 1) : m;
}

/* SIG_DIT or SIG_VAE */
static inline unsigned char runs_label(const uint32_t *runs, size_t r)
{
	return (runs[r] & RUNS_VAE) ? SIG_VAE : SIG_DIT;
}

static inline uint32_t runs_make(size_t a, unsigned char label)
{
	return (uint32_t)a | (label == SIG_VAE ? RUNS_VAE : 0);
}

/* Step 2 of the stage separation: flips runs shorter than min signature
 * kernels to their longer neighbour's label, growing the length limit one
 * at a time so the shortest go first; each pass at limit lim flips every
 * run of at most lim kernels that has a strictly longer neighbour, left to
 * right (a flipped run takes what its left neighbour holds by then), then
 * merges equal neighbours. runs[0..*nr) (over m signature kernels) are
 * merged in place, *nr the runs left. O(runs log runs) whatever min is.
 * The work lists (about 17 bytes a run) are charged to the memory budget
 * while they live: returns 0, or -1 when it refuses (*need: about what
 * was asked, for the message; runs unusable). */
int runs_merge_short(uint32_t *runs, size_t *nr, size_t m, size_t min,
                     uint64_t *need);

#endif
