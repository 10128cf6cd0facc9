/*
 * rs_factions_react.c - the `factions` ruleset: /react.
 *
 * A reaction answers an attack that waits for it (rs_factions_wait.c):
 * dodge, counter, hide, guard, none, or accept a stunt. A reaction fray
 * does not resolve (opportunity, other) just spends the character's turn
 * for the round. Answering an attack when none waits is refused: there is
 * nothing to dodge.
 */
#include "rs_factions.h"

static const char *const fac_kind_words[] = {
    [FAC_K_OPPORTUNITY] = N_("opportunity"),
    [FAC_K_OTHER] = N_("other"),
};

enum eng_err fac_cmd_react(struct rs_call *c)
{
    struct enc_combatant *who = rs_arg_who(c, "name");
    enum fac_kind kind = (enum fac_kind)rs_arg_int(c, "kind", FAC_K_OTHER);
    if (c->e->status != ENC_ST_RUNNING)
        return enc_fail(c->d, ENG_STATE, "the fight has not begun");
    /* The answer to an attack that waits for it. */
    bool handled;
    enum eng_err err = fac_react_pending(c, who, kind, &handled);
    if (err != ENG_OK || handled)
        return err != ENG_OK ? err : fac_recheck(c);
    /* A reaction fray does not resolve: the turn is spent. */
    err = fac_check_react(c, who);
    if (err != ENG_OK)
        return err;
    fac_spend_reaction(c, who, fac_kind_words[kind], NULL);
    return fac_recheck(c);
}
