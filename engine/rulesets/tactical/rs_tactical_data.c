/*
 * rs_tactical_data.c - the tactical ruleset's effects and conditions as
 * data: the built-in table and the parser for a group's effects file.
 *
 * The file is line based (docs/rulesets/tactical.md has the whole format):
 *
 *   # a comment
 *   reset                                  start from an empty table
 *   effect Knockdown resist test=endurance/fortitude cond=Prone
 *   condition Afraid shake=insight/willpower:2
 *   rename Knockdown Trip
 *   remove Seeker
 *
 * A line that names an existing effect or condition replaces it; a new name
 * adds one. The parser takes the text only: the front end reads the file.
 */
#include <stdio.h>
#include <string.h>

#include "eng_alloc.h"
#include "eng_text.h"
#include "rs_tactical.h"

/* ---- the built-in table ------------------------------------------------- */

#define EF "endurance", "fortitude"
#define IW "insight", "willpower"

#define FX(n, k, a, s, c, fl) \
    {.name = n, .kind = k, .test = {{a, s}}, .ntests = 1, .cond = c, \
     .flags = fl}
#define FXN(n, k, c, fl) {.name = n, .kind = k, .cond = c, .flags = fl}

static const struct tac_table tac_builtin = {
    .fx = {
        FX("Acid", TAC_FX_RESIST, "endurance", "fortitude", "Acid", 0),
        {.name = "Blinding", .kind = TAC_FX_RESIST,
         .test = {{EF}, {"insight", "perception"}}, .ntests = 2,
         .cond = "Blinded", .rounds = 1},
        FX("Corrosive", TAC_FX_RESIST, "endurance", "fortitude",
          "Corroded", 0),
        {.name = "Deadly", .kind = TAC_FX_RESIST,
         .test = {{"endurance", "vitality"}}, .ntests = 1, .max = 3,
         .cond = "Wounded", .flags = TAC_FXF_CRIT_HP | TAC_FXF_WOUND},
        FXN("Demolish", TAC_FX_NOTE, "", TAC_FXF_DEMOLISH),
        FX("Fear", TAC_FX_RESIST, "insight", "willpower", "Afraid", 0),
        FX("Frost", TAC_FX_DIRECT, "endurance", "fortitude", "Slowed", 0),
        FX("Gravitic", TAC_FX_RESIST, "endurance", "fortitude",
          "Prone", TAC_FXF_PULL),
        FXN("Grip", TAC_FX_APPLY, "Immobilized", TAC_FXF_NO_DAMAGE),
        FX("Knockback", TAC_FX_RESIST, "endurance", "fortitude",
          "", TAC_FXF_PUSH),
        FX("Knockdown", TAC_FX_RESIST, "endurance", "fortitude", "Prone", 0),
        {.name = "Knockout", .kind = TAC_FX_RESIST, .test = {{EF}},
         .ntests = 1, .max = 4, .cond = "Unconscious",
         .flags = TAC_FXF_ORGANIC | TAC_FXF_STUN_MAJOR | TAC_FXF_OUT},
        FXN("Magnetize", TAC_FX_APPLY, "Magnetized", 0),
        {.name = "Pulse", .kind = TAC_FX_RESIST, .test = {{EF}},
         .ntests = 1, .fixed = 3, .cond = "Stunned"},
        FX("Poison", TAC_FX_RESIST, "endurance", "fortitude", "Poisoned", 0),
        {.name = "Rage", .kind = TAC_FX_RESIST, .test = {{IW}}, .ntests = 1,
         .cond = "Berserk", .rounds = 1},
        FX("Scorch", TAC_FX_DIRECT, "insight", "willpower", "Afraid", 0),
        FXN("Seeker", TAC_FX_NOTE, "", 0),
        FXN("Serrated", TAC_FX_NOTE, "", TAC_FXF_CRIT_DIE),
        FX("Shock", TAC_FX_DIRECT, "endurance", "fortitude",
          "Stunned", TAC_FXF_MECH_DOUBLE),
        FX("Shutdown", TAC_FX_RESIST, "endurance", "fortitude", "Shutdown",
           TAC_FXF_MECH_ONLY | TAC_FXF_OUT_ROUNDS),
        FX("Slow", TAC_FX_RESIST, "endurance", "fortitude", "Slowed", 0),
        FX("Stun", TAC_FX_RESIST, "endurance", "fortitude", "Stunned", 0),
        FXN("Sunder", TAC_FX_APPLY, "Vulnerable", 0),
    },
    .nfx = 24,
    .cd = {
        {.name = "Acid", .cap = 3, .flags = TAC_CDF_DOT | TAC_CDF_STACKS},
        {.name = "Afraid", .shake = {IW}, .shake_difficulty = 2},
        {.name = "Berserk", .shake = {IW}, .shake_difficulty = 2},
        {.name = "Blinded"},
        {.name = "Corroded", .cap = 3,
         .flags = TAC_CDF_DMG_TAKEN | TAC_CDF_STACKS},
        {.name = "Distracted",
         .flags = TAC_CDF_DISADV | TAC_CDF_NEXT_TEST},
        {.name = "Encouraged", .rounds = 1},
        {.name = "Exhausted", .cap = 5, .out = 5,
         .attrs = {"strength", "endurance", "dexterity"}, .nattrs = 3,
         .flags = TAC_CDF_STACKS | TAC_CDF_PER_STACK},
        {.name = "Fatigued", .cap = 5, .out = 5,
         .attrs = {"insight", "intelligence", "charisma"}, .nattrs = 3,
         .flags = TAC_CDF_STACKS | TAC_CDF_PER_STACK},
        {.name = "Flanked"},
        {.name = "Grappled"},
        {.name = "Hidden"},
        {.name = "Immobilized"},
        {.name = "Injured"},
        {.name = "Magnetized"},
        {.name = "Paralyzed", .flags = TAC_CDF_EVASION1 | TAC_CDF_NO_AP},
        {.name = "Poisoned", .start = 2, .cap = 5,
         .flags = TAC_CDF_STEP | TAC_CDF_DISADV},
        {.name = "Prone"},
        {.name = "Shutdown", .out = 1},
        {.name = "Slowed"},
        {.name = "Stunned", .flags = TAC_CDF_LOSE_AP},
        {.name = "Surprised", .rounds = 1,
         .flags = TAC_CDF_EVASION1 | TAC_CDF_NO_AP},
        {.name = "Taunted"},
        {.name = "Unconscious", .out = 1},
        {.name = "Vulnerable", .rounds = TAC_MINUTE_ROUNDS,
         .flags = TAC_CDF_VULNERABLE | TAC_CDF_STACKS},
        {.name = "Warded", .cap = 4, .rounds = TAC_MINUTE_ROUNDS,
         .flags = TAC_CDF_WARD | TAC_CDF_STACKS},
        {.name = "Wounded", .flags = TAC_CDF_STACKS},
    },
    .ncd = 27,
};

