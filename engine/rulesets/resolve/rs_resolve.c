/*
 * rs_resolve.c - the `resolve` ruleset: combatants, initiative and the
 * fixed turn order with delays and Blaze of Glory turns (see rs_resolve.h).
 *
 * The order is kept in e->order and walked by this file's own loop rather
 * than turn_fixed_next(), because a delay moves the current slot and a
 * Blaze of Glory turn is started out of order; every turn still starts and
 * ends through turn_start()/turn_end().
 */
#include "rs_resolve.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "eng_text.h"
#include "rs_kit.h"
#include "turn.h"

/* ---- pure rules ---------------------------------------------------------- */

int64_t rsv_init_score(bool pc, bool major, int64_t rank, int die)
{
    if (pc)
        return rank + die;
    return rank + (major ? RSV_MAJOR_INIT : RSV_NPC_INIT);
}

int rsv_init_order(int64_t score_a, bool pc_a, uint32_t join_a,
                   int64_t score_b, bool pc_b, uint32_t join_b)
{
    if (score_a != score_b)
        return score_a > score_b ? -1 : 1;
    if (pc_a != pc_b)
        return pc_a ? -1 : 1;
    return join_a < join_b ? -1 : join_a > join_b;
}

/* ---- shared helpers ------------------------------------------------------ */

bool rsv_is_pc(const struct enc_combatant *who)
{
    return who->owner != 0 || enc_stat_or(who, "pc", 0) != 0;
}

bool rsv_is_major(const struct enc_combatant *who)
{
    return (who->flags & ENC_CF_MAJOR) != 0 ||
           enc_stat_or(who, "major", 0) != 0;
}

bool rsv_is_significant(const struct enc_combatant *who)
{
    return rsv_is_major(who) || enc_stat_or(who, "significant", 0) != 0;
}

bool rsv_is_wounded(struct enc_combatant *who)
{
    return enc_cond_find(who, RSV_WOUNDED) != NULL;
}

bool rsv_is_out(const struct enc_combatant *who)
{
    return who->rs[RSV_C_OUT] != RSV_OUT_NONE ||
           (who->flags & ENC_CF_DEAD) != 0;
}

int64_t rsv_setting_int(const struct encounter *e, const char *key,
                        int64_t dflt)
{
    const char *v = enc_setting(e, key);
    int64_t x;
    if (v == NULL || !eng_text_to_int(v, &x))
        return dflt;
    return x;
}

void rsv_say(struct rs_call *c, const struct enc_combatant *who,
             const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rs_vsayf(c, who ? who->id : 0, who != NULL && who->hidden, fmt, ap);
    va_end(ap);
}

enum eng_err rsv_require_current(struct rs_call *c,
                                 struct enc_combatant **out)
{
    if (c->e->status != ENC_ST_RUNNING)
        return enc_fail(c->d, ENG_STATE, "the fight has not begun");
    struct enc_combatant *who = enc_current(c->e);
    if (who == NULL)
        return enc_fail(c->d, ENG_STATE, "it is nobody's turn");
    enum eng_err err = rs_require_actor(c, who);
    if (err != ENG_OK)
        return err;
    *out = who;
    return ENG_OK;
}

enum eng_err rsv_named_actor(struct rs_call *c, const char *opt,
                             struct enc_combatant **out)
{
    struct enc_combatant *who;
    enum eng_err err = rs_opt_combatant(c, opt, &who);
    if (err != ENG_OK)
        return err;
    err = rs_require_actor(c, who);
    if (err != ENG_OK)
        return err;
    *out = who;
    return ENG_OK;
}

int64_t rsv_actions_max(const struct encounter *e,
                        const struct enc_combatant *who)
{
    int64_t m = who->rs[RSV_C_MOMENTUM]
                    ? rsv_setting_int(e, "momentum", RSV_MOMENTUM) : 0;
    return RSV_ACTIONS + m;
}

int64_t rsv_total_max(const struct encounter *e,
                      const struct enc_combatant *who)
{
    int64_t m = who->rs[RSV_C_MOMENTUM]
                    ? rsv_setting_int(e, "momentum", RSV_MOMENTUM) : 0;
    return RSV_MAX_TOTAL + m;
}

