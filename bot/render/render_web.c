/*
 * render_web.c - a fight as HTML for the shared page (render_web.h).
 */
#include "render_web.h"

#include <stdlib.h>
#include <string.h>

#include "render_enc.h"

/* Markup of one kind open in the line being drawn. */
enum md_tag { MD_B, MD_I, MD_S, MD_U, MD_NTAGS };
static const char *const md_open[MD_NTAGS] = {"<b>", "<i>", "<s>", "<u>"};
static const char *const md_close[MD_NTAGS] = {"</b>", "</i>", "</s>",
                                               "</u>"};

static void esc_char(struct sbuf *out, char c)
{
    switch (c) {
    case '&': sbuf_add(out, "&amp;"); break;
    case '<': sbuf_add(out, "&lt;"); break;
    case '>': sbuf_add(out, "&gt;"); break;
    case '"': sbuf_add(out, "&quot;"); break;
    case '\'': sbuf_add(out, "&#39;"); break;
    default: sbuf_addc(out, c); break;
    }
}

static void toggle(struct sbuf *out, bool *open, enum md_tag t)
{
    sbuf_add(out, open[t] ? md_close[t] : md_open[t]);
    open[t] = !open[t];
}

/* One line of markdown (no newline in it), inline markup only. */
static void md_inline(struct sbuf *out, const char *s, size_t n)
{
    bool open[MD_NTAGS] = {false};
    bool code = false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (code && c != '`') {
            esc_char(out, c);
            continue;
        }
        if (c == '\\' && i + 1 < n) {       /* msg_escape's escapes */
            esc_char(out, s[++i]);
            continue;
        }
        if (c == '`') {
            sbuf_add(out, code ? "</code>" : "<code>");
            code = !code;
        } else if (c == '*' && i + 1 < n && s[i + 1] == '*') {
            toggle(out, open, MD_B);
            i++;
        } else if (c == '_' && i + 1 < n && s[i + 1] == '_') {
            toggle(out, open, MD_U);
            i++;
        } else if (c == '~' && i + 1 < n && s[i + 1] == '~') {
            toggle(out, open, MD_S);
            i++;
        } else if (c == '_' || c == '*') {
            toggle(out, open, MD_I);
        } else if (c == '<' && i + 2 < n && s[i + 1] == '@') {
            /* a mention: <@123> or <@!123>; its id stays off the page */
            size_t k = i + 2 + (s[i + 2] == '!');
            size_t d = k;
            while (d < n && s[d] >= '0' && s[d] <= '9')
                d++;
            if (d > k && d < n && s[d] == '>') {
                sbuf_add(out, "@player");
                i = d;
            } else {
                esc_char(out, c);
            }
        } else {
            esc_char(out, c);
        }
    }
    if (code)
        sbuf_add(out, "</code>");
    for (int t = MD_NTAGS - 1; t >= 0; t--)
        if (open[t])
            sbuf_add(out, md_close[t]);
}

void render_web_md(struct sbuf *out, const char *md)
{
    const char *p = md;
    bool first = true;
    while (*p != '\0') {
        const char *nl = strchr(p, '\n');
        size_t n = nl != NULL ? (size_t)(nl - p) : strlen(p);
        if (n >= 4 && strncmp(p, "### ", 4) == 0) {
            sbuf_add(out, "<strong class=\"h\">");
            md_inline(out, p + 4, n - 4);
            sbuf_add(out, "</strong>");
        } else if (n >= 3 && strncmp(p, "-# ", 3) == 0) {
            sbuf_add(out, "<small>");
            md_inline(out, p + 3, n - 3);
            sbuf_add(out, "</small>");
        } else if (n >= 2 && strncmp(p, "> ", 2) == 0) {
            sbuf_add(out, "<span class=\"q\">");
            md_inline(out, p + 2, n - 2);
            sbuf_add(out, "</span>");
        } else {
            if (!first || n > 0)
                md_inline(out, p, n);
        }
        p += n;
        if (*p == '\n') {
            p++;
            if (*p != '\0')
                sbuf_add(out, "<br>");
        }
        first = false;
    }
}

/* A plain sbuf of markdown into out as HTML. */
static void md_sbuf(struct sbuf *out, struct sbuf *md)
{
    while (md->len > 0 && md->buf[md->len - 1] == '\n')
        md->buf[--md->len] = '\0';
    render_web_md(out, sbuf_str(md));
}

