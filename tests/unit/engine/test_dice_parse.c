/* Tests for dice_parse and the expression API: abuse inputs, limits at and
 * past their ceilings, accessors, analytic bounds, allocation (this file
 * supplies the engine's allocator, to count and fail allocations) and random
 * input. */
#include "support.h"

#include <stdlib.h>
#include <string.h>

#include "dice.h"
#include "eng_alloc.h"

/* The engine's allocator for this test binary: defining all four here
 * keeps eng_alloc.o out of the link. Counts calls; fails the call numbered
 * alloc_fail_at. */
static long alloc_calls;
static long alloc_fail_at = -1;

void *eng_malloc(size_t n)
{
    return alloc_calls++ == alloc_fail_at ? NULL : malloc(n ? n : 1);
}

void *eng_calloc(size_t count, size_t size)
{
    return alloc_calls++ == alloc_fail_at ? NULL
                                          : calloc(count ? count : 1,
                                                   size ? size : 1);
}

void *eng_realloc(void *p, size_t n)
{
    return alloc_calls++ == alloc_fail_at ? NULL : realloc(p, n ? n : 1);
}

void eng_free(void *p)
{
    free(p);
}

/* Parse src[0, len) expecting failure with code and message; also checks
 * that *out is left alone and that dice_eval_string agrees. */
static void expect_error(const char *src, size_t len, enum eng_err code,
                         const char *msg)
{
    struct dice_diag d = {0};
    struct dice_expr *sentinel = (struct dice_expr *)&d, *e = sentinel;
    enum eng_err err = dice_parse(src, len, &e, &d);
    if (err != code || strcmp(d.msg, msg) != 0)
        print_error("input of %zu bytes: got %s '%s', want %s '%s'\n", len,
                    eng_errname(err), d.msg, eng_errname(code), msg);
    assert_int_equal(err, code);
    assert_int_equal(d.code, code);
    assert_string_equal(d.msg, msg);
    assert_ptr_equal(e, sentinel);
    struct dice_result *res = malloc(sizeof *res);
    struct eng_rng rng;
    eng_rng_seed(&rng, 1);
    assert_int_equal(dice_eval_string(src, len, &rng, res, NULL), code);
    free(res);
}

static struct dice_expr *parse_ok(const char *src)
{
    struct dice_diag d = {0};
    struct dice_expr *e = NULL;
    enum eng_err err = dice_parse(src, strlen(src), &e, &d);
    if (err != ENG_OK)
        print_error("`%.60s`: %s\n", src, d.msg);
    assert_int_equal(err, ENG_OK);
    assert_non_null(e);
    return e;
}

/* A string of n copies of unit, then mid, then n copies of tail. */
static char *nest(const char *unit, int n, const char *mid, const char *tail)
{
    size_t ul = strlen(unit), ml = strlen(mid), tl = strlen(tail);
    char *s = malloc(n * (ul + tl) + ml + 1), *p = s;
    assert_non_null(s);
    for (int i = 0; i < n; i++, p += ul)
        memcpy(p, unit, ul);
    memcpy(p, mid, ml);
    p += ml;
    for (int i = 0; i < n; i++, p += tl)
        memcpy(p, tail, tl);
    *p = '\0';
    return s;
}

