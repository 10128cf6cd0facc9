/*
 * cmd_validate.c - check a cmd_req against the command table (cmd_table.h).
 *
 * The checks run in a fixed order and the first failure is reported:
 * command, subcommand, then each option in the order given (known, given
 * once, value well-formed, value of the right type and within bounds), then
 * required options that are missing.
 */
#include "cmd_validate.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd.h"
#include "cmd_table.h"
#include "eng_policy.h"
#include "eng_text.h"

/* A list of names shown after an error ("subcommands: start, add, ..."),
 * in bytes; longer lists end with "...". */
#define CMD_VALIDATE_MAX_LIST 200

/* Room for one quoted fragment: CMD_VALIDATE_MAX_ECHO bytes, "...", NUL. */
#define ECHO_BUF (CMD_VALIDATE_MAX_ECHO + 8)

/* ---- UTF-8 and quoting -------------------------------------------------- */

/* Length of the valid UTF-8 character at s[0..n), or 0 if it is not one:
 * the shortest prefix the engine's checker accepts. */
static size_t utf8_seq(const char *s, size_t n)
{
    for (size_t k = 1; k <= 4 && k <= n; k++)
        if (eng_text_valid_utf8(s, k))
            return k;
    return 0;
}

bool cmd_validate_utf8(const char *s, size_t n)
{
    return eng_text_valid_utf8(s, n);
}

char *cmd_validate_echo(char *dst, size_t dstlen, const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t room = dstlen - 1;           /* dstlen > 0 by contract */
    size_t o = 0, i = 0;
    bool cut = false;

    if (room > CMD_VALIDATE_MAX_ECHO)
        room = CMD_VALIDATE_MAX_ECHO;
    while (i < n) {
        size_t k = utf8_seq(s + i, n - i);
        if (o + (k ? k : 1) > room) {
            cut = true;
            break;
        }
        if (k == 0 || u[i] < 0x20 || u[i] == 0x7F) {
            dst[o++] = '?';
            i++;
        } else if (u[i] == '`') {
            dst[o++] = '\'';
            i++;
        } else {
            memcpy(dst + o, s + i, k);
            o += k;
            i += k;
        }
    }
    if (cut && dstlen - o > 3) {
        memcpy(dst + o, "...", 3);
        o += 3;
    }
    dst[o] = '\0';
    return dst;
}

/* ---- suggestions -------------------------------------------------------- */

/* The best candidate seen so far for one word. */
struct suggest {
    const char *word;
    size_t len;
    const char *best;
    size_t best_d;
};

static void suggest_init(struct suggest *sg, const char *word)
{
    sg->word = word;
    sg->len = strlen(word);
    sg->best = NULL;
    sg->best_d = SIZE_MAX;
}

/* Offer a candidate. A prefix of two or more bytes counts as distance 1;
 * otherwise the distance must be small for the word's length. Ties keep
 * the first candidate offered (table order). */
static void suggest_add(struct suggest *sg, const char *cand)
{
    size_t nc, d, limit;

    if (cand == NULL || sg->len == 0 || sg->len > CMD_VALIDATE_MAX_SUGGEST)
        return;
    nc = strlen(cand);
    if (nc > CMD_VALIDATE_MAX_SUGGEST)
        return;
    if (sg->len >= 2 && sg->len < nc && strncasecmp(sg->word, cand,
                                                    sg->len) == 0)
        d = 1;
    else
        d = eng_text_distance(sg->word, cand);
    limit = sg->len <= 4 ? 1 : sg->len <= 8 ? 2 : 3;
    if (d <= limit && d < sg->best_d) {
        sg->best = cand;
        sg->best_d = d;
    }
}

const char *cmd_validate_closest(const char *word, const char *const *cands,
                                 size_t n)
{
    struct suggest sg;

    suggest_init(&sg, word);
    for (size_t i = 0; i < n; i++)
        suggest_add(&sg, cands[i]);
    return sg.best;
}

/* ---- messages ----------------------------------------------------------- */

