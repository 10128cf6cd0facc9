/*
 * rs_cards_attack.c - the `cards` ruleset: attacks. An attack is a slow
 * maneuver: the attacker's pool counts successes, a dodge or parry readied
 * against it takes one off for each of its own, and what is left hits for
 * the weapon's damage plus the extra successes, or holds the target.
 */
#include <stdio.h>
#include <string.h>

#include "eng_text.h"
#include "rs_cards.h"

/* ---- pure rules ---------------------------------------------------------- */

struct cards_hit cards_attack_outcome(int attack, int defence, int need,
                                      int weapon, int to_damage,
                                      bool buy_swap)
{
    struct cards_hit h = {0};
    h.defender_swap = defence > 0 && defence > attack;
    h.net = attack - defence;
    if (h.net < 0)
        h.net = 0;
    if (need < 1)
        need = 1;
    if (h.net < need)
        return h;
    h.hit = true;
    h.extra = h.net - need;
    int extra = h.extra;
    if (buy_swap && extra > 0) {
        h.attacker_swap = true;
        extra--;
    }
    int spend = to_damage < 0 || to_damage > extra ? extra : to_damage;
    h.harm = weapon + spend;
    return h;
}

bool cards_in_range(int lo, int hi, int distance)
{
    return distance >= lo && distance <= hi;
}

/* ---- attacks ------------------------------------------------------------- */

/* /attack options:, bound to the declared attack options. */
struct cards_atk_opts {
    const char *skill;       /* stat rolled */
    bool ranged, grapple, mouth, swap, mental, free;
    int lo, hi;              /* weapon range, -1 = not given */
    int distance;            /* -1 = from zones */
    int need, extra, bonus;  /* extra -1 = all */
};

static bool cards_atk_flag(const struct rs_attack *a, const char *name)
{
    const struct rs_arg *x = rs_arg_in(a->args, a->nargs, name);
    return x != NULL && x->i != 0;
}

static int cards_atk_int(const struct rs_attack *a, const char *name,
                         int dflt)
{
    const struct rs_arg *x = rs_arg_in(a->args, a->nargs, name);
    return x != NULL ? (int)x->i : dflt;
}

/* range=lo-hi or range=N: the zones a weapon reaches. */
static enum eng_err cards_atk_range(struct rs_call *c, const char *v,
                                    struct cards_atk_opts *o)
{
    int64_t lo, hi;
    const char *q = eng_text_parse_int(v, &lo);
    if (q != NULL && *q == '\0')
        hi = lo;
    else if (q == NULL || *q != '-' || !eng_text_to_int(q + 1, &hi))
        return enc_fail(c->d, ENG_INVALID, "range must look like 0-1 or "
                        "1-3");
    if (lo < 0 || hi < lo || hi > CARDS_MAX_ZONE)
        return enc_fail(c->d, ENG_RANGE, "range must be 0 to %d, low to "
                        "high", CARDS_MAX_ZONE);
    o->lo = (int)lo;
    o->hi = (int)hi;
    return ENG_OK;
}

static enum eng_err cards_atk_read(struct rs_call *c, const struct rs_attack *a,
                                   struct cards_atk_opts *o)
{
    static const char *const skills[] = {"strike", "force", "shoot", "cast"};
    *o = (struct cards_atk_opts){
        .skill = "strike", .lo = -1, .hi = -1,
        .distance = cards_atk_int(a, "distance", -1),
        .need = cards_atk_int(a, "need", 1),
        .extra = cards_atk_int(a, "extra", -1),
        .bonus = cards_atk_int(a, "bonus", 0),
        .grapple = cards_atk_flag(a, "grapple"),
        .mouth = cards_atk_flag(a, "mouth"),
        .swap = cards_atk_flag(a, "swap"),
        .mental = cards_atk_flag(a, "mental"),
        .free = cards_atk_flag(a, "free"),
    };
    int nskills = 0;
    for (size_t i = 0; i < sizeof skills / sizeof skills[0]; i++)
        if (cards_atk_flag(a, skills[i])) {
            o->skill = skills[i];
            nskills++;
        }
    if (nskills > 1)
        return enc_fail(c->d, ENG_INVALID, "an attack rolls one skill: "
                        "strike, force, shoot or cast");
    o->ranged = strcmp(o->skill, "shoot") == 0;
    if (o->grapple && nskills > 0 && strcmp(o->skill, "force") != 0)
        return enc_fail(c->d, ENG_INVALID, "wrestling is a Force test: "
                        "grapple goes without %s", o->skill);
    if (o->grapple)
        o->skill = "force";
    if (o->mouth && !o->grapple)
        return enc_fail(c->d, ENG_INVALID, "mouth covers the mouth of the "
                        "one held: it goes with grapple");
    if (o->grapple && (o->mental || o->extra >= 0 || a->damage != NULL))
        return enc_fail(c->d, ENG_INVALID, "a grapple holds and does no "
                        "Harm: no damage:, mental or extra=");
    const struct rs_arg *range = rs_arg_in(a->args, a->nargs, "range");
    return range != NULL ? cards_atk_range(c, range->text, o) : ENG_OK;
}

