/*
 * rs_tactical_pend.c - attack effects and their pending resist tests.
 *
 * An effect that can be resisted leaves a pending test on the target: the
 * declared condition "<Effect> test", whose value is the difficulty. The
 * same effect again raises it (tac_stack_difficulty: the chapter's stacking
 * rule); the one who inflicted it rolls it when they choose within the
 * turn (/effect trigger), or it is rolled as the turn ends. Once rolled,
 * the target passes every test against that effect for the rest of the
 * turn (the resist mask in its typed state).
 */
#include <stdio.h>
#include <string.h>

#include "eng_text.h"
#include "rs_kit.h"
#include "rs_tactical.h"

enum eng_err tac_fx_word(struct rs_call *c, const char *word, bool need_x,
                         const char *what, const struct tac_fx **fx, int *x)
{
    const struct tac_table *t = tac_table_for(c);
    char name[TAC_MAX_NAME + 1];
    const char *paren = strchr(word, '(');
    size_t len = paren != NULL ? (size_t)(paren - word) : strlen(word);
    if (len == 0 || len > TAC_MAX_NAME)
        return enc_fail(c->d, ENG_NOTFOUND, "%s: no effect named %.40s",
                        what, word);
    memcpy(name, word, len);
    name[len] = '\0';
    *fx = tac_fx_find(t, name);
    if (*fx == NULL)
        return enc_fail(c->d, ENG_NOTFOUND, "%s: no effect named %s", what,
                        name);
    *x = 0;
    if (paren != NULL) {
        int64_t n;
        const char *end = eng_text_parse_int(paren + 1, &n);
        if (end == NULL || *end != ')' || end[1] != '\0' || n < 0 ||
            n > TAC_MAX_X)
            return enc_fail(c->d, ENG_INVALID, "%s: the value of %s must be "
                            "0 to %d, as in %s(2)", what, (*fx)->name,
                            TAC_MAX_X, (*fx)->name);
        *x = (int)n;
    } else if (need_x && ((*fx)->kind == TAC_FX_DIRECT ||
                          ((*fx)->kind == TAC_FX_RESIST &&
                           (*fx)->fixed == 0))) {
        return enc_fail(c->d, ENG_INVALID, "%s: %s needs a value, as in "
                        "%s(2)", what, (*fx)->name, (*fx)->name);
    }
    return ENG_OK;
}

/* ---- pending tests ------------------------------------------------------- */

static void tac_pending_name(const struct tac_fx *fx, char *buf, size_t n)
{
    snprintf(buf, n, "%s test", fx->name);
}

/* Whether who has rolled against the effect at idx in the current turn. */
static bool tac_resisted(const struct rs_call *c,
                         const struct enc_combatant *who, int idx)
{
    const struct tac_comb *st = TAC_ST(who);
    return st->resist_turn == (int64_t)c->e->turn_seq &&
           (st->resist_mask & ((int64_t)1 << idx)) != 0;
}

static void tac_mark_resisted(const struct rs_call *c,
                              struct enc_combatant *who, int idx)
{
    struct tac_comb *st = TAC_ST(who);
    if (st->resist_turn != (int64_t)c->e->turn_seq) {
        st->resist_turn = (int64_t)c->e->turn_seq;
        st->resist_mask = 0;
    }
    st->resist_mask |= (int64_t)1 << idx;
}

/* A test against fx with value x lands on who: start it or raise it. */
static enum eng_err tac_pending_add(struct rs_call *c,
                                    struct enc_combatant *who,
                                    uint32_t source, const struct tac_fx *fx,
                                    int x)
{
    const struct tac_table *t = tac_table_for(c);
    if (tac_resisted(c, who, tac_fx_index(t, fx))) {
        RS_SAY(c, who, "{} already rolled against {} this turn and passes "
               "automatically", RS_A_WHO(who), RS_A_USER(fx->name));
        return ENG_OK;
    }
    char name[ENC_MAX_COND_NAME + 1];
    tac_pending_name(fx, name, sizeof name);
    const struct enc_cond *k = enc_cond_find(who, name);
    int before = k != NULL ? k->value : 0;
    int now = tac_stack_difficulty(before, x, fx->max);
    if (k != NULL)
        RS_SAY(c, who, "{} hits {} again: the test rises from {} to {}",
               RS_A_USER(fx->name), RS_A_WHO(who), RS_A_NUM(before),
               RS_A_NUM(now));
    struct rs_cond_give q = {.name = name, .value = now, .value_given = true,
                             .rounds = 0, .expire = ENC_EXPIRE_END,
                             .source = source};
    return rs_cond_give(c, &rs_tactical, who, &q, true);
}

