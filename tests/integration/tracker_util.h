/*
 * tracker_util.h - helpers for the live-tracker integration tests (one
 * channel, a GM and two players, fake-discord's records of what fray sent).
 * Static inline so each test file uses only what it needs.
 */
#ifndef TRACKER_UTIL_H
#define TRACKER_UTIL_H

#include "support.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "daemon_harness.h"

#define GM "1100000000000000301"
#define ALICE "1100000000000000302"
#define BOB "1100000000000000303"
#define CHANNEL "1100000000000000200"
#define DM_CHANNEL "1100000000000000999"
#define WAIT_MS 4000

/* Run /combat <sub> as user with options (a JSON array, stolen; NULL for
 * none); returns the callback body. */
static inline json_t *combat(struct harness *h, const char *user,
                             const char *sub,
                      json_t *opts)
{
    json_t *desc = json_pack("{s:s, s:s, s:s, s:[{s:s, s:o}]}", "type",
                             "command", "name", "combat", "user_id", user,
                             "options", "name", sub, "options",
                             opts ? opts : json_array());
    json_t *cb = harness_interact(h, desc);
    json_decref(desc);
    return cb;
}

/* The same, sent in channel (NULL: the default one) by user whose display
 * name is gname (NULL: the fake's default). */
static inline json_t *combat_in(struct harness *h, const char *channel,
                                const char *user, const char *gname,
                                const char *sub, json_t *opts)
{
    json_t *desc = json_pack("{s:s, s:s, s:s, s:[{s:s, s:o}]}", "type",
                             "command", "name", "combat", "user_id", user,
                             "options", "name", sub, "options",
                             opts ? opts : json_array());
    if (channel != NULL)
        json_object_set_new(desc, "channel_id", json_string(channel));
    if (gname != NULL)
        json_object_set_new(desc, "global_name", json_string(gname));
    json_t *cb = harness_interact(h, desc);
    json_decref(desc);
    return cb;
}

static inline void ok(json_t *cb)
{
    json_t *data = json_object_get(cb, "data");
    if (json_integer_value(json_object_get(data, "flags")) & 64) {
        char *s = json_dumps(cb, 0);
        fail_msg("command refused: %s", s);
    }
    json_decref(cb);
}

/* GM starts a generic fight: two goblins, Aria (Alice, acts first: init
 * =30) and Bryn (Bob), then begins it. */
static inline void fight(struct harness *h, const char *system)
{
    ok(combat(h, GM, "start", json_pack("[{s:s,s:s}]", "name", "system",
                                        "value", system)));
    ok(combat(h, GM, "add", json_pack("[{s:s,s:s},{s:s,s:i},{s:s,s:i},"
                                      "{s:s,s:s}]",
                                      "name", "name", "value", "Goblin",
                                      "name", "count", "value", 2,
                                      "name", "hp", "value", 7,
                                      "name", "init", "value", "=5")));
    ok(combat(h, ALICE, "join", json_pack("[{s:s,s:s},{s:s,s:i},{s:s,s:s}]",
                                          "name", "name", "value", "Aria",
                                          "name", "hp", "value", 20,
                                          "name", "init", "value", "=30")));
    ok(combat(h, BOB, "join", json_pack("[{s:s,s:s},{s:s,s:i},{s:s,s:s}]",
                                        "name", "name", "value", "Bryn",
                                        "name", "hp", "value", 18,
                                        "name", "init", "value", "=20")));
}

/* Every Text Display's content under components c, a line each. */
static inline void v2_text(json_t *c, char *out, size_t cap, size_t *at)
{
    size_t i;
    json_t *k;
    json_array_foreach(c, i, k) {
        const char *t = json_string_value(json_object_get(k, "content"));
        if (json_integer_value(json_object_get(k, "type")) == 10 && t &&
            *at < cap) {
            int n = snprintf(out + *at, cap - *at, "%s\n", t);
            *at += n > 0 ? (size_t)n : 0;
        }
        v2_text(json_object_get(k, "components"), out, cap, at);
    }
}

/* The tracker's text in a request body or a message: a V2 tracker's Text
 * Displays (title, where the fight stands, a row each), or a classic
 * one's embed (title, description, footer). */
static inline void embed_text(json_t *body, char *out, size_t cap)
{
    if (json_integer_value(json_object_get(body, "flags")) & 32768) {
        size_t at = 0;
        out[0] = '\0';
        v2_text(json_object_get(body, "components"), out, cap, &at);
        return;
    }
    json_t *e = json_array_get(json_object_get(body, "embeds"), 0);
    snprintf(out, cap, "%s\n%s\n%s",
             json_string_value(json_object_get(e, "title")),
             json_string_value(json_object_get(e, "description")),
             json_string_value(json_object_get(json_object_get(e, "footer"),
                                               "text")));
}

/* Whether text has needle; "@Name" means: Name's turn is running (the
 * tracker line with the turn marker names them). */
static inline bool shows(const char *text, const char *needle)
{
    if (needle[0] != '@')
        return strstr(text, needle) != NULL;
    const char *cur = strstr(text, "\xE2\x96\xB6 ");
    char name[80];
    snprintf(name, sizeof name, "**%s**", needle + 1);
    if (cur == NULL)
        return false;
    const char *eol = strchr(cur, '\n');
    const char *hit = strstr(cur, name);
    return hit != NULL && (eol == NULL || hit < eol);
}