/* The weapon's damage, in Harm: damage: or the damage stat. */
static enum eng_err cards_weapon(struct rs_call *c, const struct rs_attack *a,
                                 int *out)
{
    int64_t w;
    if (a->damage != NULL) {
        if (!eng_text_to_int(a->damage, &w) || w < 0 ||
            w > CARDS_MAX_DAMAGE)
            return enc_fail(c->d, ENG_RANGE, "damage: is the weapon's "
                            "Harm, a whole number from 0 to %d",
                            CARDS_MAX_DAMAGE);
        *out = (int)w;
        return ENG_OK;
    }
    const int64_t *s = enc_stat(a->attacker, "damage");
    if (s == NULL) {
        enc_fail(c->d, ENG_STATE, "how much Harm does the weapon of %s do?",
                 a->attacker->name);
        enc_hint(c->d, "/attack ... damage:2, or /combat set name:\"%s\" "
                 "stats:\"damage=2\"", a->attacker->name);
        return ENG_STATE;
    }
    *out = (int)*s;
    return ENG_OK;
}

/* Melee reaches the same zone only; a weapon with a range, its zones. */
static enum eng_err cards_reach(struct rs_call *c, const struct rs_attack *a,
                                const struct cards_atk_opts *o)
{
    int dist = o->distance >= 0 ? o->distance
                                : cards_distance(a->attacker, a->target);
    if (dist < 0)
        return ENG_OK;
    bool melee = !o->ranged && strcmp(o->skill, "cast") != 0;
    if (o->lo >= 0 && !cards_in_range(o->lo, o->hi, dist))
        return dist == 1
                   ? enc_fail(c->d, ENG_RANGE, "%s is %d zone away, out of "
                              "the weapon's range %d-%d", a->target->name,
                              dist, o->lo, o->hi)
                   : enc_fail(c->d, ENG_RANGE, "%s is %d zones away, out of "
                              "the weapon's range %d-%d", a->target->name,
                              dist, o->lo, o->hi);
    if (o->lo < 0 && melee && dist > 0)
        return dist == 1
                   ? enc_fail(c->d, ENG_RANGE, "%s is %d zone away: close "
                              "combat needs the same zone (shoot with "
                              "range=lo-hi)", a->target->name, dist)
                   : enc_fail(c->d, ENG_RANGE, "%s is %d zones away: close "
                              "combat needs the same zone (shoot with "
                              "range=lo-hi)", a->target->name, dist);
    return ENG_OK;
}

/* Roll the attack: a pool (roll:N, or the skill's stat) with Harm and
 * bonuses, or the attacker's own dice (roll:"4d6>=6"), counted as they
 * fall. */
static enum eng_err cards_atk_roll(struct rs_call *c, const struct rs_attack *a,
                                   const struct cards_atk_opts *o,
                                   struct cards_roll *r)
{
    int64_t pool;
    bool dice = a->roll != NULL && !eng_text_to_int(a->roll, &pool);
    int base = 0;
    enum eng_err err = ENG_OK;
    if (dice && o->bonus != 0)
        return enc_fail(c->d, ENG_INVALID, "bonus= adds to a pool; roll: "
                        "with dice counts them as they fall");
    if (a->roll != NULL && !dice && (pool < 0 || pool > CARDS_MAX_POOL))
        return enc_fail(c->d, ENG_RANGE, "roll: is the attack's dice, 0 to "
                        "%d", CARDS_MAX_POOL);
    if (a->roll != NULL && !dice)
        base = (int)pool;
    else if (a->roll == NULL)
        err = cards_skill(c, a->attacker, o->skill, &base);
    if (err == ENG_OK && !o->free)
        err = cards_spend(c, a->attacker, true, false);
    if (err != ENG_OK)
        return err;
    if (!dice)
        return cards_roll_test(c, a->attacker, o->skill, base, o->bonus,
                               true, !o->free, r);
    struct rs_rolled rolled;
    err = rs_roll(c, a->attacker, o->skill, a->roll, &rolled);
    if (err != ENG_OK)
        return err;
    *r = (struct cards_roll){.succ = rolled.successes > 0
                                         ? (int)rolled.successes : 0,
                             .roll_idx = rolled.roll_idx, .own = true,
                             .secret = a->attacker->hidden};
    return ENG_OK;
}

/* The defence the target readied against this attack, used up. */
static int cards_take_defence(struct enc_combatant *tgt, uint32_t attacker,
                              const struct cards_atk_opts *o,
                              const char **kind)
{
    struct cards_comb *st = CARDS_C(tgt);
    int32_t k = st->def_kind;
    bool fits = (k == CARDS_R_DODGE && !o->grapple) ||
                (k == CARDS_R_PARRY && !o->ranged && !o->grapple) ||
                (k == CARDS_R_BREAKFREE && o->grapple);
    if (!fits || (st->def_vs != 0 && st->def_vs != attacker))
        return -1;
    *kind = cards_react_name(k);
    int s = st->def_succ;
    st->def_kind = st->def_succ = 0;
    st->def_vs = 0;
    return s;
}

