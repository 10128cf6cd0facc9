/*
 * msg.h - a message to show a user, independent of where it is shown.
 *
 * The command layer builds a struct msg; render_text.c prints it on a
 * terminal and render_discord.c turns it into a Discord message body (embeds,
 * components, allowed_mentions). Text fields hold Discord-flavoured markdown
 * (**bold**, ~~strike~~, `code`); user-supplied text is escaped with
 * msg_escape() before it is put in, so a name can never inject markup or a
 * mention. render_text strips the markup.
 *
 * Ownership: a msg owns every string in it (heap, freed by msg_cleanup()).
 * Setters copy their arguments. Limits here are generous internal ceilings;
 * Discord's own caps are enforced by render_discord.c alone.
 */
#ifndef MSG_H
#define MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "i18n.h"

#define MSG_MAX_EMBEDS 4
#define MSG_MAX_FIELDS 25
#define MSG_MAX_BUTTONS 10
#define MSG_MAX_SELECT 25
#define MSG_MAX_MENTIONS 4
#define MSG_MAX_TEXT (256 * 1024) /* any one text field, before Discord
                                    folds it (render_discord.c) */

enum msg_style {                /* the colour bar of an embed */
    MSG_STYLE_INFO = 0,
    MSG_STYLE_GOOD,
    MSG_STYLE_BAD,
    MSG_STYLE_ERROR,
    MSG_STYLE_SECRET,
};

struct msg_field {
    char *name;
    char *value;
    bool is_inline;
};

struct msg_embed {
    char *title;
    char *description;
    char *footer;
    enum msg_style style;
    struct msg_field fields[MSG_MAX_FIELDS];
    int nfields;
};

enum msg_button_style { MSG_BTN_PRIMARY = 1, MSG_BTN_SECONDARY = 2,
                        MSG_BTN_SUCCESS = 3, MSG_BTN_DANGER = 4 };

struct msg_button {
    char *label;
    char *custom_id;            /* what a click sends back; <= 100 bytes */
    enum msg_button_style style;
    bool disabled;
};

struct msg_select_option {
    char *label;
    char *value;
};

struct msg_select {
    char *custom_id;
    char *placeholder;
    struct msg_select_option options[MSG_MAX_SELECT];
    int noptions;
    int max_values;             /* > 1: a multi-select, 1 to this many
                                   choices (at most noptions); else one */
};

/* Components V2 (docs/internals/v2.md): a message drawn as one container
 * of parts instead of content and embeds. render_discord.c writes it with
 * the IS_COMPONENTS_V2 flag and never content or embeds beside it (a
 * message is either V2 or classic); the msg's buttons and select become
 * action rows at the container's end. Discord's limits (40 components,
 * 4000 characters of text) are render_discord's: it folds rows that do not
 * fit around the focus row and says how many more there are. */
/* Parts of one V2 message before Discord's limits fold it: a row per
 * place of the fullest tracker (RENDER_ENC_MAX_LINES: 256 order slots and
 * 64 combatants) and its head; render_tracker_v2.c asserts it. */
#define MSG_V2_MAX_PARTS 336

enum msg_v2_kind {
    MSG_V2_TEXT = 0,            /* a Text Display, always shown */
    MSG_V2_ROW,                 /* one item of a list: a Section with its
                                   accessory button, or a Text Display when
                                   it has none; folded when they do not fit */
    MSG_V2_SEPARATOR,           /* a divider line */
};

struct msg_v2_part {
    enum msg_v2_kind kind;
    char *text;                 /* markdown (TEXT, ROW) */
    uint64_t who;               /* ROW: the combatant it shows, for the
                                   command layer to add a button; 0 none
                                   (and always 0 for a row that hides who
                                   it is) */
    struct msg_button accessory; /* ROW: custom_id NULL = none */
};

struct msg_v2 {
    enum msg_style style;       /* the container's accent colour */
    struct msg_v2_part parts[MSG_V2_MAX_PARTS];
    int nparts;
    int focus;                  /* the part kept first when rows fold (the
                                   running turn's), -1: the first rows */
    char *more;                 /* where folded rows can be read in full,
                                   e.g. "/combat status"; NULL: nowhere */
};

struct msg {
    struct msg_v2 *v2;          /* non-NULL: a Components V2 message; its
                                   content is its first Text Display and
                                   embeds are not used */
    char *content;              /* plain message text above the embeds */
    struct msg_embed embeds[MSG_MAX_EMBEDS];
    int nembeds;
    struct msg_button buttons[MSG_MAX_BUTTONS];
    int nbuttons;
    struct msg_select select;   /* used when select.noptions > 0 */
    uint64_t mention_users[MSG_MAX_MENTIONS]; /* the only users it may ping */
    int nmentions;
    bool notice;                /* content is a turn's notice: Discord draws
                                   the message as V2 (render_notice.h) */
    int notice_button;          /* with notice: the button drawn beside
                                   the notice (its Attack), -1: none */
    enum i18n_lang notice_lang; /* with notice: the language of the note
                                   a cut adds (the table's) */
};

void msg_init(struct msg *m);
void msg_cleanup(struct msg *m);

/* Set or replace the content; a printf format. Returns false on no memory. */
bool msg_set_content(struct msg *m, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Add an embed and return it (NULL when MSG_MAX_EMBEDS are used or no
 * memory). title may be NULL. */
struct msg_embed *msg_add_embed(struct msg *m, enum msg_style style,
                                const char *title);
bool msg_embed_set_description(struct msg_embed *e, const char *text);
bool msg_embed_set_footer(struct msg_embed *e, const char *text);
bool msg_embed_add_field(struct msg_embed *e, const char *name,
                         const char *value, bool is_inline);

bool msg_add_button(struct msg *m, const char *label, const char *custom_id,
                    enum msg_button_style style);
bool msg_set_select(struct msg *m, const char *custom_id,
                    const char *placeholder);
bool msg_select_add(struct msg *m, const char *label, const char *value);
bool msg_add_mention(struct msg *m, uint64_t user_id);

/* Make m a Components V2 message (if it is not yet) with accent style;
 * returns m->v2, or NULL on no memory. */
struct msg_v2 *msg_v2_begin(struct msg *m, enum msg_style style);
/* Add a part of kind with text (copied; NULL for a separator) and return
 * it; NULL when MSG_V2_MAX_PARTS are used or no memory. */
struct msg_v2_part *msg_v2_add(struct msg_v2 *v, enum msg_v2_kind kind,
                               const char *text);
/* Set a row's accessory button (copied); false on no memory. */
bool msg_v2_set_accessory(struct msg_v2_part *p, const char *label,
                          const char *custom_id, enum msg_button_style style);
/* Where the folded rows are read in full (copied). */
bool msg_v2_set_more(struct msg_v2 *v, const char *where);
/* Free v and everything in it (msg_cleanup() calls it); NULL is a no-op. */
void msg_v2_free(struct msg_v2 *v);

/* Escape user text for markdown: backslash before * _ ~ ` | > # and '\',
 * and '@' followed by a zero-width space so "@everyone" or "<@1>" written in
 * a name shows as text and pings nobody. Newlines become spaces. Appends to
 * a malloc'd string the caller frees; NULL on no memory. */
char *msg_escape(const char *user_text);
/* msg_escape() appended to b: no string of its own (a tracker's names). */
struct sbuf;
void msg_escape_to(struct sbuf *b, const char *user_text);
/* msg_escape() of the first n bytes of text. */
char *msg_escape_n(const char *text, size_t n);

#endif
