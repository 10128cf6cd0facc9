/*
 * Tests for what the command layer gives Discord beyond the reply: the live
 * tracker and its controls, autocomplete, /config and the GM's copies, the
 * turn notice's mention, help pages and big trackers that fit an embed.
 * Everything runs through cmd_exec() / cmd_complete() on an in-memory
 * store, and Discord bodies through render_discord.
 */
#include "support.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd_fixture.h"
#include "eng_rng.h"
#include "interaction.h"
#include "render_discord.h"
#include "cmd_run.h"
#include "store.h"
#include "sbuf.h"
#include "render_text.h"

enum { GM = 100, ALICE = 200, BOB = 300 };
#define GUILD 9000
#define ADMIN CMD_PERM_ADMINISTRATOR

struct fix {
    struct store *store;
    struct eng_rng rng;
    struct cmd_ctx ctx;
    struct cmd_reply reply;
    uint64_t perms;             /* of the next command's sender */
    int64_t expect_version;     /* of the next command (a button) */
    uint64_t expect_fight;      /* ... and the fight it belongs to */
    int64_t now_ms;             /* the clock: a second per command */
};

static int setup(void **state)
{
    struct fix *f = calloc(1, sizeof *f);
    char err[128];
    assert_int_equal(store_open(":memory:", &f->store, err, sizeof err),
                     BOT_OK);
    eng_rng_seed(&f->rng, 7);
    f->ctx.store = f->store;
    f->ctx.rng = &f->rng;
    f->expect_version = -1;
    f->now_ms = INT64_C(1700000000000);
    cmd_reply_init(&f->reply);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fix *f = *state;
    cmd_reply_cleanup(&f->reply);
    store_close(f->store);
    free(f);
    return 0;
}

/* The server's channels, as Discord resolves a channel option's id
 * (data.resolved.channels); an id not here is not resolved. */
#define OTHER_GUILD 9001
static const struct cmd_channel server_channels[] = {
    {555, GUILD, CMD_CHANNEL_TEXT},
    {777, GUILD, CMD_CHANNEL_TEXT},
    {5, GUILD, CMD_CHANNEL_TEXT},
    {600, GUILD, 2},                       /* voice */
    {601, GUILD, 11},                      /* a public thread */
    {603, GUILD, 15},                      /* a forum */
    {602, GUILD, CMD_CHANNEL_ANNOUNCEMENT},
    {700, OTHER_GUILD, CMD_CHANNEL_TEXT},  /* another server's */
};

static void resolve_channel(struct cmd_req *req, const char *value)
{
    uint64_t id = strtoull(value, NULL, 10);
    for (size_t i = 0; i < sizeof server_channels / sizeof *server_channels;
         i++)
        if (server_channels[i].id == id && req->nchannels < CMD_MAX_CHANNELS)
            req->channels[req->nchannels++] = server_channels[i];
}

static void fill(struct cmd_req *req, uint64_t user, const char *command,
                 const char *sub, va_list ap)
{
    *req = (struct cmd_req){
        .source = CMD_SRC_DISCORD,
        .command = command,
        .sub = sub,
        .channel_id = 1,
        .guild_id = GUILD,
        .user_id = user,
        .user_name = "tester",
        .perms_known = true,
        .expect_version = -1,
    };
    const char *name;
    while ((name = va_arg(ap, const char *)) != NULL) {
        req->opts[req->nopts].name = name;
        req->opts[req->nopts].value = va_arg(ap, const char *);
        if (strcmp(name, "gm-channel") == 0)
            resolve_channel(req, req->opts[req->nopts].value);
        req->nopts++;
    }
}

/* Run a Discord command as user (options as name/value pairs, then NULL);
 * true when accepted. */
static bool run(struct fix *f, uint64_t user, const char *command,
                const char *sub, ...)
{
    struct cmd_req req;
    va_list ap;
    va_start(ap, sub);
    fill(&req, user, command, sub, ap);
    va_end(ap);
    req.perms = f->perms;
    req.expect_version = f->expect_version;
    req.expect_fight = f->expect_fight;
    req.now_ms = f->now_ms += 1000;
    f->perms = 0;
    f->expect_version = -1;
    cmd_reply_cleanup(&f->reply);
    assert_true(cmd_exec(&f->ctx, &req, &f->reply));
    return !f->reply.is_error;
}

/* Autocomplete option focused of req; the choices' values joined with
 * ','. */
static const char *complete_req(struct fix *f, struct cmd_req *req,
                                const char *focused)
{
    static char out[4096];
    struct msg m;
    msg_init(&m);
    assert_true(cmd_complete(&f->ctx, req, focused, &m));
    assert_true(m.select.noptions <= RENDER_DC_CHOICES_MAX);
    out[0] = '\0';
    for (int i = 0; i < m.select.noptions; i++) {
        size_t n = strlen(out);
        snprintf(out + n, sizeof out - n, "%s%s", i ? "," : "",
                 m.select.options[i].value);
    }
    msg_cleanup(&m);
    return out;
}

/* Autocomplete option focused (typed so far) of command/sub as user; the
 * choices' values joined with ','. */
static const char *complete(struct fix *f, uint64_t user, const char *command,
                            const char *sub, const char *focused,
                            const char *typed)
{
    struct cmd_req req;
    req = (struct cmd_req){
        .source = CMD_SRC_DISCORD, .command = command, .sub = sub,
        .channel_id = 1, .guild_id = GUILD, .user_id = user,
        .perms_known = true, .expect_version = -1,
        .opts = {{focused, typed}}, .nopts = 1,
    };
    return complete_req(f, &req, focused);
}

/* Goblin 1, Goblin 2 (GM), Aria (Alice, first), Bryn (Bob), Shade (hidden
 * NPC). Not begun. */
static void add_people(struct fix *f, const char *system)
{
    bool sides = strcmp(system, "generic") != 0;
    assert_true(run(f, GM, "combat", "add", "name", "Goblin", "count", "2",
                    "hp", "7", "init", "=5", sides ? "side" : NULL, "Red",
                    NULL));
    assert_true(run(f, GM, "combat", "add", "name", "Shade", "hp", "9",
                    "hidden", "true", "init", "=1", sides ? "side" : NULL,
                    "Red", NULL));
    assert_true(run(f, ALICE, "combat", "join", "name", "Aria", "hp", "20",
                    "init", "=30", sides ? "side" : NULL, "Blue", NULL));
    assert_true(run(f, BOB, "combat", "join", "name", "Bryn", "hp", "18",
                    "init", "=20", sides ? "side" : NULL, "Blue", NULL));
}

static void small_fight(struct fix *f, const char *system)
{
    assert_true(run(f, GM, "combat", "start", "system", system, NULL));
    add_people(f, system);
}

