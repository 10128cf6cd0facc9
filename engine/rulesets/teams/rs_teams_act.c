/*
 * rs_teams_act.c - the `teams` ruleset's own commands: actions in a turn,
 * reactions, tests, falling unconscious, waking and direct damage (see
 * rs_teams.h and docs/rulesets/teams.md).
 */
#include "rs_teams.h"

#include <stdio.h>
#include <string.h>

#include "eng_text.h"
#include "rs_kit.h"

/* What an action does besides costing actions. */
enum te_act_kind {
    TE_A_PLAIN = 0,          /* just spends its cost */
    TE_A_COMMAND,            /* 2 focus, an ally, once per target */
    TE_A_GUARD,              /* ends the turn, +1 to defences */
    TE_A_MOVE,               /* once per turn */
    TE_A_READY,              /* ends the turn with a readied reaction */
    TE_A_RESUSCITATE,        /* prone, then a test to wake someone */
    TE_A_COVER,              /* ranged attackers at disadvantage */
    TE_A_SPRINT,             /* after moving: 1 stamina, another move */
    TE_A_STAND,              /* no longer prone */
    TE_A_WAIT,               /* ends the turn, an extra reaction */
    TE_A_PRONE,              /* free: drop prone */
    TE_A_STEP,               /* free, once per turn */
    TE_A_KILL,               /* killing strike on the unconscious */
    TE_A_OTHER,              /* cost: and label: given */
    TE_A_CONTINUE,           /* go on with an extended action */
    TE_A_ABANDON,            /* drop an extended action, no cost */
};

static const struct te_act {
    const char *name;
    int cost;
    enum te_act_kind kind;
} te_acts[] = {
    {"brandish", 1, TE_A_PLAIN},
    {"command", 1, TE_A_COMMAND},
    {"interact", 1, TE_A_PLAIN},
    {"guard", 1, TE_A_GUARD},
    {"move", 1, TE_A_MOVE},
    {"ready", 1, TE_A_READY},
    {"resuscitate", 2, TE_A_RESUSCITATE},
    {"seek_cover", 1, TE_A_COVER},
    {"short_task", 3, TE_A_PLAIN},
    {"sprint", 1, TE_A_SPRINT},
    {"stand_up", 1, TE_A_STAND},
    {"wait", 1, TE_A_WAIT},
    {"drop_item", 0, TE_A_PLAIN},
    {"drop_prone", 0, TE_A_PRONE},
    {"step", 0, TE_A_STEP},
    {"killing_strike", 3, TE_A_KILL},
    {"other", 1, TE_A_OTHER},
    {"continue", 0, TE_A_CONTINUE},
    {"abandon", 0, TE_A_ABANDON},
};

#define TE_NACTS (sizeof te_acts / sizeof te_acts[0])

static const struct te_act *te_act_find(const char *name)
{
    for (size_t i = 0; i < TE_NACTS; i++)
        if (enc_name_eq(te_acts[i].name, name))
            return &te_acts[i];
    return NULL;
}

/* A condition on who that lasts until the start of its next turn. */
static enum eng_err te_until_next_turn(struct rs_call *c,
                                       struct enc_combatant *who,
                                       const char *name)
{
    struct enc_cond_req q = {
        .name = name, .rounds = 1, .anchor = who->id,
        .expire = ENC_EXPIRE_START, .source = who->id,
    };
    return enc_cond_add(c->e, who, &q, c->r, c->d);
}

static enum eng_err te_flag_cond(struct rs_call *c, struct enc_combatant *who,
                                 const char *name)
{
    if (enc_cond_find(who, name) != NULL)
        return ENG_OK;
    struct enc_cond_req q = {.name = name, .source = who->id};
    return enc_cond_add(c->e, who, &q, c->r, c->d);
}

/* The extended action under way: its condition. */
static struct enc_cond *te_busy(struct enc_combatant *who)
{
    size_t n = strlen(TE_COND_BUSY);
    for (int i = 0; i < who->nconds; i++)
        if (strncmp(who->conds[i].name, TE_COND_BUSY, n) == 0)
            return &who->conds[i];
    return NULL;
}

