/*
 * rs_factions_status.c - a character's line on the tracker: attacked and
 * able to react, acted or reacted, morale, and in the fast phase whether it
 * may still go fast (rs_factions_turns.c decides).
 */
#include "rs_factions.h"

#include "eng_buf.h"

/* Append item (an N_-marked word) in tr's language to the tracker line,
 * after a comma when it is not first. */
static void fac_status_item(struct eng_buf *out, bool *first,
                            const char *item, enc_tr_fn tr,
                            const void *tr_ctx)
{
    if (item[0] == '\0')
        return;
    if (!*first)
        eng_buf_add(out, ", ");
    eng_buf_add(out, enc_tr(tr, tr_ctx, item));
    *first = false;
}

/* The tracker's extra words for who: kept short for a phone's width. */
void fac_status(const struct encounter *e,
                const struct enc_combatant *who, struct eng_buf *out,
                enc_tr_fn tr, const void *tr_ctx)
{
    const struct fac_enc *st = FAC_E(e);
    const struct fac_comb *me = FAC_C(who);
    bool first = true;
    if (st->pend_att != 0 && st->pend_tgt == who->id)
        fac_status_item(out, &first, N_("attacked: may react"), tr, tr_ctx);
    if (who->flags & ENC_CF_ACTED)
        fac_status_item(out, &first, me->reacted == e->round
                                         ? N_("reacted") : N_("acted"),
                        tr, tr_ctx);
    /* TRANSLATORS: morale, on the tracker */
    fac_status_item(out, &first, me->morale == FAC_MOR_STEADY ? N_("steady")
                                 : me->morale == FAC_MOR_BROKEN
                                     ? N_("broken") : "",
                    tr, tr_ctx);
    /* TRANSLATORS: in the fast phase, whether one may still go fast */
    if (e->phase == FAC_PH_FAST && !(who->flags & ENC_CF_ACTED))
        fac_status_item(out, &first, fac_eligible(e, who) ? N_("fast")
                                                          : N_("slow"),
                        tr, tr_ctx);
}
