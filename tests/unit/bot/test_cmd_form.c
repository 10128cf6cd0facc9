/* Forms (cmd_form.h): every form of every system within Discord's modal
 * limits (discord-interface-2026.md section 2.2: title 45, 1-5 Labels,
 * label 45, description 100, placeholder 100, max_length 1-4000, select
 * options 25 of label and value 1-100, custom_id 1-100) and naming the
 * system's declared stats; a form command with no options opens its form
 * and stores nothing; a partial one is refused naming what is missing; a
 * submitted form gives what the typed command gives; a stale or foreign
 * form, or one opened on an earlier fight, is refused; /combat add is the
 * GM's; a form never shows a hidden combatant or another player's
 * characters. */
#include "support.h"

#include <stdio.h>
#include <string.h>

#include "cmd_fixture.h"
#include "cmd_form.h"
#include "cmd_table.h"
#include "custom_id.h"
#include "render_modal.h"

#define GM 100
#define ALICE 201
#define BOB 202

static const char *const forms[][2] = {
    {"character", "create"}, {"npc", "create"}, {"combat", "add"},
    {"combat", "join"},      {"macro", "save"}, {"character", "import"},
    {"npc", "import"},
};
#define NFORMS (sizeof forms / sizeof forms[0])

static void check_limits(const char *cmd, const char *sub,
                         const struct form *f)
{
    struct cmd_spec spec;
    assert_true(cmd_lookup(cmd, sub, NULL, &spec));
    assert_in_range(form_chars(f->title), 1, FORM_TITLE_MAX);
    assert_in_range(strlen(f->custom_id), 1, FORM_ID_MAX);
    assert_in_range(f->nfields, 1, FORM_MAX_FIELDS);
    for (int i = 0; i < f->nfields; i++) {
        const struct form_field *x = &f->fields[i];
        /* every field is an option of the typed command */
        assert_non_null(cmd_spec_opt(&spec, x->name));
        assert_in_range(form_chars(x->label), 1, FORM_LABEL_MAX);
        assert_true(form_chars(x->description) <= FORM_DESC_MAX);
        assert_true(form_chars(x->placeholder) <= FORM_PLACEHOLDER_MAX);
        if (x->kind == FORM_TEXT || x->kind == FORM_PARAGRAPH)
            assert_in_range(x->max_len, 1, FORM_TEXT_MAX);
        assert_true(x->noptions <= FORM_OPTIONS_MAX);
        for (int k = 0; k < x->noptions; k++) {
            assert_in_range(form_chars(x->options[k].label), 1,
                            FORM_OPTION_MAX);
            assert_in_range(form_chars(x->options[k].value), 1,
                            FORM_OPTION_MAX);
        }
        for (int k = 0; k < i; k++)
            assert_string_not_equal(f->fields[k].name, x->name);
    }
}

static void test_form_every_system_within_limits(void **state)
{
    (void)state;
    size_t nrs;
    const struct rs_system *const *all = rs_all(&nrs);
    /* 25 choices of the longest name, in two-byte characters */
    static char longname[CMD_FORM_CHOICES_MAX][ENC_MAX_NAME + 1];
    assert_int_equal(nrs, 6);
    for (size_t s = 0; s < nrs; s++) {
        for (size_t i = 0; i < NFORMS; i++) {
            for (int guild = 0; guild < 2; guild++) {
                struct cmd_form_in in = {.rs = all[s], .fight = 123456789,
                                         .in_guild = guild == 1};
                struct form f;
                for (int k = 0; k < CMD_FORM_CHOICES_MAX; k++) {
                    memset(longname[k], 0, sizeof longname[k]);
                    for (int b = 0; b + 2 <= ENC_MAX_NAME - 2; b += 2)
                        memcpy(longname[k] + b, "\xc3\xa9", 2);
                    longname[k][0] = (char)('a' + k);
                    longname[k][1] = 'x';
                    in.choices[k] = longname[k];
                }
                in.nchoices = CMD_FORM_CHOICES_MAX;
                assert_true(cmd_form_build(forms[i][0], forms[i][1], &in,
                                           &f));
                check_limits(forms[i][0], forms[i][1], &f);
                in.nchoices = 0;
                assert_true(cmd_form_build(forms[i][0], forms[i][1], &in,
                                           &f));
                check_limits(forms[i][0], forms[i][1], &f);
                /* the custom_id goes through the codec, versioned */
                struct custom_id cid;
                assert_true(custom_id_parse(f.custom_id, &cid));
                assert_string_equal(cid.opt_name, CMD_FORM_ARG);
                assert_int_equal(cid.version, CMD_FORM_VERSION);
                /* the stats field names the system and its first stat
                 * that is not hp, with its range */
                for (int k = 0; k < f.nfields; k++) {
                    if (strcmp(f.fields[k].name, "stats") != 0)
                        continue;
                    const struct rs_stat_spec *st = all[s]->stats;
                    if (strcmp(st->name, "hp") == 0)
                        st++;
                    char want[64];
                    snprintf(want, sizeof want, "%s=%lld..%lld", st->name,
                             (long long)st->min, (long long)st->max);
                    assert_non_null(strstr(f.fields[k].placeholder, want));
                    assert_non_null(strstr(f.fields[k].description,
                                           all[s]->title));
                    assert_int_equal(f.fields[k].kind, FORM_PARAGRAPH);
                }
                json_t *j = render_modal(&f);
                assert_non_null(j);
                assert_int_equal(json_integer_value(json_object_get(j,
                                                                    "type")),
                                 9);
                json_decref(j);
            }
        }
    }
}

