/*
 * rs_cards_effects.c - the `cards` ruleset's special effects: fear, fire,
 * poison and falling, and the round-start ticks of fire and poison.
 *
 * Each is a GM command with its procedure (the player rolls nothing by
 * hand): the GM gives the numbers the chapter leaves to the Director (a
 * fear value and position, a fire's intensity, a poison's toxicity, a
 * fall's height) and the engine rolls both sides and applies the Harm. The
 * GM's own dice (toxicity, the fall) are rolled as the GM's and shown with
 * the victim's.
 */
#include <stdio.h>
#include <string.h>

#include "rs_cards.h"

/* ---- pure rules ---------------------------------------------------------- */

int cards_fear_allies(int pcs)
{
    return pcs < 0 ? 0 : pcs > CARDS_FEAR_MAX_ALLIES ? CARDS_FEAR_MAX_ALLIES
                                                     : pcs;
}

int cards_fear_harm(enum cards_position pos, int successes, int need,
                    int *bonus)
{
    *bonus = 0;
    if (successes >= need) {
        *bonus = pos == CARDS_CONTROLLED;
        return 0;
    }
    switch (pos) {
    case CARDS_CONTROLLED:
        return CARDS_FEAR_CONTROLLED;
    case CARDS_RISKY:
        return CARDS_FEAR_RISKY;
    case CARDS_DESPERATE:
        return CARDS_FEAR_DESPERATE;
    }
    return CARDS_FEAR_RISKY;
}

int cards_fire_damage(int intensity, int endure)
{
    return intensity > endure ? intensity - endure : 0;
}

int cards_poison_harm(int toxin, int endure)
{
    if (endure > toxin)
        return 0;
    if (endure == toxin)
        return 1;
    return toxin;
}

int cards_fall_dice(int feet)
{
    return feet < CARDS_FALL_MIN ? 0 : feet / CARDS_FALL_STEP;
}

int cards_fall_harm(int fall, int endure)
{
    return fall > endure ? fall - endure : 0;
}

/* ---- fear ---------------------------------------------------------------- */

/* Severe Mental Harm keeps a character from counting for a fear test.
 * Fights saved before the condition was declared may carry it as
 * "Severe". */
static bool cards_severe(struct enc_combatant *who)
{
    return enc_cond_find(who, CARDS_SEVERE) != NULL ||
           enc_cond_find(who, "Severe") != NULL;
}

/* The player characters present for who's fear test, who included when
 * it is one (our reading: the README's decision): in a fight, those in its
 * zone; not those with Severe Mental Harm, nor those who fled or died. */
static int cards_fear_count(struct encounter *e, struct enc_combatant *who)
{
    int n = 0;
    for (int i = 0; i < e->ncs; i++) {
        struct enc_combatant *o = &e->cs[i];
        if (o->owner == 0 || (o->flags & ENC_CF_DEAD) ||
            enc_cond_find(o, CARDS_FLED) != NULL || cards_severe(o))
            continue;
        if (e->status == ENC_ST_RUNNING && cards_distance(who, o) > 0)
            continue;
        n++;
    }
    return n;
}

/* /fear name: value: position: [allies:] [pool:|skill:] */
enum eng_err cards_do_fear(struct rs_call *c)
{
    struct enc_combatant *who = rs_arg_who(c, "name");
    int64_t value = rs_arg_int(c, "value", 1);
    enum cards_position pos = (enum cards_position)rs_arg(c, "position")->i;
    int base;
    enum eng_err err = cards_opt_pool(c, who, "endure", &base);
    if (err != ENG_OK)
        return err;
    int pcs = (int)rs_arg_int(c, "allies", cards_fear_count(c->e, who));
    int add = cards_fear_allies(pcs);
    struct cards_roll r;
    err = cards_roll_test(c, who, N_("fear"), base, add, true, false, &r);
    if (err != ENG_OK)
        return err;
    int bonus;
    int harm = cards_fear_harm(pos, r.succ, (int)value, &bonus);
    /* The player characters' dice are the fear test's own, not a bonus
     * given: say what they are. */
    r.bonus = 0;
    struct enc_event *ev = cards_test_event(
        c, who, N_("fear"), &r, value,
        harm > 0 ? NULL
        : bonus  ? N_("keeps control: +1 die on the next roll")
                 : N_("keeps control"));
    if (harm > 0)
        rs_ev_outcome(c, ev, RS_TN("afraid: {} Mental Harm",
                                   "afraid: {} Mental Harm", harm,
                                   RS_A_NUM(harm)));
    if (add > 0)
        cards_mod_dice_t(c, ev,
                         RS_T("player characters present: {}, at most {} "
                              "count", RS_A_NUM(pcs),
                              RS_A_NUM(CARDS_FEAR_MAX_ALLIES)),
                         add, r.secret);
    CARDS_C(who)->next_bonus += bonus;
    cards_add_harm(c, who, harm, true, 0);
    return ENG_OK;
}