static void te_busy_clear(struct rs_call *c, struct enc_combatant *who)
{
    struct enc_cond *b = te_busy(who);
    who->rs[TE_C_EXT] = 0;
    if (b != NULL) {
        char name[ENC_MAX_COND_NAME + 1];
        enc_copy(name, sizeof name, b->name);
        enc_cond_remove(c->e, who, name, c->r, c->d);
    }
}

/* Roll roll: against difficulty: when both are given; *done false when the
 * GM left it open. */
static enum eng_err te_opt_test(struct rs_call *c, const char *label,
                                const char *dflt_expr, int64_t bonus,
                                int64_t dflt_dc, bool *done, bool *passed,
                                int64_t *total)
{
    *done = false;
    const char *expr = rs_opt(c->opts, c->nopts, "roll");
    if (expr == NULL || expr[0] == '\0')
        expr = dflt_expr;
    int64_t dc;
    enum eng_err err = rs_opt_int(c, "difficulty", -ENC_MAX_VALUE,
                                  ENC_MAX_VALUE, dflt_dc, &dc);
    if (err != ENG_OK)
        return err;
    if (expr == NULL || expr[0] == '\0' || dc == INT64_MIN)
        return ENG_OK;
    if (strlen(expr) > DICE_MAX_EXPR_LEN)
        return enc_fail(c->d, ENG_LIMIT, "roll: is too long (limit is %d "
                        "bytes)", DICE_MAX_EXPR_LEN);
    struct rs_rolled r;
    err = rs_roll(c, NULL, label, expr, &r);
    if (err != ENG_OK)
        return err;
    *done = true;
    *total = r.total + bonus;
    *passed = *total >= dc;
    struct enc_event *ev = enc_emit(c->r, ENC_EV_ROLL, 0);
    enc_event_text(c->r, ev, "%s: %lld against %lld, %s", label,
             (long long)*total, (long long)dc,
             *passed ? "success" : "failure");
    ev->a = *total;
    ev->b = dc;
    ev->c = *passed;
    enc_event_roll(c->r, ev, r.roll_idx);
    return ENG_OK;
}

/* ---- /act --------------------------------------------------------- */

enum eng_err te_act(struct rs_call *c)
{
    struct encounter *e = c->e;
    const char *name = rs_opt(c->opts, c->nopts, "action");
    if (name == NULL || name[0] == '\0') {
        enc_fail(c->d, ENG_INVALID, "action: is required");
        enc_hint(c->d, "/act action:move");
        return ENG_INVALID;
    }
    const struct te_act *act = te_act_find(name);
    if (act == NULL) {
        enc_fail(c->d, ENG_NOTFOUND, "unknown action %.24s", name);
        enc_hint(c->d, "brandish command interact guard move ready "
                 "resuscitate seek_cover short_task sprint stand_up wait "
                 "drop_item drop_prone step killing_strike other");
        return ENG_NOTFOUND;
    }
    struct enc_combatant *who = enc_current(e);
    if (e->status != ENC_ST_RUNNING || who == NULL)
        return enc_fail(c->d, ENG_STATE, "nobody's turn is running");
    enum eng_err err = rs_require_actor(c, who);
    if (err != ENG_OK)
        return err;

    if (act->kind == TE_A_ABANDON) {
        if (who->rs[TE_C_EXT] <= 0)
            return enc_fail(c->d, ENG_STATE, "%s has no action under way",
                            who->name);
        te_busy_clear(c, who);
        te_say(c, who, "%s abandons the action under way", who->name);
        return ENG_OK;
    }
    if (act->kind == TE_A_CONTINUE) {
        if (who->rs[TE_C_EXT] <= 0)
            return enc_fail(c->d, ENG_STATE, "%s has no action under way",
                            who->name);
        if (who->rs[TE_C_ACTIONS] <= 0)
            return enc_fail(c->d, ENG_STATE, "%s has no actions left",
                            who->name);
        struct enc_cond *b = te_busy(who);
        char label[ENC_MAX_COND_NAME + 1];
        enc_copy(label, sizeof label, b ? b->name + strlen(TE_COND_BUSY) :
                 "it");
        int64_t use = who->rs[TE_C_EXT] < who->rs[TE_C_ACTIONS] ?
                      who->rs[TE_C_EXT] : who->rs[TE_C_ACTIONS];
        who->rs[TE_C_ACTIONS] -= use;
        who->rs[TE_C_EXT] -= use;
        if (who->rs[TE_C_EXT] == 0) {
            te_busy_clear(c, who);
            te_say(c, who, "%s finishes %s", who->name, label);
        } else {
            if (b != NULL)
                b->value = (int32_t)who->rs[TE_C_EXT];
            te_say(c, who, "%s keeps at %s (%lld action(s) to go)",
                   who->name, label, (long long)who->rs[TE_C_EXT]);
        }
        return ENG_OK;
    }
    if (who->rs[TE_C_EXT] > 0) {
        enc_fail(c->d, ENG_STATE, "%s must continue or abandon the action "
                 "under way first", who->name);
        enc_hint(c->d, "/act action:continue");
        return ENG_STATE;
    }

