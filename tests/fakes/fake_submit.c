/*
 * fake_submit.c - what a user sends back: the MODAL_SUBMIT answering the
 * modal the bot opened, built from the values a test gives (POST
 * /_test/modal_submit; discord-interface-2026.md section 2.3), and the
 * checks of an injected component interaction against the message the
 * bot sent (section 1.5). Values the modal or message could not have
 * produced are refused unless the test forces them (forgery tests).
 */
#include "fake.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool in_options(const json_t *c, const char *v)
{
    size_t i;
    const json_t *o;
    json_array_foreach(json_object_get(c, "options"), i, o) {
        const char *ov = json_string_value(json_object_get(o, "value"));
        if (ov && strcmp(ov, v) == 0)
            return true;
    }
    return false;
}

static bool required(const json_t *c)
{
    return !json_is_false(json_object_get(c, "required"));
}

static const char *answer_input(const json_t *c, const json_t *given,
                                bool force, json_t *answer)
{
    const json_t *mn = json_object_get(c, "min_length");
    const json_t *mx = json_object_get(c, "max_length");
    const char *v = json_string_value(given);
    if (given != NULL && v == NULL && !force)
        return "a text input's value is a string";
    if (v == NULL)
        v = "";
    size_t n = fake_utf8_len(v);
    if (!force && n == 0 && required(c))
        return "a required text input was left empty";
    if (!force && n > 0 &&
        ((mn && n < (size_t)json_integer_value(mn)) ||
         n > (size_t)(mx ? json_integer_value(mx) : FAKE_INPUT_MAX)))
        return "the text is outside the input's min_length..max_length";
    if (given == NULL || json_is_string(given))
        json_object_set_new(answer, "value", json_string(v));
    else                            /* forced: as the test gave it */
        json_object_set_new(answer, "value", json_deep_copy(given));
    return NULL;
}

/* values of a select, File Upload or Checkbox Group, checked against the
 * component: count within min..max, option values known, attachments
 * registered; resolved entries added. */
static const char *answer_values(struct fake_server *s, const json_t *c,
                                 const json_t *given, bool force,
                                 json_t *answer, json_t *resolved,
                                 const char *guild)
{
    json_int_t t = json_integer_value(json_object_get(c, "type"));
    const json_t *jn = json_object_get(c, "min_values");
    const json_t *jx = json_object_get(c, "max_values");
    json_int_t def_max = t == 22 ? (json_int_t)json_array_size(
                                       json_object_get(c, "options")) : 1;
    json_int_t mn = jn ? json_integer_value(jn) : 1;
    json_int_t mx = jx ? json_integer_value(jx) : def_max;
    json_t *vals = json_is_array(given) ? json_deep_copy(given)
                                        : json_array();
    size_t n = json_array_size(vals), i;
    const json_t *v;
    if (!required(c) && jn == NULL)
        mn = 0;
    if (!force && given != NULL && !json_is_array(given)) {
        json_decref(vals);
        return "values are given as an array";
    }
    if (!force && (n == 0 ? required(c) && mn > 0
                          : (json_int_t)n < mn || (json_int_t)n > mx)) {
        json_decref(vals);
        return "the number of values is outside min_values..max_values";
    }
    json_array_foreach(vals, i, v) {
        const char *sv = json_string_value(v);
        if (!force && sv == NULL) {
            json_decref(vals);
            return "each value is a string";
        }
        if (!force && (t == 3 || t == 22) && !in_options(c, sv)) {
            json_decref(vals);
            return "a value is not among the component's options";
        }
        if (t == 19 && sv != NULL) {
            json_t *f = json_object_get(s->attachments, sv);
            if (f == NULL && !force) {
                json_decref(vals);
                return "a file upload value must be an attachment id "
                       "from POST /_test/attachment";
            }
            if (f != NULL) {
                json_t *map = json_object_get(resolved, "attachments");
                json_t *a = json_deep_copy(json_object_get(f, "object"));
                if (map == NULL) {
                    map = json_object();
                    json_object_set_new(resolved, "attachments", map);
                }
                json_object_set_new(a, "ephemeral", json_true());
                json_object_set_new(map, sv, a);
            }
        } else if (t >= 5 && t <= 8 && sv != NULL) {
            fake_ix_resolve_entity(resolved, fake_select_option_type((int)t),
                                   sv, guild);
        }
    }
    json_object_set_new(answer, "values", vals);
    return NULL;
}

