/* Tests for render_dice (text and Discord), render_dice_error, dice_json,
 * and `fray roll` end to end. Results are built by hand where the exact
 * text matters, so the expected strings do not depend on the roller. */
#include "support.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "dice.h"
#include "dice_json.h"
#include "render_dice.h"
#include "render_roll.h"
#include "render_text.h"
#include "sbuf.h"

/* A hand-made result: one group per call to add_group(). */
static void begin(struct dice_result *r, const char *src, int64_t total)
{
    memset(r, 0, sizeof *r);
    r->expr_len = (uint16_t)strlen(src);
    r->total = total;
    const char *hash = strchr(src, '#');
    if (hash != NULL) {
        size_t end = (size_t)(hash - src);
        while (end > 0 && src[end - 1] == ' ')
            end--;
        r->expr_len = (uint16_t)end;
        r->label = hash + 2;
        r->label_len = (uint16_t)strlen(hash + 2);
    }
}

static void add_group(struct dice_result *r, const char *src, const char *term,
                      int32_t sides, const struct dice_die *dice, int n,
                      int64_t subtotal)
{
    struct dice_group *g = &r->groups[r->n_groups++];
    g->pos = (uint16_t)(strstr(src, term) - src);
    g->len = (uint16_t)strlen(term);
    g->first = r->n_dice;
    g->count = (uint16_t)n;
    g->sides = sides;
    g->subtotal = subtotal;
    for (int i = 0; i < n; i++) {
        r->dice[r->n_dice++] = dice[i];
        g->counting |= (dice[i].flags & (DICE_DIE_SUCCESS |
                                         DICE_DIE_FAILURE)) != 0;
    }
}

/* The text of `fray roll` and Discord's markdown, and one set of marks:
 * the markdown shown as text (the console) is the text, character for
 * character. */
static void check_both(const char *src, const struct dice_result *r, size_t n,
                       const char *text, const char *discord)
{
    char buf[RENDER_DISCORD_MAX + 1];
    render_dice(buf, sizeof buf, RENDER_DICE_TEXT, I18N_EN, src, strlen(src),
                r, n);
    assert_string_equal(buf, text);
    render_dice(buf, sizeof buf, RENDER_DICE_DISCORD, I18N_EN, src,
                strlen(src), r, n);
    assert_string_equal(buf, discord);
    render_dice(buf, sizeof buf, RENDER_DICE_MARKDOWN, I18N_EN, src,
                strlen(src), r, n);
    assert_string_equal(buf, discord);
    struct sbuf shown;
    sbuf_init(&shown, RENDER_TEXT_MAX);
    render_text_markdown(discord, NULL, &shown);
    assert_string_equal(sbuf_str(&shown), text);
    sbuf_cleanup(&shown);
}

static void test_render_dice_marks(void **state)
{
    (void)state;
    struct dice_result *r = malloc(sizeof *r);
    assert_non_null(r);

    const char *src = "1d20+5 adv";
    const struct dice_die adv[] = {{20, DICE_DIE_MAX, 20},
                                   {1, DICE_DIE_MIN | DICE_DIE_DROPPED, 1}};
    begin(r, src, 25);
    add_group(r, src, "1d20", 20, adv, 2, 20);
    check_both(src, r, 1, "1d20 (20, (1))+5 adv = 25",
               "1d20 (**20**, ~~(1)~~)+5 adv = **25**");

    src = "3d6!+1d6r1";
    const struct dice_die ex[] = {{6, DICE_DIE_MAX | DICE_DIE_EXPLODED, 6},
                                  {2, DICE_DIE_BONUS, 2}, {5, 0, 5},
                                  {1, DICE_DIE_MIN | DICE_DIE_REROLLED, 1},
                                  {4, 0, 4}};
    begin(r, src, 17);
    add_group(r, src, "3d6!", 6, ex, 3, 13);
    add_group(r, src, "1d6r1", 6, ex + 3, 2, 4);
    check_both(src, r, 1, "3d6! (6!, 2, 5)+1d6r1 ((1r), 4) = 17",
               "3d6! (**6**!, 2, 5)+1d6r1 (~~(1r)~~, 4) = **17**");

    src = "3d10>=8f1";
    const struct dice_die pool[] = {{8, DICE_DIE_SUCCESS, 8},
                                    {1, DICE_DIE_FAILURE | DICE_DIE_MIN, 1},
                                    {10, DICE_DIE_SUCCESS | DICE_DIE_MAX, 10}};
    begin(r, src, 1);
    add_group(r, src, src, 10, pool, 3, 1);
    check_both(src, r, 1, "3d10>=8f1 (8*, 1x, 10*) = 1",
               "3d10>=8f1 (**8\\***, _1x_, **10\\***) = **1**");
    free(r);
}

