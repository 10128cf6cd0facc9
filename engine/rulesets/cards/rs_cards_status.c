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
                  struct eng_buf *out, enc_tr_fn tr, const void *tr_ctx)
{
    const struct cards_comb *st = CARDS_C(who);
    for (int k = 0; k < who->ninit; k++) {
        long long card = (long long)who->init[k];
        if (k > 0)
            eng_buf_addf(out, ", %lld", card);
        else if (who->ninit > 1)
            /* TRANSLATORS: a creature's first card of several, the rest
             * follow: "cards 3, 7" */
            eng_buf_addf(out, enc_tr(tr, tr_ctx, N_("cards %lld")), card);
        else
            eng_buf_addf(out, enc_tr(tr, tr_ctx, N_("card %lld")), card);
    }
    if (e->status == ENC_ST_RUNNING && who->ninit > 0) {
        int slot = cards_turn_card(e, who);
        struct cards_budget b = {st->slow, st->fast, st->turn_slow,
                                 st->turn_fast, who->ninit};
        int slow, fast;
        cards_left(&b, slot >= 0, &slow, &fast);
        eng_buf_add(out, " \xC2\xB7 ");
        if (who->ninit > 1 && slot >= 0) {
            /* TRANSLATORS: the maneuvers left follow: "on card 7: slow 1
             * fast 0" */
            eng_buf_addf(out, enc_tr(tr, tr_ctx, N_("on card %lld:")),
                         (long long)who->init[e->order[slot].init_idx]);
            eng_buf_add(out, " ");
        } else if (who->ninit > 1) {
            eng_buf_add(out, enc_tr(tr, tr_ctx, N_("this round:")));
            eng_buf_add(out, " ");
        }
        /* TRANSLATORS: slow and fast maneuvers left, short: "slow 1 fast 0" */
        eng_buf_addf(out, enc_tr(tr, tr_ctx, N_("slow %d fast %d")), slow,
                     fast);
    }
    /* A reaction readied and not used yet: resist and other are used at
     * once, so never pending. */
    if (cards_react_name(st->def_kind)[0] != '\0') {
        eng_buf_add(out, " \xC2\xB7 ");
        /* TRANSLATORS: a readied reaction (dodge, parry...) and its
         * successes: "dodge ready (2)" */
        eng_buf_addf(out, enc_tr(tr, tr_ctx, N_("%s ready (%d)")),
                     enc_tr(tr, tr_ctx, cards_react_name(st->def_kind)),
                     (int)st->def_succ);
    }
    const struct enc_cond *fire = enc_cond_find((struct enc_combatant *)who,
                                                CARDS_BURNING);
    if (fire != NULL) {
        eng_buf_add(out, " \xC2\xB7 ");
        eng_buf_addf(out, enc_tr(tr, tr_ctx, N_("burning %d")),
                     (int)fire->value);
    }
    if (st->poison_left > 0) {
        eng_buf_add(out, " \xC2\xB7 ");
        eng_buf_addf(out, enc_tr(tr, tr_ctx, N_("poison %d")),
                     (int)st->poison_left);
    }
}
