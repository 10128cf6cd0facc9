/*
 * rs_factions_react.c - the `factions` ruleset: an attack that waits for
 * its target's answer.
 *
 * The chapter has the target choose a reaction after the WIT save to hit
 * and before damage, and answer an attack stunt before reacting. When an
 * attack's save passed (or the attacker asks to wait, or proposes a stunt)
 * and no reaction came with it, /attack stops there: the attack is kept in
 * the scratch slots (rs_factions.h) until the target answers with /react
 * (dodge, counter, hide, none, accept; or a nearby character guards), or
 * until the next command that moves the fight on (/combat next, pick, pass,
 * another /attack...), which finishes it as if nobody reacted.
 */
#include "rs_factions.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "eng_text.h"
#include "turn.h"

bool fac_may_react(const struct enc_combatant *w)
{
    return turn_can_act(w) && !(w->flags & ENC_CF_ACTED);
}

static void fac_pending_clear(struct encounter *e)
{
    e->rs[FAC_E_PEND_ATT] = 0;
    e->rs[FAC_E_PEND_TGT] = 0;
    e->rs[FAC_E_PEND_FLAGS] = 0;
}

static const struct {
    int64_t bit;
    size_t off;
} fac_pf[] = {
    {FAC_PF_IMPAIRED, offsetof(struct fac_atk, impaired)},
    {FAC_PF_UNARMED, offsetof(struct fac_atk, unarmed)},
    {FAC_PF_COVER, offsetof(struct fac_atk, cover)},
    {FAC_PF_PENETRATES, offsetof(struct fac_atk, penetrates)},
    {FAC_PF_DAMAGED, offsetof(struct fac_atk, damaged)},
    {FAC_PF_DISARM, offsetof(struct fac_atk, disarm)},
    {FAC_PF_GRAPPLE, offsetof(struct fac_atk, grapple)},
    {FAC_PF_STUNT, offsetof(struct fac_atk, stunt)},
    {FAC_PF_PEEK, offsetof(struct fac_atk, peek)},
};

/* Tell the table who may answer and how. */
static void fac_pending_say(struct rs_call *c, const struct enc_combatant *att,
                            const struct enc_combatant *tgt, int64_t flags)
{
    if (flags & FAC_PF_STUNT)
        fac_say(c, tgt->id, false, "%.40s proposes a stunt to %.40s: "
                "/react name:\"%.40s\" kind:accept, or answer as to any "
                "attack", att->name, tgt->name, tgt->name);
    else
        fac_say(c, tgt->id, false, "the attack on %.40s stands: /react "
                "name:\"%.40s\" kind:dodge, counter, hide or none before "
                "damage", tgt->name, tgt->name);
}

enum eng_err fac_pending_store(struct rs_call *c, struct enc_combatant *att,
                               struct enc_combatant *tgt, const char *damage,
                               const struct fac_atk *o, bool surprised)
{
    struct encounter *e = c->e;
    if (damage == NULL)
        damage = "";
    size_t len = strlen(damage);
    if (len > FAC_MAX_PENDING_DAMAGE)
        return enc_fail(c->d, ENG_LIMIT, "damage dice too long for an attack "
                        "that waits for an answer (limit is %d bytes)",
                        FAC_MAX_PENDING_DAMAGE);
    char buf[FAC_C_PEND_DMG_SLOTS * 8];
    memset(buf, 0, sizeof buf);
    memcpy(buf, damage, len);
    memcpy(&att->rs[FAC_C_PEND_DMG], buf, sizeof buf);
    int64_t flags = surprised ? FAC_PF_SURPRISED : 0;
    for (size_t i = 0; i < sizeof fac_pf / sizeof fac_pf[0]; i++)
        if (*(const bool *)((const char *)o + fac_pf[i].off))
            flags |= fac_pf[i].bit;
    e->rs[FAC_E_PEND_ATT] = att->id;
    e->rs[FAC_E_PEND_TGT] = tgt->id;
    e->rs[FAC_E_PEND_FLAGS] = flags;
    fac_pending_say(c, att, tgt, flags);
    return ENG_OK;
}

