/*
 * fnv.h - FNV-1a 64: a fast, stable hash of bytes for telling contents
 * apart (a registration body, a page's state, a multipart boundary). Not
 * for anything an attacker must not forge or collide.
 */
#ifndef FNV_H
#define FNV_H

#include <stddef.h>
#include <stdint.h>

#define FNV_BASIS UINT64_C(14695981039346656037)
#define FNV_PRIME UINT64_C(1099511628211)

/* h (FNV_BASIS to start) folded with n bytes at p. */
static inline uint64_t fnv_add(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= FNV_PRIME;
    }
    return h;
}

/* h folded with the bytes of the string s. */
static inline uint64_t fnv_str(uint64_t h, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        h ^= *p;
        h *= FNV_PRIME;
    }
    return h;
}

#endif
