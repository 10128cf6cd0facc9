#include "seed.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/random.h>

bool seed_parse(const char *s, uint64_t *out)
{
    if (s == NULL || *s < '0' || *s > '9')
        return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0 || *end != '\0')
        return false;
    *out = (uint64_t)v;
    return true;
}

bool seed_choose(const char *arg, uint64_t *out, const char **why)
{
    if (arg != NULL) {
        if (!seed_parse(arg, out)) {
            *why = "--seed wants a whole number from 0 to 18446744073709551615";
            return false;
        }
        return true;
    }
    const char *env = getenv("FRAY_SEED");
    if (env != NULL && *env != '\0') {
        if (!seed_parse(env, out)) {
            *why = "FRAY_SEED wants a whole number from 0 to 18446744073709551615";
            return false;
        }
        return true;
    }
    uint64_t v;
    ssize_t n;
    do {
        n = getrandom(&v, sizeof v, 0);
    } while (n < 0 && errno == EINTR);
    if (n != (ssize_t)sizeof v) {
        *why = "the operating system gave no randomness (getrandom failed)";
        return false;
    }
    *out = v;
    return true;
}
