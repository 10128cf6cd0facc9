/*
 * Tests for /combat share (bot/cmd/cmd_share.c) and the page it leads to
 * (bot/render/render_web.c): one link per fight, a new one after a
 * revoke, none after the end; every dead token is the same NOTFOUND; the
 * page is the players' view (a hidden combatant's name and numbers are
 * nowhere in it) and every byte of a name is escaped; fray's markdown
 * becomes only the tags it stands for.
 */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd_fixture.h"
#include "cmd_share.h"
#include "render_web.h"
#include "sbuf.h"
#include "store.h"

enum { GM = 100, ALICE = 200, BOB = 300 };

#define URL "https://fray.example.org"

/* /combat share (revoke when asked) as user; the token into tok, "" when
 * the reply has no link. */
static bool share(struct cmd_fx *f, uint64_t user, bool revoke, char *tok)
{
    bool ok = revoke ? cmd_fx_run(f, user, "combat", "share", "revoke",
                                  "true", NULL)
                     : cmd_fx_run(f, user, "combat", "share", NULL);
    const char *p = strstr(f->text, URL "/s/");
    tok[0] = '\0';
    if (p != NULL)
        snprintf(tok, RANDTOK_LEN + 1, "%s", p + strlen(URL "/s/"));
    return ok;
}

/* The page's fragment for tok, or NULL when it shows nothing. */
static char *page(struct cmd_fx *f, const char *tok)
{
    struct cmd_share_view v;
    struct sbuf b;
    if (cmd_share_view_load(f->store, tok, &v) != BOT_OK)
        return NULL;
    sbuf_init(&b, RENDER_WEB_MAX);
    render_web_fight(&b, v.enc, v.change, v.nchanges, v.lang);
    cmd_share_view_cleanup(&v);
    assert_int_equal(sbuf_error(&b), SBUF_OK);
    return sbuf_take(&b);
}

static void test_share_link_life(void **state)
{
    struct cmd_fx *f = *state;
    char tok[RANDTOK_LEN + 1], again[RANDTOK_LEN + 1], *html;

    f->ctx.web_url = URL;
    cmd_fx_generic_fight(f, GM, ALICE, BOB);
    assert_false(share(f, ALICE, false, tok));        /* the GM's */
    assert_string_equal(tok, "");
    assert_true(share(f, GM, false, tok));
    assert_true(f->reply.ephemeral);
    assert_true(randtok_valid(tok));
    assert_true(share(f, GM, false, again));
    assert_string_equal(tok, again);                   /* one per fight */
    html = page(f, tok);
    assert_non_null(html);
    free(html);

    /* forged, malformed, unknown: NOTFOUND, as revoked and ended are */
    struct cmd_share_view v;
    assert_int_equal(cmd_share_view_load(f->store,
                                         "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
                                         &v), BOT_NOTFOUND);
    assert_int_equal(cmd_share_view_load(f->store, "", &v), BOT_NOTFOUND);
    assert_int_equal(cmd_share_view_load(f->store, "../../x", &v),
                     BOT_NOTFOUND);
    assert_true(share(f, GM, true, again));
    assert_null(page(f, tok));
    assert_true(share(f, GM, false, again));
    assert_string_not_equal(tok, again);               /* a new link */
    assert_true(cmd_fx_run(f, GM, "combat", "end", "confirm", "true", NULL));
    assert_null(page(f, again));
    /* a new fight in the channel: the old link stays dead */
    cmd_fx_generic_fight(f, GM, ALICE, BOB);
    assert_null(page(f, again));
}

static void test_share_off_says_so(void **state)
{
    struct cmd_fx *f = *state;
    char tok[RANDTOK_LEN + 1];
    cmd_fx_generic_fight(f, GM, ALICE, BOB);
    assert_false(share(f, GM, false, tok));
    cmd_fx_has(f, "the web page is off");
}

/* The players' view: the hidden Shade is "someone unseen", its name and
 * numbers nowhere, even after it was hurt and had its turn. */
static void test_share_page_is_the_players_view(void **state)
{
    struct cmd_fx *f = *state;
    char tok[RANDTOK_LEN + 1], *html;

    f->ctx.web_url = URL;
    cmd_fx_generic_fight(f, GM, ALICE, BOB);
    assert_true(cmd_fx_run(f, GM, "combat", "hp", "name", "Shade", "change",
                           "-3", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "condition", "name", "Shade",
                           "condition", "Prone", NULL));
    for (int i = 0; i < 4; i++)
        assert_true(cmd_fx_run(f, GM, "combat", "next", NULL));
    assert_true(share(f, GM, false, tok));
    html = page(f, tok);
    assert_non_null(html);
    assert_non_null(strstr(html, "Someone unseen"));
    assert_non_null(strstr(html, "<b>Aria</b>"));
    assert_null(strstr(html, "Shade"));
    assert_null(strstr(html, "hp 6/9"));
    assert_null(strstr(html, "Prone"));
    free(html);
}

/* The countdowns the players read at the top of their tracker are on the
 * page too; a hidden one, and one counting the hidden Shade's turns, are
 * not: neither their names nor their counts. */
