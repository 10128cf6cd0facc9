/*
 * rs_tactical_atk.c - /attack in the tactical ruleset: single attacks,
 * bursts, blasts and templates, with their effects.
 *
 * The options arrive bound to the declared tokens (rs_tactical_decl.c):
 * "effects=Knockdown(2),Shock(1) ap=1 crit", "burst=4", "blast=2
 * factors=1 also=B,C". An option the kind of attack has no use for is
 * refused, and everything is checked before anything is spent.
 */
#include <stdio.h>
#include <string.h>

#include "eng_text.h"
#include "rs_kit.h"
#include "rs_tactical.h"

struct tac_fx_use {
    const struct tac_fx *fx;
    int x;
};

struct tac_aopts {
    struct tac_fx_use fx[TAC_MAX_ATTACK_FX];
    int nfx;
    const char *effects;      /* the effects= text, or NULL */
    int64_t ap;               /* AP the attack costs (1) */
    bool crit, miss, sneak, tyt, exert, placed, conductor, melee, ranged;
    int64_t need;             /* successes the attack roll needs (1) */
    int64_t adv, dis;
    int64_t burst;            /* burst value; 0 = not a burst */
    int64_t blast, templ;     /* area size; 0 = none */
    int64_t factors;          /* blast aim difficulty factors */
    const char *also;         /* more names in the area, or NULL */
    int64_t pool;             /* roll: as a number of dice; -1: none */
};

/* The effects= list: "Name(X)" words separated by commas or spaces. */
static enum eng_err tac_read_effects(struct rs_call *c, const char *text,
                                     struct tac_aopts *o)
{
    const char *p = text;
    while (*p != '\0') {
        while (*p == ' ' || *p == ',')
            p++;
        size_t n = strcspn(p, " ,");
        if (n == 0)
            break;
        char word[TAC_MAX_FX_TEXT + 1];
        memcpy(word, p, n);
        word[n] = '\0';
        p += n;
        if (o->nfx >= TAC_MAX_ATTACK_FX)
            return enc_fail(c->d, ENG_LIMIT, "effects: at most %d on one "
                            "attack", TAC_MAX_ATTACK_FX);
        struct tac_fx_use *u = &o->fx[o->nfx];
        enum eng_err err = tac_fx_word(c, word, true, "effects", &u->fx,
                                       &u->x);
        if (err != ENG_OK)
            return err;
        o->nfx++;
    }
    return ENG_OK;
}

/* The bound options into o. */
static enum eng_err tac_read_aopts(struct rs_call *c,
                                   const struct rs_attack *a,
                                   struct tac_aopts *o)
{
    struct rs_call ac = *c;
    ac.args = a->args;
    ac.nargs = a->nargs;
    memset(o, 0, sizeof *o);
    o->effects = rs_arg_text(&ac, "effects", NULL);
    o->ap = rs_arg_int(&ac, "ap", 1);
    o->need = rs_arg_int(&ac, "need", 1);
    o->adv = rs_arg_int(&ac, "adv", 0);
    o->dis = rs_arg_int(&ac, "dis", 0);
    o->burst = rs_arg_int(&ac, "burst", 0);
    o->blast = rs_arg_int(&ac, "blast", 0);
    o->templ = rs_arg_int(&ac, "template", 0);
    o->factors = rs_arg_int(&ac, "factors", 0);
    o->also = rs_arg_text(&ac, "also", NULL);
    static const struct {
        const char *name;
        size_t off;
    } flags[] = {
        {"crit", offsetof(struct tac_aopts, crit)},
        {"miss", offsetof(struct tac_aopts, miss)},
        {"sneak", offsetof(struct tac_aopts, sneak)},
        {"tyt", offsetof(struct tac_aopts, tyt)},
        {"exert", offsetof(struct tac_aopts, exert)},
        {"placed", offsetof(struct tac_aopts, placed)},
        {"conductor", offsetof(struct tac_aopts, conductor)},
        {"melee", offsetof(struct tac_aopts, melee)},
        {"ranged", offsetof(struct tac_aopts, ranged)},
    };
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        *(bool *)((char *)o + flags[i].off) = rs_arg_bool(&ac, flags[i].name,
                                                           false);
    o->pool = -1;
    if (a->roll != NULL && eng_text_to_int(a->roll, &o->pool) &&
        (o->pool < 0 || o->pool > TAC_MAX_POOL))
        return enc_fail(c->d, ENG_RANGE, "roll: a pool must be 0 to %d dice",
                        TAC_MAX_POOL);
    return o->effects != NULL ? tac_read_effects(c, o->effects, o) : ENG_OK;
}

