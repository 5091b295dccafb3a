/* rng.c: splitmix64, small and good enough for jitter, fully reproducible. */
#include "rng.h"

#include "banned.h"

uint64_t rng_mix(uint64_t x)
{
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
	x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
	return x ^ (x >> 31);
}

void rng_seed(struct rng *r, uint64_t seed, uint64_t stream)
{
	/* Mixing the stream in (rather than adding it) keeps seeds 1/stream 2
	 * and seed 2/stream 1 apart. */
	r->state = rng_mix(seed ^ rng_mix(stream + 0x632BE59BD9B4E019ULL));
}

uint64_t rng_next(struct rng *r)
{
	r->state += 0x9E3779B97F4A7C15ULL;
	return rng_mix(r->state);
}

double rng_unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

int64_t rng_between(struct rng *r, int64_t lo, int64_t hi)
{
	uint64_t span;

	if (hi <= lo)
		return lo;
	span = (uint64_t)(hi - lo) + 1;
	return lo + (int64_t)(rng_next(r) % span);
}
