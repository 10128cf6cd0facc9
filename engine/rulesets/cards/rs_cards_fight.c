/*
 * rs_cards_fight.c - the `cards` ruleset: reactions, attacks, holds and
 * fleeing.
 */
#include <stdio.h>
#include <string.h>

#include "eng_text.h"
#include "rs_cards.h"
#include "rs_kit.h"
#include "turn.h"

/* ---- pure rules ---------------------------------------------------------- */

struct cards_hit cards_attack_outcome(int attack, int defence, int need,
                                      int weapon, int to_damage,
                                      bool buy_swap)
{
    struct cards_hit h = {0};
    h.defender_swap = defence > 0 && defence > attack;
    h.net = attack - defence;
    if (h.net < 0)
        h.net = 0;
    if (need < 1)
        need = 1;
    if (h.net < need)
        return h;
    h.hit = true;
    h.extra = h.net - need;
    int extra = h.extra;
    if (buy_swap && extra > 0) {
        h.attacker_swap = true;
        extra--;
    }
    int spend = to_damage < 0 || to_damage > extra ? extra : to_damage;
    h.harm = weapon + spend;
    return h;
}

bool cards_in_range(int lo, int hi, int distance)
{
    return distance >= lo && distance <= hi;
}

bool cards_breakfree(int held, int holder, bool holder_reacted)
{
    return holder_reacted ? held > holder : held >= 1;
}

bool cards_flee(int flee, int chase)
{
    return flee - chase >= 1;
}

/* ---- reactions ----------------------------------------------------------- */

static const char *const cards_react_names[] = {
    [CARDS_R_NONE] = "none", [CARDS_R_DODGE] = "dodge",
    [CARDS_R_PARRY] = "parry", [CARDS_R_BREAKFREE] = "breakfree",
    [CARDS_R_HOLD] = "hold", [CARDS_R_CHASE] = "chase",
    [CARDS_R_RESIST] = "resist", [CARDS_R_OTHER] = "other",
};

/* Who holds who (the Held condition's source), or NULL. */
static struct enc_combatant *cards_holder(struct encounter *e,
                                          struct enc_combatant *who)
{
    struct enc_cond *q = enc_cond_find(who, CARDS_HELD);
    return q != NULL && q->source != 0 ? enc_by_id(e, q->source) : NULL;
}

static bool cards_is_holding(struct encounter *e,
                             const struct enc_combatant *who)
{
    for (int i = 0; i < e->ncs; i++) {
        struct enc_cond *q = enc_cond_find(&e->cs[i], CARDS_HELD);
        if (q != NULL && q->source == who->id)
            return true;
    }
    return false;
}

static void cards_release(struct rs_call *c, struct enc_combatant *who)
{
    enc_cond_remove(c->e, who, CARDS_HELD, c->r, c->d);
    if (enc_cond_find(who, CARDS_SILENCED) != NULL)
        enc_cond_remove(c->e, who, CARDS_SILENCED, c->r, c->d);
    c->d->code = ENG_OK;
}

/* The held one tries to break free now. */
static enum eng_err cards_break_now(struct rs_call *c,
                                    struct enc_combatant *who, int base)
{
    struct encounter *e = c->e;
    if (who->rs[CC_BREAK_SEQ] == (int64_t)e->turn_seq + 1)
        return enc_fail(c->d, ENG_STATE, "%s has tried to break free this "
                        "turn already", who->name);
    struct enc_combatant *holder = cards_holder(e, who);
    enum eng_err err = cards_spend(c, who, false, true);
    if (err != ENG_OK)
        return err;
    who->rs[CC_BREAK_SEQ] = (int64_t)e->turn_seq + 1;
    int s;
    err = cards_test(c, who, "break free", base, 0, true, false, &s);
    if (err != ENG_OK)
        return err;
    bool reacted = holder != NULL && holder->rs[CC_DEF_KIND] == CARDS_R_HOLD;
    int hs = reacted ? (int)holder->rs[CC_DEF_SUCC] : 0;
    if (reacted)
        holder->rs[CC_DEF_KIND] = holder->rs[CC_DEF_SUCC] = 0;
    if (cards_breakfree(s, hs, reacted)) {
        cards_release(c, who);
        cards_say(c, who->id, "%s breaks free (%d against %d)", who->name,
                  s, hs);
    } else {
        cards_say(c, who->id, "%s is still held (%d against %d%s)",
                  who->name, s, hs, reacted ? "" : ", one success needed");
    }
    return ENG_OK;
}

