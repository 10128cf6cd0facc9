/*
 * render_enc.c - events and trackers as markdown.
 */
#include "render_enc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs.h"
#include "sbuf.h"

/* The combatant's name, escaped, or a placeholder when it is gone. */
static void add_name(struct sbuf *b, const struct encounter *e, uint32_t id,
                     const char *fallback)
{
    const struct enc_combatant *c = enc_by_id_c(e, id);
    char *esc = msg_escape(c != NULL ? c->name : fallback ? fallback : "?");
    sbuf_add(b, "**");
    sbuf_add(b, esc != NULL ? esc : "?");
    sbuf_add(b, "**");
    free(esc);
}

static void add_roll(struct sbuf *b, const struct enc_result *res, int idx)
{
    if (idx < 0 || idx >= res->nrolls)
        return;
    /* A roll without dice ("20") says nothing its total does not. */
    if (strchr(res->rolls[idx].detail, '[') == NULL)
        return;
    sbuf_addf(b, " (%s)", res->rolls[idx].detail);
}

const char *render_health_label(const struct enc_combatant *c)
{
    const struct enc_track *hp = enc_track_c(c, "hp");
    if (c->flags & (ENC_CF_DOWN | ENC_CF_DEAD) || (hp && hp->cur <= 0))
        return "down";
    if (hp == NULL || hp->max <= 0 || hp->cur >= hp->max)
        return "healthy";
    if (hp->cur * 2 <= hp->max)
        return "bloodied";
    return "hurt";
}

static void render_event(struct sbuf *b, const struct encounter *e,
                         const struct enc_result *res,
                         const struct enc_event *ev, bool gm_view)
{
    bool hide = ev->secret && !gm_view;
    switch (ev->kind) {
    case ENC_EV_TEXT:
        /* Rulesets write whole sentences, names included. */
        sbuf_add(b, ev->text);
        break;
    case ENC_EV_ADDED:
        add_name(b, e, ev->who, NULL);
        sbuf_add(b, " joins the fight");
        break;
    case ENC_EV_REMOVED:
        add_name(b, e, 0, ev->text);
        sbuf_add(b, " leaves the fight");
        break;
    case ENC_EV_INIT:
        add_name(b, e, ev->who, NULL);
        if (hide)
            sbuf_add(b, " rolls initiative");
        else {
            sbuf_addf(b, " rolls initiative: **%" PRId64 "**", ev->a);
            add_roll(b, res, ev->roll);
        }
        break;
    case ENC_EV_BEGIN:
        sbuf_add(b, "The fight begins!");
        break;
    case ENC_EV_ROUND:
        sbuf_addf(b, "__**Round %" PRId64 "**__", ev->a);
        break;
    case ENC_EV_TURN:
        sbuf_add(b, "\xE2\x96\xB6 It is ");
        add_name(b, e, ev->who, NULL);
        sbuf_add(b, "'s turn");
        break;
    case ENC_EV_TURN_END:
        add_name(b, e, ev->who, NULL);
        sbuf_add(b, " ends their turn");
        break;
    case ENC_EV_SKIP:
        add_name(b, e, ev->who, NULL);
        sbuf_add(b, " is down and skips their turn");
        break;
    case ENC_EV_HP:
        add_name(b, e, ev->who, NULL);
        if (hide) {
            const struct enc_combatant *c = enc_by_id_c(e, ev->who);
            sbuf_addf(b, " is %s", c ? render_health_label(c) : "hurt");
        } else {
            sbuf_addf(b, ": %s %" PRId64 " \xE2\x86\x92 **%" PRId64 "**",
                      ev->text, ev->a, ev->b);
        }
        break;
    case ENC_EV_DOWN:
        add_name(b, e, ev->who, NULL);
        sbuf_add(b, " is **down**!");
        break;
    case ENC_EV_UP:
        add_name(b, e, ev->who, NULL);
        sbuf_add(b, " is back on their feet");
        break;
    case ENC_EV_COND_ADD: {
        char *esc = msg_escape(ev->text);
        add_name(b, e, ev->who, NULL);
        sbuf_addf(b, " is now **%s**", esc ? esc : "?");
        if (ev->a != 0 && !hide)
            sbuf_addf(b, " %" PRId64, ev->a);
        if (ev->b > 0)
            sbuf_addf(b, " (%" PRId64 " round%s)", ev->b,
                      ev->b == 1 ? "" : "s");
        free(esc);
        break;
    }
    case ENC_EV_COND_EXPIRE:
    case ENC_EV_COND_REMOVE: {
        char *esc = msg_escape(ev->text);
        add_name(b, e, ev->who, NULL);
        sbuf_addf(b, " is no longer %s%s", esc ? esc : "?",
                  ev->kind == ENC_EV_COND_EXPIRE ? " (it wore off)" : "");
        free(esc);
        break;
    }
    case ENC_EV_ATTACK:
        add_name(b, e, ev->who, NULL);
        sbuf_add(b, " attacks ");
        add_name(b, e, ev->other, NULL);
        if (hide || (ev->roll < 0 && ev->a == 0 && ev->b == 0)) {
            /* Secret, or a system where attacks hit without a roll. */
            sbuf_addf(b, ": **%s**", ev->text);
        } else {
            sbuf_addf(b, ": %" PRId64 " vs %" PRId64, ev->a, ev->b);
            add_roll(b, res, ev->roll);
            sbuf_addf(b, " \xE2\x80\x94 **%s**", ev->text);
        }
        break;
    case ENC_EV_DAMAGE:
        add_name(b, e, ev->other, NULL);
        if (hide)
            sbuf_add(b, " takes damage");
        else {
            sbuf_addf(b, " takes **%" PRId64 "** damage", ev->a);
            add_roll(b, res, ev->roll);
        }
        break;
    case ENC_EV_STAT:
        add_name(b, e, ev->who, NULL);
        sbuf_add(b, hide ? " is updated" : " stats updated");
        if (!hide && ev->text[0]) {
            char *esc = msg_escape(ev->text);
            sbuf_addf(b, ": %s", esc ? esc : "");
            free(esc);
        }
        break;
    case ENC_EV_NOTE:
        add_name(b, e, ev->who, NULL);
        sbuf_add(b, "'s note is updated");
        break;
    case ENC_EV_END:
        sbuf_add(b, "The fight is over.");
        break;
    case ENC_EV_PROMPT:
        sbuf_addf(b, "**%s**", ev->text);
        break;
    case ENC_EV_ROLL:
        if (hide) {
            sbuf_addf(b, "%s: rolled in secret", ev->text);
        } else {
            sbuf_addf(b, "%s: **%" PRId64 "**", ev->text, ev->a);
            add_roll(b, res, ev->roll);
        }
        break;
    }
}