/* eng_policy_check()'s phrases, marked for the catalogs: the engine names
 * what it refuses and the refusal looks the phrase up (an object of
 * "contains", whole, so a translation declines it as one noun phrase). */
static const char *const policy_phrases[] __attribute__((unused)) = {
    N_("a character that changes text direction"),
    N_("an invisible (zero-width) character"),
};

static bool fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static bool fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;

    if (errlen == 0)
        return false;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return false;
}

/* Append ", name" (or "name" first) to a bounded list; "..." when full. */
static void list_add(char *list, size_t cap, const char *prefix,
                     const char *name)
{
    size_t len = strlen(list);
    size_t need = (len ? 2 : 0) + strlen(prefix) + strlen(name);

    if (len >= 3 && strcmp(list + len - 3, "...") == 0)
        return;
    if (len + need + 4 >= cap) {
        snprintf(list + len, cap - len, "%s...", len ? ", " : "");
        return;
    }
    snprintf(list + len, cap - len, "%s%s%s", len ? ", " : "", prefix, name);
}

/* A value of an option with declared choices must be one of them. */
static bool check_choice(enum i18n_lang lang, const struct rs_opt_spec *os,
                         const char *value, const char *echo, char *err,
                         size_t errlen)
{
    if (os->val != RS_VAL_CHOICE || os->choices == NULL)
        return true;
    char list[CMD_VALIDATE_MAX_LIST] = "";
    size_t n = 0;
    for (; os->choices[n] != NULL; n++) {
        if (strcasecmp(os->choices[n], value) == 0)
            return true;
        list_add(list, sizeof list, "", os->choices[n]);
    }
    const char *best = cmd_validate_closest(value, os->choices, n);
    if (best != NULL)
        return fail(err, errlen, i18n_get(lang, "option `%s` must be one of "
                    "%s, got `%s` (did you mean `%s`?)"), os->name, list,
                    echo, best);
    return fail(err, errlen, i18n_get(lang, "option `%s` must be one of %s, "
                "got `%s`"), os->name, list, echo);
}

/* Every option the command may take in some fight: its own, and for a
 * core command what systems add to it; for a ruleset verb, the options of
 * every system that has it. Returns how many went to out. */
static size_t spec_opts(const struct cmd_spec *spec, struct rs_opt_spec *out,
                        size_t max)
{
    bool conflict;
    if (spec->rs == NULL)
        return cmd_core_opts(spec, out, max, &conflict);
    const struct rs_opt_spec *lists[16];
    size_t nl = 0, nrs;
    const struct rs_system *const *all = rs_all(&nrs);
    for (size_t k = 0; k < nrs && nl < 16; k++) {
        const struct rs_cmd *rc = rs_cmd_find(all[k], spec->command,
                                              spec->sub);
        if (rc != NULL)
            lists[nl++] = rc->opts;
    }
    return cmd_merge_opts(lists, nl, out, max, &conflict);
}

/* Index of the first row of t[i]'s command. */
static size_t first_row_of(const struct cmd_spec *t, size_t i)
{
    for (size_t j = 0; j < i; j++)
        if (strcasecmp(t[j].command, t[i].command) == 0)
            return j;
    return i;
}

static bool req_has(const struct cmd_req *req, const char *name)
{
    for (int i = 0; i < req->nopts; i++)
        if (req->opts[i].name != NULL &&
            strcasecmp(req->opts[i].name, name) == 0)
            return true;
    return false;
}

static bool unknown_command(enum i18n_lang lang, const char *command,
                            char *err, size_t errlen)
{
    struct cmd_spec t[CMD_MAX_ALL];
    size_t n = cmd_list(t, CMD_MAX_ALL);
    char echo[ECHO_BUF];
    struct suggest sg;

    suggest_init(&sg, command);
    for (size_t i = 0; i < n; i++) {
        if (first_row_of(t, i) != i)
            continue;                   /* list each command once */
        suggest_add(&sg, t[i].command);
    }
    /* There are too many commands to list in one line; /help has them. */
    if (sg.best == NULL)
        return fail(err, errlen, i18n_get(lang, "unknown command `/%s` "
                    "(every command is in /help topic:combat)"),
                    cmd_validate_echo(echo, sizeof echo, command,
                                      strlen(command)));
    return fail(err, errlen, i18n_get(lang, "unknown command `/%s` (did you "
                "mean `/%s`?)"),
                cmd_validate_echo(echo, sizeof echo, command,
                                  strlen(command)), sg.best);
}

