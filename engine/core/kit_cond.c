/*
 * kit_cond.c - conditions through the system's table (rs_kit.h).
 *
 * The one path for conditions: the GM's /combat condition and a rule's
 * effect both call rs_cond_give(), so the start value, stacking, cap and
 * duration a system declares hold however a condition arrives, and the
 * system's cond_changed hook sees every change.
 */
#include "rs_kit.h"

#include <limits.h>
#include <stdio.h>

#include "eng_text.h"

const struct rs_cond_spec *rs_cond_specs(const struct rs_system *s,
                                         const void *data, int *n)
{
    if (s->ops->data_conds != NULL && data != NULL) {
        const struct rs_cond_spec *list = s->ops->data_conds(data, n);
        if (list != NULL)
            return list;
    }
    *n = s->nconds;
    return s->conds;
}

const struct rs_cond_spec *rs_cond_spec(const struct rs_call *c,
                                        const struct rs_system *s,
                                        const char *name)
{
    int n = 0;
    const struct rs_cond_spec *list = rs_cond_specs(s, c->data, &n);
    for (int i = 0; i < n; i++)
        if (eng_text_casecmp(list[i].name, name) == 0)
            return &list[i];
    return NULL;
}

/* The spelling of a condition called name that someone in the fight the
 * caller can see already has (a custom one given before), or NULL. */
static const char *in_fight(const struct rs_call *c, const char *name)
{
    const struct encounter *e = c->e;
    for (int i = 0; i < e->ncs; i++) {
        const struct enc_combatant *x = &e->cs[i];
        if (x->hidden && !c->is_gm)
            continue;
        for (int k = 0; k < x->nconds; k++)
            if (eng_text_casecmp(x->conds[k].name, name) == 0)
                return x->conds[k].name;
    }
    return NULL;
}

enum { COND_NEAR_MAX = 256 };

/* Refuse a name that looks like a misspelt condition: one the system
 * declares, or one already in the fight (seen by the caller). */
static enum eng_err near_miss(struct rs_call *c, const struct rs_system *s,
                              const char *name)
{
    int n = 0;
    const struct rs_cond_spec *list = rs_cond_specs(s, c->data, &n);
    const char *names[COND_NEAR_MAX];
    int k = 0;
    for (int i = 0; i < n && k < COND_NEAR_MAX; i++)
        if (!(list[i].flags & RS_COND_SYSTEM))
            names[k++] = list[i].name;
    const struct encounter *e = c->e;
    for (int i = 0; i < e->ncs; i++) {
        const struct enc_combatant *x = &e->cs[i];
        if (x->hidden && !c->is_gm)
            continue;
        for (int q = 0; q < x->nconds && k < COND_NEAR_MAX; q++)
            names[k++] = x->conds[q].name;
    }
    const char *close = rs_closest(name, names, k);
    if (close == NULL)
        return ENG_OK;
    enc_fail(c->d, ENG_INVALID, "%s has no condition %.32s (did you mean "
             "%s?)", s->title, name, close);
    enc_hint(c->d, "custom:true keeps \"%.32s\" as a condition of your own",
             name);
    return ENG_INVALID;
}

enum eng_err rs_cond_give(struct rs_call *c, const struct rs_system *s,
                          struct enc_combatant *who,
                          const struct rs_cond_give *q, bool custom)
{
    const struct rs_cond_spec *sp = rs_cond_spec(c, s, q->name);
    /* A name already in the fight is known: it keeps its first spelling. */
    const char *known = sp == NULL ? in_fight(c, q->name) : NULL;
    if (sp == NULL && known == NULL && !custom) {
        enum eng_err err = near_miss(c, s, q->name);
        if (err != ENG_OK)
            return err;
    }
    const char *name = sp != NULL ? sp->name
                       : known != NULL ? known : q->name;
    struct enc_cond *had = enc_cond_find(who, name);
    int32_t before = had != NULL ? had->value : INT32_MIN;
    int64_t value;
    bool stacks = sp == NULL || (sp->flags & RS_COND_STACKS);
    if (had == NULL) {
        if (q->value_given)
            value = q->value;
        else if (sp != NULL && sp->start != 0)
            value = sp->start;
        else if (sp != NULL && (sp->flags & (RS_COND_STACKS |
                                             RS_COND_VALUE)))
            value = 1;
        else
            value = q->value;
    } else if (stacks && (sp != NULL || had->value != 0 || q->value != 0)) {
        /* Another dose: one stack, or the number given. A custom
         * condition keeps today's rule: values add, a flag stays a flag. */
        int64_t add = q->value_given ? q->value
                      : sp != NULL ? 1 : q->value;
        value = (int64_t)had->value + add;
    } else if (sp != NULL && (sp->flags & RS_COND_VALUE) && q->value_given) {
        value = q->value;
    } else {
        value = had->value;
    }
    int32_t cap = q->cap > 0 ? q->cap : sp != NULL ? sp->cap : 0;
    if (cap > 0 && value > cap)
        value = cap;
    if (value > ENC_MAX_VALUE)
        value = ENC_MAX_VALUE;
    if (value < -ENC_MAX_VALUE)
        value = -ENC_MAX_VALUE;
    struct enc_cond_req req = {
        .name = name,
        .value = (int32_t)value,
        .cap = cap,
        .rounds = q->rounds >= 0 ? q->rounds : sp != NULL ? sp->rounds : 0,
        .anchor = q->anchor,
        .expire = q->expire_given || sp == NULL ? q->expire : sp->expire,
        .source = q->source,
    };
    enum eng_err err = enc_cond_set(c->e, who, &req, c->r, c->d);
    if (err != ENG_OK || s->ops->cond_changed == NULL)
        return err;
    struct enc_cond *now = enc_cond_find(who, name);
    return now != NULL ? s->ops->cond_changed(c, who, now, before) : ENG_OK;
}