/* Every text of a V2 message's parts, a line each, into out. */
static const char *v2_all(const struct msg *m, char *out, size_t cap)
{
    size_t at = 0;
    out[0] = '\0';
    for (int i = 0; m->v2 != NULL && i < m->v2->nparts; i++) {
        const char *t = m->v2->parts[i].text;
        int n = snprintf(out + at, cap - at, "%s\n", t ? t : "");
        if (n < 0 || (size_t)n >= cap - at)
            break;
        at += (size_t)n;
    }
    return out;
}

/* A V2 body within Discord's limits (discord-interface-2026.md 1.1, 1.3,
 * 7): the flag, no content or embeds, at most 40 components counted
 * nested, 4000 characters of Text Display in all. Returns the text. */
static void v2_walk(json_t *comps, int *n, size_t *chars, struct sbuf *text)
{
    size_t i;
    json_t *c;
    json_array_foreach(comps, i, c) {
        (*n)++;
        const char *t = json_string_value(json_object_get(c, "content"));
        if (json_integer_value(json_object_get(c, "type")) == 10) {
            assert_non_null(t);
            *chars += render_discord_chars(t);
            sbuf_add(text, t);
            sbuf_addc(text, '\n');
        }
        v2_walk(json_object_get(c, "components"), n, chars, text);
        json_t *acc = json_object_get(c, "accessory");
        if (acc != NULL)
            (*n)++;
    }
}

static char *check_v2(json_t *body)
{
    int n = 0;
    size_t chars = 0;
    struct sbuf text;
    assert_true(json_integer_value(json_object_get(body, "flags")) &
                RENDER_DC_FLAG_V2);
    assert_null(json_object_get(body, "content"));
    assert_null(json_object_get(body, "embeds"));
    assert_non_null(json_object_get(body, "allowed_mentions"));
    sbuf_init(&text, 1 << 20);
    v2_walk(json_object_get(body, "components"), &n, &chars, &text);
    assert_true(n <= RENDER_DC_V2_COMPONENTS_MAX);
    assert_true(chars <= RENDER_DC_V2_TEXT_MAX);
    char *dump = json_dumps(body, 0);
    assert_null(strstr(dump, "(shortened)"));
    free(dump);
    char *s = sbuf_take(&text);
    sbuf_cleanup(&text);
    return s;
}

static const struct msg_button *find_button(const struct msg *m,
                                            const char *label)
{
    for (int i = 0; i < m->nbuttons; i++)
        if (strcmp(m->buttons[i].label, label) == 0)
            return &m->buttons[i];
    return NULL;
}

/* ---- the live tracker ---------------------------------------------- */

static void test_tracker_modes_follow_the_fight(void **state)
{
    struct fix *f = *state;
    assert_true(run(f, GM, "combat", "start", "system", "generic", NULL));
    assert_non_null(f->reply.tracker);
    assert_int_equal(f->reply.tracker_mode, CMD_TRACKER_EDIT);
    add_people(f, "generic");
    assert_int_equal(f->reply.tracker_mode, CMD_TRACKER_EDIT);
    assert_true(run(f, GM, "combat", "begin", NULL));
    assert_int_equal(f->reply.tracker_mode, CMD_TRACKER_POST);
    /* the reply tells what happened; the state is the tracker's */
    assert_int_equal(f->reply.msg.nembeds, 1);
    assert_string_equal(f->reply.msg.embeds[0].title, "Roll for initiative!");
    const struct msg *t = f->reply.tracker;
    char all[8192];
    assert_non_null(t);
    assert_non_null(t->v2);         /* Components V2, never embeds too */
    assert_int_equal(t->nembeds, 0);
    assert_null(t->content);
    /* every control carries the version the change is saved as */
    const struct msg_button *end = find_button(t, "End turn");
    assert_non_null(end);
    struct custom_id cid;
    assert_true(custom_id_parse(end->custom_id, &cid));
    assert_string_equal(cid.command, "combat");
    assert_string_equal(cid.sub, "next");
    assert_int_equal(cid.version, f->reply.version);
    assert_int_equal(cid.fight, cmd_fx_fight(f->store));
    assert_non_null(find_button(t, "Undo (GM)"));
    assert_null(find_button(t, "Pass"));
    /* the public tracker shows no hidden name, not even in an id */
    assert_null(strstr(v2_all(t, all, sizeof all), "Shade"));
    json_t *tb = render_discord_message(t, false);
    char *tj = json_dumps(tb, 0);
    assert_null(strstr(tj, "Shade"));
    free(tj);
    free(check_v2(tb));
    json_decref(tb);
    /* a read-only command leaves the tracker alone */
    assert_true(run(f, ALICE, "combat", "status", NULL));
    assert_null(f->reply.tracker);
    assert_true(run(f, GM, "combat", "end", "confirm", "true", NULL));
    assert_int_equal(f->reply.tracker_mode, CMD_TRACKER_FINAL);
    assert_int_equal(f->reply.tracker->nbuttons, 0);
    assert_non_null(strstr(v2_all(f->reply.tracker, all, sizeof all),
                           "finished"));
}

static void test_tracker_refusal_carries_no_tracker(void **state)
{
    struct fix *f = *state;
    small_fight(f, "generic");
    assert_true(run(f, GM, "combat", "begin", NULL));
    int64_t v = f->reply.version;
    /* Bob may not end Aria's turn */
    assert_false(run(f, BOB, "combat", "next", NULL));
    assert_null(f->reply.tracker);
    assert_int_equal(f->reply.tracker_mode, CMD_TRACKER_NONE);
    /* a stale button: refused privately with the current tracker, no
     * change */
    f->expect_fight = cmd_fx_fight(f->store);
    f->expect_version = v - 1;
    assert_false(run(f, ALICE, "combat", "next", NULL));
    assert_true(f->reply.ephemeral);
    assert_false(f->reply.changed);
    assert_null(f->reply.tracker);
    assert_non_null(strstr(f->reply.msg.content, "older state"));
    assert_int_equal(f->reply.msg.nembeds, 1);
    /* the right version acts */
    f->expect_version = v;
    assert_true(run(f, ALICE, "combat", "next", NULL));
    assert_int_equal(f->reply.version, v + 1);
    /* a button of this fight does nothing to the next fight in the
     * channel, even at a version the new fight has reached */
    uint64_t old = f->expect_fight;
    assert_true(run(f, GM, "combat", "end", "confirm", "true", NULL));
    small_fight(f, "generic");
    assert_true(run(f, GM, "combat", "begin", NULL));
    f->expect_fight = old;
    f->expect_version = f->reply.version;
    assert_false(run(f, GM, "combat", "undo", NULL));
    assert_non_null(strstr(f->reply.msg.content, "earlier fight"));
    assert_false(f->reply.changed);
}

