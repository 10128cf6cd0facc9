/*
 * rs_tactical.c - the `tactical` ruleset's operations on a combatant:
 * set-up, a track that changed, the tracker's AP. Initiative and the turn
 * are in rs_tactical_turn.c.
 */
#include "rs_kit.h"
#include "rs_tactical.h"

/* Stats that become tracks (current = maximum) at set-up. */
static const char *const tac_tracks[] = {"hp", "stamina", "av", "ammo"};

enum eng_err tac_setup(struct rs_call *c, struct enc_combatant *who)
{
    for (size_t i = 0; i < sizeof tac_tracks / sizeof tac_tracks[0]; i++) {
        enum eng_err err = rs_stat_to_track(c, who, tac_tracks[i],
                                            tac_tracks[i]);
        if (err != ENG_OK)
            return err;
    }
    return ENG_OK;
}

void tac_after_track(struct rs_call *c, struct enc_combatant *who,
                     const char *track, int64_t before)
{
    (void)track;
    (void)before;
    tac_out_update(c, who);
}

/* The tracker's extra text: the AP the acting combatant has left. Others'
 * AP are set when their turn starts, so they show none. */
void tac_status(const struct encounter *e,
                const struct enc_combatant *who, struct eng_buf *out,
                enc_tr_fn tr, const void *tr_ctx)
{
    if (e->status != ENC_ST_RUNNING || e->current != who->id)
        return;
    /* TRANSLATORS: action points left of the turn's, short */
    eng_buf_addf(out, enc_tr(tr, tr_ctx, N_("AP %lld/%d")),
                 (long long)TAC_ST(who)->ap, tac_setting_ap(e));
}

