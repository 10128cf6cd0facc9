/*
 * fake_modal.c - the modal object of a type 9 callback checked as Discord
 * takes it (receiving-and-responding.mdx, components/reference.mdx;
 * discord-interface-2026.md section 2.2), rule by rule (violations
 * modal_*). fake_submit.c builds what a user sends back.
 */
#include "fake.h"

#include <stdio.h>
#include <string.h>

#define FAKE_PLACEHOLDER_INPUT_MAX 100

/* ---- the modal object ---- */

static void check_text_input(struct fake_cmp_chk *k, const char *base,
                             const json_t *c, bool in_label)
{
    const char *kind = "modal_text_input";
    char path[192];
    json_int_t style = json_integer_value(json_object_get(c, "style"));
    const json_t *mn = json_object_get(c, "min_length");
    const json_t *mx = json_object_get(c, "max_length");
    fake_cmp_count_id(k, base, c);
    fake_cmp_custom_id(k, base, c);
    fake_cmp_no_disabled(k, base, c);
    fake_pathf(path, sizeof path, "%s.style", base);
    if (style != 1 && style != 2)
        fake_cmp_bad(k, path, kind, "BASE_TYPE_CHOICES",
                     "Value must be one of (1, 2).");
    fake_pathf(path, sizeof path, "%s.min_length", base);
    if (mn && (!json_is_integer(mn) || json_integer_value(mn) < 0 ||
               json_integer_value(mn) > FAKE_INPUT_MAX))
        fake_cmp_bad(k, path, kind, "NUMBER_TYPE_MAX",
                     "int value should be between 0 and 4000.");
    fake_pathf(path, sizeof path, "%s.max_length", base);
    if (mx && (!json_is_integer(mx) || json_integer_value(mx) < 1 ||
               json_integer_value(mx) > FAKE_INPUT_MAX))
        fake_cmp_bad(k, path, kind, "NUMBER_TYPE_MAX",
                     "int value should be between 1 and 4000.");
    else if (mn && mx && json_integer_value(mn) > json_integer_value(mx))
        fake_cmp_bad(k, path, kind, "BASE_TYPE_BAD_LENGTH",
                     "min_length must be at most max_length");
    fake_pathf(path, sizeof path, "%s.value", base);
    fake_cmp_str(k, path, json_object_get(c, "value"), 0, FAKE_INPUT_MAX,
                 kind);
    fake_pathf(path, sizeof path, "%s.placeholder", base);
    fake_cmp_str(k, path, json_object_get(c, "placeholder"), 0,
                 FAKE_PLACEHOLDER_INPUT_MAX, kind);
    fake_pathf(path, sizeof path, "%s.label", base);
    if (in_label && json_object_get(c, "label") != NULL)
        fake_cmp_bad(k, path, kind, "COMPONENT_FIELD_NOT_ALLOWED",
                     "A Text Input inside a Label takes no label");
    else if (!in_label)
        fake_cmp_str(k, path, json_object_get(c, "label"), 1,
                     FAKE_LABEL_MAX, kind);
}

static void check_upload(struct fake_cmp_chk *k, const char *base,
                         const json_t *c)
{
    const json_t *ft = json_object_get(c, "file_types");
    char path[192];
    fake_cmp_count_id(k, base, c);
    fake_cmp_custom_id(k, base, c);
    fake_cmp_no_disabled(k, base, c);
    fake_cmp_values_range(k, base, c, FAKE_UPLOAD_MAX, 1,
                          "modal_file_upload");
    fake_pathf(path, sizeof path, "%s.file_types", base);
    if (ft != NULL && (!json_is_array(ft) ||
                       json_array_size(ft) > FAKE_UPLOAD_MAX))
        fake_cmp_bad(k, path, "modal_file_upload", "BASE_TYPE_MAX_LENGTH",
                     "Must be 10 or fewer in length.");
}

static void check_group(struct fake_cmp_chk *k, const char *base,
                        const json_t *c, json_int_t t)
{
    const char *kind = t == 21 ? "modal_radio" : "modal_checkbox_group";
    size_t nopt = json_array_size(json_object_get(c, "options"));
    fake_cmp_count_id(k, base, c);
    fake_cmp_custom_id(k, base, c);
    fake_cmp_no_disabled(k, base, c);
    fake_cmp_options(k, base, c, t == 21 ? 2 : 1, FAKE_GROUP_OPTIONS_MAX,
                     kind);
    if (t == 22)
        fake_cmp_values_range(k, base, c, FAKE_GROUP_OPTIONS_MAX,
                              nopt ? (json_int_t)nopt : 1, kind);
}

