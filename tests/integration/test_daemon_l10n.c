/* test_daemon_l10n.c - languages end to end through fake-discord
 * (docs/internals/i18n.md): the daemon registers every command with its
 * localizations in de, fr, es-ES, pt-BR and pl, which the fake accepts
 * under Discord's rules; a user whose Discord speaks German gets /help in
 * German while an English one's stays English, and a Polish one's
 * validation error is Polish in a German server; /config language: answers
 * the table in the server's new language. */
#include "tracker_util.h"

/* Inject /name (options taken, NULL: none) as user with the member
 * permissions perms (NULL: none) and the locales given. */
static json_t *as_locale(struct harness *h, const char *user,
                         const char *perms, const char *locale,
                         const char *guild_locale, const char *name,
                         json_t *opts)
{
    json_t *desc = json_pack("{s:s, s:s, s:s, s:s, s:s, s:o}", "type",
                             "command", "name", name, "user_id", user,
                             "locale", locale, "guild_locale", guild_locale,
                             "options", opts ? opts : json_array());
    if (perms != NULL)
        json_object_set_new(desc, "permissions", json_string(perms));
    json_t *cb = harness_interact(h, desc);
    json_decref(desc);
    return cb;
}

static void test_l10n_registered_and_spoken(void **st)
{
    struct harness h;
    char text[8192];
    (void)st;
    harness_start(&h, NULL, NULL, true);
    harness_wait_stat(&h, "command_puts", 1);
    /* the fake took the PUT, so every localization passed its rules */
    json_t *c = fake_get_json(h.fake.port, "/_test/commands", NULL);
    json_t *global = json_object_get(json_object_get(c, "scopes"), "global");
    json_t *roll = NULL;
    for (size_t i = 0; i < json_array_size(global); i++) {
        json_t *cmd = json_array_get(global, i);
        if (strcmp(json_string_value(json_object_get(cmd, "name")),
                   "roll") == 0)
            roll = cmd;
    }
    assert_non_null(roll);
    json_t *names = json_object_get(roll, "name_localizations");
    assert_string_equal(json_string_value(json_object_get(names, "de")),
                        "wurf");
    assert_string_equal(json_string_value(json_object_get(names, "pl")),
                        "rzut");
    assert_non_null(json_object_get(json_object_get(roll,
                                                    "description_"
                                                    "localizations"),
                                    "pt-BR"));
    json_decref(c);

    /* the reader's language: a private reply */
    json_t *cb = as_locale(&h, ALICE, NULL, "de", "en-US", "help", NULL);
    embeds_text(cb, text, sizeof text);
    assert_non_null(strstr(text, "fray in einer Minute"));
    assert_int_equal(flags_of(cb) & 64, 64);
    json_decref(cb);
    cb = as_locale(&h, ALICE, NULL, "en-US", "de", "help", NULL);
    embeds_text(cb, text, sizeof text);
    assert_non_null(strstr(text, "fray in one minute"));
    json_decref(cb);
    /* a validation error too, whatever the server speaks */
    cb = as_locale(&h, ALICE, NULL, "pl", "de", "roll",
                   json_pack("[{s:s,s:s}]", "name", "dce", "value", "2d6"));
    assert_non_null(content_of(cb));
    assert_non_null(strstr(content_of(cb), "nieznana opcja `dce` dla /roll "
                                           "(czy chodziło o `dice`?)"));
    assert_int_equal(flags_of(cb) & 64, 64);
    json_decref(cb);

    /* the server's: /config language: answers the table in it */
    cb = as_locale(&h, GM, "32", "en-US", "fr", "config",
                   json_pack("[{s:s,s:s}]", "name", "language", "value",
                             "pl"));
    const char *content = content_of(cb);
    assert_non_null(content);
    assert_non_null(strstr(content, "Publiczne wiadomości fray"));
    assert_int_equal(flags_of(cb) & 64, 0);
    json_decref(cb);
    harness_check_violations(&h);
    harness_stop(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_l10n_registered_and_spoken),
    };
    return cmocka_run_group_tests_name("daemon_l10n", tests, NULL, NULL);
}
