/*
 * kit_say.c - a ruleset's sentences as data (rs_kit.h).
 *
 * A sentence is a format with "{}" holes and typed arguments: combatants
 * by id, numbers with their own secrecy, the ruleset's words and words a
 * user typed. The renderers decide how each piece looks and what a viewer
 * may see; the ruleset never writes markup or cuts text. The event keeps
 * both the English sentence as parts (the pieces between the holes marked
 * lit) and its template, so a renderer can look the template up in the
 * reader's language and fill its holes with the arguments instead.
 */
#include "rs_kit.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>


/* Add the literal text fmt[0..n) as a TEXT part. */
static void add_text(struct rs_call *c, struct enc_event *ev, const char *s,
                     size_t n)
{
    if (n == 0)
        return;
    char *t = enc_result_alloc(c->r, n + 1);
    if (t == NULL)
        return;
    memcpy(t, s, n);
    t[n] = '\0';
    struct enc_part p = {.kind = ENC_PART_TEXT, .s = t, .lit = true};
    enc_event_part_arena(c->r, ev, &p);
}

struct enc_event *rs_say_args(struct rs_call *c,
                              const struct enc_combatant *who,
                              const char *fmt, const struct rs_say_arg *args,
                              int nargs)
{
    struct enc_event *ev = enc_emit(c->r, ENC_EV_SAY, who ? who->id : 0);
    ev->secret = who != NULL && who->hidden;
    /* The template stays, for a renderer to look up in the reader's
     * language (copied: a front end's own sentence may be built). */
    ev->fmt = enc_result_strdup(c->r, fmt, ENC_MAX_SAY_FMT);
    int used = 0;
    const char *p = fmt;
    while (*p != '\0') {
        const char *hole = strstr(p, "{}");
        if (hole == NULL) {
            add_text(c, ev, p, strlen(p));
            break;
        }
        add_text(c, ev, p, (size_t)(hole - p));
        if (used < nargs) {
            const struct rs_say_arg *a = &args[used++];
            struct enc_part part = {.kind = a->kind, .secret = a->secret,
                                    .id = a->id, .n = a->n, .s = a->s,
                                    .ctx = a->ctx, .sub = a->sub};
            enc_event_parts(c->r, ev, &part, 1);
            if (a->kind == ENC_PART_ROLL)
                enc_event_roll(c->r, ev, (int)a->n);
        } else {
            /* More holes than arguments is a bug in the ruleset; a test
             * runs every sentence, and this keeps the hole visible. */
            add_text(c, ev, "{}", 2);
            c->r->truncated = true;
        }
        p = hole + 2;
    }
    if (used < nargs)
        c->r->truncated = true;
    return ev;
}

struct enc_event *rs_say0(struct rs_call *c, const struct enc_combatant *who,
                          const char *text)
{
    return rs_say_args(c, who, text, NULL, 0);
}

