/*
 * render_tracker.c - the tracker: a fight's state as one embed (render_enc.h).
 */
#include "render_enc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dur.h"
#include "enc_cd.h"
#include "i18n.h"
#include "render_roll.h"
#include "rs.h"
#include "sbuf.h"
#include "turn.h"

/* User text for a line, escaped; when max > 0 and it is longer than max
 * bytes, its middle is cut out ("Captain of…North 12": names in big fights
 * differ at the end as often as at the start). Caller frees. */
static void escape_cut_to(struct sbuf *b, const char *s, size_t max)
{
    char buf[RENDER_ENC_CUT_BUF];
    size_t n = strlen(s);
    if (max == 0 || n <= max || max + 4 > sizeof buf) {
        msg_escape_to(b, s);
        return;
    }
    size_t head = sbuf_utf8_cut(s, max * 3 / 5);
    size_t tail = n - (max - head);
    while (tail < n && ((unsigned char)s[tail] & 0xC0) == 0x80)
        tail++;               /* start the end part on a character */
    snprintf(buf, sizeof buf, "%.*s\xE2\x80\xA6%s", (int)head, s, s + tail);
    msg_escape_to(b, buf);
}

/* Whether the row of c on its initiative value init_idx is the running
 * turn's. A creature with several values (cards) has a row for each, and
 * only the one whose turn runs is marked. */
static bool row_current(const struct encounter *e,
                        const struct enc_combatant *c, int init_idx)
{
    if (e->current == 0 || e->current != c->id)
        return false;
    if (init_idx < 0 || e->turn_idx < 0 || e->turn_idx >= e->norder ||
        e->order[e->turn_idx].id != c->id)
        return true;
    return e->order[e->turn_idx].init_idx == init_idx;
}

/* One combatant's line. compact: a shorter form for big fights (names and
 * sides cut, hp only, the first conditions, no notes or ruleset status). */
/* A hidden combatant's line for the players: its place in the order, a
 * turn marker on its turn (on the running card's line only, when it holds
 * several) and a health label; no name, side, number or condition of it. */
static void unseen_line(struct sbuf *b, const struct encounter *e,
                        const struct enc_combatant *c, int init_idx,
                        enum i18n_lang lang)
{
    bool down = (c->flags & (ENC_CF_DOWN | ENC_CF_DEAD)) != 0;
    sbuf_add(b, row_current(e, c, init_idx) ? "\xE2\x96\xB6 "
                                             : "\xE3\x80\x80");
    sbuf_addf(b, "%s (%s)\n", render_unseen(lang, true),
              down ? i18n_pget(lang, "health", "down")
                   : render_health_label(c, lang));
}

void render_cond_until(struct sbuf *b, const struct encounter *e,
                       uint32_t anchor, enum enc_expire at, int64_t turns,
                       bool now, bool gm_view, enum i18n_lang lang)
{
    const struct enc_combatant *who = enc_by_id_c(e, anchor);
    bool start = at == ENC_EXPIRE_START;
    char *name = who == NULL || (who->hidden && !gm_view)
                     ? NULL
                     : msg_escape(who->name);
    const char *n = who == NULL || (who->hidden && !gm_view)
                        ? render_unseen(lang, false)
                        : name ? name : "?";
    if (now && turns <= 1) {
        sbuf_addf(b, start ? i18n_get(lang, "until the start of %s's turn")
                           : i18n_get(lang, "until the end of %s's turn"),
                  n);
    } else if (turns - now <= 1) {
        /* now: the running turn is the first of them */
        sbuf_addf(b, start
                         ? i18n_get(lang, "until the start of %s's next turn")
                         : i18n_get(lang, "until the end of %s's next turn"),
                  n);
    } else {
        turns -= now;
        /* 11th to 13th, else by the last digit: 1st, 2nd, 3rd, 4th (an
         * English ordinal: a translation takes the number and leaves the
         * suffix out, %3$.0s). */
        int64_t last = turns % 10, tens = turns % 100;
        const char *th = tens >= 11 && tens <= 13 ? "th"
                         : last == 1 ? "st" : last == 2 ? "nd"
                         : last == 3 ? "rd" : "th";
        sbuf_addf(b, start ? i18n_get(lang, "until the start of %s's "
                                            "%lld%s turn from now")
                           : i18n_get(lang, "until the end of %s's "
                                            "%lld%s turn from now"),
                  n, (long long)turns, th);
    }
    free(name);
}

