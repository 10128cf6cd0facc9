/*
 * rs_factions_fight.c - the `factions` ruleset: the pure rules, saves,
 * reactions, harm, morale and the ruleset's own commands.
 *
 * Saves roll 1d20 against STR, AGI or WIT and pass at or below the score
 * (README default; setting save=below makes it strictly below). A reaction
 * is the character's turn for the round taken out of order. Morale is
 * checked in the morale phase at the end of each round. Attacks are in
 * rs_factions_attack.c.
 */
#include "rs_factions.h"

#include <stdio.h>
#include <string.h>

#include "eng_text.h"
#include "rs_kit.h"
#include "turn.h"

/* ---- pure rules ------------------------------------------------------------ */

bool fac_rule_save(int64_t roll, int64_t attr, bool strict)
{
    return strict ? roll < attr : roll <= attr;
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

enum eng_err fac_rule_hit(unsigned how, bool *need, const char **why)
{
    bool far = how & FAC_AT_FAR, moving = how & FAC_AT_MOVING;
    bool unseen = how & FAC_AT_UNSEEN, hard = how & FAC_AT_CHALLENGING;
    *why = NULL;
    if (how & FAC_AT_INDIRECT) {
        if (moving)
            *why = "an indirect attack cannot be made while moving";
        else if (!far)
            *why = "an indirect attack can only target beyond half range";
        *need = true;
    } else if (how & FAC_AT_RANGED) {
        if (far && moving)
            *why = "a ranged attack beyond half range is not possible while "
                   "moving";
        else if (unseen)
            *why = "a ranged attack needs a visible target (indirect attacks "
                   "excepted)";
        *need = far || moving || hard;
    } else {
        *need = unseen || hard;
    }
    return *why != NULL ? ENG_STATE : ENG_OK;
}

/* ---- helpers ---------------------------------------------------------------- */

bool fac_in_fight(const struct enc_combatant *w)
{
    return turn_can_act(w) && !fac_has_cond(w, FAC_COND_BROKEN) &&
           !fac_has_cond(w, FAC_COND_SURRENDERED);
}

static bool fac_strict(const struct encounter *e)
{
    const char *v = enc_setting(e, "save");
    return v != NULL && eng_text_casecmp(v, "below") == 0;
}

enum eng_err fac_need_attr(struct rs_call *c,
                                  const struct enc_combatant *who,
                                  const char *attr)
{
    if (enc_stat_or(who, attr, -1) >= 0)
        return ENG_OK;
    enc_fail(c->d, ENG_STATE, "%s has no %s score to save with", who->name,
             attr);
    enc_hint(c->d, "/combat set name:\"%s\" stats:\"%s=10\"", who->name, attr);
    return ENG_STATE;
}

enum eng_err fac_save(struct rs_call *c, struct enc_combatant *who,
                      const char *attr, const char *label, bool *pass)
{
    enum eng_err err = fac_need_attr(c, who, attr);
    if (err != ENG_OK)
        return err;
    int64_t score = enc_stat_or(who, attr, 0);
    char lab[48];
    snprintf(lab, sizeof lab, "%.20s: %s", who->name, label);
    struct rs_rolled r;
    err = rs_roll(c, NULL, lab, "1d20", &r);
    if (err != ENG_OK)
        return err;
    *pass = fac_rule_save(r.total, score, fac_strict(c->e));
    struct enc_event *ev = rs_test_event(c, ENC_EV_TEST, who, NULL, label,
                                         r.total, score,
                                         *pass ? "pass" : "fail");
    ev->a = r.total;
    ev->b = score;
    ev->c = *pass;
    rs_ev_roll(c, ev, r.roll_idx);
    ev->secret = who->hidden;
    return ENG_OK;
}

enum eng_err fac_check_react(struct rs_call *c, struct enc_combatant *who)
{
    enum eng_err err = rs_require_actor(c, who);
    if (err != ENG_OK)
        return err;
    if (c->e->status != ENC_ST_RUNNING)
        return enc_fail(c->d, ENG_STATE, "the fight has not begun");
    if (!turn_can_act(who))
        return enc_fail(c->d, ENG_STATE, "%s is out of the fight and cannot "
                        "react", who->name);
    if (who->flags & ENC_CF_ACTED)
        return enc_fail(c->d, ENG_STATE, "%s has already taken a turn this "
                        "round and cannot react", who->name);
    return ENG_OK;
}

void fac_spend_reaction(struct rs_call *c, struct enc_combatant *who,
                        const char *what)
{
    /* The reaction is the character's turn for the round, taken out of
     * order: its turn boundaries run (so durations on it count down), then
     * the interrupted turn carries on. */
    struct encounter *e = c->e;
    uint32_t resumed = e->current;
    who->flags |= ENC_CF_ACTED;
    who->rs[FAC_C_REACTED] = e->round;
    turn_start(c, who);
    fac_say(c, who->id, false, "%.40s reacts: %.40s (turn spent)", who->name,
            what);
    turn_end(c);
    e->current = resumed;
}

void fac_harmed(struct rs_call *c, struct enc_combatant *who)
{
    /* Only a surrendering character is freed by harm (a broken one who is
     * retreating stays broken). */
    if (!fac_has_cond(who, FAC_COND_SURRENDERED))
        return;
    enc_cond_remove(c->e, who, FAC_COND_SURRENDERED, c->r, NULL);
    if (fac_has_cond(who, FAC_COND_BROKEN))
        enc_cond_remove(c->e, who, FAC_COND_BROKEN, c->r, NULL);
    who->rs[FAC_C_MORALE] = FAC_MOR_UNTESTED;
    fac_say(c, who->id, false, "%.40s was harmed while surrendering and may "
            "fight again", who->name);
}

/* The track rule: down at 0; a loss that leaves hp at half or less marks
 * the morale trigger of a character fighting alone; harm by an enemy (or
 * by the GM's hand) frees a surrendering character. */
static void fac_track_rule(struct rs_call *c, struct enc_combatant *who,
                           const char *track, int64_t before, bool enemy)
{
    rs_default_after_track(c, who, track, before);
    const struct enc_track *t = enc_track_c(who, "hp");
    if (t == NULL || eng_text_casecmp(track, "hp") != 0 || t->cur >= before)
        return;
    if (fac_rule_morale_lone(t->cur, t->max))
        who->rs[FAC_C_HALVED] = 1;
    if (enemy)
        fac_harmed(c, who);
}

void fac_after_track(struct rs_call *c, struct enc_combatant *who,
                     const char *track, int64_t before)
{
    fac_track_rule(c, who, track, before, true);
}

/* Take amount from who's hp, with the events. */
void fac_hurt(struct rs_call *c, struct enc_combatant *from,
                     struct enc_combatant *who, int64_t amount, int roll)
{
    struct enc_event *dv = enc_emit(c->r, ENC_EV_DAMAGE, from->id);
    dv->other = who->id;
    dv->a = amount;
    enc_event_roll(c->r, dv, roll);
    dv->secret = who->hidden;
    struct enc_track *hp = enc_track(who, "hp");
    if (hp == NULL || amount <= 0)
        return;
    int64_t before = hp->cur;
    hp->cur = before - amount < -ENC_MAX_VALUE ? -ENC_MAX_VALUE :
              before - amount;
    struct enc_event *hv = enc_emit(c->r, ENC_EV_HP, who->id);
    hv->text = enc_result_strdup(c->r, "hp", 4096);
    hv->a = before;
    hv->b = hp->cur;
    hv->secret = who->hidden;
    fac_track_rule(c, who, "hp", before, from == NULL ||
                   from->side != who->side);
}

int64_t fac_armour(const struct enc_combatant *w)
{
    return enc_stat_or(w, FAC_STAT_ARMOUR, 0) +
           enc_stat_or(w, FAC_STAT_SHIELD, 0);
}

/* Destroy who's damaged shield or armour when a hit of raw damage calls
 * for it: the item's stats are removed. */
static void fac_break_gear(struct rs_call *c, struct enc_combatant *who,
                           int64_t raw)
{
    enum fac_break b = fac_rule_break(
        raw, enc_stat_or(who, FAC_STAT_SHIELD_DAMAGED, 0) != 0,
        enc_stat_or(who, FAC_STAT_ARMOUR_DAMAGED, 0) != 0);
    if (b == FAC_BREAK_NONE)
        return;
    bool shield = b == FAC_BREAK_SHIELD;
    enc_stat_remove(who, shield ? FAC_STAT_SHIELD : FAC_STAT_ARMOUR);
    enc_stat_remove(who, shield ? FAC_STAT_SHIELD_DAMAGED :
                    FAC_STAT_ARMOUR_DAMAGED);
    who->rs[FAC_C_GEAR] &= ~(int64_t)(shield ? FAC_GEAR_SHIELD :
                                      FAC_GEAR_ARMOUR);
    struct enc_event *ev = enc_emit(c->r, ENC_EV_STAT, who->id);
    ev->secret = who->hidden;
    fac_say(c, who->id, false, "%.40s's damaged %s is destroyed by %lld "
            "damage", who->name, shield ? "shield" : "armour",
            (long long)raw);
}

void fac_land(struct rs_call *c, struct enc_combatant *from,
              struct enc_combatant *who, int64_t raw, int64_t amount,
              int roll)
{
    fac_break_gear(c, who, raw);
    fac_hurt(c, from, who, amount, roll);
}

/* ---- morale ------------------------------------------------------------------- */

/* Group WIT save for side's members still subject to morale. */
static enum eng_err fac_morale_check(struct rs_call *c, int side)
{
    struct encounter *e = c->e;
    fac_say(c, 0, false, "%s makes a morale check (group WIT save)",
            e->sides[side].name);
    for (int i = 0; i < e->ncs; i++) {
        struct enc_combatant *w = &e->cs[i];
        if (w->side != side || !fac_in_fight(w) ||
            w->rs[FAC_C_MORALE] != FAC_MOR_UNTESTED)
            continue;
        if (enc_stat_or(w, "fearless", 0) != 0) {
            fac_say(c, w->id, false, "%.40s is immune to fear", w->name);
            continue;
        }
        if (enc_stat_or(w, "wit", -1) < 0) {
            fac_say(c, w->id, false, "%.40s has no wit score: the GM "
                    "decides", w->name);
            continue;
        }
        bool pass;
        enum eng_err err = fac_save(c, w, "wit", "morale (WIT save)", &pass);
        if (err != ENG_OK)
            return err;
        if (pass) {
            w->rs[FAC_C_MORALE] = FAC_MOR_STEADY;
            continue;
        }
        w->rs[FAC_C_MORALE] = FAC_MOR_BROKEN;
        struct enc_cond_req q = {.name = FAC_COND_BROKEN};
        err = enc_cond_add(e, w, &q, c->r, c->d);
        if (err != ENG_OK)
            return err;
        fac_say(c, w->id, false, "%.40s must surrender or retreat", w->name);
    }
    return ENG_OK;
}

/* Whether side must check morale now. */
static bool fac_morale_due(const struct encounter *e, int side)
{
    int64_t start = e->sides[side].rs[FAC_S_START], now = 0;
    const struct enc_combatant *lone = NULL;
    for (int i = 0; i < e->ncs; i++)
        if (e->cs[i].side == side) {
            now += fac_in_fight(&e->cs[i]);
            lone = &e->cs[i];
        }
    if (fac_rule_morale_group(start, now))
        return now > 0;
    if (start == 1 && lone != NULL && fac_in_fight(lone))
        return lone->rs[FAC_C_HALVED] != 0;
    return false;
}

void fac_morale_phase(struct rs_call *c)
{
    struct encounter *e = c->e;
    const char *on = enc_setting(e, "morale");
    bool enabled = true;
    if (on != NULL && !eng_text_to_bool(on, &enabled))
        enabled = true;
    if (!enabled)
        return;
    for (int s = 0; s < e->nsides; s++) {
        if (!fac_morale_due(e, s))
            continue;
        bool any = false;
        for (int i = 0; i < e->ncs; i++)
            any |= e->cs[i].side == s && fac_in_fight(&e->cs[i]) &&
                   e->cs[i].rs[FAC_C_MORALE] == FAC_MOR_UNTESTED;
        if (any)
            (void)fac_morale_check(c, s);
    }
}

/* ---- commands ------------------------------------------------------------------ */

static enum eng_err fac_opt_attr(struct rs_call *c, const char *opt,
                                 const char *dflt, const char **out)
{
    const char *v = rs_opt(c->opts, c->nopts, opt);
    if (v == NULL)
        v = dflt;
    static const char *const attrs[] = {"str", "agi", "wit"};
    for (size_t i = 0; v != NULL && i < 3; i++)
        if (eng_text_casecmp(v, attrs[i]) == 0) {
            *out = attrs[i];
            return ENG_OK;
        }
    return enc_fail(c->d, ENG_INVALID, "%s: must be str, agi or wit", opt);
}

static enum eng_err fac_opt_side(struct rs_call *c, int *side)
{
    const char *name = rs_opt(c->opts, c->nopts, "side");
    *side = -1;     /* no side, on every failure path */
    if (name == NULL || name[0] == '\0')
        return enc_fail(c->d, ENG_INVALID, "side: is required");
    *side = enc_side_find(c->e, name);
    if (*side < 0)
        return enc_fail(c->d, ENG_NOTFOUND, "no faction named %.32s", name);
    return ENG_OK;
}

/* A group save: every member of side still in the fight. */
static enum eng_err fac_group_save(struct rs_call *c, int side,
                                   const char *attr, const char *label,
                                   const char *yes, const char *no)
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
        if (yes != NULL)
            fac_say(c, w->id, false, "%.40s %s", w->name, pass ? yes : no);
        n++;
    }
    if (n == 0)
        return enc_fail(c->d, ENG_STATE, "nobody of %s is in the fight",
                        e->sides[side].name);
    return ENG_OK;
}

