/*
 * render_discord.c - struct msg -> Discord message JSON within every limit.
 *
 * Written as text (jw.h) in one pass: an answer's body is built on every
 * interaction, and a jansson tree of it cost a malloc per value and a dump.
 * The json_t forms parse that text for the few callers that edit a body.
 */
#include "render_discord.h"
#include "render_notice.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jw.h"
#include "sbuf.h"

#define NOTE_CHARS 13                      /* code points in RENDER_DC_NOTE */
#define EMPTY_TEXT "\xe2\x80\x8b"          /* zero-width space: Discord
                                              refuses empty field texts */
#define EMPTY_MESSAGE "(no output)"
#define DOT " \xc2\xb7 " /* " · " between footer and note */
#define DOT_CHARS 3

struct budget {
    size_t left;          /* characters left for all embeds */
    bool shortened;       /* something was cut or dropped */
};

/* A text as it goes out: its first `bytes` bytes, then the note when it
 * was cut; `chars` counts both. */
struct cut {
    const char *s;
    size_t bytes;
    const char *note; /* NULL: whole */
    size_t chars;
};

static size_t chars_n(const char *s, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80)
            c++;
    return c;
}

size_t render_discord_chars(const char *s)
{
    return s ? chars_n(s, strlen(s)) : 0;
}

/* Byte length of the first `chars` code points of s[0..n). */
static size_t prefix_bytes(const char *s, size_t n, size_t chars)
{
    size_t i = 0, seen = 0;
    while (i < n) {
        if (((unsigned char)s[i] & 0xC0) != 0x80) {
            if (seen == chars)
                break;
            seen++;
        }
        i++;
    }
    return i;
}

/* s[0..n) limited to max code points; when cut, it ends with the note (or
 * "…" when max is too small for it), after the last whole line when that
 * keeps most of the room. */
static struct cut limited(const char *s, size_t n, size_t max, bool *cut)
{
    size_t chars = chars_n(s, n);
    if (chars <= max)
        return (struct cut){s, n, NULL, chars};
    *cut = true;
    bool room = max >= NOTE_CHARS + 1;
    const char *note = room ? RENDER_DC_NOTE : "\xe2\x80\xa6";
    size_t keep = room ? max - NOTE_CHARS : (max ? max - 1 : 0);
    size_t bytes = prefix_bytes(s, n, keep);
    for (size_t i = bytes; i > bytes / 2; i--)
        if (s[i - 1] == '\n') {
            bytes = i;
            break;
        }
    return (struct cut){s, bytes, note,
                        chars_n(s, bytes) + (room ? NOTE_CHARS : 1)};
}

/* The cut text as one JSON string, with extra (a constant, NULL: none)
 * after its note: the text is written escaped, then the string is reopened
 * for the constant pieces, which need no escaping. */
static void put_cut(struct jw *w, const struct cut *c, const char *extra)
{
    jw_strn(w, c->s, c->bytes);
    if ((c->note || extra) && !w->bad) {
        w->len--;
        if (c->note)
            jw_raw(w, c->note, strlen(c->note));
        if (extra)
            jw_raw(w, extra, strlen(extra));
        JW_LIT(w, "\"");
    }
}

/* The text (NULL or "" = absent unless required, then EMPTY_TEXT) within
 * min(limit, budget); false when nothing is to be written. */
static bool fit_text(const char *text, size_t n, size_t limit, struct budget *b,
                     bool required, struct cut *out)
{
    size_t max = limit;
    bool ignored = false;

    if (text == NULL || n == 0) {
        if (!required)
            return false;
        text = EMPTY_TEXT;
        n = strlen(EMPTY_TEXT);
    }
    if (b) {
        if (b->left < max)
            max = b->left;
        if (max == 0) {
            b->shortened = true;
            return false;
        }
    }
    *out = limited(text, n, max, b ? &b->shortened : &ignored);
    if (b)
        b->left -= out->chars;
    return true;
}

/* ,"key":"text" within the limits; nothing when the text is absent. */
static void put_text(struct jw *w, const char *key, const char *text,
                     size_t limit, struct budget *b, bool required)
{
    struct cut c;
    if (fit_text(text, text ? strlen(text) : 0, limit, b, required, &c)) {
        jw_key(w, key, strlen(key), false);
        put_cut(w, &c, NULL);
    }
}