enum eng_err rsv_check_action(struct rs_call *c,
                              const struct enc_combatant *who, bool free,
                              const char *what)
{
    int64_t total = who->rs[RSV_C_ACTIONS] + who->rs[RSV_C_FREE];
    if (total >= rsv_total_max(c->e, who)) {
        enc_fail(c->d, ENG_STATE, "%s has taken %lld actions this turn, "
                 "free ones included (the limit); cannot %s", who->name,
                 (long long)total, what);
        if (!who->rs[RSV_C_MOMENTUM])
            enc_hint(c->d, "Gain Momentum allows more: /momentum");
        return ENG_STATE;
    }
    if (!free && who->rs[RSV_C_ACTIONS] >= rsv_actions_max(c->e, who)) {
        enc_fail(c->d, ENG_STATE, "%s has used this turn's action; cannot "
                 "%s", who->name, what);
        if (!who->rs[RSV_C_MOMENTUM])
            enc_hint(c->d, "Gain Momentum allows more: /momentum");
        return ENG_STATE;
    }
    return ENG_OK;
}

void rsv_spend_action(struct enc_combatant *who, bool free)
{
    who->rs[free ? RSV_C_FREE : RSV_C_ACTIONS]++;
}

/* ---- combatants ---------------------------------------------------------- */

/* Stats that must be whole numbers in a range, with the message's name. */
struct rsv_bound {
    const char *stat;
    int64_t lo, hi;
};
static const struct rsv_bound rsv_bounds[] = {
    {"init", -RSV_MAX_RANK, RSV_MAX_RANK},
    {"defense", 0, RSV_MAX_RANK},
    {"ar", 0, RSV_MAX_ARMOR},
    {"stamina", 0, RSV_MAX_RANK},
    {"control", 0, RSV_MAX_RANK},
    {"attack", 0, RSV_MAX_RANK},
    {"damage", 0, RSV_MAX_RANK},
    {"pc", 0, 1},
    {"major", 0, 1},
    {"significant", 0, 1},
    {"nts", 0, RSV_MAX_NEVER},
    {"resolve", 0, ENC_MAX_VALUE},
};

static enum eng_err rsv_check_stat(struct rs_call *c,
                                   struct enc_combatant *who,
                                   const char *name, int64_t value)
{
    (void)who;
    for (size_t i = 0; i < sizeof rsv_bounds / sizeof rsv_bounds[0]; i++) {
        const struct rsv_bound *b = &rsv_bounds[i];
        if (eng_text_casecmp(name, b->stat) == 0 &&
            (value < b->lo || value > b->hi))
            return enc_fail(c->d, ENG_RANGE, "%s must be %lld to %lld",
                            b->stat, (long long)b->lo, (long long)b->hi);
    }
    if (eng_text_ncasecmp(name, "ar_", 3) == 0 &&
        (value < 0 || value > RSV_MAX_ARMOR))
        return enc_fail(c->d, ENG_RANGE, "%s must be 0 to %d", name,
                        RSV_MAX_ARMOR);
    return ENG_OK;
}

static enum eng_err rsv_setup(struct rs_call *c, struct enc_combatant *who)
{
    /* Resolve lives in the hp track, so /combat hp works on it; a stat
     * named resolve sets it too. */
    const int64_t *res = enc_stat(who, "resolve");
    if (res != NULL) {
        int64_t v = *res;
        enum eng_err err = enc_track_set(who, RSV_RESOLVE, v, v, c->d);
        if (err != ENG_OK)
            return err;
        enc_stat_remove(who, "resolve");
    }
    const int64_t *hp = enc_stat(who, "hp");
    if (hp != NULL) {
        int64_t v = *hp;
        if (v < 0)
            return enc_fail(c->d, ENG_RANGE, "resolve cannot be negative");
        enum eng_err err = enc_track_set(who, RSV_RESOLVE, v, v, c->d);
        if (err != ENG_OK)
            return err;
        enc_stat_remove(who, "hp");
    }
    bool major = false;
    enum eng_err err = rs_opt_bool(c, "major", false, &major);
    if (err != ENG_OK)
        return err;
    if (major || enc_stat_or(who, "major", 0) != 0)
        who->flags |= ENC_CF_MAJOR;
    if (who->init_expr[0] != '\0') {
        int64_t v;
        if (!eng_text_to_int(who->init_expr, &v) || v < -RSV_MAX_RANK ||
            v > RSV_MAX_RANK)
            return enc_fail(c->d, ENG_RANGE, "init: is the initiative rank, "
                            "a whole number from %d to %d", -RSV_MAX_RANK,
                            RSV_MAX_RANK);
    }
    return ENG_OK;
}

