/*
 * test_daemon_attach.c - import and export through the real daemon and the
 * fake Discord: /macro import with an attached file is deferred, the file
 * is downloaded from the fake's attachment host with no token, and the
 * answer edits the deferral; /macro export's file, attached again, imports
 * to the same export byte for byte. A redirect is not followed, a file
 * the host sends past 256 KB, a file declared too big and a file of
 * another type are refused with the reason; a held download does not
 * hold up other commands. /config file: (a server's own conditions) is
 * downloaded the same way, and /help topic:conditions reads them.
 */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon_harness.h"

#define USER "1100000000000000301"
/* Generous for a loaded 2-core machine, and under ctest's 120 s. */
#define WAIT_MS 60000
/* Downloads only from the fake (any port of 127.0.0.1) over plain http,
 * which is a loopback address: allowed by name, as fray refuses inside
 * addresses by default. */
#define CONF_HOST "[discord]\nattachment_plain_host = 127.0.0.1\n"
#define CONF CONF_HOST "attachment_allow_addresses = 127.0.0.1\n"
/* The same, with a download timeout far beyond any wait of the test: a
 * held download is released by the test, never timed out. */
#define CONF_HELD CONF "[rest]\ntimeout_ms = 300000\n"
#define ROLLS                                                                \
    "{\"fray\":\"export\",\"version\":1,\"kind\":\"macros\",\"items\":["    \
    "{\"name\":\"stealth\",\"dice\":\"1d20+7 # Stealth\"},"                 \
    "{\"name\":\"fire\",\"dice\":\"8d6 fire `hot`\"}]}"

/* A file on the fake's attachment host; returns its id (static). */
static const char *add_file(struct harness *h, const char *name,
                            const char *content, const char *ctype,
                            const char *mode, long long size)
{
    static char id[4][32];
    static int k;
    json_t *req = json_pack("{s:s,s:s,s:s,s:s}", "filename", name, "content",
                            content, "content_type", ctype, "mode", mode);
    char *text;
    int st = 0;
    json_t *a;

    if (size >= 0)
        json_object_set_new(req, "size", json_integer(size));
    text = json_dumps(req, JSON_COMPACT);
    a = fake_post_json(h->fake.port, "/_test/attachment", text, &st);
    assert_int_equal(st, 200);
    k = (k + 1) % 4;
    snprintf(id[k], sizeof id[k], "%s",
             json_string_value(json_object_get(a, "id")));
    json_decref(a);
    json_decref(req);
    free(text);
    return id[k];
}

/* The token of the interaction macro_as() injected last. */
static char last_token[256];

/* Inject /macro <sub> with options (taken) as user; returns the
 * interaction id (static) after its callback, whose body goes to *cb
 * (caller decrefs). */
static const char *macro_as(struct harness *h, const char *user,
                            const char *sub, json_t *opts, json_t **cb)
{
    static char idbuf[32];
    json_t *desc = json_pack("{s:s,s:s,s:s,s:[{s:s,s:i,s:o}]}", "type",
                             "command", "name", "macro", "user_id", user,
                             "options", "name", sub, "type", 1, "options",
                             opts ? opts : json_array());
    char *text = json_dumps(desc, JSON_COMPACT);
    json_t *r = fake_inject(h->fake.port, text), *rec;
    assert_non_null(r);
    snprintf(idbuf, sizeof idbuf, "%s",
             json_string_value(json_object_get(r, "id")));
    snprintf(last_token, sizeof last_token, "%s",
             json_string_value(json_object_get(r, "token")));
    rec = harness_callback(h, idbuf);
    *cb = json_incref(json_object_get(rec, "body"));
    json_decref(rec);
    json_decref(r);
    json_decref(desc);
    free(text);
    return idbuf;
}

static const char *macro(struct harness *h, const char *sub, json_t *opts,
                         json_t **cb)
{
    return macro_as(h, USER, sub, opts, cb);
}

static json_t *file_opt(const char *id, bool replace)
{
    json_t *o = json_pack("[{s:s,s:i,s:s}]", "name", "file", "type", 11,
                          "value", id);
    if (replace)
        json_array_append_new(o, json_pack("{s:s,s:i,s:b}", "name",
                                           "replace", "type", 5, "value", 1));
    return o;
}

/* An import: deferred privately, then the edit of @original; returns the
 * edit's content (malloc'd). */
static char *import(struct harness *h, const char *id, bool replace)
{
    long long since = harness_last_request(h);
    json_t *cb, *edit;
    char *out;

    macro(h, "import", file_opt(id, replace), &cb);
    assert_int_equal(json_integer_value(json_object_get(cb, "type")), 5);
    assert_int_equal(json_integer_value(json_object_get(
                         json_object_get(cb, "data"), "flags")) & 64,
                     64);
    json_decref(cb);
    edit = harness_wait_request(h, "PATCH", "/messages/@original", &since,
                                WAIT_MS);
    if (edit == NULL) {
        harness_dump_log(h);
        fail_msg("no answer to the import");
    }
    out = strdup(json_string_value(json_object_get(
        json_object_get(edit, "body"), "content")));
    json_decref(edit);
    return out;
}