/* Refuse what this kind of attack would not use. */
static enum eng_err tac_check_aopts(struct rs_call *c,
                                    const struct rs_attack *a,
                                    const struct tac_aopts *o)
{
    struct rs_call ac = *c;
    ac.args = a->args;
    ac.nargs = a->nargs;
    bool area = o->blast > 0 || o->templ > 0;
    if ((o->burst > 0) + (o->blast > 0) + (o->templ > 0) > 1)
        return enc_fail(c->d, ENG_INVALID, "an attack is one of burst=, "
                        "blast= or template=");
    if (o->also != NULL && !area)
        return enc_fail(c->d, ENG_INVALID, "also= is for blast= and "
                        "template= attacks");
    if ((rs_arg(&ac, "factors") != NULL || o->placed) && o->blast == 0)
        return enc_fail(c->d, ENG_INVALID, "factors= and placed are for "
                        "blast= attacks");
    if (o->melee && o->ranged)
        return enc_fail(c->d, ENG_INVALID, "an attack is melee or ranged, "
                        "not both");
    if ((o->melee || o->ranged) && (area || o->burst > 0))
        return enc_fail(c->d, ENG_INVALID, "melee and ranged are for single "
                        "attacks (a burst is ranged; an area attack does not "
                        "roll to hit)");
    if (o->miss && o->crit)
        return enc_fail(c->d, ENG_INVALID, "an attack is a critical hit or a "
                        "miss, not both");
    if (o->miss && (a->roll != NULL || area || o->burst > 0))
        return enc_fail(c->d, ENG_INVALID, "miss records a single attack "
                        "that missed, without roll:");
    if (rs_arg(&ac, "need") != NULL && (a->roll == NULL || area ||
                                        o->burst > 0))
        return enc_fail(c->d, ENG_INVALID, "need= is for a single attack "
                        "with roll:");
    bool aims = o->blast > 0 && !o->placed;
    if (a->roll != NULL && area && !aims)
        return enc_fail(c->d, ENG_INVALID, "roll: is for the aim test of a "
                        "blast; this attack rolls nothing to hit");
    if (a->roll != NULL && o->burst > 0 && o->pool < 0)
        return enc_fail(c->d, ENG_INVALID, "roll: for a burst is a number "
                        "of dice");
    bool rolls = aims || o->burst > 0 || (!area && a->roll != NULL);
    if ((o->adv > 0 || o->dis > 0 || o->exert) && !rolls)
        return enc_fail(c->d, ENG_INVALID, "adv=, dis= and exert change a "
                        "roll, and this attack rolls nothing (give roll: "
                        "for a single attack)");
    return ENG_OK;
}

/* ---- pieces ------------------------------------------------------------- */

/* Roll nD (d6s) as extra damage on dv, with its reason. */
static enum eng_err tac_extra_dice(struct rs_call *c, struct enc_event *dv,
                                   const struct enc_combatant *roller,
                                   int64_t n, const char *reason, int sign,
                                   int64_t *sum)
{
    char expr[16];
    snprintf(expr, sizeof expr, "%lldd6", (long long)n);
    struct rs_rolled r;
    enum eng_err err = rs_roll(c, roller, reason, expr, &r);
    if (err != ENG_OK)
        return err;
    rs_ev_roll(c, dv, r.roll_idx);
    rs_mod(c, dv, reason, sign * r.total, "");
    *sum = sign * r.total;
    return ENG_OK;
}

