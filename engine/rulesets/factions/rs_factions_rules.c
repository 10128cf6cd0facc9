/*
 * rs_factions_rules.c - the `factions` ruleset: the pure rules (dice values
 * in, outcomes out) and the small predicates every other file reads. It
 * depends on no other file of the ruleset.
 */
#include "rs_factions.h"

#include "eng_text.h"
#include "turn.h"

/* ---- pure rules --------------------------------------------------------- */

bool fac_rule_save(int64_t roll, int64_t attr, bool strict)
{
    return strict ? roll < attr : roll <= attr;
}

bool fac_rule_fast(int64_t wit, int64_t fat)
{
    return wit >= fat;
}

bool fac_rule_morale_group(int64_t start, int64_t now)
{
    return start > 1 && now * 2 <= start;
}

bool fac_rule_morale_lone(int64_t hp, int64_t max)
{
    return max > 0 && hp * 2 <= max;
}

int64_t fac_rule_damage(int64_t raw, int64_t armour, bool cover,
                        bool penetrates)
{
    int64_t av = armour + (cover && !penetrates ? 1 : 0);
    return raw > av ? raw - av : 0;
}

enum fac_break fac_rule_break(int64_t raw, bool shield_damaged,
                              bool armour_damaged)
{
    if (raw < FAC_BREAK_DAMAGE)
        return FAC_BREAK_NONE;
    if (shield_damaged)
        return FAC_BREAK_SHIELD;
    return armour_damaged ? FAC_BREAK_ARMOUR : FAC_BREAK_NONE;
}

enum fac_first fac_rule_counter(int64_t to_target, int64_t to_attacker)
{
    if (to_target == to_attacker)
        return FAC_FIRST_BOTH;
    return to_target > to_attacker ? FAC_FIRST_TARGET : FAC_FIRST_ATTACKER;
}

const char *fac_diag_word(const struct enc_diag *d, const char *word)
{
    return d->tr != NULL ? d->tr(d->tr_ctx, word) : word;
}

enum eng_err fac_rule_hit(unsigned how, bool *need, const char **why)
{
    bool far = how & FAC_AT_FAR, moving = how & FAC_AT_MOVING;
    bool unseen = how & FAC_AT_UNSEEN, hard = how & FAC_AT_CHALLENGING;
    *why = NULL;
    if (how & FAC_AT_INDIRECT) {
        if (moving)
            *why = N_("an indirect attack cannot be made while moving");
        else if (!far)
            *why = N_("an indirect attack can only target beyond half "
                      "range");
        *need = true;
    } else if (how & FAC_AT_RANGED) {
        if (far && moving)
            *why = N_("a ranged attack beyond half range is not possible "
                      "while moving");
        else if (unseen)
            *why = N_("a ranged attack needs a visible target (indirect "
                      "attacks excepted)");
        *need = far || moving || hard;
    } else {
        *need = unseen || hard;
    }
    return *why != NULL ? ENG_STATE : ENG_OK;
}

/* ---- predicates --------------------------------------------------------- */

const struct rs_system *fac_sys(void)
{
    return rs_find("factions");
}

int64_t fac_setting(const struct encounter *e, const char *key)
{
    return rs_setting_int(e, fac_sys(), key);
}

bool fac_has_cond(const struct enc_combatant *w, const char *name)
{
    for (int i = 0; i < w->nconds; i++)
        if (enc_name_eq(w->conds[i].name, name))
            return true;
    return false;
}

int fac_side_size(const struct encounter *e, int side)
{
    int n = 0;
    for (int i = 0; i < e->ncs; i++)
        n += e->cs[i].side == side;
    return n;
}

int fac_factions(const struct encounter *e)
{
    int n = 0;
    for (int s = 0; s < e->nsides; s++)
        n += fac_side_size(e, s) > 0;
    return n;
}

bool fac_in_fight(const struct enc_combatant *w)
{
    return turn_can_act(w) && !fac_has_cond(w, FAC_COND_BROKEN) &&
           !fac_has_cond(w, FAC_COND_SURRENDERED);
}

bool fac_may_react(const struct enc_combatant *w)
{
    return turn_can_act(w) && !(w->flags & ENC_CF_ACTED);
}

int64_t fac_armour(const struct enc_combatant *w)
{
    return enc_stat_or(w, FAC_STAT_ARMOUR, 0) +
           enc_stat_or(w, FAC_STAT_SHIELD, 0);
}

bool fac_counter_nonlethal(const char *counter, bool *disarm)
{
    *disarm = eng_text_casecmp(counter, "disarm") == 0;
    return *disarm || eng_text_casecmp(counter, "grapple") == 0;
}
