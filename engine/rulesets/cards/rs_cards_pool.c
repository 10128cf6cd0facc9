/*
 * rs_cards_pool.c - the `cards` ruleset: dice pools and tests, and the
 * maneuver budget (/test, /maneuver).
 */
#include <stdio.h>
#include <string.h>

#include "rs_cards.h"
#include "turn.h"

/* ---- pure rules ---------------------------------------------------------- */

int cards_pool(int base, int bonus, int harm)
{
    int n = base + bonus - harm;
    return n < 0 ? 0 : n;
}

void cards_left(const struct cards_budget *b, bool own_turn, int *slow,
                int *fast)
{
    int s = b->turns - b->slow;
    int total = 2 * b->turns - b->slow - b->fast;
    if (own_turn) {
        int ts = 1 - b->turn_slow, tt = 2 - b->turn_slow - b->turn_fast;
        s = ts < s ? ts : s;
        total = tt < total ? tt : total;
    }
    total = total < 0 ? 0 : total;
    s = s < 0 ? 0 : s > total ? total : s;
    *slow = s;
    *fast = total - s;
}

/* ---- rolling ------------------------------------------------------------- */

/* Roll n dice for who (NULL: the GM) under label; n may be 0: nothing is
 * rolled, nothing succeeds, and the roll says so. */
static enum eng_err cards_roll_dice(struct rs_call *c,
                                    const struct enc_combatant *who,
                                    const char *label, struct cards_roll *r)
{
    r->secret = who != NULL && who->hidden;
    if (r->dice <= 0) {
        r->dice = 0;
        r->succ = 0;
        r->roll_idx = enc_add_plain_roll(c->r, label, 0,
                                         who != NULL && who->hidden);
        return ENG_OK;
    }
    if (r->dice > CARDS_MAX_POOL * 2)
        return enc_fail(c->d, ENG_LIMIT, "too many dice in one pool (limit "
                        "is %d)", CARDS_MAX_POOL * 2);
    char expr[48];
    snprintf(expr, sizeof expr, "%dd%d>=%d", r->dice, cards_die(c->e),
             cards_success(c->e));
    struct rs_rolled rolled;
    enum eng_err err = rs_roll(c, who, label, expr, &rolled);
    if (err != ENG_OK)
        return err;
    r->succ = (int)rolled.successes;
    r->roll_idx = rolled.roll_idx;
    return ENG_OK;
}

enum eng_err cards_roll_test(struct rs_call *c, struct enc_combatant *who,
                             const char *label, int base, int bonus,
                             bool harm, bool maneuver, struct cards_roll *out)
{
    struct cards_comb *st = CARDS_C(who);
    *out = (struct cards_roll){
        .base = base,
        .bonus = bonus,
        .harm = harm ? cards_harm_of(who) : 0,
        .ambush = maneuver ? st->first_bonus : 0,
        .calm = st->next_bonus,
    };
    out->dice = cards_pool(base, bonus + out->ambush + out->calm, out->harm);
    enum eng_err err = cards_roll_dice(c, who, label, out);
    if (err != ENG_OK)
        return err;
    st->next_bonus = 0;
    if (maneuver)
        st->first_bonus = 0;
    return ENG_OK;
}

enum eng_err cards_roll_gm(struct rs_call *c, const char *label, int n,
                           struct cards_roll *out)
{
    *out = (struct cards_roll){.base = n, .dice = n};
    return cards_roll_dice(c, NULL, label, out);
}

/* why's modifier of n in a unit (one, many: English's words; u: the
 * pair other languages draw), or the note none ("{}: no dice") at 0. */
static void cards_mod_n(struct rs_call *c, struct enc_event *ev,
                        struct rs_text why, int n, const char *one,
                        const char *many, struct rs_unit u,
                        const char *none, bool secret)
{
    if (n != 0) {
        rs_mod_unit(rs_mod_t(c, ev, why, true, n,
                             n == 1 || n == -1 ? one : many, secret),
                    u);
        return;
    }
    rs_mod_t(c, ev, RS_T(none, rs_a_text(c, why)), false, 0, "", secret);
}

void cards_mod_dice_t(struct rs_call *c, struct enc_event *ev,
                      struct rs_text why, int n, bool secret)
{
    cards_mod_n(c, ev, why, n, "die", "dice", rs_dice, N_("{}: no dice"),
                secret);
}

void cards_mod_succ_t(struct rs_call *c, struct enc_event *ev,
                      struct rs_text why, int n, bool secret)
{
    cards_mod_n(c, ev, why, n, "success", "successes", rs_successes,
                N_("{}: no successes"), secret);
}

void cards_mod_dice(struct rs_call *c, struct enc_event *ev, const char *why,
                    int n, bool secret)
{
    cards_mod_dice_t(c, ev, RS_T0(why), n, secret);
}

void cards_mod_succ(struct rs_call *c, struct enc_event *ev, const char *why,
                    int n, bool secret)
{
    cards_mod_succ_t(c, ev, RS_T0(why), n, secret);
}

