/*
 * rs_resolve.c - the base of the `resolve` ruleset (rs_resolve.h): the
 * chapter's rules as pure functions, what a combatant is, and a turn's
 * action limits. Uses nothing else of the ruleset.
 */
#include "rs_resolve.h"

#include <string.h>

#include "eng_text.h"

const char *const rsv_ranges[] = {
    "close", "short", "medium", "long", "extreme", NULL,
};

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

int rsv_range_penalty(enum rsv_range r, bool ranged, bool aim_range)
{
    if (!ranged)
        return 0;
    int pen = 0;
    switch (r) {
    case RSV_RANGE_CLOSE:
    case RSV_RANGE_LONG:
        pen = 1;
        break;
    case RSV_RANGE_EXTREME:
        pen = 2;
        break;
    case RSV_RANGE_NONE:
    case RSV_RANGE_SHORT:
    case RSV_RANGE_MEDIUM:
        pen = 0;
        break;
    }
    /* Aim may ignore up to 1D, and only at long range or further. */
    if (aim_range && (r == RSV_RANGE_LONG || r == RSV_RANGE_EXTREME))
        pen--;
    return pen;
}

void rsv_hit(const struct rsv_hit_in *in, struct rsv_hit_out *out)
{
    memset(out, 0, sizeof *out);
    int64_t defense = in->defense + in->defend_bonus;
    out->hit = in->attack >= defense;
    out->defend_lapses = !out->hit && in->defend_bonus > 0 &&
                         in->attack >= in->defense;
    if (!out->hit)
        return;
    out->armor = in->armor;
    /* Our reading (README): the Armor Rating counts half, rounded down. */
    if (!in->piercing && in->attack >= defense + RSV_OVERKILL) {
        out->armor_halved = true;
        out->armor = in->armor / 2;
    }
    out->loss = in->damage - out->armor;
    if (out->loss < 0)
        out->loss = 0;
}

enum rsv_after rsv_after_damage(const struct rsv_after_in *in)
{
    if (in->loss <= 0)
        return RSV_AFTER_NONE;
    if (in->wounded) {
        if (!in->pc)
            return RSV_AFTER_DEFEATED;
        if (in->ignores_left > 0 && in->loss <= in->max / 2)
            return RSV_AFTER_FATE;
        return RSV_AFTER_FATE_MUST;
    }
    if (in->resolve_after > 0)
        return RSV_AFTER_NONE;
    return in->pc || in->significant ? RSV_AFTER_WOUNDED : RSV_AFTER_DEFEATED;
}

int64_t rsv_ignores(int64_t stamina, int64_t control)
{
    return stamina > control ? stamina : control;
}

bool rsv_push_survives(int64_t roll)
{
    return roll > RSV_PUSH_DIES_AT;
}

/* ---- what a combatant is ------------------------------------------------- */

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
    return rsv_st(who)->out != RSV_OUT_NONE ||
           (who->flags & ENC_CF_DEAD) != 0;
}

int64_t rsv_ignores_of(const struct enc_combatant *who)
{
    return rsv_ignores(enc_stat_or(who, "stamina", 0),
                       enc_stat_or(who, "control", 0));
}

int64_t rsv_ignores_left(const struct enc_combatant *who)
{
    int64_t n = rsv_ignores_of(who) - rsv_st(who)->ignores_used -
                enc_stat_or(who, RSV_IGNORES_SPENT, 0);
    return n > 0 ? n : 0;
}

struct enc_cond *rsv_aim(struct enc_combatant *who, bool range)
{
    struct enc_cond *q = enc_cond_find(who, range ? RSV_AIM_RANGE : RSV_AIM);
    return q != NULL ? q
                     : enc_cond_find(who, range ? RSV_AIM_RANGE_OLD
                                                : RSV_AIM_OLD);
}

/* ---- a turn's limits ----------------------------------------------------- */

static int64_t rsv_momentum(const struct encounter *e,
                            const struct enc_combatant *who)
{
    return rsv_st(who)->momentum ? rs_setting_int(e, e->sys, "momentum") : 0;
}

