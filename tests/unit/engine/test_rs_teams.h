/*
 * test_rs_teams.h - the teams ruleset's fixture: the shared one
 * (rs_fixture.h) set up for teams, every combatant on a team. Its tests call
 * rs_teams' ops themselves through the standing call, whose user and GM
 * rights they may change (f->c.user, f->c.is_gm). Include after support.h.
 */
#ifndef TEST_RS_TEAMS_H
#define TEST_RS_TEAMS_H

#include <string.h>

#include "enc.h"
#include "eng_rng.h"
#include "rs.h"
#include "rs_fixture.h"
#include "rs_kit.h"
#include "rs_teams.h"

extern const struct rs_system rs_teams;

struct fx {
    RS_FX_STATE_BY_VALUE;
};

static struct fx *fx_new(uint64_t seed)
{
    struct fx *f = test_calloc(1, sizeof *f);
    rs_fx_init(&f->fx, &rs_teams, seed, &f->r);
    return f;
}

static void fx_free(struct fx *f)
{
    rs_fx_cleanup(&f->fx);
    test_free(f);
}

/* Set up the call with options "name", "value", ... (NULL-terminated). */
#define fx_call(f, ...) rs_fx_standing(&(f)->fx, __VA_ARGS__)

/* Add a combatant on team side with stats ("str=6 hp=12"). */
static struct enc_combatant *fx_add(struct fx *f, const char *name,
                                    const char *side, const char *stats)
{
    rs_fx_opts(&f->fx, NULL);
    return rs_fx_add(&f->fx, &(struct rs_fx_add){
        .name = name, .side = side, .stats = stats,
    });
}

static struct enc_combatant *fx_by(struct fx *f, const char *name)
{
    return rs_fx_who(&f->fx, name);
}

static const char *fx_current(struct fx *f)
{
    return rs_fx_current(&f->fx);
}

static enum eng_err fx_pick(struct fx *f, const char *name)
{
    return rs_teams.ops->pick(fx_call(f, NULL), fx_by(f, name));
}

static enum eng_err fx_next(struct fx *f)
{
    return rs_teams.ops->next(fx_call(f, NULL));
}

/* Whether the last command emitted a text event containing s. */
static int fx_said(struct fx *f, const char *s)
{
    return rs_fx_said(&f->fx, s);
}

static int64_t fx_track(struct fx *f, const char *who, const char *track)
{
    return rs_fx_track(&f->fx, who, track);
}

/* /attack as the command layer makes it: options: bound to the declared
 * attack options first (a refusal there is returned). */
static inline enum eng_err fx_attack(struct fx *f, const char *atk,
                                     const char *tgt, const char *roll,
                                     const char *dmg, const char *opts)
{
    static struct rs_arg args[RS_MAX_TOKENS];
    static char buf[RS_MAX_TOKENS_TEXT * 2 + 2];
    struct rs_attack a = {fx_by(f, atk), fx_by(f, tgt), roll, dmg, opts,
                          args, 0};
    struct rs_call *c = fx_call(f, NULL);
    enum eng_err err = rs_bind_tokens(c, "/attack options:",
                                      rs_teams.attack_opts, opts, buf,
                                      sizeof buf, args, RS_MAX_TOKENS,
                                      &a.nargs, c->d);
    if (err != ENG_OK)
        return err;
    return rs_teams.ops->attack(c, &a);
}

/* The last call's first event of kind, or NULL. */
static inline const struct enc_event *fx_ev(struct fx *f, enum enc_ev kind)
{
    for (int i = 0; i < f->r.nev; i++)
        if (f->r.ev[i].kind == kind)
            return &f->r.ev[i];
    return NULL;
}

#endif
