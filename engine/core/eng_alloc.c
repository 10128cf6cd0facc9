#include "eng_alloc.h"

#include <stdlib.h>
#include <string.h>

void *eng_malloc(size_t n)
{
    return malloc(n ? n : 1);
}

void *eng_calloc(size_t count, size_t size)
{
    return calloc(count ? count : 1, size ? size : 1);
}

void *eng_realloc(void *p, size_t n)
{
    return realloc(p, n ? n : 1);
}

void eng_free(void *p)
{
    free(p);
}
