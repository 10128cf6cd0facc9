/* test_cmd_proposal.c - players propose, the GM approves (issue 31, part
 * 5): the stored proposal (proposal.h: references, its JSON, the lapsing
 * rules) and the commands around it through cmd_exec() as Discord sends
 * them (cmd_script.h): in every system a player's change to another's
 * combatant, its own declared condition too, is stored and answered
 * privately, approved as the GM's change and undone; the limits per
 * player and per fight; lapsing with the turn or, configured, the round;
 * a change the system refuses is refused at once; approval re-checks the
 * fight (the combatant left, the fight ended); no proposal names a
 * hidden combatant. */
#include "support.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd_script.h"
#include "custom_id.h"
#include "custom_id_req.h"
#include "enc.h"
#include "proposal.h"
#include "render_text.h"
#include "rs.h"
#include "store.h"
#include "store_fixture.h"

#define SEED 42
#define MAX_LINES 8

/* ---- the stored proposal ------------------------------------------------- */

static void test_ref_parse(void **state)
{
    struct proposal_ref r;
    (void)state;
    assert_true(proposal_ref_parse("3", &r));
    assert_int_equal(r.id, 3);
    assert_int_equal(r.channel, 0);
    assert_string_equal(r.token, "");
    assert_true(proposal_ref_parse("77-12-0a1b2c3d", &r));
    assert_int_equal(r.channel, 77);
    assert_int_equal(r.id, 12);
    assert_string_equal(r.token, "0a1b2c3d");
    static const char *const bad[] = {
        "", "0", "-1", "abc", "3x", "77-12", "77-12-0A1B2C3D", "77-12-0a1b2c3",
        "77-12-0a1b2c3d0", "0-12-0a1b2c3d", "77-0-0a1b2c3d", "77--0a1b2c3d",
        "99999999999999999999-1-0a1b2c3d",
        "1111111111111111111111111111111111111111111111111",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (proposal_ref_parse(bad[i], &r))
            fail_msg("reference \"%s\" was read", bad[i]);
}

static void sample(struct proposal *p)
{
    memset(p, 0, sizeof *p);
    p->id = 7;
    snprintf(p->token, sizeof p->token, "deadbeef");
    p->guild = 88;
    p->channel = 77;
    p->fight = 1234;
    p->user = 1003;
    snprintf(p->user_name, sizeof p->user_name, "Bob \"the\" Bold");
    p->target = 2;
    snprintf(p->target_name, sizeof p->target_name, "Goblin 1");
    snprintf(p->sub, sizeof p->sub, "hp");
    snprintf(p->opts[0].name, sizeof p->opts[0].name, "name");
    snprintf(p->opts[0].value, sizeof p->opts[0].value, "Goblin 1");
    snprintf(p->opts[1].name, sizeof p->opts[1].name, "change");
    snprintf(p->opts[1].value, sizeof p->opts[1].value, "-3");
    p->nopts = 2;
    p->turn_seq = 5;
    p->round = 2;
    p->at_ms = 1700000000000;
    p->posted = 555;
}

static void test_encode_decode(void **state)
{
    struct proposal a, b;
    (void)state;
    sample(&a);
    char *text = proposal_encode(&a);
    assert_non_null(text);
    assert_true(proposal_decode(text, &b));
    free(text);
    assert_memory_equal(&a, &b, sizeof a);
    /* what is not a proposal is refused, whole */
    static const char *const bad[] = {
        "", "[]", "{}", "{\"id\":0}",
        "{\"id\":1,\"token\":\"xyz\"}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_false(proposal_decode(bad[i], &b));
    /* a field out of its bounds */
    a.round = -1;
    text = proposal_encode(&a);
    assert_non_null(text);
    assert_false(proposal_decode(text, &b));
    free(text);
}

static void test_lapsing_rules(void **state)
{
    struct proposal p;
    struct encounter *e = calloc(1, sizeof *e);
    enum proposal_expiry x;
    (void)state;
    assert_non_null(e);
    sample(&p);
    e->fight_id = p.fight;
    e->status = ENC_ST_RUNNING;
    e->turn_seq = p.turn_seq;
    e->round = p.round;
    for (int k = 0; k < 3; k++)
        assert_false(proposal_expired(&p, e, (enum proposal_expiry)k));
    e->turn_seq++;                         /* the turn moved on */
    assert_true(proposal_expired(&p, e, PROPOSAL_EXPIRE_TURN));
    assert_false(proposal_expired(&p, e, PROPOSAL_EXPIRE_ROUND));
    e->round++;                            /* ... and the round */
    assert_true(proposal_expired(&p, e, PROPOSAL_EXPIRE_ROUND));
    assert_false(proposal_expired(&p, e, PROPOSAL_EXPIRE_NEVER));
    e->fight_id++;                         /* another fight: always */
    assert_true(proposal_expired(&p, e, PROPOSAL_EXPIRE_NEVER));
    assert_true(proposal_expired(&p, NULL, PROPOSAL_EXPIRE_NEVER));
    free(e);
    assert_true(proposal_expiry_parse("Round", &x));
    assert_int_equal(x, PROPOSAL_EXPIRE_ROUND);
    assert_string_equal(proposal_expiry_name(x), "round");
    assert_false(proposal_expiry_parse("turns", &x));
}

/* ---- through cmd_exec ---------------------------------------------------- */

/* One system's fight: p1 owns Ann, p2 Bob, the GM an NPC; begun. */
struct fixture {
    const char *system;
    const char *hp;                  /* Bob's change to Ann's hit points */
    const char *lines[MAX_LINES];    /* "actor<TAB>line" */
};

static const struct fixture fixtures[] = {
    {"generic", NULL, {
        "gm\t/combat start system:generic name:P",
        "p1\t/combat join name:Ann hp:20 stats:\"ac=10 init=50 attack=5\"",
        "p2\t/combat join name:Bob hp:20 stats:\"ac=10 init=1 attack=5\"",
        "gm\t/combat add name:Orc hp:30 stats:\"ac=10 init=2 attack=1\"",
        "gm\t/combat add name:Shade hp:9 hidden:true",
        "gm\t/combat begin"}},
    {"factions", NULL, {
        "gm\t/combat start system:factions name:P",
        "p1\t/combat join name:Ann side:Players hp:10 stats:\"str=9 agi=11 "
        "wit=12 armour=1\"",
        "p2\t/combat join name:Bob side:Players hp:10 stats:\"str=9 agi=11 "
        "wit=12 armour=1\"",
        "gm\t/combat add name:Bandit side:Bandits hp:6 stats:\"str=10 "
        "agi=10 wit=8\"",
        "gm\t/combat begin first:Players"}},
    {"teams", NULL, {
        "gm\t/combat start system:teams name:P",
        "p1\t/combat join name:Ann side:players hp:12 stats:\"endurance=12 "
        "stamina=3 focus=2 con=4 str=6 combat=6 prof=1 athletics=4 "
        "fortitude=1 evasion=5 pdr=2\"",
        "p2\t/combat join name:Bob side:players hp:12 stats:\"endurance=12 "
        "stamina=3 focus=2 con=4 str=6 combat=6 prof=1 athletics=4 "
        "fortitude=1 evasion=5 pdr=2\"",
        "gm\t/combat add name:Guard side:guards hp:10 stats:\"endurance=8 "
        "evasion=6 pdr=8 str=6 combat=6\"",
        "gm\t/combat begin first:players"}},
    {"cards", "/combat hp name:Ann change:+1 track:harm", {
        "gm\t/combat start system:cards name:P",
        "p1\t/combat join name:Ann side:heroes hp:4 stats:\"strike=3 "
        "finesse=2 endure=2 damage=2\"",
        "p2\t/combat join name:Bob side:heroes hp:4 stats:\"strike=3 "
        "finesse=2 endure=2 damage=2\"",
        "gm\t/combat add name:Orc side:orcs hp:3 stats:\"strike=2 finesse=1 "
        "endure=1 damage=1\"",
        "gm\t/combat begin"}},
    {"tactical", NULL, {
        "gm\t/combat start system:tactical name:P",
        "p1\t/combat join name:Ann side:crew hp:20 stats:\"init=30 "
        "stamina=3 av=4 endurance=2 fortitude=1 dexterity=2\"",
        "p2\t/combat join name:Bob side:crew hp:20 stats:\"init=1 stamina=3 "
        "av=4 endurance=2 fortitude=1 dexterity=2\"",
        "gm\t/combat add name:Drone side:drones hp:12 stats:\"init=1 av=21 "
        "endurance=1 fortitude=1 mech=1\"",
        "gm\t/combat begin"}},
    {"resolve", NULL, {
        "gm\t/combat start system:resolve name:P",
        "p1\t/combat join name:Ann hp:10",
        "p2\t/combat join name:Bob hp:10",
        "gm\t/combat add name:Thug hp:5",
        "gm\t/combat begin"}},
};

struct world {
    struct script_cell cell;
    struct cmd_reply r;
    char text[8192];
};

/* Run line as user; the reply in w->r and its text in w->text. */
static bool run(struct world *w, uint64_t user, const char *line)
{
    struct cmd_parsed p;
    cmd_reply_cleanup(&w->r);
    script_req(&p, line, user);
    if (user == SCRIPT_ADMIN) {          /* as the setups' admin */
        p.req.perms = CMD_PERM_ADMINISTRATOR;
        p.req.perms_known = true;
    }
    assert_true(cmd_exec(&w->cell.ctx, &p.req, &w->r));
    script_text(&w->r.msg, w->text, sizeof w->text);
    return !w->r.is_error;
}

static void must(struct world *w, uint64_t user, const char *line)
{
    if (!run(w, user, line))
        fail_msg("%s was refused: %s", line, w->text);
}

static void refused(struct world *w, uint64_t user, const char *line,
                    const char *want)
{
    if (run(w, user, line) || strstr(w->text, want) == NULL)
        fail_msg("%s: want a refusal with \"%s\", got %s", line, want,
                 w->text);
}

static void has(const struct world *w, const char *want)
{
    if (strstr(w->text, want) == NULL)
        fail_msg("\"%s\" not in %s", want, w->text);
}

static void open_world(struct world *w, const struct fixture *fx)
{
    char *fields[4], copy[MAX_LINES][512];
    struct script_setups *ss = calloc(1, sizeof *ss);
    assert_non_null(ss);
    for (int i = 0; i < MAX_LINES && fx->lines[i] != NULL; i++) {
        snprintf(copy[i], sizeof copy[i], "setup\t%s\t%s", fx->system,
                 fx->lines[i]);
        assert_int_equal(script_split_tabs(copy[i], fields, 4), 4);
        script_setup_add(ss, fields);
    }
    cmd_reply_init(&w->r);
    script_cell_prepare(&w->cell, script_setup_find(ss, fx->system), SEED);
    free(ss);
}

static void close_world(struct world *w)
{
    cmd_reply_cleanup(&w->r);
    script_cell_close(&w->cell);
}

static int64_t version(struct world *w)
{
    char *doc = NULL;
    int64_t v = 0;
    assert_int_equal(store_enc_load(w->cell.store, SCRIPT_CHANNEL, &doc, &v),
                     BOT_OK);
    free(doc);
    return v;
}

/* Proposal rows of the channel in the store. */
static int rows(struct world *w)
{
    char prefix[64];
    snprintf(prefix, sizeof prefix, PROPOSAL_KV_PREFIX "%" PRIu64 ":",
             SCRIPT_CHANNEL);
    int n = store_fx_kv_count(w->cell.store, prefix);
    assert_true(n >= 0);
    return n;
}

/* Bob's proposal of line: private, stored, the fight as it was, and the
 * GM's message with Approve and Reject, whose ids name it. */
static void bob_proposes(struct world *w, const char *line)
{
    int64_t v = version(w);
    int n = rows(w);
    must(w, SCRIPT_P2, line);
    has(w, "Sent to the GM for approval");
    assert_true(w->r.ephemeral);
    assert_false(w->r.changed);
    assert_int_equal(version(w), v);
    assert_int_equal(rows(w), n + 1);
    assert_non_null(w->r.notice);
    assert_int_equal(w->r.notice_channel, SCRIPT_CHANNEL);
    assert_int_equal(w->r.notice->nbuttons, 2);
    struct custom_id cid;
    assert_true(custom_id_parse(w->r.notice->buttons[0].custom_id, &cid));
    assert_string_equal(cid.sub, "proposal");
    assert_string_equal(cid.opt_name, "approve");
    assert_int_equal(cid.version, CUSTOM_ID_ANY_VERSION);
}

static void test_every_system(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof fixtures / sizeof *fixtures; i++) {
        struct world w;
        char line[160];
        const struct rs_system *rs = rs_find(fixtures[i].system);
        assert_non_null(rs);
        open_world(&w, &fixtures[i]);
        bob_proposes(&w, fixtures[i].hp != NULL
                             ? fixtures[i].hp
                             : "/combat hp name:Ann change:-1");
        int64_t v = version(&w);
        /* a player may not answer */
        refused(&w, SCRIPT_P1, "/combat proposal approve:1", "only the GM");
        must(&w, SCRIPT_GM, "/combat proposal approve:1");
        has(&w, "Approved: proposal 1 from");
        assert_true(w.r.changed);
        assert_int_equal(version(&w), v + 1);
        assert_int_equal(rows(&w), 0);
        must(&w, SCRIPT_GM, "/combat history");
        has(&w, "(proposed by");
        must(&w, SCRIPT_GM, "/combat log");      /* its author: both */
        assert_non_null(w.r.file.data);
        assert_non_null(strstr(w.r.file.data, ", approved by "));
        must(&w, SCRIPT_GM, "/combat undo");
        assert_int_equal(version(&w), v + 2);
        /* the system's own first condition, as declared */
        if (rs->nconds > 0) {
            snprintf(line, sizeof line, "/combat condition name:Ann "
                     "condition:\"%s\"", rs->conds[0].name);
            bob_proposes(&w, line);
            must(&w, SCRIPT_GM, "/combat proposal reject:2");
            has(&w, "Not approved: proposal 2");
            assert_false(w.r.changed);
            assert_int_equal(rows(&w), 0);
        }
        /* what the system refuses is refused at once, unstored */
        refused(&w, SCRIPT_P2, "/combat hp name:Ann change:-1 "
                "track:nosuchtrack", "no nosuchtrack");
        assert_int_equal(rows(&w), 0);
        close_world(&w);
    }
}

static void test_limits(void **state)
{
    struct world w;
    char line[160];
    (void)state;
    open_world(&w, &fixtures[0]);
    for (int i = 0; i < PROPOSAL_MAX_PER_PLAYER; i++)
        bob_proposes(&w, "/combat hp name:Ann change:-1");
    refused(&w, SCRIPT_P2, "/combat hp name:Ann change:-1",
            "the limit is 3");
    /* more players, up to the fight's limit */
    int made = PROPOSAL_MAX_PER_PLAYER;
    for (uint64_t u = 2000; made < PROPOSAL_MAX_PER_FIGHT; u++) {
        snprintf(line, sizeof line, "/combat join name:P%" PRIu64 " hp:5",
                 u);
        must(&w, u, line);
        for (int k = 0; k < PROPOSAL_MAX_PER_PLAYER &&
                        made < PROPOSAL_MAX_PER_FIGHT; k++, made++)
            must(&w, u, "/combat hp name:Ann change:-1");
    }
    assert_int_equal(rows(&w), PROPOSAL_MAX_PER_FIGHT);
    must(&w, 3000, "/combat join name:Late hp:5");
    refused(&w, 3000, "/combat hp name:Ann change:-1", "the limit is 20");
    assert_int_equal(rows(&w), PROPOSAL_MAX_PER_FIGHT);
    /* the turn moves on: all lapse, and the next sweep clears them */
    must(&w, SCRIPT_GM, "/combat next");
    must(&w, SCRIPT_P2, "/combat hp name:Ann change:-1");
    assert_int_equal(rows(&w), 1);
    must(&w, SCRIPT_GM, "/combat proposal");
    has(&w, "Proposals waiting for the GM");
    close_world(&w);
}

static void test_lapsing_configured(void **state)
{
    struct world w;
    (void)state;
    open_world(&w, &fixtures[0]);
    bob_proposes(&w, "/combat hp name:Ann change:-1");
    must(&w, SCRIPT_GM, "/combat next");
    refused(&w, SCRIPT_GM, "/combat proposal approve:1", "has lapsed");
    assert_int_equal(rows(&w), 0);             /* and it is forgotten */
    refused(&w, SCRIPT_GM, "/combat proposal approve:1",
            "not waiting for an answer");
    /* by the round: a turn is not enough */
    must(&w, SCRIPT_ADMIN, "/config proposal-expiry:round");
    bob_proposes(&w, "/combat hp name:Ann change:-1");
    must(&w, SCRIPT_GM, "/combat next");
    must(&w, SCRIPT_GM, "/combat proposal approve:2");
    bob_proposes(&w, "/combat hp name:Ann change:-1");
    for (int i = 0; i < 4; i++)                /* round 2 */
        must(&w, SCRIPT_GM, "/combat next");
    refused(&w, SCRIPT_GM, "/combat proposal approve:3", "round moved on");
    /* off: refused as before proposals */
    must(&w, SCRIPT_ADMIN, "/config proposals:off");
    refused(&w, SCRIPT_P2, "/combat hp name:Ann change:-1",
            "only Ann's player or the GM");
    assert_int_equal(rows(&w), 0);
    close_world(&w);
}

static void test_approval_rechecks_the_fight(void **state)
{
    struct world w;
    (void)state;
    open_world(&w, &fixtures[0]);
    bob_proposes(&w, "/combat hp name:Orc change:-5");
    bob_proposes(&w, "/combat hp name:Ann change:-1");
    must(&w, SCRIPT_GM, "/combat remove name:Orc");
    int64_t v = version(&w);
    refused(&w, SCRIPT_GM, "/combat proposal approve:1", "has left the "
            "fight");
    assert_int_equal(version(&w), v);
    /* a new Orc is another combatant */
    must(&w, SCRIPT_GM, "/combat add name:Orc hp:30");
    must(&w, SCRIPT_GM, "/combat end confirm:true");
    assert_int_equal(rows(&w), 0);             /* gone with the fight */
    refused(&w, SCRIPT_GM, "/combat proposal approve:2", "no fight");
    close_world(&w);
}

static void test_hidden_never_proposed(void **state)
{
    struct world w;
    (void)state;
    open_world(&w, &fixtures[0]);
    /* the answer for a name nobody has (issue 33: no oracle) */
    refused(&w, SCRIPT_P2, "/combat hp name:Shade change:-1",
            "no combatant by that name");
    assert_null(strstr(w.text, "Shade"));
    refused(&w, SCRIPT_P2, "/combat condition name:Ann condition:Marked "
            "until:Shade", "no combatant by that name");
    assert_null(strstr(w.text, "Shade"));
    assert_int_equal(rows(&w), 0);
    /* a spectator with no combatant in the fight does not propose */
    refused(&w, 4242, "/combat hp name:Ann change:-1", "only Ann's player");
    assert_int_equal(rows(&w), 0);
    close_world(&w);
}

/* Approve clicked as user in channel, with perms there: the button's
 * custom_id (read off the GM's message) decoded as Discord's click is. */
static bool click(struct world *w, const char *custom_id, uint64_t user,
                  uint64_t channel, uint64_t perms)
{
    struct cmd_parsed p;
    struct custom_id cid;
    char why[128];
    assert_true(custom_id_parse(custom_id, &cid));
    cmd_reply_cleanup(&w->r);
    script_req(&p, "/combat proposal", user);
    p.req.channel_id = channel;
    p.req.perms = perms;
    assert_true(custom_id_req(&cid, false, NULL, &p.req, why, sizeof why));
    assert_true(cmd_exec(&w->cell.ctx, &p.req, &w->r));
    script_text(&w->r.msg, w->text, sizeof w->text);
    return !w->r.is_error;
}

/* A player who manages a channel of their own (another table's GM) does
 * not answer their own proposal by pressing its button, read off the
 * fight's channel, there: a click acts on another channel's fight only
 * from the server's GM channel. */
static void test_click_elsewhere_refused(void **state)
{
    struct world w;
    char approve[CUSTOM_ID_MAX + 1];
    const uint64_t own = 999, gm_channel = 555;
    (void)state;
    open_world(&w, &fixtures[0]);
    bob_proposes(&w, "/combat hp name:Ann change:-1");
    snprintf(approve, sizeof approve, "%s",
             w.r.notice->buttons[0].custom_id);
    int64_t v = version(&w);
    assert_false(click(&w, approve, SCRIPT_P2, own,
                       CMD_PERM_MANAGE_CHANNELS));
    has(&w, "no fight in this channel");
    assert_int_equal(version(&w), v);
    assert_int_equal(rows(&w), 1);
    /* with a GM channel, only there */
    struct cmd_parsed cfg;                /* the channel, as resolved */
    script_req(&cfg, "/config gm-channel:555", SCRIPT_ADMIN);
    cfg.req.perms = CMD_PERM_ADMINISTRATOR;
    cfg.req.channels[cfg.req.nchannels++] =
        (struct cmd_channel){gm_channel, SCRIPT_GUILD, CMD_CHANNEL_TEXT};
    cmd_reply_cleanup(&w.r);
    assert_true(cmd_exec(&w.cell.ctx, &cfg.req, &w.r));
    assert_false(w.r.is_error);
    must(&w, SCRIPT_P2, "/combat hp name:Ann change:-2");
    assert_non_null(w.r.notice);
    assert_int_equal(w.r.notice_channel, gm_channel);
    snprintf(approve, sizeof approve, "%s",
             w.r.notice->buttons[0].custom_id);
    assert_false(click(&w, approve, SCRIPT_P2, own,
                       CMD_PERM_MANAGE_CHANNELS));
    assert_int_equal(version(&w), v);
    assert_true(click(&w, approve, SCRIPT_GM, gm_channel, 0));
    assert_int_equal(version(&w), v + 1);
    close_world(&w);
}

/* The fight shown in a thread of its own (ctx.shown_in). */
#define FIGHT_THREAD UINT64_C(4242)
static uint64_t in_thread(struct store *s, uint64_t channel)
{
    (void)s;
    return channel == SCRIPT_CHANNEL ? FIGHT_THREAD : 0;
}

/* In a fight with its own thread the GM's message is posted there and
 * answered there: nobody is told again in the parent channel. Answered
 * in the GM channel, the proposer is told in the thread, where the fight
 * is, not in the parent channel. */
static void test_thread_answer_told_in_thread(void **state)
{
    struct world w;
    char approve[CUSTOM_ID_MAX + 1];
    struct cmd_parsed p;
    (void)state;
    open_world(&w, &fixtures[0]);
    w.cell.ctx.shown_in = in_thread;
    script_req(&p, "/combat hp name:Ann change:-1", SCRIPT_P2);
    p.req.thread_id = FIGHT_THREAD;
    cmd_reply_cleanup(&w.r);
    assert_true(cmd_exec(&w.cell.ctx, &p.req, &w.r));
    assert_non_null(w.r.notice);
    assert_int_equal(w.r.notice_channel, FIGHT_THREAD);
    snprintf(approve, sizeof approve, "%s", w.r.notice->buttons[0].custom_id);
    struct custom_id cid;
    char why[128];
    assert_true(custom_id_parse(approve, &cid));
    script_req(&p, "/combat proposal", SCRIPT_GM);
    p.req.thread_id = FIGHT_THREAD;
    assert_true(custom_id_req(&cid, false, NULL, &p.req, why, sizeof why));
    cmd_reply_cleanup(&w.r);
    assert_true(cmd_exec(&w.cell.ctx, &p.req, &w.r));
    assert_false(w.r.is_error);
    assert_null(w.r.notice);             /* the answer is seen there */
    /* answered in the GM channel: the proposer is told in the thread */
    struct cmd_parsed cfg;
    script_req(&cfg, "/config gm-channel:555", SCRIPT_ADMIN);
    cfg.req.perms = CMD_PERM_ADMINISTRATOR;
    cfg.req.channels[cfg.req.nchannels++] =
        (struct cmd_channel){555, SCRIPT_GUILD, CMD_CHANNEL_TEXT};
    cmd_reply_cleanup(&w.r);
    assert_true(cmd_exec(&w.cell.ctx, &cfg.req, &w.r));
    assert_false(w.r.is_error);
    script_req(&p, "/combat hp name:Ann change:-2", SCRIPT_P2);
    p.req.thread_id = FIGHT_THREAD;
    cmd_reply_cleanup(&w.r);
    assert_true(cmd_exec(&w.cell.ctx, &p.req, &w.r));
    assert_non_null(w.r.notice);
    assert_int_equal(w.r.notice_channel, 555);
    snprintf(approve, sizeof approve, "%s", w.r.notice->buttons[0].custom_id);
    assert_true(custom_id_parse(approve, &cid));
    script_req(&p, "/combat proposal", SCRIPT_GM);
    p.req.channel_id = 555;
    assert_true(custom_id_req(&cid, false, NULL, &p.req, why, sizeof why));
    cmd_reply_cleanup(&w.r);
    assert_true(cmd_exec(&w.cell.ctx, &p.req, &w.r));
    assert_false(w.r.is_error);
    assert_non_null(w.r.notice);
    assert_int_equal(w.r.notice_channel, FIGHT_THREAD);
    close_world(&w);
}

/* A player's name and values are shown in the GM's message, never obeyed
 * there: a backtick, spoiler bars or a strike cannot end the command's
 * text early, hide part of it or dress it up as something else. */
static void test_markup_shown_not_obeyed(void **state)
{
    struct world w;
    struct cmd_parsed p;
    (void)state;
    open_world(&w, &fixtures[0]);
    script_req(&p, "/combat condition name:Ann condition:\"Pr`o||ne\" "
               "custom:true", SCRIPT_P2);
    p.req.user_name = "~~Bob||";
    cmd_reply_cleanup(&w.r);
    assert_true(cmd_exec(&w.cell.ctx, &p.req, &w.r));
    assert_false(w.r.is_error);
    assert_non_null(w.r.notice);
    const char *gm = w.r.notice->content;
    assert_non_null(gm);
    if (strstr(gm, "Pr\\`o\\|\\|ne") == NULL ||
        strstr(gm, "\\~\\~Bob\\|\\|") == NULL)
        fail_msg("markup obeyed in the GM's message: %s", gm);
    assert_non_null(w.r.msg.content);
    if (strstr(w.r.msg.content, "Pr\\`o\\|\\|ne") == NULL)
        fail_msg("markup obeyed in the answer: %s", w.r.msg.content);
    must(&w, SCRIPT_GM, "/combat proposal");
    has(&w, "Pr`o||ne");                 /* read back as typed */
    must(&w, SCRIPT_GM, "/combat proposal reject:1");
    assert_non_null(strstr(w.r.msg.content, "\\~\\~Bob"));
    close_world(&w);
}

/* The prune pass forgets the rows of a fight that went without ending (no
 * live fight in their channel, or another one), the channel's id counter
 * with them, a bounded number a call; the live fight's proposal stays and
 * is still answered. */
static void test_prune_forgets_fights_gone(void **state)
{
    struct world w;
    struct proposal p;
    int64_t n = -1, id = 0;
    char prefix[64];
    const uint64_t gone = SCRIPT_CHANNEL + 1;
    (void)state;
    open_world(&w, &fixtures[0]);
    bob_proposes(&w, "/combat hp name:Ann change:-1");
    struct store *s = w.cell.store;
    sample(&p);                          /* a channel whose fight went */
    p.channel = gone;
    p.id = 1;
    assert_int_equal(proposal_put(s, &p), BOT_OK);
    p.id = 2;
    assert_int_equal(proposal_put(s, &p), BOT_OK);
    assert_int_equal(proposal_next_id(s, gone, 2, &id), BOT_OK);
    sample(&p);                          /* an earlier fight of this one */
    p.channel = SCRIPT_CHANNEL;
    p.id = 9;
    assert_int_equal(proposal_put(s, &p), BOT_OK);
    assert_int_equal(rows(&w), 2);
    /* bounded: one a call when one is asked for */
    assert_int_equal(proposal_prune(s, 1, &n), BOT_OK);
    assert_int_equal(n, 1);
    assert_int_equal(proposal_prune(s, 100, &n), BOT_OK);
    assert_int_equal(n, 3);
    snprintf(prefix, sizeof prefix, PROPOSAL_KV_PREFIX "%" PRIu64 ":", gone);
    assert_int_equal(store_fx_kv_count(s, prefix), 0);
    snprintf(prefix, sizeof prefix, PROPOSAL_SEQ_PREFIX "%" PRIu64, gone);
    assert_int_equal(store_fx_kv_count(s, prefix), 0);
    assert_int_equal(rows(&w), 1);
    snprintf(prefix, sizeof prefix, PROPOSAL_SEQ_PREFIX "%" PRIu64,
             (uint64_t)SCRIPT_CHANNEL);
    assert_int_equal(store_fx_kv_count(s, prefix), 1);
    /* nothing more to do, and the live one is still answered */
    assert_int_equal(proposal_prune(s, 100, &n), BOT_OK);
    assert_int_equal(n, 0);
    must(&w, SCRIPT_GM, "/combat proposal approve:1");
    close_world(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ref_parse),
        cmocka_unit_test(test_encode_decode),
        cmocka_unit_test(test_lapsing_rules),
        cmocka_unit_test(test_every_system),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_lapsing_configured),
        cmocka_unit_test(test_approval_rechecks_the_fight),
        cmocka_unit_test(test_hidden_never_proposed),
        cmocka_unit_test(test_prune_forgets_fights_gone),
        cmocka_unit_test(test_click_elsewhere_refused),
        cmocka_unit_test(test_thread_answer_told_in_thread),
        cmocka_unit_test(test_markup_shown_not_obeyed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
