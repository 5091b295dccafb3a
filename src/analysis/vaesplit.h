/* The VAE's kernel time split into Conv, GroupNorm, attention and the
 * rest: what the VAE finding and the report's VAE section show. */
#ifndef SDPERF_VAESPLIT_H
#define SDPERF_VAESPLIT_H

#include "analysis/result.h"

/* The glob a Vector kernel type matches to count as GroupNorm. */
#define VAE_GROUPNORM_GLOB "*GroupNorm*"

/* Fills r->vae_split from r->stages[STAGE_VAE]: its Conv and FA
 * categories, its Vector kernel types matching VAE_GROUPNORM_GLOB (in
 * its top list, which holds every type up to BREAKDOWN_TOP), and the
 * rest of its kernel time. cluster_summarise calls it. */
void vae_split_compute(struct result *r);

#endif
