/*
 * render_seen.c - what the players may know of a fight, shared by the
 * events (render_events.c) and the tracker (render_tracker.c): whether a
 * side is all hidden, and a combatant's health as a word (render_enc.h).
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "enc.h"
#include "i18n.h"
#include "render_enc.h"
#include "rs.h"

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

const char *render_health_label(const struct enc_combatant *c,
                                enum i18n_lang lang)
{
    const struct enc_track *hp = enc_track_c(c, "hp");
    /* TRANSLATORS: health labels: how the players see a hidden or
     * numberless combatant's hit points, one word each. */
    if (c->flags & (ENC_CF_DOWN | ENC_CF_DEAD) || (hp && hp->cur <= 0))
        return i18n_pget(lang, "health", "down");
    if (hp == NULL || hp->max <= 0 || hp->cur >= hp->max)
        return i18n_pget(lang, "health", "healthy");
    if (hp->cur * 2 <= hp->max)
        return i18n_pget(lang, "health", "bloodied");
    return i18n_pget(lang, "health", "hurt");
}

const char *render_unseen(enum i18n_lang lang, bool start)
{
    return start ? i18n_get(lang, RENDER_UNSEEN_START)
                 : i18n_get(lang, RENDER_UNSEEN);
}

const char *render_unseen_side(enum i18n_lang lang)
{
    return i18n_get(lang, RENDER_UNSEEN_SIDE);
}

const char *render_cond_name(const char *name, enum i18n_lang lang)
{
    return name != NULL ? i18n_pget(lang, "condition", name) : "";
}

const char *render__track_name(const struct rs_system *rs, const char *name,
                               enum i18n_lang lang)
{
    static const char suffix[] = " track";
    if (rs == NULL || rs->stats == NULL || name == NULL)
        return name;
    for (const struct rs_stat_spec *s = rs->stats; s->name != NULL; s++) {
        if (s->kind == RS_STAT || !enc_name_eq(s->name, name))
            continue;
        /* the system's own context: "hp" is hit points in one system,
         * health or Resolve in another (an id too long for it misses,
         * and the key shows as typed). Not snprintf: a row's every track
         * comes here, and it cost a German command 2 %. */
        char ctx[RENDER_TRACK_CTX];
        size_t n = strlen(rs->id);
        if (n + sizeof suffix > sizeof ctx)
            return name;
        memcpy(ctx, rs->id, n);
        memcpy(ctx + n, suffix, sizeof suffix);
        return i18n_pget(lang, ctx, s->name);
    }
    return name;
}
