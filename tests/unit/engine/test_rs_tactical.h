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

extern const struct rs_system rs_tactical;

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

static inline enum eng_err fx_attack(struct fx *f, const char *attacker,
                              const char *target, const char *roll,
                              const char *damage, const char *options)
{
    struct rs_attack a = {fx_by(f, attacker), fx_by(f, target), roll, damage,
                          options, NULL, 0};
    return rs_tactical.ops->attack(fx_call(f, NULL), &a);
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

#endif
