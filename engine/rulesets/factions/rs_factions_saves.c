/*
 * rs_factions_saves.c - the `factions` ruleset: saves called for by
 * command (/test, /chase), morale (the phase at the end of each round and
 * /morale) and the durability list (/durability).
 *
 * Morale: a group reduced to half or less of its original number, or a
 * character fighting alone whom damage left at half health or less, makes
 * a group WIT save in the morale phase; those who fail are Broken, those
 * who pass are exempt for the rest of the fight.
 */
#include "rs_factions.h"


/* ---- morale ------------------------------------------------------------- */

/* Whether w is still subject to morale: in the fight and not yet tested. */
static bool fac_morale_subject(const struct enc_combatant *w, int side)
{
    return w->side == side && fac_in_fight(w) &&
           FAC_C(w)->morale == FAC_MOR_UNTESTED;
}

/* Says why side makes no morale check and returns true, or returns false
 * when someone on side is still subject to it. A check that rolls nothing
 * must not be announced as a check. */
static bool fac_morale_none(struct rs_call *c, int side)
{
    struct encounter *e = c->e;
    int subject = 0, fearless = 0;
    for (int i = 0; i < e->ncs; i++) {
        if (!fac_morale_subject(&e->cs[i], side))
            continue;
        subject++;
        fearless += enc_stat_or(&e->cs[i], "fearless", 0) != 0;
    }
    if (subject == 0) {
        RS_SAY(c, NULL, "No morale check for {}: nobody in the fight is "
               "still subject to morale (a member who passed is exempt for "
               "the rest of the fight)", RS_A_SIDE(e, side));
        return true;
    }
    if (fearless == subject) {
        RS_SAY(c, NULL, "No morale check for {}: every member still in the "
               "fight is immune to fear, so to morale", RS_A_SIDE(e, side));
        return true;
    }
    return false;
}

/* Group WIT save for side's members still subject to morale. */
static enum eng_err fac_morale_check(struct rs_call *c, int side)
{
    struct encounter *e = c->e;
    if (fac_morale_none(c, side))
        return ENG_OK;
    RS_SAY(c, NULL, "Morale check for {} (group WIT save)",
           RS_A_SIDE(e, side));
    for (int i = 0; i < e->ncs; i++) {
        struct enc_combatant *w = &e->cs[i];
        if (!fac_morale_subject(w, side))
            continue;
        if (enc_stat_or(w, "fearless", 0) != 0) {
            RS_SAY(c, w, "{} is immune to fear", RS_A_WHO(w));
            continue;
        }
        if (enc_stat_or(w, "wit", -1) < 0) {
            RS_SAY(c, w, "{} has no WIT score: the GM decides", RS_A_WHO(w));
            continue;
        }
        bool pass;
        enum eng_err err = fac_save(c, w, "wit", N_("morale (WIT save)"),
                                    &pass);
        if (err != ENG_OK)
            return err;
        if (pass) {
            FAC_C(w)->morale = FAC_MOR_STEADY;
            continue;
        }
        FAC_C(w)->morale = FAC_MOR_BROKEN;
        err = fac_give(c, w, FAC_COND_BROKEN, 0);
        if (err != ENG_OK)
            return err;
        RS_SAY(c, w, "{} must surrender or retreat", RS_A_WHO(w));
    }
    return ENG_OK;
}

/* Whether side must check morale now. */
static bool fac_morale_due(const struct encounter *e, int side)
{
    int64_t start = FAC_S(e, side)->start, now = 0;
    const struct enc_combatant *lone = NULL;
    for (int i = 0; i < e->ncs; i++)
        if (e->cs[i].side == side) {
            now += fac_in_fight(&e->cs[i]);
            lone = &e->cs[i];
        }
    if (fac_rule_morale_group(start, now))
        return now > 0;
    if (start == 1 && lone != NULL && fac_in_fight(lone))
        return FAC_C(lone)->halved;
    return false;
}

void fac_morale_phase(struct rs_call *c)
{
    struct encounter *e = c->e;
    if (!fac_setting(e, "morale"))
        return;
    for (int s = 0; s < e->nsides; s++) {
        if (!fac_morale_due(e, s))
            continue;
        bool any = false;
        for (int i = 0; i < e->ncs; i++)
            any |= fac_morale_subject(&e->cs[i], s);
        if (any)
            (void)fac_morale_check(c, s);
    }
}

enum eng_err fac_cmd_morale(struct rs_call *c)
{
    return fac_morale_check(c, rs_arg(c, "side")->side);
}