enum eng_err fac_cmd_test(struct rs_call *c)
{
    const char *attr = "str";
    enum eng_err err = fac_opt_attr(c, "save", NULL, &attr);
    if (err != ENG_OK)
        return err;
    char label[24];
    snprintf(label, sizeof label, "%c%c%c save", attr[0] - 32, attr[1] - 32,
             attr[2] - 32);
    if (rs_opt(c->opts, c->nopts, "side") != NULL) {
        int side;
        err = fac_opt_side(c, &side);
        if (err != ENG_OK)
            return err;
        if (!c->is_gm)
            return enc_fail(c->d, ENG_PERM, "only the GM calls for a group "
                            "save");
        return fac_group_save(c, side, attr, label, NULL, NULL);
    }
    struct enc_combatant *who;
    err = rs_opt_combatant(c, "name", &who);
    if (err != ENG_OK)
        return err;
    err = rs_require_actor(c, who);
    if (err != ENG_OK)
        return err;
    bool pass;
    return fac_save(c, who, attr, label, &pass);
}

enum eng_err fac_cmd_chase(struct rs_call *c)
{
    int side;
    enum eng_err err = fac_opt_side(c, &side);
    if (err != ENG_OK)
        return err;
    if (!c->is_gm)
        return enc_fail(c->d, ENG_PERM, "only the GM calls for a chase");
    fac_say(c, 0, false, "%s flees: group AGI save", c->e->sides[side].name);
    return fac_group_save(c, side, "agi", "AGI save to escape", "escapes",
                          "is reached by the pursuers");
}

