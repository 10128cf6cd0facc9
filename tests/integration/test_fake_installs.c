/*
 * test_fake_installs.c - fake-discord's application commands of every
 * type (registration rules for USER and MESSAGE commands,
 * integration_types, contexts), context-menu interactions with their
 * target resolved, user installs (authorizing_integration_owners, context,
 * app_permissions, no Create Message where the bot is not a member, 5
 * follow-ups) and the locale fields, straight over HTTP and a raw gateway
 * session (no bot).
 */
#include "fake_ix_util.h"

#define APP    "/applications/1100000000000000001"
#define GUILD  "1100000000000000100"
#define USER   "1100000000000000300"

static void put_ok(int port, const char *path, const char *body)
{
    json_decref(expect(port, "PUT", path, body, 200, NULL));
}

/* A refused command set: 400 50035 and an invalid_commands violation. */
static void put_bad(int port, const char *path, const char *body)
{
    int st = 0;
    long long before = fake_violations_of(port, "invalid_commands");
    json_t *j = fake_rest(port, NULL, "PUT", path, body, &st);
    if (st != 400)
        fail_msg("%s: status %d, want 400", body, st);
    assert_int_equal(json_integer_value(json_object_get(j, "code")), 50035);
    assert_int_equal(fake_violations_of(port, "invalid_commands"),
                     before + 1);
    json_decref(j);
}

static void test_command_types_and_contexts(void **state)
{
    struct fake_proc fp;
    char body[8192];
    (void)state;
    start(&fp);
    put_ok(fp.port, APP "/commands", q(
        "[{'name':'Inspect Sheet','type':2},{'name':'Quote Roll','type':3,"
        "'contexts':[0,1,2],'integration_types':[0,1]},{'name':'roll',"
        "'description':'Roll dice','default_member_permissions':'32',"
        "'contexts':[0,1]}]"));
    /* USER and MESSAGE: no description, no options; CHAT_INPUT: lowercase
     * without spaces */
    put_bad(fp.port, APP "/commands", q("[{'name':'Inspect','type':2,"
                                        "'description':'look'}]"));
    put_bad(fp.port, APP "/commands", q("[{'name':'Quote','type':3,"
                                        "'options':[]}]"));
    put_bad(fp.port, APP "/commands", q("[{'name':'Roll dice',"
                                        "'description':'d'}]"));
    put_bad(fp.port, APP "/commands", q("[{'name':'roll','description':"
                                        "'d','integration_types':[2]}]"));
    put_bad(fp.port, APP "/commands", q("[{'name':'roll','description':"
                                        "'d','contexts':[0,3]}]"));
    put_bad(fp.port, APP "/commands", q("[{'name':'roll','description':"
                                        "'d','contexts':[0,0]}]"));
    put_bad(fp.port, APP "/commands", q("[{'name':'roll','description':"
                                        "'d','default_member_permissions':"
                                        "32}]"));
    put_bad(fp.port, APP "/commands", q("[{'name':'roll','description':"
                                        "'d','default_member_permissions':"
                                        "'manage'}]"));
    /* guild commands know no BOT_DM */
    put_bad(fp.port, APP "/guilds/" GUILD "/commands",
            q("[{'name':'roll','description':'d','contexts':[0,1]}]"));
    put_ok(fp.port, APP "/guilds/" GUILD "/commands",
           q("[{'name':'roll','description':'d','contexts':[0]}]"));
    /* 15 USER commands, not 16 */
    for (int n = 15; n <= 16; n++) {
        int at = snprintf(body, sizeof body, "[");
        for (int i = 0; i < n; i++)
            at += snprintf(body + at, sizeof body - (size_t)at,
                           "%s{\"name\":\"User %d\",\"type\":2}",
                           i ? "," : "", i);
        snprintf(body + at, sizeof body - (size_t)at, "]");
        if (n == 15)
            put_ok(fp.port, APP "/commands", body);
        else
            put_bad(fp.port, APP "/commands", body);
    }
    fake_server_stop(&fp);
}

