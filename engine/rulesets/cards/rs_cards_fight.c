/*
 * rs_cards_fight.c - the `cards` ruleset: reactions (dodges, parries,
 * holding and breaking free, chases), and fleeing. Attacks are in
 * rs_cards_attack.c.
 */
#include <stdio.h>
#include <string.h>

#include "rs_cards.h"
#include "turn.h"

/* ---- pure rules ---------------------------------------------------------- */

bool cards_breakfree(int held, int holder, bool holder_reacted)
{
    return holder_reacted ? held > holder : held >= 1;
}

bool cards_flee(int flee, int chase)
{
    return flee - chase >= 1;
}

/* ---- reactions ----------------------------------------------------------- */

/* Who holds who (the Held condition's source), or NULL. */
static struct enc_combatant *cards_holder(struct encounter *e,
                                          struct enc_combatant *who)
{
    struct enc_cond *q = enc_cond_find(who, CARDS_HELD);
    return q != NULL && q->source != 0 ? enc_by_id(e, q->source) : NULL;
}

static bool cards_is_holding(struct encounter *e,
                             const struct enc_combatant *who)
{
    for (int i = 0; i < e->ncs; i++) {
        struct enc_cond *q = enc_cond_find(&e->cs[i], CARDS_HELD);
        if (q != NULL && q->source == who->id)
            return true;
    }
    return false;
}

static void cards_release(struct rs_call *c, struct enc_combatant *who)
{
    enc_cond_remove(c->e, who, CARDS_HELD, c->r, c->d);
    if (cards_silenced(who))
        enc_cond_remove(c->e, who, CARDS_SILENCED, c->r, c->d);
    c->d->code = ENG_OK;
}

/* The held one tries to break free now: a fast maneuver, once a turn. */
static enum eng_err cards_break_now(struct rs_call *c,
                                    struct enc_combatant *who, int base)
{
    struct encounter *e = c->e;
    struct cards_comb *st = CARDS_C(who);
    if (st->break_seq == (int64_t)e->turn_seq + 1)
        return enc_fail(c->d, ENG_STATE, "%s has tried to break free this "
                        "turn already", who->name);
    struct enc_combatant *holder = cards_holder(e, who);
    enum eng_err err = cards_spend(c, who, false, true);
    if (err != ENG_OK)
        return err;
    st->break_seq = (int64_t)e->turn_seq + 1;
    struct cards_roll r;
    err = cards_roll_test(c, who, N_("break free"), base, 0, true, true, &r);
    if (err != ENG_OK)
        return err;
    struct cards_comb *hst = holder != NULL ? CARDS_C(holder) : NULL;
    bool reacted = hst != NULL && hst->def_kind == CARDS_R_HOLD;
    int hs = reacted ? hst->def_succ : 0;
    if (reacted)
        hst->def_kind = hst->def_succ = 0;
    bool free = cards_breakfree(r.succ, hs, reacted);
    struct enc_event *ev = rs_test_event(c, ENC_EV_TEST, who, holder,
                                         "tries to break free", r.succ,
                                         reacted ? hs : 1,
                                         free ? N_("breaks free")
                                              : N_("still held"));
    cards_ev_pool(c, ev, &r);
    rs_mod_note(c, ev, reacted ? "against a hold: more successes than the "
                                 "holder's are needed"
                               : N_("no hold: one success is enough"));
    if (free)
        cards_release(c, who);
    return ENG_OK;
}

/* Refuse option opt unless it fits (ok): it belongs to other kinds. */
static enum eng_err cards_only_for(struct rs_call *c, const char *opt,
                                   bool ok, const char *kinds)
{
    if (!ok && rs_arg(c, opt) != NULL)
        return enc_fail(c->d, ENG_INVALID, "%s: is for %s only", opt, kinds);
    return ENG_OK;
}

static const char *cards_react_skill(enum cards_react kind, bool unarmed)
{
    switch (kind) {
    case CARDS_R_DODGE:
    case CARDS_R_CHASE:
        return "finesse";
    case CARDS_R_PARRY:
        return unarmed ? "force" : "strike";
    case CARDS_R_BREAKFREE:
    case CARDS_R_HOLD:
        return "force";
    case CARDS_R_NONE:
    case CARDS_R_RESIST:
    case CARDS_R_OTHER:
        break;
    }
    return NULL;
}

