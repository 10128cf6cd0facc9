/* The translation layer (i18n.h, i18n_plural.h): the Plural-Forms parser
 * accepts what msgfmt writes and refuses anything else with a message,
 * evaluates each language's rule (Polish's three forms), and the embedded
 * catalogs are sound, answer lookups, and survive damage without reading
 * out of bounds. */
#include "support.h"

#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "i18n_plural.h"

#define PL_RULE "(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || " \
                "n%100>=20) ? 1 : 2)"

static unsigned long eval(const char *expr, unsigned long n)
{
    struct i18n_plural p;
    char err[128] = "";
    if (!i18n_plural_parse(expr, strlen(expr), &p, err, sizeof err))
        fail_msg("'%s' refused: %s", expr, err);
    return i18n_plural_eval(&p, n);
}

static void test_i18n_plural_languages(void **state)
{
    (void)state;
    /* German, Spanish: one for 1 */
    assert_int_equal(eval("(n != 1)", 1), 0);
    assert_int_equal(eval("(n != 1)", 0), 1);
    /* French, Brazilian Portuguese: 0 and 1 are singular */
    assert_int_equal(eval("(n > 1)", 0), 0);
    assert_int_equal(eval("(n > 1)", 1), 0);
    assert_int_equal(eval("(n > 1)", 2), 1);
    /* Polish: 1 | 2-4, 22-24... | 0, 5-21, 25-31..., 112-114 */
    static const struct { unsigned long n, form; } pl[] = {
        {1, 0}, {2, 1}, {4, 1}, {5, 2}, {0, 2}, {11, 2}, {12, 2}, {14, 2},
        {21, 2}, {22, 1}, {24, 1}, {25, 2}, {101, 2}, {102, 1}, {112, 2},
        {1002, 1}};
    for (size_t i = 0; i < sizeof pl / sizeof pl[0]; i++)
        if (eval(PL_RULE, pl[i].n) != pl[i].form)
            fail_msg("Polish n=%lu: form %lu, want %lu", pl[i].n,
                     eval(PL_RULE, pl[i].n), pl[i].form);
}

static void test_i18n_plural_grammar(void **state)
{
    (void)state;
    assert_int_equal(eval("1 + 2 * 3", 0), 7);           /* precedence */
    assert_int_equal(eval("(1 + 2) * 3", 0), 9);
    assert_int_equal(eval("10 - 3 - 2", 0), 5);          /* left to right */
    assert_int_equal(eval("n==1 ? 0 : n==2 ? 1 : 2", 2), 1); /* right */
    assert_int_equal(eval("n==1 ? 0 : n==2 ? 1 : 2", 7), 2);
    assert_int_equal(eval("!n", 0), 1);
    assert_int_equal(eval("!!n", 5), 1);
    assert_int_equal(eval("n <= 2 && n >= 2", 2), 1);
    assert_int_equal(eval("n < 2 || n > 5", 3), 0);
    assert_int_equal(eval("n / 0 + n % 0", 9), 0);       /* no trap */
    assert_int_equal(eval(" \tn\n", 4), 4);
    assert_int_equal(eval("0", 4), 0);
}

static void refused(const char *expr, size_t len, const char *why)
{
    struct i18n_plural p;
    char err[128] = "";
    if (i18n_plural_parse(expr, len, &p, err, sizeof err))
        fail_msg("'%s' accepted", expr);
    if (strstr(err, why) == NULL)
        fail_msg("'%s': message '%s' lacks '%s'", expr, err, why);
}

