/* The table of other bots' dice in docs/dice.md is this test's data: each
 * row's expression is rolled with the row's seed, once as fray reads it and
 * once in its bot's dialect, and the dice and totals must be what the row
 * shows.
 * The doc example is the test. Rows sit between the markers
 * "<!-- dice-table -->" and "<!-- /dice-table -->"; the columns are
 *   | Bot | They write | It means there | fray reads it as | Seed |
 *   | fray rolls | Dialect | The dialect rolls |
 * A result is the dice in the order rolled, each its face and the letters
 * of its flags (d dropped, r rerolled, ! exploded, b bonus, c compounded,
 * s success, t counted twice, f failure, x botch; "1^3" raised by min,
 * "6v5" lowered), then "= total"; repeats are separated by " ; ", a label
 * follows as "# label", and a refused expression reads "error: message".
 * "same" in the last column means the dialect reads the row as fray does.
 * Like /roll, words after the dice that do not parse are a label
 * (dice_split_label_as).
 *
 * FRAY_DICE_DOC_PRINT=1 prints every row's actual results as well, to
 * fill in a new row (then check its dice by hand). */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dice.h"

#define DOC_PATH FRAY_SOURCE_DIR "/docs/dice.md"
#define CELL_MAX 600
#define COLS 8

static int failures;

static char *read_doc(void)
{
    FILE *f = fopen(DOC_PATH, "rb");
    if (f == NULL)
        return NULL;
    char *buf = malloc(1 << 20);
    size_t n = buf != NULL ? fread(buf, 1, (1 << 20) - 1, f) : 0;
    fclose(f);
    if (buf != NULL)
        buf[n] = '\0';
    return buf;
}

/* Append to out (CELL_MAX) as printf does. */
__attribute__((format(printf, 2, 3)))
static void add(char *out, const char *fmt, ...)
{
    size_t n = strlen(out);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out + n, CELL_MAX - n, fmt, ap);
    va_end(ap);
}

static void format_die(char *out, const struct dice_die *d)
{
    static const struct {
        unsigned flag;
        char letter;
    } letters[] = {
        {DICE_DIE_DROPPED, 'd'},    {DICE_DIE_REROLLED, 'r'},
        {DICE_DIE_EXPLODED, '!'},   {DICE_DIE_BONUS, 'b'},
        {DICE_DIE_COMPOUNDED, 'c'}, {DICE_DIE_SUCCESS, 's'},
        {DICE_DIE_TWICE, 't'},      {DICE_DIE_FAILURE, 'f'},
        {DICE_DIE_BOTCH, 'x'},
    };
    if (d->flags & DICE_DIE_RAISED)
        add(out, "%d^%d", (int)d->rolled, (int)d->value);
    else if (d->flags & DICE_DIE_LOWERED)
        add(out, "%dv%d", (int)d->rolled, (int)d->value);
    else
        add(out, "%d", (int)d->value);
    for (size_t i = 0; i < sizeof letters / sizeof letters[0]; i++)
        if (d->flags & letters[i].flag)
            add(out, "%c", letters[i].letter);
}

/* Roll src as /roll would in dialect d from seed, into out. */
static void roll_row(const char *src, enum dice_dialect d, uint64_t seed,
                     char *out)
{
    static struct dice_result res[DICE_MAX_REPEAT];
    struct dice_expr *e = NULL;
    struct dice_diag diag = {0};
    struct eng_rng rng;
    size_t len = strlen(src), dice_len, label_at;
    const char *label = NULL;
    out[0] = '\0';
    if (dice_split_label_as(src, len, d, &dice_len, &label_at)) {
        label = src + label_at;
        len = dice_len;
    }
    if (dice_parse_as(src, len, d, &e, &diag) != ENG_OK) {
        add(out, "error: %s", diag.msg);
        return;
    }
    eng_rng_seed(&rng, seed);
    unsigned n = dice_expr_repeat(e);
    for (unsigned i = 0; i < n; i++) {
        if (dice_roll(e, &rng, &res[i], &diag) != ENG_OK) {
            out[0] = '\0';
            add(out, "error: %s", diag.msg);
            dice_expr_free(e);
            return;
        }
        if (i > 0)
            add(out, " ; ");
        for (unsigned k = 0; k < res[i].n_dice; k++) {
            format_die(out, &res[i].dice[k]);
            add(out, " ");
        }
        add(out, "= %lld", (long long)res[i].total);
    }
    if (res[0].label != NULL)
        add(out, " # %.*s", (int)res[0].label_len, res[0].label);
    else if (label != NULL)
        add(out, " # %s", label);
    dice_expr_free(e);
}

