/*
 * rs_cards_pool.c - the `cards` ruleset: dice pools and tests, Harm, and
 * the maneuver budget (/test, /maneuver).
 */
#include <stdio.h>
#include <string.h>

#include "eng_text.h"
#include "rs_cards.h"
#include "rs_kit.h"
#include "turn.h"

/* ---- pure rules ---------------------------------------------------------- */

int cards_count(const int *faces, int n, int success)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (faces[i] >= success)
            k++;
    return k;
}

int cards_pool(int base, int bonus, int harm)
{
    int n = base + bonus - harm;
    return n < 0 ? 0 : n;
}

bool cards_may_spend(int slow_used, int fast_used, int turns, bool slow)
{
    if (slow && slow_used + 1 > turns)
        return false;
    return slow_used + fast_used + 1 <= 2 * turns;
}

/* ---- rolling ------------------------------------------------------------- */

enum eng_err cards_roll_pool(struct rs_call *c, const char *label, int n,
                             int *succ, int *roll_idx)
{
    if (n <= 0) {
        int idx = enc_add_plain_roll(c->r, label, 0, false);
        *succ = 0;
        if (roll_idx != NULL)
            *roll_idx = idx;
        return ENG_OK;
    }
    if (n > CARDS_MAX_POOL * 2)
        return enc_fail(c->d, ENG_LIMIT, "too many dice in one pool (limit "
                        "is %d)", CARDS_MAX_POOL * 2);
    char expr[48];
    snprintf(expr, sizeof expr, "%dd%d>=%d", n, cards_die(c->e),
             cards_success(c->e));
    struct rs_rolled r;
    enum eng_err err = rs_roll(c, NULL, label, expr, &r);
    if (err != ENG_OK)
        return err;
    *succ = (int)r.successes;
    if (roll_idx != NULL)
        *roll_idx = r.roll_idx;
    return ENG_OK;
}

