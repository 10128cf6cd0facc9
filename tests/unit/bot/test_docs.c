/*
 * docs/commands.md and /help must describe exactly the commands the bot
 * accepts: every row of the command table appears in the page, with its
 * example, and every command named in the page's headings exists.
 */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_doc.h"
#include "cmd_table.h"
#include "rs.h"
#include "sbuf.h"

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
        struct cmd_spec v;
        if (!cmd_lookup(cmd, sub[0] ? sub : NULL, NULL, &v))
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
    size_t nsys;
    const struct rs_system *const *all = rs_all(&nsys);
    int checked = 0;
    for (size_t i = 0; i < nsys; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/docs/rulesets/%s.md",
                 FRAY_SOURCE_DIR, all[i]->id);
        FILE *f = fopen(path, "rb");
        assert_non_null(f);     /* every system has its page */
        static char buf[131072];
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[n] = '\0';
        for (const char *p = strstr(buf, "/combat "); p != NULL;
             p = strstr(p + 1, "/combat ")) {
            char sub[32] = "";
            if (sscanf(p, "/combat %31[a-z]", sub) != 1)
                continue;
            struct cmd_spec v;
            if (!cmd_lookup("combat", sub, NULL, &v))
                fail_msg("docs/rulesets/%s.md names /combat %s, which does "
                         "not exist", all[i]->id, sub);
            checked++;
        }
    }
    assert_true(checked >= 10);
}

/* The generated reference under docs/commands/ is exactly what `fray docs`
 * writes from today's declarations. */
static void check_generated(const char *name, const struct sbuf *want)
{
    char path[512];
    snprintf(path, sizeof path, "%s/docs/commands/%s", FRAY_SOURCE_DIR, name);
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        fail_msg("%s is missing: run `fray docs docs/commands`", path);
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    if (strcmp(buf, sbuf_str(want)) != 0)
        fail_msg("docs/commands/%s is not what `fray docs` writes; run "
                 "`fray docs docs/commands`", name);
}

static void test_docs_reference_is_generated(void **state)
{
    (void)state;
    struct sbuf b;
    sbuf_init(&b, 1 << 20);
    cli_docs_index(&b);
    check_generated("README.md", &b);
    size_t n;
    const struct rs_system *const *all = rs_all(&n);
    for (size_t i = 0; i < n; i++) {
        char name[64];
        sbuf_reset(&b);
        cmd_doc_system(&b, all[i], CMD_DOC_FILE);
        snprintf(name, sizeof name, "%s.md", all[i]->id);
        check_generated(name, &b);
    }
    sbuf_cleanup(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_docs_reference_is_generated),
        cmocka_unit_test(test_docs_every_command_documented_with_example),
        cmocka_unit_test(test_docs_headings_name_real_commands),
        cmocka_unit_test(test_docs_ruleset_pages_name_real_subcommands),
    };
    return cmocka_run_group_tests_name("docs", tests, NULL, NULL);
}