static void test_context_menus(void **state)
{
    struct fake_proc fp;
    struct fake_ws w;
    char path[512];
    int st = 0;
    (void)state;
    session(&fp, &w);
    json_t *cmds = expect(fp.port, "PUT", APP "/commands", q(
        "[{'name':'Inspect','type':2},{'name':'Quote','type':3},{'name':"
        "'roll','description':'Roll'}]"), 200, NULL);
    /* a reply of the bot's, V2, to target */
    json_t *d = inject(&w, fp.port, "{\"name\":\"roll\"}");
    ix_path(path, sizeof path, d, "callback");
    json_decref(expect(fp.port, "POST", path, q("{'type':4,'data':{"
                       "'flags':32768,'components':[{'type':10,'content':"
                       "'17'}],'allowed_mentions':{'parse':[]}}}"), 204,
                       NULL));
    snprintf(path, sizeof path, "/_test/interactions/%s", id_of(d));
    json_t *cb = fake_get_json(fp.port, path, NULL);
    const char *mid = json_string_value(json_object_get(
        cb, "original_message_id"));
    assert_non_null(mid);

    json_t *r = fake_inject_context_menu(fp.port, 3, "Quote", mid, NULL,
                                         &st);
    assert_int_equal(st, 200);
    json_t *ev = fake_ws_expect(&w, 0, "INTERACTION_CREATE", WAIT_MS);
    json_t *data = json_object_get(json_object_get(ev, "d"), "data");
    assert_int_equal(json_integer_value(json_object_get(data, "type")), 3);
    assert_string_equal(json_string_value(json_object_get(data,
                                                          "target_id")),
                        mid);
    assert_string_equal(id_of(data), id_of(json_array_get(cmds, 1)));
    json_t *pm = json_object_get(json_object_get(json_object_get(
                     data, "resolved"), "messages"), mid);
    assert_int_equal(json_integer_value(json_object_get(pm, "flags")),
                     32768);
    assert_string_equal(json_string_value(json_object_get(json_array_get(
                            json_object_get(pm, "components"), 0),
                            "content")), "17");
    assert_string_equal(id_of(json_object_get(pm, "interaction_metadata")),
                        id_of(d));
    json_decref(r);
    /* a user: users and (in a guild) members */
    r = fake_inject_context_menu(fp.port, 2, "Inspect",
                                 "1100000000000000301", NULL, &st);
    assert_int_equal(st, 200);
    ev = fake_ws_expect(&w, 0, "INTERACTION_CREATE", WAIT_MS);
    data = json_object_get(json_object_get(ev, "d"), "data");
    assert_int_equal(json_integer_value(json_object_get(data, "type")), 2);
    assert_string_equal(id_of(data), id_of(json_array_get(cmds, 0)));
    assert_non_null(json_object_get(json_object_get(json_object_get(
        data, "resolved"), "users"), "1100000000000000301"));
    assert_non_null(json_object_get(json_object_get(json_object_get(
        data, "resolved"), "members"), "1100000000000000301"));
    json_decref(r);
    /* a message the fake does not know needs its description */
    assert_null(fake_inject_context_menu(fp.port, 3, "Quote", "42", NULL,
                                         &st));
    assert_int_equal(st, 400);
    r = fake_inject_context_menu(fp.port, 3, "Quote", "42",
                                 "{\"target_message\":{\"content\":\"hi\","
                                 "\"author\":{\"id\":\"7\"}}}", &st);
    assert_int_equal(st, 200);
    json_decref(r);
    json_decref(cb);
    json_decref(d);
    json_decref(cmds);
    done(&fp, &w);
}

static const char *owner(const json_t *d, const char *key)
{
    return json_string_value(json_object_get(json_object_get(
        d, "authorizing_integration_owners"), key));
}