/* ---- fire ---------------------------------------------------------------- */

static void cards_fire_out(struct rs_call *c, struct enc_combatant *who)
{
    struct cards_comb *st = CARDS_C(who);
    st->fire_need = st->fire_saved = 0;
    if (enc_cond_find(who, CARDS_BURNING) != NULL)
        enc_cond_remove(c->e, who, CARDS_BURNING, c->r, c->d);
    c->d->code = ENG_OK;
}

/* /hazard fire name: intensity: [need:] | out:true */
enum eng_err cards_do_fire(struct rs_call *c)
{
    struct enc_combatant *who = rs_arg_who(c, "name");
    bool burning = enc_cond_find(who, CARDS_BURNING) != NULL;
    if (rs_arg_bool(c, "out", false)) {
        enum eng_err err = cards_not_both(c, "out", "intensity", "the fire "
                                          "goes out");
        if (err == ENG_OK)
            err = cards_not_both(c, "out", "need", "the fire goes out");
        if (err != ENG_OK)
            return err;
        if (!burning)
            return enc_fail(c->d, ENG_STATE, "%s is not burning", who->name);
        cards_fire_out(c, who);
        RS_SAY(c, who, "The fire on {} goes out.", RS_A_WHO(who));
        return ENG_OK;
    }
    const struct rs_arg *intensity = rs_arg(c, "intensity");
    if (intensity == NULL)
        return enc_fail(c->d, ENG_INVALID, "intensity: is required (the "
                        "damage the fire does each round)");
    /* Catching fire (the Burning condition) hurts at once: the same as
     * when the GM gives Burning by hand (cards_cond_changed). */
    enum eng_err err = cards_give(c, who, CARDS_BURNING,
                                  (int32_t)intensity->i, 0);
    if (err != ENG_OK)
        return err;
    const struct rs_arg *need = rs_arg(c, "need");
    struct cards_comb *st = CARDS_C(who);
    if (need != NULL || !burning) {
        st->fire_need = need != NULL ? (int32_t)need->i : 1;
        if (st->fire_need == 1)
            RS_SAY(c, who, "Putting the fire out takes {} Finesse success.",
                   RS_A_NUM(st->fire_need));
        else
            RS_SAY(c, who, "Putting the fire out takes {} Finesse "
                   "successes.", RS_A_NUM(st->fire_need));
    }
    return ENG_OK;
}

/* /extinguish name: [pool:|skill:] - a slow maneuver; successes add up. */
enum eng_err cards_do_extinguish(struct rs_call *c)
{
    struct enc_combatant *who = rs_arg_who(c, "name");
    struct cards_comb *st = CARDS_C(who);
    if (enc_cond_find(who, CARDS_BURNING) == NULL)
        return enc_fail(c->d, ENG_STATE, "%s is not burning", who->name);
    int base;
    enum eng_err err = cards_opt_pool(c, who, "finesse", &base);
    if (err == ENG_OK)
        err = cards_spend(c, who, true, false);
    struct cards_roll r;
    if (err == ENG_OK)
        err = cards_roll_test(c, who, N_("extinguish"), base, 0, true, true,
                              &r);
    if (err != ENG_OK)
        return err;
    st->fire_saved += r.succ;
    bool out = st->fire_saved >= st->fire_need;
    struct enc_event *ev = rs_test_event(c, ENC_EV_TEST, who, NULL,
                                         "fights the fire", st->fire_saved,
                                         st->fire_need,
                                         out ? N_("the fire is out")
                                             : N_("still burning"));
    cards_ev_pool(c, ev, &r);
    if (st->fire_saved > r.succ)
        cards_mod_succ(c, ev, N_("saved from earlier turns"),
                       st->fire_saved - r.succ, false);
    if (out)
        cards_fire_out(c, who);
    return ENG_OK;
}

