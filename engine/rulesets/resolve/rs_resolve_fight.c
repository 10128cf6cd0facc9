/*
 * rs_resolve_fight.c - /attack and /check in the `resolve` ruleset
 * (rs_resolve_cmds.h): a d6 pool against Defense, range bands taking dice
 * away, Aim and Help adding to the roll, Defend lapsing, damage less armour
 * off Resolve.
 */
#include "rs_resolve_cmds.h"

#include <stdio.h>
#include <string.h>

#include "dice.h"
#include "rs_resolve_harm.h"
#include "turn.h"

/* ---- helpers ------------------------------------------------------------- */

/* The helpers named in list ("Ana,Bo"), none of them the roller, each with
 * a Help ready: a roll benefits from at most RSV_MAX_HELPS. */
static enum eng_err rsv_helpers(struct rs_call *c, const char *list,
                                const struct enc_combatant *roller,
                                struct enc_combatant **out, int *n)
{
    *n = 0;
    if (list == NULL)
        return ENG_OK;
    enum eng_err err = rsv_names(c, "help", list, RSV_MAX_HELPS, out, n);
    if (err != ENG_OK)
        return err;
    for (int i = 0; i < *n; i++) {
        if (out[i] == roller)
            return enc_fail(c->d, ENG_INVALID, "%s cannot help their own "
                            "roll", roller->name);
        if (!rsv_st(out[i])->help) {
            enc_fail(c->d, ENG_STATE, "%s has no Help ready",
                     rs_name_for(c, out[i]));
            enc_hint(c->d, "on their turn: /assist skill:<the rank to add>");
            return ENG_STATE;
        }
    }
    return ENG_OK;
}

/* What the helpers' readied helps add to a roll. */
static int64_t rsv_helps_add(struct enc_combatant *const *hs, int n)
{
    int64_t add = 0;
    for (int i = 0; i < n; i++)
        add += rsv_st(hs[i])->help_rank;
    return add;
}

/* Spend the helpers' helps on roller's roll: say so, and show each rank as
 * a modifier of ev. */
static void rsv_spend_helps(struct rs_call *c, struct enc_combatant **hs,
                            int n, const struct enc_combatant *roller,
                            struct enc_event *ev)
{
    for (int i = 0; i < n; i++) {
        struct rsv_comb *s = rsv_st(hs[i]);
        s->help = false;
        RS_SAY(c, hs[i], "{} helps {}: +{}", RS_A_WHO(hs[i]),
               RS_A_WHO(roller), RS_A_NUM(s->help_rank));
        rs_mod(c, ev, "help", s->help_rank, "");
    }
}

/* The pool expr with pen dice taken away into out (size n); expr must then
 * be a plain pool ("4D+1"). Never fewer than the min_dice setting leaves.
 * *lost: the dice it took. */
static enum eng_err rsv_pool_less(struct rs_call *c, const char *expr,
                                  int pen, char *out, size_t n, int *lost)
{
    *lost = 0;
    if (pen <= 0) {
        enc_copy(out, n, expr);
        return ENG_OK;
    }
    struct dice_expr *x = NULL;
    struct dice_diag dd;
    enc_diag_dice(c->d, &dd);
    enum eng_err err = dice_parse(expr, strlen(expr), &x, &dd);
    if (err != ENG_OK)
        return enc_fail(c->d, err, "bad attack dice: %s", dd.msg);
    struct dice_simple s;
    bool simple = dice_expr_simple(x, &s);
    dice_expr_free(x);
    if (!simple || s.count == 0)
        return enc_fail(c->d, ENG_INVALID, "a range penalty takes dice from "
                        "a plain pool like 4D+1, not `%.40s`", expr);
    int64_t min = rs_setting_int(c->e, c->e->sys, "min_dice");
    int64_t count = s.count - pen;
    if (count < min)
        count = min;
    if (count > s.count)
        count = s.count;
    *lost = (int)(s.count - count);
    if (count == 0)
        snprintf(out, n, "%lld", (long long)s.modifier);
    else if (s.modifier == 0)
        snprintf(out, n, "%lldd%d", (long long)count, (int)s.sides);
    else
        snprintf(out, n, "%lldd%d%+lld", (long long)count, (int)s.sides,
                 (long long)s.modifier);
    return ENG_OK;
}

/* The attack or damage pool from a stat pair (attack=4 attack_mod=1 gives
 * 4D+1); false when the dice stat is missing. */