enum eng_err fac_cmd_react(struct rs_call *c)
{
    struct enc_combatant *who;
    enum eng_err err = rs_opt_combatant(c, "name", &who);
    if (err != ENG_OK)
        return err;
    const char *kind = rs_opt(c->opts, c->nopts, "kind");
    static const char *const kinds[] = {"dodge", "counter", "hide", "guard",
                                        "opportunity", "other", "none",
                                        "accept"};
    enum { NKINDS = sizeof kinds / sizeof kinds[0] };
    size_t k = 0;
    while (kind != NULL && k < NKINDS && eng_text_casecmp(kind, kinds[k]) != 0)
        k++;
    if (kind == NULL || k == NKINDS)
        return enc_fail(c->d, ENG_INVALID, "kind: must be dodge, counter, "
                        "hide, guard, opportunity, other, none or accept");
    if (c->e->status != ENC_ST_RUNNING)
        return enc_fail(c->d, ENG_STATE, "the fight has not begun");
    /* The answer to an attack that waits for it. */
    bool handled;
    err = fac_react_pending(c, who, kinds[k], &handled);
    if (err != ENG_OK || handled)
        return err != ENG_OK ? err : fac_recheck(c);
    /* A reaction on its own: the turn is spent; a dodge rolls its save. */
    err = fac_check_react(c, who);
    if (err == ENG_OK && k == 0)
        err = fac_need_attr(c, who, "agi");
    if (err != ENG_OK)
        return err;
    fac_spend_reaction(c, who, kinds[k]);
    if (k == 0) {
        bool pass;
        err = fac_save(c, who, "agi", "AGI save to dodge", &pass);
        if (err != ENG_OK)
            return err;
        fac_say(c, who->id, false, pass ? "%.40s dodges: the attack misses" :
                "%.40s fails to dodge", who->name);
    }
    return fac_recheck(c);
}