/* A condition's time left after its name: rounds when the holder's own
 * turn ends count it (the short form), else whose turn and which end. */
static void cond_time(struct sbuf *b, const struct encounter *e,
                      const struct enc_combatant *c, const struct enc_cond *q,
                      bool gm_view, bool compact, enum i18n_lang lang)
{
    if (q->rounds <= 0)
        return;
    if (compact || (q->anchor == c->id && q->expire == ENC_EXPIRE_END)) {
        /* TRANSLATORS: rounds left, short: "(3r)" */
        sbuf_addf(b, i18n_get(lang, " (%dr)"), (int)q->rounds);
        return;
    }
    /* The anchor's running turn counts when it began after the condition
     * was given and its end is the boundary (turn.c turn_expire). */
    bool now = q->expire == ENC_EXPIRE_END && e->current == q->anchor &&
               q->applied_turn < e->turn_seq;
    sbuf_add(b, " (");
    render_cond_until(b, e, q->anchor, q->expire, q->rounds, now, gm_view,
                      lang);
    sbuf_addc(b, ')');
}

/* The engine's translator (enc_tr_fn) for enc_entry_place() and the
 * system's status and head: ctx is the tracker's language. */
static const char *lang_tr(const void *ctx, const char *fmt)
{
    return i18n_get(*(const enum i18n_lang *)ctx, fmt);
}

/* What the tracker says of c after its place: name, side, tracks (or a
 * health label), the system's status, conditions, resources and note. */
static void combatant_desc(struct sbuf *b, const struct encounter *e,
                           const struct enc_combatant *c, bool gm_view,
                           bool compact, enum i18n_lang lang)
{
    const struct rs_system *rs = e->sys; /* no lookup on every line */
    bool numbers = gm_view || !c->hidden;
    bool down = (c->flags & (ENC_CF_DOWN | ENC_CF_DEAD)) != 0;
    sbuf_add(b, down ? "~~" : "**");
    escape_cut_to(b, c->name, compact ? RENDER_ENC_COMPACT_NAME : 0);
    sbuf_add(b, down ? "~~" : "**");
    if (down)
        sbuf_add(b, i18n_get(lang, " (down)"));
    if (c->hidden && gm_view)
        sbuf_add(b, compact ? i18n_get(lang, " (h)")
                            : i18n_get(lang, " (hidden)"));
    if (c->side >= 0 && c->side < e->nsides) {
        sbuf_add(b, " [");
        escape_cut_to(b, e->sides[c->side].name,
                      compact ? RENDER_ENC_COMPACT_SIDE : 0);
        sbuf_addc(b, ']');
    }
    if (numbers) {
        for (int i = 0; i < c->ntracks; i++) {
            const struct enc_track *t = &c->tracks[i];
            if (compact && strcmp(t->name, "hp") != 0)
                continue;
            sbuf_addc(b, ' ');
            sbuf_add(b, render_track_name(rs, t->name, lang));
            sbuf_addc(b, ' ');
            render_int(b, t->cur, 0);
            if (t->max > 0) {
                sbuf_addc(b, '/');
                render_int(b, t->max, 0);
            }
        }
    } else if (!down) {
        sbuf_addf(b, " (%s)", render_health_label(c, lang));
    }
    if (!compact && rs != NULL && rs->ops->status != NULL) {
        struct eng_buf extra;
        eng_buf_init(&extra, RENDER_ENC_MAX_EVENTS_TEXT);
        rs->ops->status(e, c, &extra, lang == I18N_EN ? NULL : lang_tr,
                        &lang);
        if (eng_buf_str(&extra)[0] != '\0')
            sbuf_addf(b, " \xC2\xB7 %s", eng_buf_str(&extra));
        eng_buf_cleanup(&extra);
    }
    int shown = compact && c->nconds > RENDER_ENC_COMPACT_CONDS
                    ? RENDER_ENC_COMPACT_CONDS
                    : c->nconds;
    for (int i = 0; i < shown; i++) {
        const struct enc_cond *q = &c->conds[i];
        sbuf_add(b, i == 0 ? " \xC2\xB7 " : ", ");
        escape_cut_to(b, render_cond_name(q->name, lang),
                      compact ? RENDER_ENC_COMPACT_COND : 0);
        if (q->value != 0 && numbers) {
            sbuf_addc(b, ' ');
            render_int(b, q->value, 0);
        }
        cond_time(b, e, c, q, gm_view, compact, lang);
    }
    if (shown < c->nconds)
        sbuf_addf(b, " +%d", c->nconds - shown);
    /* Resources are numbers: a hidden combatant's are the GM's. */
    for (int i = 0; numbers && i < c->nres; i++) {
        const struct enc_res *x = &c->res[i];
        sbuf_add(b, i == 0 ? " \xC2\xB7 " : ", ");
        escape_cut_to(b, x->name, compact ? RENDER_ENC_COMPACT_COND : 0);
        sbuf_addf(b, " %d/%d", (int)x->cur, (int)x->max);
    }
    if (!compact && c->note[0] != '\0' && numbers) {
        char *note = msg_escape(c->note);
        sbuf_addf(b, " \xE2\x80\x94 _%s_", note ? note : "");
        free(note);
    }
}

