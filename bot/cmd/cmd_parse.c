/*
 * cmd_parse.c - the console's command line grammar (see cmd_parse.h).
 *
 * A single pass over the line: whole-line checks first (length, NUL bytes,
 * UTF-8), then words and options are copied into the cmd_parsed buffer as
 * they are read, so the request never points into the caller's line.
 */
#include "cmd_parse.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cmd_table.h"
#include "cmd_validate.h"

struct cmd_parse_state {
    const char *s;          /* the line */
    size_t n;               /* its length */
    size_t i;               /* read position */
    struct cmd_parsed *p;
    size_t o;               /* write position in p->buf */
    char *err;
    size_t errlen;
    enum i18n_lang lang;    /* of the messages (docs/internals/i18n.md) */
};

static bool cmd_parse_fail(struct cmd_parse_state *st, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static bool cmd_parse_fail(struct cmd_parse_state *st, const char *fmt, ...)
{
    va_list ap;

    if (st->errlen == 0)
        return false;
    va_start(ap, fmt);
    vsnprintf(st->err, st->errlen, fmt, ap);
    va_end(ap);
    return false;
}

static bool is_ws(char c)
{
    return c == ' ' || c == '\t';
}

static void skip_ws(struct cmd_parse_state *st)
{
    while (st->i < st->n && is_ws(st->s[st->i]))
        st->i++;
}

/* Start a token in the buffer; returns where it begins. */
static char *tok_begin(struct cmd_parse_state *st)
{
    return st->p->buf + st->o;
}

/* Add one byte to the current token. The buffer is sized for the worst
 * case (cmd_parse.h), so running out is a bug, not an input error. */
static void tok_put(struct cmd_parse_state *st, char c)
{
    if (st->o < sizeof st->p->buf - 1)
        st->p->buf[st->o++] = c;
}

static void tok_end(struct cmd_parse_state *st)
{
    st->p->buf[st->o++] = '\0';
}

/* WORD -> [^ \t]+ , folded to lower case. Empty when at a space or the end. */
static const char *read_word(struct cmd_parse_state *st)
{
    char *w = tok_begin(st);

    while (st->i < st->n && !is_ws(st->s[st->i]))
        tok_put(st, (char)tolower((unsigned char)st->s[st->i++]));
    tok_end(st);
    return w;
}

/* True when the token at the read position has no ':' before its end, so
 * it is a word rather than an option. */
static bool at_bare_word(const struct cmd_parse_state *st)
{
    for (size_t k = st->i; k < st->n && !is_ws(st->s[k]); k++) {
        if (st->s[k] == ':')
            return false;
        if (st->s[k] == '"')
            return k > st->i;   /* a leading quote is not a word */
    }
    return true;
}

/* The token at the read position as an error fragment. */
static const char *echo_token(const struct cmd_parse_state *st, char *buf,
                              size_t cap)
{
    size_t k = st->i;

    while (k < st->n && !is_ws(st->s[k]))
        k++;
    return cmd_validate_echo(buf, cap, st->s + st->i, k - st->i);
}

/* value -> '"' (char | '\"' | '\\' | '\n')* '"' , after the opening quote */
static bool read_quoted(struct cmd_parse_state *st, const char *name)
{
    size_t start = st->o;

    for (;;) {
        char c;
        if (st->i >= st->n)
            return cmd_parse_fail(st, i18n_get(st->lang,
                                               "unterminated quote in option "
                                               "`%s`"),
                                  name);
        c = st->s[st->i++];
        if (c == '"')
            break;
        if (c == '\\') {
            char e = st->i < st->n ? st->s[st->i] : '\0';
            if (e == '"' || e == '\\')
                c = e;
            else if (e == 'n')
                c = '\n';
            else if (e == '\0')
                return cmd_parse_fail(st, i18n_get(st->lang,
                                                   "unterminated quote in "
                                                   "option `%s`"),
                                      name);
            else
                return cmd_parse_fail(st, i18n_get(st->lang,
                                                   "unknown escape `\\%c` in "
                                                   "option `%s` (inside quotes "
                                                   "write `\\\"`, `\\\\` or "
                                                   "`\\n`)"),
                                      isprint((unsigned char)e) &&
                                              e != '`' ? e : '?',
                                      name);
            st->i++;
        }
        if (st->o - start >= CMD_MAX_OPT_VALUE)
            return cmd_parse_fail(st, i18n_get(st->lang,
                                               "option `%s` is too long (limit "
                                               "is %d bytes)"),
                                  name, CMD_MAX_OPT_VALUE);
        tok_put(st, c);
    }
    if (st->i < st->n && !is_ws(st->s[st->i]))
        return cmd_parse_fail(st, i18n_get(st->lang,
                                           "expected a space after the closing "
                                           "quote of option `%s`"),
                              name);
    return true;
}

/* option -> NAME ':' value */
static bool read_option(struct cmd_parse_state *st)
{
    struct cmd_req *req = &st->p->req;
    char echo[CMD_VALIDATE_MAX_ECHO + 8];
    size_t colon = st->i;
    char *name, *value;

    while (colon < st->n && st->s[colon] != ':' && !is_ws(st->s[colon]))
        colon++;
    if (colon >= st->n || st->s[colon] != ':')
        return cmd_parse_fail(st, i18n_get(st->lang,
                                           "expected an option written "
                                           "name:value, got `%s`"),
                              echo_token(st, echo, sizeof echo));
    if (colon == st->i)
        return cmd_parse_fail(st, i18n_get(st->lang,
                                           "an option has no name before its "
                                           "`:` (got `%s`)"),
                              echo_token(st, echo, sizeof echo));
    if (colon - st->i > CMD_MAX_OPT_NAME)
        return cmd_parse_fail(st, i18n_get(st->lang,
                                           "option name `%s` is too long "
                                           "(limit is %d bytes)"),
                              cmd_validate_echo(echo, sizeof echo,
                                                st->s + st->i, colon - st->i),
                              CMD_MAX_OPT_NAME);
    if (req->nopts >= CMD_MAX_OPTS)
        return cmd_parse_fail(st, i18n_get(st->lang,
                                           "too many options (limit is %d)"),
                              CMD_MAX_OPTS);
    name = tok_begin(st);
    while (st->i < colon)
        tok_put(st, (char)tolower((unsigned char)st->s[st->i++]));
    tok_end(st);
    st->i++;                            /* the ':' */

    value = tok_begin(st);
    if (st->i < st->n && st->s[st->i] == '"') {
        st->i++;
        if (!read_quoted(st, cmd_validate_echo(echo, sizeof echo, name,
                                               strlen(name))))
            return false;
    } else {
        size_t start = st->i;
        while (st->i < st->n && !is_ws(st->s[st->i]))
            tok_put(st, st->s[st->i++]);
        if (st->i - start > CMD_MAX_OPT_VALUE)
            return cmd_parse_fail(st, i18n_get(st->lang,
                                               "option `%s` is too long (limit "
                                               "is %d bytes)"),
                                  cmd_validate_echo(echo, sizeof echo, name,
                                  strlen(name)), CMD_MAX_OPT_VALUE);
    }
    tok_end(st);
    req->opts[req->nopts].name = name;
    req->opts[req->nopts].value = value;
    req->nopts++;
    return true;
}

bool cmd_parse_line(struct cmd_parsed *p, const char *line, size_t len,
                    char *err, size_t errlen)
{
    return cmd_parse_line_in(p, line, len, I18N_EN, err, errlen);
}

bool cmd_parse_line_in(struct cmd_parsed *p, const char *line, size_t len,
                       enum i18n_lang lang, char *err, size_t errlen)
{
    struct cmd_parse_state st = {
        .s = line, .n = len, .i = 0, .p = p, .o = 0,
        .err = err, .errlen = errlen, .lang = lang,
    };
    struct cmd_req *req = &p->req;

    memset(req, 0, sizeof *req);
    req->source = CMD_SRC_CONSOLE;
    req->lang = lang;
    req->expect_version = -1;

    /* whole-line checks, before any work */
    if (len > CMD_MAX_LINE)
        return cmd_parse_fail(&st, i18n_nget(lang, "line too long (limit "
                                             "is %d byte)", "line too long "
                                             "(limit is %d bytes)",
                                             CMD_MAX_LINE),
                              CMD_MAX_LINE);
    if (memchr(line, '\0', len) != NULL)
        return cmd_parse_fail(&st, i18n_get(st.lang,
                                            "line contains a NUL byte"));
    if (!cmd_validate_utf8(line, len))
        return cmd_parse_fail(&st, i18n_get(st.lang,
                                            "line is not valid UTF-8"));

    /* line -> ws* '/'? WORD (ws+ WORD)? (ws+ option)* ws* */
    skip_ws(&st);
    if (st.i < st.n && line[st.i] == '/')
        st.i++;
    if (st.i >= st.n || is_ws(line[st.i]))
        return cmd_parse_fail(&st, i18n_get(st.lang,
                                            "no command given (try /help)"));
    req->command = read_word(&st);
    skip_ws(&st);
    if (st.i < st.n && at_bare_word(&st))
        req->sub = read_word(&st);
    struct cmd_spec spec;
    if (!cmd_validate_command(req, &spec, err, errlen))
        return false;
    for (;;) {
        skip_ws(&st);
        if (st.i >= st.n)
            break;
        if (!read_option(&st))
            return false;
    }
    return cmd_validate(req, &spec, err, errlen);
}
