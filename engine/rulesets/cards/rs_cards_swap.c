/*
 * rs_cards_swap.c - the `cards` ruleset: swapping initiative cards (by
 * agreement at the start of a round, or forced with extra successes) and
 * the ambush that decides who draws an extra card.
 */
#include <string.h>

#include "rs_cards.h"

/* ---- swaps --------------------------------------------------------------- */

/* Which of who's cards the option names (by value); the only one when
 * absent and who holds one. -1 with d set otherwise. */
static int cards_pick_card(struct rs_call *c, struct enc_combatant *who,
                           const char *opt)
{
    int64_t v = rs_arg_int(c, opt, 0);
    if (v == 0) {
        if (who->ninit == 1)
            return 0;
        enc_fail(c->d, ENG_INVALID, "%s holds %d cards: say which with "
                 "%s:", rs_name_for(c, who), who->ninit, opt);
        return -1;
    }
    for (int k = 0; k < who->ninit; k++)
        if (who->init[k] == v)
            return k;
    enc_fail(c->d, ENG_NOTFOUND, "%s does not hold card %lld",
             rs_name_for(c, who), (long long)v);
    return -1;
}

/* Give every holder of card from (who and its group) card to. */
static void cards_move_card(struct encounter *e, struct enc_combatant *who,
                            int64_t from, int64_t to)
{
    for (int i = 0; i < e->ncs; i++) {
        struct enc_combatant *o = &e->cs[i];
        if (o != who && (who->group == 0 || o->group != who->group))
            continue;
        for (int k = 0; k < o->ninit; k++)
            if (o->init[k] == from) {
                o->init[k] = to;
                break;
            }
    }
}

/* A swap by agreement: two player characters who can talk to each other,
 * at the start of a round. One offers, the other accepts; the GM, or a
 * player who has both, swaps at once. ENG_OK with *done false when it was
 * only offered. */
static enum eng_err cards_agree(struct rs_call *c, struct enc_combatant *a,
                                struct enc_combatant *b, bool *done)
{
    struct cards_enc *est = CARDS_E(c->e);
    *done = false;
    if (a->owner == 0 || b->owner == 0)
        return enc_fail(c->d, ENG_STATE, "only two player characters swap "
                        "by agreement; forcing an opponent takes extra "
                        "successes (an attack, dodge or parry)");
    if (cards_silenced(a) || cards_silenced(b))
        return enc_fail(c->d, ENG_STATE, "%s cannot speak (the mouth is "
                        "covered), and swapping takes talking it over",
                        rs_name_for(c, cards_silenced(a) ? a : b));
    if (est->round_acted)
        return enc_fail(c->d, ENG_STATE, "cards may only be swapped at the "
                        "start of a round, before anyone has acted");
    bool offered = est->offer_a == b->id && est->offer_b == a->id &&
                   est->offer_round == c->e->round;
    if (!c->is_gm && b->owner != c->user && !offered) {
        est->offer_a = a->id;
        est->offer_b = b->id;
        est->offer_round = c->e->round;
        RS_SAY(c, a, "{} offers to swap cards with {}. To accept: /swap "
               "a:\"{}\" b:\"{}\"", RS_A_WHO(a), RS_A_WHO(b),
               RS_A_USER(b->name), RS_A_USER(a->name));
        return ENG_OK;
    }
    *done = true;
    return ENG_OK;
}

/* /swap a: b: [card:] [give:] */
enum eng_err cards_do_swap(struct rs_call *c)
{
    struct encounter *e = c->e;
    struct enc_combatant *a = rs_arg_who(c, "a"), *b = rs_arg_who(c, "b");
    if (a == b || (a->group != 0 && a->group == b->group))
        return enc_fail(c->d, ENG_INVALID, "%s and %s hold the same card",
                        rs_name_for(c, a), rs_name_for(c, b));
    int ka = cards_pick_card(c, a, "give");
    if (ka < 0)
        return c->d->code;
    int kb = cards_pick_card(c, b, "card");
    if (kb < 0)
        return c->d->code;
    struct cards_comb *ast = CARDS_C(a);
    bool forced = ast->swap_vs == b->id;
    if (!forced) {
        bool done;
        enum eng_err err = cards_agree(c, a, b, &done);
        if (err != ENG_OK || !done)
            return err;
    }
    int64_t va = a->init[ka], vb = b->init[kb];
    cards_move_card(e, a, va, -1);
    cards_move_card(e, b, vb, va);
    cards_move_card(e, a, -1, vb);
    if (forced)
        ast->swap_vs = 0;
    CARDS_E(e)->offer_a = CARDS_E(e)->offer_b = 0;
    RS_SAY(c, a, forced ? "{} forces {} to swap cards: {} now holds {}, {} "
                          "holds {}."
                        : "{} and {} swap cards: {} now holds {}, {} holds "
                          "{}.",
           RS_A_WHO(a), RS_A_WHO(b), RS_A_WHO(a), RS_A_NUM(vb), RS_A_WHO(b),
           RS_A_NUM(va));
    cards_reorder(e);
    /* At the start of a round nobody has acted: the round begins again
     * from the lowest card. */
    if (!CARDS_E(e)->round_acted && e->norder > 0)
        cards_restart_round(c);
    return ENG_OK;
}

