/*
 * rs_generic.c - the generic ruleset: a plain d20 tracker.
 *
 * Initiative is 1d20 + the `init` stat, highest first; ties go to the
 * higher modifier, then to a roll-off drawn once at the start and kept, so
 * the order never changes between rounds, unless the fight was started with
 * reroll=on: then everyone rolls again at each new round. An attack rolls `roll` (default
 * 1d20 + the attacker's `attack` stat) against the target's `ac`: a natural
 * 20 always hits and doubles the damage dice, a natural 1 always misses.
 * Damage comes off `temp` (temporary hit points) first, then `hp`; at 0
 * the combatant is down. A downed NPC's turns are skipped; a downed player
 * character's turn is theirs, or a death save (rs_generic_life.c).
 */
#include <stdio.h>

#include "eng_text.h"
#include "rs.h"
#include "rs_generic.h"
#include "rs_kit.h"
#include "turn.h"

enum eng_err gen_setup(struct rs_call *c, struct enc_combatant *who)
{
    /* A stat named hp becomes the hp track (current = max); the track is
     * the one place hp lives, so the stat is dropped. */
    return rs_stat_to_track(c, who, "hp", "hp");
}

enum eng_err gen_check_stat(struct rs_call *c,
                            struct enc_combatant *who,
                            const char *name, int64_t value)
{
    (void)who;
    if (eng_text_casecmp(name, "ac") == 0 && (value < 0 || value > 100))
        return enc_fail(c->d, ENG_RANGE, "ac must be 0 to 100");
    if (eng_text_casecmp(name, "init") == 0 && (value < -100 || value > 100))
        return enc_fail(c->d, ENG_RANGE, "init must be -100 to 100");
    return ENG_OK;
}

/* reroll=on: a new round after the first rolls everyone's initiative
 * again (the dice shown, as every roll is) and sorts the order anew, before
 * its first turn starts. A roll that fails leaves its reason in c->d for
 * gen_next, which then fails and the fight stays as it was. */
static void gen_round_start(struct rs_call *c)
{
    if (c->e->round <= 1 ||
        rs_setting_int(c->e, &rs_generic, GEN_SET_REROLL) == 0)
        return;
    RS_SAY(c, NULL, "Everyone rolls initiative again for round {}.",
           RS_A_NUM(c->e->round));
    if (rs_d20_roll_all(c) == ENG_OK)
        turn_order_build(c->e, rs_d20_cmp);
}

enum eng_err gen_begin(struct rs_call *c)
{
    if (c->e->ncs == 0)
        return enc_fail(c->d, ENG_STATE, "there is nobody to fight yet");
    enum eng_err err = rs_d20_roll_all(c);
    if (err != ENG_OK)
        return err;
    turn_order_build(c->e, rs_d20_cmp);
    turn_fixed_begin_down(c, gen_round_start, gen_down_turn);
    return ENG_OK;
}

enum eng_err gen_next(struct rs_call *c)
{
    turn_fixed_next_down(c, gen_round_start, gen_down_turn);
    return c->d->code;
}

/* The clock ran out: the turn is skipped, as an ordered system allows. */
enum eng_err gen_timeout(struct rs_call *c)
{
    return rs_clock_end_turn(c, "The turn clock ran out: {} loses this "
                             "turn.");
}

