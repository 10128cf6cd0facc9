/*
 * rs_factions_attack.c - the `factions` ruleset: /attack.
 *
 * Attacks hit automatically unless the circumstances call for a WIT save to
 * hit; the target may react once the hit stands and before damage: given in
 * the attack's options (spent only when the attack hits), or, when the save
 * passed and no reaction came with it, answered afterwards with /react
 * (rs_factions_react.c keeps the attack waiting). Damage is the
 * weapon's dice, or the impaired die (setting, default 1d4) for unarmed
 * attacks, held-back blows and concealed targets; armour (+1 for cover
 * unless the attack penetrates) comes off it. Non-lethal attacks ask for a
 * STR save instead; blasts hit every character in a zone.
 */
#include "rs_factions.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "eng_text.h"
#include "rs_kit.h"
#include "turn.h"

static const char *fac_impaired_die(const struct encounter *e)
{
    const char *v = enc_setting(e, "impaired");
    return v != NULL ? v : "1d4";
}

static struct enc_combatant *fac_named(struct rs_call *c, const char *what,
                                       const char *name)
{
    struct enc_combatant *w = enc_by_name(c->e, name);
    if (w == NULL)
        enc_fail(c->d, ENG_NOTFOUND, "%s: no combatant named %.64s", what,
                 name);
    return w;
}

/* ---- attacks ------------------------------------------------------------------ */

/* Roll the damage of one blow: the weapon's dice, or the impaired die. */
static enum eng_err fac_roll_damage(struct rs_call *c, const char *who,
                                    const char *weapon, bool impaired,
                                    struct rs_rolled *out)
{
    char label[48];
    snprintf(label, sizeof label, "%.24s damage%s", who,
             impaired ? " (impaired)" : "");
    return rs_roll(c, NULL, label,
                   impaired ? fac_impaired_die(c->e) : weapon, out);
}

/* The non-lethal effects: a STR save or disarmed / grabbed. */
static enum eng_err fac_nonlethal(struct rs_call *c, struct enc_combatant *att,
                                  struct enc_combatant *tgt, bool disarm)
{
    bool pass;
    enum eng_err err = fac_save(c, tgt, "str", disarm ? "STR save "
                                "against disarm" : "STR save against grapple",
                                &pass);
    if (err != ENG_OK || pass)
        return err;
    struct enc_cond_req q = {
        .name = disarm ? FAC_COND_DISARMED : FAC_COND_GRABBED,
        .source = att->id,
    };
    err = enc_cond_add(c->e, tgt, &q, c->r, c->d);
    if (err != ENG_OK)
        return err;
    fac_say(c, tgt->id, false, disarm ? "%.40s drops a weapon %.40s "
            "chooses" : "%.40s is grabbed by %.40s", tgt->name, att->name);
    return ENG_OK;
}

/* Record gear use for the durability rolls after the fight. */
static void fac_gear(struct enc_combatant *att, struct enc_combatant *tgt,
                     const struct fac_atk *o)
{
    if (!o->unarmed)
        att->rs[FAC_C_GEAR] |= FAC_GEAR_WEAPON;
    if (tgt != NULL && enc_stat_or(tgt, FAC_STAT_ARMOUR, 0) > 0)
        tgt->rs[FAC_C_GEAR] |= FAC_GEAR_ARMOUR;
    if (tgt != NULL && (enc_stat_or(tgt, FAC_STAT_SHIELD, 0) > 0 ||
                        enc_stat_or(tgt, FAC_STAT_SHIELD_DAMAGED, 0) > 0))
        tgt->rs[FAC_C_GEAR] |= FAC_GEAR_SHIELD;
}

/* Validate a single-target attack before anything changes: who reacts
 * and how. */
struct fac_plan {
    struct enc_combatant *tgt;     /* after guard / hide */
    struct enc_combatant *shifter; /* the guard or the one hiding */
    bool need;                     /* WIT save to hit */
};

