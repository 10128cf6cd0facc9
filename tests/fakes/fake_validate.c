/*
 * fake_validate.c - message bodies and interaction callbacks checked the way
 * Discord checks them: content, embed and component limits produce a 50035
 * "Invalid Form Body" error tree (errors.<path>._errors[{code,message}]);
 * allowed_mentions is checked for the project-wide rule (a violation, not an
 * HTTP error: Discord itself would accept the body). The Components V2
 * rules are fake_components.c's and the modal's fake_modal.c's; the _ex
 * forms name each of their broken rules for a violation of its own.
 */
#include "fake.h"

#include <stdio.h>
#include <string.h>

#define FAKE_MENTION_IDS_MAX 100

static void too_long(json_t *errs, const char *path, size_t max)
{
    char msg[64];
    snprintf(msg, sizeof msg, "Must be %zu or fewer in length.", max);
    fake_err_add(errs, path, "BASE_TYPE_MAX_LENGTH", msg);
}

/* Check an optional string member; adds its length to *total when given. */
static void check_str(json_t *errs, const char *path, const json_t *v,
                      size_t max, bool required, size_t *total)
{
    if (v == NULL || json_is_null(v)) {
        if (required)
            fake_err_add(errs, path, "BASE_TYPE_REQUIRED",
                         "This field is required");
        return;
    }
    if (!json_is_string(v)) {
        fake_err_add(errs, path, "BASE_TYPE_BAD_TYPE", "Must be a string.");
        return;
    }
    size_t n = fake_trimmed_len(json_string_value(v));
    if (required && n == 0)
        fake_err_add(errs, path, "BASE_TYPE_REQUIRED",
                     "This field is required");
    if (n > max)
        too_long(errs, path, max);
    if (total)
        *total += n;
}

static void check_embed(json_t *errs, const char *p, const json_t *e,
                        size_t *total)
{
    char path[96];
    if (!json_is_object(e)) {
        fake_err_add(errs, p, "MODEL_TYPE_CONVERT",
                     "Only dictionaries may be used in a ModelType");
        return;
    }
#define SUB(name) (fake_pathf(path, sizeof path, "%s.%s", p, name), path)
    check_str(errs, SUB("title"), json_object_get(e, "title"),
              FAKE_EMBED_TITLE_MAX, false, total);
    check_str(errs, SUB("description"), json_object_get(e, "description"),
              FAKE_EMBED_DESC_MAX, false, total);
    check_str(errs, SUB("footer.text"),
              json_object_get(json_object_get(e, "footer"), "text"),
              FAKE_FOOTER_MAX, json_object_get(e, "footer") != NULL, total);
    check_str(errs, SUB("author.name"),
              json_object_get(json_object_get(e, "author"), "name"),
              FAKE_AUTHOR_MAX, json_object_get(e, "author") != NULL, total);
    const json_t *fields = json_object_get(e, "fields");
    if (fields && !json_is_array(fields))
        fake_err_add(errs, SUB("fields"), "BASE_TYPE_BAD_TYPE",
                     "Must be an array.");
    if (json_array_size(fields) > FAKE_EMBED_FIELDS_MAX)
        too_long(errs, SUB("fields"), FAKE_EMBED_FIELDS_MAX);
    size_t i;
    const json_t *f;
    json_array_foreach(fields, i, f) {
        char fp[96];
        fake_pathf(fp, sizeof fp, "%s.fields.%zu.name", p, i);
        check_str(errs, fp, json_object_get(f, "name"), FAKE_FIELD_NAME_MAX,
                  true, total);
        fake_pathf(fp, sizeof fp, "%s.fields.%zu.value", p, i);
        check_str(errs, fp, json_object_get(f, "value"), FAKE_FIELD_VALUE_MAX,
                  true, total);
    }
#undef SUB
}

static void check_custom_id(json_t *errs, const char *path, const json_t *c,
                            json_t *seen)
{
    const json_t *id = json_object_get(c, "custom_id");
    check_str(errs, path, id, FAKE_CUSTOM_ID_MAX, true, NULL);
    const char *s = json_string_value(id);
    if (s == NULL)
        return;
    if (json_object_get(seen, s))
        fake_err_add(errs, path, "COMPONENT_CUSTOM_ID_DUPLICATED",
                     "Component custom id cannot be duplicated");
    json_object_set_new(seen, s, json_true());
}