static void test_dice_parse_abuse_inputs(void **state)
{
    (void)state;
    expect_error("1001d6", 6, ENG_LIMIT, "too many dice (limit is 1000)");
    expect_error("1d0", 3, ENG_RANGE, "need at least 1 side at column 3");
    expect_error("0d6", 3, ENG_RANGE, "need at least 1 die at column 1");
    expect_error("99999999999999999999d6", 22, ENG_LIMIT,
                 "too many dice (limit is 1000)");
    expect_error("1d1!", 4, ENG_RANGE,
                 "`!` explodes on every face at column 4");
    expect_error("1d20r<21", 8, ENG_RANGE,
                 "`r<21` rerolls every face at column 5");
    expect_error("", 0, ENG_SYNTAX, "empty expression");
    expect_error(" \t ", 3, ENG_SYNTAX, "empty expression");

    char *parens = nest("(", 1000, "1", ")");
    expect_error(parens, strlen(parens), ENG_LIMIT,
                 "expression too long (limit is 256)");
    free(parens);
    /* short enough to pass the length check: the depth limit answers */
    parens = nest("(", 100, "1", ")");
    expect_error(parens, strlen(parens), ENG_LIMIT,
                 "nesting too deep (limit is 32)");
    free(parens);

    char *big = malloc(5000);
    assert_non_null(big);
    memset(big, '1', 5000);
    expect_error(big, 5000, ENG_LIMIT, "expression too long (limit is 256)");
    free(big);

    expect_error("1d6\0+2", 6, ENG_INVALID, "NUL byte at column 4");
    expect_error("\0", 1, ENG_INVALID, "NUL byte at column 1");
    expect_error("1d6 # \xff", 7, ENG_INVALID, "invalid UTF-8 at column 7");
    expect_error("\xc3\x28", 2, ENG_INVALID, "invalid UTF-8 at column 1");
    expect_error("1+\xc0\xaf", 4, ENG_INVALID, "invalid UTF-8 at column 3");
    expect_error("\xed\xa0\x80", 3, ENG_INVALID, "invalid UTF-8 at column 1");
    expect_error("1d6 # \xe2\x82", 8, ENG_INVALID, "invalid UTF-8 at column 7");
    expect_error("\xf4\x90\x80\x80", 4, ENG_INVALID,
                 "invalid UTF-8 at column 1");
    expect_error("1d6\x01", 4, ENG_SYNTAX,
                 "unexpected control character at column 4");
    expect_error("1d6 # a\x1b[2J", 11, ENG_SYNTAX,
                 "control character in label at column 8");
}

/* Each limit's ceiling itself is accepted. */
static void test_dice_parse_limits_at_ceiling(void **state)
{
    (void)state;
    char *s = nest("(", DICE_MAX_DEPTH, "1", ")");
    dice_expr_free(parse_ok(s));
    free(s);
    s = nest("-", DICE_MAX_DEPTH, "1", "");
    dice_expr_free(parse_ok(s));
    free(s);
    s = nest("1+", DICE_MAX_TERMS - 1, "1", "");
    dice_expr_free(parse_ok(s));
    free(s);
    dice_expr_free(parse_ok("1000d6"));
    dice_expr_free(parse_ok("500d6+500d6"));
    dice_expr_free(parse_ok("1d10000"));
    dice_expr_free(parse_ok("1000d6kh1000"));
    struct dice_expr *e = parse_ok("20x 1d6");
    assert_int_equal(dice_expr_repeat(e), DICE_MAX_REPEAT);
    dice_expr_free(e);

    char label[DICE_MAX_LABEL + 16] = "1d6 #";
    memset(label + 5, 'a', DICE_MAX_LABEL);
    label[5 + DICE_MAX_LABEL] = '\0';
    e = parse_ok(label);
    size_t len;
    assert_non_null(dice_expr_label(e, &len));
    assert_int_equal(len, DICE_MAX_LABEL);
    dice_expr_free(e);

    char longest[DICE_MAX_EXPR_LEN + 1];
    memset(longest, ' ', DICE_MAX_EXPR_LEN);
    longest[DICE_MAX_EXPR_LEN - 1] = '7';
    longest[DICE_MAX_EXPR_LEN] = '\0';
    dice_expr_free(parse_ok(longest));
}

static void test_dice_parse_accessors(void **state)
{
    (void)state;
    struct dice_expr *e = parse_ok("  3x 2d6+3 #  longsword  ");
    size_t len;
    const char *label = dice_expr_label(e, &len);
    assert_int_equal(len, 9);
    assert_memory_equal(label, "longsword", 9);
    assert_int_equal(dice_expr_repeat(e), 3);
    dice_expr_free(e);

    e = parse_ok("1d20");
    assert_null(dice_expr_label(e, &len));
    assert_int_equal(len, 0);
    assert_int_equal(dice_expr_repeat(e), 1);
    dice_expr_free(e);
    dice_expr_free(NULL);
}

