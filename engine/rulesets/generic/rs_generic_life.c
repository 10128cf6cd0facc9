/*
 * rs_generic_life.c - generic's rules at the edge of life: temporary hit
 * points that take damage before hp, and what a downed combatant's turn
 * is (a death save, when the fight's death_saves setting is on).
 *
 * Death saves, as d20 tables play them: at the start of a downed player
 * character's turn, d20 with no modifier; 10 or more is a success, less a
 * failure. Three successes: stable (still down, no more saves). Three
 * failures: dead. A natural 20: back up with 1 hp, and the turn is theirs.
 * Damage while down counts one failure (and ends being stable: the count
 * starts again); any healing clears the count. A
 * natural 1 counts one failure, like any other miss (fray does not double
 * it; the GM can, with /combat hp or by ruling). NPCs are skipped, as
 * ever: the GM decides their fate.
 */
#include <string.h>

#include "eng_text.h"
#include "rs_generic.h"
#include "rs_kit.h"
#include "turn.h"

enum { GEN_SAVES_TO_DECIDE = 3, GEN_SAVE_DC = 10 };

/* A player's character, as opposed to the GM's NPCs. */
static bool is_pc(const struct enc_combatant *who)
{
    return who->owner != 0;
}

static bool saves_on(const struct encounter *e)
{
    return rs_setting_int(e, &rs_generic, GEN_SET_DEATH_SAVES) != 0;
}

/* The count so far, as a sentence. */
static void say_count(struct rs_call *c, const struct enc_combatant *who,
                      const struct gen_comb *st)
{
    /* TRANSLATORS: the third and fifth arguments are "success(es)" and
     * "failure(s)", translated on their own. */
    RS_SAY(c, who, "{} has {} {} and {} {} of 3.",
           RS_A_WHO(who), RS_A_NUM(st->saves),
           RS_A_TEXT(st->saves == 1 ? N_("success") : N_("successes")),
           RS_A_NUM(st->fails),
           RS_A_TEXT(st->fails == 1 ? N_("failure") : N_("failures")));
}

/* One more failure; the third is death. */
static void add_failure(struct rs_call *c, struct enc_combatant *who)
{
    struct gen_comb *st = RS_STATE(struct gen_comb, who);
    st->fails++;
    if (st->fails >= GEN_SAVES_TO_DECIDE) {
        who->flags |= ENC_CF_DEAD;
        RS_SAY(c, who, "{} has failed three death saves and **dies**.",
               RS_A_WHO(who));
        return;
    }
    say_count(c, who, st);
}

enum turn_down gen_down_turn(struct rs_call *c, struct enc_combatant *who)
{
    if (!is_pc(who))
        return TURN_DOWN_SKIP;
    if (!saves_on(c->e)) {
        RS_SAY(c, who, "{} is down: it is their turn, but they can do "
               "little until they are healed.", RS_A_WHO(who));
        return TURN_DOWN_TURN;
    }
    struct gen_comb *st = RS_STATE(struct gen_comb, who);
    if (st->saves >= GEN_SAVES_TO_DECIDE) {
        RS_SAY(c, who, "{} is down but stable, and skips their turn.",
               RS_A_WHO(who));
        return TURN_DOWN_QUIET;
    }
    struct rs_rolled r;
    if (rs_roll(c, who, "death save", "1d20", &r) != ENG_OK) {
        /* 1d20 always parses; without memory, skip as before */
        return TURN_DOWN_SKIP;
    }
    bool back = r.natural == 20;
    bool ok = r.total >= GEN_SAVE_DC;
    struct enc_event *ev = rs_test_event(
        c, ENC_EV_TEST, who, NULL, "makes a death save", r.total,
        GEN_SAVE_DC, back ? "natural 20: back up with 1 hp"
                     : ok ? "success" : "failure");
    rs_ev_roll(c, ev, r.roll_idx);
    if (back) {
        struct enc_track *hp = enc_track(who, "hp");
        int64_t before = hp != NULL ? hp->cur : 0;
        if (enc_track_set(who, "hp", 1, hp != NULL ? hp->max : 1, c->d) !=
            ENG_OK)
            return TURN_DOWN_QUIET;
        struct enc_event *hv = enc_emit(c->r, ENC_EV_HP, who->id);
        hv->text = "hp";
        hv->a = before;
        hv->b = 1;
        hv->secret = who->hidden;
        gen_after_track(c, who, "hp", before);
        return TURN_DOWN_TURN;
    }
    if (!ok) {
        add_failure(c, who);
        return TURN_DOWN_QUIET;
    }
    st->saves++;
    if (st->saves >= GEN_SAVES_TO_DECIDE)
        RS_SAY(c, who, "{} has made three death saves and is **stable**.",
               RS_A_WHO(who));
    else
        say_count(c, who, st);
    return TURN_DOWN_QUIET;
}

