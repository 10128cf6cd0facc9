/*
 * render_tracker_v2.c - the tracker as a Components V2 message
 * (render_enc.h): the same title, head, rows and footer as the embed
 * (render_tracker.c draws each of them), laid out as a container with a
 * row per place in the order. Discord's limits are render_discord's: it
 * folds the rows around the running turn's.
 */
#include "render_enc.h"

#include <stdlib.h>

#include "sbuf.h"

_Static_assert(RENDER_ENC_MAX_LINES + 4 <= MSG_V2_MAX_PARTS,
               "every place of the fullest tracker is a part of its own");

/* Bytes of the head text (title, footer line, the system's line). */
#define RENDER_V2_HEAD_MAX 2048
/* Bytes of one row before render_discord cuts it. */
#define RENDER_V2_ROW_MAX 2048

void render_tracker_v2(struct msg *m, const struct encounter *e, bool gm_view,
                       int64_t now_ms, const char *more, enum i18n_lang lang)
{
    struct msg_v2 *v = msg_v2_begin(m, gm_view ? MSG_STYLE_SECRET
                                                : MSG_STYLE_INFO);
    if (v == NULL)
        return;
    struct sbuf head;
    sbuf_init(&head, RENDER_V2_HEAD_MAX);
    sbuf_add(&head, "### ");
    render_tracker_title(&head, e, lang);
    sbuf_add(&head, "\n-# ");
    render_tracker_foot(&head, e, gm_view, now_ms, lang);
    if (gm_view)
        sbuf_add(&head, i18n_get(lang, " \xC2\xB7 the GM's view"));
    sbuf_addc(&head, '\n');
    render_tracker_head(&head, e, lang);
    render_tracker_countdowns(&head, e, gm_view, lang);
    while (head.len > 0 && head.buf[head.len - 1] == '\n')
        head.buf[--head.len] = '\0';
    msg_v2_add(v, MSG_V2_TEXT, sbuf_str(&head));
    sbuf_cleanup(&head);

    struct render_slot *slot = malloc(RENDER_ENC_MAX_LINES * sizeof *slot);
    int n = slot != NULL ? render_tracker_slots(e, slot, RENDER_ENC_MAX_LINES,
                                              gm_view)
                         : 0;
    if (n > 0)
        msg_v2_add(v, MSG_V2_SEPARATOR, NULL);
    for (int i = 0; i < n; i++) {
        struct sbuf row;
        sbuf_init(&row, RENDER_V2_ROW_MAX);
        render_tracker_row(&row, e, &slot[i], gm_view, lang);
        struct msg_v2_part *p = msg_v2_add(v, MSG_V2_ROW, sbuf_str(&row));
        sbuf_cleanup(&row);
        if (p == NULL)
            break;
        /* A row that hides who it is names nobody, even inside fray. */
        p->who = slot[i].c == NULL || (slot[i].c->hidden && !gm_view)
                     ? 0
                     : slot[i].c->id;
        if (v->focus < 0 && render_slot_current(e, &slot[i]))
            v->focus = v->nparts - 1;
    }
    free(slot);
    if (more != NULL)
        msg_v2_set_more(v, more);
}
