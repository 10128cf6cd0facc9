/*
 * dice_lex.c - input checks, tokens and diagnostics for the dice language.
 */
#include "dice_int.h"

#include <stdio.h>

enum eng_err dice__fail(struct dice_diag *diag, enum eng_err code, size_t pos,
                        size_t len, const char *fmt, ...)
{
    if (diag == NULL)
        return code;
    diag->code = code;
    diag->pos = (uint16_t)(pos > UINT16_MAX ? UINT16_MAX : pos);
    diag->len = (uint16_t)(len > UINT16_MAX ? UINT16_MAX : len);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(diag->msg, sizeof diag->msg, fmt, ap);
    va_end(ap);
    return code;
}

enum eng_err dice__limit(struct dice_diag *diag, size_t pos, size_t len,
                         const char *what, long limit)
{
    return dice__fail(diag, ENG_LIMIT, pos, len, "%s (limit is %ld)", what,
                      limit);
}

/* Length of the UTF-8 sequence starting at s[0] (of n bytes left), or 0 if
 * it is not a well-formed one (overlong, surrogate, past U+10FFFF,
 * truncated). */
static size_t utf8_seq_len(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    size_t need;
    unsigned char lo = 0x80, hi = 0xBF;     /* bounds of the second byte */
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        need = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        need = 3;
        if (c == 0xE0)
            lo = 0xA0;
        else if (c == 0xED)
            hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        need = 4;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F;
    } else
        return 0;
    if (n < need || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < need; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    return need;
}

enum eng_err dice__check_input(const char *src, size_t len,
                               struct dice_diag *diag)
{
    if (len > DICE_MAX_EXPR_LEN)
        return dice__limit(diag, DICE_MAX_EXPR_LEN, 1, "expression too long",
                           DICE_MAX_EXPR_LEN);
    const unsigned char *s = (const unsigned char *)src;
    bool blank = true;
    size_t i = 0;
    /* fast path: printable ASCII, as nearly every expression is */
    for (; i < len && s[i] >= ' ' && s[i] < 0x7F; i++)
        blank = blank && s[i] == ' ';
    while (i < len) {
        if (s[i] == 0)
            return dice__fail(diag, ENG_INVALID, i, 1,
                              "NUL byte at column %zu", i + 1);
        size_t n = utf8_seq_len(s + i, len - i);
        if (n == 0)
            return dice__fail(diag, ENG_INVALID, i, 1,
                              "invalid UTF-8 at column %zu", i + 1);
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
            blank = false;
        i += n;
    }
    if (blank)
        return dice__fail(diag, ENG_SYNTAX, 0, 0, "empty expression");
    return ENG_OK;
}

static char lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

/* The longest keyword at s (n > 0 bytes left), or DICE_T_END if none
 * starts there: adv dis kh kl k dh dl df d min max ro r f x, any case. */
static enum dice_tok_kind keyword(const char *s, size_t n, size_t *wlen)
{
    char c1 = n > 1 ? lower(s[1]) : 0;
    *wlen = 2;
    switch (lower(s[0])) {
    case 'a':
        *wlen = 3;
        return c1 == 'd' && n > 2 && lower(s[2]) == 'v' ? DICE_T_ADV
                                                         : DICE_T_END;
    case 'd':
        if (c1 == 'i' && n > 2 && lower(s[2]) == 's') {
            *wlen = 3;
            return DICE_T_DIS;
        }
        if (c1 == 'h' || c1 == 'l' || c1 == 'f')
            return c1 == 'h' ? DICE_T_DH : c1 == 'l' ? DICE_T_DL : DICE_T_DF;
        *wlen = 1;
        return DICE_T_D;
    case 'm': {
        char c2 = n > 2 ? lower(s[2]) : 0;
        *wlen = 3;
        if (c1 == 'i' && c2 == 'n')
            return DICE_T_MIN;
        return c1 == 'a' && c2 == 'x' ? DICE_T_MAX : DICE_T_END;
    }
    case 'k':
        if (c1 == 'h' || c1 == 'l')
            return c1 == 'h' ? DICE_T_KH : DICE_T_KL;
        *wlen = 1;
        return DICE_T_K;
    case 'r':
        if (c1 == 'o')
            return DICE_T_RO;
        *wlen = 1;
        return DICE_T_R;
    case 'f':
        *wlen = 1;
        return DICE_T_F;
    case 'x':
        *wlen = 1;
        return DICE_T_X;
    default:
        return DICE_T_END;
    }
}

/* A one- or two-character operator at s, or DICE_T_END. */
static enum dice_tok_kind symbol(const char *s, size_t n, size_t *slen)
{
    *slen = 1;
    switch (s[0]) {
    case '+':
        return DICE_T_PLUS;
    case '-':
        return DICE_T_MINUS;
    case '*':
        return DICE_T_STAR;
    case '/':
        return DICE_T_SLASH;
    case '(':
        return DICE_T_LPAREN;
    case ')':
        return DICE_T_RPAREN;
    case '!':
        return DICE_T_BANG;
    case '%':
        return DICE_T_PERCENT;
    case '#':
        return DICE_T_HASH;
    case '=':
        return DICE_T_EQ;
    case '<':
    case '>':
        if (n > 1 && s[1] == '=') {
            *slen = 2;
            return s[0] == '<' ? DICE_T_LE : DICE_T_GE;
        }
        return s[0] == '<' ? DICE_T_LT : DICE_T_GT;
    default:
        return DICE_T_END;
    }
}

enum eng_err dice__lex(struct dice_lexer *lx, struct dice_tok *t,
                       struct dice_diag *diag)
{
    const char *s = lx->src;
    size_t n = lx->len, i = lx->at;
    while (i < n && dice__is_space(s[i]))
        i++;
    t->pos = (uint16_t)i;
    t->upper = false;
    t->too_big = false;
    if (i == n) {
        t->kind = DICE_T_END;
        t->len = 0;
        lx->at = i;
        return ENG_OK;
    }
    size_t start = i;
    if (s[i] >= '0' && s[i] <= '9') {
        int64_t v = 0;
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
            if (__builtin_mul_overflow(v, 10, &v) ||
                __builtin_add_overflow(v, s[i] - '0', &v))
                t->too_big = true;
        t->kind = DICE_T_NUM;
        t->num = t->too_big ? INT64_MAX : v;
    } else {
        size_t w;
        bool letter = (s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'z';
        enum dice_tok_kind k = letter ? keyword(s + i, n - i, &w)
                                      : symbol(s + i, n - i, &w);
        if (k == DICE_T_END) {
            /* The input is valid UTF-8 (dice__check_input), so this shows
             * one whole character. */
            size_t cl = utf8_seq_len((const unsigned char *)s + i, n - i);
            if ((unsigned char)s[i] < 0x20 || s[i] == 0x7F)
                return dice__fail(diag, ENG_SYNTAX, i, 1,
                                  "unexpected control character at column %zu",
                                  i + 1);
            return dice__fail(diag, ENG_SYNTAX, i, cl,
                              "unexpected `%.*s` at column %zu", (int)cl,
                              s + i, i + 1);
        }
        t->kind = k;
        t->upper = s[i] == 'D';
        i += w;
    }
    t->len = (uint16_t)(i - start);
    lx->at = i;
    return ENG_OK;
}