    int64_t cost = act->cost;
    char label[ENC_MAX_COND_NAME + 1];
    enc_copy(label, sizeof label, act->name);
    if (act->kind == TE_A_OTHER) {
        err = rs_opt_int(c, "cost", 0, TE_MAX_ACTION_COST, 1, &cost);
        if (err != ENG_OK)
            return err;
        const char *l = rs_opt(c->opts, c->nopts, "label");
        if (l != NULL && l[0] != '\0') {
            err = enc_check_name(l, "label", ENC_MAX_COND_NAME -
                                 strlen(TE_COND_BUSY), c->d);
            if (err != ENG_OK)
                return err;
            enc_copy(label, sizeof label, l);
        }
    }
    if (cost > 0 && who->rs[TE_C_ACTIONS] <= 0)
        return enc_fail(c->d, ENG_STATE, "%s has no actions left",
                        who->name);

    /* What each action needs, checked before anything changes. */
    struct enc_combatant *target = NULL;
    const char *tname = rs_opt(c->opts, c->nopts, "target");
    if (tname != NULL && tname[0] != '\0') {
        err = rs_opt_combatant(c, "target", &target);
        if (err != ENG_OK)
            return err;
    }
    switch (act->kind) {
    case TE_A_COMMAND: {
        if (target == NULL || target == who || target->side != who->side)
            return enc_fail(c->d, ENG_INVALID, "command: target: must be an "
                            "ally");
        for (int k = 0; k < TE_MAX_COMMANDS; k++)
            if (who->rs[TE_C_CMD + k] == target->id)
                return enc_fail(c->d, ENG_STATE, "%s has already commanded "
                                "%s this turn", who->name, target->name);
        err = te_check_track(c, who, TE_FOCUS, 2, "command");
        if (err != ENG_OK)
            return err;
        break;
    }
    case TE_A_MOVE:
        if (who->rs[TE_C_MOVED])
            return enc_fail(c->d, ENG_STATE, "%s has already moved this "
                            "turn: sprint to move again", who->name);
        break;
    case TE_A_SPRINT: {
        if (!who->rs[TE_C_MOVED])
            return enc_fail(c->d, ENG_STATE, "%s must move before sprinting",
                            who->name);
        err = te_check_track(c, who, TE_STAMINA, 1, "sprint");
        if (err != ENG_OK)
            return err;
        break;
    }
    case TE_A_STEP:
        if (who->rs[TE_C_STEPPED])
            return enc_fail(c->d, ENG_STATE, "%s has already stepped this "
                            "turn", who->name);
        break;
    case TE_A_STAND:
        if (enc_cond_find(who, TE_COND_PRONE) == NULL)
            return enc_fail(c->d, ENG_STATE, "%s is not prone", who->name);
        break;
    case TE_A_RESUSCITATE:
    case TE_A_KILL:
        if (target == NULL || !(target->flags & ENC_CF_DOWN) ||
            (target->flags & ENC_CF_DEAD))
            return enc_fail(c->d, ENG_INVALID, "%s: target: must be an "
                            "unconscious character", act->name);
        if (act->kind == TE_A_KILL && who->rs[TE_C_ACTIONS] < cost)
            return enc_fail(c->d, ENG_STATE, "a killing strike takes %lld "
                            "actions; %s has %lld", (long long)cost,
                            who->name, (long long)who->rs[TE_C_ACTIONS]);
        break;
    case TE_A_PLAIN:
    case TE_A_GUARD:
    case TE_A_READY:
    case TE_A_COVER:
    case TE_A_WAIT:
    case TE_A_PRONE:
    case TE_A_OTHER:
    case TE_A_CONTINUE:
    case TE_A_ABANDON:
        break;
    }