static enum eng_err fac_plan(struct rs_call *c, const struct rs_attack *a,
                             const struct fac_atk *o, struct fac_plan *pl)
{
    struct enc_combatant *att = a->attacker;
    pl->tgt = a->target;
    pl->shifter = NULL;
    const char *why;
    enum eng_err err = fac_rule_hit(o->how, &pl->need, &why);
    if (err != ENG_OK)
        return enc_fail(c->d, err, "%s", why);
    if (att == a->target)
        return enc_fail(c->d, ENG_INVALID, "an attacker cannot target "
                        "themselves");
    if (!turn_can_act(att))
        return enc_fail(c->d, ENG_STATE, "%s is out of the fight", att->name);
    if (o->final) {
        if (!(a->target->flags & ENC_CF_DOWN) ||
            (a->target->flags & ENC_CF_DEAD))
            return enc_fail(c->d, ENG_STATE, "a final blow needs an "
                            "incapacitated target");
        if (o->how & (FAC_AT_RANGED | FAC_AT_INDIRECT))
            return enc_fail(c->d, ENG_STATE, "a final blow needs a nearby "
                            "target");
        return ENG_OK;
    }
    if ((o->disarm || o->grapple) && (o->how & (FAC_AT_RANGED |
                                                FAC_AT_INDIRECT)))
        return enc_fail(c->d, ENG_STATE, "disarm and grapple need a nearby "
                        "target");
    if (o->disarm && o->grapple)
        return enc_fail(c->d, ENG_INVALID, "choose disarm or grapple");
    if (!o->disarm && !o->grapple && a->damage == NULL && !o->unarmed) {
        enc_fail(c->d, ENG_INVALID, "damage: is required (the weapon's "
                 "dice), or give options:unarmed");
        enc_hint(c->d, "/attack attacker:... target:... damage:d8");
        return ENG_INVALID;
    }
    if (o->opportunity) {
        err = fac_check_react(c, att);
        if (err != ENG_OK)
            return err;
    }
    bool reacting = (o->react[0] != '\0' && strcmp(o->react, "none") != 0) ||
                    o->guard[0] != '\0' || o->hide[0] != '\0';
    if (reacting && o->stunt)
        return enc_fail(c->d, ENG_STATE, "a stunt is proposed first: the "
                        "target answers with /react");
    if ((o->stunt || o->wait || pl->need) && a->damage != NULL &&
        strlen(a->damage) > FAC_MAX_PENDING_DAMAGE)
        return enc_fail(c->d, ENG_LIMIT, "damage dice too long for an attack "
                        "that waits for an answer (limit is %d bytes)",
                        FAC_MAX_PENDING_DAMAGE);
    if (reacting && o->opportunity)
        return enc_fail(c->d, ENG_STATE, "an opportunity attack cannot "
                        "normally be reacted to");
    if (reacting && (o->unaware || fac_has_cond(att, FAC_COND_CONCEALED)))
        return enc_fail(c->d, ENG_STATE, "%s is taken by surprise and cannot "
                        "react", a->target->name);
    if (o->ndodgers > 0 || o->by[0] != '\0')
        return enc_fail(c->d, ENG_INVALID, "dodge=<name> and by=<name> are "
                        "for blasts; the target of one attack just dodges");
    if (o->guard[0] != '\0' && o->hide[0] != '\0')
        return enc_fail(c->d, ENG_INVALID, "choose guard or hide, not both");
    if (o->guard[0] != '\0' || o->hide[0] != '\0') {
        const char *name = o->guard[0] ? o->guard : o->hide;
        struct enc_combatant *other = fac_named(c, o->guard[0] ? "guard" :
                                                "hide", name);
        if (other == NULL)
            return c->d->code;
        if (other == att || other == a->target)
            return enc_fail(c->d, ENG_INVALID, "%s cannot take that place",
                            other->name);
        /* The guard spends its own reaction; one hiding spends the
         * target's, and the new target may react in turn. */
        err = fac_check_react(c, o->guard[0] ? other : a->target);
        if (err != ENG_OK)
            return err;
        if (!turn_can_act(other))
            return enc_fail(c->d, ENG_STATE, "%s is out of the fight",
                            other->name);
        pl->shifter = o->guard[0] ? other : a->target;
        pl->tgt = other;
        if (o->guard[0] != '\0' && o->react[0] != '\0' &&
            strcmp(o->react, "none") != 0)
            return enc_fail(c->d, ENG_STATE, "a guard has spent the reaction "
                            "and cannot also %s", o->react);
    }
    if (strcmp(o->react, "dodge") == 0 || strcmp(o->react, "counter") == 0) {
        bool disarm;
        err = fac_check_react(c, pl->tgt);
        if (err != ENG_OK)
            return err;
        if (strcmp(o->react, "dodge") == 0)
            err = fac_need_attr(c, pl->tgt, "agi");
        else if (o->counter[0] != '\0' &&
                 fac_counter_nonlethal(o->counter, &disarm))
            err = fac_need_attr(c, att, "str");
        else if (o->counter[0] == '\0') {
            enc_fail(c->d, ENG_INVALID, "a counter needs the countering "
                     "weapon's dice");
            enc_hint(c->d, "options:\"react=counter counter=d6\" (or "
                     "counter=unarmed)");
            return ENG_INVALID;
        }
    }
    if (err == ENG_OK && pl->need)
        err = fac_need_attr(c, att, "wit");
    if (err == ENG_OK && (o->disarm || o->grapple))
        err = fac_need_attr(c, pl->tgt, "str");
    return err;
}