static void check_checkbox(struct fake_cmp_chk *k, const char *base,
                           const json_t *c)
{
    char path[192];
    fake_cmp_count_id(k, base, c);
    fake_cmp_custom_id(k, base, c);
    fake_cmp_no_disabled(k, base, c);
    fake_pathf(path, sizeof path, "%s.required", base);
    if (json_object_get(c, "required") != NULL)
        fake_cmp_bad(k, path, "modal_checkbox", "COMPONENT_FIELD_NOT_ALLOWED",
                     "A Checkbox has no required (use a one-option "
                     "Checkbox Group)");
    fake_pathf(path, sizeof path, "%s.default", base);
    const json_t *d = json_object_get(c, "default");
    if (d != NULL && !json_is_boolean(d))
        fake_cmp_bad(k, path, "modal_checkbox", "BASE_TYPE_BAD_TYPE",
                     "Must be a boolean.");
}

/* The one child of a Label (or the deprecated Action Row wrapper). */
static void check_child(struct fake_cmp_chk *k, const char *base,
                        const json_t *c, bool in_label)
{
    char path[192];
    json_int_t t = json_integer_value(json_object_get(c, "type"));
    fake_pathf(path, sizeof path, "%s.type", base);
    if (!json_is_object(c)) {
        fake_cmp_bad(k, base, "modal_label", "BASE_TYPE_REQUIRED",
                     "A Label holds exactly one component");
        return;
    }
    if (!in_label && t != 4) {
        fake_cmp_bad(k, path, "modal_component_type", "UNION_TYPE_CHOICES",
                     "An Action Row in a modal wraps one Text Input only");
        return;
    }
    switch (t) {
    case 4:  check_text_input(k, base, c, in_label); break;
    case 3:
    case 5:
    case 6:
    case 7:
    case 8:  fake_cmp_select(k, base, c); break;
    case 19: check_upload(k, base, c); break;
    case 21:
    case 22: check_group(k, base, c, t); break;
    case 23: check_checkbox(k, base, c); break;
    default:
        fake_cmp_bad(k, path, "modal_component_type", "UNION_TYPE_CHOICES",
                     "A Label holds a Text Input, a select, a File "
                     "Upload, a Radio Group, a Checkbox Group or a "
                     "Checkbox");
    }
}

static void check_label(struct fake_cmp_chk *k, const char *base,
                        const json_t *c)
{
    char path[192];
    fake_cmp_count_id(k, base, c);
    fake_pathf(path, sizeof path, "%s.label", base);
    fake_cmp_str(k, path, json_object_get(c, "label"), 1, FAKE_LABEL_MAX,
                 "modal_label");
    fake_pathf(path, sizeof path, "%s.description", base);
    fake_cmp_str(k, path, json_object_get(c, "description"), 0,
                 FAKE_LABEL_DESC_MAX, "modal_label");
    fake_pathf(path, sizeof path, "%s.component", base);
    check_child(k, path, json_object_get(c, "component"), true);
}

void fake_modal_check(json_t *errs, json_t *kinds, const json_t *data)
{
    struct fake_cmp_chk k;
    const json_t *comps = json_object_get(data, "components");
    size_t i;
    const json_t *c;
    fake_cmp_init(&k, errs, kinds, true);
    fake_cmp_str(&k, "data.custom_id", json_object_get(data, "custom_id"), 1,
                 FAKE_CUSTOM_ID_MAX, "modal_shape");
    fake_cmp_str(&k, "data.title", json_object_get(data, "title"), 1,
                 FAKE_MODAL_TITLE_MAX, "modal_shape");
    if (!json_is_array(comps) || json_array_size(comps) < 1 ||
        json_array_size(comps) > FAKE_MODAL_TOP_MAX)
        fake_cmp_bad(&k, "data.components", "modal_shape",
                     "BASE_TYPE_BAD_LENGTH",
                     "Must be between 1 and 5 in length.");
    json_array_foreach(comps, i, c) {
        char base[64], path[96];
        json_int_t t = json_integer_value(json_object_get(c, "type"));
        fake_pathf(base, sizeof base, "data.components.%zu", i);
        fake_pathf(path, sizeof path, "%s.type", base);
        if (t == 18) {
            check_label(&k, base, c);
        } else if (t == 10) {
            fake_cmp_count_id(&k, base, c);
            fake_pathf(path, sizeof path, "%s.content", base);
            fake_cmp_str(&k, path, json_object_get(c, "content"), 1,
                         FAKE_V2_TEXT_MAX, "modal_component_type");
        } else if (t == 1) {        /* deprecated: a row wrapping an input */
            const json_t *in = json_object_get(c, "components");
            fake_cmp_count_id(&k, base, c);
            fake_pathf(path, sizeof path, "%s.components", base);
            if (json_array_size(in) != 1)
                fake_cmp_bad(&k, path, "modal_component_type",
                             "BASE_TYPE_BAD_LENGTH",
                             "An Action Row in a modal wraps one Text "
                             "Input");
            else
                check_child(&k, path, json_array_get(in, 0), false);
        } else {
            fake_cmp_bad(&k, path, "modal_component_type",
                         "UNION_TYPE_CHOICES",
                         "A modal's top level holds Labels (18) and Text "
                         "Displays (10)");
        }
    }
    fake_cmp_cleanup(&k);
}
