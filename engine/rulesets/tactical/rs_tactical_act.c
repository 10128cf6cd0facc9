/*
 * rs_tactical_act.c - the tactical ruleset's own commands: /test, /act
 * (spending AP, maneuvers, Break, Drag, clearing Magnetized), /effect
 * trigger|apply|clear, /combat ap and /combat takedown; and the shared
 * pieces they use: spending AP and exerting.
 */
#include <stdio.h>
#include <string.h>

#include "eng_text.h"
#include "rs_kit.h"
#include "rs_tactical.h"

/* AP to clear Magnetized, and to drag a gripped character. */
#define TAC_CLEAR_AP 2
#define TAC_DRAG_AP 1
#define TAC_BREAK_AP 1

static const char *const tac_physical[] = {"strength", "endurance",
                                           "dexterity"};

static bool tac_is_physical(const char *attr)
{
    for (size_t i = 0; i < 3; i++)
        if (eng_text_casecmp(attr, tac_physical[i]) == 0)
            return true;
    return false;
}

enum eng_err tac_spend_ap(struct rs_call *c, struct enc_combatant *who,
                          int n, const char *what)
{
    if (c->e->status != ENC_ST_RUNNING)
        return enc_fail(c->d, ENG_STATE, "the fight has not begun");
    if (c->e->current != who->id)
        return enc_fail(c->d, ENG_STATE, "it is not %s's turn", who->name);
    if (who->rs[TAC_C_AP] < n) {
        enc_fail(c->d, ENG_STATE, "%s has %lld AP left; %s costs %d",
                 who->name, (long long)who->rs[TAC_C_AP], what, n);
        enc_hint(c->d, "/combat next ends the turn");
        return ENG_STATE;
    }
    who->rs[TAC_C_AP] -= n;
    if (n > 0)
        tac_say(c, who->id, false, "%s spends %d AP on %s (%lld left)",
                who->name, n, what, (long long)who->rs[TAC_C_AP]);
    return ENG_OK;
}

enum eng_err tac_exert(struct rs_call *c, struct enc_combatant *who)
{
    struct enc_track *st = enc_track(who, "stamina");
    if (st != NULL && st->cur > 0) {
        int64_t before = st->cur--;
        struct enc_event *hv = enc_emit(c->r, ENC_EV_HP, who->id);
        hv->text = enc_result_strdup(c->r, "stamina", 4096);
        hv->a = before;
        hv->b = st->cur;
        hv->secret = who->hidden;
        tac_say(c, who->id, false, "%s exerts: 1 stamina for an advantage",
                who->name);
        return ENG_OK;
    }
    if (c->e->current != who->id)
        return enc_fail(c->d, ENG_STATE, "%s has no stamina and may exert at "
                        "0 only during their own turn", who->name);
    who->rs[TAC_C_EXERT_TURN] = (int64_t)c->e->turn_seq;
    tac_say(c, who->id, false, "%s exerts at 0 stamina: Exhausted +1 at the "
            "end of the turn", who->name);
    return ENG_OK;
}

/* The combatant named by option opt, or whoever's turn it is. */
static enum eng_err tac_actor(struct rs_call *c, const char *opt,
                              struct enc_combatant **out)
{
    if (rs_opt(c->opts, c->nopts, opt) != NULL)
        return rs_opt_combatant(c, opt, out);
    struct enc_combatant *cur = enc_current(c->e);
    if (cur == NULL)
        return enc_fail(c->d, ENG_INVALID, "%s: is required (it is nobody's "
                        "turn)", opt);
    *out = cur;
    return ENG_OK;
}

/* A name option that must fit a table name. */
static enum eng_err tac_name_opt(struct rs_call *c, const char *opt,
                                 const char *dflt, char *buf)
{
    const char *v = rs_opt(c->opts, c->nopts, opt);
    if (v == NULL)
        v = dflt;
    if (strlen(v) > TAC_MAX_NAME)
        return enc_fail(c->d, ENG_LIMIT, "%s: too long (limit is %d bytes)",
                        opt, TAC_MAX_NAME);
    enc_copy(buf, TAC_MAX_NAME + 1, v);
    eng_text_lower(buf);
    return ENG_OK;
}