/* The final blow: a nearby incapacitated target is killed. */
static enum eng_err fac_final_blow(struct rs_call *c, struct enc_combatant *att,
                                   struct enc_combatant *tgt)
{
    tgt->flags |= ENC_CF_DEAD | ENC_CF_DOWN;
    fac_say(c, tgt->id, false, "%.40s delivers a final blow: %.40s is dead",
            att->name, tgt->name);
    return ENG_OK;
}

static void fac_reveal(struct rs_call *c, struct enc_combatant *att)
{
    if (!fac_has_cond(att, FAC_COND_CONCEALED))
        return;
    enc_cond_remove(c->e, att, FAC_COND_CONCEALED, c->r, NULL);
    fac_say(c, att->id, false, "%.40s is revealed by attacking", att->name);
}

static void fac_attack_event(struct rs_call *c, struct enc_combatant *att,
                             struct enc_combatant *tgt, bool hit,
                             const char *text, int roll)
{
    struct enc_event *ev = enc_emit(c->r, ENC_EV_ATTACK, att->id);
    ev->other = tgt->id;
    ev->c = hit;
    enc_event_roll(c->r, ev, roll);
    ev->secret = att->hidden;
    ev->text = enc_result_strdup(c->r, text, 4096);
}

/* One blow of a counter exchange: damage, or a non-lethal effect. */
struct fac_blow {
    struct enc_combatant *from, *to;
    const char *what;            /* "attack" or "counter" */
    bool nonlethal, disarm;
    struct rs_rolled roll;       /* a damaging blow's dice */
    int64_t amount;              /* its damage after armour */
};

/* Land blow b; when checked, a striker already taken down lands
 * nothing. */
static enum eng_err fac_blow_land(struct rs_call *c, const struct fac_blow *b,
                                  bool checked)
{
    if (checked && !turn_can_act(b->from)) {
        fac_say(c, b->from->id, false, "%.40s falls before the %s lands",
                b->from->name, b->what);
        return ENG_OK;
    }
    if (b->nonlethal)
        return fac_nonlethal(c, b->from, b->to, b->disarm);
    fac_land(c, b->from, b->to, b->roll.total, b->amount, b->roll.roll_idx);
    return ENG_OK;
}

bool fac_counter_nonlethal(const char *counter, bool *disarm)
{
    *disarm = eng_text_casecmp(counter, "disarm") == 0;
    return *disarm || eng_text_casecmp(counter, "grapple") == 0;
}

/* Damage both ways at once: whoever suffers more is hit first; one taken
 * out by that first hit does not land its own blow; a tie hits both. A
 * non-lethal blow (the attack's, or a counter of disarm or grapple) comes
 * after the damaging one. pre, when not NULL, is the attack's damage
 * already rolled (a blast's single roll). */