void cards_ev_pool(struct rs_call *c, struct enc_event *ev,
                   const struct cards_roll *r)
{
    rs_ev_roll(c, ev, r->roll_idx);
    if (r->own)
        return;
    if (r->bonus != 0)
        cards_mod_dice(c, ev, N_("bonus"), r->bonus, r->secret);
    if (r->ambush != 0)
        cards_mod_dice(c, ev, N_("ambush"), r->ambush, r->secret);
    if (r->calm != 0)
        cards_mod_dice(c, ev, N_("calm after a fear test"), r->calm,
                       r->secret);
    if (r->harm != 0)
        cards_mod_dice(c, ev, N_("Harm"), -r->harm, r->secret);
    if (r->dice == 0)
        enc_event_mod(c->r, ev, N_("no dice left to roll"), 0, false, "",
                      r->secret);
}

struct enc_event *cards_test_event(struct rs_call *c,
                                   const struct enc_combatant *who,
                                   const char *label,
                                   const struct cards_roll *r, int64_t need,
                                   const char *outcome)
{
    struct enc_event *ev = rs_test_event(c, ENC_EV_TEST, who, NULL, label,
                                         r->succ, need, outcome);
    cards_ev_pool(c, ev, r);
    return ev;
}

enum eng_err cards_skill(struct rs_call *c, struct enc_combatant *who,
                         const char *skill, int *out)
{
    const int64_t *v = enc_stat(who, skill);
    if (v == NULL) {
        enc_fail(c->d, ENG_STATE, "%s has no %.24s stat to roll", who->name,
                 skill);
        enc_hint(c->d, "give the dice with pool:N, or /combat set "
                 "name:\"%s\" stats:\"%.24s=3\"", who->name, skill);
        return ENG_STATE;
    }
    *out = *v < 0 ? 0 : *v > CARDS_MAX_POOL ? CARDS_MAX_POOL : (int)*v;
    return ENG_OK;
}

enum eng_err cards_not_both(struct rs_call *c, const char *a, const char *b,
                            const char *why)
{
    if (rs_arg(c, a) != NULL && rs_arg(c, b) != NULL)
        return enc_fail(c->d, ENG_INVALID, "%s: and %s: do not go together: "
                        "%s", a, b, why);
    return ENG_OK;
}

enum eng_err cards_opt_pool(struct rs_call *c, struct enc_combatant *who,
                            const char *dflt_skill, int *base)
{
    enum eng_err err = cards_not_both(c, "pool", "skill", "pool: gives the "
                                      "dice, skill: reads them from a stat");
    if (err != ENG_OK)
        return err;
    const struct rs_arg *pool = rs_arg(c, "pool");
    if (pool != NULL) {
        *base = (int)pool->i;
        return ENG_OK;
    }
    const char *skill = rs_arg_text(c, "skill", dflt_skill);
    if (skill == NULL)
        return enc_fail(c->d, ENG_INVALID, "give the dice: pool:N or "
                        "skill:<stat>");
    return cards_skill(c, who, skill, base);
}

/* ---- maneuvers ----------------------------------------------------------- */

enum eng_err cards_spend(struct rs_call *c, struct enc_combatant *who,
                         bool slow, bool reaction)
{
    struct encounter *e = c->e;
    struct cards_comb *st = CARDS_C(who);
    if (e->status != ENC_ST_RUNNING)
        return enc_fail(c->d, ENG_STATE, "the fight has not begun");
    if (!turn_can_act(who))
        return enc_fail(c->d, ENG_STATE, "%s is out of the fight",
                        who->name);
    if (!reaction && e->current != who->id)
        return enc_fail(c->d, ENG_STATE, "it is not the turn of %s; only "
                        "reactions may be used out of turn", who->name);
    /* A reaction draws on the round (it may come before or after one's
     * turn); anything else on the turn running now. */
    struct cards_budget b = {st->slow, st->fast, st->turn_slow,
                             st->turn_fast,
                             who->ninit > 0 ? who->ninit : 1};
    int slow_left, fast_left;
    cards_left(&b, !reaction, &slow_left, &fast_left);
    /* Whole sentences per case: a translation cannot splice "this round". */
    if (slow && slow_left == 0 && fast_left > 0)
        return reaction
                   ? enc_fail(c->d, ENG_STATE, "%s has used the slow "
                              "maneuver of this round; a fast one is left",
                              who->name)
                   : enc_fail(c->d, ENG_STATE, "%s has used the slow "
                              "maneuver of this turn; a fast one is left",
                              who->name);
    if (slow_left + fast_left == 0)
        return reaction
                   ? enc_fail(c->d, ENG_STATE, "%s has no maneuvers left "
                              "this round", who->name)
                   : enc_fail(c->d, ENG_STATE, "%s has no maneuvers left "
                              "this turn", who->name);
    /* The ambush's bonus is for the first maneuver of the fight only: the
     * roll that comes with it uses it up (cards_roll_test), and one
     * without a roll loses it. */
    if (st->slow + st->fast > 0)
        st->first_bonus = 0;
    /* A fast maneuver uses the fast one first and then the slow one. */
    bool as_slow = slow || fast_left == 0;
    if (as_slow)
        st->slow++;
    else
        st->fast++;
    if (!reaction && as_slow)
        st->turn_slow++;
    else if (!reaction)
        st->turn_fast++;
    CARDS_E(e)->round_acted = true;
    return ENG_OK;
}

