/*
 * interaction_modal.c - a MODAL_SUBMIT (interaction type 5) into the
 * struct cmd_req the typed command would make (interaction.h): each
 * field's custom_id is the option it fills (cmd/cmd_form.h), its value
 * the option's text. Shapes: discord-interface-2026.md section 2.3.
 */
#include "custom_id_req.h"
#include "interaction.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cmd_form.h"

/* Component types a submitted form carries. */
enum {
    M_ROW = 1, M_STRING_SELECT = 3, M_TEXT_INPUT = 4, M_TEXT_DISPLAY = 10,
    M_LABEL = 18, M_FILE_UPLOAD = 19, M_CHECKBOX = 23,
};

/* One answered field c -> an option (an empty or unticked one is left
 * out, as an option the user did not give). */
static bool field(struct interaction *it, json_t *c, char *why,
                  size_t whylen)
{
    const char *name = json_string_value(json_object_get(c, "custom_id"));
    json_t *type = json_object_get(c, "type");
    json_t *value = json_object_get(c, "value");
    json_t *values = json_object_get(c, "values");
    const char *text = NULL;

    if (name == NULL || !custom_id_name_ok(name, strlen(name)) ||
        !json_is_integer(type)) {
        snprintf(why, whylen, "form field without a valid custom_id or type");
        return false;
    }
    switch (json_integer_value(type)) {
    case M_TEXT_INPUT:
        text = json_string_value(value);
        if (text == NULL) {
            snprintf(why, whylen, "form field %s: value is not text", name);
            return false;
        }
        break;
    case M_STRING_SELECT:
    case M_FILE_UPLOAD:
        if (!json_is_array(values) || json_array_size(values) > 1) {
            snprintf(why, whylen, "form field %s: values malformed (limit "
                     "is 1)", name);
            return false;
        }
        text = json_string_value(json_array_get(values, 0));
        if (text != NULL && json_integer_value(type) == M_FILE_UPLOAD) {
            if (it->att.option != NULL) {
                snprintf(why, whylen, "too many attachments (limit is %d)",
                         INTERACTION_ATTACHMENTS_MAX);
                return false;
            }
            it->att.option = name;
            it->att.id = text;
        }
        break;
    case M_CHECKBOX:
        if (!json_is_boolean(value)) {
            snprintf(why, whylen, "form field %s: value is not a boolean",
                     name);
            return false;
        }
        text = json_is_true(value) ? "true" : NULL;
        break;
    default:
        snprintf(why, whylen, "form field %s has unsupported type %d", name,
                 (int)json_integer_value(type));
        return false;
    }
    if (text == NULL || text[0] == '\0')
        return true;
    return cmd_req_add_opt(&it->req, name, text, why, whylen);
}

bool interaction__modal(struct interaction *it, json_t *data, char *why,
                        size_t whylen)
{
    const char *cid = json_string_value(json_object_get(data, "custom_id"));
    json_t *comps = json_object_get(data, "components"), *top;
    size_t i;

    /* A custom_id that is not one of our forms' still gets an answer:
     * the command layer refuses it (req.form_version -1). */
    if (cid == NULL || strlen(cid) > CUSTOM_ID_MAX ||
        !custom_id_parse(cid, &it->cid) ||
        strcmp(it->cid.opt_name, CMD_FORM_ARG) != 0 ||
        it->cid.version <= 0 || it->cid.version > INT_MAX) {
        memset(&it->cid, 0, sizeof it->cid);
        it->req.command = CMD_FORM_ARG;
        it->req.form_version = -1;
        return true;
    }
    it->req.command = it->cid.command;
    it->req.sub = it->cid.sub[0] ? it->cid.sub : NULL;
    it->req.form_version = (int)it->cid.version;
    it->req.expect_fight = it->cid.fight;
    if (it->cid.has_value &&
        !cmd_req_add_opt(&it->req, "system", it->cid.opt_value, why, whylen))
        return false;
    if (!json_is_array(comps) || json_array_size(comps) > FORM_MAX_FIELDS) {
        snprintf(why, whylen, "form components malformed (limit is %d)",
                 FORM_MAX_FIELDS);
        return false;
    }
    json_array_foreach(comps, i, top) {
        json_int_t t = json_integer_value(json_object_get(top, "type"));
        json_t *c = NULL;
        if (t == M_TEXT_DISPLAY)
            continue;
        if (t == M_LABEL)
            c = json_object_get(top, "component");
        else if (t == M_ROW)   /* the deprecated row around a text input */
            c = json_array_get(json_object_get(top, "components"), 0);
        if (!json_is_object(c)) {
            snprintf(why, whylen, "form component %zu malformed", i);
            return false;
        }
        if (!field(it, c, why, whylen))
            return false;
    }
    return interaction__resolved_attachment(it, data, why, whylen);
}
