/*
 * dice_alias.c - Dice Maiden's aliases that stand for plain dice: a game's
 * usual pool written as one word ("4cod" is "4d10 t8 ie10"). Those that
 * need game-specific tables or several terms ("d6s4", "age", "dd34") are
 * not read. docs/dice.md lists them.
 */
#include "dice_int.h"

/* The number right after the alias word, into *out, within [lo, hi];
 * what says what it is, for the message. */
static enum eng_err alias_number(struct dice_parser *p,
                                 const struct dice_tok *a, int32_t lo,
                                 int32_t hi, int32_t *out)
{
    if (p->tok.kind != DICE_T_NUM || !dice__adjacent(p))
        return dice__fail_at(p, ENG_SYNTAX, a, "needs a number right after it");
    if (p->tok.too_big || p->tok.num < lo || p->tok.num > hi)
        return dice__fail(p->diag, ENG_RANGE, p->tok.pos, p->tok.len,
                          "`%.*s` takes %d to %d at column %u", (int)a->len,
                          p->lx.src + a->pos, (int)lo, (int)hi,
                          p->tok.pos + 1u);
    *out = (int32_t)p->tok.num;
    return dice__next(p);
}

static struct dice_cond at_least(int32_t v)
{
    return (struct dice_cond){DICE_CMP_GE, v};
}

/* alias -> NUM ('cod' ('8' | '9' | 'r')? | 'wod' NUM | 'wh' NUM '+'? | 'yz')
 *        | ('sr' | 'sp' | 'snm') NUM
 * 4cod: 4d10 t8 ie10 (cod8, cod9: 8-again, 9-again; codr: rote, r7);
 * 4wod8: 4d10 f1 t8; 3wh4+: 3d6 t4; 6yz: 6d6 t6; sr6: 6d6 t5;
 * sp4: 4d10 t8 ie10; snm5: 5d6 ie6 t4. */
enum eng_err dice__parse_alias(struct dice_parser *p, struct dice_term *t,
                               bool counted)
{
    struct dice_tok a = p->tok;
    bool after = a.kind == DICE_T_SR || a.kind == DICE_T_SP ||
                 a.kind == DICE_T_SNM;
    if (!after && !counted)
        return dice__fail_at(p, ENG_SYNTAX, &a,
                             "needs the number of dice before it, as in "
                             "`4cod`");
    TRY(dice__next(p));
    int32_t n = 0;
    if (after) {
        if (p->tok.kind != DICE_T_NUM || !dice__adjacent(p))
            return dice__fail_at(p, ENG_SYNTAX, &a,
                                 "needs the number of dice right after it");
        TRY(dice__read_count(p, &p->tok, DICE_MAX_DICE, "too many dice",
                             N_("need at least 1 die"), &t->count));
        TRY(dice__next(p));
    }
    t->face_min = 1;
    t->sides = 6;
    switch (a.kind) {
    case DICE_T_COD:
        t->sides = 10;
        t->success = at_least(8);
        t->explode = at_least(10);
        if (p->tok.kind == DICE_T_NUM && dice__adjacent(p)) {
            TRY(alias_number(p, &a, 8, 9, &n));
            t->explode = at_least(n);
        } else if (p->tok.kind == DICE_T_R && dice__adjacent(p) &&
                   p->tok.len == 1) {
            t->reroll = (struct dice_cond){DICE_CMP_LE, 7};
            t->reroll_once = true;
            TRY(dice__next(p));
        }
        return ENG_OK;
    case DICE_T_WOD:
        t->sides = 10;
        TRY(alias_number(p, &a, 2, 10, &n));
        t->success = at_least(n);
        t->failure = (struct dice_cond){DICE_CMP_LE, 1};
        return ENG_OK;
    case DICE_T_WH:
        TRY(alias_number(p, &a, 2, 6, &n));
        t->success = at_least(n);
        if (p->tok.kind == DICE_T_PLUS && dice__adjacent(p))
            TRY(dice__next(p));         /* the "+" of "4+" */
        return ENG_OK;
    case DICE_T_YZ:
        t->success = at_least(6);
        return ENG_OK;
    case DICE_T_SR:
        t->success = at_least(5);
        return ENG_OK;
    case DICE_T_SP:
        t->sides = 10;
        t->success = at_least(8);
        t->explode = at_least(10);
        return ENG_OK;
    default:                            /* DICE_T_SNM */
        t->success = at_least(4);
        t->explode = at_least(6);
        return ENG_OK;
    }
}
