/* test_render_discord.c - Discord limits and allowed_mentions on every body.
 * Messages are built by hand (not with msg.c) so the renderer is tested
 * alone. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_discord.h"

static char *repeat(const char *unit, size_t times)
{
    size_t n = strlen(unit);
    char *s = malloc(n * times + 1);
    for (size_t i = 0; i < times; i++)
        memcpy(s + i * n, unit, n);
    s[n * times] = '\0';
    return s;
}

static void msg_free_all(struct msg *m)
{
    free(m->content);
    for (int i = 0; i < m->nembeds; i++) {
        struct msg_embed *e = &m->embeds[i];
        free(e->title);
        free(e->description);
        free(e->footer);
        for (int j = 0; j < e->nfields; j++) {
            free(e->fields[j].name);
            free(e->fields[j].value);
        }
    }
    for (int i = 0; i < m->nbuttons; i++) {
        free(m->buttons[i].label);
        free(m->buttons[i].custom_id);
    }
    free(m->select.custom_id);
    free(m->select.placeholder);
    for (int i = 0; i < m->select.noptions; i++) {
        free(m->select.options[i].label);
        free(m->select.options[i].value);
    }
}

static size_t chars_of(json_t *o, const char *key)
{
    return render_discord_chars(json_string_value(json_object_get(o, key)));
}

static void assert_mentions_safe(json_t *body, size_t nusers)
{
    json_t *am = json_object_get(body, "allowed_mentions");
    assert_non_null(am);
    assert_true(json_is_array(json_object_get(am, "parse")));
    assert_int_equal(json_array_size(json_object_get(am, "parse")), 0);
    assert_int_equal(json_array_size(json_object_get(am, "users")), nusers);
}

static void test_render_plain_content_and_mentions(void **state)
{
    struct msg m;
    json_t *b;
    (void)state;
    memset(&m, 0, sizeof m);
    m.content = strdup("hello @everyone <@1100000000000000300>");
    m.mention_users[0] = UINT64_C(1100000000000000300);
    m.nmentions = 1;
    b = render_discord_message(&m, false);
    assert_non_null(b);
    assert_string_equal(json_string_value(json_object_get(b, "content")),
                        m.content);
    assert_mentions_safe(b, 1);
    assert_string_equal(json_string_value(json_array_get(json_object_get(
                            json_object_get(b, "allowed_mentions"), "users"),
                                                         0)),
                        "1100000000000000300");
    assert_null(json_object_get(b, "flags"));
    json_decref(b);
    msg_free_all(&m);
}

static void test_render_empty_message_still_valid(void **state)
{
    struct msg m;
    json_t *b;
    (void)state;
    memset(&m, 0, sizeof m);
    b = render_discord_callback(RENDER_DC_CB_MESSAGE, &m, true);
    assert_int_equal(json_integer_value(json_object_get(b, "type")), 4);
    json_t *d = json_object_get(b, "data");
    assert_true(chars_of(d, "content") > 0);
    assert_int_equal(json_integer_value(json_object_get(d, "flags")), 64);
    assert_mentions_safe(d, 0);
    json_decref(b);
}

static void test_render_content_shortened_with_note(void **state)
{
    struct msg m;
    json_t *b;
    const char *c;
    (void)state;
    memset(&m, 0, sizeof m);
    m.content = repeat("\xc3\xa9", 5000);   /* 5000 two-byte characters */
    b = render_discord_message(&m, false);
    c = json_string_value(json_object_get(b, "content"));
    assert_int_equal(render_discord_chars(c), RENDER_DC_CONTENT_MAX);
    assert_non_null(strstr(c, RENDER_DC_NOTE));
    json_decref(b);
    msg_free_all(&m);
}

