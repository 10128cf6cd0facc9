/*
 * rs_resolve_act.c - the `resolve` ruleset's own commands during a turn:
 * delay, move, actions, Gain Momentum, Defend, Aim, Help, Hold an Action,
 * escape, and the GM's damage and rest (rs_resolve_cmds.h). Options arrive
 * bound to the declaration (rs_resolve_decl.c): typed, within their bounds,
 * combatants found.
 */
#include "rs_resolve_cmds.h"

#include "eng_text.h"
#include "rs_resolve_harm.h"
#include "rs_resolve_turn.h"
#include "turn.h"

const char *const rsv_act_kinds[] = {"dash", "item", "skill", "free", NULL};
/* In enum rsv_held's order, from RSV_HELD_ATTACK. */
const char *const rsv_hold_kinds[] = {"attack", "item", "skill", NULL};

/* The rank an action adds: rank:N, or skill:<stat> read from who, where
 * the stat must be one of allowed (NULL-terminated; NULL = any). *skill is
 * the stat's name as typed, or NULL when rank: was given. */
static enum eng_err rsv_rank_of(struct rs_call *c,
                                const struct enc_combatant *who,
                                const char *const *allowed,
                                const char *example, int64_t *out,
                                const char **skill)
{
    const struct rs_arg *rank = rs_arg(c, "rank");
    *skill = rs_arg_text(c, "skill", NULL);
    if (rank != NULL && *skill != NULL)
        return enc_fail(c->d, ENG_INVALID, "give rank: or skill:, not both");
    if (rank != NULL) {
        *out = rank->i;
        return ENG_OK;
    }
    if (*skill == NULL) {
        enc_fail(c->d, ENG_INVALID, "skill: (a stat name) or rank: is "
                 "required");
        enc_hint(c->d, "%s", example);
        return ENG_INVALID;
    }
    bool ok = allowed == NULL;
    for (int i = 0; allowed != NULL && allowed[i] != NULL; i++)
        ok = ok || eng_text_casecmp(*skill, allowed[i]) == 0;
    if (!ok) {
        enc_fail(c->d, ENG_INVALID, "skill: %s is not one this action uses",
                 *skill);
        enc_hint(c->d, "%s", example);
        return ENG_INVALID;
    }
    const int64_t *v = enc_stat((struct enc_combatant *)who, *skill);
    if (v == NULL) {
        enc_fail(c->d, ENG_NOTFOUND, "%s has no stat named %s", who->name,
                 *skill);
        enc_hint(c->d, "/combat set name:\"%s\" stats:\"%s=2\", or give "
                 "rank:", who->name, *skill);
        return ENG_NOTFOUND;
    }
    if (*v < 0 || *v > RSV_MAX_RANK)
        return enc_fail(c->d, ENG_RANGE, "%s must be 0 to %d to be used as "
                        "a rank", *skill, RSV_MAX_RANK);
    *out = *v;
    return ENG_OK;
}

/* /delay after:<name> */
enum eng_err rsv_cmd_delay(struct rs_call *c)
{
    struct enc_combatant *target = rs_arg_who(c, "after");
    struct enc_combatant *who = rsv_current(c);
    if (who == NULL)
        return c->d->code;
    if (!rsv_turn_untouched(who))
        return enc_fail(c->d, ENG_STATE, "%s can only delay at the start of "
                        "the turn, before moving or acting", who->name);
    if (rsv_est(c->e)->blaze == who->id)
        return enc_fail(c->d, ENG_STATE, "a Blaze of Glory turn cannot be "
                        "delayed");
    if (target == who)
        return enc_fail(c->d, ENG_INVALID, "%s cannot delay after "
                        "themselves", who->name);
    if (target->flags & ENC_CF_ACTED)
        return enc_fail(c->d, ENG_STATE, "%s has already acted this round; "
                        "delay after someone who has not", target->name);
    if (!turn_can_act(target) || rsv_is_out(target))
        return enc_fail(c->d, ENG_STATE, "%s cannot act this round",
                        target->name);
    return rsv_delay_turn(c, who, target);
}

/* The next combatant after who in the order this round who has not
 * acted and can, or NULL. */
static struct enc_combatant *next_unacted(struct encounter *e,
                                          const struct enc_combatant *who)
{
    for (int i = e->turn_idx + 1; i >= 1 && i < e->norder; i++) {
        struct enc_combatant *x = enc_by_id(e, e->order[i].id);
        if (x != NULL && x != who && !(x->flags & ENC_CF_ACTED) &&
            turn_can_act(x) && !rsv_is_out(x))
            return x;
    }
    return NULL;
}