/* A constant piece chosen at run time (JW_LIT needs a literal). */
static void put_piece(struct jw *w, const char *s)
{
    jw_raw(w, s, strlen(s));
}

static int style_colour(enum msg_style s)
{
    switch (s) {
    case MSG_STYLE_INFO: return 0x5865F2;
    case MSG_STYLE_GOOD: return 0x57F287;
    case MSG_STYLE_BAD: return 0xFEE75C;
    case MSG_STYLE_ERROR: return 0xED4245;
    case MSG_STYLE_SECRET: return 0x99AAB5;
    }
    return 0x5865F2;
}

/* The embeds being written. An embed's footer is its last member, and the
 * note that something was shortened goes into the last embed's footer,
 * known only at the end: so each embed is left open with its footer kept
 * here, and closed when the next one starts or the array ends. */
struct embeds {
    struct jw *w;
    struct budget b;
    int n;     /* written so far */
    bool open; /* the last one still needs its footer and '}' */
    bool has_footer;
    struct cut footer;
};

static void embed_close(struct embeds *es, bool last)
{
    struct jw *w = es->w;
    bool note = last && es->b.shortened;

    if (!es->open)
        return;
    if (es->has_footer || note) {
        JW_KEY(w, "footer");
        JW_LIT(w, "{");
        JW_KEY1(w, "text");
        if (!note)
            put_cut(w, &es->footer, NULL);
        else if (es->has_footer && es->footer.chars + DOT_CHARS + NOTE_CHARS <=
                                       RENDER_DC_FOOTER_MAX)
            put_cut(w, &es->footer, DOT RENDER_DC_NOTE);
        else
            JW_LIT(w, "\"" RENDER_DC_NOTE "\"");
        JW_LIT(w, "}");
    }
    JW_LIT(w, "}");
    es->open = false;
}

/* One embed of e, with description[0..dlen) in place of e's, its title
 * unless !with_title, and its fields and footer unless !with_tail. */
static void embed_open(struct embeds *es, const struct msg_embed *e,
                       const char *desc, size_t dlen, bool with_title,
                       bool with_tail)
{
    struct jw *w = es->w;
    struct budget *b = &es->b;
    struct cut c;
    int nf = !with_tail                          ? 0
             : e->nfields < RENDER_DC_FIELDS_MAX ? e->nfields
                                                 : RENDER_DC_FIELDS_MAX;
    embed_close(es, false);
    if (es->n > 0)
        JW_LIT(w, ",");
    es->n++;
    es->open = true;
    es->has_footer = false;
    if (with_tail && e->nfields > nf)
        b->shortened = true;
    JW_LIT(w, "{");
    JW_KEY1(w, "type");
    JW_LIT(w, "\"rich\"");
    JW_I64(w, "color", style_colour(e->style));
    if (with_title)
        put_text(w, "title", e->title, RENDER_DC_TITLE_MAX, b, false);
    if (fit_text(desc, dlen, RENDER_DC_DESC_MAX, b, false, &c)) {
        JW_KEY(w, "description");
        put_cut(w, &c, NULL);
    }
    int written = 0;
    for (int i = 0; i < nf; i++) {
        const struct msg_field *f = &e->fields[i];
        /* a field needs a name and a value: skip it whole when both no
         * longer fit; the name leaves one character for the value */
        if (b->left < 2) {
            b->shortened = true;
            break;
        }
        struct budget name_b = {b->left - 1, false};
        if (!fit_text(f->name, f->name ? strlen(f->name) : 0,
                      RENDER_DC_FIELD_NAME_MAX, &name_b, true, &c))
            c = (struct cut){EMPTY_TEXT, strlen(EMPTY_TEXT), NULL, 1};
        b->shortened |= name_b.shortened;
        b->left = name_b.left + 1;
        put_piece(w, written++ ? ",{" : ",\"fields\":[{");
        JW_KEY1(w, "name");
        put_cut(w, &c, NULL);
        put_text(w, "value", f->value, RENDER_DC_FIELD_VALUE_MAX, b, true);
        if (f->is_inline)
            JW_BOOL(w, "inline", true);
        JW_LIT(w, "}");
    }
    if (written)
        JW_LIT(w, "]");
    if (with_tail && e->footer && *e->footer)
        es->has_footer = fit_text(e->footer, strlen(e->footer),
                                  RENDER_DC_FOOTER_MAX, b, true, &es->footer);
}

