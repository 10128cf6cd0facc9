/*
 * cmd_macro.c - /macro save | list | show | delete, and "@name" in /roll
 * (cmd_macro.h).
 *
 * A user's own saved rolls (store scope guild 0, the user) work anywhere,
 * DMs and the console included; a server's (scope the guild) are made and
 * deleted by those who manage the server (Administrator or Manage Server,
 * as /config) and used by everyone in it. None of these commands touch a
 * fight, so they run outside cmd_exec()'s encounter transaction: each
 * change opens its own store_begin()/store_commit() around the quota
 * count and the write, and replies only after the commit.
 */
#include "cmd_macro.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd_run.h"
#include "dice.h"
#include "render_dice.h"
#include "sbuf.h"
#include "store.h"

/* Room for a dice error with its caret line. */
#define MACRO_ERR_TEXT 1024
/* Bytes of a saved roll's dice an autocomplete label shows: with "@",
 * the longest name, ": ", "..." and " (server's)" the label stays within
 * Discord's 100 characters. */
#define MACRO_LABEL_DICE 50
/* Bytes of " (server's)", the longer English whose. */
#define MACRO_WHOSE_MAX 11
_Static_assert(1 + STORE_MACRO_NAME_MAX + 2 + MACRO_LABEL_DICE + 3 +
                       MACRO_WHOSE_MAX <= 100,
               "an autocomplete label fits Discord's 100 characters");

/* Room for the name rule in any language. */
#define MACRO_RULE_MAX 256

/* The rule a name breaks, in lang, into buf (a clause other messages end
 * with); returns buf. */
static const char *name_rule(enum i18n_lang lang, char buf[MACRO_RULE_MAX])
{
    snprintf(buf, MACRO_RULE_MAX,
             i18n_get(lang, "a saved roll's name is 1 to %d letters, digits "
                      "or \\_, starting with a letter (like stealth or "
                      "fire\\_bolt)"),
             STORE_MACRO_NAME_MAX);
    return buf;
}

/* Names that would read as a ping where a name is shown after '@'. */
static bool reserved(const char *name)
{
    return strcmp(name, "everyone") == 0 || strcmp(name, "here") == 0;
}

/* A name (or its start) as typed, "@Stealth" or "stealth", in lower case
 * without the '@' into out; false when it cannot be one. */
static bool name_lower(const char *typed, char out[STORE_MACRO_NAME_MAX + 1])
{
    if (typed[0] == '@')
        typed++;
    size_t n = strlen(typed);
    if (n == 0 || n > STORE_MACRO_NAME_MAX)
        return false;
    for (size_t i = 0; i <= n; i++)
        out[i] = (char)tolower((unsigned char)typed[i]);
    return store_macro_name_ok(out);
}

/* A whole name as typed into the stored form. */
static bool name_norm(const char *typed, char out[STORE_MACRO_NAME_MAX + 1])
{
    return name_lower(typed, out) && !reserved(out);
}

int64_t cmd_macro_quota(const struct cmd_ctx *ctx, bool server)
{
    int64_t q = server ? ctx->max_macros_server : ctx->max_macros_user;
    return q > 0 ? q : server ? CMD_MACRO_MAX_PER_SERVER
                              : CMD_MACRO_MAX_PER_USER;
}

/* The scope of the sender's own saved rolls, or of the server's. */
static void scope(const struct cmd_req *req, bool server, uint64_t *guild,
                  uint64_t *user)
{
    *guild = server ? req->guild_id : 0;
    *user = server ? 0 : req->user_id;
}

/* Who may make and delete a server's saved rolls: those who may change
 * the server's settings (/config's rule: Administrator or Manage Server).
 * One place, so that a role of the server's own choosing, when /config
 * gains one for its GMs, joins the rule here. */
/* Server-wide saved rolls are the GMs' tools, like NPC templates: the
 * same people manage both (Manage Server, Administrator, or the role
 * /config npc-role: names). */
static bool may_manage(const struct cmd_ctx *ctx, const struct cmd_req *req)
{
    return cmd_sender_manages_npcs(ctx->store, req);
}