/* The waiting attack, read back; false (and cleared) when one of its
 * combatants is gone. */
struct fac_waiting {
    struct enc_combatant *att, *tgt;
    struct fac_atk o;
    char damage[FAC_C_PEND_DMG_SLOTS * 8 + 1];
    int64_t flags;
};

static bool fac_pending_load(struct rs_call *c, struct fac_waiting *w)
{
    struct encounter *e = c->e;
    if (e->rs[FAC_E_PEND_ATT] == 0)
        return false;
    w->att = enc_by_id(e, (uint32_t)e->rs[FAC_E_PEND_ATT]);
    w->tgt = enc_by_id(e, (uint32_t)e->rs[FAC_E_PEND_TGT]);
    w->flags = e->rs[FAC_E_PEND_FLAGS];
    if (w->att == NULL || w->tgt == NULL) {
        fac_pending_clear(e);
        fac_say(c, 0, false, "the waiting attack is dropped: a combatant "
                "in it left the fight");
        return false;
    }
    memset(&w->o, 0, sizeof w->o);
    for (size_t i = 0; i < sizeof fac_pf / sizeof fac_pf[0]; i++)
        if (w->flags & fac_pf[i].bit)
            *(bool *)((char *)&w->o + fac_pf[i].off) = true;
    memcpy(w->damage, &w->att->rs[FAC_C_PEND_DMG], sizeof w->damage - 1);
    w->damage[sizeof w->damage - 1] = '\0';
    return true;
}

/* Finish the waiting attack with the answer rx. */
static enum eng_err fac_pending_finish(struct rs_call *c,
                                       struct fac_waiting *w, enum fac_rx rx,
                                       const char *counter)
{
    fac_pending_clear(c->e);
    memset(&w->att->rs[FAC_C_PEND_DMG], 0,
           FAC_C_PEND_DMG_SLOTS * sizeof w->att->rs[0]);
    if (!turn_can_act(w->att)) {
        fac_say(c, w->att->id, false, "%.40s is out of the fight: the attack "
                "is lost", w->att->name);
        return ENG_OK;
    }
    return fac_finish(c, w->att, w->tgt, w->damage[0] ? w->damage : NULL,
                      &w->o, rx, counter);
}

enum eng_err fac_pending_flush(struct rs_call *c)
{
    struct fac_waiting w;
    if (!fac_pending_load(c, &w))
        return ENG_OK;
    if (w.flags & FAC_PF_STUNT)
        fac_say(c, w.tgt->id, false, "%.40s does not take up the stunt: the "
                "attack goes on", w.tgt->name);
    else
        fac_say(c, w.tgt->id, false, "%.40s does not react", w.tgt->name);
    return fac_pending_finish(c, &w, FAC_RX_NONE, NULL);
}

/* hide: the target steps behind a nearby character, who becomes the
 * target; a character the target holds grabbed has no say and cannot
 * react, anyone else agrees and may react in turn. */
static enum eng_err fac_pending_hide(struct rs_call *c, struct fac_waiting *w)
{
    struct enc_combatant *behind;
    enum eng_err err = rs_opt_combatant(c, "behind", &behind);
    if (err != ENG_OK)
        return err;
    if (behind == w->att || behind == w->tgt)
        return enc_fail(c->d, ENG_INVALID, "%s cannot take that place",
                        behind->name);
    if (!turn_can_act(behind))
        return enc_fail(c->d, ENG_STATE, "%s is out of the fight",
                        behind->name);
    char what[64];
    snprintf(what, sizeof what, "hides behind %.40s", behind->name);
    fac_spend_reaction(c, w->tgt, what);
    const struct enc_cond *grab = enc_cond_find(behind, FAC_COND_GRABBED);
    bool held = grab != NULL && grab->source == w->tgt->id;
    struct enc_combatant *old = w->tgt;
    w->tgt = behind;
    c->e->rs[FAC_E_PEND_TGT] = behind->id;
    if (!held && fac_may_react(behind)) {
        fac_pending_say(c, w->att, behind, w->flags & ~FAC_PF_STUNT);
        c->e->rs[FAC_E_PEND_FLAGS] &= ~(int64_t)FAC_PF_STUNT;
        return ENG_OK;
    }
    if (held)
        fac_say(c, behind->id, false, "%.40s is held by %.40s and has no "
                "say", behind->name, old->name);
    w->o.stunt = false;
    return fac_pending_finish(c, w, FAC_RX_NONE, NULL);
}

