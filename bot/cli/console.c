/*
 * console.c - the console session: meta commands, slash commands, output.
 *
 * The front end is thin on purpose: a line becomes a cmd_req through
 * cmd_parse_line(), goes through cmd_exec() like any interaction, and the
 * reply's msg is printed with render_text(). A line the parser refuses is
 * shown exactly as cmd_exec() would show the same refusal.
 */
#include "console.h"

#include <ctype.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <editline/readline.h>

#include "cmd_parse.h"
#include "cmd_table.h"
#include "rs.h"
#include "cmd_validate.h"
#include "dur.h"
#include "fnv.h"
#include "msg.h"
#include "render_discord.h"
#include "render_text.h"
#include "sbuf.h"
#include "store.h"

/* The prompt marker before each echoed line of a transcript. */
#define CONSOLE_ECHO_MARK "> "

/* ---- users --------------------------------------------------------------- */

uint64_t console_user_id(const char *name)
{
    uint64_t h = FNV_BASIS;

    for (const char *p = name; *p != '\0'; p++) {
        unsigned char lower = (unsigned char)tolower((unsigned char)*p);
        h = fnv_add(h, &lower, 1);
    }
    h &= INT64_MAX;
    return h != 0 ? h : 1;
}

/* Is name usable after :as? Why not, with the usage (a catalog message:
 * i18n_get() it), or NULL. */
static const char *console_name_problem(const char *name, size_t len)
{
    _Static_assert(CONSOLE_MAX_USER_NAME == 32, "the messages say 32");
    if (len == 0)
        return N_("a user needs a name (usage: :as NAME)");
    if (len > CONSOLE_MAX_USER_NAME)
        return N_("user names are at most 32 bytes (usage: :as NAME)");
    if (!cmd_validate_utf8(name, len))
        return N_("a user name must be valid UTF-8 (usage: :as NAME)");
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)name[i] < 0x20 || name[i] == 0x7F)
            return N_("a user name cannot hold control characters (usage: "
                      ":as NAME)");
    return NULL;
}

/* Switch to the user called name[0..len), adding them on first use.
 * Returns false when the table is full. */
static bool console_switch_user(struct console *c, const char *name,
                                size_t len, bool gm_if_new)
{
    char key[CONSOLE_MAX_USER_NAME + 1];

    memcpy(key, name, len);
    key[len] = '\0';
    for (int i = 0; i < c->nusers; i++) {
        if (strcasecmp(c->users[i].name, key) == 0) {
            c->current = i;
            return true;
        }
    }
    if (c->nusers >= CONSOLE_MAX_USERS)
        return false;
    struct console_user *u = &c->users[c->nusers];
    memcpy(u->name, key, len + 1);
    u->id = console_user_id(key);
    u->gm = gm_if_new;
    c->current = c->nusers++;
    return true;
}

/* render_text_user_fn: name the users this session has seen. */
static const char *console_user_name(void *ud, uint64_t id)
{
    const struct console *c = ud;

    for (int i = 0; i < c->nusers; i++)
        if (c->users[i].id == id)
            return c->users[i].name;
    return NULL;
}

bool console_init(struct console *c, struct store *store,
                  struct eng_rng *rng, FILE *out, const char *user_name,
                  bool gm, bool script)
{
    memset(c, 0, sizeof *c);
    c->ctx.store = store;
    c->ctx.rng = rng;
    c->out = out;
    c->script = script;
    if (console_name_problem(user_name, strlen(user_name)) != NULL)
        return false;
    return console_switch_user(c, user_name, strlen(user_name), gm);
}

/* ---- output -------------------------------------------------------------- */

/* Would Discord get m shortened (a text over its limit cut with
 * RENDER_DC_NOTE, or a Components V2 message's rows folded into "+N
 * more")? The console prints the whole text, so it says so: a test or a
 * GM trying a fight here sees what the table would. */
bool console_discord_shortens(const struct msg *m)
{
    size_t len;
    char *body = render_discord_message_text(m, false, &len);
    bool cut = body != NULL && (strstr(body, RENDER_DC_NOTE) != NULL ||
                                strstr(body, "\":\"_+") != NULL);
    free(body);
    return cut;
}

