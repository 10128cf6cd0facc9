/*
 * render_modal.c - a form as Discord's modal callback (render_modal.h),
 * and the character helpers of form.h.
 */
#include "render_modal.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Component types (discord-interface-2026.md 1.2). */
enum {
    C_STRING_SELECT = 3, C_TEXT_INPUT = 4, C_LABEL = 18, C_FILE_UPLOAD = 19,
    C_CHECKBOX = 23,
};

int form_chars(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

void form_copy(char *dst, size_t cap, const char *src, int max)
{
    static const char ell[] = "\xe2\x80\xa6";   /* "…" */
    size_t at = 0;
    int chars = 0, total = form_chars(src);
    int keep = total <= max ? total : max - 1;

    if (cap == 0)
        return;
    for (const char *s = src; *s; s++) {
        bool lead = ((unsigned char)*s & 0xc0) != 0x80;
        if (lead && chars++ == keep)
            break;
        if (at + 1 >= cap)
            break;
        dst[at++] = *s;
    }
    /* never leave half a character */
    while (at > 0 && ((unsigned char)dst[at - 1] & 0xc0) == 0xc0)
        at--;
    dst[at] = '\0';
    if (total > max && at + sizeof ell <= cap)
        memcpy(dst + at, ell, sizeof ell);
}

static json_t *input(const struct form_field *x)
{
    json_t *c = json_object();
    if (c == NULL)
        return NULL;
    json_object_set_new(c, "custom_id", json_string(x->name));
    switch (x->kind) {
    case FORM_TEXT:
    case FORM_PARAGRAPH:
        json_object_set_new(c, "type", json_integer(C_TEXT_INPUT));
        json_object_set_new(c, "style",
                            json_integer(x->kind == FORM_TEXT ? 1 : 2));
        json_object_set_new(c, "max_length", json_integer(x->max_len));
        json_object_set_new(c, "required", json_boolean(x->required));
        if (x->placeholder[0])
            json_object_set_new(c, "placeholder",
                                json_string(x->placeholder));
        break;
    case FORM_SELECT: {
        json_t *opts = json_array();
        json_object_set_new(c, "type", json_integer(C_STRING_SELECT));
        json_object_set_new(c, "required", json_boolean(x->required));
        if (!x->required)
            json_object_set_new(c, "min_values", json_integer(0));
        json_object_set_new(c, "max_values", json_integer(1));
        if (x->placeholder[0])
            json_object_set_new(c, "placeholder",
                                json_string(x->placeholder));
        for (int i = 0; i < x->noptions; i++) {
            json_t *o = json_object();
            json_object_set_new(o, "label",
                                json_string(x->options[i].label));
            json_object_set_new(o, "value",
                                json_string(x->options[i].value));
            json_array_append_new(opts, o);
        }
        json_object_set_new(c, "options", opts);
        break;
    }
    case FORM_CHECKBOX:
        json_object_set_new(c, "type", json_integer(C_CHECKBOX));
        json_object_set_new(c, "default", json_false());
        break;
    case FORM_FILE:
        json_object_set_new(c, "type", json_integer(C_FILE_UPLOAD));
        json_object_set_new(c, "min_values", json_integer(1));
        json_object_set_new(c, "max_values", json_integer(FORM_FILE_MAX));
        json_object_set_new(c, "required", json_true());
        break;
    }
    return c;
}

json_t *render_modal(const struct form *f)
{
    json_t *cb = json_object(), *data = json_object(), *comps = json_array();
    if (cb == NULL || data == NULL || comps == NULL)
        goto nomem;
    json_object_set_new(cb, "type", json_integer(RENDER_MODAL_CALLBACK));
    json_object_set_new(data, "custom_id", json_string(f->custom_id));
    json_object_set_new(data, "title", json_string(f->title));
    for (int i = 0; i < f->nfields; i++) {
        const struct form_field *x = &f->fields[i];
        json_t *l = json_object(), *c = input(x);
        if (l == NULL || c == NULL) {
            json_decref(l);
            json_decref(c);
            goto nomem;
        }
        json_object_set_new(l, "type", json_integer(C_LABEL));
        json_object_set_new(l, "label", json_string(x->label));
        if (x->description[0])
            json_object_set_new(l, "description",
                                json_string(x->description));
        json_object_set_new(l, "component", c);
        json_array_append_new(comps, l);
    }
    json_object_set_new(data, "components", comps);
    json_object_set_new(cb, "data", data);
    return cb;
nomem:
    json_decref(comps);
    json_decref(data);
    json_decref(cb);
    return NULL;
}

char *render_modal_text(const struct form *f, size_t *len)
{
    json_t *j = render_modal(f);
    char *s = j ? json_dumps(j, JSON_COMPACT) : NULL;
    json_decref(j);
    if (s && len)
        *len = strlen(s);
    return s;
}
