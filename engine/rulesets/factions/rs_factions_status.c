/*
 * rs_factions_status.c - a character's line on the tracker: attacked and
 * able to react, acted or reacted, morale, and in the fast phase whether it
 * may still go fast (rs_factions_turns.c decides).
 */
#include "rs_factions.h"

#include "eng_buf.h"

/* Append item to the tracker line, after a comma when it is not first. */
static void fac_status_item(struct eng_buf *out, bool *first,
                            const char *item)
{
    if (item[0] == '\0')
        return;
    if (!*first)
        eng_buf_add(out, ", ");
    eng_buf_add(out, item);
    *first = false;
}

/* The tracker's extra words for who: kept short for a phone's width. */
void fac_status(const struct encounter *e,
                const struct enc_combatant *who, struct eng_buf *out)
{
    const struct fac_enc *st = FAC_E(e);
    const struct fac_comb *me = FAC_C(who);
    bool first = true;
    if (st->pend_att != 0 && st->pend_tgt == who->id)
        fac_status_item(out, &first, "attacked: may react");
    if (who->flags & ENC_CF_ACTED)
        fac_status_item(out, &first, me->reacted == e->round ? "reacted" :
                        "acted");
    fac_status_item(out, &first, me->morale == FAC_MOR_STEADY ? "steady" :
                    me->morale == FAC_MOR_BROKEN ? "broken" : "");
    if (e->phase == FAC_PH_FAST && !(who->flags & ENC_CF_ACTED))
        fac_status_item(out, &first, fac_eligible(e, who) ? "fast" : "slow");
}