/* Print a msg as text. Returns false when out of memory. */
static bool console_print_msg(struct console *c, const struct msg *m)
{
    struct render_text_opts ro = {console_user_name, c};
    struct sbuf out;
    bool ok;

    sbuf_init(&out, RENDER_TEXT_MAX);
    render_text(m, &ro, &out);
    ok = sbuf_error(&out) != SBUF_NOMEM;
    fputs(sbuf_str(&out), c->out);
    if (sbuf_error(&out) == SBUF_TRUNCATED)
        fprintf(c->out, "%s\n", i18n_get(c->lang, "[... cut]"));
    /* The scissors mark the line in every language: scripts/l10n-coverage
     * counts them to find a message only a translation makes too long. */
    if (console_discord_shortens(m))
        fprintf(c->out, CONSOLE_SHORTENED_MARK " %s\n",
                i18n_get(c->lang, "(Discord would get this message "
                                  "shortened: it is over a limit)"));
    sbuf_cleanup(&out);
    return ok;
}

/* Print a line of the console's own (meta command answers). */
static void console_say(struct console *c, const char *text)
{
    fprintf(c->out, "%s\n", text);
}

/* Echo an input line after the prompt marker: control bytes as '?', and a
 * very long line cut with its length, so a transcript stays readable. */
static void console_echo(struct console *c, const char *line, size_t len,
                         size_t total)
{
    size_t show = len;

    if (show > CONSOLE_ECHO_MAX)
        show = sbuf_utf8_cut(line, CONSOLE_ECHO_MAX);
    fputs(CONSOLE_ECHO_MARK, c->out);
    for (size_t i = 0; i < show; i++) {
        unsigned char ch = (unsigned char)line[i];
        fputc(ch < 0x20 || ch == 0x7F ? '?' : ch, c->out);
    }
    if (show < total)
        fprintf(c->out, i18n_get(c->lang, "... (%zu bytes)"), total);
    fputc('\n', c->out);
}

/* A refusal from the parser, shaped like cmd_exec()'s own refusals. */
static bool console_print_error(struct console *c, const char *err)
{
    struct msg m;
    bool ok;

    c->refused++;
    msg_init(&m);
    ok = msg_set_content(&m, i18n_get(c->lang, "%s\nTry: `/help`"), err);
    ok = ok && console_print_msg(c, &m);
    msg_cleanup(&m);
    return ok;
}

static bool console_print_reply(struct console *c,
                                const struct cmd_reply *r)
{
    const struct console_user *u = &c->users[c->current];

    if (r->is_error)
        c->refused++;
    if (r->ephemeral && !r->is_error) {
        fprintf(c->out, i18n_get(c->lang, "(only %s sees this)"), u->name);
        fputc('\n', c->out);
    }
    if (console_pick_keep(&c->pick, &r->msg, c->current)) {
        struct msg shown = r->msg;      /* shallow: printed without its
                                           select, then numbered */
        shown.select.noptions = 0;
        if (!console_print_msg(c, &shown))
            return false;
        console_pick_print(&c->pick, c->out, c->lang);
    } else if (!console_print_msg(c, &r->msg)) {
        return false;
    }
    if (r->gm_copy != NULL) {
        fprintf(c->out, "%s\n", i18n_get(c->lang, "(to the GM)"));
        if (!console_print_msg(c, r->gm_copy))
            return false;
    }
    if (r->file.data != NULL) {
        /* The file as it would be attached (/combat log): printed whole
         * between two marker lines, so a script can cut it out. */
        fprintf(c->out, i18n_get(c->lang, "--- file %s (%zu bytes) ---"),
                r->file.name, r->file.len);
        fputc('\n', c->out);
        fwrite(r->file.data, 1, r->file.len, c->out);
        if (r->file.len > 0 && r->file.data[r->file.len - 1] != '\n')
            fputc('\n', c->out);
        fprintf(c->out, i18n_get(c->lang, "--- end of %s ---"),
                r->file.name);
        fputc('\n', c->out);
    }
    return true;
}

/* ---- the clock ----------------------------------------------------------- */

static int64_t console_now_ms(const struct console *c)
{
    struct timespec ts;

    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000 +
           c->clock_offset_ms;
}

/* "+4h" or "real time", the offset to the nearest minute. */
static void console_clock_text(enum i18n_lang lang, int64_t offset,
                               char *buf, size_t n)
{
    char d[DUR_MAX_TEXT + 8];

    if (offset < DUR_MS_MINUTE / 2) {
        snprintf(buf, n, "%s", i18n_get(lang, "real time"));
        return;
    }
    dur_format(offset + DUR_MS_MINUTE / 2, d, sizeof d);
    snprintf(buf, n, i18n_get(lang, "real time +%s"), d);
}

