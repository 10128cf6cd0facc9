#include "rs_roll.h"

#include <stdio.h>
#include <string.h>

#include "eng_alloc.h"

/* Append to buf at *at, never past n - 1; keeps buf terminated. */
static void put(char *buf, size_t n, size_t *at, const char *s, size_t len)
{
    if (*at + 1 >= n)
        return;
    size_t room = n - 1 - *at;
    if (len > room)
        len = room;
    memcpy(buf + *at, s, len);
    *at += len;
    buf[*at] = '\0';
}

static void put_die(char *buf, size_t n, size_t *at, const struct dice_die *d,
                    bool fudge)
{
    char num[24];
    int len;
    if (fudge)
        len = snprintf(num, sizeof num, "%s", d->value > 0 ? "+" :
                       d->value < 0 ? "-" : "0");
    else
        len = snprintf(num, sizeof num, "%d", (int)d->value);
    const char *pre = "", *post = "";
    if (d->flags & DICE_DIE_UNCOUNTED) {
        pre = "~~";
        post = "~~";
    } else if (d->flags & (DICE_DIE_MAX | DICE_DIE_MIN)) {
        pre = "**";
        post = "**";
    }
    put(buf, n, at, pre, strlen(pre));
    put(buf, n, at, num, (size_t)len);
    put(buf, n, at, post, strlen(post));
    if (d->flags & DICE_DIE_EXPLODED)
        put(buf, n, at, "!", 1);
}

void rs_roll_detail(const char *src, const struct dice_result *res, char *buf,
                    size_t n)
{
    /* Dice shown per term before collapsing to a count. */
    enum { SHOW_DICE = 12 };
    size_t at = 0;
    buf[0] = '\0';
    size_t pos = res->expr_pos, end = (size_t)res->expr_pos + res->expr_len;
    for (int g = 0; g < res->n_groups; g++) {
        const struct dice_group *grp = &res->groups[g];
        if (grp->pos < pos || grp->pos > end)
            continue;
        put(buf, n, &at, src + pos, grp->pos - pos);
        put(buf, n, &at, "[", 1);
        if (grp->count > SHOW_DICE) {
            char s[64];
            int len = snprintf(s, sizeof s, "%d dice", (int)grp->count);
            put(buf, n, &at, s, (size_t)len);
        } else {
            for (int k = 0; k < grp->count; k++) {
                if (k > 0)
                    put(buf, n, &at, ", ", 2);
                put_die(buf, n, &at, &res->dice[grp->first + k], grp->fudge);
            }
        }
        if (grp->counting) {
            char s[64];
            int len = snprintf(s, sizeof s, " = %d successes",
                               (int)grp->subtotal);
            put(buf, n, &at, s, (size_t)len);
        }
        put(buf, n, &at, "]", 1);
        pos = (size_t)grp->pos + grp->len;
    }
    if (pos < end)
        put(buf, n, &at, src + pos, end - pos);
}

enum eng_err rs_roll(struct rs_call *c, const char *what, const char *label,
                     const char *expr, struct rs_rolled *out)
{
    struct dice_result *res = eng_malloc(sizeof *res);
    if (res == NULL)
        return enc_fail(c->d, ENG_NOMEM, "out of memory");
    struct dice_diag dd;
    enum eng_err err = dice_eval_string(expr, strlen(expr), c->rng, res, &dd);
    if (err != ENG_OK) {
        eng_free(res);
        return enc_fail(c->d, err, "bad %s dice `%.64s`: %s", what, expr,
                        dd.msg);
    }
    char detail[ENC_MAX_ROLL_TEXT];
    rs_roll_detail(expr, res, detail, sizeof detail);
    out->total = res->total;
    out->natural = 0;
    out->successes = 0;
    out->dice_sum = 0;
    for (int g = 0; g < res->n_groups; g++) {
        const struct dice_group *grp = &res->groups[g];
        if (grp->counting)
            out->successes += grp->subtotal;
        else
            out->dice_sum += grp->subtotal;
        if (out->natural == 0 && grp->sides == 20 && !grp->fudge)
            for (int k = 0; k < grp->count; k++)
                if (!(res->dice[grp->first + k].flags & DICE_DIE_UNCOUNTED)) {
                    out->natural = res->dice[grp->first + k].value;
                    break;
                }
    }
    out->roll_idx = enc_add_roll(c->r, label, detail, res->total);
    eng_free(res);
    return ENG_OK;
}