static enum eng_err rsv_setting(struct rs_call *c, const char *key,
                                const char *value)
{
    int64_t v;
    if (eng_text_casecmp(key, "momentum") == 0) {
        if (!eng_text_to_int(value, &v) || v < 0 || v > RSV_MAX_MOMENTUM)
            return enc_fail(c->d, ENG_RANGE, "momentum must be 0 to %d "
                            "(extra actions that Gain Momentum gives)",
                            RSV_MAX_MOMENTUM);
    } else if (eng_text_casecmp(key, "min_dice") == 0) {
        if (!eng_text_to_int(value, &v) || v < 0 || v > 1)
            return enc_fail(c->d, ENG_RANGE, "min_dice must be 0 or 1 (the "
                            "fewest dice a range penalty leaves)");
    } else {
        enc_fail(c->d, ENG_NOTFOUND, "unknown setting `%.24s` for resolve",
                 key);
        enc_hint(c->d, "settings:\"momentum=1 min_dice=1\"");
        return ENG_NOTFOUND;
    }
    return enc_setting_set(c->e, key, value, c->d);
}

/* The initiative rank: init: given at /combat add, else the init stat. */
static int64_t rsv_rank(const struct enc_combatant *who)
{
    int64_t v;
    if (who->init_expr[0] != '\0' && eng_text_to_int(who->init_expr, &v))
        return v;
    return enc_stat_or(who, "init", 0);
}

/* Give who its initiative score: players roll 1D, NPCs do not. */
static enum eng_err rsv_draw_init(struct rs_call *c, struct enc_combatant *who)
{
    bool pc = rsv_is_pc(who);
    int64_t rank = rsv_rank(who);
    int die = 0, roll_idx = -1;
    if (pc) {
        struct rs_rolled r;
        enum eng_err err = rs_roll(c, NULL, "initiative", "1D", &r);
        if (err != ENG_OK)
            return err;
        die = (int)r.total;
        roll_idx = r.roll_idx;
    }
    bool major = rsv_is_major(who);
    who->init[0] = rsv_init_score(pc, major, rank, die);
    who->ninit = 1;
    struct enc_event *ev = enc_emit(c->r, ENC_EV_INIT, who->id);
    ev->a = who->init[0];
    enc_event_roll(c->r, ev, roll_idx);
    ev->secret = who->hidden;
    if (pc)
        enc_event_text(c->r, ev, "1D (%d) + rank %lld", die,
                 (long long)rank);
    else
        enc_event_text(c->r, ev, "rank %lld + %d%s",
                 (long long)rank, major ? RSV_MAJOR_INIT : RSV_NPC_INIT,
                 major ? " (major)" : "");
    return ENG_OK;
}

static int rsv_cmp(const struct encounter *e, const struct enc_slot *a,
                   const struct enc_slot *b)
{
    const struct enc_combatant *x = enc_by_id_c(e, a->id);
    const struct enc_combatant *y = enc_by_id_c(e, b->id);
    return rsv_init_order(x->init[a->init_idx], rsv_is_pc(x), x->join_seq,
                          y->init[b->init_idx], rsv_is_pc(y), y->join_seq);
}

/* ---- the turn loop ------------------------------------------------------- */

/* What a turn start means here beyond turn_start(): fresh limits, a held
 * action lapses, an unused help may restore Resolve. */
static void rsv_turn_begins(struct rs_call *c, struct enc_combatant *who)
{
    who->rs[RSV_C_MOVED] = 0;
    who->rs[RSV_C_ACTIONS] = 0;
    who->rs[RSV_C_FREE] = 0;
    who->rs[RSV_C_MOMENTUM] = 0;
    who->rs[RSV_C_FIRED] = 0;
    who->rs[RSV_C_RALLY] = 0;
    if (who->rs[RSV_C_HELD] != RSV_HELD_NONE) {
        who->rs[RSV_C_HELD] = RSV_HELD_NONE;
        rsv_say(c, who, "the held action lapses");
    }
    if (who->rs[RSV_C_HELP]) {
        who->rs[RSV_C_HELP] = 0;
        who->rs[RSV_C_RALLY] = 1;
        rsv_say(c, who, "the help went unused: one character who is not "
                "Wounded may regain %d Resolve (/rally target:)",
                RSV_HELP_REGAIN);
    }
}

