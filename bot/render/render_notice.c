/*
 * render_notice.c - a turn's notice as a Components V2 message
 * (render_notice.h).
 */
#include "render_notice.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "render_discord.h"
#include "sbuf.h"

/* Where a cut events text goes on: said where it was cut, on a line of
 * its own. */
#define NOTICE_CUT N_("_(cut at Discord's limit; the rest: /combat history)_")

/* One embed as the markdown of one Text Display: the title in bold, the
 * description, each field as its name in bold over its value, and the
 * footer as small text ("-# "). Appends to b. */
static void embed_text(struct sbuf *b, const struct msg_embed *e)
{
    const char *sep = "";
    if (e->title != NULL && *e->title) {
        sbuf_addf(b, "**%s**", e->title);
        sep = "\n";
    }
    if (e->description != NULL && *e->description) {
        sbuf_addf(b, "%s%s", sep, e->description);
        sep = "\n";
    }
    for (int i = 0; i < e->nfields; i++) {
        sbuf_addf(b, "%s**%s**\n%s", sep, e->fields[i].name
                  ? e->fields[i].name : "", e->fields[i].value
                  ? e->fields[i].value : "");
        sep = "\n";
    }
    if (e->footer != NULL && *e->footer)
        sbuf_addf(b, "%s-# %s", sep, e->footer);
}

bool render_notice_v2(const struct msg *m, struct msg *out)
{
    if (!m->notice || m->v2 != NULL || m->content == NULL)
        return false;
    struct msg v = *m;               /* borrows m's strings */
    v.v2 = NULL;
    v.content = NULL;
    v.nembeds = 0;
    v.notice = false;
    struct msg_v2 *v2 = msg_v2_begin(&v, m->nembeds > 0
                                             ? m->embeds[0].style
                                             : MSG_STYLE_INFO);
    if (v2 == NULL)
        return false;
    /* The events in one Text Display, within what Discord's text limit
     * leaves beside the notice, so the notice (its ping, its button) is
     * never what folds; a cut says so. */
    struct sbuf b;
    sbuf_init(&b, MSG_MAX_TEXT);
    for (int i = 0; i < m->nembeds; i++) {
        if (b.len > 0)
            sbuf_add(&b, "\n\n");
        embed_text(&b, &m->embeds[i]);
    }
    const char *cut = i18n_get(m->notice_lang, NOTICE_CUT);
    size_t cut_size = 1 + strlen(cut) + 1;  /* "\n", NUL: bytes >= chars */
    size_t notice = render_discord_chars(m->content) + 1;
    size_t room = notice + cut_size < RENDER_DC_V2_TEXT_MAX
                      ? RENDER_DC_V2_TEXT_MAX - notice - cut_size
                      : 0;
    bool ok = sbuf_error(&b) != SBUF_NOMEM;
    if (ok && render_discord_chars(sbuf_str(&b)) > room + cut_size) {
        /* bytes >= characters: room bytes are at most room characters */
        size_t keep = sbuf_utf8_cut(sbuf_str(&b), room);
        char *all = sbuf_take(&b);
        ok = all != NULL;
        if (ok) {
            sbuf_addn(&b, all, keep);
            sbuf_add(&b, "\n");
            sbuf_add(&b, cut);
            ok = sbuf_error(&b) == SBUF_OK;
        }
        free(all);
    }
    if (ok && b.len > 0)
        ok = msg_v2_add(v2, MSG_V2_TEXT, sbuf_str(&b)) != NULL;
    sbuf_cleanup(&b);
    if (ok && v2->nparts > 0)
        ok = msg_v2_add(v2, MSG_V2_SEPARATOR, NULL) != NULL;
    struct msg_v2_part *row = ok ? msg_v2_add(v2, MSG_V2_ROW, m->content)
                                 : NULL;
    ok = row != NULL;
    int k = m->notice_button;
    if (ok && k >= 0 && k < m->nbuttons) {
        /* the notice's own button stands beside it, not in the rows */
        ok = msg_v2_set_accessory(row, m->buttons[k].label,
                                  m->buttons[k].custom_id,
                                  m->buttons[k].style);
        memmove(&v.buttons[k], &v.buttons[k + 1],
                (size_t)(v.nbuttons - k - 1) * sizeof v.buttons[0]);
        v.nbuttons--;
    }
    if (!ok) {
        msg_v2_free(v2);
        return false;
    }
    v2->focus = v2->nparts - 1;      /* folding keeps the notice */
    *out = v;
    return true;
}

void render_notice_done(struct msg *out)
{
    msg_v2_free(out->v2);
    out->v2 = NULL;
}
