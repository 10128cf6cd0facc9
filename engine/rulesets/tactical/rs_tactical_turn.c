/*
 * rs_tactical_turn.c - the `tactical` ruleset's initiative and turn: action
 * points at the start, pending tests (rs_tactical_pend.c), exertion and
 * shake-off tests at the end.
 *
 * Initiative (the chapter has none; our README decision): the kit's rolled
 * initiative, 1d20 + the `init` stat, highest first, the same order every
 * round.
 *
 * The start of a turn, in order: action points from the `ap` setting; none
 * when a no-ap condition (Surprised, Paralyzed) is on; a lose-ap condition
 * (Stunned) takes one and ends; each stack of a dot condition (Acid) deals
 * one direct damage. The end of a turn, in order: pending resist tests
 * still unrolled are rolled (they must happen in the turn they were
 * applied); Exhausted(+1) for exerting at 0 stamina; the shake-off tests of
 * the one whose turn it was (Afraid, Berserk); then the shared expiry.
 */
#include <stdio.h>
#include <string.h>

#include "rs_kit.h"
#include "rs_tactical.h"
#include "turn.h"

/* Each dot condition (Acid) burns its stacks as direct damage. */
static enum eng_err tac_burn(struct rs_call *c, struct enc_combatant *who)
{
    const struct tac_table *t = tac_table_for(c);
    struct {
        char name[ENC_MAX_COND_NAME + 1];
        int64_t stacks;
    } dot[ENC_MAX_CONDITIONS];
    int n = 0;
    for (int i = 0; i < who->nconds; i++) {
        const struct tac_cond_def *cd = tac_cond_def(t, who->conds[i].name);
        if (cd != NULL && (cd->flags & TAC_CDF_DOT)) {
            enc_copy(dot[n].name, sizeof dot[n].name, who->conds[i].name);
            dot[n++].stacks = tac_stacks(&who->conds[i]);
        }
    }
    for (int i = 0; i < n; i++) {
        struct enc_event *dv = tac_damage_event(c, who, 0);
        rs_mod(c, dv, dot[i].name, dot[i].stacks, "");
        int64_t lost;
        enum eng_err err = tac_damage_apply(c, dv, who, 0, dot[i].stacks,
                                            true, TAC_AV_PER, &lost);
        if (err != ENG_OK)
            return err;
    }
    return ENG_OK;
}

/* Start-of-turn rules for whoever's turn just started. */
static enum eng_err tac_turn_started(struct rs_call *c)
{
    const struct tac_table *t = tac_table_for(c);
    struct enc_combatant *who = enc_current(c->e);
    if (who == NULL)
        return ENG_OK;
    int ap = tac_setting_ap(c->e);
    const struct enc_cond *k = tac_flagged(t, who, TAC_CDF_NO_AP);
    if (k != NULL) {
        ap = 0;
        RS_SAY(c, who, "{} is {}: no actions this turn", RS_A_WHO(who),
               RS_A_USER(k->name));
    }
    k = tac_flagged(t, who, TAC_CDF_LOSE_AP);
    if (k != NULL) {
        char name[ENC_MAX_COND_NAME + 1];
        enc_copy(name, sizeof name, k->name);
        if (ap > 0)
            ap--;
        RS_SAY(c, who, "{} is {}: 1 AP fewer this turn", RS_A_WHO(who),
               RS_A_USER(name));
        enum eng_err err = enc_cond_remove(c->e, who, name, c->r, c->d);
        if (err != ENG_OK)
            return err;
    }
    TAC_ST(who)->ap = ap;
    return tac_burn(c, who);
}

/* Whether condition k runs out at the end of this turn of its anchor. */
static bool tac_ends_now(const struct encounter *e, const struct enc_cond *k,
                         uint32_t anchor)
{
    return k->rounds == 1 && k->anchor == anchor &&
           k->expire == ENC_EXPIRE_END && k->applied_turn < e->turn_seq;
}

/* The shake-off tests of who's conditions (Afraid, Berserk): a pass
 * removes the condition. One that runs out now anyway is not rolled. */