enum eng_err rsv_timeout(struct rs_call *c)
{
    struct enc_combatant *who = enc_current(c->e);
    struct enc_combatant *after =
        who != NULL && who->owner != 0 && rsv_turn_untouched(who) &&
                rsv_est(c->e)->blaze != who->id
            ? next_unacted(c->e, who)
            : NULL;
    if (after == NULL)
        return rs_clock_end_turn(c, "The turn clock ran out: {} loses this "
                                 "turn.");
    RS_SAY(c, who, "The turn clock ran out: {} is treated as delaying.",
           RS_A_WHO(who));
    return rsv_delay_turn(c, who, after);
}

/* /move [to:<band>] */
enum eng_err rsv_cmd_move(struct rs_call *c)
{
    struct enc_combatant *who = rsv_current(c);
    if (who == NULL)
        return c->d->code;
    if (rsv_st(who)->moved)
        return enc_fail(c->d, ENG_STATE, "%s has already moved this turn "
                        "(a Dash action moves again)", who->name);
    rsv_st(who)->moved = true;
    const char *to = rs_arg_text(c, "to", NULL);
    if (to != NULL)
        RS_SAY(c, who, "{} moves one range band: {}", RS_A_WHO(who),
               RS_A_USER(to));
    else
        RS_SAY(c, who, "{} moves one range band", RS_A_WHO(who));
    return ENG_OK;
}

/* /act kind:dash|item|skill|free [note:] */
enum eng_err rsv_cmd_act(struct rs_call *c)
{
    /* In rsv_act_kinds' order. */
    static const struct {
        bool free;
        const char *what;    /* for the refusal */
        const char *said;
        const char *said_note;
    } kinds[] = {
        {false, N_("dash"), N_("{} dashes to an adjacent zone"),
         N_("{} dashes to an adjacent zone: {}")},
        {false, N_("use an item"), N_("{} uses an item"),
         N_("{} uses an item: {}")},
        {false, N_("use a skill"), N_("{} uses a skill"),
         N_("{} uses a skill: {}")},
        {true, N_("take a free action"), N_("{} takes a free action"),
         N_("{} takes a free action: {}")},
    };
    struct enc_combatant *who = rsv_current(c);
    if (who == NULL)
        return c->d->code;
    int64_t k = rs_arg_int(c, "kind", 0);
    enum eng_err err = rsv_check_action(c, who, kinds[k].free,
                                        kinds[k].what);
    if (err != ENG_OK)
        return err;
    rsv_spend_action(who, kinds[k].free);
    const char *note = rs_arg_text(c, "note", NULL);
    if (note != NULL)
        RS_SAY(c, who, kinds[k].said_note, RS_A_WHO(who), RS_A_USER(note));
    else
        RS_SAY(c, who, kinds[k].said, RS_A_WHO(who));
    return ENG_OK;
}

/* /momentum: Gain Momentum was rolled this turn. */
enum eng_err rsv_cmd_momentum(struct rs_call *c)
{
    struct enc_combatant *who = rsv_current(c);
    if (who == NULL)
        return c->d->code;
    if (rsv_st(who)->momentum)
        return enc_fail(c->d, ENG_STATE, "%s already has momentum this turn",
                        who->name);
    rsv_st(who)->momentum = true;
    RS_SAY(c, who, "{} gains momentum: up to {} actions this turn",
           RS_A_WHO(who), RS_A_NUM(rsv_total_max(c->e, who)));
    return ENG_OK;
}

/* /defend skill:<stat>|rank:N */
enum eng_err rsv_cmd_defend(struct rs_call *c)
{
    static const char *const ranks[] = {"agility", "athletics", "hide",
                                        NULL};
    struct enc_combatant *who = rsv_current(c);
    if (who == NULL)
        return c->d->code;
    int64_t rank = 0;
    const char *skill = NULL;
    enum eng_err err = rsv_rank_of(c, who, ranks, "/defend skill:agility "
                                   "(or athletics, hide), or rank:", &rank,
                                   &skill);
    if (err != ENG_OK)
        return err;
    err = rsv_check_action(c, who, false, N_("defend"));
    if (err != ENG_OK)
        return err;
    /* A fresh Defend replaces an old one rather than adding to it; it
     * lasts until the start of the defender's next turn (the declared
     * duration). */
    err = rsv_give(c, who, &(struct rs_cond_give){
        .name = RSV_DEFENDING, .value = (int32_t)(2 * rank),
        .value_given = true, .rounds = -1, .source = who->id});
    if (err != ENG_OK)
        return err;
    rsv_spend_action(who, false);
    if (skill != NULL)
        RS_SAY(c, who, "{} defends: +{} Defense (twice {} {}) until the "
               "start of their next turn", RS_A_WHO(who), RS_A_NUM(2 * rank),
               RS_A_USER(skill), RS_A_NUM(rank));
    else
        RS_SAY(c, who, "{} defends: +{} Defense (twice rank {}) until the "
               "start of their next turn", RS_A_WHO(who), RS_A_NUM(2 * rank),
               RS_A_NUM(rank));
    return ENG_OK;
}

