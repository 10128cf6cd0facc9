/* Tests for the tactical ruleset's pure rules and the chapter's worked
 * examples (engine/rulesets/tactical/rs_tactical_fx.c), plus the effects table and its file
 * parser (engine/rulesets/tactical/rs_tactical_data.c). */
#include "support.h"

#include <stdio.h>
#include <string.h>

#include "rs_tactical.h"

/* Example 2: Knockdown(2), then Knockdown(2) again before the test: the
 * difficulty rises by 1, to 3. */
static void test_tac_stack_same_value_rises_by_one(void **state)
{
    (void)state;
    int d = tac_stack_difficulty(0, 2, 0);
    assert_int_equal(d, 2);
    assert_int_equal(tac_stack_difficulty(d, 2, 0), 3);
}

/* Example 3: Knockdown(2), then Knockdown(4): the test becomes 4. */
static void test_tac_stack_higher_value_replaces(void **state)
{
    (void)state;
    assert_int_equal(tac_stack_difficulty(2, 4, 0), 4);
    /* Already above the new value: +1. */
    assert_int_equal(tac_stack_difficulty(4, 2, 0), 5);
    /* Deadly caps at 3, Knockout at 4. */
    assert_int_equal(tac_stack_difficulty(3, 3, 3), 3);
    assert_int_equal(tac_stack_difficulty(0, 6, 4), 4);
}

/* The armour example: AV 21 takes 30: absorbs 21, 9 goes on, AV drops by
 * 2 to 19. */
static void test_tac_armour_example(void **state)
{
    (void)state;
    struct tac_armour_out o = tac_armour(21, 0, 30, TAC_AV_PER, false);
    assert_int_equal(o.av_absorbed, 21);
    assert_int_equal(o.hp_lost, 9);
    assert_int_equal(o.av_loss, 2);
    /* DR comes after AV. */
    o = tac_armour(21, 4, 30, TAC_AV_PER, false);
    assert_int_equal(o.dr_absorbed, 4);
    assert_int_equal(o.hp_lost, 5);
    /* AV 9 never degrades: it absorbs at most 9. */
    o = tac_armour(9, 0, 50, TAC_AV_PER, false);
    assert_int_equal(o.av_loss, 0);
    /* Demolish: one per 5 absorbed. */
    o = tac_armour(21, 0, 30, TAC_DEMOLISH_PER, false);
    assert_int_equal(o.av_loss, 4);
    /* Direct damage skips armour. */
    o = tac_armour(21, 4, 30, TAC_AV_PER, true);
    assert_int_equal(o.hp_lost, 30);
    assert_int_equal(o.av_loss, 0);
    assert_int_equal(o.av_absorbed, 0);
}

static void test_tac_pool_successes(void **state)
{
    (void)state;
    int faces[] = {1, 4, 6, 3, 5};
    assert_int_equal(tac_pool_successes(faces, 5, 4), 3);
    assert_int_equal(tac_pool_successes(faces, 5, 6), 1);
    assert_int_equal(tac_pool_size(3, 1, 0), 4);
    assert_int_equal(tac_pool_size(2, 0, 3), 0);
}

/* Burst: hits are dice strictly above evasion; hits beyond the ammunition
 * are discarded; damage is kept hits x weapon damage (the chapter: 5 hits
 * of 4 damage = 20). */
static void test_tac_burst(void **state)
{
    (void)state;
    int faces[] = {6, 5, 4, 4, 2, 6, 5};
    struct tac_burst_out b = tac_burst(faces, 7, 4, 100, 4);
    assert_int_equal(b.hits, 4);
    assert_int_equal(b.misses, 3);
    assert_int_equal(b.damage, 16);
    int five[] = {6, 6, 5, 5, 5};
    b = tac_burst(five, 5, 4, 30, 4);
    assert_int_equal(b.damage, 20);
    /* Too little ammunition: two rounds left, two hits kept. */
    b = tac_burst(faces, 7, 4, 2, 4);
    assert_int_equal(b.kept, 2);
    assert_int_equal(b.discarded, 2);
    assert_int_equal(b.damage, 8);
    b = tac_burst(faces, 7, 4, 0, 4);
    assert_int_equal(b.damage, 0);
}

