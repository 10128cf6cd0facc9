/*
 * randtok.h - unguessable tokens for links: RANDTOK_BYTES random bytes
 * from the kernel's CSPRNG (getrandom), written as base64url without
 * padding, so a token is safe in a URL path and names nothing.
 *
 * Ownership: the caller's buffer; nothing is kept.
 */
#ifndef RANDTOK_H
#define RANDTOK_H

#include <stdbool.h>
#include <stddef.h>

/* 192 bits: past any guessing, and a whole number of base64 groups. */
#define RANDTOK_BYTES 24
#define RANDTOK_LEN (RANDTOK_BYTES / 3 * 4)     /* characters, no NUL */

/* A fresh token into out (RANDTOK_LEN + 1 bytes at least). False when
 * the kernel gave no randomness (out untouched). */
bool randtok_new(char *out, size_t cap);

/* Whether s has a token's shape: RANDTOK_LEN base64url characters. */
bool randtok_valid(const char *s);

#endif
