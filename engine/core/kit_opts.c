/*
 * kit_opts.c - options: the one tokenizer, binding text to declared specs,
 * and typed reads (rs_kit.h).
 *
 * Every option of every command, every /attack options: token and every
 * settings: key goes through rs_bind(), so each is checked the same way:
 * declared for this system (else the message names the valid ones), given
 * once, of the right type, within its bounds, and naming something that
 * exists. Nothing is accepted and then ignored.
 */
#include "rs_kit.h"

#include <stdio.h>
#include <string.h>

#include "eng_buf.h"
#include "eng_text.h"

/* ---- the tokenizer -------------------------------------------------------- */

static bool is_sep(char ch)
{
    return ch == ' ' || ch == '\t' || ch == ',';
}

enum eng_err rs_tokens(const char *text, char *buf, size_t n,
                       struct rs_token *out, int max, int *count,
                       struct enc_diag *d)
{
    size_t len = strlen(text);
    *count = 0;
    if (len > RS_MAX_TOKENS_TEXT)
        return enc_fail(d, ENG_LIMIT, "the options are too long (limit is "
                        "%d bytes)", RS_MAX_TOKENS_TEXT);
    if (len * 2 + 2 > n)
        return enc_fail(d, ENG_LIMIT, "the options are too long");
    const char *p = text;
    size_t at = 0;
    while (true) {
        while (is_sep(*p))
            p++;
        if (*p == '\0')
            break;
        if (*count >= max)
            return enc_fail(d, ENG_LIMIT, "too many options (limit is %d)",
                            max);
        struct rs_token *t = &out[(*count)++];
        t->key = buf + at;
        while (*p != '\0' && *p != '=' && *p != ':' && *p != ' ' &&
               *p != '\t' && *p != ',')
            buf[at++] = *p++;
        buf[at++] = '\0';
        t->value = buf + at;
        if (*p == '=' || *p == ':') {
            p++;
            if (*p == '"' || *p == '\'') {
                char quote = *p++;
                while (*p != '\0' && *p != quote)
                    buf[at++] = *p++;
                if (*p != quote)
                    return enc_fail(d, ENG_SYNTAX, "option %.32s: the quote "
                                    "is not closed", t->key);
                p++;
            } else {
                while (*p != '\0' && *p != ' ' && *p != '\t')
                    buf[at++] = *p++;
            }
        }
        buf[at++] = '\0';
        if (t->key[0] == '\0')
            return enc_fail(d, ENG_SYNTAX, "an option has no name before "
                            "its `=`");
    }
    return ENG_OK;
}

/* ---- suggestions ------------------------------------------------------------ */

const char *rs_closest(const char *word, const char *const *names, int n)
{
    size_t len = strlen(word), best_d = (size_t)-1;
    const char *best = NULL;
    if (len == 0 || len > 64)
        return NULL;
    for (int i = 0; i < n; i++) {
        size_t nc = strlen(names[i]), dist;
        if (len >= 2 && len < nc && eng_text_ncasecmp(word, names[i], len) == 0)
            dist = 1;
        else
            dist = eng_text_distance(word, names[i]);
        size_t limit = len <= 4 ? 1 : len <= 8 ? 2 : 3;
        if (dist <= limit && dist < best_d) {
            best = names[i];
            best_d = dist;
        }
    }
    return best;
}

/* The closest name of a combatant the sender may see. */
static const char *closest_visible(const struct rs_call *c, const char *name)
{
    return enc_closest_name(c->e, name, c->user, c->is_gm);
}

/* "a, b, c" of the names of specs, for messages. */
static void spec_names(const struct rs_opt_spec *specs, struct eng_buf *b)
{
    for (int i = 0; specs != NULL && specs[i].name != NULL; i++) {
        eng_buf_add(b, i > 0 ? ", " : "");
        eng_buf_add(b, specs[i].name);
    }
}

/* ---- binding -------------------------------------------------------------- */

static const struct rs_opt_spec *spec_find(const struct rs_opt_spec *specs,
                                           const char *name)
{
    for (int i = 0; specs != NULL && specs[i].name != NULL; i++)
        if (eng_text_casecmp(specs[i].name, name) == 0)
            return &specs[i];
    return NULL;
}