static enum eng_err fac_counter(struct rs_call *c, struct enc_combatant *att,
                                struct enc_combatant *tgt, const char *damage,
                                const struct fac_atk *o, const char *counter,
                                const struct rs_rolled *pre)
{
    struct fac_blow a = {.from = att, .to = tgt, .what = "attack",
                         .nonlethal = o->disarm || o->grapple,
                         .disarm = o->disarm, .roll = {.roll_idx = -1}};
    struct fac_blow b = {.from = tgt, .to = att, .what = "counter",
                         .roll = {.roll_idx = -1}};
    b.nonlethal = fac_counter_nonlethal(counter, &b.disarm);
    enum eng_err err;
    if (pre != NULL)
        a.roll = *pre;
    else if (!a.nonlethal) {
        err = fac_roll_damage(c, att->name, damage, o->impaired ||
                              o->unarmed ||
                              fac_has_cond(tgt, FAC_COND_CONCEALED), &a.roll);
        if (err != ENG_OK)
            return err;
    }
    if (!b.nonlethal) {
        bool cimp = eng_text_casecmp(counter, "unarmed") == 0 ||
                    fac_has_cond(att, FAC_COND_CONCEALED);
        err = fac_roll_damage(c, tgt->name, counter, cimp, &b.roll);
        if (err != ENG_OK)
            return err;
    }
    if (!a.nonlethal)
        a.amount = fac_rule_damage(a.roll.total, fac_armour(tgt), o->cover,
                                   o->penetrates);
    if (!b.nonlethal)
        b.amount = fac_rule_damage(b.roll.total, fac_armour(att), o->peek,
                                   false);
    tgt->rs[FAC_C_GEAR] |= FAC_GEAR_WEAPON;
    if (a.nonlethal || b.nonlethal) {
        /* The damaging blow first (if any), then the non-lethal one. */
        const struct fac_blow *first = a.nonlethal && !b.nonlethal ? &b : &a;
        const struct fac_blow *last = first == &a ? &b : &a;
        fac_say(c, 0, false, "counter: the non-lethal %s comes last",
                last->what);
        err = fac_blow_land(c, first, false);
        return err != ENG_OK ? err : fac_blow_land(c, last, true);
    }
    enum fac_first first = fac_rule_counter(a.amount, b.amount);
    fac_say(c, 0, false, "counter: %.30s suffers %lld, %.30s suffers %lld: "
            "%s", tgt->name, (long long)a.amount, att->name,
            (long long)b.amount,
            first == FAC_FIRST_BOTH ? "both are hit at once" :
            first == FAC_FIRST_TARGET ? "the target is hit first" :
            "the attacker is hit first");
    switch (first) {
    case FAC_FIRST_BOTH:
        (void)fac_blow_land(c, &a, false);
        return fac_blow_land(c, &b, false);
    case FAC_FIRST_TARGET:
        (void)fac_blow_land(c, &a, false);
        return fac_blow_land(c, &b, true);
    case FAC_FIRST_ATTACKER:
        (void)fac_blow_land(c, &b, false);
        return fac_blow_land(c, &a, true);
    }
    return ENG_OK;
}

static enum eng_err fac_blast(struct rs_call *c, const struct rs_attack *a,
                              const struct fac_atk *o);
static enum eng_err fac_attack_one(struct rs_call *c,
                                   const struct rs_attack *a,
                                   const struct fac_atk *op);

enum eng_err fac_attack(struct rs_call *c, const struct rs_attack *a)
{
    if (c->e->status != ENC_ST_RUNNING)
        return enc_fail(c->d, ENG_STATE, "the fight has not begun");
    if (a->roll != NULL) {
        enc_fail(c->d, ENG_INVALID, "factions attacks roll no attack dice: "
                 "they hit, or ask for a WIT save to hit");
        enc_hint(c->d, "leave roll: out; options:\"challenging\" calls for "
                 "the save");
        return ENG_INVALID;
    }
    struct fac_atk o;
    enum eng_err err = fac_parse_atk(c, a->options, &o);
    if (err == ENG_OK)
        err = fac_sync(c);
    if (err != ENG_OK)
        return err;
    if (!(o.how & (FAC_AT_MELEE | FAC_AT_RANGED | FAC_AT_INDIRECT)))
        o.how |= FAC_AT_MELEE;
    unsigned kinds = o.how & (FAC_AT_MELEE | FAC_AT_RANGED | FAC_AT_INDIRECT);
    if (kinds & (kinds - 1))
        return enc_fail(c->d, ENG_INVALID, "choose one of melee, ranged or "
                        "indirect");
    if (o.blast)
        return fac_blast(c, a, &o);
    err = fac_attack_one(c, a, &o);
    return err != ENG_OK ? err : fac_recheck(c);
}

