/*
 * rs_cards_status.c - a combatant's line on the tracker: its cards, the
 * maneuvers it may still spend (rs_cards_pool.c) on the card that is up
 * (rs_cards_turn.c), a readied reaction, fire and poison.
 */
#include "eng_buf.h"
#include "rs_cards.h"

/* Its cards; what it may still spend: on its turn, that turn's maneuvers
 * (naming the card that is up when it holds several), otherwise what the
 * round has left for reactions; a readied reaction, fire and poison. The
 * Harm tracks are on the line already. */
void cards_status(const struct encounter *e, const struct enc_combatant *who,
                  struct eng_buf *out)
{
    const struct cards_comb *st = CARDS_C(who);
    for (int k = 0; k < who->ninit; k++)
        eng_buf_addf(out, "%s%lld", k == 0 ? who->ninit > 1 ? "cards "
                                                           : "card "
                                           : ", ",
                     (long long)who->init[k]);
    if (e->status == ENC_ST_RUNNING && who->ninit > 0) {
        int slot = cards_turn_card(e, who);
        struct cards_budget b = {st->slow, st->fast, st->turn_slow,
                                 st->turn_fast, who->ninit};
        int slow, fast;
        cards_left(&b, slot >= 0, &slow, &fast);
        if (who->ninit > 1 && slot >= 0)
            eng_buf_addf(out, " · on card %lld:",
                         (long long)who->init[e->order[slot].init_idx]);
        else if (who->ninit > 1)
            eng_buf_add(out, " · this round:");
        else
            eng_buf_add(out, " ·");
        eng_buf_addf(out, " slow %d fast %d", slow, fast);
    }
    /* A reaction readied and not used yet: resist and other are used at
     * once, so never pending. */
    if (cards_react_name(st->def_kind)[0] != '\0')
        eng_buf_addf(out, " · %s ready (%d)", cards_react_name(st->def_kind),
                     (int)st->def_succ);
    const struct enc_cond *fire = enc_cond_find((struct enc_combatant *)who,
                                                CARDS_BURNING);
    if (fire != NULL)
        eng_buf_addf(out, " · burning %d", (int)fire->value);
    if (st->poison_left > 0)
        eng_buf_addf(out, " · poison %d", (int)st->poison_left);
}
