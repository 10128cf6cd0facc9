/*
 * kit_cd.c - countdowns the fight runs down (enc_cd.h).
 */
#include "enc_cd.h"

#include <string.h>

#include "eng_text.h"
#include "rs.h"
#include "rs_kit.h"

/* Arguments of the longest sentence below. */
#define CD_MAX_ARGS 3

struct enc_cd *enc_cd_find(struct encounter *e, const char *name)
{
    for (int i = 0; i < e->ncds; i++)
        if (eng_text_casecmp(e->cds[i].name, name) == 0)
            return &e->cds[i];
    return NULL;
}

bool enc_cd_secret(const struct encounter *e, const struct enc_cd *x)
{
    if (x->flags & ENC_CDF_HIDDEN)
        return true;
    const struct enc_combatant *of = x->of ? enc_by_id_c(e, x->of) : NULL;
    return of != NULL && of->hidden;
}

/* What a countdown's sentence says of it. */
enum cd_say_kind { CD_SET, CD_ADVANCED, CD_PAUSED, CD_AGAIN, CD_NKINDS };

/* Every sentence of a countdown, whole (a translation takes each as one
 * message): by kind, then counting rounds or someone's turns, then one or
 * more. */
static const char *const cd_fmt[CD_NKINDS][2][2] = {
    [CD_SET] = {
        {N_("\xE2\x8F\xB3 {} in {} round"),
         N_("\xE2\x8F\xB3 {} in {} rounds")},
        {N_("\xE2\x8F\xB3 {} in {} turn of {}"),
         N_("\xE2\x8F\xB3 {} in {} turns of {}")},
    },
    [CD_ADVANCED] = {
        {N_("\xE2\x8F\xB3 {} in {} round (advanced by the GM)"),
         N_("\xE2\x8F\xB3 {} in {} rounds (advanced by the GM)")},
        {N_("\xE2\x8F\xB3 {} in {} turn of {} (advanced by the GM)"),
         N_("\xE2\x8F\xB3 {} in {} turns of {} (advanced by the GM)")},
    },
    [CD_PAUSED] = {
        {N_("\xE2\x8F\xB3 {} is paused, in {} round"),
         N_("\xE2\x8F\xB3 {} is paused, in {} rounds")},
        {N_("\xE2\x8F\xB3 {} is paused, in {} turn of {}"),
         N_("\xE2\x8F\xB3 {} is paused, in {} turns of {}")},
    },
    [CD_AGAIN] = {
        {N_("\xE2\x8F\xB3 {} counts down again, in {} round"),
         N_("\xE2\x8F\xB3 {} counts down again, in {} rounds")},
        {N_("\xE2\x8F\xB3 {} counts down again, in {} turn of {}"),
         N_("\xE2\x8F\xB3 {} counts down again, in {} turns of {}")},
    },
};

/* "<name> in <n> rounds|turns of <who>": every sentence of a countdown,
 * the GM's alone when it is secret. */
static void cd_say(struct rs_call *c, const struct enc_cd *x,
                   enum cd_say_kind kind, int32_t n)
{
    struct rs_say_arg a[CD_MAX_ARGS];
    int k = 0;
    a[k++] = RS_A_USER(x->name);
    a[k++] = RS_A_NUM(n);
    const struct enc_combatant *of = x->of ? enc_by_id_c(c->e, x->of) : NULL;
    if (of != NULL)
        a[k++] = RS_A_WHO(of);
    struct enc_event *ev =
        rs_say_args(c, NULL, cd_fmt[kind][of != NULL][n != 1], a, k);
    ev->secret = enc_cd_secret(c->e, x);
}

/* The countdown or a refusal naming the fight's. */
static struct enc_cd *cd_get(struct rs_call *c, const char *name)
{
    struct enc_cd *x = enc_cd_find(c->e, name);
    if (x == NULL)
        enc_fail(c->d, ENG_NOTFOUND, "no countdown called %.*s (see "
                 "/combat status)", ENC_MAX_CD_NAME, name);
    return x;
}

static void cd_drop(struct encounter *e, struct enc_cd *x)
{
    int k = (int)(x - e->cds);
    memmove(x, x + 1, (size_t)(e->ncds - k - 1) * sizeof *x);
    e->ncds--;
}

/* x counts down by n; at zero it is announced and gone (true). */
static bool cd_tick(struct rs_call *c, struct enc_cd *x, int32_t n)
{
    x->left = x->left > n ? x->left - n : 0;
    if (x->left > 0)
        return false;
    struct enc_event *ev = RS_SAY(c, NULL, "\xE2\x8F\xB3 {}!",
                                  RS_A_USER(x->name));
    ev->secret = enc_cd_secret(c->e, x);
    cd_drop(c->e, x);
    return true;
}

