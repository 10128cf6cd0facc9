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
};

struct msg {
    char *content;              /* plain message text above the embeds */
    struct msg_embed embeds[MSG_MAX_EMBEDS];
    int nembeds;
    struct msg_button buttons[MSG_MAX_BUTTONS];
    int nbuttons;
    struct msg_select select;   /* used when select.noptions > 0 */
    uint64_t mention_users[MSG_MAX_MENTIONS]; /* the only users it may ping */
    int nmentions;
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

/* Escape user text for markdown: backslash before * _ ~ ` | > # and '\',
 * and '@' followed by a zero-width space so "@everyone" or "<@1>" written in
 * a name shows as text and pings nobody. Newlines become spaces. Appends to
 * a malloc'd string the caller frees; NULL on no memory. */
char *msg_escape(const char *user_text);
/* msg_escape() of the first n bytes of text. */
char *msg_escape_n(const char *text, size_t n);

#endif