bool render_events(struct msg *m, const struct encounter *e,
                   const struct enc_result *res, bool gm_view,
                   const char *title)
{
    struct sbuf b;
    sbuf_init(&b, RENDER_ENC_MAX_EVENTS_TEXT);
    bool secret = false;
    for (int i = 0; i < res->nev; i++) {
        const struct enc_event *ev = &res->ev[i];
        secret |= ev->secret;
        if (ev->kind == ENC_EV_TURN_END)
            continue; /* implied by the next line; keeps replies short */
        if (b.len > 0)
            sbuf_addc(&b, '\n');
        render_event(&b, e, res, ev, gm_view);
    }
    if (res->truncated)
        sbuf_add(&b, "\n(more happened than fits here; see /combat status)");
    if (sbuf_error(&b) == SBUF_TRUNCATED) {
        /* Keep the start readable and say that the rest was cut. */
        b.err = SBUF_OK;
        b.len = sbuf_utf8_cut(b.buf, RENDER_ENC_MAX_EVENTS_TEXT - 40);
        b.buf[b.len] = '\0';
        sbuf_add(&b, "\n(cut short; see /combat status)");
    }
    struct msg_embed *em = msg_add_embed(m, MSG_STYLE_INFO, title);
    if (em != NULL && b.len > 0)
        msg_embed_set_description(em, sbuf_str(&b));
    sbuf_cleanup(&b);
    return secret;
}

