/*
 * fuzz.h - what every fuzz target in tests/fuzz/ shares.
 *
 * Each fuzz_<target>.c defines LLVMFuzzerTestOneInput() and nothing else
 * that is exported. The same file is linked two ways (CMakeLists.txt):
 *  - with clang's libFuzzer (-DFRAY_FUZZ=ON), which calls it millions of
 *    times with mutated inputs (scripts/fuzz TARGET SECONDS);
 *  - with fuzz_replay.c's main() in the normal gcc build, where ctest runs
 *    it once on every committed corpus file (so CI replays the corpus, with
 *    ASan and UBSan in the sanitizer build).
 *
 * A target must be deterministic (same bytes, same behaviour), keep no
 * state between inputs beyond one-time setup, free everything it allocates
 * per input, and never read past size: the input is not NUL-terminated.
 * FUZZ_CHECK() turns a broken documented property into a crash, which
 * libFuzzer reports and saves like any other.
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond)                                                    \
    do {                                                                    \
        if (!(cond)) {                                                      \
            fprintf(stderr, "%s:%d: property failed: %s\n", __FILE__,       \
                    __LINE__, #cond);                                       \
            abort();                                                        \
        }                                                                   \
    } while (0)

/* FNV-1a of the input: a seed that is the same for the same bytes. */
static inline uint64_t fuzz_hash(const uint8_t *data, size_t size)
{
    uint64_t h = UINT64_C(14695981039346656037);
    for (size_t i = 0; i < size; i++) {
        h ^= data[i];
        h *= UINT64_C(1099511628211);
    }
    return h;
}

/* True when s[0, cap) holds a NUL, i.e. s is a terminated string. */
static inline int fuzz_terminated(const char *s, size_t cap)
{
    for (size_t i = 0; i < cap; i++)
        if (s[i] == '\0')
            return 1;
    return 0;
}

#endif
