/*
 * rs_tactical_act.c - the tactical ruleset's own commands: /test, /act
 * (spending AP, maneuvers, Break, Drag, clearing Magnetized), /ap and
 * /takedown; and the shared pieces they use: spending AP and exerting.
 * Options arrive bound to their declarations (rs_tactical_decl.c).
 */
#include <stdio.h>
#include <string.h>

#include "eng_text.h"
#include "rs_kit.h"
#include "rs_tactical.h"

/* AP to clear Magnetized, to drag a gripped character, to try to break
 * free. */
#define TAC_CLEAR_AP 2
#define TAC_DRAG_AP 1
#define TAC_BREAK_AP 1

static const char *const tac_physical[] = {"strength", "endurance",
                                           "dexterity"};

static bool tac_is_physical(const char *attr)
{
    for (size_t i = 0; i < sizeof tac_physical / sizeof tac_physical[0]; i++)
        if (eng_text_casecmp(attr, tac_physical[i]) == 0)
            return true;
    return false;
}

enum eng_err tac_spend_ap(struct rs_call *c, struct enc_combatant *who,
                          int n, const char *what, bool user_text)
{
    if (c->e->status != ENC_ST_RUNNING)
        return enc_fail(c->d, ENG_STATE, "the fight has not begun");
    if (c->e->current != who->id)
        return enc_fail(c->d, ENG_STATE, "%s can spend AP only on their own "
                        "turn", who->name);
    struct tac_comb *st = TAC_ST(who);
    if (st->ap < n) {
        enc_fail(c->d, ENG_STATE, "%s has %lld AP left; %s costs %d",
                 who->name, (long long)st->ap, what, n);
        enc_hint(c->d, "/combat next ends the turn");
        return ENG_STATE;
    }
    st->ap -= n;
    if (n > 0)
        RS_SAY(c, who, "{} spends {} AP on {} ({} left)", RS_A_WHO(who),
               RS_A_NUM(n), user_text ? RS_A_USER(what) : RS_A_TEXT(what),
               RS_A_NUM(st->ap));
    return ENG_OK;
}

enum eng_err tac_exert(struct rs_call *c, struct enc_combatant *who)
{
    struct enc_track *st = enc_track(who, "stamina");
    if (st != NULL && st->cur > 0) {
        int64_t before = st->cur--;
        tac_track_event(c, who, "stamina", before, st->cur);
        RS_SAY(c, who, "{} exerts: 1 stamina for an advantage",
               RS_A_WHO(who));
        return ENG_OK;
    }
    if (c->e->current != who->id)
        return enc_fail(c->d, ENG_STATE, "%s has no stamina and may exert at "
                        "0 only during their own turn", who->name);
    TAC_ST(who)->exert_turn = (int64_t)c->e->turn_seq;
    RS_SAY(c, who, "{} exerts at 0 stamina: an advantage now, Exhausted +1 "
           "when the turn ends", RS_A_WHO(who));
    return ENG_OK;
}

/* The combatant named by option opt, or whoever's turn it is, whom the
 * sender must be allowed to act for. */
static enum eng_err tac_actor(struct rs_call *c, const char *opt,
                              struct enc_combatant **out)
{
    struct enc_combatant *who = rs_arg_who(c, opt);
    if (who == NULL)
        who = enc_current(c->e);
    *out = who; /* on every path: the callers read it only on ENG_OK, but
                 * gcc -O3 cannot see that enc_fail never returns ENG_OK */
    if (who == NULL)
        return enc_fail(c->d, ENG_INVALID, "%s: is required (it is nobody's "
                        "turn)", opt);
    return rs_require_actor(c, who);
}

/* An option that the chosen action does not use is refused, not ignored. */
static enum eng_err tac_unused(struct rs_call *c, const char *opt,
                               const char *why)
{
    if (rs_arg(c, opt) == NULL)
        return ENG_OK;
    return enc_fail(c->d, ENG_INVALID, "%s: %s", opt, why);
}