/* A single-target attack: plan, save to hit, reactions, effect. */
static enum eng_err fac_attack_one(struct rs_call *c,
                                   const struct rs_attack *a,
                                   const struct fac_atk *op)
{
    struct fac_atk o = *op;
    struct fac_plan pl;
    enum eng_err err = fac_plan(c, a, &o, &pl);
    if (err != ENG_OK)
        return err;
    struct enc_combatant *att = a->attacker;
    if (o.final)
        return fac_final_blow(c, att, a->target);
    if (o.opportunity)
        fac_spend_reaction(c, att, "opportunity attack");

    /* 1. the WIT save to hit, when the circumstances call for it */
    if (pl.need) {
        bool pass;
        err = fac_save(c, att, "wit", "WIT save to hit", &pass);
        if (err != ENG_OK)
            return err;
        if (!pass) {
            fac_attack_event(c, att, a->target, false, "miss",
                             c->r->nrolls - 1);
            fac_gear(att, NULL, &o);
            fac_reveal(c, att);
            return ENG_OK;
        }
    }
    /* 2. reactions, chosen after the save and before damage: given with
     * the attack, or asked for by pausing it */
    struct enc_combatant *tgt = pl.tgt;
    if (pl.shifter != NULL) {
        char what[80];
        snprintf(what, sizeof what, o.guard[0] ? "guards %.40s" :
                 "hides behind %.40s", o.guard[0] ? a->target->name :
                 tgt->name);
        fac_spend_reaction(c, pl.shifter, what);
    }
    bool surprised = o.unaware || fac_has_cond(att, FAC_COND_CONCEALED);
    fac_reveal(c, att);
    bool chosen = o.react[0] != '\0' || pl.shifter != NULL;
    if (!chosen && (o.stunt || ((pl.need || o.wait) && !surprised &&
                                fac_may_react(tgt))))
        return fac_pending_store(c, att, tgt, a->damage, &o, surprised);
    enum fac_rx rx = FAC_RX_NONE;
    if (!surprised && strcmp(o.react, "dodge") == 0)
        rx = FAC_RX_DODGE;
    else if (!surprised && strcmp(o.react, "counter") == 0)
        rx = FAC_RX_COUNTER;
    return fac_finish(c, att, tgt, a->damage, &o, rx, o.counter);
}

/* 3. the attack stands: the target's reaction (already checked and not
 * yet spent), then the effect: a stunt accepted, a non-lethal save, or
 * damage. */
enum eng_err fac_finish(struct rs_call *c, struct enc_combatant *att,
                        struct enc_combatant *tgt, const char *damage,
                        const struct fac_atk *o, enum fac_rx rx,
                        const char *counter)
{
    enum eng_err err;
    if (rx == FAC_RX_ACCEPT) {
        fac_attack_event(c, att, tgt, true, "stunt", -1);
        fac_gear(att, NULL, o);
        fac_say(c, tgt->id, false, "%.40s accepts %.40s's stunt instead of "
                "damage: the GM rules the effect", tgt->name, att->name);
        return ENG_OK;
    }
    if (rx == FAC_RX_DODGE) {
        fac_spend_reaction(c, tgt, "dodge");
        bool pass;
        err = fac_save(c, tgt, "agi", "AGI save to dodge", &pass);
        if (err != ENG_OK)
            return err;
        if (pass) {
            fac_attack_event(c, att, tgt, false, "dodged", c->r->nrolls - 1);
            fac_gear(att, NULL, o);
            return ENG_OK;
        }
    }
    fac_attack_event(c, att, tgt, true, "hit", -1);
    fac_gear(att, tgt, o);
    if (rx == FAC_RX_COUNTER) {
        fac_spend_reaction(c, tgt, "counter");
        return fac_counter(c, att, tgt, damage, o, counter, NULL);
    }
    if (o->disarm || o->grapple)
        return fac_nonlethal(c, att, tgt, o->disarm);
    struct rs_rolled dmg;
    bool impaired = o->impaired || o->unarmed ||
                    fac_has_cond(tgt, FAC_COND_CONCEALED);
    err = fac_roll_damage(c, att->name, damage, impaired, &dmg);
    if (err != ENG_OK)
        return err;
    if (o->damaged && !o->unarmed && dmg.dice_sum == 1)
        fac_say(c, att->id, false, "%.40s's damaged weapon breaks on the 1",
                att->name);
    fac_land(c, att, tgt, dmg.total, fac_rule_damage(dmg.total,
                                                     fac_armour(tgt),
                                                     o->cover, o->penetrates),
             dmg.roll_idx);
    return ENG_OK;
}