/* Fire every timer due now; false when printing failed. *nfired counts. */
static bool console_fire_due(struct console *c, int *nfired)
{
    struct store_timer t[STORE_TIMER_BATCH_MAX];
    size_t n = 0;

    if (store_timer_due(c->ctx.store, 0, 1, console_now_ms(c), t,
                        STORE_TIMER_BATCH_MAX, &n) != BOT_OK) {
        fprintf(c->out, i18n_get(c->lang, "the timers could not be read: %s"),
                store_errmsg(c->ctx.store));
        fputc('\n', c->out);
        return true;
    }
    for (size_t i = 0; i < n && *nfired < CONSOLE_MAX_FIRES; i++) {
        struct cmd_reply r;
        bool fired = false, ok = true;
        char when[48];
        if (!cmd_clock_fire(&c->ctx, &t[i], console_now_ms(c),
                            CMD_SRC_CONSOLE, &r, &fired)) {
            fprintf(c->out, i18n_get(c->lang, "a timer could not fire: %s"),
                    store_errmsg(c->ctx.store));
            fputc('\n', c->out);
            cmd_reply_cleanup(&r);
            continue;
        }
        if (fired) {
            (*nfired)++;
            console_clock_text(c->lang, c->clock_offset_ms, when,
                               sizeof when);
            fprintf(c->out, i18n_get(c->lang, "[turn clock, at %s]"), when);
            fputc('\n', c->out);
            ok = (r.msg.content == NULL && r.msg.nembeds == 0) ||
                 console_print_msg(c, &r.msg);
            if (ok && r.gm_copy != NULL) {
                fprintf(c->out, "%s\n", i18n_get(c->lang, "(to the GM)"));
                ok = console_print_msg(c, r.gm_copy);
            }
        }
        cmd_reply_cleanup(&r);
        if (!ok)
            return false;
    }
    return true;
}

/* Fire what falls due up to now + by, each timer at its own time. */
static bool console_advance(struct console *c, int64_t by)
{
    int64_t target = c->clock_offset_ms + by;
    int nfired = 0;
    int64_t due;

    while (nfired < CONSOLE_MAX_FIRES &&
           store_timer_next(c->ctx.store, 0, 1, &due) == BOT_OK) {
        int64_t step = due - console_now_ms(c);
        if (c->clock_offset_ms + (step > 0 ? step : 0) > target)
            break;
        if (step > 0)
            c->clock_offset_ms += step;
        int before = nfired;
        if (!console_fire_due(c, &nfired))
            return false;
        if (nfired == before)
            break;                  /* claimed by nobody: a stuck row */
    }
    if (nfired == CONSOLE_MAX_FIRES) {
        fprintf(c->out, i18n_get(c->lang, "stopped after %d timers (limit)"),
                CONSOLE_MAX_FIRES);
        fputc('\n', c->out);
    }
    c->clock_offset_ms = target;
    return true;
}

/* A duration argument "+DUR" (the + is optional) into *ms. */
static bool console_duration(struct console *c, const char *arg, size_t alen,
                             const char *usage, int64_t *ms)
{
    char text[DUR_MAX_TEXT + 2];

    if (alen > 0 && arg[0] == '+') {
        arg++;
        alen--;
    }
    if (alen >= sizeof text) {
        fprintf(c->out, i18n_get(c->lang, "%s (usage: %s)"),
                i18n_get(c->lang, dur_strerror(DUR_TOO_LONG_TEXT)), usage);
        fputc('\n', c->out);
        return false;
    }
    memcpy(text, arg, alen);
    text[alen] = '\0';
    enum dur_err err = dur_parse(text, ms);
    if (err != DUR_OK) {
        fprintf(c->out, i18n_get(c->lang, "%s (usage: %s)"),
                i18n_get(c->lang, dur_strerror(err)), usage);
        fputc('\n', c->out);
        return false;
    }
    return true;
}

static enum console_status console_time(struct console *c, const char *arg,
                                        size_t alen)
{
    char when[48];
    int64_t by = 0;

    if (alen > 0) {
        if (!console_duration(c, arg, alen, ":time [+DUR]", &by))
            return CONSOLE_CONTINUE;
        if (!console_advance(c, by))
            return CONSOLE_FATAL;
    }
    console_clock_text(c->lang, c->clock_offset_ms, when, sizeof when);
    fprintf(c->out, i18n_get(c->lang, "clock: %s"), when);
    fputc('\n', c->out);
    return CONSOLE_CONTINUE;
}

