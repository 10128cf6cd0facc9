/* test_render_text.c - markdown to plain text, and the layout of a msg. */
#include "support.h"

#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "render_text.h"
#include "sbuf.h"

static char *md_to_text(const char *md, const struct render_text_opts *o)
{
    struct sbuf b;

    sbuf_init(&b, RENDER_TEXT_MAX);
    render_text_markdown(md, o, &b);
    assert_int_equal(sbuf_error(&b), SBUF_OK);
    return sbuf_take(&b);
}

static void check_md(const char *md, const char *want)
{
    char *got = md_to_text(md, NULL);
    if (strcmp(got, want) != 0)
        fail_msg("markdown `%s`:\n  got  `%s`\n  want `%s`", md, got, want);
    free(got);
}

static void test_render_text_strips_markup(void **state)
{
    (void)state;
    check_md("**Goblin 1** hits ~~Orc~~ for __5__", "Goblin 1 hits Orc for 5");
    check_md("*italic* and _it_ and ***both***", "italic and it and both");
    check_md("||hidden|| text", "hidden text");
    check_md("**a *b* c**", "a b c");
    check_md("**Aria** and **Bram**", "Aria and Bram");
    check_md("`  17` **Goblin**", "  17 Goblin");
    check_md("roll `1d20*2` now", "roll 1d20*2 now");
    check_md("```\nline 1\nline 2\n```", "line 1\nline 2");
    check_md("```c\nint x;\n```", "int x;");
    check_md("> quoted\n# Title\n## Sub\n-# small\nplain",
             "quoted\nTitle\nSub\nsmall\nplain");
    check_md("a > b # c", "a > b # c");
}

/* A struck die face is a die that did not count (advantage's other d20,
 * a dropped die): the terminal shows it in parentheses, as `fray roll`
 * does; struck words (a downed name) just lose the strike. */
static void test_render_text_struck_dice(void **state)
{
    (void)state;
    check_md("[~~4~~, **20**]+5", "[(4), 20]+5");
    check_md("[3, ~~1~~!, 6]", "[3, (1)!, 6]");
    check_md("[~~-~~, +, 0]", "[(-), +, 0]");
    check_md("~~Goblin 1~~ (down)", "Goblin 1 (down)");
    check_md("**~~4~~5**", "(4)5");
    check_md("~~12~~ not kept", "(12) not kept");
}

static void test_render_text_keeps_lone_markers(void **state)
{
    (void)state;
    check_md("2*3 = 6", "2*3 = 6");
    check_md("a * b * c", "a * b * c");
    check_md("snake_case_name", "snake_case_name");
    check_md("**unclosed", "**unclosed");
    check_md("~single~", "~single~");
    check_md("`unclosed code", "`unclosed code");
    check_md("**two\nlines**", "**two\nlines**");
    check_md("\\", "\\");
    check_md("a\\b", "a\\b");
}

/* A link is copied as it is, as Discord shows it: a shared page's token
 * may hold '_' (base64url), and "/s/x-_ab_" is not emphasis; markup
 * around a link still is. */
static void test_render_text_keeps_links(void **state)
{
    (void)state;
    check_md("https://fray.example/s/x-_ab_cd\nnext",
             "https://fray.example/s/x-_ab_cd\nnext");
    check_md("see http://h/_a_ and *b*", "see http://h/_a_ and b");
    check_md("_open https://h/s/q_ close_", "open https://h/s/q_ close");
    check_md("**<https://h/__x__>**", "<https://h/__x__>");
    check_md("nohttps://h/_a_", "nohttps://h/a");
}

/* What msg_escape() does to user text, render_text undoes exactly (but
 * for line breaks, which msg_escape turns into spaces). */
static void test_render_text_undoes_msg_escape(void **state)
{
    static const char *const names[] = {
        "Goblin Archer", "@everyone", "@here and <@123> and <@&9>",
        "Robert'); DROP TABLE encounters;--", "a*b_c~d`e|f>g#h\\i",
        "**not bold**", "~~not struck~~", "[link](http://x)", "Zo\xC3\xAB",
        "_snake_", "`code`", "x@y",
    };
    (void)state;

    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char *esc = msg_escape(names[i]);
        assert_non_null(esc);
        char *back = md_to_text(esc, NULL);
        if (strcmp(back, names[i]) != 0)
            fail_msg("`%s` -> `%s` -> `%s`", names[i], esc, back);
        free(esc);
        free(back);
    }
}

/* Every character msg_escape() changes, byte for byte; msg_escape_to()
 * appends the same after what is there. */
static void test_render_text_msg_escape_exact(void **state)
{
    static const char in[] = "a\\*_~`|>#<[]()\n\r\t@b plain \xC3\xA9";
    static const char want[] = "a\\\\\\*\\_\\~\\`\\|\\>\\#\\<\\[\\]\\(\\)"
                               "   @\xE2\x80\x8B" "b plain \xC3\xA9";
    (void)state;
    char *esc = msg_escape(in);
    assert_string_equal(esc, want);
    free(esc);
    esc = msg_escape("");
    assert_string_equal(esc, "");
    free(esc);
    struct sbuf b;
    sbuf_init(&b, 1024);
    sbuf_add(&b, "**");
    msg_escape_to(&b, in);
    msg_escape_to(&b, "");
    assert_string_equal(sbuf_str(&b) + 2, want);
    assert_memory_equal(sbuf_str(&b), "**", 2);
    sbuf_cleanup(&b);
}

