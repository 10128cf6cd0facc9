/* test_daemon_proposals.c - players propose, the GM approves (issue 31,
 * part 5; docs/commands.md, /combat proposal), through fake-discord.
 *
 * A player's /combat hp on a combatant of someone else's answers the
 * player alone ("sent to the GM for approval") and posts the GM a message
 * with Approve and Reject buttons: in the fight's channel with a mention
 * of the GM, or in the GM channel when the server has one. Approve (the
 * GM's click, checked by the fake against the message fray posted)
 * applies the change as the GM's, named in the history and undone by
 * /combat undo, and edits the proposal's message; Reject changes nothing
 * and tells the player. Refused: anyone but the GM clicking Approve; a
 * proposal approved after the turn moved on (it lapsed); a made-up
 * custom_id (no token, a wrong one, another fight's); with /config
 * proposals:off, the old refusal and no message. A proposal survives a
 * restart of fray; in a trusted fight, and for a hidden combatant, there
 * is none. Every answer of fray's is checked against Discord's rules
 * (violations stay 0). */
#include "support.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon_harness.h"
#include "tracker_util.h"

#define GM_CHANNEL "1100000000000000777"
#define ADMIN_PERMS "8"
#define SEED "42"
#define EPHEMERAL 64
#define UPDATE_MESSAGE 7
/* A fight's setup and its checks are more commands at once than one
 * user's everyday burst. */
#define CONF "[limits]\nuser_burst = 1000\nchannel_burst = 1000\n"

static const char *name_of(const char *user)
{
    return strcmp(user, GM) == 0 ? "Gwen"
           : strcmp(user, BOB) == 0 ? "Bob" : "Alice";
}

/* /combat sub as user, with display name; the callback body. */
static json_t *as(struct harness *h, const char *user, const char *sub,
                  json_t *opts)
{
    return combat_in(h, NULL, user, name_of(user), sub, opts);
}

static bool ephemeral(json_t *cb)
{
    return (flags_of(cb) & EPHEMERAL) != 0;
}

static const char *content(json_t *cb)
{
    const char *c = content_of(cb);
    return c != NULL ? c : "";
}

/* The body's whole text (caller frees). */
static char *all_of(json_t *cb)
{
    char *s = json_dumps(cb, 0);
    assert_non_null(s);
    return s;
}

/* A private refusal holding want. */
static void refused(json_t *cb, const char *want)
{
    if (!ephemeral(cb) || strstr(content(cb), want) == NULL) {
        char *s = all_of(cb);
        fail_msg("not a refusal with \"%s\": %s", want, s);
    }
    json_decref(cb);
}

/* /config name:value (an option of Discord type type) as an admin. */
static void config(struct harness *h, const char *name, int type,
                   const char *value)
{
    json_t *desc = json_pack("{s:s, s:s, s:s, s:s, s:[{s:s, s:i, s:s}]}",
                             "type", "command", "name", "config", "user_id",
                             GM, "permissions", ADMIN_PERMS, "options",
                             "name", name, "type", type, "value", value);
    json_t *cb = harness_interact(h, desc);
    json_decref(desc);
    assert_non_null(strstr(content(cb), "Saved."));
    json_decref(cb);
}

static json_t *hp(struct harness *h, const char *user, const char *who,
                  const char *change)
{
    return as(h, user, "hp", json_pack("[{s:s,s:s},{s:s,s:s}]", "name",
                                       "name", "value", who, "name",
                                       "change", "value", change));
}

/* The generic fight of tracker_util.h (Goblins, Aria: Alice's, first;
 * Bryn: Bob's, hp 18) with Shade, the GM's hidden one, begun. */
static void fight_begun(struct harness *h)
{
    long long since = harness_last_request(h);
    fight(h, "generic");
    json_decref(as(h, GM, "add",
                   json_pack("[{s:s,s:s},{s:s,s:i},{s:s,s:s},{s:s,s:b}]",
                             "name", "name", "value", "Shade", "name", "hp",
                             "value", 9, "name", "init", "value", "=1",
                             "name", "hidden", "value", 1)));
    begin(h, &since);
}

