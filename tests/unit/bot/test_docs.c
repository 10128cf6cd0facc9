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
#include "i18n.h"
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
    cli_docs_index(&b, I18N_EN);
    check_generated("README.md", &b);
    size_t n;
    const struct rs_system *const *all = rs_all(&n);
    for (size_t i = 0; i < n; i++) {
        char name[64];
        sbuf_reset(&b);
        cmd_doc_system(&b, all[i], CMD_DOC_FILE, I18N_EN);
        snprintf(name, sizeof name, "%s.md", all[i]->id);
        check_generated(name, &b);
    }
    sbuf_cleanup(&b);
}

/* One language's whole reference, as `fray docs --lang` writes it: the
 * index, then every system's page. */
static void reference_in(struct sbuf *b, enum i18n_lang lang)
{
    size_t n;
    const struct rs_system *const *all = rs_all(&n);
    cli_docs_index(b, lang);
    for (size_t i = 0; i < n; i++)
        cmd_doc_system(b, all[i], CMD_DOC_FILE, lang);
}

/* The catalog's i-th message (its key, and its translation) of a .mo. */
static uint32_t mo_word(const unsigned char *mo, size_t at)
{
    uint32_t w;
    memcpy(&w, mo + at, sizeof w);
    return w;
}

static const char *mo_string(const unsigned char *mo, size_t len,
                             uint32_t table, uint32_t i)
{
    uint32_t off = mo_word(mo, table + 8 * i + 4);
    assert_true(off < len);
    return (const char *)mo + off;
}

/* The longest stretch of s with no conversion and no line break, into
 * out: the part of a message that reaches a page word for word. */
static void literal_run(const char *s, char *out, size_t cap)
{
    size_t best = 0, start = 0, i = 0, n = strlen(s);
    out[0] = '\0';
    for (; i <= n; i++) {
        bool cut = i == n || s[i] == '\n' || s[i] == '%';
        if (!cut)
            continue;
        if (i - start > best && i - start < cap) {
            best = i - start;
            memcpy(out, s + start, best);
            out[best] = '\0';
        }
        if (i < n && s[i] == '%')     /* skip the conversion */
            while (i + 1 < n && strchr("sdl$0123456789.", s[i + 1]) != NULL)
                i++;
        start = i + 1;
    }
}

/* `fray docs --lang de` (and pl): every command is there, under its
 * English name, and no sentence the catalog translates is left in
 * English. The committed English reference is the other test's. */
static void test_docs_reference_in_every_language(void **state)
{
    (void)state;
    static const enum i18n_lang langs[] = {I18N_DE, I18N_PL};
    struct sbuf en, tr;
    sbuf_init(&en, 1 << 21);
    sbuf_init(&tr, 1 << 21);
    reference_in(&en, I18N_EN);
    for (size_t l = 0; l < sizeof langs / sizeof langs[0]; l++) {
        sbuf_reset(&tr);
        reference_in(&tr, langs[l]);
        assert_int_equal(sbuf_error(&tr), SBUF_OK);
        const char *doc = sbuf_str(&tr);
        /* every command of the core table and of every system */
        size_t n;
        const struct cmd_spec *t = cmd_table(&n);
        for (size_t i = 0; i < n; i++) {
            char name[80], head[96];
            cmd_spec_name(&t[i], name, sizeof name);
            snprintf(head, sizeof head, "### `%s`\n", name);
            if (strstr(doc, head) == NULL)
                fail_msg("%s: %s is missing", i18n_code(langs[l]), name);
        }
        const struct rs_system *const *all = rs_all(&n);
        for (size_t k = 0; k < n; k++)
            for (int i = 0; i < all[k]->ncmds; i++) {
                struct cmd_spec v;
                char name[80], head[96];
                assert_true(cmd_lookup(all[k]->cmds[i].verb,
                                       all[k]->cmds[i].sub, all[k], &v));
                cmd_spec_name(&v, name, sizeof name);
                snprintf(head, sizeof head, "### `%s`\n", name);
                if (strstr(doc, head) == NULL)
                    fail_msg("%s: %s (%s) is missing", i18n_code(langs[l]),
                             name, all[k]->id);
            }
        /* every translated sentence of the catalog the English reference
         * shows is gone from this one */
        size_t len;
        const unsigned char *mo = i18n_catalog(langs[l], &len);
        assert_non_null(mo);
        uint32_t count = mo_word(mo, 8), ids = mo_word(mo, 12);
        uint32_t strs = mo_word(mo, 16);
        int checked = 0;
        for (uint32_t i = 0; i < count; i++) {
            const char *id = mo_string(mo, len, ids, i);
            const char *str = mo_string(mo, len, strs, i);
            char run[512];
            if (id[0] == '\0' || strchr(id, '\x04') != NULL)
                continue;           /* the header, or a name or choice */
            literal_run(id, run, sizeof run);
            if (strlen(run) < 24 || strchr(run, ' ') == NULL ||
                strstr(str, run) != NULL ||
                strstr(sbuf_str(&en), run) == NULL)
                continue;
            checked++;
            if (strstr(doc, run) != NULL)
                fail_msg("%s: \"%s\" is still English in the reference",
                         i18n_code(langs[l]), run);
        }
        printf("%s: %d sentences checked\n", i18n_code(langs[l]), checked);
        assert_true(checked >= 40);
    }
    /* Polish counts in its own three forms (tr holds the last, pl) */
    assert_non_null(strstr(sbuf_str(&tr), "# Spis poleceń"));
    assert_non_null(strstr(sbuf_str(&tr), "najwyżej 24 bajty)"));
    assert_non_null(strstr(sbuf_str(&tr), "najwyżej 20 bajtów)"));
    assert_non_null(strstr(sbuf_str(&tr), "; trwa 1 rundę"));
    sbuf_cleanup(&en);
    sbuf_cleanup(&tr);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_docs_reference_is_generated),
        cmocka_unit_test(test_docs_reference_in_every_language),
        cmocka_unit_test(test_docs_every_command_documented_with_example),
        cmocka_unit_test(test_docs_headings_name_real_commands),
        cmocka_unit_test(test_docs_ruleset_pages_name_real_subcommands),
    };
    return cmocka_run_group_tests_name("docs", tests, NULL, NULL);
}
