/*
 * render_text.c - a struct msg as plain text (see render_text.h).
 *
 * The markdown pass is deliberately small: it knows the markup our own
 * messages use and what msg_escape() produces, not all of CommonMark. An
 * emphasis marker (a run of '*' or '_', or "~~", "||") is removed only when
 * a matching run closes it later on the same line, so "2*3" or a lone '_'
 * stay as they are.
 */
#include "render_text.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "msg.h"
#include "sbuf.h"

/* Closing markers found ahead and waiting to be skipped, per string. Deeper
 * nesting than this is shown with its markers. */
#define RENDER_TEXT_MAX_OPEN 16

#define ZWSP "\xE2\x80\x8B"           /* U+200B ZERO WIDTH SPACE */
/* U+3000: Discord keeps it where it trims leading spaces, so messages use
 * it to indent; a terminal gets two plain spaces. */
#define IDEOGRAPHIC_SPACE "\xE3\x80\x80"

struct render_text_md {
    const char *s;
    size_t n;
    size_t close_at[RENDER_TEXT_MAX_OPEN];   /* positions of closers */
    size_t close_len[RENDER_TEXT_MAX_OPEN];
    int nclose;
};

static bool is_marker_char(char c)
{
    return c == '*' || c == '_' || c == '~' || c == '|';
}

static size_t run_length(const char *s, size_t n, size_t i)
{
    size_t k = i;
    while (k < n && s[k] == s[i])
        k++;
    return k - i;
}

/* If a closer registered earlier sits at i, consume it: returns its length,
 * else 0. */
static size_t take_closer(struct render_text_md *md, size_t i)
{
    for (int k = 0; k < md->nclose; k++) {
        if (md->close_at[k] == i) {
            size_t len = md->close_len[k];
            md->close_at[k] = md->close_at[md->nclose - 1];
            md->close_len[k] = md->close_len[md->nclose - 1];
            md->nclose--;
            return len;
        }
    }
    return 0;
}

/* The length of a web address starting at i ("http://" or "https://", at
 * a word's start, up to a space, an angle bracket or a backslash: in user
 * text msg_escape() put one there, and the link ends before it), or 0.
 * Discord shows one as a link and reads no markup in it, so a link's '_'
 * (a shared page's token has some) is never emphasis here either. */
static size_t url_length(const char *s, size_t n, size_t i)
{
    size_t k;
    if (i > 0 && isalnum((unsigned char)s[i - 1]))
        return 0;
    if (n - i > 8 && strncmp(s + i, "https://", 8) == 0)
        k = i + 8;
    else if (n - i > 7 && strncmp(s + i, "http://", 7) == 0)
        k = i + 7;
    else
        return 0;
    while (k < n && !isspace((unsigned char)s[k]) && s[k] != '<' &&
           s[k] != '>' && s[k] != '\\')
        k++;
    return k - i;
}

/* Look for the closing run of the marker run s[i..i+len) on the same line:
 * the same character repeated exactly len times, after a non-space, not
 * escaped, not a closer already taken. Returns its position or SIZE_MAX. */
static size_t find_closer(const struct render_text_md *md, size_t i,
                          size_t len)
{
    const char *s = md->s;
    char c = s[i];

    for (size_t k = i + len; k < md->n && s[k] != '\n'; k++) {
        if (s[k] == '\\') {
            k++;
            continue;
        }
        if (s[k] == '`') {              /* skip a code span */
            const char *end = memchr(s + k + 1, '`', md->n - k - 1);
            if (end == NULL)
                return SIZE_MAX;
            k = (size_t)(end - s);
            continue;
        }
        size_t u = s[k] == 'h' ? url_length(s, md->n, k) : 0;
        if (u > 0) {                    /* skip a link */
            k += u - 1;
            continue;
        }
        if (s[k] != c)
            continue;
        size_t r = run_length(s, md->n, k);
        bool taken = false;
        for (int j = 0; j < md->nclose; j++)
            taken |= md->close_at[j] == k;
        if (r == len && !taken && !isspace((unsigned char)s[k - 1]))
            return k;
        k += r - 1;
    }
    return SIZE_MAX;
}

/* A run of marker characters at i: returns how many bytes it spans and
 * whether they are markup (to drop) or text (to copy). */
static size_t marker(struct render_text_md *md, size_t i, bool *markup)
{
    const char *s = md->s;
    size_t len = run_length(s, md->n, i);
    size_t closer;

    *markup = false;
    if (take_closer(md, i) == len) {
        *markup = true;
        return len;
    }
    if ((s[i] == '~' || s[i] == '|') && len != 2)
        return len;
    if (len > 3 || i + len >= md->n || isspace((unsigned char)s[i + len]))
        return len;
    /* '_' inside a word is not emphasis (snake_case) */
    if (s[i] == '_' && i > 0 && isalnum((unsigned char)s[i - 1]) &&
        isalnum((unsigned char)s[i + len]))
        return len;
    if (md->nclose >= RENDER_TEXT_MAX_OPEN)
        return len;
    closer = find_closer(md, i, len);
    if (closer == SIZE_MAX)
        return len;
    md->close_at[md->nclose] = closer;
    md->close_len[md->nclose] = len;
    md->nclose++;
    *markup = true;
    return len;
}

