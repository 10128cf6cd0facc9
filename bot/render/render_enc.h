/*
 * render_enc.h - encounters and their events as messages.
 *
 * The engine reports what a command did as events (enc.h); this module turns
 * them into lines of a message, and draws the tracker: round, whose turn,
 * the order with initiative, hp and conditions with the rounds they have
 * left. Hidden combatants' numbers appear only in the GM's view; everyone
 * else sees a label (healthy, hurt, bloodied, down).
 *
 * Ownership: arguments are borrowed; the msg gets its own copies.
 */
#ifndef RENDER_ENC_H
#define RENDER_ENC_H

#include <stdbool.h>
#include <stdint.h>

#include "enc.h"
#include "i18n.h"
#include "msg.h"

/* How a hidden combatant is named to the players, mid-sentence and at the
 * start of one, in English (the catalogs' messages). */
#define RENDER_UNSEEN N_("_someone unseen_")
#define RENDER_UNSEEN_START N_("_Someone unseen_")
/* A side whose combatants are all hidden, as the players read it. */
#define RENDER_UNSEEN_SIDE N_("an unseen side")
/* The same in lang. */
const char *render_unseen(enum i18n_lang lang, bool start);
const char *render_unseen_side(enum i18n_lang lang);
/* A condition's name as lang shows it: a system's declared condition has
 * its catalog word (context "condition"), a custom one stays as typed. */
const char *render_cond_name(const char *name, enum i18n_lang lang);
/* A track's name as lang shows it (the tracker's rows, a track's change,
 * a sheet's write-back): a track rs declares (RS_TRACK, RS_POOL) has its
 * catalog word (context "ID track", NC_-marked in the declaration, short),
 * one a GM made stays as typed, as does every name in English. */
#define RENDER_TRACK_CTX 48    /* "ID track": a system's id, 41 bytes */
struct rs_system;
const char *render__track_name(const struct rs_system *rs, const char *name,
                               enum i18n_lang lang);
static inline const char *render_track_name(const struct rs_system *rs,
                                            const char *name,
                                            enum i18n_lang lang)
{
    /* English shows the key as typed: no call, the bytes of before */
    return lang == I18N_EN ? name : render__track_name(rs, name, lang);
}

/* Every renderer below that writes words takes the language of the
 * message it writes (docs/internals/i18n.md, "Whose language"): a public
 * message's is cmd_public_lang(run), a private one's run->req->lang. */

/* Whether side has combatants and every one of them is hidden: its name
 * would give them away (docs/commands.md, "Hidden combatants"). */
bool render_side_unseen(const struct encounter *e, int64_t side);

/* How long a condition counted on a turn lasts, in words, appended to b:
 * "until the end of Ann's turn" (the running one), "... of Ann's next
 * turn", "until the start of Ann's 3rd turn from now". anchor is whose
 * turn counts it, at the boundary at, turns the count left (> 0); now:
 * the anchor's running turn is the first that counts. A hidden anchor is
 * "someone unseen" unless gm_view. */
struct sbuf;
void render_cond_until(struct sbuf *b, const struct encounter *e,
                       uint32_t anchor, enum enc_expire at, int64_t turns,
                       bool now, bool gm_view, enum i18n_lang lang);

/* Longest events text in one embed description (Discord allows 4096; the
 * Discord renderer trims further if it must). */
#define RENDER_ENC_MAX_EVENTS_TEXT 4000

/* Add an embed listing what happened. gm_view shows hidden numbers. Returns
 * true when some event was secret, i.e. the GM's view differs. */
bool render_events(struct msg *m, const struct encounter *e,
                   const struct enc_result *res, bool gm_view,
                   const char *title, enum i18n_lang lang);

/* Where, in the text render_events_at() put into its embed, the event a
 * change's history line names (render_change_summary's: the first one
 * shown that is not a turn's end or a round) was drawn: event index ev
 * (-1: none), its text at byte at, len bytes long. */
struct render_first {
    int ev;
    size_t at, len;
};

/* render_events(), and *first for the text it drew. */
bool render_events_at(struct msg *m, const struct encounter *e,
                      const struct enc_result *res, bool gm_view,
                      const char *title, struct render_first *first,
                      enum i18n_lang lang);

/* Longest events text of one reply, in bytes: far past anything Discord
 * shows in one message; render_discord folds at Discord's own limits. */
#define RENDER_EVENTS_MAX (192 * 1024)

/* The lines render_events() shows, appended to out: markdown, every roll
 * with its dice; nothing for a viewer who may see none of it. Past out's
 * ceiling (RENDER_EVENTS_MAX for a reply) a note says more happened.
 * Returns true when some event was secret (the GM's view differs). */
struct sbuf;
bool render_events_text(struct sbuf *out, const struct encounter *e,
                        const struct enc_result *res, bool gm_view,
                        enum i18n_lang lang);

/* One plain line saying what a change did, for /combat history and undo:
 * its first event the players may read (else its first, as the GM sees
 * it), and how many more followed. *secret says whether that line is the
 * GM's alone: a secret event, or one naming a hidden combatant (drawn
 * here with its name). */
struct sbuf;
void render_change_summary(struct sbuf *out, const struct encounter *e,
                           const struct enc_result *res, bool *secret,
                           enum i18n_lang lang);