static enum console_status console_restart(struct console *c,
                                           const char *arg, size_t alen)
{
    char err[STORE_MAX_ERR], when[48];
    int64_t down = 0;
    int nfired = 0;
    struct store *s = NULL;

    if (c->location == NULL || strcmp(c->location, ":memory:") == 0) {
        console_say(c, i18n_get(c->lang, ":restart needs a database file "
                                "(--db PATH); :memory: keeps nothing to "
                                "restart with"));
        return CONSOLE_CONTINUE;
    }
    if (alen > 0 &&
        !console_duration(c, arg, alen, ":restart [+DUR]", &down))
        return CONSOLE_CONTINUE;
    store_close(c->ctx.store);
    c->ctx.store = NULL;
    c->clock_offset_ms += down;
    if (store_open(c->location, &s, err, sizeof err) != BOT_OK) {
        fprintf(c->out, i18n_get(c->lang, "cannot reopen the database: %s"),
                err);
        fputc('\n', c->out);
        return CONSOLE_FATAL;
    }
    c->ctx.store = s;
    console_clock_text(c->lang, c->clock_offset_ms, when, sizeof when);
    fprintf(c->out, i18n_get(c->lang, "fray restarted; clock: %s"), when);
    fputc('\n', c->out);
    return console_fire_due(c, &nfired) ? CONSOLE_CONTINUE : CONSOLE_FATAL;
}

/* ---- meta commands ------------------------------------------------------- */

static void console_help(struct console *c)
{
    size_t n;
    const struct cmd_spec *t = cmd_table(&n);

    /* one message: a translation keeps the columns its own way */
    console_say(c, i18n_get(c->lang, "console commands:\n"
                "  :as NAME     act as another user (made up on first use)\n"
                "  :gm on|off   give the acting user the GM's permissions\n"
                "  :help        this list\n"
                "  :time [+DUR] show the clock, or move it on by DUR (4h, "
                "1d) firing\n"
                "               the turn clock timers due on the way\n"
                "  :restart [+DUR] reopen the database as a restarted fray, "
                "after\n"
                "               DUR of being down (late timers fire then)\n"
                "  :quit        leave (end of input does too)\n"
                "slash commands (options are name:value, quote values "
                "with spaces):"));
    for (size_t i = 0; i < n; i++) {
        char name[64];
        snprintf(name, sizeof name, "/%s%s%s", t[i].command,
                 t[i].sub ? " " : "", t[i].sub ? t[i].sub : "");
        fprintf(c->out, "  %-18s %s\n", name, i18n_get(c->lang, t[i].help));
    }
    size_t nrs;
    const struct rs_system *const *all = rs_all(&nrs);
    console_say(c, i18n_get(c->lang, "and each rule system's own (/help "
                                     "topic:<system>):"));
    for (size_t i = 0; i < nrs; i++) {
        fprintf(c->out, "  %-9s", all[i]->id);
        for (int k = 0; k < all[i]->ncmds; k++)
            fprintf(c->out, " /%s%s%s", all[i]->cmds[k].verb,
                    all[i]->cmds[k].sub ? " " : "",
                    all[i]->cmds[k].sub ? all[i]->cmds[k].sub : "");
        if (all[i]->ncmds == 0)
            fprintf(c->out, " %s", i18n_get(c->lang, "(the commands above)"));
        fputc('\n', c->out);
    }
    console_say(c, i18n_get(c->lang, "/help topic:combat explains more."));
}

static void console_describe_user(struct console *c)
{
    const struct console_user *u = &c->users[c->current];

    fprintf(c->out, u->gm ? i18n_get(c->lang, "acting as %s (GM)")
                          : i18n_get(c->lang, "acting as %s"), u->name);
    fputc('\n', c->out);
}

