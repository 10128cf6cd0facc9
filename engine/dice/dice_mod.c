/*
 * dice_mod.c - the modifiers of a dice term ("kh3", "!>=5", "ro1", "t7"),
 * in every dialect: how each bot's letters set the term's conditions.
 * Each parse function opens with its production, as in dice_parse.c.
 */
#include "dice_int.h"

#include <stdio.h>

/* Does c hold for every face in [lo, hi]? Each condition holds on an
 * interval of faces, so checking both ends is enough. */
static bool matches_all(struct dice_cond c, int32_t lo, int32_t hi)
{
    return dice__match(c, lo) && dice__match(c, hi);
}

/* adv and dis apply to a single d20 with no keep/drop of its own. */
bool dice__is_single_d20(const struct dice_term *t)
{
    return t->count == 1 && t->sides == 20 && t->face_min == 1 &&
           t->keep == DICE_KEEP_ALL;
}

/* Turn a single d20 into two, keeping the higher (adv) or lower (dis). */
enum eng_err dice__apply_adv(struct dice_parser *p, struct dice_term *t,
                              const struct dice_tok *at)
{
    t->count = 2;
    t->keep = at->kind == DICE_T_ADV ? DICE_KEEP_HIGH : DICE_KEEP_LOW;
    t->keep_n = 1;
    return dice__add_dice(p, 1, at->pos, at->len);
}

/* A span [pos, prev_end) as a token, for dice__fail_at(). */
static struct dice_tok span_from(const struct dice_parser *p, uint16_t pos)
{
    struct dice_tok s = {.pos = pos, .len = (uint16_t)(p->prev_end - pos)};
    return s;
}

/* clamp -> ('min' | 'max') '-'? NUM
 * The bound must be a face of the die (-1, 0 or 1 for Fudge dice), and a
 * term's minimum may not lie above its maximum. */
static enum eng_err parse_clamp(struct dice_parser *p, struct dice_term *t,
                                const struct dice_tok *m)
{
    bool is_min = m->kind == DICE_T_MIN;
    int32_t face_max = t->face_min + t->sides - 1;
    if (is_min ? t->has_min : t->has_max)
        return dice__fail_at(p, ENG_SYNTAX, m,
                             is_min ? N_("is a second minimum")
                                    : N_("is a second maximum"));
    TRY(dice__next(p));
    bool neg = p->tok.kind == DICE_T_MINUS;
    if (neg)
        TRY(dice__next(p));
    if (p->tok.kind == DICE_T_END)
        return dice__unexpected(p);
    if (p->tok.kind != DICE_T_NUM)
        return dice__fail_at(p, ENG_SYNTAX, &p->tok, NULL);
    bool huge = p->tok.too_big || p->tok.num > DICE_MAX_SIDES;
    int32_t v = huge ? 0 : (int32_t)p->tok.num;
    v = neg ? -v : v;
    TRY(dice__next(p));
    struct dice_tok s = span_from(p, m->pos);
    char what[DICE_MAX_MSG / 2], die[16];
    if (t->face_min == 1)
        snprintf(die, sizeof die, "d%d", (int)t->sides);
    else
        snprintf(die, sizeof die, "dF");
    if (huge ? !neg : v > face_max) {
        /* formatted in the reader's words: dice__fail_at() looks what up
         * again and, finding no such message, keeps it */
        snprintf(what, sizeof what,
                 dice__tr(p->diag, "is above the highest face of a %s"), die);
        return dice__fail_at(p, ENG_RANGE, &s, what);
    }
    if (huge || v < t->face_min) {
        snprintf(what, sizeof what,
                 dice__tr(p->diag, "is below the lowest face of a %s"), die);
        return dice__fail_at(p, ENG_RANGE, &s, what);
    }
    if (is_min && t->has_max && v > t->lower_to) {
        snprintf(what, sizeof what,
                 dice__tr(p->diag, "is above the term's maximum of %d"),
                 (int)t->lower_to);
        return dice__fail_at(p, ENG_RANGE, &s, what);
    }
    if (!is_min && t->has_min && v < t->raise_to) {
        snprintf(what, sizeof what,
                 dice__tr(p->diag, "is below the term's minimum of %d"),
                 (int)t->raise_to);
        return dice__fail_at(p, ENG_RANGE, &s, what);
    }
    if (is_min) {
        t->has_min = true;
        t->raise_to = v;
    } else {
        t->has_max = true;
        t->lower_to = v;
    }
    return ENG_OK;
}