/* When the marker run at i (len k) just opened "~~" around a die face (a
 * number, or a Fudge die's + - 0), where its closer starts; else 0. The
 * closer is the last one marker() recorded. */
static size_t struck_face(const struct render_text_md *md, size_t i,
                          size_t k)
{
    if (md->s[i] != '~' || md->nclose == 0)
        return 0;
    size_t end = md->close_at[md->nclose - 1];
    if (end <= i + k || md->s[end] != '~' || md->close_len[md->nclose - 1] != k)
        return 0;
    for (size_t p = i + k; p < end; p++) {
        char c = md->s[p];
        if (!isdigit((unsigned char)c) &&
            !((c == '+' || c == '-') && end - (i + k) == 1))
            return 0;
    }
    return end;
}

/* A code span or block at i (a run of backticks): copy its text verbatim.
 * Returns the bytes consumed, or 0 when the run is not closed (then the
 * backticks are ordinary text). */
static size_t code_span(const char *s, size_t n, size_t i, struct sbuf *out)
{
    size_t len = run_length(s, n, i);
    size_t from = i + len;

    for (size_t k = from; k < n; k++) {
        if (s[k] != '`')
            continue;
        size_t r = run_length(s, n, k);
        if (r == len) {
            size_t a = from, b = k;
            if (len >= 3) {             /* ```lang\n ... \n``` */
                const char *nl = memchr(s + a, '\n', b - a);
                if (nl != NULL && memchr(s + a, ' ', (size_t)(nl - s) - a)
                    == NULL)
                    a = (size_t)(nl - s) + 1;
                if (b > a && s[b - 1] == '\n')
                    b--;
            }
            sbuf_addn(out, s + a, b - a);
            return k + r - i;
        }
        k += r - 1;
    }
    return 0;
}

/* "<@123>" or "<@!123>" at i: the user id and the length, or 0. */
static size_t mention(const char *s, size_t n, size_t i, uint64_t *id)
{
    size_t k = i + 2;
    uint64_t v = 0;

    if (i + 3 >= n || s[i + 1] != '@')
        return 0;
    if (s[k] == '!')
        k++;
    if (k >= n || !isdigit((unsigned char)s[k]))
        return 0;
    while (k < n && isdigit((unsigned char)s[k])) {
        if (v > (UINT64_MAX - 9) / 10)
            return 0;
        v = v * 10 + (uint64_t)(s[k] - '0');
        k++;
    }
    if (k >= n || s[k] != '>')
        return 0;
    *id = v;
    return k + 1 - i;
}

/* Markers that only count at the start of a line: quotes and headings. */
static size_t line_prefix(const char *s, size_t n, size_t i)
{
    static const char *const prefixes[] = {">>> ", "> ", "### ", "## ",
                                           "# ", "-# "};

    for (size_t k = 0; k < sizeof prefixes / sizeof prefixes[0]; k++) {
        size_t len = strlen(prefixes[k]);
        if (len <= n - i && memcmp(s + i, prefixes[k], len) == 0)
            return len;
    }
    return 0;
}

void render_text_markdown(const char *text,
                          const struct render_text_opts *opts,
                          struct sbuf *out)
{
    struct render_text_md md = {.s = text, .n = strlen(text)};
    const char *s = text;
    size_t n = md.n;
    bool line_start = true;

    for (size_t i = 0; i < n;) {
        char c = s[i];
        size_t k;
        uint64_t id;
        bool markup;

        if (line_start) {
            line_start = false;
            k = line_prefix(s, n, i);
            if (k > 0) {
                i += k;
                continue;
            }
        }
        if (c == '\n') {
            sbuf_addc(out, c);
            md.nclose = 0;              /* markers never span lines here */
            line_start = true;
            i++;
        } else if (c == '\\' && i + 1 < n &&
                   ispunct((unsigned char)s[i + 1])) {
            sbuf_addc(out, s[i + 1]);
            i += 2;
        } else if (c == '`' && (k = code_span(s, n, i, out)) > 0) {
            i += k;
        } else if (c == '`') {
            k = run_length(s, n, i);
            sbuf_addn(out, s + i, k);
            i += k;
        } else if (c == 'h' && (k = url_length(s, n, i)) > 0) {
            sbuf_addn(out, s + i, k);
            i += k;
        } else if (is_marker_char(c)) {
            k = marker(&md, i, &markup);
            size_t end = markup ? struck_face(&md, i, k) : 0;
            if (end > 0) {
                /* A struck die face is a die that does not count: a
                 * terminal has no strike, so it goes in parentheses, as
                 * `fray roll` prints a dropped die. */
                sbuf_addc(out, '(');
                sbuf_addn(out, s + i + k, end - (i + k));
                sbuf_addc(out, ')');
                md.nclose--;
                i = end + k;
                continue;
            }
            if (!markup)
                sbuf_addn(out, s + i, k);
            i += k;
        } else if (c == '<' && (k = mention(s, n, i, &id)) > 0) {
            const char *name = NULL;
            if (opts != NULL && opts->user_name != NULL)
                name = opts->user_name(opts->ud, id);
            if (name != NULL)
                sbuf_addf(out, "@%s", name);
            else
                sbuf_addn(out, s + i, k);
            i += k;
        } else if (strncmp(s + i, IDEOGRAPHIC_SPACE, 3) == 0) {
            sbuf_add(out, "  ");        /* same width in a terminal */
            i += 3;
        } else if (c == '@' && strncmp(s + i + 1, ZWSP, 3) == 0) {
            sbuf_addc(out, '@');        /* msg_escape()'s guard: drop it */
            i += 4;
        } else {
            sbuf_addc(out, c);
            i++;
        }
    }
}