/* The same line from text that render_events_at() drew in a view equal to
 * the GM's (nothing secret, or the GM's own view), with the *first it
 * gave: no event is drawn again. */
void render_change_summary_of(struct sbuf *out, const char *text,
                              const struct render_first *first,
                              const struct enc_result *res, bool *secret,
                              enum i18n_lang lang);

/* The tracker's list in one embed description, in bytes (Discord allows
 * 4096 characters; a byte count is never below the character count). */
#define RENDER_ENC_TRACKER_TEXT 3900
/* All embeds of one message together (Discord: 6000 characters), less room
 * for the renderer's own notes. */
#define RENDER_ENC_TRACKER_TOTAL 5800
/* The list never gets less than this, whatever came before it in the
 * message (render_discord shortens past that, with a note). */
#define RENDER_ENC_TRACKER_MIN 1000
#define RENDER_ENC_FOOTER_ROOM 200  /* the footer line */
#define RENDER_ENC_MORE_LINE 40     /* "… 12 more below" */
#define RENDER_ENC_MAX_LINES \
    (ENC_MAX_ORDER + ENC_MAX_COMBATANTS + ENC_MAX_ENTRIES)
/* Compact lines, for fights whose full tracker does not fit: bytes of a
 * name, a side and a condition name before they are cut, and conditions
 * shown before "+N". */
#define RENDER_ENC_COMPACT_NAME 24
#define RENDER_ENC_COMPACT_SIDE 12
#define RENDER_ENC_COMPACT_COND 12
#define RENDER_ENC_COMPACT_CONDS 2
#define RENDER_ENC_CUT_BUF 128

/* Add the tracker embed for e. The list fits one embed and, with the
 * embeds already in m, Discord's total for a message: when the full lines
 * are too long they are drawn compact, and when even those are, a window
 * around the running turn is shown with how many more there are above and
 * below. The footer says which. */
void render_tracker(struct msg *m, const struct encounter *e, bool gm_view,
                    enum i18n_lang lang);
/* The same at wall-clock now_ms (ms since the epoch): the footer also says
 * how long the running turn has waited (a minute or more) and the turn
 * clock's settings. render_tracker() knows no time: it shows the settings
 * only. */
void render_tracker_at(struct msg *m, const struct encounter *e, bool gm_view,
                       int64_t now_ms, enum i18n_lang lang);

/* The tracker in Components V2 (render_tracker_v2.c): one container,
 * the fight's title, where it stands (round, whose turn, the clock) and
 * the system's line at the top, then a row per order slot (name or
 * "someone unseen", health label or the numbers in gm_view, conditions,
 * the system's status, the turn marker), each row's who set to its
 * combatant (0 for a row that hides who it is) so the command layer can
 * give it a button. Rows fold at Discord's limits in render_discord,
 * around the running turn's, with "+N more: <more>" (more may be NULL). */
void render_tracker_v2(struct msg *m, const struct encounter *e, bool gm_view,
                       int64_t now_ms, const char *more, enum i18n_lang lang);

/* One place in the tracker's order: a combatant and which of its
 * initiative values (cards: a creature may hold several; -1 none). */
/* A place of the tracker: a combatant on one of its initiative values, or
 * an event of the order (enc_entry.h; c is then NULL). */
struct render_slot {
    const struct enc_combatant *c;
    int init_idx;
    const struct enc_entry *ev;
};
/* The tracker's places in order, those outside the order after them,
 * events of the order at their places (a hidden one in the GM's view
 * alone); returns how many went to out (at most max). */
int render_tracker_slots(const struct encounter *e, struct render_slot *out,
                         int max, bool gm_view);
/* Whether s is the running turn's place. */
bool render_slot_current(const struct encounter *e,
                         const struct render_slot *s);
/* One place's line as the tracker draws it (without a newline). */
void render_tracker_row(struct sbuf *b, const struct encounter *e,
                        const struct render_slot *s, bool gm_view,
                        enum i18n_lang lang);
/* The tracker's title ("Bridge ambush — round 3"), its head (the empty
 * fight's hint, the system's line; lines ending in newlines) and its
 * footer line (system, round, whose turn, the clock at now_ms). */
void render_tracker_title(struct sbuf *title, const struct encounter *e,
                          enum i18n_lang lang);
void render_tracker_head(struct sbuf *b, const struct encounter *e,
                         enum i18n_lang lang);
/* The fight's countdowns (enc_cd.h), a line each: how many rounds or
 * whose turns are left, paused; a hidden one in the GM's view alone. */
void render_tracker_countdowns(struct sbuf *b, const struct encounter *e,
                               bool gm_view, enum i18n_lang lang);
void render_tracker_foot(struct sbuf *foot, const struct encounter *e,
                         bool gm_view, int64_t now_ms, enum i18n_lang lang);

/* c as the players see it on the tracker (name, tracks, the system's
 * status, conditions, note), one line of Discord markdown without its
 * place in the order; nothing for a hidden combatant. */
struct sbuf;
void render_combatant(struct sbuf *b, const struct encounter *e,
                      const struct enc_combatant *c, enum i18n_lang lang);

/* "healthy", "hurt", "bloodied" or "down" for a combatant's hp. */
const char *render_health_label(const struct enc_combatant *c,
                                enum i18n_lang lang);

#endif