/* A term's condition struct that a modifier sets once: "is a second ..."
 * when it is already set. */
static enum eng_err once(struct dice_parser *p, const struct dice_cond *c,
                         const struct dice_tok *m, const char *second)
{
    if (c->cmp != DICE_CMP_NONE)
        return dice__fail_at(p, ENG_SYNTAX, m, second);
    return ENG_OK;
}

/* The explosion or reroll condition [m, here) may not match every face:
 * the chain would never end. */
static enum eng_err endless(struct dice_parser *p, const struct dice_term *t,
                            struct dice_cond c, const struct dice_tok *m,
                            const char *what)
{
    if (!matches_all(c, t->face_min, t->face_min + t->sides - 1))
        return ENG_OK;
    struct dice_tok s = span_from(p, m->pos);
    return dice__fail_at(p, ENG_RANGE, &s, what);
}

/* keep -> ('kh' | 'kl' | 'k' | 'dh' | 'dl' | 'd' | 'ph' | 'pl') NUM?
 *       | 'p' cond | Avrae: 'k' cond */
static enum eng_err parse_keep(struct dice_parser *p, struct dice_term *t,
                               const struct dice_tok *m)
{
    static const uint8_t keep_of[] = {
        [DICE_T_KH] = DICE_KEEP_HIGH, [DICE_T_K] = DICE_KEEP_HIGH,
        [DICE_T_KL] = DICE_KEEP_LOW,  [DICE_T_DH] = DICE_DROP_HIGH,
        [DICE_T_DL] = DICE_DROP_LOW,  [DICE_T_D] = DICE_DROP_LOW,
        [DICE_T_PH] = DICE_DROP_HIGH, [DICE_T_PL] = DICE_DROP_LOW,
    };
    if (t->keep != DICE_KEEP_ALL)
        return dice__fail_at(p, ENG_SYNTAX, m, "is a second keep or drop");
    TRY(dice__next(p));
    bool avrae_k = m->kind == DICE_T_K && dice__dialect_is(p, DICE_DIALECT_AVRAE);
    bool sel = p->tok.kind == DICE_T_NUM || dice__is_cmp(p->tok.kind);
    if (m->kind == DICE_T_P || (avrae_k && sel)) {
        /* Avrae's selectors: p3 drops the 3s, k>4 keeps what is over 4 */
        t->keep = m->kind == DICE_T_P ? DICE_DROP_MATCH : DICE_KEEP_MATCH;
        if (avrae_k)
            dice__note(p, DICE_NOTE_K_FACE);
        return dice__parse_cond(p, &t->keep_sel, DICE_CMP_EQ);
    }
    t->keep = keep_of[m->kind];
    t->keep_n = 1;
    if (p->tok.kind == DICE_T_NUM) {
        if (m->kind == DICE_T_K)
            dice__note(p, DICE_NOTE_K_HIGHEST);
        TRY(dice__read_count(p, &p->tok, DICE_MAX_DICE, "keep or drop too large",
                       N_("keep or drop needs at least 1"), &t->keep_n));
        TRY(dice__next(p));
    }
    return ENG_OK;
}

/* explode -> '!' ('!' | 'p')? cond? | ('e' | 'ie' | 'x' | 'xo') cond?
 * "!!" compounds and "!p" penetrates only written together. Without a
 * condition the die explodes on its top face. */
