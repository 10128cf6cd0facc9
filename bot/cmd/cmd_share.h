/*
 * cmd_share.h - /combat share: a read-only web page of one fight (issue
 * 34), and what the page reads.
 *
 * The GM's /combat share draws a token (randtok.h: 192 bits from the
 * kernel's CSPRNG) and keeps two key/value rows in the store, so both
 * backends hold it and a restarted fray serves the same link:
 *   "share:<token>"    -> "<channel> <fight_id>"
 *   "shared:<channel>" -> "<token> <fight_id>"
 * One live token per fight: sharing again gives the same link; after
 * /combat share revoke:true a new one. The rows go when the fight ends
 * (cmd.c, with the recap marks), and a token is honoured only while the
 * channel's live fight is the one it was drawn for, so a fight that ended
 * any other way (an archive by retention, a new fight in the channel)
 * never shows through an old link. A forged, unknown, revoked or ended
 * token are one answer: BOT_NOTFOUND, from the same lookup.
 *
 * What the page shows is the players' view, decided where the replies
 * decide it: the tracker through render_tracker_row(gm_view false) and the
 * last changes through cmd_change_text(gm false), /combat recap's choice
 * of a change's public text.
 *
 * Ownership: a cmd_share_view owns its encounter and texts; release with
 * cmd_share_view_cleanup().
 */
#ifndef CMD_SHARE_H
#define CMD_SHARE_H

#include <stdint.h>

#include "bot_err.h"
#include "enc.h"
#include "i18n.h"
#include "randtok.h"

struct store;

#define CMD_SHARE_KV_PREFIX "share:"
#define CMD_SHARED_KV_PREFIX "shared:"
/* Changes the page lists, newest first: a screen's worth on a phone. */
#define CMD_SHARE_CHANGES 8
/* Bytes of the page's public address ([web] public_url). */
#define CMD_SHARE_URL_MAX 256

struct cmd_share_view {
    uint64_t channel;
    struct encounter *enc;                   /* owned */
    char *change[CMD_SHARE_CHANGES];         /* owned, newest first:
                                                markdown as players read
                                                it, with the dice */
    int nchanges;
    enum i18n_lang lang;                     /* the page's: the table's
                                                when the link was made */
};

/* The fight token stands for, as players see it, into *v (zeroed
 * first). BOT_NOTFOUND for every token that shows nothing (malformed,
 * unknown, revoked, its fight ended or gone); another error when the
 * store failed. */
enum bot_err cmd_share_view_load(struct store *s, const char *token,
                                 struct cmd_share_view *v);
void cmd_share_view_cleanup(struct cmd_share_view *v);   /* NULL: no-op */

/* The channel token was drawn for, without reading the fight (the live
 * check is the view's); BOT_NOTFOUND as above. */
enum bot_err cmd_share_channel(struct store *s, const char *token,
                               uint64_t *channel);

/* Forget channel's link (its fight ended). */
enum bot_err cmd_share_forget(struct store *s, uint64_t channel);

#endif
