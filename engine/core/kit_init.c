/*
 * kit_init.c - rolled initiative, highest first (rs_kit.h).
 *
 * Each combatant rolls 1d20 + its `init` stat once (its init_expr, when
 * given, is the expression, a modifier, or "=N" taken as is); members of a
 * group share their first member's roll. Ties go to the higher modifier,
 * then to a roll-off drawn once and kept, then to the order of arrival, so
 * the order never changes between rounds. The generic system plays this
 * order, and tactical by our rules README.
 */
#include "rs_kit.h"

#include <stdio.h>
#include <string.h>

#include "eng_text.h"
#include "turn.h"

/* Sides of the roll-off that breaks ties: one draw per combatant. */
#define RS_D20_TIE_SIDES 1000000

static int64_t d20_mod(const struct enc_combatant *who)
{
    int64_t mod;
    if (who->init_expr[0] != '\0' && eng_text_to_int(who->init_expr, &mod))
        return mod;
    return enc_stat_or(who, "init", 0);
}

enum eng_err rs_d20_roll(struct rs_call *c, struct enc_combatant *who)
{
    const char *given = who->init_expr;
    int64_t fixed;
    if (given[0] == '=' && eng_text_to_int(given + 1, &fixed)) {
        who->init[0] = fixed;
        who->ninit = 1;
        struct enc_event *ev = enc_emit(c->r, ENC_EV_INIT, who->id);
        ev->a = fixed;
        ev->secret = who->hidden;
    } else {
        char expr[ENC_MAX_INIT_EXPR + 16];
        int64_t mod;
        if (given[0] != '\0' && !eng_text_to_int(given, &mod))
            snprintf(expr, sizeof expr, "%s", given);
        else
            snprintf(expr, sizeof expr, "1d20%+lld", (long long)d20_mod(who));
        enum eng_err err = rs_roll_initiative(c, who, expr);
        if (err != ENG_OK)
            return err;
    }
    who->init_tie = (int64_t)eng_rng_below(c->rng, RS_D20_TIE_SIDES);
    return ENG_OK;
}

enum eng_err rs_d20_roll_all(struct rs_call *c)
{
    struct encounter *e = c->e;
    for (int i = 0; i < e->ncs; i++) {
        struct enc_combatant *who = &e->cs[i];
        const struct enc_combatant *lead = rs_group_lead(e, who);
        if (lead != NULL) {
            memcpy(who->init, lead->init, sizeof who->init);
            who->ninit = lead->ninit;
            who->init_tie = lead->init_tie;
            continue;
        }
        enum eng_err err = rs_d20_roll(c, who);
        if (err != ENG_OK)
            return err;
    }
    return ENG_OK;
}

int rs_d20_cmp(const struct encounter *e, const struct enc_slot *a,
               const struct enc_slot *b)
{
    const struct enc_combatant *x = enc_by_id_c(e, a->id);
    const struct enc_combatant *y = enc_by_id_c(e, b->id);
    if (x->init[a->init_idx] != y->init[b->init_idx])
        return x->init[a->init_idx] > y->init[b->init_idx] ? -1 : 1;
    int64_t mx = d20_mod(x), my = d20_mod(y);
    if (mx != my)
        return mx > my ? -1 : 1;
    if (x->init_tie != y->init_tie)
        return x->init_tie > y->init_tie ? -1 : 1;
    return x->join_seq < y->join_seq ? -1 : x->join_seq > y->join_seq;
}

enum eng_err rs_d20_late_join(struct rs_call *c, struct enc_combatant *who)
{
    struct encounter *e = c->e;
    enum eng_err err = rs_d20_roll(c, who);
    if (err != ENG_OK)
        return err;
    /* Re-sort, then find the current slot again so the turn stays put. */
    struct enc_slot cur = {0, 0};
    if (e->turn_idx >= 0 && e->turn_idx < e->norder)
        cur = e->order[e->turn_idx];
    turn_order_build(e, rs_d20_cmp);
    for (int i = 0; i < e->norder; i++)
        if (e->order[i].id == cur.id && e->order[i].init_idx == cur.init_idx)
            e->turn_idx = i;
    return ENG_OK;
}