#undef FX
#undef FXN
#undef EF
#undef IW

const struct tac_table *tac_table_builtin(void)
{
    return &tac_builtin;
}

const struct tac_table *tac_table_for(const struct rs_call *c)
{
    return c->data != NULL ? c->data : &tac_builtin;
}

enum eng_err tac_data_parse(const char *text, size_t len, void **out,
                            struct enc_diag *d)
{
    struct tac_table *t = NULL;
    enum eng_err err = tac_table_parse(text, len, &tac_builtin, &t, d);
    if (err == ENG_OK)
        *out = t;
    return err;
}

void tac_data_free(void *data)
{
    tac_table_free(data);
}

const struct tac_fx *tac_fx_find(const struct tac_table *t, const char *name)
{
    for (int i = 0; i < t->nfx; i++)
        if (eng_text_casecmp(t->fx[i].name, name) == 0)
            return &t->fx[i];
    return NULL;
}

int tac_fx_index(const struct tac_table *t, const struct tac_fx *fx)
{
    return (int)(fx - t->fx);
}

const struct tac_cond_def *tac_cond_def(const struct tac_table *t,
                                        const char *name)
{
    for (int i = 0; i < t->ncd; i++)
        if (eng_text_casecmp(t->cd[i].name, name) == 0)
            return &t->cd[i];
    return NULL;
}

/* ---- the parser --------------------------------------------------------- */