/* Spend the holder's condition k (Vulnerable, Warded) after use. */
static enum eng_err tac_spend_cond(struct rs_call *c,
                                   struct enc_combatant *who,
                                   const struct enc_cond *k)
{
    char name[ENC_MAX_COND_NAME + 1];
    enc_copy(name, sizeof name, k->name);
    return enc_cond_remove(c->e, who, name, c->r, c->d);
}

/* Damage of one hit on target before armour, as modifiers on dv: Corroded,
 * Serrated on a critical, Vulnerable expended, Warded spent. */
static enum eng_err tac_hit_damage(struct rs_call *c,
                                   const struct rs_attack *a,
                                   struct enc_combatant *target,
                                   const struct tac_aopts *o, bool area,
                                   struct enc_event *dv, int64_t *dmg)
{
    const struct tac_table *t = tac_table_for(c);
    enum eng_err err;
    int64_t add;
    const struct enc_cond *k = tac_flagged(t, target, TAC_CDF_DMG_TAKEN);
    if (k != NULL) {
        rs_mod(c, dv, k->name, tac_stacks(k), "");
        *dmg += tac_stacks(k);
    }
    for (int i = 0; o->crit && i < o->nfx; i++)
        if (o->fx[i].fx->flags & TAC_FXF_CRIT_DIE) {
            err = tac_extra_dice(c, dv, a->attacker, 1, o->fx[i].fx->name, 1,
                                 &add);
            if (err != ENG_OK)
                return err;
            *dmg += add;
        }
    k = tac_flagged(t, target, TAC_CDF_VULNERABLE);
    if (k != NULL && (o->sneak || o->tyt) && !area && o->burst == 0) {
        int64_t n = tac_stacks(k);
        err = tac_extra_dice(c, dv, a->attacker, n > TAC_MAX_VULN_DICE ?
                             TAC_MAX_VULN_DICE : n, k->name, 1, &add);
        if (err == ENG_OK)
            err = tac_spend_cond(c, target, k);
        if (err != ENG_OK)
            return err;
        *dmg += add;
    }
    k = tac_flagged(t, target, TAC_CDF_WARD);
    if (k != NULL) {
        err = tac_extra_dice(c, dv, target, tac_stacks(k), k->name, -1,
                             &add);
        if (err == ENG_OK)
            err = tac_spend_cond(c, target, k);
        if (err != ENG_OK)
            return err;
        *dmg += add;
    }
    if (*dmg < 0)
        *dmg = 0;
    return ENG_OK;
}

static int64_t tac_av_per(const struct tac_aopts *o)
{
    for (int i = 0; o->tyt && i < o->nfx; i++)
        if (o->fx[i].fx->flags & TAC_FXF_DEMOLISH)
            return TAC_DEMOLISH_PER;
    return TAC_AV_PER;
}

static bool tac_no_damage(const struct tac_aopts *o)
{
    for (int i = 0; i < o->nfx; i++)
        if (o->fx[i].fx->flags & TAC_FXF_NO_DAMAGE)
            return true;
    return false;
}

/* What was rolled for damage: the amount per hit and its roll. */
struct tac_base {
    bool have;
    int64_t amount;
    int roll_idx;
    int hits;                 /* a burst: hits kept; 0 otherwise */
};

/* One target struck: damage (halved when it evaded), then effects. */
static enum eng_err tac_strike(struct rs_call *c, const struct rs_attack *a,
                               struct enc_combatant *target,
                               const struct tac_aopts *o, bool area,
                               const struct tac_base *base, bool halve)
{
    int64_t lost = 0;
    enum eng_err err;
    if (base->have && !tac_no_damage(o)) {
        struct enc_event *dv = tac_damage_event(c, target, a->attacker->id);
        rs_ev_roll(c, dv, base->roll_idx);
        int64_t dmg = base->amount;
        if (base->hits > 0) {
            dmg *= base->hits;
            rs_mod_t(c, dv, RS_T("burst: {} hits of {}", RS_A_NUM(base->hits),
                                 RS_A_NUM(base->amount)),
                     false, 0, "", false);
        }
        err = tac_hit_damage(c, a, target, o, area, dv, &dmg);
        if (err != ENG_OK)
            return err;
        if (halve) {
            rs_mod(c, dv, "evaded: half", -(dmg - dmg / 2), "");
            dmg /= 2;
        }
        err = tac_damage_apply(c, dv, target, a->attacker->id, dmg, false,
                               tac_av_per(o), &lost);
        if (err != ENG_OK)
            return err;
    }
    for (int i = 0; i < o->nfx; i++) {
        err = tac_fx_hit(c, target, a->attacker->id, o->fx[i].fx,
                         o->fx[i].x, o->crit, lost);
        if (err != ENG_OK)
            return err;
    }
    return ENG_OK;
}

