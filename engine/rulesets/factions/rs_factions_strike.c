/*
 * rs_factions_strike.c - the `factions` ruleset: an attack that stands.
 *
 * Once an attack hits (automatically, or its WIT save to hit passed) the
 * target's reaction comes, then the effect: a stunt the target accepts, a
 * non-lethal save, or damage. Damage is the weapon's dice, or the impaired
 * die (setting, default 1d4) for unarmed attacks, held-back blows and
 * concealed targets; armour (+1 for cover unless the attack penetrates)
 * comes off it. A counter rolls both blows and lands the bigger first.
 */
#include "rs_factions.h"

#include <string.h>

#include "eng_text.h"
#include "turn.h"

bool fac_surprised(const struct enc_combatant *att, const struct fac_atk *o)
{
    return o->unaware || fac_has_cond(att, FAC_COND_CONCEALED);
}

void fac_say_no_reaction(struct rs_call *c, const struct enc_combatant *who,
                         const char *what, const char *why)
{
    /* One sentence per reaction, so a translation need not splice a verb
     * into it; what is one of fac_rx_word()'s or "guard" or "hide". */
    if (strcmp(what, "guard") == 0)
        RS_SAY(c, who, "{} cannot guard ({}): the attack goes on",
               RS_A_WHO(who), RS_A_TEXT(why));
    else if (strcmp(what, "hide") == 0)
        RS_SAY(c, who, "{} cannot hide ({}): the attack goes on",
               RS_A_WHO(who), RS_A_TEXT(why));
    else if (strcmp(what, "counter") == 0)
        RS_SAY(c, who, "{} cannot counter ({}): the attack goes on",
               RS_A_WHO(who), RS_A_TEXT(why));
    else
        RS_SAY(c, who, "{} cannot dodge ({}): the attack goes on",
               RS_A_WHO(who), RS_A_TEXT(why));
}

struct enc_event *fac_attack_event(struct rs_call *c,
                                   const struct enc_combatant *att,
                                   const struct enc_combatant *tgt,
                                   const char *outcome, enum enc_hit hit)
{
    struct enc_event *ev = enc_emit(c->r, ENC_EV_ATTACK, att->id);
    ev->hit = hit;
    ev->other = tgt->id;
    ev->secret = att->hidden;
    ev->outcome = enc_result_strdup(c->r, outcome, 64);
    return ev;
}

enum eng_err fac_roll_damage(struct rs_call *c,
                             const struct enc_combatant *who,
                             const char *weapon, bool impaired,
                             struct rs_rolled *out)
{
    const char *die = rs_setting_text(c->e, fac_sys(), "impaired");
    return rs_roll(c, who, impaired ? "damage (impaired)" : "damage",
                   impaired ? die : weapon, out);
}

void fac_gear(struct enc_combatant *att, struct enc_combatant *tgt,
              const struct fac_atk *o)
{
    if (!o->unarmed)
        FAC_C(att)->gear |= FAC_GEAR_WEAPON;
    if (tgt != NULL && enc_stat_or(tgt, FAC_STAT_ARMOUR, 0) > 0)
        FAC_C(tgt)->gear |= FAC_GEAR_ARMOUR;
    if (tgt != NULL && (enc_stat_or(tgt, FAC_STAT_SHIELD, 0) > 0 ||
                        enc_stat_or(tgt, FAC_STAT_SHIELD_DAMAGED, 0) > 0))
        FAC_C(tgt)->gear |= FAC_GEAR_SHIELD;
}

void fac_weapon_check(struct rs_call *c, const struct enc_combatant *att,
                      const struct fac_atk *o, const struct rs_rolled *dmg)
{
    if (o->damaged && !o->unarmed && dmg->dice_sum == 1)
        RS_SAY(c, att, "The damaged weapon of {} breaks on the 1",
               RS_A_WHO(att));
}

