/*
 * rs_teams_act.c - the `teams` ruleset's own commands: actions in a turn,
 * reactions, tests, falling unconscious, waking and direct damage (see
 * rs_teams.h and docs/rulesets/teams.md). Their options arrive bound to the
 * declarations in rs_teams_decl.c (rs_arg_*).
 */
#include "rs_teams.h"

#include <stdio.h>
#include <string.h>

#include "eng_text.h"

/* Options of /act besides action:, and which actions use them. */
#define TE_O_TARGET (1u << 0)
#define TE_O_COST   (1u << 1)
#define TE_O_LABEL  (1u << 2)
#define TE_O_ROLL   (1u << 3)
#define TE_O_DC     (1u << 4)

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
    unsigned opts;           /* TE_O_*: the options it uses */
} te_acts[] = {
    {"brandish", 1, TE_A_PLAIN, 0},
    {"command", 1, TE_A_COMMAND, TE_O_TARGET},
    {"interact", 1, TE_A_PLAIN, 0},
    {N_("guard"), 1, TE_A_GUARD, 0},
    {"move", 1, TE_A_MOVE, 0},
    {N_("ready"), 1, TE_A_READY, 0},
    {"resuscitate", 2, TE_A_RESUSCITATE, TE_O_TARGET | TE_O_ROLL | TE_O_DC},
    {"seek_cover", 1, TE_A_COVER, 0},
    {"short_task", 3, TE_A_PLAIN, 0},
    {"sprint", 1, TE_A_SPRINT, 0},
    {"stand_up", 1, TE_A_STAND, 0},
    {N_("wait"), 1, TE_A_WAIT, 0},
    {"drop_item", 0, TE_A_PLAIN, 0},
    {"drop_prone", 0, TE_A_PRONE, 0},
    {"step", 0, TE_A_STEP, 0},
    {"killing_strike", 3, TE_A_KILL, TE_O_TARGET | TE_O_ROLL},
    {"other", 1, TE_A_OTHER, TE_O_COST | TE_O_LABEL},
    {"continue", 0, TE_A_CONTINUE, 0},
    {"abandon", 0, TE_A_ABANDON, 0},
};

#define TE_NACTS (sizeof te_acts / sizeof te_acts[0])

static const struct te_act *te_act_find(const char *name)
{
    for (size_t i = 0; i < TE_NACTS; i++)
        if (enc_name_eq(te_acts[i].name, name))
            return &te_acts[i];
    return NULL;
}

/* Refuse an option the action does not use, so none is taken and then
 * ignored. */
static enum eng_err te_act_opts_used(struct rs_call *c,
                                     const struct te_act *act)
{
    static const struct {
        const char *name;
        unsigned bit;
    } opts[] = {
        {"target", TE_O_TARGET}, {"cost", TE_O_COST}, {"label", TE_O_LABEL},
        {"roll", TE_O_ROLL},     {"difficulty", TE_O_DC},
    };
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        if (rs_arg(c, opts[i].name) != NULL && !(act->opts & opts[i].bit))
            return enc_fail(c->d, ENG_INVALID, "%s: is not used by "
                            "action:%s", opts[i].name, act->name);
    return ENG_OK;
}

/* ---- actions that take longer than the turn has left -------------------- */

/* A fight saved before typed state named the action under way in a
 * condition "busy: <label>"; it is read, and cleared, from there. */
#define TE_LEGACY_BUSY "busy: "

static struct enc_cond *te_legacy_busy(struct enc_combatant *who)
{
    size_t n = strlen(TE_LEGACY_BUSY);
    for (int i = 0; i < who->nconds; i++)
        if (strncmp(who->conds[i].name, TE_LEGACY_BUSY, n) == 0)
            return &who->conds[i];
    return NULL;
}

static const char *te_busy_label(struct enc_combatant *who)
{
    struct te_comb *st = TE_C(who);
    struct enc_cond *old = te_legacy_busy(who);
    if (st->busy_label[0] == '\0' && old != NULL)
        enc_copy(st->busy_label, sizeof st->busy_label,
                 old->name + strlen(TE_LEGACY_BUSY));
    return st->busy_label[0] ? st->busy_label : "the action";
}

