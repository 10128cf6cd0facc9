/*
 * rs_resolve_fate.c - choosing a Fallen Fate (rs_resolve_cmds.h):
 * /fate name: fate:ignore|never|push|blaze|tragic.
 */
#include "rs_resolve_cmds.h"

#include <string.h>

#include "eng_text.h"
#include "rs_resolve_harm.h"
#include "rs_resolve_turn.h"

/* In rsv_fate_fns' order. */
const char *const rsv_fates[] = {
    "ignore", "never", "push", "blaze", "tragic", NULL,
};

static enum eng_err rsv_fate_ignore(struct rs_call *c,
                                    struct enc_combatant *who)
{
    struct rsv_comb *s = rsv_st(who);
    if (s->fate != RSV_FATE_MAY_IGNORE) {
        const struct enc_track *t = enc_track_c(who, RSV_RESOLVE);
        if (s->fate == RSV_FATE_MUST && t != NULL &&
            s->fate_damage > t->max / 2)
            return enc_fail(c->d, ENG_STATE, "%d damage is more than half "
                            "of %s's %lld Resolve: this fate cannot be "
                            "ignored", (int)s->fate_damage, who->name,
                            (long long)t->max);
        return enc_fail(c->d, ENG_STATE, "%s has no ignores left until they "
                        "rest", who->name);
    }
    /* Counted as a stat: a saved character keeps it until it rests. */
    enum eng_err err = enc_stat_set(who, RSV_IGNORES_SPENT,
                                    enc_stat_or(who, RSV_IGNORES_SPENT, 0) + 1,
                                    c->d);
    if (err != ENG_OK)
        return err;
    s->fate = RSV_FATE_NONE;
    int64_t left = rsv_ignores_left(who);
    RS_SAY(c, who, left == 1 ? N_("{} shrugs off the Fallen Fate ({} "
                                  "ignore left until they rest)")
                             : N_("{} shrugs off the Fallen Fate ({} "
                                  "ignores left until they rest)"),
           RS_A_WHO(who), RS_A_NUM(left));
    return ENG_OK;
}

/* Never the Same: attrs:"a" loses 2 dice, attrs:"a,b" 1 each. */
static enum eng_err rsv_fate_never(struct rs_call *c,
                                   struct enc_combatant *who)
{
    int64_t times = enc_stat_or(who, "nts", 0);
    if (times >= RSV_MAX_NEVER)
        return enc_fail(c->d, ENG_STATE, "%s has already taken Never the "
                        "Same %d times, the most a life allows", who->name,
                        RSV_MAX_NEVER);
    const char *list = rs_arg_text(c, "attrs", NULL);
    if (list == NULL) {
        enc_fail(c->d, ENG_INVALID, "attrs: is required: one attribute "
                 "(-2D) or two (-1D each)");
        enc_hint(c->d, "attrs:\"strength\" or attrs:\"strength,agility\"");
        return ENG_INVALID;
    }
    char names[3][ENC_MAX_STAT_NAME + 1];
    int n = 0;
    bool too_long = false;
    while (n < 3 && rs_list_next(&list, names[n], sizeof names[n],
                                 &too_long))
        n++;
    if (too_long)
        return enc_fail(c->d, ENG_LIMIT, "attrs: an attribute's name is "
                        "longer than %d bytes", ENC_MAX_STAT_NAME);
    if (n == 0 || n > 2)
        return enc_fail(c->d, ENG_INVALID, "attrs: names one or two "
                        "attributes");
    if (n == 2 && eng_text_casecmp(names[0], names[1]) == 0)
        return enc_fail(c->d, ENG_INVALID, "two different attributes, or "
                        "one named once for -%dD", RSV_NEVER_DICE);
    for (int i = 0; i < n; i++)
        if (enc_stat(who, names[i]) == NULL)
            return enc_fail(c->d, ENG_NOTFOUND, "%s has no attribute named "
                            "%s", who->name, names[i]);
    enum eng_err err = enc_stat_set(who, "nts", times + 1, c->d);
    if (err != ENG_OK)
        return err;
    int64_t each = RSV_NEVER_DICE / n;
    for (int i = 0; i < n; i++) {
        int64_t *v = enc_stat(who, names[i]);
        int64_t was = *v;
        *v = was - each < 0 ? 0 : was - each;
        RS_SAY(c, who, "{}'s {} is {}, down from {}, for good",
               RS_A_WHO(who), RS_A_USER(names[i]), RS_A_NUM(*v),
               RS_A_NUM(was));
    }
    RS_SAY(c, who, "{} will never be the same, and leaves the fight",
           RS_A_WHO(who));
    rsv_take_out(c, who, RSV_OUT_REMOVED);
    return ENG_OK;
}