/* Byte length of the longest prefix of s of at most max code points that
 * ends at a line break (or all of s when it fits; a single line longer than
 * max is cut at max). */
static size_t chunk_bytes(const char *s, size_t n, size_t max)
{
    size_t bytes = prefix_bytes(s, n, max);
    if (bytes == n)
        return bytes;
    for (size_t i = bytes; i > 0; i--)
        if (s[i - 1] == '\n')
            return i;
    return bytes;
}

/* An embed whose description is longer than one embed holds goes out as
 * several in a row, split between lines: the first keeps the title, the
 * last the fields and footer. When Discord's total for a message runs out
 * first, the last one says how many lines did not fit. */
static void embed_folded(struct embeds *es, const struct msg_embed *e)
{
    const char *d = e->description ? e->description : "";
    size_t n = strlen(d);

    if (chars_n(d, n) <= RENDER_DC_DESC_MAX) {
        embed_open(es, e, d, n, true, true);
        return;
    }
    bool first = true;
    while (n > 0) {
        size_t k = chunk_bytes(d, n, RENDER_DC_DESC_MAX);
        bool last = k == n;
        bool room = es->n + 1 < RENDER_DC_EMBEDS_MAX &&
                    es->b.left > RENDER_DC_DESC_MAX / 4;
        embed_open(es, e, d, k, first, last || !room);
        d += k;
        n -= k;
        first = false;
        if (!last && !room) {
            es->b.shortened = true;
            break;
        }
    }
}

static bool button_ok(const struct msg_button *bt)
{
    return bt->custom_id && *bt->custom_id &&
           strlen(bt->custom_id) <= RENDER_DC_CUSTOM_ID_MAX;
}

static bool option_ok(const struct msg_select_option *o)
{
    return o->value && *o->value &&
           render_discord_chars(o->value) <= RENDER_DC_OPTION_TEXT_MAX;
}

/* {"value": ..., <text_key>: label}: a select option or an autocomplete
 * choice (their label is called "label" and "name"). */
static void put_option(struct jw *w, const struct msg_select_option *o,
                       const char *text_key, bool first)
{
    put_piece(w, first ? "{" : ",{");
    JW_KEY1(w, "value");
    jw_str(w, o->value);
    put_text(w, text_key, o->label ? o->label : o->value,
             RENDER_DC_OPTION_TEXT_MAX, NULL, true);
    JW_LIT(w, "}");
}

/* The action rows of m: rows of buttons, then the select in a row of its
 * own, as array elements (a comma between them). Whatever cannot go out (a
 * bad custom id, a row too many, a select without a usable option) sets
 * *dropped. Returns the rows written; *ncomp (may be NULL) gets the
 * components they hold, the rows counted. */
