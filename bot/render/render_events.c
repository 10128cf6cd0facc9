/*
 * render_events.c - what a command did, as lines of markdown
 * (render_enc.h).
 *
 * Each event becomes one line. Its rolls are shown with every die
 * (render_roll.h) and its modifiers with their reasons, so the table can
 * check every number. What a viewer may not see is left out per value: a
 * secret event is the GM's alone, a secret number shows as "?", a secret
 * roll or modifier is not listed.
 */
#include "render_enc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "render_roll.h"
#include "sbuf.h"

#define MINUS "\xE2\x88\x92"      /* U+2212, as in "penalty −2" */
#define EM_DASH "\xE2\x80\x94"

struct view {
    const struct encounter *e;
    const struct enc_result *res;
    bool gm;
    enum i18n_lang lang;     /* the message's */
};

/* Whether the text so far ends a line (a name put there starts one). */
static bool at_line_start(const struct sbuf *b)
{
    return b->len == 0 || b->buf[b->len - 1] == '\n';
}

/* The combatant's name, escaped and bold, or fallback when it is gone. A
 * hidden combatant is "someone unseen" to the players: its name never
 * reaches them (docs/commands.md, "Hidden combatants"). */
static void put_who(struct sbuf *b, const struct view *v, uint32_t id,
                    const char *fallback)
{
    const struct enc_combatant *c = enc_by_id_c(v->e, id);
    if (c != NULL && c->hidden && !v->gm) {
        sbuf_add(b, render_unseen(v->lang, at_line_start(b)));
        return;
    }
    sbuf_add(b, "**");
    msg_escape_to(b, c != NULL ? c->name : fallback ? fallback : "?");
    sbuf_add(b, "**");
}

static void put_user(struct sbuf *b, const char *s)
{
    char *esc = msg_escape(s != NULL ? s : "");
    sbuf_add(b, esc != NULL ? esc : "");
    free(esc);
}

static void put_num(struct sbuf *b, int64_t v, bool hidden)
{
    if (hidden)
        sbuf_add(b, "?");
    else if (v < 0) {
        /* INT64_MIN has no positive twin: it keeps its own sign */
        sbuf_add(b, MINUS);
        render_int(b, v == INT64_MIN ? v : -v, 0);
    } else {
        render_int(b, v, 0);
    }
}

/* pre, v in bold, post: "takes **7** damage" without a format parse. */
static void put_bold_int(struct sbuf *b, const char *pre, int64_t v,
                         const char *post)
{
    sbuf_add(b, pre);
    sbuf_add(b, "**");
    render_int(b, v, 0);
    sbuf_add(b, "**");
    sbuf_add(b, post);
}

/* One value of a core event's sentence (put_fmt). */
enum arg_kind { ARG_WHO, ARG_INT, ARG_BOLD, ARG_USER, ARG_WORD };
struct arg {
    enum arg_kind kind;
    int64_t n;               /* WHO: the id; INT, BOLD: the number */
    const char *s;           /* WHO: the name if gone; USER, WORD: text */
};

/* fmt (a catalog's printf format: "%s joins the fight", "%2$s ... %1$s")
 * with its conversions filled from args, each drawn as its kind says: a
 * name through put_who (hidden ones unseen), a number, escaped user
 * text. The conversion's letter is the catalog's check (msgfmt); the
 * value drawn is the arg's. No printf: the English path stays a scan. */
