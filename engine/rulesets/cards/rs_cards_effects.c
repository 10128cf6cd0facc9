/*
 * rs_cards_effects.c - the `cards` ruleset's special effects: fear, fire,
 * poison and falling, and the round-start ticks of fire and poison.
 *
 * Each is a GM command with its procedure (the player rolls nothing by
 * hand): the GM gives the numbers the chapter leaves to the Director (a
 * fear value and position, a fire's intensity, a poison's toxicity, a
 * fall's height) and the engine rolls both sides and applies the Harm.
 */
#include <stdio.h>
#include <string.h>

#include "eng_text.h"
#include "rs_cards.h"
#include "turn.h"

/* ---- pure rules ---------------------------------------------------------- */

int cards_fear_allies(int pcs)
{
    return pcs < 0 ? 0 : pcs > CARDS_FEAR_MAX_ALLIES ? CARDS_FEAR_MAX_ALLIES
                                                     : pcs;
}

int cards_fear_harm(enum cards_position pos, int successes, int need,
                    int *bonus)
{
    *bonus = 0;
    if (successes >= need) {
        *bonus = pos == CARDS_CONTROLLED;
        return 0;
    }
    switch (pos) {
    case CARDS_CONTROLLED:
        return CARDS_FEAR_CONTROLLED;
    case CARDS_RISKY:
        return CARDS_FEAR_RISKY;
    case CARDS_DESPERATE:
        return CARDS_FEAR_DESPERATE;
    }
    return CARDS_FEAR_RISKY;
}

int cards_fire_damage(int intensity, int endure)
{
    return intensity > endure ? intensity - endure : 0;
}

int cards_poison_harm(int toxin, int endure)
{
    if (endure > toxin)
        return 0;
    if (endure == toxin)
        return 1;
    return toxin;
}

int cards_fall_dice(int feet)
{
    return feet < CARDS_FALL_MIN ? 0 : feet / CARDS_FALL_STEP;
}

int cards_fall_harm(int fall, int endure)
{
    return fall > endure ? fall - endure : 0;
}

/* ---- helpers ------------------------------------------------------------- */

static enum eng_err cards_gm(struct rs_call *c, const char *what)
{
    if (!c->is_gm)
        return enc_fail(c->d, ENG_PERM, "only the GM may call for %s", what);
    return ENG_OK;
}

/* The Endure pool of who: the endure stat, or pool: when given. */
static enum eng_err cards_endure(struct rs_call *c, struct enc_combatant *who,
                                 int *base)
{
    return cards_opt_pool(c, who, "endure", base);
}

static bool cards_severe(struct enc_combatant *who)
{
    return enc_cond_find(who, CARDS_SEVERE) != NULL ||
           enc_cond_find(who, "Severe") != NULL;
}

/* ---- fear ---------------------------------------------------------------- */