void fac_reveal(struct rs_call *c, struct enc_combatant *att)
{
    if (!fac_has_cond(att, FAC_COND_CONCEALED))
        return;
    enc_cond_remove(c->e, att, FAC_COND_CONCEALED, c->r, NULL);
    RS_SAY(c, att, "{} is revealed by attacking", RS_A_WHO(att));
}

/* The non-lethal effects: a STR save or disarmed / grabbed. */
static enum eng_err fac_nonlethal(struct rs_call *c, struct enc_combatant *att,
                                  struct enc_combatant *tgt, bool disarm)
{
    bool pass;
    enum eng_err err = fac_save(c, tgt, "str",
                                disarm ? N_("STR save against disarm")
                                       : N_("STR save against grapple"),
                                &pass);
    if (err != ENG_OK || pass)
        return err;
    err = fac_give(c, tgt, disarm ? FAC_COND_DISARMED : FAC_COND_GRABBED,
                   att->id);
    if (err != ENG_OK)
        return err;
    if (disarm)
        RS_SAY(c, tgt, "{} drops a weapon chosen by {}", RS_A_WHO(tgt),
               RS_A_WHO(att));
    else
        RS_SAY(c, tgt, "{} is grabbed by {}", RS_A_WHO(tgt), RS_A_WHO(att));
    return ENG_OK;
}

/* One blow of a counter exchange: damage, or a non-lethal effect. */
struct fac_blow {
    struct enc_combatant *from, *to;
    bool counter;                /* the counter, not the attack */
    bool nonlethal, disarm;
    struct fac_hit hit;          /* a damaging blow */
    int64_t amount;              /* its damage after armour */
};

/* Land blow b; when checked, a striker already taken down lands
 * nothing. */
static enum eng_err fac_blow_land(struct rs_call *c, const struct fac_blow *b,
                                  bool checked)
{
    if (checked && !turn_can_act(b->from)) {
        /* Its dice were rolled all the same: they show here. */
        struct enc_event *ev =
            b->counter ? RS_SAY(c, b->from, "{} falls before the counter "
                                "lands", RS_A_WHO(b->from))
                       : RS_SAY(c, b->from, "{} falls before the attack "
                                "lands", RS_A_WHO(b->from));
        rs_ev_roll(c, ev, b->hit.roll);
        return ENG_OK;
    }
    if (b->nonlethal)
        return fac_nonlethal(c, b->from, b->to, b->disarm);
    fac_land(c, b->to, &b->hit);
    return ENG_OK;
}

/* Roll b's damage (unless pre gives it) and work out what it does. */
static enum eng_err fac_blow_roll(struct rs_call *c, struct fac_blow *b,
                                  const char *dice, bool impaired,
                                  const struct rs_rolled *pre)
{
    struct rs_rolled r;
    if (pre != NULL) {
        r = *pre;
    } else {
        enum eng_err err = fac_roll_damage(c, b->from, dice, impaired, &r);
        if (err != ENG_OK)
            return err;
    }
    b->hit.from = b->from;
    b->hit.roll = r.roll_idx;
    b->hit.raw = r.total;
    b->hit.impaired = impaired && pre == NULL;
    fac_hit_armour(&b->hit, b->to);
    b->amount = fac_hit_amount(&b->hit);
    return ENG_OK;
}

/* Damage both ways at once: whoever suffers more is hit first; one taken
 * out by that first hit does not land its own blow; a tie hits both. A
 * non-lethal blow (the attack's, or a counter of disarm or grapple) comes
 * after the damaging one. */