static enum eng_err unknown_opt(const struct rs_opt_spec *specs,
                                const char *what, const char *name,
                                struct enc_diag *d)
{
    const char *names[RS_MAX_OPTS + RS_MAX_TOKENS] = {0};
    int n = 0;
    for (int i = 0; specs != NULL && specs[i].name != NULL &&
                    n < (int)(sizeof names / sizeof names[0]); i++)
        names[n++] = specs[i].name;
    const char *close = rs_closest(name, names, n);
    struct eng_buf b;
    eng_buf_init(&b, 400);
    spec_names(specs, &b);
    if (n == 0)
        enc_fail(d, ENG_INVALID, "%s takes no option %.32s", what, name);
    else if (close != NULL)
        enc_fail(d, ENG_INVALID, "%s has no option %.32s (did you mean "
                 "%s?); it takes: %s", what, name, close, eng_buf_str(&b));
    else
        enc_fail(d, ENG_INVALID, "%s has no option %.32s; it takes: %s",
                 what, name, eng_buf_str(&b));
    eng_buf_cleanup(&b);
    return ENG_INVALID;
}

static enum eng_err bind_choice(const struct rs_opt_spec *s, struct rs_arg *a,
                                struct enc_diag *d)
{
    int n = 0;
    for (; s->choices != NULL && s->choices[n] != NULL; n++)
        if (eng_text_casecmp(s->choices[n], a->text) == 0) {
            a->text = s->choices[n];     /* the declared spelling */
            a->i = n;
            return ENG_OK;
        }
    const char *close = rs_closest(a->text, s->choices, n);
    struct eng_buf b;
    eng_buf_init(&b, 400);
    for (int i = 0; i < n; i++) {
        eng_buf_add(&b, i > 0 ? ", " : "");
        eng_buf_add(&b, s->choices[i]);
    }
    if (close != NULL)
        enc_fail(d, ENG_INVALID, "%s: %.32s is not one of %s (did you mean "
                 "%s?)", s->name, a->text, eng_buf_str(&b), close);
    else
        enc_fail(d, ENG_INVALID, "%s: %.32s is not one of %s", s->name,
                 a->text, eng_buf_str(&b));
    eng_buf_cleanup(&b);
    return ENG_INVALID;
}

/* How many numbers rs_who_yield() tries for a hidden one's new name. */
#define RS_WHO_YIELD_MAX 99

/* rs_fail_nobody() into d (a binding's diagnostics). */
static enum eng_err fail_nobody(const struct rs_call *c, struct enc_diag *d,
                                const char *opt, const char *name)
{
    const char *close = c->e != NULL ? closest_visible(c, name) : NULL;
    const char *colon = opt != NULL ? ": " : "";
    opt = opt != NULL ? opt : "";
    if (!c->is_gm) {
        if (close != NULL)
            return enc_fail(d, ENG_NOTFOUND, "%s%sno combatant by that "
                            "name (did you mean %s?)", opt, colon, close);
        return enc_fail(d, ENG_NOTFOUND, "%s%sno combatant by that name",
                        opt, colon);
    }
    if (close != NULL)
        return enc_fail(d, ENG_NOTFOUND, "%s%sno combatant named %.64s "
                        "(did you mean %s?)", opt, colon, name, close);
    return enc_fail(d, ENG_NOTFOUND, "%s%sno combatant named %.64s", opt,
                    colon, name);
}

static enum eng_err bind_who(const struct rs_call *c,
                             const struct rs_opt_spec *s, struct rs_arg *a,
                             struct enc_diag *d)
{
    struct enc_combatant *who =
        rs_who(c, a->text,
                s->val == RS_VAL_OWN ? RS_WHO_ACT : RS_WHO_TARGET);
    if (who == NULL)
        return fail_nobody(c, d, s->name, a->text);
    if (s->val == RS_VAL_OWN && !rs_may_act(c, who))
        return rs_require_actor((struct rs_call *)c, who);
    a->who = who;
    return ENG_OK;
}