static void test_tracker_alternating_controls(void **state)
{
    struct fix *f = *state;
    small_fight(f, "factions");
    assert_true(run(f, GM, "combat", "begin", "first", "Blue", NULL));
    const struct msg *t = f->reply.tracker;
    assert_non_null(t);
    /* Blue chooses: a menu of its members (no hidden ones), and Pass */
    assert_null(find_button(t, "End turn"));
    assert_non_null(find_button(t, "Pass"));
    assert_non_null(find_button(t, "Undo (GM)"));
    assert_int_equal(t->select.noptions, 2);
    assert_string_equal(t->select.options[0].value, "Aria");
    assert_string_equal(t->select.options[1].value, "Bryn");
    struct custom_id cid;
    assert_true(custom_id_parse(t->select.custom_id, &cid));
    assert_string_equal(cid.sub, "pick");
    assert_string_equal(cid.opt_name, "name");
    assert_false(cid.has_value);
    /* the whole message is valid for Discord: one container whose last
     * two children are the rows of the buttons and the menu */
    json_t *body = render_discord_message(t, false);
    free(check_v2(body));
    json_t *top = json_object_get(body, "components");
    assert_int_equal(json_array_size(top), 1);
    json_t *kids = json_object_get(json_array_get(top, 0), "components");
    size_t nk = json_array_size(kids);
    assert_true(nk >= 3);
    assert_int_equal(json_integer_value(json_object_get(
                         json_array_get(kids, nk - 1), "type")), 1);
    assert_int_equal(json_integer_value(json_object_get(
                         json_array_get(kids, nk - 2), "type")), 1);
    json_decref(body);
    /* once Aria has acted, only Bryn is offered for Blue */
    assert_true(run(f, ALICE, "combat", "pick", "name", "Aria", NULL));
    assert_non_null(find_button(f->reply.tracker, "End turn"));
    assert_int_equal(f->reply.tracker->select.noptions, 0);
    assert_true(run(f, ALICE, "combat", "next", NULL));
    t = f->reply.tracker;
    assert_int_equal(t->select.noptions, 2);
    assert_string_equal(t->select.options[0].value, "Goblin 1");
    assert_true(run(f, GM, "combat", "pick", "name", "Goblin 1", NULL));
    assert_true(run(f, GM, "combat", "next", NULL));
    t = f->reply.tracker;
    assert_int_equal(t->select.noptions, 1);
    assert_string_equal(t->select.options[0].value, "Bryn");
}

static void test_tracker_console_has_none(void **state)
{
    struct fix *f = *state;
    struct cmd_req req = {
        .source = CMD_SRC_CONSOLE, .command = "combat", .sub = "start",
        .channel_id = 1, .user_id = GM, .expect_version = -1,
        .opts = {{"system", "generic"}}, .nopts = 1,
    };
    cmd_reply_cleanup(&f->reply);
    assert_true(cmd_exec(&f->ctx, &req, &f->reply));
    assert_false(f->reply.is_error);
    assert_null(f->reply.tracker);
}

/* ---- turn notice --------------------------------------------------- */

static void test_turn_notice_mentions_only_the_owner(void **state)
{
    struct fix *f = *state;
    small_fight(f, "generic");
    assert_true(run(f, ALICE, "combat", "condition", "name", "Aria",
                    "condition", "Blessed", "rounds", "2", NULL));
    assert_true(run(f, GM, "combat", "begin", NULL));
    assert_int_equal(f->reply.turn_user, ALICE);
    json_t *body = render_discord_message(&f->reply.msg, false);
    json_t *am = json_object_get(body, "allowed_mentions");
    assert_int_equal(json_array_size(json_object_get(am, "parse")), 0);
    assert_int_equal(json_array_size(json_object_get(am, "users")), 1);
    assert_string_equal(json_string_value(json_array_get(
                            json_object_get(am, "users"), 0)), "200");
    /* a V2 message (docs/internals/v2.md, turn notices): the notice,
     * with where Aria stands (hp and conditions), is the Section beside
     * the Attack button, after the events */
    assert_null(json_object_get(body, "content"));
    assert_null(json_object_get(body, "embeds"));
    assert_true(json_integer_value(json_object_get(body, "flags")) &
                RENDER_DC_FLAG_V2);
    json_t *kids = json_object_get(json_array_get(json_object_get(body,
                                                  "components"), 0),
                                   "components");
    json_t *sec = NULL;
    for (size_t i = 0; i < json_array_size(kids) && sec == NULL; i++)
        if (json_integer_value(json_object_get(json_array_get(kids, i),
                                               "type")) == 9)
            sec = json_array_get(kids, i);
    assert_non_null(sec);
    assert_string_equal(json_string_value(json_object_get(json_array_get(
                            json_object_get(sec, "components"), 0),
                                                          "content")),
                        "<@200>, it is your turn: **Aria** hp 20/20 \xC2\xB7 "
                        "Blessed (2r)");
    json_t *acc = json_object_get(sec, "accessory");
    assert_string_equal(json_string_value(json_object_get(acc, "label")),
                        "Attack");
    json_decref(body);
    /* the tracker itself pings nobody */
    body = render_discord_message(f->reply.tracker, false);
    am = json_object_get(body, "allowed_mentions");
    assert_int_equal(json_array_size(json_object_get(am, "users")), 0);
    json_decref(body);
    assert_true(run(f, GM, "combat", "settings", "notices", "false", NULL));
    assert_true(run(f, ALICE, "combat", "next", NULL));
    assert_int_equal(f->reply.turn_user, 0);
    assert_int_equal(f->reply.msg.nmentions, 0);
}

/* ---- autocomplete -------------------------------------------------- */

static void test_complete_combatants_by_ownership(void **state)
{
    struct fix *f = *state;
    assert_string_equal(complete(f, ALICE, "combat", "hp", "name", ""), "");
    small_fight(f, "generic");
    assert_string_equal(complete(f, ALICE, "combat", "hp", "name", ""),
                        "Aria");
    assert_string_equal(complete(f, BOB, "combat", "remove", "name", ""),
                        "Bryn");
    assert_string_equal(complete(f, ALICE, "attack", NULL, "target", ""),
                        "Goblin 1,Goblin 2,Aria,Bryn");
    assert_string_equal(complete(f, GM, "combat", "hp", "name", ""),
                        "Goblin 1,Goblin 2,Shade,Aria,Bryn");
    /* a member with Manage Channels is a GM too */
    f->perms = CMD_PERM_MANAGE_CHANNELS;
    struct cmd_req req = {
        .source = CMD_SRC_DISCORD, .command = "combat", .sub = "hp",
        .channel_id = 1, .user_id = BOB, .perms_known = true,
        .perms = CMD_PERM_MANAGE_CHANNELS, .expect_version = -1,
        .opts = {{"name", "sh"}}, .nopts = 1,
    };
    struct msg m;
    msg_init(&m);
    assert_true(cmd_complete(&f->ctx, &req, "name", &m));
    assert_int_equal(m.select.noptions, 1);
    assert_string_equal(m.select.options[0].value, "Shade");
    msg_cleanup(&m);
}