/* The attachment host's record of requests. */
static json_t *downloads(struct harness *h)
{
    json_t *j = fake_get_json(h->fake.port, "/_test/attachment_requests",
                              NULL);
    json_t *a = json_incref(json_object_get(j, "requests"));
    json_decref(j);
    assert_non_null(a);
    return a;
}

/* The file of /<command> export: the private answer's attachment named
 * name, uploaded as multipart and read back from the fake (malloc'd). */
static char *export_file(struct harness *h, const char *command,
                         const char *name)
{
    json_t *desc = json_pack("{s:s,s:s,s:s,s:[{s:s,s:i,s:[]}]}", "type",
                             "command", "name", command, "user_id", USER,
                             "options", "name", "export", "type", 1,
                             "options");
    char *text = json_dumps(desc, JSON_COMPACT);
    long long since = harness_last_request(h);
    json_t *r = fake_inject(h->fake.port, text), *rec, *f, *data;
    char *out;

    assert_non_null(r);
    /* the callback carries the file: the request with files after since */
    for (;;) {
        rec = harness_wait_request(h, NULL, NULL, &since, 20000);
        assert_non_null(rec);
        if (json_array_size(json_object_get(rec, "files")) > 0)
            break;
        json_decref(rec);
    }
    data = json_object_get(json_object_get(rec, "body"), "data");
    /* private, and it names the file it carries */
    assert_true(json_integer_value(json_object_get(data, "flags")) & 64);
    assert_non_null(strstr(json_string_value(json_object_get(data,
                                                             "content")),
                           name));
    assert_int_equal(json_array_size(json_object_get(rec, "files")), 1);
    f = json_array_get(json_object_get(rec, "files"), 0);
    assert_string_equal(json_string_value(json_object_get(f, "filename")),
                        name);
    out = strdup(json_string_value(json_object_get(f, "content")));
    assert_non_null(out);
    json_decref(rec);
    json_decref(r);
    json_decref(desc);
    free(text);
    return out;
}

static char *export(struct harness *h)
{
    return export_file(h, "macro", "fray-macros.json");
}