enum eng_err fac_cmd_morale(struct rs_call *c)
{
    int side;
    enum eng_err err = fac_opt_side(c, &side);
    if (err != ENG_OK)
        return err;
    if (!c->is_gm)
        return enc_fail(c->d, ENG_PERM, "only the GM calls for a morale "
                        "check");
    return fac_morale_check(c, side);
}

enum eng_err fac_cmd_durability(struct rs_call *c)
{
    struct encounter *e = c->e;
    int n = 0;
    for (int i = 0; i < e->ncs; i++) {
        const struct enc_combatant *w = &e->cs[i];
        int64_t g = w->rs[FAC_C_GEAR];
        if (g == 0)
            continue;
        char what[64] = "";
        static const struct {
            int64_t bit;
            const char *name;
        } items[] = {
            {FAC_GEAR_WEAPON, "weapon"},
            {FAC_GEAR_SHIELD, "shield"},
            {FAC_GEAR_ARMOUR, "armour"},
        };
        for (size_t k = 0; k < sizeof items / sizeof items[0]; k++)
            if (g & items[k].bit) {
                size_t len = strlen(what);
                snprintf(what + len, sizeof what - len, "%s%s",
                         len > 0 ? ", " : "", items[k].name);
            }
        fac_say(c, w->id, false, "%.40s: durability roll for %s", w->name,
                what);
        n++;
    }
    if (n == 0)
        fac_say(c, 0, false, "no weapon or armour was used");
    return ENG_OK;
}

