/* Table-driven dice tests: every .case file in tests/data/dice (format in
 * tests/data/dice/README.md). Roll cases check each die's face and flags and
 * the total; error cases check the code, message, span and rendered caret. */
#include "support.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dice.h"
#include "render_dice.h"

/* Fields one case may have; repeated dice/total lines give one per repeat. */
struct dcase {
    const char *file;
    int line;
    bool fail;
    char expr[512];
    size_t expr_len;
    uint64_t seed;
    char label[256];
    bool has_label;
    int n_dice_lines, n_totals;
    char dice[DICE_MAX_REPEAT][512];
    long long totals[DICE_MAX_REPEAT];
    char code[32], message[128];
    int column, width;
};

/* Flags a case can state; MAX/MIN follow from the faces and are left out. */
#define CASE_FLAGS (DICE_DIE_DROPPED | DICE_DIE_REROLLED | DICE_DIE_EXPLODED | \
                    DICE_DIE_BONUS | DICE_DIE_SUCCESS | DICE_DIE_FAILURE |  \
                    DICE_DIE_RAISED | DICE_DIE_LOWERED)

static int failures;

__attribute__((format(printf, 2, 3)))
static void case_fail(const struct dcase *c, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    print_error("%s:%d: `%s`: %s\n", c->file, c->line, c->expr, msg);
    failures++;
}

/* Parse "5 4d 6!b -1s 1^3 6v4d" into faces and flags ("1^3": rolled 1,
 * raised to 3 by minN; "6v4": rolled 6, lowered to 4 by maxN). Returns the
 * count, or -1. */
static int parse_dice_line(const char *s, struct dice_die *out, int cap)
{
    int n = 0;
    while (*s != '\0') {
        while (*s == ' ')
            s++;
        if (*s == '\0')
            break;
        char *end;
        long v = strtol(s, &end, 10);
        if (end == s || n == cap)
            return -1;
        unsigned flags = 0;
        long counts = v;
        s = end;
        if (*s == '^' || *s == 'v') {
            flags |= *s == '^' ? DICE_DIE_RAISED : DICE_DIE_LOWERED;
            counts = strtol(s + 1, &end, 10);
            if (end == s + 1)
                return -1;
            s = end;
        }
        for (; *s != '\0' && *s != ' '; s++) {
            const char *codes = "dr!bsf";
            const char *at = strchr(codes, *s);
            if (at == NULL)
                return -1;
            static const unsigned bits[] = {
                DICE_DIE_DROPPED, DICE_DIE_REROLLED, DICE_DIE_EXPLODED,
                DICE_DIE_BONUS,   DICE_DIE_SUCCESS,  DICE_DIE_FAILURE};
            flags |= bits[at - codes];
        }
        out[n].value = (int32_t)counts;
        out[n].rolled = (int16_t)v;
        out[n].flags = (uint16_t)flags;
        n++;
    }
    return n;
}

static void check_result(const struct dcase *c, int i,
                         const struct dice_result *r)
{
    struct dice_die want[DICE_MAX_DICE];
    int n = parse_dice_line(c->dice[i], want, DICE_MAX_DICE);
    if (n < 0) {
        case_fail(c, "bad dice line '%s'", c->dice[i]);
        return;
    }
    if (r->total != c->totals[i])
        case_fail(c, "roll %d: total %lld, want %lld", i + 1,
                  (long long)r->total, c->totals[i]);
    if (r->n_dice != n) {
        case_fail(c, "roll %d: %u dice, want %d", i + 1, r->n_dice, n);
        return;
    }
    for (int k = 0; k < n; k++)
        if (r->dice[k].value != want[k].value ||
            r->dice[k].rolled != want[k].rolled ||
            (r->dice[k].flags & CASE_FLAGS) != want[k].flags)
            case_fail(c,
                      "roll %d die %d: %d (rolled %d) flags %#x, "
                      "want %d (rolled %d) flags %#x",
                      i + 1, k + 1, (int)r->dice[k].value,
                      (int)r->dice[k].rolled, r->dice[k].flags & CASE_FLAGS,
                      (int)want[k].value, (int)want[k].rolled, want[k].flags);
    if (c->has_label &&
        (r->label == NULL || r->label_len != strlen(c->label) ||
         memcmp(r->label, c->label, r->label_len) != 0))
        case_fail(c, "label '%.*s', want '%s'", r->label ? r->label_len : 0,
                  r->label ? r->label : "", c->label);
}

/* The caret line the renderer draws must sit under the stated column. */
static void check_caret(const struct dcase *c, const struct dice_diag *d)
{
    for (size_t i = 0; i < c->expr_len; i++)
        if ((unsigned char)c->expr[i] >= 0x80)
            return;             /* columns are bytes; carets are characters */
    char out[2048], want[600];
    render_dice_error(out, sizeof out, RENDER_DICE_TEXT, I18N_EN, c->expr,
                      c->expr_len, d);
    int w = c->width > 0 ? c->width : 1;
    snprintf(want, sizeof want, "\n  %*s%.*s\n", c->column - 1, "", w,
             "^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^");
    const char *last = strrchr(out, '\n');
    const char *caret_line = out;
    /* out ends in "\n  <caret>\n": find the line before the final newline */
    for (const char *p = out; p < last; p++)
        if (*p == '\n')
            caret_line = p;
    if (strcmp(caret_line, want) != 0)
        case_fail(c, "caret line '%s', want '%s'", caret_line, want);
}

