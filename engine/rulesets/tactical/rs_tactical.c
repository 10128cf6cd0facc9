/*
 * rs_tactical.c - the `tactical` ruleset: set-up, settings, initiative and
 * the turn: action points at the start, pending tests, exertion and
 * shake-off tests at the end.
 *
 * Initiative (the chapter has none; our README decision): 1d20 + the `init`
 * stat, highest first, ties to the higher modifier, then to a roll-off drawn
 * once, so the order stays the same every round.
 *
 * The start of a turn, in order: action points from the `ap` setting; none
 * when a no-ap condition (Surprised, Paralyzed) is on; a lose-ap condition
 * (Stunned) takes one and ends; each stack of a dot condition (Acid) deals
 * one direct damage. The end of a turn, in order: pending resist tests
 * still unrolled are rolled (they must happen in the turn they were
 * applied); Exhausted(+1) for exerting at 0 stamina; the shake-off tests of
 * the one whose turn it was (Afraid, Berserk); then the shared expiry.
 */
#include <stdio.h>
#include <string.h>

#include "eng_text.h"
#include "rs_kit.h"
#include "rs_tactical.h"
#include "turn.h"

enum { TAC_TIE_SIDES = 1000000 };

/* Stats that become tracks (current = maximum) at set-up. */
static const char *const tac_tracks[] = {"hp", "stamina", "av", "ammo"};

static enum eng_err tac_setup(struct rs_call *c, struct enc_combatant *who)
{
    for (size_t i = 0; i < sizeof tac_tracks / sizeof tac_tracks[0]; i++) {
        const int64_t *v = enc_stat(who, tac_tracks[i]);
        if (v == NULL)
            continue;
        int64_t x = *v;
        if (x < 0)
            return enc_fail(c->d, ENG_RANGE, "%s cannot be negative",
                            tac_tracks[i]);
        enum eng_err err = enc_track_set(who, tac_tracks[i], x, x, c->d);
        if (err != ENG_OK)
            return err;
        enc_stat_remove(who, tac_tracks[i]);
    }
    return ENG_OK;
}

static enum eng_err tac_check_stat(struct rs_call *c,
                                   struct enc_combatant *who,
                                   const char *name, int64_t value)
{
    (void)who;
    if ((eng_text_casecmp(name, "evasion") == 0 ||
         eng_text_casecmp(name, "dr") == 0) && (value < 0 || value > 100))
        return enc_fail(c->d, ENG_RANGE, "%s must be 0 to 100", name);
    if (eng_text_casecmp(name, "init") == 0 && (value < -100 || value > 100))
        return enc_fail(c->d, ENG_RANGE, "init must be -100 to 100");
    if (eng_text_casecmp(name, "mech") == 0 && value != 0 && value != 1)
        return enc_fail(c->d, ENG_RANGE, "mech must be 0 or 1");
    return ENG_OK;
}

static enum eng_err tac_setting(struct rs_call *c, const char *key,
                                const char *value)
{
    int64_t x;
    if (eng_text_casecmp(key, "ap") == 0) {
        if (!eng_text_to_int(value, &x) || x < 1 || x > TAC_MAX_AP)
            return enc_fail(c->d, ENG_RANGE, "ap must be 1 to %d",
                            TAC_MAX_AP);
    } else if (eng_text_casecmp(key, "face") == 0) {
        if (!eng_text_to_int(value, &x) || x < 2 || x > 6)
            return enc_fail(c->d, ENG_RANGE, "face must be 2 to 6");
    } else {
        enc_fail(c->d, ENG_NOTFOUND, "unknown setting %.24s", key);
        enc_hint(c->d, "settings:\"ap=3 face=4\"");
        return ENG_NOTFOUND;
    }
    return enc_setting_set(c->e, key, value, c->d);
}

/* ---- initiative --------------------------------------------------------- */

static int64_t tac_init_mod(const struct enc_combatant *who)
{
    int64_t mod;
    if (who->init_expr[0] != '\0' && eng_text_to_int(who->init_expr, &mod))
        return mod;
    return enc_stat_or(who, "init", 0);
}