/* What a reaction of kind may be given besides name:, kind: and against:. */
static enum eng_err cards_react_opts(struct rs_call *c, enum cards_react kind)
{
    enum eng_err err = cards_only_for(c, "unarmed", kind == CARDS_R_PARRY,
                                      "kind:parry");
    if (err == ENG_OK)
        err = cards_only_for(c, "need", kind == CARDS_R_RESIST,
                             "kind:resist");
    if (err == ENG_OK)
        err = cards_only_for(c, "label", kind == CARDS_R_OTHER,
                             "kind:other");
    if (err == ENG_OK)
        err = cards_only_for(c, "pool", kind != CARDS_R_OTHER,
                             "reactions that roll");
    if (err == ENG_OK)
        err = cards_only_for(c, "skill", kind != CARDS_R_OTHER,
                             "reactions that roll");
    /* A hold answers whoever it holds; resisting magic and other
     * reactions answer nobody in particular. */
    if (err == ENG_OK)
        err = cards_only_for(c, "against", kind != CARDS_R_HOLD &&
                                           kind != CARDS_R_RESIST &&
                                           kind != CARDS_R_OTHER,
                             "dodge, parry, breakfree and chase");
    return err;
}

/* A reaction that needs no roll: a fast maneuver spent out of turn. */
static enum eng_err cards_react_other(struct rs_call *c,
                                      struct enc_combatant *who)
{
    enum eng_err err = cards_spend(c, who, false, true);
    if (err != ENG_OK)
        return err;
    CARDS_C(who)->first_bonus = 0;    /* nothing rolled to add it to */
    const char *label = rs_arg_text(c, "label", NULL);
    if (label != NULL)
        RS_SAY(c, who, "{} reacts: {}", RS_A_WHO(who), RS_A_USER(label));
    else
        RS_SAY(c, who, "{} reacts.", RS_A_WHO(who));
    return ENG_OK;
}

/* /react name: kind: against: pool:|skill: unarmed: need: label: */
enum eng_err cards_do_react(struct rs_call *c)
{
    struct encounter *e = c->e;
    struct enc_combatant *who = rs_arg_who(c, "name");
    struct enc_combatant *vs = rs_arg_who(c, "against");
    enum cards_react kind = (enum cards_react)(rs_arg(c, "kind")->i + 1);
    struct cards_comb *st = CARDS_C(who);
    if (vs == who)
        return enc_fail(c->d, ENG_INVALID, "%s cannot react against "
                        "itself", who->name);
    enum eng_err err = cards_react_opts(c, kind);
    if (err != ENG_OK)
        return err;
    bool held = enc_cond_find(who, CARDS_HELD) != NULL;
    err = cards_may(c, who, cards_react_name(kind),
                    kind == CARDS_R_PARRY || kind == CARDS_R_BREAKFREE, false);
    if (err != ENG_OK)
        return err;
    bool pends = kind != CARDS_R_RESIST && kind != CARDS_R_OTHER &&
                 !(kind == CARDS_R_BREAKFREE && held);
    if (pends && st->def_kind != CARDS_R_NONE)
        return enc_fail(c->d, ENG_STATE, "%s already has a %s ready this "
                        "round", who->name, cards_react_name(st->def_kind));
    if (kind == CARDS_R_OTHER)
        return cards_react_other(c, who);
    int base;
    err = cards_opt_pool(c, who, cards_react_skill(kind,
                                                   rs_arg_bool(c, "unarmed",
                                                               false)),
                         &base);
    if (err != ENG_OK)
        return err;
    if (kind == CARDS_R_BREAKFREE && held && vs != NULL)
        return enc_fail(c->d, ENG_INVALID, "%s is held: breaking free "
                        "answers the holder, so against: is not needed",
                        who->name);
    if (kind == CARDS_R_BREAKFREE && held)
        return cards_break_now(c, who, base);
    if (kind == CARDS_R_HOLD && !cards_is_holding(e, who))
        return enc_fail(c->d, ENG_STATE, "%s is not holding anybody",
                        who->name);
    if (kind == CARDS_R_CHASE && vs == NULL)
        return enc_fail(c->d, ENG_INVALID, "against: is required (who is "
                        "fleeing)");
    if (kind == CARDS_R_CHASE && cards_distance(who, vs) > 0)
        return enc_fail(c->d, ENG_STATE, "%s is not in the zone of %s",
                        vs->name, who->name);
    err = cards_spend(c, who, false, true);
    if (err != ENG_OK)
        return err;
    struct cards_roll r;
    err = cards_roll_test(c, who, cards_react_name(kind), base, 0, true,
                          true, &r);
    if (err != ENG_OK)
        return err;
    if (kind == CARDS_R_RESIST) {
        int64_t need = rs_arg_int(c, "need", 1);
        cards_test_event(c, who, N_("tries to resist the magic"), &r, need,
                         r.succ >= need ? N_("resists")
                                         : N_("does not resist"));
        return ENG_OK;
    }
    /* Declared and rolled before the attack it answers, so nobody knows
     * yet whether that attack succeeds. */
    st->def_kind = kind;
    st->def_succ = r.succ;
    st->def_vs = vs != NULL ? vs->id : 0;
    struct enc_event *ev;
    if (vs != NULL)
        ev = RS_SAY(c, who, "{} readies a {} against {}: {}", RS_A_WHO(who),
                    RS_A_TEXT(cards_react_name(kind)), RS_A_WHO(vs),
                    RS_A_ROLL(r.roll_idx));
    else
        ev = RS_SAY(c, who, "{} readies a {}: {}", RS_A_WHO(who),
                    RS_A_TEXT(cards_react_name(kind)),
                    RS_A_ROLL(r.roll_idx));
    cards_ev_pool(c, ev, &r);
    return ENG_OK;
}