static void test_render_embed_limits_and_total(void **state)
{
    struct msg m;
    json_t *b, *embeds;
    size_t total = 0;
    (void)state;
    memset(&m, 0, sizeof m);
    m.nembeds = MSG_MAX_EMBEDS;
    for (int i = 0; i < m.nembeds; i++) {
        struct msg_embed *e = &m.embeds[i];
        e->title = repeat("t", 300);
        e->description = repeat("d", 5000);
        e->footer = repeat("f", 3000);
        e->nfields = MSG_MAX_FIELDS;
        for (int j = 0; j < e->nfields; j++) {
            e->fields[j].name = repeat("n", 300);
            e->fields[j].value = repeat("v", 2000);
        }
    }
    b = render_discord_message(&m, false);
    assert_non_null(b);
    embeds = json_object_get(b, "embeds");
    /* A description longer than one embed continues in the next; the
     * message's total stops it before every embed of m is out. */
    assert_true(json_array_size(embeds) >= 2);
    assert_true(json_array_size(embeds) <= RENDER_DC_EMBEDS_MAX);
    for (size_t i = 0; i < json_array_size(embeds); i++) {
        json_t *e = json_array_get(embeds, i), *fs = json_object_get(e, "fields");
        json_t *footer = json_object_get(e, "footer");
        assert_true(chars_of(e, "title") <= RENDER_DC_TITLE_MAX);
        assert_true(chars_of(e, "description") <= RENDER_DC_DESC_MAX);
        assert_true(json_array_size(fs) <= RENDER_DC_FIELDS_MAX);
        total += chars_of(e, "title") + chars_of(e, "description");
        for (size_t j = 0; j < json_array_size(fs); j++) {
            json_t *f = json_array_get(fs, j);
            assert_true(chars_of(f, "name") <= RENDER_DC_FIELD_NAME_MAX);
            assert_true(chars_of(f, "value") <= RENDER_DC_FIELD_VALUE_MAX);
            assert_true(chars_of(f, "name") > 0 && chars_of(f, "value") > 0);
            total += chars_of(f, "name") + chars_of(f, "value");
        }
        if (footer) {
            assert_true(chars_of(footer, "text") <= RENDER_DC_FOOTER_MAX);
            total += chars_of(footer, "text");
        }
    }
    assert_true(total <= RENDER_DC_EMBED_TOTAL_MAX);
    {   /* the cut is visible */
        json_t *last = json_array_get(embeds, json_array_size(embeds) - 1);
        const char *ft = json_string_value(
            json_object_get(json_object_get(last, "footer"), "text"));
        assert_non_null(ft);
        assert_non_null(strstr(ft, RENDER_DC_NOTE));
    }
    assert_mentions_safe(b, 0);
    json_decref(b);
    msg_free_all(&m);
}

/* A long list of lines folds into embeds at line breaks: no line is cut,
 * every line is there, in order, and nothing says "shortened". */
static void test_render_long_lines_fold_whole(void **state)
{
    struct msg m;
    char *text = malloc(200 * 48 + 1);
    size_t at = 0;
    (void)state;
    assert_non_null(text);
    for (int i = 0; i < 110; i++)
        at += (size_t)sprintf(text + at, "line %03d: a roll of [6, 5, 4] and so on\n",
                              i);
    text[at - 1] = '\0';
    memset(&m, 0, sizeof m);
    m.nembeds = 1;
    m.embeds[0].title = repeat("t", 20);
    m.embeds[0].description = text;
    json_t *b = render_discord_message(&m, false);
    json_t *embeds = json_object_get(b, "embeds");
    assert_int_equal(json_array_size(embeds), 2);
    char joined[200 * 48 + 1] = "";
    for (size_t i = 0; i < json_array_size(embeds); i++) {
        const char *d = json_string_value(
            json_object_get(json_array_get(embeds, i), "description"));
        assert_true(render_discord_chars(d) <= RENDER_DC_DESC_MAX);
        strcat(joined, d);
    }
    assert_string_equal(joined, text);
    char *all = json_dumps(b, 0);
    assert_null(strstr(all, RENDER_DC_NOTE));
    free(all);
    json_decref(b);
    msg_free_all(&m);
}

static void test_render_buttons_rows_and_bad_ids(void **state)
{
    struct msg m;
    json_t *b, *rows;
    (void)state;
    memset(&m, 0, sizeof m);
    m.nbuttons = MSG_MAX_BUTTONS;
    for (int i = 0; i < m.nbuttons; i++) {
        char id[32];
        snprintf(id, sizeof id, "v1:next:%d", i);
        m.buttons[i].label = repeat("L", 100);
        m.buttons[i].custom_id = i == 3 ? repeat("x", 101) : strdup(id);
        m.buttons[i].style = MSG_BTN_PRIMARY;
    }
    m.select.custom_id = strdup("v1:target:3");
    m.select.noptions = MSG_MAX_SELECT;
    for (int i = 0; i < m.select.noptions; i++) {
        m.select.options[i].label = repeat("o", 120);
        m.select.options[i].value = strdup("val");
    }
    b = render_discord_message(&m, false);
    rows = json_object_get(b, "components");
    assert_true(json_array_size(rows) <= RENDER_DC_ROWS_MAX);
    assert_int_equal(json_array_size(rows), 3);   /* 5 + 4 buttons, select */
    for (size_t i = 0; i < json_array_size(rows); i++) {
        json_t *cs = json_object_get(json_array_get(rows, i), "components");
        assert_true(json_array_size(cs) <= RENDER_DC_ROW_BUTTONS_MAX);
        for (size_t j = 0; j < json_array_size(cs); j++) {
            json_t *c = json_array_get(cs, j);
            assert_true(strlen(json_string_value(json_object_get(
                            c, "custom_id"))) <= RENDER_DC_CUSTOM_ID_MAX);
            if (json_object_get(c, "label"))
                assert_true(chars_of(c, "label") <= RENDER_DC_LABEL_MAX);
        }
    }
    {
        json_t *sel = json_array_get(
            json_object_get(json_array_get(rows, 2), "components"), 0);
        json_t *opts = json_object_get(sel, "options");
        assert_int_equal(json_array_size(opts), RENDER_DC_SELECT_OPTIONS_MAX);
        assert_true(chars_of(json_array_get(opts, 0), "label") <=
                    RENDER_DC_OPTION_TEXT_MAX);
    }
    assert_non_null(strstr(json_string_value(json_object_get(b, "content")),
                           "left out"));
    assert_mentions_safe(b, 0);
    json_decref(b);
    msg_free_all(&m);
}