    /* Longer than what is left: start it; it finishes in a later turn. */
    if (cost > who->rs[TE_C_ACTIONS]) {
        int64_t left = cost - who->rs[TE_C_ACTIONS];
        char cond[ENC_MAX_COND_NAME + 16];
        snprintf(cond, sizeof cond, "%s%s", TE_COND_BUSY, label);
        struct enc_cond_req q = {.name = cond, .value = (int32_t)left,
                                 .source = who->id};
        err = enc_cond_add(e, who, &q, c->r, c->d);
        if (err != ENG_OK)
            return err;
        who->rs[TE_C_ACTIONS] = 0;
        who->rs[TE_C_EXT] = left;
        if (act->kind == TE_A_RESUSCITATE) {
            err = te_flag_cond(c, who, TE_COND_PRONE);
            if (err != ENG_OK)
                return err;
        }
        te_say(c, who, "%s starts %s (%lld more action(s) next turn)",
               who->name, label, (long long)left);
        return ENG_OK;
    }
    who->rs[TE_C_ACTIONS] -= cost;

    switch (act->kind) {
    case TE_A_COMMAND:
        err = te_spend_track(c, who, TE_FOCUS, 2, "command");
        if (err != ENG_OK)
            return err;
        for (int k = 0; k < TE_MAX_COMMANDS; k++)
            if (who->rs[TE_C_CMD + k] == 0) {
                who->rs[TE_C_CMD + k] = target->id;
                break;
            }
        te_say(c, who, "%s commands %s, who takes one action now",
               who->name, target->name);
        return ENG_OK;
    case TE_A_MOVE:
        who->rs[TE_C_MOVED] = 1;
        break;
    case TE_A_SPRINT:
        err = te_spend_track(c, who, TE_STAMINA, 1, "sprint");
        if (err != ENG_OK)
            return err;
        break;
    case TE_A_STEP:
        who->rs[TE_C_STEPPED] = 1;
        break;
    case TE_A_STAND:
        err = enc_cond_remove(e, who, TE_COND_PRONE, c->r, c->d);
        if (err != ENG_OK)
            return err;
        break;
    case TE_A_PRONE:
        err = te_flag_cond(c, who, TE_COND_PRONE);
        if (err != ENG_OK)
            return err;
        break;
    case TE_A_COVER:
        err = te_until_next_turn(c, who, TE_COND_COVER);
        if (err != ENG_OK)
            return err;
        break;
    case TE_A_GUARD:
    case TE_A_READY:
    case TE_A_WAIT:
        err = te_until_next_turn(c, who, act->kind == TE_A_GUARD ?
                                 TE_COND_GUARD : act->kind == TE_A_READY ?
                                 TE_COND_READY : TE_COND_WAIT);
        if (err != ENG_OK)
            return err;
        if (act->kind == TE_A_WAIT)
            who->rs[TE_C_REACTIONS]++;
        te_say(c, who, "%s: %s, and the turn ends", who->name, act->name);
        te_end_turn(c);
        return ENG_OK;
    case TE_A_RESUSCITATE: {
        err = te_flag_cond(c, who, TE_COND_PRONE);
        if (err != ENG_OK)
            return err;
        bool done, passed;
        int64_t total;
        err = te_opt_test(c, "resuscitate", NULL, 0, INT64_MIN, &done,
                          &passed, &total);
        if (err != ENG_OK)
            return err;
        if (!done)
            te_say(c, who, "%s tries to revive %s: the GM sets the test "
                   "(roll: and difficulty:), or /wake", who->name,
                   target->name);
        else if (passed)
            te_wake(c, target);
        else
            te_say(c, who, "%s fails to revive %s", who->name,
                   target->name);
        te_settle(c);
        return ENG_OK;
    }
    case TE_A_KILL: {
        /* A test with advantage: combat skill against constitution. */
        char expr[DICE_MAX_EXPR_LEN + 1];
        const char *given = rs_opt(c->opts, c->nopts, "roll");
        if (given != NULL && given[0] != '\0')
            enc_copy(expr, sizeof expr, given);
        else {
            int64_t sk = enc_stat_or(who, "combat", 0);
            if (sk <= 0)
                return enc_fail(c->d, ENG_STATE, "%s has no combat die; "
                                "give roll:", who->name);
            snprintf(expr, sizeof expr, "1d%lld", (long long)sk);
        }
        int64_t best = INT64_MIN;
        for (int i = 0; i < 2; i++) {
            struct rs_rolled r;
            err = rs_roll(c, NULL, "killing strike", expr, &r);
            if (err != ENG_OK)
                return err;
            if (r.total > best)
                best = r.total;
        }
        int64_t con = enc_stat_or(target, "con", 0);
        if (best >= con) {
            te_say(c, who, "killing strike: %lld against %lld", (long long)
                   best, (long long)con);
            te_kill(c, target);
        } else {
            te_say(c, who, "killing strike fails (%lld against %lld): make "
                   "a sneak attack instead", (long long)best,
                   (long long)con);
        }
        return ENG_OK;
    }
    case TE_A_PLAIN:
    case TE_A_OTHER:
    case TE_A_CONTINUE:
    case TE_A_ABANDON:
        break;
    }
    te_say(c, who, "%s: %s (%lld action(s) left)", who->name, label,
           (long long)who->rs[TE_C_ACTIONS]);
    return ENG_OK;
}

