/*
 * rs_cards.c - the `cards` ruleset: settings, combatants and their Harm,
 * the tracker line, the command dispatch and the ruleset's descriptor.
 * The deck and turn order are in rs_cards_turn.c, dice pools and maneuvers
 * in rs_cards_pool.c, fighting in rs_cards_fight.c and the special effects
 * in rs_cards_effects.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "eng_text.h"
#include "rs_cards.h"
#include "turn.h"

/* ---- settings ------------------------------------------------------------ */

int cards_die(const struct encounter *e)
{
    return e->rs[CE_DIE] > 0 ? (int)e->rs[CE_DIE] : CARDS_DIE;
}

int cards_success(const struct encounter *e)
{
    return e->rs[CE_SUCCESS] > 0 ? (int)e->rs[CE_SUCCESS] : CARDS_SUCCESS;
}

static enum eng_err cards_setting(struct rs_call *c, const char *key,
                                  const char *value)
{
    int64_t v;
    bool die = eng_text_casecmp(key, "die") == 0;
    bool face = eng_text_casecmp(key, "success") == 0;
    if (!die && !face) {
        enc_fail(c->d, ENG_NOTFOUND, "unknown setting `%.24s` for cards "
                 "(settings: die, success)", key);
        enc_hint(c->d, "settings:\"die=6 success=6\"");
        return ENG_NOTFOUND;
    }
    if (!eng_text_to_int(value, &v) || v < 2 || v > CARDS_MAX_DIE)
        return enc_fail(c->d, ENG_RANGE, "%s must be a whole number from 2 "
                        "to %d", die ? "die" : "success", CARDS_MAX_DIE);
    int sides = die ? (int)v : cards_die(c->e);
    int succ = face ? (int)v : cards_success(c->e);
    if (face && v > sides)
        return enc_fail(c->d, ENG_RANGE, "success must be at most the die's "
                        "%d faces", sides);
    enum eng_err err = enc_setting_set(c->e, key, value, c->d);
    if (err != ENG_OK)
        return err;
    c->e->rs[die ? CE_DIE : CE_SUCCESS] = v;
    /* A smaller die lowers a success face that no longer fits. */
    if (die && succ > sides) {
        c->e->rs[CE_SUCCESS] = sides;
        char face_text[16];
        snprintf(face_text, sizeof face_text, "%d", sides);
        return enc_setting_set(c->e, "success", face_text, c->d);
    }
    return ENG_OK;
}

/* ---- combatants ---------------------------------------------------------- */

static const char *const cards_skills[] = {
    "force", "strike", "shoot", "finesse", "sneak", "endure", "track",
    "read", "cast", "persuade", "intimidate",
};

