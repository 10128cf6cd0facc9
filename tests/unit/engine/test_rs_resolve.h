/* The resolve ruleset's fixture: the shared one (rs_fixture.h) set up for
 * resolve, with combatants added as /combat add does, and the Resolve track
 * read back. Include after support.h. */
#ifndef TEST_RS_RESOLVE_H
#define TEST_RS_RESOLVE_H

#include <stdio.h>
#include <string.h>

#include "rs.h"
#include "rs_fixture.h"
#include "rs_resolve.h"

extern const struct rs_system rs_resolve;

#define RF_GM RS_FX_GM           /* the GM's user id */

struct rf {
    RS_FX_STATE;
};

static inline int rf_setup(void **state)
{
    struct rf *f = test_calloc(1, sizeof *f);
    rs_fx_init(&f->fx, &rs_resolve, 1, &f->result);
    *state = f;
    return 0;
}

static inline int rf_teardown(void **state)
{
    struct rf *f = *state;
    rs_fx_cleanup(&f->fx);
    test_free(f);
    return 0;
}

static inline struct rs_call rf_call(struct rf *f, uint64_t user)
{
    return rs_fx_call(&f->fx, user, user == RF_GM);
}

/* Set the options: pairs of name, value, ended by NULL. */
#define rf_opts(f, ...) rs_fx_opts(&(f)->fx, __VA_ARGS__)

/* Add one combatant (owner 0 = an NPC) with stats text, through setup with
 * the current options (major:true). */
static inline struct enc_combatant *rf_add(struct rf *f, const char *name,
                                           uint64_t owner, const char *stats)
{
    struct enc_combatant *who = rs_fx_add(&f->fx, &(struct rs_fx_add){
        .name = name, .owner = owner, .stats = stats,
        .flags = RS_FX_LIKE_ADD,
    });
    assert_non_null(who);
    return who;
}

static inline struct enc_combatant *rf_who(struct rf *f, const char *name)
{
    return rs_fx_who(&f->fx, name);
}

static inline enum eng_err rf_begin(struct rf *f)
{
    f->nopts = 0;
    return rs_fx_begin(&f->fx, RF_GM, true);
}

static inline enum eng_err rf_next(struct rf *f, uint64_t user)
{
    f->nopts = 0;
    return rs_fx_next(&f->fx, user, user == RF_GM);
}

/* Run a ruleset command with the options already set by rf_opts(). */
static inline enum eng_err rf_do(struct rf *f, uint64_t user, const char *verb)
{
    return rs_fx_action(&f->fx, user, user == RF_GM, verb);
}

static inline enum eng_err rf_attack(struct rf *f, uint64_t user,
                                     const char *atk, const char *tgt,
                                     const char *roll, const char *dmg,
                                     const char *options)
{
    f->nopts = 0;
    return rs_fx_attack(&f->fx, user, user == RF_GM, atk, tgt, roll, dmg,
                        options);
}

static inline const char *rf_current(struct rf *f)
{
    return rs_fx_current(&f->fx);
}

/* The faces of the roll recorded under label (first match) into faces;
 * returns how many (0 when there is no such roll). Details look like
 * "[3, 5]+1". */
static inline int rf_faces(struct rf *f, const char *label, int *faces,
                           int max)
{
    int i = rs_fx_roll(&f->fx, label, 0);
    return i < 0 ? 0 : rs_fx_faces(&f->fx, i, faces, max);
}

/* Whether the last call emitted a text event containing s. */
static inline bool rf_said(struct rf *f, const char *s)
{
    return rs_fx_said(&f->fx, s);
}

static inline int64_t rf_resolve(struct rf *f, const char *name)
{
    return rs_fx_track(&f->fx, name, RSV_RESOLVE);
}

/* Wound name and hurt them again so that a Fallen Fate is due. */
static inline void rf_fate_due(struct rf *f, const char *name)
{
    rf_opts(f, "name", name, "amount", "100", NULL);
    assert_int_equal(rf_do(f, RF_GM, "damage"), ENG_OK);
    assert_true(rsv_is_wounded(rf_who(f, name)));
    rf_opts(f, "name", name, "amount", "1", NULL);
    assert_int_equal(rf_do(f, RF_GM, "damage"), ENG_OK);
    assert_int_not_equal(rsv_st(rf_who(f, name))->fate, RSV_FATE_NONE);
}

/* Three heroes on one side (Ana, Bo with 1 Force Point, Cy, each with 10
 * Resolve, acting in that order) and a Goon on the other; begun, and Bo
 * down to 4 Resolve. */
static inline void rf_heroes(struct rf *f)
{
    rf_add(f, "Ana", 10, "init=9 resolve=10");
    rf_add(f, "Bo", 11, "init=8 resolve=10 fp=1");
    rf_add(f, "Cy", 12, "init=7 resolve=10");
    rf_add(f, "Goon", 0, "init=1 resolve=10");
    int heroes = enc_side_get(f->e, "heroes", &f->d);
    int foes = enc_side_get(f->e, "foes", &f->d);
    rf_who(f, "Ana")->side = heroes;
    rf_who(f, "Bo")->side = heroes;
    rf_who(f, "Cy")->side = heroes;
    rf_who(f, "Goon")->side = foes;
    assert_int_equal(rf_begin(f), ENG_OK);
    rf_opts(f, "name", "Bo", "amount", "6", NULL);
    assert_int_equal(rf_do(f, RF_GM, "damage"), ENG_OK);
}

#endif