/* ---- reactions and tests ------------------------------------------------- */

/* The resource a reaction spends. */
static const struct {
    const char *name;
    const char *track;
} te_reacts[] = {
    {"block", TE_STAMINA},   {"dodge", TE_STAMINA},
    {"fortify", TE_STAMINA}, {"intercept", TE_STAMINA},
    {"parry", TE_STAMINA},   {"resist", TE_FOCUS},
};

static const char *te_react_track(const char *name)
{
    for (size_t i = 0; i < sizeof te_reacts / sizeof te_reacts[0]; i++)
        if (enc_name_eq(te_reacts[i].name, name))
            return te_reacts[i].track;
    return NULL;
}

/* Spend who's reaction and one of the reaction's resource. */
static enum eng_err te_take_reaction(struct rs_call *c,
                                     struct enc_combatant *who,
                                     const char *kind)
{
    const char *track = te_react_track(kind);
    if (!te_can_act(who))
        return enc_fail(c->d, ENG_STATE, "%s cannot react while "
                        "unconscious", who->name);
    if (who->rs[TE_C_REACTIONS] <= 0)
        return enc_fail(c->d, ENG_STATE, "%s has no reaction left",
                        who->name);
    enum eng_err err = te_check_track(c, who, track, 1, kind);
    if (err != ENG_OK)
        return err;
    who->rs[TE_C_REACTIONS]--;
    return te_spend_track(c, who, track, 1, kind);
}

enum eng_err te_react(struct rs_call *c)
{
    struct enc_combatant *who;
    enum eng_err err = rs_opt_combatant(c, "name", &who);
    if (err != ENG_OK)
        return err;
    err = rs_require_actor(c, who);
    if (err != ENG_OK)
        return err;
    const char *kind = rs_opt(c->opts, c->nopts, "reaction");
    if (kind == NULL || te_react_track(kind) == NULL) {
        enc_fail(c->d, ENG_INVALID, "reaction: must be block, dodge, "
                 "fortify, intercept, parry or resist");
        return ENG_INVALID;
    }
    err = te_take_reaction(c, who, kind);
    if (err != ENG_OK)
        return err;
    te_say(c, who, "%s reacts: %s", who->name, kind);
    return ENG_OK;
}

