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
 * custom_id format (the one place it is defined; cmd builds ids with
 * interaction_custom_id_make()):
 *
 *     v2:<command>[/<sub>]:<fight>.<version>[:<arg>]
 *
 *   command, sub  names from the command table ([a-z0-9_-], <= 32 bytes)
 *   fight         the fight the message belongs to (struct encounter
 *                 fight_id, decimal); becomes req.expect_fight, so a button
 *                 left over from an earlier fight in the channel does
 *                 nothing to the next one
 *   version       the encounter version the message showed (decimal >= 0);
 *                 becomes req.expect_version, so a click on a stale tracker
 *                 is refused instead of applied to a newer state
 *   arg           buttons: "name=value" sets one option;
 *                 selects: "name": the chosen value fills that option
 *
 *   e.g. "v2:combat/next:17.42", "v2:attack:17.42:target" (a select),
 *        "v2:combat/remove:17.7:name=Goblin 2"
 *
 *   Buttons drawn before fights had ids read "v1:<command>[/<sub>]:
 *   <version>[:<arg>]"; they parse with fight 0, which only a fight that
 *   started before then has.
 *   The whole id is at most INTERACTION_CUSTOM_ID_MAX (100) bytes.
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

#define INTERACTION_CUSTOM_ID_MAX 100
#define INTERACTION_NAME_MAX 32          /* command, sub, option names */
#define INTERACTION_TOKEN_MAX 512        /* interaction tokens are ~200 */
#define INTERACTION_SNOWFLAKE_MAX 20     /* digits of a uint64 */
#define INTERACTION_USER_NAME_MAX 64     /* bytes; Discord caps at 32 chars */
#define INTERACTION_SELECT_VALUES_MAX 25
#define INTERACTION_NUM_TEXT 32          /* an option number as text */
/* Files one command may carry (an ATTACHMENT option): the import
 * commands take one. */
#define INTERACTION_ATTACHMENTS_MAX 1
#define INTERACTION_CUSTOM_ID_PREFIX "v2"
#define INTERACTION_CUSTOM_ID_OLD "v1"

enum interaction_type {
    INTERACTION_PING = 1,
    INTERACTION_COMMAND = 2,
    INTERACTION_COMPONENT = 3,
    INTERACTION_AUTOCOMPLETE = 4,
};

struct interaction_custom_id {
    char command[INTERACTION_NAME_MAX + 1];
    char sub[INTERACTION_NAME_MAX + 1];      /* "" when none */
    uint64_t fight;                          /* 0 in an old (v1) id */
    int64_t version;
    char opt_name[INTERACTION_NAME_MAX + 1]; /* "" when no arg */
    char opt_value[INTERACTION_CUSTOM_ID_MAX + 1];
    bool has_value;                          /* arg was "name=value" */
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
    struct interaction_custom_id cid;
    struct interaction_attachment att;
    char num[CMD_MAX_OPTS][INTERACTION_NUM_TEXT];
};

/* Decode the d of an INTERACTION_CREATE (borrowed; a reference is taken).
 * now_ms goes into req.now_ms. BOT_OK, or BOT_INVALID with why set (and
 * *it cleaned up) when the payload is malformed or not one we handle. */
enum bot_err interaction_decode(json_t *d, int64_t now_ms,
                                struct interaction *it, char *why,
                                size_t whylen);
void interaction_cleanup(struct interaction *it);

/* Build a custom_id for fight into out[cap]. sub, opt_name, opt_value may
 * be NULL.
 * Returns false when a part is invalid or the id would exceed the limit. */
bool interaction_custom_id_make(char *out, size_t cap, const char *command,
                                const char *sub, uint64_t fight,
                                int64_t version, const char *opt_name,
                                const char *opt_value);

/* Parse a custom_id. Returns false (out unspecified) when malformed. */
bool interaction_custom_id_parse(const char *s,
                                 struct interaction_custom_id *out);

/* A decimal snowflake string -> uint64 (1..20 digits, no sign, no junk). */
bool interaction_snowflake(const char *s, uint64_t *out);

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