static enum eng_err te_busy_clear(struct rs_call *c, struct enc_combatant *who)
{
    struct te_comb *st = TE_C(who);
    struct enc_cond *old = te_legacy_busy(who);
    st->busy = 0;
    st->busy_label[0] = '\0';
    if (old == NULL)
        return ENG_OK;
    char name[ENC_MAX_COND_NAME + 1];
    enc_copy(name, sizeof name, old->name);
    return enc_cond_remove(c->e, who, name, c->r, c->d);
}

/* Continue or abandon the action under way. */
static enum eng_err te_act_busy(struct rs_call *c, struct enc_combatant *who,
                                const struct te_act *act)
{
    struct te_comb *st = TE_C(who);
    if (st->busy <= 0)
        return enc_fail(c->d, ENG_STATE, "%s has no action under way",
                        who->name);
    char label[TE_MAX_LABEL + 1];
    enc_copy(label, sizeof label, te_busy_label(who));
    if (act->kind == TE_A_ABANDON) {
        RS_SAY(c, who, "{} abandons {}", RS_A_WHO(who), RS_A_USER(label));
        return te_busy_clear(c, who);
    }
    if (st->actions <= 0)
        return enc_fail(c->d, ENG_STATE, "%s has no actions left",
                        who->name);
    int32_t use = st->busy < st->actions ? st->busy : st->actions;
    st->actions -= use;
    st->busy -= use;
    if (st->busy > 0) {
        RS_SAY(c, who, "{} keeps at {} ({} {} to go)", RS_A_WHO(who),
               RS_A_USER(label), RS_A_NUM(st->busy),
               RS_A_TEXT(te_plural(st->busy, N_("action"), N_("actions"))));
        return ENG_OK;
    }
    RS_SAY(c, who, "{} finishes {}", RS_A_WHO(who), RS_A_USER(label));
    return te_busy_clear(c, who);
}

/* Start an action longer than what is left: it uses the rest of the turn
 * and finishes in a later one. */
static enum eng_err te_act_start_long(struct rs_call *c,
                                      struct enc_combatant *who,
                                      const struct te_act *act,
                                      const char *label, int64_t cost)
{
    struct te_comb *st = TE_C(who);
    int32_t left = (int32_t)(cost - st->actions);
    if (act->kind == TE_A_RESUSCITATE) {
        enum eng_err err = te_cond(c, who, TE_COND_PRONE);
        if (err != ENG_OK)
            return err;
    }
    st->actions = 0;
    st->busy = left;
    enc_copy(st->busy_label, sizeof st->busy_label, label);
    RS_SAY(c, who, "{} starts {} ({} more {} next turn)", RS_A_WHO(who),
           RS_A_USER(label), RS_A_NUM(left),
           RS_A_TEXT(te_plural(left, N_("action"), N_("actions"))));
    return ENG_OK;
}

/* ---- tests that go with an action --------------------------------------- */

/* Roll expr for who as a test against dc, as a test event. */
static enum eng_err te_roll_test(struct rs_call *c, struct enc_combatant *who,
                                 const char *label, const char *expr,
                                 int64_t bonus, const char *bonus_why,
                                 int64_t dc, bool *passed)
{
    struct rs_rolled r;
    enum eng_err err = rs_roll(c, who, label, expr, &r);
    if (err != ENG_OK)
        return err;
    int64_t total = r.total + bonus;
    *passed = total >= dc;
    struct enc_event *ev =
        rs_test_event(c, ENC_EV_TEST, who, NULL, label, total, dc,
                      *passed ? N_("success") : N_("failure"));
    rs_ev_roll(c, ev, r.roll_idx);
    if (bonus != 0)
        rs_mod(c, ev, bonus_why, bonus, "");
    return ENG_OK;
}

/* Resuscitate: the GM's roll: and difficulty: decide it here, or the GM
 * decides with /wake. */
static enum eng_err te_act_resuscitate(struct rs_call *c,
                                       struct enc_combatant *who,
                                       struct enc_combatant *target)
{
    enum eng_err err = te_cond(c, who, TE_COND_PRONE);
    if (err != ENG_OK)
        return err;
    const char *roll = rs_arg_text(c, "roll", NULL);
    if (roll == NULL) {
        RS_SAY(c, who, "{} tries to revive {}: the GM sets the test (roll: "
               "and difficulty:), or uses /wake", RS_A_WHO(who),
               RS_A_WHO(target));
        return ENG_OK;
    }
    bool passed;
    err = te_roll_test(c, who, N_("resuscitate test"), roll, 0, NULL,
                       rs_arg_int(c, "difficulty", 0), &passed);
    if (err != ENG_OK)
        return err;
    if (passed)
        te_wake(c, target);
    else
        RS_SAY(c, who, "{} fails to revive {}", RS_A_WHO(who),
               RS_A_WHO(target));
    return ENG_OK;
}