/* ---- /test -------------------------------------------------------------- */

/* attr: or skill: as a lowercase stat name. */
static void tac_name_arg(struct rs_call *c, const char *opt, char *buf)
{
    enc_copy(buf, TAC_MAX_NAME + 1, rs_arg_text(c, opt, ""));
    eng_text_lower(buf);
}

/* /test name: attr: skill: difficulty: roll: adv: dis: exert: */
enum eng_err tac_test(struct rs_call *c)
{
    struct enc_combatant *who;
    enum eng_err err = tac_actor(c, "name", &who);
    if (err != ENG_OK)
        return err;
    struct tac_test_def td;
    memset(&td, 0, sizeof td);
    tac_name_arg(c, "attr", td.attr);
    tac_name_arg(c, "skill", td.skill);
    const char *roll = rs_arg_text(c, "roll", NULL);
    int64_t pool = -1;
    if (roll != NULL && eng_text_to_int(roll, &pool) &&
        (pool < 0 || pool > TAC_MAX_POOL))
        return enc_fail(c->d, ENG_RANGE, "roll: a pool must be 0 to %d dice",
                        TAC_MAX_POOL);
    if (td.attr[0] == '\0' && roll == NULL) {
        enc_fail(c->d, ENG_INVALID, "give attr: (and skill:) or roll:");
        enc_hint(c->d, "/test name:\"%s\" attr:endurance skill:fortitude "
                 "difficulty:2", who->name);
        return ENG_INVALID;
    }
    if (td.attr[0] == '\0' && td.skill[0] != '\0')
        return enc_fail(c->d, ENG_INVALID, "skill: needs attr: too");
    bool exert = rs_arg_bool(c, "exert", false);
    if (exert) {
        if (td.attr[0] != '\0' && !tac_is_physical(td.attr))
            return enc_fail(c->d, ENG_INVALID, "exert is for Strength, "
                            "Endurance and Dexterity tests");
        if ((err = tac_exert(c, who)) != ENG_OK)
            return err;
    }
    struct tac_roll tr = {
        .who = who, .def = &td, .pool = (int)pool,
        .dice = roll != NULL && pool < 0 ? roll : NULL,
        .adv = (int)rs_arg_int(c, "adv", 0), .exert = exert,
        .dis = (int)rs_arg_int(c, "dis", 0),
        .difficulty = (int)rs_arg_int(c, "difficulty", 0),
        .why = N_("tests"), .kind = ENC_EV_TEST,
    };
    struct tac_rolled out;
    return tac_test_roll(c, &tr, NULL, 0, &out);
}

/* ---- /act --------------------------------------------------------------- */

/* An opposed test: a's pool against b's, each counting successes; *a_more
 * when a has more, *b_more when b has; a tie is neither. */
static enum eng_err tac_opposed(struct rs_call *c, struct tac_roll *ta,
                                struct tac_roll *tb, bool *a_more,
                                bool *b_more)
{
    struct tac_rolled ra, rb;
    enum eng_err err = tac_test_roll(c, ta, NULL, 0, &ra);
    if (err == ENG_OK)
        err = tac_test_roll(c, tb, NULL, 0, &rb);
    if (err != ENG_OK)
        return err;
    *a_more = ra.successes > rb.successes;
    *b_more = rb.successes > ra.successes;
    return ENG_OK;
}

/* Strength or Dexterity (Grapple): the better of the two. */
static void tac_grapple_test(const struct enc_combatant *who,
                             struct tac_test_def *t)
{
    bool dex = enc_stat_or(who, "dexterity", 0) >
               enc_stat_or(who, "strength", 0);
    enc_copy(t->attr, sizeof t->attr, dex ? "dexterity" : "strength");
    enc_copy(t->skill, sizeof t->skill, "grapple");
}

