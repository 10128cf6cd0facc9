/*
 * render_seen.c - what the players may know of a fight, shared by the
 * events (render_events.c) and the tracker (render_tracker.c): whether a
 * side is all hidden, and a combatant's health as a word (render_enc.h).
 */
#include <stdbool.h>
#include <stdint.h>

#include "enc.h"
#include "render_enc.h"

bool render_side_unseen(const struct encounter *e, int64_t side)
{
    bool any = false;
    for (int i = 0; i < e->ncs; i++) {
        if (e->cs[i].side != side)
            continue;
        if (!e->cs[i].hidden)
            return false;
        any = true;
    }
    return any;
}

const char *render_health_label(const struct enc_combatant *c)
{
    const struct enc_track *hp = enc_track_c(c, "hp");
    if (c->flags & (ENC_CF_DOWN | ENC_CF_DEAD) || (hp && hp->cur <= 0))
        return "down";
    if (hp == NULL || hp->max <= 0 || hp->cur >= hp->max)
        return "healthy";
    if (hp->cur * 2 <= hp->max)
        return "bloodied";
    return "hurt";
}
