/* test_register.c - command definitions generated from cmd_table() respect
 * Discord's rules, and the hash is stable. */
#include "support.h"

#include <stdlib.h>
#include <string.h>

#include "register.h"
#include "render_discord.h"

static void check_opts(json_t *opts)
{
    bool seen_optional = false;
    size_t i;
    json_t *o;
    assert_true(json_array_size(opts) <= 25);
    json_array_foreach(opts, i, o) {
        const char *name = json_string_value(json_object_get(o, "name"));
        const char *d = json_string_value(json_object_get(o, "description"));
        assert_non_null(name);
        assert_true(strlen(name) >= 1 && strlen(name) <= 32);
        assert_non_null(d);
        assert_true(render_discord_chars(d) >= 1 &&
                    render_discord_chars(d) <= 100);
        if (json_integer_value(json_object_get(o, "type")) == 1) {
            check_opts(json_object_get(o, "options"));
            continue;
        }
        if (json_is_true(json_object_get(o, "required")))
            assert_false(seen_optional);   /* required options first */
        else
            seen_optional = true;
    }
}

static void test_register_body_valid(void **state)
{
    json_t *cmds = register_build(NULL, 0, true), *c;
    size_t i;
    char *a, *b;
    char h1[17], h2[17];
    (void)state;
    assert_non_null(cmds);
    assert_true(json_array_size(cmds) >= 1);
    assert_true(json_array_size(cmds) <= 100);
    json_array_foreach(cmds, i, c) {
        assert_int_equal(json_integer_value(json_object_get(c, "type")), 1);
        check_opts(json_object_get(c, "options"));
    }
    a = json_dumps(cmds, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(cmds);
    cmds = register_build(NULL, 0, true);
    b = json_dumps(cmds, JSON_COMPACT | JSON_SORT_KEYS);
    register_hash(a, h1);
    register_hash(b, h2);
    assert_string_equal(h1, h2);
    assert_int_equal(strlen(h1), 16);
    register_hash("x", h2);
    assert_string_not_equal(h1, h2);
    free(a);
    free(b);
    json_decref(cmds);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_register_body_valid),
    };
    return cmocka_run_group_tests_name("register", tests, NULL, NULL);
}