static void tracker_line(struct sbuf *b, const struct encounter *e,
                         const struct enc_combatant *c, int init_idx,
                         bool gm_view, bool compact, enum i18n_lang lang)
{
    if (c->hidden && !gm_view) {
        unseen_line(b, e, c, init_idx, lang);
        return;
    }
    sbuf_add(b, row_current(e, c, init_idx) ? "\xE2\x96\xB6 "
                                             : "\xE3\x80\x80");
    if (e->status != ENC_ST_SETUP && init_idx >= 0 && init_idx < c->ninit) {
        sbuf_addc(b, '`');
        render_int(b, c->init[init_idx], compact ? 0 : 3);
        sbuf_add(b, "` ");
    }
    combatant_desc(b, e, c, gm_view, compact, lang);
    sbuf_addc(b, '\n');
}

/* An event of the order's line: the turn marker when the turn stopped on
 * it, its count or card, its name and kind, its note and dice. Only ever
 * drawn for whoever may see it (render_tracker_slots). */
static void event_line(struct sbuf *b, const struct encounter *e,
                       const struct enc_entry *x, bool compact,
                       enum i18n_lang lang)
{
    sbuf_add(b, e->entry_on == x->id ? "\xE2\x96\xB6 " : "\xE3\x80\x80");
    if (e->status != ENC_ST_SETUP && x->at == ENC_ENTRY_COUNT) {
        sbuf_addc(b, '`');
        render_int(b, x->count, compact ? 0 : 3);
        sbuf_add(b, "` ");
    }
    char place[64];
    enc_entry_place(e, x, place, sizeof place, lang_tr, &lang);
    sbuf_add(b, "\xE2\x9C\xA6 _");
    escape_cut_to(b, x->name, compact ? RENDER_ENC_COMPACT_NAME : 0);
    sbuf_addf(b, "_ (%s, %s)", i18n_get(lang, enc_entry_kind_word(x->kind)),
              place);
    if (x->hidden)
        sbuf_add(b, compact ? i18n_get(lang, " (h)")
                            : i18n_get(lang, " (hidden)"));
    if (!compact && x->note[0] != '\0') {
        char *note = msg_escape(x->note);
        sbuf_addf(b, " \xE2\x80\x94 %s", note ? note : "");
        free(note);
    }
    if (!compact && x->dice[0] != '\0') {
        char *dice = msg_escape(x->dice);
        sbuf_addf(b, " `%s`", dice ? dice : "");
        free(dice);
    }
    sbuf_addc(b, '\n');
}

/* A place's line, whichever it is. */
static void slot_line(struct sbuf *b, const struct encounter *e,
                      const struct render_slot *s, bool gm_view,
                      bool compact, enum i18n_lang lang)
{
    if (s->ev != NULL)
        event_line(b, e, s->ev, compact, lang);
    else
        tracker_line(b, e, s->c, s->init_idx, gm_view, compact, lang);
}

void render_combatant(struct sbuf *b, const struct encounter *e,
                      const struct enc_combatant *c, enum i18n_lang lang)
{
    if (c->hidden)
        return;
    combatant_desc(b, e, c, false, false, lang);
}

void render_tracker_row(struct sbuf *b, const struct encounter *e,
                        const struct render_slot *s, bool gm_view,
                        enum i18n_lang lang)
{
    slot_line(b, e, s, gm_view, false, lang);
    while (b->len > 0 && b->buf[b->len - 1] == '\n')
        b->buf[--b->len] = '\0';
}

bool render_slot_current(const struct encounter *e,
                         const struct render_slot *s)
{
    if (s->ev != NULL)
        return e->entry_on == s->ev->id;
    return row_current(e, s->c, s->init_idx);
}

