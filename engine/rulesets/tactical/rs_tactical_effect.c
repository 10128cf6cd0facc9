/*
 * rs_tactical_effect.c - /effect trigger|apply|clear: rolling a pending
 * resist test when its inflicter chooses, and the GM's hand on effects and
 * conditions. Options arrive bound to their declarations.
 */
#include <stdio.h>
#include <string.h>

#include "rs_kit.h"
#include "rs_tactical.h"

/* The only pending test on who, for trigger without effect:. */
static const struct tac_fx *tac_only_pending(const struct tac_table *t,
                                             struct enc_combatant *who,
                                             int *count)
{
    const struct tac_fx *found = NULL;
    *count = 0;
    for (int i = 0; i < who->nconds; i++) {
        const struct tac_fx *fx = tac_pending_fx(t, who->conds[i].name);
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
    struct enc_combatant *who = rs_arg_who(c, "name");
    const struct tac_fx *fx;
    const char *effect = rs_arg_text(c, "effect", NULL);
    enum eng_err err;
    if (effect != NULL) {
        int x;
        if (strchr(effect, '(') != NULL)
            return enc_fail(c->d, ENG_INVALID, "effect: name the effect "
                            "alone; the pending test has its difficulty");
        if ((err = tac_fx_word(c, effect, false, "effect", &fx, &x)) !=
            ENG_OK)
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
    int64_t alt = rs_arg_int(c, "test", 0);
    if (alt > fx->ntests)
        return enc_fail(c->d, ENG_INVALID, "test: %s has one test", fx->name);
    return tac_fx_resolve(c, who, fx, (int)rs_arg_int(c, "pool", -1),
                          (int)alt - 1);
}

/* /effect apply name: effect: attacker: crit: (GM) */
enum eng_err tac_apply(struct rs_call *c)
{
    if (!c->is_gm)
        return enc_fail(c->d, ENG_PERM, "only the GM may apply an effect "
                        "directly");
    struct enc_combatant *who = rs_arg_who(c, "name");
    struct enc_combatant *src = rs_arg_who(c, "attacker");
    const struct tac_fx *fx;
    int x;
    enum eng_err err = tac_fx_word(c, rs_arg_text(c, "effect", ""), true,
                                   "effect", &fx, &x);
    if (err != ENG_OK)
        return err;
    bool crit = rs_arg_bool(c, "crit", false);
    /* As from a critical hit that took hp: Deadly's condition. */
    return tac_fx_hit(c, who, src != NULL ? src->id : 0, fx, x, crit,
                      crit ? 1 : 0);
}

/* /effect clear name: condition: by: (GM) */
enum eng_err tac_clear(struct rs_call *c)
{
    if (!c->is_gm)
        return enc_fail(c->d, ENG_PERM, "only the GM may clear a condition");
    struct enc_combatant *who = rs_arg_who(c, "name");
    const char *cond = rs_arg_text(c, "condition", "");
    int64_t by = rs_arg_int(c, "by", 0);
    struct enc_cond *k = enc_cond_find(who, cond);
    if (k == NULL)
        return enc_fail(c->d, ENG_NOTFOUND, "%s has no condition %.32s",
                        who->name, cond);
    if (by == 0 || k->value <= by)
        return tac_cond_remove(c, who, k->name);
    int64_t before = k->value;
    k->value -= (int32_t)by;
    RS_SAY(c, who, "{}: {} {} \xE2\x86\x92 {}", RS_A_WHO(who),
           RS_A_USER(k->name), RS_A_NUM(before), RS_A_NUM(k->value));
    tac_out_update(c, who);
    return ENG_OK;
}