static enum eng_err tac_maneuver(struct rs_call *c, struct enc_combatant *who)
{
    int64_t ap = rs_arg_int(c, "cost", 1);
    int64_t cost = rs_arg_int(c, "stamina", 1);
    struct tac_comb *st = TAC_ST(who);
    if (st->maneuver_turn == (int64_t)c->e->turn_seq)
        return enc_fail(c->d, ENG_STATE, "%s has used a maneuver this turn "
                        "(one per turn)", who->name);
    if (st->ap < ap)
        return enc_fail(c->d, ENG_STATE, "%s has %lld AP left; the maneuver "
                        "costs %lld", who->name, (long long)st->ap,
                        (long long)ap);
    struct enc_track *sta = enc_track(who, "stamina");
    int64_t have = sta != NULL ? sta->cur : 0;
    bool exhausted = false;
    if (have == 0 && cost > 0) {
        /* At 0 stamina: Fortitude(Endurance) against the cost. */
        static const struct tac_test_def fort = {"endurance", "fortitude"};
        struct tac_roll tr = {.who = who, .def = &fort, .pool = -1,
                              .difficulty = (int)cost,
                              .why = N_("pushes through a maneuver at 0 "
                                        "stamina"),
                              .kind = ENC_EV_TEST};
        struct tac_rolled out;
        enum eng_err err = tac_test_roll(c, &tr, NULL, 0, &out);
        if (err != ENG_OK)
            return err;
        if (out.fail_by > 0) {
            RS_SAY(c, who, "{} cannot use the maneuver; no AP are spent",
                   RS_A_WHO(who));
            return ENG_OK;
        }
        exhausted = true;
    } else if (have < cost) {
        return enc_fail(c->d, ENG_STATE, "%s has %lld stamina; the maneuver "
                        "costs %lld", who->name, (long long)have,
                        (long long)cost);
    } else if (cost > 0) {
        int64_t before = sta->cur;
        sta->cur -= cost;
        tac_track_event(c, who, "stamina", before, sta->cur);
    }
    enum eng_err err = tac_spend_ap(c, who, (int)ap, N_("a maneuver"),
                                    false);
    if (err != ENG_OK)
        return err;
    st->maneuver_turn = (int64_t)c->e->turn_seq;
    if (!exhausted)
        return ENG_OK;
    RS_SAY(c, who, "{} used a maneuver at 0 stamina: Exhausted +1",
           RS_A_WHO(who));
    return tac_cond_give(c, who, "Exhausted", -1, who->id);
}

static enum eng_err tac_unmagnetize(struct rs_call *c,
                                    struct enc_combatant *who)
{
    const struct enc_cond *k = tac_flagged(tac_table_for(c), who,
                                           TAC_CDF_MAGNET);
    if (k == NULL)
        return enc_fail(c->d, ENG_STATE, "%s is not magnetized", who->name);
    char name[ENC_MAX_COND_NAME + 1];
    enc_copy(name, sizeof name, k->name);
    enum eng_err err = tac_spend_ap(c, who, TAC_CLEAR_AP,
                                    N_("clearing the magnetism"), false);
    return err != ENG_OK ? err : tac_cond_remove(c, who, name);
}

/* Break: the held character against the captor, once per round. A win
 * frees them of every hold; a tie keeps the grip. */
