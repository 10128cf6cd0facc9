/*
 * rs_resolve_act.c - the `resolve` ruleset's own commands during a turn:
 * delay, move, actions, Gain Momentum, Defend, Aim, Help, Hold an Action,
 * escape, and the GM's damage and rest (see rs_resolve.h).
 */
#include <stdio.h>
#include <string.h>

#include "eng_text.h"
#include "rs_resolve.h"
#include "turn.h"

/* Whether who has done anything yet this turn. */
static bool rsv_turn_untouched(const struct enc_combatant *who)
{
    return !who->rs[RSV_C_MOVED] && who->rs[RSV_C_ACTIONS] == 0 &&
           who->rs[RSV_C_FREE] == 0;
}

/* The rank an action adds: rank:N, or skill:<stat> read from who, where
 * the stat must be one of allowed (NULL-terminated; NULL = any). */
static enum eng_err rsv_opt_rank(struct rs_call *c,
                                 const struct enc_combatant *who,
                                 const char *const *allowed,
                                 const char *example, int64_t *out,
                                 char *what, size_t n)
{
    const char *skill = rs_opt(c->opts, c->nopts, "skill");
    if (rs_opt(c->opts, c->nopts, "rank") != NULL) {
        if (skill != NULL)
            return enc_fail(c->d, ENG_INVALID, "give rank: or skill:, not "
                            "both");
        enum eng_err err = rs_opt_int(c, "rank", 0, RSV_MAX_RANK, 0, out);
        if (err != ENG_OK)
            return err;
        snprintf(what, n, "rank %lld", (long long)*out);
        return ENG_OK;
    }
    if (skill == NULL || skill[0] == '\0') {
        enc_fail(c->d, ENG_INVALID, "skill: (a stat name) or rank: is "
                 "required");
        enc_hint(c->d, "%s", example);
        return ENG_INVALID;
    }
    bool ok = allowed == NULL;
    for (int i = 0; allowed != NULL && allowed[i] != NULL; i++)
        ok = ok || eng_text_casecmp(skill, allowed[i]) == 0;
    if (!ok) {
        enc_fail(c->d, ENG_INVALID, "skill: %.24s is not one this action "
                 "uses", skill);
        enc_hint(c->d, "%s", example);
        return ENG_INVALID;
    }
    const int64_t *v = enc_stat((struct enc_combatant *)who, skill);
    if (v == NULL) {
        enc_fail(c->d, ENG_NOTFOUND, "%s has no stat named %.24s", who->name,
                 skill);
        enc_hint(c->d, "/combat set name:\"%s\" stats:\"%.24s=2\", or give "
                 "rank:", who->name, skill);
        return ENG_NOTFOUND;
    }
    if (*v < 0 || *v > RSV_MAX_RANK)
        return enc_fail(c->d, ENG_RANGE, "%.24s must be 0 to %d to be used "
                        "as a rank", skill, RSV_MAX_RANK);
    *out = *v;
    snprintf(what, n, "%.24s %lld", skill, (long long)*v);
    return ENG_OK;
}

/* /combat delay after:<name> */
enum eng_err rsv_cmd_delay(struct rs_call *c)
{
    struct enc_combatant *who, *target;
    enum eng_err err = rsv_require_current(c, &who);
    if (err != ENG_OK)
        return err;
    err = rs_opt_combatant(c, "after", &target);
    if (err != ENG_OK)
        return err;
    if (!rsv_turn_untouched(who)) {
        enc_fail(c->d, ENG_STATE, "%s can only delay at the start of the "
                 "turn, before moving or acting", who->name);
        return ENG_STATE;
    }
    if (c->e->rs[RSV_E_BLAZE] == who->id)
        return enc_fail(c->d, ENG_STATE, "a Blaze of Glory turn cannot be "
                        "delayed");
    if (target == who)
        return enc_fail(c->d, ENG_INVALID, "%s cannot delay after themself",
                        who->name);
    if (target->flags & ENC_CF_ACTED)
        return enc_fail(c->d, ENG_STATE, "%s has already acted this round; "
                        "delay after someone who has not", target->name);
    if (!turn_can_act(target) || rsv_is_out(target))
        return enc_fail(c->d, ENG_STATE, "%s cannot act this round",
                        target->name);
    return rsv_delay_turn(c, who, target);
}