/* Desperate Push: 2D; 7 or less dies, 8 or more regains that much and is
 * no longer Wounded. */
static enum eng_err rsv_fate_push(struct rs_call *c,
                                  struct enc_combatant *who)
{
    struct rs_rolled r;
    enum eng_err err = rs_roll(c, who, "Desperate Push", RSV_PUSH_DICE, &r);
    if (err != ENG_OK)
        return err;
    rsv_st(who)->fate = RSV_FATE_NONE;
    if (!rsv_push_survives(r.total)) {
        RS_SAY(c, who, "{} makes a Desperate Push: {}, {} or less: they die",
               RS_A_WHO(who), RS_A_ROLL(r.roll_idx),
               RS_A_NUM(RSV_PUSH_DIES_AT));
        rsv_take_out(c, who, RSV_OUT_DEAD);
        return ENG_OK;
    }
    RS_SAY(c, who, "{} makes a Desperate Push: {}: they regain that much "
           "Resolve and are no longer Wounded", RS_A_WHO(who),
           RS_A_ROLL(r.roll_idx));
    rsv_take(c, who, RSV_WOUNDED);
    rsv_regain(c, who, r.total);
    return ENG_OK;
}

static enum eng_err rsv_fate_blaze(struct rs_call *c,
                                   struct enc_combatant *who)
{
    if (c->e->status != ENC_ST_RUNNING)
        return enc_fail(c->d, ENG_STATE, "the fight has not begun");
    if (rsv_est(c->e)->blaze != 0)
        return enc_fail(c->d, ENG_STATE, "a Blaze of Glory turn is already "
                        "under way; choose again when it ends");
    rsv_st(who)->fate = RSV_FATE_NONE;
    who->flags &= ~(uint32_t)ENC_CF_DOWN;
    RS_SAY(c, who, "{} goes out in a Blaze of Glory: a turn now, and death "
           "at its end", RS_A_WHO(who));
    rsv_blaze_turn(c, who);
    return ENG_OK;
}

/* Whether w is an ally of who who sees it fall, by default: same side, or
 * with no sides, the same kind (player characters or NPCs). */
static bool rsv_ally(const struct enc_combatant *who,
                     const struct enc_combatant *w)
{
    if (w == who || rsv_is_out(w))
        return false;
    if (who->side >= 0)
        return w->side == who->side;
    return w->side < 0 && rsv_is_pc(w) == rsv_is_pc(who);
}

/* Tragic Demise: who dies; each ally who saw it regains 2D Resolve and a
 * Force Point, each shown with its dice. */