static void put_fmt(struct sbuf *b, const struct view *v, const char *fmt,
                    const struct arg *args, int nargs)
{
    int next = 0;
    const char *run = fmt, *p = fmt;
    while ((p = strchr(p, '%')) != NULL) {
        sbuf_addn(b, run, (size_t)(p - run));
        p++;
        if (*p == '%') {
            sbuf_addc(b, '%');
            run = ++p;
            continue;
        }
        int idx = next;
        const char *q = p;
        int pos = 0;
        while (*q >= '0' && *q <= '9')
            pos = pos * 10 + (*q++ - '0');
        if (*q == '$' && pos > 0) {
            idx = pos - 1;
            p = q + 1;
        } else {
            next++;
        }
        while (*p == 'l' || *p == 'h' || *p == 'z' || *p == 'j')
            p++;
        if (*p != '\0')
            p++;             /* the conversion letter */
        run = p;
        if (idx < 0 || idx >= nargs)
            continue;
        const struct arg *a = &args[idx];
        switch (a->kind) {
        case ARG_WHO:
            put_who(b, v, (uint32_t)a->n, a->s);
            break;
        case ARG_INT:
            render_int(b, a->n, 0);
            break;
        case ARG_BOLD:
            put_bold_int(b, "", a->n, "");
            break;
        case ARG_USER:
            put_user(b, a->s);
            break;
        case ARG_WORD:
            sbuf_add(b, a->s != NULL ? a->s : "");
            break;
        }
    }
    sbuf_add(b, run);
}

/* fmt in the view's language about one combatant. */
static void put_who_says(struct sbuf *b, const struct view *v,
                         const char *fmt, uint32_t who)
{
    struct arg a = {ARG_WHO, who, NULL};
    put_fmt(b, v, i18n_get(v->lang, fmt), &a, 1);
}

static inline void put_text(struct sbuf *b, const struct view *v,
                            const char *s, const struct enc_tmpl *tm,
                            bool esc) __attribute__((always_inline));
static void put_amount(struct sbuf *b, const struct view *v,
                       const struct enc_mod *m);

static bool roll_visible(const struct view *v, int idx)
{
    return idx >= 0 && idx < v->res->nrolls &&
           (v->gm || !v->res->rolls[idx].secret);
}

/* Whether a sentence part of ev already shows roll idx. */
static bool roll_inline(const struct enc_event *ev, int idx)
{
    for (int i = 0; i < ev->nparts; i++)
        if (ev->parts[i].kind == ENC_PART_ROLL && ev->parts[i].n == idx)
            return true;
    return false;
}

/* " (rolls; modifiers)" for what ev used and did not show inline. With
 * faces_only, a lone roll shows just its faces ("[15]+6"): the line has
 * printed its total already. */
static void put_detail(struct sbuf *b, const struct view *v,
                       const struct enc_event *ev, bool faces_only)
{
    int shown = 0, nrolls = 0;
    for (int i = 0; i < ev->nrolls; i++)
        if (roll_visible(v, ev->rolls[i]) && !roll_inline(ev, ev->rolls[i]))
            nrolls++;
    for (int i = 0; i < ev->nrolls; i++) {
        int idx = ev->rolls[i];
        if (!roll_visible(v, idx) || roll_inline(ev, idx))
            continue;
        const struct enc_roll *r = &v->res->rolls[idx];
        if (faces_only && nrolls == 1 && r->nterms == 0)
            continue;      /* a bare number says nothing its total does not */
        sbuf_add(b, shown++ ? "; " : " (");
        if (faces_only && nrolls == 1)
            render_roll_faces(b, r, v->lang);
        else
            render_roll(b, r, false, v->lang);
    }
    for (int i = 0; i < ev->nmods; i++) {
        const struct enc_mod *m = &ev->mods[i];
        if (m->secret && !v->gm)
            continue;
        sbuf_add(b, shown++ ? " \xC2\xB7 " : " (");
        /* a ruleset's reasons are its words; one a user typed misses */
        put_text(b, v, m->reason, m->reason_t, true);
        if (m->has_amount) {
            sbuf_add(b, m->amount < 0 ? " " MINUS : " +");
            put_amount(b, v, m);
        }
    }
    if (shown > 0)
        sbuf_addc(b, ')');
}

