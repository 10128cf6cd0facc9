/* test_render_v2.c - Components V2 messages (msg.h struct msg_v2) as
 * Discord bodies and as terminal text, held to Discord's rules
 * (shared/reference/discord-interface-2026.md 1.1 to 1.4 and 7): the
 * IS_COMPONENTS_V2 flag and nothing classic beside it, at most 40
 * components counted nested, 4000 characters of Text Display, a Section
 * always with its accessory, custom_ids unique; rows that do not fit fold
 * around the focus row into a note saying how many more and where; an
 * edit empties content and embeds (classic -> V2). The tracker in V2
 * names no hidden combatant for the players and shows the GM everything. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "render_discord.h"
#include "render_enc.h"
#include "render_text.h"
#include "eng_rng.h"
#include "rs.h"
#include "rs_kit.h"
#include "sbuf.h"

/* What a V2 body holds, counted as Discord counts it. */
struct tally {
    int comps, sections, texts, rows, buttons;
    size_t chars;
    struct sbuf text;
};

static void walk(json_t *comps, struct tally *t)
{
    size_t i;
    json_t *c;
    json_array_foreach(comps, i, c) {
        int type = (int)json_integer_value(json_object_get(c, "type"));
        t->comps++;
        if (type == 10) {
            const char *s = json_string_value(json_object_get(c, "content"));
            assert_non_null(s);
            assert_true(s[0] != '\0');
            t->texts++;
            t->chars += render_discord_chars(s);
            sbuf_add(&t->text, s);
            sbuf_addc(&t->text, '\n');
        } else if (type == 9) {
            json_t *acc = json_object_get(c, "accessory");
            t->sections++;
            assert_true(json_is_object(acc));   /* a Section needs one */
            assert_int_equal(json_integer_value(json_object_get(acc, "type")),
                             2);
            t->comps++;
            t->buttons++;
        } else if (type == 1) {
            t->rows++;
        } else if (type == 2) {
            t->buttons++;
        }
        walk(json_object_get(c, "components"), t);
    }
}

/* body is a valid V2 message: returns its tally (text in t->text). */
static void check_v2(json_t *body, struct tally *t, bool edit)
{
    memset(t, 0, sizeof *t);
    sbuf_init(&t->text, 1 << 20);
    assert_non_null(body);
    json_int_t flags = json_integer_value(json_object_get(body, "flags"));
    assert_true(flags & RENDER_DC_FLAG_V2);
    json_t *content = json_object_get(body, "content");
    json_t *embeds = json_object_get(body, "embeds");
    if (edit) {               /* classic -> V2 empties the old fields */
        assert_true(json_is_null(content));
        assert_true(json_is_array(embeds) && json_array_size(embeds) == 0);
    } else {
        assert_null(content);
        assert_null(embeds);
    }
    assert_non_null(json_object_get(json_object_get(body, "allowed_mentions"),
                                    "parse"));
    json_t *top = json_object_get(body, "components");
    assert_int_equal(json_array_size(top), 1);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(top, 0),
                                                        "type")), 17);
    walk(top, t);
    assert_true(t->comps <= RENDER_DC_V2_COMPONENTS_MAX);
    assert_true(t->chars <= RENDER_DC_V2_TEXT_MAX);
}

static void tally_free(struct tally *t)
{
    sbuf_cleanup(&t->text);
}

