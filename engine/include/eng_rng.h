/*
 * eng_rng.h - the engine's random number generator.
 *
 * xoshiro256** seeded through splitmix64: fast, 256 bits of state, and a
 * given seed replays the same sequence on every platform. The caller owns the
 * state (usually embedded in a larger struct) and seeds it: from getrandom()
 * in production, from --seed or FRAY_SEED when a roll must be reproducible.
 * Not thread-safe; one generator per thread of work.
 */
#ifndef ENG_RNG_H
#define ENG_RNG_H

#include <stdint.h>

struct eng_rng {
    uint64_t s[4];
};

/* Seed from one 64-bit value. Every seed, 0 included, gives a valid state. */
void eng_rng_seed(struct eng_rng *r, uint64_t seed);

/* The next 64 random bits. */
uint64_t eng_rng_next(struct eng_rng *r);

/* A uniform integer in [0, bound), unbiased (Lemire's multiply-and-reject).
 * bound must be at least 1. */
uint64_t eng_rng_below(struct eng_rng *r, uint64_t bound);

/* A uniform integer in [lo, hi], unbiased; requires lo <= hi. */
int64_t eng_rng_range(struct eng_rng *r, int64_t lo, int64_t hi);

#endif