static void test_user_installs(void **state)
{
    struct fake_proc fp;
    struct fake_ws w;
    char path[512];
    (void)state;
    session(&fp, &w);
    /* a guild install, as before: locale is the user's, guild_locale the
     * server's */
    json_t *d = inject(&w, fp.port, "{\"name\":\"roll\",\"locale\":\"de\"}");
    assert_string_equal(owner(d, "0"), GUILD);
    assert_null(owner(d, "1"));
    assert_int_equal(json_integer_value(json_object_get(d, "context")), 0);
    assert_string_equal(json_string_value(json_object_get(d, "locale")),
                        "de");
    assert_string_equal(json_string_value(json_object_get(d,
                                                          "guild_locale")),
                        "en-US");
    assert_non_null(json_object_get(d, "app_permissions"));
    json_decref(d);
    d = inject(&w, fp.port, "{\"name\":\"roll\",\"guild_locale\":\"fr\"}");
    assert_string_equal(json_string_value(json_object_get(d,
                                                          "guild_locale")),
                        "fr");
    json_decref(d);

    /* installed by its user only, in a server the bot is not in */
    d = inject(&w, fp.port, "{\"name\":\"roll\",\"install\":\"user\","
               "\"channel_id\":\"555\"}");
    assert_string_equal(owner(d, "1"), USER);
    assert_null(owner(d, "0"));
    assert_int_equal(json_integer_value(json_object_get(d, "context")), 0);
    assert_string_equal(json_string_value(json_object_get(
                            d, "app_permissions")), "180224");
    json_t *j = expect(fp.port, "POST", "/channels/555/messages",
                       q("{'content':'x','allowed_mentions':{'parse':[]}}"),
                       403, NULL);
    assert_int_equal(json_integer_value(json_object_get(j, "code")), 50001);
    json_decref(j);
    assert_int_equal(fake_violations_of(fp.port, "user_install_channel"), 1);
    /* it answers through the token: 5 follow-ups, not 6 */
    ix_path(path, sizeof path, d, "callback");
    json_decref(expect(fp.port, "POST", path, q("{'type':4,'data':{"
                       "'content':'1','allowed_mentions':{'parse':[]}}}"),
                       204, NULL));
    hook_path(path, sizeof path, d, "");
    for (int i = 0; i < 5; i++)
        json_decref(expect(fp.port, "POST", path, q("{'content':'f',"
                           "'allowed_mentions':{'parse':[]}}"), 200, NULL));
    json_decref(expect(fp.port, "POST", path, q("{'content':'f',"
                       "'allowed_mentions':{'parse':[]}}"), 400, NULL));
    assert_int_equal(fake_violations_of(fp.port, "user_followup_limit"), 1);
    snprintf(path, sizeof path, "/_test/interactions/%s", id_of(d));
    json_t *rec = fake_get_json(fp.port, path, NULL);
    assert_int_equal(json_integer_value(json_object_get(rec, "followups")),
                     5);
    assert_true(json_is_true(json_object_get(rec, "user_install_only")));
    json_decref(rec);
    json_decref(d);

    /* installed both ways: no follow-up limit */
    d = inject(&w, fp.port, "{\"name\":\"roll\",\"install\":\"both\"}");
    assert_string_equal(owner(d, "0"), GUILD);
    assert_string_equal(owner(d, "1"), USER);
    ix_path(path, sizeof path, d, "callback");
    json_decref(expect(fp.port, "POST", path, "{\"type\":5}", 204, NULL));
    hook_path(path, sizeof path, d, "");
    for (int i = 0; i < 7; i++)
        json_decref(expect(fp.port, "POST", path, q("{'content':'f',"
                           "'allowed_mentions':{'parse':[]}}"), 200, NULL));
    json_decref(d);

    /* a group DM (context 2) and the bot's DM (1) */
    d = inject(&w, fp.port, "{\"name\":\"roll\",\"install\":\"user\","
               "\"context\":2}");
    assert_int_equal(json_integer_value(json_object_get(d, "context")), 2);
    assert_null(json_object_get(d, "guild_id"));
    assert_null(json_object_get(d, "guild_locale"));
    assert_non_null(json_object_get(d, "user"));
    assert_int_equal(json_integer_value(json_object_get(json_object_get(
                         d, "channel"), "type")), 3);
    assert_string_equal(json_string_value(json_object_get(
                            d, "app_permissions")), "180224");
    json_decref(d);
    d = inject(&w, fp.port, "{\"name\":\"roll\",\"install\":\"user\","
               "\"context\":1}");
    assert_string_equal(json_string_value(json_object_get(
                            d, "app_permissions")), "442368");
    assert_string_equal(owner(d, "1"), USER);
    json_decref(d);
    /* PRIVATE_CHANNEL needs a user install */
    assert_null(fake_inject(fp.port, "{\"name\":\"roll\",\"context\":2}"));
    assert_int_equal(fake_violations_of(fp.port, "invalid_form_body"), 0);
    done(&fp, &w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_command_types_and_contexts),
        cmocka_unit_test(test_context_menus),
        cmocka_unit_test(test_user_installs),
    };
    return cmocka_run_group_tests_name("fake_installs", tests, NULL, NULL);
}
