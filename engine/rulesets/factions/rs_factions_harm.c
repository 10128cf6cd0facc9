/*
 * rs_factions_harm.c - the `factions` ruleset: saves, spending a reaction,
 * and harm (damage, gear that breaks, the track rule).
 *
 * Saves roll 1d20 against STR, AGI or WIT and pass at or below the score
 * (README default; setting save=below makes it strictly below). A reaction
 * is the character's turn for the round taken out of order.
 */
#include "rs_factions.h"

#include <string.h>

#include "eng_text.h"
#include "turn.h"

/* ---- saves -------------------------------------------------------------- */

enum eng_err fac_need_attr(struct rs_call *c, const struct enc_combatant *who,
                           const char *attr)
{
    if (enc_stat_or(who, attr, -1) >= 0)
        return ENG_OK;
    enc_fail(c->d, ENG_STATE, "%s has no %s score to save with", who->name,
             attr);
    enc_hint(c->d, "/combat set name:\"%s\" stats:\"%s=10\"", who->name, attr);
    return ENG_STATE;
}

/* "AGI save" for "agi": the roll's label. */
static const char *fac_save_label(const char *attr)
{
    if (strcmp(attr, "agi") == 0)
        return N_("AGI save");
    if (strcmp(attr, "wit") == 0)
        return N_("WIT save");
    return N_("STR save");
}

enum eng_err fac_save_roll(struct rs_call *c, const struct enc_combatant *who,
                           const char *attr, struct fac_saved *out)
{
    enum eng_err err = fac_need_attr(c, who, attr);
    if (err != ENG_OK)
        return err;
    out->score = enc_stat_or(who, attr, 0);
    err = rs_roll(c, who, fac_save_label(attr), "1d20", &out->roll);
    if (err != ENG_OK)
        return err;
    out->pass = fac_rule_save(out->roll.total, out->score,
                              fac_setting(c->e, "save") == 1);
    return ENG_OK;
}

enum eng_err fac_save(struct rs_call *c, struct enc_combatant *who,
                      const char *attr, const char *label, bool *pass)
{
    struct fac_saved s;
    enum eng_err err = fac_save_roll(c, who, attr, &s);
    if (err != ENG_OK)
        return err;
    *pass = s.pass;
    struct enc_event *ev = rs_test_event(c, ENC_EV_TEST, who, NULL, label,
                                         s.roll.total, s.score,
                                         s.pass ? N_("pass") : N_("fail"));
    rs_ev_roll(c, ev, s.roll.roll_idx);
    if (fac_setting(c->e, "save") == 1)
        rs_mod_note(c, ev, "save=below: the roll must be under the score");
    return ENG_OK;
}

enum eng_err fac_give(struct rs_call *c, struct enc_combatant *who,
                      const char *cond, uint32_t source)
{
    struct rs_cond_give q = {.name = cond, .rounds = -1, .source = source};
    return rs_cond_give(c, fac_sys(), who, &q, false);
}

/* ---- reactions ---------------------------------------------------------- */

const char *fac_react_block(const struct enc_combatant *who)
{
    if (!turn_can_act(who))
        return N_("out of the fight");
    if (who->flags & ENC_CF_ACTED)
        return N_("already took a turn this round");
    return NULL;
}

enum eng_err fac_check_react(struct rs_call *c, struct enc_combatant *who)
{
    enum eng_err err = rs_require_actor(c, who);
    if (err != ENG_OK)
        return err;
    if (c->e->status != ENC_ST_RUNNING)
        return enc_fail(c->d, ENG_STATE, "the fight has not begun");
    const char *why = fac_react_block(who);
    if (why != NULL)
        return enc_fail(c->d, ENG_STATE, "%s cannot react: %s", who->name,
                        fac_diag_word(c->d, why));
    return ENG_OK;
}

