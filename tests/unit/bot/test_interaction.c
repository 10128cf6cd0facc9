/* test_interaction.c - decoding recorded INTERACTION_CREATE frames and the
 * custom_id format. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interaction.h"
#include "snowflake.h"

/* cmd_req_opt() lives in the lead's cmd.c; this test links only our
 * modules, so it has its own lookup. */
static const char *cmd_req_opt_for_test(const struct cmd_req *r,
                                        const char *name)
{
    for (int i = 0; i < r->nopts; i++)
        if (strcmp(r->opts[i].name, name) == 0)
            return r->opts[i].value;
    return NULL;
}

static json_t *load_frame(const char *name)
{
    char path[256];
    char *text;
    json_t *root, *d;

    snprintf(path, sizeof path, "discord/%s", name);
    text = support_read_data(path, NULL);
    assert_non_null(text);
    root = json_loads(text, 0, NULL);
    free(text);
    assert_non_null(root);
    d = json_incref(json_object_get(root, "d"));
    json_decref(root);
    return d;
}

static void decode_ok(const char *name, struct interaction *it)
{
    json_t *d = load_frame(name);
    char why[256];
    enum bot_err e = interaction_decode(d, 1000, it, why, sizeof why);
    json_decref(d);   /* the interaction keeps its own reference */
    if (e != BOT_OK)
        fail_msg("%s: %s", name, why);
}

static void test_interaction_slash_roll(void **state)
{
    struct interaction it;
    (void)state;
    decode_ok("interaction_roll.json", &it);
    assert_int_equal(it.type, INTERACTION_COMMAND);
    assert_string_equal(it.id, "1200000000000000001");
    assert_string_equal(it.application_id, "1100000000000000001");
    assert_string_equal(it.req.command, "roll");
    assert_null(it.req.sub);
    assert_int_equal(it.req.nopts, 1);
    assert_string_equal(cmd_req_opt_for_test(&it.req, "expr"), "2d20kh1+5");
    assert_true(it.req.guild_id == UINT64_C(1100000000000000100));
    assert_true(it.req.channel_id == UINT64_C(1100000000000000200));
    assert_true(it.req.user_id == UINT64_C(1100000000000000300));
    assert_string_equal(it.req.user_name, "Alice");
    assert_true(it.req.perms_known);
    assert_true(it.req.perms == UINT64_C(2248473465835073));
    assert_string_equal(it.req.interaction_id, it.id);
    assert_int_equal(it.req.expect_version, -1);
    assert_int_equal(it.req.source, CMD_SRC_DISCORD);
    interaction_cleanup(&it);
}

static void test_interaction_subcommand_typed_options(void **state)
{
    struct interaction it;
    (void)state;
    decode_ok("interaction_subcommand.json", &it);
    assert_string_equal(it.req.command, "combat");
    assert_string_equal(it.req.sub, "add");
    assert_int_equal(it.req.nopts, 5);
    assert_string_equal(cmd_req_opt_for_test(&it.req, "name"), "Goblin");
    assert_string_equal(cmd_req_opt_for_test(&it.req, "count"), "3");
    assert_string_equal(cmd_req_opt_for_test(&it.req, "hidden"), "true");
    assert_string_equal(cmd_req_opt_for_test(&it.req, "bonus"), "2");
    assert_string_equal(cmd_req_opt_for_test(&it.req, "where"),
                        "1100000000000000200");
    assert_string_equal(it.req.user_name, "Ali the GM");
    assert_true(it.req.perms == 8192);
    interaction_cleanup(&it);
}

static void test_interaction_dm_has_no_perms(void **state)
{
    struct interaction it;
    (void)state;
    decode_ok("interaction_dm.json", &it);
    assert_int_equal(it.req.guild_id, 0);
    assert_false(it.req.perms_known);
    assert_true(it.req.user_id == UINT64_C(1100000000000000301));
    assert_string_equal(it.req.user_name, "Bob");
    interaction_cleanup(&it);
}

