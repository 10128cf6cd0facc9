/* test_names.c - hostile names: mentions, zero-width and fullwidth tricks,
 * newlines, backticks and markdown, given as combatant names through
 * cmd_exec() as a Discord interaction would give them.
 *
 * Each name is either refused with an ephemeral error that changes nothing,
 * or stored and shown harmlessly: it round-trips through the store byte for
 * byte (also after closing and reopening the database file), and every
 * markdown field of the rendered Discord body (render_discord.c) shows it
 * only in its escaped form (msg_escape()), never raw. Every body carries
 * allowed_mentions with parse [] and exactly the users the command layer
 * chose, who are the players whose turn it is. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "enc_json.h"
#include "eng_rng.h"
#include "msg.h"
#include "render_discord.h"
#include "render_text.h"
#include "sbuf.h"
#include "store.h"

#define GUILD UINT64_C(88)
#define NOW_MS INT64_C(1700000000000)
#define ZWSP "\xe2\x80\x8b"

enum { U_GM = 2001, U_P1 = 2002, U_P2 = 2003 };

/* Names a user might try. must_refuse: a name that reads as a mention,
 * shows nothing at all, or turns the text around it backwards. */
static const struct {
    const char *name;
    bool must_refuse;
} names[] = {
    {"@everyone", true},
    {"@here", true},
    {"<@&1>", true},
    {"<@1>", true},
    {"<@!1>", true},
    {"<#1>", true},
    {"@" ZWSP "everyone", false},
    {"@" ZWSP "here", false},
    {"\xef\xbc\xa0" "everyone", false},               /* fullwidth @ */
    {"<" ZWSP "@1>", false},
    {"Ann @everyone", false},
    {"Ann\nBob", false},
    {"Ann\r\nBob", false},
    {"tab\there", false},
    {"`x`", false},
    {"```code```", false},
    {"**bold**", false},
    {"__under__", false},
    {"~~strike~~", false},
    {"||spoiler||", false},
    {"# head", false},
    {"> quote", false},
    {"[link](https://example.com)", false},
    {"back\\slash", false},
    {"<t:1700000000:R>", false},
    {"Ann\xe2\x80\xae" "evil", true},                   /* RTL override */
    {ZWSP, true},
    {"\xe2\x81\xa6" "Ann" "\xe2\x81\xa9", true},          /* LRI .. PDI */
};

/* Names that must be refused for what they hide, and a word the refusal
 * must use so the user knows what to fix. */
static const struct {
    const char *name, *why;
} hidden_names[] = {
    {ZWSP, "invisible"},                                      /* U+200B */
    {ZWSP ZWSP ZWSP, "invisible"},
    {"\xe2\x80\x8c" "\xe2\x80\x8d", "invisible"},             /* ZWNJ ZWJ */
    {"\xe2\x81\xa0", "invisible"},                             /* U+2060 */
    {"\xef\xbb\xbf", "invisible"},                             /* U+FEFF */
    {ZWSP " " ZWSP, "invisible"},
    {"Ann\xe2\x80\xaa" "x", "direction"},                      /* U+202A */
    {"Ann\xe2\x80\xab" "x", "direction"},                      /* U+202B */
    {"Ann\xe2\x80\xac", "direction"},                          /* U+202C */
    {"Ann\xe2\x80\xad" "x", "direction"},                      /* U+202D */
    {"\xe2\x80\xae" "nnA", "direction"},                       /* U+202E */
    {"\xe2\x81\xa6" "Ann", "direction"},                       /* U+2066 */
    {"\xe2\x81\xa7" "Ann", "direction"},                       /* U+2067 */
    {"\xe2\x81\xa8" "Ann", "direction"},                       /* U+2068 */
    {"Ann" "\xe2\x81\xa9", "direction"},                       /* U+2069 */
    {"An" ZWSP "n", "invisible"},             /* a look-alike of Ann */
    {"Ann\xe2\x80\x8f", "direction"},                          /* U+200F */
    {"\xd8\x9c" "Ann", "direction"},                            /* U+061C */
};