static const char *name_of(void *ud, uint64_t id)
{
    (void)ud;
    return id == 42 ? "alice" : NULL;
}

static void test_render_text_mentions_and_spaces(void **state)
{
    struct render_text_opts o = {name_of, NULL};
    (void)state;

    char *t = md_to_text("<@42>, your turn (<@!42>, <@7>, <@x>)", &o);
    assert_string_equal(t, "@alice, your turn (@alice, <@7>, <@x>)");
    free(t);
    t = md_to_text("<@42>", NULL);
    assert_string_equal(t, "<@42>");
    free(t);
    check_md("@\xE2\x80\x8B" "everyone", "@everyone");
    check_md("\xE3\x80\x80Goblin", "  Goblin");
    check_md("\xE2\x80\x8B", "\xE2\x80\x8B");
}

static void test_render_text_layout(void **state)
{
    struct msg m;
    struct sbuf b;
    struct msg_embed *e;
    (void)state;

    msg_init(&m);
    assert_true(msg_set_content(&m, "**Aria** hits!"));
    e = msg_add_embed(&m, MSG_STYLE_INFO, "Bridge \\*ambush\\* \xE2\x80\x94 "
                      "round 2");
    assert_non_null(e);
    assert_true(msg_embed_set_description(e, "\xE2\x96\xB6 `  17` **Aria**"
                                          "\n\xE3\x80\x80`   9` ~~Goblin~~"
                                          "\n"));
    assert_true(msg_embed_add_field(e, "Roll", "`1d20+5` = **17**", true));
    assert_true(msg_embed_add_field(e, "Log", "one\ntwo", false));
    assert_true(msg_embed_add_field(e, "\xE2\x80\x8B", "no name", false));
    assert_true(msg_embed_set_footer(e, "Generic d20 \xC2\xB7 version 7"));
    e = msg_add_embed(&m, MSG_STYLE_ERROR, NULL);
    assert_non_null(e);
    assert_true(msg_embed_set_description(e, "second"));
    assert_true(msg_add_button(&m, "End turn", "next:1:7", MSG_BTN_PRIMARY));
    assert_true(msg_add_button(&m, "Undo", "undo:1:7", MSG_BTN_SECONDARY));
    assert_true(msg_add_button(&m, "Gone", "x", MSG_BTN_DANGER));
    m.buttons[2].disabled = true;
    assert_true(msg_set_select(&m, "target:1", "Target"));
    assert_true(msg_select_add(&m, "Goblin 1", "g1"));
    assert_true(msg_select_add(&m, "Goblin 2", "g2"));

    sbuf_init(&b, RENDER_TEXT_MAX);
    render_text(&m, NULL, &b);
    assert_int_equal(sbuf_error(&b), SBUF_OK);
    assert_string_equal(sbuf_str(&b),
                        "Aria hits!\n"
                        "\n"
                        "Bridge *ambush* \xE2\x80\x94 round 2\n"
                        "\xE2\x96\xB6   17 Aria\n"
                        "     9 Goblin\n"
                        "Roll: 1d20+5 = 17\n"
                        "Log:\n"
                        "  one\n"
                        "  two\n"
                        "no name\n"
                        "Generic d20 \xC2\xB7 version 7\n"
                        "\n"
                        "second\n"
                        "[End turn] [Undo]\n"
                        "choose (Target): Goblin 1 | Goblin 2\n");
    sbuf_cleanup(&b);
    msg_cleanup(&m);
}

static void test_render_text_empty_msg(void **state)
{
    struct msg m;
    struct sbuf b;
    (void)state;

    msg_init(&m);
    sbuf_init(&b, RENDER_TEXT_MAX);
    render_text(&m, NULL, &b);
    assert_string_equal(sbuf_str(&b), "");
    sbuf_cleanup(&b);
    msg_cleanup(&m);
}

/* A small ceiling cuts the text and says so; nothing is overrun. */
static void test_render_text_respects_ceiling(void **state)
{
    struct msg m;
    struct sbuf b;
    (void)state;

    msg_init(&m);
    assert_true(msg_set_content(&m, "**%s**", "a long line of text"));
    sbuf_init(&b, 8);
    render_text(&m, NULL, &b);
    assert_int_equal(sbuf_error(&b), SBUF_TRUNCATED);
    assert_string_equal(sbuf_str(&b), "a long l");
    sbuf_cleanup(&b);
    msg_cleanup(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_render_text_strips_markup),
        cmocka_unit_test(test_render_text_struck_dice),
        cmocka_unit_test(test_render_text_keeps_lone_markers),
        cmocka_unit_test(test_render_text_keeps_links),
        cmocka_unit_test(test_render_text_undoes_msg_escape),
        cmocka_unit_test(test_render_text_msg_escape_exact),
        cmocka_unit_test(test_render_text_mentions_and_spaces),
        cmocka_unit_test(test_render_text_layout),
        cmocka_unit_test(test_render_text_empty_msg),
        cmocka_unit_test(test_render_text_respects_ceiling),
    };
    return cmocka_run_group_tests_name("render_text", tests, NULL, NULL);
}