/* Wait for an edit of the tracker whose embed shows needle. */
static inline json_t *wait_edit(struct harness *h, const char *msg_id,
                         long long *since, const char *needle)
{
    char part[96], text[8192];
    snprintf(part, sizeof part, "/channels/" CHANNEL "/messages/%s", msg_id);
    for (;;) {
        json_t *r = harness_wait_request(h, "PATCH", part, since, WAIT_MS);
        if (!r) {
            harness_dump_log(h);
            fail_msg("no tracker edit showing \"%s\"", needle);
        }
        embed_text(json_object_get(r, "body"), text, sizeof text);
        if (shows(text, needle)) {
            assert_int_equal(json_integer_value(json_object_get(r, "status")),
                             200);
            return r;
        }
        json_decref(r);
    }
}

/* Begin the fight and return the tracker's message id (static buffer). */
static inline const char *begin(struct harness *h, long long *since)
{
    static char id[32];
    ok(combat(h, GM, "begin", NULL));
    json_t *post = harness_wait_request(h, "POST", "/channels/" CHANNEL
                                        "/messages", since, WAIT_MS);
    assert_non_null(post);
    assert_int_equal(json_integer_value(json_object_get(post, "status")), 200);
    snprintf(id, sizeof id, "%s", json_string_value(json_object_get(
                 json_object_get(post, "response"), "id")));
    json_decref(post);
    return id;
}

/* The message as fake-discord holds it now. */
static inline json_t *message(struct harness *h, const char *id)
{
    json_t *all = fake_get_json(h->fake.port, "/_test/messages?channel_id="
                                CHANNEL, NULL), *m;
    size_t i;
    json_array_foreach(all, i, m) {
        if (strcmp(json_string_value(json_object_get(m, "id")), id) == 0) {
            json_incref(m);
            json_decref(all);
            return m;
        }
    }
    json_decref(all);
    return NULL;
}

/* The first component under comps (rows, a V2 container, sections and
 * their accessories) of type (2 button, 3 select) whose label is label
 * (NULL: any), or NULL. */
static inline json_t *component_find(json_t *comps, int type,
                                     const char *label)
{
    json_t *c;
    size_t i;
    json_array_foreach(comps, i, c) {
        const char *l = json_string_value(json_object_get(c, "label"));
        if (json_integer_value(json_object_get(c, "type")) == type &&
            (label == NULL || (l && strcmp(l, label) == 0)))
            return c;
        json_t *acc = json_object_get(c, "accessory");
        if (acc != NULL) {
            json_t *one = json_pack("[O]", acc);
            json_t *hit = component_find(one, type, label);
            json_decref(one);        /* acc lives on in c */
            if (hit != NULL)
                return hit;
        }
        json_t *in = component_find(json_object_get(c, "components"), type,
                                    label);
        if (in != NULL)
            return in;
    }
    return NULL;
}

/* The custom_id of the button labelled label on message m (a classic
 * message's rows, or anywhere in a V2 one), or NULL. */
static inline const char *button(json_t *m, const char *label)
{
    json_t *c = component_find(json_object_get(m, "components"), 2, label);
    return c ? json_string_value(json_object_get(c, "custom_id")) : NULL;
}

static inline json_t *click(struct harness *h, const char *user,
                            const char *msg_id,
                     const char *custom_id, const char *value)
{
    json_t *desc = json_pack("{s:s, s:s, s:s, s:s, s:i}", "type",
                             "component", "user_id", user, "message_id",
                             msg_id, "custom_id", custom_id,
                             "component_type", value ? 3 : 2);
    if (value)
        json_object_set_new(desc, "values", json_pack("[s]", value));
    json_t *cb = harness_interact(h, desc);
    json_decref(desc);
    return cb;
}

/* Start fray and fake-discord (installing fault, a fake-discord fault in
 * JSON, first, unless NULL), set up the generic fight and begin it: tid
 * gets the tracker's message id, *since the last request seen. */
static inline void start_fight(struct harness *h, const char *fault,
                               long long *since, char tid[32])
{
    harness_start(h, NULL, NULL, true);
    if (fault != NULL)
        assert_int_equal(fake_fault(h->fake.port, fault), 200);
    *since = harness_last_request(h);
    fight(h, "generic");
    snprintf(tid, 32, "%s", begin(h, since));
}

/* A callback's content and flags (64: only the sender sees it). */
static inline const char *content_of(json_t *cb)
{
    return json_string_value(json_object_get(json_object_get(cb, "data"),
                                             "content"));
}

static inline long long flags_of(json_t *cb)
{
    return json_integer_value(json_object_get(json_object_get(cb, "data"),
                                              "flags"));
}

/* The embeds' titles and descriptions of a callback, as one text. */
static inline void embeds_text(json_t *cb, char *out, size_t cap)
{
    json_t *e;
    size_t i, n = 0;
    out[0] = '\0';
    json_array_foreach(json_object_get(json_object_get(cb, "data"),
                                       "embeds"), i, e) {
        int w = snprintf(out + n, cap - n, "%s\n%s\n",
                         json_string_value(json_object_get(e, "title")),
                         json_string_value(json_object_get(e,
                                                           "description")));
        if (w < 0 || (size_t)w >= cap - n)
            break;
        n += (size_t)w;
    }
}

/* Run /name with options (stolen; NULL: none) as Alice in a DM with the
 * bot; returns the callback body. */
static inline json_t *dm(struct harness *h, const char *name, json_t *opts)
{
    json_t *desc = json_pack("{s:s, s:s, s:s, s:b, s:s, s:o}", "type",
                             "command", "name", name, "user_id", ALICE,
                             "dm", 1, "channel_id", DM_CHANNEL,
                             "options", opts ? opts : json_array());
    json_t *cb = harness_interact(h, desc);
    json_decref(desc);
    return cb;
}

#endif