/* server:true needs a server and someone who manages it. */
static bool server_ok(struct cmd_run *run, const char *what)
{
    const struct cmd_req *req = run->req;
    enum i18n_lang lang = req->lang;
    if (req->guild_id == 0) {
        cmd_fail(run, req->source == CMD_SRC_CONSOLE
                          ? i18n_get(lang, "%s: server-wide saved rolls "
                                     "belong to a server; the console has "
                                     "none. Your own saved rolls work here "
                                     "(leave out server:)")
                          : i18n_get(lang, "%s: server-wide saved rolls "
                                     "belong to a server; a DM has none. "
                                     "Your own saved rolls work here (leave "
                                     "out server:)"),
                 what);
        return false;
    }
    if (!may_manage(run->ctx, req)) {
        cmd_fail(run, i18n_get(lang, "%s: server-wide saved rolls are made "
                               "and deleted by those who manage the server "
                               "(Manage Server or Administrator) or have "
                               "the role /config npc-role: names; save one "
                               "of your own without server:"),
                 what);
        return false;
    }
    return true;
}

/* Check dice for saving: no '@' (a saved roll does not call another; on
 * /macro save cmd_validate refused it already), the dice language accepts
 * it, and "1d20+7 Stealth" is kept as "1d20+7 # Stealth" so that what
 * follows an @name never meets a bare word. The text to store into out;
 * else the reason (with the parser's caret) into why. */
static bool dice_ok(const char *dice, enum i18n_lang lang,
                    enum render_dice_style style,
                    char out[STORE_MACRO_DICE_MAX + 1], char *why,
                    size_t whylen)
{
    size_t len = strlen(dice), dice_len, label_at;
    if (len > STORE_MACRO_DICE_MAX) {
        snprintf(why, whylen,
                 i18n_nget(lang, "dice: at most %d byte",
                           "dice: at most %d bytes", STORE_MACRO_DICE_MAX),
                 STORE_MACRO_DICE_MAX);
        return false;
    }
    if (strchr(dice, '@') != NULL) {
        snprintf(why, whylen, "%s",
                 i18n_get(lang, "dice: a saved roll holds dice written out, "
                          "not another saved roll (@name)"));
        return false;
    }
    snprintf(out, STORE_MACRO_DICE_MAX + 1, "%s", dice);
    if (dice_split_label(dice, len, &dice_len, &label_at)) {
        int w = snprintf(out, STORE_MACRO_DICE_MAX + 1, "%.*s # %s",
                         (int)dice_len, dice, dice + label_at);
        if (w < 0 || w > STORE_MACRO_DICE_MAX) {
            snprintf(why, whylen,
                     i18n_nget(lang, "dice: with its label written as \"# "
                               "...\" it is over %d byte; shorten it",
                               "dice: with its label written as \"# "
                               "...\" it is over %d bytes; shorten it",
                               STORE_MACRO_DICE_MAX),
                     STORE_MACRO_DICE_MAX);
            return false;
        }
    }
    struct dice_diag diag;
    diag.tr = i18n_tr;
    diag.tr_ctx = &lang;
    struct dice_expr *expr = NULL;
    if (dice_parse(out, strlen(out), &expr, &diag) != ENG_OK) {
        char text[MACRO_ERR_TEXT];
        render_dice_error(text, sizeof text, style, lang, out, strlen(out),
                          &diag);
        snprintf(why, whylen, i18n_get(lang, "dice: nothing was saved\n%s"),
                 text);
        return false;
    }
    dice_expr_free(expr);
    return true;
}

bool cmd_macro_check(const char *name, const char *dice, bool discord,
                     enum i18n_lang lang, struct store_macro *m, char *why,
                     size_t whylen)
{
    char rule[MACRO_RULE_MAX];
    if (!name_norm(name, m->name)) {
        snprintf(why, whylen, "name: %s", name_rule(lang, rule));
        return false;
    }
    return dice_ok(dice, lang,
                   discord ? RENDER_DICE_DISCORD : RENDER_DICE_TEXT, m->dice,
                   why, whylen);
}

/* The store failed under a change: roll back and say so. */
static void store_failed(struct cmd_run *run)
{
    store_rollback(run->ctx->store);
    cmd_fail(run, i18n_get(run->req->lang, "the saved rolls could not be "
                           "read or written just now; nothing was changed, "
                           "try again"));
}

