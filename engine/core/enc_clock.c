/*
 * enc_clock.c - the turn clock's arithmetic (enc_clock.h).
 */
#include "enc_clock.h"

#include "enc.h"

void enc_wait_of(const struct encounter *e, struct enc_wait *w)
{
    *w = (struct enc_wait){
        .turn_seq = e->turn_seq,
        .current = e->current,
        .acting_side = e->acting_side,
        .round = e->round,
        .status = (int)e->status,
    };
}

bool enc_wait_eq(const struct enc_wait *a, const struct enc_wait *b)
{
    return a->turn_seq == b->turn_seq && a->current == b->current &&
           a->acting_side == b->acting_side && a->round == b->round &&
           a->status == b->status;
}

bool enc_clock_on(const struct encounter *e)
{
    return e->clock.remind_ms > 0 || e->clock.act_ms > 0;
}

void enc_clock_restart(struct encounter *e, int64_t now)
{
    e->clock.wait_ms = now;
    e->clock.acted_ms = 0;
    e->clock.done = 0;
}

void enc_clock_acted(struct encounter *e, int64_t now)
{
    e->clock.acted_ms = now;
}

/* The pending items and when each falls due. */
static unsigned pending(const struct encounter *e, int64_t *remind_at,
                        int64_t *act_at)
{
    const struct enc_clock *k = &e->clock;
    unsigned bits = 0;
    if (e->status != ENC_ST_RUNNING || k->wait_ms <= 0)
        return 0;
    if (k->remind_ms > 0 && k->acted_ms == 0 &&
        !(k->done & ENC_CLOCK_REMIND)) {
        *remind_at = k->wait_ms + k->remind_ms;
        bits |= ENC_CLOCK_REMIND;
    }
    if (k->act_ms > 0 && !(k->done & ENC_CLOCK_ACT)) {
        *act_at = k->wait_ms + k->act_ms;
        bits |= ENC_CLOCK_ACT;
    }
    return bits;
}

unsigned enc_clock_due(const struct encounter *e, int64_t now)
{
    int64_t r = 0, a = 0;
    unsigned bits = pending(e, &r, &a), due = 0;
    if ((bits & ENC_CLOCK_REMIND) && r <= now)
        due |= ENC_CLOCK_REMIND;
    if ((bits & ENC_CLOCK_ACT) && a <= now)
        due |= ENC_CLOCK_ACT;
    return due;
}

int64_t enc_clock_next(const struct encounter *e)
{
    return enc_clock_due_time(e, ENC_CLOCK_REMIND | ENC_CLOCK_ACT);
}

int64_t enc_clock_due_time(const struct encounter *e, unsigned bits)
{
    int64_t r = 0, a = 0, at = 0;
    unsigned p = pending(e, &r, &a) & bits;
    if (p & ENC_CLOCK_REMIND)
        at = r;
    if ((p & ENC_CLOCK_ACT) && (at == 0 || a < at))
        at = a;
    return at;
}