/* ":word rest" */
static enum console_status console_meta(struct console *c, const char *line,
                                        size_t len)
{
    size_t i = 1, w;
    const char *arg;
    size_t alen;

    while (i < len && !isspace((unsigned char)line[i]))
        i++;
    w = i;
    while (i < len && isspace((unsigned char)line[i]))
        i++;
    arg = line + i;
    alen = len - i;
    while (alen > 0 && isspace((unsigned char)arg[alen - 1]))
        alen--;

    if (w == 3 && memcmp(line, ":as", 3) == 0) {
        const char *why = console_name_problem(arg, alen);
        if (why != NULL) {
            console_say(c, i18n_get(c->lang, why));
            c->refused++;
            return CONSOLE_CONTINUE;
        }
        if (!console_switch_user(c, arg, alen, false)) {
            fprintf(c->out, i18n_get(c->lang, "too many users (limit is %d)"),
                    CONSOLE_MAX_USERS);
            fputc('\n', c->out);
            c->refused++;
            return CONSOLE_CONTINUE;
        }
        console_describe_user(c);
    } else if (w == 3 && memcmp(line, ":gm", 3) == 0) {
        if (alen == 2 && memcmp(arg, "on", 2) == 0)
            c->users[c->current].gm = true;
        else if (alen == 3 && memcmp(arg, "off", 3) == 0)
            c->users[c->current].gm = false;
        else if (alen != 0) {
            console_say(c, i18n_get(c->lang, "usage: :gm on|off"));
            c->refused++;
            return CONSOLE_CONTINUE;
        }
        console_describe_user(c);
    } else if (w == 5 && memcmp(line, ":help", 5) == 0) {
        console_help(c);
    } else if (w == 5 && memcmp(line, ":time", 5) == 0) {
        return console_time(c, arg, alen);
    } else if (w == 8 && memcmp(line, ":restart", 8) == 0) {
        return console_restart(c, arg, alen);
    } else if ((w == 5 && memcmp(line, ":quit", 5) == 0) ||
               (w == 2 && memcmp(line, ":q", 2) == 0)) {
        return CONSOLE_QUIT;
    } else {
        char echo[CMD_VALIDATE_MAX_ECHO + 8];
        fprintf(c->out, i18n_get(c->lang, "unknown console command %s (try "
                                          ":help)"),
                cmd_validate_echo(echo, sizeof echo, line, w));
        fputc('\n', c->out);
        c->refused++;
    }
    return CONSOLE_CONTINUE;
}

/* ---- one line ------------------------------------------------------------ */

/* The form in *reply asked field by field; *reply becomes the answer. */
static enum console_status console_ask_form(struct console *c,
                                            const struct cmd_req *req,
                                            struct cmd_reply *reply)
{
    struct form *f = reply->form;
    bool given_up = false;
    reply->form = NULL;
    cmd_reply_cleanup(reply);
    if (!console_form_run(&c->ctx, f, req, c->ask, c->ask_ud, c->out, reply,
                          &given_up)) {
        free(f);
        cmd_reply_init(reply);
        if (!given_up)
            return CONSOLE_FATAL;
        console_say(c, i18n_get(c->lang, "form given up: nothing was done"));
        return CONSOLE_CONTINUE;
    }
    free(f);
    return console_print_reply(c, reply) ? CONSOLE_CONTINUE : CONSOLE_FATAL;
}

/* Who sends req, where, and when: the acting user, the console's channel. */
static void console_req_sender(struct console *c, struct cmd_req *req)
{
    const struct console_user *u = &c->users[c->current];
    req->source = CMD_SRC_CONSOLE;
    req->channel_id = CONSOLE_CHANNEL_ID;
    req->guild_id = 0;
    req->user_id = u->id;
    req->user_name = u->name;
    req->perms = u->gm ? CMD_PERM_MANAGE_CHANNELS : 0;
    req->perms_known = true;
    req->force_gm = u->gm;
    req->interaction_id = NULL;
    req->now_ms = console_now_ms(c);
    req->lang = c->lang;
    req->guild_lang = c->lang;
}

/* Run req through the command layer and print the reply. */
static enum console_status console_exec(struct console *c,
                                        const struct cmd_req *req)
{
    struct cmd_reply reply;
    enum console_status st = CONSOLE_CONTINUE;
    c->pick.n = 0;                      /* a new reply closes the last
                                           picker (it may open one) */
    if (!cmd_exec(&c->ctx, req, &reply))
        st = CONSOLE_FATAL;
    else if (reply.form != NULL)
        st = console_ask_form(c, req, &reply);
    else if (!console_print_reply(c, &reply))
        st = CONSOLE_FATAL;
    cmd_reply_cleanup(&reply);
    return st;
}

