/*
 * rs_teams_combat.c - the arithmetic of attacks and damage, and damage,
 * unconsciousness and death for the `teams` ruleset (see rs_teams.h).
 */
#include "rs_teams.h"

#include <stdio.h>
#include <string.h>

#include "eng_text.h"

/* ---- damage types ------------------------------------------------------- */

static const struct {
    const char *name;
    enum te_dmg_class cls;
} te_types[] = {
    {"arcane", TE_DMG_ELEMENTAL},    {"bludgeoning", TE_DMG_PHYSICAL},
    {"cold", TE_DMG_ELEMENTAL},      {"fire", TE_DMG_ELEMENTAL},
    {"piercing", TE_DMG_PHYSICAL},   {"psychic", TE_DMG_TYPELESS},
    {"radiant", TE_DMG_ELEMENTAL},   {"shock", TE_DMG_ELEMENTAL},
    {"slashing", TE_DMG_PHYSICAL},   {"void", TE_DMG_ELEMENTAL},
    {"physical", TE_DMG_PHYSICAL},   {"elemental", TE_DMG_ELEMENTAL},
    {"typeless", TE_DMG_TYPELESS},
};

const char *const te_type_names[] = {
    "arcane", "bludgeoning", "cold", "fire", "piercing", "psychic",
    "radiant", "shock", "slashing", "void", "physical", "elemental",
    "typeless", NULL,
};

bool te_damage_class(const char *name, enum te_dmg_class *out)
{
    for (size_t i = 0; i < sizeof te_types / sizeof te_types[0]; i++)
        if (eng_text_casecmp(name, te_types[i].name) == 0) {
            *out = te_types[i].cls;
            return true;
        }
    return false;
}

/* ---- pure resolution ---------------------------------------------------- */

int te_advantage(int adv, int dis)
{
    int n = adv - dis;
    if (n > TE_MAX_TESTS - 1)
        n = TE_MAX_TESTS - 1;
    if (n < -(TE_MAX_TESTS - 1))
        n = -(TE_MAX_TESTS - 1);
    return n;
}

void te_attack_resolve(const struct te_attack_in *in,
                       struct te_attack_out *out)
{
    memset(out, 0, sizeof *out);
    int64_t kept = in->tests[0];
    for (int i = 1; i < in->ntests; i++)
        if ((in->adv > 0 && in->tests[i] > kept) ||
            (in->adv < 0 && in->tests[i] < kept)) {
            kept = in->tests[i];
            out->kept_idx = i;
        }
    out->kept = kept;
    out->result = kept - in->map * in->prior_attacks;
    /* Larger attackers see a bigger target to hit and a thinner guard. */
    out->evasion = in->evasion + in->size_diff;
    out->deflection = in->deflection - in->size_diff;
    if (out->deflection < 0)
        out->deflection = 0;
    out->crit = in->luck >= in->crit_threshold;
    if (!out->crit && in->stray_possible && in->luck <= 1) {
        out->stray = true;
        return;
    }
    out->hit = out->crit || out->result >= out->evasion;
    if (!out->hit)
        return;
    out->raw = out->result + (out->crit ? in->crit_damage : in->damage);
    int64_t dealt = in->reducible ? out->raw - out->deflection : out->raw;
    out->damage = dealt < 1 ? 1 : dealt;
}

