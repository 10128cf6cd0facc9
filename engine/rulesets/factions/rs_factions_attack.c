/*
 * rs_factions_attack.c - the `factions` ruleset: /attack.
 *
 * Attacks hit automatically unless the circumstances call for a WIT save to
 * hit; the target may react once the hit stands and before damage: given in
 * the attack's options (spent only when the attack hits), or, when the save
 * passed and no reaction came with it, answered afterwards with /react
 * (rs_factions_wait.c keeps the attack waiting). A reaction given with the
 * attack that cannot be made (the target is surprised, unaware, or has
 * already acted) is left out and the attack goes on without it, saying why.
 * Blasts hit every character in a zone.
 */
#include "rs_factions.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "eng_text.h"
#include "turn.h"

/* ---- the options -------------------------------------------------------- */

/* The flags of /attack options: (rs_factions_decl.c declares them): a
 * bit of how, or a bool of struct fac_atk. */
static const struct {
    const char *word;
    unsigned how;
    size_t flag;             /* offsetof the bool, or 0 for a how bit */
} fac_words[] = {
    {"melee", FAC_AT_MELEE, 0},
    {"ranged", FAC_AT_RANGED, 0},
    {"indirect", FAC_AT_INDIRECT, 0},
    {"far", FAC_AT_FAR, 0},
    {"moving", FAC_AT_MOVING, 0},
    {"unseen", FAC_AT_UNSEEN, 0},
    {"challenging", FAC_AT_CHALLENGING, 0},
    {"impaired", 0, offsetof(struct fac_atk, impaired)},
    {"concealment", 0, offsetof(struct fac_atk, impaired)},
    {"holdback", 0, offsetof(struct fac_atk, impaired)},
    {"unarmed", 0, offsetof(struct fac_atk, unarmed)},
    {"cover", 0, offsetof(struct fac_atk, cover)},
    {"penetrates", 0, offsetof(struct fac_atk, penetrates)},
    {"final", 0, offsetof(struct fac_atk, final)},
    {"opportunity", 0, offsetof(struct fac_atk, opportunity)},
    {"unaware", 0, offsetof(struct fac_atk, unaware)},
    {"damaged", 0, offsetof(struct fac_atk, damaged)},
    {"improvised", 0, offsetof(struct fac_atk, damaged)},
    {"disarm", 0, offsetof(struct fac_atk, disarm)},
    {"grapple", 0, offsetof(struct fac_atk, grapple)},
    {"blast", 0, offsetof(struct fac_atk, blast)},
    {"wait", 0, offsetof(struct fac_atk, wait)},
    {"stunt", 0, offsetof(struct fac_atk, stunt)},
    {"peek", 0, offsetof(struct fac_atk, peek)},
};

/* neighbours=2/3/5: zone numbers joined by '/'. */
static enum eng_err fac_read_neighbours(struct rs_call *c, const char *v,
                                        struct fac_atk *o)
{
    const char *p = v;
    while (*p != '\0') {
        int64_t z;
        const char *end = eng_text_parse_int(p, &z);
        if (end == NULL || z < 0 || z > FAC_MAX_ZONE ||
            (*end != '\0' && *end != '/'))
            return enc_fail(c->d, ENG_INVALID, "neighbours are zone numbers "
                            "0 to %d joined by /, like 2/3/5", FAC_MAX_ZONE);
        if (o->nneigh >= FAC_MAX_NEIGHBOURS)
            return enc_fail(c->d, ENG_LIMIT, "too many neighbours (limit is "
                            "%d)", FAC_MAX_NEIGHBOURS);
        o->neighbours[o->nneigh++] = z;
        p = *end == '/' ? end + 1 : end;
    }
    return ENG_OK;
}

