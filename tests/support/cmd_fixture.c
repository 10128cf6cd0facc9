/*
 * cmd_fixture.c - the command layer's test fixture (cmd_fixture.h).
 */
#include "support.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_fixture.h"
#include "enc.h"
#include "enc_json.h"
#include "render_text.h"
#include "sbuf.h"
#include "store.h"

int cmd_fx_setup(void **state)
{
    struct cmd_fx *f = calloc(1, sizeof *f);
    char err[128];
    assert_non_null(f);
    assert_int_equal(store_open(":memory:", &f->store, err, sizeof err),
                     BOT_OK);
    eng_rng_seed(&f->rng, 42);
    f->ctx.store = f->store;
    f->ctx.rng = &f->rng;
    f->now_ms = INT64_C(1700000000000);
    cmd_reply_init(&f->reply);
    *state = f;
    return 0;
}

int cmd_fx_setup_discord(void **state)
{
    int rc = cmd_fx_setup(state);
    struct cmd_fx *f = *state;
    f->source = CMD_SRC_DISCORD;
    f->guild = CMD_FX_GUILD;
    return rc;
}

int cmd_fx_teardown(void **state)
{
    struct cmd_fx *f = *state;
    cmd_reply_cleanup(&f->reply);
    store_close(f->store);
    free(f);
    return 0;
}

/* A request of user in channel 1, as f's front end sends it. */
static void fx_req(const struct cmd_fx *f, uint64_t user, const char *command,
                   const char *sub, struct cmd_req *req)
{
    *req = (struct cmd_req){
        .source = f->source,
        .command = command,
        .sub = sub,
        .channel_id = 1,
        .guild_id = f->guild,
        .user_id = user,
        .user_name = "tester",
        .perms_known = f->source == CMD_SRC_DISCORD && f->guild != 0,
        .expect_version = -1,
        .force_gm = f->gm != 0 && user == f->gm,
        .now_ms = f->now_ms,
        .perms = f->manager != 0 && user == f->manager
                     ? CMD_PERM_MANAGE_GUILD : 0,
        .roles = {f->role},
        .nroles = f->role_user != 0 && user == f->role_user,
        .lang = f->lang,
        .guild_lang = f->guild_lang,
    };
}

bool cmd_fx_run(struct cmd_fx *f, uint64_t user, const char *command,
                const char *sub, ...)
{
    struct cmd_req req;
    fx_req(f, user, command, sub, &req);
    req.expect_version = f->press ? f->press_version : -1;
    req.expect_fight = f->press ? f->press_fight : 0;
    req.now_ms = f->now_ms += 1000;
    f->press = false;
    req.forms = f->forms;
    req.form_version = f->form_version;
    if (f->form_version != 0)
        req.expect_fight = f->form_fight;
    f->forms = false;
    f->form_version = 0;
    if (f->file != NULL) {
        req.file = f->file;
        req.file_len = strlen(f->file);
        f->file = NULL;
    }
    va_list ap;
    va_start(ap, sub);
    const char *name;
    while ((name = va_arg(ap, const char *)) != NULL &&
           req.nopts < CMD_MAX_OPTS) {
        req.opts[req.nopts].name = name;
        req.opts[req.nopts].value = va_arg(ap, const char *);
        req.nopts++;
    }
    va_end(ap);
    cmd_reply_cleanup(&f->reply);
    assert_true(cmd_exec(&f->ctx, &req, &f->reply));
    struct sbuf b;
    sbuf_init(&b, sizeof f->text - 1);
    render_text(&f->reply.msg, NULL, &b);
    snprintf(f->text, sizeof f->text, "%s", sbuf_str(&b));
    sbuf_cleanup(&b);
    f->gm_text[0] = '\0';
    if (f->reply.gm_copy != NULL) {
        sbuf_init(&b, sizeof f->gm_text - 1);
        render_text(f->reply.gm_copy, NULL, &b);
        snprintf(f->gm_text, sizeof f->gm_text, "%s", sbuf_str(&b));
        sbuf_cleanup(&b);
    }
    if (getenv("TEST_VERBOSE"))
        printf("%s\n", f->text);
    return !f->reply.is_error;
}