static enum eng_err cards_check_stat(struct rs_call *c,
                                     struct enc_combatant *who,
                                     const char *name, int64_t value)
{
    if (eng_text_casecmp(name, "cards") == 0) {
        if (value < 1 || value > CARDS_MAX_HELD)
            return enc_fail(c->d, ENG_RANGE, "cards must be 1 to %d",
                            CARDS_MAX_HELD);
        if (who->ninit > 0)
            return enc_fail(c->d, ENG_STATE, "cards are dealt once, at "
                            "/combat begin; they cannot change mid-fight");
        return ENG_OK;
    }
    if (eng_text_casecmp(name, "zone") == 0 &&
        (value < 0 || value > CARDS_MAX_ZONE))
        return enc_fail(c->d, ENG_RANGE, "zone must be 0 to %d",
                        CARDS_MAX_ZONE);
    if (eng_text_casecmp(name, "damage") == 0 &&
        (value < 0 || value > CARDS_MAX_DAMAGE))
        return enc_fail(c->d, ENG_RANGE, "damage must be 0 to %d",
                        CARDS_MAX_DAMAGE);
    for (size_t i = 0; i < sizeof cards_skills / sizeof cards_skills[0]; i++)
        if (eng_text_casecmp(name, cards_skills[i]) == 0 &&
            (value < 0 || value > CARDS_MAX_POOL))
            return enc_fail(c->d, ENG_RANGE, "%s must be 0 to %d dice",
                            cards_skills[i], CARDS_MAX_POOL);
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
static enum eng_err cards_setup(struct rs_call *c, struct enc_combatant *who)
{
    for (int i = 0; i < who->nstats; i++) {
        enum eng_err err = cards_check_stat(c, who, who->stats[i].name,
                                            who->stats[i].value);
        if (err != ENG_OK)
            return err;
    }
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

void cards_say(struct rs_call *c, uint32_t who, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rs_vsayf(c, who, false, fmt, ap);
    va_end(ap);
}

int cards_distance(const struct enc_combatant *a,
                   const struct enc_combatant *b)
{
    int64_t za = enc_stat_or(a, "zone", -1), zb = enc_stat_or(b, "zone", -1);
    if (za < 0 || zb < 0)
        return -1;
    return (int)(za > zb ? za - zb : zb - za);
}

/* ---- tracker ------------------------------------------------------------- */

static void cards_status_text(const struct encounter *e,
                         const struct enc_combatant *who, char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = '\0';
#define PUT(...)                                                          \
    do {                                                                  \
        if (at < n) {                                                     \
            int w_ = snprintf(buf + at, n - at, __VA_ARGS__);             \
            at += w_ > 0 ? (size_t)w_ : 0;                                \
        }                                                                 \
    } while (0)
    if (who->ninit > 0) {
        PUT("card");
        for (int k = 0; k < who->ninit; k++)
            PUT("%s %lld", k ? "," : "", (long long)who->init[k]);
    }
    if (e->status == ENC_ST_RUNNING) {
        int turns = who->ninit > 0 ? who->ninit : 1;
        int slow = turns - (int)who->rs[CC_SLOW];
        int left = 2 * turns - (int)(who->rs[CC_SLOW] + who->rs[CC_FAST]);
        if (slow > left)
            slow = left;
        PUT(" · slow %d fast %d", slow < 0 ? 0 : slow,
            left - (slow < 0 ? 0 : slow));
    }
    int h = (int)(enc_track_c(who, CARDS_HARM) ?
                  enc_track_c(who, CARDS_HARM)->cur : 0);
    int m = (int)(enc_track_c(who, CARDS_MENTAL) ?
                  enc_track_c(who, CARDS_MENTAL)->cur : 0);
    if (h)
        PUT(" · harm %d", h);
    if (m)
        PUT(" · mental %d", m);
    if (who->rs[CC_FIRE])
        PUT(" · burning %lld", (long long)who->rs[CC_FIRE]);
    if (who->rs[CC_POISON_LEFT])
        PUT(" · poison %lld", (long long)who->rs[CC_POISON_LEFT]);
#undef PUT
    if (at >= n && n > 0)
        buf[n - 1] = '\0';
}

/* ---- dispatch ------------------------------------------------------------ */


/* The tracker's extra line for who (the text form is kept short for a
 * phone's width). */
static void cards_status(const struct encounter *e,
                       const struct enc_combatant *who, struct eng_buf *out)
{
    char buf[256];
    cards_status_text(e, who, buf, sizeof buf);
    eng_buf_add(out, buf);
}

const struct rs_ops cards_ops = {
    .version = RS_OPS_VERSION,
    .setup = cards_setup,             /* harm and mental tracks; hp = limit */
    .check_stat = cards_check_stat,   /* cards, zone, damage, skill pools */
    .setting = cards_setting,         /* die, success */
    .begin = cards_begin,             /* deal the deck, lowest card first */
    .next = cards_next,               /* first card not played this round */
    .pick = NULL,                     /* not alternating */
    .pass = NULL,                     /* not alternating */
    .attack = cards_attack,           /* pool vs dodge/parry, Harm */
    .late_join = cards_late_join,     /* draws from what is left */
    .after_track = cards_after_track, /* Harm at its limit: out */
    .status = cards_status,           /* cards, maneuvers left, Harm */
};