static bool check_sub(const struct cmd_req *req, struct cmd_spec *out,
                      char *err, size_t errlen)
{
    struct cmd_spec t[CMD_MAX_ALL];
    size_t n = 0;
    enum i18n_lang lang = req->lang;
    char list[CMD_VALIDATE_MAX_LIST] = "";
    char echo[ECHO_BUF];
    struct suggest sg;

    if (!cmd_has_subs(req->command)) {
        bool found = cmd_lookup(req->command, NULL, NULL, out);
        if (req->sub == NULL)
            return found;
        cmd_validate_echo(echo, sizeof echo, req->sub, strlen(req->sub));
        if (found && out->opts[0].name != NULL)
            return fail(err, errlen, i18n_get(lang, "/%s has no subcommand "
                        "`%s` (options are written name:value, e.g. "
                        "`%s:%s`)"),
                        req->command, echo, out->opts[0].name, echo);
        return fail(err, errlen, i18n_get(lang, "/%s has no subcommand "
                    "`%s`"), req->command, echo);
    }
    if (req->sub != NULL && cmd_lookup(req->command, req->sub, NULL, out))
        return true;
    /* Only a refusal needs the whole list, for its suggestions. */
    n = cmd_list(t, CMD_MAX_ALL);
    suggest_init(&sg, req->sub != NULL ? req->sub : "");
    for (size_t i = 0; i < n; i++) {
        if (t[i].sub == NULL || strcasecmp(t[i].command, req->command) != 0)
            continue;
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = t[j].sub != NULL &&
                   strcasecmp(t[j].command, req->command) == 0 &&
                   strcasecmp(t[j].sub, t[i].sub) == 0;
        if (seen)
            continue;
        suggest_add(&sg, t[i].sub);
        list_add(list, sizeof list, "", t[i].sub);
    }
    if (req->sub == NULL)
        return fail(err, errlen, i18n_get(lang, "/%s needs a subcommand "
                    "(%s)"), req->command, list);
    cmd_validate_echo(echo, sizeof echo, req->sub, strlen(req->sub));
    if (sg.best != NULL)
        return fail(err, errlen, i18n_get(lang, "unknown subcommand `%s` for "
                    "/%s (did you mean `%s`?)"), echo, req->command,
                    sg.best);
    if (list[0] != '\0')
        return fail(err, errlen, i18n_get(lang, "unknown subcommand `%s` for "
                    "/%s (subcommands: %s)"), echo, req->command, list);
    return fail(err, errlen, i18n_get(lang, "unknown subcommand `%s` for "
                "/%s"), echo, req->command);
}

static const char *spec_name(const struct cmd_spec *spec, char *buf,
                             size_t cap)
{
    return cmd_spec_name(spec, buf, cap);
}

static bool unknown_option(enum i18n_lang lang, const struct cmd_spec *spec,
                           const struct rs_opt_spec *opts, size_t nopts,
                           const char *name, char *err, size_t errlen)
{
    char list[CMD_VALIDATE_MAX_LIST] = "";
    char echo[ECHO_BUF], sn[80];
    struct suggest sg;

    suggest_init(&sg, name);
    for (size_t i = 0; i < nopts; i++) {
        suggest_add(&sg, opts[i].name);
        list_add(list, sizeof list, "", opts[i].name);
    }
    cmd_validate_echo(echo, sizeof echo, name, strlen(name));
    spec_name(spec, sn, sizeof sn);
    if (list[0] == '\0')
        return fail(err, errlen, i18n_get(lang, "unknown option `%s`: %s "
                    "takes no options"), echo, sn);
    if (sg.best != NULL)
        return fail(err, errlen, i18n_get(lang, "unknown option `%s` for %s "
                    "(did you mean `%s`?)"), echo, sn, sg.best);
    return fail(err, errlen, i18n_get(lang, "unknown option `%s` for %s "
                "(options: %s)"), echo, sn, list);
}