/* ---- poison -------------------------------------------------------------- */

static void cards_poison_end(struct rs_call *c, struct enc_combatant *who)
{
    CARDS_C(who)->poison_left = 0;
    if (enc_cond_find(who, CARDS_POISONED) != NULL)
        enc_cond_remove(c->e, who, CARDS_POISONED, c->r, c->d);
    c->d->code = ENG_OK;
}

/* /hazard poison name: toxicity: [pool:|skill:] | antidote:true */
enum eng_err cards_do_poison(struct rs_call *c)
{
    struct enc_combatant *who = rs_arg_who(c, "name");
    struct cards_comb *st = CARDS_C(who);
    if (rs_arg_bool(c, "antidote", false)) {
        static const char *const rolled[] = {"toxicity", "pool", "skill"};
        for (size_t i = 0; i < sizeof rolled / sizeof rolled[0]; i++) {
            enum eng_err err = cards_not_both(c, "antidote", rolled[i],
                                              "the antidote cancels the "
                                              "poison");
            if (err != ENG_OK)
                return err;
        }
        if (st->poison_left == 0 &&
            enc_cond_find(who, CARDS_POISONED) == NULL)
            return enc_fail(c->d, ENG_STATE, "%s is not poisoned",
                            who->name);
        cards_poison_end(c, who);
        RS_SAY(c, who, "The antidote cancels the poison in {}.",
               RS_A_WHO(who));
        return ENG_OK;
    }
    const struct rs_arg *tox = rs_arg(c, "toxicity");
    if (tox == NULL)
        return enc_fail(c->d, ENG_INVALID, "toxicity: is required (3 weak, "
                        "6 strong, 9 or more extreme)");
    int base;
    enum eng_err err = cards_opt_pool(c, who, "endure", &base);
    struct cards_roll ts, es;
    if (err == ENG_OK)
        err = cards_roll_gm(c, N_("toxicity"), (int)tox->i, &ts);
    if (err == ENG_OK)
        err = cards_roll_test(c, who, N_("endure"), base, 0, true, false, &es);
    if (err != ENG_OK)
        return err;
    int harm = cards_poison_harm(ts.succ, es.succ);
    struct enc_event *ev = rs_test_event(c, ENC_EV_TEST, who, NULL,
                                         "endures poison", es.succ, ts.succ,
                                         harm > 0 ? NULL
                                                  : N_("resists the poison"));
    if (harm > 0)
        rs_ev_outcome(c, ev, es.succ == ts.succ
                                 ? RS_TN("a tie: {} Harm", "a tie: {} Harm",
                                         harm, RS_A_NUM(harm))
                                 : RS_TN("poisoned: {} Harm",
                                         "poisoned: {} Harm", harm,
                                         RS_A_NUM(harm)));
    cards_ev_pool(c, ev, &es);
    rs_ev_roll(c, ev, ts.roll_idx);
    cards_add_harm(c, who, harm, false, 0);
    /* In the rounds after, one Harm fewer each round. */
    if (harm - 1 > st->poison_left) {
        st->poison_left = harm - 1;
        st->poison_round = c->e->round;
        if (enc_cond_find(who, CARDS_POISONED) == NULL)
            return cards_give(c, who, CARDS_POISONED, 0, 0);
    }
    return ENG_OK;
}

/* ---- falling ------------------------------------------------------------- */