/* ---- ambush -------------------------------------------------------------- */

bool cards_ambush(int sneak, int watch, int *extra)
{
    int net = sneak - watch;
    *extra = net > 1 ? net - 1 : 0;
    return net >= 1;
}

/* The Director grants the extra draw: nothing is rolled, so nothing but
 * side: may come with auto:. */
static enum eng_err cards_ambush_granted(struct rs_call *c, int side)
{
    static const char *const rolled[] = {"name", "pool", "skill", "watch",
                                         "against", "watch_skill"};
    for (size_t i = 0; i < sizeof rolled / sizeof rolled[0]; i++) {
        enum eng_err err = cards_not_both(c, "auto", rolled[i],
                                          "nothing is rolled");
        if (err != ENG_OK)
            return err;
    }
    struct cards_enc *est = CARDS_E(c->e);
    est->ambush_side = side + 1;
    est->ambush_result = CARDS_AMBUSH_GRANTED;
    est->ambush_bonus = 0;
    RS_SAY(c, NULL, "The Director grants {} an extra initiative card.",
           RS_A_SIDE(c->e, side));
    return ENG_OK;
}

/* /ambush side: [name: pool:|skill:] [watch:|against: watch_skill:]
 * [auto:] */
enum eng_err cards_do_ambush(struct rs_call *c)
{
    struct encounter *e = c->e;
    if (e->status != ENC_ST_SETUP)
        return enc_fail(c->d, ENG_STATE, "an ambush is settled before "
                        "/combat begin deals the cards");
    int side = rs_arg(c, "side")->side;
    if (rs_arg_bool(c, "auto", false))
        return cards_ambush_granted(c, side);
    struct enc_combatant *sneaker = rs_arg_who(c, "name");
    struct enc_combatant *watcher = rs_arg_who(c, "against");
    if (sneaker == NULL)
        return enc_fail(c->d, ENG_INVALID, "name: is required (who sneaks), "
                        "unless the Director grants the draw (auto:true)");
    if (sneaker->side != side)
        return enc_fail(c->d, ENG_INVALID, "%s is not on side %s",
                        sneaker->name, e->sides[side].name);
    enum eng_err err = cards_not_both(c, "watch", "against", "the watchers "
                                      "roll either the dice given or a "
                                      "watcher's stat");
    if (err == ENG_OK && watcher == NULL)
        err = cards_not_both(c, "watch", "watch_skill", "watch_skill: "
                             "names the stat of the watcher against:");
    if (err != ENG_OK)
        return err;
    if (watcher == NULL && rs_arg(c, "watch") == NULL)
        return enc_fail(c->d, ENG_INVALID, "give the watchers' Track or "
                        "Read dice (watch:N) or who watches (against:)");
    int base, watch_base = (int)rs_arg_int(c, "watch", 0);
    err = cards_opt_pool(c, sneaker, "sneak", &base);
    if (err == ENG_OK && watcher != NULL)
        err = cards_skill(c, watcher, rs_arg_text(c, "watch_skill", "track"),
                          &watch_base);
    if (err != ENG_OK)
        return err;
    struct cards_roll ss, ws;
    err = cards_roll_test(c, sneaker, N_("sneak"), base, 0, true, false, &ss);
    if (err == ENG_OK && watcher != NULL)
        err = cards_roll_test(c, watcher, N_("watch"), watch_base, 0, true,
                              false, &ws);
    else if (err == ENG_OK)
        err = cards_roll_gm(c, "watch", watch_base, &ws);
    if (err != ENG_OK)
        return err;
    int extra;
    bool won = cards_ambush(ss.succ, ws.succ, &extra);
    struct cards_enc *est = CARDS_E(e);
    est->ambush_side = side + 1;
    est->ambush_result = won ? CARDS_AMBUSH_WON : CARDS_AMBUSH_LOST;
    est->ambush_bonus = extra;
    struct enc_event *ev = rs_test_event(c, ENC_EV_TEST, sneaker, watcher,
                                         "sneaks up", ss.succ, ws.succ,
                                         won ? N_("the ambush works")
                                             : N_("detected"));
    cards_ev_pool(c, ev, &ss);
    rs_ev_roll(c, ev, ws.roll_idx);
    if (won && extra > 0)
        RS_SAY(c, NULL, "Everyone on {} draws an extra initiative card and "
               "keeps the best, and has +{} {} on their first maneuver of "
               "the fight.", RS_A_SIDE(e, side), RS_A_NUM(extra),
               RS_A_TEXT(extra == 1 ? N_("die") : N_("dice")));
    else if (won)
        RS_SAY(c, NULL, "Everyone on {} draws an extra initiative card and "
               "keeps the best.", RS_A_SIDE(e, side));
    else
        RS_SAY(c, NULL, "The ambush is detected: everyone not on {} draws "
               "an extra initiative card and keeps the best.",
               RS_A_SIDE(e, side));
    return ENG_OK;
}