static int put_rows(struct jw *w, const struct msg *m, bool *dropped,
                    int *ncomp)
{
    int nsel = m->select.noptions < RENDER_DC_SELECT_OPTIONS_MAX
                   ? m->select.noptions
                   : RENDER_DC_SELECT_OPTIONS_MAX;
    bool has_select = m->select.noptions > 0 && m->select.custom_id &&
                      *m->select.custom_id &&
                      strlen(m->select.custom_id) <= RENDER_DC_CUSTOM_ID_MAX;
    int usable = 0, rows = 0, in_row = 0, comps = 0;
    int max_rows = RENDER_DC_ROWS_MAX;

    if (m->select.noptions > 0 && !has_select)
        *dropped = true;
    for (int i = 0; has_select && i < nsel; i++)
        usable += option_ok(&m->select.options[i]);
    if (has_select) {
        max_rows--;
        if (m->select.noptions > nsel || usable < nsel)
            *dropped = true;
        if (usable == 0) /* Discord needs at least one option */
            has_select = false;
    }
    for (int i = 0; i < m->nbuttons; i++) {
        const struct msg_button *bt = &m->buttons[i];
        if (!button_ok(bt)) {
            *dropped = true;       /* an id cut short would act wrongly */
            continue;
        }
        if (rows == 0 || in_row >= RENDER_DC_ROW_BUTTONS_MAX) {
            if (rows >= max_rows) {
                *dropped = true;
                break;
            }
            put_piece(w, rows ? "]},{\"type\":1,\"components\":["
                              : "{\"type\":1,\"components\":[");
            rows++;
            comps++;
            in_row = 0;
        }
        put_piece(w, in_row++ ? ",{\"type\":2" : "{\"type\":2");
        comps++;
        JW_I64(w, "style", (int)bt->style);
        JW_STR(w, "custom_id", bt->custom_id);
        put_text(w, "label", bt->label ? bt->label : "?", RENDER_DC_LABEL_MAX,
                 NULL, true);
        if (bt->disabled)
            JW_BOOL(w, "disabled", true);
        JW_LIT(w, "}");
    }
    if (rows)
        JW_LIT(w, "]}");
    if (has_select) {
        put_piece(w, rows ? ",{\"type\":1,\"components\":[{\"type\":3"
                          : "{\"type\":1,\"components\":[{\"type\":3");
        JW_STR(w, "custom_id", m->select.custom_id);
        JW_KEY(w, "options");
        JW_LIT(w, "[");
        int k = 0;
        for (int i = 0; i < nsel; i++) {
            const struct msg_select_option *o = &m->select.options[i];
            if (!option_ok(o))
                continue;
            put_option(w, o, "label", k++ == 0);
        }
        JW_LIT(w, "]");
        if (m->select.placeholder)
            put_text(w, "placeholder", m->select.placeholder,
                     RENDER_DC_PLACEHOLDER_MAX, NULL, false);
        if (m->select.max_values > 1 && k > 1) {
            /* a multi-select: at least one, at most what it offers */
            JW_I64(w, "min_values", 1);
            JW_I64(w, "max_values",
                   m->select.max_values < k ? m->select.max_values : k);
        }
        JW_LIT(w, "}]}");
        rows++;
        comps += 2;
    }
    if (ncomp != NULL)
        *ncomp = comps;
    return rows;
}

/* "components": the action rows of m (put_rows), nothing when none. */
static void put_components(struct jw *w, const struct msg *m, bool *dropped)
{
    size_t mark = w->len;
    JW_LIT(w, ",\"components\":[");
    if (put_rows(w, m, dropped, NULL) == 0) {
        if (!w->bad)
            w->len = mark;
        return;
    }
    JW_LIT(w, "]");
}

/* Only the users the command layer chose may be pinged; "parse": [] turns
 * off @everyone, @here and roles whatever the text says. */
static void put_mentions(struct jw *w, const struct msg *m)
{
    int n = m->nmentions < MSG_MAX_MENTIONS ? m->nmentions : MSG_MAX_MENTIONS;
    JW_KEY(w, "allowed_mentions");
    JW_LIT(w, "{\"parse\":[],\"users\":[");
    for (int i = 0; i < n && i < RENDER_DC_MENTIONS_MAX; i++) {
        if (i > 0)
            JW_LIT(w, ",");
        jw_u64_str(w, m->mention_users[i]);
    }
    JW_LIT(w, "]}");
}

/* ---- Components V2 ---------------------------------------------------- */

#define V2_DROPPED_NOTE "_(some buttons were left out)_"

/* Whether part i of v shows as a Section with its accessory: a usable id,
 * used by no part before it nor by the action rows (ids are unique in a
 * message). */
static bool v2_has_accessory(const struct msg *m, int i)
{
    const struct msg_v2 *v = m->v2;
    const struct msg_button *a = &v->parts[i].accessory;
    if (v->parts[i].kind != MSG_V2_ROW || a->custom_id == NULL ||
        !button_ok(a))
        return false;
    for (int k = 0; k < i; k++)
        if (v->parts[k].accessory.custom_id != NULL &&
            strcmp(v->parts[k].accessory.custom_id, a->custom_id) == 0)
            return false;
    for (int k = 0; k < m->nbuttons; k++)
        if (m->buttons[k].custom_id != NULL &&
            strcmp(m->buttons[k].custom_id, a->custom_id) == 0)
            return false;
    return !(m->select.custom_id != NULL &&
             strcmp(m->select.custom_id, a->custom_id) == 0);
}

static bool v2_shown(const struct msg_v2_part *p)
{
    return p->kind == MSG_V2_SEPARATOR || (p->text != NULL && *p->text);
}