/* A list of n rows, each with an Attack button when buttons. */
static void list_msg(struct msg *m, int n, bool buttons, size_t row_len,
                     int focus)
{
    msg_init(m);
    struct msg_v2 *v = msg_v2_begin(m, MSG_STYLE_INFO);
    assert_non_null(v);
    assert_non_null(msg_v2_add(v, MSG_V2_TEXT, "### Fight \xE2\x80\x94 round 1"));
    assert_non_null(msg_v2_add(v, MSG_V2_SEPARATOR, NULL));
    for (int i = 0; i < n; i++) {
        char text[4200], id[64];
        int k = snprintf(text, sizeof text, "row %02d ", i);
        while ((size_t)k < row_len && (size_t)k < sizeof text - 1)
            text[k++] = 'x';
        text[k] = '\0';
        struct msg_v2_part *p = msg_v2_add(v, MSG_V2_ROW, text);
        assert_non_null(p);
        p->who = (uint64_t)i + 1;
        snprintf(id, sizeof id, "v2:attack:1.1:target=row %02d", i);
        if (buttons)
            assert_true(msg_v2_set_accessory(p, "Attack", id,
                                             MSG_BTN_SECONDARY));
        if (i == focus)
            v->focus = v->nparts - 1;
    }
    assert_true(msg_v2_set_more(v, "/combat status"));
    assert_true(msg_add_button(m, "End turn", "v2:combat/next:1.1",
                               MSG_BTN_PRIMARY));
    assert_true(msg_add_button(m, "Undo (GM)", "v2:combat/undo:1.1",
                               MSG_BTN_DANGER));
}

static void test_v2_body_shape(void **state)
{
    (void)state;
    struct msg m;
    struct tally t;
    list_msg(&m, 3, true, 0, -1);
    json_t *body = render_discord_message(&m, false);
    check_v2(body, &t, false);
    assert_int_equal(t.sections, 3);
    assert_int_equal(t.rows, 1);           /* End turn, Undo */
    assert_int_equal(t.buttons, 5);
    /* the container's last child is the row of controls */
    json_t *kids = json_object_get(json_array_get(json_object_get(body,
                                                  "components"), 0),
                                   "components");
    json_t *last = json_array_get(kids, json_array_size(kids) - 1);
    assert_int_equal(json_integer_value(json_object_get(last, "type")), 1);
    assert_null(strstr(sbuf_str(&t.text), "more"));
    json_decref(body);
    tally_free(&t);
    /* ephemeral: both flags */
    body = render_discord_message(&m, true);
    assert_int_equal(json_integer_value(json_object_get(body, "flags")),
                     RENDER_DC_FLAG_V2 | RENDER_DC_FLAG_EPHEMERAL);
    json_decref(body);
    /* an edit converts a classic message: content null, embeds [] */
    char *text = render_discord_edit_text(&m, NULL);
    body = json_loads(text, 0, NULL);
    check_v2(body, &t, true);
    json_decref(body);
    free(text);
    tally_free(&t);
    /* a content set on a V2 message is its first Text Display */
    msg_set_content(&m, "<@42>, it is your turn");
    msg_add_mention(&m, 42);
    body = render_discord_message(&m, false);
    check_v2(body, &t, false);
    assert_true(strncmp(sbuf_str(&t.text), "<@42>, it is your turn", 22) == 0);
    assert_string_equal(json_string_value(json_array_get(json_object_get(
                            json_object_get(body, "allowed_mentions"),
                            "users"), 0)), "42");
    json_decref(body);
    tally_free(&t);
    msg_cleanup(&m);
}

static void test_v2_folds_at_forty_components(void **state)
{
    (void)state;
    struct msg m;
    struct tally t;
    /* 40 rows with a button each: 3 components a row cannot all fit */
    list_msg(&m, 40, true, 0, 25);
    json_t *body = render_discord_message(&m, false);
    check_v2(body, &t, false);
    const char *s = sbuf_str(&t.text);
    int shown = t.sections, hidden = 40 - shown;
    assert_true(shown >= 8);
    char note[64];
    snprintf(note, sizeof note, "_+%d more: /combat status_", hidden);
    assert_non_null(strstr(s, note));
    assert_non_null(strstr(s, "### Fight"));  /* the head always stays */
    /* the focus row is among those shown */
    char *dump = json_dumps(body, 0);
    assert_non_null(strstr(dump, "target=row 25"));
    free(dump);
    /* the controls stay */
    assert_int_equal(t.rows, 1);
    json_decref(body);
    tally_free(&t);
    msg_cleanup(&m);
}

