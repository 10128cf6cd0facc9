/*
 * render_dice.c - dice as people see them: one die and one long pool with
 * the marks every surface shares (render_dice_die, render_dice_counts, also
 * used for the rolls in events by render_roll.c), and the roll command's
 * results and errors as terminal text or markdown, always within the
 * caller's (and Discord's) length limit.
 */
#include "render_dice.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "eng_text.h"
#include "i18n.h"

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
    bool discord;               /* markdown (Discord, the console) */
    bool collapsed;             /* some pool was shown as counts */
    enum i18n_lang lang;        /* of the notes and the error's words */
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

/* ---- one die, one long pool: the marks every surface shows ---------------- */

/* A face: Fudge dice as + 0 -, others in decimal (eng_text_i64: every die
 * of every roll in an event passes here, and printf costs ten times it). */
static void put_face(struct out *o, const struct render_dice_term *t,
                     int32_t v)
{
    char num[ENG_TEXT_I64_MAX];
    const char *p;
    if (t->fudge) {
        put(o, v > 0 ? "+" : v < 0 ? "-" : "0", 1);
        return;
    }
    p = eng_text_i64(v, num);
    put(o, p, (size_t)(num + sizeof num - p));
}

/* A writer over a caller's buffer for one die or one pool's counts: what
 * does not fit is cut (the callers' buffers hold the longest). */
static struct out piece(char *buf, size_t cap, bool markdown)
{
    if (cap > 0)
        buf[0] = '\0';
    return (struct out){.buf = buf, .cap = cap, .cut = true,
                        .discord = markdown, .full = cap == 0};
}

size_t render_dice_die(char *buf, size_t cap, bool markdown,
                       const struct render_dice_term *t,
                       const struct dice_die *d)
{
    struct out p = piece(buf, cap, markdown);
    unsigned f = d->flags;
    bool counted = !(f & DICE_DIE_UNCOUNTED);
    const char *open = "", *close = "";
    if (!counted) {
        open = markdown ? "~~(" : "(";
        close = markdown ? ")~~" : ")";
    } else if (markdown && (f & DICE_DIE_SUCCESS)) {
        open = close = "**";
    } else if (markdown && (f & (DICE_DIE_FAILURE | DICE_DIE_BOTCH))) {
        open = close = "_";
    } else if (markdown && !t->counting && (f & DICE_DIE_MAX)) {
        open = close = "**";
    } else if (markdown && !t->counting && (f & DICE_DIE_MIN)) {
        open = close = "_";
    }
    if (*open != '\0')
        put_str(&p, open);
    if (f & (DICE_DIE_RAISED | DICE_DIE_LOWERED)) {
        put_face(&p, t, d->rolled);
        put_str(&p, RENDER_DICE_ARROW);
    }
    put_face(&p, t, d->value);
    if (f & DICE_DIE_REROLLED)
        put_str(&p, "r");
    if (counted && (f & DICE_DIE_SUCCESS))
        put_str(&p, (f & DICE_DIE_TWICE) ? (markdown ? "\\*\\*" : "**")
                                         : (markdown ? "\\*" : "*"));
    if (counted && (f & DICE_DIE_FAILURE))
        put_str(&p, "x");
    if (counted && (f & DICE_DIE_BOTCH))
        put_str(&p, "b");
    if (*close != '\0')
        put_str(&p, close);
    if (f & DICE_DIE_EXPLODED)
        put_str(&p, "!");
    return p.len;
}

size_t render_dice_counts(char *buf, size_t cap, bool markdown,
                          const struct render_dice_term *t)
{
    struct out p = piece(buf, cap, markdown);
    const struct dice_die *d = t->dice;
    unsigned counted = 0;
    for (unsigned i = 0; i < t->count; i++)
        counted += !(d[i].flags & DICE_DIE_UNCOUNTED);
    put_fmt(&p, "%u dice", t->count);
    if (counted <= RENDER_DICE_LIST_MAX) {
        const char *sep = "; counted ";
        for (unsigned i = 0; i < t->count; i++) {
            char die[RENDER_DICE_DIE_MAX];
            if (d[i].flags & DICE_DIE_UNCOUNTED)
                continue;
            put_str(&p, sep);
            render_dice_die(die, sizeof die, markdown, t, &d[i]);
            put_str(&p, die);
            sep = ", ";
        }
    } else if (t->counting) {
        unsigned succ = 0, fail = 0;
        for (unsigned i = 0; i < t->count; i++) {
            if (d[i].flags & DICE_DIE_UNCOUNTED)
                continue;
            succ += (d[i].flags & DICE_DIE_SUCCESS) != 0;
            fail += (d[i].flags & DICE_DIE_FAILURE) != 0;
        }
        put_fmt(&p, "; %u successes, %u failures", succ, fail);
    } else if (t->fudge || t->sides <= RENDER_DICE_HIST_MAX) {
        unsigned hist[RENDER_DICE_HIST_MAX + 1] = {0};
        int32_t lo = t->fudge ? -1 : 1;
        for (unsigned i = 0; i < t->count; i++) {
            int32_t k = d[i].value - lo;   /* "!p" can count 0: k < 0 */
            if (!(d[i].flags & DICE_DIE_UNCOUNTED) && k >= 0 &&
                k < t->sides && k <= RENDER_DICE_HIST_MAX)
                hist[k]++;
        }
        const char *sep = "; ";
        for (int32_t i = 0; i < t->sides && i <= RENDER_DICE_HIST_MAX; i++) {
            if (hist[i] == 0)
                continue;
            put_str(&p, sep);
            put_face(&p, t, lo + i);
            put_fmt(&p, ": %u", hist[i]);
            sep = ", ";
        }
    }
    if (counted < t->count)
        put_fmt(&p, "; %u not counted", t->count - counted);
    return p.len;
}

