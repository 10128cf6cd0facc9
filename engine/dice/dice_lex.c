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
    vsnprintf(diag->msg, sizeof diag->msg, dice__tr(diag, fmt), ap);
    va_end(ap);
    return code;
}

const char *dice__tr(const struct dice_diag *diag, const char *s)
{
    return diag != NULL && diag->tr != NULL ? diag->tr(diag->tr_ctx, s) : s;
}

enum eng_err dice__limit(struct dice_diag *diag, size_t pos, size_t len,
                         const char *what, long limit)
{
    return dice__fail(diag, ENG_LIMIT, pos, len, "%s (limit is %ld)",
                      dice__tr(diag, what), limit);
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

/* Is s[0, n) at least the word w (lowercase, past its first letter,
 * which the caller matched), any case? */
static bool rest_is(const char *s, size_t n, const char *w)
{
    size_t i = 1;
    for (; w[i] != '\0'; i++)
        if (i >= n || lower(s[i]) != w[i])
            return false;
    return true;
}

/* The longest keyword at s (n > 0 bytes left), or DICE_T_END if none
 * starts there, any case: adv b cod cs cf dis dh dl df ds d even e f ie ir
 * kh kl k min max mi ma odd ph pl p ro rr ra r snm sr sp tl t wod wh xo x
 * yz. A switch on the
 * first letter, as this runs for every letter of every expression. */
static enum dice_tok_kind keyword(const char *s, size_t n, size_t *wlen)
{
    char c1 = n > 1 ? lower(s[1]) : 0;
    *wlen = 2;
    switch (lower(s[0])) {
    case 'a':
        *wlen = 3;
        return rest_is(s, n, "adv") ? DICE_T_ADV : DICE_T_END;
    case 'b':
        *wlen = 1;
        return DICE_T_B;
    case 'c':
        if (rest_is(s, n, "cod")) {
            *wlen = 3;
            return DICE_T_COD;
        }
        return c1 == 's' ? DICE_T_CS : c1 == 'f' ? DICE_T_CF : DICE_T_END;
    case 'd':
        switch (c1) {
        case 'i':
            if (!rest_is(s, n, "dis"))
                break;
            *wlen = 3;
            return DICE_T_DIS;
        case 'h':
            return DICE_T_DH;
        case 'l':
            return DICE_T_DL;
        case 'f':
            return DICE_T_DF;
        case 's':
            return DICE_T_DS;
        default:
            break;
        }
        *wlen = 1;
        return DICE_T_D;
    case 'e':
        if (rest_is(s, n, "even")) {
            *wlen = 4;
            return DICE_T_EVEN;
        }
        *wlen = 1;
        return DICE_T_E;
    case 'f':
        *wlen = 1;
        return DICE_T_F;
    case 'i':
        return c1 == 'e' ? DICE_T_IE : c1 == 'r' ? DICE_T_IR : DICE_T_END;
    case 'k':
        if (c1 == 'h' || c1 == 'l')
            return c1 == 'h' ? DICE_T_KH : DICE_T_KL;
        *wlen = 1;
        return DICE_T_K;
    case 'm':
        if (c1 != 'i' && c1 != 'a')
            return DICE_T_END;
        *wlen = rest_is(s, n, c1 == 'i' ? "min" : "max") ? 3 : 2;
        return c1 == 'i' ? DICE_T_MIN : DICE_T_MAX;
    case 'o':
        *wlen = 3;
        return rest_is(s, n, "odd") ? DICE_T_ODD : DICE_T_END;
    case 'p':
        if (c1 == 'h' || c1 == 'l')
            return c1 == 'h' ? DICE_T_PH : DICE_T_PL;
        *wlen = 1;
        return DICE_T_P;
    case 'r':
        if (c1 == 'o' || c1 == 'r' || c1 == 'a')
            return c1 == 'o' ? DICE_T_RO : c1 == 'r' ? DICE_T_RR : DICE_T_RA;
        *wlen = 1;
        return DICE_T_R;
    case 's':
        if (rest_is(s, n, "snm")) {
            *wlen = 3;
            return DICE_T_SNM;
        }
        return c1 == 'r' ? DICE_T_SR : c1 == 'p' ? DICE_T_SP : DICE_T_END;
    case 'w':
        if (rest_is(s, n, "wod")) {
            *wlen = 3;
            return DICE_T_WOD;
        }
        return c1 == 'h' ? DICE_T_WH : DICE_T_END;
    case 'y':
        return c1 == 'z' ? DICE_T_YZ : DICE_T_END;
    case 't':
        if (c1 == 'l')
            return DICE_T_TL;
        *wlen = 1;
        return DICE_T_T;
    case 'x':
        if (c1 == 'o')
            return DICE_T_XO;
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
    case ',':
        return DICE_T_COMMA;
    case '[':
        if (n > 1 && s[1] == '[') {
            *slen = 2;
            return DICE_T_LINLINE;
        }
        return DICE_T_ANNOT;
    case ']':
        if (n > 1 && s[1] == ']') {
            *slen = 2;
            return DICE_T_RINLINE;
        }
        return DICE_T_END;
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

/* What fray writes instead of a character another bot uses, or "". */
static const char *hint(char c)
{
    switch (c) {
    case ';':
        return N_(" (one expression per roll: Dice Maiden's `;` is not "
                  "read)");
    case '{':
        return N_(" (groups are not read: `2d20kh1` keeps the higher of "
                  "two)");
    case '^':
        return N_(" (no powers: write `*`)");
    default:
        return "";
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
        if (k == DICE_T_ANNOT) {
            size_t close = i + 1;
            while (close < n && s[close] != ']' && s[close] != '[')
                close++;
            if (close == n || s[close] != ']')
                return dice__fail(diag, ENG_SYNTAX, i, 1,
                                  "unclosed `[` at column %zu", i + 1);
            for (size_t j = i + 1; j < close; j++)
                if ((unsigned char)s[j] < 0x20 || s[j] == 0x7F)
                    return dice__fail(diag, ENG_SYNTAX, j, 1,
                                      "control character in `[...]` at "
                                      "column %zu", j + 1);
            w = close + 1 - i;
        }
        if (k == DICE_T_END) {
            /* The input is valid UTF-8 (dice__check_input), so this shows
             * one whole character. */
            size_t cl = utf8_seq_len((const unsigned char *)s + i, n - i);
            if ((unsigned char)s[i] < 0x20 || s[i] == 0x7F)
                return dice__fail(diag, ENG_SYNTAX, i, 1,
                                  "unexpected control character at column %zu",
                                  i + 1);
            return dice__fail(diag, ENG_SYNTAX, i, cl,
                              "unexpected `%.*s` at column %zu%s", (int)cl,
                              s + i, i + 1, dice__tr(diag, hint(s[i])));
        }
        t->kind = k;
        t->upper = s[i] == 'D';
        i += w;
    }
    t->len = (uint16_t)(i - start);
    lx->at = i;
    return ENG_OK;
}
