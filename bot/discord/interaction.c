/*
 * interaction.c - decode INTERACTION_CREATE into the command layer's request.
 */
#include "interaction.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attach.h"
#include "cmd_table.h"
#include "custom_id.h"
#include "custom_id_req.h"
#include "snowflake.h"

enum {                        /* Discord application command option types */
    OPT_SUB_COMMAND = 1, OPT_SUB_COMMAND_GROUP = 2, OPT_STRING = 3,
    OPT_INTEGER = 4, OPT_BOOLEAN = 5, OPT_USER = 6, OPT_CHANNEL = 7,
    OPT_ROLE = 8, OPT_MENTIONABLE = 9, OPT_NUMBER = 10, OPT_ATTACHMENT = 11,
};

#define COMPONENT_BUTTON 2
#define COMPONENT_STRING_SELECT 3

int64_t interaction_snowflake_ms(uint64_t id)
{
    return (int64_t)(id >> 22) + INTERACTION_DISCORD_EPOCH_MS;
}

/* A string member of obj within max bytes, or NULL (sets why). */
static const char *get_str(json_t *obj, const char *key, size_t max,
                           bool required, char *why, size_t whylen,
                           bool *bad)
{
    json_t *v = json_object_get(obj, key);
    const char *s;

    if (!v || json_is_null(v)) {
        if (required) {
            snprintf(why, whylen, "missing %s", key);
            *bad = true;
        }
        return NULL;
    }
    s = json_string_value(v);
    if (!s) {
        snprintf(why, whylen, "%s is not a string", key);
        *bad = true;
        return NULL;
    }
    if (strlen(s) > max) {
        snprintf(why, whylen, "%s is too long (limit is %zu bytes)", key, max);
        *bad = true;
        return NULL;
    }
    return s;
}

static bool get_id(json_t *obj, const char *key, bool required, uint64_t *out,
                   char *why, size_t whylen)
{
    bool bad = false;
    const char *s = get_str(obj, key, INTERACTION_SNOWFLAKE_MAX, required,
                            why, whylen, &bad);
    if (bad)
        return false;
    if (!s) {
        *out = 0;
        return true;
    }
    if (!snowflake_parse(s, out)) {
        snprintf(why, whylen, "%s is not a snowflake", key);
        return false;
    }
    return true;
}

/* data.resolved.channels -> req.channels: the id, server and type of each
 * channel an option names, which is all the command layer may trust about
 * it (a CHANNEL option's value is only an id). */
static bool decode_resolved_channels(struct interaction *it, json_t *data,
                                     char *why, size_t whylen)
{
    json_t *chans = json_object_get(json_object_get(data, "resolved"),
                                    "channels");
    const char *key;
    json_t *c;
    if (chans == NULL)
        return true;
    if (!json_is_object(chans)) {
        snprintf(why, whylen, "resolved channels is not an object");
        return false;
    }
    if (json_object_size(chans) > CMD_MAX_CHANNELS) {
        snprintf(why, whylen, "too many resolved channels (limit is %d)",
                 CMD_MAX_CHANNELS);
        return false;
    }
    json_object_foreach(chans, key, c) {
        struct cmd_channel *out = &it->req.channels[it->req.nchannels];
        json_t *jt = json_object_get(c, "type");
        if (!json_is_object(c) || !snowflake_parse(key, &out->id) ||
            !json_is_integer(jt) || json_integer_value(jt) < 0 ||
            json_integer_value(jt) > 255) {
            snprintf(why, whylen, "a resolved channel is malformed");
            return false;
        }
        out->type = (int)json_integer_value(jt);
        if (!get_id(c, "guild_id", false, &out->guild_id, why, whylen))
            return false;
        it->req.nchannels++;
    }
    return true;
}

/* The attachment an option names -> it->att: all fray may trust about a
 * file before it downloads it (attach.h checks each of these again). */