static size_t v2_chars(const struct msg_v2_part *p)
{
    size_t c = p->kind == MSG_V2_SEPARATOR ? 0 : render_discord_chars(p->text);
    return c < RENDER_DC_V2_TEXT_MAX ? c : RENDER_DC_V2_TEXT_MAX;
}

/* What fits of a V2 message: the rows shown are those from first to last
 * (row ordinals); hidden counts the rest. */
struct v2_plan {
    int first, last, nrows, hidden;
    size_t text_left;            /* for the parts that are always shown */
};

/* Row r's cost in components when the row before it in the window is
 * plain (prev_plain): rows without a button run together in one Text
 * Display (a line each), a row with one is a Section (3 components). */
static int v2_cost(const bool *acc, int r, bool prev_plain)
{
    return acc[r] ? 3 : prev_plain ? 0 : 1;
}

/* Choose the rows: all when everything fits, else a window around the
 * focus row within what the fixed parts, the action rows and the note
 * leave. */
static void v2_plan(const struct msg *m, int row_comps, bool dropped,
                    struct v2_plan *pl)
{
    const struct msg_v2 *v = m->v2;
    bool content = m->content != NULL && *m->content;
    int fixed_comp = 1 + row_comps + (dropped ? 1 : 0) + content, rows_comp = 0;
    size_t fixed_text = dropped ? render_discord_chars(V2_DROPPED_NOTE) : 0;
    size_t cc = content ? render_discord_chars(m->content) : 0;
    fixed_text += cc < RENDER_DC_V2_TEXT_MAX ? cc : RENDER_DC_V2_TEXT_MAX;
    size_t rows_text = 0;
    int focus = 0, nrows = 0;
    bool acc[MSG_V2_MAX_PARTS];
    size_t text[MSG_V2_MAX_PARTS];
    int prev = -2;                /* the part index of the row before */

    for (int i = 0; i < v->nparts; i++) {
        const struct msg_v2_part *p = &v->parts[i];
        if (!v2_shown(p))
            continue;
        if (p->kind != MSG_V2_ROW) {
            fixed_comp++;
            fixed_text += v2_chars(p);
            continue;
        }
        if (i == v->focus)
            focus = nrows;
        acc[nrows] = v2_has_accessory(m, i);
        text[nrows] = v2_chars(p) + 1;   /* and its line break */
        rows_comp += v2_cost(acc, nrows, prev == i - 1 && nrows > 0 &&
                                              !acc[nrows - 1]);
        rows_text += text[nrows];
        prev = i;
        nrows++;
    }
    pl->nrows = nrows;
    pl->first = 0;
    pl->last = nrows;
    pl->hidden = 0;
    if (fixed_comp + rows_comp <= RENDER_DC_V2_COMPONENTS_MAX &&
        fixed_text + rows_text <= RENDER_DC_V2_TEXT_MAX) {
        pl->text_left = RENDER_DC_V2_TEXT_MAX - rows_text;
        return;
    }
    /* Fold: the note takes a component and its room. Rows are contiguous
     * parts (a list), so neighbours in the window run together. */
    int comp_left = RENDER_DC_V2_COMPONENTS_MAX - fixed_comp - 1;
    size_t reserve = fixed_text + RENDER_DC_V2_NOTE_MAX;
    size_t text_left = reserve < RENDER_DC_V2_TEXT_MAX
                           ? RENDER_DC_V2_TEXT_MAX - reserve
                           : 0;
    int first = focus, last = focus;
    for (;;) {
        int c = last < nrows ? v2_cost(acc, last, last > first &&
                                                      !acc[last - 1])
                             : 0;
        if (last >= nrows || c > comp_left || text[last] > text_left)
            break;
        comp_left -= c;
        text_left -= text[last++];
    }
    for (;;) {
        /* a plain row put before a plain one joins its Text Display: the
         * one below no longer starts a component of its own */
        int c = first > 0 ? (acc[first - 1] ? 3 : 1) -
                                (first < last && !acc[first] ? 1 : 0)
                          : 0;
        if (first == 0 || c > comp_left || text[first - 1] > text_left)
            break;
        comp_left -= c;
        text_left -= text[--first];
    }
    pl->first = first;
    pl->last = last;
    pl->hidden = nrows - (last - first);
    size_t used = 0;
    for (int r = first; r < last; r++)
        used += text[r];
    pl->text_left = RENDER_DC_V2_TEXT_MAX - RENDER_DC_V2_NOTE_MAX - used;
}