/* /react name: kind: against: pool:|skill: unarmed: need: label: */
enum eng_err cards_do_react(struct rs_call *c)
{
    struct encounter *e = c->e;
    struct enc_combatant *who, *vs = NULL;
    enum eng_err err = cards_actor(c, &who);
    if (err != ENG_OK)
        return err;
    const char *kname = rs_opt(c->opts, c->nopts, "kind");
    if (kname == NULL)
        kname = rs_opt(c->opts, c->nopts, "reaction");
    enum cards_react kind = CARDS_R_NONE;
    for (int k = CARDS_R_DODGE; k <= CARDS_R_OTHER; k++)
        if (kname != NULL && eng_text_casecmp(kname, cards_react_names[k]) == 0)
            kind = (enum cards_react)k;
    if (kind == CARDS_R_NONE)
        return enc_fail(c->d, ENG_INVALID, "kind: must be dodge, parry, "
                        "breakfree, hold, chase, resist or other");
    if (rs_opt(c->opts, c->nopts, "against") != NULL) {
        err = rs_opt_combatant(c, "against", &vs);
        if (err != ENG_OK)
            return err;
        if (vs == who)
            return enc_fail(c->d, ENG_INVALID, "%s cannot react against "
                            "itself", who->name);
    }
    bool held_ok = kind == CARDS_R_PARRY || kind == CARDS_R_BREAKFREE;
    err = cards_may(c, who, cards_react_names[kind], held_ok, false);
    if (err != ENG_OK)
        return err;
    bool pends = kind != CARDS_R_RESIST && kind != CARDS_R_OTHER &&
                 !(kind == CARDS_R_BREAKFREE &&
                   enc_cond_find(who, CARDS_HELD) != NULL);
    if (pends && who->rs[CC_DEF_KIND] != CARDS_R_NONE)
        return enc_fail(c->d, ENG_STATE, "%s already has a %s ready this "
                        "round", who->name,
                        cards_react_names[who->rs[CC_DEF_KIND]]);
    bool unarmed;
    err = rs_opt_bool(c, "unarmed", false, &unarmed);
    if (err != ENG_OK)
        return err;
    const char *dflt = NULL;
    switch (kind) {
    case CARDS_R_DODGE:
    case CARDS_R_CHASE:
        dflt = "finesse";
        break;
    case CARDS_R_PARRY:
        dflt = unarmed ? "force" : "strike";
        break;
    case CARDS_R_BREAKFREE:
    case CARDS_R_HOLD:
        dflt = "force";
        break;
    case CARDS_R_NONE:
    case CARDS_R_RESIST:
    case CARDS_R_OTHER:
        break;
    }
    if (kind == CARDS_R_OTHER) {
        err = cards_spend(c, who, false, true);
        if (err != ENG_OK)
            return err;
        const char *label = rs_opt(c->opts, c->nopts, "label");
        cards_say(c, who->id, "%s reacts%s%.48s", who->name,
                  label ? ": " : "", label ? label : "");
        return ENG_OK;
    }
    int base;
    err = cards_opt_pool(c, who, dflt, &base);
    if (err != ENG_OK)
        return err;
    if (kind == CARDS_R_BREAKFREE && enc_cond_find(who, CARDS_HELD) != NULL)
        return cards_break_now(c, who, base);
    if (kind == CARDS_R_HOLD && !cards_is_holding(e, who))
        return enc_fail(c->d, ENG_STATE, "%s is not holding anybody",
                        who->name);
    if (kind == CARDS_R_CHASE) {
        if (vs == NULL)
            return enc_fail(c->d, ENG_INVALID, "against: is required (who "
                            "is fleeing)");
        if (cards_distance(who, vs) > 0)
            return enc_fail(c->d, ENG_STATE, "%s is not in %s's zone",
                            vs->name, who->name);
    }
    err = cards_spend(c, who, false, true);
    if (err != ENG_OK)
        return err;
    int s;
    err = cards_test(c, who, cards_react_names[kind], base, 0, true, false,
                     &s);
    if (err != ENG_OK)
        return err;
    if (kind == CARDS_R_RESIST) {
        int64_t need;
        err = rs_opt_int(c, "need", 1, CARDS_MAX_NEED, 1, &need);
        if (err != ENG_OK)
            return err;
        cards_say(c, who->id, "%s %s the magic (%d of %d needed)", who->name,
                  s >= need ? "resists" : "does not resist", s, (int)need);
        return ENG_OK;
    }
    who->rs[CC_DEF_KIND] = kind;
    who->rs[CC_DEF_SUCC] = s;
    who->rs[CC_DEF_VS] = vs ? vs->id : 0;
    cards_say(c, who->id, "%s readies a %s: %d success%s%s%s", who->name,
              cards_react_names[kind], s, s == 1 ? "" : "es",
              vs ? " against " : "", vs ? vs->name : "");
    return ENG_OK;
}