/* A blast's reactions, given with it: any of its targets may dodge
 * (dodge=<name>, once each), and a single one may counter (counter=<dice>
 * by=<name>). Reactions of characters the blast does not reach are not
 * spent. */
static enum eng_err fac_blast_reactions(struct rs_call *c,
                                        struct enc_combatant *att,
                                        const struct fac_atk *o,
                                        struct enc_combatant **dodgers,
                                        struct enc_combatant **counterer)
{
    *counterer = NULL;
    if (o->guard[0] != '\0' || o->hide[0] != '\0')
        return enc_fail(c->d, ENG_INVALID, "guard and hide are for attacks "
                        "on one target, not blasts");
    if (strcmp(o->react, "dodge") == 0) {
        enc_fail(c->d, ENG_INVALID, "name who dodges a blast");
        enc_hint(c->d, "options:\"blast dodge=Cat dodge=Dan\"");
        return ENG_INVALID;
    }
    bool counter = strcmp(o->react, "counter") == 0;
    if (counter != (o->by[0] != '\0')) {
        enc_fail(c->d, ENG_INVALID, "a blast is countered by one of its "
                 "targets: give counter=<dice> and by=<name>");
        enc_hint(c->d, "options:\"blast counter=d6 by=Cat\"");
        return ENG_INVALID;
    }
    if (o->ndodgers > 0 && (o->how & FAC_AT_MELEE))
        return enc_fail(c->d, ENG_STATE, "a melee blast cannot miss, so it "
                        "cannot be dodged");
    bool surprised = o->unaware || fac_has_cond(att, FAC_COND_CONCEALED);
    if ((counter || o->ndodgers > 0) && surprised)
        return enc_fail(c->d, ENG_STATE, "the targets are taken by surprise "
                        "and cannot react");
    for (int k = 0; k < o->ndodgers; k++) {
        dodgers[k] = fac_named(c, "dodge", o->dodgers[k]);
        if (dodgers[k] == NULL)
            return c->d->code;
        for (int j = 0; j < k; j++)
            if (dodgers[j] == dodgers[k])
                return enc_fail(c->d, ENG_INVALID, "%s dodges once",
                                dodgers[k]->name);
        enum eng_err err = fac_check_react(c, dodgers[k]);
        if (err == ENG_OK)
            err = fac_need_attr(c, dodgers[k], "agi");
        if (err != ENG_OK)
            return err;
    }
    if (!counter)
        return ENG_OK;
    *counterer = fac_named(c, "by", o->by);
    if (*counterer == NULL)
        return c->d->code;
    if (*counterer == att)
        return enc_fail(c->d, ENG_INVALID, "an attacker cannot counter "
                        "their own blast");
    for (int k = 0; k < o->ndodgers; k++)
        if (dodgers[k] == *counterer)
            return enc_fail(c->d, ENG_INVALID, "%s cannot both dodge and "
                            "counter", (*counterer)->name);
    bool disarm;
    enum eng_err err = fac_check_react(c, *counterer);
    if (err == ENG_OK && fac_counter_nonlethal(o->counter, &disarm))
        err = fac_need_attr(c, att, "str");
    return err;
}

/* Blast: every character in a zone (stat zone). A melee blast hits the
 * attacker's zone, spares the attacker and cannot miss; a ranged blast that
 * fails its save deviates to a neighbouring zone drawn at random. One damage
 * roll serves every target, each with its own armour. */