static void test_tac_blast_bounds(void **state)
{
    (void)state;
    assert_int_equal(tac_blast_difficulty(0), 2);
    assert_int_equal(tac_blast_difficulty(2), 4);
    assert_int_equal(tac_blast_difficulty(3), 5);
    assert_int_equal(tac_blast_difficulty(5), 5);
    struct tac_scatter_out s = tac_scatter(1, 4, 3, 6);
    assert_int_equal(s.direction, 4);
    assert_int_equal(s.feet, 15);
    s = tac_scatter(2, 1, 3, 6);
    assert_int_equal(s.feet, 30);
    s = tac_scatter(0, 1, 3, 6);
    assert_int_equal(s.feet, 0);
    /* Every face: failed by 1 stays within 5..15 ft, by more 5..30. */
    for (int f = 1; f <= 6; f++) {
        s = tac_scatter(1, f, f <= 3 ? f : 3, f);
        assert_true(s.feet >= 5 && s.feet <= 15);
        s = tac_scatter(3, f, 1, f);
        assert_true(s.feet >= 5 && s.feet <= 30);
    }
}

/* ---- the table ---------------------------------------------------------- */

static void test_tac_builtin_table(void **state)
{
    (void)state;
    const struct tac_table *t = tac_table_builtin();
    assert_int_equal(t->nfx, 24);
    const char *names[] = {"Acid", "Blinding", "Corrosive", "Deadly",
                           "Demolish", "Fear", "Frost", "Gravitic", "Grip",
                           "Knockback", "Knockdown", "Knockout", "Magnetize",
                           "Pulse", "Poison", "Rage", "Scorch", "Seeker",
                           "Serrated", "Shock", "Shutdown", "Slow", "Stun",
                           "Sunder"};
    for (int i = 0; i < 24; i++)
        assert_string_equal(t->fx[i].name, names[i]);
    /* Every condition an effect gives is defined. */
    for (int i = 0; i < t->nfx; i++)
        if (t->fx[i].cond[0] != '\0')
            assert_non_null(tac_cond_def(t, t->fx[i].cond));
    assert_int_equal(tac_cond_def(t, "acid")->cap, 3);
    assert_int_equal(tac_cond_def(t, "Warded")->cap, 4);
    assert_int_equal(tac_cond_def(t, "Exhausted")->out, 5);
    assert_int_equal(tac_fx_find(t, "Deadly")->max, 3);
    assert_int_equal(tac_fx_find(t, "Knockout")->max, 4);
}

static void test_tac_parse_rename_extend(void **state)
{
    (void)state;
    struct enc_diag d;
    memset(&d, 0, sizeof d);
    const char *text =
        "# our table\n"
        "rename Knockdown Trip\n"
        "rename Prone Floored\n"
        "condition Soaked cap=2 stacks\n"
        "effect Drench resist test=endurance/fortitude cond=Soaked max=3\n"
        "effect Stun resist test=insight/willpower cond=Stunned\n"
        "remove Seeker\n";
    struct tac_table *t = NULL;
    assert_int_equal(tac_table_parse(text, strlen(text), NULL, &t, &d),
                     ENG_OK);
    assert_null(tac_fx_find(t, "Knockdown"));
    const struct tac_fx *trip = tac_fx_find(t, "trip");
    assert_non_null(trip);
    assert_string_equal(trip->cond, "Floored");
    assert_non_null(tac_cond_def(t, "Floored"));
    assert_null(tac_fx_find(t, "Seeker"));
    const struct tac_fx *dr = tac_fx_find(t, "Drench");
    assert_non_null(dr);
    assert_int_equal(dr->max, 3);
    assert_string_equal(dr->test[0].attr, "endurance");
    assert_int_equal(tac_cond_def(t, "Soaked")->cap, 2);
    assert_string_equal(tac_fx_find(t, "Stun")->test[0].skill, "willpower");
    assert_int_equal(t->nfx, 24);
    tac_table_free(t);
}