struct tac_flagname {
    const char *word;
    unsigned flag;
};

static const struct tac_flagname tac_fx_flags[] = {
    {"crit-hp", TAC_FXF_CRIT_HP},       {"mech", TAC_FXF_MECH_ONLY},
    {"organic", TAC_FXF_ORGANIC},       {"mech-double", TAC_FXF_MECH_DOUBLE},
    {"stunned-major", TAC_FXF_STUN_MAJOR}, {"out", TAC_FXF_OUT},
    {"out-rounds", TAC_FXF_OUT_ROUNDS}, {"push", TAC_FXF_PUSH},
    {"pull", TAC_FXF_PULL},             {"no-damage", TAC_FXF_NO_DAMAGE},
    {"crit-die", TAC_FXF_CRIT_DIE},     {"demolish", TAC_FXF_DEMOLISH},
    {"wound", TAC_FXF_WOUND},
};

static const struct tac_flagname tac_cd_flags[] = {
    {"dot", TAC_CDF_DOT},               {"evasion1", TAC_CDF_EVASION1},
    {"no-ap", TAC_CDF_NO_AP},           {"lose-ap", TAC_CDF_LOSE_AP},
    {"damage", TAC_CDF_DMG_TAKEN},      {"vulnerable", TAC_CDF_VULNERABLE},
    {"ward", TAC_CDF_WARD},             {"step", TAC_CDF_STEP},
    {"disadvantage", TAC_CDF_DISADV},   {"next-test", TAC_CDF_NEXT_TEST},
    {"stacks", TAC_CDF_STACKS},         {"per-stack", TAC_CDF_PER_STACK},
};

static const char *const tac_kinds[] = {"resist", "direct", "apply", "note"};

#define TAC_MAX_WORDS 16

/* A line split on blanks; words point into the line buffer. */
struct tac_line {
    char buf[TAC_MAX_LINE + 1];
    char *w[TAC_MAX_WORDS];
    int n;
};

static bool tac_split(struct tac_line *l)
{
    l->n = 0;
    char *p = l->buf;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\r')
            *p++ = '\0';
        if (*p == '\0' || *p == '#')
            break;
        if (l->n == TAC_MAX_WORDS)
            return false;
        l->w[l->n++] = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\r')
            p++;
    }
    *p = '\0';
    return true;
}

/* A name: letters, digits, '-' and '_', starting with a letter. */
static bool tac_name_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > TAC_MAX_NAME)
        return false;
    if (!((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')))
        return false;
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
              (ch >= '0' && ch <= '9') || ch == '-' || ch == '_'))
            return false;
    }
    return true;
}

static bool tac_small_int(const char *s, int lo, int hi, int *out)
{
    int64_t v;
    if (!eng_text_to_int(s, &v) || v < lo || v > hi)
        return false;
    *out = (int)v;
    return true;
}

/* test -> attr '/' skill */
static bool tac_parse_test(char *s, struct tac_test_def *t)
{
    char *slash = strchr(s, '/');
    if (slash == NULL)
        return false;
    *slash = '\0';
    if (!tac_name_ok(s) || !tac_name_ok(slash + 1))
        return false;
    enc_copy(t->attr, sizeof t->attr, s);
    enc_copy(t->skill, sizeof t->skill, slash + 1);
    eng_text_lower(t->attr);
    eng_text_lower(t->skill);
    return true;
}

static enum eng_err tac_bad(struct enc_diag *d, int line, const char *what,
                            const char *word)
{
    return enc_fail(d, ENG_SYNTAX, "line %d: %s `%.40s`", line, what, word);
}

static bool tac_flag(const struct tac_flagname *f, size_t n, const char *w,
                     unsigned *flags)
{
    for (size_t i = 0; i < n; i++)
        if (eng_text_casecmp(f[i].word, w) == 0) {
            *flags |= f[i].flag;
            return true;
        }
    return false;
}