/* ---- attacks ------------------------------------------------------------- */

struct cards_atk_opts {
    const char *skill;       /* stat rolled */
    bool ranged, grapple, mouth, swap, mental, free;
    int lo, hi;              /* weapon range, -1 = not given */
    int distance;            /* -1 = from zones */
    int need, extra, bonus;  /* extra -1 = all */
};

static enum eng_err cards_atk_num(struct rs_call *c, const char *key,
                                  const char *v, int lo, int hi, int *out)
{
    int64_t x;
    if (v == NULL || !eng_text_to_int(v, &x) || x < lo || x > hi)
        return enc_fail(c->d, ENG_RANGE, "option %s must be %d to %d", key,
                        lo, hi);
    *out = (int)x;
    return ENG_OK;
}

/* options -> word*; word -> key | key '=' value */
static enum eng_err cards_atk_parse(struct rs_call *c, const char *text,
                                    struct cards_atk_opts *o)
{
    *o = (struct cards_atk_opts){.skill = "strike", .lo = -1, .hi = -1,
                                 .distance = -1, .need = 1, .extra = -1};
    if (text == NULL)
        return ENG_OK;
    if (strlen(text) > CARDS_MAX_OPTIONS)
        return enc_fail(c->d, ENG_LIMIT, "options are too long (limit is %d "
                        "bytes)", CARDS_MAX_OPTIONS);
    const char *p = text;
    enum eng_err err = ENG_OK;
    while (err == ENG_OK) {
        while (*p == ' ' || *p == ',')
            p++;
        if (*p == '\0')
            break;
        char word[CARDS_MAX_WORD + 1];
        size_t n = strcspn(p, " ,");
        if (n > CARDS_MAX_WORD)
            return enc_fail(c->d, ENG_LIMIT, "option `%.20s...` is too long",
                            p);
        memcpy(word, p, n);
        word[n] = '\0';
        p += n;
        char *v = strchr(word, '=');
        if (v != NULL)
            *v++ = '\0';
        if (!strcmp(word, "strike") || !strcmp(word, "force") ||
            !strcmp(word, "shoot") || !strcmp(word, "cast")) {
            o->skill = !strcmp(word, "strike") ? "strike" :
                       !strcmp(word, "force") ? "force" :
                       !strcmp(word, "shoot") ? "shoot" : "cast";
            o->ranged = !strcmp(word, "shoot");
        } else if (!strcmp(word, "grapple")) {
            o->grapple = true;
            o->skill = "force";
        } else if (!strcmp(word, "mouth")) {
            o->mouth = true;
        } else if (!strcmp(word, "swap")) {
            o->swap = true;
        } else if (!strcmp(word, "mental")) {
            o->mental = true;
        } else if (!strcmp(word, "free")) {
            o->free = true;
        } else if (!strcmp(word, "range")) {
            int64_t lo, hi;
            const char *q = v ? eng_text_parse_int(v, &lo) : NULL;
            if (q != NULL && *q == '\0')
                hi = lo;
            else if (q == NULL || *q != '-' ||
                     !eng_text_to_int(q + 1, &hi))
                return enc_fail(c->d, ENG_INVALID, "range must look like "
                                "0-1 or 1-3");
            if (lo < 0 || hi < lo || hi > CARDS_MAX_ZONE)
                return enc_fail(c->d, ENG_RANGE, "range must be 0 to %d, "
                                "low to high", CARDS_MAX_ZONE);
            o->lo = (int)lo;
            o->hi = (int)hi;
        } else if (!strcmp(word, "distance")) {
            err = cards_atk_num(c, word, v, 0, CARDS_MAX_ZONE, &o->distance);
        } else if (!strcmp(word, "need")) {
            err = cards_atk_num(c, word, v, 1, CARDS_MAX_NEED, &o->need);
        } else if (!strcmp(word, "extra")) {
            err = cards_atk_num(c, word, v, 0, CARDS_MAX_POOL, &o->extra);
        } else if (!strcmp(word, "bonus")) {
            err = cards_atk_num(c, word, v, -CARDS_MAX_POOL, CARDS_MAX_POOL,
                                &o->bonus);
        } else {
            enc_fail(c->d, ENG_INVALID, "unknown attack option `%.24s`",
                     word);
            enc_hint(c->d, "options: strike force shoot cast grapple mouth "
                     "swap mental free range=0-1 distance=N need=N extra=N "
                     "bonus=N");
            return ENG_INVALID;
        }
    }
    return err;
}

