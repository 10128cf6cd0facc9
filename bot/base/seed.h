/*
 * seed.h - where the random seed comes from.
 *
 * Production seeds from the OS (getrandom). A seed given on the command line
 * (--seed N) or in FRAY_SEED makes every roll reproducible, for tests and for
 * replaying a reported bug. The command line wins over the environment.
 */
#ifndef SEED_H
#define SEED_H

#include <stdbool.h>
#include <stdint.h>

/* Parse a seed: a decimal integer in [0, 2^64). Returns false if s is not
 * one (empty, sign, trailing junk, overflow). */
bool seed_parse(const char *s, uint64_t *out);

/* Choose the seed: arg (may be NULL) if given, else $FRAY_SEED if set, else
 * 64 bits from getrandom(). Returns false with *why set to a static message
 * when a given seed is malformed or the OS has no randomness to give. */
bool seed_choose(const char *arg, uint64_t *out, const char **why);

#endif