/* Start who's turn. A turn that was started and then delayed resumes: the
 * start-of-turn countdowns already ran for it, so conditions timed on its
 * start are marked to skip this second boundary. */
static void rsv_start(struct rs_call *c, struct enc_combatant *who)
{
    bool resume = who->rs[RSV_C_RESUME] != 0;
    if (resume) {
        for (int i = 0; i < c->e->ncs; i++) {
            struct enc_combatant *h = &c->e->cs[i];
            for (int k = 0; k < h->nconds; k++)
                if (h->conds[k].anchor == who->id &&
                    h->conds[k].expire == ENC_EXPIRE_START &&
                    h->conds[k].rounds > 0)
                    h->conds[k].applied_turn = c->e->turn_seq + 1;
        }
        who->rs[RSV_C_RESUME] = 0;
    }
    turn_start(c, who);
    if (!resume)
        rsv_turn_begins(c, who);
}

/* End the current turn, if any, marking it acted. */
static void rsv_end(struct rs_call *c)
{
    struct enc_combatant *who = enc_current(c->e);
    if (who == NULL)
        return;
    who->flags |= ENC_CF_ACTED;
    who->rs[RSV_C_RALLY] = 0;
    turn_end(c);
}

static void rsv_round_start(struct rs_call *c)
{
    struct encounter *e = c->e;
    for (int i = 0; i < e->ncs; i++)
        e->cs[i].flags &= ~(uint32_t)ENC_CF_ACTED;
}

/* From slot idx on, wrapping into new rounds, start the first turn of
 * someone who can act (turn.c's fixed walk, with this ruleset's start). */
static void rsv_walk(struct rs_call *c, int idx)
{
    struct encounter *e = c->e;
    for (int steps = 0; steps <= 2 * e->norder; steps++) {
        if (idx >= e->norder) {
            idx = 0;
            e->round++;
            enc_emit(c->r, ENC_EV_ROUND, 0)->a = e->round;
            rsv_round_start(c);
        }
        if (e->norder == 0)
            break;
        struct enc_combatant *who = enc_by_id(e, e->order[idx].id);
        e->turn_idx = idx;
        if (who != NULL && turn_can_act(who) && !rsv_is_out(who)) {
            rsv_start(c, who);
            return;
        }
        if (who != NULL) {
            turn_skip(c, who);
            who->flags |= ENC_CF_ACTED;
        }
        idx++;
    }
    e->current = 0;
    rsv_say(c, NULL, "nobody is able to act");
}

static enum eng_err rsv_begin(struct rs_call *c)
{
    struct encounter *e = c->e;
    if (e->ncs == 0)
        return enc_fail(c->d, ENG_STATE, "there is nobody to fight yet");
    for (int i = 0; i < e->ncs; i++) {
        struct enc_combatant *who = &e->cs[i];
        const struct enc_combatant *lead = NULL;
        if (who->group != 0)
            for (int k = 0; k < i; k++)
                if (e->cs[k].group == who->group) {
                    lead = &e->cs[k];
                    break;
                }
        if (lead != NULL) {
            who->init[0] = lead->init[0];
            who->ninit = 1;
            continue;
        }
        enum eng_err err = rsv_draw_init(c, who);
        if (err != ENG_OK)
            return err;
    }
    turn_order_build(e, rsv_cmp);
    e->status = ENC_ST_RUNNING;
    e->round = 0;
    e->current = 0;
    e->rs[RSV_E_BLAZE] = 0;
    enc_emit(c->r, ENC_EV_BEGIN, 0);
    rsv_walk(c, e->norder);
    return ENG_OK;
}

/* Whether someone must still choose a Fallen Fate. */
static const struct enc_combatant *rsv_fate_waiting(const struct encounter *e)
{
    for (int i = 0; i < e->ncs; i++)
        if (e->cs[i].rs[RSV_C_FATE] != RSV_FATE_NONE)
            return &e->cs[i];
    return NULL;
}