static void tracker_line(struct sbuf *b, const struct encounter *e,
                         const struct enc_combatant *c, int init_idx,
                         bool gm_view)
{
    const struct rs_system *rs = rs_find(e->ruleset);
    bool cur = e->current == c->id;
    bool numbers = gm_view || !c->hidden;
    sbuf_add(b, cur ? "\xE2\x96\xB6 " : "\xE3\x80\x80");
    if (e->status != ENC_ST_SETUP && init_idx >= 0 && init_idx < c->ninit)
        sbuf_addf(b, "`%3" PRId64 "` ", c->init[init_idx]);
    char *name = msg_escape(c->name);
    bool down = (c->flags & (ENC_CF_DOWN | ENC_CF_DEAD)) != 0;
    sbuf_addf(b, "%s%s%s", down ? "~~" : "**", name ? name : "?",
              down ? "~~" : "**");
    free(name);
    if (down)
        sbuf_add(b, " (down)");
    if (c->hidden && gm_view)
        sbuf_add(b, " (hidden)");
    if (c->side >= 0 && c->side < e->nsides) {
        char *side = msg_escape(e->sides[c->side].name);
        sbuf_addf(b, " [%s]", side ? side : "?");
        free(side);
    }
    if (numbers) {
        for (int i = 0; i < c->ntracks; i++) {
            const struct enc_track *t = &c->tracks[i];
            if (t->max > 0)
                sbuf_addf(b, " %s %" PRId64 "/%" PRId64, t->name, t->cur,
                          t->max);
            else
                sbuf_addf(b, " %s %" PRId64, t->name, t->cur);
        }
    } else {
        sbuf_addf(b, " (%s)", render_health_label(c));
    }
    if (rs != NULL && rs->ops->status != NULL) {
        char extra[96];
        extra[0] = '\0';
        rs->ops->status(e, c, extra, sizeof extra);
        if (extra[0] != '\0')
            sbuf_addf(b, " \xC2\xB7 %s", extra);
    }
    for (int i = 0; i < c->nconds; i++) {
        const struct enc_cond *q = &c->conds[i];
        char *cn = msg_escape(q->name);
        sbuf_addf(b, "%s%s", i == 0 ? " \xC2\xB7 " : ", ", cn ? cn : "?");
        free(cn);
        if (q->value != 0 && numbers)
            sbuf_addf(b, " %d", (int)q->value);
        if (q->rounds > 0)
            sbuf_addf(b, " (%dr)", (int)q->rounds);
    }
    if (c->note[0] != '\0' && numbers) {
        char *note = msg_escape(c->note);
        sbuf_addf(b, " \xE2\x80\x94 _%s_", note ? note : "");
        free(note);
    }
    sbuf_addc(b, '\n');
}

void render_tracker(struct msg *m, const struct encounter *e, bool gm_view)
{
    const struct rs_system *rs = rs_find(e->ruleset);
    struct sbuf title;
    sbuf_init(&title, 256);
    char *name = msg_escape(e->name[0] ? e->name : "Fight");
    if (e->status == ENC_ST_SETUP)
        sbuf_addf(&title, "%s \xE2\x80\x94 getting ready", name ? name : "");
    else if (e->status == ENC_ST_ENDED)
        sbuf_addf(&title, "%s \xE2\x80\x94 finished after round %d",
                  name ? name : "", (int)e->round);
    else
        sbuf_addf(&title, "%s \xE2\x80\x94 round %d", name ? name : "",
                  (int)e->round);
    free(name);

    struct sbuf b;
    sbuf_init(&b, RENDER_ENC_MAX_EVENTS_TEXT);
    if (e->ncs == 0)
        sbuf_add(&b, "Nobody has joined yet. Add NPCs with /combat add, "
                     "players join with /combat join.\n");
    bool hidden_left = false;
    if (e->status != ENC_ST_SETUP && e->norder > 0) {
        for (int i = 0; i < e->norder; i++) {
            const struct enc_combatant *c = enc_by_id_c(e, e->order[i].id);
            if (c == NULL)
                continue;
            if (c->hidden && !gm_view) {
                hidden_left = true;
                continue;
            }
            tracker_line(&b, e, c, e->order[i].init_idx, gm_view);
        }
        /* Combatants not in the order (alternating rulesets, late
         * arrivals) are listed after it. */
        for (int i = 0; i < e->ncs; i++) {
            bool listed = false;
            for (int k = 0; k < e->norder && !listed; k++)
                listed = e->order[k].id == e->cs[i].id;
            if (!listed && !(e->cs[i].hidden && !gm_view))
                tracker_line(&b, e, &e->cs[i], -1, gm_view);
        }
    } else {
        for (int i = 0; i < e->ncs; i++) {
            if (e->cs[i].hidden && !gm_view) {
                hidden_left = true;
                continue;
            }
            tracker_line(&b, e, &e->cs[i], 0, gm_view);
        }
    }
    if (hidden_left)
        sbuf_add(&b, "_(and someone you cannot see)_\n");
    if (sbuf_error(&b) == SBUF_TRUNCATED)
        sbuf_add(&b, "\n(list cut short)");

    struct msg_embed *em = msg_add_embed(m, MSG_STYLE_INFO, sbuf_str(&title));
    if (em != NULL) {
        msg_embed_set_description(em, sbuf_str(&b));
        char foot[160];
        snprintf(foot, sizeof foot, "%s \xC2\xB7 version %" PRId64,
                 rs != NULL ? rs->title : e->ruleset, e->version);
        msg_embed_set_footer(em, foot);
    }
    sbuf_cleanup(&title);
    sbuf_cleanup(&b);
}