/* Why fx does not touch body b, for the sentence. */
static const char *tac_spared(const struct tac_fx *fx, enum tac_body b)
{
    if (fx->flags & TAC_FXF_MECH_ONLY)
        return b == TAC_CYBORG ? N_("cyborgs and implanted humans do not "
                                    "shut down")
                               : N_("it works only on machines");
    return N_("machines are not affected");
}

enum eng_err tac_fx_hit(struct rs_call *c, struct enc_combatant *who,
                        uint32_t source, const struct tac_fx *fx, int x,
                        bool crit, int64_t hp_lost)
{
    enum tac_body body = tac_body(who);
    if (!tac_fx_touches(fx->flags, body)) {
        RS_SAY(c, who, "{} does not affect {}: {}", RS_A_USER(fx->name),
               RS_A_WHO(who), RS_A_TEXT(tac_spared(fx, body)));
        return ENG_OK;
    }
    if ((fx->flags & TAC_FXF_CRIT_HP) && (!crit || hp_lost <= 0)) {
        RS_SAY(c, who, "{} needs a critical hit that takes hp: nothing "
               "happens", RS_A_USER(fx->name));
        return ENG_OK;
    }
    switch (fx->kind) {
    case TAC_FX_NOTE:
        return ENG_OK;
    case TAC_FX_APPLY:
        return tac_cond_give(c, who, fx->cond,
                             fx->rounds > 0 ? fx->rounds : -1, source);
    case TAC_FX_DIRECT: {
        struct enc_event *dv = tac_damage_event(c, who, source);
        char reason[TAC_MAX_NAME + 16];
        snprintf(reason, sizeof reason, "%s(%d)", fx->name, x);
        rs_mod(c, dv, reason, x, "");
        int64_t amount = x;
        if (tac_fx_doubles(fx->flags, body)) {
            rs_mod(c, dv, body == TAC_CYBORG ? "against a cyborg: double"
                                             : N_("against a machine: double"),
                   x, "");
            amount *= 2;
        }
        int64_t lost;
        enum eng_err err = tac_damage_apply(c, dv, who, source, amount, true,
                                            TAC_AV_PER, &lost);
        if (err != ENG_OK || lost <= 0)
            return err;
        if (lost > TAC_MAX_DIFFICULTY)
            lost = TAC_MAX_DIFFICULTY;
        return tac_pending_add(c, who, source, fx, (int)lost);
    }
    case TAC_FX_RESIST:
        break;
    }
    return tac_pending_add(c, who, source, fx, fx->fixed > 0 ? fx->fixed : x);
}

static int tac_test_pool(const struct enc_combatant *who,
                         const struct tac_test_def *t)
{
    return (int)(enc_stat_or(who, t->attr, 0) + enc_stat_or(who, t->skill, 0));
}

/* What failing fx by fail_by does besides its condition. */
static void tac_fail_notes(struct rs_call *c, struct enc_combatant *who,
                           const struct tac_fx *fx, int fail_by)
{
    if (fx->flags & TAC_FXF_PUSH) {
        int feet = TAC_PUSH_STEP * fail_by;
        if (feet < TAC_COLLIDE_FROM)
            RS_SAY(c, who, "{} is pushed straight back {} ft",
                   RS_A_WHO(who), RS_A_NUM(feet));
        else
            RS_SAY(c, who, "{} is pushed straight back {} ft. If they hit "
                   "an object or someone on the way, they take 1d3 direct "
                   "damage for each 5 ft travelled past the first 10 (up to "
                   "{}d3), and whoever they hit takes 1D damage for each "
                   "5 ft past the first 10 (the GM rolls both)",
                   RS_A_WHO(who), RS_A_NUM(feet),
                   RS_A_NUM((feet - TAC_COLLIDE_FREE) / TAC_PUSH_STEP));
    }
    if (fx->flags & TAC_FXF_PULL)
        RS_SAY(c, who, "{} is pulled up to 15 ft towards where the attack "
               "came from (the GM moves them)", RS_A_WHO(who));
}