static void put_part(struct sbuf *b, const struct view *v,
                     const struct enc_part *p)
{
    bool hidden = p->secret && !v->gm;
    /* The ruleset's own words (not the template's pieces, which came with
     * their sentence) are looked up; a user's never. */
    const char *word = p->s != NULL ? p->s : "";
    if (!p->lit && (p->kind == ENC_PART_TEXT || p->kind == ENC_PART_STRONG))
        word = p->ctx != NULL ? i18n_pget(v->lang, p->ctx, word)
                              : i18n_get(v->lang, word);
    switch (p->kind) {
    case ENC_PART_TEXT:
        sbuf_add(b, word);
        break;
    case ENC_PART_USER:
        put_user(b, p->s);
        break;
    case ENC_PART_WHO:
        put_who(b, v, p->id, p->s);
        break;
    case ENC_PART_SIDE:
        put_user(b, render_side_unseen(v->e, p->n) && !v->gm
                        ? render_unseen_side(v->lang)
                        : p->s);
        break;
    case ENC_PART_NUM:
        put_num(b, p->n, hidden);
        break;
    case ENC_PART_STRONG:
        sbuf_add(b, "**");
        sbuf_add(b, word);
        sbuf_add(b, "**");
        break;
    case ENC_PART_ROLL:
        if (p->n >= 0 && p->n < v->res->nrolls &&
            roll_visible(v, (int)p->n))
            render_roll(b, &v->res->rolls[p->n], true, v->lang);
        else
            sbuf_add(b, "?");
        break;
    }
}

/* t (a catalog's translation) with its holes filled from args: "{}"
 * takes the next argument, "{N}" the Nth (1-based), so a language may
 * reorder them. A template's text (plain) draws a name without bold, as
 * its English did. */
static void put_holes(struct sbuf *b, const struct view *v, const char *t,
                      const struct enc_part *const *args, int nargs,
                      bool plain)
{
    int next = 0;
    const char *run = t;
    for (const char *p = t; (p = strchr(p, '{')) != NULL;) {
        const char *end;
        int idx = enc_tmpl_hole(p, &next, &end);
        if (idx < 0) {
            p++;             /* a brace of the text itself */
            continue;
        }
        sbuf_addn(b, run, (size_t)(p - run));
        if (idx < nargs) {
            const struct enc_part *a = args[idx];
            if (a->sub != NULL) {
                put_text(b, v, a->s, a->sub, plain);
            } else if (plain && a->kind == ENC_PART_WHO) {
                const struct enc_combatant *c = enc_by_id_c(v->e, a->id);
                if (c != NULL && c->hidden && !v->gm)
                    sbuf_add(b, render_unseen(v->lang, false));
                else
                    put_user(b, c != NULL ? c->name : a->s);
            } else {
                put_part(b, v, a);
            }
        }
        p = end;
        run = p;
    }
    sbuf_add(b, run);
}

/* ev's sentence from its template's translation. False (nothing drawn)
 * when the view is English or the catalog has no translation: the
 * English parts are drawn instead. */
static bool put_translated(struct sbuf *b, const struct view *v,
                           const struct enc_event *ev)
{
    if (v->lang == I18N_EN || ev->fmt == NULL)
        return false;
    const char *t = i18n_get(v->lang, ev->fmt);
    if (t == ev->fmt)
        return false;
    const struct enc_part *args[ENC_MAX_PARTS];
    int nargs = 0;
    for (int i = 0; i < ev->nparts && nargs < ENC_MAX_PARTS; i++)
        if (!ev->parts[i].lit)
            args[nargs++] = &ev->parts[i];
    put_holes(b, v, t, args, nargs, false);
    return true;
}

/* tm's translation in v's language with its holes filled; false (nothing
 * drawn) when the catalog lacks it. Apart from put_text, whose English
 * path stays a plain call. */