static enum eng_err fac_blast(struct rs_call *c, const struct rs_attack *a,
                              const struct fac_atk *o)
{
    struct encounter *e = c->e;
    struct enc_combatant *att = a->attacker;
    bool melee = (o->how & FAC_AT_MELEE) != 0;
    bool need;
    const char *why;
    enum eng_err err = fac_rule_hit(o->how, &need, &why);
    if (err != ENG_OK)
        return enc_fail(c->d, err, "%s", why);
    if (a->damage == NULL)
        return enc_fail(c->d, ENG_INVALID, "damage: is required for a "
                        "blast");
    struct enc_combatant *dodgers[FAC_MAX_WORDS], *counterer;
    err = fac_blast_reactions(c, att, o, dodgers, &counterer);
    if (err != ENG_OK)
        return err;
    int64_t zone = o->zone;
    if (melee || zone < 0) {
        zone = enc_stat_or(att, "zone", -1);
        if (zone < 0 || (!melee && o->zone < 0))
            return enc_fail(c->d, ENG_INVALID, "%s", melee ?
                            "the attacker needs a zone stat for a melee blast"
                            : "a ranged blast needs options:zone=N");
    }
    if (!melee && need) {
        err = fac_need_attr(c, att, "wit");
        if (err != ENG_OK)
            return err;
        bool pass;
        err = fac_save(c, att, "wit", "WIT save to hit", &pass);
        if (err != ENG_OK)
            return err;
        if (!pass) {
            if (o->nneigh == 0) {
                fac_say(c, att->id, false, "the blast misses zone %lld and "
                        "deviates: give options:neighbours=a/b/c to draw "
                        "where", (long long)zone);
                fac_reveal(c, att);
                return ENG_OK;
            }
            char expr[16];
            snprintf(expr, sizeof expr, "1d%d", o->nneigh);
            struct rs_rolled r;
            err = rs_roll(c, NULL, "blast deviation", expr, &r);
            if (err != ENG_OK)
                return err;
            zone = o->neighbours[r.total - 1];
            fac_say(c, att->id, false, "the blast deviates into zone %lld",
                    (long long)zone);
        }
    }
    fac_reveal(c, att);
    struct rs_rolled dmg;
    err = fac_roll_damage(c, att->name, a->damage, o->impaired, &dmg);
    if (err != ENG_OK)
        return err;
    att->rs[FAC_C_GEAR] |= FAC_GEAR_WEAPON;
    /* Who is in the zone, before anyone moves or falls. */
    uint32_t ids[ENC_MAX_COMBATANTS];
    int hits = 0;
    for (int i = 0; i < e->ncs; i++) {
        struct enc_combatant *w = &e->cs[i];
        if (enc_stat_or(w, "zone", -1) == zone && !(melee && w == att) &&
            !(w->flags & ENC_CF_DEAD))
            ids[hits++] = w->id;
    }
    if (hits == 0)
        fac_say(c, att->id, false, "nobody is in zone %lld", (long long)zone);
    bool countered = false;
    for (int i = 0; i < hits; i++) {
        struct enc_combatant *w = enc_by_id(e, ids[i]);
        bool dodges = false;
        for (int k = 0; k < o->ndodgers; k++)
            dodges |= dodgers[k] == w;
        if (dodges) {
            fac_spend_reaction(c, w, "dodge");
            bool pass;
            err = fac_save(c, w, "agi", "AGI save to dodge", &pass);
            if (err != ENG_OK)
                return err;
            if (pass) {
                fac_attack_event(c, att, w, false, "dodged",
                                 c->r->nrolls - 1);
                continue;
            }
        }
        fac_attack_event(c, att, w, true, "blast", -1);
        fac_gear(att, w, o);
        if (w == counterer) {
            countered = true;    /* after the others: see below */
            continue;
        }
        fac_land(c, att, w, dmg.total,
                 fac_rule_damage(dmg.total, fac_armour(w), o->cover,
                                 o->penetrates), dmg.roll_idx);
    }
    for (int k = 0; k < o->ndodgers; k++) {
        bool in = false;
        for (int i = 0; i < hits; i++)
            in |= ids[i] == dodgers[k]->id;
        if (!in)
            fac_say(c, dodgers[k]->id, false, "%.40s is not in zone %lld: "
                    "no dodge needed", dodgers[k]->name, (long long)zone);
    }
    /* The single counter, against the blast's one damage roll. */
    if (countered) {
        fac_spend_reaction(c, counterer, "counter");
        return fac_counter(c, att, counterer, a->damage, o, o->counter, &dmg);
    }
    if (counterer != NULL)
        fac_say(c, counterer->id, false, "%.40s is not hit: no counter",
                counterer->name);
    return ENG_OK;
}