static void check_select(json_t *errs, const char *p, const json_t *c,
                         json_t *seen)
{
    char path[128];
    fake_pathf(path, sizeof path, "%s.custom_id", p);
    check_custom_id(errs, path, c, seen);
    fake_pathf(path, sizeof path, "%s.placeholder", p);
    check_str(errs, path, json_object_get(c, "placeholder"),
              FAKE_PLACEHOLDER_MAX, false, NULL);
    json_t *mn = json_object_get(c, "min_values");
    json_t *mx = json_object_get(c, "max_values");
    if (mn && (json_integer_value(mn) < 0 || json_integer_value(mn) > 25)) {
        fake_pathf(path, sizeof path, "%s.min_values", p);
        fake_err_add(errs, path, "NUMBER_TYPE_MAX", "int value out of range");
    }
    if (mx && (json_integer_value(mx) < 1 || json_integer_value(mx) > 25)) {
        fake_pathf(path, sizeof path, "%s.max_values", p);
        fake_err_add(errs, path, "NUMBER_TYPE_MAX", "int value out of range");
    }
    if (json_integer_value(json_object_get(c, "type")) != 3)
        return;
    const json_t *opts = json_object_get(c, "options");
    fake_pathf(path, sizeof path, "%s.options", p);
    if (json_array_size(opts) < 1)
        fake_err_add(errs, path, "BASE_TYPE_MIN_LENGTH",
                     "Must be 1 or more in length.");
    if (json_array_size(opts) > FAKE_SELECT_OPTIONS_MAX)
        too_long(errs, path, FAKE_SELECT_OPTIONS_MAX);
    size_t i;
    const json_t *o;
    json_array_foreach(opts, i, o) {
        static const char *const keys[] = { "label", "value", "description" };
        for (size_t k = 0; k < 3; k++) {
            fake_pathf(path, sizeof path, "%s.options.%zu.%s", p, i, keys[k]);
            check_str(errs, path, json_object_get(o, keys[k]),
                      FAKE_SELECT_TEXT_MAX, k < 2, NULL);
        }
    }
}

static void check_button(json_t *errs, const char *p, const json_t *c,
                         json_t *seen)
{
    char path[128];
    json_int_t style = json_integer_value(json_object_get(c, "style"));
    fake_pathf(path, sizeof path, "%s.label", p);
    check_str(errs, path, json_object_get(c, "label"), FAKE_BUTTON_LABEL_MAX,
              false, NULL);
    if (style < 1 || style > 6) {
        fake_pathf(path, sizeof path, "%s.style", p);
        fake_err_add(errs, path, "BASE_TYPE_CHOICES",
                     "Value must be one of (1, 2, 3, 4, 5, 6).");
        return;
    }
    fake_pathf(path, sizeof path, "%s.custom_id", p);
    if (style == 5) {
        if (json_object_get(c, "custom_id"))
            fake_err_add(errs, path, "BUTTON_LINK_CUSTOM_ID",
                         "A link button cannot have a custom id");
        fake_pathf(path, sizeof path, "%s.url", p);
        check_str(errs, path, json_object_get(c, "url"), 512, true, NULL);
    } else if (style != 6) {
        check_custom_id(errs, path, c, seen);
    }
}