/* The tracker's lines, one per order slot (or combatant), as drawn at one
 * level of detail. */
struct tracker_lines {
    char *line[RENDER_ENC_MAX_LINES];
    int n;
    int current;                /* index of the running turn's line, or -1 */
    size_t bytes;
};

static void lines_free(struct tracker_lines *t)
{
    for (int i = 0; i < t->n; i++)
        free(t->line[i]);
    t->n = 0;
    t->bytes = 0;
}

static void lines_add(struct tracker_lines *t, const struct encounter *e,
                      const struct render_slot *slot, bool gm_view,
                      bool compact, enum i18n_lang lang)
{
    struct sbuf b;
    if (t->n >= RENDER_ENC_MAX_LINES)
        return;
    sbuf_init(&b, RENDER_ENC_MAX_EVENTS_TEXT);
    slot_line(&b, e, slot, gm_view, compact, lang);
    char *s = sbuf_take(&b);
    sbuf_cleanup(&b);
    if (s == NULL)
        return;
    if (t->current < 0 && render_slot_current(e, slot))
        t->current = t->n;
    t->line[t->n++] = s;
    t->bytes += strlen(s);
}

/* Events of the order go at their places among the slots; the ones
 * drawn are marked in done (bit per entry). */
struct event_places {
    const struct encounter *e;
    bool gm_view;
    unsigned done;
};

/* Add the events at place at (for counts: those before a slot of value
 * when bounded), in the order the turn reaches them. */
static int events_add(struct event_places *p, enum enc_entry_at at,
                      bool bounded, int64_t value, struct render_slot *out,
                      int n, int max)
{
    const struct encounter *e = p->e;
    for (;;) {
        int best = -1;
        for (int i = 0; i < e->nentries; i++) {
            const struct enc_entry *x = &e->entries[i];
            if ((p->done >> i) & 1 || x->at != (int32_t)at ||
                (x->hidden && !p->gm_view))
                continue;
            if (bounded && !enc_entry_precedes(e, x, value))
                continue;
            /* the soonest count first: one that precedes the best's own
             * count comes before it */
            if (best < 0 || (at == ENC_ENTRY_COUNT &&
                             enc_entry_precedes(e, x,
                                                e->entries[best].count)))
                best = i;
        }
        if (best < 0 || n >= max)
            return n;
        p->done |= 1u << best;
        out[n++] = (struct render_slot){NULL, -1, &e->entries[best]};
    }
}

int render_tracker_slots(const struct encounter *e, struct render_slot *out,
                         int max, bool gm_view)
{
    int n = 0;
    struct event_places ev = {e, gm_view, 0};
    bool setup = e->status == ENC_ST_SETUP;
    if (e->nentries > 0 && !setup)
        n = events_add(&ev, ENC_ENTRY_START, false, 0, out, n, max);
    if (!setup && e->norder > 0) {
        for (int i = 0; i < e->norder && n < max; i++) {
            const struct enc_combatant *c = enc_by_id_c(e, e->order[i].id);
            if (c == NULL)
                continue;
            if (e->nentries > 0)
                n = events_add(&ev, ENC_ENTRY_COUNT, true,
                               turn_slot_value(e, i), out, n, max);
            if (n >= max)
                break;
            /* A hidden combatant keeps its place, unnamed. */
            out[n++] = (struct render_slot){c, e->order[i].init_idx, NULL};
        }
        /* Combatants not in the order (alternating rulesets, late
         * arrivals) are listed after it. */
        for (int i = 0; i < e->ncs && n < max; i++) {
            bool listed = false;
            for (int k = 0; k < e->norder && !listed; k++)
                listed = e->order[k].id == e->cs[i].id;
            if (listed)
                continue;
            out[n++] = (struct render_slot){&e->cs[i], -1, NULL};
        }
    } else {
        for (int i = 0; i < e->ncs && n < max; i++)
            out[n++] = (struct render_slot){&e->cs[i], 0, NULL};
    }
    if (e->nentries > 0) {
        /* In setup every event is listed after the combatants, in the
         * order they will come. */
        if (setup)
            n = events_add(&ev, ENC_ENTRY_START, false, 0, out, n, max);
        n = events_add(&ev, ENC_ENTRY_COUNT, false, 0, out, n, max);
        n = events_add(&ev, ENC_ENTRY_END, false, 0, out, n, max);
    }
    return n;
}