/* ---- saves by command --------------------------------------------------- */

/* A group save: every member of side still in the fight; for a chase,
 * each one's line says whether they got away. */
static enum eng_err fac_group_save(struct rs_call *c, int side,
                                   const char *attr, const char *label,
                                   bool chase)
{
    struct encounter *e = c->e;
    for (int i = 0; i < e->ncs; i++)
        if (e->cs[i].side == side && fac_in_fight(&e->cs[i])) {
            enum eng_err err = fac_need_attr(c, &e->cs[i], attr);
            if (err != ENG_OK)
                return err;
        }
    int n = 0;
    for (int i = 0; i < e->ncs; i++) {
        struct enc_combatant *w = &e->cs[i];
        if (w->side != side || !fac_in_fight(w))
            continue;
        bool pass;
        enum eng_err err = fac_save(c, w, attr, label, &pass);
        if (err != ENG_OK)
            return err;
        if (chase && pass)
            RS_SAY(c, w, "{} escapes", RS_A_WHO(w));
        else if (chase)
            RS_SAY(c, w, "{} is reached by the pursuers", RS_A_WHO(w));
        n++;
    }
    if (n == 0)
        return enc_fail(c->d, ENG_STATE, "nobody of %s is in the fight",
                        e->sides[side].name);
    return ENG_OK;
}

/* The attributes in the order of /test save:'s choices. */
static const char *const fac_attrs[] = {"str", "agi", "wit"};
static const char *const fac_attr_saves[] = {N_("STR save"), N_("AGI save"),
                                             N_("WIT save")};

enum eng_err fac_cmd_test(struct rs_call *c)
{
    int64_t k = rs_arg_int(c, "save", 0);
    const char *attr = fac_attrs[k], *label = fac_attr_saves[k];
    const struct rs_arg *side = rs_arg(c, "side");
    struct enc_combatant *who = rs_arg_who(c, "name");
    if (side != NULL && who != NULL)
        return enc_fail(c->d, ENG_INVALID, "give name: or side:, not both");
    if (side != NULL) {
        if (!c->is_gm)
            return enc_fail(c->d, ENG_PERM, "only the GM calls for a group "
                            "save");
        return fac_group_save(c, side->side, attr, label, false);
    }
    if (who == NULL)
        return enc_fail(c->d, ENG_INVALID, "name: is required (or side: "
                        "for a group save)");
    bool pass;
    return fac_save(c, who, attr, label, &pass);
}

enum eng_err fac_cmd_chase(struct rs_call *c)
{
    int side = rs_arg(c, "side")->side;
    RS_SAY(c, NULL, "Chase: a group AGI save for {} to get away",
           RS_A_SIDE(c->e, side));
    return fac_group_save(c, side, "agi", N_("AGI save to escape"), true);
}

/* ---- after the fight ---------------------------------------------------- */

enum eng_err fac_cmd_durability(struct rs_call *c)
{
    static const struct {
        int32_t bit;
        const char *name;
    } items[] = {
        {FAC_GEAR_WEAPON, N_("weapon")},
        {FAC_GEAR_SHIELD, N_("shield")},
        {FAC_GEAR_ARMOUR, N_("armour")},
    };
    struct encounter *e = c->e;
    int n = 0;
    for (int i = 0; i < e->ncs; i++) {
        const struct enc_combatant *w = &e->cs[i];
        int32_t g = FAC_C(w)->gear;
        if (g == 0)
            continue;
        /* Each item its own argument, so each is looked up as a word. */
        const char *it[sizeof items / sizeof items[0]];
        int m = 0;
        for (size_t k = 0; k < sizeof items / sizeof items[0]; k++)
            if (g & items[k].bit)
                it[m++] = items[k].name;
        if (m == 1)
            RS_SAY(c, w, "{}: durability roll for {}", RS_A_WHO(w),
                   RS_A_TEXT(it[0]));
        else if (m == 2)
            RS_SAY(c, w, "{}: durability roll for {}, {}", RS_A_WHO(w),
                   RS_A_TEXT(it[0]), RS_A_TEXT(it[1]));
        else if (m == 3)
            RS_SAY(c, w, "{}: durability roll for {}, {}, {}", RS_A_WHO(w),
                   RS_A_TEXT(it[0]), RS_A_TEXT(it[1]), RS_A_TEXT(it[2]));
        n++;
    }
    if (n == 0)
        rs_say0(c, NULL, "No weapon or armour was used");
    return ENG_OK;
}