bool interaction__resolved_attachment(struct interaction *it, json_t *data,
                                      char *why, size_t whylen)
{
    json_t *a, *size;
    bool bad = false;

    if (it->att.option == NULL)
        return true;
    a = json_object_get(json_object_get(json_object_get(data, "resolved"),
                                        "attachments"),
                        it->att.id ? it->att.id : "");
    if (!json_is_object(a)) {
        snprintf(why, whylen, "attachment %s is not resolved",
                 it->att.option);
        return false;
    }
    size = json_object_get(a, "size");
    it->att.url = get_str(a, "url", ATT_MAX_URL, true, why, whylen, &bad);
    if (!bad)
        it->att.filename = get_str(a, "filename", ATT_MAX_FILENAME, true,
                                   why, whylen, &bad);
    if (!bad)
        it->att.content_type = get_str(a, "content_type", ATT_MAX_TYPE,
                                       false, why, whylen, &bad);
    if (bad)
        return false;
    if (!json_is_integer(size) || json_integer_value(size) < 0) {
        snprintf(why, whylen, "attachment size is not a count of bytes");
        return false;
    }
    it->att.size = json_integer_value(size);
    return true;
}

/* One typed option -> text. */
static bool decode_option(struct interaction *it, json_t *o, char *why,
                          size_t whylen)
{
    json_t *jt = json_object_get(o, "type"), *val = json_object_get(o, "value");
    const char *name = json_string_value(json_object_get(o, "name"));
    char *buf = it->num[it->req.nopts < CMD_MAX_OPTS ? it->req.nopts : 0];
    const char *text = NULL;

    if (!name || !custom_id_name_ok(name, strlen(name)) || !json_is_integer(jt)) {
        snprintf(why, whylen, "option without a valid name or type");
        return false;
    }
    if (json_is_true(json_object_get(o, "focused")))
        it->focused = name;
    switch (json_integer_value(jt)) {
    case OPT_STRING: case OPT_USER: case OPT_CHANNEL: case OPT_ROLE:
    case OPT_MENTIONABLE:
        text = json_string_value(val);
        break;
    case OPT_ATTACHMENT:        /* its id; the file is in resolved */
        if (it->att.option) {
            snprintf(why, whylen, "too many attachments (limit is %d)",
                     INTERACTION_ATTACHMENTS_MAX);
            return false;
        }
        text = json_string_value(val);
        it->att.option = name;
        it->att.id = text;
        break;
    case OPT_INTEGER:
        if (json_is_integer(val)) {
            snprintf(buf, INTERACTION_NUM_TEXT, "%" JSON_INTEGER_FORMAT,
                     json_integer_value(val));
            text = buf;
        } else if (it->type == INTERACTION_AUTOCOMPLETE) {
            text = json_string_value(val);   /* partial input as typed */
        }
        break;
    case OPT_NUMBER:
        if (json_is_number(val)) {
            snprintf(buf, INTERACTION_NUM_TEXT, "%.17g",
                     json_number_value(val));
            text = buf;
        } else if (it->type == INTERACTION_AUTOCOMPLETE) {
            text = json_string_value(val);
        }
        break;
    case OPT_BOOLEAN:
        if (json_is_boolean(val))
            text = json_is_true(val) ? "true" : "false";
        break;
    default:
        snprintf(why, whylen, "option %s has unsupported type %d", name,
                 (int)json_integer_value(jt));
        return false;
    }
    if (!text) {
        snprintf(why, whylen, "option %s has a value of the wrong type",
                 name);
        return false;
    }
    return cmd_req_add_opt(&it->req, name, text, why, whylen);
}

static bool decode_options(struct interaction *it, json_t *opts, char *why,
                           size_t whylen)
{
    size_t i;
    json_t *o;

    if (!opts)
        return true;
    if (!json_is_array(opts)) {
        snprintf(why, whylen, "options is not an array");
        return false;
    }
    if (json_array_size(opts) > CMD_MAX_OPTS) {
        snprintf(why, whylen, "too many options (limit is %d)", CMD_MAX_OPTS);
        return false;
    }
    json_array_foreach(opts, i, o) {
        json_int_t t = json_integer_value(json_object_get(o, "type"));
        if (!json_is_object(o)) {
            snprintf(why, whylen, "option is not an object");
            return false;
        }
        if (t == OPT_SUB_COMMAND_GROUP) {
            snprintf(why, whylen, "subcommand groups are not used");
            return false;
        }
        if (t == OPT_SUB_COMMAND) {
            const char *sub = json_string_value(json_object_get(o, "name"));
            if (it->req.sub || json_array_size(opts) != 1 || !sub ||
                !custom_id_name_ok(sub, strlen(sub))) {
                snprintf(why, whylen, "malformed subcommand");
                return false;
            }
            it->req.sub = sub;
            if (!decode_options(it, json_object_get(o, "options"), why,
                                whylen))
                return false;
            continue;
        }
        if (!decode_option(it, o, why, whylen))
            return false;
    }
    return true;
}