bool cards_silenced(const struct enc_combatant *who)
{
    return enc_cond_find((struct enc_combatant *)who, CARDS_SILENCED) !=
           NULL;
}

enum eng_err cards_may(struct rs_call *c, struct enc_combatant *who,
                       const char *what, bool held_ok, bool fire_ok)
{
    if (!held_ok && enc_cond_find(who, CARDS_HELD) != NULL)
        return enc_fail(c->d, ENG_STATE, "%s is held and cannot %s: only "
                        "parry, break free or shout", who->name, what);
    if (!fire_ok && enc_cond_find(who, CARDS_BURNING) != NULL)
        return enc_fail(c->d, ENG_STATE, "%s is burning and cannot %s: only "
                        "put out the fire, flee or shout", who->name, what);
    return ENG_OK;
}

/* /maneuver name: kind:slow|fast|shout label: */
enum eng_err cards_do_maneuver(struct rs_call *c)
{
    struct enc_combatant *who = rs_arg_who(c, "name");
    const char *kind = rs_arg_text(c, "kind", "fast");
    bool slow = strcmp(kind, "slow") == 0;
    bool shout = strcmp(kind, "shout") == 0;
    /* Shouting is a fast maneuver that being held or burning allows, and
     * a covered mouth does not: the rules read the state, not the label. */
    if (shout && cards_silenced(who))
        return enc_fail(c->d, ENG_STATE, "%s cannot shout: the mouth is "
                        "covered", who->name);
    enum eng_err err = cards_may(c, who, "do that", shout, shout);
    if (err == ENG_OK)
        err = cards_spend(c, who, slow, false);
    if (err != ENG_OK)
        return err;
    CARDS_C(who)->first_bonus = 0;    /* nothing rolled to add it to */
    const char *label = rs_arg_text(c, "label", NULL);
    const char *what = slow    ? N_("a slow maneuver")
                       : shout ? N_("a shout")
                               : N_("a fast maneuver");
    if (label != NULL)
        RS_SAY(c, who, "{} uses {}: {}", RS_A_WHO(who), RS_A_TEXT(what),
               RS_A_USER(label));
    else
        RS_SAY(c, who, "{} uses {}.", RS_A_WHO(who), RS_A_TEXT(what));
    return ENG_OK;
}

/* /test with roll: the player's own dice, counted as rolled: nothing is
 * added or taken away, so the pool's options do not apply. */
static enum eng_err cards_own_dice(struct rs_call *c)
{
    static const char *const pool_opts[] = {"pool", "skill", "bonus",
                                            "harm"};
    for (size_t i = 0; i < sizeof pool_opts / sizeof pool_opts[0]; i++) {
        enum eng_err err = cards_not_both(c, "roll", pool_opts[i], "roll: "
                                          "counts the dice given as they "
                                          "fall");
        if (err != ENG_OK)
            return err;
    }
    return ENG_OK;
}

/* /test name: pool:|skill:|roll: bonus: need: maneuver: label: harm: */
enum eng_err cards_do_test(struct rs_call *c)
{
    struct enc_combatant *who = rs_arg_who(c, "name");
    const char *roll = rs_arg_text(c, "roll", NULL);
    int base = 0;
    enum eng_err err = roll != NULL ? cards_own_dice(c)
                                    : cards_opt_pool(c, who, NULL, &base);
    if (err != ENG_OK)
        return err;
    int64_t bonus = rs_arg_int(c, "bonus", 0), need = rs_arg_int(c, "need", 1);
    const char *m = rs_arg_text(c, "maneuver", "none");
    bool spend = strcmp(m, "none") != 0;
    if (spend) {
        err = cards_may(c, who, "do that", false, false);
        if (err == ENG_OK)
            err = cards_spend(c, who, strcmp(m, "slow") == 0,
                              strcmp(m, "reaction") == 0);
        if (err != ENG_OK)
            return err;
    }
    const char *label = rs_arg_text(c, "label", rs_arg_text(c, "skill",
                                                            "test"));
    struct cards_roll r = {0};
    if (roll != NULL) {
        struct rs_rolled rolled;
        err = rs_roll(c, who, label, roll, &rolled);
        if (err == ENG_OK) {
            r.succ = (int)rolled.successes;
            r.roll_idx = rolled.roll_idx;
            r.own = true;
            r.secret = who->hidden;
        }
    } else {
        err = cards_roll_test(c, who, label, base, (int)bonus,
                              rs_arg_bool(c, "harm", true), spend, &r);
    }
    if (err != ENG_OK)
        return err;
    struct enc_event *ev = cards_test_event(
        c, who, label, &r, need,
        r.succ > need ? NULL : r.succ == need ? N_("passes") : N_("fails"));
    if (r.succ > need)
        rs_ev_outcome(c, ev, RS_TN("passes, {} extra success",
                                   "passes, {} extra successes",
                                   r.succ - need, RS_A_NUM(r.succ - need)));
    return ENG_OK;
}