enum eng_err rsv_next(struct rs_call *c)
{
    struct encounter *e = c->e;
    if (e->status != ENC_ST_RUNNING)
        return enc_fail(c->d, ENG_STATE, "the fight has not begun");
    const struct enc_combatant *due = rsv_fate_waiting(e);
    if (due != NULL) {
        enc_fail(c->d, ENG_STATE, "%s must first choose a Fallen Fate",
                 due->name);
        enc_hint(c->d, "/fate name:\"%s\" fate:push (or never, "
                 "blaze, tragic, ignore)", due->name);
        return ENG_STATE;
    }
    struct enc_combatant *cur = enc_current(e);
    if (cur != NULL && e->rs[RSV_E_BLAZE] == cur->id) {
        /* The Blaze of Glory turn is over: its hero dies, and play goes on
         * after the turn it interrupted. */
        e->rs[RSV_E_BLAZE] = 0;
        rsv_end(c);
        rsv_say(c, cur, "falls at the end of a Blaze of Glory");
        rsv_take_out(c, cur, RSV_OUT_DEAD);
        rsv_walk(c, e->turn_idx + 1);
        return ENG_OK;
    }
    rsv_end(c);
    rsv_walk(c, e->turn_idx + 1);
    return ENG_OK;
}

void rsv_blaze_turn(struct rs_call *c, struct enc_combatant *who)
{
    rsv_end(c);
    c->e->rs[RSV_E_BLAZE] = who->id;
    who->rs[RSV_C_RESUME] = 0;
    rsv_start(c, who);
}

enum eng_err rsv_delay_turn(struct rs_call *c, struct enc_combatant *who,
                            struct enc_combatant *target)
{
    struct encounter *e = c->e;
    int from = e->turn_idx, to = -1;
    if (from < 0 || from >= e->norder || e->order[from].id != who->id)
        return enc_fail(c->d, ENG_STATE, "%s is not in its own slot of the "
                        "order (a Blaze of Glory turn cannot be delayed)",
                        who->name);
    for (int i = from + 1; i < e->norder; i++)
        if (e->order[i].id == target->id) {
            to = i;
            break;
        }
    if (to < 0)
        return enc_fail(c->d, ENG_STATE, "%s has no turn left this round",
                        target->name);
    struct enc_slot mine = e->order[from];
    memmove(&e->order[from], &e->order[from + 1],
            (size_t)(to - from) * sizeof e->order[0]);
    e->order[to] = mine;
    /* The turn pauses rather than ends: no end-of-turn countdown, not
     * marked acted; it resumes in its new slot. */
    who->rs[RSV_C_RESUME] = 1;
    e->current = 0;
    rsv_say(c, who, "delays, to act right after %s", target->name);
    rsv_walk(c, from);
    return ENG_OK;
}

static enum eng_err rsv_late_join(struct rs_call *c, struct enc_combatant *who)
{
    struct encounter *e = c->e;
    if (e->norder >= ENC_MAX_ORDER)
        return enc_fail(c->d, ENG_LIMIT, "the turn order is full (limit is "
                        "%d)", ENC_MAX_ORDER);
    enum eng_err err = rsv_draw_init(c, who);
    if (err != ENG_OK)
        return err;
    /* Slot in before the first later turn it outranks; a place already
     * passed this round means it first acts next round. The order may have
     * been changed by delays, so it is not re-sorted. */
    struct enc_slot mine = {who->id, 0};
    int at = e->norder;
    for (int i = 0; i < e->norder; i++)
        if (rsv_cmp(e, &mine, &e->order[i]) < 0) {
            at = i;
            break;
        }
    memmove(&e->order[at + 1], &e->order[at],
            (size_t)(e->norder - at) * sizeof e->order[0]);
    e->order[at] = mine;
    e->norder++;
    if (at <= e->turn_idx) {
        e->turn_idx++;
        who->flags |= ENC_CF_ACTED;
    }
    return ENG_OK;
}

