/*
 * kit_clock.c - what the systems share when the turn clock runs out
 * (rs_kit.h, rs_ops.timeout).
 */
#include "rs_kit.h"

#include "turn.h"

enum eng_err rs_clock_end_turn(struct rs_call *c, const char *fmt)
{
    struct enc_combatant *cur = enc_current(c->e);
    if (cur == NULL)
        return enc_fail(c->d, ENG_STATE, "no turn is running");
    RS_SAY(c, cur, fmt, RS_A_WHO(cur));
    return c->e->sys->ops->next(c);
}
