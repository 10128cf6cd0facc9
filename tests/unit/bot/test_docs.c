/*
 * docs/commands.md and /help must describe exactly the commands the bot
 * accepts: every row of the command table appears in the page, with its
 * example, and every command named in the page's headings exists.
 */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_table.h"

static char *read_doc(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/docs/commands.md", FRAY_SOURCE_DIR);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char buf[65536];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

static void test_docs_every_command_documented_with_example(void **state)
{
    (void)state;
    const char *doc = read_doc();
    size_t n;
    const struct cmd_spec *t = cmd_table(&n);
    for (size_t i = 0; i < n; i++) {
        char name[80];
        snprintf(name, sizeof name, "`/%s%s%s`", t[i].command,
                 t[i].sub ? " " : "", t[i].sub ? t[i].sub : "");
        if (strstr(doc, name) == NULL)
            fail_msg("docs/commands.md does not mention %s", name);
        if (strstr(doc, t[i].example) == NULL)
            fail_msg("docs/commands.md lacks the example %s", t[i].example);
        if (strlen(t[i].help) > 100)
            fail_msg("help of %s is over Discord's 100 characters", name);
        for (int k = 0; k < CMD_MAX_SPEC_OPTS && t[i].opts[k].name; k++)
            if (strlen(t[i].opts[k].help) > 100)
                fail_msg("help of %s %s is too long", name,
                         t[i].opts[k].name);
    }
}

static void test_docs_headings_name_real_commands(void **state)
{
    (void)state;
    const char *doc = read_doc();
    int checked = 0;
    for (const char *p = strstr(doc, "### `/"); p != NULL;
         p = strstr(p + 1, "### `/")) {
        char cmd[32] = "", sub[32] = "";
        if (sscanf(p, "### `/%31[a-z] %31[a-z]`", cmd, sub) < 1)
            continue;
        size_t len = strlen(sub);
        if (len > 0 && sub[len - 1] == '`')
            sub[len - 1] = '\0';
        if (cmd_table_find(cmd, sub[0] ? sub : NULL) == NULL)
            fail_msg("docs/commands.md documents /%s %s, which does not "
                     "exist", cmd, sub);
        checked++;
    }
    assert_true(checked >= 10);
}

/* Every `/combat <sub>` a ruleset page mentions exists (the ruleset pages
 * once named commands that had moved to top level). */
static void test_docs_ruleset_pages_name_real_subcommands(void **state)
{
    (void)state;
    static const char *const pages[] = {"generic", "teams", "factions",
                                        "resolve", "cards", "tactical"};
    int checked = 0;
    for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/docs/rulesets/%s.md",
                 FRAY_SOURCE_DIR, pages[i]);
        FILE *f = fopen(path, "rb");
        if (f == NULL)
            continue;
        static char buf[131072];
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[n] = '\0';
        for (const char *p = strstr(buf, "/combat "); p != NULL;
             p = strstr(p + 1, "/combat ")) {
            char sub[32] = "";
            if (sscanf(p, "/combat %31[a-z]", sub) != 1)
                continue;
            if (cmd_table_find("combat", sub) == NULL)
                fail_msg("docs/rulesets/%s.md names /combat %s, which does "
                         "not exist", pages[i], sub);
            checked++;
        }
    }
    assert_true(checked >= 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_docs_every_command_documented_with_example),
        cmocka_unit_test(test_docs_headings_name_real_commands),
        cmocka_unit_test(test_docs_ruleset_pages_name_real_subcommands),
    };
    return cmocka_run_group_tests_name("docs", tests, NULL, NULL);
}