/* /fear name: value: position: [allies:] [pool:|skill:] */
enum eng_err cards_do_fear(struct rs_call *c)
{
    struct encounter *e = c->e;
    enum eng_err err = cards_gm(c, "a Fear test");
    struct enc_combatant *who;
    if (err == ENG_OK)
        err = rs_opt_combatant(c, "name", &who);
    if (err != ENG_OK)
        return err;
    int64_t value, allies;
    if ((err = rs_opt_int(c, "value", 1, CARDS_MAX_NEED, 0, &value)) !=
            ENG_OK ||
        (err = rs_opt_int(c, "allies", 0, ENC_MAX_COMBATANTS, -1,
                          &allies)) != ENG_OK)
        return err;
    if (value == 0)
        return enc_fail(c->d, ENG_INVALID, "value: is required (the Fear "
                        "value: successes needed)");
    const char *p = rs_opt(c->opts, c->nopts, "position");
    enum cards_position pos;
    if (p != NULL && eng_text_casecmp(p, "controlled") == 0)
        pos = CARDS_CONTROLLED;
    else if (p != NULL && eng_text_casecmp(p, "risky") == 0)
        pos = CARDS_RISKY;
    else if (p != NULL && eng_text_casecmp(p, "desperate") == 0)
        pos = CARDS_DESPERATE;
    else
        return enc_fail(c->d, ENG_INVALID, "position: must be controlled, "
                        "risky or desperate");
    int base;
    err = cards_endure(c, who, &base);
    if (err != ENG_OK)
        return err;
    if (allies < 0) {
        /* The other player characters here: in a fight, in the same zone;
         * those with Severe Mental Harm do not count. */
        allies = 0;
        for (int i = 0; i < e->ncs; i++) {
            struct enc_combatant *o = &e->cs[i];
            if (o == who || o->owner == 0 || (o->flags & ENC_CF_DEAD) ||
                enc_cond_find(o, CARDS_FLED) != NULL || cards_severe(o))
                continue;
            if (e->status == ENC_ST_RUNNING && cards_distance(who, o) > 0)
                continue;
            allies++;
        }
    }
    int add = cards_fear_allies((int)allies);
    int s;
    err = cards_test(c, who, "fear", base, add, true, false, &s);
    if (err != ENG_OK)
        return err;
    int bonus;
    int harm = cards_fear_harm(pos, s, (int)value, &bonus);
    if (harm == 0) {
        who->rs[CC_NEXT_BONUS] += bonus;
        cards_say(c, who->id, "%s keeps control (%d of %d needed)%s",
                  who->name, s, (int)value, bonus ? "; +1 die on the next "
                  "roll" : "");
        return ENG_OK;
    }
    cards_say(c, who->id, "%s is afraid (%d of %d needed): %d Mental Harm",
              who->name, s, (int)value, harm);
    cards_add_harm(c, who, harm, true, 0);
    return ENG_OK;
}

/* ---- fire ---------------------------------------------------------------- */

static void cards_fire_out(struct rs_call *c, struct enc_combatant *who)
{
    who->rs[CC_FIRE] = who->rs[CC_FIRE_NEED] = who->rs[CC_FIRE_SAVED] = 0;
    if (enc_cond_find(who, CARDS_BURNING) != NULL)
        enc_cond_remove(c->e, who, CARDS_BURNING, c->r, c->d);
    c->d->code = ENG_OK;
}

/* /fire name: intensity: [need:] [out:] */
enum eng_err cards_do_fire(struct rs_call *c)
{
    enum eng_err err = cards_gm(c, "fire");
    struct enc_combatant *who;
    if (err == ENG_OK)
        err = rs_opt_combatant(c, "name", &who);
    if (err != ENG_OK)
        return err;
    bool out;
    int64_t intensity, need;
    if ((err = rs_opt_bool(c, "out", false, &out)) != ENG_OK ||
        (err = rs_opt_int(c, "intensity", 1, CARDS_MAX_INTENSITY, 0,
                          &intensity)) != ENG_OK ||
        (err = rs_opt_int(c, "need", 1, CARDS_MAX_NEED, 1, &need)) !=
            ENG_OK)
        return err;
    if (out) {
        if (who->rs[CC_FIRE] == 0)
            return enc_fail(c->d, ENG_STATE, "%s is not burning", who->name);
        cards_fire_out(c, who);
        cards_say(c, who->id, "the fire on %s goes out", who->name);
        return ENG_OK;
    }
    if (intensity == 0)
        return enc_fail(c->d, ENG_INVALID, "intensity: is required (the "
                        "damage the fire does each round)");
    bool caught = who->rs[CC_FIRE] == 0;
    struct enc_cond_req q = {.name = CARDS_BURNING,
                             .value = (int32_t)intensity};
    if (!caught)
        enc_cond_remove(c->e, who, CARDS_BURNING, c->r, c->d);
    err = enc_cond_add(c->e, who, &q, c->r, c->d);
    if (err != ENG_OK)
        return err;
    who->rs[CC_FIRE] = intensity;
    who->rs[CC_FIRE_NEED] = need;
    if (!caught) {
        cards_say(c, who->id, "the fire on %s is now intensity %d",
                  who->name, (int)intensity);
        return ENG_OK;
    }
    who->rs[CC_FIRE_SAVED] = 0;
    who->rs[CC_FIRE_ROUND] = c->e->round;
    cards_say(c, who->id, "%s catches fire (intensity %d; %d success%s of "
              "Finesse put it out)", who->name, (int)intensity, (int)need,
              need == 1 ? "" : "es");
    cards_add_harm(c, who, 1, false, 0);
    return ENG_OK;
}

