/*
 * fuzz_dice.c - the dice language: dice_parse() and dice_roll() on any
 * bytes, then the renderers the bot shows the result or error with.
 *
 * Input: the expression, as a user types it after /roll (not terminated).
 * The RNG is seeded from the bytes, so a crash replays exactly; so is the
 * dialect (enum dice_dialect) the expression is read in.
 *
 * Properties checked (dice.h, render_dice.h):
 *  - a failed parse leaves *out untouched and fills diag with the same
 *    code and a terminated message;
 *  - the repeat count is 1..DICE_MAX_REPEAT;
 *  - a successful roll lands within dice_expr_bounds() and its dice and
 *    groups stay within the result's arrays;
 *  - dice_eval_string() (parse on the stack) rolls the same total as
 *    dice_parse() + dice_roll() from the same seed;
 *  - rendered text fits the buffer, and Discord text RENDER_DISCORD_MAX
 *    characters;
 *  - a result's notes are known ones, each with its words;
 *  - dice_split_label_as() cuts within the input, after the dice.
 */
#include <string.h>

#include "dice.h"
#include "fuzz.h"
#include "render_dice.h"

#define TEXT_CAP 4096          /* what cmd_roll.c renders into */

static size_t utf8_chars(const char *s, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80)
            c++;
    return c;
}

static void render_error(const char *src, size_t len,
                         const struct dice_diag *diag)
{
    static char text[TEXT_CAP];
    size_t n;

    n = render_dice_error(text, sizeof text, RENDER_DICE_TEXT, I18N_EN, src,
                          len, diag);
    FUZZ_CHECK(n < sizeof text && text[n] == '\0');
    n = render_dice_error(text, sizeof text, RENDER_DICE_DISCORD, I18N_EN, src,
                          len, diag);
    FUZZ_CHECK(n < sizeof text && text[n] == '\0');
    FUZZ_CHECK(utf8_chars(text, n) <= RENDER_DISCORD_MAX);
}

static void check_result(const struct dice_result *r, int64_t min,
                         int64_t max, bool bounded)
{
    FUZZ_CHECK(r->n_dice <= DICE_MAX_DICE);
    FUZZ_CHECK(r->n_groups <= DICE_MAX_TERMS);
    for (unsigned g = 0; g < r->n_groups; g++)
        FUZZ_CHECK((unsigned)r->groups[g].first + r->groups[g].count <=
                   r->n_dice);
    if (bounded)
        FUZZ_CHECK(r->total >= min && r->total <= max);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct dice_result res[DICE_MAX_REPEAT], again;
    static char text[TEXT_CAP];
    const char *src = (const char *)data;
    uint64_t seed = fuzz_hash(data, size);
    enum dice_dialect dialect = (enum dice_dialect)((seed >> 32) %
                                                    DICE_DIALECT_COUNT);
    struct dice_expr *e = NULL;
    struct dice_diag diag = {0};
    struct dice_simple simple;
    struct eng_rng rng;
    enum eng_err err, err1 = ENG_OK;
    int64_t min = 0, max = 0;
    bool bounded;
    unsigned n, rolled = 0;
    size_t label_len, len, dice_len, label_at;

    if (dice_split_label_as(src, size, dialect, &dice_len, &label_at))
        FUZZ_CHECK(dice_len > 0 && dice_len < label_at && label_at < size);
    memset(&diag, 0, sizeof diag);
    err = dice_parse_as(src, size, dialect, &e, &diag);
    if (err != ENG_OK) {
        FUZZ_CHECK(e == NULL);
        FUZZ_CHECK(diag.code == err);
        FUZZ_CHECK(fuzz_terminated(diag.msg, sizeof diag.msg));
        render_error(src, size, &diag);
        return 0;
    }
    FUZZ_CHECK(e != NULL);

    n = dice_expr_repeat(e);
    FUZZ_CHECK(n >= 1 && n <= DICE_MAX_REPEAT);
    if (dice_expr_label(e, &label_len) == NULL)
        FUZZ_CHECK(label_len == 0);
    else
        FUZZ_CHECK(label_len <= size);
    (void)dice_expr_simple(e, &simple);
    bounded = dice_expr_bounds(e, &min, &max) == ENG_OK;
    if (bounded)
        FUZZ_CHECK(min <= max);

    eng_rng_seed(&rng, seed);
    for (unsigned i = 0; i < n; i++) {
        memset(&diag, 0, sizeof diag);
        err = dice_roll(e, &rng, &res[i], &diag);
        if (i == 0)
            err1 = err;
        if (err != ENG_OK) {
            FUZZ_CHECK(diag.code == err);
            FUZZ_CHECK(fuzz_terminated(diag.msg, sizeof diag.msg));
            render_error(src, size, &diag);
            break;
        }
        check_result(&res[i], min, max, bounded);
        FUZZ_CHECK(res[i].notes < (1u << DICE_NOTE_COUNT));
        for (unsigned b = 0; b < DICE_NOTE_COUNT; b++)
            if (res[i].notes & (1u << b))
                FUZZ_CHECK(dice_note_text((enum dice_note)(1u << b)) != NULL);
        rolled++;
    }
    if (rolled == n) {
        len = render_dice(text, sizeof text, RENDER_DICE_TEXT, I18N_EN, src,
                          size, res, n);
        FUZZ_CHECK(len < sizeof text && text[len] == '\0');
        len = render_dice(text, sizeof text, RENDER_DICE_DISCORD, I18N_EN, src,
                          size, res, n);
        FUZZ_CHECK(len < sizeof text && text[len] == '\0');
        FUZZ_CHECK(utf8_chars(text, len) <= RENDER_DISCORD_MAX);
    }

    /* the same expression parsed on the stack rolls the same first total */
    eng_rng_seed(&rng, seed);
    err = dice_eval_string_as(src, size, dialect, &rng, &again, &diag);
    FUZZ_CHECK(err == err1);
    if (err == ENG_OK)
        FUZZ_CHECK(again.total == res[0].total &&
                   again.n_dice == res[0].n_dice);

    dice_expr_free(e);
    return 0;
}
