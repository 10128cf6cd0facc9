/*
 * fake_components.c - Components V2 messages checked by the rules of
 * discord-api-docs components/reference.mdx and resources/message.mdx
 * (shared/reference/discord-interface-2026.md sections 1.2 to 1.4): where
 * each component type may stand, its shape and limits, the 40-component
 * total (nested ones counted), custom_id and id uniqueness, and what the
 * IS_COMPONENTS_V2 flag forbids on create and edit. Every problem adds
 * Discord's 50035 error under its path and names a violation kind
 * (v2_*), so a test sees which rule a body broke.
 *
 * The select, button and text checks are shared with the modal checks of
 * fake_modal.c through struct fake_cmp_chk (fake.h).
 */
#include "fake.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Where a component stands: what may appear there (section 1.2). */
enum place { P_TOP, P_CONTAINER, P_SECTION, P_ACCESSORY, P_ROW };

static const char *const place_name[] = {
    [P_TOP] = "the message's top level",
    [P_CONTAINER] = "a Container",
    [P_SECTION] = "a Section's components",
    [P_ACCESSORY] = "a Section's accessory",
    [P_ROW] = "an Action Row",
};

void fake_cmp_bad(struct fake_cmp_chk *k, const char *path, const char *kind,
                  const char *code, const char *fmt, ...)
{
    char msg[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char full[48];
    /* "*x": v2_x in a message, modal_x in a modal */
    if (kind[0] == '*') {
        snprintf(full, sizeof full, "%s_%s", k->modal ? "modal" : "v2",
                 kind + 1);
        kind = full;
    }
    fake_err_add(k->errs, path, code, msg);
    if (k->kinds != NULL && json_object_get(k->kinds, kind) == NULL)
        json_object_set_new(k->kinds, kind, json_string(path));
}

void fake_cmp_init(struct fake_cmp_chk *k, json_t *errs, json_t *kinds,
                   bool modal)
{
    memset(k, 0, sizeof *k);
    k->errs = errs;
    k->kinds = kinds;
    k->modal = modal;
    k->custom_ids = json_object();
    k->ids = json_object();
}

void fake_cmp_cleanup(struct fake_cmp_chk *k)
{
    json_decref(k->custom_ids);
    json_decref(k->ids);
    k->custom_ids = k->ids = NULL;
}

bool fake_cmp_str(struct fake_cmp_chk *k, const char *path, const json_t *v,
                  size_t min, size_t max, const char *kind)
{
    if (v == NULL || json_is_null(v)) {
        if (min > 0)
            fake_cmp_bad(k, path, kind, "BASE_TYPE_REQUIRED",
                         "This field is required");
        return min == 0;
    }
    if (!json_is_string(v)) {
        fake_cmp_bad(k, path, kind, "BASE_TYPE_BAD_TYPE",
                     "Must be a string.");
        return false;
    }
    size_t n = fake_utf8_len(json_string_value(v));
    if (n < min || n > max) {
        fake_cmp_bad(k, path, kind, "BASE_TYPE_BAD_LENGTH",
                     "Must be between %zu and %zu in length.", min, max);
        return false;
    }
    return true;
}

/* An optional integer member in [min, max]; *out gets it (def if absent). */
static bool int_in(struct fake_cmp_chk *k, const char *base, const json_t *c,
                   const char *key, json_int_t min, json_int_t max,
                   json_int_t def, json_int_t *out, const char *kind)
{
    const json_t *v = json_object_get(c, key);
    char path[192];
    *out = def;
    if (v == NULL || json_is_null(v))
        return true;
    fake_pathf(path, sizeof path, "%s.%s", base, key);
    if (!json_is_integer(v) || json_integer_value(v) < min ||
        json_integer_value(v) > max) {
        fake_cmp_bad(k, path, kind, "NUMBER_TYPE_MAX",
                     "int value should be between %lld and %lld.",
                     (long long)min, (long long)max);
        return false;
    }
    *out = json_integer_value(v);
    return true;
}

void fake_cmp_custom_id(struct fake_cmp_chk *k, const char *base,
                        const json_t *c)
{
    char path[192];
    fake_pathf(path, sizeof path, "%s.custom_id", base);
    const json_t *id = json_object_get(c, "custom_id");
    if (!fake_cmp_str(k, path, id, 1, FAKE_CUSTOM_ID_MAX, "*custom_id"))
        return;
    const char *s = json_string_value(id);
    if (json_object_get(k->custom_ids, s))
        fake_cmp_bad(k, path, "*custom_id_dup",
                     "COMPONENT_CUSTOM_ID_DUPLICATED",
                     "Component custom id cannot be duplicated");
    json_object_set_new(k->custom_ids, s, json_true());
}

/* Every component counts, and its optional id: an integer, 0 meaning
 * absent, unique within the message or modal. */
void fake_cmp_count_id(struct fake_cmp_chk *k, const char *base,
                         const json_t *c)
{
    const json_t *id = json_object_get(c, "id");
    char path[192], key[24];
    k->count++;
    if (id == NULL || json_is_null(id))
        return;
    fake_pathf(path, sizeof path, "%s.id", base);
    if (!json_is_integer(id) || json_integer_value(id) < 0 ||
        json_integer_value(id) > 2147483647) {
        fake_cmp_bad(k, path, "*id", "NUMBER_TYPE_MAX",
                     "int value should be between 0 and 2147483647.");
        return;
    }
    if (json_integer_value(id) == 0)
        return;
    snprintf(key, sizeof key, "%lld", (long long)json_integer_value(id));
    if (json_object_get(k->ids, key))
        fake_cmp_bad(k, path, "*id_dup", "COMPONENT_ID_DUPLICATED",
                     "Component id %s is used twice", key);
    json_object_set_new(k->ids, key, json_true());
}

static const json_t *children(struct fake_cmp_chk *k, const char *base,
                              const json_t *c, const char *key, size_t min,
                              size_t max, const char *kind)
{
    char path[192];
    const json_t *a = json_object_get(c, key);
    fake_pathf(path, sizeof path, "%s.%s", base, key);
    if (!json_is_array(a)) {
        fake_cmp_bad(k, path, kind, "BASE_TYPE_REQUIRED",
                     "This field is required (an array)");
        return NULL;
    }
    if (max == SIZE_MAX && json_array_size(a) < min)
        fake_cmp_bad(k, path, kind, "BASE_TYPE_MIN_LENGTH",
                     "Must be %zu or more in length.", min);
    else if (json_array_size(a) < min || json_array_size(a) > max)
        fake_cmp_bad(k, path, kind, "BASE_TYPE_BAD_LENGTH",
                     "Must be between %zu and %zu in length.", min, max);
    return a;
}

/* An option of a String Select, Radio Group or Checkbox Group. */
void fake_cmp_options(struct fake_cmp_chk *k, const char *base,
                          const json_t *c, size_t min, size_t max,
                          const char *kind)
{
    const json_t *opts = children(k, base, c, "options", min, max, kind);
    size_t i;
    const json_t *o;
    json_array_foreach(opts, i, o) {
        static const char *const keys[] = { "label", "value", "description" };
        for (size_t n = 0; n < 3; n++) {
            char path[192];
            fake_pathf(path, sizeof path, "%s.options.%zu.%s", base, i,
                       keys[n]);
            fake_cmp_str(k, path, json_object_get(o, keys[n]), n < 2 ? 1 : 0,
                         FAKE_SELECT_TEXT_MAX, kind);
        }
    }
}

/* min_values/max_values, and "required": when required is absent or
 * true, min_values must be absent or >= 1 (selects, File Upload, Checkbox
 * Group in modals). top is the highest max_values allowed. */
void fake_cmp_values_range(struct fake_cmp_chk *k, const char *base,
                               const json_t *c, json_int_t top,
                               json_int_t def_max, const char *kind)
{
    json_int_t mn, mx;
    bool ok = int_in(k, base, c, "min_values", 0, top, 1, &mn, kind);
    ok &= int_in(k, base, c, "max_values", 1, top, def_max, &mx, kind);
    char path[192];
    fake_pathf(path, sizeof path, "%s.min_values", base);
    if (ok && json_object_get(c, "min_values") && mn > mx)
        fake_cmp_bad(k, path, kind, "SELECT_COMPONENT_MIN_VALUES_TOO_LARGE",
                     "min_values must be at most max_values");
    const json_t *req = json_object_get(c, "required");
    if (k->modal && ok && mn == 0 && json_object_get(c, "min_values") &&
        !json_is_false(req))
        fake_cmp_bad(k, path, "modal_required_min",
                     "COMPONENT_REQUIRED_MIN_VALUES",
                     "min_values must be at least 1 while required is true");
}

void fake_cmp_no_disabled(struct fake_cmp_chk *k, const char *base,
                        const json_t *c)
{
    char path[192];
    if (!k->modal || json_object_get(c, "disabled") == NULL)
        return;
    fake_pathf(path, sizeof path, "%s.disabled", base);
    fake_cmp_bad(k, path, "modal_disabled", "COMPONENT_DISABLED_IN_MODAL",
                 "Components in a modal cannot be disabled");
}

void fake_cmp_select(struct fake_cmp_chk *k, const char *base,
                     const json_t *c)
{
    const char *kind = "*select";
    json_int_t t = json_integer_value(json_object_get(c, "type"));
    char path[192];
    fake_cmp_count_id(k, base, c);
    fake_cmp_custom_id(k, base, c);
    fake_pathf(path, sizeof path, "%s.placeholder", base);
    fake_cmp_str(k, path, json_object_get(c, "placeholder"), 0,
                 FAKE_PLACEHOLDER_MAX, kind);
    fake_cmp_values_range(k, base, c, FAKE_SELECT_OPTIONS_MAX, 1, kind);
    fake_cmp_no_disabled(k, base, c);
    if (t == 3) {
        fake_cmp_options(k, base, c, 1, FAKE_SELECT_OPTIONS_MAX, kind);
        return;
    }
    /* default_values: {id, type} of the select's kind */
    const json_t *dv = json_object_get(c, "default_values");
    size_t i;
    const json_t *d;
    json_array_foreach(dv, i, d) {
        const char *dt = json_string_value(json_object_get(d, "type"));
        bool fits = dt != NULL &&
                    ((t == 5 && strcmp(dt, "user") == 0) ||
                     (t == 6 && strcmp(dt, "role") == 0) ||
                     (t == 7 && (strcmp(dt, "user") == 0 ||
                                 strcmp(dt, "role") == 0)) ||
                     (t == 8 && strcmp(dt, "channel") == 0));
        fake_pathf(path, sizeof path, "%s.default_values.%zu", base, i);
        if (!fits || !json_is_string(json_object_get(d, "id")))
            fake_cmp_bad(k, path, kind, "BASE_TYPE_BAD_TYPE",
                         "A default value is {id, type} of the select's "
                         "kind");
    }
    if (dv != NULL) {
        const json_t *jn = json_object_get(c, "min_values");
        const json_t *jx = json_object_get(c, "max_values");
        json_int_t mn = json_is_integer(jn) ? json_integer_value(jn) : 1;
        json_int_t mx = json_is_integer(jx) ? json_integer_value(jx) : 1;
        fake_pathf(path, sizeof path, "%s.default_values", base);
        if ((json_int_t)json_array_size(dv) < mn ||
            (json_int_t)json_array_size(dv) > mx)
            fake_cmp_bad(k, path, kind, "BASE_TYPE_BAD_LENGTH",
                         "default_values must number between min_values "
                         "and max_values");
    }
}

static void check_button(struct fake_cmp_chk *k, const char *base,
                         const json_t *c)
{
    const char *kind = "v2_button";
    char path[192];
    json_int_t style;
    fake_cmp_count_id(k, base, c);
    fake_pathf(path, sizeof path, "%s.label", base);
    fake_cmp_str(k, path, json_object_get(c, "label"), 0,
                 FAKE_BUTTON_LABEL_MAX, kind);
    if (!int_in(k, base, c, "style", 1, 6, 0, &style, kind))
        return;
    fake_pathf(path, sizeof path, "%s.style", base);
    if (style == 0) {
        fake_cmp_bad(k, path, kind, "BASE_TYPE_REQUIRED",
                     "This field is required");
        return;
    }
    bool has_id = json_object_get(c, "custom_id") != NULL;
    bool has_url = json_object_get(c, "url") != NULL;
    bool has_sku = json_object_get(c, "sku_id") != NULL;
    if (style <= 4) {
        fake_cmp_custom_id(k, base, c);
        if (has_url || has_sku)
            fake_cmp_bad(k, path, kind, "BUTTON_FIELDS_INVALID",
                         "Style %lld takes a custom_id, no url or sku_id",
                         (long long)style);
    } else if (style == 5) {
        fake_pathf(path, sizeof path, "%s.url", base);
        fake_cmp_str(k, path, json_object_get(c, "url"), 1, 512, kind);
        if (has_id || has_sku)
            fake_cmp_bad(k, path, kind, "BUTTON_LINK_CUSTOM_ID",
                         "A link button takes a url, no custom_id or "
                         "sku_id");
    } else {
        fake_pathf(path, sizeof path, "%s.sku_id", base);
        if (!has_sku || has_id || has_url ||
            json_object_get(c, "label") || json_object_get(c, "emoji"))
            fake_cmp_bad(k, path, kind, "BUTTON_PREMIUM_FIELDS",
                         "A premium button takes a sku_id and no "
                         "custom_id, label, url or emoji");
    }
}

/* media: {url} (a URL or attachment://name); the API fills the rest */
static void check_media(struct fake_cmp_chk *k, const char *base,
                        const json_t *c, const char *key, bool attach_only)
{
    char path[192];
    const json_t *m = json_object_get(c, key);
    fake_pathf(path, sizeof path, "%s.%s.url", base, key);
    if (!json_is_object(m)) {
        fake_cmp_bad(k, path, "v2_media", "BASE_TYPE_REQUIRED",
                     "This field is required");
        return;
    }
    const json_t *url = json_object_get(m, "url");
    if (!fake_cmp_str(k, path, url, 1, 2048, "v2_media"))
        return;
    if (attach_only &&
        strncmp(json_string_value(url), "attachment://", 13) != 0)
        fake_cmp_bad(k, path, "v2_media", "COMPONENT_FILE_URL_INVALID",
                     "A File component takes only attachment://<filename>");
}

static void check_any(struct fake_cmp_chk *k, const char *base,
                      const json_t *c, enum place where);

static void check_row(struct fake_cmp_chk *k, const char *base,
                      const json_t *c)
{
    const char *kind = "v2_action_row";
    const json_t *items = children(k, base, c, "components", 1,
                                   FAKE_ROW_BUTTONS_MAX, kind);
    size_t i, selects = 0;
    const json_t *it;
    fake_cmp_count_id(k, base, c);
    json_array_foreach(items, i, it) {
        json_int_t t = json_integer_value(json_object_get(it, "type"));
        selects += t == 3 || (t >= 5 && t <= 8);
    }
    if (selects > 0 && json_array_size(items) != 1) {
        char path[192];
        fake_pathf(path, sizeof path, "%s.components", base);
        fake_cmp_bad(k, path, kind, "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                     "An Action Row holds up to 5 buttons or exactly one "
                     "select");
    }
    json_array_foreach(items, i, it) {
        char path[192];
        fake_pathf(path, sizeof path, "%s.components.%zu", base, i);
        check_any(k, path, it, P_ROW);
    }
}

static void check_text(struct fake_cmp_chk *k, const char *base,
                       const json_t *c)
{
    char path[192];
    const json_t *t = json_object_get(c, "content");
    fake_cmp_count_id(k, base, c);
    fake_pathf(path, sizeof path, "%s.content", base);
    if (fake_cmp_str(k, path, t, 1, FAKE_V2_TEXT_MAX, "v2_text_display"))
        k->text += fake_utf8_len(json_string_value(t));
}

static void check_section(struct fake_cmp_chk *k, const char *base,
                          const json_t *c)
{
    char path[192];
    const json_t *texts = children(k, base, c, "components", 1,
                                   FAKE_V2_SECTION_TEXTS_MAX, "v2_section");
    size_t i;
    const json_t *t;
    fake_cmp_count_id(k, base, c);
    json_array_foreach(texts, i, t) {
        fake_pathf(path, sizeof path, "%s.components.%zu", base, i);
        check_any(k, path, t, P_SECTION);
    }
    fake_pathf(path, sizeof path, "%s.accessory", base);
    const json_t *acc = json_object_get(c, "accessory");
    if (!json_is_object(acc))
        fake_cmp_bad(k, path, "v2_section", "BASE_TYPE_REQUIRED",
                     "A Section needs an accessory (a Button or a "
                     "Thumbnail)");
    else
        check_any(k, path, acc, P_ACCESSORY);
}

static void check_gallery(struct fake_cmp_chk *k, const char *base,
                          const json_t *c)
{
    const json_t *items = children(k, base, c, "items", 1,
                                   FAKE_V2_GALLERY_MAX, "v2_media");
    size_t i;
    const json_t *it;
    fake_cmp_count_id(k, base, c);
    json_array_foreach(items, i, it) {
        char p[192], d[208];
        fake_pathf(p, sizeof p, "%s.items.%zu", base, i);
        check_media(k, p, it, "media", false);
        fake_pathf(d, sizeof d, "%s.description", p);
        fake_cmp_str(k, d, json_object_get(it, "description"), 0,
                     FAKE_V2_ALT_MAX, "v2_media");
    }
}

static void check_container(struct fake_cmp_chk *k, const char *base,
                            const json_t *c)
{
    json_int_t colour;
    const json_t *kids = children(k, base, c, "components", 1, SIZE_MAX,
                                  "v2_container");
    size_t i;
    const json_t *kid;
    fake_cmp_count_id(k, base, c);
    int_in(k, base, c, "accent_color", 0, 0xFFFFFF, 0, &colour,
           "v2_container");
    json_array_foreach(kids, i, kid) {
        char path[192];
        fake_pathf(path, sizeof path, "%s.components.%zu", base, i);
        check_any(k, path, kid, P_CONTAINER);
    }
}

static bool allowed(json_int_t t, enum place where)
{
    switch (where) {
    case P_TOP:
        return t == 1 || t == 9 || t == 10 || t == 12 || t == 13 ||
               t == 14 || t == 17;
    case P_CONTAINER:
        return t == 1 || t == 9 || t == 10 || t == 12 || t == 13 || t == 14;
    case P_SECTION:
        return t == 10;
    case P_ACCESSORY:
        return t == 2 || t == 11;
    case P_ROW:
        return t == 2 || t == 3 || (t >= 5 && t <= 8);
    }
    return false;
}

static void check_any(struct fake_cmp_chk *k, const char *base,
                      const json_t *c, enum place where)
{
    char path[192];
    const json_t *jt = json_object_get(c, "type");
    json_int_t t = json_integer_value(jt);
    fake_pathf(path, sizeof path, "%s.type", base);
    if (!json_is_object(c) || !json_is_integer(jt) || t < 1 || t > 23 ||
        t == 15 || t == 16 || t == 20) {
        fake_cmp_bad(k, path, "v2_component_type", "UNION_TYPE_CHOICES",
                     "Unknown component type");
        k->count++;
        return;
    }
    if (!allowed(t, where)) {
        fake_cmp_bad(k, path, "v2_placement", "UNION_TYPE_CHOICES",
                     "Component type %lld cannot be in %s", (long long)t,
                     place_name[where]);
        k->count++;
        return;
    }
    switch (t) {
    case 1:  check_row(k, base, c); break;
    case 2:  check_button(k, base, c); break;
    case 3:
    case 5:
    case 6:
    case 7:
    case 8:  fake_cmp_select(k, base, c); break;
    case 9:  check_section(k, base, c); break;
    case 10: check_text(k, base, c); break;
    case 11:
        fake_cmp_count_id(k, base, c);
        check_media(k, base, c, "media", false);
        fake_pathf(path, sizeof path, "%s.description", base);
        fake_cmp_str(k, path, json_object_get(c, "description"), 0,
                     FAKE_V2_ALT_MAX, "v2_media");
        break;
    case 12: check_gallery(k, base, c); break;
    case 13:
        fake_cmp_count_id(k, base, c);
        check_media(k, base, c, "file", true);
        break;
    case 14: {
        json_int_t sp;
        fake_cmp_count_id(k, base, c);
        int_in(k, base, c, "spacing", 1, 2, 1, &sp, "v2_separator");
        break;
    }
    case 17: check_container(k, base, c); break;
    default: k->count++; break;     /* not reached: allowed() said no */
    }
}

/* Types that only a V2 message may carry (section 1.2). */
static bool v2_only(json_int_t t)
{
    return (t >= 9 && t <= 14) || t == 17;
}

/* The fields IS_COMPONENTS_V2 forbids: set (non-null, non-empty). */
static const char *const v2_forbidden[] = {
    "content", "embeds", "sticker_ids", "poll", "shared_client_theme",
};

static bool field_set(const json_t *m, const char *key)
{
    const json_t *v = json_object_get(m, key);
    if (v == NULL || json_is_null(v))
        return false;
    return !json_is_array(v) || json_array_size(v) > 0;
}

/* What an old classic message shows in that field (content: not "") */
static bool old_shows(const json_t *old, const char *key)
{
    const json_t *v = json_object_get(old, key);
    if (json_is_string(v))
        return json_string_length(v) > 0;
    return field_set(old, key);
}

void fake_v2_check_message(json_t *errs, json_t *kinds, const char *pfx,
                           const json_t *m, const json_t *old)
{
    struct fake_cmp_chk k;
    char path[160];
    const json_t *jf = json_object_get(m, "flags");
    json_int_t flags = json_integer_value(jf);
    json_int_t oflags = json_integer_value(json_object_get(old, "flags"));
    bool old_v2 = old != NULL && (oflags & FAKE_FLAG_V2);
    bool v2 = (flags & FAKE_FLAG_V2) || (old_v2 && jf == NULL);
    const json_t *comps = json_object_get(m, "components");

    fake_cmp_init(&k, errs, kinds, false);
    fake_pathf(path, sizeof path, "%sflags", pfx);
    if (old_v2 && jf != NULL && !(flags & FAKE_FLAG_V2))
        fake_cmp_bad(&k, path, "v2_to_classic", "MESSAGE_FLAGS_INVALID",
                     "IS_COMPONENTS_V2 cannot be removed from a message");
    if (!v2) {
        /* a classic message: its components are checked by
         * fake_validate.c; here only a V2-only type without the flag */
        size_t i;
        const json_t *c;
        json_array_foreach(comps, i, c) {
            json_int_t t = json_integer_value(json_object_get(c, "type"));
            fake_pathf(path, sizeof path, "%scomponents.%zu.type", pfx, i);
            if (v2_only(t))
                fake_cmp_bad(&k, path, "v2_flag_missing",
                             "COMPONENT_TYPE_NEEDS_V2",
                             "Component type %lld needs the "
                             "IS_COMPONENTS_V2 flag", (long long)t);
        }
        fake_cmp_cleanup(&k);
        return;
    }
    for (size_t i = 0; i < sizeof v2_forbidden / sizeof v2_forbidden[0];
         i++) {
        const char *key = v2_forbidden[i];
        fake_pathf(path, sizeof path, "%s%s", pfx, key);
        if (field_set(m, key))
            fake_cmp_bad(&k, path, "v2_with_content",
                         "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS"
                         "_V2", "The '%s' field cannot be used when using "
                         "MessageFlags.IS_COMPONENTS_V2", key);
        /* classic -> V2: the old message's fields must be emptied in the
         * same request (null, or [] for arrays) */
        else if (old != NULL && !old_v2 && old_shows(old, key) &&
                 json_object_get(m, key) == NULL)
            fake_cmp_bad(&k, path, "v2_switch_not_emptied",
                         "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS"
                         "_V2", "Switching to IS_COMPONENTS_V2 needs %s "
                         "emptied (null or [])", key);
    }
    fake_pathf(path, sizeof path, "%scomponents", pfx);
    if (comps != NULL && !json_is_array(comps)) {
        fake_cmp_bad(&k, path, "v2_component_type", "BASE_TYPE_BAD_TYPE",
                     "Must be an array.");
        fake_cmp_cleanup(&k);
        return;
    }
    size_t i;
    const json_t *c;
    json_array_foreach(comps, i, c) {
        char cp[192];
        fake_pathf(cp, sizeof cp, "%scomponents.%zu", pfx, i);
        check_any(&k, cp, c, P_TOP);
    }
    if (k.count > FAKE_V2_COMPONENTS_MAX)
        fake_cmp_bad(&k, path, "v2_component_count",
                     "MESSAGE_COMPONENTS_TOO_MANY",
                     "A message holds at most %d components (nested ones "
                     "count); this one has %zu", FAKE_V2_COMPONENTS_MAX,
                     k.count);
    if (k.text > FAKE_V2_TEXT_MAX)
        fake_cmp_bad(&k, path, "v2_text_total", "MESSAGE_TEXT_TOO_LONG",
                     "Text Displays hold at most %d characters in all; "
                     "these hold %zu", FAKE_V2_TEXT_MAX, k.text);
    fake_cmp_cleanup(&k);
}