/* /hazard fall name: feet: [soft:] [pool:|skill:] */
enum eng_err cards_do_fall(struct rs_call *c)
{
    struct enc_combatant *who = rs_arg_who(c, "name");
    const struct rs_arg *feet = rs_arg(c, "feet");
    if (feet == NULL)
        return enc_fail(c->d, ENG_INVALID, "feet: is required (how far %s "
                        "falls)", who->name);
    int dice = cards_fall_dice((int)feet->i);
    bool soft = rs_arg_bool(c, "soft", false);
    enum eng_err err = ENG_OK;
    if (soft)
        err = cards_not_both(c, "soft", "pool", "nothing is rolled for a "
                             "soft landing");
    if (soft && err == ENG_OK)
        err = cards_not_both(c, "soft", "skill", "nothing is rolled for a "
                             "soft landing");
    if (err != ENG_OK)
        return err;
    if (soft || dice == 0) {
        RS_SAY(c, who, "{} falls {} feet and lands unharmed ({}).",
               RS_A_WHO(who), RS_A_NUM(feet->i),
               RS_A_TEXT(dice == 0 ? N_("less than 10 feet")
                                   : N_("a soft landing")));
        return ENG_OK;
    }
    int base;
    err = cards_opt_pool(c, who, "endure", &base);
    struct cards_roll fs, es;
    if (err == ENG_OK)
        err = cards_roll_gm(c, N_("fall"), dice, &fs);
    if (err == ENG_OK)
        err = cards_roll_test(c, who, N_("endure"), base, 0, true, false, &es);
    if (err != ENG_OK)
        return err;
    int harm = cards_fall_harm(fs.succ, es.succ);
    struct enc_event *ev = rs_test_event(c, ENC_EV_TEST, who, NULL,
                                         "endures the fall", es.succ,
                                         fs.succ, NULL);
    rs_ev_outcome(c, ev, RS_TN("{} Physical Harm", "{} Physical Harm", harm,
                               RS_A_NUM(harm)));
    cards_ev_pool(c, ev, &es);
    rs_ev_roll(c, ev, fs.roll_idx);
    rs_mod_t(c, ev, RS_TN("{} feet: one die per {}",
                          "{} feet: one die per {}", feet->i,
                          RS_A_NUM(feet->i), RS_A_NUM(CARDS_FALL_STEP)),
             false, 0, "", false);
    rs_mod_note(c, ev, "armour does not help");
    cards_add_harm(c, who, harm, false, 0);
    return ENG_OK;
}

/* ---- round start --------------------------------------------------------- */

/* A burning character's automatic Endure test: each success takes a point
 * off the fire's damage. */
static void cards_fire_tick(struct rs_call *c, struct enc_combatant *who,
                            int intensity)
{
    int base = (int)enc_stat_or(who, "endure", 0);
    struct cards_roll r;
    if (cards_roll_test(c, who, N_("endure"), base < 0 ? 0 : base, 0, true,
                        false, &r) != ENG_OK) {
        c->d->code = ENG_OK;
        return;
    }
    int dmg = cards_fire_damage(intensity, r.succ);
    struct enc_event *ev = cards_test_event(c, who, N_("endures the fire"),
                                            &r, intensity, NULL);
    rs_ev_outcome(c, ev, RS_TN("burns: {} Physical Harm",
                               "burns: {} Physical Harm", dmg,
                               RS_A_NUM(dmg)));
    cards_add_harm(c, who, dmg, false, 0);
}

/* The poison gives its Harm, one less each round; the GM taking the
 * Poisoned condition away ends it as an antidote does. */
static void cards_poison_tick(struct rs_call *c, struct enc_combatant *who)
{
    struct cards_comb *st = CARDS_C(who);
    if (enc_cond_find(who, CARDS_POISONED) == NULL) {
        st->poison_left = 0;
        return;
    }
    int harm = st->poison_left--;
    RS_SAY(c, who, "The poison works in {}: {} Harm.", RS_A_WHO(who),
           RS_A_NUM(harm));
    cards_add_harm(c, who, harm, false, 0);
    if (st->poison_left == 0) {
        cards_poison_end(c, who);
        RS_SAY(c, who, "The poison in {} has run its course.",
               RS_A_WHO(who));
    }
}

void cards_effects_tick(struct rs_call *c)
{
    struct encounter *e = c->e;
    for (int i = 0; i < e->ncs; i++) {
        struct enc_combatant *who = &e->cs[i];
        const struct cards_comb *st = CARDS_C(who);
        if ((who->flags & ENC_CF_DEAD) ||
            enc_cond_find(who, CARDS_FLED) != NULL)
            continue;
        const struct enc_cond *fire = enc_cond_find(who, CARDS_BURNING);
        if (fire != NULL && e->round > st->fire_round)
            cards_fire_tick(c, who, fire->value);
        if (st->poison_left > 0 && e->round > st->poison_round)
            cards_poison_tick(c, who);
    }
}