static bool decode_component(struct interaction *it, json_t *data, char *why,
                             size_t whylen)
{
    bool bad = false;
    const char *cid = get_str(data, "custom_id", CUSTOM_ID_MAX,
                              true, why, whylen, &bad);
    json_t *ct = json_object_get(data, "component_type");

    if (bad)
        return false;
    if (!custom_id_parse(cid, &it->cid)) {
        snprintf(why, whylen, "custom_id is not ours");
        return false;
    }
    it->component_type = (int)json_integer_value(ct);
    if (it->component_type == COMPONENT_BUTTON)
        return custom_id_req(&it->cid, false, NULL, &it->req, why, whylen);
    if (it->component_type == COMPONENT_STRING_SELECT) {
        json_t *vals = json_object_get(data, "values");
        if (!json_is_array(vals) ||
            json_array_size(vals) > INTERACTION_SELECT_VALUES_MAX) {
            snprintf(why, whylen, "select values malformed (limit is %d)",
                     INTERACTION_SELECT_VALUES_MAX);
            return false;
        }
        const char *v[INTERACTION_SELECT_VALUES_MAX];
        int n = (int)json_array_size(vals);
        for (int i = 0; i < n; i++)
            v[i] = json_string_value(json_array_get(vals, i));
        return custom_id_req_values(&it->cid, v, n, &it->req, why, whylen);
    }
    snprintf(why, whylen, "unsupported component type %d",
             it->component_type);
    return false;
}

/* member.roles -> req.roles. A malformed or overlong list leaves the
 * roles unknown (nroles -1): nothing a role grants is then granted. */
static void decode_roles(struct interaction *it, json_t *roles)
{
    it->req.nroles = -1;
    if (!json_is_array(roles) || json_array_size(roles) > CMD_MAX_ROLES)
        return;
    for (size_t i = 0; i < json_array_size(roles); i++) {
        const char *id = json_string_value(json_array_get(roles, i));
        if (id == NULL ||
            !snowflake_parse(id, &it->req.roles[i]))
            return;
    }
    it->req.nroles = (int)json_array_size(roles);
}

/* member (guild) or user (DM): who acts, under which permissions. */
static bool decode_actor(struct interaction *it, json_t *d, char *why,
                         size_t whylen)
{
    json_t *member = json_object_get(d, "member");
    json_t *user = member ? json_object_get(member, "user")
                          : json_object_get(d, "user");
    bool bad = false;
    const char *name, *perms;

    if (!json_is_object(user)) {
        snprintf(why, whylen, "no user");
        return false;
    }
    if (!get_id(user, "id", true, &it->req.user_id, why, whylen))
        return false;
    name = member ? get_str(member, "nick", INTERACTION_USER_NAME_MAX, false,
                            why, whylen, &bad)
                  : NULL;
    if (!name || bad) {
        bad = false;
        name = get_str(user, "global_name", INTERACTION_USER_NAME_MAX, false,
                       why, whylen, &bad);
    }
    if (!name || bad) {
        bad = false;
        name = get_str(user, "username", INTERACTION_USER_NAME_MAX, true, why,
                       whylen, &bad);
        if (bad)
            return false;
    }
    it->req.user_name = name;
    it->req.perms = 0;
    it->req.perms_known = false;
    if (member) {
        perms = json_string_value(json_object_get(member, "permissions"));
        /* a permission bitfield is a decimal string of any width; we keep
         * the low 64 bits, which hold every permission we check */
        if (perms && snowflake_parse(perms, &it->req.perms))
            it->req.perms_known = true;
        decode_roles(it, json_object_get(member, "roles"));
    }
    return true;
}