static enum eng_err parse_explode(struct dice_parser *p, struct dice_term *t,
                                  const struct dice_tok *m)
{
    int32_t face_max = t->face_min + t->sides - 1;
    struct dice_cond top = {DICE_CMP_EQ, face_max};
    uint8_t kind = DICE_EXPLODE_AGAIN, bare = DICE_CMP_EQ;
    TRY(once(p, &t->explode, m, "is a second explosion"));
    TRY(dice__next(p));
    switch (m->kind) {
    case DICE_T_BANG:
        if (dice__adjacent(p) && p->tok.kind == DICE_T_BANG) {
            kind = DICE_EXPLODE_COMPOUND;
            TRY(dice__next(p));
        } else if (dice__adjacent(p) && p->tok.kind == DICE_T_P) {
            kind = DICE_EXPLODE_PENETRATE;
            TRY(dice__next(p));
        } else if (p->tok.kind == DICE_T_END && m->pos > 0 &&
                   dice__is_space(p->lx.src[m->pos - 1]))
            dice__note(p, DICE_NOTE_BANG_EXPLODE);  /* "2d6 ! Fire damage" */
        break;
    case DICE_T_E:
        if (dice__dialect_is(p, DICE_DIALECT_AVRAE)) {
            dice__note(p, DICE_NOTE_E_AGAIN);
        } else {
            dice__note(p, DICE_NOTE_E_ONCE);
            kind = DICE_EXPLODE_ONCE;
            bare = DICE_CMP_GE;
        }
        break;
    case DICE_T_IE:
        bare = DICE_CMP_GE;
        break;
    case DICE_T_XO:
        kind = DICE_EXPLODE_ONCE;
        break;
    default:
        break;
    }
    TRY(dice__opt_cond(p, &t->explode, bare, top));
    t->explode_kind = kind;
    if (kind == DICE_EXPLODE_ONCE)
        return ENG_OK;
    return endless(p, t, t->explode, m, "explodes on every face");
}

/* reroll -> ('r' | 'ro' | 'rr' | 'ir') cond
 * A bare `r` rerolls again and again (fray, Roll20), once (Foundry) or
 * once on that face or lower (Dice Maiden). */
static enum eng_err parse_reroll(struct dice_parser *p, struct dice_term *t,
                                 const struct dice_tok *m)
{
    uint8_t bare = DICE_CMP_EQ;
    TRY(once(p, &t->reroll, m, "is a second reroll"));
    TRY(dice__next(p));
    bool bare_num = p->tok.kind == DICE_T_NUM;
    t->reroll_once = m->kind == DICE_T_RO;
    if (m->kind == DICE_T_IR)
        bare = DICE_CMP_LE;
    if (m->kind == DICE_T_R) {
        if (dice__dialect_is(p, DICE_DIALECT_DICE_MAIDEN)) {
            bare = DICE_CMP_LE;
            t->reroll_once = true;
            dice__note(p, DICE_NOTE_R_ONCE);
        } else if (dice__dialect_is(p, DICE_DIALECT_FOUNDRY)) {
            t->reroll_once = true;
            dice__note(p, DICE_NOTE_R_ONCE);
        } else
            dice__note(p, DICE_NOTE_R_AGAIN);
    }
    if (dice__dialect_is(p, DICE_DIALECT_FOUNDRY))  /* "r" alone: the lowest face */
        TRY(dice__opt_cond(p, &t->reroll, bare,
                     (struct dice_cond){DICE_CMP_EQ, t->face_min}));
    else
        TRY(dice__parse_cond(p, &t->reroll, bare));
    if (bare_num && bare == DICE_CMP_LE && t->reroll.value > t->face_min)
        dice__note(p, DICE_NOTE_AT_MOST);
    if (t->reroll_once)
        return ENG_OK;
    return endless(p, t, t->reroll, m, "rerolls every face");
}

