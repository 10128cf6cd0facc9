#include "support.h"

#include <stdio.h>
#include <stdlib.h>

char *support_read_data(const char *relpath, size_t *len_out)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", FRAY_TEST_DATA, relpath);
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    size_t n;
    while (buf != NULL && (n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (cap - len - 1 == 0) {
            char *nb = realloc(buf, cap * 2);
            if (nb == NULL) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf == NULL)
        return NULL;
    buf[len] = '\0';
    if (len_out != NULL)
        *len_out = len;
    return buf;
}