static void lines_build(struct tracker_lines *t, const struct encounter *e,
                        bool gm_view, bool compact, enum i18n_lang lang)
{
    struct render_slot slot[RENDER_ENC_MAX_LINES];
    int n = render_tracker_slots(e, slot, RENDER_ENC_MAX_LINES, gm_view);
    t->current = -1;
    for (int i = 0; i < n; i++)
        lines_add(t, e, &slot[i], gm_view, compact, lang);
}

/* Bytes of text the embeds already in m hold (a bound on characters). */
static size_t embeds_bytes(const struct msg *m)
{
    size_t n = 0;
    for (int i = 0; i < m->nembeds; i++) {
        const struct msg_embed *em = &m->embeds[i];
        n += em->title ? strlen(em->title) : 0;
        n += em->description ? strlen(em->description) : 0;
        n += em->footer ? strlen(em->footer) : 0;
        for (int k = 0; k < em->nfields; k++)
            n += strlen(em->fields[k].name) + strlen(em->fields[k].value);
    }
    return n;
}

/* The lines into b within budget bytes: all of them when they fit, else a
 * window around the running turn with how many more there are above and
 * below. Returns true when some were left out. */
static bool lines_emit(struct sbuf *b, const struct tracker_lines *t,
                       size_t budget, enum i18n_lang lang)
{
    if (t->bytes <= budget) {
        for (int i = 0; i < t->n; i++)
            sbuf_add(b, t->line[i]);
        return false;
    }
    size_t room = budget > 2 * RENDER_ENC_MORE_LINE
                      ? budget - 2 * RENDER_ENC_MORE_LINE
                      : 0;
    int first = t->current >= 0 ? t->current : 0, last = first;
    size_t used = 0;
    while (last < t->n && used + strlen(t->line[last]) <= room)
        used += strlen(t->line[last++]);
    while (first > 0 && used + strlen(t->line[first - 1]) <= room)
        used += strlen(t->line[--first]);
    if (first > 0) {
        sbuf_addf(b, i18n_nget(lang, "_\xE2\x80\xA6 %d more above_",
                               "_\xE2\x80\xA6 %d more above_",
                               (unsigned long)first),
                  first);
        sbuf_addc(b, '\n');
    }
    for (int i = first; i < last; i++)
        sbuf_add(b, t->line[i]);
    if (last < t->n) {
        sbuf_addf(b, i18n_nget(lang, "_\xE2\x80\xA6 %d more below_",
                               "_\xE2\x80\xA6 %d more below_",
                               (unsigned long)(t->n - last)),
                  t->n - last);
        sbuf_addc(b, '\n');
    }
    return true;
}

/* The footer's word on the turn clock: how long the fight has waited
 * (from a minute on: a live table's turns pass quicker) and the clock's
 * settings when it is set. */
static void clock_foot(struct sbuf *foot, const struct encounter *e,
                       int64_t now_ms, enum i18n_lang lang)
{
    const struct enc_clock *k = &e->clock;
    char a[DUR_MAX_TEXT + 1], b[DUR_MAX_TEXT + 1];
    if (e->status != ENC_ST_RUNNING)
        return;
    if (now_ms > 0 && k->wait_ms > 0 && now_ms - k->wait_ms >= DUR_MS_MINUTE) {
        dur_format_rough_in(lang, now_ms - k->wait_ms, a, sizeof a);
        sbuf_addf(foot, i18n_get(lang, " \xC2\xB7 waiting %s"), a);
    }
    if (!enc_clock_on(e))
        return;
    sbuf_add(foot, i18n_get(lang, " \xC2\xB7 clock:"));
    if (k->remind_ms > 0) {
        dur_format(k->remind_ms, a, sizeof a);
        sbuf_addf(foot, i18n_get(lang, " remind %s"), a);
    }
    if (k->act_ms > 0) {
        dur_format(k->act_ms, b, sizeof b);
        sbuf_addf(foot, i18n_get(lang, "%s act %s%s"),
                  k->remind_ms > 0 ? "," : "", b,
                  k->autoskip ? i18n_get(lang, " (auto)") : "");
    }
}

void render_tracker(struct msg *m, const struct encounter *e, bool gm_view,
                    enum i18n_lang lang)
{
    render_tracker_at(m, e, gm_view, 0, lang);
}