void gen_after_track(struct rs_call *c, struct enc_combatant *who,
                     const char *track, int64_t before)
{
    const struct enc_track *hp = enc_track_c(who, "hp");
    /* Healing the dead is the GM raising them: they are back. */
    if (hp != NULL && hp->cur > 0)
        who->flags &= ~(uint32_t)ENC_CF_DEAD;
    rs_default_after_track(c, who, track, before);
    /* Back on their feet: the next fall starts a new count. */
    if (!(who->flags & ENC_CF_DOWN)) {
        struct gen_comb *st = RS_STATE(struct gen_comb, who);
        st->saves = 0;
        st->fails = 0;
    }
}

int64_t gen_soak(struct rs_call *c, struct enc_combatant *who,
                 const char *track, int64_t amount)
{
    if (eng_text_casecmp(track, "hp") != 0 || amount <= 0)
        return amount;
    if ((who->flags & ENC_CF_DOWN) && !(who->flags & ENC_CF_DEAD) &&
        is_pc(who) && saves_on(c->e)) {
        struct gen_comb *st = RS_STATE(struct gen_comb, who);
        bool stable = st->saves >= GEN_SAVES_TO_DECIDE;
        /* Hurt again, the stable are dying again: a new count. */
        if (stable)
            st->saves = 0;
        if (stable)
            RS_SAY(c, who, "{} takes damage while down: no longer stable, "
                   "and a death save failure.", RS_A_WHO(who));
        else
            RS_SAY(c, who, "{} takes damage while down: a death save "
                   "failure.", RS_A_WHO(who));
        add_failure(c, who);
    }
    struct enc_track *temp = enc_track(who, GEN_TEMP);
    if (temp == NULL || temp->cur <= 0)
        return amount;
    int64_t before = temp->cur;
    int64_t soaked = amount < before ? amount : before;
    temp->cur -= soaked;
    struct enc_event *ev = enc_emit(c->r, ENC_EV_HP, who->id);
    ev->text = GEN_TEMP;
    ev->a = before;
    ev->b = temp->cur;
    ev->secret = who->hidden;
    /* Spent temporary hit points are gone, not a track at 0. */
    if (temp->cur == 0)
        enc_track_remove(who, GEN_TEMP);
    return amount - soaked;
}

/* A downed player character's death saves: apart from gen_status, whose
 * every row of every tracker asks, so that its quick "no" saves no
 * registers (the translator's arguments cost English a rise). */
__attribute__((noinline))
static void gen_status_saves(const struct encounter *e,
                             const struct enc_combatant *who,
                             struct eng_buf *out, enc_tr_fn tr,
                             const void *tr_ctx)
{
    const struct gen_comb *st = RS_STATE(const struct gen_comb, who);
    if (!saves_on(e))
        return;
    if (st->saves >= GEN_SAVES_TO_DECIDE)
        eng_buf_add(out, enc_tr(tr, tr_ctx, N_("stable")));
    else
        /* TRANSLATORS: death saves made and failed: "death saves 1✓ 2✗" */
        eng_buf_addf(out, enc_tr(tr, tr_ctx, N_("death saves "
                                                "%lld\xE2\x9C\x93 "
                                                "%lld\xE2\x9C\x97")),
                     (long long)st->saves, (long long)st->fails);
}

void gen_status(const struct encounter *e, const struct enc_combatant *who,
                struct eng_buf *out, enc_tr_fn tr, const void *tr_ctx)
{
    if (!(who->flags & ENC_CF_DOWN) || (who->flags & ENC_CF_DEAD) ||
        !is_pc(who))
        return;
    gen_status_saves(e, who, out, tr, tr_ctx);
}