struct fix {
    char dir[64], path[96];
    struct store *store;
    struct eng_rng rng;
    struct cmd_ctx ctx;
};

static void fix_open(struct fix *f)
{
    char err[128];
    assert_int_equal(store_open(f->path, &f->store, err, sizeof err), BOT_OK);
    f->ctx.store = f->store;
    f->ctx.rng = &f->rng;
}

static int setup(void **state)
{
    struct fix *f = calloc(1, sizeof *f);
    assert_non_null(f);
    snprintf(f->dir, sizeof f->dir, "/tmp/fray-names-XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->path, sizeof f->path, "%s/names.db", f->dir);
    eng_rng_seed(&f->rng, 7);
    fix_open(f);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fix *f = *state;
    char cmd[128];
    store_close(f->store);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->dir);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", f->dir);
    free(f);
    return 0;
}

/* Run a command with up to three name/value options (NULL-terminated). */
static void run(struct fix *f, struct cmd_reply *r, uint64_t channel,
                uint64_t user, const char *command, const char *sub,
                const char *const *opts)
{
    struct cmd_req req;
    memset(&req, 0, sizeof req);
    req.source = CMD_SRC_DISCORD;
    req.command = command;
    req.sub = sub;
    for (int i = 0; opts && opts[2 * i]; i++) {
        req.opts[i].name = opts[2 * i];
        req.opts[i].value = opts[2 * i + 1];
        req.nopts++;
    }
    req.channel_id = channel;
    req.guild_id = GUILD;
    req.user_id = user;
    req.user_name = "someone";
    req.perms_known = true;
    req.expect_version = -1;
    req.now_ms = NOW_MS;
    cmd_reply_init(r);
    assert_true(cmd_exec(&f->ctx, &req, r));
}

static void run_ok(struct fix *f, uint64_t channel, uint64_t user,
                   const char *command, const char *sub,
                   const char *const *opts)
{
    struct cmd_reply r;
    run(f, &r, channel, user, command, sub, opts);
    if (r.is_error) {
        struct sbuf b;
        sbuf_init(&b, RENDER_TEXT_MAX);
        render_text(&r.msg, NULL, &b);
        fail_msg("/%s %s failed: %s", command, sub ? sub : "", sbuf_str(&b));
    }
    cmd_reply_cleanup(&r);
}

/* The fields Discord reads as markdown, joined with newlines. */
/* Every Text Display's content under components (a V2 message). */
static void v2_markdown(json_t *comps, struct sbuf *out)
{
    size_t i;
    json_t *c;
    json_array_foreach(comps, i, c) {
        const char *t = json_string_value(json_object_get(c, "content"));
        if (t && json_integer_value(json_object_get(c, "type")) == 10)
            sbuf_add(out, t), sbuf_addc(out, '\n');
        v2_markdown(json_object_get(c, "components"), out);
    }
}

static void markdown_text(json_t *body, struct sbuf *out)
{
    if (json_integer_value(json_object_get(body, "flags")) & 32768)
        v2_markdown(json_object_get(body, "components"), out);
    static const char *const embed_keys[] = {"title", "description"};
    json_t *e, *fl;
    size_t i, k;
    const char *c = json_string_value(json_object_get(body, "content"));
    if (c)
        sbuf_add(out, c), sbuf_addc(out, '\n');
    json_array_foreach(json_object_get(body, "embeds"), i, e) {
        for (size_t j = 0; j < 2; j++) {
            const char *v = json_string_value(json_object_get(e,
                                                              embed_keys[j]));
            if (v)
                sbuf_add(out, v), sbuf_addc(out, '\n');
        }
        json_array_foreach(json_object_get(e, "fields"), k, fl) {
            const char *n = json_string_value(json_object_get(fl, "name"));
            const char *v = json_string_value(json_object_get(fl, "value"));
            if (n)
                sbuf_add(out, n), sbuf_addc(out, '\n');
            if (v)
                sbuf_add(out, v), sbuf_addc(out, '\n');
        }
        const char *ft = json_string_value(
            json_object_get(json_object_get(e, "footer"), "text"));
        if (ft)
            sbuf_add(out, ft), sbuf_addc(out, '\n');
    }
}