static void start(struct harness *h)
{
    setenv("FRAY_SEED", SEED, 1);
    harness_start_conf(h, NULL, NULL, true, CONF);
}

/* Alice proposes Bryn's hp -3: her private answer says so, and the GM's
 * message is posted in channel; returns that request record (its body,
 * and the response's message id). */
static json_t *propose(struct harness *h, const char *channel)
{
    char path[96];
    long long since = harness_last_request(h);
    json_t *cb = hp(h, ALICE, "Bryn", "-3");
    if (!ephemeral(cb) ||
        strstr(content(cb), "Sent to the GM for approval") == NULL) {
        char *s = all_of(cb);
        fail_msg("not a proposal: %s", s);
    }
    json_decref(cb);
    snprintf(path, sizeof path, "/channels/%s/messages", channel);
    json_t *post = harness_wait_request(h, "POST", path, &since, WAIT_MS);
    assert_non_null(post);
    return post;
}

static const char *post_content(json_t *post)
{
    return json_string_value(json_object_get(json_object_get(post, "body"),
                                             "content"));
}

static const char *post_id(json_t *post)
{
    return json_string_value(json_object_get(json_object_get(post,
                                                             "response"),
                                             "id"));
}

/* The custom_id of the button labelled label in the posted message. */
static const char *button_id(json_t *post, const char *label)
{
    const char *id = button(json_object_get(post, "body"), label);
    if (id == NULL) {
        char *s = all_of(post);
        fail_msg("no %s button in %s", label, s);
    }
    return id;
}

/* Click custom_id on message mid (in channel) as user; forge: a custom_id
 * that was never on the message. The answer's record. */
static json_t *press(struct harness *h, const char *mid, const char *cid,
                     const char *user, const char *channel, bool forge)
{
    char extra[160];
    int st = 0;
    snprintf(extra, sizeof extra, "{\"user_id\":\"%s\",\"global_name\":"
             "\"%s\",\"channel_id\":\"%s\"}", user, name_of(user), channel);
    json_t *r = fake_inject_component(h->fake.port, mid, cid, NULL, forge,
                                      extra, &st);
    if (r == NULL || st != 200)
        fail_msg("fake-discord refused the click on %s (status %d)", cid, st);
    json_t *rec = harness_callback(h, json_string_value(json_object_get(r,
                                                                       "id")));
    json_decref(r);
    json_t *cb = json_incref(json_object_get(rec, "body"));
    json_decref(rec);
    return cb;
}

/* The GM's private status text. */
static char *status(struct harness *h)
{
    json_t *cb = as(h, GM, "status", json_pack("[{s:s,s:b}]", "name",
                                               "private", "value", 1));
    char *s = all_of(cb);
    json_decref(cb);
    return s;
}

static void assert_bryn_hp(struct harness *h, const char *want)
{
    char *s = status(h);
    if (strstr(s, want) == NULL)
        fail_msg("Bryn's hp is not %s: %s", want, s);
    free(s);
}

/* The GM presses post's Approve: applied, Bryn down to 15. */
static void approve_ok(struct harness *h, json_t *post)
{
    json_t *cb = press(h, post_id(post), button_id(post, "Approve"), GM,
                       CHANNEL, false);
    assert_false(ephemeral(cb));
    json_decref(cb);
    assert_bryn_hp(h, "15/18");
}

static void finish(struct harness *h, json_t *post)
{
    json_decref(post);
    harness_assert_no_violations(h);
    harness_stop(h);
}

