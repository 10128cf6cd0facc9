/*
 * fuzz_i18n.c - the translation layer's readers (i18n.h, i18n_plural.h):
 * the Plural-Forms parser and evaluator, and the .mo reader over bytes it
 * did not write.
 *
 * Input: the first byte chooses. Even: the rest is a plural expression,
 * parsed, and evaluated for counts around each language's boundaries
 * when accepted. Odd: the rest is a catalog, checked with
 * i18n__mo_check() and searched for a few keys, with and without a
 * context.
 *
 * Properties checked:
 *  - a refusal has a one-line, terminated message naming a byte offset;
 *    an accepted expression uses at most I18N_PLURAL_MAX_NODES nodes and
 *    its evaluation returns (the depth bound holds on the C stack);
 *  - a catalog lookup returns NULL or a string that ends inside the
 *    input, of the length the catalog states; a catalog that passes the
 *    check finds its own header's absence of a key consistently (the same
 *    search twice gives the same answer).
 */
#include <string.h>

#include "fuzz.h"
#include "i18n.h"
#include "i18n_plural.h"

static void plural(const uint8_t *data, size_t size)
{
    struct i18n_plural p;
    char err[128];
    if (!i18n_plural_parse((const char *)data, size, &p, err, sizeof err)) {
        FUZZ_CHECK(fuzz_terminated(err, sizeof err));
        FUZZ_CHECK(strlen(err) > 0 && strchr(err, '\n') == NULL);
        FUZZ_CHECK(strstr(err, "at byte") != NULL);
        return;
    }
    FUZZ_CHECK(p.n >= 1 && p.n <= I18N_PLURAL_MAX_NODES);
    static const unsigned long ns[] = {0, 1, 2, 4, 5, 11, 12, 21, 22, 101,
                                       112, 1000000, 4294967295ul};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
        (void)i18n_plural_eval(&p, ns[i]);
}

static void catalog(const uint8_t *data, size_t size)
{
    static const char *const keys[][2] = {
        {NULL, "Hit points"}, {"name", "roll"}, {"choice", "start"},
        {NULL, "a"}, {"", "x"}};
    char err[160];
    bool ok = i18n__mo_check(data, size, err, sizeof err);
    if (!ok)
        FUZZ_CHECK(fuzz_terminated(err, sizeof err));
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        size_t len = 0;
        const char *t = i18n__mo_find(data, size, keys[k][0], keys[k][1],
                                      &len);
        if (t == NULL)
            continue;
        const uint8_t *at = (const uint8_t *)t;
        FUZZ_CHECK(at >= data && at + len < data + size);
        FUZZ_CHECK(t[len] == '\0');
        FUZZ_CHECK(i18n__mo_find(data, size, keys[k][0], keys[k][1],
                                 NULL) == t);
    }
    (void)i18n__mo_count(data, size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    if ((data[0] & 1) == 0)
        plural(data + 1, size - 1);
    else
        catalog(data + 1, size - 1);
    return 0;
}