static enum eng_err tac_break(struct rs_call *c, struct enc_combatant *who,
                              struct enc_combatant *captor)
{
    const struct tac_table *t = tac_table_for(c);
    if (tac_flagged(t, who, TAC_CDF_HELD) == NULL)
        return enc_fail(c->d, ENG_STATE, "%s is not held", who->name);
    struct tac_comb *st = TAC_ST(who);
    if (st->break_round == c->e->round)
        return enc_fail(c->d, ENG_STATE, "%s has tried to break free this "
                        "round (once per round)", who->name);
    enum eng_err err = tac_spend_ap(c, who, TAC_BREAK_AP, N_("Break"), false);
    if (err != ENG_OK)
        return err;
    st->break_round = c->e->round;
    struct tac_test_def ta, tb;
    tac_grapple_test(who, &ta);
    tac_grapple_test(captor, &tb);
    struct tac_roll ra = {.who = who, .def = &ta, .pool = -1,
                          .why = N_("tries to break free"),
                          .skip = TAC_CDF_HELD, .kind = ENC_EV_TEST};
    struct tac_roll rb = {.who = captor, .def = &tb, .pool = -1,
                          .why = N_("holds on"), .kind = ENC_EV_TEST};
    bool wins, loses;
    if ((err = tac_opposed(c, &ra, &rb, &wins, &loses)) != ENG_OK)
        return err;
    if (!wins) {
        RS_SAY(c, who, loses ? "{} holds {}: the grip stays"
                             : N_("{} and {} tie: the grip stays"),
               RS_A_WHO(loses ? captor : who),
               RS_A_WHO(loses ? who : captor));
        return ENG_OK;
    }
    RS_SAY(c, who, "{} breaks free of {}", RS_A_WHO(who), RS_A_WHO(captor));
    const struct enc_cond *k;
    while ((k = tac_flagged(t, who, TAC_CDF_HELD)) != NULL) {
        char name[ENC_MAX_COND_NAME + 1];
        enc_copy(name, sizeof name, k->name);
        if ((err = tac_cond_remove(c, who, name)) != ENG_OK)
            return err;
    }
    return ENG_OK;
}

/* Drag: the held character's Endurance(Fortitude) against the dragger's
 * Strength(Athletics); dragged only when the dragger has more. */
static enum eng_err tac_drag(struct rs_call *c, struct enc_combatant *who,
                             struct enc_combatant *held)
{
    if (tac_flagged(tac_table_for(c), held, TAC_CDF_HELD) == NULL)
        return enc_fail(c->d, ENG_STATE, "%s is not held", held->name);
    enum eng_err err = tac_spend_ap(c, who, TAC_DRAG_AP, N_("a drag"), false);
    if (err != ENG_OK)
        return err;
    static const struct tac_test_def fort = {"endurance", "fortitude"};
    static const struct tac_test_def ath = {"strength", "athletics"};
    struct tac_roll rh = {.who = held, .def = &fort, .pool = -1,
                          .why = N_("resists the drag"), .kind = ENC_EV_TEST};
    struct tac_roll rw = {.who = who, .def = &ath, .pool = -1,
                          .why = N_("drags"), .kind = ENC_EV_TEST};
    bool resists, dragged;
    if ((err = tac_opposed(c, &rh, &rw, &resists, &dragged)) != ENG_OK)
        return err;
    if (dragged)
        RS_SAY(c, held, "{} is dragged up to 15 ft", RS_A_WHO(held));
    else
        RS_SAY(c, held, resists ? "{} is not dragged"
                                : N_("{} is not dragged: a tie moves nobody"),
               RS_A_WHO(held));
    return ENG_OK;
}

/* /act action: name: cost: stamina: target: */
enum eng_err tac_act(struct rs_call *c)
{
    struct enc_combatant *who;
    enum eng_err err = tac_actor(c, "name", &who);
    if (err != ENG_OK)
        return err;
    const char *action = rs_arg_text(c, "action", "");
    if (c->e->current != who->id)
        return enc_fail(c->d, ENG_STATE, "%s can act only on their own turn",
                        who->name);
    bool maneuver = eng_text_casecmp(action, "maneuver") == 0;
    bool held = eng_text_casecmp(action, "break") == 0 ||
                eng_text_casecmp(action, "drag") == 0;
    if (!maneuver &&
        (err = tac_unused(c, "stamina", "is for action:maneuver")) != ENG_OK)
        return err;
    if (!held && (err = tac_unused(c, "target", "is for action:break and "
                                   "action:drag")) != ENG_OK)
        return err;
    if (maneuver)
        return tac_maneuver(c, who);
    if (eng_text_casecmp(action, "unmagnetize") == 0 || held) {
        if ((err = tac_unused(c, "cost", "the rules set what this action "
                              "costs")) != ENG_OK)
            return err;
    }
    if (eng_text_casecmp(action, "unmagnetize") == 0)
        return tac_unmagnetize(c, who);
    if (held) {
        struct enc_combatant *other = rs_arg_who(c, "target");
        if (other == NULL)
            return enc_fail(c->d, ENG_INVALID, "target: is required (who "
                            "holds you, or whom you drag)");
        if (other == who)
            return enc_fail(c->d, ENG_INVALID, "target: someone else");
        return eng_text_casecmp(action, "break") == 0
                   ? tac_break(c, who, other) : tac_drag(c, who, other);
    }
    return tac_spend_ap(c, who, (int)rs_arg_int(c, "cost", 1), action,
                        true);
}