/* /extinguish name: [pool:|skill:] - a slow maneuver; successes add up. */
enum eng_err cards_do_extinguish(struct rs_call *c)
{
    struct enc_combatant *who;
    enum eng_err err = rs_opt_combatant(c, "name", &who);
    if (err == ENG_OK)
        err = rs_require_actor(c, who);
    if (err != ENG_OK)
        return err;
    if (who->rs[CC_FIRE] == 0)
        return enc_fail(c->d, ENG_STATE, "%s is not burning", who->name);
    int base;
    err = cards_opt_pool(c, who, "finesse", &base);
    if (err == ENG_OK)
        err = cards_spend(c, who, true, false);
    if (err != ENG_OK)
        return err;
    int s;
    err = cards_test(c, who, "extinguish", base, 0, true, true, &s);
    if (err != ENG_OK)
        return err;
    who->rs[CC_FIRE_SAVED] += s;
    if (who->rs[CC_FIRE_SAVED] >= who->rs[CC_FIRE_NEED]) {
        cards_fire_out(c, who);
        cards_say(c, who->id, "%s puts the fire out", who->name);
    } else {
        cards_say(c, who->id, "%s is still burning: %lld of %lld successes "
                  "so far", who->name, (long long)who->rs[CC_FIRE_SAVED],
                  (long long)who->rs[CC_FIRE_NEED]);
    }
    return ENG_OK;
}

/* ---- poison -------------------------------------------------------------- */

/* /poison name: toxicity: | antidote:true */
enum eng_err cards_do_poison(struct rs_call *c)
{
    enum eng_err err = cards_gm(c, "poison");
    struct enc_combatant *who;
    if (err == ENG_OK)
        err = rs_opt_combatant(c, "name", &who);
    if (err != ENG_OK)
        return err;
    bool antidote;
    int64_t tox;
    if ((err = rs_opt_bool(c, "antidote", false, &antidote)) != ENG_OK ||
        (err = rs_opt_int(c, "toxicity", 1, CARDS_MAX_TOXICITY, 0, &tox)) !=
            ENG_OK)
        return err;
    if (antidote) {
        if (who->rs[CC_POISON_LEFT] == 0 &&
            enc_cond_find(who, CARDS_POISONED) == NULL)
            return enc_fail(c->d, ENG_STATE, "%s is not poisoned",
                            who->name);
        who->rs[CC_POISON_LEFT] = 0;
        if (enc_cond_find(who, CARDS_POISONED) != NULL)
            enc_cond_remove(c->e, who, CARDS_POISONED, c->r, c->d);
        cards_say(c, who->id, "the antidote cancels the poison in %s",
                  who->name);
        return ENG_OK;
    }
    if (tox == 0)
        return enc_fail(c->d, ENG_INVALID, "toxicity: is required (3 weak, "
                        "6 strong, 9 or more extreme)");
    int base;
    err = cards_endure(c, who, &base);
    if (err != ENG_OK)
        return err;
    int ts, es;
    err = cards_roll_pool(c, "toxicity", (int)tox, &ts, NULL);
    if (err == ENG_OK)
        err = cards_test(c, who, "endure", base, 0, true, false, &es);
    if (err != ENG_OK)
        return err;
    int harm = cards_poison_harm(ts, es);
    if (harm == 0) {
        cards_say(c, who->id, "%s resists the poison (%d against %d)",
                  who->name, es, ts);
        return ENG_OK;
    }
    cards_say(c, who->id, "the poison takes hold of %s (%d against %d): %d "
              "Harm", who->name, es, ts, harm);
    cards_add_harm(c, who, harm, false, 0);
    if (harm - 1 > who->rs[CC_POISON_LEFT]) {
        who->rs[CC_POISON_LEFT] = harm - 1;
        who->rs[CC_POISON_ROUND] = c->e->round;
        struct enc_cond_req q = {.name = CARDS_POISONED};
        if (enc_cond_find(who, CARDS_POISONED) == NULL)
            return enc_cond_add(c->e, who, &q, c->r, c->d);
    }
    return ENG_OK;
}