/* The reaction words: react=dodge|counter|none, dodge, counter=<dice>. */
static enum eng_err fac_read_react(struct rs_call *c, const struct rs_attack *a,
                                   struct fac_atk *o)
{
    static const enum fac_rx by_choice[] = {FAC_RX_DODGE, FAC_RX_COUNTER,
                                            FAC_RX_DECLINE};
    const struct rs_arg *r = rs_arg_in(a->args, a->nargs, "react");
    const struct rs_arg *d = rs_arg_in(a->args, a->nargs, "dodge");
    const struct rs_arg *k = rs_arg_in(a->args, a->nargs, "counter");
    o->react = r != NULL ? by_choice[r->i] : FAC_RX_NONE;
    o->counter = k != NULL ? k->text : NULL;
    if (d != NULL && d->i != 0) {
        if (o->react != FAC_RX_NONE && o->react != FAC_RX_DODGE)
            return enc_fail(c->d, ENG_INVALID, "choose one reaction: dodge "
                            "or react=%s", r->text);
        o->react = FAC_RX_DODGE;
    }
    if (k != NULL && o->react == FAC_RX_NONE)
        o->react = FAC_RX_COUNTER;
    /* A blast names its counterer with by=; its dodgers with dodgers=. */
    if (k != NULL && o->react != FAC_RX_COUNTER)
        return enc_fail(c->d, ENG_INVALID, "counter=%s is the countering "
                        "weapon's dice, and the reaction given is not a "
                        "counter", k->text);
    return ENG_OK;
}

/* The /attack options:, bound to the declared specs by the command layer,
 * as a struct fac_atk. */
static enum eng_err fac_read_atk(struct rs_call *c, const struct rs_attack *a,
                                 struct fac_atk *o)
{
    memset(o, 0, sizeof *o);
    o->zone = -1;
    for (int i = 0; i < a->nargs; i++) {
        const struct rs_arg *g = &a->args[i];
        for (size_t k = 0; k < sizeof fac_words / sizeof fac_words[0]; k++) {
            if (strcmp(g->spec->name, fac_words[k].word) != 0 || g->i == 0)
                continue;
            if (fac_words[k].flag == 0)
                o->how |= fac_words[k].how;
            else
                *(bool *)((char *)o + fac_words[k].flag) = true;
        }
    }
    const struct rs_arg *g;
    if ((g = rs_arg_in(a->args, a->nargs, "guard")) != NULL)
        o->guard = g->who;
    if ((g = rs_arg_in(a->args, a->nargs, "hide")) != NULL)
        o->hide = g->who;
    if ((g = rs_arg_in(a->args, a->nargs, "by")) != NULL)
        o->by = g->who;
    if ((g = rs_arg_in(a->args, a->nargs, "dodgers")) != NULL)
        o->dodgers = g->text;
    if ((g = rs_arg_in(a->args, a->nargs, "zone")) != NULL)
        o->zone = g->i;
    enum eng_err err = ENG_OK;
    if ((g = rs_arg_in(a->args, a->nargs, "neighbours")) != NULL)
        err = fac_read_neighbours(c, g->text, o);
    return err != ENG_OK ? err : fac_read_react(c, a, o);
}

/* ---- one target --------------------------------------------------------- */

/* A reaction given with the attack that will not be made, and why. */
#define FAC_MAX_DROPPED 3
struct fac_dropped {
    const struct enc_combatant *who;
    const char *what, *why;
};

/* Who reacts and how, checked before anything changes. */
struct fac_plan {
    struct enc_combatant *tgt;     /* after guard / hide */
    struct enc_combatant *shifter; /* the guard or the one hiding */
    bool need;                     /* WIT save to hit */
    const char *need_why;          /* what calls for it */
    enum fac_rx rx;                /* the reaction that will be made */
    struct fac_dropped dropped[FAC_MAX_DROPPED];
    int ndropped;
};

static void fac_drop(struct fac_plan *pl, const struct enc_combatant *who,
                     const char *what, const char *why)
{
    if (pl->ndropped < FAC_MAX_DROPPED)
        pl->dropped[pl->ndropped++] = (struct fac_dropped){who, what, why};
}

static const char *fac_rx_word(enum fac_rx rx)
{
    return rx == FAC_RX_DODGE ? N_("dodge") : N_("counter");
}