static void test_v2_plain_rows_run_together(void **state)
{
    (void)state;
    struct msg m;
    struct tally t;
    /* 40 rows without buttons: one Text Display holds them all */
    list_msg(&m, 40, false, 40, -1);
    json_t *body = render_discord_message(&m, false);
    check_v2(body, &t, false);
    assert_null(strstr(sbuf_str(&t.text), "more"));
    assert_non_null(strstr(sbuf_str(&t.text), "row 00"));
    assert_non_null(strstr(sbuf_str(&t.text), "row 39"));
    assert_int_equal(t.sections, 0);
    json_decref(body);
    tally_free(&t);
    msg_cleanup(&m);
}

static void test_v2_folds_at_text_limit(void **state)
{
    (void)state;
    struct msg m;
    struct tally t;
    /* 30 rows of 300 characters: 9000 in all, Discord takes 4000 */
    list_msg(&m, 30, false, 300, 0);
    json_t *body = render_discord_message(&m, false);
    check_v2(body, &t, false);
    const char *s = sbuf_str(&t.text);
    assert_non_null(strstr(s, "row 00"));
    assert_non_null(strstr(s, "more: /combat status"));
    json_decref(body);
    tally_free(&t);
    /* one row longer than all of it: cut visibly, never refused */
    msg_cleanup(&m);
    list_msg(&m, 1, false, 4150, 0);
    body = render_discord_message(&m, false);
    check_v2(body, &t, false);
    json_decref(body);
    tally_free(&t);
    msg_cleanup(&m);
}

static void test_v2_ids_stay_unique(void **state)
{
    (void)state;
    struct msg m;
    struct tally t;
    list_msg(&m, 2, true, 0, -1);
    /* a second row with the first one's id, and one with a control's:
     * both show as plain text, not as a second button with that id */
    struct msg_v2_part *p = msg_v2_add(m.v2, MSG_V2_ROW, "dup");
    assert_true(msg_v2_set_accessory(p, "Attack", "v2:attack:1.1:target=row 00",
                                     MSG_BTN_SECONDARY));
    p = msg_v2_add(m.v2, MSG_V2_ROW, "dup2");
    assert_true(msg_v2_set_accessory(p, "Go", "v2:combat/next:1.1",
                                     MSG_BTN_SECONDARY));
    json_t *body = render_discord_message(&m, false);
    check_v2(body, &t, false);
    assert_int_equal(t.sections, 2);
    assert_non_null(strstr(sbuf_str(&t.text), "dup"));
    json_decref(body);
    tally_free(&t);
    msg_cleanup(&m);
}

static void test_v2_console_text(void **state)
{
    (void)state;
    struct msg m;
    struct sbuf out;
    list_msg(&m, 2, true, 0, -1);
    sbuf_init(&out, RENDER_TEXT_MAX);
    render_text(&m, NULL, &out);
    assert_string_equal(sbuf_str(&out),
                        "Fight \xE2\x80\x94 round 1\n--\n"
                        "row 00   [Attack]\nrow 01   [Attack]\n"
                        "[End turn] [Undo (GM)]\n");
    sbuf_cleanup(&out);
    msg_cleanup(&m);
}

/* A generic fight: Aria (a player's), Goblin, and Shade, hidden. */
static struct encounter *small_fight(void)
{
    struct enc_diag d;
    uint32_t id;
    struct encounter *e = enc_new(rs_find("generic"), "Crypt", 1);
    assert_non_null(e);
    assert_int_equal(enc_add(e, "Aria", 1, 7, -1, &d, &id), ENG_OK);
    assert_int_equal(enc_add(e, "Goblin", 1, 0, -1, &d, &id), ENG_OK);
    assert_int_equal(enc_add(e, "Shade", 1, 0, -1, &d, &id), ENG_OK);
    enc_by_id(e, id)->hidden = true;
    return e;
}

