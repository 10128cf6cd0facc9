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

static const struct rs_cond_spec *spec(const struct tac_table *t,
                                       const char *name)
{
    int i = tac_cond_index(t, name);
    assert_true(i >= 0);
    return &t->cs[i];
}

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
    /* Every condition an effect gives, or a condition becomes, is
     * defined. */
    for (int i = 0; i < t->nfx; i++)
        if (t->fx[i].cond[0] != '\0')
            assert_true(tac_cond_index(t, t->fx[i].cond) >= 0);
    for (int i = 0; i < t->ncd; i++)
        if (t->cd[i].becomes[0] != '\0')
            assert_true(tac_cond_index(t, t->cd[i].becomes) >= 0);
    /* The chapter's caps and start values. */
    assert_int_equal(spec(t, "acid")->cap, 3);
    assert_int_equal(spec(t, "Corroded")->cap, 3);
    assert_int_equal(spec(t, "Warded")->cap, 4);
    assert_int_equal(spec(t, "Poisoned")->start, 2);
    assert_int_equal(spec(t, "Poisoned")->cap, 5);
    assert_int_equal(tac_cond_def(t, "Exhausted")->out, 5);
    assert_int_equal(tac_fx_find(t, "Deadly")->max, 3);
    assert_int_equal(tac_fx_find(t, "Knockout")->max, 4);
    /* One pending test per effect with a test, declared as bookkeeping. */
    int tested = 0;
    for (int i = 0; i < t->nfx; i++) {
        if (t->fx[i].kind != TAC_FX_RESIST && t->fx[i].kind != TAC_FX_DIRECT)
            continue;
        char name[64];
        snprintf(name, sizeof name, "%s test", t->fx[i].name);
        const struct rs_cond_spec *p = &t->cs[t->ncd + tested++];
        assert_string_equal(p->name, name);
        assert_int_equal(p->flags, RS_COND_VALUE | RS_COND_SYSTEM);
        assert_ptr_equal(tac_pending_fx(t, name), &t->fx[i]);
    }
    assert_int_equal(t->nspec, t->ncd + tested);
    assert_int_equal(t->nspec, TAC_BUILTIN_NSPEC);
    /* The system declares them; a help line each, within Discord's reach. */
    assert_ptr_equal(rs_tactical.conds, t->cs);
    assert_int_equal(rs_tactical.nconds, t->nspec);
    for (int i = 0; i < t->nspec; i++)
        assert_true(strlen(t->cs[i].help) > 0 &&
                    strlen(t->cs[i].help) <= TAC_MAX_HELP);
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
        "rename \"Strength Wound\" \"Torn Muscle\"\n"
        "condition \"On Fire\" dot help=\"burning: it hurts\"\n"
        "remove Seeker\n";
    struct tac_table *t = NULL;
    if (tac_table_parse(text, strlen(text), NULL, &t, &d) != ENG_OK)
        fail_msg("%s", d.msg);
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
    assert_int_equal(spec(t, "Soaked")->cap, 2);
    assert_int_equal(spec(t, "Soaked")->flags, RS_COND_STACKS);
    assert_string_equal(tac_fx_find(t, "Stun")->test[0].skill, "willpower");
    assert_int_equal(t->nfx, 24);
    /* A rename follows into what becomes it. */
    assert_string_equal(tac_cond_def(t, "Strength Injury")->becomes,
                        "Torn Muscle");
    /* Names with spaces and a help of the group's own; without help=,
     * the rules are described. */
    assert_string_equal(spec(t, "on fire")->help, "burning: it hurts");
    assert_true(tac_cond_def(t, "On Fire")->flags & TAC_CDF_DOT);
    assert_string_equal(spec(t, "Soaked")->help,
                        "no rules of its own: the GM applies it");
    /* The pending tests follow the effects: Trip's, Drench's, no
     * Knockdown's. */
    assert_non_null(tac_pending_fx(t, "Trip test"));
    assert_non_null(tac_pending_fx(t, "Drench test"));
    assert_null(tac_pending_fx(t, "Knockdown test"));
    int n = 0;
    const struct rs_cond_spec *list = tac_data_conds(t, &n);
    assert_int_equal(n, t->nspec);
    bool found = false;
    for (int i = 0; i < n; i++)
        found = found || strcmp(list[i].name, "Drench test") == 0;
    assert_true(found);
    tac_table_free(t);
}