void cmd_macro_save(struct cmd_run *run)
{
    const struct cmd_req *req = run->req;
    enum i18n_lang lang = req->lang;
    struct store *st = run->ctx->store;
    struct store_macro m = {0}, old;
    bool server = false, replace = false;
    if (!cmd_opt_bool(run, "server", false, &server) ||
        !cmd_opt_bool(run, "replace", false, &replace))
        return;
    char why[MACRO_ERR_TEXT + 64];
    if (!cmd_macro_check(cmd_req_opt(req, "name"), cmd_req_opt(req, "dice"),
                         req->source == CMD_SRC_DISCORD, lang, &m, why,
                         sizeof why)) {
        cmd_fail(run, "%s", why);
        return;
    }
    if (server && !server_ok(run, "server:true"))
        return;
    scope(req, server, &m.guild, &m.user);
    m.by = req->user_id;
    m.created_ms = m.updated_ms = req->now_ms;

    if (store_begin(st) != BOT_OK) {
        cmd_fail(run, i18n_get(lang, "the saved rolls could not be written "
                               "just now; try again"));
        return;
    }
    enum bot_err e = store_macro_get(st, m.guild, m.user, m.name, &old);
    bool existed = e == BOT_OK;
    if (existed && !replace) {
        store_rollback(st);
        char *dice = msg_escape(old.dice);
        cmd_fail(run, server ? i18n_get(lang, "this server already has "
                                        "`@%s` (%s); give replace:true to "
                                        "change it, or pick another name")
                             : i18n_get(lang, "you already have `@%s` (%s); "
                                        "give replace:true to change it, or "
                                        "pick another name"),
                 m.name, dice ? dice : "?");
        free(dice);
        return;
    }
    if (e == BOT_NOTFOUND) {
        int64_t n = 0, max = cmd_macro_quota(run->ctx, server);
        if (store_macro_count(st, m.guild, m.user, &n) != BOT_OK) {
            store_failed(run);
            return;
        }
        if (n >= max) {
            store_rollback(st);
            /* English has always said "rolls", even of one: its two
             * forms are one text; other languages choose by n */
            cmd_fail(run, server
                     ? i18n_nget(lang, "this server has %lld server-wide "
                                 "saved rolls (the limit is %lld); delete "
                                 "one first with /macro delete server:true",
                                 "this server has %lld server-wide saved "
                                 "rolls (the limit is %lld); delete one "
                                 "first with /macro delete server:true",
                                 (unsigned long)n)
                     : i18n_nget(lang, "you have %lld saved rolls of your "
                                 "own (the limit is %lld); delete one first "
                                 "with /macro delete",
                                 "you have %lld saved rolls of your own "
                                 "(the limit is %lld); delete one first "
                                 "with /macro delete", (unsigned long)n),
                     (long long)n, (long long)max);
            return;
        }
    } else if (e != BOT_OK) {
        store_failed(run);
        return;
    }
    e = store_macro_put(st, &m, replace);
    if (e == BOT_OK)
        e = store_commit(st);
    else
        store_rollback(st);
    if (e != BOT_OK) {
        cmd_fail(run, i18n_get(lang, "the saved roll could not be written; "
                               "nothing was changed, try again"));
        return;
    }
    char *dice = msg_escape(m.dice);
    msg_set_content(
        &run->reply->msg,
        existed && server
            ? i18n_get(lang, "Replaced `@%1$s`: %2$s\nEveryone in this "
                       "server can use it. Roll it with `/roll dice:@%1$s` "
                       "(add +2, adv or a # label after it).")
        : existed
            ? i18n_get(lang, "Replaced `@%1$s`: %2$s\nIt is yours, in every "
                       "server and in DMs with fray. Roll it with `/roll "
                       "dice:@%1$s` (add +2, adv or a # label after it).")
        : server
            ? i18n_get(lang, "Saved `@%1$s`: %2$s\nEveryone in this server "
                       "can use it. Roll it with `/roll dice:@%1$s` (add +2, "
                       "adv or a # label after it).")
            : i18n_get(lang, "Saved `@%1$s`: %2$s\nIt is yours, in every "
                       "server and in DMs with fray. Roll it with `/roll "
                       "dice:@%1$s` (add +2, adv or a # label after it)."),
        m.name, dice ? dice : "");
    free(dice);
    run->reply->ephemeral = true;
}

/* Lines "`@name` dice" of a list, into the sbuf at ctx. */
static enum bot_err list_line(void *ctx, const struct store_macro *m)
{
    struct sbuf *b = ctx;
    char *dice = msg_escape(m->dice);
    sbuf_addf(b, "%s`@%s` %s", sbuf_str(b)[0] ? "\n" : "", m->name,
              dice ? dice : "");
    free(dice);
    return BOT_OK;
}

/* One scope's embed of /macro list: those whose name starts with prefix
 * (lower case, may be empty). A long list is folded, and shortened with a
 * note, by the renderer at Discord's limits. */