static enum console_status console_command(struct console *c,
                                           const char *line, size_t len)
{
    struct cmd_parsed *p = malloc(sizeof *p);   /* ~5 KiB: off the stack */
    char err[CMD_VALIDATE_ERR_MAX];
    enum console_status st = CONSOLE_CONTINUE;

    if (p == NULL)
        return CONSOLE_FATAL;
    if (!cmd_parse_line_in(p, line, len, c->lang, err, sizeof err)) {
        if (!console_print_error(c, err))
            st = CONSOLE_FATAL;
        free(p);
        return st;
    }
    console_req_sender(c, &p->req);
    p->req.expect_version = -1;
    p->req.forms = c->ask != NULL;
    st = console_exec(c, &p->req);
    free(p);
    return st;
}

/* A line of numbers: answer the open picker with those choices. */
static enum console_status console_choose(struct console *c, const int *ks,
                                          int n)
{
    struct cmd_req req = {.expect_version = -1};
    char why[CMD_VALIDATE_ERR_MAX];
    if (c->pick.n > 0 && c->pick.user != c->current) {
        snprintf(why, sizeof why, i18n_get(c->lang, "those choices were "
                                           "shown to %1$s; :as %1$s to "
                                           "answer them"),
                 c->users[c->pick.user].name);
        return console_print_error(c, why) ? CONSOLE_CONTINUE
                                            : CONSOLE_FATAL;
    }
    /* req borrows from the picker, which console_exec() closes: a copy
     * (~10 KiB: off the stack) */
    struct console_picker *keep = malloc(sizeof *keep);
    if (keep == NULL)
        return CONSOLE_FATAL;
    *keep = c->pick;
    enum console_status st = CONSOLE_CONTINUE;
    if (!console_pick_req(keep, ks, n, c->lang, &req, why, sizeof why)) {
        if (!console_print_error(c, why))
            st = CONSOLE_FATAL;
    } else {
        console_req_sender(c, &req);
        st = console_exec(c, &req);
    }
    free(keep);
    return st;
}

enum console_status console_line(struct console *c, const char *line,
                                 size_t len)
{
    size_t i = 0;
    enum console_status st;

    if (len > 0 && line[len - 1] == '\r')
        len--;                          /* a script saved with CRLF */
    while (i < len && (line[i] == ' ' || line[i] == '\t'))
        i++;
    if (i == len)
        return CONSOLE_CONTINUE;        /* blank */
    if (line[i] == '#') {
        if (c->script) {
            fwrite(line, 1, len, c->out);
            fputc('\n', c->out);
        }
        return CONSOLE_CONTINUE;
    }
    if (c->script)
        console_echo(c, line, len, len);
    int ks[MSG_MAX_SELECT];
    int nk = console_pick_numbers(line + i, len - i, ks, MSG_MAX_SELECT);
    if (line[i] == ':')
        st = console_meta(c, line + i, len - i);
    else if (nk > 0)
        st = console_choose(c, ks, nk);
    else
        st = console_command(c, line, len);
    if (c->script && st == CONSOLE_CONTINUE)
        fputc('\n', c->out);
    if (ferror(c->out))
        return CONSOLE_FATAL;
    fflush(c->out);
    return st;
}

/* ---- script mode --------------------------------------------------------- */

/* Read one line into buf (at most cap bytes kept, no newline). *len is the
 * line's full length, which may exceed cap. Returns false at end of input
 * with nothing read. */
static bool console_read_line(FILE *in, char *buf, size_t cap, size_t *len)
{
    size_t n = 0;
    int ch;

    while ((ch = getc(in)) != EOF && ch != '\n') {
        if (n < cap)
            buf[n] = (char)ch;
        n++;
    }
    *len = n;
    return !(ch == EOF && n == 0);
}

enum console_status console_script(struct console *c, FILE *in)
{
    /* one byte past the limit, so an over-long line is seen as one */
    size_t cap = CMD_MAX_LINE + 1;
    char *buf = malloc(cap);
    enum console_status st = CONSOLE_QUIT;
    size_t len;

    if (buf == NULL)
        return CONSOLE_FATAL;
    while (console_read_line(in, buf, cap, &len)) {
        size_t kept = len < cap ? len : cap;
        if (len > kept && c->script) {
            /* too long: echo what was kept, refuse like the parser */
            char err[CMD_VALIDATE_ERR_MAX];
            struct cmd_parsed *p = malloc(sizeof *p);
            if (p == NULL) {
                st = CONSOLE_FATAL;
                break;
            }
            console_echo(c, buf, kept, len);
            cmd_parse_line_in(p, buf, kept, c->lang, err, sizeof err);
            free(p);
            if (!console_print_error(c, err)) {
                st = CONSOLE_FATAL;
                break;
            }
            fputc('\n', c->out);
            continue;
        }
        enum console_status r = console_line(c, buf, kept);
        if (r != CONSOLE_CONTINUE) {
            st = r;
            break;
        }
    }
    if (ferror(in) || ferror(c->out))
        st = CONSOLE_FATAL;
    free(buf);
    return st;
}

