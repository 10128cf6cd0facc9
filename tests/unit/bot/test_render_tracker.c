/* test_render_tracker.c - the tracker marks the running turn's row only: a
 * creature holding several initiative cards has a row for each card, and
 * only the card that is up carries the marker. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "enc_entry.h"
#include "msg.h"
#include "render_enc.h"
#include "rs.h"
#include "rs_kit.h"
#include "sbuf.h"

#define MARK "\xE2\x96\xB6"      /* the running turn's marker */

struct fight {
    struct encounter *e;
    struct eng_rng rng;
    struct enc_result r;
    struct enc_diag d;
};

static struct rs_call fight_call(struct fight *f)
{
    enc_result_reset(&f->r);
    return (struct rs_call){.e = f->e, .rng = &f->rng, .r = &f->r,
                            .d = &f->d, .user = f->e->gm, .is_gm = true};
}

static void fight_add(struct fight *f, const char *name, uint64_t owner,
                      int cards)
{
    uint32_t id;
    assert_int_equal(enc_add(f->e, name, 1, owner, -1, &f->d, &id), ENG_OK);
    struct enc_combatant *who = enc_by_id(f->e, id);
    assert_int_equal(enc_stat_set(who, "cards", cards, &f->d), ENG_OK);
    struct rs_call c = fight_call(f);
    assert_int_equal(f->e->sys->ops->setup(&c, who), ENG_OK);
}

/* The tracker's text as the GM sees it; caller frees. */
static char *tracker_text(const struct encounter *e)
{
    struct msg m;
    msg_init(&m);
    render_tracker(&m, e, true, I18N_EN);
    assert_true(m.nembeds >= 1);
    char *s = strdup(m.embeds[m.nembeds - 1].description);
    msg_cleanup(&m);
    return s;
}

/* The one line of text with the marker; fails unless exactly one. */
static void marked_line(const char *text, char *line, size_t n)
{
    const char *at = strstr(text, MARK);
    assert_non_null(at);
    assert_null(strstr(at + 1, MARK));
    const char *start = at, *end = strchr(at, '\n');
    size_t len = end != NULL ? (size_t)(end - start) : strlen(start);
    snprintf(line, n, "%.*s", (int)len, start);
}

static void test_tracker_marks_the_card_up(void **state)
{
    (void)state;
    struct fight f = {.e = enc_new(rs_find("cards"), "Lair", 1)};
    eng_rng_seed(&f.rng, 5);
    enc_result_init(&f.r);
    fight_add(&f, "Ana", 10, 1);
    fight_add(&f, "Hydra", 0, 2);
    struct rs_call c = fight_call(&f);
    assert_int_equal(f.e->sys->ops->begin(&c), ENG_OK);
    struct enc_combatant *hydra = enc_by_name(f.e, "Hydra");
    /* Each of the hydra's turns: its row for that card alone is marked. */
    for (int turn = 0; turn < 2; turn++) {
        for (int i = 0; i < 4 && f.e->current != hydra->id; i++) {
            c = fight_call(&f);
            assert_int_equal(f.e->sys->ops->next(&c), ENG_OK);
        }
        assert_int_equal(f.e->current, hydra->id);
        const struct enc_slot *s = &f.e->order[f.e->turn_idx];
        char want[32], line[512];
        snprintf(want, sizeof want, "`%3lld` **Hydra**",
                 (long long)hydra->init[s->init_idx]);
        char *text = tracker_text(f.e);
        marked_line(text, line, sizeof line);
        assert_non_null(strstr(line, want));
        free(text);
        c = fight_call(&f);
        assert_int_equal(f.e->sys->ops->next(&c), ENG_OK);
    }
    enc_result_cleanup(&f.r);
    enc_free(f.e);
}

/* A generic fight of three named name, begun with the rng at seed. */
static void fight_begun(struct fight *f, const char *name, uint64_t seed,
                        uint32_t ids[3])
{
    *f = (struct fight){.e = enc_new(rs_find("generic"), "Road", 1)};
    eng_rng_seed(&f->rng, seed);
    enc_result_init(&f->r);
    assert_int_equal(enc_add(f->e, name, 3, 0, -1, &f->d, ids), ENG_OK);
    struct rs_call c = fight_call(f);
    assert_int_equal(f->e->sys->ops->begin(&c), ENG_OK);
}