static enum eng_err tac_roll_init(struct rs_call *c, struct enc_combatant *who)
{
    char expr[ENC_MAX_INIT_EXPR + 16];
    int64_t fixed, mod;
    struct enc_event *ev;
    if (who->init_expr[0] == '=' &&
        eng_text_to_int(who->init_expr + 1, &fixed)) {
        who->init[0] = fixed;
        who->ninit = 1;
        ev = enc_emit(c->r, ENC_EV_INIT, who->id);
        ev->a = fixed;
        ev->secret = who->hidden;
        return ENG_OK;
    }
    if (who->init_expr[0] != '\0' &&
        !eng_text_to_int(who->init_expr, &mod))
        snprintf(expr, sizeof expr, "%s", who->init_expr);
    else
        snprintf(expr, sizeof expr, "1d20%+lld",
                 (long long)tac_init_mod(who));
    struct rs_rolled r;
    enum eng_err err = rs_roll(c, NULL, "initiative", expr, &r);
    if (err != ENG_OK)
        return err;
    who->init[0] = r.total;
    who->ninit = 1;
    who->init_tie = (int64_t)eng_rng_below(c->rng, TAC_TIE_SIDES);
    ev = enc_emit(c->r, ENC_EV_INIT, who->id);
    ev->a = r.total;
    enc_event_roll(c->r, ev, r.roll_idx);
    ev->secret = who->hidden;
    return ENG_OK;
}

static int tac_cmp(const struct encounter *e, const struct enc_slot *a,
                   const struct enc_slot *b)
{
    const struct enc_combatant *x = enc_by_id_c(e, a->id);
    const struct enc_combatant *y = enc_by_id_c(e, b->id);
    if (x->init[a->init_idx] != y->init[b->init_idx])
        return x->init[a->init_idx] > y->init[b->init_idx] ? -1 : 1;
    int64_t mx = tac_init_mod(x), my = tac_init_mod(y);
    if (mx != my)
        return mx > my ? -1 : 1;
    if (x->init_tie != y->init_tie)
        return x->init_tie > y->init_tie ? -1 : 1;
    return x->join_seq < y->join_seq ? -1 : x->join_seq > y->join_seq;
}

/* ---- turn boundaries ---------------------------------------------------- */

/* Start-of-turn rules for whoever's turn just started. */
static enum eng_err tac_turn_started(struct rs_call *c)
{
    const struct tac_table *t = tac_table_for(c);
    struct enc_combatant *who = enc_current(c->e);
    if (who == NULL)
        return ENG_OK;
    int ap = tac_setting_ap(c->e);
    int64_t dot = 0;
    char lose[ENC_MAX_COND_NAME + 1] = "";
    for (int i = 0; i < who->nconds; i++) {
        const struct enc_cond *k = &who->conds[i];
        const struct tac_cond_def *cd = tac_cond_def(t, k->name);
        if (cd == NULL)
            continue;
        if (cd->flags & TAC_CDF_NO_AP) {
            ap = 0;
            tac_say(c, who->id, false, "%s is %s: no actions this turn",
                    who->name, k->name);
        }
        if ((cd->flags & TAC_CDF_LOSE_AP) && lose[0] == '\0')
            enc_copy(lose, sizeof lose, k->name);
        if (cd->flags & TAC_CDF_DOT)
            dot += k->value > 0 ? k->value : 1;
    }
    if (lose[0] != '\0') {
        if (ap > 0)
            ap--;
        tac_say(c, who->id, false, "%s is %s: loses 1 AP", who->name, lose);
        enum eng_err err = enc_cond_remove(c->e, who, lose, c->r, c->d);
        if (err != ENG_OK)
            return err;
    }
    who->rs[TAC_C_AP] = ap;
    who->rs[TAC_C_HAS_AP] = 1;
    if (dot > 0) {
        int64_t lost;
        tac_say(c, who->id, false, "acid burns %s for %lld direct damage",
                who->name, (long long)dot);
        return tac_damage(c, who, 0, dot, true, TAC_AV_PER, &lost);
    }
    return ENG_OK;
}

