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

void console_pick_print(const struct console_picker *p, FILE *out)
{
    for (int i = 0; i < p->n; i++)
        fprintf(out, "%d. %s\n", i + 1, p->values[i]);
    fprintf(out, "answer with a number (1 to %d)\n", p->n);
}

int console_pick_number(const char *line, size_t len)
{
    size_t i = 0, digits = 0;
    int k = 0;
    while (i < len && isspace((unsigned char)line[i]))
        i++;
    while (i < len && isdigit((unsigned char)line[i]) &&
           digits < CONSOLE_PICK_DIGITS + 1) {
        k = k * 10 + (line[i] - '0');
        i++;
        digits++;
    }
    while (i < len && isspace((unsigned char)line[i]))
        i++;
    if (digits == 0 || digits > CONSOLE_PICK_DIGITS || i != len)
        return -1;
    return k;
}

bool console_pick_req(const struct console_picker *p, int k,
                      struct cmd_req *req, char *why, size_t whylen)
{
    if (p->n == 0) {
        snprintf(why, whylen, "no choice is open: a number answers the "
                 "last list of choices");
        return false;
    }
    if (k < 1 || k > p->n) {
        snprintf(why, whylen, "choose a number from 1 to %d", p->n);
        return false;
    }
    return custom_id_req(&p->cid, true, p->values[k - 1], req, why, whylen);
}
