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

#endif