static bool list_scope(struct cmd_run *run, bool server, const char *prefix)
{
    uint64_t guild, user;
    int64_t n = 0;
    struct store *st = run->ctx->store;
    char title[96];
    struct sbuf b;
    scope(run->req, server, &guild, &user);
    if (store_macro_count(st, guild, user, &n) != BOT_OK)
        return false;
    enum i18n_lang lang = run->req->lang;
    snprintf(title, sizeof title,
             server ? i18n_get(lang, "This server's saved rolls (%lld of "
                               "%lld)")
                    : i18n_get(lang, "Your saved rolls (%lld of %lld)"),
             (long long)n, (long long)cmd_macro_quota(run->ctx, server));
    sbuf_init(&b, MSG_MAX_TEXT / 2);
    bool ok = store_macro_list(st, guild, user, prefix, CMD_MACRO_LIST_MAX,
                               list_line, &b) == BOT_OK &&
              sbuf_error(&b) != SBUF_NOMEM;
    if (ok && sbuf_str(&b)[0] == '\0')
        sbuf_add(&b, prefix[0] ? i18n_get(lang, "none whose name starts so")
                 : server ? i18n_get(lang, "none yet; those who manage the "
                                     "server add them with `/macro save ... "
                                     "server:true`")
                          : i18n_get(lang, "none yet: `/macro save "
                                     "name:stealth dice:\"1d20+7 # "
                                     "Stealth\"`"));
    struct msg_embed *em = ok ? msg_add_embed(&run->reply->msg,
                                              MSG_STYLE_INFO, title)
                              : NULL;
    ok = em != NULL && msg_embed_set_description(em, sbuf_str(&b));
    sbuf_cleanup(&b);
    return ok;
}

void cmd_macro_list(struct cmd_run *run)
{
    const char *typed = cmd_req_opt(run->req, "name");
    char prefix[STORE_MACRO_NAME_MAX + 1] = "", rule[MACRO_RULE_MAX];
    enum i18n_lang lang = run->req->lang;
    if (typed != NULL && !name_lower(typed, prefix)) {
        cmd_fail(run, i18n_get(lang, "name: the start of a name; %s"),
                 name_rule(lang, rule));
        return;
    }
    if (!list_scope(run, false, prefix) ||
        (run->req->guild_id != 0 && !list_scope(run, true, prefix))) {
        msg_cleanup(&run->reply->msg);
        msg_init(&run->reply->msg);
        cmd_fail(run, i18n_get(lang, "the saved rolls could not be read "
                               "just now; try again"));
        return;
    }
    run->reply->ephemeral = true;
}

/* The saved roll name as /roll would take it: the sender's own, else the
 * server's (only the server's with server_only). */
static enum bot_err find(struct cmd_run *run, const char *name,
                         bool server_only, struct store_macro *m,
                         bool *server)
{
    const struct cmd_req *req = run->req;
    enum bot_err e = BOT_NOTFOUND;
    *server = false;
    if (!server_only)
        e = store_macro_get(run->ctx->store, 0, req->user_id, name, m);
    if (e == BOT_NOTFOUND && req->guild_id != 0) {
        *server = true;
        e = store_macro_get(run->ctx->store, req->guild_id, 0, name, m);
    }
    return e;
}

/* "no saved roll @x" with where the sender might look instead. */
static void not_found(struct cmd_run *run, const char *name, enum bot_err e)
{
    enum i18n_lang lang = run->req->lang;
    if (e != BOT_NOTFOUND) {
        cmd_fail(run, i18n_get(lang, "the saved rolls could not be read "
                               "just now; try again"));
        return;
    }
    cmd_fail(run, run->req->guild_id == 0
                      ? i18n_get(lang, "no saved roll `@%s` of yours (here, "
                                 "outside a server, only your own work); "
                                 "`/macro list` shows them")
                      : i18n_get(lang, "no saved roll `@%s`; `/macro list` "
                                 "shows them"),
             name);
}