static bool __attribute__((noinline))
put_tmpl(struct sbuf *b, const struct view *v, const struct enc_tmpl *tm)
{
    if (tm->fmt[0] == '\0')
        return false;        /* lost to a full result: "" is the header */
    /* "{}" alone is a declared word (RS_T_WORD): its argument is looked
     * up, not the template */
    bool word = strcmp(tm->fmt, "{}") == 0;
    const char *t = word ? "{}"
                    : tm->fmt_other == NULL
                        ? i18n_get(v->lang, tm->fmt)
                        : i18n_nget(v->lang, tm->fmt, tm->fmt_other,
                                    (unsigned long)(tm->count < 0
                                                        ? -tm->count
                                                        : tm->count));
    if (!word && (t == tm->fmt || t == tm->fmt_other))
        return false;
    const struct enc_part *args[ENC_MAX_PARTS];
    int nargs = tm->nargs < ENC_MAX_PARTS ? tm->nargs : ENC_MAX_PARTS;
    for (int i = 0; i < nargs; i++)
        args[i] = &tm->args[i];
    put_holes(b, v, t, args, nargs, true);
    return true;
}

/* A ruleset's label, outcome or reason in v's language: its template's
 * translation filled (tm, when it has one and the catalog translates
 * it), else s looked up as one message. English draws s, as it always
 * did; esc escapes it (a label or reason may hold a user's words).
 * Inlined: English pays two compares over what it drew before. */
static inline void put_text(struct sbuf *b, const struct view *v,
                            const char *s, const struct enc_tmpl *tm,
                            bool esc)
{
    if (tm != NULL && v->lang != I18N_EN && put_tmpl(b, v, tm))
        return;
    if (s == NULL)
        return;
    if (esc)
        put_user(b, i18n_get(v->lang, s));
    else
        sbuf_add(b, i18n_get(v->lang, s));
}

/* A modifier's amount (its size: the sign is drawn) and unit: English
 * as recorded ("2 dice"); another language the plural form of the
 * unit's pair for the amount ("{} die", "{} dice"), or the unit looked
 * up as a word. */
static void put_amount(struct sbuf *b, const struct view *v,
                       const struct enc_mod *m)
{
    int64_t n = m->amount < 0 ? -m->amount : m->amount;
    if (v->lang != I18N_EN && m->unit_other != NULL) {
        const char *t = i18n_nget(v->lang, m->unit_one, m->unit_other,
                                  (unsigned long)n);
        if (t != m->unit_one && t != m->unit_other) {
            struct enc_part num = {.kind = ENC_PART_NUM, .n = n};
            const struct enc_part *arg = &num;
            put_holes(b, v, t, &arg, 1, true);
            return;
        }
    }
    render_int(b, n, 0);
    if (m->unit[0] == '\0')
        return;
    sbuf_addc(b, ' ');
    sbuf_add(b, v->lang == I18N_EN ? m->unit : i18n_get(v->lang, m->unit));
}

static void put_parts(struct sbuf *b, const struct view *v,
                      const struct enc_event *ev)
{
    if (put_translated(b, v, ev))
        return;
    for (int i = 0; i < ev->nparts; i++)
        put_part(b, v, &ev->parts[i]);
}

/* "V vs T (detail) — outcome", numbers hidden as the viewer requires. */
static void put_compare(struct sbuf *b, const struct view *v,
                        const struct enc_event *ev)
{
    if (ev->has_cmp && ev->value_secret && !v->gm) {
        /* The roll was a hidden combatant's: what it was compared with
         * would give it away, so only the outcome shows. */
    } else if (ev->has_cmp) {
        sbuf_add(b, ": ");
        put_num(b, ev->value, ev->value_secret && !v->gm);
        sbuf_add(b, i18n_get(v->lang, " vs "));
        put_num(b, ev->target, ev->target_secret && !v->gm);
        put_detail(b, v, ev, true);
    } else {
        put_detail(b, v, ev, false);
    }
    if (ev->outcome != NULL) {
        sbuf_add(b, ev->has_cmp ? " " EM_DASH " **" : ": **");
        put_text(b, v, ev->outcome, ev->outcome_t, false);
        sbuf_add(b, "**");
    }
}