/* What the target's conditions do to an attack roll against it: Prone
 * (melee: major advantage; ranged: a disadvantage, and cover one degree
 * better), else Flanked (an advantage). Prone counts as flanked, so the
 * two never add. Returns how many modifiers went to out. */
static int tac_target_mods(struct rs_call *c, struct enc_combatant *target,
                           bool melee, struct tac_mod *out,
                           const struct enc_cond **cover)
{
    const struct tac_table *t = tac_table_for(c);
    const struct enc_cond *prone = tac_flagged(t, target, TAC_CDF_PRONE);
    const struct enc_cond *flanked = tac_flagged(t, target, TAC_CDF_FLANKED);
    *cover = NULL;
    if (prone != NULL) {
        out[0] = (struct tac_mod){melee ? N_("{}: major advantage (melee)")
                                        : N_("{}: disadvantage (ranged)"),
                                  prone->name, melee ? TAC_MAJOR : -1};
        if (!melee)
            *cover = prone;
        return 1;
    }
    if (flanked != NULL) {
        out[0] = (struct tac_mod){N_("{}: advantage"), flanked->name, 1};
        return 1;
    }
    return 0;
}

static void tac_cover_note(struct rs_call *c, struct enc_event *ev,
                           const struct enc_cond *prone)
{
    if (prone == NULL)
        return;
    rs_mod_t(c, ev, RS_T("{}: cover one degree better (the GM's)",
                         TAC_A_COND(prone->name)),
             false, 0, "", false);
}

/* ---- the three kinds of attack ------------------------------------------ */

static enum eng_err tac_burst_attack(struct rs_call *c,
                                     const struct rs_attack *a,
                                     const struct tac_aopts *o,
                                     struct tac_base *base)
{
    const struct tac_table *t = tac_table_for(c);
    int64_t aim = enc_stat_or(a->attacker, "aim", 0);
    int64_t ev = tac_passive_evasion(t, a->target);
    struct tac_mod extra[1];
    const struct enc_cond *cover;
    int nextra = tac_target_mods(c, a->target, false, extra, &cover);
    struct tac_roll tr = {
        .who = a->attacker,
        .pool = o->pool >= 0 ? (int)o->pool
                             : (int)(o->burst + (aim > 0 ? aim : 0)),
        .adv = (int)o->adv, .dis = (int)o->dis, .exert = o->exert,
        .burst = true, .over = ev < 0 ? 0 : ev, .why = N_("burst"),
        .kind = ENC_EV_ATTACK,
        .other = a->target,
    };
    struct tac_rolled out;
    enum eng_err err = tac_test_roll(c, &tr, extra, nextra, &out);
    if (err != ENG_OK)
        return err;
    rs_mod_note(c, out.ev, "a burst: each die above passive evasion hits");
    tac_cover_note(c, out.ev, cover);
    struct enc_track *ammo = enc_track(a->attacker, "ammo");
    int64_t left = ammo != NULL ? ammo->cur : TAC_MAX_POOL;
    struct tac_burst_out b = tac_burst_count((int)out.successes, out.dice,
                                             left, base->amount);
    if (b.misses > 0)
        RS_SAY(c, a->attacker, b.misses == 1
                                   ? "{} shot missed {}; it may hit the "
                                     "closest bystander (the GM's call)"
                                   : N_("{} shots missed {}; a stray shot "
                                        "may hit the closest bystander (the "
                                        "GM's call)"),
               RS_A_NUM(b.misses), RS_A_WHO(a->target));
    if (b.discarded > 0)
        RS_SAY(c, a->attacker, b.discarded == 1
                                   ? "{} hit is lost: not enough ammunition"
                                   : N_("{} hits are lost: not enough "
                                        "ammunition"),
               RS_A_NUM(b.discarded));
    if (ammo != NULL) {
        int64_t before = ammo->cur;
        ammo->cur -= o->burst < ammo->cur ? o->burst : ammo->cur;
        tac_track_event(c, a->attacker, "ammo", before, ammo->cur);
    }
    if (b.kept == 0)
        return ENG_OK;
    base->hits = b.kept;
    return tac_strike(c, a, a->target, o, false, base, false);
}