static const char *answer_one(struct fake_server *s, const json_t *c,
                              const json_t *given, bool force,
                              json_t *answer, json_t *resolved,
                              const char *guild)
{
    json_int_t t = json_integer_value(json_object_get(c, "type"));
    switch (t) {
    case 4:
        return answer_input(c, given, force, answer);
    case 21: {
        const char *v = json_string_value(given);
        if (!force && given != NULL && !json_is_null(given) &&
            (v == NULL || !in_options(c, v)))
            return "a radio value is not among its options";
        if (!force && (given == NULL || json_is_null(given)) && required(c))
            return "a required radio group was left unset";
        json_object_set_new(answer, "value", given ? json_deep_copy(given)
                                                   : json_null());
        return NULL;
    }
    case 23:
        if (!force && given != NULL && !json_is_boolean(given))
            return "a checkbox's value is true or false";
        json_object_set_new(answer, "value", given ? json_deep_copy(given)
                                                   : json_false());
        return NULL;
    default:
        return answer_values(s, c, given, force, answer, resolved, guild);
    }
}

json_t *fake_modal_answers(struct fake_server *s, const json_t *modal,
                           const json_t *values, bool force,
                           const char *guild, json_t **resolved_out,
                           const char **err)
{
    json_t *out = json_array(), *resolved = json_object(), *seen =
                                                               json_object();
    const json_t *c;
    size_t i;
    int next_id = 1;
    *err = NULL;
    json_array_foreach(json_object_get(modal, "components"), i, c) {
        json_int_t t = json_integer_value(json_object_get(c, "type"));
        const json_t *child = t == 18 ? json_object_get(c, "component")
                            : t == 1 ? json_array_get(json_object_get(
                                           c, "components"), 0)
                                     : NULL;
        json_int_t id = json_integer_value(json_object_get(c, "id"));
        json_t *top = json_pack("{s:I,s:I}", "type", t, "id",
                                id ? id : (json_int_t)next_id);
        next_id = (int)(id ? id : next_id) + 1;
        if (child != NULL) {
            const char *cid = json_string_value(json_object_get(child,
                                                                "custom_id"));
            json_int_t cidn = json_integer_value(json_object_get(child,
                                                                 "id"));
            json_t *ans = json_pack("{s:I,s:I,s:s}", "type",
                                    json_integer_value(json_object_get(
                                        child, "type")),
                                    "id", cidn ? cidn : (json_int_t)next_id,
                                    "custom_id", cid ? cid : "");
            next_id = (int)(cidn ? cidn : next_id) + 1;
            if (cid != NULL)
                json_object_set_new(seen, cid, json_true());
            *err = answer_one(s, child, cid ? json_object_get(values, cid)
                                            : NULL,
                              force, ans, resolved, guild);
            if (t == 18)
                json_object_set_new(top, "component", ans);
            else
                json_object_set_new(top, "components", json_pack("[o]",
                                                                 ans));
        }
        json_array_append_new(out, top);
        if (*err != NULL)
            break;
    }
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)values, key, v)
        if (*err == NULL && !force && json_object_get(seen, key) == NULL)
            *err = "a value names a custom_id the modal does not have";
    json_decref(seen);
    if (*err != NULL) {
        json_decref(out);
        json_decref(resolved);
        return NULL;
    }
    *resolved_out = resolved;
    return out;
}

/* ---- component interactions ---- */