static void test_propose_approve_history_undo(void **st)
{
    struct harness h;
    (void)st;
    start(&h);
    fight_begun(&h);
    json_t *post = propose(&h, CHANNEL);
    /* no GM channel: the fight's channel, the GM mentioned */
    assert_non_null(strstr(post_content(post), "<@" GM ">"));
    assert_non_null(strstr(post_content(post), "/combat hp name:Bryn "
                                               "change:-3"));
    const char *approve = button_id(post, "Approve");
    button_id(post, "Reject");
    /* Bob (a player) may not approve */
    refused(press(&h, post_id(post), approve, BOB, CHANNEL, false),
            "only the GM");
    assert_bryn_hp(&h, "18/18");
    json_t *cb = press(&h, post_id(post), approve, GM, CHANNEL, false);
    assert_false(ephemeral(cb));
    assert_int_equal(json_integer_value(json_object_get(cb, "type")),
                     UPDATE_MESSAGE);      /* the proposal's message */
    assert_non_null(strstr(content(cb), "Approved: proposal 1 from Alice"));
    json_decref(cb);
    assert_bryn_hp(&h, "15/18");
    cb = as(&h, GM, "history", NULL);
    char *s = all_of(cb);
    if (strstr(s, "Bryn: hp 18 → 15 \\\\(proposed by Alice") == NULL)
        fail_msg("history: %s", s);
    free(s);
    json_decref(cb);
    /* answered: a second click finds nothing waiting */
    refused(press(&h, post_id(post), approve, GM, CHANNEL, false),
            "not waiting for an answer");
    ok(as(&h, GM, "undo", NULL));
    assert_bryn_hp(&h, "18/18");
    finish(&h, post);
}

static void test_reject_in_gm_channel_tells_player(void **st)
{
    struct harness h;
    (void)st;
    start(&h);
    config(&h, "gm-channel", 7, GM_CHANNEL);
    fight_begun(&h);
    json_t *post = propose(&h, GM_CHANNEL);
    assert_non_null(strstr(post_content(post), "in <#" CHANNEL ">"));
    long long since = harness_last_request(&h);
    json_t *cb = press(&h, post_id(post), button_id(post, "Reject"), GM,
                       GM_CHANNEL, false);
    assert_false(ephemeral(cb));
    assert_non_null(strstr(content(cb), "Not approved: proposal 1"));
    json_decref(cb);
    json_t *told = harness_wait_request(&h, "POST", "/channels/" CHANNEL
                                        "/messages", &since, WAIT_MS);
    assert_non_null(told);
    assert_non_null(strstr(post_content(told), "<@" ALICE ">, the GM did "
                                               "not approve"));
    json_decref(told);
    assert_bryn_hp(&h, "18/18");
    cb = as(&h, GM, "proposal", NULL);
    assert_non_null(strstr(content(cb), "No proposals wait"));
    json_decref(cb);
    /* approved in the GM channel: the fight's tracker and the player */
    json_decref(post);
    post = propose(&h, GM_CHANNEL);
    since = harness_last_request(&h);
    long long since_edit = since;      /* in whichever order they come */
    cb = press(&h, post_id(post), button_id(post, "Approve"), GM,
               GM_CHANNEL, false);
    assert_false(ephemeral(cb));
    assert_non_null(strstr(content(cb), "Approved: proposal 2"));
    json_decref(cb);
    assert_bryn_hp(&h, "15/18");
    told = harness_wait_request(&h, "POST", "/channels/" CHANNEL
                                "/messages", &since, WAIT_MS);
    assert_non_null(told);
    assert_non_null(strstr(post_content(told), "<@" ALICE ">, the GM "
                                               "approved"));
    json_decref(told);
    json_t *edit = harness_wait_request(&h, "PATCH", "/channels/" CHANNEL
                                        "/messages/", &since_edit, WAIT_MS);
    assert_non_null(edit);                 /* the fight's tracker */
    json_decref(edit);
    finish(&h, post);
}

static void test_approved_after_turn_moved_on_lapsed(void **st)
{
    struct harness h;
    (void)st;
    start(&h);
    fight_begun(&h);
    json_t *post = propose(&h, CHANNEL);
    ok(as(&h, GM, "next", NULL));
    refused(press(&h, post_id(post), button_id(post, "Approve"), GM,
                  CHANNEL, false), "has lapsed");
    assert_bryn_hp(&h, "18/18");
    finish(&h, post);
}

