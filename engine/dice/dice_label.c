/*
 * dice_label.c - "2d6+3 fire": dice followed by plain words that say what
 * the roll is for, as players type them in other dice bots.
 */
#include "dice.h"

#include <ctype.h>
#include <strings.h>

/* A word that means to change the roll, not to name it ("advantage",
 * "disadv"): better an error at it than a roll without it. */
static bool means_dice(const char *w, size_t n)
{
    return n >= 3 && (strncasecmp(w, "adv", 3) == 0 ||
                      strncasecmp(w, "dis", 3) == 0);
}

static bool parses(const char *src, size_t len, enum dice_dialect d)
{
    struct dice_expr *e = NULL;
    struct dice_diag diag;
    diag.tr = NULL;             /* the message is not read: English */
    if (dice_parse_as(src, len, d, &e, &diag) != ENG_OK)
        return false;
    dice_expr_free(e);
    return true;
}

bool dice_split_label(const char *src, size_t len, size_t *dice_len,
                      size_t *label_at)
{
    return dice_split_label_as(src, len, DICE_DIALECT_FRAY, dice_len,
                               label_at);
}

bool dice_split_label_as(const char *src, size_t len, enum dice_dialect d,
                         size_t *dice_len, size_t *label_at)
{
    if (len == 0 || len > DICE_MAX_EXPR_LEN || parses(src, len, d))
        return false;
    /* The longest prefix that parses, cut at a space after which a word
     * starts: "1d20+5 adv Stealth" keeps adv as dice. */
    for (size_t p = len; p-- > 1;) {
        if (src[p] != ' ' || src[p - 1] == ' ')
            continue;
        size_t w = p;
        while (w < len && src[w] == ' ')
            w++;
        if (w == len || !isalpha((unsigned char)src[w]) ||
            means_dice(src + w, len - w))
            continue;
        if (parses(src, p, d)) {
            *dice_len = p;
            *label_at = w;
            return true;
        }
    }
    return false;
}