/* ---- GM commands -------------------------------------------------------- */

/* /ap name: value: */
enum eng_err tac_set_ap(struct rs_call *c)
{
    if (!c->is_gm)
        return enc_fail(c->d, ENG_PERM, "only the GM may set action points");
    struct enc_combatant *who = rs_arg_who(c, "name");
    if (c->e->current != who->id)
        return enc_fail(c->d, ENG_STATE, "%s is not acting now; AP are set "
                        "when a turn starts", who->name);
    int64_t v = rs_arg_int(c, "value", 0);
    TAC_ST(who)->ap = v;
    RS_SAY(c, who, "{} has {} AP", RS_A_WHO(who), RS_A_NUM(v));
    return ENG_OK;
}

/* /takedown name: bonus: amount: kind: */
enum eng_err tac_takedown(struct rs_call *c)
{
    if (!c->is_gm)
        return enc_fail(c->d, ENG_PERM, "only the GM may grant a takedown "
                        "bonus");
    if (c->e->status != ENC_ST_SETUP)
        return enc_fail(c->d, ENG_STATE, "a takedown bonus is given before "
                        "/combat begin");
    struct enc_combatant *who = rs_arg_who(c, "name");
    const char *bonus = rs_arg_text(c, "bonus", "");
    const char *kind = rs_arg_text(c, "kind", NULL);
    bool hurt = eng_text_casecmp(bonus, "injury") == 0 ||
                eng_text_casecmp(bonus, "wound") == 0;
    bool hp = eng_text_casecmp(bonus, "hp") == 0;
    enum eng_err err;
    if (!hurt && (err = tac_unused(c, "kind", "is for bonus:injury and "
                                   "bonus:wound")) != ENG_OK)
        return err;
    if (!hp && (err = tac_unused(c, "amount", "is for bonus:hp")) != ENG_OK)
        return err;
    if (hurt) {
        bool injury = eng_text_casecmp(bonus, "injury") == 0;
        if (kind == NULL)
            return enc_fail(c->d, ENG_INVALID, "kind: is required: which "
                            "characteristic the %s is to", bonus);
        if (injury && !tac_is_physical(kind))
            return enc_fail(c->d, ENG_INVALID, "kind: an injury is to "
                            "strength, endurance or dexterity");
        char k[TAC_MAX_NAME + 1], name[ENC_MAX_COND_NAME + 1];
        snprintf(name, sizeof name, "%s %s", tac_title(kind, k, sizeof k),
                 injury ? "Injury" : "Wound");
        return tac_cond_give(c, who, name, -1, 0);
    }
    if (eng_text_casecmp(bonus, "surprised") == 0)
        return tac_cond_give(c, who, "Surprised", 1, 0);
    if (eng_text_casecmp(bonus, "unarmed") == 0) {
        enc_copy(who->note, sizeof who->note, "takedown: starts unarmed or "
                 "without a key piece of gear");
        enc_emit(c->r, ENC_EV_NOTE, who->id)->secret = who->hidden;
        return ENG_OK;
    }
    int64_t amount = rs_arg_int(c, "amount", 0);
    if (amount == 0)
        return enc_fail(c->d, ENG_INVALID, "amount: is required for "
                        "bonus:hp");
    int64_t lost;
    return tac_damage_apply(c, NULL, who, 0, amount, true, TAC_AV_PER, &lost);
}