/* resource: offers the resources of the combatant in name:, and a
 * hidden one's to the GM alone (issue 32, item 3). */
static const char *complete_res(struct fix *f, uint64_t user,
                                const char *who)
{
    struct cmd_req req = {
        .source = CMD_SRC_DISCORD, .command = "combat", .sub = "resource",
        .channel_id = 1, .guild_id = GUILD, .user_id = user,
        .perms_known = true, .expect_version = -1,
        .opts = {{"name", who}, {"resource", ""}}, .nopts = 2,
    };
    return complete_req(f, &req, "resource");
}

static void test_complete_resources(void **state)
{
    struct fix *f = *state;
    small_fight(f, "generic");
    assert_true(run(f, GM, "combat", "resource", "name", "Shade", "resource",
                    "Veil", "action", "add", "max", "1", NULL));
    assert_true(run(f, ALICE, "combat", "resource", "name", "Aria",
                    "resource", "Reaction", "action", "add", "max", "1",
                    "reset", "round", NULL));
    assert_true(run(f, ALICE, "combat", "resource", "name", "Aria",
                    "resource", "Slots", "action", "add", "max", "2", NULL));
    assert_string_equal(complete_res(f, ALICE, "Aria"), "Reaction,Slots");
    assert_string_equal(complete_res(f, BOB, "Aria"), "Reaction,Slots");
    assert_string_equal(complete_res(f, ALICE, "Shade"), "");
    assert_string_equal(complete_res(f, GM, "Shade"), "Veil");
}

/* Countdowns (issue 32, item 2): the players' V2 tracker shows the
 * visible one alone, the GM's every one; name: offers the fight's
 * countdowns, a hidden one's (or one counting a hidden combatant's turns)
 * to the GM alone. */
static void test_countdown_tracker_and_complete(void **state)
{
    struct fix *f = *state;
    small_fight(f, "generic");
    assert_true(run(f, GM, "combat", "countdown", "name", "Bridge",
                    "rounds", "2", NULL));
    assert_true(run(f, GM, "combat", "countdown", "name", "Eclipse",
                    "rounds", "1", "hidden", "true", NULL));
    assert_true(run(f, GM, "combat", "countdown", "name", "Ritual",
                    "turns", "1", "of", "Shade", NULL));
    assert_false(run(f, ALICE, "combat", "countdown", "name", "Mine",
                     "rounds", "1", NULL));
    assert_true(run(f, GM, "combat", "begin", NULL));
    char all[8192];
    const struct msg *t = f->reply.tracker;
    assert_non_null(t);
    v2_all(t, all, sizeof all);
    assert_non_null(strstr(all, "Bridge** in 2 rounds"));
    assert_null(strstr(all, "Eclipse"));
    assert_null(strstr(all, "Ritual"));
    assert_true(run(f, GM, "combat", "status", "private", "true", NULL));
    v2_all(&f->reply.msg, all, sizeof all);
    assert_non_null(strstr(all, "Eclipse** in 1 round (hidden)"));
    assert_non_null(strstr(all, "Ritual** in 1 turn of Shade (hidden)"));
    assert_string_equal(complete(f, ALICE, "combat", "countdown", "name", ""),
                        "Bridge");
    assert_string_equal(complete(f, GM, "combat", "countdown", "name", ""),
                        "Bridge,Eclipse,Ritual");
}

static void test_complete_best_matches_first(void **state)
{
    struct fix *f = *state;
    assert_true(run(f, GM, "combat", "start", "system", "generic", NULL));
    assert_true(run(f, GM, "combat", "add", "name", "Archer", NULL));
    assert_true(run(f, GM, "combat", "add", "name", "Goblin Archer", NULL));
    assert_true(run(f, GM, "combat", "add", "name", "Marcher", NULL));
    assert_true(run(f, GM, "combat", "add", "name", "Arch", NULL));
    assert_true(run(f, GM, "combat", "add", "name", "Bob", NULL));
    /* exact, then prefix, then a word, then inside; others left out */
    assert_string_equal(complete(f, GM, "combat", "hp", "name", "arch"),
                        "Arch,Archer,Goblin Archer,Marcher");
    assert_string_equal(complete(f, GM, "combat", "hp", "name", "zz"), "");
}

static void test_complete_at_most_25(void **state)
{
    struct fix *f = *state;
    assert_true(run(f, GM, "combat", "start", "system", "generic", NULL));
    assert_true(run(f, GM, "combat", "add", "name", "Rat", "count", "20",
                    NULL));
    assert_true(run(f, GM, "combat", "add", "name", "Bat", "count", "20",
                    NULL));
    const char *all = complete(f, GM, "combat", "hp", "name", "");
    int n = 1;
    for (const char *p = all; *p; p++)
        n += *p == ',';
    assert_int_equal(n, 25);
    /* what was typed narrows before the cut */
    assert_true(strncmp(complete(f, GM, "combat", "hp", "name", "bat"),
                        "Bat 1,Bat 2", 11) == 0);
}

static void test_complete_conditions_systems_sides_topics(void **state)
{
    struct fix *f = *state;
    /* no fight: the common conditions */
    assert_string_equal(complete(f, ALICE, "combat", "condition",
                                 "condition", "stun"), "Stunned");
    small_fight(f, "factions");
    assert_string_equal(complete(f, ALICE, "combat", "condition",
                                 "condition", "con"), "Concealed");
    /* conditions already on someone are offered too */
    assert_true(run(f, GM, "combat", "condition", "name", "Aria",
                    "condition", "Marked by Fate", NULL));
    assert_string_equal(complete(f, ALICE, "combat", "condition",
                                 "condition", "fate"), "Marked by Fate");
    assert_string_equal(complete(f, GM, "combat", "add", "side", ""),
                        "Red,Blue");
    assert_string_equal(complete(f, GM, "combat", "start", "system", "gen"),
                        "generic");
    assert_string_equal(complete(f, GM, "help", NULL, "topic", "quick"),
                        "quickstart");
    /* an option without completion, and an unknown one */
    assert_string_equal(complete(f, GM, "roll", NULL, "dice", "1d"), "");
    assert_string_equal(complete(f, GM, "roll", NULL, "nope", "x"), "");
}