static void check_outcome(const struct dcase *c, enum eng_err err,
                          const struct dice_diag *d,
                          const struct dice_result *res, unsigned reps)
{
    if (c->fail) {
        if (err == ENG_OK) {
            case_fail(c, "rolled, want error %s", c->code);
            return;
        }
        if (strcmp(eng_errname(err), c->code) != 0 || d->code != err)
            case_fail(c, "error %s, want %s", eng_errname(err), c->code);
        if (strcmp(d->msg, c->message) != 0)
            case_fail(c, "message '%s', want '%s'", d->msg, c->message);
        if (d->pos + 1 != c->column || d->len != c->width)
            case_fail(c, "span column %d width %d, want %d width %d",
                      d->pos + 1, d->len, c->column, c->width);
        check_caret(c, d);
        return;
    }
    if (err != ENG_OK) {
        case_fail(c, "error: %s", d->msg);
        return;
    }
    if ((int)reps != c->n_totals || c->n_dice_lines != c->n_totals)
        case_fail(c, "%u results; the case has %d totals and %d dice lines",
                  reps, c->n_totals, c->n_dice_lines);
    for (int i = 0; i < c->n_totals && i < (int)reps; i++)
        check_result(c, i, &res[i]);
}

static void run_case(struct dcase *c, struct dice_result *res)
{
    struct dice_diag d = {0};
    struct dice_expr *e = NULL;
    struct eng_rng rng;
    eng_rng_seed(&rng, c->seed);
    enum eng_err err = dice_parse(c->expr, c->expr_len, &e, &d);
    unsigned reps = err == ENG_OK ? dice_expr_repeat(e) : 0;
    for (unsigned i = 0; err == ENG_OK && i < reps; i++)
        err = dice_roll(e, &rng, &res[i], &d);
    check_outcome(c, err, &d, res, reps);
    dice_expr_free(e);  /* after the checks: labels borrow from it */
}

/* Copy value into a fixed field, failing the case if it does not fit. */
static void set_field(struct dcase *c, char *dst, size_t cap, const char *v)
{
    if (snprintf(dst, cap, "%s", v) >= (int)cap)
        case_fail(c, "field too long");
}

/* Read one case file; returns the number of cases run. */
static int run_file(const char *name, struct dice_result *res)
{
    char path[300];
    snprintf(path, sizeof path, "dice/%.256s", name);
    char *text = support_read_data(path, NULL);
    assert_non_null(text);
    int ran = 0, lineno = 0;
    struct dcase *c = calloc(1, sizeof *c);
    assert_non_null(c);
    bool open = false;
    for (char *line = text, *next; line != NULL; line = next) {
        next = strchr(line, '\n');
        if (next != NULL)
            *next++ = '\0';
        lineno++;
        if (line[0] == '#')
            continue;
        if (line[0] == '\0') {
            if (open) {
                run_case(c, res);
                ran++;
            }
            memset(c, 0, sizeof *c);
            open = false;
            continue;
        }
        if (!open) {
            c->file = name;
            c->line = lineno;
            open = true;
        }
        if (strcmp(line, "%%FAIL") == 0) {
            c->fail = true;
            continue;
        }
        char *colon = strchr(line, ':');
        if (colon == NULL) {
            case_fail(c, "bad line '%s'", line);
            continue;
        }
        *colon = '\0';
        const char *key = line, *v = colon[1] == ' ' ? colon + 2 : colon + 1;
        if (strcmp(key, "expr") == 0) {
            set_field(c, c->expr, sizeof c->expr, v);
            c->expr_len = strlen(c->expr);
        } else if (strcmp(key, "seed") == 0)
            c->seed = strtoull(v, NULL, 10);
        else if (strcmp(key, "label") == 0) {
            set_field(c, c->label, sizeof c->label, v);
            c->has_label = true;
        } else if (strcmp(key, "dice") == 0 &&
                   c->n_dice_lines < DICE_MAX_REPEAT)
            set_field(c, c->dice[c->n_dice_lines++], sizeof c->dice[0], v);
        else if (strcmp(key, "total") == 0 && c->n_totals < DICE_MAX_REPEAT)
            c->totals[c->n_totals++] = strtoll(v, NULL, 10);
        else if (strcmp(key, "code") == 0)
            set_field(c, c->code, sizeof c->code, v);
        else if (strcmp(key, "message") == 0)
            set_field(c, c->message, sizeof c->message, v);
        else if (strcmp(key, "column") == 0)
            c->column = atoi(v);
        else if (strcmp(key, "width") == 0)
            c->width = atoi(v);
        else
            case_fail(c, "unknown field '%s'", key);
    }
    if (open) {
        run_case(c, res);
        ran++;
    }
    free(c);
    free(text);
    return ran;
}

static void test_dice_cases_all_files(void **state)
{
    (void)state;
    struct dice_result *res = malloc(DICE_MAX_REPEAT * sizeof *res);
    assert_non_null(res);
    DIR *dir = opendir(FRAY_TEST_DATA "/dice");
    assert_non_null(dir);
    int files = 0, cases = 0;
    struct dirent *ent;
    while ((ent = readdir(dir)) != NULL) {
        size_t n = strlen(ent->d_name);
        if (n < 6 || strcmp(ent->d_name + n - 5, ".case") != 0)
            continue;
        files++;
        cases += run_file(ent->d_name, res);
    }
    closedir(dir);
    free(res);
    print_message("%d cases in %d files\n", cases, files);
    /* guard against a reader that silently runs nothing */
    assert_true(files >= 12);
    assert_true(cases >= 100);
    assert_int_equal(failures, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dice_cases_all_files),
    };
    return cmocka_run_group_tests_name("dice_cases", tests, NULL, NULL);
}
