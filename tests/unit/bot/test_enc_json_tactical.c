/* A tactical fight saved by fray before typed state (a version 1 document
 * with numbered "rs" slots, written by fray at 71d45df) loads into the
 * system's named fields and plays on: the action points, the effect
 * already resisted this turn and the exertion at 0 stamina all hold. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "enc_json.h"
#include "eng_rng.h"
#include "rs.h"
#include "rs_kit.h"

/* Vex (id 1, acting, 1 AP left, exerted at 0 stamina in turn 1, tried to
 * break free in round 1) and Drone (id 2, rolled against Knockdown, the
 * effect at index 10, in turn 1). */
static const char v1_doc[] =
    "{\"v\":1,\"ruleset\":\"tactical\",\"name\":\"Old hangar\",\"gm\":\""
    "618465428124953201\",\"version\":9,\"status\":1,\"round\":1,\"phas"
    "e\":0,\"current\":1,\"acting_side\":-1,\"turn_seq\":\"1\",\"notice"
    "s\":true,\"tracker\":\"0\",\"next_id\":3,\"next_join\":3,\"turn_id"
    "x\":0,\"settings\":{},\"sides\":[{\"name\":\"crew\",\"rs\":[]},{\""
    "name\":\"drones\",\"rs\":[]}],\"combatants\":[{\"id\":1,\"name\":\""
    "Vex\",\"owner\":\"0\",\"side\":0,\"hidden\":false,\"group\":0,\"fl"
    "ags\":0,\"join\":1,\"init_expr\":\"\",\"init\":[44],\"tie\":640581"
    ",\"stats\":{\"init\":30,\"endurance\":2,\"fortitude\":1,\"strength"
    "\":2,\"grapple\":1},\"tracks\":[{\"name\":\"hp\",\"cur\":20,\"max\""
    ":20},{\"name\":\"stamina\",\"cur\":0,\"max\":0}],\"conds\":[],\"no"
    "te\":\"\",\"rs\":[1,0,0,0,1,1,0,1]},{\"id\":2,\"name\":\"Drone\",\""
    "owner\":\"0\",\"side\":1,\"hidden\":false,\"group\":0,\"flags\":0,"
    "\"join\":2,\"init_expr\":\"\",\"init\":[6],\"tie\":533961,\"stats\""
    ":{\"init\":1,\"endurance\":1,\"fortitude\":1,\"mech\":1},\"tracks\""
    ":[{\"name\":\"hp\",\"cur\":12,\"max\":12},{\"name\":\"av\",\"cur\""
    ":21,\"max\":21}],\"conds\":[{\"name\":\"Prone\",\"value\":0,\"cap\""
    ":0,\"rounds\":0,\"anchor\":2,\"expire\":\"end\",\"source\":1,\"app"
    "lied\":\"1\"}],\"note\":\"\",\"rs\":[0,1024,1]}],\"order\":[[1,0],"
    "[2,0]],\"rs\":[]}";

/* The sentence words of every event of r, for looking a phrase up. */
static bool said(const struct enc_result *r, const char *phrase)
{
    for (int i = 0; i < r->nev; i++) {
        char text[1024] = "";
        size_t at = 0;
        const struct enc_event *ev = &r->ev[i];
        for (int k = 0; k < ev->nparts && at < sizeof text - 1; k++) {
            const struct enc_part *p = &ev->parts[k];
            int w = p->kind == ENC_PART_NUM
                        ? snprintf(text + at, sizeof text - at, "%lld",
                                   (long long)p->n)
                        : snprintf(text + at, sizeof text - at, "%s",
                                   p->s != NULL ? p->s : "");
            if (w > 0)
                at += (size_t)w < sizeof text - at ? (size_t)w
                                                   : sizeof text - at - 1;
        }
        if (strstr(text, phrase) != NULL)
            return true;
    }
    return false;
}

static enum eng_err attack(struct rs_call *c, struct encounter *e,
                           const char *options)
{
    const struct rs_system *s = e->sys;
    static char buf[RS_MAX_TOKENS_TEXT * 2 + 2];
    struct rs_arg args[RS_MAX_TOKENS];
    struct rs_attack a = {&e->cs[0], &e->cs[1], NULL, "1", options, args, 0};
    enc_result_reset(c->r);
    enum eng_err err = rs_bind_tokens(c, "/attack options:", s->attack_opts,
                                      options, buf, sizeof buf, args,
                                      RS_MAX_TOKENS, &a.nargs, c->d);
    return err != ENG_OK ? err : s->ops->attack(c, &a);
}

static void test_enc_json_tactical_v1_plays_on(void **state)
{
    (void)state;
    struct encounter *e = NULL;
    char err[160];
    assert_int_equal(enc_json_load(v1_doc, &e, err, sizeof err), BOT_OK);
    assert_string_equal(e->sys->id, "tactical");
    /* The slots came through as named fields. */
    char *doc = enc_json_dump(e);
    assert_non_null(doc);
    assert_non_null(strstr(doc, "\"v\":2"));
    assert_non_null(strstr(doc, "\"st\":{\"ap\":1,\"exert_turn\":1,"
                                "\"break_round\":1}"));
    assert_non_null(strstr(doc, "\"st\":{\"resist_mask\":1024,"
                                "\"resist_turn\":1}"));
    free(doc);

    struct enc_result r;
    enc_result_init(&r);
    struct enc_diag d;
    memset(&d, 0, sizeof d);
    struct eng_rng rng;
    eng_rng_seed(&rng, 3);
    struct rs_call c = {.e = e, .rng = &rng, .r = &r, .d = &d, .user = 1,
                        .is_gm = true};
    /* Drone rolled against Knockdown this turn: it passes again. The
     * attack spends Vex's last AP. */
    assert_int_equal(attack(&c, e, "effects=Knockdown(2)"), ENG_OK);
    assert_true(said(&r, "already rolled against Knockdown this turn"));
    assert_true(said(&r, "spends 1 AP on the attack (0 left)"));
    assert_int_equal(attack(&c, e, NULL), ENG_STATE);
    assert_non_null(strstr(d.msg, "0 AP left"));
    /* Vex exerted at 0 stamina: Exhausted as the turn ends. */
    enc_result_reset(&r);
    assert_int_equal(e->sys->ops->next(&c), ENG_OK);
    const struct enc_cond *k = enc_cond_find(&e->cs[0], "Exhausted");
    assert_non_null(k);
    assert_int_equal(k->value, 1);
    enc_result_cleanup(&r);
    enc_free(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_enc_json_tactical_v1_plays_on),
    };
    return cmocka_run_group_tests_name("enc_json_tactical", tests, NULL,
                                       NULL);
}