/* A condition from a file without help= is described from its rules. */
static void test_tac_parse_describes(void **state)
{
    (void)state;
    struct enc_diag d;
    memset(&d, 0, sizeof d);
    const char *text =
        "condition Hobbled attrs=strength,dexterity disadvantage major "
        "held becomes=Prone\n"
        "condition Chilled shake=endurance/fortitude:2 out=3 stacks\n";
    struct tac_table *t = NULL;
    if (tac_table_parse(text, strlen(text), NULL, &t, &d) != ENG_OK)
        fail_msg("%s", d.msg);
    assert_string_equal(spec(t, "Hobbled")->help,
                        "a major disadvantage on Strength and Dexterity "
                        "tests; /act action:break may free them; a second "
                        "one is Prone instead");
    assert_string_equal(spec(t, "Chilled")->help,
                        "out of the fight at 3; Endurance(Fortitude 2) at "
                        "the end of each turn removes it");
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
        {"condition X becomes=Y\n", "X becomes Y, which is not defined"},
        {"condition X becomes=X\n", "which becomes X in turn: one step"},
        {"condition X becomes=Y\ncondition Y becomes=X\n",
         "one step only"},
        {"condition \"X  Y\"\n", "line 1: bad condition name"},
        {"condition \"X Y\n", "line 1: a quote is not closed"},
        {"effect \"Z ap\" note\n", "line 1: bad effect name"},
        {"rename Nothing Else\n", "line 1: no effect or condition named"},
        {"rename Stun Slow\n", "already has the name"},
        {"frobnicate\n", "line 1: expected effect"},
        {"effect Waytoolongeffectnamehere apply cond=Prone\n",
         "bad effect name"},
        {"effect Grab apply cond=Prone wound\n", "unknown flag `wound`"},
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
    assert_int_equal(t->nspec, 2);
    assert_string_equal(t->cs[1].name, "Trip test");
    tac_table_free(t);
}

/* Odd lines are refused with a line number or read as what they say;
 * none reads past its end (the ASan build runs this too). */
static void test_tac_parse_odd_input(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "\"", "\"\"", "condition \"\"", "condition \" \"",
        "condition a=\"", "effect \"\" note", "rename \"\" \"\"",
        "condition X help=\"\"", "condition X attrs=,,,", "#\"",
        "condition X shake=a/b:", "condition X shake=:2",
        "effect Y resist test=/ cond=Prone", "remove \"Strength Injury\"",
        "   \t  \r", "condition \"A\"\"B\"", "reset\nreset\nremove X",
        "condition X becomes=X", "condition \"Strength Injury\" becomes=",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        struct enc_diag d;
        memset(&d, 0, sizeof d);
        struct tac_table *t = NULL;
        enum eng_err err = tac_table_parse(texts[i], strlen(texts[i]), NULL,
                                           &t, &d);
        if (err == ENG_OK)
            tac_table_free(t);
        else
            assert_true(strlen(d.msg) > 0);
    }
    /* A line at the limit is read; one byte more is refused. */
    static char line[TAC_MAX_LINE + 2];
    memset(line, ' ', sizeof line);
    memcpy(line, "condition Long", 14);
    line[TAC_MAX_LINE] = '\0';
    struct enc_diag d;
    memset(&d, 0, sizeof d);
    struct tac_table *t = NULL;
    assert_int_equal(tac_table_parse(line, TAC_MAX_LINE, NULL, &t, &d),
                     ENG_OK);
    tac_table_free(t);
    line[TAC_MAX_LINE] = ' ';
    line[TAC_MAX_LINE + 1] = '\0';
    assert_int_equal(tac_table_parse(line, TAC_MAX_LINE + 1, NULL, &t, &d),
                     ENG_LIMIT);
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
    assert_int_equal(t->nspec, b->nspec);
    for (int i = 0; i < b->nfx; i++) {
        const struct tac_fx *x = tac_fx_find(t, b->fx[i].name);
        assert_non_null(x);
        assert_memory_equal(x, &b->fx[i], sizeof *x);
    }
    for (int i = 0; i < b->nspec; i++) {
        const struct rs_cond_spec *x = &t->cs[i], *y = &b->cs[i];
        assert_string_equal(x->name, y->name);
        if (x->flags != y->flags || x->start != y->start ||
            x->cap != y->cap || x->rounds != y->rounds ||
            x->expire != y->expire || strcmp(x->help, y->help) != 0)
            fail_msg("condition %s differs", y->name);
        if (i < b->ncd && memcmp(&t->cd[i], &b->cd[i], sizeof t->cd[i]) != 0)
            fail_msg("the rules of %s differ", y->name);
    }
    tac_table_free(t);
}

/* Shock doubles against machines and cyborgs; Knockout spares machines
 * only; Shutdown takes machines only (the chapter's cyborgs and implanted
 * humans). */
static void test_tac_bodies(void **state)
{
    (void)state;
    const struct tac_table *t = tac_table_builtin();
    unsigned shock = tac_fx_find(t, "Shock")->flags;
    unsigned ko = tac_fx_find(t, "Knockout")->flags;
    unsigned off = tac_fx_find(t, "Shutdown")->flags;
    assert_false(tac_fx_doubles(shock, TAC_LIVING));
    assert_true(tac_fx_doubles(shock, TAC_MACHINE));
    assert_true(tac_fx_doubles(shock, TAC_CYBORG));
    assert_true(tac_fx_touches(ko, TAC_LIVING));
    assert_false(tac_fx_touches(ko, TAC_MACHINE));
    assert_true(tac_fx_touches(ko, TAC_CYBORG));
    assert_false(tac_fx_touches(off, TAC_LIVING));
    assert_true(tac_fx_touches(off, TAC_MACHINE));
    assert_false(tac_fx_touches(off, TAC_CYBORG));
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
        cmocka_unit_test(test_tac_parse_describes),
        cmocka_unit_test(test_tac_parse_errors),
        cmocka_unit_test(test_tac_parse_odd_input),
        cmocka_unit_test(test_tac_config_file_matches_builtin),
        cmocka_unit_test(test_tac_bodies),
    };
    return cmocka_run_group_tests_name("rs_tactical", tests, NULL, NULL);
}
