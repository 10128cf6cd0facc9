/*
 * test_rs_toy.c - the toy rule system through the real command layer: a
 * system that is one folder and one registry line gets its command, its
 * option on /combat add, its /attack tokens, its condition table, its
 * typed state (saved by name, upgraded from old slots), /help, the command
 * reference, autocomplete and registration, with nothing else edited.
 */
#include "support.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd_fixture.h"
#include "cmd_doc.h"
#include "enc_json.h"
#include "eng_rng.h"
#include "register.h"
#include "render_text.h"
#include "rs.h"
#include "sbuf.h"
#include "store.h"

enum { GM = 100, PIP = 200 };

static int setup(void **state)
{
    int r = cmd_fx_setup(state);
    struct cmd_fx *f = *state;
    eng_rng_seed(&f->rng, 7);
    f->gm = GM;
    return r;
}

static struct encounter *live(struct cmd_fx *f)
{
    char *doc = NULL, err[160];
    int64_t version = 0;
    struct encounter *e = NULL;
    assert_int_equal(store_enc_load(f->store, 1, &doc, &version), BOT_OK);
    assert_int_equal(enc_json_load(doc, &e, err, sizeof err), BOT_OK);
    free(doc);
    return e;
}

static void fight(struct cmd_fx *f)
{
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "toy", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "add", "name", "Nib", "shiny", "true",
                    "stats", "grit=2 guard=4", "hp", "3", NULL));
    assert_true(cmd_fx_run(f, PIP, "combat", "join", "name", "Pip", "stats",
                    "guard=3", "hp", "3", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "begin", NULL));
}

static void test_toy_is_registered(void **state)
{
    (void)state;
    assert_non_null(rs_find("toy"));
    size_t n;
    const struct rs_system *const *all = rs_all(&n);
    bool listed = false;
    for (size_t i = 0; i < n; i++)
        listed = listed || all[i] == rs_find("toy");
    assert_true(listed);
}

static void test_toy_command_and_condition_table(void **state)
{
    struct cmd_fx *f = *state;
    fight(f);
    assert_true(cmd_fx_run(f, PIP, "poke", NULL, "name", "Pip", "target", "Nib",
                    "word", "bonk", NULL));
    cmd_fx_has(f, "Pip pokes Nib: \"bonk\" (poke number 1 of the fight)");
    cmd_fx_has(f, "Nib is now Wobbly 1");
    /* the declared cap holds however the condition comes */
    assert_true(cmd_fx_run(f, GM, "combat", "condition", "name", "Nib",
                    "condition", "wobbly", "value", "5", NULL));
    cmd_fx_has(f, "Nib is now Wobbly 3");
    /* a near miss is refused with the declared name */
    assert_false(cmd_fx_run(f, GM, "combat", "condition", "name", "Nib",
                     "condition", "Wobly", NULL));
    cmd_fx_has(f, "did you mean Wobbly?");
    /* a choice outside the declared ones names them */
    assert_false(cmd_fx_run(f, PIP, "poke", NULL, "target", "Nib", "word", "zap",
                     NULL));
    cmd_fx_has(f, "boop, beep, bonk");
    /* typed state, saved under its names */
    struct encounter *e = live(f);
    char *doc = enc_json_dump(e);
    assert_non_null(strstr(doc, "\"st\":{\"pokes\":1,\"last_word\":\"bonk\"}"));
    assert_non_null(strstr(doc, "\"st\":{\"total_pokes\":1}"));
    free(doc);
    enc_free(e);
}

static void test_toy_attack_tokens(void **state)
{
    struct cmd_fx *f = *state;
    fight(f);
    assert_true(cmd_fx_run(f, GM, "attack", NULL, "attacker", "Nib", "target", "Pip",
                    "options", "lucky bonus=1", NULL));
    cmd_fx_has(f, "lucky: best of 2");
    cmd_fx_has(f, "not kept");
    cmd_fx_has(f, "bonus +1");
    assert_false(cmd_fx_run(f, GM, "attack", NULL, "attacker", "Nib", "target",
                     "Pip", "options", "banana", NULL));
    cmd_fx_has(f, "it takes: lucky, bonus");
    assert_false(cmd_fx_run(f, GM, "attack", NULL, "attacker", "Nib", "target",
                     "Pip", "options", "bonus=9", NULL));
    cmd_fx_has(f, "bonus: must be a whole number from -5 to 5");
}

/* A core command's option of another system is refused in this fight. */
static void test_toy_extension_is_its_own(void **state)
{
    struct cmd_fx *f = *state;
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "generic", NULL));
    assert_false(cmd_fx_run(f, GM, "combat", "add", "name", "Orc", "shiny", "true",
                     NULL));
    cmd_fx_has(f, "shiny: is an option of the toy system; this fight plays "
           "generic");
}