void te_damage_apply(struct te_body *b, int64_t amount, bool nonlethal,
                     struct te_damage_out *out)
{
    memset(out, 0, sizeof *out);
    if (amount < 0)
        amount = 0;
    int64_t en = b->endurance > 0 ? b->endurance : 0;
    out->to_endurance = amount < en ? amount : en;
    b->endurance -= out->to_endurance;
    int64_t rest = amount - out->to_endurance;
    int64_t hp_before = b->health > 0 ? b->health : 0;
    out->to_health = rest < hp_before ? rest : hp_before;
    b->health -= out->to_health;
    if (rest > 0) {
        if (hp_before <= 0) {
            /* Already at zero: any more damage risks death. */
            out->risk_death = true;
        } else if (b->health <= 0) {
            out->unconscious = true;
            out->risk_death = rest > hp_before && !nonlethal;
        } else {
            int64_t missing = b->health_max - b->health;
            if (missing > b->con)
                out->fortify_dc = missing;
        }
    }
    out->harmed = b->endurance_max > 0 && b->endurance * 2 <= b->endurance_max;
    out->bloodied = b->health < b->health_max;
}

void te_block_apply(int64_t raw, int64_t block, int64_t durability,
                    struct te_block_out *out)
{
    int64_t left = raw - block;
    if (left < 1)
        left = 1;
    out->to_item = left < durability ? left : durability;
    out->through = left - out->to_item;
    out->durability = durability - out->to_item;
}

/* ---- rolling helpers ---------------------------------------------------- */

enum eng_err te_stat_expr(struct rs_call *c, const struct enc_combatant *who,
                          const char *attr, const char *skill,
                          const char *bonus, char *buf, size_t n)
{
    int64_t a = enc_stat_or(who, attr, 0);
    if (a <= 0) {
        enc_fail(c->d, ENG_STATE, "%s has no %s die for this test",
                 who->name, attr);
        enc_hint(c->d, "/combat set name:\"%s\" stats:\"%s=6\" or give "
                 "roll:", who->name, attr);
        return ENG_STATE;
    }
    /* Dice sizes are at most TE_MAX_DIE and bonuses at most ENC_MAX_VALUE,
     * so the expression fits any buffer of DICE_MAX_EXPR_LEN. */
    size_t at = (size_t)snprintf(buf, n, "1d%lld", (long long)a);
    int64_t s = skill ? enc_stat_or(who, skill, 0) : 0;
    if (s > 0 && at < n)
        at += (size_t)snprintf(buf + at, n - at, "+1d%lld", (long long)s);
    int64_t k = bonus ? enc_stat_or(who, bonus, 0) : 0;
    if (k != 0 && at < n)
        snprintf(buf + at, n - at, "%+lld", (long long)k);
    return ENG_OK;
}

void te_luck_expr(const struct enc_combatant *who, char *buf, size_t n)
{
    int64_t luck = enc_stat_or(who, "luck", 0);
    if (luck != 0)
        snprintf(buf, n, "1d%d%+lld", TE_LUCK_DIE, (long long)luck);
    else
        snprintf(buf, n, "1d%d", TE_LUCK_DIE);
}

enum eng_err te_luck_test(struct rs_call *c, struct enc_combatant *who,
                          const char *label, int64_t dc, bool *passed)
{
    char expr[48];
    te_luck_expr(who, expr, sizeof expr);
    struct rs_rolled r;
    enum eng_err err = rs_roll(c, who, label, expr, &r);
    if (err != ENG_OK)
        return err;
    *passed = r.total >= dc;
    struct enc_event *ev =
        rs_test_event(c, ENC_EV_TEST, who, NULL, label, r.total, dc,
                      *passed ? N_("success") : N_("failure"));
    rs_ev_roll(c, ev, r.roll_idx);
    return ENG_OK;
}

/* ---- damage ------------------------------------------------------------- */

static void te_track_event(struct rs_call *c, struct enc_combatant *who,
                           const char *track, int64_t before, int64_t after)
{
    if (before == after)
        return;
    struct enc_event *ev = enc_emit(c->r, ENC_EV_HP, who->id);
    ev->text = enc_result_strdup(c->r, track, ENC_MAX_STAT_NAME);
    ev->a = before;
    ev->b = after;
    ev->secret = who->hidden;
}

/* The death test after damage beyond the health left: a luck test against
 * the character's difficulty, which a survivor sees rise for good. */