void render_tracker_title(struct sbuf *title, const struct encounter *e,
                          enum i18n_lang lang)
{
    char *name = msg_escape(e->name[0] ? e->name : i18n_get(lang, "Fight"));
    if (e->status == ENC_ST_SETUP)
        sbuf_addf(title, i18n_get(lang, "%s \xE2\x80\x94 getting ready"),
                  name ? name : "");
    else if (e->status == ENC_ST_ENDED)
        sbuf_addf(title, i18n_get(lang, "%s \xE2\x80\x94 finished after "
                                        "round %d"),
                  name ? name : "", (int)e->round);
    else if (lang != I18N_EN)
        sbuf_addf(title, i18n_get(lang, "%s \xE2\x80\x94 round %d"),
                  name ? name : "", (int)e->round);
    else {
        /* every turn's title: appended, not formatted (the same
         * message as above, in English) */
        sbuf_add(title, name ? name : "");
        sbuf_add(title, " \xE2\x80\x94 round ");
        render_int(title, e->round, 0);
    }
    free(name);
}

void render_tracker_head(struct sbuf *b, const struct encounter *e,
                         enum i18n_lang lang)
{
    const struct rs_system *rs = e->sys;
    if (e->ncs == 0) {
        sbuf_add(b, i18n_get(lang, "Nobody has joined yet. Add NPCs with "
                                   "/combat add, players join with /combat "
                                   "join."));
        sbuf_addc(b, '\n');
    }
    if (rs != NULL && rs->ops->tracker_head != NULL) {
        /* The system's line about the whole fight (whose pick it is):
         * plain text, so names in it are escaped here. */
        struct eng_buf head;
        eng_buf_init(&head, RENDER_ENC_MAX_EVENTS_TEXT);
        rs->ops->tracker_head(e, &head, lang == I18N_EN ? NULL : lang_tr,
                              &lang);
        char *esc = eng_buf_str(&head)[0] ? msg_escape(eng_buf_str(&head))
                                          : NULL;
        if (esc != NULL)
            sbuf_addf(b, "_%s_\n", esc);
        free(esc);
        eng_buf_cleanup(&head);
    }
}

void render_tracker_countdowns(struct sbuf *b, const struct encounter *e,
                               bool gm_view, enum i18n_lang lang)
{
    /* An ended fight's are over: none ran out, none will. */
    for (int i = 0; e->status != ENC_ST_ENDED && i < e->ncds; i++) {
        const struct enc_cd *x = &e->cds[i];
        bool secret = enc_cd_secret(e, x);
        if (secret && !gm_view)
            continue;
        const struct enc_combatant *of = x->of ? enc_by_id_c(e, x->of)
                                               : NULL;
        char *name = msg_escape(x->name);
        unsigned long left = x->left < 0 ? 0 : (unsigned long)x->left;
        sbuf_add(b, "\xE2\x8F\xB3 ");
        if (of != NULL) {
            char *who = msg_escape(of->name);
            sbuf_addf(b, i18n_nget(lang, "**%s** in %d turn of %s",
                                   "**%s** in %d turns of %s", left),
                      name ? name : "?", (int)x->left, who ? who : "?");
            free(who);
        } else {
            sbuf_addf(b, i18n_nget(lang, "**%s** in %d round",
                                   "**%s** in %d rounds", left),
                      name ? name : "?", (int)x->left);
        }
        free(name);
        bool paused = (x->flags & ENC_CDF_PAUSED) != 0;
        if (paused && secret)
            sbuf_add(b, i18n_get(lang, " (paused, hidden)"));
        else if (paused)
            sbuf_add(b, i18n_get(lang, " (paused)"));
        else if (secret)
            sbuf_add(b, i18n_get(lang, " (hidden)"));
        sbuf_addc(b, '\n');
    }
}

