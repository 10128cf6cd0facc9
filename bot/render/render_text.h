/*
 * render_text.h - a struct msg as plain text, for a terminal.
 *
 * The console prints every reply through here. Discord markdown is taken
 * apart: **bold**, __underline__, *italic*, _italic_, ~~strike~~ and
 * ||spoiler|| markers go, `code` and ```blocks``` lose their backticks but
 * keep their text verbatim, "> " quotes and "# " headings lose their marker,
 * backslash escapes are undone, the zero-width space that msg_escape()
 * puts after '@' is dropped and an ideographic space (U+3000, Discord's
 * way to indent) becomes two spaces. A mention <@ID> becomes @NAME when the caller
 * can name the user.
 *
 * Layout, each part on its own line(s) and only when present:
 *
 *   content
 *   embed title
 *   embed description
 *   field name: value          (a value of several lines goes below its
 *                               name, each line indented by two spaces)
 *   -- footer
 *   [Button] [Another]         (enabled buttons, as hints)
 *   choose (placeholder): option | option
 *
 * A Components V2 message (msg.h) prints its parts in order instead: each
 * text or row on its line(s), a row's button after it as "  [Label]", a
 * separator as "--"; then the buttons and the choices as above.
 *
 * Embeds are separated by a blank line. Nothing is wrapped; the text ends
 * with a newline.
 *
 * Ownership: the msg is borrowed; text is appended to the caller's sbuf,
 * whose ceiling and sticky error the caller checks (sbuf.h). No state.
 */
#ifndef RENDER_TEXT_H
#define RENDER_TEXT_H

#include <stdint.h>

struct msg;
struct sbuf;

/* A reasonable ceiling for an sbuf holding one rendered message: every text
 * field of a full msg at MSG_MAX_TEXT would not fit, but no real reply
 * comes near. */
#define RENDER_TEXT_MAX (1024 * 1024)

/* The display name of a user for a mention, or NULL to leave <@ID>. The
 * returned string is borrowed until the next call. */
typedef const char *render_text_user_fn(void *ud, uint64_t user_id);

struct render_text_opts {
    render_text_user_fn *user_name;  /* may be NULL */
    void *ud;                        /* passed to user_name */
};

/* Append m as text. opts may be NULL. */
void render_text(const struct msg *m, const struct render_text_opts *opts,
                 struct sbuf *out);

/* Append the plain text of one markdown string (no newline added). */
void render_text_markdown(const char *md, const struct render_text_opts *opts,
                          struct sbuf *out);

#endif