enum eng_err gen_attack(struct rs_call *c, const struct rs_attack *a)
{
    const int64_t *ac = enc_stat(a->target, "ac");
    if (ac == NULL) {
        enc_fail(c->d, ENG_STATE, "%s has no ac to hit", a->target->name);
        enc_hint(c->d, "/combat set name:\"%s\" stats:\"ac=12\"",
                 a->target->name);
        return ENG_STATE;
    }
    /* options:adv / options:dis: the d20 rolled twice, the better or the
     * worse kept (the dice language's adv/dis on the d20 term, so both dice
     * show); both at once cancel and one d20 is rolled, as d20 tables play
     * it. */
    struct rs_call opts = *c;
    opts.args = a->args;
    opts.nargs = a->nargs;
    bool adv = rs_arg_bool(&opts, "adv", false);
    bool dis = rs_arg_bool(&opts, "dis", false);
    const char *edge = adv == dis ? "" : adv ? " adv" : " dis";
    char expr[DICE_MAX_EXPR_LEN + 16];
    int64_t bonus = enc_stat_or(a->attacker, "attack", 0);
    if (a->roll != NULL)
        snprintf(expr, sizeof expr, "%s%s", a->roll, edge);
    else
        snprintf(expr, sizeof expr, "1d20%+lld%s", (long long)bonus, edge);
    struct rs_rolled hit;
    enum eng_err err = rs_roll(c, a->attacker, "attack", expr, &hit);
    if (err != ENG_OK)
        return err;
    bool crit = hit.natural == 20;
    bool fumble = hit.natural == 1;
    bool hits = crit || (!fumble && hit.total >= *ac);

    struct enc_event *ev = rs_test_event(c, ENC_EV_ATTACK, a->attacker,
                                         a->target, NULL, hit.total, *ac,
                                         crit ? N_("critical hit") :
                                         fumble ? N_("natural 1") :
                                         hits ? N_("hit") : N_("miss"));
    ev->hit = crit ? ENC_HIT_CRIT : hits ? ENC_HIT_HIT : ENC_HIT_MISS;
    rs_ev_roll(c, ev, hit.roll_idx);
    if (a->roll == NULL && bonus != 0)
        rs_mod(c, ev, "attack stat", bonus, "");
    if (adv && dis)
        rs_mod_note(c, ev, "advantage and disadvantage cancel: one d20");
    else if (adv)
        rs_mod_note(c, ev, "advantage: the higher of two d20s");
    else if (dis)
        rs_mod_note(c, ev, "disadvantage: the lower of two d20s");
    if (crit)
        rs_mod_note(c, ev, "a natural 20 always hits");
    else if (fumble)
        rs_mod_note(c, ev, "a natural 1 always misses");
    if (!hits || a->damage == NULL)
        return ENG_OK;

    /* A critical hit rolls the damage dice twice; flat modifiers count
     * once. */
    struct rs_rolled dmg;
    err = rs_roll(c, a->attacker, "damage", a->damage, &dmg);
    if (err != ENG_OK)
        return err;
    int64_t amount = dmg.total;
    struct enc_event *dv = enc_emit(c->r, ENC_EV_DAMAGE, a->attacker->id);
    rs_ev_roll(c, dv, dmg.roll_idx);
    if (crit) {
        struct rs_rolled extra;
        err = rs_roll(c, a->attacker, "critical dice", a->damage, &extra);
        if (err != ENG_OK)
            return err;
        amount += extra.dice_sum;
        rs_ev_roll(c, dv, extra.roll_idx);
        rs_mod(c, dv, "critical: the dice again", extra.dice_sum, "");
    }
    if (amount < 0)
        amount = 0;
    dv->other = a->target->id;
    dv->a = amount;
    dv->secret = a->target->hidden && a->attacker->hidden;
    if (enc_track(a->target, "hp") == NULL)
        return ENG_OK;
    int64_t left = gen_soak(c, a->target, "hp", amount);
    struct enc_track *hp = enc_track(a->target, "hp");
    if (left == 0)
        return ENG_OK;
    int64_t before = hp->cur;
    /* Like /combat hp, damage stops at 0. */
    int64_t after = hp->cur - left;
    if (after < 0)
        after = 0;
    hp->cur = after;
    struct enc_event *hv = enc_emit(c->r, ENC_EV_HP, a->target->id);
    hv->text = "hp";
    hv->a = before;
    hv->b = hp->cur;
    hv->secret = a->target->hidden;
    gen_after_track(c, a->target, "hp", before);
    return ENG_OK;
}
