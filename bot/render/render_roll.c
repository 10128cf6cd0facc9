/*
 * render_roll.c - a recorded roll as markdown (render_roll.h).
 */
#include "render_roll.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "eng_text.h"
#include "msg.h"
#include "render_dice.h"

void render_int(struct sbuf *b, int64_t v, int width)
{
    char buf[ENG_TEXT_I64_MAX];
    const char *p = eng_text_i64(v, buf);
    size_t n = (size_t)(buf + sizeof buf - p);
    for (size_t k = n; k < (size_t)width; k++)
        sbuf_addc(b, ' ');
    sbuf_addn(b, p, n);
}

void render_roll_faces(struct sbuf *b, const struct enc_roll *r,
                       enum i18n_lang lang)
{
    size_t pos = 0, end = strlen(r->expr);
    if (r->nterms == 0)
        return;
    for (int g = 0; g < r->nterms; g++) {
        const struct enc_term *t = &r->terms[g];
        if (t->pos < pos || t->pos > end || t->first + t->count > r->ndice)
            continue;
        char *lit = msg_escape_n(r->expr + pos, t->pos - pos);
        sbuf_add(b, lit != NULL ? lit : "");
        free(lit);
        struct render_dice_term dt = {&r->dice[t->first], t->count,
                                      t->sides, t->fudge, t->counting};
        sbuf_addc(b, '[');
        if (t->count > RENDER_ROLL_FACES) {
            char counts[RENDER_DICE_COUNTS_MAX];
            render_dice_counts(counts, sizeof counts, true, &dt);
            sbuf_add(b, counts);
        } else {
            for (int k = 0; k < t->count; k++) {
                char die[RENDER_DICE_DIE_MAX];
                if (k > 0)
                    sbuf_add(b, ", ");
                sbuf_addn(b, die,
                          render_dice_die(die, sizeof die, true, &dt,
                                          &r->dice[t->first + k]));
            }
        }
        if (t->counting) {
            /* a negative count takes the many form, as in English */
            unsigned long n = t->subtotal < 0 ? 5
                              : (unsigned long)t->subtotal;
            sbuf_add(b, " \xE2\x86\x92 ");
            sbuf_addf(b, i18n_nget(lang, "%lld success", "%lld successes", n),
                      (long long)t->subtotal);
        }
        sbuf_addc(b, ']');
        pos = (size_t)t->pos + t->len;
    }
    if (pos < end) {
        char *lit = msg_escape_n(r->expr + pos, end - pos);
        sbuf_add(b, lit != NULL ? lit : "");
        free(lit);
    }
}

void render_roll(struct sbuf *b, const struct enc_roll *r, bool bare,
                 enum i18n_lang lang)
{
    bool struck = (r->flags & ENC_ROLL_DROPPED) != 0;
    if (struck)
        sbuf_add(b, "~~");
    if (!bare && r->label[0] != '\0') {
        char *label = msg_escape(i18n_get(lang, r->label));
        sbuf_addf(b, "%s ", label != NULL ? label : "");
        free(label);
    }
    sbuf_addf(b, bare && !struck ? "**%" PRId64 "**" : "%" PRId64, r->total);
    if (r->nterms > 0) {
        sbuf_add(b, " (");
        render_roll_faces(b, r, lang);
        sbuf_addc(b, ')');
    }
    if (struck) {
        sbuf_add(b, "~~");
        sbuf_add(b, i18n_get(lang, " not kept"));
    }
}