static void test_v2_tracker_hides_the_hidden(void **state)
{
    (void)state;
    struct encounter *e = small_fight();
    struct msg m;
    msg_init(&m);
    render_tracker_v2(&m, e, false, 0, "/combat status", I18N_EN);
    assert_non_null(m.v2);
    assert_int_equal(m.nembeds, 0);
    int rows = 0;
    for (int i = 0; i < m.v2->nparts; i++) {
        const struct msg_v2_part *p = &m.v2->parts[i];
        if (p->kind != MSG_V2_ROW)
            continue;
        rows++;
        assert_null(strstr(p->text, "Shade"));
        if (strstr(p->text, "unseen"))
            assert_int_equal(p->who, 0);      /* names nobody */
        else
            assert_true(p->who != 0);
    }
    assert_int_equal(rows, 3);
    json_t *body = render_discord_message(&m, false);
    char *dump = json_dumps(body, 0);
    assert_null(strstr(dump, "Shade"));
    assert_non_null(strstr(dump, "Someone unseen"));
    free(dump);
    json_decref(body);
    msg_cleanup(&m);
    /* the GM's view: the same shape, with the name and its mark */
    msg_init(&m);
    render_tracker_v2(&m, e, true, 0, NULL, I18N_EN);
    body = render_discord_message(&m, true);
    dump = json_dumps(body, 0);
    assert_non_null(strstr(dump, "Shade"));
    assert_non_null(strstr(dump, "(hidden)"));
    assert_non_null(strstr(dump, "the GM's view"));
    free(dump);
    json_decref(body);
    msg_cleanup(&m);
    enc_free(e);
}

/* The most combatants a fight holds (ENC_MAX_COMBATANTS), begun: every
 * place is a row of its own (none lost before Discord's limits), and the
 * fold counts exactly those it leaves out. */
static void test_v2_tracker_every_place_counted(void **state)
{
    (void)state;
    struct encounter *e = enc_new(rs_find("generic"), "Horde", 1);
    struct eng_rng rng;
    struct enc_result r;
    struct enc_diag d;
    eng_rng_seed(&rng, 7);
    enc_result_init(&r);
    for (int i = 0; i < ENC_MAX_COMBATANTS; i++) {
        char name[16];
        uint32_t id;
        snprintf(name, sizeof name, "Rat %d", i + 1);
        assert_int_equal(enc_add(e, name, 1, 0, -1, &d, &id), ENG_OK);
        struct enc_combatant *who = enc_by_id(e, id);
        struct rs_call c = {.e = e, .rng = &rng, .r = &r, .d = &d,
                            .user = e->gm, .is_gm = true};
        assert_int_equal(e->sys->ops->setup(&c, who), ENG_OK);
    }
    struct rs_call c = {.e = e, .rng = &rng, .r = &r, .d = &d,
                        .user = e->gm, .is_gm = true};
    assert_int_equal(e->sys->ops->begin(&c), ENG_OK);
    struct render_slot slot[RENDER_ENC_MAX_LINES];
    int places = render_tracker_slots(e, slot, RENDER_ENC_MAX_LINES,
                                      false);
    assert_int_equal(places, ENC_MAX_COMBATANTS);
    struct msg m;
    msg_init(&m);
    render_tracker_v2(&m, e, false, 0, "/combat status", I18N_EN);
    int rows = 0;
    for (int i = 0; i < m.v2->nparts; i++)
        rows += m.v2->parts[i].kind == MSG_V2_ROW;
    assert_int_equal(rows, places);
    json_t *body = render_discord_message(&m, false);
    struct tally t;
    check_v2(body, &t, false);
    /* the rows shown run together (no buttons here): count their lines */
    int shown = 0;
    for (const char *p = sbuf_str(&t.text); (p = strstr(p, "**Rat ")); p++)
        shown++;
    char note[64];
    snprintf(note, sizeof note, "_+%d more: /combat status_", places - shown);
    if (shown < places)
        assert_non_null(strstr(sbuf_str(&t.text), note));
    else                       /* 64 plain lines fit one Text Display */
        assert_null(strstr(sbuf_str(&t.text), "more:"));
    assert_true(shown > 0);
    json_decref(body);
    tally_free(&t);
    msg_cleanup(&m);
    enc_result_cleanup(&r);
    enc_free(e);
}