/* Check one value against its spec and fill the typed fields of a. */
static enum eng_err bind_value(const struct rs_call *c,
                               const struct rs_opt_spec *s, struct rs_arg *a,
                               struct enc_diag *d)
{
    const char *v = a->text;
    int64_t x;
    bool b;
    switch (s->type) {
    case RS_OPT_INTEGER:
        if (s->val == RS_VAL_COUNT && v[0] == '\0') {
            a->i = 1;
            return ENG_OK;
        }
        if (!eng_text_to_int(v, &x) || x < s->min || x > s->max)
            return enc_fail(d, ENG_RANGE, "%s: must be a whole number from "
                            "%lld to %lld", s->name, (long long)s->min,
                            (long long)s->max);
        a->i = x;
        return ENG_OK;
    case RS_OPT_BOOLEAN:
        if (s->val == RS_VAL_FLAG && v[0] == '\0') {
            a->i = 1;
            return ENG_OK;
        }
        if (!eng_text_to_bool(v, &b))
            return enc_fail(d, ENG_INVALID, "%s: must be true or false",
                            s->name);
        a->i = b;
        return ENG_OK;
    case RS_OPT_CHANNEL:
    case RS_OPT_ROLE:
        if (!eng_text_to_int(v, &x) || x <= 0)
            return enc_fail(d, ENG_INVALID,
                            s->type == RS_OPT_ROLE
                                ? N_("%s: must be a role")
                                : N_("%s: must be a channel"),
                            s->name);
        a->i = x;
        return ENG_OK;
    case RS_OPT_STRING:
    case RS_OPT_ATTACHMENT:          /* a path or an id: text */
        break;
    }
    size_t len = strlen(v);
    if ((int64_t)len < s->min)
        return enc_fail(d, ENG_INVALID, "%s: is empty", s->name);
    if (s->max > 0 && (int64_t)len > s->max)
        return enc_fail(d, ENG_LIMIT, "%s: is too long (limit is %lld "
                        "bytes)", s->name, (long long)s->max);
    if (!eng_text_valid_utf8(v, len))
        return enc_fail(d, ENG_INVALID, "%s: is not valid UTF-8", s->name);
    switch (s->val) {
    case RS_VAL_CHOICE:
        return bind_choice(s, a, d);
    case RS_VAL_COMBATANT:
    case RS_VAL_OWN:
        return bind_who(c, s, a, d);
    case RS_VAL_SIDE:
        a->side = c->e ? enc_side_find(c->e, v) : -1;
        if (a->side < 0)
            return enc_fail(d, ENG_NOTFOUND, "%s: no side named %.32s",
                            s->name, v);
        return ENG_OK;
    default:
        return ENG_OK;
    }
}

static enum eng_err bind_one(const struct rs_call *c, const char *what,
                             const struct rs_opt_spec *specs,
                             const char *name, const char *value,
                             struct rs_arg *out, int max, int *nout,
                             struct enc_diag *d)
{
    const struct rs_opt_spec *s = spec_find(specs, name);
    if (s == NULL)
        return unknown_opt(specs, what, name, d);
    for (int k = 0; k < *nout; k++) {
        if (out[k].spec != s)
            continue;
        if (s->val != RS_VAL_COUNT)
            return enc_fail(d, ENG_INVALID, "%s: is given twice", s->name);
        struct rs_arg more = {.spec = s, .text = value, .side = -1};
        enum eng_err err = bind_value(c, s, &more, d);
        if (err != ENG_OK)
            return err;
        if (out[k].i + more.i > s->max)
            return enc_fail(d, ENG_RANGE, "%s: at most %lld", s->name,
                            (long long)s->max);
        out[k].i += more.i;
        return ENG_OK;
    }
    if (*nout >= max)
        return enc_fail(d, ENG_LIMIT, "too many options (limit is %d)", max);
    struct rs_arg *a = &out[*nout];
    *a = (struct rs_arg){.spec = s, .text = value, .side = -1};
    enum eng_err err = bind_value(c, s, a, d);
    if (err != ENG_OK)
        return err;
    (*nout)++;
    return ENG_OK;
}

static enum eng_err bind_required(const struct rs_opt_spec *specs,
                                  const struct rs_arg *out, int nout,
                                  struct enc_diag *d)
{
    for (int i = 0; specs != NULL && specs[i].name != NULL; i++) {
        if (!specs[i].required)
            continue;
        bool given = false;
        for (int k = 0; k < nout && !given; k++)
            given = out[k].spec == &specs[i];
        if (!given)
            return enc_fail(d, ENG_INVALID, "%s: is required",
                            specs[i].name);
    }
    return ENG_OK;
}

enum eng_err rs_bind(const struct rs_call *c, const char *what,
                     const struct rs_opt_spec *specs,
                     const struct rs_opt *given, int ngiven,
                     struct rs_arg *out, int max, int *nout,
                     struct enc_diag *d)
{
    *nout = 0;
    for (int i = 0; i < ngiven; i++) {
        enum eng_err err = bind_one(c, what, specs, given[i].name,
                                    given[i].value, out, max, nout, d);
        if (err != ENG_OK)
            return err;
    }
    return bind_required(specs, out, *nout, d);
}