/* minN and maxN: a die shows the face it rolled, an arrow, and what it
 * counts for, in text and on Discord, struck or emphasised as any die. */
static void test_render_dice_raised(void **state)
{
    (void)state;
    struct dice_result *r = malloc(sizeof *r);
    assert_non_null(r);

    const char *src = "1d20min10+2";
    const struct dice_die nat1[] = {
        {10, DICE_DIE_MIN | DICE_DIE_RAISED, 1}};
    begin(r, src, 12);
    add_group(r, src, "1d20min10", 20, nat1, 1, 10);
    check_both(src, r, 1, "1d20min10 (1\u219210)+2 = 12",
               "1d20min10 (_1\u219210_)+2 = **12**");

    src = "2d20min5kh1";
    const struct dice_die kh[] = {
        {5, DICE_DIE_MIN | DICE_DIE_RAISED | DICE_DIE_DROPPED, 1},
        {12, 0, 12}};
    begin(r, src, 12);
    add_group(r, src, src, 20, kh, 2, 12);
    check_both(src, r, 1, "2d20min5kh1 ((1\u21925), 12) = 12",
               "2d20min5kh1 (~~(1\u21925)~~, 12) = **12**");

    src = "3d6max4>=4";
    const struct dice_die low[] = {
        {4, DICE_DIE_MAX | DICE_DIE_LOWERED | DICE_DIE_SUCCESS, 6},
        {3, 0, 3},
        {4, DICE_DIE_LOWERED | DICE_DIE_SUCCESS, 5}};
    begin(r, src, 2);
    add_group(r, src, src, 6, low, 3, 2);
    check_both(src, r, 1, "3d6max4>=4 (6\u21924*, 3, 5\u21924*) = 2",
               "3d6max4>=4 (**6\u21924\\***, 3, **5\u21924\\***) = **2**");

    /* JSON keeps both numbers and says which way the die moved */
    src = "1d20min10+2";
    begin(r, src, 12);
    add_group(r, src, "1d20min10", 20, nat1, 1, 10);
    json_t *j = dice_json_rolls(src, strlen(src), r, 1);
    assert_non_null(j);
    json_t *roll = json_array_get(json_object_get(j, "rolls"), 0);
    json_t *term = json_array_get(json_object_get(roll, "terms"), 0);
    json_t *d0 = json_array_get(json_object_get(term, "dice"), 0);
    assert_int_equal(json_integer_value(json_object_get(d0, "value")), 10);
    assert_int_equal(json_integer_value(json_object_get(d0, "rolled")), 1);
    assert_string_equal(json_string_value(json_object_get(d0, "shown")),
                        "1\u219210");
    assert_true(json_is_true(json_object_get(d0, "raised")));
    assert_true(json_is_false(json_object_get(d0, "lowered")));
    assert_true(json_is_true(json_object_get(d0, "min")));
    json_decref(j);
    free(r);
}

/* A recorded roll (render_roll) shows a raised or lowered die the same way:
 * the face it showed, the arrow, what it counts for. */
static void test_render_dice_recorded_raised(void **state)
{
    (void)state;
    const struct dice_die dice[] = {
        {10, DICE_DIE_MIN | DICE_DIE_RAISED, 1},
        {4, DICE_DIE_LOWERED, 5}, {2, 0, 2}};
    const struct enc_term terms[] = {
        {.pos = 0, .len = 9, .first = 0, .count = 1, .sides = 20,
         .subtotal = 10},
        {.pos = 10, .len = 7, .first = 1, .count = 2, .sides = 6,
         .subtotal = 6}};
    const struct enc_roll roll = {
        .label = "attack", .expr = "1d20min10+2d6max4", .total = 16,
        .terms = terms, .nterms = 2, .dice = dice, .ndice = 3};
    struct sbuf b;
    sbuf_init(&b, 1000);
    render_roll_faces(&b, &roll, I18N_EN);
    assert_string_equal(sbuf_str(&b), "[_1\u219210_]+[5\u21924, 2]");
    sbuf_cleanup(&b);
}