/* Whether condition k runs out at the end of this turn of its anchor. */
static bool tac_ends_now(const struct encounter *e, const struct enc_cond *k,
                         uint32_t anchor)
{
    return k->rounds == 1 && k->anchor == anchor &&
           k->expire == ENC_EXPIRE_END && k->applied_turn < e->turn_seq;
}

/* End-of-turn rules for the current combatant, before the shared expiry. */
static enum eng_err tac_turn_ending(struct rs_call *c)
{
    enum eng_err err = tac_fx_resolve_all(c);
    if (err != ENG_OK)
        return err;
    struct enc_combatant *who = enc_current(c->e);
    if (who == NULL)
        return ENG_OK;
    if (who->rs[TAC_C_EXERT_TURN] == (int64_t)c->e->turn_seq) {
        tac_say(c, who->id, false, "%s exerted at 0 stamina: Exhausted +1",
                who->name);
        err = tac_cond_give(c, who, "Exhausted", 1, -1, who->id);
        if (err != ENG_OK)
            return err;
    }
    const struct tac_table *t = tac_table_for(c);
    /* Shake-off tests; a pass removes the condition, so collect first. */
    char names[ENC_MAX_CONDITIONS][ENC_MAX_COND_NAME + 1];
    int n = 0;
    for (int i = 0; i < who->nconds; i++) {
        const struct tac_cond_def *cd = tac_cond_def(t, who->conds[i].name);
        if (cd != NULL && cd->shake_difficulty > 0 &&
            !tac_ends_now(c->e, &who->conds[i], who->id))
            enc_copy(names[n++], sizeof names[0], who->conds[i].name);
    }
    for (int i = 0; i < n; i++) {
        const struct tac_cond_def *cd = tac_cond_def(t, names[i]);
        char label[48];
        snprintf(label, sizeof label, "%s shakes off %s", who->name,
                 names[i]);
        int64_t succ;
        err = tac_roll_test(c, who, &cd->shake, -1, 0, 0, label, &succ);
        if (err != ENG_OK)
            return err;
        if (succ >= cd->shake_difficulty) {
            tac_say(c, who->id, false, "%s shakes off %s (%lld of %d)",
                    who->name, names[i], (long long)succ,
                    cd->shake_difficulty);
            err = enc_cond_remove(c->e, who, names[i], c->r, c->d);
            if (err != ENG_OK)
                return err;
        } else {
            tac_say(c, who->id, false, "%s is still %s (%lld of %d)",
                    who->name, names[i], (long long)succ,
                    cd->shake_difficulty);
        }
    }
    return ENG_OK;
}

/* After the order moved: who is out or back, then the new turn's start. */
static enum eng_err tac_after_move(struct rs_call *c)
{
    for (int i = 0; i < c->e->ncs; i++)
        tac_out_update(c, &c->e->cs[i]);
    return tac_turn_started(c);
}

/* Surprised for the first round: begin's surprise: option names a side or
 * combatants, separated by commas. */
static enum eng_err tac_surprise(struct rs_call *c, const char *list)
{
    char buf[256];
    enc_copy(buf, sizeof buf, list);
    char *save = NULL;
    for (char *w = strtok_r(buf, ",", &save); w != NULL;
         w = strtok_r(NULL, ",", &save)) {
        while (*w == ' ')
            w++;
        size_t n = strlen(w);
        while (n > 0 && w[n - 1] == ' ')
            w[--n] = '\0';
        if (n == 0)
            continue;
        int side = enc_side_find(c->e, w);
        bool any = false;
        for (int i = 0; i < c->e->ncs; i++) {
            struct enc_combatant *who = &c->e->cs[i];
            if ((side >= 0 && who->side == side) ||
                (side < 0 && enc_name_eq(who->name, w))) {
                enum eng_err err = tac_cond_give(c, who, "Surprised", 1, 1,
                                                 0);
                if (err != ENG_OK)
                    return err;
                any = true;
            }
        }
        if (!any)
            return enc_fail(c->d, ENG_NOTFOUND, "surprise: no side or "
                            "combatant named %.64s", w);
    }
    return ENG_OK;
}