int64_t rsv_actions_max(const struct encounter *e,
                        const struct enc_combatant *who)
{
    return RSV_ACTIONS + rsv_momentum(e, who);
}

int64_t rsv_total_max(const struct encounter *e,
                      const struct enc_combatant *who)
{
    return RSV_MAX_TOTAL + rsv_momentum(e, who);
}

enum eng_err rsv_check_action(struct rs_call *c,
                              const struct enc_combatant *who, bool free,
                              const char *what)
{
    const struct rsv_comb *s = rsv_st(who);
    int64_t total = s->actions + s->frees;
    if (total >= rsv_total_max(c->e, who))
        enc_fail(c->d, ENG_STATE, "%s has taken %lld actions this turn, "
                 "free ones included (the limit); cannot %s", who->name,
                 (long long)total, enc_diag_word(c->d, what));
    else if (!free && s->actions >= rsv_actions_max(c->e, who))
        enc_fail(c->d, ENG_STATE, "%s has used this turn's action; cannot "
                 "%s", who->name, enc_diag_word(c->d, what));
    else
        return ENG_OK;
    if (!s->momentum)
        enc_hint(c->d, "/momentum, after rolling Gain Momentum");
    return ENG_STATE;
}

void rsv_spend_action(struct enc_combatant *who, bool free)
{
    if (free)
        rsv_st(who)->frees++;
    else
        rsv_st(who)->actions++;
}

bool rsv_turn_untouched(const struct enc_combatant *who)
{
    const struct rsv_comb *s = rsv_st(who);
    return !s->moved && s->actions == 0 && s->frees == 0;
}

struct enc_combatant *rsv_current(struct rs_call *c)
{
    struct enc_combatant *who = enc_current(c->e);
    if (c->e->status != ENC_ST_RUNNING)
        enc_fail(c->d, ENG_STATE, "the fight has not begun");
    else if (who == NULL)
        enc_fail(c->d, ENG_STATE, "it is nobody's turn");
    else if (rs_require_actor(c, who) == ENG_OK)
        return who;
    return NULL;
}

/* ---- shared pieces ------------------------------------------------------- */

enum eng_err rsv_give(struct rs_call *c, struct enc_combatant *who,
                      const struct rs_cond_give *q)
{
    return rs_cond_give(c, c->e->sys, who, q, false);
}

void rsv_take(struct rs_call *c, struct enc_combatant *who, const char *name)
{
    if (enc_cond_find(who, name) != NULL)
        (void)enc_cond_remove(c->e, who, name, c->r, c->d);
}

void rsv_take_aims(struct rs_call *c, struct enc_combatant *who)
{
    static const char *const aims[] = {RSV_AIM, RSV_AIM_RANGE, RSV_AIM_OLD,
                                       RSV_AIM_RANGE_OLD};
    for (size_t i = 0; i < sizeof aims / sizeof aims[0]; i++)
        rsv_take(c, who, aims[i]);
}

enum eng_err rsv_names(struct rs_call *c, const char *opt, const char *list,
                       int max, struct enc_combatant **out, int *n)
{
    char name[ENC_MAX_NAME + 1];
    bool too_long = false;
    *n = 0;
    while (rs_list_next(&list, name, sizeof name, &too_long)) {
        struct enc_combatant *who = rs_who(c, name, RS_WHO_TARGET);
        if (who == NULL)
            return rs_fail_nobody(c, opt, name);
        for (int i = 0; i < *n; i++)
            if (out[i] == who)
                return enc_fail(c->d, ENG_INVALID, "%s: %s is named twice",
                                opt, rs_name_for(c, who));
        if (*n >= max)
            return enc_fail(c->d, ENG_LIMIT, "%s: at most %d names", opt,
                            max);
        out[(*n)++] = who;
    }
    if (too_long)
        return enc_fail(c->d, ENG_LIMIT, "%s: a name is longer than %d "
                        "bytes", opt, ENC_MAX_NAME);
    return ENG_OK;
}
