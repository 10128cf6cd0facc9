/*
 * form.h - a form to fill in (a Discord modal, a console prompt per field),
 * as a value: the command layer decides its fields from the command table
 * and the ruleset's declarations (cmd/cmd_form.c), render_modal.c writes
 * it as Discord's callback type 9, the console asks one field at a time.
 *
 * Limits are Discord's (discord-interface-2026.md section 2.2), counted in
 * characters; the builder keeps every string within them and marks a cut
 * with "…". Buffers hold 4 bytes per character.
 *
 * Ownership: plain value, no pointers; copy it as you like.
 */
#ifndef FORM_H
#define FORM_H

#include <stdbool.h>

#define FORM_MAX_FIELDS 5          /* a modal's top-level components: 1-5 */
#define FORM_TITLE_MAX 45          /* characters */
#define FORM_LABEL_MAX 45
#define FORM_DESC_MAX 100
#define FORM_PLACEHOLDER_MAX 100
#define FORM_ID_MAX 100            /* custom_id, bytes (ASCII) */
#define FORM_NAME_MAX 32           /* a field's option name */
#define FORM_OPTIONS_MAX 25        /* a select's options */
#define FORM_OPTION_MAX 100        /* an option's label or value */
#define FORM_TEXT_MAX 4000         /* a text input's max_length ceiling */
#define FORM_FILE_MAX 1            /* files one upload field takes */

enum form_kind {
    FORM_TEXT = 0,                 /* one line */
    FORM_PARAGRAPH,                /* several lines */
    FORM_SELECT,                   /* one of options */
    FORM_CHECKBOX,                 /* true / false */
    FORM_FILE,                     /* one uploaded file */
};

struct form_option {
    char label[FORM_OPTION_MAX * 4 + 1];
    char value[FORM_OPTION_MAX * 4 + 1];
};

struct form_field {
    enum form_kind kind;
    char name[FORM_NAME_MAX + 1];  /* the option it fills; its custom_id */
    char label[FORM_LABEL_MAX * 4 + 1];
    char description[FORM_DESC_MAX * 4 + 1];     /* "" : none */
    char placeholder[FORM_PLACEHOLDER_MAX * 4 + 1];
    bool required;
    int max_len;                   /* text: 1..FORM_TEXT_MAX */
    struct form_option options[FORM_OPTIONS_MAX];
    int noptions;
};

struct form {
    char custom_id[FORM_ID_MAX + 1];
    char title[FORM_TITLE_MAX * 4 + 1];
    struct form_field fields[FORM_MAX_FIELDS];
    int nfields;
};

/* Characters (UTF-8 code points) in s. */
int form_chars(const char *s);

/* Copy src into dst[cap] keeping at most max characters; a cut ends in
 * "…" (within max). */
void form_copy(char *dst, size_t cap, const char *src, int max);

#endif