static enum eng_err tac_begin(struct rs_call *c)
{
    struct encounter *e = c->e;
    if (e->ncs == 0)
        return enc_fail(c->d, ENG_STATE, "there is nobody to fight yet");
    const char *surprise = rs_opt(c->opts, c->nopts, "surprise");
    if (surprise != NULL) {
        enum eng_err err = tac_surprise(c, surprise);
        if (err != ENG_OK)
            return err;
    }
    for (int i = 0; i < e->ncs; i++) {
        struct enc_combatant *who = &e->cs[i];
        const struct enc_combatant *lead = NULL;
        for (int k = 0; who->group != 0 && k < i && lead == NULL; k++)
            if (e->cs[k].group == who->group)
                lead = &e->cs[k];
        if (lead != NULL) {
            memcpy(who->init, lead->init, sizeof who->init);
            who->ninit = lead->ninit;
            who->init_tie = lead->init_tie;
            continue;
        }
        enum eng_err err = tac_roll_init(c, who);
        if (err != ENG_OK)
            return err;
    }
    turn_order_build(e, tac_cmp);
    turn_fixed_begin(c, NULL);
    return tac_after_move(c);
}

static enum eng_err tac_next(struct rs_call *c)
{
    enum eng_err err = tac_turn_ending(c);
    if (err != ENG_OK)
        return err;
    turn_fixed_next(c, NULL);
    return tac_after_move(c);
}

static enum eng_err tac_late_join(struct rs_call *c, struct enc_combatant *who)
{
    struct encounter *e = c->e;
    enum eng_err err = tac_roll_init(c, who);
    if (err != ENG_OK)
        return err;
    struct enc_slot cur = {0, 0};
    if (e->turn_idx >= 0 && e->turn_idx < e->norder)
        cur = e->order[e->turn_idx];
    turn_order_build(e, tac_cmp);
    for (int i = 0; i < e->norder; i++)
        if (e->order[i].id == cur.id && e->order[i].init_idx == cur.init_idx)
            e->turn_idx = i;
    return ENG_OK;
}

static void tac_after_track(struct rs_call *c, struct enc_combatant *who,
                            const char *track, int64_t before)
{
    (void)track;
    (void)before;
    tac_out_update(c, who);
}

static void tac_status_text(const struct encounter *e,
                       const struct enc_combatant *who, char *buf, size_t n)
{
    if (e->status != ENC_ST_RUNNING || who->rs[TAC_C_HAS_AP] == 0) {
        snprintf(buf, n, "%s", "");
        return;
    }
    snprintf(buf, n, "AP %lld/%d", (long long)who->rs[TAC_C_AP],
             tac_setting_ap(e));
}

/* The tracker's extra line for who (the text form is kept short for a
 * phone's width). */
static void tac_status(const struct encounter *e,
                       const struct enc_combatant *who, struct eng_buf *out)
{
    char buf[256];
    tac_status_text(e, who, buf, sizeof buf);
    eng_buf_add(out, buf);
}

const struct rs_ops tac_ops = {
    .version = RS_OPS_VERSION,
    .setup = tac_setup,               /* hp, stamina, av, ammo -> tracks */
    .check_stat = tac_check_stat,     /* evasion, dr, init, mech bounds */
    .setting = tac_setting,           /* ap, face */
    .begin = tac_begin,               /* 1d20 + init; surprise: */
    .next = tac_next,                 /* fixed order, AP, end-of-turn rules */
    .pick = NULL,                     /* not alternating */
    .pass = NULL,                     /* not alternating */
    .attack = tac_attack,             /* single, burst, blast, template */
    .late_join = tac_late_join,       /* rolls and slots into the order */
    .after_track = tac_after_track,   /* 0 hp or an out condition: down */
    .status = tac_status,             /* AP left */
    .data_parse = tac_data_parse,     /* config/tactical-effects.conf */
    .data_free = tac_data_free,
};