/* Append ev's line; false when the viewer sees nothing of it. */
static bool render_event(struct sbuf *b, const struct view *v,
                         const struct enc_event *ev)
{
    const struct encounter *e = v->e;
    bool hide = ev->secret && !v->gm;
    /* What happens to a hidden combatant that the players would not see
     * across the table: it arriving, leaving, its initiative, its
     * conditions and its questions. */
    if (hide && (ev->kind == ENC_EV_ADDED || ev->kind == ENC_EV_REMOVED ||
                 ev->kind == ENC_EV_INIT || ev->kind == ENC_EV_COND_ADD ||
                 ev->kind == ENC_EV_COND_EXPIRE ||
                 ev->kind == ENC_EV_COND_REMOVE ||
                 ev->kind == ENC_EV_STAT || ev->kind == ENC_EV_NOTE ||
                 ev->kind == ENC_EV_PROMPT))
        return false;
    enum i18n_lang lang = v->lang;
    switch (ev->kind) {
    case ENC_EV_SAY:
        if (hide)
            return false;
        put_parts(b, v, ev);
        put_detail(b, v, ev, false);
        break;
    case ENC_EV_PROMPT:
        /* A sentence of parts marks its own names; bold around it would
         * nest. */
        if (ev->nparts > 0) {
            put_parts(b, v, ev);
        } else {
            sbuf_add(b, "**");
            sbuf_add(b, ev->text != NULL ? ev->text : "");
            sbuf_add(b, "**");
        }
        break;
    case ENC_EV_ADDED:
        put_who_says(b, v, N_("%s joins the fight"), ev->who);
        break;
    case ENC_EV_REMOVED: {
        struct arg a = {ARG_WHO, 0, ev->text};
        put_fmt(b, v, i18n_get(lang, "%s leaves the fight"), &a, 1);
        break;
    }
    case ENC_EV_INIT:
        if (hide) {
            put_who_says(b, v, N_("%s rolls initiative"), ev->who);
        } else {
            struct arg a[] = {{ARG_WHO, ev->who, NULL},
                              {ARG_BOLD, ev->a, NULL}};
            put_fmt(b, v, i18n_get(lang, "%s rolls initiative: %d"), a, 2);
            put_detail(b, v, ev, true);
        }
        break;
    case ENC_EV_BEGIN:
        sbuf_add(b, i18n_get(lang, "The fight begins!"));
        break;
    case ENC_EV_ROUND: {
        struct arg a = {ARG_INT, ev->a, NULL};
        put_fmt(b, v, i18n_get(lang, "__**Round %d**__"), &a, 1);
        break;
    }
    case ENC_EV_TURN:
        put_who_says(b, v, N_("\xE2\x96\xB6 It is %s's turn"), ev->who);
        break;
    case ENC_EV_TURN_END:
        put_who_says(b, v, N_("%s ends their turn"), ev->who);
        break;
    case ENC_EV_SKIP:
        put_who_says(b, v, N_("%s is down and skips their turn"), ev->who);
        break;
    case ENC_EV_HP:
        if (hide) {
            const struct enc_combatant *c = enc_by_id_c(e, ev->who);
            struct arg a[] = {
                {ARG_WHO, ev->who, NULL},
                {ARG_WORD, 0, c ? render_health_label(c, lang)
                                : i18n_pget(lang, "health", "hurt")}};
            put_fmt(b, v, i18n_get(lang, "%s is %s"), a, 2);
        } else {
            /* the track's name is the system's word (hp), a GM's own
             * track's as typed */
            const char *track = render_track_name(v->e->sys, ev->text, lang);
            put_who(b, v, ev->who, NULL);
            sbuf_add(b, ": ");
            if (track != ev->text)
                sbuf_add(b, track);
            else
                put_user(b, ev->text);
            sbuf_addc(b, ' ');
            render_int(b, ev->a, 0);
            put_bold_int(b, " \xE2\x86\x92 ", ev->b, "");
        }
        break;
    case ENC_EV_DOWN:
        put_who_says(b, v, N_("%s is **down**!"), ev->who);
        break;
    case ENC_EV_UP:
        put_who_says(b, v, N_("%s is back on their feet"), ev->who);
        break;
    case ENC_EV_COND_ADD: {
        struct arg a[] = {{ARG_WHO, ev->who, NULL},
                          {ARG_USER, 0, render_cond_name(ev->text, lang)}};
        put_fmt(b, v, i18n_get(lang, "%s is now **%s**"), a, 2);
        if (ev->a != 0 && !hide)
            sbuf_addf(b, " %" PRId64, ev->a);
        if (ev->b > 0 && ev->c > 0) {
            sbuf_add(b, " (");
            render_cond_until(b, e, ev->other,
                              ev->c == ENC_EXPIRE_START + 1
                                  ? ENC_EXPIRE_START : ENC_EXPIRE_END,
                              ev->b, false, v->gm, lang);
            sbuf_addc(b, ')');
        } else if (ev->b > 0) {
            sbuf_add(b, " (");
            sbuf_addf(b, i18n_nget(lang, "%d round", "%d rounds",
                                   (unsigned long)ev->b),
                      (int)ev->b);
            sbuf_addc(b, ')');
        }
        break;
    }
    case ENC_EV_COND_EXPIRE:
    case ENC_EV_COND_REMOVE: {
        struct arg a[] = {{ARG_WHO, ev->who, NULL},
                          {ARG_USER, 0, render_cond_name(ev->text, lang)}};
        put_fmt(b, v, ev->kind == ENC_EV_COND_EXPIRE
                          ? i18n_get(lang, "%s is no longer %s (it wore off)")
                          : i18n_get(lang, "%s is no longer %s"),
                a, 2);
        break;
    }
    case ENC_EV_ATTACK: {
        struct arg a[] = {{ARG_WHO, ev->who, NULL},
                          {ARG_WHO, ev->other, NULL}};
        put_fmt(b, v, i18n_get(lang, "%s attacks %s"), a, 2);
        if (hide) {
            /* A hidden attacker's numbers are all the GM's. */
            if (ev->outcome != NULL) {
                sbuf_add(b, ": **");
                put_text(b, v, ev->outcome, ev->outcome_t, false);
                sbuf_add(b, "**");
            }
        } else {
            put_compare(b, v, ev);
        }
        break;
    }
    case ENC_EV_TEST:
        if (hide)
            return false;
        if (ev->who != 0) {
            put_who(b, v, ev->who, NULL);
            sbuf_addc(b, ' ');
        }
        /* a ruleset's label is its word; a user's misses the catalog */
        if (ev->text != NULL)
            put_text(b, v, ev->text, ev->text_t, true);
        else
            put_user(b, i18n_get(lang, "tests"));
        put_compare(b, v, ev);
        break;
    case ENC_EV_DAMAGE:
        if (hide) {
            put_who_says(b, v, N_("%s takes damage"), ev->other);
        } else {
            struct arg a[] = {{ARG_WHO, ev->other, NULL},
                              {ARG_BOLD, ev->a, NULL}};
            put_fmt(b, v, i18n_nget(lang, "%s takes %d damage",
                                    "%s takes %d damage",
                                    (unsigned long)(ev->a < 0 ? -ev->a
                                                              : ev->a)),
                    a, 2);
            put_detail(b, v, ev, ev->nrolls == 1);
        }
        break;
    case ENC_EV_STAT:
        put_who_says(b, v, hide ? N_("%s is updated") : N_("%s stats updated"),
                     ev->who);
        if (!hide && ev->text != NULL && ev->text[0] != '\0') {
            sbuf_add(b, ": ");
            put_user(b, ev->text);
        }
        break;
    case ENC_EV_NOTE:
        put_who_says(b, v, N_("%s's note is updated"), ev->who);
        break;
    case ENC_EV_END:
        sbuf_add(b, i18n_get(lang, "The fight is over."));
        break;
    case ENC_EV_ROLL:
        put_user(b, ev->text != NULL ? ev->text : i18n_get(lang, "roll"));
        if (hide) {
            sbuf_add(b, i18n_get(lang, ": rolled in secret"));
        } else {
            put_bold_int(b, ": ", ev->a, "");
            put_detail(b, v, ev, true);
            if (ev->outcome != NULL) {
                sbuf_add(b, " " EM_DASH " **");
                put_text(b, v, ev->outcome, ev->outcome_t, false);
                sbuf_add(b, "**");
            }
        }
        break;
    }
    return true;
}