static void remember(json_t *cids, const json_t *c)
{
    const char *cid = json_string_value(json_object_get(c, "custom_id"));
    size_t i;
    const json_t *kid;
    if (!json_is_object(c))
        return;
    if (cid != NULL)
        json_object_set_new(cids, cid, json_deep_copy(c));
    json_array_foreach(json_object_get(c, "components"), i, kid)
        remember(cids, kid);
    remember(cids, json_object_get(c, "accessory"));
}

void fake_msg_remember(struct fake_server *s, const json_t *m)
{
    const char *mid = json_string_value(json_object_get(m, "id"));
    json_t *cids;
    size_t i;
    const json_t *c;
    if (mid == NULL)
        return;
    cids = json_object_get(s->msg_cids, mid);
    if (cids == NULL) {
        cids = json_object();
        json_object_set_new(s->msg_cids, mid, cids);
    }
    json_array_foreach(json_object_get(m, "components"), i, c)
        remember(cids, c);
}

static void resolve_values(json_t *data, int ct, const json_t *values,
                           const char *guild)
{
    int opt = fake_select_option_type(ct);
    size_t i;
    const json_t *v;
    if (opt == 0 || json_array_size(values) == 0)
        return;
    json_t *resolved = json_object_get(data, "resolved");
    if (resolved == NULL) {
        resolved = json_object();
        json_object_set_new(data, "resolved", resolved);
    }
    json_array_foreach(values, i, v)
        fake_ix_resolve_entity(resolved, opt, json_string_value(v), guild);
}

/* A select's values as a user could pick them from component c. */
static const char *check_picks(const json_t *c, const json_t *values)
{
    json_int_t t = json_integer_value(json_object_get(c, "type"));
    const json_t *jn = json_object_get(c, "min_values");
    const json_t *jx = json_object_get(c, "max_values");
    json_int_t mn = jn ? json_integer_value(jn) : 1;
    json_int_t mx = jx ? json_integer_value(jx) : 1;
    size_t i;
    const json_t *v;
    if (!json_is_array(values))
        return "a select sends values (an array)";
    if ((json_int_t)json_array_size(values) < mn ||
        (json_int_t)json_array_size(values) > mx)
        return "the number of values is outside min_values..max_values";
    json_array_foreach(values, i, v) {
        if (!json_is_string(v))
            return "each value is a string";
        if (t == 3 && !in_options(c, json_string_value(v)))
            return "a value is not among the select's options";
    }
    return NULL;
}

const char *fake_ix_component_message(struct fake_server *s,
                                      const json_t *desc)
{
    const char *mid = json_string_value(json_object_get(desc, "message_id"));
    if (!json_is_true(json_object_get(desc, "check")))
        return NULL;
    if (mid == NULL || json_object_get(s->msg_cids, mid) == NULL)
        return "check: message_id must name a message the bot sent";
    if (json_object_get(s->messages, mid) == NULL)
        return "check: that message was deleted";
    return NULL;
}

const char *fake_ix_component_check(struct fake_server *s,
                                    const json_t *desc, json_t *ix,
                                    json_t *data)
{
    const json_t *values = json_object_get(desc, "values");
    const char *guild = json_string_value(json_object_get(ix, "guild_id"));
    json_int_t ct = json_integer_value(json_object_get(data,
                                                       "component_type"));
    if (!json_is_true(json_object_get(desc, "check"))) {
        resolve_values(data, (int)ct, values, guild);
        return NULL;
    }
    const char *mid = json_string_value(json_object_get(desc, "message_id"));
    const char *cid = json_string_value(json_object_get(data, "custom_id"));
    const json_t *cids = mid ? json_object_get(s->msg_cids, mid) : NULL;
    if (cids == NULL)
        return "check: message_id must name a message the bot sent";
    const json_t *c = json_object_get(cids, cid);
    if (c == NULL)
        return "check: the custom_id is not on that message";
    json_int_t t = json_integer_value(json_object_get(c, "type"));
    if (json_object_get(desc, "component_type") != NULL && ct != t)
        return "check: component_type is not the component's type";
    json_object_set_new(data, "component_type", json_integer(t));
    if (json_is_true(json_object_get(c, "disabled")))
        return "check: a disabled component cannot be used";
    if (t == 2) {
        json_int_t style = json_integer_value(json_object_get(c, "style"));
        if (style == 5 || style == 6)
            return "check: a link or premium button sends no interaction";
        if (values != NULL)
            return "check: a button sends no values";
        return NULL;
    }
    const char *why = check_picks(c, values);
    if (why != NULL)
        return why;
    resolve_values(data, (int)t, values, guild);
    return NULL;
}