/* count -> ('=' | '<' | '<=' | '>' | '>=') NUM | ('t' | 'tl' | 'cs') cond?
 *        | ('f' | 'cf' | 'df' | 'b') cond? | 'ds' cond | 'even' | 'odd'
 * What counts as a success, failure, double success or botch. */
static enum eng_err parse_count(struct dice_parser *p, struct dice_term *t,
                                const struct dice_tok *m)
{
    int32_t face_max = t->face_min + t->sides - 1;
    struct dice_cond top = {DICE_CMP_EQ, face_max};
    struct dice_cond bottom = {DICE_CMP_EQ, t->face_min};
    bool roll20 = dice__dialect_is(p, DICE_DIALECT_ROLL20);
    const char *second_s = N_("is a second success condition");
    const char *second_f = N_("is a second failure condition");
    bool bare_num;
    switch (m->kind) {
    case DICE_T_T:
    case DICE_T_TL:
        if (m->kind == DICE_T_T && dice__dialect_is(p, DICE_DIALECT_SIDEKICK)) {
            dice__note(p, DICE_NOTE_T_TWICE);
            TRY(once(p, &t->twice, m, "is a second double success"));
            TRY(dice__next(p));
            return dice__parse_cond(p, &t->twice, DICE_CMP_EQ);
        }
        if (m->kind == DICE_T_T)
            dice__note(p, DICE_NOTE_T_TARGET);
        TRY(once(p, &t->success, m, second_s));
        TRY(dice__next(p));
        return dice__parse_cond(p, &t->success,
                          m->kind == DICE_T_T ? DICE_CMP_GE : DICE_CMP_LE);
    case DICE_T_CS:
        dice__note(p, roll20 ? DICE_NOTE_CS_MARK : DICE_NOTE_CS_COUNT);
        TRY(once(p, roll20 ? &t->crit : &t->success, m,
                 roll20 ? N_("is a second critical success") : second_s));
        TRY(dice__next(p));
        return dice__opt_cond(p, roll20 ? &t->crit : &t->success, DICE_CMP_EQ,
                        top);
    case DICE_T_CF:
        dice__note(p, roll20 ? DICE_NOTE_CS_MARK : DICE_NOTE_CS_COUNT);
        TRY(once(p, roll20 ? &t->fumble : &t->failure, m,
                 roll20 ? N_("is a second critical failure") : second_f));
        TRY(dice__next(p));
        t->count_failures = !roll20;
        return dice__opt_cond(p, roll20 ? &t->fumble : &t->failure, DICE_CMP_EQ,
                        bottom);
    case DICE_T_F:
    case DICE_T_DF: {
        bool maiden = dice__dialect_is(p, DICE_DIALECT_DICE_MAIDEN) &&
                      m->kind == DICE_T_F;
        TRY(once(p, &t->failure, m, second_f));
        TRY(dice__next(p));
        bare_num = p->tok.kind == DICE_T_NUM;
        TRY(dice__parse_cond(p, &t->failure, maiden ? DICE_CMP_LE : DICE_CMP_EQ));
        if (bare_num && m->kind == DICE_T_F && t->failure.value > t->face_min)
            dice__note(p, maiden ? DICE_NOTE_AT_MOST : DICE_NOTE_F_EQUAL);
        return ENG_OK;
    }
    case DICE_T_B:
        TRY(once(p, &t->botch, m, "is a second botch condition"));
        TRY(dice__next(p));
        return dice__opt_cond(p, &t->botch, DICE_CMP_LE, bottom);
    case DICE_T_DS:
        TRY(once(p, &t->twice, m, "is a second double success"));
        TRY(dice__next(p));
        return dice__parse_cond(p, &t->twice, DICE_CMP_EQ);
    case DICE_T_EVEN:
    case DICE_T_ODD:
        TRY(once(p, &t->success, m, second_s));
        t->success = (struct dice_cond){
            m->kind == DICE_T_EVEN ? DICE_CMP_EVEN : DICE_CMP_ODD, 0};
        return dice__next(p);
    default:
        dice__note(p, DICE_NOTE_CMP_COUNT);
        TRY(once(p, &t->success, m, second_s));
        return dice__parse_cond(p, &t->success, DICE_CMP_NONE);
    }
}