/* Everyone in the area: the target, then the names in also=. Checked
 * before anything is spent. */
static enum eng_err tac_area_targets(struct rs_call *c,
                                     const struct rs_attack *a,
                                     const struct tac_aopts *o,
                                     struct enc_combatant **hit, int *nhit)
{
    *nhit = 0;
    hit[(*nhit)++] = a->target;
    const char *p = o->also != NULL ? o->also : "";
    char name[ENC_MAX_NAME + 1];
    bool too_long;
    while (rs_list_next(&p, name, sizeof name, &too_long)) {
        struct enc_combatant *who = rs_who(c, name, RS_WHO_TARGET);
        if (who == NULL)
            return rs_fail_nobody(c, "also", name);
        bool dup = false;
        for (int i = 0; i < *nhit; i++)
            dup = dup || hit[i] == who;
        if (dup)
            continue;
        if (*nhit == TAC_MAX_TARGETS)
            return enc_fail(c->d, ENG_LIMIT, "also: too many targets (limit "
                            "is %d)", TAC_MAX_TARGETS);
        hit[(*nhit)++] = who;
    }
    if (too_long)
        return enc_fail(c->d, ENG_LIMIT, "also: a name is longer than %d "
                        "bytes", ENC_MAX_NAME);
    return ENG_OK;
}

/* The blast's aim test; false in *lands when it scatters (then the GM
 * places it and the attacker attacks again with placed). */
static enum eng_err tac_aim(struct rs_call *c, const struct rs_attack *a,
                            const struct tac_aopts *o, bool *lands)
{
    static const struct tac_test_def aim = {"dexterity", "aim"};
    int diff = tac_blast_difficulty((int)o->factors);
    struct tac_roll tr = {
        .who = a->attacker, .def = &aim, .pool = (int)o->pool,
        .dice = a->roll != NULL && o->pool < 0 ? a->roll : NULL,
        .adv = (int)o->adv, .dis = (int)o->dis, .exert = o->exert,
        .difficulty = diff, .why = N_("aims the blast"), .kind = ENC_EV_TEST,
    };
    struct tac_rolled out;
    enum eng_err err = tac_test_roll(c, &tr, NULL, 0, &out);
    if (err != ENG_OK)
        return err;
    if (o->factors > 0)
        rs_mod(c, out.ev, "difficulty factors", o->factors, "");
    *lands = out.fail_by == 0;
    if (*lands) {
        RS_SAY(c, a->attacker, "The blast lands where it was aimed (radius "
               "{} ft)", RS_A_NUM(5 * o->blast));
        return ENG_OK;
    }
    struct rs_rolled dir, dist;
    err = rs_roll(c, a->attacker, "direction", "1d6", &dir);
    if (err == ENG_OK)
        err = rs_roll(c, a->attacker, "distance",
                      out.fail_by == 1 ? "1d3" : "1d6", &dist);
    if (err != ENG_OK)
        return err;
    struct tac_scatter_out s = tac_scatter(out.fail_by, (int)dir.total,
                                           (int)dist.total, (int)dist.total);
    TAC_ST(a->attacker)->scatter_turn = (int64_t)c->e->turn_seq;
    RS_SAY(c, a->attacker, "The blast scatters {} \xC3\x97 5 = {} ft "
           "towards {} (on the d6, 1 is north and 4 south) and nobody is hit "
           "yet. When the GM has placed it, attack again with "
           "options:\"blast={} placed{}{} also=...\" naming everyone inside; "
           "that attack costs no AP.", RS_A_ROLL(dist.roll_idx),
           RS_A_NUM(s.feet), RS_A_ROLL(dir.roll_idx), RS_A_NUM(o->blast),
           RS_A_TEXT(o->effects != NULL ? " effects=" : ""),
           RS_A_USER(o->effects != NULL ? o->effects : ""));
    return ENG_OK;
}

