/*
 * test_rs_tactical.h - the tactical ruleset's fixture: the shared one
 * (rs_fixture.h) set up for tactical, with fixed initiatives, attacks,
 * conditions and rolls found by label. Its tests call rs_tactical's ops
 * themselves through the standing call, whose user and GM rights they may
 * change (f->c.user, f->c.is_gm). Include after support.h.
 */
#ifndef TEST_RS_TACTICAL_H
#define TEST_RS_TACTICAL_H

#include <stdio.h>
#include <string.h>

#include "enc.h"
#include "eng_rng.h"
#include "rs.h"
#include "rs_fixture.h"
#include "rs_tactical.h"

struct fx {
    RS_FX_STATE_BY_VALUE;
};

static inline struct fx *fx_new(uint64_t seed)
{
    struct fx *f = test_calloc(1, sizeof *f);
    rs_fx_init(&f->fx, &rs_tactical, seed, &f->r);
    return f;
}

static inline void fx_free(struct fx *f)
{
    rs_fx_cleanup(&f->fx);
    test_free(f);
}

/* Set up the call with options "name", "value", ... (NULL-terminated). */
#define fx_call(f, ...) rs_fx_standing(&(f)->fx, __VA_ARGS__)

/* Add a combatant with stats ("hp=12 av=21 init=5"). */
static inline struct enc_combatant *fx_add(struct fx *f, const char *name,
                                           const char *stats)
{
    rs_fx_opts(&f->fx, NULL);
    return rs_fx_add(&f->fx, &(struct rs_fx_add){
        .name = name, .stats = stats,
    });
}

static inline struct enc_combatant *fx_by(struct fx *f, const char *name)
{
    return rs_fx_who(&f->fx, name);
}

static inline const char *fx_current(struct fx *f)
{
    return rs_fx_current(&f->fx);
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

/* /attack as the command layer makes it: options bound to the system's
 * attack_opts first (a refused option fails the same way). */
static inline enum eng_err fx_attack(struct fx *f, const char *attacker,
                                     const char *target, const char *roll,
                                     const char *damage, const char *options)
{
    static char buf[RS_MAX_TOKENS_TEXT * 2 + 2];
    static struct rs_arg args[RS_MAX_TOKENS];
    struct rs_attack a = {fx_by(f, attacker), fx_by(f, target), roll, damage,
                          options, args, 0};
    struct rs_call *c = fx_call(f, NULL);
    enum eng_err err = rs_bind_tokens(c, "/attack options:",
                                      rs_tactical.attack_opts, options, buf,
                                      sizeof buf, args, RS_MAX_TOKENS,
                                      &a.nargs, &f->d);
    if (err != ENG_OK)
        return err;
    return rs_tactical.ops->attack(c, &a);
}

/* The action points who has left. */
static inline int64_t fx_ap(struct fx *f, const char *who)
{
    return TAC_ST(fx_by(f, who))->ap;
}

/* The first event of the last call of kind whose text contains s. */
static inline const struct enc_event *fx_event(struct fx *f, int kind,
                                               const char *s)
{
    return rs_fx_find(&f->fx, kind, s);
}

/* Whether ev has a modifier whose reason contains s; its amount in *amount
 * when it has one. */
static inline bool fx_mod(const struct enc_event *ev, const char *s,
                          int64_t *amount)
{
    for (int i = 0; ev != NULL && i < ev->nmods; i++)
        if (strstr(ev->mods[i].reason, s) != NULL) {
            if (amount != NULL)
                *amount = ev->mods[i].amount;
            return true;
        }
    return false;
}

/* Give who a condition the way the GM's /combat condition does. */
static inline enum eng_err fx_give(struct fx *f, const char *who,
                                   const char *cond, int value)
{
    struct rs_cond_give q = {.name = cond, .value = value,
                             .value_given = value != 0, .rounds = -1,
                             .expire = ENC_EXPIRE_END};
    return rs_cond_give(fx_call(f, NULL), &rs_tactical, fx_by(f, who), &q,
                        false);
}

/* Whether the last command emitted a text event containing s. */
static inline int fx_said(struct fx *f, const char *s)
{
    return rs_fx_said(&f->fx, s);
}

/* The current value of who's track. */
static inline int64_t fx_track(struct fx *f, const char *who,
                               const char *track)
{
    return rs_fx_track(&f->fx, who, track);
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
    return rs_fx_faces(&f->fx, i, faces, max);
}

/* The index of the first roll whose label contains s, or -1. */
static inline int fx_roll(struct fx *f, const char *s)
{
    for (int i = 0; i < f->r.nrolls; i++)
        if (strstr(f->r.rolls[i].label, s) != NULL)
            return i;
    return -1;
}

/* The dice of the first roll attached to ev, or -1. */
static inline int fx_ev_dice(struct fx *f, const struct enc_event *ev)
{
    if (ev == NULL || ev->nrolls == 0)
        return -1;
    int faces[64];
    return fx_faces(f, ev->rolls[0], faces, 64);
}

#endif
