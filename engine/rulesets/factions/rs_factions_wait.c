/*
 * rs_factions_wait.c - the `factions` ruleset: an attack that waits for
 * its target's answer.
 *
 * The chapter has the target choose a reaction after the WIT save to hit
 * and before damage, and answer an attack stunt before reacting. When an
 * attack's save passed (or the attacker asks to wait, or proposes a stunt)
 * and no reaction came with it, /attack stops there: the attack is kept in
 * the encounter's state (struct fac_enc, its damage dice on the attacker)
 * until the target answers with /react (dodge, counter, hide, none,
 * accept; or a nearby character guards), or until the next command that
 * moves the fight on (/combat next, pick, pass, another /attack...), which
 * finishes it as if nobody reacted.
 */
#include "rs_factions.h"

#include <stddef.h>
#include <string.h>

#include "turn.h"

static void fac_pending_clear(struct encounter *e)
{
    struct fac_enc *st = FAC_E(e);
    st->pend_att = 0;
    st->pend_tgt = 0;
    st->pend_flags = 0;
}

static const struct {
    int32_t bit;
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
                            const struct enc_combatant *tgt, int32_t flags)
{
    if (flags & FAC_PF_STUNT)
        RS_SAY(c, tgt, "{} proposes a stunt to {}: /react kind:accept takes "
               "it, or answer as to any attack", RS_A_WHO(att),
               RS_A_WHO(tgt));
    else
        RS_SAY(c, tgt, "The attack on {} stands: /react kind:dodge, counter, "
               "hide or none before damage", RS_A_WHO(tgt));
}

enum eng_err fac_pending_store(struct rs_call *c, struct enc_combatant *att,
                               struct enc_combatant *tgt, const char *damage,
                               const struct fac_atk *o, bool surprised)
{
    struct fac_enc *st = FAC_E(c->e);
    struct fac_comb *ac = FAC_C(att);
    if (damage == NULL)
        damage = "";
    if (strlen(damage) >= sizeof ac->pend_dmg)
        return enc_fail(c->d, ENG_LIMIT, "damage dice too long (limit is %d "
                        "bytes)", DICE_MAX_EXPR_LEN);
    enc_copy(ac->pend_dmg, sizeof ac->pend_dmg, damage);
    int32_t flags = surprised ? FAC_PF_SURPRISED : 0;
    for (size_t i = 0; i < sizeof fac_pf / sizeof fac_pf[0]; i++)
        if (*(const bool *)((const char *)o + fac_pf[i].off))
            flags |= fac_pf[i].bit;
    st->pend_att = att->id;
    st->pend_tgt = tgt->id;
    st->pend_flags = flags;
    fac_pending_say(c, att, tgt, flags);
    return ENG_OK;
}

/* The waiting attack, read back; false (and cleared) when one of its
 * combatants is gone. */
struct fac_waiting {
    struct enc_combatant *att, *tgt;
    struct fac_atk o;
    const char *damage;      /* the attacker's pend_dmg, or NULL */
    int32_t flags;
};

static bool fac_pending_load(struct rs_call *c, struct fac_waiting *w)
{
    struct fac_enc *st = FAC_E(c->e);
    if (st->pend_att == 0)
        return false;
    w->att = enc_by_id(c->e, st->pend_att);
    w->tgt = enc_by_id(c->e, st->pend_tgt);
    w->flags = st->pend_flags;
    if (w->att == NULL || w->tgt == NULL) {
        fac_pending_clear(c->e);
        rs_say0(c, NULL, "The waiting attack is dropped: a combatant in it "
                "left the fight");
        return false;
    }
    memset(&w->o, 0, sizeof w->o);
    w->o.zone = -1;
    for (size_t i = 0; i < sizeof fac_pf / sizeof fac_pf[0]; i++)
        if (w->flags & fac_pf[i].bit)
            *(bool *)((char *)&w->o + fac_pf[i].off) = true;
    w->damage = FAC_C(w->att)->pend_dmg[0] ? FAC_C(w->att)->pend_dmg : NULL;
    return true;
}

/* Finish the waiting attack with the answer rx. */
static enum eng_err fac_pending_finish(struct rs_call *c,
                                       struct fac_waiting *w, enum fac_rx rx,
                                       const char *counter)
{
    /* The dice move off the state before it is cleared. */
    char damage[DICE_MAX_EXPR_LEN + 1];
    enc_copy(damage, sizeof damage, w->damage != NULL ? w->damage : "");
    fac_pending_clear(c->e);
    memset(FAC_C(w->att)->pend_dmg, 0, sizeof FAC_C(w->att)->pend_dmg);
    if (!turn_can_act(w->att)) {
        RS_SAY(c, w->att, "{} is out of the fight: the attack is lost",
               RS_A_WHO(w->att));
        return ENG_OK;
    }
    return fac_finish(c, w->att, w->tgt, damage[0] ? damage : NULL, &w->o,
                      rx, counter);
}

enum eng_err fac_pending_flush(struct rs_call *c)
{
    struct fac_waiting w;
    if (!fac_pending_load(c, &w))
        return ENG_OK;
    if (w.flags & FAC_PF_STUNT)
        RS_SAY(c, w.tgt, "{} does not take up the stunt: the attack goes on",
               RS_A_WHO(w.tgt));
    else
        RS_SAY(c, w.tgt, "{} does not react", RS_A_WHO(w.tgt));
    return fac_pending_finish(c, &w, FAC_RX_NONE, NULL);
}