static bool check_value(enum i18n_lang lang, const struct rs_opt_spec *os,
                        const char *value, char *err, size_t errlen)
{
    size_t len = strlen(value);
    char echo[ECHO_BUF];
    int64_t v;

    if (len > CMD_MAX_OPT_VALUE)
        return fail(err, errlen, i18n_nget(lang, "option `%s` is too long "
                    "(limit is %d byte)", "option `%s` is too long (limit "
                    "is %d bytes)", CMD_MAX_OPT_VALUE), os->name,
                    CMD_MAX_OPT_VALUE);
    if (!cmd_validate_utf8(value, len))
        return fail(err, errlen, i18n_get(lang, "option `%s` is not valid "
                    "UTF-8"), os->name);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)value[i];
        if (c == '\n' || c == '\r')
            return fail(err, errlen, i18n_get(lang, "option `%s` contains a "
                        "line break"), os->name);
        if (c < 0x20 || c == 0x7F)
            return fail(err, errlen, i18n_get(lang, "option `%s` contains a "
                        "control character"), os->name);
    }
    const char *bad = eng_policy_check(value, len);
    if (bad != NULL)
        return fail(err, errlen, i18n_get(lang, "option `%s` contains %s; "
                    "please remove it"), os->name, i18n_get(lang, bad));
    cmd_validate_echo(echo, sizeof echo, value, len);

    switch (os->type) {
    case RS_OPT_STRING:
        if (os->max > 0 && (int64_t)len > os->max)
            return fail(err, errlen, i18n_nget(lang, "option `%s` is too "
                        "long (limit is %lld byte)", "option `%s` is too "
                        "long (limit is %lld bytes)", (unsigned long)os->max),
                        os->name, (long long)os->max);
        if (len == 0 && os->min > 0)
            return fail(err, errlen, i18n_get(lang, "option `%s` is empty"),
                        os->name);
        if (os->min > 0 && (int64_t)len < os->min)
            return fail(err, errlen, i18n_nget(lang, "option `%s` is too "
                        "short (at least %lld byte)", "option `%s` is too "
                        "short (at least %lld bytes)", (unsigned long)os->min),
                        os->name, (long long)os->min);
        /* The dice language has no '@': a saved roll's name, which only
         * /roll's dice: expands (RS_VAL_DICE_MACRO, cmd_macro.c). */
        if (os->val == RS_VAL_DICE && memchr(value, '@', len) != NULL)
            return fail(err, errlen, i18n_get(lang, "option `%s` takes dice "
                        "written out; a saved roll (@name) works only in "
                        "/roll's dice:"), os->name);
        return check_choice(lang, os, value, echo, err, errlen);
    case RS_OPT_INTEGER:
        if (len == 0)
            return fail(err, errlen, i18n_get(lang, "option `%s` is empty "
                        "(it wants a whole number)"), os->name);
        if (!eng_text_to_int(value, &v))
            return fail(err, errlen, i18n_get(lang, "option `%s` must be a "
                        "whole number, got `%s`"), os->name, echo);
        if ((os->min != 0 || os->max != 0) && (v < os->min || v > os->max))
            return fail(err, errlen, i18n_get(lang, "option `%s` must be "
                        "from %lld to %lld, got `%s`"), os->name,
                        (long long)os->min, (long long)os->max, echo);
        return true;
    case RS_OPT_BOOLEAN:
        if (len == 0)
            return fail(err, errlen, i18n_get(lang, "option `%s` is empty "
                        "(it wants true or false)"), os->name);
        if (strcmp(value, "true") != 0 && strcmp(value, "false") != 0)
            return fail(err, errlen, i18n_get(lang, "option `%s` must be "
                        "true or false, got `%s`"), os->name, echo);
        return true;
    case RS_OPT_CHANNEL:
    case RS_OPT_ROLE:
        if (len == 0 || len > 20 || strspn(value, "0123456789") != len ||
            strspn(value, "0") == len)
            return fail(err, errlen, os->type == RS_OPT_ROLE
                        ? i18n_get(lang, "option `%s` must be a role id, "
                                   "got `%s`")
                        : i18n_get(lang, "option `%s` must be a channel id, "
                                   "got `%s`"), os->name, echo);
        return true;
    case RS_OPT_ATTACHMENT:          /* the handler opens it (cmd_file.h) */
        if (len == 0)
            return fail(err, errlen, i18n_get(lang, "option `%s` is empty "
                        "(it wants a file)"), os->name);
        if (os->max > 0 && (int64_t)len > os->max)
            return fail(err, errlen, i18n_nget(lang, "option `%s`: the "
                        "file's path is too long (limit is %lld byte)",
                        "option `%s`: the file's path is too long (limit is "
                        "%lld bytes)", (unsigned long)os->max), os->name,
                        (long long)os->max);
        return true;
    }
    return fail(err, errlen, i18n_get(lang, "option `%s` has a type fray "
                "does not know"), os->name);
}