/* allowed_mentions pings nobody but the msg's chosen users. */
static void assert_mentions_safe(json_t *body, const struct msg *m)
{
    json_t *am = json_object_get(body, "allowed_mentions");
    json_t *parse = json_object_get(am, "parse");
    json_t *users = json_object_get(am, "users");
    json_t *roles = json_object_get(am, "roles");
    size_t i;
    json_t *u;

    assert_non_null(am);
    assert_true(json_is_array(parse));
    assert_int_equal(json_array_size(parse), 0);
    assert_true(roles == NULL || json_array_size(roles) == 0);
    assert_false(json_is_true(json_object_get(am, "replied_user")));
    assert_true(json_is_array(users));
    assert_true(json_array_size(users) <= (size_t)m->nmentions);
    json_array_foreach(users, i, u) {
        char want[24];
        snprintf(want, sizeof want, "%llu",
                 (unsigned long long)m->mention_users[i]);
        assert_string_equal(json_string_value(u), want);
    }
}

/* Every message a reply carries: safe mentions; and the name, if given,
 * appears in markdown only escaped. Returns whether the name was seen. */
static bool check_reply(const struct cmd_reply *r, const char *name)
{
    const struct msg *ms[3] = {&r->msg, r->tracker, r->gm_copy};
    bool seen = false;
    char *esc = name ? msg_escape(name) : NULL;

    for (int k = 0; k < 3; k++) {
        struct sbuf md;
        json_t *body;
        if (!ms[k])
            continue;
        body = render_discord_message(ms[k], r->ephemeral);
        assert_non_null(body);
        assert_mentions_safe(body, ms[k]);
        if (esc) {
            sbuf_init(&md, RENDER_TEXT_MAX);
            markdown_text(body, &md);
            assert_int_equal(sbuf_error(&md), SBUF_OK);
            seen = seen || strstr(sbuf_str(&md), esc) != NULL;
            /* blank every escaped showing; what is left must not hold the
             * raw name ("\\# head" holds "# head", harmlessly) */
            char *text = strdup(sbuf_str(&md)), *p = text;
            assert_non_null(text);
            while ((p = strstr(p, esc)) != NULL) {
                memset(p, ' ', strlen(esc));
                p += strlen(esc);
            }
            if (strcmp(esc, name) != 0 && strstr(text, name))
                fail_msg("name \"%s\" shown raw (not as \"%s\"):\n%s", name,
                         esc, sbuf_str(&md));
            free(text);
            sbuf_cleanup(&md);
        }
        json_decref(body);
    }
    free(esc);
    return seen;
}

/* The stored combatant's name, from a fresh decode of the stored doc. */
static bool stored_has_name(struct fix *f, uint64_t channel, const char *name,
                            char **doc_out)
{
    char *doc = NULL, why[160];
    int64_t version;
    struct encounter *e = NULL;
    bool found = false;

    assert_int_equal(store_enc_load(f->store, channel, &doc, &version),
                     BOT_OK);
    assert_int_equal(enc_json_load(doc, &e, why, sizeof why), BOT_OK);
    for (int i = 0; i < e->ncs && !found; i++)
        found = strcmp(e->cs[i].name, name) == 0;
    enc_free(e);
    *doc_out = doc;
    return found;
}