/* ---- interactive mode ---------------------------------------------------- */

/* libedit is loaded when a person opens the console, not linked: the
 * daemon never edits a line, and linking it (with libtinfo, libbsd and
 * libmd) cost every `fray run` about 0.7 ms of loading before main, 8 %
 * of the floor bot's whole start (bench/README.md, "Startup results").
 * The header gives the functions' types. */
#define CONSOLE_LIBEDIT "libedit.so.2"

struct console_edit {
    void *lib;                      /* dlopen()ed; NULL: plain lines */
    FILE *out;                      /* the prompt without libedit */
    __typeof__(readline) *readline;
    __typeof__(add_history) *add_history;
    __typeof__(using_history) *using_history;
    __typeof__(stifle_history) *stifle_history;
    __typeof__(read_history) *read_history;
    __typeof__(write_history) *write_history;
};

/* Line editing and history when libedit is there; else e->lib is NULL
 * and lines are read as they come. */
static void edit_open(struct console_edit *e, FILE *out)
{
    memset(e, 0, sizeof *e);
    e->out = out;
    e->lib = dlopen(CONSOLE_LIBEDIT, RTLD_NOW | RTLD_LOCAL);
    if (e->lib == NULL)
        return;
    /* POSIX's way from dlsym()'s void * to a function pointer */
    *(void **)&e->readline = dlsym(e->lib, "readline");
    *(void **)&e->add_history = dlsym(e->lib, "add_history");
    *(void **)&e->using_history = dlsym(e->lib, "using_history");
    *(void **)&e->stifle_history = dlsym(e->lib, "stifle_history");
    *(void **)&e->read_history = dlsym(e->lib, "read_history");
    *(void **)&e->write_history = dlsym(e->lib, "write_history");
    if (!e->readline || !e->add_history || !e->using_history ||
        !e->stifle_history || !e->read_history || !e->write_history) {
        dlclose(e->lib);
        e->lib = NULL;
    }
}

/* A line without its newline (malloc'd), or NULL at the end of input. */
static char *edit_line(struct console_edit *e, const char *prompt)
{
    if (e->lib != NULL)
        return e->readline(prompt);
    char *line = NULL;
    size_t cap = 0;
    fputs(prompt, e->out);
    fflush(e->out);
    ssize_t n = getline(&line, &cap, stdin);
    if (n < 0) {
        free(line);
        return NULL;
    }
    line[strcspn(line, "\n")] = '\0';
    return line;
}

static char *console_readline(void *ud, const char *prompt)
{
    return edit_line(ud, prompt);
}

enum console_status console_interactive(struct console *c,
                                        const char *history_path)
{
    enum console_status st = CONSOLE_CONTINUE;
    struct console_edit e;

    edit_open(&e, c->out);
    if (e.lib != NULL) {
        e.using_history();
        e.stifle_history(CONSOLE_HISTORY_MAX);
        if (history_path != NULL)
            e.read_history(history_path);
    }
    console_say(c, i18n_get(c->lang, CONSOLE_WELCOME));
    c->ask = console_readline;
    c->ask_ud = &e;
    while (st == CONSOLE_CONTINUE) {
        char prompt[CONSOLE_MAX_USER_NAME + 16];
        const struct console_user *u = &c->users[c->current];
        snprintf(prompt, sizeof prompt, "%s%s> ", u->name,
                 u->gm ? " (GM)" : "");
        char *line = edit_line(&e, prompt);
        if (line == NULL) {
            fputc('\n', c->out);
            st = CONSOLE_QUIT;
            break;
        }
        if (e.lib != NULL && line[strspn(line, " \t")] != '\0') {
            e.add_history(line);
            if (history_path != NULL)
                e.write_history(history_path);  /* best effort */
        }
        st = console_line(c, line, strlen(line));
        free(line);
    }
    c->ask = NULL;
    c->ask_ud = NULL;
    if (e.lib != NULL)
        dlclose(e.lib);
    return st;
}
