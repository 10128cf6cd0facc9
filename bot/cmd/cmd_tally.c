/*
 * cmd_tally.c - a fight's numbers, added up and said (cmd_tally.h).
 */
#include "cmd_tally.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dur.h"
#include "eng_text.h"
#include "render_enc.h"
#include "rs_kit.h"
#include "sbuf.h"

/* A system that declares nothing: damage takes hit points. */
static const struct rs_harm_spec default_harm[] = {
    {"hp", false}, {NULL, false},
};

static const struct rs_harm_spec *harm_of(const struct encounter *e)
{
    return e->sys != NULL && e->sys->harm != NULL ? e->sys->harm
                                                  : default_harm;
}

/* The index of track in the system's harm list, or -1. */
static int harm_index(const struct rs_harm_spec *h, const char *track)
{
    for (int k = 0; k < ENC_MAX_HARM && h[k].track != NULL; k++)
        if (eng_text_casecmp(h[k].track, track) == 0)
            return k;
    return -1;
}

/* Whether res holds damage dealt to id (ENC_EV_DAMAGE): then that is what
 * it took, and its tracks' changes only break it down. */
static bool damaged(const struct enc_result *res, uint32_t id)
{
    for (int k = 0; k < res->nev; k++)
        if (res->ev[k].kind == ENC_EV_DAMAGE && res->ev[k].other == id)
            return true;
    return false;
}

static void add_attack(struct enc_combatant *who, enum enc_hit hit)
{
    switch (hit) {
    case ENC_HIT_CRIT:
        who->crits++;
        who->hits++;
        break;
    case ENC_HIT_HIT:
        who->hits++;
        break;
    case ENC_HIT_MISS:
        who->misses++;
        break;
    case ENC_HIT_NONE:
        break;
    }
}

/* A track's change: damage when it moved the harm's way. */
static void add_track(struct encounter *e, const struct enc_result *res,
                      struct enc_combatant *who, const struct enc_event *ev)
{
    const struct rs_harm_spec *h = harm_of(e);
    int k = ev->text != NULL ? harm_index(h, ev->text) : -1;
    if (k < 0)
        return;
    int64_t lost = h[k].up ? ev->b - ev->a : ev->a - ev->b;
    if (lost <= 0)
        return;
    who->harm[k] += lost;
    if (!damaged(res, ev->who))
        who->taken += lost;
}

void cmd_tally_add(struct encounter *e, const struct enc_result *res)
{
    for (int i = 0; i < res->nev; i++) {
        const struct enc_event *ev = &res->ev[i];
        struct enc_combatant *who = enc_by_id(e, ev->who);
        struct enc_combatant *other = enc_by_id(e, ev->other);
        switch (ev->kind) {
        case ENC_EV_DAMAGE:
            if (ev->a <= 0)
                break;
            if (who != NULL)
                who->dealt += ev->a;
            /* what a hidden combatant takes is the GM's, even where the
             * attacker's roll was shown */
            if (who != NULL && (ev->secret || (other && other->hidden)))
                who->dealt_unseen += ev->a;
            if (other != NULL)
                other->taken += ev->a;
            break;
        case ENC_EV_DOWN:
            if (who != NULL)
                who->falls++;
            break;
        case ENC_EV_HP:
            if (who != NULL)
                add_track(e, res, who, ev);
            break;
        case ENC_EV_ATTACK:
            if (who != NULL)
                add_attack(who, ev->hit);
            break;
        case ENC_EV_TURN:
            if (who != NULL)
                who->turns++;
            break;
        default:
            break;
        }
    }
}

void cmd_tally_wait(struct encounter *e, const struct enc_wait *w0,
                    int64_t now)
{
    if (w0->status != ENC_ST_RUNNING || w0->current == 0 ||
        e->clock.wait_ms <= 0 || e->clock.acted_ms != 0)
        return;
    struct enc_combatant *who = enc_by_id(e, w0->current);
    if (who == NULL)
        return;
    int64_t waited = now > e->clock.wait_ms ? now - e->clock.wait_ms : 0;
    who->waits++;
    who->wait_ms += waited;
    if (waited > who->wait_max_ms)
        who->wait_max_ms = waited;
}

/* Whether the fight's turns waited as play by post's do. */
static bool play_by_post(const struct encounter *e)
{
    if (enc_clock_on(e))
        return true;
    for (int i = 0; i < e->ncs; i++)
        if (e->cs[i].wait_max_ms >= CMD_TALLY_PBP_WAIT_MS)
            return true;
    return false;
}

/* Room for one combatant's sentence: its holes and arguments. */
#define TALLY_MAX_ARGS (8 + 2 * ENC_MAX_HARM)
#define TALLY_MAX_FMT 512

struct line {
    char fmt[TALLY_MAX_FMT];
    size_t len;
    struct rs_say_arg args[TALLY_MAX_ARGS];
    int nargs;
};

static void put(struct line *l, const char *text)
{
    int n = snprintf(l->fmt + l->len, sizeof l->fmt - l->len, "%s", text);
    if (n > 0)
        l->len += (size_t)n < sizeof l->fmt - l->len
                  ? (size_t)n : sizeof l->fmt - l->len - 1;
}

static void arg(struct line *l, struct rs_say_arg a)
{
    if (l->nargs < TALLY_MAX_ARGS)
        l->args[l->nargs++] = a;
}

/* "{} hit" / "{} hits": a count and its noun, the template in the
 * count's plural form (i18n_nget()). */