static enum eng_err te_death_test(struct rs_call *c, struct enc_combatant *who)
{
    int64_t dc = enc_stat_or(who, "death_dc", te_setting(c->e, "death_dc"));
    bool passed;
    enum eng_err err = te_luck_test(c, who, N_("death test"), dc, &passed);
    if (err != ENG_OK)
        return err;
    if (!passed) {
        te_kill(c, who);
        return ENG_OK;
    }
    int64_t next = dc + te_setting(c->e, "death_step");
    err = enc_stat_set(who, "death_dc", next, c->d);
    if (err != ENG_OK)
        return err;
    RS_SAY(c, who, "{} cheats death (their death test is now {})",
           RS_A_WHO(who), RS_A_SECRET(next, who->hidden));
    return ENG_OK;
}

/* Missing more health than constitution: fortify against dc or fall.
 * Fortifying is a reaction and costs 1 stamina, so without either the
 * character falls at once. */
static void te_fortify_or_fall(struct rs_call *c, struct enc_combatant *who,
                               int64_t dc)
{
    struct te_comb *st = TE_C(who);
    const struct enc_track *stamina = enc_track_c(who, TE_STAMINA);
    const char *lacks = st->reactions <= 0 ? N_("no reaction")
                        : stamina == NULL || stamina->cur < 1 ? N_("no stamina")
                                                              : NULL;
    if (lacks != NULL) {
        RS_SAY(c, who, "{} must fortify against {} but has {} left, and "
               "falls unconscious", RS_A_WHO(who),
               RS_A_SECRET(dc, who->hidden), RS_A_TEXT(lacks));
        te_knock_out(c, who);
        return;
    }
    st->fortify = (int32_t)dc;
    struct enc_event *ev = RS_SAY(c, who, "{} must fortify against {} or "
                                  "fall unconscious", RS_A_WHO(who),
                                  RS_A_SECRET(dc, who->hidden));
    ev->kind = ENC_EV_PROMPT;
    ev->a = TE_PROMPT_FORTIFY;
}

enum eng_err te_deal_damage(struct rs_call *c, struct enc_combatant *who,
                            int64_t amount, bool nonlethal)
{
    struct enc_track *hp = enc_track(who, TE_HEALTH);
    struct enc_track *en = enc_track(who, TE_ENDURANCE);
    if (hp == NULL) {
        enc_fail(c->d, ENG_STATE, "%s has no health to damage", who->name);
        enc_hint(c->d, "/combat set name:\"%s\" stats:\"hp=12 "
                 "endurance=12\"", who->name);
        return ENG_STATE;
    }
    struct te_body b = {
        .endurance = en ? en->cur : 0,
        .endurance_max = en ? en->max : 0,
        .health = hp->cur,
        .health_max = hp->max,
        .con = enc_stat_or(who, "con", 0),
    };
    struct te_damage_out o;
    te_damage_apply(&b, amount, nonlethal, &o);
    if (en != NULL) {
        te_track_event(c, who, TE_ENDURANCE, en->cur, b.endurance);
        en->cur = b.endurance;
    }
    te_track_event(c, who, TE_HEALTH, hp->cur, b.health);
    hp->cur = b.health;
    if (who->flags & ENC_CF_DEAD)
        return ENG_OK;
    if (o.harmed && o.to_endurance > 0)
        RS_SAY(c, who, "{} is harmed", RS_A_WHO(who));
    if (o.bloodied && o.to_health > 0)
        RS_SAY(c, who, "{} is bloodied", RS_A_WHO(who));
    if (o.unconscious)
        te_knock_out(c, who);
    if (o.risk_death) {
        enum eng_err err = te_death_test(c, who);
        if (err != ENG_OK)
            return err;
    }
    if (o.fortify_dc > 0 && !(who->flags & ENC_CF_DOWN))
        te_fortify_or_fall(c, who, o.fortify_dc);
    return ENG_OK;
}