/* effect NAME KIND key=value... flag... */
static enum eng_err tac_parse_effect(struct tac_table *t, struct tac_line *l,
                                     int line, struct enc_diag *d)
{
    if (l->n < 3)
        return enc_fail(d, ENG_SYNTAX, "line %d: an effect needs a name and "
                        "a kind (resist, direct, apply or note)", line);
    if (!tac_name_ok(l->w[1]))
        return tac_bad(d, line, "bad effect name", l->w[1]);
    struct tac_fx fx;
    memset(&fx, 0, sizeof fx);
    enc_copy(fx.name, sizeof fx.name, l->w[1]);
    int kind = -1;
    for (int i = 0; i < 4; i++)
        if (eng_text_casecmp(tac_kinds[i], l->w[2]) == 0)
            kind = i;
    if (kind < 0)
        return tac_bad(d, line, "unknown kind (resist, direct, apply or note)",
                       l->w[2]);
    fx.kind = (enum tac_fx_kind)kind;
    for (int i = 3; i < l->n; i++) {
        char *w = l->w[i];
        char *eq = strchr(w, '=');
        if (eq == NULL) {
            if (!tac_flag(tac_fx_flags, sizeof tac_fx_flags /
                          sizeof tac_fx_flags[0], w, &fx.flags))
                return tac_bad(d, line, "unknown flag", w);
            continue;
        }
        *eq = '\0';
        char *v = eq + 1;
        if (eng_text_casecmp(w, "test") == 0) {
            char *comma = strchr(v, ',');
            if (comma != NULL)
                *comma = '\0';
            if (!tac_parse_test(v, &fx.test[0]) ||
                (comma != NULL && !tac_parse_test(comma + 1, &fx.test[1])))
                return tac_bad(d, line, "test must be attribute/skill[,"
                               "attribute/skill], not", v);
            fx.ntests = comma != NULL ? 2 : 1;
        } else if (eng_text_casecmp(w, "max") == 0) {
            if (!tac_small_int(v, 1, TAC_MAX_DIFFICULTY, &fx.max))
                return tac_bad(d, line, "max must be 1 to 20, not", v);
        } else if (eng_text_casecmp(w, "fixed") == 0) {
            if (!tac_small_int(v, 1, TAC_MAX_DIFFICULTY, &fx.fixed))
                return tac_bad(d, line, "fixed must be 1 to 20, not", v);
        } else if (eng_text_casecmp(w, "cond") == 0) {
            if (!tac_name_ok(v))
                return tac_bad(d, line, "bad condition name", v);
            enc_copy(fx.cond, sizeof fx.cond, v);
        } else if (eng_text_casecmp(w, "rounds") == 0) {
            if (!tac_small_int(v, 0, ENC_MAX_ROUNDS, &fx.rounds))
                return tac_bad(d, line, "rounds must be 0 to 1000, not", v);
        } else {
            return tac_bad(d, line, "unknown key", w);
        }
    }
    if ((fx.kind == TAC_FX_RESIST || fx.kind == TAC_FX_DIRECT) &&
        fx.ntests == 0)
        return enc_fail(d, ENG_SYNTAX, "line %d: a %s effect needs "
                        "test=attribute/skill", line, tac_kinds[fx.kind]);
    if (fx.kind == TAC_FX_APPLY && fx.cond[0] == '\0')
        return enc_fail(d, ENG_SYNTAX, "line %d: an apply effect needs "
                        "cond=NAME", line);
    const struct tac_fx *old = tac_fx_find(t, fx.name);
    if (old != NULL) {
        t->fx[tac_fx_index(t, old)] = fx;
        return ENG_OK;
    }
    if (t->nfx >= TAC_MAX_EFFECTS)
        return enc_fail(d, ENG_LIMIT, "line %d: too many effects (limit is "
                        "%d)", line, TAC_MAX_EFFECTS);
    t->fx[t->nfx++] = fx;
    return ENG_OK;
}