static void test_tracker_marks_one_row_per_turn(void **state)
{
    (void)state;
    struct fight f;
    uint32_t ids[3];
    fight_begun(&f, "Goblin", 5, ids);
    char line[512];
    char *text = tracker_text(f.e);
    marked_line(text, line, sizeof line);
    assert_non_null(strstr(line, enc_current(f.e)->name));
    free(text);
    enc_result_cleanup(&f.r);
    enc_free(f.e);
}

/* The tracker's text for a viewer; caller frees. */
static char *tracker_text_for(const struct encounter *e, bool gm_view)
{
    struct msg m;
    msg_init(&m);
    render_tracker(&m, e, gm_view, I18N_EN);
    assert_true(m.nembeds >= 1);
    char *s = strdup(m.embeds[m.nembeds - 1].description);
    msg_cleanup(&m);
    return s;
}

/* Events of the order (enc_entry.h) sit at their places among the rows:
 * the start's first, a count before the rows it precedes, the end's last;
 * the marker is on the event the turn stopped on; a hidden one is in the
 * GM's view alone, classic and V2, with no row left for it. */
static void test_tracker_events_in_place(void **state)
{
    (void)state;
    struct fight f = {.e = enc_new(rs_find("generic"), "Road", 1)};
    eng_rng_seed(&f.rng, 3);
    enc_result_init(&f.r);
    uint32_t id;
    assert_int_equal(enc_add(f.e, "Ann", 1, 10, -1, &f.d, &id), ENG_OK);
    assert_int_equal(enc_stat_set(enc_by_id(f.e, id), "init", 50, &f.d),
                     ENG_OK);
    assert_int_equal(enc_add(f.e, "Orc", 1, 0, -1, &f.d, &id), ENG_OK);
    assert_int_equal(enc_stat_set(enc_by_id(f.e, id), "init", -30, &f.d),
                     ENG_OK);
    struct rs_call c = fight_call(&f);
    assert_int_equal(enc_entry_add(&c, &(struct enc_entry_req){
        .name = "Veil", .at = "start", .hidden = true}), ENG_OK);
    c = fight_call(&f);
    assert_int_equal(enc_entry_add(&c, &(struct enc_entry_req){
        .name = "Lair", .note = "Rumble"}), ENG_OK);
    c = fight_call(&f);
    assert_int_equal(enc_entry_add(&c, &(struct enc_entry_req){
        .name = "Bridge", .kind = ENC_ENTRY_ONCE, .at = "end", .round = 1}),
        ENG_OK);
    c = fight_call(&f);
    assert_int_equal(f.e->sys->ops->begin(&c), ENG_OK);
    c = fight_call(&f);
    assert_int_equal(f.e->sys->ops->next(&c), ENG_OK);   /* Ann */
    c = fight_call(&f);
    assert_int_equal(f.e->sys->ops->next(&c), ENG_OK);   /* the Lair */
    char *gm = tracker_text_for(f.e, true);
    char *pl = tracker_text_for(f.e, false);
    const char *veil = strstr(gm, "Veil"), *ann = strstr(gm, "**Ann**"),
               *lair = strstr(gm, "Lair"), *orc = strstr(gm, "**Orc**"),
               *bridge = strstr(gm, "Bridge");
    assert_true(veil && ann && lair && orc && bridge);
    assert_true(veil < ann && ann < lair && lair < orc && orc < bridge);
    char line[512];
    marked_line(gm, line, sizeof line);
    assert_non_null(strstr(line, "Lair"));
    assert_non_null(strstr(line, " 20`"));
    assert_null(strstr(pl, "Veil"));
    assert_null(strstr(pl, "unseen"));
    marked_line(pl, line, sizeof line);
    assert_non_null(strstr(line, "Lair"));
    free(gm);
    free(pl);
    /* V2: a row per place the viewer may see, none naming a combatant */
    struct render_slot slot[RENDER_ENC_MAX_LINES];
    assert_int_equal(render_tracker_slots(f.e, slot, RENDER_ENC_MAX_LINES,
                                          true), 5);
    assert_int_equal(render_tracker_slots(f.e, slot, RENDER_ENC_MAX_LINES,
                                          false), 4);
    struct msg m;
    msg_init(&m);
    render_tracker_v2(&m, f.e, false, 0, NULL, I18N_EN);
    int rows = 0;
    for (int i = 0; i < m.v2->nparts; i++)
        if (m.v2->parts[i].kind == MSG_V2_ROW) {
            rows++;
            assert_null(strstr(m.v2->parts[i].text, "Veil"));
        }
    assert_int_equal(rows, 4);
    msg_cleanup(&m);
    enc_result_cleanup(&f.r);
    enc_free(f.e);
}