void fac_spend_reaction(struct rs_call *c, struct enc_combatant *who,
                        const char *what, const struct enc_combatant *other)
{
    /* The reaction is the character's turn for the round, taken out of
     * order: its turn boundaries run (so durations on it count down), then
     * the interrupted turn carries on. */
    struct encounter *e = c->e;
    uint32_t resumed = e->current;
    who->flags |= ENC_CF_ACTED;
    FAC_C(who)->reacted = e->round;
    turn_start(c, who);
    if (other != NULL && strcmp(what, "guards") == 0)
        RS_SAY(c, who, "{} reacts: guards {} (turn spent)", RS_A_WHO(who),
               RS_A_WHO(other));
    else if (other != NULL)
        RS_SAY(c, who, "{} reacts: hides behind {} (turn spent)",
               RS_A_WHO(who), RS_A_WHO(other));
    else
        RS_SAY(c, who, "{} reacts: {} (turn spent)", RS_A_WHO(who),
               RS_A_TEXT(what));
    turn_end(c);
    e->current = resumed;
}

/* ---- harm --------------------------------------------------------------- */

void fac_harmed(struct rs_call *c, struct enc_combatant *who)
{
    /* Only a surrendering character is freed by harm (a broken one who is
     * retreating stays broken). */
    if (!fac_has_cond(who, FAC_COND_SURRENDERED))
        return;
    enc_cond_remove(c->e, who, FAC_COND_SURRENDERED, c->r, NULL);
    if (fac_has_cond(who, FAC_COND_BROKEN))
        enc_cond_remove(c->e, who, FAC_COND_BROKEN, c->r, NULL);
    FAC_C(who)->morale = FAC_MOR_UNTESTED;
    RS_SAY(c, who, "{} was harmed while surrendering and may fight again",
           RS_A_WHO(who));
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
        FAC_C(who)->halved = true;
    if (enemy)
        fac_harmed(c, who);
}

void fac_after_track(struct rs_call *c, struct enc_combatant *who,
                     const char *track, int64_t before)
{
    fac_track_rule(c, who, track, before, true);
}

void fac_hit_armour(struct fac_hit *h, const struct enc_combatant *who)
{
    h->armour = fac_armour(who);
}

int64_t fac_hit_amount(const struct fac_hit *h)
{
    return fac_rule_damage(h->raw, h->armour, h->cover, h->penetrates);
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
    FAC_C(who)->gear &= ~(shield ? FAC_GEAR_SHIELD : FAC_GEAR_ARMOUR);
    if (shield)
        RS_SAY(c, who, "The damaged shield of {} is destroyed by {} damage",
               RS_A_WHO(who), RS_A_NUM(raw));
    else
        RS_SAY(c, who, "The damaged armour of {} is destroyed by {} damage",
               RS_A_WHO(who), RS_A_NUM(raw));
}

void fac_land(struct rs_call *c, struct enc_combatant *who,
              const struct fac_hit *h)
{
    int64_t amount = fac_hit_amount(h);
    fac_break_gear(c, who, h->raw);
    /* The numbers after armour are the target's; the roll is the
     * striker's, shown on its own when the target's line is the GM's. */
    if (who->hidden && h->from != NULL && !h->from->hidden && h->roll >= 0)
        RS_SAY(c, h->from, "{} rolls {} damage", RS_A_WHO(h->from),
               RS_A_ROLL(h->roll));
    struct enc_event *dv = enc_emit(c->r, ENC_EV_DAMAGE,
                                    h->from != NULL ? h->from->id : 0);
    dv->other = who->id;
    dv->a = amount;
    dv->secret = who->hidden;
    rs_ev_roll(c, dv, h->roll);
    if (h->impaired)
        rs_mod_note(c, dv, "impaired");
    if (h->armour != 0)
        rs_mod(c, dv, "armour", -h->armour, "");
    if (h->cover && !h->penetrates)
        rs_mod(c, dv, "cover", -1, "");
    else if (h->cover)
        rs_mod_note(c, dv, "the attack penetrates the cover");
    struct enc_track *hp = enc_track(who, "hp");
    if (hp == NULL || amount <= 0)
        return;
    int64_t before = hp->cur;
    hp->cur = before - amount < -ENC_MAX_VALUE ? -ENC_MAX_VALUE :
              before - amount;
    struct enc_event *hv = enc_emit(c->r, ENC_EV_HP, who->id);
    hv->text = "hp";
    hv->a = before;
    hv->b = hp->cur;
    hv->secret = who->hidden;
    fac_track_rule(c, who, "hp", before, h->from == NULL ||
                   h->from->side != who->side);
}