static void test_render_autocomplete_choices(void **state)
{
    struct msg m;
    json_t *b, *ch;
    (void)state;
    memset(&m, 0, sizeof m);
    m.select.noptions = 2;
    m.select.options[0].label = strdup("Goblin 1");
    m.select.options[0].value = strdup("goblin1");
    m.select.options[1].label = strdup("Orc");
    m.select.options[1].value = strdup("orc");
    b = render_discord_autocomplete(&m);
    assert_int_equal(json_integer_value(json_object_get(b, "type")), 8);
    ch = json_object_get(json_object_get(b, "data"), "choices");
    assert_int_equal(json_array_size(ch), 2);
    assert_string_equal(json_string_value(json_object_get(
                            json_array_get(ch, 0), "name")),
                        "Goblin 1");
    json_decref(b);
    msg_free_all(&m);
}

/* Discord refuses a footer without text: when the message's total runs out
 * before an embed's footer, the footer is left out, not sent empty, and
 * the last embed's footer says the message was shortened. */
static void test_render_no_empty_footer_when_total_runs_out(void **state)
{
    struct msg m;
    json_t *b, *embeds, *e;
    size_t i;
    (void)state;
    memset(&m, 0, sizeof m);
    m.nembeds = 3;
    m.embeds[0].description = repeat("a", 4000);
    m.embeds[0].footer = strdup("first");
    m.embeds[1].description = repeat("b", 3000); /* runs the total out */
    m.embeds[1].footer = strdup("second");
    m.embeds[2].description = strdup("third");
    m.embeds[2].footer = strdup("third");
    b = render_discord_message(&m, false);
    assert_non_null(b);
    embeds = json_object_get(b, "embeds");
    assert_int_equal(json_array_size(embeds), 3);
    json_array_foreach(embeds, i, e)
    {
        json_t *f = json_object_get(e, "footer");
        if (f != NULL)
            assert_true(chars_of(f, "text") > 0);
    }
    assert_string_equal(
        json_string_value(json_object_get(
            json_object_get(json_array_get(embeds, 0), "footer"), "text")),
        "first");
    assert_null(json_object_get(json_array_get(embeds, 1), "footer"));
    assert_non_null(strstr(
        json_string_value(json_object_get(
            json_object_get(json_array_get(embeds, 2), "footer"), "text")),
        RENDER_DC_NOTE));
    json_decref(b);
    msg_free_all(&m);
}

/* An edit always carries "components", empty when the message has no
 * buttons left, so Discord takes away the ones the old message had. */
static void test_render_edit_clears_components(void **state)
{
    struct msg m;
    size_t len = 0;
    (void)state;
    memset(&m, 0, sizeof m);
    m.content = strdup("The fight is over.");
    char *text = render_discord_edit_text(&m, &len);
    assert_non_null(text);
    assert_int_equal(len, strlen(text));
    json_t *b = json_loads(text, 0, NULL);
    assert_non_null(b);
    json_t *rows = json_object_get(b, "components");
    assert_true(json_is_array(rows));
    assert_int_equal(json_array_size(rows), 0);
    assert_string_equal(json_string_value(json_object_get(b, "content")),
                        "The fight is over.");
    assert_mentions_safe(b, 0);
    json_decref(b);
    free(text);

    m.nbuttons = 1;
    m.buttons[0].label = strdup("Next");
    m.buttons[0].custom_id = strdup("combat:next");
    text = render_discord_edit_text(&m, NULL);
    b = json_loads(text, 0, NULL);
    assert_int_equal(json_array_size(json_object_get(b, "components")), 1);
    json_decref(b);
    free(text);
    msg_free_all(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_render_plain_content_and_mentions),
        cmocka_unit_test(test_render_empty_message_still_valid),
        cmocka_unit_test(test_render_content_shortened_with_note),
        cmocka_unit_test(test_render_embed_limits_and_total),
        cmocka_unit_test(test_render_long_lines_fold_whole),
        cmocka_unit_test(test_render_buttons_rows_and_bad_ids),
        cmocka_unit_test(test_render_autocomplete_choices),
        cmocka_unit_test(test_render_no_empty_footer_when_total_runs_out),
        cmocka_unit_test(test_render_edit_clears_components),
    };
    return cmocka_run_group_tests_name("render_discord", tests, NULL, NULL);
}