/* What calls for the WIT save to hit, for its line. */
static const char *fac_need_why(unsigned how)
{
    if (how & FAC_AT_INDIRECT)
        return N_("an indirect attack");
    if (how & FAC_AT_UNSEEN)
        return N_("the target is not visible");
    if ((how & FAC_AT_RANGED) && (how & FAC_AT_FAR))
        return N_("beyond half range");
    if ((how & FAC_AT_RANGED) && (how & FAC_AT_MOVING))
        return N_("shooting while moving");
    return N_("challenging circumstances");
}

/* The basic checks: the attack is possible and complete. */
static enum eng_err fac_plan_attack(struct rs_call *c,
                                    const struct rs_attack *a,
                                    const struct fac_atk *o)
{
    if ((o->disarm || o->grapple) && (o->how & (FAC_AT_RANGED |
                                                FAC_AT_INDIRECT)))
        return enc_fail(c->d, ENG_STATE, "disarm and grapple need a nearby "
                        "target");
    if (o->disarm && o->grapple)
        return enc_fail(c->d, ENG_INVALID, "choose disarm or grapple");
    if (!o->disarm && !o->grapple && a->damage == NULL && !o->unarmed) {
        enc_fail(c->d, ENG_INVALID, "damage: is required (the weapon's "
                 "dice), or give options:unarmed");
        enc_hint(c->d, "/attack attacker:... target:... damage:d8");
        return ENG_INVALID;
    }
    bool reacting = (o->react != FAC_RX_NONE && o->react != FAC_RX_DECLINE) ||
                    o->guard != NULL || o->hide != NULL;
    if (reacting && o->stunt)
        return enc_fail(c->d, ENG_STATE, "a stunt is proposed first: the "
                        "target answers with /react");
    if (o->dodgers != NULL || o->by != NULL)
        return enc_fail(c->d, ENG_INVALID, "dodgers= and by= are for blasts; "
                        "the target of one attack just dodges");
    if (o->zone >= 0 || o->nneigh > 0)
        return enc_fail(c->d, ENG_INVALID, "zone= and neighbours= are for "
                        "blasts");
    if (o->guard != NULL && o->hide != NULL)
        return enc_fail(c->d, ENG_INVALID, "choose guard or hide, not both");
    if (o->opportunity)
        return fac_check_react(c, a->attacker);
    return ENG_OK;
}

/* guard= or hide=: who takes the target's place. */
static enum eng_err fac_plan_shift(struct rs_call *c, const struct rs_attack *a,
                                   const struct fac_atk *o,
                                   struct fac_plan *pl)
{
    bool guard = o->guard != NULL;
    struct enc_combatant *other = guard ? o->guard : o->hide;
    if (other == a->attacker || other == a->target)
        return enc_fail(c->d, ENG_INVALID, "%s cannot take that place",
                        other->name);
    if (!turn_can_act(other))
        return enc_fail(c->d, ENG_STATE, "%s is out of the fight",
                        other->name);
    /* The guard spends its own reaction; one hiding spends the
     * target's, and the new target may react in turn. */
    struct enc_combatant *spender = guard ? other : a->target;
    enum eng_err err = rs_require_actor(c, spender);
    if (err != ENG_OK)
        return err;
    const char *why = fac_react_block(spender);
    if (why != NULL) {
        fac_drop(pl, spender, guard ? N_("guard") : N_("hide"), why);
        return ENG_OK;
    }
    pl->shifter = spender;
    pl->tgt = other;
    const struct enc_cond *grab = guard ? NULL :
        enc_cond_find(other, FAC_COND_GRABBED);
    if (pl->rx != FAC_RX_NONE && guard) {
        fac_drop(pl, other, fac_rx_word(pl->rx), N_("a guard has spent the "
                 "reaction"));
        pl->rx = FAC_RX_NONE;
    } else if (pl->rx != FAC_RX_NONE && grab != NULL &&
               grab->source == a->target->id) {
        fac_drop(pl, other, fac_rx_word(pl->rx), N_("held by the one hiding "
                 "behind them"));
        pl->rx = FAC_RX_NONE;
    }
    return ENG_OK;
}