/* {"type":10,"content":...}: text within *left characters (taken from
 * it); false when nothing of it fits. */
static bool put_v2_text(struct jw *w, const char *text, size_t *left,
                        bool comma)
{
    struct budget b = {*left, false};
    struct cut c;
    if (!fit_text(text, strlen(text), RENDER_DC_V2_TEXT_MAX, &b, false, &c))
        return false;
    *left = b.left;
    put_piece(w, comma ? ",{\"type\":10" : "{\"type\":10");
    JW_KEY(w, "content");
    put_cut(w, &c, NULL);
    JW_LIT(w, "}");
    return true;
}

/* A row with its button: a Section. */
static void put_v2_section(struct jw *w, const struct msg *m, int i,
                           bool comma)
{
    const struct msg_v2_part *p = &m->v2->parts[i];
    size_t left = RENDER_DC_V2_TEXT_MAX;   /* the plan counted it */
    const struct msg_button *a = &p->accessory;
    put_piece(w, comma ? ",{\"type\":9,\"components\":["
                       : "{\"type\":9,\"components\":[");
    put_v2_text(w, p->text, &left, false);
    JW_LIT(w, "],\"accessory\":{\"type\":2");
    JW_I64(w, "style", (int)a->style);
    JW_STR(w, "custom_id", a->custom_id);
    put_text(w, "label", a->label ? a->label : "?", RENDER_DC_LABEL_MAX,
             NULL, true);
    JW_LIT(w, "}}");
}

/* Plain rows waiting to go out together as one Text Display. */
static bool v2_flush_run(struct jw *w, struct sbuf *run, bool comma)
{
    size_t left = RENDER_DC_V2_TEXT_MAX;
    bool put = false;
    if (run->len > 0) {
        put = put_v2_text(w, sbuf_str(run), &left, comma);
        sbuf_reset(run);
    }
    return put;
}

/* The note that takes the place of folded rows. */
static void put_v2_note(struct jw *w, const struct msg_v2 *v, int hidden,
                        bool comma)
{
    char note[RENDER_DC_V2_NOTE_MAX + 1];
    size_t left = RENDER_DC_V2_NOTE_MAX;
    const char *where = v->more ? v->more : "";
    size_t wn = strlen(where) > RENDER_DC_V2_NOTE_MAX / 2
                    ? 0 : strlen(where);    /* a long pointer is left out */
    snprintf(note, sizeof note, "_+%d more%s%.*s_", hidden, wn ? ": " : "",
             (int)wn, where);
    put_v2_text(w, note, &left, comma);
}

/* The members of a V2 body: the container with its parts and action rows,
 * allowed_mentions and flags; an edit empties content and embeds. Each
 * member starts with a comma (put_body drops the first). */