/* A message's context menu (data.type 3): the menu's label becomes its
 * command (cmd_menu_command), the message req.target_message, and the
 * interaction that posted it, when the message says (its
 * interaction_metadata, or the older interaction object), option roll:
 * (cmd_rollrec.h). A message that says none is no roll of ours: the
 * command layer refuses it. */
static bool decode_menu(struct interaction *it, json_t *data, char *why,
                        size_t whylen)
{
    bool bad = false;
    const char *label = get_str(data, "name", INTERACTION_NAME_MAX, true,
                                why, whylen, &bad);
    if (bad)
        return false;
    it->req.command = cmd_menu_command(label);
    if (it->req.command == NULL) {
        snprintf(why, whylen, "no message menu is called so");
        return false;
    }
    if (!get_id(data, "target_id", true, &it->req.target_message, why,
                whylen))
        return false;
    const char *target = json_string_value(json_object_get(data,
                                                           "target_id"));
    json_t *m = json_object_get(json_object_get(json_object_get(
                                    data, "resolved"), "messages"), target);
    json_t *meta = json_object_get(m, "interaction_metadata");
    if (!json_is_object(meta))
        meta = json_object_get(m, "interaction");
    const char *posted_by = json_string_value(json_object_get(meta, "id"));
    uint64_t tmp;
    if (posted_by != NULL && strlen(posted_by) <= INTERACTION_SNOWFLAKE_MAX &&
        snowflake_parse(posted_by, &tmp))
        return cmd_req_add_opt(&it->req, "roll", posted_by, why, whylen);
    return true;
}