/* The checks of a single-target attack: who reacts and how; reactions
 * that cannot be made are dropped with their reason. */
static enum eng_err fac_plan(struct rs_call *c, const struct rs_attack *a,
                             const struct fac_atk *o, struct fac_plan *pl)
{
    struct enc_combatant *att = a->attacker;
    memset(pl, 0, sizeof *pl);
    pl->tgt = a->target;
    const char *why;
    enum eng_err err = fac_rule_hit(o->how, &pl->need, &why);
    if (err != ENG_OK)
        return enc_fail(c->d, err, "%s", fac_diag_word(c->d, why));
    pl->need_why = fac_need_why(o->how);
    if (att == a->target)
        return enc_fail(c->d, ENG_INVALID, "an attacker cannot target "
                        "themselves");
    if (!turn_can_act(att))
        return enc_fail(c->d, ENG_STATE, "%s is out of the fight", att->name);
    if (o->final) {
        if (!(a->target->flags & ENC_CF_DOWN) ||
            (a->target->flags & ENC_CF_DEAD))
            return enc_fail(c->d, ENG_STATE, "a final blow needs an "
                            "incapacitated target");
        if (o->how & (FAC_AT_RANGED | FAC_AT_INDIRECT))
            return enc_fail(c->d, ENG_STATE, "a final blow needs a nearby "
                            "target");
        return ENG_OK;
    }
    err = fac_plan_attack(c, a, o);
    if (err != ENG_OK)
        return err;
    if (o->react == FAC_RX_DODGE || o->react == FAC_RX_COUNTER)
        pl->rx = o->react;
    /* Nobody reacts to an attack from hiding, one the target does not
     * know of, or an opportunity attack. */
    const char *all = o->opportunity ? N_("an opportunity attack cannot be "
                                       "reacted to") :
                      o->unaware ? N_("unaware of the attacker") :
                      fac_surprised(att, o) ? N_("taken by surprise") : NULL;
    if (all != NULL) {
        if (o->guard != NULL)
            fac_drop(pl, o->guard, N_("guard"), all);
        if (o->hide != NULL)
            fac_drop(pl, a->target, N_("hide"), all);
        if (pl->rx != FAC_RX_NONE)
            fac_drop(pl, a->target, fac_rx_word(pl->rx), all);
        pl->rx = FAC_RX_NONE;
    } else if (o->guard != NULL || o->hide != NULL) {
        err = fac_plan_shift(c, a, o, pl);
    }
    if (err == ENG_OK && pl->rx != FAC_RX_NONE) {
        err = rs_require_actor(c, pl->tgt);
        if (err == ENG_OK && (why = fac_react_block(pl->tgt)) != NULL) {
            fac_drop(pl, pl->tgt, fac_rx_word(pl->rx), why);
            pl->rx = FAC_RX_NONE;
        }
    }
    bool disarm;
    if (err == ENG_OK && pl->rx == FAC_RX_DODGE)
        err = fac_need_attr(c, pl->tgt, "agi");
    if (err == ENG_OK && pl->rx == FAC_RX_COUNTER) {
        if (o->counter == NULL) {
            enc_fail(c->d, ENG_INVALID, "a counter needs the countering "
                     "weapon's dice");
            enc_hint(c->d, "options:\"counter=d6\" (or counter=unarmed)");
            return ENG_INVALID;
        }
        if (fac_counter_nonlethal(o->counter, &disarm))
            err = fac_need_attr(c, att, "str");
    }
    if (err == ENG_OK && pl->need)
        err = fac_need_attr(c, att, "wit");
    if (err == ENG_OK && (o->disarm || o->grapple))
        err = fac_need_attr(c, pl->tgt, "str");
    return err;
}

/* The final blow: a nearby incapacitated target is killed. */
static enum eng_err fac_final_blow(struct rs_call *c, struct enc_combatant *att,
                                   struct enc_combatant *tgt)
{
    tgt->flags |= ENC_CF_DEAD | ENC_CF_DOWN;
    RS_SAY(c, tgt, "{} delivers a final blow: {} is dead", RS_A_WHO(att),
           RS_A_WHO(tgt));
    return ENG_OK;
}