/* A killing strike: a test with advantage (twice, the better kept) of the
 * combat skill against the target's constitution. */
static enum eng_err te_act_kill(struct rs_call *c, struct enc_combatant *who,
                                struct enc_combatant *target)
{
    char expr[DICE_MAX_EXPR_LEN + 1];
    const char *given = rs_arg_text(c, "roll", NULL);
    if (given != NULL) {
        enc_copy(expr, sizeof expr, given);
    } else {
        int64_t sk = enc_stat_or(who, "combat", 0);
        if (sk <= 0)
            return enc_fail(c->d, ENG_STATE, "%s has no combat die; give "
                            "roll:", who->name);
        snprintf(expr, sizeof expr, "1d%lld", (long long)sk);
    }
    struct rs_rolled r[2];
    for (int i = 0; i < 2; i++) {
        enum eng_err err = rs_roll(c, who, "killing strike", expr, &r[i]);
        if (err != ENG_OK)
            return err;
    }
    int best = r[1].total > r[0].total ? 1 : 0;
    rs_roll_drop(c, r[1 - best].roll_idx);
    int64_t con = enc_stat_or(target, "con", 0);
    bool kills = r[best].total >= con;
    struct enc_event *ev = rs_test_event(c, ENC_EV_TEST, who, target,
                                         "killing strike", r[best].total, con,
                                         kills ? N_("success") : N_("failure"));
    rs_ev_roll(c, ev, r[0].roll_idx);
    rs_ev_roll(c, ev, r[1].roll_idx);
    rs_mod_note(c, ev, "advantage: best of 2");
    if (kills)
        te_kill(c, target);
    else
        RS_SAY(c, who, "the killing strike fails: {} makes a sneak attack "
               "on {} instead", RS_A_WHO(who), RS_A_WHO(target));
    return ENG_OK;
}

/* ---- /act --------------------------------------------------------------- */

/* What the action needs, checked before anything changes. */
static enum eng_err te_act_check(struct rs_call *c, struct enc_combatant *who,
                                 const struct te_act *act,
                                 const struct enc_combatant *target,
                                 int64_t cost)
{
    const struct te_comb *st = TE_C(who);
    switch (act->kind) {
    case TE_A_COMMAND:
        if (target == NULL || target == who || target->side != who->side)
            return enc_fail(c->d, ENG_INVALID, "command: target: must be an "
                            "ally");
        for (int k = 0; k < TE_MAX_COMMANDS; k++)
            if (st->commanded[k] == target->id)
                return enc_fail(c->d, ENG_STATE, "%s has already commanded "
                                "%s this turn", who->name, target->name);
        return te_check_track(c, who, TE_FOCUS, 2, "command");
    case TE_A_MOVE:
        if (st->moved)
            return enc_fail(c->d, ENG_STATE, "%s has already moved this "
                            "turn: sprint to move again", who->name);
        return ENG_OK;
    case TE_A_SPRINT:
        if (!st->moved)
            return enc_fail(c->d, ENG_STATE, "%s must move before "
                            "sprinting", who->name);
        return te_check_track(c, who, TE_STAMINA, 1, "sprint");
    case TE_A_STEP:
        if (st->stepped)
            return enc_fail(c->d, ENG_STATE, "%s has already stepped this "
                            "turn", who->name);
        return ENG_OK;
    case TE_A_STAND:
        if (enc_cond_find(who, TE_COND_PRONE) == NULL)
            return enc_fail(c->d, ENG_STATE, "%s is not prone", who->name);
        return ENG_OK;
    case TE_A_RESUSCITATE:
    case TE_A_KILL:
        if (target == NULL || !(target->flags & ENC_CF_DOWN) ||
            (target->flags & ENC_CF_DEAD))
            return enc_fail(c->d, ENG_INVALID, "%s: target: must be an "
                            "unconscious character", act->name);
        if (act->kind == TE_A_KILL && st->actions < cost)
            return enc_fail(c->d, ENG_STATE, "a killing strike takes %lld "
                            "actions; %s has %d", (long long)cost,
                            who->name, (int)st->actions);
        if (act->kind == TE_A_RESUSCITATE &&
            (rs_arg(c, "roll") == NULL) != (rs_arg(c, "difficulty") == NULL))
            return enc_fail(c->d, ENG_INVALID, "resuscitate: give roll: and "
                            "difficulty: together, or neither and the GM "
                            "decides with /wake");
        return ENG_OK;
    case TE_A_PLAIN:
    case TE_A_GUARD:
    case TE_A_READY:
    case TE_A_COVER:
    case TE_A_WAIT:
    case TE_A_PRONE:
    case TE_A_OTHER:
    case TE_A_CONTINUE:
    case TE_A_ABANDON:
        return ENG_OK;
    }
    return ENG_OK;
}

