/* test_interaction_modal.c - a MODAL_SUBMIT (discord-interface-2026.md
 * section 2.3) decoded into the options the typed command takes: Labels
 * holding a Text Input, a String Select, a Checkbox and a File Upload
 * (with its attachment from data.resolved), Text Displays skipped, empty
 * and unticked fields left out; a custom_id that is not one of our forms
 * still decodes, as req.form_version -1, for the command layer to refuse;
 * malformed fields are refused with a reason, never a crash. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_form.h"
#include "interaction.h"

#define HEAD                                                                 \
    "{\"type\":5,\"id\":\"1200000000000000009\",\"application_id\":"       \
    "\"1100000000000000001\",\"token\":\"tok\",\"guild_id\":\"100\","      \
    "\"channel_id\":\"200\",\"member\":{\"user\":{\"id\":\"300\","         \
    "\"username\":\"al\"},\"permissions\":\"0\"},\"data\":"

static const char *opt(const struct cmd_req *r, const char *name)
{
    for (int i = 0; i < r->nopts; i++)
        if (strcmp(r->opts[i].name, name) == 0)
            return r->opts[i].value;
    return NULL;
}

static enum bot_err decode(const char *data, struct interaction *it,
                           char *why, size_t cap)
{
    char text[4096];
    snprintf(text, sizeof text, "%s%s}", HEAD, data);
    json_t *d = json_loads(text, 0, NULL);
    assert_non_null(d);
    enum bot_err e = interaction_decode(d, 1000, it, why, cap);
    json_decref(d);
    if (e != BOT_OK)
        interaction_cleanup(it);
    return e;
}

static void test_modal_fields(void **state)
{
    (void)state;
    struct interaction it;
    char why[256];
    assert_int_equal(
        decode("{\"custom_id\":\"v2:character/import:0.1:form\","
               "\"components\":["
               "{\"type\":10,\"id\":1},"
               "{\"type\":18,\"id\":2,\"component\":{\"type\":19,\"id\":3,"
               "\"custom_id\":\"file\",\"values\":[\"111\"]}},"
               "{\"type\":18,\"id\":4,\"component\":{\"type\":23,\"id\":5,"
               "\"custom_id\":\"replace\",\"value\":true}}],"
               "\"resolved\":{\"attachments\":{\"111\":{\"id\":\"111\","
               "\"filename\":\"a.json\",\"size\":12,\"url\":"
               "\"http://127.0.0.1/a.json\"}}}}",
               &it, why, sizeof why),
        BOT_OK);
    assert_int_equal(it.type, INTERACTION_MODAL_SUBMIT);
    assert_string_equal(it.req.command, "character");
    assert_string_equal(it.req.sub, "import");
    assert_int_equal(it.req.form_version, CMD_FORM_VERSION);
    assert_false(it.req.forms);
    assert_string_equal(opt(&it.req, "file"), "111");
    assert_string_equal(opt(&it.req, "replace"), "true");
    assert_string_equal(it.att.option, "file");
    assert_string_equal(it.att.filename, "a.json");
    interaction_cleanup(&it);

    assert_int_equal(
        decode("{\"custom_id\":\"v2:combat/join:77.1:form\",\"components\":["
               "{\"type\":18,\"id\":1,\"component\":{\"type\":3,\"id\":2,"
               "\"custom_id\":\"character\",\"values\":[\"Aria\"]}},"
               "{\"type\":18,\"id\":3,\"component\":{\"type\":4,\"id\":4,"
               "\"custom_id\":\"name\",\"value\":\"\"}},"
               "{\"type\":18,\"id\":5,\"component\":{\"type\":23,\"id\":6,"
               "\"custom_id\":\"hidden\",\"value\":false}},"
               "{\"type\":18,\"id\":7,\"component\":{\"type\":4,\"id\":8,"
               "\"custom_id\":\"hp\",\"value\":\"20\"}}]}",
               &it, why, sizeof why),
        BOT_OK);
    assert_int_equal(it.req.expect_fight, 77);
    assert_int_equal(it.req.expect_version, -1);
    assert_int_equal(it.req.nopts, 2);
    assert_string_equal(opt(&it.req, "character"), "Aria");
    assert_string_equal(opt(&it.req, "hp"), "20");
    interaction_cleanup(&it);

    /* the system a form was opened for comes back from its custom_id */
    assert_int_equal(
        decode("{\"custom_id\":\"v2:character/create:0.1:form=teams\","
               "\"components\":[]}", &it, why, sizeof why),
        BOT_OK);
    assert_string_equal(opt(&it.req, "system"), "teams");
    interaction_cleanup(&it);
}

static void test_modal_foreign_and_malformed(void **state)
{
    (void)state;
    struct interaction it;
    char why[256];
    static const char *const foreign[] = {
        "{\"custom_id\":\"not ours\",\"components\":[]}",
        "{\"custom_id\":\"v2:combat/next:1.5\",\"components\":[]}",
        "{\"custom_id\":\"v2:combat/add:1.0:form\",\"components\":[]}",
        "{\"components\":[]}",
    };
    for (size_t i = 0; i < sizeof foreign / sizeof foreign[0]; i++) {
        assert_int_equal(decode(foreign[i], &it, why, sizeof why), BOT_OK);
        assert_int_equal(it.req.form_version, -1);
        assert_int_equal(it.req.nopts, 0);
        interaction_cleanup(&it);
    }
    static const char *const bad[] = {
        /* a field whose value has the wrong JSON type */
        "{\"custom_id\":\"v2:macro/save:0.1:form\",\"components\":[{\"type\":"
        "18,\"component\":{\"type\":4,\"custom_id\":\"name\",\"value\":5}}]}",
        "{\"custom_id\":\"v2:macro/save:0.1:form\",\"components\":[{\"type\":"
        "18,\"component\":{\"type\":23,\"custom_id\":\"server\",\"value\":"
        "\"yes\"}}]}",
        /* an unknown field type, a bad name, a Label with nothing */
        "{\"custom_id\":\"v2:macro/save:0.1:form\",\"components\":[{\"type\":"
        "18,\"component\":{\"type\":99,\"custom_id\":\"name\"}}]}",
        "{\"custom_id\":\"v2:macro/save:0.1:form\",\"components\":[{\"type\":"
        "18,\"component\":{\"type\":4,\"custom_id\":\"Na me\",\"value\":\"x\""
        "}}]}",
        "{\"custom_id\":\"v2:macro/save:0.1:form\",\"components\":[{\"type\":"
        "18}]}",
        /* more fields than a modal holds */
        "{\"custom_id\":\"v2:macro/save:0.1:form\",\"components\":[{},{},{},"
        "{},{},{}]}",
        /* a file that is not resolved */
        "{\"custom_id\":\"v2:npc/import:0.1:form\",\"components\":[{\"type\":"
        "18,\"component\":{\"type\":19,\"custom_id\":\"file\",\"values\":"
        "[\"9\"]}}]}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        why[0] = '\0';
        assert_int_equal(decode(bad[i], &it, why, sizeof why), BOT_INVALID);
        assert_true(why[0] != '\0');
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_modal_fields),
        cmocka_unit_test(test_modal_foreign_and_malformed),
    };
    return cmocka_run_group_tests_name("interaction_modal", tests, NULL,
                                       NULL);
}