/* /move [to:<band>] */
enum eng_err rsv_cmd_move(struct rs_call *c)
{
    struct enc_combatant *who;
    enum eng_err err = rsv_require_current(c, &who);
    if (err != ENG_OK)
        return err;
    if (who->rs[RSV_C_MOVED])
        return enc_fail(c->d, ENG_STATE, "%s has already moved this turn "
                        "(a Dash action moves again)", who->name);
    const char *to = rs_opt(c->opts, c->nopts, "to");
    if (to != NULL && strlen(to) > RSV_MAX_WORD)
        return enc_fail(c->d, ENG_LIMIT, "to: is too long (limit is %d "
                        "bytes)", RSV_MAX_WORD);
    who->rs[RSV_C_MOVED] = 1;
    if (to != NULL)
        rsv_say(c, who, "moves one range: %s", to);
    else
        rsv_say(c, who, "moves one range");
    return ENG_OK;
}

/* /act kind:dash|item|skill|free [note:] */
enum eng_err rsv_cmd_act(struct rs_call *c)
{
    static const struct {
        const char *kind;
        bool free;
        const char *said;
    } kinds[] = {
        {"dash", false, "dashes to an adjacent zone"},
        {"item", false, "uses an item"},
        {"skill", false, "uses a skill"},
        {"free", true, "takes a free action"},
    };
    struct enc_combatant *who;
    enum eng_err err = rsv_require_current(c, &who);
    if (err != ENG_OK)
        return err;
    const char *kind = rs_opt(c->opts, c->nopts, "kind");
    const char *note = rs_opt(c->opts, c->nopts, "note");
    if (note != NULL && strlen(note) > RSV_MAX_WORD)
        return enc_fail(c->d, ENG_LIMIT, "note: is too long (limit is %d "
                        "bytes)", RSV_MAX_WORD);
    for (size_t i = 0; kind != NULL && i < sizeof kinds / sizeof kinds[0];
         i++) {
        if (eng_text_casecmp(kind, kinds[i].kind) != 0)
            continue;
        err = rsv_check_action(c, who, kinds[i].free, kinds[i].said);
        if (err != ENG_OK)
            return err;
        rsv_spend_action(who, kinds[i].free);
        if (note != NULL)
            rsv_say(c, who, "%s: %s", kinds[i].said, note);
        else
            rsv_say(c, who, "%s", kinds[i].said);
        return ENG_OK;
    }
    return enc_fail(c->d, ENG_INVALID, "kind: must be dash, item, skill or "
                    "free");
}

/* /momentum: Gain Momentum was rolled this turn. */
enum eng_err rsv_cmd_momentum(struct rs_call *c)
{
    struct enc_combatant *who;
    enum eng_err err = rsv_require_current(c, &who);
    if (err != ENG_OK)
        return err;
    if (who->rs[RSV_C_MOMENTUM])
        return enc_fail(c->d, ENG_STATE, "%s already has momentum this turn",
                        who->name);
    who->rs[RSV_C_MOMENTUM] = 1;
    rsv_say(c, who, "gains momentum: up to %lld actions this turn",
            (long long)rsv_total_max(c->e, who));
    return ENG_OK;
}

/* /defend skill:<stat>|rank:N */
enum eng_err rsv_cmd_defend(struct rs_call *c)
{
    struct enc_combatant *who;
    enum eng_err err = rsv_require_current(c, &who);
    if (err != ENG_OK)
        return err;
    int64_t rank;
    char what[64];
    static const char *const ranks[] = {"agility", "athletics", "hide",
                                        NULL};
    err = rsv_opt_rank(c, who, ranks, "/defend skill:agility (or "
                       "athletics, hide), or rank:", &rank, what,
                       sizeof what);
    if (err != ENG_OK)
        return err;
    err = rsv_check_action(c, who, false, "defend");
    if (err != ENG_OK)
        return err;
    /* A fresh Defend replaces an old one rather than adding to it. */
    if (enc_cond_find(who, RSV_DEFENDING) != NULL)
        (void)enc_cond_remove(c->e, who, RSV_DEFENDING, c->r, c->d);
    struct enc_cond_req q = {
        .name = RSV_DEFENDING,
        .value = (int32_t)(2 * rank),
        .rounds = 1,
        .anchor = who->id,
        .expire = ENC_EXPIRE_START,
        .source = who->id,
    };
    err = enc_cond_add(c->e, who, &q, c->r, c->d);
    if (err != ENG_OK)
        return err;
    rsv_spend_action(who, false);
    rsv_say(c, who, "defends: +%lld Defense (2 x %s) until the start of "
            "their next turn", (long long)(2 * rank), what);
    return ENG_OK;
}