/* Whether anything of ev is the GM's alone. */
static bool event_secret(const struct enc_result *res,
                         const struct enc_event *ev)
{
    if (ev->secret || (ev->has_cmp && (ev->value_secret ||
                                       ev->target_secret)))
        return true;
    for (int i = 0; i < ev->nparts; i++)
        if (ev->parts[i].secret)
            return true;
    for (int i = 0; i < ev->nmods; i++)
        if (ev->mods[i].secret)
            return true;
    for (int i = 0; i < ev->nrolls; i++)
        if (ev->rolls[i] >= 0 && ev->rolls[i] < res->nrolls &&
            res->rolls[ev->rolls[i]].secret)
            return true;
    return false;
}

static bool is_hidden(const struct encounter *e, uint32_t id)
{
    const struct enc_combatant *c = enc_by_id_c(e, id);
    return c != NULL && c->hidden;
}

/* Whether the players read ev with a name left out: a hidden combatant's
 * ("someone unseen") or a side of hidden ones only. The GM's view then
 * differs: the GM must learn which of them it is (whose turn starts, who
 * was attacked), so a copy for the GM names them. */
static bool names_unseen(const struct encounter *e,
                         const struct enc_event *ev)
{
    if (is_hidden(e, ev->who) || is_hidden(e, ev->other))
        return true;
    for (int i = 0; i < ev->nparts; i++)
        if ((ev->parts[i].kind == ENC_PART_WHO &&
             is_hidden(e, ev->parts[i].id)) ||
            (ev->parts[i].kind == ENC_PART_SIDE &&
             render_side_unseen(e, ev->parts[i].n)))
            return true;
    return false;
}