/* ---- /test -------------------------------------------------------------- */

/* /test name: attr: skill: difficulty: roll: adv: dis: exert: */
enum eng_err tac_test(struct rs_call *c)
{
    struct enc_combatant *who;
    enum eng_err err = tac_actor(c, "name", &who);
    if (err == ENG_OK)
        err = rs_require_actor(c, who);
    if (err != ENG_OK)
        return err;
    struct tac_test_def td;
    memset(&td, 0, sizeof td);
    int64_t diff, adv, dis, pool = -1;
    bool exert;
    if ((err = tac_name_opt(c, "attr", "", td.attr)) != ENG_OK ||
        (err = tac_name_opt(c, "skill", "", td.skill)) != ENG_OK ||
        (err = rs_opt_int(c, "difficulty", 0, TAC_MAX_DIFFICULTY, 0,
                          &diff)) != ENG_OK ||
        (err = rs_opt_int(c, "adv", 0, TAC_MAX_POOL, 0, &adv)) != ENG_OK ||
        (err = rs_opt_int(c, "dis", 0, TAC_MAX_POOL, 0, &dis)) != ENG_OK ||
        (err = rs_opt_bool(c, "exert", false, &exert)) != ENG_OK)
        return err;
    const char *roll = rs_opt(c->opts, c->nopts, "roll");
    if (roll != NULL && !eng_text_to_int(roll, &pool))
        pool = -2;
    if (pool >= 0 && pool > TAC_MAX_POOL)
        return enc_fail(c->d, ENG_RANGE, "roll: a pool must be 0 to %d dice",
                        TAC_MAX_POOL);
    if (td.attr[0] == '\0' && roll == NULL) {
        enc_fail(c->d, ENG_INVALID, "give attr: (and skill:) or roll:");
        enc_hint(c->d, "/test name:\"%s\" attr:endurance skill:fortitude "
                 "difficulty:2", who->name);
        return ENG_INVALID;
    }
    if (exert) {
        if (td.attr[0] != '\0' && !tac_is_physical(td.attr))
            return enc_fail(c->d, ENG_INVALID, "exert is for Strength, "
                            "Endurance and Dexterity tests");
        err = tac_exert(c, who);
        if (err != ENG_OK)
            return err;
    }
    char label[48];
    if (td.attr[0] != '\0')
        snprintf(label, sizeof label, "%s: %s(%s %lld)", who->name, td.attr,
                 td.skill[0] ? td.skill : "-", (long long)diff);
    else
        snprintf(label, sizeof label, "%s: test", who->name);
    int64_t succ;
    if (pool == -2) {
        struct rs_rolled r;
        err = rs_roll(c, NULL, label, roll, &r);
        succ = r.successes;
    } else {
        err = tac_roll_test(c, who, &td, (int)pool, (int)adv + (exert ? 1 : 0),
                            (int)dis, label, &succ);
    }
    if (err != ENG_OK)
        return err;
    if (diff > 0)
        tac_say(c, who->id, who->hidden, succ >= diff ?
                "%s passes: %lld of %lld successes" :
                "%s fails: %lld of %lld successes", who->name,
                (long long)succ, (long long)diff);
    else
        tac_say(c, who->id, who->hidden, "%s: %lld successes", who->name,
                (long long)succ);
    if (diff > 0 && succ < diff)
        tac_say(c, who->id, who->hidden, "failed by %lld",
                (long long)(diff - succ));
    return ENG_OK;
}

/* ---- /act --------------------------------------------------------------- */