/* /aim skill:<stat>|rank:N, or range:true */
enum eng_err rsv_cmd_aim(struct rs_call *c)
{
    struct enc_combatant *who;
    enum eng_err err = rsv_require_current(c, &who);
    if (err != ENG_OK)
        return err;
    bool range = false;
    err = rs_opt_bool(c, "range", false, &range);
    if (err != ENG_OK)
        return err;
    int64_t rank = 0;
    char what[64] = "";
    if (!range) {
        static const char *const ranks[] = {"tactics", "search", NULL};
        err = rsv_opt_rank(c, who, ranks, "/aim skill:tactics (or "
                           "search), or range:true", &rank, what,
                           sizeof what);
        if (err != ENG_OK)
            return err;
    }
    err = rsv_check_action(c, who, false, "aim");
    if (err != ENG_OK)
        return err;
    /* One aim at a time: a new one replaces the old. */
    if (enc_cond_find(who, RSV_AIM) != NULL)
        (void)enc_cond_remove(c->e, who, RSV_AIM, c->r, c->d);
    if (enc_cond_find(who, RSV_AIM_RANGE) != NULL)
        (void)enc_cond_remove(c->e, who, RSV_AIM_RANGE, c->r, c->d);
    struct enc_cond_req q = {
        .name = range ? RSV_AIM_RANGE : RSV_AIM,
        .value = (int32_t)rank,
        .source = who->id,
    };
    err = enc_cond_add(c->e, who, &q, c->r, c->d);
    if (err != ENG_OK)
        return err;
    rsv_spend_action(who, false);
    if (range)
        rsv_say(c, who, "aims: the next attack ignores 1D of long-range "
                "penalty");
    else
        rsv_say(c, who, "aims: +%lld to the next attack (%s)",
                (long long)rank, what);
    return ENG_OK;
}

/* /assist skill:<stat>|rank:N */
enum eng_err rsv_cmd_help(struct rs_call *c)
{
    struct enc_combatant *who;
    enum eng_err err = rsv_require_current(c, &who);
    if (err != ENG_OK)
        return err;
    int64_t rank;
    char what[64];
    err = rsv_opt_rank(c, who, NULL, "/assist skill:<the rank to add>",
                       &rank, what, sizeof what);
    if (err != ENG_OK)
        return err;
    err = rsv_check_action(c, who, false, "help");
    if (err != ENG_OK)
        return err;
    rsv_spend_action(who, false);
    who->rs[RSV_C_HELP] = 1;
    who->rs[RSV_C_HELP_RANK] = rank;
    rsv_say(c, who, "can help: +%lld (%s) on another's roll before their "
            "next turn (help:%s)", (long long)rank, what, who->name);
    return ENG_OK;
}

/* /rally target:<name>: the unused help restores 1 Resolve. */
enum eng_err rsv_cmd_rally(struct rs_call *c)
{
    struct enc_combatant *who, *target;
    enum eng_err err = rsv_require_current(c, &who);
    if (err != ENG_OK)
        return err;
    if (!who->rs[RSV_C_RALLY])
        return enc_fail(c->d, ENG_STATE, "%s has no unused help to turn into "
                        "Resolve this turn", who->name);
    err = rs_opt_combatant(c, "target", &target);
    if (err != ENG_OK)
        return err;
    if (rsv_is_wounded(target))
        return enc_fail(c->d, ENG_STATE, "%s is Wounded; choose someone who "
                        "is not", target->name);
    if (rsv_is_out(target))
        return enc_fail(c->d, ENG_STATE, "%s is out of the fight",
                        target->name);
    if (enc_track(target, RSV_RESOLVE) == NULL)
        return enc_fail(c->d, ENG_STATE, "%s has no Resolve", target->name);
    who->rs[RSV_C_RALLY] = 0;
    rsv_regain(c, target, RSV_HELP_REGAIN);
    return ENG_OK;
}

static const char *const rsv_held_names[] = {
    [RSV_HELD_NONE] = "nothing", [RSV_HELD_ATTACK] = "attack",
    [RSV_HELD_ITEM] = "item", [RSV_HELD_SKILL] = "skill",
};