/* What the hit does: Held (and Silenced with a success to spare), or
 * Harm. */
static enum eng_err cards_atk_effect(struct rs_call *c,
                                     const struct rs_attack *a,
                                     const struct cards_atk_opts *o,
                                     const struct cards_hit *h)
{
    struct enc_combatant *atk = a->attacker, *tgt = a->target;
    if (!o->grapple) {
        cards_add_harm(c, tgt, h->harm, o->mental, atk->id);
        return ENG_OK;
    }
    enum eng_err err = cards_give(c, tgt, CARDS_HELD, 0, atk->id);
    if (err != ENG_OK || !o->mouth)
        return err;
    /* Covering the mouth takes a success beyond the one that holds. */
    if (h->extra - (h->attacker_swap ? 1 : 0) < 1) {
        RS_SAY(c, atk, "{} has no success to spare to cover the mouth of "
               "{}.", RS_A_WHO(atk), RS_A_WHO(tgt));
        return ENG_OK;
    }
    return cards_give(c, tgt, CARDS_SILENCED, 0, atk->id);
}

enum eng_err cards_attack(struct rs_call *c, const struct rs_attack *a)
{
    struct encounter *e = c->e;
    struct enc_combatant *atk = a->attacker, *tgt = a->target;
    if (e->status != ENC_ST_RUNNING)
        return enc_fail(c->d, ENG_STATE, "the fight has not begun");
    if (atk == tgt)
        return enc_fail(c->d, ENG_INVALID, "%s cannot attack itself",
                        atk->name);
    struct cards_atk_opts o;
    enum eng_err err = cards_atk_read(c, a, &o);
    if (err != ENG_OK)
        return err;
    if (o.free && !c->is_gm)
        return enc_fail(c->d, ENG_PERM, "only the GM may make a free "
                        "attack");
    int weapon = 0;
    err = cards_may(c, atk, "attack", false, false);
    if (err == ENG_OK)
        err = cards_reach(c, a, &o);
    if (err == ENG_OK && !o.grapple)
        err = cards_weapon(c, a, &weapon);
    struct cards_roll r;
    if (err == ENG_OK)
        err = cards_atk_roll(c, a, &o, &r);
    if (err != ENG_OK)
        return err;
    const char *dkind = NULL;
    int def = cards_take_defence(tgt, atk->id, &o, &dkind);
    struct cards_hit h = cards_attack_outcome(r.succ, def > 0 ? def : 0,
                                              o.need, weapon, o.extra,
                                              o.swap);
    struct enc_event *ev = rs_test_event(
        c, ENC_EV_ATTACK, atk, tgt, o.skill, h.net, o.need,
        !h.hit ? N_("miss") : o.grapple ? N_("hit: held") : NULL);
    if (h.hit && !o.grapple)
        /* English's Harm has one form; a language's noun agrees */
        rs_ev_outcome(c, ev, o.mental ? RS_TN("hit: {} Mental Harm",
                                              "hit: {} Mental Harm", h.harm,
                                              RS_A_NUM(h.harm))
                                      : RS_TN("hit: {} Physical Harm",
                                              "hit: {} Physical Harm", h.harm,
                                              RS_A_NUM(h.harm)));
    ev->hit = h.hit ? ENC_HIT_HIT : ENC_HIT_MISS;
    cards_ev_pool(c, ev, &r);
    if (def >= 0)
        cards_mod_succ(c, ev, dkind, -def, tgt->hidden);
    if (h.hit && !o.grapple && h.harm > weapon) {
        enc_event_mod(c->r, ev, N_("weapon"), weapon, true, "Harm", r.secret);
        enc_event_mod(c->r, ev, N_("extra successes"), h.harm - weapon, true,
                      "Harm", r.secret);
    }
    if (h.attacker_swap)
        rs_mod_note(c, ev, "one extra success buys a swap of cards");
    if (h.defender_swap) {
        CARDS_C(tgt)->swap_vs = atk->id;
        RS_SAY(c, tgt, "{} rolled more successes than the attack and may "
               "swap cards with {}: /swap a:\"{}\" b:\"{}\"", RS_A_WHO(tgt),
               RS_A_WHO(atk), RS_A_USER(tgt->name), RS_A_USER(atk->name));
    }
    if (h.attacker_swap) {
        CARDS_C(atk)->swap_vs = tgt->id;
        RS_SAY(c, atk, "{} outmaneuvers {} and may swap cards: /swap "
               "a:\"{}\" b:\"{}\"", RS_A_WHO(atk), RS_A_WHO(tgt),
               RS_A_USER(atk->name), RS_A_USER(tgt->name));
    }
    return h.hit ? cards_atk_effect(c, a, &o, &h) : ENG_OK;
}