/* An opposed test: a's pool against b's; a wins on more successes. */
static enum eng_err tac_opposed(struct rs_call *c, struct enc_combatant *a,
                                const struct tac_test_def *ta,
                                struct enc_combatant *b,
                                const struct tac_test_def *tb, bool *a_wins)
{
    int64_t sa, sb;
    char label[48];
    snprintf(label, sizeof label, "%s: %s(%s)", a->name, ta->attr, ta->skill);
    enum eng_err err = tac_roll_test(c, a, ta, -1, 0, 0, label, &sa);
    if (err != ENG_OK)
        return err;
    snprintf(label, sizeof label, "%s: %s(%s)", b->name, tb->attr, tb->skill);
    err = tac_roll_test(c, b, tb, -1, 0, 0, label, &sb);
    if (err != ENG_OK)
        return err;
    *a_wins = sa > sb;
    tac_say(c, a->id, false, "%s %lld, %s %lld: %s wins", a->name,
            (long long)sa, b->name, (long long)sb, *a_wins ? a->name :
            b->name);
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

static enum eng_err tac_maneuver(struct rs_call *c, struct enc_combatant *who,
                                 int64_t ap)
{
    int64_t cost;
    enum eng_err err = rs_opt_int(c, "stamina", 0, TAC_MAX_COST, 1, &cost);
    if (err != ENG_OK)
        return err;
    if (who->rs[TAC_C_MANEUVER_TURN] == (int64_t)c->e->turn_seq)
        return enc_fail(c->d, ENG_STATE, "%s has used a maneuver this turn "
                        "(one per turn)", who->name);
    if (who->rs[TAC_C_AP] < ap)
        return enc_fail(c->d, ENG_STATE, "%s has %lld AP left; the maneuver "
                        "costs %lld", who->name, (long long)who->rs[TAC_C_AP],
                        (long long)ap);
    struct enc_track *st = enc_track(who, "stamina");
    int64_t have = st != NULL ? st->cur : 0;
    bool exhausted = false;
    if (have == 0 && cost > 0) {
        /* At 0 stamina: Fortitude(Endurance) against the cost. */
        static const struct tac_test_def fort = {"endurance", "fortitude"};
        char label[48];
        snprintf(label, sizeof label, "%s: maneuver at 0 stamina (%lld)",
                 who->name, (long long)cost);
        int64_t succ;
        err = tac_roll_test(c, who, &fort, -1, 0, 0, label, &succ);
        if (err != ENG_OK)
            return err;
        if (succ < cost) {
            tac_say(c, who->id, false, "%s fails (%lld of %lld) and cannot "
                    "use the maneuver", who->name, (long long)succ,
                    (long long)cost);
            return ENG_OK;
        }
        exhausted = true;
    } else if (have < cost) {
        return enc_fail(c->d, ENG_STATE, "%s has %lld stamina; the maneuver "
                        "costs %lld", who->name, (long long)have,
                        (long long)cost);
    } else if (cost > 0) {
        int64_t before = st->cur;
        st->cur -= cost;
        struct enc_event *hv = enc_emit(c->r, ENC_EV_HP, who->id);
        hv->text = enc_result_strdup(c->r, "stamina", 4096);
        hv->a = before;
        hv->b = st->cur;
        hv->secret = who->hidden;
    }
    err = tac_spend_ap(c, who, (int)ap, "a maneuver");
    if (err != ENG_OK)
        return err;
    who->rs[TAC_C_MANEUVER_TURN] = (int64_t)c->e->turn_seq;
    if (exhausted)
        return tac_cond_give(c, who, "Exhausted", 1, -1, who->id);
    return ENG_OK;
}

/* /act action: name: cost: stamina: target: label: */
enum eng_err tac_act(struct rs_call *c)
{
    const struct tac_table *t = tac_table_for(c);
    struct enc_combatant *who;
    enum eng_err err = tac_actor(c, "name", &who);
    if (err == ENG_OK)
        err = rs_require_actor(c, who);
    if (err != ENG_OK)
        return err;
    const char *action = rs_opt(c->opts, c->nopts, "action");
    if (action == NULL || action[0] == '\0')
        return enc_fail(c->d, ENG_INVALID, "action: is required");
    if (c->e->current != who->id)
        return enc_fail(c->d, ENG_STATE, "it is not %s's turn", who->name);
    int64_t cost;
    if (eng_text_casecmp(action, "maneuver") == 0) {
        if ((err = rs_opt_int(c, "cost", 0, TAC_MAX_COST, 1, &cost)) != ENG_OK)
            return err;
        return tac_maneuver(c, who, cost);
    }
    if (eng_text_casecmp(action, "unmagnetize") == 0) {
        const struct tac_fx *mag = NULL;
        for (int i = 0; i < t->nfx && mag == NULL; i++)
            if (t->fx[i].kind == TAC_FX_APPLY &&
                enc_cond_find(who, t->fx[i].cond) != NULL &&
                eng_text_casecmp(t->fx[i].name, "Magnetize") == 0)
                mag = &t->fx[i];
        if (mag == NULL)
            return enc_fail(c->d, ENG_STATE, "%s is not magnetized",
                            who->name);
        if ((err = tac_spend_ap(c, who, TAC_CLEAR_AP, "clearing the "
                                "magnetism")) != ENG_OK)
            return err;
        return enc_cond_remove(c->e, who, mag->cond, c->r, c->d);
    }
    if (eng_text_casecmp(action, "break") == 0) {
        struct enc_combatant *captor;
        if ((err = rs_opt_combatant(c, "target", &captor)) != ENG_OK)
            return err;
        if (enc_cond_find(who, "Immobilized") == NULL)
            return enc_fail(c->d, ENG_STATE, "%s is not held", who->name);
        if (who->rs[TAC_C_BREAK_ROUND] == c->e->round)
            return enc_fail(c->d, ENG_STATE, "%s has tried to break free "
                            "this round (once per round)", who->name);
        if ((err = tac_spend_ap(c, who, TAC_BREAK_AP, "Break")) != ENG_OK)
            return err;
        who->rs[TAC_C_BREAK_ROUND] = c->e->round;
        struct tac_test_def ta, tb;
        tac_grapple_test(who, &ta);
        tac_grapple_test(captor, &tb);
        bool wins;
        if ((err = tac_opposed(c, who, &ta, captor, &tb, &wins)) != ENG_OK)
            return err;
        return wins ? enc_cond_remove(c->e, who, "Immobilized", c->r, c->d)
                    : ENG_OK;
    }
    if (eng_text_casecmp(action, "drag") == 0) {
        struct enc_combatant *held;
        if ((err = rs_opt_combatant(c, "target", &held)) != ENG_OK)
            return err;
        if (enc_cond_find(held, "Immobilized") == NULL)
            return enc_fail(c->d, ENG_STATE, "%s is not held", held->name);
        if ((err = tac_spend_ap(c, who, TAC_DRAG_AP, "a drag")) != ENG_OK)
            return err;
        static const struct tac_test_def fort = {"endurance", "fortitude"};
        static const struct tac_test_def ath = {"strength", "athletics"};
        bool resists;
        if ((err = tac_opposed(c, held, &fort, who, &ath, &resists)) !=
            ENG_OK)
            return err;
        if (!resists)
            tac_say(c, held->id, false, "%s is dragged up to 15 ft",
                    held->name);
        return ENG_OK;
    }
    if ((err = rs_opt_int(c, "cost", 0, TAC_MAX_COST, 1, &cost)) != ENG_OK)
        return err;
    char what[64];
    snprintf(what, sizeof what, "%.40s", action);
    return tac_spend_ap(c, who, (int)cost, what);
}

/* ---- /effect ------------------------------------------------------------ */

/* "Name" or "Name(X)" from option opt. */
static enum eng_err tac_effect_opt(struct rs_call *c, const char *opt,
                                   bool need_x, const struct tac_fx **fx,
                                   int *x)
{
    const struct tac_table *t = tac_table_for(c);
    const char *v = rs_opt(c->opts, c->nopts, opt);
    if (v == NULL || v[0] == '\0')
        return enc_fail(c->d, ENG_INVALID, "%s: is required", opt);
    char name[TAC_MAX_NAME + 1];
    const char *paren = strchr(v, '(');
    size_t len = paren != NULL ? (size_t)(paren - v) : strlen(v);
    if (len == 0 || len > TAC_MAX_NAME)
        return enc_fail(c->d, ENG_NOTFOUND, "unknown effect %.40s", v);
    memcpy(name, v, len);
    name[len] = '\0';
    *fx = tac_fx_find(t, name);
    if (*fx == NULL)
        return enc_fail(c->d, ENG_NOTFOUND, "unknown effect %s", name);
    *x = 0;
    if (paren != NULL) {
        int64_t n;
        const char *end = eng_text_parse_int(paren + 1, &n);
        if (end == NULL || *end != ')' || end[1] != '\0' || n < 0 ||
            n > TAC_MAX_X)
            return enc_fail(c->d, ENG_INVALID, "%s: the value must be 0 to "
                            "%d, as in %s(2)", opt, TAC_MAX_X, name);
        *x = (int)n;
    } else if (need_x && ((*fx)->kind == TAC_FX_DIRECT ||
                          ((*fx)->kind == TAC_FX_RESIST &&
                           (*fx)->fixed == 0))) {
        return enc_fail(c->d, ENG_INVALID, "%s needs a value, as in %s(2)",
                        (*fx)->name, (*fx)->name);
    }
    return ENG_OK;
}

/* The only pending test on who, for trigger without effect:. */
static const struct tac_fx *tac_only_pending(const struct tac_table *t,
                                             struct enc_combatant *who,
                                             int *count)
{
    const struct tac_fx *found = NULL;
    *count = 0;
    for (int i = 0; i < who->nconds; i++) {
        const char *n = who->conds[i].name;
        size_t len = strlen(n);
        if (len <= 5 || strcmp(n + len - 5, " test") != 0)
            continue;
        char base[ENC_MAX_COND_NAME + 1];
        enc_copy(base, sizeof base, n);
        base[len - 5] = '\0';
        const struct tac_fx *fx = tac_fx_find(t, base);
        if (fx != NULL) {
            found = fx;
            (*count)++;
        }
    }
    return found;
}

/* /effect trigger name: effect: pool: test: */
enum eng_err tac_trigger(struct rs_call *c)
{
    const struct tac_table *t = tac_table_for(c);
    struct enc_combatant *who;
    enum eng_err err = rs_opt_combatant(c, "name", &who);
    if (err != ENG_OK)
        return err;
    const struct tac_fx *fx;
    int x;
    if (rs_opt(c->opts, c->nopts, "effect") != NULL) {
        if ((err = tac_effect_opt(c, "effect", false, &fx, &x)) != ENG_OK)
            return err;
    } else {
        int n;
        fx = tac_only_pending(t, who, &n);
        if (n == 0)
            return enc_fail(c->d, ENG_STATE, "%s has no pending test",
                            who->name);
        if (n > 1)
            return enc_fail(c->d, ENG_INVALID, "%s has %d pending tests: "
                            "give effect:", who->name, n);
    }
    char name[ENC_MAX_COND_NAME + 1];
    snprintf(name, sizeof name, "%s test", fx->name);
    const struct enc_cond *k = enc_cond_find(who, name);
    if (k == NULL)
        return enc_fail(c->d, ENG_STATE, "%s has no pending %s test",
                        who->name, fx->name);
    /* The one who inflicted it decides when it is rolled. */
    struct enc_combatant *src = enc_by_id(c->e, k->source);
    if ((err = rs_require_actor(c, src != NULL ? src : who)) != ENG_OK)
        return err;
    int64_t pool, alt;
    if ((err = rs_opt_int(c, "pool", 0, TAC_MAX_POOL, -1, &pool)) != ENG_OK ||
        (err = rs_opt_int(c, "test", 1, 2, 0, &alt)) != ENG_OK)
        return err;
    return tac_fx_resolve(c, who, fx, (int)pool, (int)alt - 1);
}

/* /effect apply name: effect: attacker: crit: (GM) */
enum eng_err tac_apply(struct rs_call *c)
{
    if (!c->is_gm)
        return enc_fail(c->d, ENG_PERM, "only the GM may apply an effect "
                        "directly");
    struct enc_combatant *who, *src = NULL;
    enum eng_err err = rs_opt_combatant(c, "name", &who);
    if (err != ENG_OK)
        return err;
    if (rs_opt(c->opts, c->nopts, "attacker") != NULL &&
        (err = rs_opt_combatant(c, "attacker", &src)) != ENG_OK)
        return err;
    const struct tac_fx *fx;
    int x;
    if ((err = tac_effect_opt(c, "effect", true, &fx, &x)) != ENG_OK)
        return err;
    bool crit;
    if ((err = rs_opt_bool(c, "crit", false, &crit)) != ENG_OK)
        return err;
    return tac_fx_hit(c, who, src != NULL ? src->id : 0, fx, x, crit,
                      crit ? 1 : 0);
}

/* /effect clear name: condition: (GM) */
enum eng_err tac_clear(struct rs_call *c)
{
    if (!c->is_gm)
        return enc_fail(c->d, ENG_PERM, "only the GM may clear a condition");
    struct enc_combatant *who;
    enum eng_err err = rs_opt_combatant(c, "name", &who);
    if (err != ENG_OK)
        return err;
    const char *cond = rs_opt(c->opts, c->nopts, "condition");
    if (cond == NULL || cond[0] == '\0')
        return enc_fail(c->d, ENG_INVALID, "condition: is required");
    int64_t by;
    if ((err = rs_opt_int(c, "by", 0, TAC_MAX_X, 0, &by)) != ENG_OK)
        return err;
    struct enc_cond *k = enc_cond_find(who, cond);
    if (k == NULL)
        return enc_fail(c->d, ENG_NOTFOUND, "%s has no condition %.32s",
                        who->name, cond);
    if (by > 0 && k->value > by) {
        int64_t before = k->value;
        k->value -= (int32_t)by;
        tac_say(c, who->id, false, "%s: %s %lld -> %d", who->name, k->name,
                (long long)before, k->value);
    } else {
        err = enc_cond_remove(c->e, who, cond, c->r, c->d);
        if (err != ENG_OK)
            return err;
    }
    tac_out_update(c, who);
    return ENG_OK;
}

/* ---- GM commands -------------------------------------------------------- */

/* /combat ap name: value: */
enum eng_err tac_set_ap(struct rs_call *c)
{
    if (!c->is_gm)
        return enc_fail(c->d, ENG_PERM, "only the GM may set action points");
    struct enc_combatant *who;
    int64_t v;
    enum eng_err err = rs_opt_combatant(c, "name", &who);
    if (err == ENG_OK)
        err = rs_opt_int(c, "value", 0, TAC_MAX_AP, 0, &v);
    if (err != ENG_OK)
        return err;
    if (rs_opt(c->opts, c->nopts, "value") == NULL)
        return enc_fail(c->d, ENG_INVALID, "value: is required");
    who->rs[TAC_C_AP] = v;
    who->rs[TAC_C_HAS_AP] = 1;
    tac_say(c, who->id, false, "%s has %lld AP", who->name, (long long)v);
    return ENG_OK;
}

/* /combat takedown name: bonus: amount: */
enum eng_err tac_takedown(struct rs_call *c)
{
    if (!c->is_gm)
        return enc_fail(c->d, ENG_PERM, "only the GM may grant a takedown "
                        "bonus");
    if (c->e->status != ENC_ST_SETUP)
        return enc_fail(c->d, ENG_STATE, "a takedown bonus is given before "
                        "/combat begin");
    struct enc_combatant *who;
    enum eng_err err = rs_opt_combatant(c, "name", &who);
    if (err != ENG_OK)
        return err;
    const char *bonus = rs_opt(c->opts, c->nopts, "bonus");
    if (bonus == NULL)
        bonus = "";
    if (eng_text_casecmp(bonus, "injury") == 0)
        return tac_cond_give(c, who, "Injured", 1, 0, 0);
    if (eng_text_casecmp(bonus, "wound") == 0)
        return tac_cond_give(c, who, "Wounded", 1, 0, 0);
    if (eng_text_casecmp(bonus, "surprised") == 0)
        return tac_cond_give(c, who, "Surprised", 1, 1, 0);
    if (eng_text_casecmp(bonus, "unarmed") == 0) {
        enc_copy(who->note, sizeof who->note, "takedown: starts unarmed or "
                 "without a key piece of gear");
        enc_emit(c->r, ENC_EV_NOTE, who->id)->secret = who->hidden;
        return ENG_OK;
    }
    if (eng_text_casecmp(bonus, "hp") == 0) {
        int64_t amount;
        if ((err = rs_opt_int(c, "amount", 1, ENC_MAX_VALUE, 0, &amount)) !=
            ENG_OK)
            return err;
        if (amount == 0)
            return enc_fail(c->d, ENG_INVALID, "amount: is required for "
                            "bonus:hp");
        int64_t lost;
        return tac_damage(c, who, 0, amount, true, TAC_AV_PER, &lost);
    }
    return enc_fail(c->d, ENG_INVALID, "bonus: must be injury, wound, hp, "
                    "unarmed or surprised");
}