static void test_tac_parse_errors(void **state)
{
    (void)state;
    struct enc_diag d;
    struct tac_table *t = NULL;
    const struct {
        const char *text, *msg;
    } cases[] = {
        {"effect Zap fast\n", "line 1: unknown kind"},
        {"\neffect Zap resist test=a/b cond=Nope\n", "Nope, which is not"},
        {"effect Zap resist\n", "line 1: a resist effect needs test="},
        {"effect Zap direct test=ab cond=Prone\n", "line 1: test must be"},
        {"condition X cap=999\n", "line 1: cap must be 0 to 100"},
        {"condition X sparkly\n", "line 1: unknown flag `sparkly`"},
        {"rename Nothing Else\n", "line 1: no effect or condition named"},
        {"rename Stun Slow\n", "already has the name"},
        {"frobnicate\n", "line 1: expected effect"},
        {"effect Waytoolongeffectnamehere apply cond=Prone\n",
         "bad effect name"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memset(&d, 0, sizeof d);
        assert_int_not_equal(tac_table_parse(cases[i].text,
                                             strlen(cases[i].text), NULL, &t,
                                             &d), ENG_OK);
        if (strstr(d.msg, cases[i].msg) == NULL)
            fail_msg("case %zu: got \"%s\", wanted \"%s\"", i, d.msg,
                     cases[i].msg);
        assert_null(t);
    }
    /* reset empties the table. */
    const char *text = "reset\ncondition Prone\n"
                       "effect Trip resist test=dexterity/balance "
                       "cond=Prone\n";
    memset(&d, 0, sizeof d);
    assert_int_equal(tac_table_parse(text, strlen(text), NULL, &t, &d),
                     ENG_OK);
    assert_int_equal(t->nfx, 1);
    assert_int_equal(t->ncd, 1);
    tac_table_free(t);
}

/* The shipped config file parses to the built-in table. */
static void test_tac_config_file_matches_builtin(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/config/tactical-effects.conf",
             FRAY_SOURCE_DIR);
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    static char buf[TAC_MAX_FILE + 1];
    size_t n = fread(buf, 1, TAC_MAX_FILE, fp);
    fclose(fp);
    buf[n] = '\0';
    struct enc_diag d;
    memset(&d, 0, sizeof d);
    struct tac_table *t = NULL;
    enum eng_err err = tac_table_parse(buf, n, NULL, &t, &d);
    if (err != ENG_OK)
        fail_msg("%s", d.msg);
    tac_table_free(t);
    /* From an empty table, it rebuilds the built-in one exactly. */
    static struct tac_table empty;
    memset(&empty, 0, sizeof empty);
    assert_int_equal(tac_table_parse(buf, n, &empty, &t, &d), ENG_OK);
    const struct tac_table *b = tac_table_builtin();
    assert_int_equal(t->nfx, b->nfx);
    assert_int_equal(t->ncd, b->ncd);
    for (int i = 0; i < b->nfx; i++) {
        const struct tac_fx *x = tac_fx_find(t, b->fx[i].name);
        assert_non_null(x);
        assert_memory_equal(x, &b->fx[i], sizeof *x);
    }
    for (int i = 0; i < b->ncd; i++) {
        const struct tac_cond_def *x = tac_cond_def(t, b->cd[i].name);
        assert_non_null(x);
        if (memcmp(x, &b->cd[i], sizeof *x) != 0)
            fail_msg("condition %s differs", b->cd[i].name);
    }
    tac_table_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tac_stack_same_value_rises_by_one),
        cmocka_unit_test(test_tac_stack_higher_value_replaces),
        cmocka_unit_test(test_tac_armour_example),
        cmocka_unit_test(test_tac_pool_successes),
        cmocka_unit_test(test_tac_burst),
        cmocka_unit_test(test_tac_blast_bounds),
        cmocka_unit_test(test_tac_builtin_table),
        cmocka_unit_test(test_tac_parse_rename_extend),
        cmocka_unit_test(test_tac_parse_errors),
        cmocka_unit_test(test_tac_config_file_matches_builtin),
    };
    return cmocka_run_group_tests_name("rs_tactical", tests, NULL, NULL);
}
