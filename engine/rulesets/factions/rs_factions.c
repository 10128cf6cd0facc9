/*
 * rs_factions.c - the `factions` ruleset: setting up a character and stat
 * checks during the fight. The tracker's line is in rs_factions_status.c,
 * the operations table in rs_factions_decl.c, the rules themselves in the
 * other files (see rs_factions.h).
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