/* ---- /config and the GM's copies ----------------------------------- */

static void test_config_gm_channel(void **state)
{
    struct fix *f = *state;
    assert_false(run(f, ALICE, "config", NULL, "gm-channel", "555", NULL));
    assert_true(f->reply.ephemeral);
    f->perms = ADMIN;
    assert_true(run(f, ALICE, "config", NULL, "gm-channel", "555", NULL));
    assert_true(f->reply.ephemeral);
    assert_non_null(strstr(f->reply.msg.content, "<#555>"));
    f->perms = CMD_PERM_MANAGE_GUILD;
    assert_true(run(f, BOB, "config", NULL, NULL));
    assert_non_null(strstr(f->reply.msg.content, "<#555>"));
    /* a secret roll: private, with a copy for the GM channel */
    assert_true(run(f, BOB, "roll", NULL, "dice", "2d6", "secret", "true",
                    NULL));
    assert_true(f->reply.ephemeral);
    assert_non_null(f->reply.gm_copy);
    assert_int_equal(f->reply.gm_channel, 555);
    assert_non_null(strstr(f->reply.gm_copy->embeds[0].title,
                           "rolls in secret"));
    /* an open roll has no copy */
    assert_true(run(f, BOB, "roll", NULL, "dice", "2d6", NULL));
    assert_null(f->reply.gm_copy);
    assert_int_equal(f->reply.gm_channel, 0);
    /* cleared: the copy has nowhere to go */
    f->perms = ADMIN;
    assert_false(run(f, GM, "config", NULL, "gm-channel", "5", "clear",
                     "true", NULL));
    f->perms = ADMIN;
    assert_true(run(f, GM, "config", NULL, "clear", "true", NULL));
    assert_true(run(f, BOB, "roll", NULL, "dice", "2d6", "secret", "true",
                    NULL));
    assert_int_equal(f->reply.gm_channel, 0);
}

/* The GM channel the store holds for GUILD, 0 when none. */
static uint64_t stored_gm_channel(struct fix *f)
{
    return cmd_config_gm_channel(f->store, GUILD);
}

/* A refusal of /config: ephemeral, says why, and nothing was stored. */
static void assert_config_refused(struct fix *f, uint64_t before,
                                  const char *why)
{
    assert_true(f->reply.is_error);
    assert_true(f->reply.ephemeral);
    assert_false(f->reply.guild_commands);
    if (strstr(f->reply.msg.content, why) == NULL)
        fail_msg("expected \"%s\" in: %s", why, f->reply.msg.content);
    assert_int_equal(stored_gm_channel(f), before);
}

static void test_config_manage_server_allowed(void **state)
{
    struct fix *f = *state;
    f->perms = CMD_PERM_MANAGE_GUILD;
    assert_true(run(f, ALICE, "config", NULL, "gm-channel", "555", NULL));
    assert_int_equal(stored_gm_channel(f), 555);
    f->perms = CMD_PERM_MANAGE_GUILD;
    assert_true(run(f, ALICE, "config", NULL, "systems", "generic,teams",
                    NULL));
    assert_true(f->reply.guild_commands);
    f->perms = CMD_PERM_MANAGE_GUILD;
    assert_true(run(f, ALICE, "config", NULL, "clear", "true", NULL));
    assert_int_equal(stored_gm_channel(f), 0);
}

static void test_config_administrator_allowed(void **state)
{
    struct fix *f = *state;
    f->perms = ADMIN;
    assert_true(run(f, ALICE, "config", NULL, "gm-channel", "777", NULL));
    assert_int_equal(stored_gm_channel(f), 777);
    f->perms = ADMIN;
    assert_true(run(f, ALICE, "config", NULL, NULL));
    assert_non_null(strstr(f->reply.msg.content, "<#777>"));
}

/* member.permissions includes the channel's overwrites: Manage Channels
 * may be a grant on the sender's own room (a temporary voice channel's
 * owner has exactly that), so it decides nothing server-wide. */
static void test_config_manage_channels_refused(void **state)
{
    struct fix *f = *state;
    f->perms = ADMIN;
    assert_true(run(f, GM, "config", NULL, "gm-channel", "555", NULL));
    f->perms = CMD_PERM_MANAGE_CHANNELS;
    assert_false(run(f, BOB, "config", NULL, "gm-channel", "777", NULL));
    assert_config_refused(f, 555, "needs the Manage Server permission");
    /* the refusal is short: one line, no hint */
    assert_null(strchr(f->reply.msg.content, '\n'));
    assert_true(strlen(f->reply.msg.content) < 120);
    f->perms = CMD_PERM_MANAGE_CHANNELS | CMD_PERM_MANAGE_MESSAGES;
    assert_false(run(f, BOB, "config", NULL, "clear", "true", NULL));
    assert_config_refused(f, 555, "Manage Server");
    f->perms = CMD_PERM_MANAGE_CHANNELS;
    assert_false(run(f, BOB, "config", NULL, "systems", "teams", NULL));
    assert_config_refused(f, 555, "Manage Server");
    f->perms = CMD_PERM_MANAGE_CHANNELS;
    assert_false(run(f, BOB, "config", NULL, NULL));
    assert_config_refused(f, 555, "Manage Server");
    /* no permissions at all */
    assert_false(run(f, BOB, "config", NULL, "gm-channel", "777", NULL));
    assert_config_refused(f, 555, "Manage Server");
    /* ... while in this channel Manage Channels still makes a GM */
    small_fight(f, "generic");
    f->perms = CMD_PERM_MANAGE_CHANNELS;
    assert_true(run(f, BOB, "combat", "add", "name", "Wolf", "hp", "5",
                    NULL));
}

/* gm-channel takes a channel only as Discord resolved it: of this server,
 * a text or announcement channel. */