static void test_import_then_export_round_trip(void **st)
{
    struct harness h;
    char *said, *first, *second;
    json_t *dl;
    size_t i;
    json_t *r;
    (void)st;

    harness_start_conf(&h, NULL, NULL, true, CONF);
    said = import(&h, add_file(&h, "rolls.json", ROLLS,
                               "application/json; charset=utf-8", "ok", -1),
                  false);
    assert_string_equal(said, "Imported 2 saved rolls.");
    free(said);
    first = export(&h);
    assert_non_null(strstr(first, "\"name\": \"stealth\""));
    /* the export, attached again, replaces them with themselves */
    said = import(&h, add_file(&h, "export.json", first, "application/json",
                               "ok", -1),
                  true);
    assert_non_null(strstr(said, "Imported 2 saved rolls"));
    free(said);
    second = export(&h);
    assert_string_equal(first, second);
    /* the host never saw a token, nor any Authorization header */
    dl = downloads(&h);
    assert_int_equal(json_array_size(dl), 2);
    json_array_foreach(dl, i, r) {
        const char *auth = json_string_value(json_object_get(r,
                                                             "authorization"));
        assert_string_equal(auth, "");
        assert_null(strstr(json_string_value(json_object_get(r,
                                                             "user_agent")),
                           h.token));
    }
    json_decref(dl);
    free(first);
    free(second);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

static void test_refused_files(void **st)
{
    struct harness h;
    char *said;
    json_t *cb, *dl;
    (void)st;

    harness_start_conf(&h, NULL, NULL, true, CONF);
    /* a redirect: refused, and its target never asked for */
    said = import(&h, add_file(&h, "r.json", ROLLS, "application/json",
                               "redirect", -1),
                  false);
    assert_non_null(strstr(said, "sent fray elsewhere"));
    free(said);
    dl = downloads(&h);
    assert_int_equal(json_array_size(dl), 1);
    assert_null(strstr(json_string_value(json_object_get(
                           json_array_get(dl, 0), "path")),
                       "followed"));
    json_decref(dl);
    /* the host sends 1 MiB for a file said to be small: cut off */
    said = import(&h, add_file(&h, "h.json", ROLLS, "application/json",
                               "huge", -1),
                  false);
    assert_non_null(strstr(said, "larger than 256 KB"));
    free(said);
    /* declared too big, or not JSON: refused at once, nothing fetched */
    macro(&h, "import", file_opt(add_file(&h, "big.json", ROLLS,
                                          "application/json", "ok", 300000),
                                 false),
          &cb);
    assert_int_equal(json_integer_value(json_object_get(cb, "type")), 4);
    assert_non_null(strstr(json_string_value(json_object_get(
                               json_object_get(cb, "data"), "content")),
                           "larger than 256 KB"));
    json_decref(cb);
    macro(&h, "import", file_opt(add_file(&h, "page.html", ROLLS,
                                          "text/html", "ok", -1),
                                 false),
          &cb);
    assert_non_null(strstr(json_string_value(json_object_get(
                               json_object_get(cb, "data"), "content")),
                           "not a JSON file"));
    json_decref(cb);
    dl = downloads(&h);
    assert_int_equal(json_array_size(dl), 2);
    json_decref(dl);
    /* the refused imports saved nothing */
    char *e = export(&h);
    assert_null(strstr(e, "stealth"));
    free(e);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

static void test_held_download_blocks_nothing(void **st)
{
    struct harness h;
    long long since;
    json_t *cb, *edit;
    (void)st;

    harness_start_conf(&h, NULL, NULL, true, CONF_HELD);
    since = harness_last_request(&h);
    macro(&h, "import", file_opt(add_file(&h, "slow.json", ROLLS,
                                          "application/json", "slow", -1),
                                 false),
          &cb);
    assert_int_equal(json_integer_value(json_object_get(cb, "type")), 5);
    json_decref(cb);
    /* the host holds the file: a roll is answered meanwhile */
    harness_roll_answered(&h);
    json_t *none = harness_requests(&h, "PATCH", "/messages/@original",
                                    &since);
    assert_int_equal(json_array_size(none), 0);
    json_decref(none);
    json_decref(fake_post_json(h.fake.port, "/_test/attachment_release",
                               "{}", NULL));
    edit = harness_wait_request(&h, "PATCH", "/messages/@original", &since,
                                WAIT_MS);
    assert_non_null(edit);
    assert_string_equal(json_string_value(json_object_get(
                            json_object_get(edit, "body"), "content")),
                        "Imported 2 saved rolls.");
    json_decref(edit);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

/* One member's downloads held by the host do not hold another's: each
 * member has at most ATT_MAX_PER_USER in flight, within the four of
 * everyone. */
static void test_held_downloads_fair_per_user(void **st)
{
    struct harness h;
    long long since;
    json_t *cb, *edit;
    (void)st;

    harness_start_conf(&h, NULL, NULL, true, CONF_HELD);
    since = harness_last_request(&h);
    for (int i = 0; i < 4; i++) {
        char name[32];
        snprintf(name, sizeof name, "slow%d.json", i);
        macro(&h, "import", file_opt(add_file(&h, name, ROLLS,
                                              "application/json", "slow", -1),
                                     false),
              &cb);
        assert_int_equal(json_integer_value(json_object_get(cb, "type")), 5);
        json_decref(cb);
    }
    /* another member's import comes through while the four are held */
    macro_as(&h, "5151", "import",
             file_opt(add_file(&h, "mine.json", ROLLS, "application/json",
                               "ok", -1),
                      false),
             &cb);
    json_decref(cb);
    char mine[300];
    snprintf(mine, sizeof mine, "/%s/messages/@original", last_token);
    edit = harness_wait_request(&h, "PATCH", "/messages/@original", &since,
                                WAIT_MS);
    if (edit == NULL || strstr(json_string_value(json_object_get(edit,
                                                                 "path")),
                               mine) == NULL) {
        harness_dump_log(&h);
        fail_msg("the other member's import waited for the held ones");
    }
    assert_string_equal(json_string_value(json_object_get(
                            json_object_get(edit, "body"), "content")),
                        "Imported 2 saved rolls.");
    json_decref(edit);
    json_t *none = harness_requests(&h, "PATCH", "/messages/@original",
                                    &since);
    assert_int_equal(json_array_size(none), 0);   /* the four still held */
    json_decref(none);
    /* two of the four were asked for, the other two wait for them */
    json_t *dl = downloads(&h);
    assert_int_equal(json_array_size(dl), 3);
    json_decref(dl);
    json_decref(fake_post_json(h.fake.port, "/_test/attachment_release",
                               "{}", NULL));
    edit = harness_wait_request(&h, "PATCH", "/messages/@original", &since,
                                WAIT_MS);
    assert_non_null(edit);                  /* a held one, released */
    json_decref(edit);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

#define CONDS                                                                \
    "{\"fray\":\"export\",\"version\":1,\"kind\":\"conditions\","        \
    "\"items\":[{\"name\":\"Marked\",\"description\":\"Attacks roll "     \
    "twice\",\"rounds\":2}]}"

/* /config file: with the server's conditions, by a member with Manage
 * Server (32): deferred, downloaded, imported; anyone reads them. */
static void test_config_imports_conditions(void **st)
{
    struct harness h;
    (void)st;

    harness_start_conf(&h, NULL, NULL, true, CONF);
    long long since = harness_last_request(&h);
    json_t *cb = harness_slash(&h, USER, "32", "config",
                               file_opt(add_file(&h, "conditions.json", CONDS,
                                                 "application/json", "ok",
                                                 -1),
                                        false));
    assert_int_equal(json_integer_value(json_object_get(cb, "type")), 5);
    json_decref(cb);
    json_t *edit = harness_wait_request(&h, "PATCH", "/messages/@original",
                                        &since, WAIT_MS);
    if (edit == NULL) {
        harness_dump_log(&h);
        fail_msg("no answer to /config file:");
    }
    assert_string_equal(json_string_value(json_object_get(
                            json_object_get(edit, "body"), "content")),
                        "Imported 1 condition.");
    json_decref(edit);
    /* a member without Manage Server reads them */
    cb = harness_slash(&h, "1100000000000000302", NULL, "help",
                       json_pack("[{s:s,s:i,s:s}]", "name", "topic", "type",
                                 3, "value", "conditions"));
    char *text = json_dumps(cb, 0);
    assert_non_null(strstr(text, "**Marked**: Attacks roll twice (2 rounds"));
    free(text);
    json_decref(cb);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

/* The fake's host is 127.0.0.1: a loopback address, refused unless the
 * configuration names it (attachment_allow_addresses), whatever the host
 * allow-list says. */
static void test_inside_address_refused_by_default(void **st)
{
    struct harness h;
    char *said;
    (void)st;

    harness_start_conf(&h, NULL, NULL, true, CONF_HOST);
    said = import(&h, add_file(&h, "rolls.json", ROLLS, "application/json",
                               "ok", -1),
                  false);
    if (strstr(said, "private") == NULL)
        fail_msg("imported from a loopback address: %s", said);
    free(said);
    json_t *dl = downloads(&h);
    assert_int_equal(json_array_size(dl), 0);     /* nothing was asked */
    json_decref(dl);
    char *e = export(&h);
    assert_null(strstr(e, "stealth"));
    free(e);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

#define ARIA                                                                 \
    "{\"fray\":\"export\",\"version\":1,\"kind\":\"characters\","       \
    "\"items\":[{\"name\":\"Aria\",\"sheet\":{\"v\":1,\"system\":"        \
    "\"generic\",\"stats\":{\"ac\":15},\"attacks\":[{\"name\":"            \
    "\"Longsword\",\"damage\":\"1d8+3\"}]}}]}"

/* A character comes in the same way: attached, checked, saved; its
 * export is its sheet as the codec writes it. */
static void test_character_import(void **st)
{
    struct harness h;
    long long since;
    json_t *desc, *cb, *edit, *r;
    char *text;
    (void)st;

    harness_start_conf(&h, NULL, NULL, true, CONF);
    since = harness_last_request(&h);
    desc = json_pack("{s:s,s:s,s:s,s:[{s:s,s:i,s:[{s:s,s:i,s:s}]}]}",
                     "type", "command", "name", "character", "user_id",
                     USER, "options", "name", "import", "type", 1,
                     "options", "name", "file", "type", 11, "value",
                     add_file(&h, "aria.json", ARIA, "application/json",
                              "ok", -1));
    text = json_dumps(desc, JSON_COMPACT);
    r = fake_inject(h.fake.port, text);
    assert_non_null(r);
    cb = harness_callback(&h, json_string_value(json_object_get(r, "id")));
    json_decref(cb);
    edit = harness_wait_request(&h, "PATCH", "/messages/@original", &since,
                                WAIT_MS);
    assert_non_null(edit);
    assert_string_equal(json_string_value(json_object_get(
                            json_object_get(edit, "body"), "content")),
                        "Imported 1 character.");
    json_decref(edit);
    json_decref(r);
    json_decref(desc);
    free(text);
    text = export_file(&h, "character", "fray-characters.json");
    assert_non_null(strstr(text, "\"damage\": \"1d8+3\""));
    free(text);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_import_then_export_round_trip),
        cmocka_unit_test(test_config_imports_conditions),
        cmocka_unit_test(test_refused_files),
        cmocka_unit_test(test_held_download_blocks_nothing),
        cmocka_unit_test(test_character_import),
        cmocka_unit_test(test_held_downloads_fair_per_user),
        cmocka_unit_test(test_inside_address_refused_by_default),
    };
    return cmocka_run_group_tests_name("daemon_attach", tests, NULL, NULL);
}