void render_tracker_foot(struct sbuf *foot, const struct encounter *e,
                         bool gm_view, int64_t now_ms, enum i18n_lang lang)
{
    const struct rs_system *rs = e->sys;
    sbuf_add(foot, rs != NULL ? i18n_get(lang, rs->title) : e->ruleset);
    if (e->status != ENC_ST_RUNNING)
        return;
    const struct enc_combatant *cur = enc_by_id_c(e, e->current);
    if (lang != I18N_EN) {
        sbuf_addf(foot, i18n_get(lang, " \xC2\xB7 round %d"), (int)e->round);
    } else {
        /* every turn's footer: appended (the same message) */
        sbuf_add(foot, " \xC2\xB7 round ");
        render_int(foot, e->round, 0);
    }
    const struct enc_entry *on = enc_entry_on(e);
    if (on != NULL && (gm_view || !on->hidden)) {
        /* the turn stopped on an event: a hidden one says nothing */
        sbuf_add(foot, " \xC2\xB7 ");
        sbuf_add(foot, on->name);
        sbuf_addf(foot, " (%s)",
                  i18n_get(lang, enc_entry_kind_word(on->kind)));
    } else if (cur != NULL && cur->hidden && !gm_view) {
        sbuf_add(foot, i18n_get(lang, " \xC2\xB7 someone unseen acts"));
    } else if (cur != NULL && lang != I18N_EN) {
        sbuf_addf(foot, i18n_get(lang, " \xC2\xB7 %s's turn"), cur->name);
    } else if (cur != NULL) {
        /* every turn's footer: appended (the same message) */
        sbuf_add(foot, " \xC2\xB7 ");
        sbuf_add(foot, cur->name);
        sbuf_add(foot, "'s turn");
    }
    else if (e->acting_side >= 0 && e->acting_side < e->nsides)
        sbuf_addf(foot, i18n_get(lang, " \xC2\xB7 %s to choose"),
                  render_side_unseen(e, e->acting_side) && !gm_view
                      ? render_unseen_side(lang)
                      : e->sides[e->acting_side].name);
    clock_foot(foot, e, now_ms, lang);
}

void render_tracker_at(struct msg *m, const struct encounter *e, bool gm_view,
                       int64_t now_ms, enum i18n_lang lang)
{
    struct sbuf title;
    sbuf_init(&title, 256);
    render_tracker_title(&title, e, lang);

    /* Room for the list: one embed description, and what Discord allows
     * all embeds of a message together beside the events already in m. */
    size_t used = embeds_bytes(m) + title.len + RENDER_ENC_FOOTER_ROOM;
    size_t budget = RENDER_ENC_TRACKER_TOTAL > used + RENDER_ENC_TRACKER_MIN
                        ? RENDER_ENC_TRACKER_TOTAL - used
                        : RENDER_ENC_TRACKER_MIN;
    if (budget > RENDER_ENC_TRACKER_TEXT)
        budget = RENDER_ENC_TRACKER_TEXT;

    struct sbuf b;
    sbuf_init(&b, RENDER_ENC_MAX_EVENTS_TEXT);
    render_tracker_head(&b, e, lang);
    size_t before = b.len;
    render_tracker_countdowns(&b, e, gm_view, lang);
    /* Countdowns take their room from the list's. */
    if (b.len - before < budget / 2)
        budget -= b.len - before;
    /* Not zeroed: only the n lines added are read (zeroing every slot was
     * 2,800 instructions a tracker). */
    struct tracker_lines *t = malloc(sizeof *t);
    bool compact = false, windowed = false;
    if (t != NULL) {
        t->n = 0;
        t->bytes = 0;
        lines_build(t, e, gm_view, false, lang);
        if (t->bytes > budget - RENDER_ENC_MORE_LINE) {
            lines_free(t);
            lines_build(t, e, gm_view, true, lang);
            compact = true;
        }
        windowed = lines_emit(&b, t, budget - RENDER_ENC_MORE_LINE, lang);
        lines_free(t);
        free(t);
    }
    if (sbuf_error(&b) == SBUF_TRUNCATED) {
        sbuf_addc(&b, '\n');
        sbuf_add(&b, i18n_get(lang, "(list cut short)"));
    }

    struct msg_embed *em = msg_add_embed(m, MSG_STYLE_INFO, sbuf_str(&title));
    if (em != NULL) {
        msg_embed_set_description(em, sbuf_str(&b));
        /* The footer says where the fight stands: its round and whose
         * turn (a hidden combatant's stays unnamed). */
        struct sbuf foot;
        sbuf_init(&foot, 1024);
        render_tracker_foot(&foot, e, gm_view, now_ms, lang);
        if (windowed)
            sbuf_add(&foot, i18n_get(lang, " \xC2\xB7 compact, around the "
                                           "turn"));
        else if (compact)
            sbuf_add(&foot, i18n_get(lang, " \xC2\xB7 compact"));
        msg_embed_set_footer(em, sbuf_str(&foot));
        sbuf_cleanup(&foot);
    }
    sbuf_cleanup(&title);
    sbuf_cleanup(&b);
}
