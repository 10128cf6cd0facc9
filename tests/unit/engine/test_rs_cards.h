/* The cards ruleset's fixture: the shared one (rs_fixture.h) set up for
 * cards, with combatants added as /combat add does, and success counts read
 * from the pools' faces. Include after support.h. */
#ifndef TEST_RS_CARDS_H
#define TEST_RS_CARDS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs.h"
#include "rs_cards.h"
#include "rs_fixture.h"

extern const struct rs_system rs_cards;

#define CF_GM RS_FX_GM           /* the GM's user id */

struct cf {
    RS_FX_STATE;
};

static inline int cf_setup(void **state)
{
    struct cf *f = test_calloc(1, sizeof *f);
    rs_fx_init(&f->fx, &rs_cards, 1, &f->result);
    *state = f;
    return 0;
}

static inline int cf_teardown(void **state)
{
    struct cf *f = *state;
    rs_fx_cleanup(&f->fx);
    test_free(f);
    return 0;
}

static inline struct rs_call cf_call(struct cf *f, uint64_t user)
{
    return rs_fx_call(&f->fx, user, user == CF_GM);
}

/* Set the options: pairs of name, value, ended by NULL. */
#define cf_opts(f, ...) rs_fx_opts(&(f)->fx, __VA_ARGS__)

/* Add count combatants (owner 0 = an NPC) on a side (NULL: none) with
 * stats text ("hp" sets the hp track); group:true when grouped, as /combat
 * add does. NULL when joining the running fight was refused. */
static inline struct enc_combatant *cf_add_n(struct cf *f, const char *name,
                                             int count, bool group,
                                             uint64_t owner, const char *side,
                                             const char *stats)
{
    return rs_fx_add(&f->fx, &(struct rs_fx_add){
        .name = name, .count = count, .group = group, .owner = owner,
        .side = side, .stats = stats,
        .flags = RS_FX_LIKE_ADD | RS_FX_HP_TRACK,
    });
}

static inline struct enc_combatant *cf_add(struct cf *f, const char *name,
                                           uint64_t owner, const char *stats)
{
    return cf_add_n(f, name, 1, false, owner, NULL, stats);
}

static inline struct enc_combatant *cf_who(struct cf *f, const char *name)
{
    return rs_fx_who(&f->fx, name);
}

/* Begin with the options set by cf_opts() (reset them first for none). */
static inline enum eng_err cf_begin(struct cf *f)
{
    enum eng_err err = rs_fx_begin(&f->fx, CF_GM, true);
    f->nopts = 0;
    return err;
}

static inline enum eng_err cf_next(struct cf *f)
{
    f->nopts = 0;
    return rs_fx_next(&f->fx, CF_GM, true);
}

/* Run a ruleset command with the options already set by cf_opts(). */
static inline enum eng_err cf_do(struct cf *f, uint64_t user, const char *verb)
{
    return rs_fx_action(&f->fx, user, user == CF_GM, verb);
}

static inline enum eng_err cf_attack(struct cf *f, uint64_t user,
                                     const char *atk, const char *tgt,
                                     const char *roll, const char *dmg,
                                     const char *options)
{
    f->nopts = 0;
    return rs_fx_attack(&f->fx, user, user == CF_GM, atk, tgt, roll, dmg,
                        options);
}

static inline const char *cf_current(struct cf *f)
{
    return rs_fx_current(&f->fx);
}

/* The faces of the n-th roll (0-based) recorded under label into faces;
 * returns how many (-1 when there is no such roll). Details look like
 * "[3, **6**, 1 = 1 successes]>=6". */
static inline int cf_faces_n(struct cf *f, const char *label, int nth,
                             int *faces, int max)
{
    int i = rs_fx_roll(&f->fx, label, nth);
    return i < 0 ? -1 : rs_fx_faces(&f->fx, i, faces, max);
}

/* Successes the n-th roll under label shows, counted from its faces with
 * the encounter's success face. */
static inline int cf_succ_n(struct cf *f, const char *label, int nth)
{
    int faces[128];
    int n = cf_faces_n(f, label, nth, faces, 128);
    assert_true(n >= 0);
    int succ = 0;
    for (int i = 0; i < n; i++)
        succ += faces[i] >= cards_success(f->e);
    return succ;
}

/* Dice in the n-th roll under label. */
static inline int cf_dice_n(struct cf *f, const char *label, int nth)
{
    int faces[128];
    int n = cf_faces_n(f, label, nth, faces, 128);
    assert_true(n >= 0);
    return n;
}

/* Every die a success from now on (the success face is 1): counts equal
 * pools. */
static inline void cf_sure(struct cf *f)
{
    assert_int_equal(enc_setting_set(f->e, "success", "1", &f->d), ENG_OK);
}

/* The combatant's ruleset state. */
static inline struct cards_comb *cf_st(struct cf *f, const char *name)
{
    return CARDS_C(cf_who(f, name));
}

static inline int cf_succ(struct cf *f, const char *label)
{
    return cf_succ_n(f, label, 0);
}

/* Whether the last call emitted an event whose text contains s. */
static inline bool cf_said(struct cf *f, const char *s)
{
    return rs_fx_said(&f->fx, s);
}

static inline int64_t cf_harm(struct cf *f, const char *name,
                              const char *track)
{
    return rs_fx_track(&f->fx, name, track);
}

#endif