/* The WIT save to hit as a test: its roll is the attacker's. */
static enum eng_err fac_save_to_hit(struct rs_call *c,
                                    struct enc_combatant *att,
                                    const char *why, bool *pass)
{
    struct fac_saved s;
    enum eng_err err = fac_save_roll(c, att, "wit", &s);
    if (err != ENG_OK)
        return err;
    *pass = s.pass;
    struct enc_event *ev = rs_test_event(c, ENC_EV_TEST, att, NULL,
                                         "WIT save to hit", s.roll.total,
                                         s.score,
                                         s.pass ? N_("pass") : N_("fail"));
    rs_ev_roll(c, ev, s.roll.roll_idx);
    rs_mod_note(c, ev, why);
    return ENG_OK;
}

/* A single-target attack: plan, save to hit, reactions, effect. */
static enum eng_err fac_attack_one(struct rs_call *c,
                                   const struct rs_attack *a,
                                   const struct fac_atk *o)
{
    struct fac_plan pl;
    enum eng_err err = fac_plan(c, a, o, &pl);
    if (err != ENG_OK)
        return err;
    struct enc_combatant *att = a->attacker;
    if (o->final)
        return fac_final_blow(c, att, a->target);
    if (o->opportunity)
        fac_spend_reaction(c, att, N_("opportunity attack"), NULL);

    /* 1. the WIT save to hit, when the circumstances call for it */
    if (pl.need) {
        bool pass;
        err = fac_save_to_hit(c, att, pl.need_why, &pass);
        if (err != ENG_OK)
            return err;
        if (!pass) {
            fac_attack_event(c, att, a->target, N_("miss"), ENC_HIT_MISS);
            fac_gear(att, NULL, o);
            fac_reveal(c, att);
            return ENG_OK;
        }
    }
    /* 2. reactions, chosen after the save and before damage: given with
     * the attack, or asked for by pausing it */
    for (int i = 0; i < pl.ndropped; i++)
        fac_say_no_reaction(c, pl.dropped[i].who, pl.dropped[i].what,
                            pl.dropped[i].why);
    struct enc_combatant *tgt = pl.tgt;
    if (pl.shifter != NULL)
        fac_spend_reaction(c, pl.shifter, o->guard != NULL ? N_("guards") :
                           N_("hides behind"), o->guard != NULL ? a->target :
                           tgt);
    bool surprised = fac_surprised(att, o);
    fac_reveal(c, att);
    bool chosen = o->react != FAC_RX_NONE || o->guard != NULL ||
                  o->hide != NULL;
    if (!chosen && (o->stunt || ((pl.need || o->wait) && !surprised &&
                                 fac_may_react(tgt))))
        return fac_pending_store(c, att, tgt, a->damage, o, surprised);
    return fac_finish(c, att, tgt, a->damage, o, pl.rx, o->counter);
}

/* ---- blasts ------------------------------------------------------------- */

/* The reactions given with a blast: any of its targets may dodge
 * (dodgers=), and a single one may counter (counter=<dice> by=<name>).
 * why[k] says why dodger k cannot dodge (NULL: it may). */
struct fac_blast_rx {
    struct enc_combatant *dodgers[ENC_MAX_COMBATANTS];
    const char *why[ENC_MAX_COMBATANTS];
    int ndodgers;
    struct enc_combatant *counterer;
    const char *counter_why;
};

/* Why nobody may react to this blast, or NULL. */
static const char *fac_blast_block(const struct enc_combatant *att,
                                   const struct fac_atk *o, bool dodge)
{
    if (o->unaware)
        return N_("unaware of the attacker");
    if (fac_surprised(att, o))
        return N_("taken by surprise");
    if (dodge && (o->how & FAC_AT_MELEE))
        return N_("a melee blast cannot miss");
    return NULL;
}