static void test_i18n_plural_refuses(void **state)
{
    (void)state;
    refused("", 0, "unexpected end");
    refused("n ==", 4, "unexpected end");
    refused("n + ", 4, "unexpected end");
    refused("(n", 2, "')' expected");
    refused("n)", 2, "trailing text");
    refused("n ? 1", 5, "':' expected");
    refused("x", 1, "unexpected character");
    refused("n = 1", 5, "trailing text");
    refused("n & 1", 5, "trailing text");
    refused("1234567890", 10, "limit is 9 digits");
    refused("n\0n", 3, "NUL");
    char deep[80] = "";
    for (int i = 0; i < 20; i++)
        strcat(deep, "(");
    strcat(deep, "n");
    for (int i = 0; i < 20; i++)
        strcat(deep, ")");
    refused(deep, strlen(deep), "limit is 16");
    char bangs[40];
    memset(bangs, '!', 30);
    bangs[30] = 'n';
    refused(bangs, 31, "limit is 16");
    char many[400] = "n";
    for (int i = 0; i < 40; i++)
        strcat(many, "+n");
    refused(many, strlen(many), "limit is 64");
    char lng[300];
    memset(lng, ' ', sizeof lng);
    lng[0] = 'n';
    refused(lng, sizeof lng, "limit is 256");
}

static void test_i18n_plural_header(void **state)
{
    (void)state;
    static const char h[] = "Language: pl\nPlural-Forms: nplurals=3; plural="
                            PL_RULE ";\nX: y\n";
    struct i18n_plural p;
    unsigned np = 0;
    char err[128];
    assert_true(i18n_plural_header(h, sizeof h - 1, I18N_PLURALS_MAX, &np, &p,
                                   err, sizeof err));
    assert_int_equal(np, 3);
    assert_int_equal(i18n_plural_eval(&p, 3), 1);
    static const char none[] = "Language: de\n";
    assert_false(i18n_plural_header(none, sizeof none - 1, 6, &np, &p, err,
                                    sizeof err));
    assert_non_null(strstr(err, "no Plural-Forms"));
    static const char big[] = "Plural-Forms: nplurals=9; plural=n;\n";
    assert_false(i18n_plural_header(big, sizeof big - 1, 6, &np, &p, err,
                                    sizeof err));
    assert_non_null(strstr(err, "nplurals must be 1..6"));
}

static void test_i18n_catalogs_sound(void **state)
{
    (void)state;
    char err[200] = "";
    if (!i18n_check(err, sizeof err))
        fail_msg("%s", err);
    size_t n0 = 0;
    for (int l = I18N_DE; l < I18N_COUNT; l++) {
        size_t len;
        const unsigned char *mo = i18n_catalog((enum i18n_lang)l, &len);
        assert_non_null(mo);
        size_t n = i18n__mo_count(mo, len);
        assert_true(n > 0);
        if (n0 == 0)
            n0 = n;
        if (n != n0)   /* test_po_complete says which are missing */
            fail_msg("catalog %s holds %zu messages, de %zu",
                     i18n_code((enum i18n_lang)l), n, n0);
    }
    size_t len;
    assert_null(i18n_catalog(I18N_EN, &len));
    assert_int_equal(len, 0);
}

static void test_i18n_lookups(void **state)
{
    (void)state;
    static const char roll[] = "roll";
    assert_ptr_equal(i18n_pget(I18N_EN, I18N_CTX_NAME, roll), roll);
    assert_string_equal(i18n_pget(I18N_DE, I18N_CTX_NAME, roll), "wurf");
    assert_string_equal(i18n_pget(I18N_FR, I18N_CTX_NAME, roll), "jet");
    assert_string_equal(i18n_pget(I18N_ES, I18N_CTX_NAME, roll), "tirada");
    assert_string_equal(i18n_pget(I18N_PT_BR, I18N_CTX_NAME, roll),
                        "rolagem");
    assert_string_equal(i18n_pget(I18N_PL, I18N_CTX_NAME, roll), "rzut");
    /* the context is part of the key: "start" as a name and a choice */
    assert_string_equal(i18n_pget(I18N_DE, I18N_CTX_NAME, "start"),
                        "starten");
    assert_string_equal(i18n_pget(I18N_DE, I18N_CTX_CHOICE, "start"),
                        "Anfang");
    assert_true(i18n_has(I18N_PL, I18N_CTX_MENU, "Reroll"));
    assert_false(i18n_has(I18N_PL, NULL, "Reroll"));
    /* a miss, or a language out of range, is the English itself */
    static const char miss[] = "no such message in any catalog";
    assert_ptr_equal(i18n_get(I18N_DE, miss), miss);
    assert_ptr_equal(i18n_get(I18N_COUNT, miss), miss);
    assert_false(i18n_has(I18N_EN, NULL, miss));
}