static void test_config_gm_channel_must_be_resolved(void **state)
{
    struct fix *f = *state;
    static const char *const refused[][2] = {
        {"999", "pick a channel of this server"},   /* not resolved */
        {"700", "pick a channel of this server"},   /* another server's */
        {"600", "is not a text channel"},           /* voice */
        {"601", "is not a text channel"},           /* a thread */
        {"603", "is not a text channel"},           /* a forum */
    };
    f->perms = ADMIN;
    assert_true(run(f, GM, "config", NULL, "gm-channel", "555", NULL));
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        f->perms = ADMIN;
        assert_false(run(f, GM, "config", NULL, "gm-channel", refused[i][0],
                         NULL));
        assert_config_refused(f, 555, refused[i][1]);
    }
    /* resolved, but without its server */
    struct cmd_req req = {
        .source = CMD_SRC_DISCORD, .command = "config", .channel_id = 1,
        .guild_id = GUILD, .user_id = GM, .perms = ADMIN,
        .perms_known = true, .expect_version = -1,
        .opts = {{"gm-channel", "777"}}, .nopts = 1,
        .channels = {{777, 0, CMD_CHANNEL_TEXT}}, .nchannels = 1,
    };
    cmd_reply_cleanup(&f->reply);
    assert_true(cmd_exec(&f->ctx, &req, &f->reply));
    assert_config_refused(f, 555, "pick a channel of this server");
    /* an announcement channel is a text channel */
    f->perms = ADMIN;
    assert_true(run(f, GM, "config", NULL, "gm-channel", "602", NULL));
    assert_int_equal(stored_gm_channel(f), 602);
}

static void test_config_not_in_dm(void **state)
{
    struct fix *f = *state;
    struct cmd_req req = {
        .source = CMD_SRC_DISCORD, .command = "config", .channel_id = 1,
        .user_id = ALICE, .expect_version = -1,
        .opts = {{"gm-channel", "555"}}, .nopts = 1,
    };
    cmd_reply_cleanup(&f->reply);
    assert_true(cmd_exec(&f->ctx, &req, &f->reply));
    assert_true(f->reply.is_error);
    assert_non_null(strstr(f->reply.msg.content, "server's channel"));
}

static void test_hidden_attack_copy_goes_to_gm_channel(void **state)
{
    struct fix *f = *state;
    f->perms = ADMIN;
    assert_true(run(f, GM, "config", NULL, "gm-channel", "777", NULL));
    small_fight(f, "generic");
    assert_true(run(f, GM, "combat", "set", "name", "Aria", "stats", "ac=12",
                    NULL));
    assert_true(run(f, GM, "combat", "set", "name", "Shade", "stats",
                    "attack=4", NULL));
    assert_true(run(f, GM, "combat", "begin", NULL));
    assert_true(run(f, GM, "attack", NULL, "attacker", "Shade", "target",
                    "Aria", "damage", "1d4", NULL));
    assert_non_null(f->reply.gm_copy);
    assert_int_equal(f->reply.gm_channel, 777);
    assert_null(strstr(f->reply.msg.embeds[0].description, " vs "));
    assert_non_null(strstr(f->reply.gm_copy->embeds[0].description, " vs "));
}

/* ---- big fights fit Discord ---------------------------------------- */

/* Characters (code points) of the text of every embed of body together,
 * and fail if any one field breaks its own limit or a note says the
 * Discord renderer had to shorten something. */
static size_t check_embeds(json_t *body)
{
    size_t total = 0, i;
    json_t *e;
    char *dump = json_dumps(body, 0);
    assert_null(strstr(dump, "(shortened)"));
    assert_null(strstr(dump, "cut short"));
    free(dump);
    json_array_foreach(json_object_get(body, "embeds"), i, e) {
        const char *t = json_string_value(json_object_get(e, "title"));
        const char *d = json_string_value(json_object_get(e, "description"));
        const char *f = json_string_value(json_object_get(
            json_object_get(e, "footer"), "text"));
        assert_true(render_discord_chars(t) <= RENDER_DC_TITLE_MAX);
        assert_true(render_discord_chars(d) <= RENDER_DC_DESC_MAX);
        total += render_discord_chars(t) + render_discord_chars(d) +
                 render_discord_chars(f);
    }
    assert_true(total <= RENDER_DC_EMBED_TOTAL_MAX);
    return total;
}

/* 40 combatants with names near the limit, 16 long conditions and a long
 * note each: the fullest tracker a fight can have. */
static void huge_fight(struct fix *f)
{
    static const char *conds[] = {
        "Poisoned by the Wyrm's Venom", "Burning with Greek Fire",
        "Frightened of the Dark", "Blessed by the Morning Star",
        "Slowed by Ancient Ice Magic", "Grappled by Tentacles",
        "Bleeding from Many Cuts", "Hasted by the Archmage",
        "Cursed with Lycanthropy", "Marked for Death by Orcs",
        "Deafened by Thunderclap", "Charmed by the Siren Queen",
        "Restrained by Iron Chains", "Exhausted from the March",
        "Concentrating on a Ward", "Invisible to Undead Eyes",
    };
    char note[201];
    memset(note, 'n', 200);
    note[200] = '\0';
    assert_true(run(f, GM, "combat", "start", "system", "generic", "name",
                    "The Siege of the Thousand-Year Citadel of Glass", NULL));
    assert_true(run(f, GM, "combat", "add", "name",
                    "Captain of the Ironbound Shield Guard of the North",
                    "count", "20", "hp", "999999", NULL));
    assert_true(run(f, GM, "combat", "add", "name",
                    "Sergeant of the Ironbound Shield Guard of the Sout",
                    "count", "20", "hp", "999999", NULL));
    struct cmd_req req;
    (void)req;
    for (int i = 1; i <= 20; i++)
        for (int k = 0; k < 2; k++) {
            char name[80];
            snprintf(name, sizeof name, "%s of the Ironbound Shield Guard "
                     "of the %s %d", k ? "Sergeant" : "Captain",
                     k ? "Sout" : "North", i);
            for (int c = 0; c < 16; c++)
                assert_true(run(f, GM, "combat", "condition", "name", name,
                                "condition", conds[c], "rounds", "100",
                                "value", "9", NULL));
            assert_true(run(f, GM, "combat", "set", "name", name, "note",
                            note, NULL));
        }
}

static void test_huge_tracker_fits_an_embed(void **state)
{
    struct fix *f = *state;
    huge_fight(f);
    assert_true(run(f, GM, "combat", "begin", NULL));
    /* the live tracker, with its buttons: it folds at Discord's limits
     * around the running turn and says where the rest is */
    json_t *body = render_discord_message(f->reply.tracker, false);
    char *text = check_v2(body);
    assert_non_null(strstr(text, "\xE2\x96\xB6 "));     /* whose turn */
    assert_non_null(strstr(text, "more: /combat status"));
    json_decref(body);
    free(text);
    /* the reply: the events (classic) */
    body = render_discord_message(&f->reply.msg, false);
    check_embeds(body);
    json_decref(body);
    /* a few turns on, the window follows the turn */
    for (int i = 0; i < 30; i++)
        assert_true(run(f, GM, "combat", "next", NULL));
    body = render_discord_message(f->reply.tracker, false);
    text = check_v2(body);
    if (getenv("TEST_VERBOSE")) printf("%s\n", text);
    assert_non_null(strstr(text, "more: /combat status"));
    assert_non_null(strstr(text, "\xE2\x96\xB6 "));
    json_decref(body);
    free(text);
    /* status, public and the GM's private one */
    assert_true(run(f, ALICE, "combat", "status", NULL));
    body = render_discord_message(&f->reply.msg, false);
    free(check_v2(body));
    json_decref(body);
    assert_true(run(f, GM, "combat", "status", "private", "true", NULL));
    body = render_discord_message(&f->reply.msg, true);
    free(check_v2(body));
    json_decref(body);
}

