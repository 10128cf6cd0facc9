/*
 * kit_track.c - stats that become tracks (rs_kit.h).
 *
 * Systems take a track's size as a stat when a combatant is added
 * ("hp=12 stamina=3") and keep it as a track from then on, so /combat hp
 * and the tracker see it; the stat itself is dropped, so the number lives
 * in one place.
 */
#include "rs_kit.h"

enum eng_err rs_stat_to_track(struct rs_call *c, struct enc_combatant *who,
                              const char *stat, const char *track)
{
    const int64_t *v = enc_stat(who, stat);
    if (v == NULL)
        return ENG_OK;
    int64_t x = *v;
    if (x < 0)
        return enc_fail(c->d, ENG_RANGE, "%s cannot be negative", stat);
    enum eng_err err = enc_track_set(who, track, x, x, c->d);
    if (err == ENG_OK)
        enc_stat_remove(who, stat);
    return err;
}