static void test_form_opens_and_stores_nothing(void **state)
{
    struct cmd_fx *f = *state;
    f->forms = true;
    assert_true(cmd_fx_run(f, ALICE, "character", "create", NULL));
    assert_non_null(f->reply.form);
    assert_true(f->reply.ephemeral);
    assert_string_equal(f->reply.form->fields[0].name, "name");
    assert_true(f->reply.form->fields[0].required);
    /* nothing was stored */
    assert_true(cmd_fx_run(f, ALICE, "character", "list", NULL));
    cmd_fx_has(f, "none yet");
    /* the console (no forms) refuses as before, naming the option */
    assert_false(cmd_fx_run(f, ALICE, "character", "create", NULL));
    cmd_fx_has(f, "name");
    /* a partial command is refused naming what is missing */
    f->forms = true;
    assert_false(cmd_fx_run(f, ALICE, "character", "create", "hp", "5",
                            NULL));
    assert_null(f->reply.form);
    cmd_fx_has(f, "name");
    /* system: alone opens that system's form */
    f->forms = true;
    assert_true(cmd_fx_run(f, ALICE, "character", "create", "system",
                           "teams", NULL));
    assert_non_null(f->reply.form);
    assert_non_null(strstr(f->reply.form->custom_id, "form=teams"));
    f->forms = true;
    assert_true(cmd_fx_run(f, ALICE, "macro", "save", NULL));
    assert_non_null(f->reply.form);
    f->forms = true;
    assert_true(cmd_fx_run(f, ALICE, "character", "import", NULL));
    assert_int_equal(f->reply.form->fields[0].kind, FORM_FILE);
}

/* The reply text with every "from" replaced by "to". */
static void swap(char *text, const char *from, const char *to)
{
    char *p;
    assert_int_equal(strlen(from), strlen(to));
    while ((p = strstr(text, from)) != NULL)
        memcpy(p, to, strlen(to));
}

static void test_form_submit_equals_typed(void **state)
{
    struct cmd_fx *f = *state;
    static char typed[CMD_FX_TEXT];
    assert_true(cmd_fx_run(f, ALICE, "character", "create", "name", "Aria",
                           "hp", "24", "stats", "ac=15 attack=5", "attack",
                           "Longsword", "damage", "1d8+3", NULL));
    snprintf(typed, sizeof typed, "%s", f->text);
    f->form_version = CMD_FORM_VERSION;
    assert_true(cmd_fx_run(f, ALICE, "character", "create", "system",
                           "generic", "name", "Bria", "hp", "24", "stats",
                           "ac=15 attack=5", "attack", "Longsword",
                           "damage", "1d8+3", NULL));
    swap(f->text, "Bria", "Aria");
    assert_string_equal(f->text, typed);
    /* a bad field is refused, named */
    f->form_version = CMD_FORM_VERSION;
    assert_false(cmd_fx_run(f, ALICE, "character", "create", "name", "Cyd",
                            "hp", "lots", NULL));
    cmd_fx_has(f, "hp");
    f->form_version = CMD_FORM_VERSION;
    assert_false(cmd_fx_run(f, ALICE, "character", "create", "name", "Cyd",
                            "stats", "ac=999", NULL));
    cmd_fx_has(f, "ac");
    /* a stale or foreign form: refused, nothing done */
    f->form_version = CMD_FORM_VERSION + 1;
    assert_false(cmd_fx_run(f, ALICE, "character", "create", "name", "Dee",
                            NULL));
    cmd_fx_has(f, "out of date");
    f->form_version = -1;
    assert_false(cmd_fx_run(f, ALICE, "form", NULL, NULL));
    cmd_fx_has(f, "out of date");
    f->form_version = CMD_FORM_VERSION;
    assert_false(cmd_fx_run(f, ALICE, "character", "list", NULL));
    cmd_fx_has(f, "out of date");
    assert_true(cmd_fx_run(f, ALICE, "character", "list", NULL));
    assert_null(strstr(f->text, "Dee"));
}

