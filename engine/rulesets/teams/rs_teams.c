/*
 * rs_teams.c - the `teams` ruleset: combatants, settings and the turn
 * structure (teams alternate picking one member each). Attacks and damage
 * are in rs_teams_combat.c, actions and reactions in rs_teams_act.c; see
 * rs_teams.h for the rules in brief.
 */
#include "rs_teams.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "eng_text.h"
#include "turn.h"

/* ---- small shared helpers ------------------------------------------------ */

int64_t te_setting_int(const struct encounter *e, const char *key,
                       int64_t dflt)
{
    const char *v = enc_setting(e, key);
    int64_t x;
    if (v == NULL || !eng_text_to_int(v, &x))
        return dflt;
    return x;
}

bool te_can_act(const struct enc_combatant *who)
{
    return turn_can_act(who);
}

void te_say(struct rs_call *c, const struct enc_combatant *who,
            const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rs_vsayf(c, who ? who->id : 0, who != NULL && who->hidden, fmt, ap);
    va_end(ap);
}

void te_knock_out(struct rs_call *c, struct enc_combatant *who)
{
    who->rs[TE_C_FORTIFY] = 0;
    if (who->flags & ENC_CF_DOWN)
        return;
    who->flags |= ENC_CF_DOWN;
    enc_emit(c->r, ENC_EV_DOWN, who->id)->secret = who->hidden;
    te_say(c, who, "%s is unconscious", who->name);
}

void te_wake(struct rs_call *c, struct enc_combatant *who)
{
    if (!(who->flags & ENC_CF_DOWN) || (who->flags & ENC_CF_DEAD))
        return;
    who->flags &= ~(uint32_t)ENC_CF_DOWN;
    enc_emit(c->r, ENC_EV_UP, who->id)->secret = who->hidden;
    te_say(c, who, "%s regains consciousness", who->name);
}

void te_kill(struct rs_call *c, struct enc_combatant *who)
{
    who->rs[TE_C_FORTIFY] = 0;
    if (!(who->flags & ENC_CF_DOWN)) {
        who->flags |= ENC_CF_DOWN;
        enc_emit(c->r, ENC_EV_DOWN, who->id)->secret = who->hidden;
    }
    who->flags |= ENC_CF_DEAD;
    te_say(c, who, "%s dies", who->name);
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
    ev->text = enc_result_strdup(c->r, track, 4096);
    ev->a = before;
    ev->b = t->cur;
    ev->secret = who->hidden;
    return ENG_OK;
}

/* ---- combatants ---------------------------------------------------------- */

/* Stats that become tracks (current = maximum) at setup. */
static const char *const te_track_stats[] = {
    TE_HEALTH, TE_ENDURANCE, TE_STAMINA, TE_FOCUS,
};

/* Stats that name a die size: 0 (none) or 2..TE_MAX_DIE. */
static const char *const te_die_stats[] = {
    "str", "dex", "int", "wil", "per", "cha", "combat", "athletics",
};

static bool te_in(const char *name, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (eng_text_casecmp(name, list[i]) == 0)
            return true;
    return false;
}

#define TE_COUNT(a) (sizeof(a) / sizeof((a)[0]))

static enum eng_err te_check_stat(struct rs_call *c, struct enc_combatant *who,
                                  const char *name, int64_t value)
{
    (void)who;
    if (te_in(name, te_die_stats, TE_COUNT(te_die_stats)) &&
        (value < 0 || value == 1 || value > TE_MAX_DIE))
        return enc_fail(c->d, ENG_RANGE, "%s is a die size: 0 (none) or 2 "
                        "to %d, like %s=6 for a d6", name, TE_MAX_DIE, name);
    if (te_in(name, te_track_stats, TE_COUNT(te_track_stats)) &&
        value < 0)
        return enc_fail(c->d, ENG_RANGE, "%s cannot be negative", name);
    if ((eng_text_casecmp(name, "size") == 0 ||
         eng_text_casecmp(name, "con") == 0 ||
         eng_text_casecmp(name, "pdr") == 0 ||
         eng_text_casecmp(name, "edr") == 0) && (value < 0 || value > 100))
        return enc_fail(c->d, ENG_RANGE, "%s must be 0 to 100", name);
    if (eng_text_casecmp(name, "death_dc") == 0 &&
        (value < 1 || value > 1000))
        return enc_fail(c->d, ENG_RANGE, "death_dc must be 1 to 1000");
    return ENG_OK;
}