/* Guard, Ready and Wait end the turn with their condition. */
static enum eng_err te_act_end_turn(struct rs_call *c,
                                    struct enc_combatant *who,
                                    const struct te_act *act)
{
    const char *cond = act->kind == TE_A_GUARD ? TE_COND_GUARD
                       : act->kind == TE_A_READY ? TE_COND_READY
                       : TE_COND_WAIT;
    enum eng_err err = te_cond(c, who, cond);
    if (err != ENG_OK)
        return err;
    RS_SAY(c, who, "{}: {}, and the turn ends", RS_A_WHO(who),
           RS_A_TEXT(act->name));
    te_end_turn(c);
    return ENG_OK;
}

/* The action's effect, its cost paid. */
static enum eng_err te_act_do(struct rs_call *c, struct enc_combatant *who,
                              const struct te_act *act,
                              struct enc_combatant *target, const char *label)
{
    struct te_comb *st = TE_C(who);
    enum eng_err err = ENG_OK;
    switch (act->kind) {
    case TE_A_COMMAND:
        err = te_spend_track(c, who, TE_FOCUS, 2, "command");
        for (int k = 0; err == ENG_OK && k < TE_MAX_COMMANDS; k++)
            if (st->commanded[k] == 0) {
                st->commanded[k] = target->id;
                break;
            }
        if (err == ENG_OK)
            RS_SAY(c, who, "{} commands {}, who takes one action now",
                   RS_A_WHO(who), RS_A_WHO(target));
        return err;
    case TE_A_GUARD:
    case TE_A_READY:
    case TE_A_WAIT:
        return te_act_end_turn(c, who, act);
    case TE_A_RESUSCITATE:
        err = te_act_resuscitate(c, who, target);
        te_settle(c);
        return err;
    case TE_A_KILL:
        err = te_act_kill(c, who, target);
        te_settle(c);
        return err;
    case TE_A_MOVE:
        st->moved = true;
        break;
    case TE_A_SPRINT:
        err = te_spend_track(c, who, TE_STAMINA, 1, "sprint");
        break;
    case TE_A_STEP:
        st->stepped = true;
        break;
    case TE_A_STAND:
        err = enc_cond_remove(c->e, who, TE_COND_PRONE, c->r, c->d);
        break;
    case TE_A_PRONE:
        err = te_cond(c, who, TE_COND_PRONE);
        break;
    case TE_A_COVER:
        err = te_cond(c, who, TE_COND_COVER);
        break;
    case TE_A_PLAIN:
    case TE_A_OTHER:
    case TE_A_CONTINUE:
    case TE_A_ABANDON:
        break;
    }
    if (err != ENG_OK)
        return err;
    RS_SAY(c, who, "{}: {} ({} {} left)", RS_A_WHO(who), RS_A_USER(label),
           RS_A_NUM(st->actions),
           RS_A_TEXT(te_plural(st->actions, N_("action"), N_("actions"))));
    return ENG_OK;
}

