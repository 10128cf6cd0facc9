/*
 * turn.c - turn boundaries, condition expiry and fixed turn orders.
 */
#include "turn.h"

#include "enc_cd.h"
#include "enc_res.h"
#include "rs_kit.h"

#include <string.h>

void turn_order_build(struct encounter *e, turn_cmp_fn *cmp)
{
    int n = 0;
    for (int i = 0; i < e->ncs; i++)
        for (int k = 0; k < e->cs[i].ninit && n < ENC_MAX_ORDER; k++)
            e->order[n++] = (struct enc_slot){e->cs[i].id, k};
    /* Insertion sort: stable, and n is at most a few hundred. */
    for (int i = 1; i < n; i++) {
        struct enc_slot x = e->order[i];
        int j = i - 1;
        while (j >= 0 && cmp(e, &x, &e->order[j]) < 0) {
            e->order[j + 1] = e->order[j];
            j--;
        }
        e->order[j + 1] = x;
    }
    e->norder = n;
}

int64_t turn_slot_value(const struct encounter *e, int idx)
{
    const struct enc_slot *s = &e->order[idx];
    const struct enc_combatant *who = enc_by_id_c(e, s->id);
    if (who == NULL || s->init_idx < 0 || s->init_idx >= who->ninit)
        return 0;
    return who->init[s->init_idx];
}

bool turn_can_act(const struct enc_combatant *who)
{
    return (who->flags & (ENC_CF_DOWN | ENC_CF_DEAD)) == 0;
}

/* Count down every condition timed on anchor's turn at this boundary. */
static void turn_expire(struct rs_call *c, uint32_t anchor,
                        enum enc_expire at)
{
    struct encounter *e = c->e;
    for (int i = 0; i < e->ncs; i++) {
        struct enc_combatant *holder = &e->cs[i];
        for (int k = 0; k < holder->nconds;) {
            struct enc_cond *q = &holder->conds[k];
            if (q->rounds == 0 || q->anchor != anchor || q->expire != at ||
                q->applied_turn >= e->turn_seq) {
                k++;
                continue;
            }
            if (--q->rounds > 0) {
                k++;
                continue;
            }
            struct enc_event *ev = enc_emit(c->r, ENC_EV_COND_EXPIRE,
                                            holder->id);
            ev->text = enc_result_strdup(c->r, q->name, ENC_MAX_COND_NAME);
            ev->secret = holder->hidden;
            memmove(q, q + 1,
                    (size_t)(holder->nconds - k - 1) * sizeof *q);
            holder->nconds--;
        }
    }
}

void turn_start(struct rs_call *c, struct enc_combatant *who)
{
    struct encounter *e = c->e;
    e->turn_seq++;
    e->current = who->id;
    enc_emit(c->r, ENC_EV_TURN, who->id)->secret = false;
    turn_expire(c, who->id, ENC_EXPIRE_START);
    enc_res_turn(c, who);
}

void turn_round(struct rs_call *c)
{
    struct encounter *e = c->e;
    e->round++;
    enc_emit(c->r, ENC_EV_ROUND, 0)->a = e->round;
    enc_res_round(c);
    enc_cd_round(c);
}

void turn_end(struct rs_call *c)
{
    struct encounter *e = c->e;
    struct enc_combatant *who = enc_current(e);
    if (who == NULL)
        return;
    turn_expire(c, who->id, ENC_EXPIRE_END);
    if (e->ncds > 0)
        enc_cd_turn(c, who->id);
    enc_emit(c->r, ENC_EV_TURN_END, who->id);
    e->current = 0;
}

/* A turn nobody takes: time passes for who's conditions; say so when
 * nothing else has. */
static void turn_pass_time(struct rs_call *c, struct enc_combatant *who,
                           bool say)
{
    c->e->turn_seq++;
    if (say)
        enc_emit(c->r, ENC_EV_SKIP, who->id);
    turn_expire(c, who->id, ENC_EXPIRE_START);
    turn_expire(c, who->id, ENC_EXPIRE_END);
    if (c->e->ncds > 0)
        enc_cd_turn(c, who->id);
}

void turn_skip(struct rs_call *c, struct enc_combatant *who)
{
    turn_pass_time(c, who, true);
}

/* From slot index idx on (wrapping into new rounds), start the first turn
 * of someone who can act; a combatant that is down (not dead) gets its
 * turn when down says so. */
static void turn_fixed_from(struct rs_call *c, int idx,
                            void (*round_start)(struct rs_call *c),
                            turn_down_fn *down)
{
    struct encounter *e = c->e;
    /* Two full passes: one may start a new round, a second one proves
     * nobody can act. */
    for (int steps = 0; steps <= 2 * e->norder; steps++) {
        /* An event of the order stops the walk where it sits; turn_idx
         * is left so that the next call comes back to the same place. */
        if (idx >= e->norder) {
            if (enc_entry_edge(c, ENC_ENTRY_END)) {
                e->turn_idx = e->norder - 1;
                return;
            }
            idx = 0;
            turn_round(c);
            if (round_start != NULL)
                round_start(c);
            if (enc_entry_edge(c, ENC_ENTRY_START)) {
                e->turn_idx = -1;
                return;
            }
        }
        if (e->norder == 0)
            break;
        if (enc_entry_before(c, turn_slot_value(e, idx))) {
            e->turn_idx = idx - 1;
            return;
        }
        struct enc_combatant *who = enc_by_id(e, e->order[idx].id);
        e->turn_idx = idx;
        if (who != NULL && turn_can_act(who)) {
            turn_start(c, who);
            return;
        }
        enum turn_down what = TURN_DOWN_SKIP;
        if (who != NULL && down != NULL && !(who->flags & ENC_CF_DEAD))
            what = down(c, who);
        if (who != NULL && what == TURN_DOWN_TURN) {
            turn_start(c, who);
            return;
        }
        if (who != NULL)
            turn_pass_time(c, who, what == TURN_DOWN_SKIP);
        idx++;
    }
    e->current = 0;
    rs_say0(c, NULL, "Nobody is able to act.");
}

void turn_fixed_next(struct rs_call *c,
                     void (*round_start)(struct rs_call *c))
{
    turn_fixed_next_down(c, round_start, NULL);
}

void turn_fixed_next_down(struct rs_call *c,
                          void (*round_start)(struct rs_call *c),
                          turn_down_fn *down)
{
    enc_entry_leave(c);
    turn_end(c);
    turn_fixed_from(c, c->e->turn_idx + 1, round_start, down);
}

void turn_fixed_begin(struct rs_call *c,
                      void (*round_start)(struct rs_call *c))
{
    turn_fixed_begin_down(c, round_start, NULL);
}

void turn_fixed_begin_down(struct rs_call *c,
                           void (*round_start)(struct rs_call *c),
                           turn_down_fn *down)
{
    struct encounter *e = c->e;
    e->status = ENC_ST_RUNNING;
    e->round = 0;
    e->turn_idx = -1;
    e->current = 0;
    enc_emit(c->r, ENC_EV_BEGIN, 0);
    turn_fixed_from(c, e->norder, round_start, down);
}

enum eng_err turn_op_next(struct rs_call *c)
{
    turn_fixed_next(c, NULL);
    return ENG_OK;
}

enum eng_err turn_fixed_start(struct rs_call *c, turn_cmp_fn *cmp)
{
    if (c->e->ncs == 0)
        return enc_fail(c->d, ENG_STATE, "there is nobody to fight yet");
    turn_order_build(c->e, cmp);
    turn_fixed_begin(c, NULL);
    return ENG_OK;
}