static void put_v2(struct jw *w, const struct msg *m, bool ephemeral,
                   bool edit)
{
    const struct msg_v2 *v = m->v2;
    struct jw rows;
    bool dropped = false;
    int row_comps = 0;
    struct v2_plan pl;

    jw_init(&rows, RENDER_DC_BODY_MAX);
    int nrows = put_rows(&rows, m, &dropped, &row_comps);
    if (rows.bad) {
        w->bad = true;
        jw_cleanup(&rows);
        return;
    }
    v2_plan(m, row_comps, dropped, &pl);
    if (edit)
        JW_LIT(w, ",\"content\":null,\"embeds\":[]");
    JW_LIT(w, ",\"components\":[{\"type\":17");
    JW_I64(w, "accent_color", style_colour(v->style));
    JW_LIT(w, ",\"components\":[");
    bool comma = false;
    int row = 0, last_row = -1;
    for (int i = 0; i < v->nparts; i++)
        if (v->parts[i].kind == MSG_V2_ROW && v2_shown(&v->parts[i]))
            last_row = i;
    size_t dn = dropped ? render_discord_chars(V2_DROPPED_NOTE) : 0;
    size_t left = pl.text_left > dn ? pl.text_left - dn : 0;
    /* A content set on a V2 message (a turn's notice, a thread's
     * pointer) is its first Text Display. */
    if (m->content != NULL && *m->content)
        comma |= put_v2_text(w, m->content, &left, comma);
    struct sbuf run;
    sbuf_init(&run, RENDER_DC_V2_TEXT_MAX * 4);
    for (int i = 0; i < v->nparts; i++) {
        const struct msg_v2_part *p = &v->parts[i];
        if (!v2_shown(p))
            continue;
        if (p->kind != MSG_V2_ROW || v2_has_accessory(m, i))
            comma |= v2_flush_run(w, &run, comma);
        if (p->kind == MSG_V2_SEPARATOR) {
            put_piece(w, comma ? ",{\"type\":14,\"divider\":true,"
                                 "\"spacing\":1}"
                               : "{\"type\":14,\"divider\":true,"
                                 "\"spacing\":1}");
            comma = true;
        } else if (p->kind == MSG_V2_TEXT) {
            comma |= put_v2_text(w, p->text, &left, comma);
        } else {
            if (row >= pl.first && row < pl.last) {
                if (v2_has_accessory(m, i)) {
                    put_v2_section(w, m, i, comma);
                    comma = true;
                } else {
                    if (run.len > 0)
                        sbuf_addc(&run, '\n');
                    sbuf_add(&run, p->text);
                }
            }
            row++;
        }
        if (i == last_row) {
            comma |= v2_flush_run(w, &run, comma);
            if (pl.hidden > 0) {
                put_v2_note(w, v, pl.hidden, comma);
                comma = true;
            }
        }
    }
    comma |= v2_flush_run(w, &run, comma);
    if (sbuf_error(&run) == SBUF_NOMEM)
        w->bad = true;
    sbuf_cleanup(&run);
    if (dropped) {
        size_t dl = RENDER_DC_V2_NOTE_MAX;
        comma |= put_v2_text(w, V2_DROPPED_NOTE, &dl, comma);
    }
    if (!comma) {                 /* a container needs a component */
        size_t el = 1;
        put_v2_text(w, EMPTY_TEXT, &el, false);
    }
    if (nrows > 0) {
        size_t n = 0;
        const char *t = jw_text(&rows, &n);
        JW_LIT(w, ",");
        if (t != NULL)
            jw_raw(w, t, n);
    }
    jw_cleanup(&rows);
    JW_LIT(w, "]}]");
    put_mentions(w, m);
    JW_I64(w, "flags", RENDER_DC_FLAG_V2 |
                           (ephemeral ? RENDER_DC_FLAG_EPHEMERAL : 0));
}

/* The members of a message body after its opening '{'; the first member
 * written starts with a comma, which put_body() drops. */
static void put_body(struct jw *w, const struct msg *m, bool ephemeral,
                     bool edit)
{
    int ne = m->nembeds < RENDER_DC_EMBEDS_MAX ? m->nembeds
                                               : RENDER_DC_EMBEDS_MAX;
    bool dropped = false;
    size_t start = w->len;
    const char *content = m->content;

    if (m->v2 != NULL) {      /* V2 or classic, never both */
        put_v2(w, m, ephemeral, edit);
        goto out;
    }
    struct msg notice;
    if (render_notice_v2(m, &notice)) {   /* a turn's notice: V2 */
        put_v2(w, &notice, ephemeral, edit);
        render_notice_done(&notice);
        goto out;
    }
    if (ne > 0) {
        struct embeds es = {
            .w = w,
            .b = {RENDER_DC_EMBED_TOTAL_MAX - NOTE_CHARS - DOT_CHARS, false}};
        JW_KEY(w, "embeds");
        JW_LIT(w, "[");
        for (int i = 0; i < ne; i++)
            embed_folded(&es, &m->embeds[i]);
        embed_close(&es, true);
        JW_LIT(w, "]");
    }
    size_t before = w->len;
    put_components(w, m, &dropped);
    bool has_rows = w->len != before;
    if (edit && !has_rows)
        JW_LIT(w, ",\"components\":[]");
    if (dropped) {   /* say so in the content, which is always visible */
        size_t n = content ? strlen(content) : 0;
        char *buf = malloc(n + 64);
        if (buf == NULL) {
            w->bad = true;
            return;
        }
        snprintf(buf, n + 64, "%s%s(some buttons were left out)",
                 content ? content : "", n ? "\n" : "");
        put_text(w, "content", buf, RENDER_DC_CONTENT_MAX, NULL, false);
        free(buf);
    } else if (content && *content) {
        put_text(w, "content", content, RENDER_DC_CONTENT_MAX, NULL, false);
    } else if (ne == 0 && !has_rows && !edit) {
        JW_KEY(w, "content");
        JW_LIT(w, "\"" EMPTY_MESSAGE "\"");
    }
    put_mentions(w, m);
    if (ephemeral)
        JW_I64(w, "flags", RENDER_DC_FLAG_EPHEMERAL);
out:
    /* every member above began with ',': the first one must not */
    if (!w->bad && w->len > start && w->buf[start] == ',')
        memmove(w->buf + start, w->buf + start + 1, --w->len - start);
}