/* hide: the target steps behind a nearby character, who becomes the
 * target; a character the target holds grabbed has no say and cannot
 * react, anyone else agrees and may react in turn. */
static enum eng_err fac_pending_hide(struct rs_call *c, struct fac_waiting *w)
{
    struct enc_combatant *behind = rs_arg_who(c, "behind");
    if (behind == NULL) {
        enc_fail(c->d, ENG_INVALID, "behind: is required to hide");
        enc_hint(c->d, "/react name:\"%s\" kind:hide behind:<name>",
                 w->tgt->name);
        return ENG_INVALID;
    }
    if (behind == w->att || behind == w->tgt)
        return enc_fail(c->d, ENG_INVALID, "%s cannot take that place",
                        behind->name);
    if (!turn_can_act(behind))
        return enc_fail(c->d, ENG_STATE, "%s is out of the fight",
                        behind->name);
    fac_spend_reaction(c, w->tgt, N_("hides behind"), behind);
    const struct enc_cond *grab = enc_cond_find(behind, FAC_COND_GRABBED);
    bool held = grab != NULL && grab->source == w->tgt->id;
    struct enc_combatant *old = w->tgt;
    struct fac_enc *st = FAC_E(c->e);
    w->tgt = behind;
    st->pend_tgt = behind->id;
    if (!held && fac_may_react(behind)) {
        fac_pending_say(c, w->att, behind, w->flags & ~FAC_PF_STUNT);
        st->pend_flags &= ~FAC_PF_STUNT;
        return ENG_OK;
    }
    if (held)
        RS_SAY(c, behind, "{} is held by {} and has no say",
               RS_A_WHO(behind), RS_A_WHO(old));
    w->o.stunt = false;
    return fac_pending_finish(c, w, FAC_RX_NONE, NULL);
}

/* counter: the countering weapon's dice from /react counter:. */
static enum eng_err fac_pending_counter(struct rs_call *c,
                                        struct fac_waiting *w,
                                        struct enc_combatant *who)
{
    const char *dice = rs_arg_text(c, "counter", NULL);
    if (dice == NULL) {
        enc_fail(c->d, ENG_INVALID, "counter: is required (the countering "
                 "weapon's dice, or unarmed)");
        enc_hint(c->d, "/react name:\"%s\" kind:counter counter:d6",
                 who->name);
        return ENG_INVALID;
    }
    bool disarm;
    if (fac_counter_nonlethal(dice, &disarm)) {
        enum eng_err err = fac_need_attr(c, w->att, "str");
        if (err != ENG_OK)
            return err;
    }
    return fac_pending_finish(c, w, FAC_RX_COUNTER, dice);
}

enum eng_err fac_react_pending(struct rs_call *c, struct enc_combatant *who,
                               enum fac_kind kind, bool *handled)
{
    *handled = false;
    if (kind == FAC_K_OPPORTUNITY || kind == FAC_K_OTHER)
        return ENG_OK;          /* not an answer to an attack */
    struct fac_waiting w;
    if (!fac_pending_load(c, &w)) {
        enc_fail(c->d, ENG_STATE, "no attack is waiting for an answer");
        enc_hint(c->d, "give the reaction with the attack (options:dodge), "
                 "or kind:other for a reaction fray does not resolve");
        return ENG_STATE;
    }
    *handled = true;
    enum eng_err err = rs_require_actor(c, who);
    if (err != ENG_OK)
        return err;
    if (kind == FAC_K_GUARD) {
        if (who == w.att || who == w.tgt)
            return enc_fail(c->d, ENG_INVALID, "%s cannot guard in this "
                            "attack", who->name);
        err = fac_check_react(c, who);
        if (err != ENG_OK)
            return err;
        fac_spend_reaction(c, who, N_("guards"), w.tgt);
        w.tgt = who;            /* a guard has spent the reaction */
        w.o.stunt = false;
        return fac_pending_finish(c, &w, FAC_RX_NONE, NULL);
    }
    if (who != w.tgt)
        return enc_fail(c->d, ENG_STATE, "the waiting attack is aimed at "
                        "%s, not %s", w.tgt->name, who->name);
    switch (kind) {
    case FAC_K_ACCEPT:
        if (!(w.flags & FAC_PF_STUNT))
            return enc_fail(c->d, ENG_STATE, "no stunt was proposed to %s",
                            who->name);
        return fac_pending_finish(c, &w, FAC_RX_ACCEPT, NULL);
    case FAC_K_NONE:
        RS_SAY(c, who, "{} does not react", RS_A_WHO(who));
        return fac_pending_finish(c, &w, FAC_RX_NONE, NULL);
    default:
        break;
    }
    if (w.flags & FAC_PF_SURPRISED)
        return enc_fail(c->d, ENG_STATE, "%s is taken by surprise and cannot "
                        "react", who->name);
    err = fac_check_react(c, who);
    if (err != ENG_OK)
        return err;
    switch (kind) {
    case FAC_K_HIDE:
        return fac_pending_hide(c, &w);
    case FAC_K_DODGE:
        err = fac_need_attr(c, who, "agi");
        return err != ENG_OK ? err :
               fac_pending_finish(c, &w, FAC_RX_DODGE, NULL);
    default:
        return fac_pending_counter(c, &w, who);
    }
}