enum eng_err fac_react_pending(struct rs_call *c, struct enc_combatant *who,
                               const char *kind, bool *handled)
{
    *handled = false;
    bool none = strcmp(kind, "none") == 0, accept = strcmp(kind, "accept") == 0;
    struct fac_waiting w;
    if (!fac_pending_load(c, &w)) {
        if (none || accept)
            return enc_fail(c->d, ENG_STATE, "no attack is waiting for an "
                            "answer");
        return ENG_OK;
    }
    bool guard = strcmp(kind, "guard") == 0;
    if (!guard && !none && !accept && strcmp(kind, "dodge") != 0 &&
        strcmp(kind, "counter") != 0 && strcmp(kind, "hide") != 0)
        return ENG_OK;          /* opportunity, other: not this attack's */
    *handled = true;
    enum eng_err err = rs_require_actor(c, who);
    if (err != ENG_OK)
        return err;
    if (guard) {
        if (who == w.att || who == w.tgt)
            return enc_fail(c->d, ENG_INVALID, "%s cannot guard in this "
                            "attack", who->name);
        err = fac_check_react(c, who);
        if (err != ENG_OK)
            return err;
        char what[64];
        snprintf(what, sizeof what, "guards %.40s", w.tgt->name);
        fac_spend_reaction(c, who, what);
        w.tgt = who;            /* a guard has spent the reaction */
        w.o.stunt = false;
        return fac_pending_finish(c, &w, FAC_RX_NONE, NULL);
    }
    if (who != w.tgt)
        return enc_fail(c->d, ENG_STATE, "the waiting attack is aimed at "
                        "%s, not %s", w.tgt->name, who->name);
    if (accept) {
        if (!(w.flags & FAC_PF_STUNT))
            return enc_fail(c->d, ENG_STATE, "no stunt was proposed to %s",
                            who->name);
        return fac_pending_finish(c, &w, FAC_RX_ACCEPT, NULL);
    }
    if (none) {
        fac_say(c, who->id, false, "%.40s does not react", who->name);
        return fac_pending_finish(c, &w, FAC_RX_NONE, NULL);
    }
    if (w.flags & FAC_PF_SURPRISED)
        return enc_fail(c->d, ENG_STATE, "%s is taken by surprise and cannot "
                        "react", who->name);
    err = fac_check_react(c, who);
    if (err != ENG_OK)
        return err;
    if (strcmp(kind, "hide") == 0)
        return fac_pending_hide(c, &w);
    if (strcmp(kind, "dodge") == 0) {
        err = fac_need_attr(c, who, "agi");
        return err != ENG_OK ? err :
               fac_pending_finish(c, &w, FAC_RX_DODGE, NULL);
    }
    const char *dice = rs_opt(c->opts, c->nopts, "counter");
    if (dice == NULL || dice[0] == '\0') {
        enc_fail(c->d, ENG_INVALID, "counter: is required (the countering "
                 "weapon's dice, or unarmed)");
        enc_hint(c->d, "/react name:\"%s\" kind:counter counter:d6",
                 who->name);
        return ENG_INVALID;
    }
    if (strlen(dice) >= sizeof w.o.counter)
        return enc_fail(c->d, ENG_LIMIT, "counter dice too long (limit is "
                        "%zu bytes)", sizeof w.o.counter - 1);
    bool disarm;
    if (fac_counter_nonlethal(dice, &disarm)) {
        err = fac_need_attr(c, w.att, "str");
        if (err != ENG_OK)
            return err;
    }
    enc_copy(w.o.counter, sizeof w.o.counter, dice);
    return fac_pending_finish(c, &w, FAC_RX_COUNTER, w.o.counter);
}