/* Every string of the last reply's form. */
static bool form_has(const struct form *fm, const char *needle)
{
    if (strstr(fm->title, needle))
        return true;
    for (int i = 0; i < fm->nfields; i++) {
        const struct form_field *x = &fm->fields[i];
        if (strstr(x->label, needle) || strstr(x->description, needle) ||
            strstr(x->placeholder, needle))
            return true;
        for (int k = 0; k < x->noptions; k++)
            if (strstr(x->options[k].label, needle) ||
                strstr(x->options[k].value, needle))
                return true;
    }
    return false;
}

static void test_form_fight(void **state)
{
    struct cmd_fx *f = *state;
    /* no fight: the same refusal as the typed command */
    f->forms = true;
    assert_false(cmd_fx_run(f, GM, "combat", "add", NULL));
    cmd_fx_has(f, "there is no fight in this channel");
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "generic",
                           NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "add", "name", "Spy", "hp",
                           "9", "hidden", "true", NULL));
    assert_true(cmd_fx_run(f, ALICE, "character", "create", "name", "Aria",
                           "hp", "20", NULL));
    assert_true(cmd_fx_run(f, ALICE, "character", "create", "name", "Asha",
                           "hp", "20", NULL));
    assert_true(cmd_fx_run(f, BOB, "character", "create", "name", "Bors",
                           "hp", "20", NULL));
    /* /combat add is the GM's */
    f->forms = true;
    assert_false(cmd_fx_run(f, ALICE, "combat", "add", NULL));
    cmd_fx_has(f, "only the GM");
    f->forms = true;
    assert_true(cmd_fx_run(f, GM, "combat", "add", NULL));
    const struct form *fm = f->reply.form;
    assert_non_null(fm);
    assert_false(form_has(fm, "Spy"));
    assert_int_equal(fm->fields[fm->nfields - 1].kind, FORM_CHECKBOX);
    assert_string_equal(fm->fields[fm->nfields - 1].name, "hidden");
    struct custom_id cid;
    assert_true(custom_id_parse(fm->custom_id, &cid));
    uint64_t fight = cmd_fx_fight(f->store);
    assert_int_equal(cid.fight, fight);
    /* join: a select of one's own characters (two: with one, a bare
     * join brings it), none of the others' */
    f->forms = true;
    assert_true(cmd_fx_run(f, ALICE, "combat", "join", NULL));
    fm = f->reply.form;
    assert_non_null(fm);
    assert_int_equal(fm->fields[0].kind, FORM_SELECT);
    assert_int_equal(fm->fields[0].noptions, 2);
    assert_string_equal(fm->fields[0].options[0].value, "Aria");
    assert_string_equal(fm->fields[0].options[1].value, "Asha");
    assert_false(form_has(fm, "Bors"));
    assert_false(form_has(fm, "Spy"));
    /* submitted: joins as typed */
    f->form_version = CMD_FORM_VERSION;
    f->form_fight = fight;
    assert_true(cmd_fx_run(f, ALICE, "combat", "join", "character", "Aria",
                           NULL));
    cmd_fx_has(f, "Aria");
    /* a form opened on an earlier fight is refused */
    assert_true(cmd_fx_run(f, GM, "combat", "end", "confirm", "true",
                           NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "generic",
                           NULL));
    f->form_version = CMD_FORM_VERSION;
    f->form_fight = fight;
    assert_false(cmd_fx_run(f, GM, "combat", "add", "name", "Orc", NULL));
    cmd_fx_has(f, "fight that is over");
    f->form_version = CMD_FORM_VERSION;
    f->form_fight = cmd_fx_fight(f->store);
    assert_true(cmd_fx_run(f, GM, "combat", "add", "name", "Orc", NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_form_every_system_within_limits),
        cmocka_unit_test_setup_teardown(test_form_opens_and_stores_nothing,
                                        cmd_fx_setup_discord,
                                        cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_form_submit_equals_typed,
                                        cmd_fx_setup_discord,
                                        cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_form_fight,
                                        cmd_fx_setup_discord,
                                        cmd_fx_teardown),
    };
    return cmocka_run_group_tests_name("cmd_form", tests, NULL, NULL);
}