static enum eng_err fac_blast_dodgers(struct rs_call *c,
                                      struct enc_combatant *att,
                                      const struct fac_atk *o,
                                      struct fac_blast_rx *x)
{
    const char *p = o->dodgers;
    char name[ENC_MAX_NAME + 1];
    bool too_long = false;
    while (p != NULL && rs_list_next(&p, name, sizeof name, &too_long)) {
        struct enc_combatant *w = rs_who(c, name, RS_WHO_ACT);
        if (w == NULL)
            return rs_fail_nobody(c, "dodgers", name);
        for (int j = 0; j < x->ndodgers; j++)
            if (x->dodgers[j] == w)
                return enc_fail(c->d, ENG_INVALID, "%s dodges once",
                                w->name);
        enum eng_err err = rs_require_actor(c, w);
        if (err != ENG_OK)
            return err;
        const char *why = fac_blast_block(att, o, true);
        if (why == NULL)
            why = fac_react_block(w);
        if (why == NULL && (err = fac_need_attr(c, w, "agi")) != ENG_OK)
            return err;
        x->why[x->ndodgers] = why;
        x->dodgers[x->ndodgers++] = w;
    }
    if (too_long)
        return enc_fail(c->d, ENG_LIMIT, "dodgers: a name is too long (limit "
                        "is %d bytes)", ENC_MAX_NAME);
    return ENG_OK;
}

static enum eng_err fac_blast_reactions(struct rs_call *c,
                                        struct enc_combatant *att,
                                        const struct fac_atk *o,
                                        struct fac_blast_rx *x)
{
    memset(x, 0, sizeof *x);
    if (o->guard != NULL || o->hide != NULL)
        return enc_fail(c->d, ENG_INVALID, "guard and hide are for attacks "
                        "on one target, not blasts");
    if (o->react == FAC_RX_DODGE) {
        enc_fail(c->d, ENG_INVALID, "name who dodges a blast");
        enc_hint(c->d, "options:\"blast dodgers=Cat,Dan\"");
        return ENG_INVALID;
    }
    bool counter = o->react == FAC_RX_COUNTER;
    if (counter != (o->by != NULL)) {
        enc_fail(c->d, ENG_INVALID, "a blast is countered by one of its "
                 "targets: give counter=<dice> and by=<name>");
        enc_hint(c->d, "options:\"blast counter=d6 by=Cat\"");
        return ENG_INVALID;
    }
    enum eng_err err = fac_blast_dodgers(c, att, o, x);
    if (err != ENG_OK || !counter)
        return err;
    x->counterer = o->by;
    if (x->counterer == att)
        return enc_fail(c->d, ENG_INVALID, "an attacker cannot counter "
                        "their own blast");
    for (int k = 0; k < x->ndodgers; k++)
        if (x->dodgers[k] == x->counterer)
            return enc_fail(c->d, ENG_INVALID, "%s cannot both dodge and "
                            "counter", x->counterer->name);
    err = rs_require_actor(c, x->counterer);
    if (err != ENG_OK)
        return err;
    x->counter_why = fac_blast_block(att, o, false);
    if (x->counter_why == NULL)
        x->counter_why = fac_react_block(x->counterer);
    bool disarm;
    if (x->counter_why == NULL && fac_counter_nonlethal(o->counter, &disarm))
        return fac_need_attr(c, att, "str");
    return ENG_OK;
}

/* The zone a blast lands in: its target zone, or where a missed ranged
 * blast deviates. *lands is false when it deviates with nowhere given. */