static void test_i18n_codes(void **state)
{
    (void)state;
    assert_int_equal(i18n_from_discord("de"), I18N_DE);
    assert_int_equal(i18n_from_discord("fr"), I18N_FR);
    assert_int_equal(i18n_from_discord("es-ES"), I18N_ES);
    assert_int_equal(i18n_from_discord("es-419"), I18N_ES);
    assert_int_equal(i18n_from_discord("pt-BR"), I18N_PT_BR);
    assert_int_equal(i18n_from_discord("pl"), I18N_PL);
    assert_int_equal(i18n_from_discord("en-US"), I18N_EN);
    assert_int_equal(i18n_from_discord("ja"), I18N_EN);
    assert_int_equal(i18n_from_discord("qps"), I18N_EN);  /* tests only */
    assert_int_equal(i18n_from_discord(NULL), I18N_EN);
    enum i18n_lang l;
    assert_true(i18n_from_code("PT-br", &l));
    assert_int_equal(l, I18N_PT_BR);
    assert_true(i18n_from_code("es", &l));
    assert_int_equal(l, I18N_ES);
    assert_false(i18n_from_code("klingon", &l));
    for (int i = 0; i < I18N_COUNT; i++) {
        assert_true(i18n_from_code(i18n_code((enum i18n_lang)i), &l));
        assert_int_equal(l, i);
    }
    assert_null(i18n_code(I18N_COUNT));
}

/* Every byte of a catalog damaged in turn, and random damage: the checker
 * says no or yes, and lookups answer or miss, never read outside the
 * bytes (ASan in the sanitizer suite). Seeded. */
static void test_i18n_damaged_catalogs(void **state)
{
    (void)state;
    size_t len;
    const unsigned char *mo = i18n_catalog(I18N_PL, &len);
    unsigned char *copy = malloc(len);
    assert_non_null(copy);
    char err[160];
    /* truncations */
    for (size_t cut = 0; cut < 64 && cut < len; cut++) {
        assert_false(i18n__mo_check(mo, cut, err, sizeof err));
        assert_null(i18n__mo_find(mo, cut, I18N_CTX_NAME, "roll", NULL));
    }
    /* the header and tables, byte by byte */
    srand(35);
    for (size_t at = 0; at < 28 + 64 && at < len; at++) {
        memcpy(copy, mo, len);
        copy[at] ^= (unsigned char)(1 + rand() % 255);
        (void)i18n__mo_check(copy, len, err, sizeof err);
        (void)i18n__mo_find(copy, len, I18N_CTX_NAME, "roll", NULL);
        (void)i18n__mo_find(copy, len, NULL, "Hit points", NULL);
    }
    /* anywhere */
    for (int round = 0; round < 300; round++) {
        memcpy(copy, mo, len);
        for (int k = 0; k < 4; k++)
            copy[(size_t)rand() % len] = (unsigned char)rand();
        (void)i18n__mo_check(copy, len, err, sizeof err);
        (void)i18n__mo_find(copy, len, I18N_CTX_CHOICE, "start", NULL);
    }
    /* out of order keys are refused: swap the first two table entries */
    memcpy(copy, mo, len);
    memcpy(copy + 28 + 8, mo + 28 + 16, 8);
    memcpy(copy + 28 + 16, mo + 28 + 8, 8);
    uint32_t orig;
    memcpy(&orig, mo + 12, 4);
    memcpy(copy + orig + 8, mo + orig + 16, 8);
    memcpy(copy + orig + 16, mo + orig + 8, 8);
    assert_false(i18n__mo_check(copy, len, err, sizeof err));
    assert_non_null(strstr(err, "out of order"));
    free(copy);
}

/* Lookups go through msgfmt's hash table (test_i18n_catalogs_sound checks
 * that it reaches every entry); a catalog without one is searched, and a
 * damaged table never gives another message's translation. */