static void count(struct line *l, int64_t n, const char *tmpl)
{
    put(l, tmpl);
    arg(l, RS_A_NUM(n));
}

/* " (endurance -6, hp -2)": how each track moved, when more than one took
 * damage; cards' harm counts up ("harm +3"). What the rules dealt (the
 * total) may be more than the tracks had left to lose. */
static void breakdown(struct line *l, const struct encounter *e,
                      const struct enc_combatant *x, enum i18n_lang lang)
{
    const struct rs_harm_spec *h = harm_of(e);
    int used = 0;
    for (int k = 0; k < ENC_MAX_HARM && h[k].track != NULL; k++)
        used += x->harm[k] != 0;
    if (used < 2)
        return;
    put(l, " (");
    bool first = true;
    for (int k = 0; k < ENC_MAX_HARM && h[k].track != NULL; k++) {
        if (x->harm[k] == 0)
            continue;
        put(l, first ? "{} " : ", {} ");
        put(l, h[k].up ? "+{}" : "-{}");
        /* the track by the table's word (render_track_name) */
        arg(l, RS_A_TEXT(render_track_name(e->sys, h[k].track, lang)));
        arg(l, RS_A_NUM(x->harm[k]));
        first = false;
    }
    put(l, ")");
}

static void say_line(struct rs_call *c, const struct enc_combatant *x,
                     bool pbp, enum i18n_lang lang)
{
    const struct encounter *e = c->e;
    bool attacked = x->hits != 0 || x->misses != 0;
    bool damage = x->dealt != 0 || x->taken != 0;
    bool waited = pbp && x->waits > 0;
    if (!damage && !attacked && x->turns == 0 && !waited)
        return;
    struct line l = {.len = 0};
    put(&l, i18n_get(lang, "{}: dealt {} damage, took {}"));
    arg(&l, RS_A_WHO(x));
    /* damage to a hidden combatant is the GM's to read, in any sum */
    arg(&l, RS_A_SECRET(x->dealt, x->dealt_unseen > 0));
    arg(&l, RS_A_NUM(x->taken));
    breakdown(&l, e, x, lang);
    if (attacked) {
        put(&l, "; ");
        count(&l, x->hits, i18n_nget(lang, "{} hit",
                                     "{} hits",
                                     (unsigned long)x->hits));
        if (x->crits > 0) {
            put(&l, " (");
            count(&l, x->crits, i18n_nget(lang,
                                          "{} critical",
                                          "{} criticals",
                                          (unsigned long)x->crits));
            put(&l, ")");
        }
        put(&l, ", ");
        count(&l, x->misses, i18n_nget(lang,
                                       "{} miss",
                                       "{} misses",
                                       (unsigned long)x->misses));
    }
    put(&l, "; ");
    count(&l, x->turns, i18n_nget(lang, "{} turn",
                                  "{} turns",
                                  (unsigned long)x->turns));
    char avg[32], most[32];
    if (waited) {
        dur_format_rough_in(lang, x->wait_ms / x->waits, avg, sizeof avg);
        dur_format_rough_in(lang, x->wait_max_ms, most, sizeof most);
        put(&l, i18n_get(lang, ", waited {} on average, {} at most"));
        arg(&l, RS_A_TEXT(avg));
        arg(&l, RS_A_TEXT(most));
    }
    put(&l, ".");
    rs_say_args(c, x, l.fmt, l.args, l.nargs);
}

void cmd_tally_say(struct rs_call *c, enum i18n_lang lang)
{
    const struct encounter *e = c->e;
    if (e->round > 0)
        RS_SAY(c, NULL, i18n_nget(lang, "It lasted {} round.",
                                  "It lasted {} rounds.",
                                  (unsigned long)e->round),
               RS_A_NUM(e->round));
    for (int i = 0; i < e->ncs; i++) {
        const struct enc_combatant *x = &e->cs[i];
        if (!(x->falls > 0 || (x->flags & (ENC_CF_DOWN | ENC_CF_DEAD))))
            continue;
        if (x->flags & ENC_CF_DEAD)
            RS_SAY(c, x, i18n_get(lang, "{} fell and died."), RS_A_WHO(x));
        else if (x->falls > 1)
            RS_SAY(c, x, i18n_get(lang, "{} fell more than once."),
                   RS_A_WHO(x));
        else
            RS_SAY(c, x, i18n_get(lang, "{} fell."), RS_A_WHO(x));
    }
    bool pbp = play_by_post(e);
    for (int i = 0; i < e->ncs; i++)
        say_line(c, &e->cs[i], pbp, lang);
}

bool cmd_tally_log(struct encounter *e, bool gm, enum i18n_lang lang,
                   struct sbuf *out)
{
    /* A result is too big for the stack (ENC_MAX_EVENTS events). */
    struct enc_result *res = malloc(sizeof *res);
    if (res == NULL)
        return false;
    struct enc_diag d;
    memset(&d, 0, sizeof d);
    enc_result_init(res);
    struct rs_call c = {.e = e, .r = res, .d = &d, .is_gm = gm};
    cmd_tally_say(&c, lang);
    bool ok = !res->nomem;
    if (ok) {
        sbuf_add(out, e->status == ENC_ST_ENDED
                          ? i18n_get(lang, "## The numbers")
                          : i18n_get(lang, "## The numbers so far"));
        sbuf_add(out, "\n\n");
        render_events_text(out, e, res, gm, lang);
        sbuf_add(out, "\n");
    }
    enc_result_cleanup(res);
    free(res);
    return ok;
}