/* The text of a cell: trimmed, without its code-span backticks ("`x`" or
 * "`` x ``"). */
static void cell_text(const char *s, size_t n, char *out)
{
    while (n > 0 && *s == ' ')
        s++, n--;
    while (n > 0 && s[n - 1] == ' ')
        n--;
    size_t ticks = 0;
    while (ticks < n && s[ticks] == '`')
        ticks++;
    if (ticks > 0 && n >= 2 * ticks) {
        s += ticks;
        n -= 2 * ticks;
        if (ticks > 1 && n >= 2 && s[0] == ' ' && s[n - 1] == ' ')
            s++, n -= 2;
    }
    if (n >= CELL_MAX)
        n = CELL_MAX - 1;
    memcpy(out, s, n);
    out[n] = '\0';
}

/* Split a table row into COLS cells; false if it has another count. */
static bool split_row(const char *line, size_t len,
                      char cells[COLS][CELL_MAX])
{
    if (len < 2 || line[0] != '|')
        return false;
    const char *at = line + 1, *end = line + len;
    int c = 0;
    while (at < end && c < COLS) {
        const char *bar = memchr(at, '|', (size_t)(end - at));
        if (bar == NULL)
            break;
        cell_text(at, (size_t)(bar - at), cells[c++]);
        at = bar + 1;
    }
    return c == COLS;
}

static void check(int row, const char *expr, const char *who,
                  const char *want, const char *got)
{
    if (getenv("FRAY_DICE_DOC_PRINT") != NULL) {
        print_message("row %d %s `%s`: %s\n", row, who, expr, got);
        failures += strcmp(want, got) != 0;
        return;
    }
    if (strcmp(want, got) == 0)
        return;
    print_error("docs/dice.md row %d, `%s` %s:\n  doc says %s\n  rolls    %s\n",
                row, expr, who, want, got);
    failures++;
}

static void test_dice_doc_table_rolls_as_shown(void **state)
{
    (void)state;
    char *doc = read_doc();
    assert_non_null(doc);
    char *start = strstr(doc, "<!-- dice-table -->");
    char *stop = start != NULL ? strstr(start, "<!-- /dice-table -->") : NULL;
    assert_non_null(start);
    assert_non_null(stop);
    static char cells[COLS][CELL_MAX];
    char got[CELL_MAX];
    int rows = 0;
    for (char *line = start; line < stop;) {
        char *nl = strchr(line, '\n');
        size_t len = (size_t)((nl != NULL ? nl : stop) - line);
        bool row = split_row(line, len, cells);
        line += len + 1;
        /* the header and its |---| line */
        if (!row || strcmp(cells[1], "They write") == 0 ||
            strncmp(cells[1], "---", 3) == 0)
            continue;
        rows++;
        enum dice_dialect d;
        char *end;
        uint64_t seed = strtoull(cells[4], &end, 10);
        if (!dice_dialect_parse(cells[6], strlen(cells[6]), &d) ||
            end == cells[4] || *end != '\0') {
            print_error("row %d: bad dialect '%s' or seed '%s'\n", rows,
                        cells[6], cells[4]);
            failures++;
            continue;
        }
        roll_row(cells[1], DICE_DIALECT_FRAY, seed, got);
        check(rows, cells[1], "as fray", cells[5], got);
        const char *want = strcmp(cells[7], "same") == 0 ? cells[5]
                                                         : cells[7];
        char as_bot[CELL_MAX];
        roll_row(cells[1], d, seed, as_bot);
        check(rows, cells[1], cells[6], want, as_bot);
        if (strcmp(cells[7], "same") != 0 && strcmp(as_bot, got) == 0 &&
            getenv("FRAY_DICE_DOC_PRINT") == NULL) {
            print_error("row %d `%s`: write \"same\", the dialect rolls as "
                        "fray does\n", rows, cells[1]);
            failures++;
        }
    }
    free(doc);
    print_message("%d rows of other bots' dice\n", rows);
    assert_true(rows >= 60);
    assert_int_equal(failures, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dice_doc_table_rolls_as_shown),
    };
    return cmocka_run_group_tests_name("dice_doc", tests, NULL, NULL);
}