enum eng_err te_act(struct rs_call *c)
{
    struct encounter *e = c->e;
    const struct te_act *act = te_act_find(rs_arg_text(c, "action", ""));
    if (act == NULL)      /* the binder checked the choice: not reached */
        return enc_fail(c->d, ENG_INVALID, "action: is required");
    struct enc_combatant *who = enc_current(e);
    if (who == NULL)
        return enc_fail(c->d, ENG_STATE, "nobody's turn is running");
    enum eng_err err = rs_require_actor(c, who);
    if (err == ENG_OK)
        err = te_act_opts_used(c, act);
    if (err != ENG_OK)
        return err;
    if (!te_can_act(who)) {
        enc_fail(c->d, ENG_STATE, "%s is unconscious and cannot act",
                 who->name);
        enc_hint(c->d, "/combat next");
        return ENG_STATE;
    }
    struct te_comb *st = TE_C(who);
    if (act->kind == TE_A_ABANDON || act->kind == TE_A_CONTINUE)
        return te_act_busy(c, who, act);
    if (st->busy > 0) {
        enc_fail(c->d, ENG_STATE, "%s must continue or abandon the action "
                 "under way first", who->name);
        enc_hint(c->d, "/act action:continue");
        return ENG_STATE;
    }

    int64_t cost = act->cost;
    const char *label = act->name;
    if (act->kind == TE_A_OTHER) {
        cost = rs_arg_int(c, "cost", 1);
        label = rs_arg_text(c, "label", act->name);
        err = enc_check_name(label, "label", TE_MAX_LABEL, c->d);
        if (err != ENG_OK)
            return err;
    }
    if (cost > 0 && st->actions <= 0)
        return enc_fail(c->d, ENG_STATE, "%s has no actions left",
                        who->name);
    struct enc_combatant *target = rs_arg_who(c, "target");
    err = te_act_check(c, who, act, target, cost);
    if (err != ENG_OK)
        return err;
    if (cost > st->actions)
        return te_act_start_long(c, who, act, label, cost);
    st->actions -= (int32_t)cost;
    return te_act_do(c, who, act, target, label);
}

/* ---- reactions and tests ------------------------------------------------ */

/* The resource a reaction spends. */
static const struct {
    const char *name;
    const char *track;
} te_reacts[] = {
    {N_("block"), TE_STAMINA},   {N_("dodge"), TE_STAMINA},
    {N_("fortify"), TE_STAMINA}, {N_("intercept"), TE_STAMINA},
    {N_("parry"), TE_STAMINA},   {N_("resist"), TE_FOCUS},
};

static const char *te_react_track(const char *name)
{
    for (size_t i = 0; i < sizeof te_reacts / sizeof te_reacts[0]; i++)
        if (enc_name_eq(te_reacts[i].name, name))
            return te_reacts[i].track;
    return TE_STAMINA;
}

enum eng_err te_may_react(struct rs_call *c, const struct enc_combatant *who,
                          int n, bool fortify)
{
    const struct te_comb *st = TE_C(who);
    if (!te_can_act(who))
        return enc_fail(c->d, ENG_STATE, "%s cannot react while "
                        "unconscious", who->name);
    if (st->fortify > 0 && !fortify) {
        enc_fail(c->d, ENG_STATE, "%s must first fortify against %d or "
                 "fall unconscious", who->name, (int)st->fortify);
        enc_hint(c->d, "/test name:\"%s\" kind:fortify", who->name);
        return ENG_STATE;
    }
    if (st->reactions >= n)
        return ENG_OK;
    if (st->reactions <= 0)
        return enc_fail(c->d, ENG_STATE, "%s has no reaction left",
                        who->name);
    return enc_fail(c->d, ENG_STATE, "%s has %d %s left and needs %d",
                    who->name, (int)st->reactions,
                    te_plural(st->reactions, "reaction", "reactions"), n);
}

/* Spend who's reaction and one of the reaction's resource. */
static enum eng_err te_take_reaction(struct rs_call *c,
                                     struct enc_combatant *who,
                                     const char *kind)
{
    const char *track = te_react_track(kind);
    enum eng_err err = te_may_react(c, who, 1, enc_name_eq(kind, "fortify"));
    if (err == ENG_OK)
        err = te_check_track(c, who, track, 1, kind);
    if (err != ENG_OK)
        return err;
    TE_C(who)->reactions--;
    return te_spend_track(c, who, track, 1, kind);
}

enum eng_err te_react(struct rs_call *c)
{
    struct enc_combatant *who = rs_arg_who(c, "name");
    struct te_comb *st = TE_C(who);
    const char *kind = rs_arg_text(c, "reaction", "");
    enum eng_err err = te_take_reaction(c, who, kind);
    if (err != ENG_OK)
        return err;
    if (enc_name_eq(kind, "fortify") && st->fortify > 0) {
        /* The owed fortify test, settled by hand: it held. */
        RS_SAY(c, who, "{} fortifies against {} and stays conscious",
               RS_A_WHO(who), RS_A_SECRET(st->fortify, who->hidden));
        st->fortify = 0;
        return ENG_OK;
    }
    RS_SAY(c, who, "{} reacts: {}", RS_A_WHO(who), RS_A_TEXT(kind));
    return ENG_OK;
}

