/*
 * rs_cards.c - the `cards` ruleset: settings, combatants and their Harm,
 * conditions that take hold at once. The ruleset's table and its
 * operations are in rs_cards_decl.c, the tracker line in
 * rs_cards_status.c, the deck and turn order in rs_cards_turn.c, swaps and
 * ambushes in rs_cards_swap.c, dice pools and maneuvers in rs_cards_pool.c,
 * fighting in rs_cards_fight.c and the special effects in
 * rs_cards_effects.c.
 */
#include <stdio.h>
#include <string.h>

#include "eng_buf.h"
#include "eng_text.h"
#include "rs_cards.h"
#include "turn.h"

/* ---- settings ------------------------------------------------------------ */

int cards_die(const struct encounter *e)
{
    return (int)rs_setting_int(e, &rs_cards, "die");
}

int cards_success(const struct encounter *e)
{
    return (int)rs_setting_int(e, &rs_cards, "success");
}

/* The bounds are declared; what is left is that a success face must be on
 * the die. A smaller die brings the success face down with it, so that
 * settings:"die=4" alone still counts successes. */
enum eng_err cards_setting(struct rs_call *c, const char *key,
                           const char *value)
{
    int64_t v;
    if (!eng_text_to_int(value, &v))
        return enc_fail(c->d, ENG_RANGE, "%s must be a whole number", key);
    if (eng_text_casecmp(key, "success") == 0) {
        if (v > cards_die(c->e)) {
            enc_fail(c->d, ENG_RANGE, "success must be at most the die's "
                     "%d faces", cards_die(c->e));
            enc_hint(c->d, "set the die first: settings:\"die=10 "
                     "success=8\"");
            return ENG_RANGE;
        }
        return ENG_OK;
    }
    if (cards_success(c->e) > v) {
        char face[24];
        snprintf(face, sizeof face, "%lld", (long long)v);
        return enc_setting_set(c->e, "success", face, c->d);
    }
    return ENG_OK;
}

/* ---- combatants ---------------------------------------------------------- */

/* The declared bounds hold for every stat (rs_stat_check); cards are dealt
 * once, so their number cannot change in a running fight. */
enum eng_err cards_check_stat(struct rs_call *c,
                              struct enc_combatant *who,
                              const char *name, int64_t value)
{
    (void)value;
    if (eng_text_casecmp(name, "cards") == 0 && who->ninit > 0)
        return enc_fail(c->d, ENG_STATE, "cards are dealt once, at "
                        "/combat begin; they cannot change mid-fight");
    return ENG_OK;
}

/* Remove a track by name (hp becomes the Harm limit). */
static void cards_track_drop(struct enc_combatant *who, const char *name)
{
    for (int i = 0; i < who->ntracks; i++)
        if (enc_name_eq(who->tracks[i].name, name)) {
            memmove(&who->tracks[i], &who->tracks[i + 1],
                    (size_t)(who->ntracks - i - 1) * sizeof who->tracks[0]);
            who->ntracks--;
            return;
        }
}

/* hp:N (or an hp stat) is the Harm a combatant takes before it is out of
 * the fight: it becomes the maximum of the harm track. Without it nobody is
 * put out by Harm automatically; the GM decides. */
enum eng_err cards_setup(struct rs_call *c, struct enc_combatant *who)
{
    int64_t limit = 0;
    const struct enc_track *hp = enc_track_c(who, "hp");
    const int64_t *hps = enc_stat(who, "hp");
    if (hps != NULL) {
        if (*hps < 0)
            return enc_fail(c->d, ENG_RANGE, "hp cannot be negative");
        limit = *hps;
    } else if (hp != NULL) {
        limit = hp->max > 0 ? hp->max : hp->cur;
    }
    const struct enc_track *h = enc_track_c(who, CARDS_HARM);
    enum eng_err err = enc_track_set(who, CARDS_HARM, h ? h->cur : 0,
                                     limit > 0 ? limit : (h ? h->max : 0),
                                     c->d);
    if (err == ENG_OK && enc_track_c(who, CARDS_MENTAL) == NULL)
        err = enc_track_set(who, CARDS_MENTAL, 0, 0, c->d);
    if (err != ENG_OK)
        return err;
    if (hps != NULL)
        enc_stat_remove(who, "hp");
    cards_track_drop(who, "hp");
    return ENG_OK;
}

int cards_harm_of(const struct enc_combatant *who)
{
    const struct enc_track *p = enc_track_c(who, CARDS_HARM);
    const struct enc_track *m = enc_track_c(who, CARDS_MENTAL);
    int64_t n = (p && p->cur > 0 ? p->cur : 0) + (m && m->cur > 0 ? m->cur : 0);
    return n > CARDS_MAX_POOL * 10 ? CARDS_MAX_POOL * 10 : (int)n;
}