static void check_components(json_t *errs, const char *pfx, const json_t *rows,
                             bool v2)
{
    char path[96];
    fake_pathf(path, sizeof path, "%scomponents", pfx);
    if (!json_is_array(rows)) {
        fake_err_add(errs, path, "BASE_TYPE_BAD_TYPE", "Must be an array.");
        return;
    }
    if (v2)                     /* fake_components.c checks V2 trees */
        return;
    if (json_array_size(rows) > FAKE_ROWS_MAX)
        too_long(errs, path, FAKE_ROWS_MAX);
    json_t *seen = json_object();
    size_t i;
    const json_t *row;
    json_array_foreach(rows, i, row) {
        char rp[96];
        fake_pathf(rp, sizeof rp, "%scomponents.%zu", pfx, i);
        if (json_integer_value(json_object_get(row, "type")) != 1) {
            fake_err_add(errs, rp, "UNION_TYPE_CHOICES",
                         "Value of field \"type\" must be one of (1,).");
            continue;
        }
        const json_t *items = json_object_get(row, "components");
        size_t n = json_array_size(items);
        char cp[112];
        fake_pathf(cp, sizeof cp, "%s.components", rp);
        if (n < 1)
            fake_err_add(errs, cp, "BASE_TYPE_MIN_LENGTH",
                         "Must be 1 or more in length.");
        if (n > FAKE_ROW_BUTTONS_MAX)
            too_long(errs, cp, FAKE_ROW_BUTTONS_MAX);
        size_t j;
        const json_t *c;
        json_array_foreach(items, j, c) {
            char ip[128];
            fake_pathf(ip, sizeof ip, "%s.%zu", cp, j);
            json_int_t t = json_integer_value(json_object_get(c, "type"));
            if (t == 2) {
                check_button(errs, ip, c, seen);
            } else if (t == 3 || (t >= 5 && t <= 8)) {
                if (n != 1)
                    fake_err_add(errs, cp, "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                                 "The specified component exceeds the "
                                 "maximum width");
                check_select(errs, ip, c, seen);
            } else {
                fake_err_add(errs, ip, "UNION_TYPE_CHOICES",
                             "Value of field \"type\" must be one of "
                             "(2, 3, 5, 6, 7, 8).");
            }
        }
    }
    json_decref(seen);
}

static void check_mentions_shape(json_t *errs, const char *pfx,
                                 const json_t *am)
{
    char path[96];
    fake_pathf(path, sizeof path, "%sallowed_mentions", pfx);
    if (!json_is_object(am)) {
        fake_err_add(errs, path, "MODEL_TYPE_CONVERT",
                     "Only dictionaries may be used in a ModelType");
        return;
    }
    const json_t *parse = json_object_get(am, "parse");
    bool users = false, roles = false;
    size_t i;
    const json_t *v;
    json_array_foreach(parse, i, v) {
        const char *s = json_string_value(v);
        if (s == NULL || (strcmp(s, "users") && strcmp(s, "roles") &&
                          strcmp(s, "everyone"))) {
            char p2[112];
            fake_pathf(p2, sizeof p2, "%s.parse.%zu", path, i);
            fake_err_add(errs, p2, "BASE_TYPE_CHOICES",
                         "Value must be one of ('roles', 'users', "
                         "'everyone').");
            continue;
        }
        users |= strcmp(s, "users") == 0;
        roles |= strcmp(s, "roles") == 0;
    }
    if ((users && json_array_size(json_object_get(am, "users"))) ||
        (roles && json_array_size(json_object_get(am, "roles"))))
        fake_err_add(errs, path, "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                     "parse and an explicit list of the same type are "
                     "mutually exclusive.");
    if (json_array_size(json_object_get(am, "users")) > FAKE_MENTION_IDS_MAX ||
        json_array_size(json_object_get(am, "roles")) > FAKE_MENTION_IDS_MAX)
        too_long(errs, path, FAKE_MENTION_IDS_MAX);
}

/* m is a message body at prefix pfx; old the stored message an edit
 * changes (NULL for a create); kinds (may be NULL) gets the V2 rules
 * broken. */
