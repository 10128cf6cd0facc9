/*
 * eng_alloc.h - the engine's only way to get memory.
 *
 * Every engine allocation goes through these three functions, which live
 * alone in eng_alloc.c (eng_strndup is in eng_str.c for that reason). A test that wants to fail the Nth allocation links
 * its own definitions ahead of libengine.a (tests/support/faultsim.c), so the
 * production build carries no hook and no global state.
 *
 * Semantics match malloc/realloc/free: eng_free(NULL) is a no-op; a failed
 * eng_realloc() leaves the old block valid.
 */
#ifndef ENG_ALLOC_H
#define ENG_ALLOC_H

#include <stddef.h>

void *eng_malloc(size_t n);
void *eng_calloc(size_t count, size_t size);
void *eng_realloc(void *p, size_t n);
void eng_free(void *p);

/* Copy a NUL-terminated string (at most max bytes, then truncated and
 * terminated). Returns NULL on allocation failure. Caller frees. */
char *eng_strndup(const char *s, size_t max);

#endif