/* The history line of a change is its first event in plain words: our
 * bold marks go, the escapes a name needed are undone, so a name with
 * markdown in it reads as it was typed; later events are counted. */
static void test_change_summary_plain_words(void **state)
{
    (void)state;
    static const char name[] = "Zo*e_the~Sly\\Ace";
    struct fight f = {.e = enc_new(rs_find("generic"), "Road", 1)};
    enc_result_init(&f.r);
    uint32_t id;
    assert_int_equal(enc_add(f.e, name, 1, 0, -1, &f.d, &id), ENG_OK);
    enc_emit(&f.r, ENC_EV_ADDED, id);
    enc_emit(&f.r, ENC_EV_ADDED, id);
    struct sbuf b;
    sbuf_init(&b, 1024);
    bool secret = true;
    render_change_summary(&b, f.e, &f.r, &secret, I18N_EN);
    char want[128];
    snprintf(want, sizeof want, "%s joins the fight (and 1 more)", name);
    assert_string_equal(sbuf_str(&b), want);
    assert_false(secret);
    sbuf_cleanup(&b);
    enc_result_cleanup(&f.r);
    enc_free(f.e);
}

/* A change whose first line is the GM's (a hidden countdown falling as
 * a turn ends) and whose later lines are public (the next round's) is
 * named in the history by its first public line, so the players do not
 * read the start of a round as "a change only the GM sees". */
static void test_change_summary_prefers_a_public_line(void **state)
{
    (void)state;
    struct fight f = {.e = enc_new(rs_find("generic"), "Road", 1)};
    enc_result_init(&f.r);
    uint32_t seen, unseen;
    assert_int_equal(enc_add(f.e, "Ann", 1, 0, -1, &f.d, &seen), ENG_OK);
    assert_int_equal(enc_add(f.e, "Veil", 1, 0, -1, &f.d, &unseen), ENG_OK);
    enc_by_id(f.e, unseen)->hidden = true;
    enc_emit(&f.r, ENC_EV_ADDED, unseen);
    enc_emit(&f.r, ENC_EV_ADDED, seen);
    struct sbuf b;
    sbuf_init(&b, 1024);
    bool secret = true;
    render_change_summary(&b, f.e, &f.r, &secret, I18N_EN);
    assert_string_equal(sbuf_str(&b), "Ann joins the fight (and 1 more)");
    assert_false(secret);
    /* All of it the GM's: the GM's first line, kept from the players. */
    enc_result_reset(&f.r);
    enc_emit(&f.r, ENC_EV_ADDED, unseen);
    sbuf_reset(&b);
    render_change_summary(&b, f.e, &f.r, &secret, I18N_EN);
    assert_string_equal(sbuf_str(&b), "Veil joins the fight");
    assert_true(secret);
    sbuf_cleanup(&b);
    enc_result_cleanup(&f.r);
    enc_free(f.e);
}

/* The history line taken from the reply's own text (render_events_at's
 * first) is the line render_change_summary draws: for a fight's start
 * (the round line skipped, more counted), for a lone event, for none. */
