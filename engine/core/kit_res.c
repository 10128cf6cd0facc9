/*
 * kit_res.c - resources a combatant spends and gets back (enc_res.h).
 */
#include "enc_res.h"

#include <string.h>

#include "eng_text.h"
#include "rs.h"
#include "rs_kit.h"

/* The die a recharge rolls: "Recharge 5-6" is a d6 in every book. */
#define RES_RECHARGE_DIE "1d6"
#define RES_RECHARGE_MIN 2
#define RES_RECHARGE_MAX 6

const char *enc_reset_word(enum enc_reset reset)
{
    switch (reset) {
    case ENC_RESET_TURN:
        return "turn";
    case ENC_RESET_ROUND:
        return "round";
    case ENC_RESET_NEVER:
        break;
    }
    return "never";
}

struct enc_res *enc_res_find(struct enc_combatant *c, const char *name)
{
    for (int i = 0; i < c->nres; i++)
        if (eng_text_casecmp(c->res[i].name, name) == 0)
            return &c->res[i];
    return NULL;
}

/* The resource or a refusal naming what who has. */
static struct enc_res *res_get(struct rs_call *c, struct enc_combatant *who,
                               const char *name)
{
    struct enc_res *x = enc_res_find(who, name);
    if (x == NULL)
        enc_fail(c->d, ENG_NOTFOUND, "%s has no resource called %.*s",
                 who->name, ENC_MAX_RES_NAME, name);
    return x;
}

/* "spends 1 Legendary actions: 2 of 3 left" (fmt, one of the two below),
 * the numbers the GM's alone when who is hidden (the whole sentence is
 * then). */
#define RES_SPENDS N_("{} spends {} {}: {} of {} left")
#define RES_GETS_BACK N_("{} gets back {} {}: {} of {} left")
static void res_say(struct rs_call *c, const struct enc_combatant *who,
                    const char *fmt, int32_t n, const struct enc_res *x)
{
    RS_SAY(c, who, fmt, RS_A_WHO(who), RS_A_NUM(n), RS_A_USER(x->name),
           RS_A_NUM(x->cur), RS_A_NUM(x->max));
}

enum eng_err enc_res_add(struct rs_call *c, struct enc_combatant *who,
                         const char *name, int32_t max, enum enc_reset reset,
                         int32_t recharge)
{
    if (enc_check_name(name, N_("resource name"), ENC_MAX_RES_NAME, c->d) !=
        ENG_OK)
        return c->d->code;
    /* What the system keeps itself is spent through its own rules. */
    for (const struct rs_stat_spec *p = c->e->sys->stats; p && p->name; p++)
        if (eng_text_casecmp(p->name, name) == 0)
            return enc_fail(c->d, ENG_INVALID, "the %s rules keep %s "
                            "already (%s): change it with /combat hp or "
                            "/combat set", c->e->sys->id, p->name,
                            enc_diag_word(c->d, p->help != NULL
                                                    ? p->help
                                                    : N_("a stat")));
    for (const struct rs_kept *p = c->e->sys->kept; p && p->name; p++)
        if (eng_text_casecmp(p->name, name) == 0)
            return enc_fail(c->d, ENG_INVALID, "the %s rules keep %s "
                            "already: %s", c->e->sys->id, p->name,
                            enc_diag_word(c->d, p->why));
    if (enc_res_find(who, name) != NULL)
        return enc_fail(c->d, ENG_EXISTS, "%s has %s already: remove it "
                        "first", who->name, name);
    if (max < 1 || max > ENC_MAX_RES_VALUE)
        return enc_fail(c->d, ENG_LIMIT, "max: should be 1 to %d",
                        ENC_MAX_RES_VALUE);
    if (recharge != 0 &&
        (recharge < RES_RECHARGE_MIN || recharge > RES_RECHARGE_MAX))
        return enc_fail(c->d, ENG_INVALID, "recharge: should be like 5-6 "
                        "(the lowest face from %d to %d)", RES_RECHARGE_MIN,
                        RES_RECHARGE_MAX);
    if (recharge != 0 && reset == ENC_RESET_NEVER)
        return enc_fail(c->d, ENG_INVALID, "recharge: needs a reset point "
                        "to roll at (reset:turn or reset:round)");
    if (who->nres >= ENC_MAX_RES)
        return enc_fail(c->d, ENG_LIMIT, "%s has too many resources (limit "
                        "is %d)", who->name, ENC_MAX_RES);
    struct enc_res *x = &who->res[who->nres++];
    memset(x, 0, sizeof *x);
    enc_copy(x->name, sizeof x->name, name);
    x->cur = max;
    x->max = max;
    x->reset = (int32_t)reset;
    x->recharge = recharge;
    if (recharge != 0)
        RS_SAY(c, who,
               reset == ENC_RESET_TURN
                   ? N_("{} has {} ({}, recharge {}-6 at the start of each "
                        "turn)")
                   : N_("{} has {} ({}, recharge {}-6 at the start of each "
                        "round)"),
               RS_A_WHO(who), RS_A_USER(x->name), RS_A_NUM(max),
               RS_A_NUM(recharge));
    else if (reset == ENC_RESET_NEVER)
        RS_SAY(c, who, "{} has {} ({}, restored by hand)", RS_A_WHO(who),
               RS_A_USER(x->name), RS_A_NUM(max));
    else
        RS_SAY(c, who,
               reset == ENC_RESET_TURN
                   ? N_("{} has {} ({}, back at the start of each turn)")
                   : N_("{} has {} ({}, back at the start of each round)"),
               RS_A_WHO(who), RS_A_USER(x->name), RS_A_NUM(max));
    return ENG_OK;
}