static enum eng_err rsv_fate_tragic(struct rs_call *c,
                                    struct enc_combatant *who)
{
    struct encounter *e = c->e;
    struct enc_combatant *seen[ENC_MAX_COMBATANTS];
    int n = 0;
    const char *list = rs_arg_text(c, "witnesses", NULL);
    if (list != NULL) {
        enum eng_err err = rsv_names(c, "witnesses", list, RSV_MAX_NAMES,
                                     seen, &n);
        if (err != ENG_OK)
            return err;
        for (int i = 0; i < n; i++)
            if (seen[i] == who || rsv_is_out(seen[i]))
                return enc_fail(c->d, ENG_INVALID, "%s cannot witness this",
                                seen[i]->name);
    } else {
        for (int i = 0; i < e->ncs; i++)
            if (rsv_ally(who, &e->cs[i]))
                seen[n++] = &e->cs[i];
    }
    /* Force Points first: the one step that can fail (no room for a
     * stat). */
    for (int i = 0; i < n; i++) {
        enum eng_err err = enc_stat_set(seen[i], RSV_FP,
                                        enc_stat_or(seen[i], RSV_FP, 0) +
                                            RSV_DEMISE_FP, c->d);
        if (err != ENG_OK)
            return err;
    }
    rsv_st(who)->fate = RSV_FATE_NONE;
    RS_SAY(c, who, "{} meets a Tragic Demise", RS_A_WHO(who));
    rsv_take_out(c, who, RSV_OUT_DEAD);
    for (int i = 0; i < n; i++) {
        struct rs_rolled r;
        enum eng_err err = rs_roll(c, seen[i], "Resolve regained",
                                   RSV_DEMISE_DICE, &r);
        if (err != ENG_OK)
            return err;
        RS_SAY(c, seen[i], "{} saw it: regains {} Resolve and {} Force "
               "Point (FP {})", RS_A_WHO(seen[i]), RS_A_ROLL(r.roll_idx),
               RS_A_NUM(RSV_DEMISE_FP),
               RS_A_NUM(enc_stat_or(seen[i], RSV_FP, 0)));
        rsv_regain(c, seen[i], r.total);
    }
    return ENG_OK;
}

/* The one whose fate the command is about: name:, else the one character
 * with a fate due (a fate button names only the fate). */
static enum eng_err rsv_fate_who(struct rs_call *c,
                                 struct enc_combatant **out)
{
    *out = rs_arg_who(c, "name");
    if (*out != NULL)
        return ENG_OK;
    for (int i = 0; i < c->e->ncs; i++) {
        if (rsv_st(&c->e->cs[i])->fate == RSV_FATE_NONE)
            continue;
        if (*out != NULL)
            return enc_fail(c->d, ENG_INVALID, "name: is required: more "
                            "than one character has a fate due");
        *out = &c->e->cs[i];
    }
    if (*out == NULL)
        return enc_fail(c->d, ENG_INVALID, "name: is required: nobody has "
                        "a fate due");
    return rs_require_actor(c, *out);
}

enum eng_err rsv_cmd_fate(struct rs_call *c)
{
    /* In rsv_fates' order. */
    static enum eng_err (*const fns[])(struct rs_call *c,
                                       struct enc_combatant *who) = {
        rsv_fate_ignore, rsv_fate_never, rsv_fate_push, rsv_fate_blaze,
        rsv_fate_tragic,
    };
    struct enc_combatant *who;
    enum eng_err err = rsv_fate_who(c, &who);
    if (err != ENG_OK)
        return err;
    int64_t pick = rs_arg_int(c, "fate", 0);
    /* Nothing is accepted and then ignored. */
    if (rs_arg(c, "attrs") != NULL && fns[pick] != rsv_fate_never)
        return enc_fail(c->d, ENG_INVALID, "attrs: is for fate:never");
    if (rs_arg(c, "witnesses") != NULL && fns[pick] != rsv_fate_tragic)
        return enc_fail(c->d, ENG_INVALID, "witnesses: is for fate:tragic");
    if (rsv_is_out(who))
        return enc_fail(c->d, ENG_STATE, "%s is out of the fight", who->name);
    if (rsv_st(who)->fate == RSV_FATE_NONE) {
        /* Outside a due fate only the GM may grant one, to someone
         * Wounded (a significant NPC, at the GM's discretion). */
        if (!c->is_gm || !rsv_is_wounded(who)) {
            enc_fail(c->d, ENG_STATE, "%s has no Fallen Fate to choose",
                     who->name);
            enc_hint(c->d, "a fate is due when a Wounded character takes "
                     "more damage");
            return ENG_STATE;
        }
        if (fns[pick] == rsv_fate_ignore)
            return enc_fail(c->d, ENG_STATE, "%s has no Fallen Fate to "
                            "ignore", who->name);
    }
    return fns[pick](c, who);
}