enum bot_err interaction_decode(json_t *d, int64_t now_ms,
                                struct interaction *it, char *why,
                                size_t whylen)
{
    json_t *data, *jt;
    bool bad = false;

    memset(it, 0, sizeof *it);
    snprintf(why, whylen, "malformed interaction");
    if (!json_is_object(d))
        goto invalid;
    it->root = json_incref(d);
    it->req.source = CMD_SRC_DISCORD;
    it->req.expect_version = -1;
    it->req.now_ms = now_ms;

    jt = json_object_get(d, "type");
    if (!json_is_integer(jt)) {
        snprintf(why, whylen, "type is not an integer");
        goto invalid;
    }
    it->type = (enum interaction_type)json_integer_value(jt);
    it->id = get_str(d, "id", INTERACTION_SNOWFLAKE_MAX, true, why, whylen,
                     &bad);
    if (bad)
        goto invalid;
    {
        uint64_t tmp;
        if (!snowflake_parse(it->id, &tmp)) {
            snprintf(why, whylen, "id is not a snowflake");
            goto invalid;
        }
        it->id_ms = interaction_snowflake_ms(tmp);
    }
    it->req.interaction_id = it->id;
    it->token = get_str(d, "token", INTERACTION_TOKEN_MAX, true, why, whylen,
                        &bad);
    if (bad)
        goto invalid;
    for (const char *c = it->token; *c; c++)
        if ((unsigned char)*c <= 0x20 || *c == '/' || *c == '?' ||
            *c == '#' || (unsigned char)*c >= 0x7f) {
            snprintf(why, whylen, "token has characters unsafe in a URL");
            goto invalid;
        }
    it->application_id = get_str(d, "application_id",
                                 INTERACTION_SNOWFLAKE_MAX, true, why, whylen,
                                 &bad);
    if (bad)
        goto invalid;
    if (it->type != INTERACTION_COMMAND && it->type != INTERACTION_COMPONENT &&
        it->type != INTERACTION_AUTOCOMPLETE &&
        it->type != INTERACTION_MODAL_SUBMIT) {
        snprintf(why, whylen, "interaction type %d is not handled",
                 (int)it->type);
        goto invalid;
    }
    if (!get_id(d, "guild_id", false, &it->req.guild_id, why, whylen) ||
        !get_id(d, "channel_id", true, &it->req.channel_id, why, whylen) ||
        !decode_actor(it, d, why, whylen))
        goto invalid;
    /* Languages: any other or missing locale reads as English; Discord
     * sends them on every interaction but PING (i18n_from_discord()). */
    it->req.lang = i18n_from_discord(
        json_string_value(json_object_get(d, "locale")));
    it->req.guild_lang = i18n_from_discord(
        json_string_value(json_object_get(d, "guild_locale")));
    /* A thread's parent: the fight it belongs to may be the parent's
     * (fthread.h). Only thread types carry one that matters. */
    json_t *chan = json_object_get(d, "channel");
    json_int_t ctype = json_integer_value(json_object_get(chan, "type"));
    if ((ctype == 10 || ctype == 11 || ctype == 12) &&
        !get_id(chan, "parent_id", false, &it->req.parent_id, why, whylen))
        goto invalid;
    const char *app = json_string_value(json_object_get(d,
                                                        "app_permissions"));
    it->req.app_perms_known = app != NULL &&
                              snowflake_parse(app, &it->req.app_perms);
    /* authorizing_integration_owners: "0" when fray is installed in the
     * server (or the bot's DM), "1" when the user installed it. Only "1":
     * no bot here, answers only through the interaction. Absent (older
     * payloads): a server install. */
    json_t *owners = json_object_get(d, "authorizing_integration_owners");
    it->req.user_install = json_is_object(owners) &&
                           json_object_get(owners, "1") != NULL &&
                           json_object_get(owners, "0") == NULL;
    json_t *lim = json_object_get(d, "attachment_size_limit");
    it->req.attach_limit = json_is_integer(lim) && json_integer_value(lim) > 0
                           ? (int64_t)json_integer_value(lim) : 0;
    if (it->req.guild_id && !json_object_get(d, "member")) {
        snprintf(why, whylen, "guild interaction without member");
        goto invalid;
    }
    data = json_object_get(d, "data");
    if (!json_is_object(data)) {
        snprintf(why, whylen, "missing data");
        goto invalid;
    }
    if (it->type == INTERACTION_MODAL_SUBMIT) {
        if (!interaction__modal(it, data, why, whylen))
            goto invalid;
    } else if (it->type == INTERACTION_COMPONENT) {
        if (!decode_component(it, data, why, whylen) ||
            !get_id(json_object_get(d, "message"), "id", false,
                    &it->message_id, why, whylen))
            goto invalid;
    } else if (it->type == INTERACTION_COMMAND &&
               json_integer_value(json_object_get(data, "type")) == 3) {
        if (!decode_menu(it, data, why, whylen))
            goto invalid;
    } else {
        const char *name = get_str(data, "name", INTERACTION_NAME_MAX, true,
                                   why, whylen, &bad);
        if (bad)
            goto invalid;
        if (!custom_id_name_ok(name, strlen(name))) {
            snprintf(why, whylen, "command name is malformed");
            goto invalid;
        }
        it->req.command = name;
        it->req.forms = it->type == INTERACTION_COMMAND;   /* cmd_form.h */
        if (!decode_options(it, json_object_get(data, "options"), why,
                            whylen) ||
            !decode_resolved_channels(it, data, why, whylen) ||
            !interaction__resolved_attachment(it, data, why, whylen))
            goto invalid;
        if (it->type == INTERACTION_AUTOCOMPLETE && !it->focused) {
            snprintf(why, whylen, "autocomplete without a focused option");
            goto invalid;
        }
    }
    why[0] = '\0';
    return BOT_OK;
invalid:
    if (it->token != NULL && it->application_id != NULL &&
        (it->type == INTERACTION_COMMAND || it->type == INTERACTION_COMPONENT ||
         it->type == INTERACTION_AUTOCOMPLETE ||
         it->type == INTERACTION_MODAL_SUBMIT)) {
        it->answerable = true;         /* root keeps id and token alive */
        return BOT_INVALID;
    }
    interaction_cleanup(it);
    return BOT_INVALID;
}

void interaction_cleanup(struct interaction *it)
{
    json_decref(it->root);
    memset(it, 0, sizeof *it);
}