enum eng_err enc_res_spend(struct rs_call *c, struct enc_combatant *who,
                           const char *name, int32_t n)
{
    struct enc_res *x = res_get(c, who, name);
    if (x == NULL)
        return c->d->code;
    if (n < 1 || n > ENC_MAX_RES_VALUE)
        return enc_fail(c->d, ENG_INVALID, "amount: should be 1 to %d",
                        ENC_MAX_RES_VALUE);
    if (x->cur < n)
        return enc_fail(c->d, ENG_STATE, "%s has %d of %d %s left",
                        who->name, (int)x->cur, (int)x->max, x->name);
    x->cur -= n;
    res_say(c, who, RES_SPENDS, n, x);
    return ENG_OK;
}

enum eng_err enc_res_restore(struct rs_call *c, struct enc_combatant *who,
                             const char *name, int32_t n)
{
    struct enc_res *x = res_get(c, who, name);
    if (x == NULL)
        return c->d->code;
    if (n < 0 || n > ENC_MAX_RES_VALUE)
        return enc_fail(c->d, ENG_INVALID, "amount: should be 1 to %d",
                        ENC_MAX_RES_VALUE);
    if (x->cur >= x->max)
        return enc_fail(c->d, ENG_STATE, "%s has all %d %s already",
                        who->name, (int)x->max, x->name);
    int32_t gain = n == 0 || x->cur + n > x->max ? x->max - x->cur : n;
    x->cur += gain;
    res_say(c, who, RES_GETS_BACK, gain, x);
    return ENG_OK;
}

enum eng_err enc_res_remove(struct rs_call *c, struct enc_combatant *who,
                            const char *name)
{
    struct enc_res *x = res_get(c, who, name);
    if (x == NULL)
        return c->d->code;
    RS_SAY(c, who, "{} no longer tracks {}", RS_A_WHO(who),
           RS_A_USER(x->name));
    int k = (int)(x - who->res);
    memmove(x, x + 1, (size_t)(who->nres - k - 1) * sizeof *x);
    who->nres--;
    return ENG_OK;
}

/* x's reset point came: refill it, or roll its recharge die. A failed roll
 * (never, for a fixed d6) leaves it as it was. */
static void res_reset(struct rs_call *c, struct enc_combatant *who,
                      struct enc_res *x)
{
    if (x->cur >= x->max)
        return;
    if (x->recharge == 0) {
        int32_t gain = x->max - x->cur;
        x->cur = x->max;
        res_say(c, who, RES_GETS_BACK, gain, x);
        return;
    }
    struct rs_rolled out;
    if (rs_roll(c, who, "recharge", RES_RECHARGE_DIE, &out) != ENG_OK)
        return;
    if (out.total >= x->recharge) {
        x->cur = x->max;
        RS_SAY(c, who, "{} regains {}: recharge {}", RS_A_WHO(who),
               RS_A_USER(x->name), RS_A_ROLL(out.roll_idx));
    } else {
        RS_SAY(c, who, "{} does not regain {}: recharge {}", RS_A_WHO(who),
               RS_A_USER(x->name), RS_A_ROLL(out.roll_idx));
    }
}

static void res_reset_all(struct rs_call *c, struct enc_combatant *who,
                          enum enc_reset at)
{
    for (int i = 0; i < who->nres; i++)
        if (who->res[i].reset == (int32_t)at)
            res_reset(c, who, &who->res[i]);
}

void enc_res_turn(struct rs_call *c, struct enc_combatant *who)
{
    if (who->nres > 0)
        res_reset_all(c, who, ENC_RESET_TURN);
}

void enc_res_round(struct rs_call *c)
{
    struct encounter *e = c->e;
    for (int i = 0; i < e->ncs; i++)
        if (e->cs[i].nres > 0)
            res_reset_all(c, &e->cs[i], ENC_RESET_ROUND);
}