static bool rsv_stat_pool(const struct enc_combatant *who, const char *stat,
                          char *out, size_t n)
{
    const int64_t *dice = enc_stat((struct enc_combatant *)who, stat);
    if (dice == NULL)
        return false;
    char mod[ENC_MAX_STAT_NAME + 1];
    snprintf(mod, sizeof mod, "%s_mod", stat);
    int64_t plus = enc_stat_or(who, mod, 0);
    if (plus == 0)
        snprintf(out, n, "%lldD", (long long)*dice);
    else
        snprintf(out, n, "%lldD%+lld", (long long)*dice, (long long)plus);
    return true;
}

/* A modifier that is the target's to keep secret (its Defend, its armour). */
static void rsv_mod_of(struct rs_call *c, struct enc_event *ev,
                       const struct enc_combatant *holder, const char *reason,
                       int64_t amount)
{
    enc_event_mod(c->r, ev, reason, amount, true, "", holder->hidden);
}

/* tgt's Armor Rating against damage of type (NULL: none given): ar_<type>
 * when it has one, else ar. */
static int64_t rsv_armor(struct enc_combatant *tgt, const char *type)
{
    char name[ENC_MAX_STAT_NAME + 1];
    if (type != NULL) {
        snprintf(name, sizeof name, "ar_%s", type);
        const int64_t *v = enc_stat(tgt, name);
        if (v != NULL)
            return *v;
    }
    return enc_stat_or(tgt, "ar", 0);
}

/* ---- /attack ------------------------------------------------------------- */

/* /attack's options:, already bound to the declaration. */
struct rsv_aopts {
    enum rsv_range range;
    bool melee, ranged, piercing;
    const char *type;        /* or NULL */
    const char *help;        /* or NULL */
};

static enum eng_err rsv_read_aopts(struct rs_call *c, const struct rs_attack *a,
                                   struct rsv_aopts *o)
{
    const struct rs_arg *r = rs_arg_in(a->args, a->nargs, "range");
    const struct rs_arg *t = rs_arg_in(a->args, a->nargs, "type");
    const struct rs_arg *h = rs_arg_in(a->args, a->nargs, "help");
    *o = (struct rsv_aopts){
        .range = r != NULL ? (enum rsv_range)(RSV_RANGE_CLOSE + r->i)
                           : RSV_RANGE_NONE,
        .melee = rs_arg_in(a->args, a->nargs, "melee") != NULL,
        .ranged = rs_arg_in(a->args, a->nargs, "ranged") != NULL,
        .piercing = rs_arg_in(a->args, a->nargs, "piercing") != NULL,
        .type = t != NULL ? t->text : NULL,
        .help = h != NULL ? h->text : NULL,
    };
    if (o->melee && o->ranged)
        return enc_fail(c->d, ENG_INVALID, "an attack is melee or ranged, "
                        "not both");
    if (o->melee && o->range != RSV_RANGE_NONE && o->range != RSV_RANGE_CLOSE)
        return enc_fail(c->d, ENG_INVALID, "a melee attack reaches close "
                        "range only");
    if (o->range != RSV_RANGE_NONE && !o->melee)
        o->ranged = true;
    return ENG_OK;
}

/* Whether atk may attack tgt now; fails saying why not. */
static enum eng_err rsv_may_attack(struct rs_call *c,
                                   const struct enc_combatant *atk,
                                   const struct enc_combatant *tgt)
{
    struct encounter *e = c->e;
    if (e->status != ENC_ST_RUNNING)
        return enc_fail(c->d, ENG_STATE, "the fight has not begun");
    enum eng_err err = rs_require_actor(c, atk);
    if (err != ENG_OK)
        return err;
    if (rsv_is_out(atk) || !turn_can_act(atk))
        return enc_fail(c->d, ENG_STATE, "%s cannot attack now", atk->name);
    if (rsv_is_out(tgt))
        return enc_fail(c->d, ENG_STATE, "%s is out of the fight",
                        tgt->name);
    if (atk == tgt)
        return enc_fail(c->d, ENG_INVALID, "%s cannot attack themselves",
                        atk->name);
    if (tgt->flags & ENC_CF_DOWN)
        return enc_fail(c->d, ENG_STATE, "%s is already down", tgt->name);
    if (e->current == atk->id)
        return rsv_check_action(c, atk, false, N_("make an attack"));
    if (!rsv_st(atk)->fired) {
        enc_fail(c->d, ENG_STATE, "it is not %s's turn", atk->name);
        enc_hint(c->d, "a held attack attacks out of turn once triggered: "
                 "/trigger name:\"%s\"", atk->name);
        return ENG_STATE;
    }
    return ENG_OK;
}