static void test_render_dice_label_and_escapes(void **state)
{
    (void)state;
    struct dice_result *r = malloc(sizeof *r);
    assert_non_null(r);
    const char *src = "2d6*2 # my_axe";
    const struct dice_die d[] = {{3, 0, 3}, {4, 0, 4}};
    begin(r, src, 14);
    add_group(r, src, "2d6", 6, d, 2, 7);
    check_both(src, r, 1, "my_axe: 2d6 (3, 4)*2 = 14",
               "**my\\_axe**: 2d6 (3, 4)\\*2 = **14**");

    /* repeats: one line each after the label */
    src = "2x 1d6 # hp";
    struct dice_result *two = calloc(2, sizeof *two);
    assert_non_null(two);
    const struct dice_die a = {5, 0, 5}, b = {6, DICE_DIE_MAX, 6};
    begin(&two[0], src, 5);
    two[0].expr_pos = 3;
    two[0].expr_len = 3;
    add_group(&two[0], src, "1d6", 6, &a, 1, 5);
    begin(&two[1], src, 6);
    two[1].expr_pos = 3;
    two[1].expr_len = 3;
    add_group(&two[1], src, "1d6", 6, &b, 1, 6);
    check_both(src, two, 2, "hp\n#1 1d6 (5) = 5\n#2 1d6 (6) = 6",
               "**hp**\n#1 1d6 (5) = **5**\n#2 1d6 (**6**) = **6**");
    free(two);
    free(r);
}

/* Sum the "face: count" pairs of a collapsed pool. */
static long histogram_total(const char *s)
{
    const char *p = strstr(s, "dice; ");
    assert_non_null(p);
    long sum = 0;
    for (p += 6; *p != '\0' && *p != ')';) {
        int face, count, used;
        if (sscanf(p, "%d: %d%n", &face, &count, &used) != 2)
            break;
        sum += count;
        p += used;
        if (strncmp(p, ", ", 2) == 0)
            p += 2;
    }
    return sum;
}

/* Real rolls, too long to list: output stays within Discord's limit,
 * collapses with a note, and keeps every total. */
static void test_render_dice_fits_discord(void **state)
{
    (void)state;
    struct dice_result *res = malloc(DICE_MAX_REPEAT * sizeof *res);
    assert_non_null(res);
    char buf[8192];
    struct eng_rng rng;
    eng_rng_seed(&rng, 5);

    const char *src = "1000d6";
    assert_int_equal(dice_eval_string(src, strlen(src), &rng, res, NULL),
                     ENG_OK);
    size_t n = render_dice(buf, sizeof buf, RENDER_DICE_DISCORD, I18N_EN, src,
                           strlen(src), res, 1);
    assert_int_equal(n, strlen(buf));
    assert_true(n <= RENDER_DISCORD_MAX);
    assert_non_null(strstr(buf, "long pools shown as counts"));
    assert_int_equal(histogram_total(buf), 1000);
    char total[32];
    snprintf(total, sizeof total, "= **%lld**", (long long)res[0].total);
    assert_non_null(strstr(buf, total));

    /* 20 results of a long expression: only totals fit */
    char longsrc[DICE_MAX_EXPR_LEN + 1] = "20x ";
    while (strlen(longsrc) + 6 < DICE_MAX_EXPR_LEN)
        strcat(longsrc, "1d6+");
    strcat(longsrc, "1");
    struct dice_expr *e = NULL;
    struct dice_diag d = {0};
    assert_int_equal(dice_parse(longsrc, strlen(longsrc), &e, &d), ENG_OK);
    assert_int_equal(dice_expr_repeat(e), 20);
    for (int i = 0; i < 20; i++)
        assert_int_equal(dice_roll(e, &rng, &res[i], &d), ENG_OK);
    dice_expr_free(e);
    n = render_dice(buf, sizeof buf, RENDER_DICE_DISCORD, I18N_EN, longsrc,
                    strlen(longsrc), res, 20);
    assert_true(n <= RENDER_DISCORD_MAX);
    for (int i = 0; i < 20; i++) {
        snprintf(total, sizeof total, "**%lld**", (long long)res[i].total);
        assert_non_null(strstr(buf, total));
    }
    assert_non_null(strstr(buf, "left out to fit"));

    /* a tiny buffer is cut, never overrun */
    n = render_dice(buf, 16, RENDER_DICE_TEXT, I18N_EN, longsrc,
                    strlen(longsrc), res, 20);
    assert_true(n <= 15);
    assert_int_equal(strlen(buf), n);
    free(res);
}