enum eng_err te_test(struct rs_call *c)
{
    struct enc_combatant *who;
    enum eng_err err = rs_opt_combatant(c, "name", &who);
    if (err != ENG_OK)
        return err;
    err = rs_require_actor(c, who);
    if (err != ENG_OK)
        return err;
    const char *kind = rs_opt(c->opts, c->nopts, "kind");
    if (kind == NULL || kind[0] == '\0')
        kind = who->rs[TE_C_FORTIFY] > 0 ? "fortify" : "";
    if (enc_name_eq(kind, "luck")) {
        int64_t dc;
        err = rs_opt_int(c, "difficulty", -ENC_MAX_VALUE, ENC_MAX_VALUE,
                         TE_DEATH_DC, &dc);
        if (err != ENG_OK)
            return err;
        bool passed;
        return te_luck_test(c, who, "luck test", dc, &passed);
    }
    if (!enc_name_eq(kind, "fortify") && !enc_name_eq(kind, "dodge") &&
        !enc_name_eq(kind, "resist"))
        return enc_fail(c->d, ENG_INVALID, "kind: must be fortify, dodge, "
                        "resist or luck");
    bool pending = enc_name_eq(kind, "fortify") && who->rs[TE_C_FORTIFY] > 0;
    char dflt[DICE_MAX_EXPR_LEN + 1] = "";
    const char *given = rs_opt(c->opts, c->nopts, "roll");
    if (enc_name_eq(kind, "fortify") && (given == NULL || !given[0])) {
        err = te_stat_expr(c, who, "str", "athletics", "fortitude", dflt,
                           sizeof dflt);
        if (err != ENG_OK)
            return err;
    } else if (given == NULL || !given[0]) {
        enc_fail(c->d, ENG_INVALID, "roll: is required for a %s test", kind);
        enc_hint(c->d, "/test kind:%s name:\"%s\" roll:1d6+1d4 "
                 "difficulty:8", kind, who->name);
        return ENG_INVALID;
    }
    int64_t dc = pending ? who->rs[TE_C_FORTIFY] : INT64_MIN;
    const char *dtext = rs_opt(c->opts, c->nopts, "difficulty");
    if (dc == INT64_MIN && dtext == NULL)
        return enc_fail(c->d, ENG_INVALID, "difficulty: is required");
    err = te_take_reaction(c, who, kind);
    if (err != ENG_OK)
        return err;
    bool done, passed;
    int64_t total;
    char label[32];
    snprintf(label, sizeof label, "%s test", kind);
    /* Guarding: +1 to defence tests. */
    int64_t bonus = enc_cond_find(who, TE_COND_GUARD) != NULL ? 1 : 0;
    err = te_opt_test(c, label, dflt, bonus, dc, &done, &passed, &total);
    if (err != ENG_OK)
        return err;
    if (pending) {
        who->rs[TE_C_FORTIFY] = 0;
        if (passed)
            te_say(c, who, "%s stays conscious", who->name);
        else
            te_knock_out(c, who);
        te_settle(c);
    }
    return ENG_OK;
}

enum eng_err te_fall(struct rs_call *c)
{
    struct enc_combatant *who;
    enum eng_err err = rs_opt_combatant(c, "name", &who);
    if (err != ENG_OK)
        return err;
    err = rs_require_actor(c, who);
    if (err != ENG_OK)
        return err;
    if (who->rs[TE_C_FORTIFY] <= 0)
        return enc_fail(c->d, ENG_STATE, "%s has no fortify test to refuse",
                        who->name);
    te_knock_out(c, who);
    te_settle(c);
    return ENG_OK;
}

enum eng_err te_wake_cmd(struct rs_call *c)
{
    if (!c->is_gm)
        return enc_fail(c->d, ENG_PERM, "only the GM may wake a character");
    struct enc_combatant *who;
    enum eng_err err = rs_opt_combatant(c, "name", &who);
    if (err != ENG_OK)
        return err;
    if (who->flags & ENC_CF_DEAD)
        return enc_fail(c->d, ENG_STATE, "%s is dead", who->name);
    if (!(who->flags & ENC_CF_DOWN))
        return enc_fail(c->d, ENG_STATE, "%s is conscious", who->name);
    te_wake(c, who);
    te_settle(c);
    return ENG_OK;
}

enum eng_err te_damage_cmd(struct rs_call *c)
{
    if (!c->is_gm)
        return enc_fail(c->d, ENG_PERM, "only the GM may deal damage this "
                        "way");
    struct enc_combatant *who;
    enum eng_err err = rs_opt_combatant(c, "name", &who);
    if (err != ENG_OK)
        return err;
    int64_t amount;
    if (rs_opt(c->opts, c->nopts, "amount") == NULL)
        return enc_fail(c->d, ENG_INVALID, "amount: is required");
    err = rs_opt_int(c, "amount", 0, ENC_MAX_VALUE, 0, &amount);
    if (err != ENG_OK)
        return err;
    bool nonlethal;
    err = rs_opt_bool(c, "nonlethal", false, &nonlethal);
    if (err != ENG_OK)
        return err;
    err = te_deal_damage(c, who, amount, nonlethal);
    if (err != ENG_OK)
        return err;
    te_settle(c);
    return ENG_OK;
}

