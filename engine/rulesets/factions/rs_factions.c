/*
 * rs_factions.c - the `factions` ruleset: setting up a character, stat
 * checks during the fight, the tracker's line, and the operations table.
 * The rules themselves are in the other files (see rs_factions.h).
 */
#include "rs_factions.h"

#include "eng_buf.h"
#include "eng_text.h"

enum eng_err fac_setup(struct rs_call *c, struct enc_combatant *who)
{
    if (fac_setting(c->e, "phases") && enc_stat(who, "wit") == NULL) {
        enc_fail(c->d, ENG_INVALID, "%s needs a wit score: fast and slow "
                 "phases are on", who->name);
        enc_hint(c->d, "stats:\"str=10 agi=10 wit=10 hp=8\"");
        return ENG_INVALID;
    }
    /* hp given as a stat becomes the hp track (current = maximum); the
     * track is the one place hp lives, so the stat is dropped. */
    const int64_t *hp = enc_stat(who, "hp");
    if (hp == NULL)
        return ENG_OK;
    int64_t v = *hp;
    if (v < 0)
        return enc_fail(c->d, ENG_RANGE, "hp cannot be negative");
    enum eng_err err = enc_track_set(who, "hp", v, v, c->d);
    if (err == ENG_OK)
        enc_stat_remove(who, "hp");
    return err;
}

/* Armour can't be changed during a fight: a player's change is refused
 * once it runs; the GM may still correct it. (The declared bounds are the
 * kit's to check.) */
enum eng_err fac_check_stat(struct rs_call *c,
                            struct enc_combatant *who,
                            const char *name, int64_t value)
{
    if (c->is_gm || c->e->status != ENC_ST_RUNNING ||
        eng_text_casecmp(name, FAC_STAT_ARMOUR) != 0 ||
        enc_stat_or(who, FAC_STAT_ARMOUR, 0) == value)
        return ENG_OK;
    enc_fail(c->d, ENG_STATE, "armour can't be changed during a fight");
    enc_hint(c->d, "the GM can correct it");
    return ENG_STATE;
}

/* Append item to the tracker line, after a comma when it is not first. */
static void fac_status_item(struct eng_buf *out, bool *first,
                            const char *item)
{
    if (item[0] == '\0')
        return;
    if (!*first)
        eng_buf_add(out, ", ");
    eng_buf_add(out, item);
    *first = false;
}

/* The tracker's extra words for who: kept short for a phone's width. */
void fac_status(const struct encounter *e,
                const struct enc_combatant *who, struct eng_buf *out)
{
    const struct fac_enc *st = FAC_E(e);
    const struct fac_comb *me = FAC_C(who);
    bool first = true;
    if (st->pend_att != 0 && st->pend_tgt == who->id)
        fac_status_item(out, &first, "attacked: may react");
    if (who->flags & ENC_CF_ACTED)
        fac_status_item(out, &first, me->reacted == e->round ? "reacted" :
                        "acted");
    fac_status_item(out, &first, me->morale == FAC_MOR_STEADY ? "steady" :
                    me->morale == FAC_MOR_BROKEN ? "broken" : "");
    if (e->phase == FAC_PH_FAST && !(who->flags & ENC_CF_ACTED))
        fac_status_item(out, &first, fac_eligible(e, who) ? "fast" : "slow");
}

/* The clock ran out: a running activation ends; a faction that is to
 * decide passes, which the rules always allow it. */
enum eng_err fac_timeout(struct rs_call *c)
{
    struct encounter *e = c->e;
    if (e->current != 0)
        return rs_clock_end_turn(c, "The turn clock ran out: {} ends the "
                                 "turn.");
    if (e->acting_side < 0 || e->acting_side >= e->nsides)
        return enc_fail(c->d, ENG_STATE, "no faction is to decide");
    RS_SAY(c, NULL, "The turn clock ran out: {} passes.",
           RS_A_SIDE(e, e->acting_side));
    return fac_pass(c);
}