static enum eng_err fac_blast_zone(struct rs_call *c, struct enc_combatant *att,
                                   const struct fac_atk *o, int64_t *zone,
                                   bool *lands)
{
    bool melee = (o->how & FAC_AT_MELEE) != 0;
    bool need;
    const char *why;
    *lands = true;
    enum eng_err err = fac_rule_hit(o->how, &need, &why);
    if (err != ENG_OK)
        return enc_fail(c->d, err, "%s", fac_diag_word(c->d, why));
    *zone = o->zone;
    if (melee || *zone < 0) {
        *zone = enc_stat_or(att, "zone", -1);
        if (*zone < 0 || (!melee && o->zone < 0))
            return melee ? enc_fail(c->d, ENG_INVALID, "the attacker needs "
                                    "a zone stat for a melee blast")
                         : enc_fail(c->d, ENG_INVALID, "a ranged blast "
                                    "needs options:zone=N");
    }
    if (melee || !need)
        return ENG_OK;
    bool pass;
    err = fac_save_to_hit(c, att, fac_need_why(o->how), &pass);
    if (err != ENG_OK || pass)
        return err;
    if (o->nneigh == 0) {
        RS_SAY(c, att, "The blast misses zone {} and deviates: give "
               "options:neighbours=a/b/c to draw where", RS_A_NUM(*zone));
        *lands = false;
        return ENG_OK;
    }
    char expr[16];
    snprintf(expr, sizeof expr, "1d%d", o->nneigh);
    struct rs_rolled r;
    err = rs_roll(c, att, "blast deviation", expr, &r);
    if (err != ENG_OK)
        return err;
    *zone = o->neighbours[r.total - 1];
    RS_SAY(c, att, "The blast deviates into zone {} ({})", RS_A_NUM(*zone),
           RS_A_ROLL(r.roll_idx));
    return ENG_OK;
}

/* One target of a blast: its dodge, if any, then the attack event; *hit
 * says whether w is hit. */
static enum eng_err fac_blast_one(struct rs_call *c, struct enc_combatant *att,
                                  struct enc_combatant *w,
                                  const struct fac_blast_rx *x, bool *hit)
{
    *hit = true;
    for (int k = 0; k < x->ndodgers; k++) {
        if (x->dodgers[k] != w)
            continue;
        if (x->why[k] != NULL) {
            fac_say_no_reaction(c, w, N_("dodge"), x->why[k]);
            break;
        }
        fac_spend_reaction(c, w, N_("dodge"), NULL);
        bool pass;
        enum eng_err err = fac_save(c, w, "agi", N_("AGI save to dodge"),
                                  &pass);
        if (err != ENG_OK)
            return err;
        *hit = !pass;
    }
    fac_attack_event(c, att, w, *hit ? N_("hit") : N_("dodged"),
                     *hit ? ENC_HIT_HIT : ENC_HIT_MISS);
    return ENG_OK;
}

/* Blast: every character in a zone (stat zone). A melee blast hits the
 * attacker's zone, spares the attacker and cannot miss; a ranged blast that
 * fails its save deviates to a neighbouring zone drawn at random. One damage
 * roll serves every target, each with its own armour. */
