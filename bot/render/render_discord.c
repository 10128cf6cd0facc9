/*
 * render_discord.c - struct msg -> Discord message JSON within every limit.
 */
#include "render_discord.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOTE_CHARS 13                      /* code points in RENDER_DC_NOTE */
#define EMPTY_TEXT "\xe2\x80\x8b"          /* zero-width space: Discord
                                              refuses empty field texts */
#define EMPTY_MESSAGE "(no output)"

struct budget {
    size_t left;          /* characters left for all embeds */
    bool shortened;       /* something was cut or dropped */
};

size_t render_discord_chars(const char *s)
{
    size_t n = 0;
    for (; s && *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            n++;
    return n;
}

/* Byte length of the first `chars` code points of s. */
static size_t prefix_bytes(const char *s, size_t chars)
{
    size_t i = 0, seen = 0;
    while (s[i]) {
        if (((unsigned char)s[i] & 0xC0) != 0x80) {
            if (seen == chars)
                break;
            seen++;
        }
        i++;
    }
    return i;
}

/* s limited to max code points; when cut, ends with the note (or "…" when
 * max is too small for it). Returns a new json string; sets *cut. */
static json_t *limited(const char *s, size_t max, bool *cut)
{
    size_t n = render_discord_chars(s);
    char *buf;
    json_t *j;
    size_t keep, bytes;
    const char *note;

    if (n <= max)
        return json_string(s);
    *cut = true;
    note = max >= NOTE_CHARS + 1 ? RENDER_DC_NOTE : "\xe2\x80\xa6";
    keep = max >= NOTE_CHARS + 1 ? max - NOTE_CHARS : (max ? max - 1 : 0);
    bytes = prefix_bytes(s, keep);
    /* Lines stay whole: cut after the last one that fits, when that keeps
     * most of the room. */
    for (size_t i = bytes; i > bytes / 2; i--)
        if (s[i - 1] == '\n') {
            bytes = i;
            break;
        }
    buf = malloc(bytes + strlen(note) + 1);
    if (!buf)
        return NULL;
    memcpy(buf, s, bytes);
    memcpy(buf + bytes, note, strlen(note) + 1);
    j = json_string(buf);
    free(buf);
    return j;
}

/* Put text (NULL = skip) under key, within min(limit, budget). Returns false
 * on no memory. An empty string becomes EMPTY_TEXT when required. */
static bool put_text(json_t *obj, const char *key, const char *text,
                     size_t limit, struct budget *b, bool required)
{
    size_t max = limit;
    json_t *j;

    if (!text || !*text) {
        if (!required)
            return true;
        text = EMPTY_TEXT;
    }
    if (b) {
        if (b->left < max)
            max = b->left;
        if (max == 0) {
            b->shortened = true;
            return true;
        }
    }
    j = limited(text, max, b ? &b->shortened : &(bool){false});
    if (!j || json_object_set_new(obj, key, j) != 0)
        return false;
    if (b)
        b->left -= render_discord_chars(json_string_value(j));
    return true;
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

static json_t *render_embed(const struct msg_embed *e, struct budget *b)
{
    json_t *je = json_object(), *fields = json_array();
    int nf = e->nfields < RENDER_DC_FIELDS_MAX ? e->nfields
                                               : RENDER_DC_FIELDS_MAX;

    if (!je || !fields)
        goto fail;
    if (e->nfields > nf)
        b->shortened = true;
    json_object_set_new(je, "type", json_string("rich"));
    json_object_set_new(je, "color", json_integer(style_colour(e->style)));
    if (!put_text(je, "title", e->title, RENDER_DC_TITLE_MAX, b, false) ||
        !put_text(je, "description", e->description, RENDER_DC_DESC_MAX, b,
                  false))
        goto fail;
    for (int i = 0; i < nf; i++) {
        const struct msg_field *f = &e->fields[i];
        json_t *jf;
        /* a field needs a name and a value: skip it whole when both no
         * longer fit */
        if (b->left < 2) {
            b->shortened = true;
            break;
        }
        jf = json_object();
        if (!jf || json_array_append_new(fields, jf) != 0)
            goto fail;
        {
            struct budget name_b = {b->left - 1, false};
            if (!put_text(jf, "name", f->name, RENDER_DC_FIELD_NAME_MAX,
                          &name_b, true))
                goto fail;
            b->shortened |= name_b.shortened;
            b->left = name_b.left + 1;
        }
        if (!put_text(jf, "value", f->value, RENDER_DC_FIELD_VALUE_MAX, b,
                      true))
            goto fail;
        if (f->is_inline)
            json_object_set_new(jf, "inline", json_true());
    }
    if (json_array_size(fields) > 0)
        json_object_set_new(je, "fields", fields);
    else
        json_decref(fields);
    fields = NULL;
    if (e->footer && *e->footer) {
        json_t *footer = json_object();
        if (!footer || json_object_set_new(je, "footer", footer) != 0 ||
            !put_text(footer, "text", e->footer, RENDER_DC_FOOTER_MAX, b,
                      true))
            goto fail;
    }
    return je;
fail:
    json_decref(fields);
    json_decref(je);
    return NULL;
}

/* Byte length of the longest prefix of s of at most max code points that
 * ends at a line break (or all of s when it fits; a single line longer than
 * max is cut at max). */
static size_t chunk_bytes(const char *s, size_t max)
{
    size_t bytes = prefix_bytes(s, max);
    if (s[bytes] == '\0')
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
static bool render_embed_folded(const struct msg_embed *e, struct budget *b,
                                json_t *embeds)
{
    const char *d = e->description ? e->description : "";
    if (render_discord_chars(d) <= RENDER_DC_DESC_MAX) {
        json_t *je = render_embed(e, b);
        return je != NULL && json_array_append_new(embeds, je) == 0;
    }
    bool first = true;
    while (*d != '\0') {
        size_t n = chunk_bytes(d, RENDER_DC_DESC_MAX);
        bool last = d[n] == '\0';
        bool room = json_array_size(embeds) + 1 < RENDER_DC_EMBEDS_MAX &&
                    b->left > RENDER_DC_DESC_MAX / 4;
        char *part = malloc(n + 1);
        if (part == NULL)
            return false;
        memcpy(part, d, n);
        part[n] = '\0';
        struct msg_embed piece = *e;
        piece.description = part;
        piece.title = first ? e->title : NULL;
        if (!last && room) {
            piece.nfields = 0;
            piece.footer = NULL;
        }
        json_t *je = render_embed(&piece, b);
        free(part);
        if (je == NULL || json_array_append_new(embeds, je) != 0)
            return false;
        d += n;
        first = false;
        if (!last && !room) {
            b->shortened = true;
            break;
        }
    }
    return true;
}

/* Append the shortened note to the last embed's footer; its room was kept
 * aside from the budget. */
static bool note_in_footer(json_t *embeds)
{
    json_t *last = json_array_get(embeds, json_array_size(embeds) - 1);
    json_t *footer = json_object_get(last, "footer");
    const char *old = json_string_value(json_object_get(footer, "text"));
    char buf[RENDER_DC_FOOTER_MAX * 4 + 64];

    if (!last)
        return true;
    if (!footer) {
        footer = json_object();
        if (!footer || json_object_set_new(last, "footer", footer) != 0)
            return false;
    }
    if (old && render_discord_chars(old) + NOTE_CHARS + 3 <=
                   RENDER_DC_FOOTER_MAX)
        snprintf(buf, sizeof buf, "%s \xc2\xb7 %s", old, RENDER_DC_NOTE);
    else
        snprintf(buf, sizeof buf, "%s", RENDER_DC_NOTE);
    return json_object_set_new(footer, "text", json_string(buf)) == 0;
}

static json_t *render_components(const struct msg *m, bool *dropped)
{
    json_t *rows = json_array(), *row = NULL;
    size_t max_rows = RENDER_DC_ROWS_MAX;
    bool has_select = m->select.noptions > 0 && m->select.custom_id &&
                      *m->select.custom_id &&
                      strlen(m->select.custom_id) <= RENDER_DC_CUSTOM_ID_MAX;

    if (!rows)
        return NULL;
    if (m->select.noptions > 0 && !has_select)
        *dropped = true;
    if (has_select)
        max_rows--;
    for (int i = 0; i < m->nbuttons; i++) {
        const struct msg_button *bt = &m->buttons[i];
        json_t *jb;
        bool cut = false;
        if (!bt->custom_id || !*bt->custom_id ||
            strlen(bt->custom_id) > RENDER_DC_CUSTOM_ID_MAX) {
            *dropped = true;       /* an id cut short would act wrongly */
            continue;
        }
        if (!row || json_array_size(json_object_get(row, "components")) >=
                        RENDER_DC_ROW_BUTTONS_MAX) {
            if (json_array_size(rows) >= max_rows) {
                *dropped = true;
                break;
            }
            row = json_pack("{s:i, s:[]}", "type", 1, "components");
            if (!row || json_array_append_new(rows, row) != 0)
                goto fail;
        }
        jb = json_pack("{s:i, s:i, s:s}", "type", 2, "style",
                       (int)bt->style, "custom_id", bt->custom_id);
        if (!jb || json_array_append_new(json_object_get(row, "components"),
                                         jb) != 0)
            goto fail;
        if (!put_text(jb, "label", bt->label ? bt->label : "?",
                      RENDER_DC_LABEL_MAX, NULL, true))
            goto fail;
        (void)cut;
        if (bt->disabled)
            json_object_set_new(jb, "disabled", json_true());
    }
    if (has_select) {
        json_t *sel = json_pack("{s:i, s:s, s:[]}", "type", 3, "custom_id",
                                m->select.custom_id, "options");
        json_t *opts = json_object_get(sel, "options");
        int n = m->select.noptions < RENDER_DC_SELECT_OPTIONS_MAX
                    ? m->select.noptions
                    : RENDER_DC_SELECT_OPTIONS_MAX;
        if (!sel)
            goto fail;
        row = json_pack("{s:i, s:[o]}", "type", 1, "components", sel);
        if (!row || json_array_append_new(rows, row) != 0)
            goto fail;
        if (m->select.placeholder &&
            !put_text(sel, "placeholder", m->select.placeholder,
                      RENDER_DC_PLACEHOLDER_MAX, NULL, false))
            goto fail;
        for (int i = 0; i < n; i++) {
            const struct msg_select_option *o = &m->select.options[i];
            json_t *jo;
            if (!o->value || !*o->value ||
                render_discord_chars(o->value) > RENDER_DC_OPTION_TEXT_MAX) {
                *dropped = true;
                continue;
            }
            jo = json_pack("{s:s}", "value", o->value);
            if (!jo || json_array_append_new(opts, jo) != 0 ||
                !put_text(jo, "label", o->label ? o->label : o->value,
                          RENDER_DC_OPTION_TEXT_MAX, NULL, true))
                goto fail;
        }
        if (m->select.noptions > n)
            *dropped = true;
        if (json_array_size(opts) == 0) {   /* Discord needs >= 1 option */
            json_array_remove(rows, json_array_size(rows) - 1);
            *dropped = true;
        }
    }
    return rows;
fail:
    json_decref(rows);
    return NULL;
}

static json_t *render_mentions(const struct msg *m)
{
    json_t *am = json_pack("{s:[], s:[]}", "parse", "users");
    json_t *users = json_object_get(am, "users");
    int n = m->nmentions < MSG_MAX_MENTIONS ? m->nmentions : MSG_MAX_MENTIONS;

    if (!am)
        return NULL;
    for (int i = 0; i < n && i < RENDER_DC_MENTIONS_MAX; i++) {
        char id[24];
        snprintf(id, sizeof id, "%" PRIu64, m->mention_users[i]);
        if (json_array_append_new(users, json_string(id)) != 0) {
            json_decref(am);
            return NULL;
        }
    }
    return am;
}

json_t *render_discord_message(const struct msg *m, bool ephemeral)
{
    json_t *body = json_object(), *embeds = NULL, *rows = NULL, *am = NULL;
    struct budget b = {RENDER_DC_EMBED_TOTAL_MAX - NOTE_CHARS - 3, false};
    bool dropped = false;
    int ne = m->nembeds < RENDER_DC_EMBEDS_MAX ? m->nembeds
                                               : RENDER_DC_EMBEDS_MAX;
    const char *content = m->content;
    char *content_buf = NULL;

    if (!body)
        return NULL;
    if (ne > 0) {
        embeds = json_array();
        if (!embeds || json_object_set_new(body, "embeds", embeds) != 0)
            goto fail;
        for (int i = 0; i < ne; i++)
            if (!render_embed_folded(&m->embeds[i], &b, embeds))
                goto fail;
        if (b.shortened && !note_in_footer(embeds))
            goto fail;
    }
    rows = render_components(m, &dropped);
    if (!rows)
        goto fail;
    if (json_array_size(rows) > 0) {
        if (json_object_set_new(body, "components", rows) != 0)
            goto fail;
    } else {
        json_decref(rows);
    }
    if (dropped) {   /* say so in the content, which is always visible */
        size_t n = content ? strlen(content) : 0;
        content_buf = malloc(n + 64);
        if (!content_buf)
            goto fail;
        snprintf(content_buf, n + 64, "%s%s(some buttons were left out)",
                 content ? content : "", n ? "\n" : "");
        content = content_buf;
    }
    if (content && *content) {
        if (!put_text(body, "content", content, RENDER_DC_CONTENT_MAX, NULL,
                      false))
            goto fail;
    } else if (ne == 0 && !json_object_get(body, "components")) {
        json_object_set_new(body, "content", json_string(EMPTY_MESSAGE));
    }
    am = render_mentions(m);
    if (!am || json_object_set_new(body, "allowed_mentions", am) != 0)
        goto fail;
    if (ephemeral)
        json_object_set_new(body, "flags",
                            json_integer(RENDER_DC_FLAG_EPHEMERAL));
    free(content_buf);
    return body;
fail:
    free(content_buf);
    json_decref(body);
    return NULL;
}

json_t *render_discord_callback(enum render_dc_callback type,
                                const struct msg *m, bool ephemeral)
{
    json_t *data, *cb;

    if (type == RENDER_DC_CB_DEFER)
        return json_pack("{s:i, s:{s:i}}", "type", (int)type, "data", "flags",
                         ephemeral ? RENDER_DC_FLAG_EPHEMERAL : 0);
    if (type == RENDER_DC_CB_DEFER_UPDATE)
        return json_pack("{s:i}", "type", (int)type);
    if (type == RENDER_DC_CB_AUTOCOMPLETE)
        return render_discord_autocomplete(m);
    data = render_discord_message(m, ephemeral);
    if (!data)
        return NULL;
    cb = json_pack("{s:i, s:o}", "type", (int)type, "data", data);
    return cb;
}

json_t *render_discord_autocomplete(const struct msg *m)
{
    json_t *cb = json_pack("{s:i, s:{s:[]}}", "type",
                           (int)RENDER_DC_CB_AUTOCOMPLETE, "data", "choices");
    json_t *choices = json_object_get(json_object_get(cb, "data"), "choices");

    if (!cb)
        return NULL;
    for (int i = 0; i < m->select.noptions && i < RENDER_DC_CHOICES_MAX;
         i++) {
        const struct msg_select_option *o = &m->select.options[i];
        json_t *c;
        if (!o->value ||
            render_discord_chars(o->value) > RENDER_DC_OPTION_TEXT_MAX)
            continue;
        c = json_pack("{s:s}", "value", o->value);
        if (!c || json_array_append_new(choices, c) != 0 ||
            !put_text(c, "name", o->label ? o->label : o->value,
                      RENDER_DC_OPTION_TEXT_MAX, NULL, true)) {
            json_decref(cb);
            return NULL;
        }
    }
    return cb;
}
