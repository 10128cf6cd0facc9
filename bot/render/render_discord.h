/*
 * render_discord.h - a struct msg as a Discord message body (JSON).
 *
 * The only place that knows Discord's message limits. Every limit is
 * enforced by shortening with a visible note ("... (shortened)"), never by
 * letting Discord reject the message: a reply that is too long still
 * arrives. Every body carries allowed_mentions {"parse": [], "users": [...]}
 * listing only msg.mention_users, so no user text can ping @everyone, @here,
 * a role, or a user the command layer did not choose.
 *
 * Limits count Unicode code points (what Discord calls characters).
 *
 * A body is written as JSON text (the *_text forms: what goes over REST);
 * the json_t forms parse that text for callers that edit a body before it
 * goes out (a file's attachment) and for tests.
 *
 * Ownership: the msg is borrowed; returned text is the caller's to free()
 * (its length in *len, which may be NULL); returned json_t values are new
 * references the caller releases with json_decref(). NULL means out of
 * memory or a text that is not UTF-8.
 */
#ifndef RENDER_DISCORD_H
#define RENDER_DISCORD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "jw.h"
#include "msg.h"

#define RENDER_DC_CONTENT_MAX 2000
#define RENDER_DC_EMBEDS_MAX 10
#define RENDER_DC_TITLE_MAX 256
#define RENDER_DC_DESC_MAX 4096
#define RENDER_DC_FIELDS_MAX 25
#define RENDER_DC_FIELD_NAME_MAX 256
#define RENDER_DC_FIELD_VALUE_MAX 1024
#define RENDER_DC_FOOTER_MAX 2048
#define RENDER_DC_EMBED_TOTAL_MAX 6000   /* across all embeds of a message */
#define RENDER_DC_ROWS_MAX 5             /* action rows */
#define RENDER_DC_ROW_BUTTONS_MAX 5
#define RENDER_DC_CUSTOM_ID_MAX 100
#define RENDER_DC_LABEL_MAX 80
#define RENDER_DC_SELECT_OPTIONS_MAX 25
#define RENDER_DC_OPTION_TEXT_MAX 100    /* select option label/value */
#define RENDER_DC_PLACEHOLDER_MAX 150
#define RENDER_DC_MENTIONS_MAX 100       /* allowed_mentions.users */
#define RENDER_DC_CHOICES_MAX 25         /* autocomplete choices */

#define RENDER_DC_FLAG_EPHEMERAL 64
#define RENDER_DC_FLAG_V2 32768          /* IS_COMPONENTS_V2 */

/* Components V2 (msg.h struct msg_v2; discord-interface-2026.md 1.1, 1.3
 * and 7): at most 40 components in a message, nested ones counted (our
 * reading: the docs say "40 total"), and 4000 characters across all its
 * Text Displays (the limit the docs' open change gives). Rows that do not
 * fit fold into one note, "+N more: <where>", which the renderer keeps
 * room for (RENDER_DC_V2_NOTE_MAX characters). */
#define RENDER_DC_V2_COMPONENTS_MAX 40
#define RENDER_DC_V2_TEXT_MAX 4000
#define RENDER_DC_V2_NOTE_MAX 100

/* Bytes of one body: every text above at its limit, escaped at worst
 * (6 bytes a character), fits well under it. */
#define RENDER_DC_BODY_MAX (512u * 1024)

#define RENDER_DC_NOTE "\xe2\x80\xa6 (shortened)"   /* "… (shortened)" */

/* Interaction callback types we send. */
enum render_dc_callback {
    RENDER_DC_CB_MESSAGE = 4,        /* CHANNEL_MESSAGE_WITH_SOURCE */
    RENDER_DC_CB_DEFER = 5,          /* DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE */
    RENDER_DC_CB_DEFER_UPDATE = 6,   /* DEFERRED_UPDATE_MESSAGE (components) */
    RENDER_DC_CB_UPDATE = 7,         /* UPDATE_MESSAGE (components) */
    RENDER_DC_CB_AUTOCOMPLETE = 8,
};

/* The message body: content, embeds, components, allowed_mentions, flags;
 * for a V2 msg (m->v2) the container and its rows, flags with
 * RENDER_DC_FLAG_V2, and no content or embeds. */
char *render_discord_message_text(const struct msg *m, bool ephemeral,
                                  size_t *len);
json_t *render_discord_message(const struct msg *m, bool ephemeral);

/* The body of an edit: as above, with "components" always there (empty
 * when m has none) so the edit also takes away the buttons the message
 * had; an edit with nothing to show is left empty rather than "(no
 * output)". A V2 message's edit also empties content (null) and embeds
 * ([]), so a classic message becomes V2 on its next edit (V2 never becomes
 * classic again: the flag stays). */
char *render_discord_edit_text(const struct msg *m, size_t *len);

/* {"type": type, "data": <message body>}; a deferral carries only its
 * flags, a deferred update nothing, an autocomplete answer the choices
 * below (m may be NULL for the deferrals). */
char *render_discord_callback_text(enum render_dc_callback type,
                                   const struct msg *m, bool ephemeral,
                                   size_t *len);
json_t *render_discord_callback(enum render_dc_callback type,
                                const struct msg *m, bool ephemeral);
/* The same into w (made with jw_init_buf() on a stack buffer, an answer
 * costs no allocation); read it with jw_text(). */
void render_discord_callback_jw(struct jw *w, enum render_dc_callback type,
                                const struct msg *m, bool ephemeral);

/* {"type": 8, "data": {"choices": [...]}}: choices are the select options
 * of m (label -> name, value -> value), at most RENDER_DC_CHOICES_MAX. */
json_t *render_discord_autocomplete(const struct msg *m);

/* Number of code points in s (invalid bytes count one each). */
size_t render_discord_chars(const char *s);

#endif