static void test_i18n_hash_table(void **state)
{
    (void)state;
    size_t len;
    const unsigned char *mo = i18n_catalog(I18N_PL, &len);
    uint32_t hsize, hoff;
    memcpy(&hsize, mo + 20, 4);
    memcpy(&hoff, mo + 24, 4);
    assert_true(hsize > 2);             /* msgfmt wrote one */
    unsigned char *copy = malloc(len);
    assert_non_null(copy);
    memcpy(copy, mo, len);
    memset(copy + 20, 0, 4);            /* no table: the binary search */
    assert_string_equal(i18n__mo_find(copy, len, I18N_CTX_NAME, "roll", NULL),
                        "rzut");
    assert_string_equal(i18n__mo_find(copy, len, I18N_CTX_CHOICE, "start",
                                      NULL),
                        i18n_pget(I18N_PL, I18N_CTX_CHOICE, "start"));
    assert_null(i18n__mo_find(copy, len, NULL, "no such message", NULL));
    /* a table that points past the file is not used either */
    memcpy(copy, mo, len);
    uint32_t far = (uint32_t)len;
    memcpy(copy + 24, &far, 4);
    assert_string_equal(i18n__mo_find(copy, len, I18N_CTX_NAME, "roll", NULL),
                        "rzut");
    /* damage inside the table: the right translation or none */
    srand(37);
    for (int round = 0; round < 500; round++) {
        memcpy(copy, mo, len);
        for (int k = 0; k < 8; k++) {
            size_t at = hoff + (size_t)rand() % ((size_t)hsize * 4);
            copy[at] = (unsigned char)rand();
        }
        const char *t = i18n__mo_find(copy, len, I18N_CTX_NAME, "roll", NULL);
        assert_true(t == NULL || strcmp(t, "rzut") == 0);
    }
    free(copy);
}

/* The plural rules i18n_nget uses in C are each catalog's own: every
 * count from 0 to 1,200 gets the form the Plural-Forms header gives. */
static void test_i18n_plural_fixed_matches_headers(void **state)
{
    (void)state;
    for (int l = I18N_DE; l < I18N_COUNT; l++) {
        size_t len = 0;
        const unsigned char *mo = i18n_catalog((enum i18n_lang)l, &len);
        assert_non_null(mo);
        /* the header: the translation of the first key, "" */
        const unsigned char *tr = mo + (mo[16] | mo[17] << 8 |
                                        mo[18] << 16 | (unsigned)mo[19] << 24);
        size_t hlen = tr[0] | tr[1] << 8 | tr[2] << 16 |
                      (size_t)tr[3] << 24;
        const char *h = (const char *)mo + (tr[4] | tr[5] << 8 |
                                            tr[6] << 16 |
                                            (size_t)tr[7] << 24);
        assert_non_null(strstr(h, "Plural-Forms"));
        struct i18n_plural p;
        unsigned np;
        char err[80];
        assert_true(i18n_plural_header(h, hlen, I18N_PLURALS_MAX, &np, &p,
                                       err, sizeof err));
        for (unsigned long n = 0; n <= 1200; n++) {
            unsigned long form = 99;
            assert_true(i18n__plural_fixed((enum i18n_lang)l, n, &form));
            assert_int_equal(form, i18n_plural_eval(&p, n));
        }
    }
    unsigned long form;
    assert_false(i18n__plural_fixed(I18N_EN, 1, &form));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_i18n_plural_languages),
        cmocka_unit_test(test_i18n_plural_grammar),
        cmocka_unit_test(test_i18n_plural_refuses),
        cmocka_unit_test(test_i18n_plural_header),
        cmocka_unit_test(test_i18n_catalogs_sound),
        cmocka_unit_test(test_i18n_lookups),
        cmocka_unit_test(test_i18n_codes),
        cmocka_unit_test(test_i18n_damaged_catalogs),
        cmocka_unit_test(test_i18n_hash_table),
        cmocka_unit_test(test_i18n_plural_fixed_matches_headers),
    };
    return cmocka_run_group_tests_name("i18n", tests, NULL, NULL);
}