/* ---- falling ------------------------------------------------------------- */

/* /fall name: feet: [soft:] [pool:|skill:] */
enum eng_err cards_do_fall(struct rs_call *c)
{
    enum eng_err err = cards_gm(c, "falling damage");
    struct enc_combatant *who;
    if (err == ENG_OK)
        err = rs_opt_combatant(c, "name", &who);
    if (err != ENG_OK)
        return err;
    int64_t feet;
    bool soft;
    if ((err = rs_opt_int(c, "feet", 0, CARDS_MAX_FALL, -1, &feet)) !=
            ENG_OK ||
        (err = rs_opt_bool(c, "soft", false, &soft)) != ENG_OK)
        return err;
    if (feet < 0)
        return enc_fail(c->d, ENG_INVALID, "feet: is required (how far %s "
                        "falls)", who->name);
    int dice = cards_fall_dice((int)feet);
    if (soft || dice == 0) {
        cards_say(c, who->id, "%s lands unharmed (%s)", who->name,
                  soft ? "a soft landing" : "under 10 feet");
        return ENG_OK;
    }
    int base;
    err = cards_endure(c, who, &base);
    if (err != ENG_OK)
        return err;
    int fs, es;
    err = cards_roll_pool(c, "fall", dice, &fs, NULL);
    if (err == ENG_OK)
        err = cards_test(c, who, "endure", base, 0, true, false, &es);
    if (err != ENG_OK)
        return err;
    int harm = cards_fall_harm(fs, es);
    cards_say(c, who->id, "%s falls %d feet: %d against Endure %d, %d "
              "Physical Harm (armour does not help)", who->name, (int)feet,
              fs, es, harm);
    cards_add_harm(c, who, harm, false, 0);
    return ENG_OK;
}

/* ---- round start --------------------------------------------------------- */

void cards_effects_tick(struct rs_call *c)
{
    struct encounter *e = c->e;
    for (int i = 0; i < e->ncs; i++) {
        struct enc_combatant *who = &e->cs[i];
        if ((who->flags & ENC_CF_DEAD) ||
            enc_cond_find(who, CARDS_FLED) != NULL)
            continue;
        if (who->rs[CC_FIRE] > 0 && e->round > who->rs[CC_FIRE_ROUND]) {
            int base = (int)enc_stat_or(who, "endure", 0);
            int s = 0;
            if (cards_test(c, who, "endure", base < 0 ? 0 : base, 0, true,
                           false, &s) != ENG_OK)
                c->d->code = ENG_OK;
            int dmg = cards_fire_damage((int)who->rs[CC_FIRE], s);
            cards_say(c, who->id, "%s burns: intensity %lld less %d: %d "
                      "Physical Harm", who->name, (long long)who->rs[CC_FIRE],
                      s, dmg);
            cards_add_harm(c, who, dmg, false, 0);
        }
        if (who->rs[CC_POISON_LEFT] > 0 &&
            e->round > who->rs[CC_POISON_ROUND]) {
            int harm = (int)who->rs[CC_POISON_LEFT]--;
            cards_say(c, who->id, "the poison works in %s: %d Harm",
                      who->name, harm);
            cards_add_harm(c, who, harm, false, 0);
            if (who->rs[CC_POISON_LEFT] == 0) {
                if (enc_cond_find(who, CARDS_POISONED) != NULL)
                    enc_cond_remove(e, who, CARDS_POISONED, c->r, c->d);
                c->d->code = ENG_OK;
                cards_say(c, who->id, "the poison in %s has run its course",
                          who->name);
            }
        }
    }
}