static void summary_both_ways(const struct encounter *e,
                              const struct enc_result *r)
{
    struct sbuf a, b;
    struct msg m;
    struct render_first first;
    bool sa = true, sb = true;
    sbuf_init(&a, 4096);
    sbuf_init(&b, 4096);
    msg_init(&m);
    render_change_summary(&a, e, r, &sa, I18N_EN);
    assert_false(render_events_at(&m, e, r, false, "t", &first, I18N_EN));
    const char *text = m.nembeds > 0 && m.embeds[0].description != NULL
                           ? m.embeds[0].description
                           : "";
    render_change_summary_of(&b, text, &first, r, &sb, I18N_EN);
    assert_string_equal(sbuf_str(&b), sbuf_str(&a));
    assert_int_equal(sb, sa);
    msg_cleanup(&m);
    sbuf_cleanup(&a);
    sbuf_cleanup(&b);
}

static void test_change_summary_from_reply(void **state)
{
    (void)state;
    struct fight f;
    uint32_t ids[3];
    fight_begun(&f, "Gob*lin", 9, ids);
    assert_true(f.r.nev > 2);
    summary_both_ways(f.e, &f.r);
    enc_result_reset(&f.r);
    enc_emit(&f.r, ENC_EV_ROUND, 0)->a = 2;
    summary_both_ways(f.e, &f.r); /* nothing a history line names */
    enc_emit(&f.r, ENC_EV_DOWN, ids[1]);
    summary_both_ways(f.e, &f.r);
    enc_result_reset(&f.r);
    enc_emit(&f.r, ENC_EV_END, 0); /* a line in plain words */
    enc_emit(&f.r, ENC_EV_DOWN, ids[1]);
    summary_both_ways(f.e, &f.r);
    enc_result_cleanup(&f.r);
    enc_free(f.e);
}

/* A duration counted on someone's turn, in words: the boundary, whose
 * turn (a hidden one unseen to the players), and which of their turns. */
static void test_cond_until_words(void **state)
{
    (void)state;
    struct encounter *e = enc_new(rs_find("generic"), "Road", 1);
    struct enc_diag d;
    memset(&d, 0, sizeof d);
    uint32_t ann, umbra;
    assert_int_equal(enc_add(e, "Ann", 1, 2, -1, &d, &ann), ENG_OK);
    assert_int_equal(enc_add(e, "Umbra", 1, 0, -1, &d, &umbra), ENG_OK);
    enc_by_id(e, umbra)->hidden = true;
    static const struct {
        bool umbra, start, now, gm;
        int64_t turns;
        const char *want;
    } cases[] = {
        {false, false, false, false, 1, "until the end of Ann's next turn"},
        {false, true, false, false, 1, "until the start of Ann's next turn"},
        {false, false, true, false, 1, "until the end of Ann's turn"},
        {false, false, true, false, 2, "until the end of Ann's next turn"},
        {false, false, false, false, 2, "until the end of Ann's 2nd turn "
                                        "from now"},
        {false, false, false, false, 3, "until the end of Ann's 3rd turn "
                                        "from now"},
        {false, false, false, false, 11, "until the end of Ann's 11th turn "
                                         "from now"},
        {false, false, false, false, 21, "until the end of Ann's 21st turn "
                                         "from now"},
        {false, false, false, false, 112, "until the end of Ann's 112th "
                                          "turn from now"},
        {true, false, false, false, 1, "until the end of _someone unseen_'s "
                                       "next turn"},
        {true, true, false, true, 1, "until the start of Umbra's next turn"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct sbuf b;
        sbuf_init(&b, 256);
        render_cond_until(&b, e, cases[i].umbra ? umbra : ann,
                          cases[i].start ? ENC_EXPIRE_START : ENC_EXPIRE_END,
                          cases[i].turns, cases[i].now, cases[i].gm, I18N_EN);
        assert_string_equal(sbuf_str(&b), cases[i].want);
        sbuf_cleanup(&b);
    }
    enc_free(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tracker_marks_the_card_up),
        cmocka_unit_test(test_tracker_marks_one_row_per_turn),
        cmocka_unit_test(test_tracker_events_in_place),
        cmocka_unit_test(test_change_summary_plain_words),
        cmocka_unit_test(test_change_summary_prefers_a_public_line),
        cmocka_unit_test(test_change_summary_from_reply),
        cmocka_unit_test(test_cond_until_words),
    };
    return cmocka_run_group_tests_name("render_tracker", tests, NULL, NULL);
}
