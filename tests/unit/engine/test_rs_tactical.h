/*
 * test_rs_tactical.h - a small fixture shared by the tactical ruleset
 * tests: an encounter, calls into rs_tactical's ops as the command layer
 * makes them, and lookups in the result. Include after support.h.
 */
#ifndef TEST_RS_TACTICAL_H
#define TEST_RS_TACTICAL_H

#include <stdio.h>
#include <string.h>

#include "enc.h"
#include "eng_rng.h"
#include "rs.h"
#include "rs_tactical.h"

extern const struct rs_system rs_tactical;

struct fx {
    struct encounter *e;
    struct eng_rng rng;
    struct enc_result r;
    struct enc_diag d;
    struct rs_call c;
    struct rs_opt opts[10];
};

static inline struct fx *fx_new(uint64_t seed)
{
    struct fx *f = test_calloc(1, sizeof *f);
    f->e = enc_new("tactical", "test", 1);
    eng_rng_seed(&f->rng, seed);
    f->c = (struct rs_call){.e = f->e, .rng = &f->rng, .r = &f->r,
                            .d = &f->d, .user = 1, .is_gm = true};
    return f;
}

static inline void fx_free(struct fx *f)
{
    enc_free(f->e);
    test_free(f);
}

/* Set up the call with options "name", "value", ... (NULL-terminated). */
static inline struct rs_call *fx_call(struct fx *f, ...)
{
    va_list ap;
    va_start(ap, f);
    int n = 0;
    for (;;) {
        const char *k = va_arg(ap, const char *);
        if (k == NULL)
            break;
        f->opts[n].name = k;
        f->opts[n].value = va_arg(ap, const char *);
        n++;
    }
    va_end(ap);
    f->c.opts = f->opts;
    f->c.nopts = n;
    enc_result_init(&f->r);
    memset(&f->d, 0, sizeof f->d);
    return &f->c;
}

/* Add a combatant with stats ("hp=12 av=21 init=5"). */
static inline struct enc_combatant *fx_add(struct fx *f, const char *name,
                                    const char *stats)
{
    uint32_t id;
    assert_int_equal(enc_add(f->e, name, 1, 0, -1, &f->d, &id), ENG_OK);
    struct enc_combatant *who = enc_by_id(f->e, id);
    struct enc_kv kv[ENC_MAX_STATS];
    int n = 0;
    assert_int_equal(enc_parse_stats(stats, kv, ENC_MAX_STATS, &n, &f->d),
                     ENG_OK);
    for (int i = 0; i < n; i++)
        assert_int_equal(enc_stat_set(who, kv[i].name, kv[i].value, &f->d),
                         ENG_OK);
    assert_int_equal(rs_tactical.ops->setup(fx_call(f, NULL), who), ENG_OK);
    return who;
}

static inline struct enc_combatant *fx_by(struct fx *f, const char *name)
{
    struct enc_combatant *who = enc_by_name(f->e, name);
    assert_non_null(who);
    return who;
}

static inline const char *fx_current(struct fx *f)
{
    struct enc_combatant *who = enc_current(f->e);
    return who ? who->name : "";
}

static inline enum eng_err fx_next(struct fx *f)
{
    return rs_tactical.ops->next(fx_call(f, NULL));
}

/* Begin with a fixed initiative for everyone: "=N" in init_expr. */
static inline void fx_init(struct fx *f, const char *name, int value)
{
    snprintf(fx_by(f, name)->init_expr, ENC_MAX_INIT_EXPR + 1, "=%d", value);
}

static inline enum eng_err fx_attack(struct fx *f, const char *attacker,
                              const char *target, const char *roll,
                              const char *damage, const char *options)
{
    struct rs_attack a = {fx_by(f, attacker), fx_by(f, target), roll, damage,
                          options};
    return rs_tactical.ops->attack(fx_call(f, NULL), &a);
}

/* Whether the last command emitted a text event containing s. */
static inline int fx_said(struct fx *f, const char *s)
{
    for (int i = 0; i < f->r.nev; i++)
        if (strstr(f->r.ev[i].text, s) != NULL)
            return 1;
    return 0;
}

/* The current value of who's track. */
static inline int64_t fx_track(struct fx *f, const char *who,
                               const char *track)
{
    const struct enc_track *t = enc_track_c(fx_by(f, who), track);
    assert_non_null(t);
    return t->cur;
}

static inline int32_t fx_cond(struct fx *f, const char *who, const char *cond)
{
    const struct enc_cond *k = enc_cond_find(fx_by(f, who), cond);
    return k == NULL ? -1 : k->value;
}

/* The faces of roll i of the last command, parsed from its detail
 * ("[3, 5, 6]" style numbers); returns how many. */
static inline int fx_faces(struct fx *f, int i, int *faces, int max)
{
    assert_true(i < f->r.nrolls);
    const char *p = f->r.rolls[i].detail;
    int n = 0;
    const char *open = strchr(p, '[');
    if (open == NULL)
        return 0;
    p = open + 1;
    while (*p && *p != ']' && *p != '=' && n < max) {
        if (*p >= '0' && *p <= '9') {
            int v = 0;
            while (*p >= '0' && *p <= '9')
                v = v * 10 + (*p++ - '0');
            faces[n++] = v;
        } else {
            p++;
        }
    }
    return n;
}

/* The index of the first roll whose label contains s, or -1. */
static inline int fx_roll(struct fx *f, const char *s)
{
    for (int i = 0; i < f->r.nrolls; i++)
        if (strstr(f->r.rolls[i].label, s) != NULL)
            return i;
    return -1;
}

#endif