static void test_interaction_button_and_select(void **state)
{
    struct interaction it;
    (void)state;
    decode_ok("interaction_button.json", &it);
    assert_int_equal(it.type, INTERACTION_COMPONENT);
    assert_string_equal(it.req.command, "turn");
    assert_string_equal(it.req.sub, "next");
    assert_int_equal(it.req.expect_version, 42);
    assert_int_equal(it.req.nopts, 0);
    assert_true(it.req.perms_known);
    interaction_cleanup(&it);

    decode_ok("interaction_select.json", &it);
    assert_string_equal(it.req.command, "attack");
    assert_null(it.req.sub);
    assert_int_equal(it.req.expect_version, 7);
    assert_string_equal(cmd_req_opt_for_test(&it.req, "target"), "Goblin 2");
    interaction_cleanup(&it);
}

static void test_interaction_autocomplete(void **state)
{
    struct interaction it;
    (void)state;
    decode_ok("interaction_autocomplete.json", &it);
    assert_int_equal(it.type, INTERACTION_AUTOCOMPLETE);
    assert_string_equal(it.focused, "target");
    assert_string_equal(cmd_req_opt_for_test(&it.req, "target"), "gob");
    assert_string_equal(cmd_req_opt_for_test(&it.req, "bonus"), "1");
    interaction_cleanup(&it);
}

static void test_interaction_bad_payloads_refused(void **state)
{
    char *text = support_read_data("discord/interaction_bad.jsonl", NULL);
    char *line, *next;
    int n = 0;
    (void)state;
    assert_non_null(text);
    for (line = text; line && *line; line = next) {
        json_t *root;
        struct interaction it;
        char why[256] = "";
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        root = json_loads(line, 0, NULL);
        assert_non_null(root);
        if (interaction_decode(json_object_get(root, "d"), 0, &it, why,
                               sizeof why) != BOT_INVALID)
            fail_msg("line %d was accepted: %s", n + 1, line);
        assert_true(why[0] != '\0');
        /* kept only to be answered: named by id, token and application */
        if (it.root != NULL)
            assert_true(it.answerable && it.id && it.token &&
                        it.application_id);
        interaction_cleanup(&it);
        json_decref(root);
        n++;
    }
    assert_int_equal(n, 14);
    free(text);
}

/* A /config whose options name channels: their id, server and type come
 * from data.resolved.channels (the value is only an id); a malformed entry
 * refuses the interaction. */
#define CONFIG_IX(resolved)                                                  \
    "{\"id\":\"12\",\"application_id\":\"11\",\"type\":2,\"token\":\"t\","   \
    "\"version\":1,\"guild_id\":\"88\",\"channel_id\":\"77\",\"member\":"    \
    "{\"user\":{\"id\":\"5\",\"username\":\"u\"},\"permissions\":\"32\"},"   \
    "\"data\":{\"id\":\"1\",\"name\":\"config\",\"type\":1,\"options\":"      \
    "[{\"name\":\"gm-channel\",\"type\":7,\"value\":\"555\"}],"             \
    "\"resolved\":{\"channels\":" resolved "}}}"

static bool decode_text(const char *text, struct interaction *it)
{
    char why[256];
    json_t *d = json_loads(text, 0, NULL);
    assert_non_null(d);
    enum bot_err e = interaction_decode(d, 1000, it, why, sizeof why);
    json_decref(d);
    if (e != BOT_OK)
        interaction_cleanup(it);
    return e == BOT_OK;
}

