/* rng.h: the generator's own deterministic PRNG (splitmix64), never rand(). */
#ifndef GEN_RNG_H
#define GEN_RNG_H

#include <stdint.h>

struct rng {
	uint64_t state;
};

/* Seed a generator; different `stream` values give independent sequences
 * for the same seed (one per rank, one per purpose). */
void rng_seed(struct rng *r, uint64_t seed, uint64_t stream);

/* Next 64 random bits. */
uint64_t rng_next(struct rng *r);

/* Uniform double in [0, 1). */
double rng_unit(struct rng *r);

/* Uniform integer in [lo, hi] (inclusive); returns lo when hi <= lo. */
int64_t rng_between(struct rng *r, int64_t lo, int64_t hi);

/* Mix a 64-bit value (stateless splitmix64 finaliser), for derived ids. */
uint64_t rng_mix(uint64_t x);

#endif