static enum eng_err tac_area_attack(struct rs_call *c,
                                    const struct rs_attack *a,
                                    const struct tac_aopts *o,
                                    const struct tac_base *base,
                                    struct enc_combatant **hit, int nhit)
{
    const struct tac_table *t = tac_table_for(c);
    enum eng_err err;
    if (o->templ > 0)
        RS_SAY(c, a->attacker, "A template: a line {} ft long",
               RS_A_NUM(5 * o->templ));
    /* Dexterity(Evasion 2) halves the damage: the Evasion skill, not
     * passive evasion. */
    static const struct tac_test_def evade = {"dexterity", "evasion"};
    for (int i = 0; i < nhit; i++) {
        struct enc_combatant *who = hit[i];
        struct enc_event *ev = enc_emit(c->r, ENC_EV_ATTACK,
                                        a->attacker->id);
        ev->secret = a->attacker->hidden;
        ev->other = who->id;
        ev->outcome = o->blast > 0 ? N_("in the blast") : N_("in the line");
        ev->hit = ENC_HIT_HIT;
        bool halve = false;
        const struct enc_cond *k = tac_flagged(t, who, TAC_CDF_NO_EVADE);
        if (base->have && k != NULL) {
            RS_SAY(c, who, "{} is {} and cannot evade", RS_A_WHO(who),
                   RS_A_USER(k->name));
        } else if (base->have) {
            struct tac_roll tr = {.who = who, .def = &evade, .pool = -1,
                                  .difficulty = TAC_AREA_EVADE,
                                  .why = N_("evades"), .kind = ENC_EV_TEST};
            struct tac_rolled out;
            err = tac_test_roll(c, &tr, NULL, 0, &out);
            if (err != ENG_OK)
                return err;
            halve = out.fail_by == 0;
        }
        err = tac_strike(c, a, who, o, true, base, halve);
        if (err != ENG_OK)
            return err;
    }
    return ENG_OK;
}

static enum eng_err tac_single_attack(struct rs_call *c,
                                      const struct rs_attack *a,
                                      const struct tac_aopts *o,
                                      const struct tac_base *base)
{
    const struct tac_table *t = tac_table_for(c);
    const char *hit_word = o->crit ? N_("critical hit") : N_("hit");
    const struct enc_cond *magnet = tac_flagged(t, a->target, TAC_CDF_MAGNET);
    bool hit = !o->miss;
    if ((o->conductor && magnet != NULL) || a->roll == NULL || o->miss) {
        struct enc_event *ev = enc_emit(c->r, ENC_EV_ATTACK, a->attacker->id);
        ev->secret = a->attacker->hidden;
        ev->other = a->target->id;
        ev->outcome = hit ? hit_word : N_("miss");
        ev->hit = !hit ? ENC_HIT_MISS : o->crit ? ENC_HIT_CRIT : ENC_HIT_HIT;
        if (o->conductor && magnet != NULL && !o->miss) {
            rs_mod_t(c, ev, RS_T("{}: a conductor attack hits without a "
                                 "roll", TAC_A_COND(magnet->name)),
                     false, 0, "", false);
        }
    } else {
        struct tac_mod extra[1];
        const struct enc_cond *cover;
        int nextra = tac_target_mods(c, a->target, o->melee, extra, &cover);
        struct tac_roll tr = {
            .who = a->attacker, .pool = (int)o->pool,
            .dice = o->pool < 0 ? a->roll : NULL,
            .adv = (int)o->adv, .dis = (int)o->dis, .exert = o->exert,
            .difficulty = (int)o->need, .why = N_("attacks"),
            .kind = ENC_EV_ATTACK, .other = a->target, .hit = hit_word,
            .crit = o->crit,
        };
        struct tac_rolled out;
        enum eng_err err = tac_test_roll(c, &tr, extra, nextra, &out);
        if (err != ENG_OK)
            return err;
        tac_cover_note(c, out.ev, cover);
        hit = out.fail_by == 0;
    }
    if (!hit)
        return ENG_OK;
    return tac_strike(c, a, a->target, o, false, base, false);
}