static void test_toy_help_docs_and_registration(void **state)
{
    struct cmd_fx *f = *state;
    assert_true(cmd_fx_run(f, GM, "help", NULL, "topic", "toy", NULL));
    cmd_fx_has(f, "/poke");
    cmd_fx_has(f, "Wobbly");
    cmd_fx_has(f, "lucky");
    struct sbuf b;
    sbuf_init(&b, 1 << 16);
    cmd_doc_system(&b, rs_find("toy"), CMD_DOC_FILE, I18N_EN);
    assert_non_null(strstr(sbuf_str(&b), "### `/poke`"));
    sbuf_cleanup(&b);
    const struct rs_system *sys[] = {rs_find("toy")};
    json_t *cmds = register_build(sys, 1, REGISTER_GUILD);
    char *s = json_dumps(cmds, 0);
    assert_non_null(strstr(s, "\"name\": \"poke\""));
    free(s);
    json_decref(cmds);
    /* the core set carries the toy's option on /combat add */
    cmds = register_build(NULL, 0, REGISTER_CORE);
    s = json_dumps(cmds, 0);
    assert_non_null(strstr(s, "\"name\": \"shiny\""));
    free(s);
    json_decref(cmds);
}

static void test_toy_autocomplete(void **state)
{
    struct cmd_fx *f = *state;
    fight(f);
    struct cmd_req req = {
        .source = CMD_SRC_DISCORD, .command = "combat", .sub = "condition",
        .channel_id = 1, .user_id = GM, .force_gm = true,
        .opts = {{"name", "Nib"}, {"condition", "wob"}}, .nopts = 2,
    };
    struct msg m;
    msg_init(&m);
    assert_true(cmd_complete(&f->ctx, &req, "condition", &m));
    assert_true(m.select.noptions >= 1);
    assert_string_equal(m.select.options[0].value, "Wobbly");
    msg_cleanup(&m);
    struct cmd_req atk = {
        .source = CMD_SRC_DISCORD, .command = "attack", .channel_id = 1,
        .user_id = GM, .force_gm = true,
        .opts = {{"target", "Pip"}, {"options", "lucky bo"}}, .nopts = 2,
    };
    msg_init(&m);
    assert_true(cmd_complete(&f->ctx, &atk, "options", &m));
    assert_true(m.select.noptions >= 1);
    assert_string_equal(m.select.options[0].value, "lucky bonus=");
    msg_cleanup(&m);
}

/* A document written before typed state: the toy kept pokes in slot 0, the
 * shiny flag in slot 1 and the last word's bytes from slot 2 on. */
static void test_toy_old_document_upgrades(void **state)
{
    struct cmd_fx *f = *state;
    /* "bonk" as the little-endian bytes of one int64 slot */
    int64_t word = 'b' | ('o' << 8) | ('n' << 16) | ((int64_t)'k' << 24);
    char doc[2048];
    snprintf(doc, sizeof doc,
             "{\"v\":1,\"ruleset\":\"toy\",\"name\":\"old\",\"gm\":\"100\","
             "\"version\":4,\"status\":1,\"round\":1,\"phase\":0,"
             "\"current\":1,\"acting_side\":-1,\"turn_seq\":\"1\","
             "\"notices\":true,\"tracker\":\"0\",\"next_id\":3,"
             "\"next_join\":3,\"turn_idx\":0,\"settings\":{},\"sides\":[],"
             "\"combatants\":[{\"id\":1,\"name\":\"Nib\",\"owner\":\"0\","
             "\"side\":-1,\"hidden\":false,\"group\":0,\"flags\":0,"
             "\"join\":1,\"init_expr\":\"\",\"init\":[1],\"tie\":0,"
             "\"stats\":{\"grit\":2},\"tracks\":[{\"name\":\"hp\",\"cur\":3,"
             "\"max\":3}],\"conds\":[],\"note\":\"\",\"rs\":[3,1,%lld]},"
             "{\"id\":2,\"name\":\"Pip\",\"owner\":\"200\",\"side\":-1,"
             "\"hidden\":false,\"group\":0,\"flags\":0,\"join\":2,"
             "\"init_expr\":\"\",\"init\":[4],\"tie\":0,\"stats\":{},"
             "\"tracks\":[{\"name\":\"hp\",\"cur\":3,\"max\":3}],"
             "\"conds\":[],\"note\":\"\",\"rs\":[]}],"
             "\"order\":[[1,0],[2,0]],\"rs\":[7]}",
             (long long)word);
    assert_int_equal(store_begin(f->store), BOT_OK);
    assert_int_equal(store_enc_save(f->store, 1, 1, doc), BOT_OK);
    assert_int_equal(store_commit(f->store), BOT_OK);
    struct encounter *e = live(f);
    char *now = enc_json_dump(e);
    assert_non_null(strstr(now, "\"st\":{\"pokes\":3,\"shiny\":true,"
                                "\"last_word\":\"bonk\"}"));
    assert_non_null(strstr(now, "\"st\":{\"total_pokes\":7}"));
    assert_null(strstr(now, "\"rs\":"));
    free(now);
    enc_free(e);
    /* and it plays on */
    assert_true(cmd_fx_run(f, GM, "poke", NULL, "name", "Nib", "target", "Pip",
                    NULL));
    cmd_fx_has(f, "(poke number 8 of the fight)");
    assert_true(cmd_fx_run(f, GM, "combat", "status", NULL));
    cmd_fx_has(f, "4 pokes, shiny");
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, cmd_fx_teardown)
    const struct CMUnitTest tests[] = {
        T(test_toy_is_registered),
        T(test_toy_command_and_condition_table),
        T(test_toy_attack_tokens),
        T(test_toy_extension_is_its_own),
        T(test_toy_help_docs_and_registration),
        T(test_toy_autocomplete),
        T(test_toy_old_document_upgrades),
    };
    return cmocka_run_group_tests_name("toy", tests, NULL, NULL);
}