static bool check_required(const struct cmd_spec *spec,
                           const struct rs_opt_spec *opts, size_t nopts,
                           const struct cmd_req *req, char *err,
                           size_t errlen)
{
    char sn[80];

    for (size_t i = 0; i < nopts; i++) {
        const struct rs_opt_spec *os = &opts[i];
        if (!os->required || req_has(req, os->name))
            continue;
        spec_name(spec, sn, sizeof sn);
        if (spec->example != NULL)
            return fail(err, errlen, i18n_get(req->lang, "missing required "
                        "option `%s` for %s (example: `%s`)"), os->name, sn,
                        spec->example);
        return fail(err, errlen, i18n_get(req->lang, "missing required "
                    "option `%s` for %s"), os->name, sn);
    }
    return true;
}

bool cmd_validate_command(const struct cmd_req *req, struct cmd_spec *out,
                          char *err, size_t errlen)
{
    if (req->command == NULL || req->command[0] == '\0')
        return fail(err, errlen, i18n_get(req->lang, "no command given (try "
                    "/help)"));
    if (!cmd_exists(req->command))
        return unknown_command(req->lang, req->command, err, errlen);
    return check_sub(req, out, err, errlen);
}

bool cmd_validate(const struct cmd_req *req, struct cmd_spec *spec,
                  char *err, size_t errlen)
{
    char echo[ECHO_BUF];
    struct rs_opt_spec opts[CMD_MAX_SPEC_OPTS * 2];

    if (!cmd_validate_command(req, spec, err, errlen))
        return false;
    size_t nopts = spec_opts(spec, opts, sizeof opts / sizeof opts[0]);
    if (req->nopts < 0 || req->nopts > CMD_MAX_OPTS)
        return fail(err, errlen, i18n_get(req->lang, "too many options "
                    "(limit is %d)"), CMD_MAX_OPTS);
    for (int i = 0; i < req->nopts; i++) {
        const char *name = req->opts[i].name;
        const struct rs_opt_spec *os = NULL;

        if (name == NULL || name[0] == '\0')
            return fail(err, errlen, i18n_get(req->lang, "an option has no "
                        "name"));
        for (size_t k = 0; k < nopts && os == NULL; k++)
            if (strcasecmp(opts[k].name, name) == 0)
                os = &opts[k];
        if (os == NULL)
            return unknown_option(req->lang, spec, opts, nopts, name, err,
                                  errlen);
        for (int j = 0; j < i; j++)
            if (strcasecmp(req->opts[j].name, name) == 0)
                return fail(err, errlen, i18n_get(req->lang, "option `%s` is "
                            "given twice"),
                            cmd_validate_echo(echo, sizeof echo, name,
                                              strlen(name)));
        if (!check_value(req->lang, os,
                         req->opts[i].value ? req->opts[i].value : "", err,
                         errlen))
            return false;
    }
    return check_required(spec, opts, nopts, req, err, errlen);
}