/* ---- the roll command's lines --------------------------------------------- */

static struct render_dice_term term_of(const struct dice_result *r,
                                       const struct dice_group *g)
{
    return (struct render_dice_term){&r->dice[g->first], g->count, g->sides,
                                     g->fudge, g->counting};
}

static void put_group(struct out *o, const struct dice_result *r,
                      const struct dice_group *g, enum detail lvl)
{
    struct render_dice_term t = term_of(r, g);
    put_str(o, " (");
    if (lvl == DETAIL_DICE ||
        (lvl == DETAIL_COUNTS && g->count <= RENDER_DICE_LIST_MAX)) {
        for (unsigned i = 0; i < g->count; i++) {
            char die[RENDER_DICE_DIE_MAX];
            if (i > 0)
                put_str(o, ", ");
            render_dice_die(die, sizeof die, o->discord, &t,
                            &r->dice[g->first + i]);
            put_str(o, die);
        }
    } else if (lvl == DETAIL_COUNTS) {
        char counts[RENDER_DICE_COUNTS_MAX];
        render_dice_counts(counts, sizeof counts, o->discord, &t);
        put_str(o, counts);
        o->collapsed = true;
    } else {
        /* English says "dice" for one too, as it always has */
        put_fmt(o, i18n_nget(o->lang, "%u dice", "%u dice", g->count),
                (unsigned)g->count);
    }
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
        char n[64];
        snprintf(n, sizeof n, i18n_nget(o->lang, "%d botch", "%d botches",
                                        (unsigned long)botches),
                 (int)botches);
        put_note(o, n);
    }
    for (unsigned bit = 0; bit < DICE_NOTE_COUNT; bit++)
        if (r->notes & (1u << bit))
            put_note(o, i18n_get(o->lang, dice_note_text((enum dice_note)(
                                              1u << bit))));
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
        put_note(o, i18n_get(o->lang, "details left out to fit"));
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
        put_note(o, i18n_get(o->lang, "long pools shown as counts"));
    else if (lvl == DETAIL_TERMS)
        put_note(o, i18n_get(o->lang, "dice left out to fit"));
    put_reading(o, &res[0]);
}

size_t render_dice(char *buf, size_t cap, enum render_dice_style style,
                   enum i18n_lang lang, const char *src, size_t len,
                   const struct dice_result *res, size_t n)
{
    (void)len;  /* spans were checked against it when parsing */
    if (cap == 0)
        return 0;
    buf[0] = '\0';
    if (n == 0)
        return 0;
    bool discord = style != RENDER_DICE_TEXT;   /* markdown */
    if (style == RENDER_DICE_DISCORD && cap > RENDER_DISCORD_MAX + 1)
        cap = RENDER_DISCORD_MAX + 1;
    for (int lvl = DETAIL_DICE; lvl <= DETAIL_TOTALS; lvl++) {
        struct out o = {.buf = buf, .cap = cap, .discord = discord,
                        .cut = lvl == DETAIL_TOTALS, .lang = lang};
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
                         enum i18n_lang lang, const char *src, size_t len,
                         const struct dice_diag *diag)
{
    if (cap == 0)
        return 0;
    buf[0] = '\0';
    bool discord = style != RENDER_DICE_TEXT;   /* markdown */
    if (style == RENDER_DICE_DISCORD && cap > RENDER_DISCORD_MAX + 1)
        cap = RENDER_DISCORD_MAX + 1;
    struct out o = {.buf = buf, .cap = cap, .discord = discord, .cut = true};
    const char *indent = discord ? "" : "  ";
    char line[sizeof diag->msg + 64];
    snprintf(line, sizeof line, i18n_get(lang, "error: %s"), diag->msg);
    put_str(&o, line);
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