enum eng_err rs_bind_tokens(const struct rs_call *c, const char *what,
                            const struct rs_opt_spec *specs,
                            const char *text, char *buf, size_t n,
                            struct rs_arg *out, int max, int *nout,
                            struct enc_diag *d)
{
    struct rs_token tok[RS_MAX_TOKENS];
    int ntok = 0;
    *nout = 0;
    enum eng_err err = rs_tokens(text ? text : "", buf, n, tok, RS_MAX_TOKENS,
                                 &ntok, d);
    if (err != ENG_OK)
        return err;
    for (int i = 0; i < ntok; i++) {
        const struct rs_opt_spec *s = spec_find(specs, tok[i].key);
        /* A bare word for an option that needs a value reads as its
         * error, not as a flag. */
        if (s != NULL && tok[i].value[0] == '\0' && s->val != RS_VAL_FLAG &&
            s->val != RS_VAL_COUNT)
            return enc_fail(d, ENG_INVALID, "%s needs a value, like "
                            "%s=...", s->name, s->name);
        err = bind_one(c, what, specs, tok[i].key, tok[i].value, out, max,
                       nout, d);
        if (err != ENG_OK)
            return err;
    }
    return bind_required(specs, out, *nout, d);
}

/* ---- running a command ---------------------------------------------------- */

enum eng_err rs_cmd_run(struct rs_call *c, const struct rs_system *s,
                        const struct rs_cmd *cmd)
{
    char what[48];
    snprintf(what, sizeof what, "/%s%s%s", cmd->verb, cmd->sub ? " " : "",
             cmd->sub ? cmd->sub : "");
    struct rs_arg args[RS_MAX_OPTS];
    int nargs = 0;
    enum eng_err err = rs_bind(c, what, cmd->opts, c->opts, c->nopts, args,
                               RS_MAX_OPTS, &nargs, c->d);
    if (err != ENG_OK)
        return err;
    if (c->e->status == ENC_ST_ENDED)
        return enc_fail(c->d, ENG_STATE, "this fight is over");
    if ((cmd->flags & RS_CMD_RUNNING) && c->e->status != ENC_ST_RUNNING)
        return enc_fail(c->d, ENG_STATE, "the fight has not begun; the GM "
                        "starts it with /combat begin");
    const struct rs_arg *saved = c->args;
    int nsaved = c->nargs;
    c->args = args;
    c->nargs = nargs;
    err = cmd->run(c);
    if (err == ENG_OK && (cmd->flags & RS_CMD_ENDS_TURN))
        err = s->ops->next(c);
    c->args = saved;
    c->nargs = nsaved;
    return err;
}

enum eng_err rs_action(const struct rs_system *s, struct rs_call *c,
                       const char *verb)
{
    char cmd[32], sub[32];
    size_t n = strcspn(verb, " ");
    if (n >= sizeof cmd || strlen(verb + n) >= sizeof sub + 1)
        return enc_fail(c->d, ENG_NOTFOUND, "no command /%.40s", verb);
    memcpy(cmd, verb, n);
    cmd[n] = '\0';
    snprintf(sub, sizeof sub, "%s", verb[n] == ' ' ? verb + n + 1 : "");
    const struct rs_cmd *rc = rs_cmd_find(s, cmd, sub[0] ? sub : NULL);
    if (rc == NULL)
        return enc_fail(c->d, ENG_NOTFOUND, "the %s system has no /%.40s",
                        s->id, verb);
    return rs_cmd_run(c, s, rc);
}

/* ---- reads ----------------------------------------------------------------- */

const struct rs_arg *rs_arg_in(const struct rs_arg *args, int n,
                               const char *name)
{
    for (int i = 0; i < n; i++)
        if (eng_text_casecmp(args[i].spec->name, name) == 0)
            return &args[i];
    return NULL;
}

const struct rs_arg *rs_arg(const struct rs_call *c, const char *name)
{
    return rs_arg_in(c->args, c->nargs, name);
}

const char *rs_arg_text(const struct rs_call *c, const char *name,
                        const char *dflt)
{
    const struct rs_arg *a = rs_arg(c, name);
    return a != NULL ? a->text : dflt;
}

int64_t rs_arg_int(const struct rs_call *c, const char *name, int64_t dflt)
{
    const struct rs_arg *a = rs_arg(c, name);
    return a != NULL ? a->i : dflt;
}