/* A rolled attack against a Prone target needs to say how it is made. */
static enum eng_err tac_check_prone(struct rs_call *c,
                                    const struct rs_attack *a,
                                    const struct tac_aopts *o)
{
    const struct enc_cond *prone = tac_flagged(tac_table_for(c), a->target,
                                               TAC_CDF_PRONE);
    bool single_roll = a->roll != NULL && o->burst == 0 && o->blast == 0 &&
                       o->templ == 0;
    if (prone == NULL || !single_roll || o->melee || o->ranged)
        return ENG_OK;
    enc_fail(c->d, ENG_INVALID, "%s is %s: say melee or ranged in options: "
             "(melee attacks have a major advantage against them, ranged "
             "ones a disadvantage)", a->target->name, prone->name);
    enc_hint(c->d, "options:\"melee\"");
    return ENG_INVALID;
}

/* The AP the attack costs: a blast placed after it scattered this turn
 * was paid for when it was thrown. */
static enum eng_err tac_attack_ap(struct rs_call *c, const struct rs_attack *a,
                                  const struct tac_aopts *o)
{
    if (c->e->current != a->attacker->id)
        return ENG_OK;
    struct tac_comb *st = TAC_ST(a->attacker);
    if (o->placed && st->scatter_turn == (int64_t)c->e->turn_seq &&
        st->scatter_turn != 0) {
        st->scatter_turn = 0;
        RS_SAY(c, a->attacker, "{} places the scattered blast: its AP were "
               "spent when it was thrown", RS_A_WHO(a->attacker));
        return ENG_OK;
    }
    return tac_spend_ap(c, a->attacker, (int)o->ap, N_("the attack"),
                        false);
}

enum eng_err tac_attack(struct rs_call *c, const struct rs_attack *a)
{
    struct tac_aopts o;
    enum eng_err err = tac_read_aopts(c, a, &o);
    if (err == ENG_OK)
        err = tac_check_aopts(c, a, &o);
    if (err == ENG_OK)
        err = tac_check_prone(c, a, &o);
    if (err != ENG_OK)
        return err;
    if (c->e->status != ENC_ST_RUNNING)
        return enc_fail(c->d, ENG_STATE, "the fight has not begun");
    struct enc_combatant *hit[TAC_MAX_TARGETS];
    int nhit = 0;
    bool area = o.blast > 0 || o.templ > 0;
    if (area && (err = tac_area_targets(c, a, &o, hit, &nhit)) != ENG_OK)
        return err;
    if ((err = tac_attack_ap(c, a, &o)) != ENG_OK)
        return err;
    if (o.exert && (err = tac_exert(c, a->attacker)) != ENG_OK)
        return err;
    if (o.blast > 0 && !o.placed) {
        bool lands;
        if ((err = tac_aim(c, a, &o, &lands)) != ENG_OK || !lands)
            return err;
    }
    struct tac_base base = {a->damage != NULL, 0, -1, 0};
    if (base.have) {
        struct rs_rolled d;
        err = rs_roll(c, a->attacker, "damage", a->damage, &d);
        if (err != ENG_OK)
            return err;
        base.amount = d.total;
        base.roll_idx = d.roll_idx;
    }
    if (o.burst > 0)
        return tac_burst_attack(c, a, &o, &base);
    if (area)
        return tac_area_attack(c, a, &o, &base, hit, nhit);
    return tac_single_attack(c, a, &o, &base);
}
