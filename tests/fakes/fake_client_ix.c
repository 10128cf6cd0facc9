/*
 * fake_client_ix.c - fakeclient helpers for the newer interface (issue 31):
 * REST calls as the bot makes them, violation counts by kind, modal
 * submits, component clicks and selections checked against the message
 * the bot sent, and context-menu commands. Blocking, for the test thread
 * (see fake_client.h for the contract and ownership).
 */
#include "fake_client.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAKE_CLIENT_PATH_MAX 1024

json_t *fake_rest(int port, const char *token, const char *method,
                  const char *path, const char *body, int *status)
{
    char auth[300], full[FAKE_CLIENT_PATH_MAX];
    struct fake_resp r;
    json_t *j = NULL;
    snprintf(auth, sizeof auth, "Authorization: Bot %s",
             token ? token : "fake-token");
    const char *const hdr[] = {
        auth, "User-Agent: DiscordBot (https://example.org, 0.1)", NULL
    };
    snprintf(full, sizeof full, "/api/v10%s", path);
    if (status)
        *status = 0;
    if (fake_request(port, method, full, hdr, body, &r) != 0) {
        fake_resp_free(&r);
        return NULL;
    }
    if (status)
        *status = r.status;
    if (r.body_len)
        j = json_loadb(r.body, r.body_len, 0, NULL);
    fake_resp_free(&r);
    return j;
}

long long fake_violations_of(int port, const char *kind)
{
    json_t *s = fake_stats(port);
    json_t *v = json_object_get(json_object_get(s, "violations_by_kind"),
                                kind);
    long long n = json_is_integer(v) ? json_integer_value(v) : 0;
    json_decref(s);
    return n;
}

/* POST desc (steals) to a control path; NULL unless 200. */
static json_t *post_desc(int port, const char *path, json_t *desc,
                         int *status)
{
    int st = 0;
    char *text = desc ? json_dumps(desc, JSON_COMPACT) : NULL;
    json_t *j = text ? fake_post_json(port, path, text, &st) : NULL;
    free(text);
    json_decref(desc);
    if (status)
        *status = st;
    if (st != 200) {
        json_decref(j);
        return NULL;
    }
    return j;
}

/* The JSON text v parsed and set as key of o (nothing when v is NULL);
 * false when v is not JSON. */
static bool set_json(json_t *o, const char *key, const char *v)
{
    json_t *j;
    if (v == NULL)
        return true;
    j = json_loads(v, JSON_DECODE_ANY, NULL);
    if (j == NULL)
        return false;
    json_object_set_new(o, key, j);
    return true;
}

json_t *fake_modal_submit(int port, const char *interaction_id,
                          const char *values_json, bool force, int *status)
{
    json_t *d = json_pack("{s:s,s:b}", "interaction", interaction_id,
                          "force", force);
    if (!set_json(d, "values", values_json)) {
        json_decref(d);
        d = NULL;
    }
    return post_desc(port, "/_test/modal_submit", d, status);
}

/* The fields of the JSON object text extra (may be NULL) over d; false
 * when extra is not an object. */
static bool merge(json_t *d, const char *extra_json)
{
    json_t *extra = extra_json ? json_loads(extra_json, 0, NULL) : NULL;
    bool ok = extra_json == NULL || json_is_object(extra);
    if (ok && extra != NULL)
        json_object_update(d, extra);
    json_decref(extra);
    return ok;
}

json_t *fake_inject_component(int port, const char *message_id,
                              const char *custom_id, const char *values_json,
                              bool forge, const char *extra_json, int *status)
{
    json_t *d = json_pack("{s:s,s:s,s:s,s:b}", "type", "component",
                          "message_id", message_id, "custom_id", custom_id,
                          "check", !forge);
    if (!set_json(d, "values", values_json) || !merge(d, extra_json)) {
        json_decref(d);
        d = NULL;
    }
    return post_desc(port, "/_test/interaction", d, status);
}

json_t *fake_inject_context_menu(int port, int command_type,
                                 const char *name, const char *target_id,
                                 const char *extra_json, int *status)
{
    json_t *d = json_pack("{s:s,s:i,s:s,s:s}", "type", "command",
                          "command_type", command_type, "name", name,
                          "target_id", target_id);
    if (!merge(d, extra_json)) {
        json_decref(d);
        d = NULL;
    }
    return post_desc(port, "/_test/interaction", d, status);
}