/* The attack's dice: roll: or the attack stats, less the range penalty;
 * the damage dice: damage: or the damage stats (checked now, so that a bad
 * expression fails before anything changes; rolled only on a hit). */
static enum eng_err rsv_attack_dice(struct rs_call *c,
                                    const struct rs_attack *a, int pen,
                                    char *expr, char *dmg, size_t n,
                                    int *lost)
{
    char pool[DICE_MAX_EXPR_LEN + 1];
    if (a->roll != NULL)
        enc_copy(pool, sizeof pool, a->roll);
    else if (!rsv_stat_pool(a->attacker, "attack", pool, sizeof pool)) {
        enc_fail(c->d, ENG_STATE, "%s has no attack pool", a->attacker->name);
        enc_hint(c->d, "roll:\"4D+1\", or stats:\"attack=4 attack_mod=1\"");
        return ENG_STATE;
    }
    enum eng_err err = rsv_pool_less(c, pool, pen, expr, n, lost);
    if (err != ENG_OK)
        return err;
    dmg[0] = '\0';
    if (a->damage != NULL)
        enc_copy(dmg, n, a->damage);
    else
        (void)rsv_stat_pool(a->attacker, "damage", dmg, n);
    if (dmg[0] == '\0')
        return ENG_OK;
    struct dice_expr *x = NULL;
    struct dice_diag dd;
    enc_diag_dice(c->d, &dd);
    err = dice_parse(dmg, strlen(dmg), &x, &dd);
    if (err != ENG_OK)
        return enc_fail(c->d, err, "bad damage dice: %s", dd.msg);
    dice_expr_free(x);
    return ENG_OK;
}

/* Roll the damage of a hit, take armour off and what is left off Resolve. */
static enum eng_err rsv_wound(struct rs_call *c, struct enc_combatant *atk,
                              struct enc_combatant *tgt, const char *dmg,
                              struct rsv_hit_in *in)
{
    struct rs_rolled dr;
    enum eng_err err = rs_roll(c, atk, "damage", dmg, &dr);
    if (err != ENG_OK)
        return err;
    in->damage = dr.total;
    struct rsv_hit_out out;
    rsv_hit(in, &out);
    struct enc_event *dv = enc_emit(c->r, ENC_EV_DAMAGE, atk->id);
    dv->other = tgt->id;
    dv->a = out.loss;
    dv->secret = tgt->hidden && atk->hidden;
    rs_ev_roll(c, dv, dr.roll_idx);
    /* Our reading (README): beating Defense by 7 or more without Piercing
     * makes the Armor Rating count half, rounded down. */
    if (out.armor_halved && out.armor > 0)
        rsv_mod_of(c, dv, tgt,
                   N_("half armour (Defense beaten by 7 or more)"),
                   -out.armor);
    else if (out.armor_halved && in->armor > 0)
        rs_mod_note(c, dv, "armour halved to nothing (Defense beaten by 7 "
                    "or more)");
    else if (out.armor > 0)
        rsv_mod_of(c, dv, tgt, N_("armour"), -out.armor);
    if (out.loss > 0)
        rsv_damage(c, tgt, out.loss);
    return ENG_OK;
}

enum eng_err rsv_attack(struct rs_call *c, const struct rs_attack *a)
{
    struct enc_combatant *atk = a->attacker, *tgt = a->target;
    struct encounter *e = c->e;
    enum eng_err err = rsv_may_attack(c, atk, tgt);
    if (err != ENG_OK)
        return err;
    struct rsv_aopts o;
    err = rsv_read_aopts(c, a, &o);
    if (err != ENG_OK)
        return err;
    const int64_t *def = enc_stat(tgt, "defense");
    if (def == NULL) {
        enc_fail(c->d, ENG_STATE, "%s has no defense to hit", tgt->name);
        enc_hint(c->d, "/combat set name:\"%s\" stats:\"defense=12\"",
                 tgt->name);
        return ENG_STATE;
    }
    struct enc_combatant *helpers[RSV_MAX_HELPS];
    int nhelp = 0;
    err = rsv_helpers(c, o.help, atk, helpers, &nhelp);
    if (err != ENG_OK)
        return err;
    struct enc_cond *aim = rsv_aim(atk, false);
    bool aim_range = rsv_aim(atk, true) != NULL;
    int pen = rsv_range_penalty(o.range, o.ranged, aim_range);
    int lost = 0;
    char expr[DICE_MAX_EXPR_LEN + 1], dmg[DICE_MAX_EXPR_LEN + 1];
    err = rsv_attack_dice(c, a, pen, expr, dmg, sizeof expr, &lost);
    if (err != ENG_OK)
        return err;