enum eng_err tac_fx_resolve(struct rs_call *c, struct enc_combatant *who,
                            const struct tac_fx *fx, int pool_override,
                            int alt)
{
    const struct tac_table *t = tac_table_for(c);
    char name[ENC_MAX_COND_NAME + 1];
    tac_pending_name(fx, name, sizeof name);
    const struct enc_cond *k = enc_cond_find(who, name);
    if (k == NULL)
        return enc_fail(c->d, ENG_STATE, "%s has no pending %s test",
                        who->name, fx->name);
    int difficulty = k->value;
    uint32_t source = k->source;
    int which = 0;
    if (alt >= 0 && alt < fx->ntests)
        which = alt;
    else if (fx->ntests == 2 &&
             tac_test_pool(who, &fx->test[1]) > tac_test_pool(who,
                                                              &fx->test[0]))
        which = 1;
    struct tac_mod extra[1];
    int nextra = 0;
    const struct enc_cond *stun = tac_flagged(t, who, TAC_CDF_LOSE_AP);
    if ((fx->flags & TAC_FXF_STUN_MAJOR) && stun != NULL)
        extra[nextra++] = (struct tac_mod){N_("{}: major disadvantage"),
                                           stun->name, -TAC_MAJOR};
    /* the effect's name is the user's word (effect:) */
    struct tac_roll tr = {.who = who, .def = &fx->test[which],
                          .pool = pool_override, .difficulty = difficulty,
                          .why = N_("resists {}"), .why_name = fx->name,
                          .kind = ENC_EV_TEST};
    struct tac_rolled out;
    enum eng_err err = tac_test_roll(c, &tr, extra, nextra, &out);
    if (err != ENG_OK)
        return err;
    err = enc_cond_remove(c->e, who, name, c->r, c->d);
    if (err != ENG_OK)
        return err;
    tac_mark_resisted(c, who, tac_fx_index(t, fx));
    if (out.fail_by == 0)
        return ENG_OK;
    tac_fail_notes(c, who, fx, out.fail_by);
    if (fx->cond[0] == '\0')
        return ENG_OK;
    int rounds = fx->rounds > 0 ? fx->rounds : -1;
    if (fx->flags & TAC_FXF_OUT_ROUNDS) {
        struct rs_rolled r;
        err = rs_roll(c, who, "d3", "1d3", &r);
        if (err != ENG_OK)
            return err;
        rounds = (int)r.total + out.fail_by;
        RS_SAY(c, who, "{} is out of the fight for {} + {} = {} rounds (d3, "
               "plus one per success missed)", RS_A_WHO(who),
               RS_A_ROLL(r.roll_idx), RS_A_NUM(out.fail_by),
               RS_A_NUM(rounds));
    }
    return tac_cond_give(c, who, fx->cond, rounds, source);
}

enum eng_err tac_fx_resolve_all(struct rs_call *c)
{
    const struct tac_table *t = tac_table_for(c);
    struct encounter *e = c->e;
    for (int i = 0; i < e->ncs; i++) {
        struct enc_combatant *who = &e->cs[i];
        for (int k = 0; k < who->nconds;) {
            const struct tac_fx *fx = tac_pending_fx(t, who->conds[k].name);
            if (fx == NULL) {
                k++;
                continue;
            }
            /* Resolving removes the entry: look at the same index again. */
            enum eng_err err = tac_fx_resolve(c, who, fx, -1, -1);
            if (err != ENG_OK)
                return err;
        }
    }
    return ENG_OK;
}