/* /hold action:attack|item|skill trigger:"..." - ends the turn. */
enum eng_err rsv_cmd_hold(struct rs_call *c)
{
    struct enc_combatant *who;
    enum eng_err err = rsv_require_current(c, &who);
    if (err != ENG_OK)
        return err;
    const char *act = rs_opt(c->opts, c->nopts, "action");
    const char *trigger = rs_opt(c->opts, c->nopts, "trigger");
    int held = RSV_HELD_NONE;
    for (int i = RSV_HELD_ATTACK; act != NULL && i <= RSV_HELD_SKILL; i++)
        if (eng_text_casecmp(act, rsv_held_names[i]) == 0)
            held = i;
    if (held == RSV_HELD_NONE)
        return enc_fail(c->d, ENG_INVALID, "action: must be attack, item or "
                        "skill");
    if (trigger == NULL || trigger[0] == '\0')
        return enc_fail(c->d, ENG_INVALID, "trigger: is required: say what "
                        "sets the action off");
    if (strlen(trigger) > RSV_MAX_TRIGGER)
        return enc_fail(c->d, ENG_LIMIT, "trigger: is too long (limit is %d "
                        "bytes)", RSV_MAX_TRIGGER);
    if (c->e->rs[RSV_E_BLAZE] == who->id)
        return enc_fail(c->d, ENG_STATE, "a Blaze of Glory turn cannot hold "
                        "an action");
    err = rsv_check_action(c, who, false, "hold an action");
    if (err != ENG_OK)
        return err;
    rsv_spend_action(who, false);
    who->rs[RSV_C_HELD] = held;
    rsv_say(c, who, "holds %s %s until: %s", held == RSV_HELD_ATTACK ? "an" :
            "a", rsv_held_names[held], trigger);
    return ENG_OK;
}

/* /trigger name:<holder> - the held action happens now. */
enum eng_err rsv_cmd_trigger(struct rs_call *c)
{
    struct enc_combatant *who;
    enum eng_err err = rsv_named_actor(c, "name", &who);
    if (err != ENG_OK)
        return err;
    if (who->rs[RSV_C_HELD] == RSV_HELD_NONE)
        return enc_fail(c->d, ENG_STATE, "%s holds no action", who->name);
    if (rsv_is_out(who) || !turn_can_act(who))
        return enc_fail(c->d, ENG_STATE, "%s cannot act now", who->name);
    int held = (int)who->rs[RSV_C_HELD];
    who->rs[RSV_C_HELD] = RSV_HELD_NONE;
    if (held == RSV_HELD_ATTACK) {
        who->rs[RSV_C_FIRED] = 1;
        rsv_say(c, who, "the trigger happens: attacks now (/attack "
                "attacker:\"%s\")", who->name);
    } else {
        rsv_say(c, who, "the trigger happens: uses the held %s now",
                rsv_held_names[held]);
    }
    return ENG_OK;
}

/* /escape - the whole turn spent leaving the fight. */
enum eng_err rsv_cmd_escape(struct rs_call *c)
{
    struct enc_combatant *who;
    enum eng_err err = rsv_require_current(c, &who);
    if (err != ENG_OK)
        return err;
    if (!rsv_turn_untouched(who))
        return enc_fail(c->d, ENG_STATE, "escaping takes the whole turn, and "
                        "%s has already moved or acted", who->name);
    if (c->e->rs[RSV_E_BLAZE] == who->id)
        return enc_fail(c->d, ENG_STATE, "a Blaze of Glory turn cannot be "
                        "spent escaping");
    rsv_say(c, who, "escapes the fight");
    rsv_take_out(c, who, RSV_OUT_ESCAPED);
    return ENG_OK;
}

/* /damage name: amount: - Resolve lost outside an attack; unlike
 * /combat hp it still counts when Resolve is already 0. */
enum eng_err rsv_cmd_damage(struct rs_call *c)
{
    struct enc_combatant *who;
    enum eng_err err = rsv_named_actor(c, "name", &who);
    if (err != ENG_OK)
        return err;
    if (rs_opt(c->opts, c->nopts, "amount") == NULL)
        return enc_fail(c->d, ENG_INVALID, "amount: is required");
    int64_t amount;
    err = rs_opt_int(c, "amount", 0, ENC_MAX_VALUE, 0, &amount);
    if (err != ENG_OK)
        return err;
    if (rsv_is_out(who))
        return enc_fail(c->d, ENG_STATE, "%s is out of the fight",
                        who->name);
    if (enc_track(who, RSV_RESOLVE) == NULL) {
        enc_fail(c->d, ENG_STATE, "%s has no Resolve", who->name);
        enc_hint(c->d, "/combat set name:\"%s\" stats:\"resolve=10\"",
                 who->name);
        return ENG_STATE;
    }
    rsv_damage(c, who, amount);
    return ENG_OK;
}

/* /rest name: - the GM says they rested: ignores come back. */
enum eng_err rsv_cmd_rest(struct rs_call *c)
{
    struct enc_combatant *who;
    enum eng_err err = rs_opt_combatant(c, "name", &who);
    if (err != ENG_OK)
        return err;
    if (!c->is_gm)
        return enc_fail(c->d, ENG_PERM, "only the GM may say who rested");
    who->rs[RSV_C_IGNORES_USED] = 0;
    rsv_say(c, who, "rests: %lld Fallen Fate ignores again",
            (long long)rsv_ignores(enc_stat_or(who, "stamina", 0),
                                   enc_stat_or(who, "control", 0)));
    return ENG_OK;
}