void cmd_macro_show(struct cmd_run *run)
{
    struct store_macro m, other;
    char name[STORE_MACRO_NAME_MAX + 1], rule[MACRO_RULE_MAX];
    enum i18n_lang lang = run->req->lang;
    bool server_only = false, server;
    if (!cmd_opt_bool(run, "server", false, &server_only))
        return;
    if (!name_norm(cmd_req_opt(run->req, "name"), name)) {
        cmd_fail(run, "name: %s", name_rule(lang, rule));
        return;
    }
    enum bot_err e = find(run, name, server_only, &m, &server);
    if (e != BOT_OK) {
        not_found(run, name, e);
        return;
    }
    char *dice = msg_escape(m.dice);
    bool hides = !server && run->req->guild_id != 0 &&
                 store_macro_get(run->ctx->store, run->req->guild_id, 0, name,
                                 &other) == BOT_OK;
    msg_set_content(&run->reply->msg,
                    server ? i18n_get(lang, "`@%s` (this server's): %s")
                    : hides ? i18n_get(lang, "`@%s` (yours): %s\nThe server "
                                       "has one of the same name; yours is "
                                       "the one /roll uses (server:true "
                                       "shows theirs).")
                            : i18n_get(lang, "`@%s` (yours): %s"),
                    name, dice ? dice : "");
    free(dice);
    run->reply->ephemeral = true;
}

void cmd_macro_delete(struct cmd_run *run)
{
    const struct cmd_req *req = run->req;
    enum i18n_lang lang = req->lang;
    struct store *st = run->ctx->store;
    char name[STORE_MACRO_NAME_MAX + 1], rule[MACRO_RULE_MAX];
    bool server = false;
    uint64_t guild, user;
    if (!cmd_opt_bool(run, "server", false, &server))
        return;
    if (!name_norm(cmd_req_opt(req, "name"), name)) {
        cmd_fail(run, "name: %s", name_rule(lang, rule));
        return;
    }
    if (server && !server_ok(run, "server:true"))
        return;
    scope(req, server, &guild, &user);
    if (store_begin(st) != BOT_OK) {
        cmd_fail(run, i18n_get(lang, "the saved rolls could not be written "
                               "just now; try again"));
        return;
    }
    enum bot_err e = store_macro_delete(st, guild, user, name);
    if (e == BOT_OK)
        e = store_commit(st);
    else
        store_rollback(st);
    if (e == BOT_NOTFOUND) {
        cmd_fail(run, server ? i18n_get(lang, "this server has no saved "
                                        "roll `@%s`")
                      : req->guild_id == 0
                          ? i18n_get(lang, "you have no saved roll `@%s`")
                          : i18n_get(lang, "you have no saved roll `@%s` (a "
                                     "server-wide one is deleted with "
                                     "server:true, by those who manage the "
                                     "server)"),
                 name);
        return;
    }
    if (e != BOT_OK) {
        cmd_fail(run, i18n_get(lang, "the saved roll could not be deleted; "
                               "try again"));
        return;
    }
    msg_set_content(&run->reply->msg,
                    server ? i18n_get(lang, "Deleted this server's saved "
                                      "roll `@%s`.")
                           : i18n_get(lang, "Deleted your saved roll "
                                      "`@%s`."),
                    name);
    run->reply->ephemeral = true;
}

/* What may follow "@name" in /roll: nothing, +, -, a # label, or the
 * words adv and dis (which the dice language reads). */
static bool rest_ok(const char *rest)
{
    while (*rest == ' ')
        rest++;
    if (*rest == '\0' || *rest == '+' || *rest == '-' || *rest == '#')
        return true;
    return strncasecmp(rest, "adv", 3) == 0 ||
           strncasecmp(rest, "dis", 3) == 0;
}

