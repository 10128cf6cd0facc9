/* The turn clock kept with the fight: the encounter document carries its
 * settings and marks (so undo and reopen restore them) and refuses bad
 * ones; a clone and a packed copy keep them; the tracker's footer shows
 * the settings and, from a minute on, how long the turn has waited. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dur.h"
#include "enc_json.h"
#include "enc_pack.h"
#include "msg.h"
#include "render_enc.h"
#include "rs.h"
#include "rs_kit.h"

#define NOW INT64_C(1700000000000)

/* A running generic fight with Aria's turn and a clock. */
static struct encounter *clocked(void)
{
    struct encounter *e = enc_new(rs_find("generic"), "Road", 7);
    struct enc_diag d;
    uint32_t id;
    assert_non_null(e);
    assert_int_equal(enc_add(e, "Aria", 1, 9, -1, &d, &id), ENG_OK);
    e->status = ENC_ST_RUNNING;
    e->round = 1;
    e->current = id;
    e->clock = (struct enc_clock){
        .remind_ms = 4 * DUR_MS_HOUR, .act_ms = DUR_MS_DAY, .autoskip = true,
        .wait_ms = NOW, .acted_ms = 0, .done = ENC_CLOCK_REMIND,
    };
    return e;
}

static void assert_same_clock(const struct enc_clock *a,
                              const struct enc_clock *b)
{
    assert_int_equal(a->remind_ms, b->remind_ms);
    assert_int_equal(a->act_ms, b->act_ms);
    assert_int_equal(a->autoskip, b->autoskip);
    assert_int_equal(a->wait_ms, b->wait_ms);
    assert_int_equal(a->acted_ms, b->acted_ms);
    assert_int_equal(a->done, b->done);
}

static void test_clock_document_round_trip(void **state)
{
    (void)state;
    struct encounter *e = clocked(), *back = NULL;
    e->clock.acted_ms = NOW + 5;
    char *doc = enc_json_dump(e), why[160];
    assert_non_null(doc);
    assert_int_equal(enc_json_load(doc, &back, why, sizeof why), BOT_OK);
    assert_same_clock(&e->clock, &back->clock);
    /* the next due time: the reminder is done, so the deadline */
    assert_int_equal(enc_clock_next(back), NOW + DUR_MS_DAY);
    enc_free(back);
    free(doc);

    struct encounter *c = enc_clone(e);
    assert_same_clock(&e->clock, &c->clock);
    enc_free(c);
    struct enc_pack *p = enc_pack(e);
    assert_non_null(p);
    struct encounter *u = enc_unpack(p);
    assert_same_clock(&e->clock, &u->clock);
    enc_free(u);
    enc_pack_free(p);
    enc_free(e);
}

static void test_clock_document_refuses_bad_values(void **state)
{
    (void)state;
    struct encounter *e = clocked(), *back = NULL;
    char *doc = enc_json_dump(e), why[160];
    const char *key = "\"clock_done\":1";
    char *at = strstr(doc, key);
    assert_non_null(at);
    at[strlen(key) - 1] = '9';          /* no such bits */
    assert_int_equal(enc_json_load(doc, &back, why, sizeof why),
                     BOT_INVALID);
    assert_non_null(strstr(why, "clock_done"));
    free(doc);
    /* a fight without a clock writes none of its keys */
    memset(&e->clock, 0, sizeof e->clock);
    doc = enc_json_dump(e);
    assert_null(strstr(doc, "clock_"));
    free(doc);
    enc_free(e);
}

/* The footer as render_tracker_at() draws it for the table. */
static void footer(const struct encounter *e, int64_t now, char *out,
                   size_t n)
{
    struct msg m;
    msg_init(&m);
    render_tracker_at(&m, e, false, now, I18N_EN);
    assert_true(m.nembeds >= 1);
    snprintf(out, n, "%s", m.embeds[m.nembeds - 1].footer);
    msg_cleanup(&m);
}

static void test_clock_tracker_footer(void **state)
{
    (void)state;
    struct encounter *e = clocked();
    char f[512];
    footer(e, NOW + 5 * DUR_MS_HOUR + 59 * DUR_MS_MINUTE, f, sizeof f);
    assert_non_null(strstr(f, "Aria's turn"));
    assert_non_null(strstr(f, "waiting 5 h"));
    assert_non_null(strstr(f, "clock: remind 4h, act 1d (auto)"));
    /* under a minute: no wait shown; without a time: none either */
    footer(e, NOW + 59999, f, sizeof f);
    assert_null(strstr(f, "waiting"));
    footer(e, 0, f, sizeof f);
    assert_null(strstr(f, "waiting"));
    assert_non_null(strstr(f, "clock:"));
    /* off: no clock words, the wait still */
    memset(&e->clock, 0, sizeof e->clock);
    e->clock.wait_ms = NOW;
    footer(e, NOW + 3 * DUR_MS_DAY, f, sizeof f);
    assert_null(strstr(f, "clock:"));
    assert_non_null(strstr(f, "waiting 3 d"));
    enc_free(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clock_document_round_trip),
        cmocka_unit_test(test_clock_document_refuses_bad_values),
        cmocka_unit_test(test_clock_tracker_footer),
    };
    return cmocka_run_group_tests_name("clock_doc", tests, NULL, NULL);
}