/* /aim skill:<stat>|rank:N, or range:true */
enum eng_err rsv_cmd_aim(struct rs_call *c)
{
    static const char *const ranks[] = {"tactics", "search", NULL};
    struct enc_combatant *who = rsv_current(c);
    if (who == NULL)
        return c->d->code;
    enum eng_err err = ENG_OK;
    bool range = rs_arg_bool(c, "range", false);
    if (range && (rs_arg(c, "skill") != NULL || rs_arg(c, "rank") != NULL))
        return enc_fail(c->d, ENG_INVALID, "an Aim adds a rank or ignores "
                        "range dice, not both: give range:true alone");
    int64_t rank = 0;
    const char *skill = NULL;
    if (!range) {
        err = rsv_rank_of(c, who, ranks, "/aim skill:tactics (or search), "
                          "or range:true", &rank, &skill);
        if (err != ENG_OK)
            return err;
    }
    err = rsv_check_action(c, who, false, N_("aim"));
    if (err != ENG_OK)
        return err;
    /* One aim at a time: a new one replaces the old. */
    rsv_take_aims(c, who);
    err = rsv_give(c, who, &(struct rs_cond_give){
        .name = range ? RSV_AIM_RANGE : RSV_AIM, .value = (int32_t)rank,
        .value_given = !range, .rounds = -1, .source = who->id});
    if (err != ENG_OK)
        return err;
    rsv_spend_action(who, false);
    if (range)
        RS_SAY(c, who, "{} aims: their next attack ignores 1D of range "
               "penalty at long range or further", RS_A_WHO(who));
    else if (skill != NULL)
        RS_SAY(c, who, "{} aims: +{} to their next attack ({} {})",
               RS_A_WHO(who), RS_A_NUM(rank), RS_A_USER(skill),
               RS_A_NUM(rank));
    else
        RS_SAY(c, who, "{} aims: +{} to their next attack", RS_A_WHO(who),
               RS_A_NUM(rank));
    return ENG_OK;
}

/* /assist skill:<stat>|rank:N: the Help action. */
enum eng_err rsv_cmd_assist(struct rs_call *c)
{
    struct enc_combatant *who = rsv_current(c);
    if (who == NULL)
        return c->d->code;
    int64_t rank = 0;
    const char *skill = NULL;
    enum eng_err err = rsv_rank_of(c, who, NULL, "/assist skill:<the rank "
                                   "to add>", &rank, &skill);
    if (err != ENG_OK)
        return err;
    err = rsv_check_action(c, who, false, N_("help another"));
    if (err != ENG_OK)
        return err;
    rsv_spend_action(who, false);
    struct rsv_comb *s = rsv_st(who);
    s->help = true;
    s->help_rank = (int32_t)rank;
    RS_SAY(c, who, "{} readies a help: +{} on someone else's roll before "
           "their next turn (the roller names them with help:)",
           RS_A_WHO(who), RS_A_NUM(rank));
    return ENG_OK;
}

/* /rally target:<name>: the unused help restores 1 Resolve. */
enum eng_err rsv_cmd_rally(struct rs_call *c)
{
    struct enc_combatant *target = rs_arg_who(c, "target");
    struct enc_combatant *who = rsv_current(c);
    if (who == NULL)
        return c->d->code;
    if (!rsv_st(who)->rally)
        return enc_fail(c->d, ENG_STATE, "%s has no unused help to turn into "
                        "Resolve this turn", who->name);
    if (rsv_is_wounded(target))
        return enc_fail(c->d, ENG_STATE, "%s is Wounded; choose someone who "
                        "is not", target->name);
    if (rsv_is_out(target))
        return enc_fail(c->d, ENG_STATE, "%s is out of the fight",
                        target->name);
    if (enc_track(target, RSV_RESOLVE) == NULL)
        return enc_fail(c->d, ENG_STATE, "%s has no Resolve", target->name);
    rsv_st(who)->rally = false;
    if (target == who)
        RS_SAY(c, who, "{} rallies: +{} Resolve", RS_A_WHO(who),
               RS_A_NUM(RSV_HELP_REGAIN));
    else
        RS_SAY(c, who, "{} rallies {}: +{} Resolve", RS_A_WHO(who),
               RS_A_WHO(target), RS_A_NUM(RSV_HELP_REGAIN));
    rsv_regain(c, target, RSV_HELP_REGAIN);
    return ENG_OK;
}

