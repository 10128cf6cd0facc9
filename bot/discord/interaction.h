/*
 * interaction.h - INTERACTION_CREATE payloads -> struct cmd_req, and the
 * custom_id format of our buttons and select menus.
 *
 * Decoding validates every field it uses against a named limit and refuses
 * (BOT_INVALID, with a reason) anything malformed; it never crashes on bad
 * input. Slash commands (type 2) with a subcommand and typed options,
 * components (type 3: buttons and string selects) and autocomplete (type 4)
 * all become the same struct cmd_req the console builds. In a guild the
 * member's permission string becomes req.perms (perms_known = true); in a DM
 * there is no member and perms_known is false. The channels Discord
 * resolved for the options (data.resolved.channels) become req.channels:
 * their id, server (0 when Discord did not say) and type. An ATTACHMENT
 * option's value is the attachment's id; the file it names
 * (data.resolved.attachments) becomes it->att, for the daemon to download
 * (attach.h) before the command runs with req.file.
 *
 * The custom_id of our buttons and selects is the command layer's
 * (custom_id.h); a component's id is parsed into it->cid.
 *
 * Ownership: interaction_decode() takes its own reference to the payload;
 * every string in the result (req included) is borrowed from it or from the
 * struct's buffers, valid until interaction_cleanup().
 */
#ifndef INTERACTION_H
#define INTERACTION_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bot_err.h"
#include "cmd.h"
#include "custom_id.h"

#define INTERACTION_NAME_MAX CUSTOM_ID_NAME_MAX /* command, sub, option names */
#define INTERACTION_TOKEN_MAX 512        /* interaction tokens are ~200 */
#define INTERACTION_SNOWFLAKE_MAX 20     /* digits of a uint64 */
#define INTERACTION_USER_NAME_MAX 64     /* bytes; Discord caps at 32 chars */
#define INTERACTION_SELECT_VALUES_MAX 25
#define INTERACTION_NUM_TEXT 32          /* an option number as text */
/* Files one command may carry (an ATTACHMENT option): the import
 * commands take one. */
#define INTERACTION_ATTACHMENTS_MAX 1

enum interaction_type {
    INTERACTION_PING = 1,
    INTERACTION_COMMAND = 2,
    INTERACTION_COMPONENT = 3,
    INTERACTION_AUTOCOMPLETE = 4,
    INTERACTION_MODAL_SUBMIT = 5,    /* a form (interaction_modal.c) */
};

/* The file an ATTACHMENT option names, as data.resolved.attachments
 * describes it (strings borrowed from the payload). option is NULL when
 * the command carries no file. */
struct interaction_attachment {
    const char *option;                      /* the option's name */
    const char *id;
    const char *url;                         /* where to download it */
    const char *filename;
    const char *content_type;                /* NULL: Discord did not say */
    int64_t size;                            /* declared, in bytes */
};

struct interaction {
    json_t *root;                            /* owned reference */
    enum interaction_type type;
    const char *id;                          /* snowflake text */
    int64_t id_ms;                           /* when it was made, by its id
                                                (Unix ms): its age */
    const char *token;
    const char *application_id;
    struct cmd_req req;
    const char *focused;                     /* autocomplete: option typed */
    int component_type;                      /* 2 button, 3 string select */
    uint64_t message_id;                     /* components: the message the
                                                control is on, or 0 */
    struct custom_id cid;
    struct interaction_attachment att;
    char num[CMD_MAX_OPTS][INTERACTION_NUM_TEXT];
    bool answerable;                         /* decoding failed after id,
                                                token, application and a
                                                handled type were read */
};

/* Decode the d of an INTERACTION_CREATE (borrowed; a reference is taken).
 * now_ms goes into req.now_ms. BOT_OK, or BOT_INVALID with why set when
 * the payload is malformed or not one we handle: *it is cleaned up, but
 * when what names the interaction was read (it->answerable: an option
 * past its limit, an attachment of negative size) its id, token, type and
 * application id stay, so that the caller can still answer it (every
 * interaction gets an answer) and then calls interaction_cleanup(). */
enum bot_err interaction_decode(json_t *d, int64_t now_ms,
                                struct interaction *it, char *why,
                                size_t whylen);
void interaction_cleanup(struct interaction *it);

/* Within the decoder (interaction.c, interaction_modal.c; options are
 * added with cmd_req_add_opt): the attachment an option named, from
 * data.resolved; a MODAL_SUBMIT's data into it->req: the fields' values
 * become the options the typed command takes, req.form_version the
 * version of the form (-1 when its custom_id is not one of our forms',
 * which the command layer refuses). */
bool interaction__resolved_attachment(struct interaction *it, json_t *data,
                                      char *why, size_t whylen);
bool interaction__modal(struct interaction *it, json_t *data, char *why,
                        size_t whylen);

/* When Discord made the snowflake id, in Unix milliseconds (Discord's
 * clock). */
int64_t interaction_snowflake_ms(uint64_t id);
#define INTERACTION_DISCORD_EPOCH_MS INT64_C(1420070400000)

/* How long ago Discord made the decoded interaction it, at wall_ms (Unix
 * milliseconds, this host's clock): negative when this clock is behind
 * Discord's. */
static inline int64_t interaction_age_ms(const struct interaction *it,
                                         int64_t wall_ms)
{
    return wall_ms - it->id_ms;
}

#endif