static void test_interaction_resolved_channels(void **state)
{
    struct interaction it;
    (void)state;
    assert_true(decode_text(CONFIG_IX(
        "{\"555\":{\"id\":\"555\",\"type\":0,\"guild_id\":\"88\"},"
        "\"600\":{\"id\":\"600\",\"type\":2}}"), &it));
    assert_int_equal(it.req.nchannels, 2);
    for (int i = 0; i < 2; i++) {
        const struct cmd_channel *c = &it.req.channels[i];
        if (c->id == 555) {
            assert_int_equal(c->guild_id, 88);
            assert_int_equal(c->type, CMD_CHANNEL_TEXT);
        } else {
            assert_int_equal(c->id, 600);
            assert_int_equal(c->guild_id, 0);   /* not said */
            assert_int_equal(c->type, 2);
        }
    }
    interaction_cleanup(&it);
    static const char *const bad[] = {
        CONFIG_IX("[]"),
        CONFIG_IX("{\"x55\":{\"type\":0}}"),
        CONFIG_IX("{\"555\":{\"type\":\"0\"}}"),
        CONFIG_IX("{\"555\":{\"type\":-1}}"),
        CONFIG_IX("{\"555\":{\"type\":0,\"guild_id\":88}}"),
        CONFIG_IX("{\"555\":7}"),
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (decode_text(bad[i], &it))
            fail_msg("accepted: %s", bad[i]);
}

/* A message's context menu (data.type 3): the label is a menu's command,
 * the message req.target_message, and the interaction that posted it
 * (interaction_metadata, or the older interaction) option roll:; a
 * message without one has no roll:, an unknown label is refused. */
#define MENU_IX(name, message)                                               \
    "{\"id\":\"12\",\"application_id\":\"11\",\"type\":2,\"token\":\"t\","   \
    "\"version\":1,\"guild_id\":\"88\",\"channel_id\":\"77\",\"member\":"    \
    "{\"user\":{\"id\":\"5\",\"username\":\"u\"},\"permissions\":\"0\"},"    \
    "\"data\":{\"id\":\"1\",\"name\":\"" name "\",\"type\":3,"                \
    "\"target_id\":\"900\",\"resolved\":{\"messages\":{\"900\":"           \
    message "}}}}"

static void test_interaction_message_menu(void **state)
{
    struct interaction it;
    (void)state;
    assert_true(decode_text(MENU_IX("Reroll", "{\"id\":\"900\","
                                    "\"interaction_metadata\":{\"id\":"
                                    "\"4242\",\"type\":2}}"), &it));
    assert_string_equal(it.req.command, "reroll");
    assert_int_equal(it.req.target_message, 900);
    assert_string_equal(cmd_req_opt(&it.req, "roll"), "4242");
    interaction_cleanup(&it);
    assert_true(decode_text(MENU_IX("Apply damage", "{\"id\":\"900\","
                                    "\"interaction\":{\"id\":\"4243\"}}"),
                            &it));
    assert_string_equal(it.req.command, "apply");
    assert_string_equal(cmd_req_opt(&it.req, "roll"), "4243");
    interaction_cleanup(&it);
    assert_true(decode_text(MENU_IX("Explain", "{\"id\":\"900\","
                                    "\"content\":\"hello\"}"), &it));
    assert_string_equal(it.req.command, "explain");
    assert_null(cmd_req_opt(&it.req, "roll"));
    assert_int_equal(it.req.target_message, 900);
    interaction_cleanup(&it);
    /* not a snowflake: no roll: either */
    assert_true(decode_text(MENU_IX("Explain", "{\"interaction_metadata\":"
                                    "{\"id\":\"x1\"}}"), &it));
    assert_null(cmd_req_opt(&it.req, "roll"));
    interaction_cleanup(&it);
    assert_false(decode_text(MENU_IX("Delete", "{}"), &it));
    assert_false(decode_text(MENU_IX("reroll", "{}"), &it));
}

/* An ATTACHMENT option (type 11): its value is an id, the file is in
 * data.resolved.attachments (discord-protocol.md); one file per command,
 * and a file that is not resolved or is malformed refuses the command. */
#define IMPORT_IX(opts, resolved)                                            \
    "{\"id\":\"12\",\"application_id\":\"11\",\"type\":2,\"token\":\"t\","   \
    "\"version\":1,\"channel_id\":\"77\",\"user\":{\"id\":\"5\","           \
    "\"username\":\"u\"},\"data\":{\"id\":\"1\",\"name\":\"macro\","          \
    "\"type\":1,\"options\":[{\"name\":\"import\",\"type\":1,\"options\":"   \
    "[" opts "]}],\"resolved\":{\"attachments\":" resolved "}}}"
#define ATT_OPT(id) "{\"name\":\"file\",\"type\":11,\"value\":\"" id "\"}"
#define ATT_OBJ(id, size)                                                    \
    "\"" id "\":{\"id\":\"" id "\",\"filename\":\"m.json\",\"size\":" size   \
    ",\"url\":\"https://cdn.discordapp.com/attachments/7/" id "/m.json\","  \
    "\"proxy_url\":\"https://media.discordapp.net/x\","                     \
    "\"content_type\":\"application/json; charset=utf-8\"}"

static void test_interaction_attachment(void **state)
{
    struct interaction it;
    (void)state;
    assert_true(decode_text(IMPORT_IX(ATT_OPT("901"),
                                      "{" ATT_OBJ("901", "42") "}"),
                            &it));
    assert_string_equal(it.req.command, "macro");
    assert_string_equal(it.req.sub, "import");
    assert_string_equal(cmd_req_opt(&it.req, "file"), "901");
    assert_string_equal(it.att.option, "file");
    assert_string_equal(it.att.url,
                        "https://cdn.discordapp.com/attachments/7/901/"
                        "m.json");
    assert_string_equal(it.att.filename, "m.json");
    assert_string_equal(it.att.content_type,
                        "application/json; charset=utf-8");
    assert_int_equal(it.att.size, 42);
    assert_null(it.req.file);
    interaction_cleanup(&it);
    static const char *const bad[] = {
        IMPORT_IX(ATT_OPT("901"), "{}"),                     /* unresolved */
        IMPORT_IX(ATT_OPT("901"), "{" ATT_OBJ("901", "-1") "}"),
        IMPORT_IX(ATT_OPT("901"), "{" ATT_OBJ("901", "\"42\"") "}"),
        IMPORT_IX(ATT_OPT("901") "," ATT_OPT("902"),
                  "{" ATT_OBJ("901", "1") "," ATT_OBJ("902", "1") "}"),
        IMPORT_IX("{\"name\":\"file\",\"type\":11,\"value\":9}",
                  "{" ATT_OBJ("901", "1") "}"),
        IMPORT_IX(ATT_OPT("901"), "{\"901\":{\"size\":1}}"),  /* no url */
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (decode_text(bad[i], &it))
            fail_msg("accepted: %s", bad[i]);
}

static void test_interaction_custom_id_round_trip(void **state)
{
    char id[CUSTOM_ID_MAX + 1];
    struct custom_id c;
    char longv[120];
    (void)state;

    assert_true(custom_id_make(id, sizeof id, "turn", "next", 17,
                                           42, NULL, NULL));
    assert_string_equal(id, "v2:turn/next:17.42");
    assert_true(custom_id_make(id, sizeof id, "combat", "remove",
                                           17, 7, "name", "Goblin 2"));
    assert_string_equal(id, "v2:combat/remove:17.7:name=Goblin 2");
    assert_true(custom_id_parse(id, &c));
    assert_string_equal(c.command, "combat");
    assert_string_equal(c.sub, "remove");
    assert_int_equal(c.fight, 17);
    assert_int_equal(c.version, 7);
    assert_string_equal(c.opt_name, "name");
    assert_string_equal(c.opt_value, "Goblin 2");
    assert_true(c.has_value);
    /* a button from before fights had ids: fight 0 */
    assert_true(custom_id_parse("v1:combat/next:9", &c));
    assert_int_equal(c.fight, 0);
    assert_int_equal(c.version, 9);
    assert_true(custom_id_parse("v1:attack:0:target", &c));
    assert_false(c.has_value);
    assert_string_equal(c.opt_name, "target");

    memset(longv, 'x', sizeof longv - 1);
    longv[sizeof longv - 1] = '\0';
    assert_false(custom_id_make(id, sizeof id, "a", NULL, 1, 1,
                                            "b", longv));
    assert_false(custom_id_make(id, sizeof id, "Bad", NULL, 1, 1,
                                            NULL, NULL));
    assert_false(custom_id_make(id, sizeof id, "a", NULL, 1, -1,
                                            NULL, NULL));
    assert_false(custom_id_parse("v3:turn:1", &c));
    assert_false(custom_id_parse("v2:turn:1", &c));
    assert_false(custom_id_parse("v1:turn", &c));
    assert_false(custom_id_parse("v1:turn:x", &c));
    assert_false(custom_id_parse("v1:turn:1x", &c));
    assert_false(custom_id_parse("v1:/next:1", &c));
    assert_false(custom_id_parse("v1:turn:1:", &c));
    assert_false(custom_id_parse(NULL, &c));
}

/* The age of an interaction comes from its snowflake: Discord puts the
 * milliseconds since its epoch (2015-01-01) in the id's top 42 bits. */
static void test_interaction_age_from_snowflake(void **state)
{
    struct interaction it;
    (void)state;
    decode_ok("interaction_roll.json", &it); /* id 1200000000000000001 */
    int64_t made =
        (int64_t)(UINT64_C(1200000000000000001) >> 22) + INT64_C(1420070400000);
    assert_int_equal(it.id_ms, made);
    assert_int_equal(interaction_age_ms(&it, made), 0);
    assert_int_equal(interaction_age_ms(&it, made + 3001), 3001);
    assert_int_equal(interaction_age_ms(&it, made - 250), -250);
    interaction_cleanup(&it);
}

/* A snowflake is 1 to 20 decimal digits that fit in 64 bits, and nothing
 * else: no sign, space or suffix, no wrap-around past 2^64 - 1. */
static void test_interaction_snowflake_bounds(void **state)
{
    uint64_t v = 0;
    (void)state;
    assert_true(snowflake_parse("0", &v));
    assert_true(v == 0);
    assert_true(snowflake_parse("1100000000000000300", &v));
    assert_true(v == UINT64_C(1100000000000000300));
    assert_true(snowflake_parse("18446744073709551615", &v));
    assert_true(v == UINT64_MAX);
    assert_true(snowflake_parse("09999999999999999999", &v));
    assert_true(v == UINT64_C(9999999999999999999));
    v = 7;
    assert_false(snowflake_parse("18446744073709551616", &v));
    assert_false(snowflake_parse("99999999999999999999", &v));
    assert_false(snowflake_parse("184467440737095516150", &v));
    assert_false(snowflake_parse("", &v));
    assert_false(snowflake_parse(NULL, &v));
    assert_false(snowflake_parse("-1", &v));
    assert_false(snowflake_parse("+1", &v));
    assert_false(snowflake_parse(" 1", &v));
    assert_false(snowflake_parse("12a", &v));
    assert_true(v == 7); /* untouched when refused */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_interaction_slash_roll),
        cmocka_unit_test(test_interaction_subcommand_typed_options),
        cmocka_unit_test(test_interaction_dm_has_no_perms),
        cmocka_unit_test(test_interaction_button_and_select),
        cmocka_unit_test(test_interaction_autocomplete),
        cmocka_unit_test(test_interaction_bad_payloads_refused),
        cmocka_unit_test(test_interaction_custom_id_round_trip),
        cmocka_unit_test(test_interaction_resolved_channels),
        cmocka_unit_test(test_interaction_message_menu),
        cmocka_unit_test(test_interaction_attachment),
        cmocka_unit_test(test_interaction_age_from_snowflake),
        cmocka_unit_test(test_interaction_snowflake_bounds),
    };
    return cmocka_run_group_tests_name("interaction", tests, NULL, NULL);
}