static enum eng_err te_setup(struct rs_call *c, struct enc_combatant *who)
{
    for (int i = 0; i < who->nstats; i++) {
        enum eng_err err = te_check_stat(c, who, who->stats[i].name,
                                         who->stats[i].value);
        if (err != ENG_OK)
            return err;
    }
    /* Tracked values leave the stats and live as tracks only. */
    for (int i = 0; i < who->nstats;) {
        const char *n = who->stats[i].name;
        if (!te_in(n, te_track_stats, TE_COUNT(te_track_stats))) {
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
    who->rs[TE_C_ACTIONS] = te_setting_int(c->e, "actions", TE_ACTIONS);
    who->rs[TE_C_REACTIONS] = te_setting_int(c->e, "reactions",
                                             TE_REACTIONS);
    return ENG_OK;
}

/* ---- settings ------------------------------------------------------------ */

struct te_setting_row {
    const char *key;
    int64_t lo, hi;
};

static const struct te_setting_row te_settings[] = {
    {"actions", 1, TE_MAX_ACTIONS},
    {"reactions", 0, TE_MAX_REACTIONS},
    {"map", 0, 20},
    {"death_dc", 1, 1000},
    {"death_step", 0, 100},
};

static enum eng_err te_setting(struct rs_call *c, const char *key,
                               const char *value)
{
    for (size_t i = 0; i < TE_COUNT(te_settings); i++) {
        const struct te_setting_row *s = &te_settings[i];
        if (eng_text_casecmp(key, s->key) != 0)
            continue;
        int64_t x;
        if (!eng_text_to_int(value, &x) || x < s->lo || x > s->hi)
            return enc_fail(c->d, ENG_RANGE, "%s must be a whole number "
                            "from %lld to %lld", s->key, (long long)s->lo,
                            (long long)s->hi);
        return enc_setting_set(c->e, s->key, value, c->d);
    }
    if (eng_text_casecmp(key, "advantage") == 0) {
        if (eng_text_casecmp(value, "reroll") != 0 &&
            eng_text_casecmp(value, "off") != 0)
            return enc_fail(c->d, ENG_INVALID, "advantage must be reroll "
                            "(roll the test again, keep the better) or off");
        return enc_setting_set(c->e, "advantage", value, c->d);
    }
    enc_fail(c->d, ENG_NOTFOUND, "unknown teams setting %.32s", key);
    enc_hint(c->d, "settings: actions, reactions, map, death_dc, "
             "death_step, advantage");
    return ENG_NOTFOUND;
}

/* ---- turn structure ------------------------------------------------------ */

static int te_norder(const struct encounter *e)
{
    return (int)e->rs[TE_E_NORDER];
}

static int te_order_at(const struct encounter *e, int i)
{
    return (int)e->rs[TE_E_ORDER + i];
}

static int te_order_pos(const struct encounter *e, int side)
{
    for (int i = 0; i < te_norder(e); i++)
        if (te_order_at(e, i) == side)
            return i;
    return -1;
}

/* Put side last in the order when it has no place yet. */
static void te_order_add(struct encounter *e, int side)
{
    if (side < 0 || te_order_pos(e, side) >= 0 ||
        te_norder(e) >= ENC_MAX_SIDES)
        return;
    e->rs[TE_E_ORDER + te_norder(e)] = side;
    e->rs[TE_E_NORDER]++;
}

/* Whether who may be picked now: on a team, able, not yet acted, and in a
 * surprise round either on the surprising team or impossible to
 * surprise. */
static bool te_eligible(const struct encounter *e,
                        const struct enc_combatant *who)
{
    if (!te_can_act(who) || (who->flags & ENC_CF_ACTED) || who->side < 0)
        return false;
    if (e->rs[TE_E_SURPRISE] == 0)
        return true;
    return who->side == e->rs[TE_E_SURPRISER] - 1 ||
           enc_stat_or(who, "nosurprise", 0) != 0;
}

static int te_side_eligible(const struct encounter *e, int side)
{
    int n = 0;
    for (int i = 0; i < e->ncs; i++)
        if (e->cs[i].side == side && te_eligible(e, &e->cs[i]))
            n++;
    return n;
}

/* The first team from order position `from` on (wrapping, at most one
 * lap) with someone to pick; -1 if none. */
static int te_side_from(const struct encounter *e, int from)
{
    int n = te_norder(e);
    for (int k = 0; k < n; k++) {
        int side = te_order_at(e, (from + k) % n);
        if (te_side_eligible(e, side) > 0)
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
        if (e->cs[i].side == side && te_eligible(e, &e->cs[i])) {
            only = &e->cs[i];
            n++;
        }
    if (n == 1) {
        te_begin_turn(c, only);
        return;
    }
    te_say(c, NULL, "team %s picks who acts next", e->sides[side].name);
}

/* A new round: everyone may act again; the penalty starts over. Members
 * who could not act last round still pass the time. */
static void te_new_round(struct rs_call *c)
{
    struct encounter *e = c->e;
    for (int i = 0; i < e->ncs && e->round > 0; i++) {
        struct enc_combatant *who = &e->cs[i];
        if (!(who->flags & ENC_CF_ACTED) && (who->flags & ENC_CF_DOWN) &&
            !(who->flags & ENC_CF_DEAD))
            turn_skip(c, who);
    }
    bool was_surprise = e->rs[TE_E_SURPRISE] != 0;
    e->rs[TE_E_SURPRISE] = 0;
    e->round++;
    struct enc_event *ev = enc_emit(c->r, ENC_EV_ROUND, 0);
    ev->a = e->round;
    if (was_surprise)
        te_say(c, NULL, "the surprise round is over");
    for (int i = 0; i < e->ncs; i++) {
        e->cs[i].flags &= ~(uint32_t)ENC_CF_ACTED;
        e->cs[i].rs[TE_C_ATTACKS] = 0;
    }
}

/* Play passes on from the team at order position `after` (-1: from the
 * top): the next team with someone to pick, that same team last, and a new
 * round when nobody is left. */
static void te_pass_on(struct rs_call *c, int after)
{
    struct encounter *e = c->e;
    int side = te_side_from(e, after + 1);
    if (side < 0) {
        te_new_round(c);
        side = te_side_from(e, 0);
    }
    if (side < 0) {
        e->acting_side = -1;
        te_say(c, NULL, "nobody is able to act");
        return;
    }
    te_give(c, side);
}

static void te_begin_turn(struct rs_call *c, struct enc_combatant *who)
{
    struct encounter *e = c->e;
    e->acting_side = who->side;
    who->rs[TE_C_ACTIONS] = te_setting_int(e, "actions", TE_ACTIONS);
    who->rs[TE_C_REACTIONS] = te_setting_int(e, "reactions", TE_REACTIONS);
    who->rs[TE_C_MOVED] = 0;
    who->rs[TE_C_STEPPED] = 0;
    for (int k = 0; k < TE_MAX_COMMANDS; k++)
        who->rs[TE_C_CMD + k] = 0;
    who->rs[TE_C_TURNS]++;
    turn_start(c, who);
    if (who->rs[TE_C_EXT] > 0)
        te_say(c, who, "%s is still busy (%lld action(s) to go): continue "
               "or abandon it first", who->name,
               (long long)who->rs[TE_C_EXT]);
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
    if (e->status != ENC_ST_RUNNING || e->current != 0)
        return;
    if (e->acting_side >= 0 && te_side_eligible(e, e->acting_side) > 0)
        return;
    int pos = e->acting_side >= 0 ? te_order_pos(e, e->acting_side) : -1;
    if (e->acting_side < 0) {
        /* Nobody could act: someone woke up, start from the top. */
        int side = te_side_from(e, 0);
        if (side >= 0)
            te_give(c, side);
        return;
    }
    te_pass_on(c, pos);
}

/* Parse a comma-separated list of team names into sides[]. */
static enum eng_err te_parse_order(struct rs_call *c, const char *text,
                                   int *sides, int *n)
{
    *n = 0;
    const char *p = text;
    while (*p != '\0') {
        while (*p == ' ' || *p == ',')
            p++;
        if (*p == '\0')
            break;
        const char *start = p;
        while (*p != '\0' && *p != ',')
            p++;
        const char *end = p;
        while (end > start && end[-1] == ' ')
            end--;
        char name[ENC_MAX_SIDE_NAME + 1];
        size_t len = (size_t)(end - start);
        if (len > ENC_MAX_SIDE_NAME)
            return enc_fail(c->d, ENG_LIMIT, "order: a team name is too "
                            "long (limit is %d bytes)", ENC_MAX_SIDE_NAME);
        memcpy(name, start, len);
        name[len] = '\0';
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
    return ENG_OK;
}

/* A team named by option opt, or -1 when absent. */
static enum eng_err te_opt_side(struct rs_call *c, const char *opt, int *out)
{
    const char *v = rs_opt(c->opts, c->nopts, opt);
    *out = -1;
    if (v == NULL || v[0] == '\0')
        return ENG_OK;
    int side = enc_side_find(c->e, v);
    if (side < 0)
        return enc_fail(c->d, ENG_NOTFOUND, "%s: no team named %.32s", opt,
                        v);
    *out = side;
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

static enum eng_err te_begin(struct rs_call *c)
{
    struct encounter *e = c->e;
    int used[ENC_MAX_SIDES];
    int nused = te_used_sides(e, used);
    if (nused == 0)
        return enc_fail(c->d, ENG_STATE, "there is nobody to fight yet");
    for (int i = 0; i < e->ncs; i++)
        if (e->cs[i].side < 0)
            return enc_fail(c->d, ENG_STATE, "%s has no team: every "
                            "combatant needs side:", e->cs[i].name);
    int first, surprise;
    enum eng_err err = te_opt_side(c, "first", &first);
    if (err == ENG_OK)
        err = te_opt_side(c, "surprise", &surprise);
    if (err != ENG_OK)
        return err;
    int listed[ENC_MAX_SIDES], nlisted = 0;
    const char *ord = rs_opt(c->opts, c->nopts, "order");
    if (ord != NULL) {
        err = te_parse_order(c, ord, listed, &nlisted);
        if (err != ENG_OK)
            return err;
    }
    /* The team that started the fight goes first: first:, else the one
     * with surprise, else the head of order:. */
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

    int order[ENC_MAX_SIDES], n = 0;
    order[n++] = first;
    for (int i = 0; i < nlisted; i++)
        if (listed[i] != first)
            order[n++] = listed[i];
    int missing = 0, last_missing = -1;
    for (int i = 0; i < nused; i++) {
        bool in = false;
        for (int k = 0; k < n; k++)
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
        order[n++] = last_missing;

    /* Validated: start. */
    e->rs[TE_E_NORDER] = n;
    for (int i = 0; i < n; i++)
        e->rs[TE_E_ORDER + i] = order[i];
    e->status = ENC_ST_RUNNING;
    e->round = 0;
    e->current = 0;
    e->turn_idx = -1;
    e->norder = 0;
    enc_emit(c->r, ENC_EV_BEGIN, 0);
    char line[96];
    size_t at = 0;
    line[0] = '\0';
    for (int i = 0; i < n && at < sizeof line; i++)
        at += (size_t)snprintf(line + at, sizeof line - at, "%s%s",
                               i ? ", " : "", e->sides[order[i]].name);
    te_say(c, NULL, "team order: %s", line);
    te_new_round(c);
    if (surprise >= 0) {
        e->rs[TE_E_SURPRISE] = 1;
        e->rs[TE_E_SURPRISER] = surprise + 1;
        te_say(c, NULL, "surprise round: only team %s acts (and anyone "
               "who cannot be surprised)", e->sides[surprise].name);
    }
    int side = te_side_from(e, 0);
    if (side < 0) {
        te_say(c, NULL, "nobody is able to act");
        e->acting_side = -1;
        return ENG_OK;
    }
    te_give(c, side);
    return ENG_OK;
}

static enum eng_err te_next(struct rs_call *c)
{
    struct encounter *e = c->e;
    if (e->status != ENC_ST_RUNNING)
        return enc_fail(c->d, ENG_STATE, "the fight has not begun");
    if (enc_current(e) == NULL) {
        if (e->acting_side >= 0 && te_side_eligible(e, e->acting_side) > 0) {
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

static enum eng_err te_pick(struct rs_call *c, struct enc_combatant *who)
{
    struct encounter *e = c->e;
    if (e->status != ENC_ST_RUNNING)
        return enc_fail(c->d, ENG_STATE, "the fight has not begun");
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
        return enc_fail(c->d, ENG_STATE, "it is team %s's turn to pick, "
                        "not %s's", e->sides[e->acting_side].name,
                        who->side >= 0 ? e->sides[who->side].name : "none");
    if (who->flags & ENC_CF_DEAD)
        return enc_fail(c->d, ENG_STATE, "%s is dead", who->name);
    if (who->flags & ENC_CF_DOWN)
        return enc_fail(c->d, ENG_STATE, "%s is unconscious and cannot act",
                        who->name);
    if (who->flags & ENC_CF_ACTED)
        return enc_fail(c->d, ENG_STATE, "%s has already acted this round",
                        who->name);
    if (!te_eligible(e, who))
        return enc_fail(c->d, ENG_STATE, "%s is surprised and cannot act "
                        "in the surprise round", who->name);
    te_begin_turn(c, who);
    return ENG_OK;
}

static enum eng_err te_late_join(struct rs_call *c, struct enc_combatant *who)
{
    if (who->side < 0)
        return enc_fail(c->d, ENG_STATE, "%s needs a team (side:)",
                        who->name);
    te_order_add(c->e, who->side);
    te_settle(c);
    return ENG_OK;
}

static void te_after_track(struct rs_call *c, struct enc_combatant *who,
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

static void te_status_text(const struct encounter *e,
                      const struct enc_combatant *who, char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = '\0';
#define TE_PUT(...)                                                        \
    do {                                                                   \
        if (at < n)                                                        \
            at += (size_t)snprintf(buf + at, n - at, __VA_ARGS__);         \
    } while (0)
    if (who->flags & ENC_CF_DEAD) {
        TE_PUT("dead");
        return;
    }
    if (who->id == e->current)
        TE_PUT("%lld action(s) · ", (long long)who->rs[TE_C_ACTIONS]);
    else if (who->flags & ENC_CF_ACTED)
        TE_PUT("acted · ");
    TE_PUT("%lld reaction(s)", (long long)who->rs[TE_C_REACTIONS]);
    const struct enc_track *en = enc_track_c(who, TE_ENDURANCE);
    const struct enc_track *hp = enc_track_c(who, TE_HEALTH);
    if (en != NULL && en->max > 0 && en->cur * 2 <= en->max)
        TE_PUT(" · harmed");
    if (hp != NULL && hp->cur < hp->max)
        TE_PUT(" · bloodied");
    if (who->flags & ENC_CF_DOWN)
        TE_PUT(" · unconscious");
    if (who->rs[TE_C_FORTIFY] > 0)
        TE_PUT(" · fortify %lld or fall", (long long)who->rs[TE_C_FORTIFY]);
    if (who->rs[TE_C_EXT] > 0)
        TE_PUT(" · busy %lld", (long long)who->rs[TE_C_EXT]);
#undef TE_PUT
}

/* The tracker's extra line for who (the text form is kept short for a
 * phone's width). */
static void te_status(const struct encounter *e,
                       const struct enc_combatant *who, struct eng_buf *out)
{
    char buf[256];
    te_status_text(e, who, buf, sizeof buf);
    eng_buf_add(out, buf);
}

const struct rs_ops te_ops = {
    .version = RS_OPS_VERSION,
    .setup = te_setup,              /* hp/endurance/stamina/focus tracks */
    .check_stat = te_check_stat,    /* die sizes, size, con, reductions */
    .setting = te_setting,          /* actions, reactions, map, death... */
    .begin = te_begin,              /* first:, order:, surprise: */
    .next = te_next,                /* end the turn; the next team picks */
    .pick = te_pick,                /* the acting team chooses a member */
    .pass = NULL,                   /* teams do not pass */
    .attack = te_attack,            /* test vs evasion + luck die */
    .late_join = te_late_join,      /* may act this round; team goes last */
    .after_track = te_after_track,  /* health 0 is unconscious */
    .status = te_status,            /* actions, reactions, harmed... */
};

const struct rs_prompt te_prompts[] = {
    [TE_PROMPT_FORTIFY] = {{{"Fortify", "test", NULL, NULL},
                            {"Fall unconscious", "fall", NULL, NULL}}},
};