/* Whether the history line may name ev (render_change_summary). */
static bool summary_kind(const struct enc_event *ev)
{
    return ev->kind != ENC_EV_TURN_END && ev->kind != ENC_EV_ROUND;
}

/* render_events_text, and where the first event a summary names went
 * (first may be NULL). */
static bool events_text(struct sbuf *out, const struct encounter *e,
                        const struct enc_result *res, bool gm_view,
                        struct render_first *first, enum i18n_lang lang)
{
    struct view v = {e, res, gm_view, lang};
    size_t start = out->len;
    bool secret = false;
    if (first != NULL)
        *first = (struct render_first){.ev = -1};
    for (int i = 0; i < res->nev; i++) {
        const struct enc_event *ev = &res->ev[i];
        secret |= event_secret(res, ev) || names_unseen(e, ev);
        if (ev->kind == ENC_EV_TURN_END)
            continue; /* implied by the next line; keeps replies short */
        size_t mark = out->len;
        if (out->len > start)
            sbuf_addc(out, '\n');
        size_t at = out->len;
        if (!render_event(out, &v, ev)) {
            out->len = mark;      /* nothing of it for this viewer */
            if (out->buf != NULL)
                out->buf[mark] = '\0';
        } else if (first != NULL && first->ev < 0 && summary_kind(ev) &&
                   sbuf_error(out) == SBUF_OK) {
            *first = (struct render_first){i, at - start, out->len - at};
        }
    }
    if (res->truncated) {
        sbuf_addc(out, '\n');
        sbuf_add(out, i18n_get(lang, "(more happened than one reply can "
                                     "record; see /combat status)"));
    }
    if (sbuf_error(out) == SBUF_TRUNCATED) {
        sbuf_addc(out, '\n');
        sbuf_add(out, i18n_get(lang, "(more happened than one reply can "
                                     "hold; see /combat status)"));
    }
    return secret;
}

bool render_events_text(struct sbuf *out, const struct encounter *e,
                        const struct enc_result *res, bool gm_view,
                        enum i18n_lang lang)
{
    return events_text(out, e, res, gm_view, NULL, lang);
}