/* ---- fleeing ------------------------------------------------------------- */

/* /flee name: pool:|skill: (finesse or sneak) */
enum eng_err cards_do_flee(struct rs_call *c)
{
    struct encounter *e = c->e;
    struct enc_combatant *who = rs_arg_who(c, "name");
    int base;
    enum eng_err err = cards_may(c, who, "flee", false, true);
    if (err == ENG_OK)
        err = cards_opt_pool(c, who, "finesse", &base);
    if (err == ENG_OK)
        err = cards_spend(c, who, true, false);
    struct cards_roll r;
    if (err == ENG_OK)
        err = cards_roll_test(c, who, N_("flee"), base, 0, true, true, &r);
    if (err != ENG_OK)
        return err;
    int chase = 0;
    for (int i = 0; i < e->ncs; i++) {
        const struct cards_comb *ost = CARDS_C(&e->cs[i]);
        if (ost->def_kind == CARDS_R_CHASE && ost->def_vs == who->id)
            chase += ost->def_succ;
    }
    bool away = cards_flee(r.succ, chase);
    int net = r.succ - chase;
    struct enc_event *ev = rs_test_event(c, ENC_EV_TEST, who, NULL,
                                         "tries to flee", net < 0 ? 0 : net,
                                         1, away ? N_("gets away")
                                                 : N_("stays"));
    cards_ev_pool(c, ev, &r);
    /* Each chase readied against who takes its successes off, and is
     * used up. */
    for (int i = 0; i < e->ncs; i++) {
        struct enc_combatant *o = &e->cs[i];
        struct cards_comb *ost = CARDS_C(o);
        if (ost->def_kind != CARDS_R_CHASE || ost->def_vs != who->id)
            continue;
        cards_mod_succ_t(c, ev, RS_T("{} chases", RS_A_WHO(o)),
                         -ost->def_succ, o->hidden);
        ost->def_kind = ost->def_succ = 0;
        ost->def_vs = 0;
    }
    if (away) {
        RS_SAY(c, who, "{} flees and leaves the fight.", RS_A_WHO(who));
        return cards_give(c, who, CARDS_FLED, 0, 0);
    }
    if (r.succ > 0)
        RS_SAY(c, who, "The chase keeps {} in the fight: the one fleeing "
               "and the chasers all move one zone that way.", RS_A_WHO(who));
    else
        RS_SAY(c, who, "{} fails to flee and stays in the zone.",
               RS_A_WHO(who));
    return ENG_OK;
}