static void test_render_dice_error_caret(void **state)
{
    (void)state;
    char buf[RENDER_DISCORD_MAX + 1];
    struct dice_diag d = {.code = ENG_SYNTAX, .pos = 4, .len = 1,
                          .msg = "unexpected `*` at column 5"};
    render_dice_error(buf, sizeof buf, RENDER_DICE_TEXT, I18N_EN, "1d6+*3", 6,
                      &d);
    assert_string_equal(buf, "error: unexpected `*` at column 5\n"
                             "  1d6+*3\n"
                             "      ^\n");
    render_dice_error(buf, sizeof buf, RENDER_DICE_DISCORD, I18N_EN, "1d6+*3",
                      6, &d);
    assert_string_equal(buf, "error: unexpected `*` at column 5\n"
                             "```\n1d6+*3\n    ^\n```");

    /* a multi-byte character before the culprit is one column wide */
    struct dice_diag u = {.code = ENG_SYNTAX, .pos = 3, .len = 2,
                          .msg = "unexpected `é` at column 4"};
    render_dice_error(buf, sizeof buf, RENDER_DICE_TEXT, I18N_EN, "1d6é", 5,
                      &u);
    assert_string_equal(buf, "error: unexpected `é` at column 4\n"
                             "  1d6é\n"
                             "     ^\n");

    /* bytes that cannot be shown become '?' */
    struct dice_diag bad = {.code = ENG_INVALID, .pos = 1, .len = 1,
                            .msg = "invalid UTF-8 at column 2"};
    render_dice_error(buf, sizeof buf, RENDER_DICE_TEXT, I18N_EN, "1\xff\x01",
                      3, &bad);
    assert_string_equal(buf, "error: invalid UTF-8 at column 2\n"
                             "  1??\n"
                             "   ^\n");

    /* a very long input is shown cut, caret included */
    char *big = malloc(5000);
    assert_non_null(big);
    memset(big, '1', 5000);
    struct dice_diag lim = {.code = ENG_LIMIT, .pos = DICE_MAX_EXPR_LEN,
                            .len = 1,
                            .msg = "expression too long (limit is 256)"};
    size_t n = render_dice_error(buf, sizeof buf, RENDER_DICE_DISCORD, I18N_EN,
                                 big, 5000, &lim);
    assert_true(n <= RENDER_DISCORD_MAX);
    const char *caret = strchr(buf, '^');
    assert_non_null(caret);
    const char *line = caret;
    while (line > buf && line[-1] != '\n')
        line--;
    assert_int_equal(caret - line, DICE_MAX_EXPR_LEN);
    free(big);
}

static void test_render_dice_json(void **state)
{
    (void)state;
    struct dice_result *r = malloc(sizeof *r);
    assert_non_null(r);
    const char *src = "1d20+5 adv # hit";
    const struct dice_die adv[] = {{20, DICE_DIE_MAX, 20},
                                   {3, DICE_DIE_DROPPED, 3}};
    begin(r, src, 25);
    add_group(r, src, "1d20", 20, adv, 2, 20);
    json_t *j = dice_json_rolls(src, strlen(src), r, 1);
    assert_non_null(j);
    assert_string_equal(json_string_value(json_object_get(j, "expr")), src);
    assert_string_equal(json_string_value(json_object_get(j, "label")), "hit");
    json_t *roll = json_array_get(json_object_get(j, "rolls"), 0);
    assert_int_equal(json_integer_value(json_object_get(roll, "total")), 25);
    json_t *term = json_array_get(json_object_get(roll, "terms"), 0);
    assert_string_equal(json_string_value(json_object_get(term, "text")),
                        "1d20");
    assert_int_equal(json_integer_value(json_object_get(term, "subtotal")),
                     20);
    json_t *dice = json_object_get(term, "dice");
    assert_int_equal(json_array_size(dice), 2);
    json_t *d0 = json_array_get(dice, 0), *d1 = json_array_get(dice, 1);
    assert_true(json_is_true(json_object_get(d0, "kept")));
    assert_true(json_is_true(json_object_get(d0, "max")));
    assert_true(json_is_false(json_object_get(d1, "kept")));
    assert_true(json_is_true(json_object_get(d1, "dropped")));
    assert_int_equal(json_integer_value(json_object_get(d1, "value")), 3);
    json_decref(j);

    struct dice_diag d = {.code = ENG_SYNTAX, .pos = 4, .len = 1,
                          .msg = "unexpected `*` at column 5"};
    j = dice_json_error("1d6+*3\xff", 7, &d);
    assert_non_null(j);
    json_t *err = json_object_get(j, "error");
    assert_string_equal(json_string_value(json_object_get(err, "code")),
                        "SYNTAX");
    assert_int_equal(json_integer_value(json_object_get(err, "column")), 5);
    assert_string_equal(json_string_value(json_object_get(j, "expr")),
                        "1d6+*3?");
    json_decref(j);
    free(r);
}