enum eng_err cards_test(struct rs_call *c, struct enc_combatant *who,
                        const char *label, int base, int bonus, bool harm,
                        bool maneuver, int *succ)
{
    int extra = (int)who->rs[CC_NEXT_BONUS];
    if (maneuver)
        extra += (int)who->rs[CC_FIRST_BONUS];
    int n = cards_pool(base, bonus + extra, harm ? cards_harm_of(who) : 0);
    int idx = -1;   /* "no roll" (rs_roll.h), until the pool is rolled */
    enum eng_err err = cards_roll_pool(c, label, n, succ, &idx);
    if (err != ENG_OK)
        return err;
    who->rs[CC_NEXT_BONUS] = 0;
    if (maneuver)
        who->rs[CC_FIRST_BONUS] = 0;
    struct enc_event *ev = enc_emit(c->r, ENC_EV_ROLL, who->id);
    ev->a = *succ;
    ev->b = n;
    enc_event_roll(c->r, ev, idx);
    ev->secret = who->hidden;
    enc_event_text(c->r, ev, "%s: %d dice, %d success%s", label,
             n, *succ, *succ == 1 ? "" : "es");
    return ENG_OK;
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

enum eng_err cards_opt_pool(struct rs_call *c, struct enc_combatant *who,
                            const char *dflt_skill, int *base)
{
    int64_t pool;
    enum eng_err err = rs_opt_int(c, "pool", 0, CARDS_MAX_POOL, -1, &pool);
    if (err != ENG_OK)
        return err;
    if (pool >= 0) {
        *base = (int)pool;
        return ENG_OK;
    }
    const char *skill = rs_opt(c->opts, c->nopts, "skill");
    if (skill == NULL)
        skill = dflt_skill;
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
    if (e->status != ENC_ST_RUNNING)
        return enc_fail(c->d, ENG_STATE, "the fight has not begun");
    if (!turn_can_act(who))
        return enc_fail(c->d, ENG_STATE, "%s is out of the fight",
                        who->name);
    if (!reaction && e->current != who->id)
        return enc_fail(c->d, ENG_STATE, "it is not %s's turn; only "
                        "reactions may be used out of turn", who->name);
    int turns = who->ninit > 0 ? who->ninit : 1;
    int slow_used = (int)who->rs[CC_SLOW], fast_used = (int)who->rs[CC_FAST];
    if (!cards_may_spend(slow_used, fast_used, turns, slow)) {
        if (slow && slow_used >= turns)
            return enc_fail(c->d, ENG_STATE, "%s has used its slow "
                            "maneuver this round", who->name);
        return enc_fail(c->d, ENG_STATE, "%s has no maneuvers left this "
                        "round", who->name);
    }
    if (slow_used + fast_used > 0)
        who->rs[CC_FIRST_BONUS] = 0;
    who->rs[slow ? CC_SLOW : CC_FAST]++;
    e->rs[CE_ROUND_ACTED] = 1;
    return ENG_OK;
}

/* A held character may only parry, break free or shout; a burning one may
 * only put the fire out, flee or shout. what: "attack", "flee", ... */
enum eng_err cards_may(struct rs_call *c, struct enc_combatant *who,
                       const char *what, bool held_ok, bool fire_ok)
{
    if (!held_ok && enc_cond_find(who, CARDS_HELD) != NULL)
        return enc_fail(c->d, ENG_STATE, "%s is held and cannot %s: only "
                        "parry, break free or shout", who->name, what);
    if (!fire_ok && who->rs[CC_FIRE] > 0)
        return enc_fail(c->d, ENG_STATE, "%s is burning and cannot %s: only "
                        "put out the fire, flee or shout", who->name, what);
    return ENG_OK;
}

static bool cards_is_shout(const char *label)
{
    if (label == NULL)
        return false;
    for (const char *p = label; *p; p++)
        if (eng_text_ncasecmp(p, "shout", 5) == 0)
            return true;
    return false;
}

enum eng_err cards_actor(struct rs_call *c, struct enc_combatant **who)
{
    enum eng_err err = rs_opt_combatant(c, "name", who);
    if (err == ENG_OK)
        err = rs_require_actor(c, *who);
    return err;
}

/* /maneuver name: kind:slow|fast label: */
enum eng_err cards_do_maneuver(struct rs_call *c)
{
    struct enc_combatant *who;
    enum eng_err err = cards_actor(c, &who);
    if (err != ENG_OK)
        return err;
    const char *kind = rs_opt(c->opts, c->nopts, "kind");
    if (kind == NULL)
        kind = "fast";
    bool slow = eng_text_casecmp(kind, "slow") == 0;
    if (!slow && eng_text_casecmp(kind, "fast") != 0)
        return enc_fail(c->d, ENG_INVALID, "kind: must be slow or fast");
    const char *label = rs_opt(c->opts, c->nopts, "label");
    if (label != NULL && strlen(label) > CARDS_MAX_LABEL)
        return enc_fail(c->d, ENG_LIMIT, "label is too long (limit is %d "
                        "bytes)", CARDS_MAX_LABEL);
    bool shout = !slow && cards_is_shout(label);
    err = cards_may(c, who, "do that", shout, shout);
    if (err != ENG_OK)
        return err;
    err = cards_spend(c, who, slow, false);
    if (err != ENG_OK)
        return err;
    who->rs[CC_FIRST_BONUS] = 0;
    cards_say(c, who->id, "%s: %s maneuver%s%s", who->name, slow ? "slow" :
              "fast", label ? ": " : "", label ? label : "");
    return ENG_OK;
}

/* /test name: pool:|skill: bonus: need: maneuver: label: harm: */
enum eng_err cards_do_test(struct rs_call *c)
{
    struct enc_combatant *who;
    enum eng_err err = cards_actor(c, &who);
    if (err != ENG_OK)
        return err;
    const char *roll = rs_opt(c->opts, c->nopts, "roll");
    int base = 0;
    if (roll == NULL)
        err = cards_opt_pool(c, who, NULL, &base);
    if (err != ENG_OK)
        return err;
    int64_t bonus, need;
    bool harm;
    if ((err = rs_opt_int(c, "bonus", -CARDS_MAX_POOL, CARDS_MAX_POOL, 0,
                          &bonus)) != ENG_OK ||
        (err = rs_opt_int(c, "need", 1, CARDS_MAX_NEED, 1, &need)) !=
            ENG_OK ||
        (err = rs_opt_bool(c, "harm", true, &harm)) != ENG_OK)
        return err;
    const char *m = rs_opt(c->opts, c->nopts, "maneuver");
    bool spend = m != NULL && eng_text_casecmp(m, "none") != 0;
    bool slow = false, reaction = false;
    if (spend) {
        slow = eng_text_casecmp(m, "slow") == 0;
        reaction = eng_text_casecmp(m, "reaction") == 0;
        if (!slow && !reaction && eng_text_casecmp(m, "fast") != 0)
            return enc_fail(c->d, ENG_INVALID, "maneuver: must be slow, "
                            "fast, reaction or none");
        err = cards_may(c, who, "do that", false, false);
        if (err == ENG_OK)
            err = cards_spend(c, who, slow, reaction);
        if (err != ENG_OK)
            return err;
    }
    const char *label = rs_opt(c->opts, c->nopts, "label");
    if (label == NULL || label[0] == '\0')
        label = rs_opt(c->opts, c->nopts, "skill");
    char lab[CARDS_MAX_LABEL + 1];
    enc_copy(lab, sizeof lab, label ? label : "test");
    int succ;
    if (roll != NULL) {
        /* Dice of the player's own: counted as given, Harm not taken. */
        struct rs_rolled r;
        err = rs_roll(c, NULL, lab, roll, &r);
        succ = err == ENG_OK ? (int)r.successes : 0;
    } else {
        err = cards_test(c, who, lab, base, (int)bonus, harm, spend, &succ);
    }
    if (err != ENG_OK)
        return err;
    if (succ >= need)
        cards_say(c, who->id, "%s passes (%d of %d needed%s)", who->name,
                  succ, (int)need, succ > need ? ", extra successes" : "");
    else
        cards_say(c, who->id, "%s fails (%d of %d needed)", who->name, succ,
                  (int)need);
    return ENG_OK;
}

/* ---- Harm ---------------------------------------------------------------- */

void cards_add_harm(struct rs_call *c, struct enc_combatant *who, int amount,
                    bool mental, uint32_t source)
{
    if (amount <= 0)
        return;
    const char *name = mental ? CARDS_MENTAL : CARDS_HARM;
    struct enc_track *t = enc_track(who, name);
    if (t == NULL) {
        if (enc_track_set(who, name, 0, 0, c->d) != ENG_OK) {
            c->d->code = ENG_OK;
            return;
        }
        t = enc_track(who, name);
    }
    int64_t before = t->cur;
    t->cur = before + amount > ENC_MAX_VALUE ? ENC_MAX_VALUE : before + amount;
    struct enc_event *dv = enc_emit(c->r, ENC_EV_DAMAGE, source);
    dv->other = who->id;
    dv->a = amount;
    dv->secret = who->hidden;
    dv->text = enc_result_strdup(c->r, mental ? "Mental Harm" :
             "Physical Harm", 4096);
    struct enc_event *hv = enc_emit(c->r, ENC_EV_HP, who->id);
    hv->text = enc_result_strdup(c->r, name, 4096);
    hv->a = before;
    hv->b = t->cur;
    hv->secret = who->hidden;
    cards_after_track(c, who, name, before);
}
