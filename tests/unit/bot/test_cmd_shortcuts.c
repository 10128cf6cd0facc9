/* test_cmd_shortcuts.c - the two shortcuts the keystrokes benchmark
 * (bench/keystrokes) relies on, as docs/commands.md promises them:
 *
 * - the tracker's Attack button on a foe's row attacks with the
 *   attacker's first saved attack: the same reply, with the same seed, as
 *   the typed /attack target: with: that names it; without a saved attack
 *   it is the system's own attack, as /attack target: alone;
 * - a bare /combat join from Discord (which shows forms) brings the
 *   sender's one saved character of the fight's system, the one they use,
 *   without a form; with two of them it opens the form to choose. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd_script.h"
#include "custom_id.h"
#include "custom_id_req.h"

#define SEED 31
#define TEXT_CAP 16384

static char *lines_attack[] = {
    ("/character create name:Ann hp:30 stats:\"ac=10 attack=5 init=90\" "
     "attack:Sword damage:1d8+3"),
    "/combat start system:generic",
    "/combat join character:Ann",
    "/combat add name:Orc hp:500 stats:\"ac=1 init=-50\"",
    "/combat begin",
};
static const char *const actors_attack[] = {"p1", "gm", "p1", "gm", "gm"};

static void setup_of(struct script_setup *s, char **lines,
                     const char *const *actors, int n)
{
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "shortcuts");
    for (int i = 0; i < n; i++) {
        snprintf(s->actor[i], sizeof s->actor[i], "%s", actors[i]);
        s->line[i] = lines[i];
    }
    s->n = n;
}

/* The id of the Attack button on target's row of the newest tracker a
 * reply carried. */
struct button_seen {
    const char *target;
    char id[CUSTOM_ID_MAX + 1];
};

static void keep_button(void *arg, const char *line, uint64_t user,
                        const struct cmd_reply *r)
{
    struct button_seen *b = arg;
    char want[80];
    (void)line;
    (void)user;
    if (r->tracker == NULL || r->tracker->v2 == NULL)
        return;
    snprintf(want, sizeof want, ":target=%s", b->target);
    b->id[0] = '\0';
    for (int i = 0; i < r->tracker->v2->nparts; i++) {
        const char *id = r->tracker->v2->parts[i].accessory.custom_id;
        if (id != NULL && strstr(id, want) != NULL)
            snprintf(b->id, sizeof b->id, "%s", id);
    }
}

/* A click on button id by user, decoded as Discord's is. */
static void click(struct script_cell *c, const char *id, uint64_t user,
                  struct cmd_reply *r)
{
    struct custom_id cid;
    struct cmd_parsed p;
    char why[128];
    assert_true(custom_id_parse(id, &cid));
    script_req(&p, "/help", user);          /* the sender's fields */
    p.req.nopts = 0;
    p.req.sub = NULL;
    assert_true(custom_id_req(&cid, false, NULL, &p.req, why, sizeof why));
    cmd_reply_init(r);
    assert_true(cmd_exec(&c->ctx, &p.req, r));
}

static void typed(struct script_cell *c, const char *line, uint64_t user,
                  struct cmd_reply *r)
{
    struct cmd_parsed p;
    script_req(&p, line, user);
    cmd_reply_init(r);
    assert_true(cmd_exec(&c->ctx, &p.req, r));
}

static void same_reply(const struct cmd_reply *a, const struct cmd_reply *b)
{
    static char ta[TEXT_CAP], tb[TEXT_CAP];
    script_text(&a->msg, ta, sizeof ta);
    script_text(&b->msg, tb, sizeof tb);
    if (a->is_error || b->is_error)
        fail_msg("refused:\n%s\n%s", ta, tb);
    assert_true(a->changed);
    assert_int_equal(a->version, b->version);
    assert_string_equal(ta, tb);
}

/* From the setup, user's click on Orc's Attack button and the typed
 * line, each on a fresh store with the same seed: the same reply. */
static void button_as_typed(char **lines, const char *const *actors, int n,
                            uint64_t user, const char *line)
{
    struct script_setup s;
    struct script_cell a, b;
    struct button_seen seen = {.target = "Orc"};
    struct cmd_reply clicked, written;
    setup_of(&s, lines, actors, n);
    script_cell_prepare_checked(&a, &s, SEED, keep_button, &seen);
    script_cell_prepare(&b, &s, SEED);
    assert_true(seen.id[0] != '\0');        /* the player's turn */
    click(&a, seen.id, user, &clicked);
    typed(&b, line, user, &written);
    same_reply(&clicked, &written);
    cmd_reply_cleanup(&clicked);
    cmd_reply_cleanup(&written);
    script_cell_close(&a);
    script_cell_close(&b);
}

static void test_attack_button_uses_the_saved_weapon(void **state)
{
    (void)state;
    button_as_typed(lines_attack, actors_attack, 5, SCRIPT_P1,
                    "/attack target:Orc with:Sword");
}

/* Bea has no saved attack: the button is the system's own attack. */
static void test_attack_button_without_a_saved_weapon(void **state)
{
    static char *lines[] = {
        "/character create name:Bea hp:30 stats:\"ac=10 attack=5 init=90\"",
        "/combat start system:generic",
        "/combat join character:Bea",
        "/combat add name:Orc hp:500 stats:\"ac=1 init=-50\"",
        "/combat begin",
    };
    static const char *const actors[] = {"p2", "gm", "p2", "gm", "gm"};
    (void)state;
    button_as_typed(lines, actors, 5, SCRIPT_P2, "/attack target:Orc");
}

/* A bare /combat join as Discord sends it (it shows forms). */
static void bare_join(struct script_cell *c, uint64_t user,
                      struct cmd_reply *r)
{
    struct cmd_parsed p;
    script_req(&p, "/combat join", user);
    p.req.forms = true;
    cmd_reply_init(r);
    assert_true(cmd_exec(&c->ctx, &p.req, r));
}

static void test_bare_join_brings_the_one_character(void **state)
{
    static char *lines[] = {
        "/character create name:Ann hp:30 stats:\"ac=10\"",
        "/character create name:Bea hp:30 stats:\"ac=10\"",
        "/character create name:Cyd hp:30 stats:\"ac=10\"",
        "/combat start system:generic",
    };
    static const char *const actors[] = {"p1", "p2", "p2", "gm"};
    struct script_setup s;
    struct script_cell c;
    struct cmd_reply r;
    char text[TEXT_CAP];
    (void)state;
    setup_of(&s, lines, actors, 4);
    script_cell_prepare(&c, &s, SEED);
    /* p1 has one: Ann joins, no form */
    bare_join(&c, SCRIPT_P1, &r);
    assert_null(r.form);
    assert_false(r.is_error);
    script_text(&r.msg, text, sizeof text);
    assert_non_null(strstr(text, "Ann"));
    assert_non_null(strstr(text, "joins the fight"));
    cmd_reply_cleanup(&r);
    /* p2 has two: the form, to choose */
    bare_join(&c, SCRIPT_P2, &r);
    assert_non_null(r.form);
    cmd_reply_cleanup(&r);
    script_cell_close(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_attack_button_uses_the_saved_weapon),
        cmocka_unit_test(test_attack_button_without_a_saved_weapon),
        cmocka_unit_test(test_bare_join_brings_the_one_character),
    };
    return cmocka_run_group_tests_name("cmd_shortcuts", tests, NULL, NULL);
}