static void validate_msg(json_t *errs, const char *pfx, const json_t *m,
                         bool create, bool *empty, const json_t *old,
                         json_t *kinds)
{
    char path[96];
    if (!json_is_object(m)) {
        fake_err_add(errs, pfx[0] ? "data" : "", "MODEL_TYPE_CONVERT",
                     "Only dictionaries may be used in a ModelType");
        return;
    }
    const json_t *content = json_object_get(m, "content");
    fake_pathf(path, sizeof path, "%scontent", pfx);
    if (content && !json_is_null(content)) {
        if (!json_is_string(content))
            fake_err_add(errs, path, "BASE_TYPE_BAD_TYPE",
                         "Must be a string.");
        else if (fake_utf8_len(json_string_value(content)) >
                 FAKE_MSG_CONTENT_MAX)
            too_long(errs, path, FAKE_MSG_CONTENT_MAX);
    }
    const json_t *embeds = json_object_get(m, "embeds");
    fake_pathf(path, sizeof path, "%sembeds", pfx);
    if (embeds && !json_is_null(embeds) && !json_is_array(embeds))
        fake_err_add(errs, path, "BASE_TYPE_BAD_TYPE", "Must be an array.");
    if (json_array_size(embeds) > FAKE_MSG_EMBEDS_MAX)
        too_long(errs, path, FAKE_MSG_EMBEDS_MAX);
    size_t total = 0, i;
    const json_t *e;
    json_array_foreach(embeds, i, e) {
        char ep[96];
        fake_pathf(ep, sizeof ep, "%sembeds.%zu", pfx, i);
        check_embed(errs, ep, e, &total);
    }
    if (total > FAKE_EMBED_TOTAL_MAX)
        fake_err_add(errs, path, "MAX_EMBED_SIZE_EXCEEDED",
                     "Embed size exceeds maximum size of 6000");
    const json_t *jf = json_object_get(m, "flags");
    bool v2 = (json_integer_value(jf) & FAKE_FLAG_V2) ||
              (jf == NULL && (json_integer_value(json_object_get(
                                  old, "flags")) & FAKE_FLAG_V2));
    const json_t *comps = json_object_get(m, "components");
    if (comps && !json_is_null(comps))
        check_components(errs, pfx, comps, v2);
    fake_v2_check_message(errs, kinds, pfx, m, old);
    const json_t *am = json_object_get(m, "allowed_mentions");
    if (am && !json_is_null(am))
        check_mentions_shape(errs, pfx, am);
    if (empty) {
        bool has = (json_is_string(content) &&
                    fake_trimmed_len(json_string_value(content)) > 0) ||
                   json_array_size(embeds) > 0 ||
                   json_array_size(comps) > 0 ||
                   json_array_size(json_object_get(m, "sticker_ids")) > 0 ||
                   json_array_size(json_object_get(m, "attachments")) > 0 ||
                   json_object_get(m, "poll") != NULL;
        *empty = create && !has;
    }
}

static json_t *finish(json_t *errs)
{
    if (json_object_size(errs) > 0)
        return errs;
    json_decref(errs);
    return NULL;
}

json_t *fake_validate_message(const json_t *msg, bool create, bool *empty_out)
{
    return fake_validate_message_ex(msg, NULL, create, empty_out, NULL);
}

json_t *fake_validate_message_ex(const json_t *msg, const json_t *old,
                                 bool create, bool *empty_out, json_t *kinds)
{
    json_t *errs = json_object();
    bool empty = false;
    validate_msg(errs, "", msg, create, &empty, old, kinds);
    if (empty_out)
        *empty_out = empty;
    return finish(errs);
}

void fake_check_mentions(struct fake_server *s, const json_t *msg, long req,
                         const char *where)
{
    const json_t *am = json_object_get(msg, "allowed_mentions");
    if (!json_is_object(am)) {
        fake_violation(s, "allowed_mentions_missing", req,
                       "%s without allowed_mentions", where);
        return;
    }
    size_t i;
    const json_t *v;
    json_array_foreach(json_object_get(am, "parse"), i, v) {
        const char *p = json_string_value(v);
        if (p && (strcmp(p, "everyone") == 0 || strcmp(p, "roles") == 0)) {
            fake_violation(s, "allowed_mentions_unsafe", req,
                           "%s allows mentions of %s", where, p);
            return;
        }
    }
}

static bool type_fits(json_int_t cb, int ix_type)
{
    switch (cb) {
    case 1:  return ix_type == 1;
    case 4:
    case 5:  return ix_type == 2 || ix_type == 3 || ix_type == 5;
    case 6:
    case 7:  return ix_type == 3 || ix_type == 5;
    case 8:  return ix_type == 4;
    case 9:  return ix_type == 2 || ix_type == 3;
    default: return false;
    }
}