/* {"type":8,"data":{"choices":[...]}}: the select options of m. */
static void put_choices(struct jw *w, const struct msg *m)
{
    int k = 0;
    JW_LIT(w, ",\"data\":{\"choices\":[");
    for (int i = 0; i < m->select.noptions && i < RENDER_DC_CHOICES_MAX;
         i++) {
        const struct msg_select_option *o = &m->select.options[i];
        if (!o->value ||
            render_discord_chars(o->value) > RENDER_DC_OPTION_TEXT_MAX)
            continue;
        put_option(w, o, "name", k++ == 0);
    }
    JW_LIT(w, "]}");
}

char *render_discord_message_text(const struct msg *m, bool ephemeral,
                                  size_t *len)
{
    struct jw w;
    jw_init(&w, RENDER_DC_BODY_MAX);
    JW_LIT(&w, "{");
    put_body(&w, m, ephemeral, false);
    JW_LIT(&w, "}");
    return jw_take(&w, len);
}

char *render_discord_edit_text(const struct msg *m, size_t *len)
{
    struct jw w;
    jw_init(&w, RENDER_DC_BODY_MAX);
    JW_LIT(&w, "{");
    put_body(&w, m, false, true);
    JW_LIT(&w, "}");
    return jw_take(&w, len);
}

void render_discord_callback_jw(struct jw *w, enum render_dc_callback type,
                                const struct msg *m, bool ephemeral)
{
    JW_LIT(w, "{\"type\":");
    jw_i64(w, (int64_t)type);
    switch (type) {
    case RENDER_DC_CB_DEFER:
        JW_LIT(w, ",\"data\":{\"flags\":");
        jw_i64(w, ephemeral ? RENDER_DC_FLAG_EPHEMERAL : 0);
        JW_LIT(w, "}");
        break;
    case RENDER_DC_CB_DEFER_UPDATE:
        break;
    case RENDER_DC_CB_AUTOCOMPLETE:
        put_choices(w, m);
        break;
    case RENDER_DC_CB_MESSAGE:
    case RENDER_DC_CB_UPDATE:
        JW_LIT(w, ",\"data\":{");
        /* a notice replacing a classic message (a prompt's) converts it:
         * content and embeds emptied, as an edit does */
        put_body(w, m, ephemeral, type == RENDER_DC_CB_UPDATE && m->notice);
        JW_LIT(w, "}");
        break;
    }
    JW_LIT(w, "}");
}

char *render_discord_callback_text(enum render_dc_callback type,
                                   const struct msg *m, bool ephemeral,
                                   size_t *len)
{
    struct jw w;
    jw_init(&w, RENDER_DC_BODY_MAX);
    render_discord_callback_jw(&w, type, m, ephemeral);
    return jw_take(&w, len);
}

static json_t *parsed(char *text, size_t len)
{
    json_t *j = text ? json_loadb(text, len, 0, NULL) : NULL;
    free(text);
    return j;
}

json_t *render_discord_message(const struct msg *m, bool ephemeral)
{
    size_t len = 0;
    char *text = render_discord_message_text(m, ephemeral, &len);
    return parsed(text, len);
}

json_t *render_discord_callback(enum render_dc_callback type,
                                const struct msg *m, bool ephemeral)
{
    size_t len = 0;
    char *text = render_discord_callback_text(type, m, ephemeral, &len);
    return parsed(text, len);
}

json_t *render_discord_autocomplete(const struct msg *m)
{
    return render_discord_callback(RENDER_DC_CB_AUTOCOMPLETE, m, false);
}