/* modifier -> keep | explode | reroll | 'ra' cond | count | clamp
 *           | 'adv' | 'dis'
 * adv and dis are modifiers of a single d20 only. Which words a dialect
 * reads differently is in docs/dice.md. */
enum eng_err dice__parse_modifier(struct dice_parser *p, struct dice_term *t,
                                   bool *more)
{
    /* most terms end at a token that is no modifier: say so before
     * copying the token, whose fields the lexer has only just stored */
    enum dice_tok_kind k = p->tok.kind;
    *more = k >= DICE_T_BANG && k <= DICE_T_ODD && k != DICE_T_PERCENT &&
            k != DICE_T_HASH;
    if (!*more)
        return ENG_OK;
    struct dice_tok m = p->tok;
    bool avrae = dice__dialect_is(p, DICE_DIALECT_AVRAE);
    switch (m.kind) {
    case DICE_T_KH:
    case DICE_T_KL:
    case DICE_T_K:
    case DICE_T_DH:
    case DICE_T_DL:
    case DICE_T_D:
    case DICE_T_P:
    case DICE_T_PH:
    case DICE_T_PL:
        return parse_keep(p, t, &m);
    case DICE_T_BANG:
        /* Dice Maiden's "! text" is a comment, Avrae's "!=" a comparison */
        if (dice__dialect_is(p, DICE_DIALECT_DICE_MAIDEN) ||
            (avrae && p->lx.at < p->lx.len && p->lx.src[p->lx.at] == '=')) {
            *more = false;
            return ENG_OK;
        }
        return parse_explode(p, t, &m);
    case DICE_T_E:
    case DICE_T_IE:
    case DICE_T_X:
    case DICE_T_XO:
        return parse_explode(p, t, &m);
    case DICE_T_R:
    case DICE_T_RO:
    case DICE_T_RR:
    case DICE_T_IR:
        return parse_reroll(p, t, &m);
    case DICE_T_RA:
        TRY(once(p, &t->reroll_add, &m, "is a second reroll-and-add"));
        TRY(dice__next(p));
        return dice__parse_cond(p, &t->reroll_add, DICE_CMP_EQ);
    case DICE_T_EQ:
    case DICE_T_LT:
    case DICE_T_LE:
    case DICE_T_GT:
    case DICE_T_GE:
        if (avrae) {            /* compares totals: parse_cmp() */
            *more = false;
            return ENG_OK;
        }
        return parse_count(p, t, &m);
    case DICE_T_EVEN:
    case DICE_T_ODD:
        /* written onto the dice ("5d6even"): "2d6 even" is a label */
        if (!dice__adjacent(p)) {
            *more = false;
            return ENG_OK;
        }
        return parse_count(p, t, &m);
    case DICE_T_T:
    case DICE_T_TL:
    case DICE_T_CS:
    case DICE_T_CF:
    case DICE_T_F:
    case DICE_T_DF:
    case DICE_T_B:
    case DICE_T_DS:
        return parse_count(p, t, &m);
    case DICE_T_MIN:
    case DICE_T_MAX:
        return parse_clamp(p, t, &m);
    case DICE_T_ADV:
    case DICE_T_DIS:
        /* on anything but a d20, leave it to apply_trailing_adv() */
        if (!dice__is_single_d20(t)) {
            *more = false;
            return ENG_OK;
        }
        TRY(dice__apply_adv(p, t, &m));
        return dice__next(p);
    default:
        *more = false;
        return ENG_OK;
    }
}
