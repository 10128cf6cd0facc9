/* test_daemon_forms.c - forms (cmd_form.h) through the real daemon and
 * fake-discord, which checks every modal against Discord's rules
 * (discord-interface-2026.md section 2.2) and builds the MODAL_SUBMIT a
 * client would send back (2.3): each of the five forms opens as the first
 * callback (type 9) of a command sent without options; submitted with good
 * values, /character create answers what the typed command answers; a bad
 * field is refused naming it; /combat add's form is the GM's and keeps a
 * hidden combatant out; /combat join offers the sender's characters in a
 * select; /npc create and /macro save save; every system's
 * /character create form passes; /character import takes its
 * file through the form's upload; a forged or stale form custom_id is
 * refused with a message and the daemon goes on. No violation. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon_harness.h"

#define GM "1100000000000000401"
#define ALICE "1100000000000000402"
#define MANAGE_SERVER_PERMS "32"
#define WAIT_MS 60000
#define CONF                                                                 \
    "[discord]\nattachment_plain_host = 127.0.0.1\n"                       \
    "attachment_allow_addresses = 127.0.0.1\n"                             \
    "[limits]\nuser_burst = 1000\nchannel_burst = 1000\n"

/* Inject /name sub (options: a JSON array, taken; NULL none) as user;
 * returns the interaction id (static) and its callback body in *cb. */
static const char *inject(struct harness *h, const char *user,
                          const char *perms, const char *name,
                          const char *sub, json_t *opts, json_t **cb)
{
    static char id[32];
    json_t *desc = json_pack("{s:s,s:s,s:s,s:[{s:s,s:i,s:o}]}", "type",
                             "command", "name", name, "user_id", user,
                             "options", "name", sub, "type", 1, "options",
                             opts ? opts : json_array());
    if (perms != NULL)
        json_object_set_new(desc, "permissions", json_string(perms));
    char *text = json_dumps(desc, JSON_COMPACT);
    json_t *r = fake_inject(h->fake.port, text), *rec;
    assert_non_null(r);
    snprintf(id, sizeof id, "%s", json_string_value(json_object_get(r, "id")));
    rec = harness_callback(h, id);
    *cb = json_incref(json_object_get(rec, "body"));
    json_decref(rec);
    json_decref(r);
    json_decref(desc);
    free(text);
    return id;
}

/* The answer to interaction id (its callback, or after a deferral the
 * edit of @original), as the JSON text of its message into out. */
static void answer_of(struct harness *h, const char *id, long long since,
                      char *out, size_t cap)
{
    json_t *rec = harness_callback(h, id), *body = json_object_get(rec,
                                                                   "body");
    json_t *msg = json_object_get(body, "data"), *edit = NULL;
    if (json_integer_value(json_object_get(body, "type")) == 5) {
        edit = harness_wait_request(h, "PATCH", "/messages/@original",
                                    &since, WAIT_MS);
        assert_non_null(edit);
        msg = json_object_get(edit, "body");
    }
    char *s = json_dumps(msg, JSON_COMPACT);
    snprintf(out, cap, "%s", s ? s : "");
    free(s);
    json_decref(edit);
    json_decref(rec);
}

/* Open the form of /name sub as user: it must be a modal; returns the
 * interaction id (static) and the modal's data in *modal (caller
 * decrefs). */
static const char *open_form(struct harness *h, const char *user,
                             const char *perms, const char *name,
                             const char *sub, json_t **modal)
{
    json_t *cb;
    const char *id = inject(h, user, perms, name, sub, NULL, &cb);
    if (json_integer_value(json_object_get(cb, "type")) != 9) {
        char *s = json_dumps(cb, 0);
        fail_msg("/%s %s without options: not a form: %s", name, sub, s);
    }
    *modal = json_incref(json_object_get(cb, "data"));
    json_decref(cb);
    return id;
}

/* Submit the form interaction id opened with values (JSON text); the
 * answer's message into out. */
static void submit(struct harness *h, const char *id, const char *values,
                   char *out, size_t cap)
{
    int st = 0;
    long long since = harness_last_request(h);
    json_t *sub = fake_modal_submit(h->fake.port, id, values, false, &st);
    if (sub == NULL)
        fail_msg("the fake refused the submit (%d): %s", st, values);
    char sid[32];
    snprintf(sid, sizeof sid, "%s",
             json_string_value(json_object_get(sub, "id")));
    json_decref(sub);
    answer_of(h, sid, since, out, cap);
}