void cards_after_track(struct rs_call *c, struct enc_combatant *who,
                       const char *track, int64_t before)
{
    (void)before;
    if (eng_text_casecmp(track, CARDS_HARM) != 0 &&
        eng_text_casecmp(track, CARDS_MENTAL) != 0)
        return;
    bool out = false;
    const char *names[] = {CARDS_HARM, CARDS_MENTAL};
    for (int i = 0; i < 2; i++) {
        const struct enc_track *t = enc_track_c(who, names[i]);
        if (t != NULL && t->max > 0 && t->cur >= t->max)
            out = true;
    }
    bool fled = enc_cond_find(who, CARDS_FLED) != NULL;
    bool was = (who->flags & ENC_CF_DOWN) != 0;
    if (out && !was) {
        who->flags |= ENC_CF_DOWN;
        enc_emit(c->r, ENC_EV_DOWN, who->id)->secret = who->hidden;
    } else if (!out && was && !fled) {
        who->flags &= ~(uint32_t)ENC_CF_DOWN;
        enc_emit(c->r, ENC_EV_UP, who->id)->secret = who->hidden;
    }
}

void cards_add_harm(struct rs_call *c, struct enc_combatant *who, int amount,
                    bool mental, uint32_t source)
{
    if (amount <= 0)
        return;
    const char *name = mental ? CARDS_MENTAL : CARDS_HARM;
    /* setup gives everyone both tracks; a document edited by hand may
     * lack one, and Harm still counts. */
    if (enc_track(who, name) == NULL &&
        enc_track_set(who, name, 0, 0, c->d) != ENG_OK) {
        c->d->code = ENG_OK;
        return;
    }
    struct enc_track *t = enc_track(who, name);
    int64_t before = t->cur;
    t->cur = before + amount > ENC_MAX_VALUE ? ENC_MAX_VALUE : before + amount;
    struct enc_event *dv = enc_emit(c->r, ENC_EV_DAMAGE, source);
    dv->other = who->id;
    dv->a = amount;
    dv->secret = who->hidden;
    dv->text = mental ? "Mental Harm" : "Physical Harm";
    struct enc_event *hv = enc_emit(c->r, ENC_EV_HP, who->id);
    hv->text = name;
    hv->a = before;
    hv->b = t->cur;
    hv->secret = who->hidden;
    cards_after_track(c, who, name, before);
}

/* ---- conditions ---------------------------------------------------------- */

enum eng_err cards_give(struct rs_call *c, struct enc_combatant *who,
                        const char *name, int32_t value, uint32_t source)
{
    struct rs_cond_give q = {
        .name = name,
        .value = value,
        .value_given = value != 0,
        .rounds = -1,
        .source = source,
    };
    return rs_cond_give(c, &rs_cards, who, &q, false);
}

/* However Burning or Fled arrive (a rule, or the GM's /combat condition),
 * they take hold at once: catching fire hurts, and who flees is gone. */
enum eng_err cards_cond_changed(struct rs_call *c, struct enc_combatant *who,
                                struct enc_cond *q, int32_t before)
{
    struct cards_comb *st = CARDS_C(who);
    bool fresh = before == INT32_MIN;
    if (enc_name_eq(q->name, CARDS_BURNING)) {
        if (!fresh) {
            if (q->value != before)
                RS_SAY(c, who, "The fire on {} is now intensity {}.",
                       RS_A_WHO(who), RS_A_NUM(q->value));
            return ENG_OK;
        }
        st->fire_need = 1;
        st->fire_saved = 0;
        st->fire_round = c->e->round;
        RS_SAY(c, who, "{} catches fire (intensity {}) and suffers 1 "
               "Physical Harm.", RS_A_WHO(who), RS_A_NUM(q->value));
        cards_add_harm(c, who, 1, false, 0);
        return ENG_OK;
    }
    if (enc_name_eq(q->name, CARDS_FLED) && fresh &&
        !(who->flags & ENC_CF_DOWN)) {
        who->flags |= ENC_CF_DOWN;
        enc_emit(c->r, ENC_EV_DOWN, who->id)->secret = who->hidden;
    }
    return ENG_OK;
}

int cards_distance(const struct enc_combatant *a,
                   const struct enc_combatant *b)
{
    int64_t za = enc_stat_or(a, "zone", -1), zb = enc_stat_or(b, "zone", -1);
    if (za < 0 || zb < 0)
        return -1;
    return (int)(za > zb ? za - zb : zb - za);
}

/* ---- reactions and the tracker ----------------------------------------- */

static const char *const cards_react_names[] = {
    [CARDS_R_NONE] = "", [CARDS_R_DODGE] = N_("dodge"),
    [CARDS_R_PARRY] = N_("parry"), [CARDS_R_BREAKFREE] = N_("break free"),
    [CARDS_R_HOLD] = N_("hold"), [CARDS_R_CHASE] = N_("chase"),
    [CARDS_R_RESIST] = N_("resist"), [CARDS_R_OTHER] = N_("other"),
};

const char *cards_react_name(int32_t kind)
{
    return kind > CARDS_R_NONE && kind <= CARDS_R_OTHER
               ? cards_react_names[kind] : "";
}

/* The clock ran out: the creature loses the turn of the card that is up;
 * play goes on with the next card. */
enum eng_err cards_timeout(struct rs_call *c)
{
    return rs_clock_end_turn(c, "The turn clock ran out: {} loses this "
                             "card's turn.");
}