static void check_choices(json_t *errs, const json_t *data)
{
    const json_t *ch = json_object_get(data, "choices");
    if (!json_is_array(ch)) {
        fake_err_add(errs, "data.choices", "BASE_TYPE_REQUIRED",
                     "This field is required");
        return;
    }
    if (json_array_size(ch) > FAKE_CHOICES_MAX)
        too_long(errs, "data.choices", FAKE_CHOICES_MAX);
    size_t i;
    const json_t *c;
    json_array_foreach(ch, i, c) {
        char p[64];
        fake_pathf(p, sizeof p, "data.choices.%zu.name", i);
        check_str(errs, p, json_object_get(c, "name"), 100, true, NULL);
        const json_t *v = json_object_get(c, "value");
        fake_pathf(p, sizeof p, "data.choices.%zu.value", i);
        if (json_is_string(v))
            check_str(errs, p, v, 100, false, NULL);
        else if (!json_is_number(v))
            fake_err_add(errs, p, "BASE_TYPE_REQUIRED",
                         "This field is required");
    }
}

/* full: the modal object by every rule of fake_modal.c (else only its
 * custom_id, title and component count, the first version's checks). */
static json_t *validate_callback(const json_t *body, int ix_type,
                                 const json_t *old, bool *empty_out,
                                 json_t *kinds, bool full)
{
    json_t *errs = json_object();
    *empty_out = false;
    if (!json_is_object(body)) {
        fake_err_add(errs, "", "MODEL_TYPE_CONVERT",
                     "Only dictionaries may be used in a ModelType");
        return finish(errs);
    }
    const json_t *jt = json_object_get(body, "type");
    json_int_t t = json_integer_value(jt);
    if (!json_is_integer(jt) ||
        !(t == 1 || (t >= 4 && t <= 10) || t == 12)) {
        fake_err_add(errs, "type", "BASE_TYPE_CHOICES",
                     "Value must be one of {1, 4, 5, 6, 7, 8, 9, 10, 12}.");
        return finish(errs);
    }
    if (!type_fits(t, ix_type)) {
        fake_err_add(errs, "type", "INTERACTION_RESPONSE_TYPE_INVALID",
                     "Interaction response type is not valid for this "
                     "interaction type.");
        if (kinds && t == 9)        /* only commands and components */
            json_object_set_new(kinds, "modal_not_allowed",
                                json_string("type"));
        return finish(errs);
    }
    const json_t *data = json_object_get(body, "data");
    json_int_t flags = json_integer_value(json_object_get(data, "flags"));
    if (t == 4 || t == 7) {
        if (data == NULL) {
            *empty_out = t == 4;
            return finish(errs);
        }
        validate_msg(errs, "data.", data, t == 4, empty_out,
                     t == 7 ? old : NULL, kinds);
        if (flags & ~(json_int_t)(4 | 64 | 4096 | 8192 | 32768))
            fake_err_add(errs, "data.flags", "MESSAGE_FLAGS_INVALID",
                         "Invalid flags for an interaction response.");
    } else if (t == 5) {
        if (flags & ~(json_int_t)64) {
            fake_err_add(errs, "data.flags", "MESSAGE_FLAGS_INVALID",
                         "Only EPHEMERAL may be set on a deferred response.");
            if (kinds && (flags & FAKE_FLAG_V2))
                json_object_set_new(kinds, "v2_in_defer",
                                    json_string("data.flags"));
        }
    } else if (t == 8) {
        check_choices(errs, data);
    } else if (t == 9 && full) {
        fake_modal_check(errs, kinds, data);
    } else if (t == 9) {
        check_str(errs, "data.custom_id", json_object_get(data, "custom_id"),
                  FAKE_CUSTOM_ID_MAX, true, NULL);
        check_str(errs, "data.title", json_object_get(data, "title"),
                  FAKE_MODAL_TITLE_MAX, true, NULL);
        size_t n = json_array_size(json_object_get(data, "components"));
        if (n < 1 || n > 5)
            fake_err_add(errs, "data.components", "BASE_TYPE_BAD_LENGTH",
                         "Must be between 1 and 5 in length.");
    }
    return finish(errs);
}

json_t *fake_validate_callback(const json_t *body, int ix_type,
                               bool *empty_out)
{
    return validate_callback(body, ix_type, NULL, empty_out, NULL, false);
}

json_t *fake_validate_callback_ex(const json_t *body, int ix_type,
                                  const json_t *old, bool *empty_out,
                                  json_t *kinds)
{
    return validate_callback(body, ix_type, old, empty_out, kinds, true);
}