/* A turn's notice as the command layer builds it: the events as an
 * embed (a description of desc_len characters), the notice with its
 * mention as content, a prompt's Dodge button and the Attack button
 * beside the notice. */
static void notice_msg(struct msg *m, size_t desc_len)
{
    static char desc[9000];
    msg_init(m);
    size_t n = desc_len < sizeof desc - 1 ? desc_len : sizeof desc - 1;
    for (size_t i = 0; i < n; i++)
        desc[i] = i % 60 == 59 ? '\n' : 'e';
    desc[n] = '\0';
    struct msg_embed *e = msg_add_embed(m, MSG_STYLE_GOOD, "Round 2");
    assert_non_null(e);
    assert_true(msg_embed_set_description(e, desc));
    assert_true(msg_embed_set_footer(e, "version 7"));
    assert_true(msg_set_content(m, "<@42>, it is your turn: **Aria** hp "
                                   "20/20"));
    assert_true(msg_add_mention(m, 42));
    assert_true(msg_add_button(m, "Dodge", "v2:react:1.7:name=Aria",
                               MSG_BTN_PRIMARY));
    assert_true(msg_add_button(m, "Attack", "v2:attack:1.*:target:"
                               "attacker=Aria", MSG_BTN_PRIMARY));
    m->notice = true;
    m->notice_button = 1;
}

/* The turn notice is V2 (docs/internals/v2.md): the events, then the
 * notice as a Section with the Attack button beside it, the other
 * buttons in a row; it pings the player alone; a long events text is cut
 * where Discord's limit falls, visibly, and never the notice. */
static void test_v2_turn_notice(void **state)
{
    (void)state;
    static const size_t lens[] = {40, 8500};
    for (size_t k = 0; k < sizeof lens / sizeof lens[0]; k++) {
        struct msg m;
        struct tally t;
        notice_msg(&m, lens[k]);
        json_t *body = render_discord_message(&m, false);
        check_v2(body, &t, false);
        const char *text = sbuf_str(&t.text);
        assert_non_null(strstr(text, "**Round 2**"));
        if (k == 0)                                 /* the footer */
            assert_non_null(strstr(text, "-# version 7"));
        assert_non_null(strstr(text, "<@42>, it is your turn: **Aria**"));
        assert_int_equal(t.sections, 1);
        assert_int_equal(t.rows, 1);                /* Dodge */
        assert_int_equal(t.buttons, 2);
        json_t *am = json_object_get(body, "allowed_mentions");
        assert_int_equal(json_array_size(json_object_get(am, "parse")), 0);
        assert_int_equal(json_array_size(json_object_get(am, "users")), 1);
        assert_string_equal(json_string_value(json_array_get(
                                json_object_get(am, "users"), 0)), "42");
        char *dump = json_dumps(body, JSON_COMPACT);
        assert_non_null(strstr(dump, "\"label\":\"Attack\""));
        assert_null(strstr(dump, "more"));          /* nothing folded */
        free(dump);
        if (k == 1)
            assert_non_null(strstr(text, "cut at Discord's limit"));
        else
            assert_null(strstr(text, "cut at"));
        json_decref(body);
        tally_free(&t);
        /* the console and the classic fields are untouched */
        assert_non_null(m.content);
        assert_int_equal(m.nembeds, 1);
        assert_int_equal(m.nbuttons, 2);
        assert_null(m.v2);
        msg_cleanup(&m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_v2_body_shape),
        cmocka_unit_test(test_v2_folds_at_forty_components),
        cmocka_unit_test(test_v2_plain_rows_run_together),
        cmocka_unit_test(test_v2_folds_at_text_limit),
        cmocka_unit_test(test_v2_ids_stay_unique),
        cmocka_unit_test(test_v2_console_text),
        cmocka_unit_test(test_v2_tracker_hides_the_hidden),
        cmocka_unit_test(test_v2_tracker_every_place_counted),
        cmocka_unit_test(test_v2_turn_notice),
    };
    return cmocka_run_group_tests_name("render_v2", tests, NULL, NULL);
}
