/*
 * rs_teams.c - the `teams` ruleset: combatants, conditions and the turn
 * structure (teams alternate picking one member each), and what the tracker
 * shows. Attacks are in rs_teams_attack.c, damage and death in
 * rs_teams_combat.c, actions and reactions in rs_teams_act.c; see
 * rs_teams.h for the rules in brief.
 */
#include "rs_teams.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "eng_buf.h"
#include "eng_text.h"
#include "turn.h"

/* ---- small shared helpers ----------------------------------------------- */

int64_t te_setting(const struct encounter *e, const char *key)
{
    return rs_setting_int(e, &rs_teams, key);
}

bool te_can_act(const struct enc_combatant *who)
{
    return turn_can_act(who);
}

const char *te_plural(int64_t n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

enum eng_err te_cond(struct rs_call *c, struct enc_combatant *who,
                     const char *name)
{
    struct rs_cond_give q = {
        .name = name, .rounds = -1, .anchor = who->id, .source = who->id,
    };
    return rs_cond_give(c, &rs_teams, who, &q, false);
}

void te_knock_out(struct rs_call *c, struct enc_combatant *who)
{
    TE_C(who)->fortify = 0;
    if (who->flags & ENC_CF_DOWN)
        return;
    who->flags |= ENC_CF_DOWN;
    enc_emit(c->r, ENC_EV_DOWN, who->id)->secret = who->hidden;
    RS_SAY(c, who, "{} is unconscious", RS_A_WHO(who));
}

void te_wake(struct rs_call *c, struct enc_combatant *who)
{
    if (!(who->flags & ENC_CF_DOWN) || (who->flags & ENC_CF_DEAD))
        return;
    who->flags &= ~(uint32_t)ENC_CF_DOWN;
    enc_emit(c->r, ENC_EV_UP, who->id)->secret = who->hidden;
    RS_SAY(c, who, "{} regains consciousness", RS_A_WHO(who));
}

void te_kill(struct rs_call *c, struct enc_combatant *who)
{
    TE_C(who)->fortify = 0;
    if (!(who->flags & ENC_CF_DOWN)) {
        who->flags |= ENC_CF_DOWN;
        enc_emit(c->r, ENC_EV_DOWN, who->id)->secret = who->hidden;
    }
    who->flags |= ENC_CF_DEAD;
    RS_SAY(c, who, "{} dies", RS_A_WHO(who));
}

enum eng_err te_check_track(struct rs_call *c, const struct enc_combatant *who,
                            const char *track, int64_t amount,
                            const char *what)
{
    const struct enc_track *t = enc_track_c(who, track);
    int64_t have = t ? t->cur : 0;
    if (have < amount)
        return enc_fail(c->d, ENG_STATE, "%s needs %lld %s to %s and has "
                        "%lld", who->name, (long long)amount, track, what,
                        (long long)have);
    return ENG_OK;
}

enum eng_err te_spend_track(struct rs_call *c, struct enc_combatant *who,
                            const char *track, int64_t amount,
                            const char *what)
{
    enum eng_err err = te_check_track(c, who, track, amount, what);
    if (err != ENG_OK || amount == 0)
        return err;
    struct enc_track *t = enc_track(who, track);
    int64_t before = t->cur;
    t->cur -= amount;
    struct enc_event *ev = enc_emit(c->r, ENC_EV_HP, who->id);
    ev->text = enc_result_strdup(c->r, track, ENC_MAX_STAT_NAME);
    ev->a = before;
    ev->b = t->cur;
    ev->secret = who->hidden;
    return ENG_OK;
}

/* ---- combatants --------------------------------------------------------- */

/* Stats that become tracks (current = maximum) at setup. */
static const char *const te_track_stats[] = {
    TE_HEALTH, TE_ENDURANCE, TE_STAMINA, TE_FOCUS, NULL,
};

static bool te_is_track(const char *name)
{
    for (int i = 0; te_track_stats[i] != NULL; i++)
        if (eng_text_casecmp(name, te_track_stats[i]) == 0)
            return true;
    return false;
}

/* Beyond the declared bounds: a die has at least two sides. */
enum eng_err te_check_stat(struct rs_call *c, struct enc_combatant *who,
                           const char *name, int64_t value)
{
    (void)who;
    static const char *const dice[] = {
        "str", "dex", "int", "wil", "per", "cha", "combat", "athletics",
    };
    for (size_t i = 0; i < sizeof dice / sizeof dice[0]; i++)
        if (eng_text_casecmp(name, dice[i]) == 0 && value == 1)
            return enc_fail(c->d, ENG_RANGE, "%s is a die size: 0 (none) or "
                            "2 to %d, like %s=6 for a d6", name, TE_MAX_DIE,
                            name);
    return ENG_OK;
}

enum eng_err te_setup(struct rs_call *c, struct enc_combatant *who)
{
    for (int i = 0; i < who->nstats; i++) {
        enum eng_err err = rs_stat_check(c, &rs_teams, who,
                                         who->stats[i].name,
                                         who->stats[i].value);
        if (err != ENG_OK)
            return err;
    }
    /* Tracked values leave the stats and live as tracks only. */
    for (int i = 0; i < who->nstats;) {
        const char *n = who->stats[i].name;
        if (!te_is_track(n)) {
            i++;
            continue;
        }
        int64_t v = who->stats[i].value;
        enum eng_err err = enc_track_set(who, n, v, v, c->d);
        if (err != ENG_OK)
            return err;
        memmove(&who->stats[i], &who->stats[i + 1],
                (size_t)(who->nstats - i - 1) * sizeof who->stats[0]);
        who->nstats--;
    }
    TE_C(who)->actions = (int32_t)te_setting(c->e, "actions");
    TE_C(who)->reactions = (int32_t)te_setting(c->e, "reactions");
    return ENG_OK;
}

/* Waiting is an extra reaction until the character's next turn, however
 * the condition arrives (Wait, or the GM). */
enum eng_err te_cond_changed(struct rs_call *c,
                             struct enc_combatant *who,
                             struct enc_cond *q, int32_t before)
{
    (void)c;
    if (before == INT32_MIN && eng_text_casecmp(q->name, TE_COND_WAIT) == 0 &&
        TE_C(who)->reactions < TE_MAX_REACTIONS)
        TE_C(who)->reactions++;
    return ENG_OK;
}

/* ---- turn structure ----------------------------------------------------- */

static int te_order_pos(const struct encounter *e, int side)
{
    const struct te_enc *st = TE_ENC(e);
    for (int i = 0; i < st->norder; i++)
        if (st->order[i] == side)
            return i;
    return -1;
}

/* Put side last in the order when it has no place yet. */
static void te_order_add(struct encounter *e, int side)
{
    struct te_enc *st = TE_ENC(e);
    if (side < 0 || te_order_pos(e, side) >= 0 || st->norder >= ENC_MAX_SIDES)
        return;
    st->order[st->norder++] = side;
}

/* Whether who may be picked now: on a team, able, not yet acted, and in a
 * surprise round either on the surprising team or impossible to
 * surprise. fresh asks about the start of the next round instead. */
static bool te_eligible(const struct encounter *e,
                        const struct enc_combatant *who, bool fresh)
{
    const struct te_enc *st = TE_ENC(e);
    if (!te_can_act(who) || who->side < 0)
        return false;
    if (fresh)
        return true;
    if (who->flags & ENC_CF_ACTED)
        return false;
    if (!st->surprise)
        return true;
    return who->side == st->surpriser - 1 ||
           enc_stat_or(who, "nosurprise", 0) != 0;
}

/* Members of side that may be picked, leaving out skip (whose turn is
 * ending). */
static int te_side_eligible(const struct encounter *e, int side,
                            uint32_t skip, bool fresh)
{
    int n = 0;
    for (int i = 0; i < e->ncs; i++)
        if (e->cs[i].side == side && e->cs[i].id != skip &&
            te_eligible(e, &e->cs[i], fresh))
            n++;
    return n;
}

/* The first team from order position `from` on (wrapping, at most one
 * lap) with someone to pick; -1 if none. */
static int te_side_from(const struct encounter *e, int from, uint32_t skip,
                        bool fresh)
{
    const struct te_enc *st = TE_ENC(e);
    int n = st->norder;
    for (int k = 0; k < n; k++) {
        int side = st->order[(from + k) % n];
        if (te_side_eligible(e, side, skip, fresh) > 0)
            return side;
    }
    return -1;
}

static void te_begin_turn(struct rs_call *c, struct enc_combatant *who);

/* Give play to side, starting the turn at once when it has one choice. */
static void te_give(struct rs_call *c, int side)
{
    struct encounter *e = c->e;
    e->acting_side = side;
    if (side < 0)
        return;
    struct enc_combatant *only = NULL;
    int n = 0;
    for (int i = 0; i < e->ncs; i++)
        if (e->cs[i].side == side && te_eligible(e, &e->cs[i], false)) {
            only = &e->cs[i];
            n++;
        }
    if (n == 1) {
        te_begin_turn(c, only);
        return;
    }
    RS_SAY(c, NULL, "team {} picks who acts next", RS_A_SIDE(e, side));
}

/* A new round: everyone may act again; the penalty starts over. Members
 * who could not act last round still pass the time. */
static void te_new_round(struct rs_call *c)
{
    struct encounter *e = c->e;
    struct te_enc *st = TE_ENC(e);
    for (int i = 0; i < e->ncs && e->round > 0; i++) {
        struct enc_combatant *who = &e->cs[i];
        if (!(who->flags & ENC_CF_ACTED) && (who->flags & ENC_CF_DOWN) &&
            !(who->flags & ENC_CF_DEAD))
            turn_skip(c, who);
    }
    bool was_surprise = st->surprise;
    st->surprise = false;
    turn_round(c);
    if (was_surprise)
        rs_say0(c, NULL, "the surprise round is over");
    for (int i = 0; i < e->ncs; i++) {
        e->cs[i].flags &= ~(uint32_t)ENC_CF_ACTED;
        TE_C(&e->cs[i])->attacks = 0;
    }
}

/* Play passes on from the team at order position `after` (-1: from the
 * top): the next team with someone to pick, that same team last, and a new
 * round when nobody is left. */
static void te_pass_on(struct rs_call *c, int after)
{
    struct encounter *e = c->e;
    int side = te_side_from(e, after + 1, 0, false);
    if (side < 0) {
        /* Events of the order stop play at the round's edges: nobody
         * picks until /combat next moves on (te_next). */
        if (enc_entry_edge(c, ENC_ENTRY_END)) {
            e->acting_side = -1;
            return;
        }
        te_new_round(c);
        if (enc_entry_edge(c, ENC_ENTRY_START)) {
            e->acting_side = -1;
            return;
        }
        side = te_side_from(e, 0, 0, false);
    }
    if (side < 0) {
        e->acting_side = -1;
        rs_say0(c, NULL, "nobody is able to act");
        return;
    }
    te_give(c, side);
}

static void te_begin_turn(struct rs_call *c, struct enc_combatant *who)
{
    struct encounter *e = c->e;
    struct te_comb *st = TE_C(who);
    e->acting_side = who->side;
    st->actions = (int32_t)te_setting(e, "actions");
    st->reactions = (int32_t)te_setting(e, "reactions");
    st->moved = false;
    st->stepped = false;
    memset(st->commanded, 0, sizeof st->commanded);
    turn_start(c, who);
    if (st->busy > 0)
        RS_SAY(c, who,
               "{} is still busy with {} ({} {} to go): continue or "
               "abandon it first",
               RS_A_WHO(who),
               st->busy_label[0] ? RS_A_USER(st->busy_label)
                                 : RS_A_TEXT(N_("an action")),
               RS_A_NUM(st->busy),
               RS_A_TEXT(te_plural(st->busy, N_("action"), N_("actions"))));
}

void te_end_turn(struct rs_call *c)
{
    struct encounter *e = c->e;
    struct enc_combatant *who = enc_current(e);
    if (who == NULL)
        return;
    who->flags |= ENC_CF_ACTED;
    int pos = te_order_pos(e, who->side);
    turn_end(c);
    te_pass_on(c, pos);
}

void te_settle(struct rs_call *c)
{
    struct encounter *e = c->e;
    if (e->status != ENC_ST_RUNNING || e->entry_on != 0)
        return;
    struct enc_combatant *cur = enc_current(e);
    if (cur != NULL) {
        /* Unconscious (or dead) during their own turn: the rest of it is
         * lost, and play passes as if they had ended it. */
        if (!te_can_act(cur)) {
            RS_SAY(c, cur, "{} loses the rest of the turn", RS_A_WHO(cur));
            te_end_turn(c);
        }
        return;
    }
    if (e->acting_side >= 0 &&
        te_side_eligible(e, e->acting_side, 0, false) > 0)
        return;
    if (e->acting_side < 0) {
        /* Nobody could act: someone woke up, start from the top. */
        int side = te_side_from(e, 0, 0, false);
        if (side >= 0)
            te_give(c, side);
        return;
    }
    te_pass_on(c, te_order_pos(e, e->acting_side));
}

/* The teams of order: "a, b" into sides[] (*n of them). */
static enum eng_err te_parse_order(struct rs_call *c, const char *text,
                                   int *sides, int *n)
{
    char name[ENC_MAX_SIDE_NAME + 1];
    bool too_long = false;
    *n = 0;
    while (rs_list_next(&text, name, sizeof name, &too_long)) {
        int side = enc_side_find(c->e, name);
        if (side < 0)
            return enc_fail(c->d, ENG_NOTFOUND, "order: no team named %s",
                            name);
        for (int i = 0; i < *n; i++)
            if (sides[i] == side)
                return enc_fail(c->d, ENG_INVALID, "order: team %s is "
                                "named twice", name);
        if (*n >= ENC_MAX_SIDES)
            return enc_fail(c->d, ENG_LIMIT, "order: too many teams (limit "
                            "is %d)", ENC_MAX_SIDES);
        sides[(*n)++] = side;
    }
    if (too_long)
        return enc_fail(c->d, ENG_LIMIT, "order: a team name is too long "
                        "(limit is %d bytes)", ENC_MAX_SIDE_NAME);
    return ENG_OK;
}

/* Teams that have members, in the order they were made. */
static int te_used_sides(const struct encounter *e, int *sides)
{
    int n = 0;
    for (int s = 0; s < e->nsides; s++)
        for (int i = 0; i < e->ncs; i++)
            if (e->cs[i].side == s) {
                sides[n++] = s;
                break;
            }
    return n;
}

/* The order of the teams from /combat begin's options: first:, else the
 * surprising team, else the head of order:; the rest as order: lists them
 * (one team may be left out: it goes last). */
static enum eng_err te_begin_order(struct rs_call *c, int first, int surprise,
                                   const char *ord, int *order, int *n)
{
    struct encounter *e = c->e;
    int used[ENC_MAX_SIDES];
    int nused = te_used_sides(e, used);
    if (nused == 0)
        return enc_fail(c->d, ENG_STATE, "there is nobody to fight yet");
    int listed[ENC_MAX_SIDES], nlisted = 0;
    if (ord != NULL) {
        enum eng_err err = te_parse_order(c, ord, listed, &nlisted);
        if (err != ENG_OK)
            return err;
    }
    if (first < 0)
        first = surprise >= 0 ? surprise : nlisted > 0 ? listed[0] : -1;
    if (first < 0 && nused > 1) {
        enc_fail(c->d, ENG_INVALID, "first: is required: the team that "
                 "started the fight");
        enc_hint(c->d, "/combat begin first:\"%s\"", e->sides[used[0]].name);
        return ENG_INVALID;
    }
    if (first < 0)
        first = used[0];
    *n = 0;
    order[(*n)++] = first;
    for (int i = 0; i < nlisted; i++)
        if (listed[i] != first)
            order[(*n)++] = listed[i];
    int missing = 0, last_missing = -1;
    for (int i = 0; i < nused; i++) {
        bool in = false;
        for (int k = 0; k < *n; k++)
            in = in || order[k] == used[i];
        if (!in) {
            missing++;
            last_missing = used[i];
        }
    }
    if (missing > 1) {
        enc_fail(c->d, ENG_INVALID, "order: must list the other teams, the "
                 "attacked team first");
        enc_hint(c->d, "/combat begin first:\"%s\" order:\"a,b\"",
                 e->sides[first].name);
        return ENG_INVALID;
    }
    if (missing == 1)
        order[(*n)++] = last_missing;
    return ENG_OK;
}

/* "team order: a, b, c" with each team a part of the sentence: one
 * template a count, so each is a whole message of the catalogs. */
static const char *const te_order_fmt[ENC_MAX_SIDES] = {
    N_("team order: {}"),
    N_("team order: {}, {}"),
    N_("team order: {}, {}, {}"),
    N_("team order: {}, {}, {}, {}"),
    N_("team order: {}, {}, {}, {}, {}"),
    N_("team order: {}, {}, {}, {}, {}, {}"),
    N_("team order: {}, {}, {}, {}, {}, {}, {}"),
    N_("team order: {}, {}, {}, {}, {}, {}, {}, {}"),
};

static void te_say_order(struct rs_call *c, const int *order, int n)
{
    struct rs_say_arg args[ENC_MAX_SIDES];
    if (n <= 0 || n > ENC_MAX_SIDES)
        return;
    for (int i = 0; i < n; i++)
        args[i] = RS_A_SIDE(c->e, order[i]);
    rs_say_args(c, NULL, te_order_fmt[n - 1], args, n);
}

enum eng_err te_begin(struct rs_call *c)
{
    struct encounter *e = c->e;
    for (int i = 0; i < e->ncs; i++)
        if (e->cs[i].side < 0)
            return enc_fail(c->d, ENG_STATE, "%s has no team: every "
                            "combatant needs side:", e->cs[i].name);
    /* /combat begin's options are all this system's (te_exts): bind them
     * to their declaration, which checks that the teams exist. */
    struct rs_arg args[RS_MAX_EXT_OPTS];
    int nargs = 0;
    enum eng_err err = rs_bind(c, "/combat begin",
                               rs_ext_opts(&rs_teams, "combat begin"),
                               c->opts, c->nopts, args, RS_MAX_EXT_OPTS,
                               &nargs, c->d);
    if (err != ENG_OK)
        return err;
    const struct rs_arg *first = rs_arg_in(args, nargs, "first");
    const struct rs_arg *surprise = rs_arg_in(args, nargs, "surprise");
    const struct rs_arg *ord = rs_arg_in(args, nargs, "order");
    int order[ENC_MAX_SIDES], n = 0;
    err = te_begin_order(c, first ? first->side : -1,
                         surprise ? surprise->side : -1,
                         ord ? ord->text : NULL, order, &n);
    if (err != ENG_OK)
        return err;

    /* Validated: start. */
    struct te_enc *st = TE_ENC(e);
    st->norder = n;
    for (int i = 0; i < n; i++)
        st->order[i] = order[i];
    e->status = ENC_ST_RUNNING;
    e->round = 0;
    e->current = 0;
    e->turn_idx = -1;
    e->norder = 0;
    enc_emit(c->r, ENC_EV_BEGIN, 0);
    te_say_order(c, order, n);
    te_new_round(c);
    if (surprise != NULL) {
        st->surprise = true;
        st->surpriser = surprise->side + 1;
        RS_SAY(c, NULL, "surprise round: only team {} acts (and anyone who "
               "cannot be surprised)", RS_A_SIDE(e, surprise->side));
    }
    if (enc_entry_edge(c, ENC_ENTRY_START)) {
        e->acting_side = -1;
        return ENG_OK;
    }
    int side = te_side_from(e, 0, 0, false);
    if (side < 0) {
        rs_say0(c, NULL, "nobody is able to act");
        e->acting_side = -1;
        return ENG_OK;
    }
    te_give(c, side);
    return ENG_OK;
}

enum eng_err te_next(struct rs_call *c)
{
    struct encounter *e = c->e;
    if (e->status != ENC_ST_RUNNING)
        return enc_fail(c->d, ENG_STATE, "the fight has not begun");
    int at = enc_entry_leave(c);
    if (at >= 0) {
        /* From the round's edge on: more events there, a new round after
         * the end's, a pick. */
        if (at == ENC_ENTRY_START && enc_entry_edge(c, ENC_ENTRY_START)) {
            e->acting_side = -1;
            return ENG_OK;
        }
        te_pass_on(c, -1);
        return ENG_OK;
    }
    if (enc_current(e) == NULL) {
        if (e->acting_side >= 0 &&
            te_side_eligible(e, e->acting_side, 0, false) > 0) {
            enc_fail(c->d, ENG_STATE, "nobody's turn is running: team %s "
                     "picks who acts", e->sides[e->acting_side].name);
            enc_hint(c->d, "/combat pick name:<member of %s>",
                     e->sides[e->acting_side].name);
            return ENG_STATE;
        }
        /* The choosing team lost its last member (removed, knocked out):
         * play moves on. */
        te_settle(c);
        if (e->acting_side < 0)
            return enc_fail(c->d, ENG_STATE, "nobody is able to act");
        return ENG_OK;
    }
    te_end_turn(c);
    return ENG_OK;
}

enum eng_err te_pick(struct rs_call *c, struct enc_combatant *who)
{
    struct encounter *e = c->e;
    if (e->status != ENC_ST_RUNNING)
        return enc_fail(c->d, ENG_STATE, "the fight has not begun");
    if (enc_entry_busy(c) != ENG_OK)
        return ENG_STATE;
    struct enc_combatant *cur = enc_current(e);
    if (cur != NULL) {
        enc_fail(c->d, ENG_STATE, "it is still %s's turn", cur->name);
        enc_hint(c->d, "/combat next");
        return ENG_STATE;
    }
    enum eng_err err = rs_require_actor(c, who);
    if (err != ENG_OK)
        return err;
    te_settle(c);
    if (enc_current(e) != NULL)
        return enc_fail(c->d, ENG_STATE, "it is %s's turn",
                        enc_current(e)->name);
    if (e->acting_side < 0)
        return enc_fail(c->d, ENG_STATE, "nobody is able to act");
    if (who->side != e->acting_side)
        return enc_fail(c->d, ENG_STATE, "team %s picks now, not team %s",
                        e->sides[e->acting_side].name,
                        who->side >= 0 ? e->sides[who->side].name : "none");
    if (who->flags & ENC_CF_DEAD)
        return enc_fail(c->d, ENG_STATE, "%s is dead", who->name);
    if (who->flags & ENC_CF_DOWN)
        return enc_fail(c->d, ENG_STATE, "%s is unconscious and cannot act",
                        who->name);
    if (who->flags & ENC_CF_ACTED)
        return enc_fail(c->d, ENG_STATE, "%s has already acted this round",
                        who->name);
    if (!te_eligible(e, who, false))
        return enc_fail(c->d, ENG_STATE, "%s is surprised and cannot act "
                        "in the surprise round", who->name);
    te_begin_turn(c, who);
    return ENG_OK;
}

enum eng_err te_late_join(struct rs_call *c, struct enc_combatant *who)
{
    if (who->side < 0)
        return enc_fail(c->d, ENG_STATE, "%s needs a team (side:)",
                        who->name);
    te_order_add(c->e, who->side);
    te_settle(c);
    return ENG_OK;
}

void te_after_track(struct rs_call *c, struct enc_combatant *who,
                    const char *track, int64_t before)
{
    (void)before;
    if (eng_text_casecmp(track, TE_HEALTH) != 0)
        return;
    const struct enc_track *t = enc_track_c(who, TE_HEALTH);
    if (t != NULL && t->cur <= 0)
        te_knock_out(c, who);
    /* Healing does not wake anyone: that takes Resuscitate or the GM. */
    te_settle(c);
}

/* ---- the tracker -------------------------------------------------------- */

/* The line under the name: actions, reactions and what the chapter names
 * (harmed, bloodied), kept short for a phone's width. */
void te_status(const struct encounter *e,
               const struct enc_combatant *who, struct eng_buf *out,
               enc_tr_fn tr, const void *tr_ctx)
{
    const struct te_comb *st = TE_C(who);
    if (who->flags & ENC_CF_DEAD) {
        eng_buf_add(out, enc_tr(tr, tr_ctx, N_("dead")));
        return;
    }
    /* A count is a format per English form (tr has no plural lookup):
     * Polish writes "akcje: 2" for the plural one. */
    if (who->id == e->current) {
        eng_buf_addf(out, st->actions == 1
                              ? enc_tr(tr, tr_ctx, N_("%d action"))
                              : enc_tr(tr, tr_ctx, N_("%d actions")),
                     (int)st->actions);
        eng_buf_add(out, " \xC2\xB7 ");
    } else if (who->flags & ENC_CF_ACTED) {
        eng_buf_add(out, enc_tr(tr, tr_ctx, N_("acted")));
        eng_buf_add(out, " \xC2\xB7 ");
    }
    eng_buf_addf(out, st->reactions == 1
                          ? enc_tr(tr, tr_ctx, N_("%d reaction"))
                          : enc_tr(tr, tr_ctx, N_("%d reactions")),
                 (int)st->reactions);
    const struct enc_track *en = enc_track_c(who, TE_ENDURANCE);
    const struct enc_track *hp = enc_track_c(who, TE_HEALTH);
    static const char *const sep = " \xC2\xB7 ";
    if (en != NULL && en->max > 0 && en->cur * 2 <= en->max) {
        eng_buf_add(out, sep);
        eng_buf_add(out, enc_tr(tr, tr_ctx, N_("harmed")));
    }
    if (hp != NULL && hp->cur < hp->max) {
        eng_buf_add(out, sep);
        eng_buf_add(out, enc_tr(tr, tr_ctx, N_("bloodied")));
    }
    if (who->flags & ENC_CF_DOWN) {
        eng_buf_add(out, sep);
        eng_buf_add(out, enc_tr(tr, tr_ctx, N_("unconscious")));
    }
    if (st->fortify > 0) {
        eng_buf_add(out, sep);
        /* TRANSLATORS: the Fortify roll's difficulty a down member faces */
        eng_buf_addf(out, enc_tr(tr, tr_ctx, N_("fortify %d or fall")),
                     (int)st->fortify);
    }
    if (st->busy > 0) {
        eng_buf_add(out, sep);
        eng_buf_addf(out, st->busy == 1
                              ? enc_tr(tr, tr_ctx, N_("busy, %d action to go"))
                              : enc_tr(tr, tr_ctx,
                                       N_("busy, %d actions to go")),
                     (int)st->busy);
    }
}

/* Which team picks next: now, when nobody's turn is running; else once the
 * running turn ends (perhaps in a new round). */
void te_head(const struct encounter *e, struct eng_buf *out, enc_tr_fn tr,
             const void *tr_ctx)
{
    if (e->status != ENC_ST_RUNNING)
        return;
    const struct enc_combatant *cur = enc_by_id_c(e, e->current);
    if (cur == NULL && e->entry_on != 0)
        return;                 /* the footer names the event, if seen */
    if (cur == NULL) {
        if (e->acting_side >= 0 && e->acting_side < e->nsides)
            eng_buf_addf(out, enc_tr(tr, tr_ctx,
                                     N_("Team %s picks who acts next.")),
                         e->sides[e->acting_side].name);
        else
            eng_buf_add(out, enc_tr(tr, tr_ctx,
                                    N_("Nobody is able to act.")));
        return;
    }
    int side = te_side_from(e, te_order_pos(e, cur->side) + 1, cur->id,
                            false);
    if (side >= 0) {
        eng_buf_addf(out, enc_tr(tr, tr_ctx, N_("Next: team %s picks.")),
                     e->sides[side].name);
        return;
    }
    side = te_side_from(e, 0, 0, true);
    if (side >= 0)
        /* TRANSLATORS: %1$d the next round, %2$s its first team */
        eng_buf_addf(out, enc_tr(tr, tr_ctx, N_("Next: round %d, team %s "
                                                "picks first.")),
                     (int)e->round + 1, e->sides[side].name);
}

/* The clock ran out: a running turn ends and the next team picks. A team
 * that is to pick may not pass (each gives every member a turn), so the
 * clock picks for it: its first member in the tracker who may act. */
enum eng_err te_timeout(struct rs_call *c)
{
    struct encounter *e = c->e;
    if (e->current != 0)
        return rs_clock_end_turn(c, "The turn clock ran out: {} ends the "
                                 "turn.");
    for (int i = 0; i < e->ncs && e->acting_side >= 0; i++) {
        struct enc_combatant *who = &e->cs[i];
        if (who->side != e->acting_side || !te_eligible(e, who, false))
            continue;
        RS_SAY(c, who, "The turn clock ran out: team {} did not pick, so "
               "{} acts, the first of the team who may.",
               RS_A_SIDE(e, e->acting_side), RS_A_WHO(who));
        return te_pick(c, who);
    }
    return te_next(c);          /* nobody left to pick: play moves on */
}

const struct rs_prompt te_prompts[] = {
    [TE_PROMPT_FORTIFY] = {{{N_("Fortify"), "test", NULL, NULL},
                            {N_("Fall unconscious"), "fall", NULL, NULL}}},
};