static enum eng_err tac_shake_off(struct rs_call *c,
                                  struct enc_combatant *who)
{
    const struct tac_table *t = tac_table_for(c);
    char names[ENC_MAX_CONDITIONS][ENC_MAX_COND_NAME + 1];
    int n = 0;
    for (int i = 0; i < who->nconds; i++) {
        const struct tac_cond_def *cd = tac_cond_def(t, who->conds[i].name);
        if (cd != NULL && cd->shake_difficulty > 0 &&
            !tac_ends_now(c->e, &who->conds[i], who->id))
            enc_copy(names[n++], sizeof names[0], who->conds[i].name);
    }
    for (int i = 0; i < n; i++) {
        const struct tac_cond_def *cd = tac_cond_def(t, names[i]);
        struct tac_roll tr = {.who = who, .def = &cd->shake, .pool = -1,
                              .difficulty = cd->shake_difficulty,
                              .why = N_("shakes off {}"),
                              .why_name = names[i],
                              .why_ctx = "condition", .kind = ENC_EV_TEST};
        struct tac_rolled out;
        enum eng_err err = tac_test_roll(c, &tr, NULL, 0, &out);
        if (err == ENG_OK && out.fail_by == 0)
            err = tac_cond_remove(c, who, names[i]);
        if (err != ENG_OK)
            return err;
    }
    return ENG_OK;
}

/* End-of-turn rules for the current combatant, before the shared expiry. */
static enum eng_err tac_turn_ending(struct rs_call *c)
{
    enum eng_err err = tac_fx_resolve_all(c);
    if (err != ENG_OK)
        return err;
    struct enc_combatant *who = enc_current(c->e);
    if (who == NULL)
        return ENG_OK;
    if (TAC_ST(who)->exert_turn == (int64_t)c->e->turn_seq) {
        RS_SAY(c, who, "{} exerted at 0 stamina this turn: Exhausted +1",
               RS_A_WHO(who));
        err = tac_cond_give(c, who, "Exhausted", -1, who->id);
        if (err != ENG_OK)
            return err;
    }
    return tac_shake_off(c, who);
}

/* Who is out of the fight or back, for everyone. */
static void tac_outs(struct rs_call *c)
{
    for (int i = 0; i < c->e->ncs; i++)
        tac_out_update(c, &c->e->cs[i]);
}

/* Surprised for the first round: everyone not on the ambushing side. */
static enum eng_err tac_surprise(struct rs_call *c, const char *side_name)
{
    int side = enc_side_find(c->e, side_name);
    if (side < 0)
        return enc_fail(c->d, ENG_NOTFOUND, "surprise: no side named %.32s "
                        "(give the side that ambushes)", side_name);
    for (int i = 0; i < c->e->ncs; i++) {
        struct enc_combatant *who = &c->e->cs[i];
        if (who->side == side)
            continue;
        enum eng_err err = tac_cond_give(c, who, "Surprised", 1, 0);
        if (err != ENG_OK)
            return err;
    }
    return ENG_OK;
}

enum eng_err tac_begin(struct rs_call *c)
{
    struct encounter *e = c->e;
    if (e->ncs == 0)
        return enc_fail(c->d, ENG_STATE, "there is nobody to fight yet");
    const char *surprise = rs_opt(c->opts, c->nopts, "surprise");
    enum eng_err err = surprise != NULL ? tac_surprise(c, surprise) : ENG_OK;
    if (err == ENG_OK)
        err = rs_d20_roll_all(c);
    if (err != ENG_OK)
        return err;
    turn_order_build(e, rs_d20_cmp);
    turn_fixed_begin(c, NULL);
    tac_outs(c);
    return tac_turn_started(c);
}

enum eng_err tac_next(struct rs_call *c)
{
    enum eng_err err = tac_turn_ending(c);
    if (err != ENG_OK)
        return err;
    /* Someone the GM brought back (a condition removed) acts this round. */
    tac_outs(c);
    turn_fixed_next(c, NULL);
    tac_outs(c);
    return tac_turn_started(c);
}

/* The clock ran out: the turn ends as /combat next ends it (its
 * end-of-turn rules run); the AP left are lost, as at any turn's end. */
enum eng_err tac_timeout(struct rs_call *c)
{
    return rs_clock_end_turn(c, "The turn clock ran out: {} ends the turn; "
                             "the action points left are lost.");
}