/* Text followed by one newline (its own trailing newlines are dropped), if
 * there is any text. */
static void line(const char *md, const struct render_text_opts *opts,
                 struct sbuf *out)
{
    if (md == NULL || md[0] == '\0')
        return;
    render_text_markdown(md, opts, out);
    while (out->len > 0 && out->buf[out->len - 1] == '\n')
        out->buf[--out->len] = '\0';
    sbuf_addc(out, '\n');
}

static void field(const struct msg_field *f,
                  const struct render_text_opts *opts, struct sbuf *out)
{
    struct sbuf v;
    const char *p;
    bool named = f->name != NULL && f->name[0] != '\0' &&
                 strcmp(f->name, ZWSP) != 0;   /* Discord's "no name" */

    sbuf_init(&v, RENDER_TEXT_MAX);
    if (f->value != NULL)
        render_text_markdown(f->value, opts, &v);
    if (named) {
        render_text_markdown(f->name, opts, out);
        sbuf_addc(out, ':');
    }
    p = sbuf_str(&v);
    if (strchr(p, '\n') == NULL) {
        if (p[0] != '\0')
            sbuf_addf(out, "%s%s", named ? " " : "", p);
    } else {
        /* several lines: each on its own, indented under the name */
        bool first = true;
        while (*p != '\0') {
            const char *nl = strchr(p, '\n');
            size_t len = nl != NULL ? (size_t)(nl - p) : strlen(p);
            if (named || !first)
                sbuf_add(out, named ? "\n  " : "\n");
            sbuf_addn(out, p, len);
            p += len + (nl != NULL);
            first = false;
        }
    }
    sbuf_addc(out, '\n');
    if (sbuf_error(&v) == SBUF_NOMEM)
        out->err = SBUF_NOMEM;
    sbuf_cleanup(&v);
}

static void embed(const struct msg_embed *e,
                  const struct render_text_opts *opts, struct sbuf *out)
{
    line(e->title, opts, out);
    line(e->description, opts, out);
    for (int i = 0; i < e->nfields; i++)
        field(&e->fields[i], opts, out);
    line(e->footer, opts, out);
}

static void controls(const struct msg *m, struct sbuf *out)
{
    bool any = false;

    for (int i = 0; i < m->nbuttons; i++) {
        if (m->buttons[i].disabled || m->buttons[i].label == NULL)
            continue;
        sbuf_addf(out, "%s[%s]", any ? " " : "", m->buttons[i].label);
        any = true;
    }
    if (any)
        sbuf_addc(out, '\n');
    if (m->select.noptions > 0) {
        if (m->select.placeholder != NULL && m->select.placeholder[0])
            sbuf_addf(out, "choose (%s): ", m->select.placeholder);
        else
            sbuf_add(out, "choose: ");
        for (int i = 0; i < m->select.noptions; i++)
            sbuf_addf(out, "%s%s", i ? " | " : "",
                      m->select.options[i].label ? m->select.options[i].label
                      : "");
        sbuf_addc(out, '\n');
    }
}

/* A V2 message: its parts in order, a row's button after its text as
 * "[Label]", a separator as a rule; then the controls. Nothing folds on a
 * terminal. */
static void v2_parts(const struct msg_v2 *v,
                     const struct render_text_opts *opts, struct sbuf *out)
{
    for (int i = 0; i < v->nparts; i++) {
        const struct msg_v2_part *p = &v->parts[i];
        if (p->kind == MSG_V2_SEPARATOR) {
            sbuf_add(out, "--\n");
            continue;
        }
        if (p->text == NULL || p->text[0] == '\0')
            continue;
        render_text_markdown(p->text, opts, out);
        if (p->kind == MSG_V2_ROW && p->accessory.label != NULL &&
            p->accessory.custom_id != NULL)
            sbuf_addf(out, "  [%s]", p->accessory.label);
        sbuf_addc(out, '\n');
    }
}

void render_text(const struct msg *m, const struct render_text_opts *opts,
                 struct sbuf *out)
{
    bool any = false;

    if (m->v2 != NULL) {
        line(m->content, opts, out);
        v2_parts(m->v2, opts, out);
        controls(m, out);
        return;
    }

    if (m->content != NULL && m->content[0] != '\0') {
        line(m->content, opts, out);
        any = true;
    }
    for (int i = 0; i < m->nembeds; i++) {
        if (any)
            sbuf_addc(out, '\n');
        embed(&m->embeds[i], opts, out);
        any = true;
    }
    controls(m, out);
}