/* The defence the target readied against this attack, consumed. */
static int cards_take_defence(struct enc_combatant *tgt, uint32_t attacker,
                              const struct cards_atk_opts *o,
                              const char **kind)
{
    int64_t k = tgt->rs[CC_DEF_KIND];
    bool fits = (k == CARDS_R_DODGE && !o->grapple) ||
                (k == CARDS_R_PARRY && !o->ranged && !o->grapple) ||
                (k == CARDS_R_BREAKFREE && o->grapple);
    if (!fits || (tgt->rs[CC_DEF_VS] != 0 &&
                  tgt->rs[CC_DEF_VS] != (int64_t)attacker))
        return -1;
    *kind = cards_react_names[k];
    int s = (int)tgt->rs[CC_DEF_SUCC];
    tgt->rs[CC_DEF_KIND] = tgt->rs[CC_DEF_SUCC] = tgt->rs[CC_DEF_VS] = 0;
    return s;
}

enum eng_err cards_attack(struct rs_call *c, const struct rs_attack *a)
{
    struct encounter *e = c->e;
    struct enc_combatant *atk = a->attacker, *tgt = a->target;
    if (e->status != ENC_ST_RUNNING)
        return enc_fail(c->d, ENG_STATE, "the fight has not begun");
    if (atk == tgt)
        return enc_fail(c->d, ENG_INVALID, "%s cannot attack itself",
                        atk->name);
    struct cards_atk_opts o;
    enum eng_err err = cards_atk_parse(c, a->options, &o);
    if (err != ENG_OK)
        return err;
    if (o.free && !c->is_gm)
        return enc_fail(c->d, ENG_PERM, "only the GM may make a free "
                        "attack");
    err = cards_may(c, atk, "attack", false, false);
    if (err != ENG_OK)
        return err;
    /* Range: melee reaches the same zone only. */
    int dist = o.distance >= 0 ? o.distance : cards_distance(atk, tgt);
    if (dist >= 0) {
        bool melee = !o.ranged && o.skill != NULL && strcmp(o.skill, "cast");
        if (o.lo >= 0 && !cards_in_range(o.lo, o.hi, dist))
            return enc_fail(c->d, ENG_RANGE, "%s is %d zone%s away, out of "
                            "the weapon's range %d-%d", tgt->name, dist,
                            dist == 1 ? "" : "s", o.lo, o.hi);
        if (o.lo < 0 && melee && dist > 0)
            return enc_fail(c->d, ENG_RANGE, "%s is %d zone%s away: close "
                            "combat needs the same zone (shoot with "
                            "range=lo-hi)", tgt->name, dist,
                            dist == 1 ? "" : "s");
    }
    /* Damage: a number of Harm, from damage: or the damage stat. */
    int weapon = 0;
    if (!o.grapple) {
        int64_t w;
        if (a->damage != NULL) {
            if (!eng_text_to_int(a->damage, &w) || w < 0 ||
                w > CARDS_MAX_DAMAGE)
                return enc_fail(c->d, ENG_RANGE, "damage: is the weapon's "
                                "Harm, a whole number from 0 to %d",
                                CARDS_MAX_DAMAGE);
        } else {
            const int64_t *s = enc_stat(atk, "damage");
            if (s == NULL) {
                enc_fail(c->d, ENG_STATE, "how much Harm does %s's weapon "
                         "do?", atk->name);
                enc_hint(c->d, "/attack ... damage:2, or /combat set "
                         "name:\"%s\" stats:\"damage=2\"", atk->name);
                return ENG_STATE;
            }
            w = *s;
        }
        weapon = (int)w;
    }
    int base = 0;
    int64_t pool;
    const char *roll = a->roll;
    if (roll != NULL && eng_text_to_int(roll, &pool)) {
        if (pool < 0 || pool > CARDS_MAX_POOL)
            return enc_fail(c->d, ENG_RANGE, "roll: is the attack's dice, 0 "
                            "to %d", CARDS_MAX_POOL);
        base = (int)pool;
        roll = NULL;
    } else if (roll == NULL) {
        err = cards_skill(c, atk, o.skill, &base);
        if (err != ENG_OK)
            return err;
    }
    if (!o.free) {
        err = cards_spend(c, atk, true, false);
        if (err != ENG_OK)
            return err;
    }
    int s;
    if (roll != NULL) {
        struct rs_rolled r;
        err = rs_roll(c, NULL, "attack", roll, &r);
        if (err != ENG_OK)
            return err;
        s = (int)(r.successes > 0 ? r.successes : 0);
    } else {
        err = cards_test(c, atk, o.skill, base, o.bonus, true, !o.free, &s);
        if (err != ENG_OK)
            return err;
    }
    const char *dkind = NULL;
    int def = cards_take_defence(tgt, atk->id, &o, &dkind);
    struct cards_hit h = cards_attack_outcome(s, def > 0 ? def : 0, o.need,
                                              weapon, o.extra, o.swap);
    struct enc_event *ev = enc_emit(c->r, ENC_EV_ATTACK, atk->id);
    ev->other = tgt->id;
    ev->a = s;
    ev->b = o.need + (def > 0 ? def : 0);
    ev->c = h.hit;
    ev->secret = atk->hidden;
    if (def >= 0)
        enc_event_text(c->r, ev, "%s: %d success%s, %s %d: %s",
                 h.hit ? "hit" : "miss", s, s == 1 ? "" : "es", dkind, def,
                 h.hit ? (h.extra ? "extra successes" : "one gets through")
                       : "all taken off");
    else
        enc_event_text(c->r, ev, "%s: %d success%s of %d needed",
                 h.hit ? "hit" : "miss", s, s == 1 ? "" : "es", o.need);
    if (h.defender_swap) {
        tgt->rs[CC_SWAP_VS] = atk->id;
        cards_say(c, tgt->id, "%s rolled more than needed and may swap "
                  "cards with %s: /combat swap a:\"%s\" b:\"%s\"", tgt->name,
                  atk->name, tgt->name, atk->name);
    }
    if (h.attacker_swap) {
        atk->rs[CC_SWAP_VS] = tgt->id;
        cards_say(c, atk->id, "%s spends a success to outmaneuver %s: "
                  "/combat swap a:\"%s\" b:\"%s\"", atk->name, tgt->name,
                  atk->name, tgt->name);
    }
    if (!h.hit)
        return ENG_OK;
    if (o.grapple) {
        struct enc_cond_req q = {.name = CARDS_HELD, .source = atk->id};
        err = enc_cond_add(e, tgt, &q, c->r, c->d);
        if (err == ENG_OK && o.mouth && h.extra > (h.attacker_swap ? 1 : 0)) {
            q.name = CARDS_SILENCED;
            err = enc_cond_add(e, tgt, &q, c->r, c->d);
        }
        return err;
    }
    cards_add_harm(c, tgt, h.harm, o.mental, atk->id);
    return ENG_OK;
}

