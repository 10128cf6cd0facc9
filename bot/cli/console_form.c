/*
 * console_form.c - a form asked field by field (console_form.h).
 */
#include "console_form.h"

#include <stdlib.h>
#include <string.h>

#include "cmd_form.h"
#include "custom_id.h"
#include "eng_text.h"

/* The answers, kept for the request that borrows them. */
struct answers {
    struct cmd_req req;
    char value[FORM_MAX_FIELDS][CMD_MAX_OPT_VALUE + 1];
};

/* "Hp [0 to 1000000] (optional, empty to skip): ": the field's label, its
 * placeholder, and what it wants. */
static void prompt_of(const struct form_field *x, enum i18n_lang lang,
                      char *buf, size_t cap)
{
    const char *how = "";
    switch (x->kind) {
    case FORM_TEXT:
    case FORM_PARAGRAPH:
        how = x->required ? i18n_get(lang, "required")
                          : i18n_get(lang, "optional, empty to skip");
        break;
    case FORM_SELECT:
        how = i18n_get(lang, "a number or a name, empty to skip");
        break;
    case FORM_CHECKBOX:
        how = i18n_get(lang, "y or n");
        break;
    case FORM_FILE:
        how = i18n_get(lang, "a path");
        break;
    }
    snprintf(buf, cap, "%s%s%s%s (%s): ", x->label,
             x->placeholder[0] ? " [" : "", x->placeholder,
             x->placeholder[0] ? "]" : "", how);
}

/* The answer to field x as the option's text into out; false: left out. */
static bool value_of(const struct form_field *x, const char *answer,
                     char *out, size_t cap)
{
    if (answer[0] == '\0')
        return false;
    if (x->kind == FORM_CHECKBOX) {
        if (answer[0] != 'y' && answer[0] != 'Y')
            return false;
        eng_text_copy(out, cap, "true");
        return true;
    }
    if (x->kind == FORM_SELECT) {
        char *end;
        long n = strtol(answer, &end, 10);
        if (*end == '\0' && n >= 1 && n <= x->noptions) {
            eng_text_copy(out, cap, x->options[n - 1].value);
            return true;
        }
    }
    eng_text_copy(out, cap, answer);
    return true;
}

bool console_form_run(struct cmd_ctx *ctx, const struct form *f,
                      const struct cmd_req *req, console_ask_fn *ask,
                      void *ud, FILE *out, struct cmd_reply *reply,
                      bool *given_up)
{
    struct answers *a = malloc(sizeof *a);
    struct custom_id cid = {0};
    bool ok = false;

    *given_up = false;
    if (a == NULL)
        return false;
    a->req = *req;
    a->req.forms = false;
    a->req.form_version = CMD_FORM_VERSION;
    if (!custom_id_parse(f->custom_id, &cid))
        memset(&cid, 0, sizeof cid);
    a->req.expect_fight = cid.fight;
    fprintf(out, i18n_get(req->lang, "%s (empty input skips a field; end "
                          "of input gives the form up)"), f->title);
    fputc('\n', out);
    for (int i = 0; i < f->nfields; i++) {
        const struct form_field *x = &f->fields[i];
        char prompt[FORM_LABEL_MAX * 4 + FORM_PLACEHOLDER_MAX * 4 + 96];
        for (int k = 0; k < x->noptions; k++)
            fprintf(out, "  %d. %s\n", k + 1, x->options[k].label);
        prompt_of(x, req->lang, prompt, sizeof prompt);
        fflush(out);
        char *answer = ask(ud, prompt);
        if (answer == NULL) {
            *given_up = true;
            goto out;
        }
        if (a->req.nopts < CMD_MAX_OPTS &&
            value_of(x, answer, a->value[i], sizeof a->value[i])) {
            a->req.opts[a->req.nopts].name = x->name;
            a->req.opts[a->req.nopts].value = a->value[i];
            a->req.nopts++;
        }
        free(answer);
    }
    if (cid.has_value && req->nopts == 0 && a->req.nopts < CMD_MAX_OPTS) {
        /* the form's system, as the modal's custom_id carries it */
        a->req.opts[a->req.nopts].name = "system";
        a->req.opts[a->req.nopts].value = cid.opt_value;
        a->req.nopts++;
    }
    ok = cmd_exec(ctx, &a->req, reply);
out:
    free(a);
    return ok;
}