/* A raw MODAL_SUBMIT with custom_id (forged); the answer's text. */
static void forged(struct harness *h, const char *custom_id, char *out,
                   size_t cap)
{
    long long since = harness_last_request(h);
    json_t *d = json_pack("{s:s,s:s,s:s,s:[{s:i,s:i,s:{s:i,s:i,s:s,s:s}}]}",
                          "type", "modal_submit", "user_id", ALICE,
                          "custom_id", custom_id, "components", "type", 18,
                          "id", 1, "component", "type", 4, "id", 2,
                          "custom_id", "name", "value", "Zed");
    char *text = json_dumps(d, JSON_COMPACT);
    json_t *r = fake_inject(h->fake.port, text);
    assert_non_null(r);
    char id[32];
    snprintf(id, sizeof id, "%s", json_string_value(json_object_get(r, "id")));
    answer_of(h, id, since, out, cap);
    json_decref(r);
    json_decref(d);
    free(text);
}

/* Whether the modal has a field of option name of component type. */
static bool has_field(json_t *modal, const char *name, int type)
{
    size_t i;
    json_t *l;
    json_array_foreach(json_object_get(modal, "components"), i, l) {
        json_t *c = json_object_get(l, "component");
        if (strcmp(json_string_value(json_object_get(c, "custom_id")),
                   name) == 0 &&
            json_integer_value(json_object_get(c, "type")) == type)
            return true;
    }
    return false;
}

/* Open /name sub's form as user, check it has field (NULL: any) of
 * component type, submit values; the answer into out. */
static void fill_in(struct harness *h, const char *user, const char *perms,
                    const char *name, const char *sub, const char *field,
                    int type, const char *values, char *out, size_t cap)
{
    json_t *modal;
    const char *id = open_form(h, user, perms, name, sub, &modal);
    if (field != NULL && !has_field(modal, field, type))
        fail_msg("/%s %s: no field %s of type %d", name, sub, field, type);
    json_decref(modal);
    submit(h, id, values, out, cap);
}

static void swap(char *text, const char *from, const char *to)
{
    char *p;
    while ((p = strstr(text, from)) != NULL)
        memcpy(p, to, strlen(to));
}