/* A luck test costs nothing and rolls 1d20 + luck. */
static enum eng_err te_test_luck(struct rs_call *c, struct enc_combatant *who)
{
    if (rs_arg(c, "roll") != NULL)
        return enc_fail(c->d, ENG_INVALID, "roll: is not used by a luck "
                        "test: it is 1d20 + the luck stat");
    bool passed;
    return te_luck_test(c, who, N_("luck test"),
                        rs_arg_int(c, "difficulty", TE_DEATH_DC), &passed);
}

enum eng_err te_test(struct rs_call *c)
{
    struct enc_combatant *who = rs_arg_who(c, "name");
    struct te_comb *st = TE_C(who);
    const char *kind = rs_arg_text(c, "kind", NULL);
    if (kind == NULL && st->fortify <= 0) {
        enc_fail(c->d, ENG_INVALID, "kind: is required: %s owes no fortify "
                 "test", who->name);
        enc_hint(c->d, "/test name:\"%s\" kind:dodge roll:1d6+1d4 "
                 "difficulty:8", who->name);
        return ENG_INVALID;
    }
    if (kind == NULL)
        kind = "fortify";
    if (enc_name_eq(kind, "luck"))
        return te_test_luck(c, who);
    bool fortify = enc_name_eq(kind, "fortify");
    bool pending = fortify && st->fortify > 0;
    char expr[DICE_MAX_EXPR_LEN + 1] = "";
    const char *given = rs_arg_text(c, "roll", NULL);
    enum eng_err err = ENG_OK;
    if (given != NULL)
        enc_copy(expr, sizeof expr, given);
    else if (fortify)
        err = te_stat_expr(c, who, "str", "athletics", "fortitude", expr,
                           sizeof expr);
    else
        err = enc_fail(c->d, ENG_INVALID, "roll: is required for a %s test",
                       kind);
    if (err != ENG_OK)
        return err;
    if (pending && rs_arg(c, "difficulty") != NULL)
        return enc_fail(c->d, ENG_INVALID, "this fortify test is against "
                        "the missing health, %d: leave difficulty: out",
                        (int)st->fortify);
    if (!pending && rs_arg(c, "difficulty") == NULL)
        return enc_fail(c->d, ENG_INVALID, "difficulty: is required");
    int64_t dc = pending ? st->fortify : rs_arg_int(c, "difficulty", 0);
    err = te_take_reaction(c, who, kind);
    if (err != ENG_OK)
        return err;
    /* The test's label is a word of the catalogs, not a splice. */
    const char *label = enc_name_eq(kind, "fortify") ? N_("fortify test")
                        : enc_name_eq(kind, "dodge") ? N_("dodge test")
                                                     : N_("resist test");
    /* Guarding: +1 to defence tests. */
    bool guard = enc_cond_find(who, TE_COND_GUARD) != NULL;
    bool passed;
    err = te_roll_test(c, who, label, expr, guard ? 1 : 0, N_("guarding"), dc,
                       &passed);
    if (err != ENG_OK || !pending)
        return err;
    st->fortify = 0;
    if (passed)
        RS_SAY(c, who, "{} stays conscious", RS_A_WHO(who));
    else
        te_knock_out(c, who);
    te_settle(c);
    return ENG_OK;
}

enum eng_err te_fall(struct rs_call *c)
{
    struct enc_combatant *who = rs_arg_who(c, "name");
    if (TE_C(who)->fortify <= 0)
        return enc_fail(c->d, ENG_STATE, "%s has no fortify test to refuse",
                        who->name);
    te_knock_out(c, who);
    te_settle(c);
    return ENG_OK;
}

enum eng_err te_wake_cmd(struct rs_call *c)
{
    struct enc_combatant *who = rs_arg_who(c, "name");
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
    struct enc_combatant *who = rs_arg_who(c, "name");
    enum eng_err err = te_deal_damage(c, who, rs_arg_int(c, "amount", 0),
                                      rs_arg_bool(c, "nonlethal", false));
    if (err != ENG_OK)
        return err;
    te_settle(c);
    return ENG_OK;
}