static void test_dice_parse_simple_forms(void **state)
{
    (void)state;
    static const struct {
        const char *src;
        bool simple;
        int32_t count, sides;
        int64_t mod;
    } cases[] = {
        {"2d6+3", true, 2, 6, 3},     {"1d20-1", true, 1, 20, -1},
        {"d8", true, 1, 8, 0},        {"5", true, 0, 0, 5},
        {"3D", true, 3, 6, 0},        {"4d6kh3", false, 0, 0, 0},
        {"1d6+1d4", false, 0, 0, 0},  {"2*d6", false, 0, 0, 0},
        {"d6!", false, 0, 0, 0},      {"4dF", false, 0, 0, 0},
        {"1d6+2*3", false, 0, 0, 0},  {"10d10>=8", false, 0, 0, 0},
        {"1d20min10", false, 0, 0, 0}, {"2d6max5+1", false, 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct dice_expr *e = parse_ok(cases[i].src);
        struct dice_simple s = {-1, -1, -1};
        bool got = dice_expr_simple(e, &s);
        assert_int_equal(got, cases[i].simple);
        if (got) {
            assert_int_equal(s.count, cases[i].count);
            assert_int_equal(s.sides, cases[i].sides);
            assert_int_equal(s.modifier, cases[i].mod);
        }
        dice_expr_free(e);
    }
}

/* Bounds worked out by hand from the faces and counts. */
static void test_dice_parse_bounds_by_hand(void **state)
{
    (void)state;
    static const struct {
        const char *src;
        int64_t lo, hi;
    } cases[] = {
        {"1d20+5", 6, 25},
        {"4d6kh3", 3, 18},
        {"4d6dl1", 3, 18},
        {"2d6-1d4", -2, 11},
        {"10d10>=8f1", -10, 10},
        {"5d6=6", 0, 5},
        {"4dF", -4, 4},
        {"-1d6", -6, -1},
        {"(1d6+1)/2", 1, 3},
        {"1d6/(1d3-2)", -6, 6},     /* divisor may be -1, 0 or 1 */
        {"12/(1d3)", 4, 12},
        /* corners: -2*-1 = 2, -2*2 = -4, 3*-1 = -3, 3*2 = 6 */
        {"(1d6-3)*(1d4-2)", -4, 6},
        {"3d6!", 3, 3 * (1 + DICE_MAX_EXPLODE) * 6},
        {"1d20 adv", 1, 20},
        {"7", 7, 7},
        /* minN and maxN narrow each counted die to [N, top] or [1, N] */
        {"1d20min10", 10, 20},
        {"4d6min3kh3", 9, 18},
        {"2d6max4", 2, 8},
        {"3d8min2max7", 6, 21},
        {"4dFmin0", 0, 4},
        {"5d6min6>=6", 0, 5},       /* counting: still 0..5 successes */
        {"2d6min3!", 6, 2 * (1 + DICE_MAX_EXPLODE) * 6},
        /* the other bots' modifiers */
        {"3d6e6", 3, 36},           /* once: at most one bonus die each */
        /* sound, not tight: a bonus die may count 0, the first never */
        {"1d6!p", 0, (1 + DICE_MAX_EXPLODE) * 6},
        {"2d6!!kh1", 0, 2 * (1 + DICE_MAX_EXPLODE) * 6},
        {"4d6p1", 0, 24},
        {"4d6d1", 3, 18},
        {"1d20ra1", 1, 40},
        {"6d10 t7", 0, 6},
        {"4d10 t8ds10", 0, 8},
        {"5d10cf<3", 0, 5},
        {"6d6even", 0, 6},
        {"4d10 b1", 4, 40},         /* botches leave the sum alone */
        {"+d20", 1, 20},
        /* Dice Maiden's aliases: successes, minus the 1s for wod */
        {"4cod", 0, 4 * (1 + DICE_MAX_EXPLODE)},
        {"4wod8", -4, 4},
        {"3wh4+", 0, 3},
        {"sr6", 0, 6},
        {"dndstats", 3, 18},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct dice_expr *e = parse_ok(cases[i].src);
        int64_t lo = 0, hi = 0;
        assert_int_equal(dice_expr_bounds(e, &lo, &hi), ENG_OK);
        if (lo != cases[i].lo || hi != cases[i].hi)
            print_error("%s: [%lld, %lld]\n", cases[i].src, (long long)lo,
                        (long long)hi);
        assert_int_equal(lo, cases[i].lo);
        assert_int_equal(hi, cases[i].hi);
        dice_expr_free(e);
    }
    struct dice_expr *e = parse_ok("1/0");
    int64_t lo, hi;
    assert_int_equal(dice_expr_bounds(e, &lo, &hi), ENG_DIVZERO);
    dice_expr_free(e);
}

/* dice_eval_string is parse + roll: same seed, same dice, label from src. */
static void test_dice_parse_eval_string_matches(void **state)
{
    (void)state;
    static const char *const srcs[] = {
        "1d20+5", "4d6kh3 # stats", "10d10>=8f1", "3d6!", "4d6r1",
        "1d20+5 adv", "(2d8+3)*2", "4dF", "d%",
    };
    struct dice_result *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    assert_non_null(a);
    assert_non_null(b);
    for (size_t i = 0; i < sizeof srcs / sizeof srcs[0]; i++) {
        struct eng_rng r1, r2;
        eng_rng_seed(&r1, 99);
        eng_rng_seed(&r2, 99);
        struct dice_expr *e = parse_ok(srcs[i]);
        assert_int_equal(dice_roll(e, &r1, a, NULL), ENG_OK);
        assert_int_equal(dice_eval_string(srcs[i], strlen(srcs[i]), &r2, b,
                                          NULL),
                         ENG_OK);
        assert_int_equal(a->total, b->total);
        assert_int_equal(a->n_dice, b->n_dice);
        for (unsigned k = 0; k < a->n_dice; k++) {
            assert_int_equal(a->dice[k].value, b->dice[k].value);
            assert_int_equal(a->dice[k].flags, b->dice[k].flags);
        }
        if (b->label != NULL) {
            assert_true(b->label >= srcs[i] &&
                        b->label < srcs[i] + strlen(srcs[i]));
            assert_memory_equal(a->label, b->label, a->label_len);
        }
        dice_expr_free(e);
    }
    free(a);
    free(b);
}

/* Parsing makes exactly one allocation and reports its failure cleanly;
 * rolling and dice_eval_string make none. */
static void test_dice_parse_allocations(void **state)
{
    (void)state;
    const char *src = "6x 4d6kh3+1d20!>=19 # stats";
    struct dice_diag d = {0};
    struct dice_expr *e = NULL;
    alloc_calls = 0;
    assert_int_equal(dice_parse(src, strlen(src), &e, &d), ENG_OK);
    assert_int_equal(alloc_calls, 1);

    struct dice_result *r = malloc(sizeof *r);
    assert_non_null(r);
    struct eng_rng rng;
    eng_rng_seed(&rng, 3);
    alloc_calls = 0;
    for (int i = 0; i < 1000; i++) {
        assert_int_equal(dice_roll(e, &rng, r, &d), ENG_OK);
        assert_int_equal(dice_eval_string(src, strlen(src), &rng, r, &d),
                         ENG_OK);
    }
    assert_int_equal(alloc_calls, 0);
    dice_expr_free(e);

    struct dice_expr *sentinel = (struct dice_expr *)&d;
    e = sentinel;
    alloc_calls = 0;
    alloc_fail_at = 0;
    assert_int_equal(dice_parse(src, strlen(src), &e, &d), ENG_NOMEM);
    alloc_fail_at = -1;
    assert_ptr_equal(e, sentinel);
    assert_string_equal(d.msg, "out of memory");
    free(r);
}

/* Random strings over the language's own characters: every one either
 * parses and rolls, or fails with a message and a span inside the input.
 * Run under ASan this is a small fuzz test. */
static void test_dice_parse_random_input(void **state)
{
    (void)state;
    static const char alphabet[] = "0123456789dDfFkhlrox!<>=+-*/()%# a";
    struct eng_rng rng;
    eng_rng_seed(&rng, 31337);
    struct dice_result *r = malloc(sizeof *r);
    assert_non_null(r);
    long parsed = 0;
    for (int i = 0; i < 20000; i++) {
        char src[40];
        size_t len = (size_t)eng_rng_range(&rng, 0, sizeof src - 1);
        for (size_t k = 0; k < len; k++)
            src[k] = alphabet[eng_rng_below(&rng, sizeof alphabet - 1)];
        src[len] = '\0';
        struct dice_diag d = {0};
        memset(&d, 0xAB, sizeof d);
        d.tr = NULL;            /* the caller's input: English */
        d.tr_ctx = NULL;
        enum eng_err err = dice_eval_string(src, len, &rng, r, &d);
        if (err == ENG_OK) {
            parsed++;
            continue;
        }
        assert_int_equal(d.code, err);
        assert_true(strlen(d.msg) > 0 && strlen(d.msg) < sizeof d.msg);
        assert_true(d.pos <= len && d.pos + d.len <= len + 1);
    }
    free(r);
    print_message("%ld of 20000 random strings were valid\n", parsed);
    assert_true(parsed > 0);
}

/* Dice followed by words: the words name the roll, as in other bots;
 * words that mean to change the roll are never taken as a name. */
static void test_dice_split_label(void **state)
{
    (void)state;
    static const struct {
        const char *src, *dice, *label;   /* dice NULL: no split */
    } cases[] = {
        {"2d6+3 fire", "2d6+3", "fire"},
        {"2d6 + 3 fire damage", "2d6 + 3", "fire damage"},
        {"1d20+5 adv Stealth", "1d20+5 adv", "Stealth"},
        {"d20   to hit", "d20", "to hit"},
        {"4d6kh3", NULL, NULL},          /* whole dice */
        {"1d20+5 adv", NULL, NULL},
        {"2d6 # fire", NULL, NULL},      /* the # label is the parser's */
        {"d20 advantage", NULL, NULL},   /* meant adv: an error, not a name */
        {"d20 disadv", NULL, NULL},
        {"fire", NULL, NULL},            /* no dice at all */
        {"2d6 3", NULL, NULL},           /* a number is no word */
        {"2d6+ fire", NULL, NULL},       /* the dice part is broken */
        {"", NULL, NULL},
        /* the other bots' words do not swallow a label */
        {"2d6 even", "2d6", "even"},     /* even/odd only written on */
        {"8d6 Fireball", "8d6", "Fireball"},
        {"4d6 drop lowest", "4d6", "drop lowest"},
        {"2d6 ! Fire damage", "2d6 !", "Fire damage"},
        {"1d20+5 Roll for Initiative", "1d20+5", "Roll for Initiative"},
        {"1d20 spot check", "1d20", "spot check"},   /* sp is an alias */
        {"2d6 sword", "2d6", "sword"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t dl = 0, at = 0;
        const char *s = cases[i].src;
        bool split = dice_split_label(s, strlen(s), &dl, &at);
        if (cases[i].dice == NULL) {
            if (split)
                fail_msg("\"%s\" was split", s);
            continue;
        }
        if (!split)
            fail_msg("\"%s\" was not split", s);
        assert_int_equal(dl, strlen(cases[i].dice));
        assert_memory_equal(s, cases[i].dice, dl);
        assert_string_equal(s + at, cases[i].label);
    }
}

/* One expression in each dialect: the total of seed 1 and the notes set.
 * The doc table (test_dice_doc) covers what each bot writes; this checks
 * the readings that differ, one note each. */
static void test_dice_parse_dialects(void **state)
{
    (void)state;
    static const struct {
        const char *src;
        enum dice_dialect d;
        uint32_t notes;
    } cases[] = {
        {"3d6 e6", DICE_DIALECT_FRAY, DICE_NOTE_E_ONCE},
        {"3d6 e6", DICE_DIALECT_AVRAE, DICE_NOTE_E_AGAIN},
        {"4d6r1", DICE_DIALECT_FRAY, DICE_NOTE_R_AGAIN},
        {"4d6r1", DICE_DIALECT_FOUNDRY, DICE_NOTE_R_ONCE},
        {"4d6 r2", DICE_DIALECT_DICE_MAIDEN,
         DICE_NOTE_R_ONCE | DICE_NOTE_AT_MOST},
        {"4d6 r1", DICE_DIALECT_DICE_MAIDEN, DICE_NOTE_R_ONCE},
        {"4d6k3", DICE_DIALECT_FRAY, DICE_NOTE_K_HIGHEST},
        {"4d6kh3", DICE_DIALECT_FRAY, 0},
        {"4d6k3", DICE_DIALECT_AVRAE, DICE_NOTE_K_FACE},
        {"10d10>=8", DICE_DIALECT_FRAY, DICE_NOTE_CMP_COUNT},
        {"2d6 > 7", DICE_DIALECT_AVRAE, DICE_NOTE_CMP_TOTAL},
        {"4d10f3", DICE_DIALECT_FRAY, DICE_NOTE_F_EQUAL},
        {"4d10f1", DICE_DIALECT_FRAY, 0},   /* f1 reads alike everywhere */
        {"4d10 f3", DICE_DIALECT_DICE_MAIDEN, DICE_NOTE_AT_MOST},
        {"6d10 t7", DICE_DIALECT_FRAY, DICE_NOTE_T_TARGET},
        {"1d10t10", DICE_DIALECT_SIDEKICK, DICE_NOTE_T_TWICE},
        {"5d10cs>=8", DICE_DIALECT_FRAY, DICE_NOTE_CS_COUNT},
        {"5d10cs>=8", DICE_DIALECT_ROLL20, DICE_NOTE_CS_MARK},
        {"+d20", DICE_DIALECT_FRAY, DICE_NOTE_PLUS_ADV},
        {"+d20", DICE_DIALECT_ROLL20, 0},
        {"1+d20", DICE_DIALECT_FRAY, 0},    /* only at the start */
        {"-d20", DICE_DIALECT_FRAY, DICE_NOTE_MINUS_NEG},
        {"-d20", DICE_DIALECT_DICE_MAIDEN, DICE_NOTE_MINUS_DIS},
        {"2d6 !", DICE_DIALECT_FRAY, DICE_NOTE_BANG_EXPLODE},
        {"2d6!", DICE_DIALECT_FRAY, 0},
        {"2d6 ! Fire", DICE_DIALECT_DICE_MAIDEN, DICE_NOTE_BANG_COMMENT},
        {"4d6d1 [fire] + 2", DICE_DIALECT_FRAY, 0},
    };
    struct dice_result *r = malloc(sizeof *r);
    assert_non_null(r);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct eng_rng rng;
        struct dice_diag d = {0};
        eng_rng_seed(&rng, 1);
        const char *s = cases[i].src;
        if (dice_eval_string_as(s, strlen(s), cases[i].d, &rng, r, &d) !=
            ENG_OK)
            fail_msg("`%s` (%s): %s", s, dice_dialect_name(cases[i].d),
                     d.msg);
        if (r->notes != cases[i].notes)
            fail_msg("`%s` (%s): notes %#x, want %#x", s,
                     dice_dialect_name(cases[i].d), r->notes,
                     cases[i].notes);
    }
    free(r);
    /* names, in any case; every note has words */
    enum dice_dialect d;
    assert_true(dice_dialect_parse("DiceMaiden", 10, &d));
    assert_int_equal(d, DICE_DIALECT_DICE_MAIDEN);
    assert_false(dice_dialect_parse("maiden", 6, &d));
    assert_null(dice_dialect_name(DICE_DIALECT_COUNT));
    for (unsigned b = 0; b < DICE_NOTE_COUNT; b++)
        assert_non_null(dice_note_text((enum dice_note)(1u << b)));
    assert_null(dice_note_text((enum dice_note)0));
}

/* The other bots' forms that fray refuses, with the column and a hint. */
static void test_dice_parse_other_bots_refused(void **state)
{
    (void)state;
    static const struct {
        const char *src;
        enum dice_dialect d;
        const char *msg;
    } cases[] = {
        {"2d6 ; 3d8", DICE_DIALECT_DICE_MAIDEN,
         "unexpected `;` at column 5 (one expression per roll: Dice "
         "Maiden's `;` is not read)"},
        {"{2d20}kh1", DICE_DIALECT_ROLL20,
         "unexpected `{` at column 1 (groups are not read: `2d20kh1` keeps "
         "the higher of two)"},
        {"2^3", DICE_DIALECT_SIDEKICK,
         "unexpected `^` at column 2 (no powers: write `*`)"},
        {"1d6 [fire", DICE_DIALECT_FRAY, "unclosed `[` at column 5"},
        {"1d6 [a\tb]", DICE_DIALECT_FRAY,
         "control character in `[...]` at column 7"},
        {"1d6]", DICE_DIALECT_FRAY, "unexpected `]` at column 4"},
        {"1d6!!!", DICE_DIALECT_FRAY, "`!` is a second explosion at column 6"},
        {"1d6 e6 x", DICE_DIALECT_FRAY, "`x` is a second explosion at column 8"},
        {"1d1ie", DICE_DIALECT_FRAY, "`ie` explodes on every face at column 4"},
        {"1d6rr<7", DICE_DIALECT_FRAY, "`rr<7` rerolls every face at column 4"},
        {"1d6r", DICE_DIALECT_FRAY, "unexpected end of expression at column 5"},
        {"4d6kh1d1", DICE_DIALECT_FRAY, "`d` is a second keep or drop at column 7"},
        {"4d6p", DICE_DIALECT_FRAY, "unexpected end of expression at column 5"},
        {"repeat(1d6, 21)", DICE_DIALECT_SIDEKICK,
         "too many repeats (limit is 20)"},
        {"repeat(1d6)", DICE_DIALECT_SIDEKICK,
         "unexpected `)` at column 11"},
        {"21 1d6", DICE_DIALECT_DICE_MAIDEN, "too many repeats (limit is 20)"},
        {"[[1d20", DICE_DIALECT_ROLL20, "unexpected `[[` at column 1"},
        {"1d20+5 >= 15", DICE_DIALECT_FRAY, "unexpected `>=` at column 8"},
        {"1d6ra1ra2", DICE_DIALECT_AVRAE,
         "`ra` is a second reroll-and-add at column 7"},
        {"5d10t7ds10ds9", DICE_DIALECT_FRAY,
         "`ds` is a second double success at column 11"},
        /* Dice Maiden's aliases */
        {"cod", DICE_DIALECT_DICE_MAIDEN,
         "`cod` needs the number of dice before it, as in `4cod` at column 1"},
        {"4wod", DICE_DIALECT_DICE_MAIDEN,
         "`wod` needs a number right after it at column 2"},
        {"4wod11", DICE_DIALECT_DICE_MAIDEN, "`wod` takes 2 to 10 at column 5"},
        {"4cod7", DICE_DIALECT_DICE_MAIDEN, "`cod` takes 8 to 9 at column 5"},
        {"sr", DICE_DIALECT_DICE_MAIDEN,
         "`sr` needs the number of dice right after it at column 1"},
        {"sr1001", DICE_DIALECT_FRAY, "too many dice (limit is 1000)"},
        {"dndstatsx", DICE_DIALECT_FRAY, "unexpected `n` at column 2"},
        {"6 dndstats", DICE_DIALECT_FRAY, "unexpected `n` at column 4"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct dice_expr *e = NULL;
        struct dice_diag d = {0};
        const char *s = cases[i].src;
        if (dice_parse_as(s, strlen(s), cases[i].d, &e, &d) == ENG_OK) {
            dice_expr_free(e);
            fail_msg("`%s` parsed", s);
        }
        if (strcmp(d.msg, cases[i].msg) != 0)
            fail_msg("`%s`: \"%s\", want \"%s\"", s, d.msg, cases[i].msg);
    }
}

/* Repeats: fray's "6x", Dice Maiden's "6 4d6" (and, in its dialect,
 * "6 d20"), Sidekick's repeat(expr, N); the expression's span leaves the
 * count out. A count then a die with a space stays one term in fray. */
static void test_dice_parse_repeats(void **state)
{
    (void)state;
    static const struct {
        const char *src;
        enum dice_dialect d;
        unsigned repeat;
        const char *expr;
    } cases[] = {
        {"6x 4d6", DICE_DIALECT_FRAY, 6, "4d6"},
        {"6 4d6 k3", DICE_DIALECT_FRAY, 6, "4d6 k3"},
        {"6 (1d6)", DICE_DIALECT_FRAY, 6, "(1d6)"},
        {"2 d6", DICE_DIALECT_FRAY, 1, "2 d6"},
        {"2 d6", DICE_DIALECT_DICE_MAIDEN, 2, "d6"},
        {"repeat (4d6k3, 6)", DICE_DIALECT_FRAY, 6, "4d6k3"},
        {"REPEAT(1d20 + 1, 3) # init", DICE_DIALECT_SIDEKICK, 3, "1d20 + 1"},
        {"[[ 3x 1d6 ]]", DICE_DIALECT_ROLL20, 3, "1d6"},
        {"[[/roll 1d20+5]]", DICE_DIALECT_FOUNDRY, 1, "1d20+5"},
        {"3d6 [fire] + 1d4 [piercing]", DICE_DIALECT_FRAY, 1,
         "3d6 [fire] + 1d4 [piercing]"},
        {"dndstats # me", DICE_DIALECT_FRAY, 6, "dndstats"},
        {"3 4cod", DICE_DIALECT_DICE_MAIDEN, 3, "4cod"},
    };
    struct dice_result *r = malloc(sizeof *r);
    assert_non_null(r);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct dice_expr *e = NULL;
        struct dice_diag d = {0};
        struct eng_rng rng;
        const char *s = cases[i].src;
        if (dice_parse_as(s, strlen(s), cases[i].d, &e, &d) != ENG_OK)
            fail_msg("`%s`: %s", s, d.msg);
        eng_rng_seed(&rng, 1);
        assert_int_equal(dice_roll(e, &rng, r, &d), ENG_OK);
        if (dice_expr_repeat(e) != cases[i].repeat ||
            r->expr_len != strlen(cases[i].expr) ||
            memcmp(s + r->expr_pos, cases[i].expr, r->expr_len) != 0)
            fail_msg("`%s`: %u repeats of `%.*s`", s, dice_expr_repeat(e),
                     (int)r->expr_len, s + r->expr_pos);
        dice_expr_free(e);
    }
    free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dice_parse_abuse_inputs),
        cmocka_unit_test(test_dice_parse_limits_at_ceiling),
        cmocka_unit_test(test_dice_parse_accessors),
        cmocka_unit_test(test_dice_parse_simple_forms),
        cmocka_unit_test(test_dice_parse_bounds_by_hand),
        cmocka_unit_test(test_dice_parse_eval_string_matches),
        cmocka_unit_test(test_dice_parse_allocations),
        cmocka_unit_test(test_dice_parse_random_input),
        cmocka_unit_test(test_dice_split_label),
        cmocka_unit_test(test_dice_parse_dialects),
        cmocka_unit_test(test_dice_parse_other_bots_refused),
        cmocka_unit_test(test_dice_parse_repeats),
    };
    return cmocka_run_group_tests_name("dice_parse", tests, NULL, NULL);
}