static enum eng_err fac_blast(struct rs_call *c, const struct rs_attack *a,
                              const struct fac_atk *o)
{
    struct encounter *e = c->e;
    struct enc_combatant *att = a->attacker;
    bool melee = (o->how & FAC_AT_MELEE) != 0;
    if (o->wait || o->stunt || o->final || o->disarm || o->grapple ||
        o->opportunity)
        return enc_fail(c->d, ENG_INVALID, "a blast hits a whole zone at "
                        "once: it cannot wait, be a stunt, a final blow, a "
                        "disarm, a grapple or an opportunity attack");
    if (a->damage == NULL && !o->unarmed)
        return enc_fail(c->d, ENG_INVALID, "damage: is required for a "
                        "blast");
    struct fac_blast_rx x;
    enum eng_err err = fac_blast_reactions(c, att, o, &x);
    int64_t zone = -1;
    bool lands = false;
    if (err == ENG_OK)
        err = fac_blast_zone(c, att, o, &zone, &lands);
    if (err != ENG_OK || !lands) {
        if (err == ENG_OK)
            fac_reveal(c, att);
        return err;
    }
    fac_reveal(c, att);
    struct rs_rolled dmg;
    bool impaired = o->impaired || o->unarmed;
    err = fac_roll_damage(c, att, a->damage, impaired, &dmg);
    if (err != ENG_OK)
        return err;
    fac_gear(att, NULL, o);
    fac_weapon_check(c, att, o, &dmg);
    /* Who is in the zone, before anyone moves or falls. */
    uint32_t ids[ENC_MAX_COMBATANTS];
    int hits = 0;
    for (int i = 0; i < e->ncs; i++) {
        struct enc_combatant *w = &e->cs[i];
        if (enc_stat_or(w, "zone", -1) == zone && !(melee && w == att) &&
            !(w->flags & ENC_CF_DEAD))
            ids[hits++] = w->id;
    }
    if (hits == 0)
        RS_SAY(c, att, "Nobody is in zone {}", RS_A_NUM(zone));
    bool countered = false;
    int landed = 0;
    for (int i = 0; i < hits; i++) {
        struct enc_combatant *w = enc_by_id(e, ids[i]);
        bool hit;
        err = fac_blast_one(c, att, w, &x, &hit);
        if (err != ENG_OK)
            return err;
        if (!hit)
            continue;
        fac_gear(att, w, o);
        if (w == x.counterer && x.counter_why == NULL) {
            countered = true;    /* after the others: see below */
            continue;
        }
        struct fac_hit h = {.from = att, .roll = dmg.roll_idx,
                            .raw = dmg.total, .cover = o->cover,
                            .penetrates = o->penetrates,
                            .impaired = impaired};
        fac_hit_armour(&h, w);
        fac_land(c, w, &h);
        landed++;
    }
    /* The one damage roll shows with every hit it made; with none, on its
     * own. */
    if (landed == 0 && !countered)
        RS_SAY(c, att, "The blast rolled {} damage: nobody takes it",
               RS_A_ROLL(dmg.roll_idx));
    for (int k = 0; k < x.ndodgers; k++) {
        bool in = false;
        for (int i = 0; i < hits; i++)
            in |= ids[i] == x.dodgers[k]->id;
        if (!in)
            RS_SAY(c, x.dodgers[k], "{} is not in zone {}: no dodge needed",
                   RS_A_WHO(x.dodgers[k]), RS_A_NUM(zone));
    }
    /* The single counter, against the blast's one damage roll. */
    if (countered) {
        fac_spend_reaction(c, x.counterer, N_("counter"), NULL);
        return fac_counter(c, att, x.counterer, a->damage, o, o->counter,
                           &dmg);
    }
    if (x.counterer != NULL && x.counter_why != NULL)
        fac_say_no_reaction(c, x.counterer, N_("counter"), x.counter_why);
    else if (x.counterer != NULL)
        RS_SAY(c, x.counterer, "{} is not hit: no counter",
               RS_A_WHO(x.counterer));
    return ENG_OK;
}

/* ---- /attack ------------------------------------------------------------ */

enum eng_err fac_attack(struct rs_call *c, const struct rs_attack *a)
{
    if (c->e->status != ENC_ST_RUNNING)
        return enc_fail(c->d, ENG_STATE, "the fight has not begun");
    if (a->roll != NULL) {
        enc_fail(c->d, ENG_INVALID, "factions attacks roll no attack dice: "
                 "they hit, or ask for a WIT save to hit");
        enc_hint(c->d, "leave roll: out; options:\"challenging\" calls for "
                 "the save");
        return ENG_INVALID;
    }
    struct fac_atk o;
    enum eng_err err = fac_read_atk(c, a, &o);
    if (err == ENG_OK)
        err = fac_sync(c);
    if (err != ENG_OK)
        return err;
    if (!(o.how & (FAC_AT_MELEE | FAC_AT_RANGED | FAC_AT_INDIRECT)))
        o.how |= FAC_AT_MELEE;
    unsigned kinds = o.how & (FAC_AT_MELEE | FAC_AT_RANGED | FAC_AT_INDIRECT);
    if (kinds & (kinds - 1))
        return enc_fail(c->d, ENG_INVALID, "choose one of melee, ranged or "
                        "indirect");
    err = o.blast ? fac_blast(c, a, &o) : fac_attack_one(c, a, &o);
    return err != ENG_OK ? err : fac_recheck(c);
}