static void test_names_refused_or_harmless(void **state)
{
    struct fix *f = *state;
    int refused = 0, stored = 0;

    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *name = names[i].name;
        uint64_t ch = 500 + i;
        const char *start[] = {"system", "generic", "name", "Names", NULL};
        const char *add[] = {"name", name, "hp", "5", NULL};
        struct cmd_reply r;
        char *before = NULL, *after = NULL, *reopened = NULL;
        int64_t v0 = 0, v1 = 0;

        run_ok(f, ch, U_GM, "combat", "start", start);
        assert_int_equal(store_enc_load(f->store, ch, &before, &v0), BOT_OK);
        run(f, &r, ch, U_GM, "combat", "add", add);
        if (r.is_error) {
            refused++;
            assert_true(r.ephemeral);
            assert_false(r.changed);
            assert_true(r.msg.content != NULL || r.msg.nembeds > 0);
            check_reply(&r, NULL);
            assert_int_equal(store_enc_load(f->store, ch, &after, &v1),
                             BOT_OK);
            assert_int_equal(v0, v1);
            assert_string_equal(before, after);
        } else {
            if (names[i].must_refuse)
                fail_msg("\"%s\" must be refused but was accepted", name);
            stored++;
            check_reply(&r, name);
            assert_true(stored_has_name(f, ch, name, &after));
            /* the same bytes after closing and reopening the file */
            store_close(f->store);
            fix_open(f);
            assert_true(stored_has_name(f, ch, name, &reopened));
            assert_string_equal(after, reopened);
            /* shown (escaped) by the status view */
            struct cmd_reply st;
            run(f, &st, ch, U_GM, "combat", "status", NULL);
            assert_false(st.is_error);
            if (!check_reply(&st, name))
                fail_msg("/combat status does not show \"%s\" escaped",
                         name);
            cmd_reply_cleanup(&st);
        }
        cmd_reply_cleanup(&r);
        free(before);
        free(after);
        free(reopened);
    }
    print_message("names: %d refused, %d stored and shown escaped\n", refused,
                  stored);
}

/* Invisible and direction-changing names are refused, by /combat add and
 * /combat join alike, with a short reason that says which it was. */
static void test_names_hidden_refused(void **state)
{
    struct fix *f = *state;
    const char *start[] = {"system", "generic", "name", "Hidden", NULL};
    const uint64_t ch = 700;

    run_ok(f, ch, U_GM, "combat", "start", start);
    for (size_t i = 0; i < sizeof hidden_names / sizeof hidden_names[0];
         i++) {
        const char *add[] = {"name", hidden_names[i].name, "hp", "5", NULL};
        for (int join = 0; join < 2; join++) {
            struct cmd_reply r;
            struct sbuf b;
            run(f, &r, ch, join ? U_P1 : U_GM, "combat",
                join ? "join" : "add", add);
            if (!r.is_error)
                fail_msg("name %zu accepted by /combat %s", i,
                         join ? "join" : "add");
            assert_false(r.changed);
            sbuf_init(&b, RENDER_TEXT_MAX);
            render_text(&r.msg, NULL, &b);
            if (!strstr(sbuf_str(&b), hidden_names[i].why))
                fail_msg("name %zu refused without saying \"%s\": %s", i,
                         hidden_names[i].why, sbuf_str(&b));
            assert_true(strlen(sbuf_str(&b)) < 200);   /* short */
            sbuf_cleanup(&b);
            cmd_reply_cleanup(&r);
        }
    }
}

/* A fight with players and turn notices: every reply's body may ping only
 * the users the command layer listed, and those are the fight's players. */