static void test_forty_plain_combatants_all_listed(void **state)
{
    struct fix *f = *state;
    assert_true(run(f, GM, "combat", "start", "system", "generic", NULL));
    assert_true(run(f, GM, "combat", "add", "name", "Skeleton Warrior",
                    "count", "20", "hp", "13", NULL));
    assert_true(run(f, GM, "combat", "add", "name", "Zombie Shambler",
                    "count", "20", "hp", "22", NULL));
    assert_true(run(f, GM, "combat", "begin", NULL));
    /* one side, so no row has a button: the rows run together in one
     * Text Display and every one of the 40 is there */
    json_t *body = render_discord_message(f->reply.tracker, false);
    char *text = check_v2(body);
    assert_null(strstr(text, "more: /combat status"));
    assert_non_null(strstr(text, "Skeleton Warrior 20"));
    assert_non_null(strstr(text, "Zombie Shambler 20"));
    json_decref(body);
    free(text);
}

/* ---- the tracker in Components V2 ----------------------------------- */

/* With FRAY_SHOW_V2 set: the body sent and the console text of m. */
static void show_v2(const char *what, const struct msg *m)
{
    if (getenv("FRAY_SHOW_V2") == NULL)
        return;
    char *text = render_discord_message_text(m, false, NULL);
    struct sbuf con;
    sbuf_init(&con, RENDER_TEXT_MAX);
    render_text(m, NULL, &con);
    printf("==== %s: JSON (%zu bytes)\n%s\n==== %s: console\n%s", what,
           strlen(text), text, what, sbuf_str(&con));
    sbuf_cleanup(&con);
    free(text);
}

/* /combat begin: the tracker's body (*body, new) checked as V2, and its
 * text (the caller frees). */
static char *begin_v2(struct fix *f, const char *what, json_t **body)
{
    assert_true(run(f, GM, "combat", "begin", NULL));
    show_v2(what, f->reply.tracker);
    *body = render_discord_message(f->reply.tracker, false);
    return check_v2(*body);
}

/* The accessory ids of m's rows labelled Attack, as the clicks send them. */
static int attack_ids(const struct msg *m, char ids[][CUSTOM_ID_MAX + 1],
                      int max)
{
    int n = 0;
    for (int i = 0; m->v2 != NULL && i < m->v2->nparts && n < max; i++) {
        const struct msg_button *a = &m->v2->parts[i].accessory;
        if (a->custom_id != NULL && strcmp(a->label, "Attack") == 0)
            snprintf(ids[n++], CUSTOM_ID_MAX + 1, "%s", a->custom_id);
    }
    return n;
}

static void test_v2_tracker_eight_with_conditions_fit(void **state)
{
    struct fix *f = *state;
    assert_true(run(f, GM, "combat", "start", "system", "generic", "name",
                    "Bridge ambush", NULL));
    assert_true(run(f, GM, "combat", "add", "name", "Goblin", "count", "4",
                    "hp", "7", "init", "=5", "stats", "ac=12", NULL));
    assert_true(run(f, GM, "combat", "add", "name", "Shade", "hp", "9",
                    "hidden", "true", "init", "=1", NULL));
    assert_true(run(f, ALICE, "combat", "join", "name", "Aria", "hp", "20",
                    "init", "=30", NULL));
    assert_true(run(f, ALICE, "combat", "join", "name", "Wolf", "hp", "11",
                    "init", "=12", NULL));
    assert_true(run(f, BOB, "combat", "join", "name", "Bryn", "hp", "18",
                    "init", "=20", NULL));
    static const char *const conds[][2] = {
        {"Goblin 1", "Poisoned"}, {"Goblin 2", "Prone"},
        {"Goblin 3", "Frightened"}, {"Aria", "Blessed"},
        {"Bryn", "Restrained"}, {"Wolf", "Hidden"}, {"Shade", "Invisible"},
        {"Goblin 4", "Stunned"},
    };
    for (size_t i = 0; i < sizeof conds / sizeof conds[0]; i++)
        assert_true(run(f, GM, "combat", "condition", "name", conds[i][0],
                        "condition", conds[i][1], "rounds", "3", "custom",
                        "true", NULL));
    json_t *body;
    char *text = begin_v2(f, "8 combatants", &body);
    const struct msg *t = f->reply.tracker;
    /* all eight in one message: nothing folded */
    assert_null(strstr(text, "more:"));
    for (size_t i = 0; i < sizeof conds / sizeof conds[0]; i++)
        if (strcmp(conds[i][0], "Shade") != 0) {
            assert_non_null(strstr(text, conds[i][0]));
            assert_non_null(strstr(text, conds[i][1]));
        }
    assert_null(strstr(text, "Shade"));          /* hidden stays hidden */
    assert_null(strstr(text, "Invisible"));
    char *dump = json_dumps(body, 0);
    assert_null(strstr(dump, "Shade"));
    free(dump);
    free(text);
    json_decref(body);
    /* Aria's turn: an Attack on each visible goblin, none on her side */
    char ids[16][CUSTOM_ID_MAX + 1];
    int n = attack_ids(t, ids, 16);
    assert_int_equal(n, 4);
    struct custom_id cid;
    assert_true(custom_id_parse(ids[0], &cid));
    assert_string_equal(cid.command, "attack");
    assert_string_equal(cid.opt_name, "target");
    assert_true(strncmp(cid.opt_value, "Goblin ", 7) == 0);
    assert_int_equal(cid.version, f->reply.version);
    /* Bob clicks it: not his turn, refused as /attack refuses him */
    f->expect_fight = cid.fight;
    f->expect_version = cid.version;
    assert_false(run(f, BOB, "attack", NULL, "target", cid.opt_value, NULL));
    assert_non_null(strstr(f->reply.msg.content, "Aria's turn"));
    assert_false(f->reply.changed);
    /* Alice clicks it: Aria attacks, through the same /attack */
    f->expect_fight = cid.fight;
    f->expect_version = cid.version;
    if (!run(f, ALICE, "attack", NULL, "target", cid.opt_value, NULL))
        fail_msg("refused: %s", f->reply.msg.content ? f->reply.msg.content
                 : f->reply.msg.embeds[0].description);
    assert_true(f->reply.changed);
    assert_int_equal(f->reply.version, cid.version + 1);
}

