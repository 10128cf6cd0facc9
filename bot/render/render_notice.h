/*
 * render_notice.h - a turn's notice as a Components V2 message for
 * Discord (docs/internals/v2.md, "Turn notices").
 *
 * The command layer builds the reply that starts a turn as a classic msg
 * (the events as embeds, the notice with its mention as content, the
 * Attack button among the buttons) and marks it (msg.notice), so the
 * console and the daemon's own edits of the content (a fight in a thread
 * moves the ping there) keep working on one shape. render_discord.c draws
 * a marked message through render_notice_v2(): one container whose Text
 * Displays are the embeds, then the notice as a Section with the Attack
 * button beside it, the other buttons as action rows.
 *
 * Ownership: out borrows every string of m but owns out->v2 (heap), which
 * render_notice_done() frees; m is not changed.
 */
#ifndef RENDER_NOTICE_H
#define RENDER_NOTICE_H

#include <stdbool.h>

#include "msg.h"

/* out = m drawn as V2 (see above). False, out untouched, when m is not a
 * marked notice, is V2 already, or on no memory. */
bool render_notice_v2(const struct msg *m, struct msg *out);

/* Free what render_notice_v2() made for out (its v2 only). */
void render_notice_done(struct msg *out);

#endif