void render_web_fight(struct sbuf *out, const struct encounter *e,
                      char *const *changes, int n, enum i18n_lang lang)
{
    struct sbuf md;
    sbuf_init(&md, RENDER_WEB_MAX);

    sbuf_add(out, "<header><h1>");
    render_tracker_title(&md, e, lang);
    md_sbuf(out, &md);
    sbuf_add(out, "</h1><p class=\"where\">");
    sbuf_reset(&md);
    render_tracker_foot(&md, e, false, 0, lang);
    md_sbuf(out, &md);
    sbuf_add(out, "</p>");
    sbuf_reset(&md);
    render_tracker_head(&md, e, lang);
    if (md.len > 0) {
        sbuf_add(out, "<p class=\"sys\">");
        md_sbuf(out, &md);
        sbuf_add(out, "</p>");
    }
    /* the countdowns the players read atop their tracker (a hidden
     * one's line is the GM's alone) */
    sbuf_reset(&md);
    render_tracker_countdowns(&md, e, false, lang);
    if (md.len > 0) {
        sbuf_add(out, "<p class=\"cd\">");
        md_sbuf(out, &md);
        sbuf_add(out, "</p>");
    }
    sbuf_add(out, "</header>\n<ol class=\"order\">\n");

    struct render_slot *slot = malloc(RENDER_ENC_MAX_LINES * sizeof *slot);
    /* the players' places: a hidden event of the order has none */
    int ns = slot != NULL ? render_tracker_slots(e, slot, RENDER_ENC_MAX_LINES,
                                                 false)
                          : 0;
    for (int i = 0; i < ns; i++) {
        bool cur = render_slot_current(e, &slot[i]);
        sbuf_reset(&md);
        render_tracker_row(&md, e, &slot[i], false, lang);
        /* the turn marker is the row's class: its glyph goes */
        const char *row = sbuf_str(&md);
        if (strncmp(row, "\xE2\x96\xB6 ", 4) == 0)
            row += 4;
        else if (strncmp(row, "\xE3\x80\x80", 3) == 0)
            row += 3;
        sbuf_add(out, cur ? "<li class=\"cur\">" : "<li>");
        render_web_md(out, row);
        sbuf_add(out, "</li>\n");
    }
    free(slot);
    sbuf_add(out, "</ol>\n<section class=\"changes\"><h2>");
    sbuf_add(out, i18n_get(lang, "Last changes"));
    sbuf_add(out, "</h2>\n<ol>\n");
    for (int i = 0; i < n; i++) {
        sbuf_add(out, "<li>");
        render_web_md(out, changes[i]);
        sbuf_add(out, "</li>\n");
    }
    if (n == 0)
        sbuf_addf(out, "<li>%s</li>\n",
                  i18n_get(lang, "Nothing has happened yet."));
    sbuf_add(out, "</ol></section>\n");
    sbuf_cleanup(&md);
}

void render_web_gone(struct sbuf *out)
{
    sbuf_add(out, "<header><h1>" RENDER_WEB_GONE "</h1></header>\n");
}

void render_web_page(struct sbuf *out, const char *title,
                     const char *fragment, bool overlay, bool live,
                     enum i18n_lang lang)
{
    sbuf_addf(out, "<!DOCTYPE html>\n<html lang=\"%s\"><head>",
              lang == I18N_PSEUDO ? "en" : i18n_code(lang));
    sbuf_add(out, "<meta charset=\"utf-8\">"
                  "<meta name=\"viewport\" content=\"width=device-width, "
                  "initial-scale=1\">"
                  "<meta name=\"referrer\" content=\"no-referrer\">"
                  "<title>");
    for (const char *p = title; *p; p++)
        esc_char(out, *p);
    sbuf_add(out, "</title><link rel=\"stylesheet\" href=\"/static/fray.css\">");
    if (live)
        sbuf_add(out, "<script src=\"/static/fray.js\" defer></script>");
    sbuf_addf(out, "</head>\n<body class=\"%s\"><main id=\"fight\""
                   " aria-live=\"polite\">\n",
              overlay ? "overlay" : "page");
    sbuf_add(out, fragment);
    sbuf_add(out, "</main>\n<footer id=\"state\"></footer></body></html>\n");
}