static void test_v2_tracker_forty_fold(void **state)
{
    struct fix *f = *state;
    assert_true(run(f, GM, "combat", "start", "system", "generic", NULL));
    assert_true(run(f, GM, "combat", "add", "name", "Skeleton", "count",
                    "19", "hp", "13", NULL));
    assert_true(run(f, GM, "combat", "add", "name", "Zombie", "count",
                    "19", "hp", "22", NULL));
    assert_true(run(f, ALICE, "combat", "join", "name", "Aria", "hp", "20",
                    "init", "=30", NULL));
    assert_true(run(f, BOB, "combat", "join", "name", "Bryn", "hp", "18",
                    "init", "=29", NULL));
    assert_true(run(f, GM, "combat", "condition", "name", "Zombie 19",
                    "condition", "Prone", "rounds", "2", "custom", "true",
                    NULL));
    json_t *body;
    char *text = begin_v2(f, "40 combatants", &body);
    /* folded visibly, around Aria's turn, with the controls kept */
    assert_non_null(strstr(text, "more: /combat status"));
    assert_non_null(strstr(text, "\xE2\x96\xB6 "));
    assert_non_null(strstr(text, "**Aria**"));
    char *dump = json_dumps(body, 0);
    assert_non_null(strstr(dump, "End turn"));
    free(dump);
    free(text);
    json_decref(body);
}

/* Every system's tracker is a valid V2 message, at setup, running, and
 * ended, hidden combatants unnamed. */
static void test_v2_tracker_every_system(void **state)
{
    struct fix *f = *state;
    static const char *const systems[] = {"generic", "teams", "factions",
                                          "resolve", "cards", "tactical"};
    for (size_t i = 0; i < sizeof systems / sizeof systems[0]; i++) {
        if (!run(f, GM, "combat", "start", "system", systems[i], NULL))
            fail_msg("%s: %s", systems[i], f->reply.msg.content
                     ? f->reply.msg.content
                     : f->reply.msg.embeds[0].description);
        bool sides = strcmp(systems[i], "generic") != 0;
        if (!run(f, GM, "combat", "add", "name", "Goblin", "count", "2",
                 "hp", "7", sides ? "side" : "init", sides ? "Red" : "=5",
                 NULL))
            fail_msg("%s: %s", systems[i], f->reply.msg.content
                     ? f->reply.msg.content
                     : f->reply.msg.embeds[0].description);
        assert_true(run(f, GM, "combat", "add", "name", "Shade", "hp", "9",
                        "hidden", "true", sides ? "side" : "init",
                        sides ? "Red" : "=1", NULL));
        assert_true(run(f, ALICE, "combat", "join", "name", "Aria", "hp",
                        "20", sides ? "side" : "init", sides ? "Blue" : "=30",
                        NULL));
        assert_true(run(f, BOB, "combat", "join", "name", "Bryn", "hp", "18",
                        sides ? "side" : "init", sides ? "Blue" : "=20", NULL));
        bool alternating = strcmp(systems[i], "teams") == 0 ||
                           strcmp(systems[i], "factions") == 0;
        if (alternating)
            assert_true(run(f, GM, "combat", "begin", "first", "Blue", NULL));
        else
            assert_true(run(f, GM, "combat", "begin", NULL));
        json_t *body = render_discord_message(f->reply.tracker, false);
        char *text = check_v2(body);
        char *dump = json_dumps(body, 0);
        if (strstr(dump, "Shade") != NULL)
            fail_msg("%s: the hidden name in the tracker", systems[i]);
        free(dump);
        free(text);
        json_decref(body);
        assert_true(run(f, GM, "combat", "end", "confirm", "true", NULL));
        body = render_discord_message(f->reply.tracker, false);
        free(check_v2(body));
        json_decref(body);
        f->now_ms += 2 * CMD_REOPEN_MS;     /* past the reopen window */
    }
}

/* ---- help ----------------------------------------------------------- */

static void test_help_pages_fit_an_embed(void **state)
{
    struct fix *f = *state;
    const char *topics[64];
    size_t n = cmd_help_topics(topics, 64);
    assert_true(n >= 5);
    for (size_t i = 0; i < n; i++) {
        assert_true(run(f, ALICE, "help", NULL, "topic", topics[i], NULL));
        assert_true(f->reply.ephemeral);
        assert_int_equal(f->reply.msg.nembeds, 1);
        const char *d = f->reply.msg.embeds[0].description;
        json_t *body = render_discord_message(&f->reply.msg, true);
        check_embeds(body);
        json_decref(body);
        /* a system's page lists its own commands */
        const struct rs_system *rs = rs_find(topics[i]);
        for (int k = 0; rs != NULL && k < rs->ncmds; k++) {
            char want[48];
            snprintf(want, sizeof want, "`/%s%s%s`", rs->cmds[k].verb,
                     rs->cmds[k].sub ? " " : "",
                     rs->cmds[k].sub ? rs->cmds[k].sub : "");
            if (strstr(d, want) == NULL)
                fail_msg("/help topic:%s lacks %s", topics[i], want);
        }
    }
    /* an unknown topic says which there are */
    assert_false(run(f, ALICE, "help", NULL, "topic", "nope", NULL));
    assert_non_null(strstr(f->reply.msg.content, "quickstart"));
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_tracker_modes_follow_the_fight),
        T(test_tracker_refusal_carries_no_tracker),
        T(test_tracker_alternating_controls),
        T(test_tracker_console_has_none),
        T(test_turn_notice_mentions_only_the_owner),
        T(test_complete_combatants_by_ownership),
        T(test_complete_best_matches_first),
        T(test_complete_resources),
        T(test_countdown_tracker_and_complete),
        T(test_complete_at_most_25),
        T(test_complete_conditions_systems_sides_topics),
        T(test_config_gm_channel),
        T(test_config_manage_server_allowed),
        T(test_config_administrator_allowed),
        T(test_config_manage_channels_refused),
        T(test_config_gm_channel_must_be_resolved),
        T(test_config_not_in_dm),
        T(test_hidden_attack_copy_goes_to_gm_channel),
        T(test_huge_tracker_fits_an_embed),
        T(test_forty_plain_combatants_all_listed),
        T(test_v2_tracker_eight_with_conditions_fit),
        T(test_v2_tracker_forty_fold),
        T(test_v2_tracker_every_system),
        T(test_help_pages_fit_an_embed),
    };
#undef T
    return cmocka_run_group_tests_name("cmd_ux", tests, NULL, NULL);
}