enum eng_err enc_cd_add(struct rs_call *c, const char *name, int32_t count,
                        uint32_t of, bool hidden)
{
    struct encounter *e = c->e;
    if (enc_check_name(name, N_("countdown name"), ENC_MAX_CD_NAME, c->d) !=
        ENG_OK)
        return c->d->code;
    if (enc_cd_find(e, name) != NULL)
        return enc_fail(c->d, ENG_EXISTS, "there is a countdown called %s "
                        "already: remove it first", name);
    if (count < 1 || count > ENC_MAX_CD_COUNT)
        return enc_fail(c->d, ENG_LIMIT,
                        of ? N_("turns: should be 1 to %d")
                           : N_("rounds: should be 1 to %d"),
                        ENC_MAX_CD_COUNT);
    if (of != 0 && enc_by_id(e, of) == NULL)
        return enc_fail(c->d, ENG_NOTFOUND, "no such combatant");
    if (e->ncds >= ENC_MAX_COUNTDOWNS)
        return enc_fail(c->d, ENG_LIMIT, "this fight has too many "
                        "countdowns (limit is %d): remove one first",
                        ENC_MAX_COUNTDOWNS);
    struct enc_cd *x = &e->cds[e->ncds++];
    memset(x, 0, sizeof *x);
    enc_copy(x->name, sizeof x->name, name);
    x->left = count;
    x->total = count;
    x->of = of;
    x->flags = hidden ? ENC_CDF_HIDDEN : 0;
    x->set_turn = e->turn_seq;
    cd_say(c, x, CD_SET, count);
    return ENG_OK;
}

enum eng_err enc_cd_advance(struct rs_call *c, const char *name, int32_t n)
{
    struct enc_cd *x = cd_get(c, name);
    if (x == NULL)
        return c->d->code;
    if (n < 1 || n > ENC_MAX_CD_COUNT)
        return enc_fail(c->d, ENG_INVALID, "advance: should be 1 to %d",
                        ENC_MAX_CD_COUNT);
    if (n < x->left)
        cd_say(c, x, CD_ADVANCED, x->left - n);
    cd_tick(c, x, n);
    return ENG_OK;
}

enum eng_err enc_cd_pause(struct rs_call *c, const char *name, bool paused)
{
    struct enc_cd *x = cd_get(c, name);
    if (x == NULL)
        return c->d->code;
    if (((x->flags & ENC_CDF_PAUSED) != 0) == paused)
        return enc_fail(c->d, ENG_STATE,
                        paused ? N_("%s is paused already")
                               : N_("%s is counting down already"),
                        x->name);
    if (paused) {
        x->flags |= ENC_CDF_PAUSED;
        cd_say(c, x, CD_PAUSED, x->left);
    } else {
        x->flags &= ~ENC_CDF_PAUSED;
        cd_say(c, x, CD_AGAIN, x->left);
    }
    return ENG_OK;
}

enum eng_err enc_cd_remove(struct rs_call *c, const char *name)
{
    struct enc_cd *x = cd_get(c, name);
    if (x == NULL)
        return c->d->code;
    struct enc_event *ev = RS_SAY(c, NULL, "Countdown removed: {}",
                                  RS_A_USER(x->name));
    ev->secret = enc_cd_secret(c->e, x);
    cd_drop(c->e, x);
    return ENG_OK;
}

void enc_cd_round(struct rs_call *c)
{
    struct encounter *e = c->e;
    /* The round it was set in does not count: before round 1 is setup. */
    if (e->ncds == 0 || e->round <= 1)
        return;
    for (int i = 0; i < e->ncds;) {
        struct enc_cd *x = &e->cds[i];
        if (x->of != 0 || (x->flags & ENC_CDF_PAUSED) || !cd_tick(c, x, 1))
            i++;
    }
}

void enc_cd_turn(struct rs_call *c, uint32_t who)
{
    struct encounter *e = c->e;
    for (int i = 0; i < e->ncds;) {
        struct enc_cd *x = &e->cds[i];
        if (x->of != who || (x->flags & ENC_CDF_PAUSED) ||
            x->set_turn >= e->turn_seq || !cd_tick(c, x, 1))
            i++;
    }
}

void enc_cd_leave(struct rs_call *c, uint32_t id)
{
    struct encounter *e = c->e;
    for (int i = 0; i < e->ncds; i++) {
        struct enc_cd *x = &e->cds[i];
        if (x->of != id)
            continue;
        /* Said while its combatant is still here: secret when they
         * were hidden. */
        const struct enc_combatant *who = enc_by_id_c(e, id);
        if (who == NULL)
            continue;
        struct enc_event *ev = RS_SAY(
            c, NULL, x->left == 1 ? N_("\xE2\x8F\xB3 {} now counts rounds "
                                       "({} left the fight): in {} round")
                                  : N_("\xE2\x8F\xB3 {} now counts rounds "
                                       "({} left the fight): in {} rounds"),
            RS_A_USER(x->name), RS_A_WHO(who), RS_A_NUM(x->left));
        ev->secret = enc_cd_secret(e, x);
        /* A hidden combatant's stays the GM's without them. */
        if (who->hidden)
            x->flags |= ENC_CDF_HIDDEN;
        x->of = 0;
    }
}