enum cmd_macro_got cmd_macro_expand(struct cmd_run *run, const char *src,
                                    bool drop_label,
                                    struct cmd_macro_use *use)
{
    const char *p = src;
    while (*p == ' ')
        p++;
    if (*p != '@')
        return CMD_MACRO_NONE;
    p++;
    size_t n = 0;
    while (isalnum((unsigned char)p[n]) || p[n] == '_')
        n++;
    char name[STORE_MACRO_NAME_MAX + 1], rule[MACRO_RULE_MAX];
    enum i18n_lang lang = run->req->lang;
    if (n == 0 || n > STORE_MACRO_NAME_MAX) {
        cmd_fail(run, i18n_get(lang, "dice: @ is followed by the name of a "
                               "saved roll, like @stealth; %s"),
                 name_rule(lang, rule));
        return CMD_MACRO_REFUSED;
    }
    for (size_t i = 0; i < n; i++)
        name[i] = (char)tolower((unsigned char)p[i]);
    name[n] = '\0';
    const char *rest = p + n;
    if (!store_macro_name_ok(name)) {
        cmd_fail(run, "dice: %s", name_rule(lang, rule));
        return CMD_MACRO_REFUSED;
    }
    if (strchr(rest, '@') != NULL || !rest_ok(rest)) {
        char *shown = msg_escape(rest);
        cmd_fail(run, i18n_get(lang, "dice: after `@%s` may come +N or -N, "
                               "more dice (+1d4), adv, dis or a # label; "
                               "not %s. One saved roll per roll, first"),
                 name, shown ? shown : "");
        free(shown);
        return CMD_MACRO_REFUSED;
    }
    enum bot_err e = find(run, name, false, &use->m, &use->server);
    if (e != BOT_OK) {
        not_found(run, name, e);
        return CMD_MACRO_REFUSED;
    }
    /* The macro's dice, what the sender added, then the macro's label
     * unless the sender named the roll themself. */
    const char *hash = strchr(use->m.dice, '#');
    size_t dlen = hash ? (size_t)(hash - use->m.dice) : strlen(use->m.dice);
    while (dlen > 0 && use->m.dice[dlen - 1] == ' ')
        dlen--;
    bool own_label = drop_label || strchr(rest, '#') != NULL;
    int w = snprintf(use->dice, sizeof use->dice, "%.*s%s%s%s", (int)dlen,
                     use->m.dice, rest, hash && !own_label ? " " : "",
                     hash && !own_label ? hash : "");
    if (w < 0 || (size_t)w >= sizeof use->dice) {
        cmd_fail(run, i18n_nget(lang, "dice: `@%s` with what follows it is "
                                "over %d byte, the most one roll may have",
                                "dice: `@%s` with what follows it is over "
                                "%d bytes, the most one roll may have",
                                DICE_MAX_EXPR_LEN),
                 name, DICE_MAX_EXPR_LEN);
        return CMD_MACRO_REFUSED;
    }
    return CMD_MACRO_USED;
}

/* One scope's candidates for cmd_macro_complete(). */
struct cand_ctx {
    cmd_macro_cand_fn *fn;
    void *arg;
    bool with_at;
    bool server;
    const struct cmd_ctx *ctx;
    const struct cmd_req *req;
};

static enum bot_err cand(void *arg, const struct store_macro *m)
{
    struct cand_ctx *c = arg;
    struct store_macro mine;
    /* In /roll the sender's own of that name wins: do not offer the
     * server's twin. */
    if (c->server && c->with_at &&
        store_macro_get(c->ctx->store, 0, c->req->user_id, m->name,
                        &mine) == BOT_OK)
        return BOT_OK;
    char label[160], value[STORE_MACRO_NAME_MAX + 2];
    /* whose, in the reader's words: a longer word than English's takes
     * its room from the dice shown, so the label stays within 100 */
    const char *whose = c->server ? i18n_get(c->req->lang, " (server's)")
                                  : i18n_get(c->req->lang, " (yours)");
    size_t room = MACRO_LABEL_DICE, wlen = strlen(whose);
    if (wlen > MACRO_WHOSE_MAX)
        room = wlen - MACRO_WHOSE_MAX >= room ? 0
                                              : room - (wlen - MACRO_WHOSE_MAX);
    size_t len = strlen(m->dice);
    size_t cut = len <= room ? len : sbuf_utf8_cut(m->dice, room);
    snprintf(label, sizeof label, "@%s: %.*s%s%s", m->name, (int)cut,
             m->dice, m->dice[cut] ? "..." : "", whose);
    snprintf(value, sizeof value, "%s%s", c->with_at ? "@" : "", m->name);
    c->fn(c->arg, label, value);
    return BOT_OK;
}

void cmd_macro_complete(struct cmd_ctx *ctx, const struct cmd_req *req,
                        const char *prefix, bool with_at,
                        bool only_deletable, cmd_macro_cand_fn *fn,
                        void *arg)
{
    char low[STORE_MACRO_NAME_MAX + 1];
    size_t n = strlen(prefix);
    if (n > STORE_MACRO_NAME_MAX)
        return;
    for (size_t i = 0; i <= n; i++)
        low[i] = (char)tolower((unsigned char)prefix[i]);
    struct cand_ctx c = {fn, arg, with_at, false, ctx, req};
    /* Read-only: a failure only means fewer suggestions. */
    (void)store_macro_list(ctx->store, 0, req->user_id, low, MSG_MAX_SELECT,
                           cand, &c);
    if (req->guild_id == 0 ||
        (only_deletable && !may_manage(ctx, req)))
        return;
    c.server = true;
    (void)store_macro_list(ctx->store, req->guild_id, 0, low, MSG_MAX_SELECT,
                           cand, &c);
}
