/* The VAE's time by what its kernels do. Conv and attention are whole
 * categories; GroupNorm is part of Vector, found by kernel type; other is
 * what is left, so the four parts always add up to the VAE's kernel
 * time. */
#include "analysis/vaesplit.h"

#include <string.h>

#include "util/checked.h"
#include "util/glob.h"
#include "util/banned.h"

const char *const vae_part_names[VAE_PARTS] = {"conv", "groupnorm", "attention",
                                               "other"};

void vae_split_compute(struct result *r)
{
	const struct stage_result *st = &r->stages[STAGE_VAE];
	struct vae_split *v = &r->vae_split;
	int64_t known;
	size_t i;

	memset(v, 0, sizeof(*v));
	v->total_ns = st->kernel_ns;
	v->part_ns[VAE_CONV] = st->cat[CAT_CONV].time_ns;
	v->part_ns[VAE_ATTENTION] = st->cat[CAT_FA].time_ns;
	for (i = 0; i < st->ntop; i++)
		if (st->top[i].cat == CAT_VECTOR &&
		    glob_match(VAE_GROUPNORM_GLOB, st->top[i].type))
			checked_accumulate(&v->part_ns[VAE_GROUPNORM],
			                   st->top[i].total_ns);
	known = 0;
	for (i = 0; i < VAE_OTHER; i++)
		checked_accumulate(&known, v->part_ns[i]);
	v->part_ns[VAE_OTHER] = v->total_ns > known ? v->total_ns - known : 0;
}
