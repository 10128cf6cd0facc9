#include "eng_rng.h"

#include <assert.h>

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

void eng_rng_seed(struct eng_rng *r, uint64_t seed)
{
    /* splitmix64 never yields four zero words in a row, so the all-zero
     * state that would lock xoshiro at zero cannot occur. */
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

uint64_t eng_rng_next(struct eng_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint64_t eng_rng_below(struct eng_rng *r, uint64_t bound)
{
    assert(bound >= 1);
    /* Lemire, "Fast Random Integer Generation in an Interval" (2019): the
     * high word of a 128-bit product is uniform once the low word falls
     * outside the short biased region, which is rare for small bounds. */
    __uint128_t m = (__uint128_t)eng_rng_next(r) * bound;
    uint64_t low = (uint64_t)m;
    if (low < bound) {
        uint64_t threshold = -bound % bound;
        while (low < threshold) {
            m = (__uint128_t)eng_rng_next(r) * bound;
            low = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

int64_t eng_rng_range(struct eng_rng *r, int64_t lo, int64_t hi)
{
    assert(lo <= hi);
    uint64_t span = (uint64_t)hi - (uint64_t)lo;
    if (span == UINT64_MAX)
        return (int64_t)eng_rng_next(r);
    return (int64_t)((uint64_t)lo + eng_rng_below(r, span + 1));
}