bool rs_arg_bool(const struct rs_call *c, const char *name, bool dflt)
{
    const struct rs_arg *a = rs_arg(c, name);
    return a != NULL ? a->i != 0 : dflt;
}

struct enc_combatant *rs_arg_who(const struct rs_call *c, const char *name)
{
    const struct rs_arg *a = rs_arg(c, name);
    return a != NULL ? a->who : NULL;
}

const char *rs_opt(const struct rs_opt *opts, int nopts, const char *name)
{
    for (int i = 0; i < nopts; i++)
        if (eng_text_casecmp(opts[i].name, name) == 0)
            return opts[i].value;
    return NULL;
}

enum eng_err rs_opt_combatant(struct rs_call *c, const char *opt,
                              enum rs_who_as as,
                              struct enc_combatant **out)
{
    const char *name = rs_opt(c->opts, c->nopts, opt);
    if (name == NULL || name[0] == '\0')
        return enc_fail(c->d, ENG_INVALID, "%s: is required", opt);
    struct enc_combatant *who = rs_who(c, name, as);
    if (who == NULL)
        return rs_fail_nobody(c, NULL, name);
    *out = who;
    return ENG_OK;
}

enum eng_err rs_opt_bool(struct rs_call *c, const char *opt, bool dflt,
                         bool *out)
{
    const char *v = rs_opt(c->opts, c->nopts, opt);
    if (v == NULL) {
        *out = dflt;
        return ENG_OK;
    }
    if (!eng_text_to_bool(v, out))
        return enc_fail(c->d, ENG_INVALID, "%s: must be true or false", opt);
    return ENG_OK;
}

/* ---- who may act -------------------------------------------------------------- */

bool rs_may_act(const struct rs_call *c, const struct enc_combatant *who)
{
    return c->is_gm || (who->owner != 0 && who->owner == c->user);
}

const char *rs_name_for(const struct rs_call *c,
                        const struct enc_combatant *who)
{
    /* in the refusal's language (its translator), as the tracker says it */
    return who->hidden && !rs_may_act(c, who)
               ? enc_diag_word(c->d, N_("someone unseen"))
               : who->name;
}

struct enc_combatant *rs_who(const struct rs_call *c, const char *name,
                              enum rs_who_as as)
{
    struct enc_combatant *who = c->e != NULL ? enc_by_name(c->e, name)
                                             : NULL;
    if (who != NULL && as == RS_WHO_ACT && who->hidden &&
        !rs_may_act(c, who))
        return NULL;
    return who;
}

enum eng_err rs_who_yield(struct rs_call *c, const char *name)
{
    struct enc_combatant *who = rs_who(c, name, RS_WHO_TARGET);
    if (who == NULL || !who->hidden || rs_may_act(c, who))
        return ENG_OK;
    char fresh[ENC_MAX_NAME + 1];
    for (int n = 2; n <= RS_WHO_YIELD_MAX; n++) {
        char num[16], base[ENC_MAX_NAME + 1];
        int w = snprintf(num, sizeof num, " %d", n);
        eng_text_copy(base, sizeof base - (size_t)w, who->name);
        snprintf(fresh, sizeof fresh, "%s%s", base, num);
        if (enc_by_name(c->e, fresh) == NULL) {
            char old[ENC_MAX_NAME + 1];
            enc_copy(old, sizeof old, who->name);
            enc_copy(who->name, sizeof who->name, fresh);
            RS_SAY(c, who, "{} is now called {}: a player brought a "
                   "combatant named {}", RS_A_TEXT(old), RS_A_WHO(who),
                   RS_A_TEXT(old));
            return ENG_OK;
        }
    }
    return ENG_OK;        /* every number taken: enc_add() refuses */
}

enum eng_err rs_fail_nobody(const struct rs_call *c, const char *opt,
                            const char *name)
{
    return fail_nobody(c, c->d, opt, name);
}

enum eng_err rs_require_actor(struct rs_call *c,
                              const struct enc_combatant *who)
{
    if (rs_may_act(c, who))
        return ENG_OK;
    /* A name the player typed is not echoed back for a hidden one: the
     * answer would tell them it is there. */
    if (who->hidden)
        return enc_fail(c->d, ENG_PERM, "only the GM may act for that "
                        "combatant");
    if (who->owner == 0)
        return enc_fail(c->d, ENG_PERM, "only the GM may act for %s",
                        who->name);
    return enc_fail(c->d, ENG_PERM, "only %s's player or the GM may act for "
                    "them", who->name);
}
