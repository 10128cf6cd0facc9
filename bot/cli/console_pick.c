/*
 * console_pick.c - pickers on the console: numbered choices (console_pick.h).
 */
#include "console_pick.h"

#include <ctype.h>
#include <string.h>

#include "custom_id_req.h"

bool console_pick_keep(struct console_picker *p, const struct msg *m,
                       int user)
{
    struct custom_id cid;
    if (m->select.noptions <= 0 || m->select.custom_id == NULL ||
        !custom_id_parse(m->select.custom_id, &cid) ||
        cid.version != CUSTOM_ID_ANY_VERSION)
        return false;
    memset(p, 0, sizeof *p);
    p->cid = cid;
    p->user = user;
    p->most = m->select.max_values > 1 ? m->select.max_values : 1;
    for (int i = 0; i < m->select.noptions && i < MSG_MAX_SELECT; i++) {
        const char *v = m->select.options[i].value;
        size_t n = v ? strlen(v) : 0;
        if (n > CONSOLE_PICK_VALUE_MAX)
            n = CONSOLE_PICK_VALUE_MAX;  /* never: Discord's limit is less */
        memcpy(p->values[i], v ? v : "", n);
        p->values[i][n] = '\0';
        p->n++;
    }
    return true;
}

void console_pick_print(const struct console_picker *p, FILE *out,
                        enum i18n_lang lang)
{
    for (int i = 0; i < p->n; i++)
        fprintf(out, "%d. %s\n", i + 1, p->values[i]);
    if (p->most > 1)
        fprintf(out, i18n_get(lang, "answer with up to %1$d numbers (1 to "
                              "%2$d), like 1 3; the first is the target"),
                p->most < p->n ? p->most : p->n, p->n);
    else
        fprintf(out, i18n_get(lang, "answer with a number (1 to %d)"), p->n);
    fputc('\n', out);
}

/* One number at line[*i] (at most CONSOLE_PICK_DIGITS digits), after
 * blanks; -1 when there is none there. */
static int number_at(const char *line, size_t len, size_t *i)
{
    size_t digits = 0;
    int k = 0;
    while (*i < len && isspace((unsigned char)line[*i]))
        (*i)++;
    while (*i < len && isdigit((unsigned char)line[*i]) &&
           digits < CONSOLE_PICK_DIGITS + 1) {
        k = k * 10 + (line[*i] - '0');
        (*i)++;
        digits++;
    }
    if (digits == 0 || digits > CONSOLE_PICK_DIGITS)
        return -1;
    return k;
}

int console_pick_numbers(const char *line, size_t len, int *ks, int max)
{
    size_t i = 0;
    int n = 0;
    for (;;) {
        int k = number_at(line, len, &i);
        if (k < 0 || n == max)
            return -1;
        ks[n++] = k;
        size_t was = i;
        while (i < len && isspace((unsigned char)line[i]))
            i++;
        if (i == len)
            return n;
        if (i == was)
            return -1;                  /* "1x": not a number */
    }
}

int console_pick_number(const char *line, size_t len)
{
    int k;
    return console_pick_numbers(line, len, &k, 1) == 1 ? k : -1;
}

bool console_pick_req(const struct console_picker *p, const int *ks, int n,
                      enum i18n_lang lang, struct cmd_req *req, char *why,
                      size_t whylen)
{
    if (p->n == 0) {
        snprintf(why, whylen, "%s", i18n_get(lang, "no choice is open: a "
                                             "number answers the last list "
                                             "of choices"));
        return false;
    }
    if (n > p->most) {
        snprintf(why, whylen, p->most == 1
                                  ? i18n_get(lang, "choose one number from "
                                             "1 to %d")
                                  : i18n_get(lang, "choose at most %d "
                                             "numbers"),
                 p->most == 1 ? p->n : p->most);
        return false;
    }
    const char *values[MSG_MAX_SELECT];
    for (int i = 0; i < n; i++) {
        if (ks[i] < 1 || ks[i] > p->n) {
            snprintf(why, whylen, i18n_get(lang, "choose a number from 1 to "
                                           "%d"), p->n);
            return false;
        }
        for (int j = 0; j < i; j++)
            if (ks[j] == ks[i]) {
                snprintf(why, whylen, i18n_get(lang, "%d is chosen twice"),
                         ks[i]);
                return false;
            }
        values[i] = p->values[ks[i] - 1];
    }
    return custom_id_req_values(&p->cid, values, n, req, why, whylen);
}
