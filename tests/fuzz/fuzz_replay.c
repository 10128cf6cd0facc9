/*
 * fuzz_replay.c - a main() for the fuzz targets without libFuzzer.
 *
 *   fuzz_<target>_replay PATH...
 *
 * Runs LLVMFuzzerTestOneInput() once on every file named, and on every
 * regular file inside every directory named (in name order, not
 * recursively). Each input is copied into a heap buffer of exactly its
 * size, so AddressSanitizer catches a read one byte past the end, as
 * libFuzzer would. Exits 1 when a path cannot be read or when no input was
 * found (a corpus that went missing must not pass as an empty success).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    long n;
    int rc = -1;

    if (!f) {
        perror(path);
        return -1;
    }
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 ||
        fseek(f, 0, SEEK_SET) != 0) {
        perror(path);
        goto out;
    }
    /* malloc(0) may return NULL: keep one byte but pass size 0 */
    buf = malloc(n ? (size_t)n : 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "%s: cannot read\n", path);
        goto out;
    }
    LLVMFuzzerTestOneInput(buf, (size_t)n);
    rc = 0;
out:
    free(buf);
    fclose(f);
    return rc;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Runs every regular file in dir; returns how many, or -1 on error. */
static int run_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char **names = NULL;
    size_t n = 0, cap = 0;
    int count = 0;

    if (!d) {
        perror(dir);
        return -1;
    }
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            char **grown;
            cap = cap ? cap * 2 : 16;
            grown = realloc(names, cap * sizeof *names);
            if (!grown) {
                count = -1;
                break;
            }
            names = grown;
        }
        names[n] = strdup(e->d_name);
        if (!names[n]) {
            count = -1;
            break;
        }
        n++;
    }
    closedir(d);
    if (count == 0 && n)
        qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (count >= 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
            if (run_file(path) != 0)
                count = -1;
            else
                count++;
        }
        free(names[i]);
    }
    free(names);
    return count;
}

int main(int argc, char **argv)
{
    int total = 0;

    for (int i = 1; i < argc; i++) {
        struct stat st;
        int n;
        if (stat(argv[i], &st) != 0) {
            perror(argv[i]);
            return 1;
        }
        n = S_ISDIR(st.st_mode) ? run_dir(argv[i])
                                : (run_file(argv[i]) == 0 ? 1 : -1);
        if (n < 0)
            return 1;
        total += n;
    }
    printf("replayed %d inputs\n", total);
    if (total == 0) {
        fprintf(stderr, "no inputs found\n");
        return 1;
    }
    return 0;
}