bool render_events(struct msg *m, const struct encounter *e,
                   const struct enc_result *res, bool gm_view,
                   const char *title, enum i18n_lang lang)
{
    return render_events_at(m, e, res, gm_view, title, NULL, lang);
}

bool render_events_at(struct msg *m, const struct encounter *e,
                      const struct enc_result *res, bool gm_view,
                      const char *title, struct render_first *first,
                      enum i18n_lang lang)
{
    struct sbuf b;
    sbuf_init(&b, RENDER_EVENTS_MAX);
    bool secret = events_text(&b, e, res, gm_view, first, lang);
    struct msg_embed *em = msg_add_embed(m, MSG_STYLE_INFO, title);
    if (em != NULL && b.len > 0)
        msg_embed_set_description(em, sbuf_str(&b));
    sbuf_cleanup(&b);
    return secret;
}

/* Markdown of our own rendering back to plain words: bold, italics and
 * strikes dropped, escapes undone. The plain stretches between marks go
 * in whole (a byte at a time was a third of the summary's cost). */
static void plain(struct sbuf *b, const char *s, size_t n)
{
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        bool esc = s[i] == '\\' && i + 1 < n;
        if (!esc && s[i] != '*' && s[i] != '_' && s[i] != '~')
            continue;
        sbuf_addn(b, s + run, i - run);
        if (esc)
            i++; /* the escaped byte starts the next stretch */
        run = esc ? i : i + 1;
    }
    sbuf_addn(b, s + run, n - run);
}

void render_change_summary(struct sbuf *out, const struct encounter *e,
                           const struct enc_result *res, bool *secret,
                           enum i18n_lang lang)
{
    struct view v = {e, res, true, lang};
    struct sbuf line, cand;
    sbuf_init(&line, RENDER_EVENTS_MAX);
    sbuf_init(&cand, RENDER_EVENTS_MAX);
    int named = 0;
    bool found = false;
    *secret = false;
    /* The first line the players may read names the change, so a change
     * that is partly the GM's (a hidden countdown falling as the round
     * ends) does not hide its public part from them; only a change that
     * is the GM's throughout is named by its first line, kept from them. */
    for (int i = 0; i < res->nev; i++) {
        const struct enc_event *ev = &res->ev[i];
        if (!summary_kind(ev))
            continue;
        if (found)
            named++;
        if (found && !*secret)
            continue;
        bool hid = event_secret(res, ev) || names_unseen(e, ev);
        if (found && hid)
            continue;
        sbuf_reset(&cand);
        /* drawn as the GM reads it */
        if (!render_event(&cand, &v, ev))
            continue;
        if (!found)
            named = 1;
        found = true;
        *secret = hid;
        sbuf_reset(&line);
        sbuf_add(&line, sbuf_str(&cand));
    }
    const char *s = sbuf_str(&line);
    size_t n = strcspn(s, "\n");
    plain(out, s, n);
    if (named > 1)
        sbuf_addf(out, i18n_nget(lang, " (and %d more)", " (and %d more)",
                                 (unsigned long)(named - 1)),
                  named - 1);
    sbuf_cleanup(&cand);
    sbuf_cleanup(&line);
}

void render_change_summary_of(struct sbuf *out, const char *text,
                              const struct render_first *first,
                              const struct enc_result *res, bool *secret,
                              enum i18n_lang lang)
{
    int more = 0;
    *secret = false;
    if (first->ev < 0 || first->ev >= res->nev)
        return;
    for (int i = first->ev + 1; i < res->nev; i++)
        more += summary_kind(&res->ev[i]);
    const char *s = text + first->at;
    size_t n = 0;
    while (n < first->len && s[n] != '\n' && s[n] != '\0')
        n++;
    plain(out, s, n);
    if (more > 0)
        sbuf_addf(out, i18n_nget(lang, " (and %d more)", " (and %d more)",
                                 (unsigned long)more),
                  more);
    *secret = event_secret(res, &res->ev[first->ev]);
}
