/*
 * test_rs_factions.h - the factions ruleset's fixture: the shared one
 * (rs_fixture.h) set up for factions, with calls made as the command layer
 * makes them (options bound to the declared specs). It uses only the
 * system's public surface, so the chapter's tests run against any version
 * of the ruleset. Include after support.h.
 */
#ifndef TEST_RS_FACTIONS_H
#define TEST_RS_FACTIONS_H

#include <stdio.h>
#include <string.h>

#include "enc.h"
#include "rs.h"
#include "rs_fixture.h"
#include "rs_kit.h"

extern const struct rs_system rs_factions;

/* The shared ruleset fixture (rs_fixture.h) set up for factions. */
struct fx {
    RS_FX_STATE;
};

static inline int fx_setup(void **state)
{
    struct fx *f = test_calloc(1, sizeof *f);
    rs_fx_init(&f->fx, &rs_factions, 1, &f->result);
    *state = f;
    return 0;
}

static inline int fx_teardown(void **state)
{
    struct fx *f = *state;
    rs_fx_cleanup(&f->fx);
    test_free(f);
    return 0;
}

static inline struct rs_call fx_call(struct fx *f, bool gm, uint64_t user)
{
    return rs_fx_call(&f->fx, user, gm);
}

/* Set up to two options (a NULL name: none from there on). */
static inline void fx_opts(struct fx *f, const char *k1, const char *v1,
                           const char *k2, const char *v2)
{
    rs_fx_opts(&f->fx, k1, v1, k2, v2, NULL);
}

static inline void fx_log(struct fx *f)
{
    rs_fx_log(&f->fx);
}

/* Whether the last call emitted a text event (not a roll, a condition...)
 * containing needle. */
static inline bool fx_has_text(const struct fx *f, const char *needle)
{
    return rs_fx_find(&f->fx, RS_FX_ANY, needle) != NULL;
}

/* Add a combatant (owner 0 = an NPC) to a faction with stats. */
static inline struct enc_combatant *fx_add(struct fx *f, const char *name,
                                           const char *side,
                                           const char *stats, uint64_t owner)
{
    return rs_fx_add(&f->fx, &(struct rs_fx_add){
        .name = name, .owner = owner, .side = side, .stats = stats,
    });
}

static inline struct enc_combatant *fx_who(struct fx *f, const char *name)
{
    return rs_fx_who(&f->fx, name);
}

/* /combat begin with up to two of its options (NULL: none). */
static inline enum eng_err fx_begin_with(struct fx *f, const char *k1,
                                         const char *v1, const char *k2,
                                         const char *v2)
{
    fx_opts(f, k1, v1, k2, v2);
    enum eng_err err = rs_fx_begin(&f->fx, RS_FX_GM, true);
    f->nopts = 0;
    return err;
}

static inline enum eng_err fx_begin(struct fx *f, const char *first)
{
    return fx_begin_with(f, first ? "first" : NULL, first, NULL, NULL);
}

static inline enum eng_err fx_pick(struct fx *f, const char *name)
{
    return rs_fx_pick(&f->fx, RS_FX_GM, true, name);
}

static inline enum eng_err fx_next(struct fx *f)
{
    return rs_fx_next(&f->fx, RS_FX_GM, true);
}

static inline enum eng_err fx_pass(struct fx *f)
{
    return rs_fx_pass(&f->fx, RS_FX_GM, true);
}

static inline enum eng_err fx_action(struct fx *f, const char *verb,
                                     bool gm, uint64_t user)
{
    enum eng_err err = rs_fx_action(&f->fx, user, gm, verb);
    f->nopts = 0;
    return err;
}

static inline const char *fx_acting(struct fx *f)
{
    assert_true(f->e->acting_side >= 0);
    return f->e->sides[f->e->acting_side].name;
}

static inline void fx_setting(struct fx *f, const char *k, const char *v)
{
    struct rs_call c = fx_call(f, true, 1);
    char text[64];
    snprintf(text, sizeof text, "%s=%s", k, v);
    assert_int_equal(rs_settings_apply(&c, &rs_factions, text), ENG_OK);
}

/* /attack as the command layer makes it: options: bound to the system's
 * declared attack options (a system that reads the text itself gets only
 * the text). */
static inline enum eng_err fx_attack(struct fx *f, const char *att,
                                     const char *tgt, const char *damage,
                                     const char *options)
{
    struct rs_call c = fx_call(f, true, 1);
    struct rs_attack a = {
        .attacker = fx_who(f, att), .target = fx_who(f, tgt),
        .damage = damage, .options = options,
    };
    struct rs_arg args[RS_MAX_TOKENS];
    char buf[RS_MAX_TOKENS_TEXT * 2 + 2];
    if (rs_factions.attack_opts != NULL) {
        enum eng_err err = rs_bind_tokens(&c, "/attack options:",
                                          rs_factions.attack_opts, options,
                                          buf, sizeof buf, args,
                                          RS_MAX_TOKENS, &a.nargs, c.d);
        if (err != ENG_OK)
            return err;
        a.args = args;
    }
    enum eng_err err = rs_factions.ops->attack(&c, &a);
    fx_log(f);
    return err;
}

/* The chapter's example of the fast and slow phases: Balthasar (WIT 12),
 * Sybilla (6) and Theobald (9) against two bandits (8) and their leader
 * (10), with the optional rule on. Bandit 1's AGI 20 always dodges. */
static inline void fx_example_cast(struct fx *f)
{
    fx_setting(f, "phases", "on");
    fx_add(f, "Balthasar", "Players", "str=10 agi=10 wit=12 hp=8", 0);
    fx_add(f, "Sybilla", "Players", "str=10 agi=10 wit=6 hp=8", 0);
    fx_add(f, "Theobald", "Players", "str=10 agi=10 wit=9 hp=8", 0);
    fx_add(f, "Bandit 1", "Bandits", "str=10 agi=20 wit=8 hp=6", 0);
    fx_add(f, "Bandit 2", "Bandits", "str=10 agi=10 wit=8 hp=6", 0);
    fx_add(f, "Leader", "Bandits", "str=10 agi=10 wit=10 hp=8", 0);
}

static inline int64_t fx_hp(struct fx *f, const char *name)
{
    return rs_fx_track(&f->fx, name, "hp");
}

static inline bool fx_acted(struct fx *f, const char *name)
{
    return (fx_who(f, name)->flags & ENC_CF_ACTED) != 0;
}

#endif