/* ---- modal submits ---- */

json_t *fake_ix_modal_data(struct fake_server *s, const json_t *desc,
                           json_t *ix)
{
    const char *cid = json_string_value(json_object_get(desc, "custom_id"));
    const json_t *comps = json_object_get(desc, "components");
    const json_t *res = json_object_get(desc, "resolved");
    const char *mid = json_string_value(json_object_get(desc, "message_id"));
    const json_t *m = mid ? json_object_get(s->messages, mid) : NULL;
    json_t *data = json_pack("{s:s,s:o}", "custom_id", cid ? cid : "modal",
                             "components", json_is_array(comps)
                                               ? json_deep_copy(comps)
                                               : json_array());
    if (json_is_object(res))
        json_object_set_new(data, "resolved", json_deep_copy(res));
    if (m != NULL)
        json_object_set_new(ix, "message", json_deep_copy(m));
    return data;
}

json_t *fake_modal_submit_build(struct fake_server *s, const json_t *body,
                                long *ix_out, int *status, const char **err)
{
    const char *which = json_string_value(json_object_get(body,
                                                          "interaction"));
    const struct fake_ix *x = which ? fake_ix_find(s, which) : NULL;
    const json_t *values = json_object_get(body, "values");
    bool force = json_is_true(json_object_get(body, "force"));
    json_t *resolved = NULL;
    char id[24], token[128], hex[49];

    *status = 400;
    if (x == NULL) {
        *status = 404;
        *err = "interaction names no interaction the fake sent";
        return NULL;
    }
    if (x->callback == NULL || x->cb_type != 9 || x->payload == NULL) {
        *status = 409;
        *err = "that interaction was not answered with a modal";
        return NULL;
    }
    if (values != NULL && !json_is_object(values)) {
        *err = "values is an object: custom_id -> value";
        return NULL;
    }
    const json_t *modal = json_object_get(x->callback, "data");
    const char *guild = json_string_value(json_object_get(x->payload,
                                                          "guild_id"));
    json_t *empty = json_object();
    json_t *comps = fake_modal_answers(s, modal, values ? values : empty,
                                       force, guild, &resolved, err);
    json_decref(empty);
    if (comps == NULL)
        return NULL;
    json_t *ix = json_deep_copy(x->payload);
    json_object_del(ix, "id");
    json_object_del(ix, "token");
    json_object_set_new(ix, "type", json_integer(5));
    json_t *data = json_pack("{s:O,s:o}", "custom_id",
                             json_object_get(modal, "custom_id"),
                             "components", comps);
    if (json_object_size(resolved) > 0)
        json_object_set_new(data, "resolved", resolved);
    else
        json_decref(resolved);
    json_object_set_new(ix, "data", data);
    /* opened from a component: the message as it is now */
    const char *mid = json_string_value(json_object_get(
        json_object_get(x->payload, "message"), "id"));
    const json_t *m = mid ? json_object_get(s->messages, mid) : NULL;
    if (m != NULL)
        json_object_set_new(ix, "message", json_deep_copy(m));
    fake_snowflake(s, id);
    fake_random_hex(s, hex, 48);
    snprintf(token, sizeof token, "aW50ZXJhY3Rpb246%s%s", id, hex);
    *status = 200;
    return fake_ix_register(s, ix, id, token, ix_out, err);
}