/* ---- fleeing ------------------------------------------------------------- */

/* /flee name: pool:|skill: (finesse or sneak) */
enum eng_err cards_do_flee(struct rs_call *c)
{
    struct encounter *e = c->e;
    struct enc_combatant *who;
    enum eng_err err = cards_actor(c, &who);
    if (err != ENG_OK)
        return err;
    err = cards_may(c, who, "flee", false, true);
    if (err != ENG_OK)
        return err;
    int base;
    err = cards_opt_pool(c, who, "finesse", &base);
    if (err != ENG_OK)
        return err;
    err = cards_spend(c, who, true, false);
    if (err != ENG_OK)
        return err;
    int s;
    err = cards_test(c, who, "flee", base, 0, true, true, &s);
    if (err != ENG_OK)
        return err;
    int chase = 0, chasers = 0;
    for (int i = 0; i < e->ncs; i++) {
        struct enc_combatant *o = &e->cs[i];
        if (o->rs[CC_DEF_KIND] != CARDS_R_CHASE ||
            o->rs[CC_DEF_VS] != (int64_t)who->id)
            continue;
        chase += (int)o->rs[CC_DEF_SUCC];
        chasers++;
        o->rs[CC_DEF_KIND] = o->rs[CC_DEF_SUCC] = o->rs[CC_DEF_VS] = 0;
    }
    if (cards_flee(s, chase)) {
        struct enc_cond_req q = {.name = CARDS_FLED};
        err = enc_cond_add(e, who, &q, c->r, c->d);
        if (err != ENG_OK)
            return err;
        if (!(who->flags & ENC_CF_DOWN)) {
            who->flags |= ENC_CF_DOWN;
            enc_emit(c->r, ENC_EV_DOWN, who->id)->secret = who->hidden;
        }
        cards_say(c, who->id, "%s flees and leaves the fight (%d success%s"
                  "%s)", who->name, s, s == 1 ? "" : "es",
                  chasers ? " after the chase" : "");
    } else if (s > 0) {
        cards_say(c, who->id, "the chase keeps %s in the fight (%d against "
                  "%d): fleer and chasers move one zone that way",
                  who->name, s, chase);
    } else {
        cards_say(c, who->id, "%s fails to flee and stays in the zone",
                  who->name);
    }
    return ENG_OK;
}