static void test_forged_custom_ids_refused(void **st)
{
    struct harness h;
    char forged[128];
    (void)st;
    start(&h);
    fight_begun(&h);
    json_t *post = propose(&h, CHANNEL);
    const char *approve = button_id(post, "Approve");
    /* a wrong token */
    snprintf(forged, sizeof forged, "%s", approve);
    size_t n = strlen(forged);
    forged[n - 1] = forged[n - 1] == '0' ? '1' : '0';
    refused(press(&h, post_id(post), forged, GM, CHANNEL, true),
            "not one of this fight's proposals");
    /* no token at all: what the GM may type is not a button */
    char *star = strstr(forged, ".*:approve=");
    assert_non_null(star);
    snprintf(star, sizeof forged - (size_t)(star - forged),
             ".*:approve=1");
    refused(press(&h, post_id(post), forged, GM, CHANNEL, true),
            "not one of this fight's proposals");
    /* another fight's */
    refused(press(&h, post_id(post), "v2:combat/proposal:999999.*:approve="
                  CHANNEL "-1-00000000", GM, CHANNEL, true),
            "earlier fight");
    assert_bryn_hp(&h, "18/18");
    /* the real button still works */
    approve_ok(&h, post);
    finish(&h, post);
}

static void test_proposal_survives_restart(void **st)
{
    struct harness h;
    (void)st;
    start(&h);
    fight_begun(&h);
    json_t *post = propose(&h, CHANNEL);
    kill(h.fray, SIGTERM);
    assert_int_equal(harness_wait_exit(&h, 6000), 0);
    harness_start_fray(&h, NULL);
    approve_ok(&h, post);
    finish(&h, post);
}

static void test_off_trusted_hidden_no_proposal(void **st)
{
    struct harness h;
    (void)st;
    start(&h);
    fight_begun(&h);
    long long since = harness_last_request(&h);
    /* hidden: what a name nobody has gets, nothing named, nothing
     * posted */
    json_t *cb = hp(&h, ALICE, "Shade", "-1");
    char *s = all_of(cb);
    assert_null(strstr(s, "Shade"));
    free(s);
    refused(cb, "no combatant by that name");
    /* trusted: Alice acts at once */
    ok(as(&h, GM, "settings", json_pack("[{s:s,s:b}]", "name", "trust",
                                         "value", 1)));
    ok(hp(&h, ALICE, "Bryn", "-2"));
    assert_bryn_hp(&h, "16/18");
    ok(as(&h, GM, "settings", json_pack("[{s:s,s:b}]", "name", "trust",
                                         "value", 0)));
    /* proposals off: refused as before */
    config(&h, "proposals", 3, "off");
    refused(hp(&h, ALICE, "Bryn", "-2"), "only Bryn's player or the GM");
    assert_bryn_hp(&h, "16/18");
    fake_sleep_ms(300);
    json_t *posts = harness_requests(&h, "POST", "/channels/" CHANNEL
                                     "/messages", &since);
    for (size_t i = 0; i < json_array_size(posts); i++) {
        const char *c = post_content(json_array_get(posts, i));
        assert_true(c == NULL || strstr(c, "Proposal") == NULL);
    }
    json_decref(posts);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_propose_approve_history_undo),
        cmocka_unit_test(test_reject_in_gm_channel_tells_player),
        cmocka_unit_test(test_approved_after_turn_moved_on_lapsed),
        cmocka_unit_test(test_forged_custom_ids_refused),
        cmocka_unit_test(test_proposal_survives_restart),
        cmocka_unit_test(test_off_trusted_hidden_no_proposal),
    };
    return cmocka_run_group_tests_name("daemon_proposals", tests, NULL,
                                       NULL);
}