    /* Everything is checked: roll, then change things. */
    struct rs_rolled hit;
    err = rs_roll(c, atk, "attack", expr, &hit);
    if (err != ENG_OK)
        return err;
    const struct enc_cond *dq = enc_cond_find(tgt, RSV_DEFENDING);
    struct rsv_hit_in in = {
        .attack = hit.total + (aim != NULL ? aim->value : 0) +
                  rsv_helps_add(helpers, nhelp),
        .defense = *def,
        .defend_bonus = dq != NULL ? dq->value : 0,
        .armor = rsv_armor(tgt, o.type),
        .piercing = o.piercing,
    };
    struct rsv_hit_out out;
    rsv_hit(&in, &out);
    struct enc_event *ev = rs_test_event(c, ENC_EV_ATTACK, atk, tgt, NULL,
                                         in.attack,
                                         in.defense + in.defend_bonus,
                                         out.hit ? N_("hit") : N_("miss"));
    ev->hit = out.hit ? ENC_HIT_HIT : ENC_HIT_MISS;
    rs_ev_roll(c, ev, hit.roll_idx);
    if (lost > 0) {
        static const char *const why[] = {
            [RSV_RANGE_CLOSE] = N_("close range"),
            [RSV_RANGE_LONG] = N_("long range"),
            [RSV_RANGE_EXTREME] = N_("extreme range"),
        };
        rs_mod_unit(rs_mod(c, ev, why[o.range], -lost, "dice"), rs_dice);
    }
    if (aim_range && pen < rsv_range_penalty(o.range, o.ranged, false))
        rs_mod_note(c, ev, "Aim: 1D of range penalty ignored");
    if (aim != NULL)
        rs_mod(c, ev, "Aim", aim->value, "");
    rsv_spend_helps(c, helpers, nhelp, atk, ev);
    if (in.defend_bonus != 0)
        rsv_mod_of(c, ev, tgt, N_("target's Defend"), in.defend_bonus);

    if (e->current == atk->id)
        rsv_spend_action(atk, false);
    else
        rsv_st(atk)->fired = false;
    /* The next attack uses an Aim up, whether it helped or not. */
    rsv_take_aims(c, atk);
    if (out.defend_lapses) {
        RS_SAY(c, tgt, "{}'s Defend turned the hit into a miss; their "
               "Defense is back to {}", RS_A_WHO(tgt),
               RS_A_SECRET(in.defense, tgt->hidden));
        rsv_take(c, tgt, RSV_DEFENDING);
    }
    if (!out.hit || dmg[0] == '\0')
        return ENG_OK;
    return rsv_wound(c, atk, tgt, dmg, &in);
}

/* ---- /check: an attribute check others may help -------------------------- */

enum eng_err rsv_cmd_check(struct rs_call *c)
{
    struct enc_combatant *who = rs_arg_who(c, "name");
    if (who == NULL)
        who = rsv_current(c);
    if (who == NULL)
        return c->d->code;
    struct enc_combatant *helpers[RSV_MAX_HELPS];
    int nhelp = 0;
    enum eng_err err = rsv_helpers(c, rs_arg_text(c, "help", NULL), who,
                                   helpers, &nhelp);
    if (err != ENG_OK)
        return err;
    struct rs_rolled r;
    err = rs_roll(c, who, "check", rs_arg_text(c, "roll", ""), &r);
    if (err != ENG_OK)
        return err;
    int64_t total = r.total + rsv_helps_add(helpers, nhelp);
    int64_t dc = rs_arg_int(c, "dc", 0);
    struct enc_event *ev;
    if (dc > 0)
        ev = rs_test_event(c, ENC_EV_TEST, who, NULL, "checks", total, dc,
                           total >= dc ? N_("success") : N_("failure"));
    else
        ev = RS_SAY(c, who, "{} checks: {}", RS_A_WHO(who),
                    RS_A_SECRET(total, who->hidden));
    rs_ev_roll(c, ev, r.roll_idx);
    rsv_spend_helps(c, helpers, nhelp, who, ev);
    return ENG_OK;
}