enum eng_err fac_counter(struct rs_call *c, struct enc_combatant *att,
                         struct enc_combatant *tgt, const char *damage,
                         const struct fac_atk *o, const char *counter,
                         const struct rs_rolled *pre)
{
    struct fac_blow a = {.from = att, .to = tgt, .counter = false,
                         .nonlethal = o->disarm || o->grapple,
                         .disarm = o->disarm,
                         .hit = {.cover = o->cover,
                                 .penetrates = o->penetrates}};
    /* A peeking attacker keeps the barrier as cover against the counter. */
    struct fac_blow b = {.from = tgt, .to = att, .counter = true,
                         .hit = {.cover = o->peek}};
    b.nonlethal = fac_counter_nonlethal(counter, &b.disarm);
    bool unarmed = eng_text_casecmp(counter, "unarmed") == 0;
    enum eng_err err = ENG_OK;
    if (!a.nonlethal)
        err = fac_blow_roll(c, &a, damage, o->impaired || o->unarmed ||
                            fac_has_cond(tgt, FAC_COND_CONCEALED), pre);
    if (pre != NULL)                     /* as the blast rolled it */
        a.hit.impaired = o->impaired || o->unarmed;
    if (err == ENG_OK && !b.nonlethal)
        err = fac_blow_roll(c, &b, counter, unarmed ||
                            fac_has_cond(att, FAC_COND_CONCEALED), NULL);
    if (err != ENG_OK)
        return err;
    if (!unarmed)
        FAC_C(tgt)->gear |= FAC_GEAR_WEAPON;
    if (a.nonlethal || b.nonlethal) {
        /* The damaging blow first (if any), then the non-lethal one. */
        const struct fac_blow *first = a.nonlethal && !b.nonlethal ? &b : &a;
        const struct fac_blow *last = first == &a ? &b : &a;
        if (last->counter)
            rs_say0(c, NULL, "Counter: the non-lethal counter comes last");
        else
            rs_say0(c, NULL, "Counter: the non-lethal attack comes last");
        err = fac_blow_land(c, first, false);
        return err != ENG_OK ? err : fac_blow_land(c, last, true);
    }
    enum fac_first first = fac_rule_counter(a.amount, b.amount);
    RS_SAY(c, NULL, "Counter: {} suffers {}, {} suffers {}: {}",
           RS_A_WHO(tgt), RS_A_SECRET(a.amount, tgt->hidden), RS_A_WHO(att),
           RS_A_SECRET(b.amount, att->hidden),
           RS_A_TEXT(first == FAC_FIRST_BOTH ? N_("both are hit at once")
                     : first == FAC_FIRST_TARGET
                         ? N_("the target is hit first")
                         : N_("the attacker is hit first")));
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
        fac_attack_event(c, att, tgt, N_("stunt"), ENC_HIT_NONE);
        fac_gear(att, NULL, o);
        RS_SAY(c, tgt, "{} accepts the stunt of {} instead of damage: the "
               "GM rules the effect", RS_A_WHO(tgt), RS_A_WHO(att));
        return ENG_OK;
    }
    if (rx == FAC_RX_DODGE) {
        fac_spend_reaction(c, tgt, N_("dodge"), NULL);
        bool pass;
        err = fac_save(c, tgt, "agi", N_("AGI save to dodge"), &pass);
        if (err != ENG_OK)
            return err;
        if (pass) {
            fac_attack_event(c, att, tgt, N_("dodged"), ENC_HIT_MISS);
            fac_gear(att, NULL, o);
            return ENG_OK;
        }
    }
    fac_attack_event(c, att, tgt, N_("hit"), ENC_HIT_HIT);
    fac_gear(att, tgt, o);
    if (rx == FAC_RX_COUNTER) {
        fac_spend_reaction(c, tgt, N_("counter"), NULL);
        return fac_counter(c, att, tgt, damage, o, counter, NULL);
    }
    if (o->disarm || o->grapple)
        return fac_nonlethal(c, att, tgt, o->disarm);
    struct rs_rolled dmg;
    bool impaired = o->impaired || o->unarmed ||
                    fac_has_cond(tgt, FAC_COND_CONCEALED);
    err = fac_roll_damage(c, att, damage, impaired, &dmg);
    if (err != ENG_OK)
        return err;
    fac_weapon_check(c, att, o, &dmg);
    struct fac_hit h = {.from = att, .roll = dmg.roll_idx, .raw = dmg.total,
                        .cover = o->cover, .penetrates = o->penetrates,
                        .impaired = impaired};
    fac_hit_armour(&h, tgt);
    fac_land(c, tgt, &h);
    return ENG_OK;
}