static void test_forms_through_the_daemon(void **st)
{
    struct harness h;
    static char got[8192], typed[8192];
    json_t *modal, *cb;
    const char *id;
    (void)st;

    harness_start_conf(&h, NULL, NULL, true, CONF);

    /* /character create: typed, then through its form */
    long long since = harness_last_request(&h);
    id = inject(&h, ALICE, NULL, "character", "create",
                json_pack("[{s:s,s:s},{s:s,s:i},{s:s,s:s},{s:s,s:s},"
                          "{s:s,s:s}]", "name", "name", "value", "Aria",
                          "name", "hp", "value", 24, "name", "stats",
                          "value", "ac=15 attack=5", "name", "attack",
                          "value", "Longsword", "name", "damage", "value",
                          "1d8+3"),
                &cb);
    json_decref(cb);
    answer_of(&h, id, since, typed, sizeof typed);
    assert_non_null(strstr(typed, "Longsword"));
    id = open_form(&h, ALICE, NULL, "character", "create", &modal);
    assert_true(has_field(modal, "name", 4));
    assert_true(has_field(modal, "stats", 4));
    json_decref(modal);
    submit(&h, id, "{\"name\":\"Bria\",\"hp\":\"24\",\"stats\":\"ac=15 "
           "attack=5\",\"attack\":\"Longsword\",\"damage\":\"1d8+3\"}", got,
           sizeof got);
    swap(got, "Bria", "Aria");
    assert_string_equal(got, typed);
    /* a bad field: refused, named */
    id = open_form(&h, ALICE, NULL, "character", "create", &modal);
    json_decref(modal);
    submit(&h, id, "{\"name\":\"Cyd\",\"hp\":\"lots\"}", got, sizeof got);
    if (strstr(got, "hp") == NULL || strstr(got, "whole number") == NULL)
        fail_msg("bad hp: %s", got);

    /* /combat add: the GM's form, no hidden combatant in it */
    since = harness_last_request(&h);
    id = inject(&h, GM, NULL, "combat", "start",
                json_pack("[{s:s,s:s}]", "name", "system", "value",
                          "generic"), &cb);
    json_decref(cb);
    answer_of(&h, id, since, got, sizeof got);
    fill_in(&h, GM, NULL, "combat", "add", "hidden", 23,
            "{\"name\":\"Spy\",\"hp\":\"9\",\"hidden\":true}", got,
            sizeof got);
    assert_non_null(strstr(got, "joins the fight"));
    id = open_form(&h, GM, NULL, "combat", "add", &modal);
    assert_true(has_field(modal, "hidden", 23));
    char *m = json_dumps(modal, 0);
    assert_null(strstr(m, "Spy"));
    free(m);
    json_decref(modal);
    submit(&h, id, "{\"name\":\"Goblin\",\"count\":\"2\",\"hp\":\"7\"}", got,
           sizeof got);
    assert_non_null(strstr(got, "Goblin 2"));
    /* a player gets no /combat add form */
    inject(&h, ALICE, NULL, "combat", "add", NULL, &cb);
    assert_int_equal(json_integer_value(json_object_get(cb, "type")), 4);
    m = json_dumps(cb, 0);
    assert_non_null(strstr(m, "only the GM"));
    free(m);
    json_decref(cb);

    /* /combat join: a select of the sender's characters */
    fill_in(&h, ALICE, NULL, "combat", "join", "character", 3,
            "{\"character\":[\"Aria\"]}", got, sizeof got);
    assert_non_null(strstr(got, "Aria"));
    assert_non_null(strstr(got, "joins the fight"));

    /* /npc create and /macro save */
    fill_in(&h, GM, MANAGE_SERVER_PERMS, "npc", "create", "stats", 4,
            "{\"name\":\"Bandit\",\"hp\":\"11\",\"stats\":\"ac=12\"}",
            got, sizeof got);
    assert_non_null(strstr(got, "Saved."));
    fill_in(&h, ALICE, NULL, "macro", "save", "server", 23,
            "{\"name\":\"stealth\",\"dice\":\"1d20+7\"}", got,
            sizeof got);
    assert_non_null(strstr(got, "stealth"));

    /* /character import through the form's file upload */
    id = open_form(&h, ALICE, NULL, "character", "import", &modal);
    assert_true(has_field(modal, "file", 19));
    json_decref(modal);
    json_t *a = fake_post_json(
        h.fake.port, "/_test/attachment",
        "{\"filename\":\"d.json\",\"content_type\":\"application/json\","
        "\"content\":\"{\\\"fray\\\":\\\"export\\\",\\\"version\\\":1,"
        "\\\"kind\\\":\\\"characters\\\",\\\"items\\\":[{\\\"name\\\":"
        "\\\"Dana\\\",\\\"sheet\\\":{\\\"v\\\":1,\\\"system\\\":"
        "\\\"generic\\\"}}]}\"}",
        NULL);
    assert_non_null(a);
    char values[128];
    snprintf(values, sizeof values, "{\"file\":[\"%s\"]}",
             json_string_value(json_object_get(a, "id")));
    json_decref(a);
    submit(&h, id, values, got, sizeof got);
    if (strstr(got, "Imported 1 character") == NULL)
        fail_msg("import: %s", got);

    /* system: alone opens that system's form: every system's passes the
     * fake's modal checks */
    static const char *const systems[] = {"generic", "teams", "tactical",
                                          "resolve", "cards", "factions"};
    for (size_t i = 0; i < sizeof systems / sizeof systems[0]; i++) {
        inject(&h, ALICE, NULL, "character", "create",
               json_pack("[{s:s,s:s}]", "name", "system", "value",
                         systems[i]), &cb);
        assert_int_equal(json_integer_value(json_object_get(cb, "type")), 9);
        json_decref(cb);
    }

    /* forged and stale form ids: refused, and the daemon goes on */
    forged(&h, "v2:character/create:0.9:form", got, sizeof got);
    assert_non_null(strstr(got, "out of date"));
    forged(&h, "not ours at all", got, sizeof got);
    assert_non_null(strstr(got, "out of date"));
    forged(&h, "v2:combat/add:1.1:form", got, sizeof got);
    assert_non_null(strstr(got, "fight that is over"));
    harness_roll_answered(&h);

    harness_assert_no_violations(&h);
    harness_stop(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_forms_through_the_daemon),
    };
    return cmocka_run_group_tests_name("daemon_forms", tests, NULL, NULL);
}