/* Run fray with args, capturing stdout and stderr; returns the exit code. */
static int run_fray(const char *args, char *out, size_t cap)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s %s 2>&1", FRAY_BINARY, args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, cap - 1, p);
    out[n] = '\0';
    int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The faces for seed 1 come from the same independent model as the case
 * files (tests/data/dice/README.md): d6 5 4 4 3, so 4d6kh3 = 13 and
 * 2d6+3 = 12. */
static void test_render_dice_fray_roll(void **state)
{
    (void)state;
    char out[4096];
    int rc = run_fray("roll --seed 1 '4d6kh3'", out, sizeof out);
    assert_int_equal(rc, 0);
    assert_string_equal(out, "4d6kh3 (5, 4, 4, (3)) = 13\n");

    rc = run_fray("roll --seed 1 '1d6+*3'", out, sizeof out);
    assert_int_equal(rc, 1);
    assert_string_equal(out, "error: unexpected `*` at column 5\n"
                             "  1d6+*3\n"
                             "      ^\n");

    rc = run_fray("roll --seed 1 --json '2d6+3 # axe'", out, sizeof out);
    assert_int_equal(rc, 0);
    json_error_t jerr;
    json_t *j = json_loads(out, 0, &jerr);
    assert_non_null(j);
    json_t *roll = json_array_get(json_object_get(j, "rolls"), 0);
    assert_int_equal(json_integer_value(json_object_get(roll, "total")), 12);
    json_decref(j);

    rc = run_fray("roll --bogus 1d6", out, sizeof out);
    assert_int_equal(rc, 2);
}

/* One set of marks: `fray roll --seed 42` of the dice that
 * tests/transcripts/dice_marks.txt rolls through the console's /roll (the
 * same seed, so the same faces) prints each line the console printed, and
 * that transcript's attacks show their pools' dice the same way. */
static void test_render_dice_same_marks_everywhere(void **state)
{
    (void)state;
    static char out[8192], golden[65536];
    int rc = run_fray("roll --seed 42 '4d6!' '6d10>=7f1' '10d10>=8f1' "
                      "'4d6kh3' '2d20min10kh1+5' '60d10>=8f1'",
                      out, sizeof out);
    assert_int_equal(rc, 0);
    FILE *f = fopen(FRAY_SOURCE_DIR "/tests/transcripts/dice_marks.out",
                    "rb");
    assert_non_null(f);
    size_t n = fread(golden, 1, sizeof golden - 1, f);
    fclose(f);
    golden[n] = '\0';
    int lines = 0;
    char *save = NULL;
    for (char *line = strtok_r(out, "\n", &save); line != NULL;
         line = strtok_r(NULL, "\n", &save)) {
        char want[1024];
        snprintf(want, sizeof want, "\n%s\n", line);
        if (strstr(golden, want) == NULL)
            fail_msg("fray roll printed \"%s\", which /roll in "
                     "dice_marks.out does not", line);
        lines += line[0] != '(';   /* a note on how a roll was read */
    }
    assert_int_equal(lines, 6);
}

/* Numbers as printf's "%*" PRId64 writes them, the extremes included:
 * the renderers' own conversion replaced snprintf. */
static void test_render_int_as_printf(void **state)
{
    (void)state;
    static const int64_t vals[] = {0, 7, -7, 42, 100, -100, 99999,
                                   INT64_MAX, INT64_MIN};
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        for (int width = 0; width <= 4; width++) {
            char want[64];
            struct sbuf b;
            sbuf_init(&b, 64);
            sbuf_add(&b, "x");
            render_int(&b, vals[i], width);
            snprintf(want, sizeof want, "x%*" PRId64, width, vals[i]);
            assert_string_equal(sbuf_str(&b), want);
            sbuf_cleanup(&b);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_render_dice_marks),
        cmocka_unit_test(test_render_dice_raised),
        cmocka_unit_test(test_render_dice_recorded_raised),
        cmocka_unit_test(test_render_dice_label_and_escapes),
        cmocka_unit_test(test_render_dice_fits_discord),
        cmocka_unit_test(test_render_dice_error_caret),
        cmocka_unit_test(test_render_dice_json),
        cmocka_unit_test(test_render_dice_fray_roll),
        cmocka_unit_test(test_render_dice_same_marks_everywhere),
        cmocka_unit_test(test_render_int_as_printf),
    };
    return cmocka_run_group_tests_name("render_dice", tests, NULL, NULL);
}