static void test_every_body_pings_only_intended(void **state)
{
    struct fix *f = *state;
    const uint64_t ch = 900;
    const char *start[] = {"system", "generic", "name", "@everyone", NULL};
    const char *j1[] = {"name", "@" ZWSP "here", "hp", "20", "stats",
                        "ac=10 init=50 attack=5", NULL};
    const char *j2[] = {"name", "**Bob**", "hp", "20", "stats",
                        "ac=10 init=1 attack=5", NULL};
    const char *orc[] = {"name", "`Orc`", "hp", "30", "stats",
                         "ac=10 init=20 attack=1", NULL};
    const char *notice[] = {"notices", "true", NULL};
    const char *confirm[] = {"confirm", "true", NULL};
    const char *atk[] = {"attacker", "@" ZWSP "here", "target", "`Orc`",
                         "damage", "3", NULL};
    struct {
        uint64_t user;
        const char *command, *sub;
        const char *const *opts;
    } script[] = {
        {U_GM, "combat", "start", start},
        {U_P1, "combat", "join", j1},
        {U_P2, "combat", "join", j2},
        {U_GM, "combat", "add", orc},
        {U_GM, "combat", "settings", notice},
        {U_GM, "combat", "begin", NULL},
        {U_P1, "attack", NULL, atk},
        {U_P1, "combat", "next", NULL},
        {U_GM, "combat", "next", NULL},
        {U_P2, "combat", "next", NULL},
        {U_GM, "combat", "status", NULL},
        {U_P2, "attack", NULL, atk},          /* refused: not Bob's */
        {U_GM, "combat", "end", confirm},
    };
    int pings = 0;

    for (size_t i = 0; i < sizeof script / sizeof script[0]; i++) {
        struct cmd_reply r;
        run(f, &r, ch, script[i].user, script[i].command, script[i].sub,
            script[i].opts);
        check_reply(&r, NULL);
        for (int k = 0; k < r.msg.nmentions; k++) {
            uint64_t u = r.msg.mention_users[k];
            if (u != U_P1 && u != U_P2)
                fail_msg("/%s %s may ping user %llu, not a player",
                         script[i].command, script[i].sub ? script[i].sub : "",
                         (unsigned long long)u);
            pings++;
        }
        /* the callback wrapper carries the same body */
        json_t *cb = render_discord_callback(RENDER_DC_CB_MESSAGE, &r.msg,
                                             r.ephemeral);
        assert_non_null(cb);
        assert_mentions_safe(json_object_get(cb, "data"), &r.msg);
        json_decref(cb);
        cmd_reply_cleanup(&r);
    }
    assert_true(pings > 0);         /* the notices did name the players */
}

/* One player cannot fill a fight: /combat join stops at
 * CMD_MAX_OWN_COMBATANTS of theirs with a short refusal that changes
 * nothing, another player still joins, and the GM still adds NPCs. */
static void test_one_player_cannot_fill_a_fight(void **state)
{
    struct fix *f = *state;
    const char *start[] = {"system", "generic", "name", "Crowd", NULL};
    const uint64_t ch = 701;
    run_ok(f, ch, U_GM, "combat", "start", start);
    char name[32];
    for (int i = 0; i < CMD_MAX_OWN_COMBATANTS; i++) {
        snprintf(name, sizeof name, "Wolf %d", i + 1);
        const char *join[] = {"name", name, "hp", "5", NULL};
        run_ok(f, ch, U_P1, "combat", "join", join);
    }
    const char *more[] = {"name", "Wolf 99", "hp", "5", NULL};
    struct cmd_reply r;
    run(f, &r, ch, U_P1, "combat", "join", more);
    assert_true(r.is_error);
    assert_false(r.changed);
    struct sbuf b;
    sbuf_init(&b, RENDER_TEXT_MAX);
    render_text(&r.msg, NULL, &b);
    assert_non_null(strstr(sbuf_str(&b), "ask the GM"));
    assert_true(strlen(sbuf_str(&b)) < 200);
    sbuf_cleanup(&b);
    cmd_reply_cleanup(&r);
    const char *other[] = {"name", "Bram", "hp", "9", NULL};
    run_ok(f, ch, U_P2, "combat", "join", other);
    const char *npc[] = {"name", "Goblin", "count", "3", "hp", "7", NULL};
    run_ok(f, ch, U_GM, "combat", "add", npc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_names_refused_or_harmless,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_one_player_cannot_fill_a_fight,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_names_hidden_refused, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_every_body_pings_only_intended,
                                        setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