void cmd_fx_has(const struct cmd_fx *f, const char *needle)
{
    if (strstr(f->text, needle) == NULL)
        fail_msg("expected \"%s\" in:\n%s", needle, f->text);
}

void cmd_fx_generic_fight(struct cmd_fx *f, uint64_t gm, uint64_t alice,
                          uint64_t bob)
{
    assert_true(cmd_fx_run(f, gm, "combat", "start", "system", "generic",
                           NULL));
    assert_true(cmd_fx_run(f, gm, "combat", "add", "name", "Goblin", "hp",
                           "7", "init", "=5", "stats", "ac=13", NULL));
    assert_true(cmd_fx_run(f, gm, "combat", "add", "name", "Shade", "hp",
                           "9", "init", "=4", "hidden", "true", NULL));
    assert_true(cmd_fx_run(f, alice, "combat", "join", "name", "Aria", "hp",
                           "20", "init", "=20", "stats", "ac=15", NULL));
    assert_true(cmd_fx_run(f, bob, "combat", "join", "name", "Bryn", "hp",
                           "18", "init", "=10", "stats", "ac=12", NULL));
    assert_true(cmd_fx_run(f, gm, "combat", "begin", NULL));
}

void cmd_fx_siege(struct cmd_fx *f, uint64_t gm)
{
    assert_true(cmd_fx_run(f, gm, "combat", "start", "system", "generic",
                           "name", "Long siege", NULL));
    assert_true(cmd_fx_run(f, gm, "combat", "add", "name", "Orc", "count",
                           "2", "hp", "1000000", "hidden", "true", "stats",
                           "ac=2", NULL));
    assert_true(cmd_fx_run(f, gm, "combat", "add", "name", "Hero", "hp",
                           "1000000", "stats", "ac=15 attack=5", NULL));
    assert_true(cmd_fx_run(f, gm, "combat", "begin", NULL));
}

void cmd_fx_siege_attack(struct cmd_fx *f, uint64_t gm, int i)
{
    assert_true(cmd_fx_run(f, gm, "attack", NULL, "attacker", "Hero",
                           "target", i % 2 ? "Orc 1" : "Orc 2", "damage",
                           "90d4!+90d6!+90d8!+90d10!+90d12!+90d20!+3",
                           NULL));
}

uint64_t cmd_fx_fight(struct store *store)
{
    char *doc = NULL, err[160];
    int64_t version = 0;
    struct encounter *e = NULL;
    assert_int_equal(store_enc_load(store, 1, &doc, &version), BOT_OK);
    assert_int_equal(enc_json_load(doc, &e, err, sizeof err), BOT_OK);
    free(doc);
    uint64_t id = e->fight_id;
    enc_free(e);
    return id;
}

const struct msg_button *cmd_fx_button(const struct cmd_fx *f,
                                       const char *label)
{
    for (int i = 0; i < f->reply.msg.nbuttons; i++)
        if (strcmp(f->reply.msg.buttons[i].label, label) == 0)
            return &f->reply.msg.buttons[i];
    return NULL;
}

const char *cmd_fx_complete(struct cmd_fx *f, uint64_t user,
                            const char *command, const char *sub,
                            const char *focused, const char *typed,
                            const char *other, const char *other_value)
{
    struct cmd_req req;
    fx_req(f, user, command, sub, &req);
    req.opts[0] = (struct cmd_opt){focused, typed};
    req.opts[1] = (struct cmd_opt){other, other_value};
    req.nopts = other != NULL ? 2 : 1;
    struct msg m;
    msg_init(&m);
    assert_true(cmd_complete(&f->ctx, &req, focused, &m));
    f->text[0] = '\0';
    for (int i = 0; i < m.select.noptions; i++) {
        size_t n = strlen(f->text);
        snprintf(f->text + n, sizeof f->text - n, "%s%s", i ? "," : "",
                 m.select.options[i].value);
    }
    msg_cleanup(&m);
    return f->text;
}
