/*
 * kit_roll.c - rolling dice for a ruleset and recording every die, and
 * tests and attacks as events (rs_kit.h).
 */
#include "rs_kit.h"

#include <string.h>

#include "eng_alloc.h"

enum eng_err rs_roll(struct rs_call *c, const struct enc_combatant *who,
                     const char *label, const char *expr,
                     struct rs_rolled *out)
{
    if (expr == NULL || expr[0] == '\0')
        return enc_fail(c->d, ENG_INVALID, "the %s roll has no dice", label);
    /* The dice result holds up to DICE_MAX_DICE dice: too big for deep
     * stacks, so it lives on the heap for the call. */
    struct dice_result *res = eng_malloc(sizeof *res);
    if (res == NULL)
        return enc_fail(c->d, ENG_NOMEM, "out of memory");
    struct dice_diag dd;
    enc_diag_dice(c->d, &dd);
    size_t len = strlen(expr);
    enum eng_err err = dice_eval_string(expr, len, c->rng, res, &dd);
    if (err != ENG_OK) {
        eng_free(res);
        return enc_fail(c->d, err, "bad %s dice `%.64s`: %s", label, expr,
                        dd.msg);
    }
    out->total = res->total;
    out->natural = 0;
    out->successes = 0;
    out->dice_sum = 0;
    for (int g = 0; g < res->n_groups; g++) {
        const struct dice_group *grp = &res->groups[g];
        if (grp->counting)
            out->successes += grp->subtotal;
        else
            out->dice_sum += grp->subtotal;
        if (out->natural == 0 && grp->sides == 20 && !grp->fudge)
            for (int k = 0; k < grp->count; k++)
                if (!(res->dice[grp->first + k].flags & DICE_DIE_UNCOUNTED)) {
                    /* the face shown, not what minN/maxN made of it */
                    out->natural = res->dice[grp->first + k].rolled;
                    break;
                }
    }
    out->roll_idx = enc_add_roll(c->r, label, expr + res->expr_pos,
                                 res->expr_len, res,
                                 who != NULL && who->hidden);
    eng_free(res);
    return ENG_OK;
}

enum eng_err rs_roll_initiative(struct rs_call *c, struct enc_combatant *who,
                                const char *expr)
{
    struct rs_rolled r;
    enum eng_err err = rs_roll(c, who, "initiative", expr, &r);
    if (err != ENG_OK)
        return err;
    who->init[0] = r.total;
    who->ninit = 1;
    struct enc_event *ev = enc_emit(c->r, ENC_EV_INIT, who->id);
    ev->a = r.total;
    ev->secret = who->hidden;
    enc_event_roll(c->r, ev, r.roll_idx);
    return ENG_OK;
}

void rs_roll_drop(struct rs_call *c, int idx)
{
    if (idx >= 0 && idx < c->r->nrolls)
        c->r->rolls[idx].flags |= ENC_ROLL_DROPPED;
}

struct enc_event *rs_test_event(struct rs_call *c, enum enc_ev kind,
                                const struct enc_combatant *who,
                                const struct enc_combatant *other,
                                const char *label, int64_t value,
                                int64_t target, const char *outcome)
{
    struct enc_event *ev = enc_emit(c->r, kind, who ? who->id : 0);
    ev->other = other ? other->id : 0;
    if (label != NULL)
        ev->text = enc_result_strdup(c->r, label, 200);
    bool vs = who != NULL && who->hidden;
    const struct enc_combatant *tgt = other ? other : who;
    bool ts = tgt != NULL && tgt->hidden;
    enc_event_cmp(c->r, ev, value, vs, target, ts, outcome);
    return ev;
}

void rs_ev_roll(struct rs_call *c, struct enc_event *ev, int idx)
{
    enc_event_roll(c->r, ev, idx);
}

struct enc_mod *rs_mod(struct rs_call *c, struct enc_event *ev,
                       const char *reason, int64_t amount, const char *unit)
{
    return enc_event_mod(c->r, ev, reason, amount, true, unit, false);
}

struct enc_mod *rs_mod_note(struct rs_call *c, struct enc_event *ev,
                            const char *reason)
{
    return enc_event_mod(c->r, ev, reason, 0, false, "", false);
}

const struct rs_unit rs_dice = RS_UNIT("{} die", "{} dice");
const struct rs_unit rs_successes = RS_UNIT("{} success", "{} successes");

struct enc_mod *rs_mod_unit(struct enc_mod *m, struct rs_unit u)
{
    if (m != NULL) {
        m->unit_one = u.one;
        m->unit_other = u.other;
    }
    return m;
}

/* t as a template in c's result, its English in *english. */
static const struct enc_tmpl *kit_tmpl(struct rs_call *c, struct rs_text t,
                                       const char **english)
{
    struct enc_part parts[ENC_MAX_PARTS];
    int n = t.nargs < ENC_MAX_PARTS ? t.nargs : ENC_MAX_PARTS;
    for (int i = 0; i < n; i++) {
        const struct rs_say_arg *a = &t.args[i];
        parts[i] = (struct enc_part){.kind = a->kind, .secret = a->secret,
                                     .id = a->id, .n = a->n, .s = a->s,
                                     .ctx = a->ctx, .sub = a->sub};
    }
    return enc_tmpl_make_n(c->r, t.fmt, t.other, t.count, parts, n,
                           english);
}

struct rs_say_arg rs_a_text(struct rs_call *c, struct rs_text t)
{
    struct rs_say_arg a = {.kind = ENC_PART_TEXT};
    a.sub = kit_tmpl(c, t, &a.s);
    return a;
}

void rs_ev_label(struct rs_call *c, struct enc_event *ev, struct rs_text t)
{
    ev->text_t = kit_tmpl(c, t, &ev->text);
}

void rs_ev_outcome(struct rs_call *c, struct enc_event *ev, struct rs_text t)
{
    ev->outcome_t = kit_tmpl(c, t, &ev->outcome);
}

struct enc_mod *rs_mod_t(struct rs_call *c, struct enc_event *ev,
                         struct rs_text reason, bool has_amount,
                         int64_t amount, const char *unit, bool secret)
{
    const char *english;
    const struct enc_tmpl *t = kit_tmpl(c, reason, &english);
    struct enc_mod *m = enc_event_mod(c->r, ev, english, amount, has_amount,
                                      unit, secret);
    if (m != NULL)
        m->reason_t = t;
    return m;
}
