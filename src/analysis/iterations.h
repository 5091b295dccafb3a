/* The DiT's denoising loop split into iterations, from the kernels
 * themselves, and an active cache (DiTCache, AttentionCache) recognised
 * from what its hit iterations leave out. */
#ifndef SDPERF_ITERATIONS_H
#define SDPERF_ITERATIONS_H

#include <stddef.h>

#include "analysis/result.h"
#include "analysis/rules.h"
#include "input/profile.h"
#include "util/err.h"

/* Longest head (kernels that open every iteration) matched. */
#define ITER_HEAD_MAX 8
/* A cache at this period is what the cache finding's gain assumes: one
 * full iteration in two. */
#define ITER_SUGGEST_PERIOD 2

/* One rank's kernels, as the analysis holds them. */
struct iter_input {
	const struct kernel *k; /* sorted by start */
	size_t n;
	const unsigned char *stage; /* per kernel: enum stage */
	const unsigned char *key_cat, *key_part, *key_sig; /* per key */
	size_t nkeys;
};

/* Splits the DiT ranges (consecutive DiT kernels of one Step Id: one
 * pipeline call each) into iterations:
 * 1. the block signature: among the windows of loop_window compute
 *    kernels that start at the anchor (the DiT-signature kernel type with
 *    the most DiT time), the heaviest repeated one; its first place opens
 *    the first block;
 * 2. the head: matched backwards against every later place of the same
 *    window in that range, the kernels before the first block that the
 *    next iterations repeat (timestep embedding, patch embedding...); its
 *    first ITER_HEAD_MAX kernel types open every iteration;
 * 3. every place of the head in a DiT range opens an iteration, which
 *    runs to the next one (or the range's end); kernels before a range's
 *    first head are its prologue.
 * Each iteration is then compared with the full ones (kernel count at
 * least 3/4 of the most): an attention hit runs at most half the
 * attention kernels while its MatMuls fall by at least 1/4 less (the FFN
 * stays), a DiT hit at most half the kernels. A full iteration taking
 * outlier_factor times the median full iteration or more is an outlier
 * (warm-up when it is its call's first). Two hits or more make an active
 * cache. Fills *out (release with iter_summary_release); found is 0 when
 * no loop or no head was found (no kernels before the first block that
 * the later iterations repeat), or fewer than two iterations ran in full
 * or they ran no block (a sequence that repeats in another kind of
 * profile). Returns 0, or -1 with an ERR_INPUT error
 * when the memory budget refuses the work lists (charged while used). */
int iterations_find(const struct iter_input *in, const struct rules *ru,
                    struct iter_summary *out, struct err *e);

void iter_summary_release(struct iter_summary *s);

/* The denoising loop's share of the end-to-end time (r->e2e), in percent;
 * -1 when no loop was split or e2e is unknown. */
double iterations_loop_share(const struct result *r);

#endif
