#include "eng_alloc.h"

#include <string.h>

char *eng_strndup(const char *s, size_t max)
{
    size_t n = strnlen(s, max);
    char *d = eng_malloc(n + 1);
    if (d == NULL)
        return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}