static void rsv_status_text(const struct encounter *e,
                       const struct enc_combatant *who, char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = '\0';
#define RSV_PUT(...)                                                        \
    do {                                                                    \
        if (at < n) {                                                       \
            int k_ = snprintf(buf + at, n - at, __VA_ARGS__);               \
            if (k_ > 0)                                                     \
                at += (size_t)k_;                                           \
        }                                                                   \
    } while (0)
    if (who->rs[RSV_C_OUT] == RSV_OUT_ESCAPED)
        RSV_PUT("escaped ");
    else if (who->rs[RSV_C_OUT] == RSV_OUT_REMOVED)
        RSV_PUT("out (Never the Same) ");
    else if (who->rs[RSV_C_OUT] == RSV_OUT_DEAD)
        RSV_PUT("dead ");
    if (e->current == who->id)
        RSV_PUT("move %s, actions %lld/%lld, total %lld/%lld%s ",
                who->rs[RSV_C_MOVED] ? "used" : "free",
                (long long)who->rs[RSV_C_ACTIONS],
                (long long)rsv_actions_max(e, who),
                (long long)(who->rs[RSV_C_ACTIONS] + who->rs[RSV_C_FREE]),
                (long long)rsv_total_max(e, who),
                who->rs[RSV_C_MOMENTUM] ? " (momentum)" : "");
    if (who->rs[RSV_C_HELD] != RSV_HELD_NONE)
        RSV_PUT("holding %s ", who->rs[RSV_C_HELD] == RSV_HELD_ATTACK
                                   ? "an attack"
                               : who->rs[RSV_C_HELD] == RSV_HELD_ITEM
                                   ? "an item" : "a skill");
    if (who->rs[RSV_C_HELP])
        RSV_PUT("help ready (+%lld) ", (long long)who->rs[RSV_C_HELP_RANK]);
    if (who->rs[RSV_C_FATE] != RSV_FATE_NONE)
        RSV_PUT("must choose a Fallen Fate ");
    int64_t ign = rsv_ignores(enc_stat_or(who, "stamina", 0),
                              enc_stat_or(who, "control", 0));
    if (rsv_is_pc(who) && ign > 0)
        RSV_PUT("ignores %lld/%lld", (long long)(ign -
                who->rs[RSV_C_IGNORES_USED]), (long long)ign);
#undef RSV_PUT
    /* Trim the trailing space. */
    size_t len = strlen(buf);
    if (len > 0 && buf[len - 1] == ' ')
        buf[len - 1] = '\0';
}

static enum eng_err rsv_pick(struct rs_call *c, struct enc_combatant *who)
{
    (void)who;
    enc_fail(c->d, ENG_STATE, "resolve keeps a fixed order: nobody is "
             "picked; a character may delay instead");
    enc_hint(c->d, "/combat delay after:<name>");
    return ENG_STATE;
}

/* The tracker's extra line for who (the text form is kept short for a
 * phone's width). */
static void rsv_status(const struct encounter *e,
                       const struct enc_combatant *who, struct eng_buf *out)
{
    char buf[256];
    rsv_status_text(e, who, buf, sizeof buf);
    eng_buf_add(out, buf);
}

const struct rs_ops rsv_ops = {
    .version = RS_OPS_VERSION,
    .setup = rsv_setup,               /* resolve/hp track, major flag */
    .check_stat = rsv_check_stat,     /* ranks, defense, armor bounds */
    .setting = rsv_setting,           /* momentum, min_dice */
    .begin = rsv_begin,               /* players 1D + rank, NPCs rank + 3/6 */
    .next = rsv_next,                 /* fixed order, delays, blaze turns */
    .pick = rsv_pick,                 /* refused: not alternating */
    .pass = NULL,                     /* not alternating */
    .attack = rsv_attack,             /* pool vs Defense, damage - armor */
    .late_join = rsv_late_join,       /* scored and slotted in */
    .after_track = rsv_after_track,   /* Resolve 0: Wounded or defeated */
    .status = rsv_status,             /* actions left, held, ignores */
};

/* Never the Same also needs the attributes, so it is typed, not clicked;
 * the prompt's text says how. */
const struct rs_prompt rsv_prompts[] = {
    [RSV_PROMPT_FATE] = {{{"Ignore it", "fate", "fate", "ignore"},
                          {"Desperate Push", "fate", "fate", "push"},
                          {"Blaze of Glory", "fate", "fate", "blaze"},
                          {"Tragic Demise", "fate", "fate", "tragic"},
                          {NULL, NULL, NULL, NULL}}},
    [RSV_PROMPT_FATE_MUST] = {{{"Desperate Push", "fate", "fate", "push"},
                               {"Blaze of Glory", "fate", "fate", "blaze"},
                               {"Tragic Demise", "fate", "fate", "tragic"},
                               {NULL, NULL, NULL, NULL}}},
};

