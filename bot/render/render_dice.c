/*
 * render_dice.c - dice results and errors as terminal text or Discord
 * markdown, always within the caller's (and Discord's) length limit.
 */
#include "render_dice.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* How much of a roll is shown; each step is tried until the output fits. */
enum detail {
    DETAIL_DICE,                /* every die */
    DETAIL_COUNTS,              /* long pools as counts per face */
    DETAIL_TERMS,               /* dice counts only */
    DETAIL_TOTALS,              /* one line of totals */
};

/* A bounded output buffer. Writing past cap sets full (and writes
 * nothing), unless cut is set: then as much as fits is kept, ending on a
 * character boundary. */
struct out {
    char *buf;
    size_t cap, len;
    bool full, cut;
    bool discord;
    bool collapsed;             /* some pool was shown as counts */
};

static void put(struct out *o, const char *s, size_t n)
{
    if (o->full)
        return;
    if (n >= o->cap - o->len) {
        o->full = true;
        if (!o->cut)
            return;
        n = o->cap - o->len - 1;
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--;                /* do not split a UTF-8 sequence */
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
    o->buf[o->len] = '\0';
}

static void put_str(struct out *o, const char *s)
{
    put(o, s, strlen(s));
}

__attribute__((format(printf, 2, 3)))
static void put_fmt(struct out *o, const char *fmt, ...)
{
    char tmp[64];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0)
        put(o, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

/* Text the user typed: Discord gets markdown characters escaped. */
static void put_user(struct out *o, const char *s, size_t n)
{
    if (!o->discord) {
        put(o, s, n);
        return;
    }
    size_t start = 0;
    for (size_t i = 0; i < n; i++) {
        if (strchr("\\*_~`|", s[i]) == NULL)
            continue;
        put(o, s + start, i - start);
        put(o, "\\", 1);
        start = i;
    }
    put(o, s + start, n - start);
}

/* Bold in Discord, as is in text. */
static void put_strong(struct out *o, const char *s, size_t n)
{
    if (o->discord)
        put_str(o, "**");
    put_user(o, s, n);
    if (o->discord)
        put_str(o, "**");
}

static void put_face(struct out *o, const struct dice_group *g, int32_t v)
{
    if (g->fudge)
        put_str(o, v > 0 ? "+" : v < 0 ? "-" : "0");
    else
        put_fmt(o, "%d", (int)v);
}

/* One die. Text: "(2)" not counted, "1r" rerolled, "6!" exploded,
 * "8*" success ("10**" counted twice), "1x" failure, "1b" botch, "3→10"
 * a face that minN raised (or maxN lowered) to what it counts for. Discord: ~~struck~~ when not counted,
 * bold for a success or natural maximum, italics for a failure, botch or
 * natural minimum, "!" after an explosion, the same arrow. */
static void put_die(struct out *o, const struct dice_group *g,
                    const struct dice_die *d)
{
    unsigned f = d->flags;
    const char *mark = "";
    if (o->discord) {
        if (f & DICE_DIE_UNCOUNTED)
            mark = "~~";
        else if (f & (DICE_DIE_SUCCESS | DICE_DIE_FAILURE | DICE_DIE_BOTCH))
            mark = (f & DICE_DIE_SUCCESS) ? "**" : "_";
        else if (!g->counting && (f & (DICE_DIE_MAX | DICE_DIE_MIN)))
            mark = (f & DICE_DIE_MAX) ? "**" : "_";
    } else if (f & DICE_DIE_UNCOUNTED)
        mark = "(";
    put_str(o, mark);
    if (f & (DICE_DIE_RAISED | DICE_DIE_LOWERED)) {
        put_face(o, g, d->rolled);
        put_str(o, RENDER_DICE_ARROW);
    }
    put_face(o, g, d->value);
    if (!o->discord && (f & DICE_DIE_REROLLED))
        put_str(o, "r");
    if (!o->discord && !(f & DICE_DIE_UNCOUNTED)) {
        if (f & DICE_DIE_SUCCESS)
            put_str(o, (f & DICE_DIE_TWICE) ? "**" : "*");
        if (f & DICE_DIE_FAILURE)
            put_str(o, "x");
        if (f & DICE_DIE_BOTCH)
            put_str(o, "b");
    }
    put_str(o, *mark == '(' ? ")" : mark);
    if (f & DICE_DIE_EXPLODED)
        put_str(o, "!");
}

/* A pool too long to list: "1000 dice; 1: 160, 2: 170, ..." (counted dice
 * per face), or the counted dice themselves when few are ("100 dice;
 * counted 99, 97, 95; 97 not counted"). */
static void put_counts(struct out *o, const struct dice_result *r,
                       const struct dice_group *g)
{
    const struct dice_die *d = &r->dice[g->first];
    unsigned counted = 0;
    for (unsigned i = 0; i < g->count; i++)
        counted += !(d[i].flags & DICE_DIE_UNCOUNTED);
    put_fmt(o, "%u dice", (unsigned)g->count);
    if (counted <= RENDER_DICE_LIST_MAX) {
        const char *sep = "; counted ";
        for (unsigned i = 0; i < g->count; i++) {
            if (d[i].flags & DICE_DIE_UNCOUNTED)
                continue;
            put_str(o, sep);
            put_die(o, g, &d[i]);
            sep = ", ";
        }
    } else if (g->counting) {
        put_fmt(o, "; %d successes, %d failures", (int)g->successes,
                (int)g->failures);
    } else if (g->fudge || g->sides <= RENDER_DICE_HIST_MAX) {
        unsigned hist[RENDER_DICE_HIST_MAX + 1] = {0};
        int32_t lo = g->fudge ? -1 : 1;
        for (unsigned i = 0; i < g->count; i++)
            if (!(d[i].flags & DICE_DIE_UNCOUNTED) && d[i].value >= lo &&
                d[i].value - lo < g->sides)   /* "!p" can count 0 */
                hist[d[i].value - lo]++;
        const char *sep = "; ";
        for (int32_t i = 0; i < g->sides; i++) {
            if (hist[i] == 0)
                continue;
            put_str(o, sep);
            put_face(o, g, lo + i);
            put_fmt(o, ": %u", hist[i]);
            sep = ", ";
        }
    }
    if (counted < g->count)
        put_fmt(o, "; %u not counted", g->count - counted);
    o->collapsed = true;
}

static void put_group(struct out *o, const struct dice_result *r,
                      const struct dice_group *g, enum detail lvl)
{
    put_str(o, " (");
    if (lvl == DETAIL_DICE ||
        (lvl == DETAIL_COUNTS && g->count <= RENDER_DICE_LIST_MAX)) {
        for (unsigned i = 0; i < g->count; i++) {
            if (i > 0)
                put_str(o, ", ");
            put_die(o, g, &r->dice[g->first + i]);
        }
    } else if (lvl == DETAIL_COUNTS)
        put_counts(o, r, g);
    else
        put_fmt(o, "%u dice", (unsigned)g->count);
    put_str(o, ")");
}

static void put_total(struct out *o, int64_t total)
{
    char num[24];
    int n = snprintf(num, sizeof num, "%lld", (long long)total);
    put_strong(o, num, (size_t)n);
}

/* "2d6 (4, 6)+3 = 13": the source with each dice term's dice after it. */
static void put_line(struct out *o, const char *src,
                     const struct dice_result *r, enum detail lvl)
{
    size_t at = r->expr_pos, end = (size_t)r->expr_pos + r->expr_len;
    for (unsigned i = 0; i < r->n_groups; i++) {
        const struct dice_group *g = &r->groups[i];
        size_t g_end = (size_t)g->pos + g->len;
        if (g->pos < at || g_end > end)
            continue;
        put_user(o, src + at, g_end - at);
        put_group(o, r, g, lvl);
        at = g_end;
    }
    put_user(o, src + at, end - at);
    put_str(o, " = ");
    put_total(o, r->total);
}

static void put_note(struct out *o, const char *note)
{
    put_str(o, o->discord ? "\n_(" : "\n(");
    put_str(o, note);
    put_str(o, o->discord ? ")_" : ")");
}

/* Botches (Dice Maiden's b) and how fray read forms other bots read
 * differently (dice.h, enum dice_note), one note each. */
static void put_reading(struct out *o, const struct dice_result *r)
{
    int32_t botches = 0;
    for (unsigned i = 0; i < r->n_groups; i++)
        botches += r->groups[i].botches;
    if (botches > 0) {
        char n[48];
        snprintf(n, sizeof n, "%d botch%s", (int)botches,
                 botches == 1 ? "" : "es");
        put_note(o, n);
    }
    for (unsigned bit = 0; bit < DICE_NOTE_COUNT; bit++)
        if (r->notes & (1u << bit))
            put_note(o, dice_note_text((enum dice_note)(1u << bit)));
}

static void put_label(struct out *o, const struct dice_result *r)
{
    put_strong(o, r->label, r->label_len);
}

static void render_at(struct out *o, const char *src,
                      const struct dice_result *res, size_t n,
                      enum detail lvl)
{
    if (lvl == DETAIL_TOTALS) {
        if (res[0].label != NULL) {
            put_label(o, &res[0]);
            put_str(o, ": ");
        }
        /* the whole expression, repeat prefix included */
        size_t from = n > 1 ? 0 : res[0].expr_pos;
        size_t to = (size_t)res[0].expr_pos + res[0].expr_len;
        while (from < to && (src[from] == ' ' || src[from] == '\t'))
            from++;
        put_user(o, src + from, to - from);
        put_str(o, " = ");
        for (size_t i = 0; i < n; i++) {
            if (i > 0)
                put_str(o, ", ");
            put_total(o, res[i].total);
        }
        put_note(o, "details left out to fit");
        return;
    }
    if (res[0].label != NULL) {
        put_label(o, &res[0]);
        put_str(o, n > 1 ? "\n" : ": ");
    }
    for (size_t i = 0; i < n; i++) {
        if (n > 1)
            put_fmt(o, "%s#%zu ", i > 0 ? "\n" : "", i + 1);
        put_line(o, src, &res[i], lvl);
    }
    if (lvl == DETAIL_COUNTS && o->collapsed)
        put_note(o, "long pools shown as counts");
    else if (lvl == DETAIL_TERMS)
        put_note(o, "dice left out to fit");
    put_reading(o, &res[0]);
}

size_t render_dice(char *buf, size_t cap, enum render_dice_style style,
                   const char *src, size_t len, const struct dice_result *res,
                   size_t n)
{
    (void)len;  /* spans were checked against it when parsing */
    if (cap == 0)
        return 0;
    buf[0] = '\0';
    if (n == 0)
        return 0;
    bool discord = style == RENDER_DICE_DISCORD;
    if (discord && cap > RENDER_DISCORD_MAX + 1)
        cap = RENDER_DISCORD_MAX + 1;
    for (int lvl = DETAIL_DICE; lvl <= DETAIL_TOTALS; lvl++) {
        struct out o = {.buf = buf, .cap = cap, .discord = discord,
                        .cut = lvl == DETAIL_TOTALS};
        buf[0] = '\0';
        render_at(&o, src, res, n, (enum detail)lvl);
        if (!o.full || o.cut)
            return o.len;
    }
    return 0;
}

/* Bytes in the UTF-8 character at s (n > 0 bytes left), or 0 if s does not
 * start a well-formed one. Lenient about overlong forms: this only decides
 * what to display. */
static size_t display_char_len(const unsigned char *s, size_t n)
{
    size_t need = s[0] < 0x80 ? 1 : s[0] >= 0xF0 ? 4 : s[0] >= 0xE0 ? 3
                : s[0] >= 0xC2 ? 2 : 0;
    if (need == 0 || need > n || s[0] > 0xF4)
        return 0;
    for (size_t i = 1; i < need; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    return need;
}

size_t render_dice_error(char *buf, size_t cap, enum render_dice_style style,
                         const char *src, size_t len,
                         const struct dice_diag *diag)
{
    if (cap == 0)
        return 0;
    buf[0] = '\0';
    bool discord = style == RENDER_DICE_DISCORD;
    if (discord && cap > RENDER_DISCORD_MAX + 1)
        cap = RENDER_DISCORD_MAX + 1;
    struct out o = {.buf = buf, .cap = cap, .discord = discord, .cut = true};
    const char *indent = discord ? "" : "  ";
    put_str(&o, "error: ");
    put_str(&o, diag->msg);
    put_str(&o, discord ? "\n```\n" : "\n  ");
    /* one byte past the longest expression shows where a long one was cut */
    size_t shown = len < DICE_MAX_EXPR_LEN + 1 ? len : DICE_MAX_EXPR_LEN + 1;
    size_t col = 0, width = 0;
    const unsigned char *s = (const unsigned char *)src;
    for (size_t i = 0; i < shown;) {
        size_t n = display_char_len(s + i, len - i);
        bool bad = n == 0 || s[i] < 0x20 || s[i] == 0x7F;
        if (bad)
            put(&o, "?", 1);
        else if (discord && s[i] == '`')
            put(&o, "'", 1);
        else
            put(&o, src + i, n);
        if (i < diag->pos)
            col++;
        else if (i < (size_t)diag->pos + diag->len)
            width++;
        i += bad ? 1 : n;
    }
    if (shown < len)
        put_str(&o, "...");
    put_str(&o, "\n");
    put_str(&o, indent);
    for (size_t i = 0; i < col; i++)
        put(&o, " ", 1);
    for (size_t i = 0; i < (width > 0 ? width : 1); i++)
        put(&o, "^", 1);
    put_str(&o, discord ? "\n```" : "\n");
    return o.len;
}
