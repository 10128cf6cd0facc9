/*
 * render_web.h - a fight as HTML, for the shared page (issue 34; the
 * daemon's web.c serves it).
 *
 * The page says exactly what the players read in Discord: the tracker is
 * drawn from render_tracker_title/foot/head/row with gm_view false (the
 * one decision of what a player may see, render_tracker.c), and the
 * changes are the texts the command layer chose for a player
 * (cmd_change_text). This module only turns that markdown into HTML:
 * every byte of text is escaped, and only the markup fray itself writes
 * (**bold**, _italic_, ~~strike~~, `code`, ### and -# lines) becomes
 * tags. A mention (<@id>) becomes "@player": ids stay off the page.
 *
 * Ownership: arguments are borrowed; output is appended to the caller's
 * sbuf (its ceiling bounds the page).
 */
#ifndef RENDER_WEB_H
#define RENDER_WEB_H

#include <stdbool.h>

#include "enc.h"
#include "i18n.h"
#include "sbuf.h"

/* Bytes of one page's fight fragment at most: a 64-combatant tracker and
 * the last changes with their dice, well within. */
#define RENDER_WEB_MAX (256 * 1024)

/* What a page that shows nothing says, the same for every token that
 * does not lead to a live shared fight. */
#define RENDER_WEB_GONE "This fight is no longer shared."

/* markdown (fray's own) -> HTML, appended to out. */
void render_web_md(struct sbuf *out, const char *md);

/* The fight's fragment in lang: title, where it stands, the system's
 * line, the countdowns the players see, the order, and changes (n of
 * them, newest first, markdown, already in lang). */
void render_web_fight(struct sbuf *out, const struct encounter *e,
                      char *const *changes, int n, enum i18n_lang lang);

/* The fragment for a page that shows nothing (RENDER_WEB_GONE): English,
 * as a token that leads nowhere names no table. */
void render_web_gone(struct sbuf *out);

/* A whole page around fragment (HTML) in lang (its lang attribute): the
 * stylesheet and script from the same origin (web.c's /static/), title
 * the tab's (plain text); overlay: the transparent, large-type layout for
 * streaming software. */
void render_web_page(struct sbuf *out, const char *title,
                     const char *fragment, bool overlay, bool live,
                     enum i18n_lang lang);

#endif
