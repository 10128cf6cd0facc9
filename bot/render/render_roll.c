/*
 * render_roll.c - a recorded roll as markdown (render_roll.h).
 */
#include "render_roll.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "eng_text.h"
#include "msg.h"

void render_int(struct sbuf *b, int64_t v, int width)
{
    char buf[ENG_TEXT_I64_MAX];
    const char *p = eng_text_i64(v, buf);
    size_t n = (size_t)(buf + sizeof buf - p);
    for (size_t k = n; k < (size_t)width; k++)
        sbuf_addc(b, ' ');
    sbuf_addn(b, p, n);
}

static void put_face(struct sbuf *b, const struct enc_term *t, int32_t v)
{
    if (t->fudge)
        sbuf_add(b, v > 0 ? "+" : v < 0 ? "-" : "0");
    else
        render_int(b, v, 0);
}

/* A face minN raised or maxN lowered shows as "1→10": what it
 * showed, then what it counts for. */
static void put_die(struct sbuf *b, const struct enc_term *t,
                    const struct dice_die *d)
{
    const char *pre = "", *post = "";
    if (d->flags & DICE_DIE_UNCOUNTED)
        pre = post = "~~";
    else if (!t->fudge && (d->flags & (DICE_DIE_MAX | DICE_DIE_MIN)))
        pre = post = "**";
    sbuf_add(b, pre);
    if (d->flags & (DICE_DIE_RAISED | DICE_DIE_LOWERED)) {
        put_face(b, t, d->rolled);
        sbuf_add(b, "\xE2\x86\x92");
    }
    put_face(b, t, d->value);
    sbuf_add(b, post);
    if (d->flags & DICE_DIE_EXPLODED)
        sbuf_addc(b, '!');
}

/* "6×4" counts of the kept dice per face, highest face first (successes
 * usually sit at the top), then how many were dropped. */
static void put_counts(struct sbuf *b, const struct enc_term *t,
                       const struct dice_die *dice)
{
    int count[RENDER_ROLL_COUNT_SIDES + 1] = {0}, dropped = 0;
    for (int k = 0; k < t->count; k++) {
        const struct dice_die *d = &dice[t->first + k];
        if (d->flags & DICE_DIE_UNCOUNTED)
            dropped++;
        else if (d->value >= 1 && d->value <= RENDER_ROLL_COUNT_SIDES)
            count[d->value]++;
    }
    sbuf_addf(b, "%d dice: ", (int)t->count);
    bool first = true;
    for (int f = t->sides; f >= 1; f--) {
        if (count[f] == 0)
            continue;
        sbuf_addf(b, "%s%d\xC3\x97%d", first ? "" : ", ", f, count[f]);
        first = false;
    }
    if (dropped > 0)
        sbuf_addf(b, "%s%d dropped", first ? "" : ", ", dropped);
}

void render_roll_faces(struct sbuf *b, const struct enc_roll *r)
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
        sbuf_addc(b, '[');
        if (t->count > RENDER_ROLL_FACES && !t->fudge &&
            t->sides <= RENDER_ROLL_COUNT_SIDES) {
            put_counts(b, t, r->dice);
        } else {
            for (int k = 0; k < t->count; k++) {
                if (k > 0)
                    sbuf_add(b, ", ");
                put_die(b, t, &r->dice[t->first + k]);
            }
        }
        if (t->counting)
            sbuf_addf(b, " \xE2\x86\x92 %" PRId64 " success%s", t->subtotal,
                      t->subtotal == 1 ? "" : "es");
        sbuf_addc(b, ']');
        pos = (size_t)t->pos + t->len;
    }
    if (pos < end) {
        char *lit = msg_escape_n(r->expr + pos, end - pos);
        sbuf_add(b, lit != NULL ? lit : "");
        free(lit);
    }
}

void render_roll(struct sbuf *b, const struct enc_roll *r, bool bare)
{
    bool struck = (r->flags & ENC_ROLL_DROPPED) != 0;
    if (struck)
        sbuf_add(b, "~~");
    if (!bare && r->label[0] != '\0') {
        char *label = msg_escape(r->label);
        sbuf_addf(b, "%s ", label != NULL ? label : "");
        free(label);
    }
    sbuf_addf(b, bare && !struck ? "**%" PRId64 "**" : "%" PRId64, r->total);
    if (r->nterms > 0) {
        sbuf_add(b, " (");
        render_roll_faces(b, r);
        sbuf_addc(b, ')');
    }
    if (struck)
        sbuf_add(b, "~~ not kept");
}
