/*
 * msg.c - building neutral messages.
 */
#include "msg.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "sbuf.h"

void msg_init(struct msg *m)
{
    memset(m, 0, sizeof *m);
}

static void embed_cleanup(struct msg_embed *e)
{
    free(e->title);
    free(e->description);
    free(e->footer);
    for (int i = 0; i < e->nfields; i++) {
        free(e->fields[i].name);
        free(e->fields[i].value);
    }
}

void msg_cleanup(struct msg *m)
{
    msg_v2_free(m->v2);
    free(m->content);
    for (int i = 0; i < m->nembeds; i++)
        embed_cleanup(&m->embeds[i]);
    for (int i = 0; i < m->nbuttons; i++) {
        free(m->buttons[i].label);
        free(m->buttons[i].custom_id);
    }
    free(m->select.custom_id);
    free(m->select.placeholder);
    for (int i = 0; i < m->select.noptions; i++) {
        free(m->select.options[i].label);
        free(m->select.options[i].value);
    }
    msg_init(m);
}

/* A copy of s cut at MSG_MAX_TEXT bytes on a character boundary. */
static char *dup_text(const char *s)
{
    size_t n = strlen(s);
    if (n > MSG_MAX_TEXT)
        n = sbuf_utf8_cut(s, MSG_MAX_TEXT);
    char *d = malloc(n + 1);
    if (d == NULL)
        return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

static bool replace(char **slot, const char *s)
{
    char *d = dup_text(s);
    if (d == NULL)
        return false;
    free(*slot);
    *slot = d;
    return true;
}

bool msg_set_content(struct msg *m, const char *fmt, ...)
{
    struct sbuf b;
    sbuf_init(&b, MSG_MAX_TEXT);
    va_list ap;
    va_start(ap, fmt);
    sbuf_vaddf(&b, fmt, ap);
    va_end(ap);
    if (sbuf_error(&b) == SBUF_NOMEM) {
        sbuf_cleanup(&b);
        return false;
    }
    free(m->content);
    m->content = sbuf_take(&b);
    return m->content != NULL;
}

struct msg_embed *msg_add_embed(struct msg *m, enum msg_style style,
                                const char *title)
{
    if (m->nembeds >= MSG_MAX_EMBEDS)
        return NULL;
    struct msg_embed *e = &m->embeds[m->nembeds];
    memset(e, 0, sizeof *e);
    e->style = style;
    if (title != NULL && !replace(&e->title, title))
        return NULL;
    m->nembeds++;
    return e;
}

bool msg_embed_set_description(struct msg_embed *e, const char *text)
{
    return replace(&e->description, text);
}

bool msg_embed_set_footer(struct msg_embed *e, const char *text)
{
    return replace(&e->footer, text);
}

bool msg_embed_add_field(struct msg_embed *e, const char *name,
                         const char *value, bool is_inline)
{
    if (e->nfields >= MSG_MAX_FIELDS)
        return false;
    struct msg_field *f = &e->fields[e->nfields];
    f->name = dup_text(name);
    f->value = dup_text(value);
    if (f->name == NULL || f->value == NULL) {
        free(f->name);
        free(f->value);
        f->name = f->value = NULL;
        return false;
    }
    f->is_inline = is_inline;
    e->nfields++;
    return true;
}

bool msg_add_button(struct msg *m, const char *label, const char *custom_id,
                    enum msg_button_style style)
{
    if (m->nbuttons >= MSG_MAX_BUTTONS)
        return false;
    struct msg_button *b = &m->buttons[m->nbuttons];
    b->label = dup_text(label);
    b->custom_id = dup_text(custom_id);
    if (b->label == NULL || b->custom_id == NULL) {
        free(b->label);
        free(b->custom_id);
        b->label = b->custom_id = NULL;
        return false;
    }
    b->style = style;
    b->disabled = false;
    m->nbuttons++;
    return true;
}

bool msg_set_select(struct msg *m, const char *custom_id,
                    const char *placeholder)
{
    return replace(&m->select.custom_id, custom_id) &&
           replace(&m->select.placeholder, placeholder);
}

bool msg_select_add(struct msg *m, const char *label, const char *value)
{
    if (m->select.noptions >= MSG_MAX_SELECT)
        return false;
    struct msg_select_option *o = &m->select.options[m->select.noptions];
    o->label = dup_text(label);
    o->value = dup_text(value);
    if (o->label == NULL || o->value == NULL) {
        free(o->label);
        free(o->value);
        o->label = o->value = NULL;
        return false;
    }
    m->select.noptions++;
    return true;
}

bool msg_add_mention(struct msg *m, uint64_t user_id)
{
    for (int i = 0; i < m->nmentions; i++)
        if (m->mention_users[i] == user_id)
            return true;
    if (m->nmentions >= MSG_MAX_MENTIONS)
        return false;
    m->mention_users[m->nmentions++] = user_id;
    return true;
}

char *msg_escape_n(const char *text, size_t n)
{
    char *copy = malloc(n + 1);
    if (copy == NULL)
        return NULL;
    memcpy(copy, text, n);
    copy[n] = '\0';
    char *e = msg_escape(copy);
    free(copy);
    return e;
}

/* The bytes msg_escape_to() changes, and the NUL that ends the text. */
static const bool msg_special[256] = {
    ['\0'] = true, ['\\'] = true, ['*'] = true, ['_'] = true, ['~'] = true,
    ['`'] = true,  ['|'] = true,  ['>'] = true, ['#'] = true, ['<'] = true,
    ['['] = true,  [']'] = true,  ['('] = true, [')'] = true, ['\n'] = true,
    ['\r'] = true, ['\t'] = true, ['@'] = true,
};

void msg_escape_to(struct sbuf *b, const char *user_text)
{
    for (const char *p = user_text;; p++) {
        /* the plain stretch up to the next character to change, at once
         * (names are mostly plain: a byte at a time was 4,500
         * instructions of a command; strcspn() built its table anew at
         * every call) */
        size_t plain = 0;
        while (!msg_special[(unsigned char)p[plain]])
            plain++;
        sbuf_addn(b, p, plain);
        p += plain;
        char ch = *p;
        if (ch == '\0')
            break;
        if (ch == '\n' || ch == '\r' || ch == '\t') {
            sbuf_addc(b, ' ');
            continue;
        }
        if (ch != '@')
            sbuf_addc(b, '\\');
        sbuf_addc(b, ch);
        /* A zero-width space after @ keeps "@everyone" from being read
         * as a mention, even where allowed_mentions would not stop it
         * (e.g. text copied into another bot's message). */
        if (ch == '@')
            sbuf_add(b, "\xE2\x80\x8B");
    }
}

char *msg_escape(const char *user_text)
{
    struct sbuf b;
    sbuf_init(&b, MSG_MAX_TEXT);
    msg_escape_to(&b, user_text);
    if (sbuf_error(&b) == SBUF_NOMEM) {
        sbuf_cleanup(&b);
        return NULL;
    }
    return sbuf_take(&b);
}

/* ---- Components V2 ---------------------------------------------------- */

struct msg_v2 *msg_v2_begin(struct msg *m, enum msg_style style)
{
    if (m->v2 == NULL) {
        m->v2 = calloc(1, sizeof *m->v2);
        if (m->v2 == NULL)
            return NULL;
        m->v2->focus = -1;
    }
    m->v2->style = style;
    return m->v2;
}

struct msg_v2_part *msg_v2_add(struct msg_v2 *v, enum msg_v2_kind kind,
                               const char *text)
{
    if (v == NULL || v->nparts >= MSG_V2_MAX_PARTS)
        return NULL;
    struct msg_v2_part *p = &v->parts[v->nparts];
    memset(p, 0, sizeof *p);
    p->kind = kind;
    if (text != NULL && (p->text = dup_text(text)) == NULL)
        return NULL;
    v->nparts++;
    return p;
}

bool msg_v2_set_accessory(struct msg_v2_part *p, const char *label,
                          const char *custom_id, enum msg_button_style style)
{
    char *l = dup_text(label), *id = dup_text(custom_id);
    if (l == NULL || id == NULL) {
        free(l);
        free(id);
        return false;
    }
    free(p->accessory.label);
    free(p->accessory.custom_id);
    p->accessory.label = l;
    p->accessory.custom_id = id;
    p->accessory.style = style;
    p->accessory.disabled = false;
    return true;
}

bool msg_v2_set_more(struct msg_v2 *v, const char *where)
{
    char *d = dup_text(where);
    if (d == NULL)
        return false;
    free(v->more);
    v->more = d;
    return true;
}

void msg_v2_free(struct msg_v2 *v)
{
    if (v == NULL)
        return;
    for (int i = 0; i < v->nparts; i++) {
        free(v->parts[i].text);
        free(v->parts[i].accessory.label);
        free(v->parts[i].accessory.custom_id);
    }
    free(v->more);
    free(v);
}