/* condition NAME key=value... flag... */
static enum eng_err tac_parse_cond(struct tac_table *t, struct tac_line *l,
                                   int line, struct enc_diag *d)
{
    if (l->n < 2)
        return enc_fail(d, ENG_SYNTAX, "line %d: a condition needs a name",
                        line);
    if (!tac_name_ok(l->w[1]))
        return tac_bad(d, line, "bad condition name", l->w[1]);
    struct tac_cond_def cd;
    memset(&cd, 0, sizeof cd);
    enc_copy(cd.name, sizeof cd.name, l->w[1]);
    for (int i = 2; i < l->n; i++) {
        char *w = l->w[i];
        char *eq = strchr(w, '=');
        if (eq == NULL) {
            if (!tac_flag(tac_cd_flags, sizeof tac_cd_flags /
                          sizeof tac_cd_flags[0], w, &cd.flags))
                return tac_bad(d, line, "unknown flag", w);
            continue;
        }
        *eq = '\0';
        char *v = eq + 1;
        int *num = NULL;
        int hi = TAC_MAX_X;
        if (eng_text_casecmp(w, "cap") == 0)
            num = &cd.cap;
        else if (eng_text_casecmp(w, "start") == 0)
            num = &cd.start;
        else if (eng_text_casecmp(w, "out") == 0)
            num = &cd.out;
        else if (eng_text_casecmp(w, "rounds") == 0) {
            num = &cd.rounds;
            hi = ENC_MAX_ROUNDS;
        } else if (eng_text_casecmp(w, "attrs") == 0) {
            cd.nattrs = 0;
            char *save = NULL;
            for (char *a = strtok_r(v, ",", &save); a != NULL;
                 a = strtok_r(NULL, ",", &save)) {
                if (cd.nattrs == 3 || !tac_name_ok(a))
                    return tac_bad(d, line, "attrs must be up to 3 names, "
                                   "not", a);
                enc_copy(cd.attrs[cd.nattrs], TAC_MAX_NAME + 1, a);
                eng_text_lower(cd.attrs[cd.nattrs++]);
            }
            continue;
        } else if (eng_text_casecmp(w, "shake") == 0) {
            char *colon = strchr(v, ':');
            if (colon == NULL)
                return tac_bad(d, line, "shake must be attribute/skill:N, "
                               "not", v);
            *colon = '\0';
            if (!tac_parse_test(v, &cd.shake) ||
                !tac_small_int(colon + 1, 1, TAC_MAX_DIFFICULTY,
                               &cd.shake_difficulty))
                return tac_bad(d, line, "shake must be attribute/skill:N, "
                               "not", v);
            continue;
        } else
            return tac_bad(d, line, "unknown key", w);
        if (!tac_small_int(v, 0, hi, num))
            return enc_fail(d, ENG_SYNTAX, "line %d: %s must be 0 to %d",
                            line, w, hi);
    }
    const struct tac_cond_def *old = tac_cond_def(t, cd.name);
    if (old != NULL) {
        t->cd[old - t->cd] = cd;
        return ENG_OK;
    }
    if (t->ncd >= TAC_MAX_CONDS)
        return enc_fail(d, ENG_LIMIT, "line %d: too many conditions (limit "
                        "is %d)", line, TAC_MAX_CONDS);
    t->cd[t->ncd++] = cd;
    return ENG_OK;
}

/* rename OLD NEW: an effect or a condition (references follow it). */
static enum eng_err tac_parse_rename(struct tac_table *t, struct tac_line *l,
                                     int line, struct enc_diag *d)
{
    if (l->n != 3)
        return enc_fail(d, ENG_SYNTAX, "line %d: rename needs the old and "
                        "the new name", line);
    if (!tac_name_ok(l->w[2]))
        return tac_bad(d, line, "bad name", l->w[2]);
    const struct tac_fx *fx = tac_fx_find(t, l->w[1]);
    const struct tac_cond_def *cd = tac_cond_def(t, l->w[1]);
    if (fx == NULL && cd == NULL)
        return tac_bad(d, line, "no effect or condition named", l->w[1]);
    if (fx != NULL) {
        if (tac_fx_find(t, l->w[2]) != NULL)
            return tac_bad(d, line, "an effect already has the name",
                           l->w[2]);
        enc_copy(t->fx[tac_fx_index(t, fx)].name, TAC_MAX_NAME + 1, l->w[2]);
    }
    if (cd != NULL) {
        if (tac_cond_def(t, l->w[2]) != NULL)
            return tac_bad(d, line, "a condition already has the name",
                           l->w[2]);
        for (int i = 0; i < t->nfx; i++)
            if (eng_text_casecmp(t->fx[i].cond, cd->name) == 0)
                enc_copy(t->fx[i].cond, sizeof t->fx[i].cond, l->w[2]);
        enc_copy(t->cd[cd - t->cd].name, TAC_MAX_NAME + 1, l->w[2]);
    }
    return ENG_OK;
}