static void test_share_page_shows_countdowns(void **state)
{
    struct cmd_fx *f = *state;
    char tok[RANDTOK_LEN + 1], *html;

    f->ctx.web_url = URL;
    cmd_fx_generic_fight(f, GM, ALICE, BOB);
    assert_true(cmd_fx_run(f, GM, "combat", "countdown", "name",
                           "The bridge falls", "rounds", "3", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "countdown", "name",
                           "Quiet ritual", "rounds", "7", "hidden", "true",
                           NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "countdown", "name",
                           "Shadow gate", "turns", "9", "of", "Shade",
                           NULL));
    assert_true(share(f, GM, false, tok));
    html = page(f, tok);
    assert_non_null(html);
    assert_non_null(strstr(html, "<b>The bridge falls</b> in 3 rounds"));
    assert_null(strstr(html, "Quiet ritual"));
    assert_null(strstr(html, "Shadow gate"));
    assert_null(strstr(html, " 7 "));
    assert_null(strstr(html, " 9 "));
    free(html);
}

/* Events of the order on the shared page: a visible one at its place, the
 * turn's class on it when the turn stopped there; a hidden one nowhere,
 * neither its row nor its line among the changes. */
static void test_share_page_events(void **state)
{
    struct cmd_fx *f = *state;
    char tok[RANDTOK_LEN + 1], *html;

    f->ctx.web_url = URL;
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "generic",
                           NULL));
    assert_true(cmd_fx_run(f, ALICE, "combat", "join", "name", "Aria", "hp",
                           "20", "init", "=30", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "event", "name", "Nightveil",
                           "at", "start", "hidden", "true", "note",
                           "Gloomwhisper", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "event", "name", "Lair", "note",
                           "Rumble", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "begin", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "next", NULL));   /* Aria */
    assert_true(cmd_fx_run(f, GM, "combat", "next", NULL));   /* Lair */
    assert_true(share(f, GM, false, tok));
    html = page(f, tok);
    assert_non_null(html);
    const char *cur = strstr(html, "<li class=\"cur\">");
    assert_non_null(cur);
    assert_non_null(strstr(cur, "Lair"));
    assert_true(strstr(cur, "Lair") < strstr(cur, "</li>"));
    assert_null(strstr(html, "Nightveil"));
    assert_null(strstr(html, "Gloomwhisper"));
    free(html);
}

/* A name is text: whatever it holds is escaped, never markup. */
static void test_share_page_escapes_names(void **state)
{
    struct cmd_fx *f = *state;
    char tok[RANDTOK_LEN + 1], *html;

    f->ctx.web_url = URL;
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "generic",
                           "name", "<script>x</script>", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "add", "name",
                           "<img src=x onerror=alert(1)> & \"co\"", "hp",
                           "5", NULL));
    assert_true(share(f, GM, false, tok));
    html = page(f, tok);
    assert_non_null(html);
    assert_null(strstr(html, "<script"));
    assert_null(strstr(html, "<img"));
    assert_non_null(strstr(html, "&lt;img src=x onerror=alert(1)&gt; "
                                 "&amp; &quot;co&quot;"));
    assert_non_null(strstr(html, "&lt;script&gt;x&lt;/script&gt;"));
    free(html);
}

static void md(const char *in, const char *want)
{
    struct sbuf b;
    sbuf_init(&b, 4096);
    render_web_md(&b, in);
    if (strcmp(sbuf_str(&b), want) != 0)
        fail_msg("`%s`:\n  got  %s\n  want %s", in, sbuf_str(&b), want);
    sbuf_cleanup(&b);
}

static void test_render_web_md(void **state)
{
    (void)state;
    md("**Ann** hits _hard_ ~~Orc~~ `1d20` __Round 2__",
       "<b>Ann</b> hits <i>hard</i> <s>Orc</s> <code>1d20</code> "
       "<u>Round 2</u>");
    md("a \\*b\\* \\_c\\_ <x> & 'q'", "a *b* _c_ &lt;x&gt; &amp; &#39;q&#39;");
    md("**open", "<b>open</b>");                /* closed at the line end */
    md("hi <@123456789012345678>, <@!42>", "hi @player, @player");
    md("one\ntwo", "one<br>two");
    md("### Title\n-# small", "<strong class=\"h\">Title</strong><br>"
                              "<small>small</small>");
    md("`<b>`", "<code>&lt;b&gt;</code>");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_share_link_life,
                                        cmd_fx_setup_discord,
                                        cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_share_off_says_so,
                                        cmd_fx_setup_discord,
                                        cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_share_page_is_the_players_view,
                                        cmd_fx_setup_discord,
                                        cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_share_page_shows_countdowns,
                                        cmd_fx_setup, cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_share_page_events,
                                        cmd_fx_setup_discord,
                                        cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_share_page_escapes_names,
                                        cmd_fx_setup_discord,
                                        cmd_fx_teardown),
        cmocka_unit_test(test_render_web_md),
    };
    return cmocka_run_group_tests_name("cmd_share", tests, NULL, NULL);
}