/* /hold action:attack|item|skill trigger:"..." - ends the turn. */
enum eng_err rsv_cmd_hold(struct rs_call *c)
{
    struct enc_combatant *who = rsv_current(c);
    if (who == NULL)
        return c->d->code;
    if (rsv_est(c->e)->blaze == who->id)
        return enc_fail(c->d, ENG_STATE, "a Blaze of Glory turn cannot hold "
                        "an action");
    enum eng_err err = rsv_check_action(c, who, false,
                                        N_("hold an action"));
    if (err != ENG_OK)
        return err;
    rsv_spend_action(who, false);
    int held = RSV_HELD_ATTACK + (int)rs_arg_int(c, "action", 0);
    rsv_st(who)->held = held;
    const char *trigger = rs_arg_text(c, "trigger", "");
    if (held == RSV_HELD_ATTACK)
        RS_SAY(c, who, "{} holds an attack until: {}", RS_A_WHO(who),
               RS_A_USER(trigger));
    else if (held == RSV_HELD_ITEM)
        RS_SAY(c, who, "{} holds the use of an item until: {}",
               RS_A_WHO(who), RS_A_USER(trigger));
    else
        RS_SAY(c, who, "{} holds the use of a skill until: {}",
               RS_A_WHO(who), RS_A_USER(trigger));
    return ENG_OK;
}

/* /trigger name:<holder> - the held action happens now. */
enum eng_err rsv_cmd_trigger(struct rs_call *c)
{
    struct enc_combatant *who = rs_arg_who(c, "name");
    struct rsv_comb *s = rsv_st(who);
    if (s->held == RSV_HELD_NONE)
        return enc_fail(c->d, ENG_STATE, "%s holds no action", who->name);
    if (rsv_is_out(who) || !turn_can_act(who))
        return enc_fail(c->d, ENG_STATE, "%s cannot act now", who->name);
    int held = s->held;
    s->held = RSV_HELD_NONE;
    if (held == RSV_HELD_ATTACK) {
        s->fired = true;
        RS_SAY(c, who, "{}'s trigger happens: they may attack now, once "
               "(/attack with attacker:)", RS_A_WHO(who));
    } else if (held == RSV_HELD_ITEM) {
        RS_SAY(c, who, "{}'s trigger happens: they use the held item now",
               RS_A_WHO(who));
    } else {
        RS_SAY(c, who, "{}'s trigger happens: they use the held skill now",
               RS_A_WHO(who));
    }
    return ENG_OK;
}

/* /escape - the whole turn spent leaving the fight. */
enum eng_err rsv_cmd_escape(struct rs_call *c)
{
    struct enc_combatant *who = rsv_current(c);
    if (who == NULL)
        return c->d->code;
    if (!rsv_turn_untouched(who))
        return enc_fail(c->d, ENG_STATE, "escaping takes the whole turn, and "
                        "%s has already moved or acted", who->name);
    if (rsv_est(c->e)->blaze == who->id)
        return enc_fail(c->d, ENG_STATE, "a Blaze of Glory turn cannot be "
                        "spent escaping");
    RS_SAY(c, who, "{} escapes the fight", RS_A_WHO(who));
    rsv_take_out(c, who, RSV_OUT_ESCAPED);
    return ENG_OK;
}

/* /damage name: amount: - Resolve lost outside an attack; unlike
 * /combat hp it still counts when Resolve is already 0. */
enum eng_err rsv_cmd_damage(struct rs_call *c)
{
    struct enc_combatant *who = rs_arg_who(c, "name");
    if (rsv_is_out(who))
        return enc_fail(c->d, ENG_STATE, "%s is out of the fight",
                        who->name);
    if (enc_track(who, RSV_RESOLVE) == NULL) {
        enc_fail(c->d, ENG_STATE, "%s has no Resolve", who->name);
        enc_hint(c->d, "/combat set name:\"%s\" stats:\"resolve=10\"",
                 who->name);
        return ENG_STATE;
    }
    rsv_damage(c, who, rs_arg_int(c, "amount", 0));
    return ENG_OK;
}

/* /rest name: - the GM says they rested: ignores come back. */
enum eng_err rsv_cmd_rest(struct rs_call *c)
{
    struct enc_combatant *who = rs_arg_who(c, "name");
    rsv_st(who)->ignores_used = 0;
    enc_stat_remove(who, RSV_IGNORES_SPENT);
    int64_t n = rsv_ignores_of(who);
    RS_SAY(c, who, n == 1 ? N_("{} rests: {} Fallen Fate ignore again")
                          : N_("{} rests: {} Fallen Fate ignores again"),
           RS_A_WHO(who), RS_A_NUM(n));
    return ENG_OK;
}
