/*
 * ix_record_util.h - helpers of the daemon tests that drive fray's
 * interactions through fake-discord and read whole callback records (with
 * original_message_id, the message the answer made): slash commands, the
 * answer's data, whether it was private, and a select's choice checked by
 * the fake against the message fray sent (test_daemon_pickers.c,
 * test_daemon_ctxmenu.c). Header-only (static inline); include after
 * daemon_harness.h.
 */
#ifndef IX_RECORD_UTIL_H
#define IX_RECORD_UTIL_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon_harness.h"

#define EPHEMERAL 64         /* a message's flag: only its user sees it */
#define STRING_SELECT 3      /* a component's type */

/* Inject desc (taken); the whole callback record (caller decrefs). */
static inline json_t *interact(struct harness *h, json_t *desc)
{
    char *text = json_dumps(desc, JSON_COMPACT);
    json_decref(desc);
    assert_non_null(text);
    json_t *r = fake_inject(h->fake.port, text);
    if (r == NULL)
        fail_msg("fake-discord refused %s", text);
    free(text);
    json_t *cb = harness_callback(h, json_string_value(json_object_get(r,
                                                                       "id")));
    json_decref(r);
    return cb;
}

static inline json_t *command(struct harness *h, const char *user, const char *name,
                       json_t *opts)
{
    return interact(h, json_pack("{s:s, s:s, s:s, s:o}", "type", "command",
                                 "name", name, "user_id", user, "options",
                                 opts ? opts : json_array()));
}

static inline json_t *combat(struct harness *h, const char *user, const char *sub,
                      json_t *opts)
{
    return command(h, user, "combat",
                   json_pack("[{s:s, s:o}]", "name", sub, "options",
                             opts ? opts : json_array()));
}

static inline json_t *data_of(json_t *cb)
{
    return json_object_get(json_object_get(cb, "body"), "data");
}

static inline bool ephemeral(json_t *cb)
{
    return (json_integer_value(json_object_get(data_of(cb), "flags")) &
            EPHEMERAL) != 0;
}

static inline void ok(json_t *cb)
{
    if (ephemeral(cb)) {
        char *s = json_dumps(cb, 0);
        fail_msg("command refused: %s", s);
    }
    json_decref(cb);
}

/* The one string select of a callback's message, or fail. */
static inline json_t *select_of(json_t *cb)
{
    json_t *rows = json_object_get(data_of(cb), "components");
    for (size_t i = 0; i < json_array_size(rows); i++) {
        json_t *cs = json_object_get(json_array_get(rows, i), "components");
        for (size_t k = 0; k < json_array_size(cs); k++) {
            json_t *c = json_array_get(cs, k);
            if (json_integer_value(json_object_get(c, "type")) ==
                STRING_SELECT)
                return c;
        }
    }
    char *s = json_dumps(cb, 0);
    fail_msg("no select in %s", s);
    return NULL;
}

/* Choose values (a JSON array) on the picker of record pick as user
 * (checked by the fake against the message fray sent: among its options,
 * within its min and max, unless forge); the answer's record. */
static inline json_t *choose_values(struct harness *h, json_t *pick,
                                    const char *cid, const char *values,
                                    const char *user, bool forge)
{
    const char *mid = json_string_value(json_object_get(
        pick, "original_message_id"));
    char extra[96];
    int st = 0;
    assert_non_null(mid);
    snprintf(extra, sizeof extra,
             "{\"user_id\":\"%s\",\"component_type\":3}", user);
    json_t *r = fake_inject_component(h->fake.port, mid, cid, values, forge,
                                      extra, &st);
    if (r == NULL || st != 200)
        fail_msg("fake-discord refused the choice %s (status %d)", values,
                 st);
    json_t *cb = harness_callback(h, json_string_value(json_object_get(r,
                                                                       "id")));
    json_decref(r);
    return cb;
}

/* Choose value alone, as choose_values(). */
static inline json_t *choose(struct harness *h, json_t *pick,
                             const char *cid, const char *value,
                             const char *user, bool forge)
{
    char values[160];
    snprintf(values, sizeof values, "[\"%s\"]", value);
    return choose_values(h, pick, cid, values, user, forge);
}

static inline const char *cid_of(json_t *pick)
{
    return json_string_value(json_object_get(select_of(pick), "custom_id"));
}

#endif