static enum eng_err tac_parse_remove(struct tac_table *t, struct tac_line *l,
                                     int line, struct enc_diag *d)
{
    if (l->n != 2)
        return enc_fail(d, ENG_SYNTAX, "line %d: remove needs one name",
                        line);
    const struct tac_fx *fx = tac_fx_find(t, l->w[1]);
    if (fx != NULL) {
        int i = tac_fx_index(t, fx);
        memmove(&t->fx[i], &t->fx[i + 1],
                (size_t)(t->nfx - i - 1) * sizeof t->fx[0]);
        t->nfx--;
        return ENG_OK;
    }
    const struct tac_cond_def *cd = tac_cond_def(t, l->w[1]);
    if (cd == NULL)
        return tac_bad(d, line, "no effect or condition named", l->w[1]);
    int i = (int)(cd - t->cd);
    memmove(&t->cd[i], &t->cd[i + 1],
            (size_t)(t->ncd - i - 1) * sizeof t->cd[0]);
    t->ncd--;
    return ENG_OK;
}

enum eng_err tac_table_parse(const char *text, size_t len,
                             const struct tac_table *base,
                             struct tac_table **out, struct enc_diag *d)
{
    if (len > TAC_MAX_FILE)
        return enc_fail(d, ENG_LIMIT, "the effects file is too long (limit "
                        "is %d bytes)", TAC_MAX_FILE);
    if (!eng_text_valid_utf8(text, len))
        return enc_fail(d, ENG_SYNTAX, "the effects file is not valid UTF-8");
    struct tac_table *t = eng_malloc(sizeof *t);
    struct tac_line *l = eng_malloc(sizeof *l);
    if (t == NULL || l == NULL) {
        eng_free(t);
        eng_free(l);
        return enc_fail(d, ENG_NOMEM, "out of memory");
    }
    *t = base != NULL ? *base : tac_builtin;
    enum eng_err err = ENG_OK;
    size_t at = 0;
    int line = 0;
    while (at < len && err == ENG_OK) {
        size_t end = at;
        while (end < len && text[end] != '\n')
            end++;
        line++;
        if (end - at > TAC_MAX_LINE) {
            err = enc_fail(d, ENG_LIMIT, "line %d is too long (limit is %d "
                           "bytes)", line, TAC_MAX_LINE);
            break;
        }
        memcpy(l->buf, text + at, end - at);
        l->buf[end - at] = '\0';
        at = end + 1;
        if (!tac_split(l)) {
            err = enc_fail(d, ENG_LIMIT, "line %d: too many words (limit is "
                           "%d)", line, TAC_MAX_WORDS);
            break;
        }
        if (l->n == 0)
            continue;
        const char *verb = l->w[0];
        if (eng_text_casecmp(verb, "effect") == 0)
            err = tac_parse_effect(t, l, line, d);
        else if (eng_text_casecmp(verb, "condition") == 0)
            err = tac_parse_cond(t, l, line, d);
        else if (eng_text_casecmp(verb, "rename") == 0)
            err = tac_parse_rename(t, l, line, d);
        else if (eng_text_casecmp(verb, "remove") == 0)
            err = tac_parse_remove(t, l, line, d);
        else if (eng_text_casecmp(verb, "reset") == 0 && l->n == 1)
            t->nfx = t->ncd = 0;
        else
            err = tac_bad(d, line, "expected effect, condition, rename, "
                          "remove or reset, not", verb);
    }
    /* Every effect's condition must exist. */
    for (int i = 0; err == ENG_OK && i < t->nfx; i++)
        if (t->fx[i].cond[0] != '\0' && tac_cond_def(t, t->fx[i].cond) == NULL)
            err = enc_fail(d, ENG_NOTFOUND, "effect %s gives condition %s, "
                           "which is not defined", t->fx[i].name,
                           t->fx[i].cond);
    eng_free(l);
    if (err != ENG_OK) {
        eng_free(t);
        return err;
    }
    *out = t;
    return ENG_OK;
}

void tac_table_free(struct tac_table *t)
{
    eng_free(t);
}
