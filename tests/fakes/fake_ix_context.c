/*
 * fake_ix_context.c - where an injected interaction comes from and what it
 * targets (discord-interface-2026.md sections 3.2 to 3.4): guild or user
 * installs and the context (guild, the bot's DM, another DM or group DM)
 * with the authorizing_integration_owners, context and app_permissions
 * Discord sets; context-menu commands (USER, MESSAGE) with their target
 * resolved; the interaction_metadata of messages made in answer.
 */
#include "fake.h"

#include <stdio.h>
#include <string.h>

/* app_permissions of a user-only install (section 3.4): in DMs and group
 * DMs ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE, in the bot's own DM
 * also USE_EXTERNAL_EMOJIS (the tutorial's value). In a server the bot is
 * not in the docs give no value; we use the DM one (our reading). */
#define FAKE_PERMS_USER_DM      "180224"
#define FAKE_PERMS_USER_BOT_DM  "442368"

static const char *user_id(const json_t *ix)
{
    const json_t *u = json_object_get(ix, "user");
    if (u == NULL)
        u = json_object_get(json_object_get(ix, "member"), "user");
    return json_string_value(json_object_get(u, "id"));
}

const char *fake_ix_install(struct fake_server *s, const json_t *desc,
                            json_t *ix)
{
    const char *install = json_string_value(json_object_get(desc,
                                                            "install"));
    const json_t *jc = json_object_get(desc, "context");
    const char *guild = json_string_value(json_object_get(ix, "guild_id"));
    const char *chan = json_string_value(json_object_get(ix, "channel_id"));
    const char *perms = json_string_value(json_object_get(desc,
                                                          "app_permissions"));
    json_int_t ctx = jc ? json_integer_value(jc) : guild ? 0 : 1;
    bool by_guild, by_user;

    if (install == NULL)
        install = "guild";
    by_guild = strcmp(install, "guild") == 0 || strcmp(install, "both") == 0;
    by_user = strcmp(install, "user") == 0 || strcmp(install, "both") == 0;
    if (!by_guild && !by_user)
        return "install is guild, user or both";
    if (jc != NULL && (!json_is_integer(jc) || ctx < 0 || ctx > 2))
        return "context is 0 (guild), 1 (the bot's DM) or 2 (other DMs)";
    if (ctx == 2 && !by_user)
        return "context 2 (PRIVATE_CHANNEL) needs a user install";
    json_t *owners = json_object();
    if (by_guild && ctx != 2)       /* "0": the guild, or "0" in the DM */
        json_object_set_new(owners, "0", json_string(ctx == 0 && guild
                                                         ? guild : "0"));
    if (by_user)
        json_object_set_new(owners, "1", json_string(user_id(ix)));
    json_object_set_new(ix, "authorizing_integration_owners", owners);
    json_object_set_new(ix, "context", json_integer(ctx));
    if (by_user && !by_guild) {
        if (perms == NULL)
            perms = ctx == 1 ? FAKE_PERMS_USER_BOT_DM : FAKE_PERMS_USER_DM;
        /* a server the bot is not in: no Create Message there */
        if (ctx == 0 && chan != NULL)
            json_object_set_new(s->foreign, chan, json_true());
    } else if (by_guild && ctx == 0 && chan != NULL) {
        json_object_del(s->foreign, chan);  /* the bot is there after all */
    }
    if (perms != NULL)
        json_object_set_new(ix, "app_permissions", json_string(perms));
    return NULL;
}

static json_t *resolved_of(json_t *data)
{
    json_t *r = json_object_get(data, "resolved");
    if (!json_is_object(r)) {
        r = json_object();
        json_object_set_new(data, "resolved", r);
    }
    return r;
}

const char *fake_ix_context_menu(struct fake_server *s, const json_t *desc,
                                 json_t *ix, json_t *data)
{
    const char *target = json_string_value(json_object_get(desc,
                                                           "target_id"));
    json_int_t type = json_integer_value(json_object_get(data, "type"));
    const char *guild = json_string_value(json_object_get(ix, "guild_id"));
    if (target == NULL)
        return "a USER or MESSAGE command needs a target_id";
    if (json_object_get(desc, "options") != NULL)
        return "context-menu commands have no options";
    json_object_set_new(data, "target_id", json_string(target));
    json_t *resolved = resolved_of(data);
    if (type == 2) {
        json_t *users = json_object_get(resolved, "users");
        if (json_object_get(users, target) == NULL)
            fake_ix_resolve_entity(resolved, 6, target, guild);
        return NULL;
    }
    /* the partial message: as the fake recorded it (the bot's own), or
     * as the test describes another user's */
    const json_t *m = json_object_get(desc, "target_message");
    if (!json_is_object(m))
        m = json_object_get(s->messages, target);
    if (m == NULL)
        return "the target message is unknown: give target_message";
    json_t *msgs = json_object_get(resolved, "messages");
    if (msgs == NULL) {
        msgs = json_object();
        json_object_set_new(resolved, "messages", msgs);
    }
    json_t *copy = json_deep_copy(m);
    json_object_set_new(copy, "id", json_string(target));
    json_object_set_new(msgs, target, copy);
    return NULL;
}

json_t *fake_ix_metadata(const struct fake_ix *x)
{
    const json_t *p = x->payload;
    if (p == NULL)
        return NULL;
    const json_t *u = json_object_get(p, "user");
    if (u == NULL)
        u = json_object_get(json_object_get(p, "member"), "user");
    const json_t *data = json_object_get(p, "data");
    json_t *md = json_pack("{s:s,s:i,s:O?,s:O?}", "id", x->id, "type",
                           x->type, "user", u,
                           "authorizing_integration_owners",
                           json_object_get(p,
                                           "authorizing_integration_owners"));
    const char *target = json_string_value(json_object_get(data,
                                                           "target_id"));
    json_int_t ctype = json_integer_value(json_object_get(data, "type"));
    if (x->type == 2 && target && ctype == 2)
        json_object_set(md, "target_user", json_object_get(json_object_get(
                            json_object_get(data, "resolved"), "users"),
                            target));
    else if (x->type == 2 && target && ctype == 3)
        json_object_set_new(md, "target_message_id", json_string(target));
    const char *mid = json_string_value(json_object_get(
        json_object_get(p, "message"), "id"));
    if (x->type == 3 && mid != NULL)
        json_object_set_new(md, "interacted_message_id", json_string(mid));
    return md;
}
