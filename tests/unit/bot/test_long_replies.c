/*
 * test_long_replies.c - no reply is ever cut short.
 *
 * Every command of every rule system, and the core commands, runs in a
 * fight of that system whose combatants and sides have the longest names
 * allowed (64 and 32 bytes), with every option filled to its limit: text
 * at its longest, numbers at their bounds, each of a choice's values in
 * turn, dice, conditions, and the system's /attack tokens. Whether the
 * command is accepted or refused, its reply must be whole: the command
 * layer reports nothing cut (a message or the events did not fit), the
 * Discord body carries no "shortened" note, and a long name, wherever it
 * appears, appears in full.
 */
#include "support.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd_table.h"
#include "eng_limits.h"
#include "eng_rng.h"
#include "render_discord.h"
#include "render_text.h"
#include "rs.h"
#include "sbuf.h"
#include "store.h"

enum { GM = 100, PLAYER = 200 };

/* 64 bytes each: the longest combatant names. */
static const char npc[] =
    "Captain Aurelio Vantablack of the Seventeenth Northern Legion Ok";
static const char hero[] =
    "Ser Brannigan Oakenshield Thornwood the Unyielding Warden of Ash";
/* 32 bytes each: the longest side names. */
static const char side_a[] = "The Long-Named Northern Raiders.";
static const char side_b[] = "Defenders of the Western Bridges";

_Static_assert(sizeof npc - 1 == ENC_MAX_NAME, "a longest name");
_Static_assert(sizeof hero - 1 == ENC_MAX_NAME, "a longest name");
_Static_assert(sizeof side_a - 1 == ENC_MAX_SIDE_NAME, "a longest side");
_Static_assert(sizeof side_b - 1 == ENC_MAX_SIDE_NAME, "a longest side");

struct fix {
    struct store *store;
    struct eng_rng rng;
    struct cmd_ctx ctx;
    struct cmd_reply reply;
    int runs, refused, cut;
};

/* Report one cut reply (all are listed before the test fails). */
static void cut(struct fix *f, const char *what, const char *why,
                const char *text)
{
    print_error("%s: %s:\n%s\n", what, why, text);
    f->cut++;
}

/* Run a command with the given options (n pairs); check the reply. */
static void run_opts(struct fix *f, uint64_t user, const char *command,
                     const char *sub, const struct cmd_opt *opts, int n)
{
    struct cmd_req req = {
        .source = CMD_SRC_DISCORD, .command = command, .sub = sub,
        .channel_id = 1, .guild_id = 5, .user_id = user, .user_name = "u",
        .expect_version = -1, .force_gm = user == GM,
    };
    for (int i = 0; i < n && i < CMD_MAX_OPTS; i++)
        req.opts[req.nopts++] = opts[i];
    cmd_reply_cleanup(&f->reply);
    assert_true(cmd_exec(&f->ctx, &req, &f->reply));
    f->runs++;
    f->refused += f->reply.is_error;
    char what[96];
    snprintf(what, sizeof what, "/%s%s%s", command, sub ? " " : "",
             sub ? sub : "");
    if (f->reply.cut)
        cut(f, what, "something in the reply did not fit", "");
    json_t *body = render_discord_message(&f->reply.msg, false);
    assert_non_null(body);
    char *s = json_dumps(body, 0);
    if (strstr(s, RENDER_DC_NOTE) != NULL)
        cut(f, what, "the reply was shortened", s);
    json_decref(body);
    free(s);
    /* Wherever a long name starts, it is there whole (names are shown
     * escaped: compare the text renderer's plain words). */
    struct sbuf b;
    sbuf_init(&b, RENDER_TEXT_MAX);
    render_text(&f->reply.msg, NULL, &b);
    const char *names[] = {npc, hero, side_a, side_b};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        char head[24];
        snprintf(head, sizeof head, "%.20s", names[k]);
        for (const char *p = strstr(sbuf_str(&b), head); p != NULL;
             p = strstr(p + 1, head))
            if (strncmp(p, names[k], strlen(names[k])) != 0) {
                cut(f, what, "a name is cut", sbuf_str(&b));
                break;
            }
    }
    sbuf_cleanup(&b);
}

static void run(struct fix *f, uint64_t user, const char *command,
                const char *sub, ...)
{
    struct cmd_opt opts[CMD_MAX_OPTS];
    int n = 0;
    va_list ap;
    va_start(ap, sub);
    const char *name;
    while ((name = va_arg(ap, const char *)) != NULL && n < CMD_MAX_OPTS) {
        opts[n].name = name;
        opts[n].value = va_arg(ap, const char *);
        n++;
    }
    va_end(ap);
    run_opts(f, user, command, sub, opts, n);
}

/* A fresh store with a running fight of rs: an NPC and a hero, each on a
 * side, both with long names. */
static void fight(struct fix *f, const struct rs_system *rs)
{
    char err[128];
    if (f->store != NULL)
        store_close(f->store);
    assert_int_equal(store_open(":memory:", &f->store, err, sizeof err),
                     BOT_OK);
    f->ctx.store = f->store;
    run(f, GM, "combat", "start", "system", rs->id, "name",
        "An Extremely Long Battle Name For Testing Every Reply Is Whole",
        NULL);
    run(f, GM, "combat", "add", "name", npc, "side", side_a, "hp", "30",
        "stats", "ac=10 attack=2", NULL);
    run(f, PLAYER, "combat", "join", "name", hero, "side", side_b, "hp",
        "30", "stats", "ac=10 attack=2", NULL);
    run(f, GM, "combat", "begin", NULL);
    if (rs->flags & RS_F_ALTERNATING)
        run(f, GM, "combat", "pick", "name", npc, NULL);
}

/* The longest value an option may take, of the kind it wants. choice is
 * which of a choice's values to use. */
static const char *fill(const struct rs_opt_spec *o, int choice, char *buf,
                        size_t n)
{
    switch (o->type) {
    case RS_OPT_INTEGER:
        snprintf(buf, n, "%lld", (long long)(choice ? o->min : o->max));
        return buf;
    case RS_OPT_BOOLEAN:
        return choice ? "false" : "true";
    case RS_OPT_CHANNEL:
    case RS_OPT_ROLE:
        return "555";
    case RS_OPT_ATTACHMENT:
        return "missing.json";
    case RS_OPT_STRING:
        break;
    }
    switch (o->val) {
    case RS_VAL_COMBATANT:
        return choice ? hero : npc;
    case RS_VAL_OWN:
        return npc;
    case RS_VAL_SIDE:
    case RS_VAL_SIDE_ANY:
        return side_a;
    case RS_VAL_CHOICE:
        return o->choices[choice];
    case RS_VAL_DICE:
        return "10d6+5";
    case RS_VAL_CONDITION:
        return "A Very Long Condition Name Here";
    case RS_VAL_SYSTEM:
    case RS_VAL_SYSTEMS:
        return "generic";
    case RS_VAL_HELP:
        return "combat";
    default: {
        size_t len = o->max > 0 && (size_t)o->max < n ? (size_t)o->max
                                                      : n - 1;
        for (size_t i = 0; i < len; i++)
            buf[i] = "Lorem ipsum dolor sit amet "[i % 27];
        buf[len] = '\0';
        /* text of a name kind must not end in a space */
        if (len > 0 && buf[len - 1] == ' ')
            buf[len - 1] = 'x';
        return buf;
    }
    }
}

static int nchoices(const struct rs_opt_spec *o)
{
    int n = 0;
    while (o->val == RS_VAL_CHOICE && o->choices && o->choices[n])
        n++;
    return n;
}

/* Every option of spec filled, once per choice of its widest choice
 * option (and once more with numbers at their lower bound). */
static void run_filled(struct fix *f, const struct rs_system *rs,
                       const struct cmd_spec *spec)
{
    const struct rs_opt_spec *o = spec->opts;
    int variants = 2;
    for (int i = 0; o[i].name != NULL; i++)
        if (nchoices(&o[i]) > variants)
            variants = nchoices(&o[i]);
    static char bufs[RS_MAX_OPTS][512];
    for (int v = 0; v < variants; v++) {
        fight(f, rs);
        struct cmd_opt opts[CMD_MAX_OPTS];
        int n = 0;
        for (int i = 0; o[i].name != NULL && n < CMD_MAX_OPTS; i++) {
            int nc = nchoices(&o[i]);
            int which = nc > 0 ? v % nc : v % 2;
            opts[n].name = o[i].name;
            opts[n].value = fill(&o[i], which, bufs[i], sizeof bufs[i]);
            n++;
        }
        run_opts(f, GM, spec->command, spec->sub, opts, n);
    }
}

static void test_every_command_with_long_names(void **state)
{
    (void)state;
    struct fix *f = calloc(1, sizeof *f);
    eng_rng_seed(&f->rng, 99);
    f->ctx.rng = &f->rng;
    cmd_reply_init(&f->reply);
    size_t nrs;
    const struct rs_system *const *all = rs_all(&nrs);
    for (size_t s = 0; s < nrs; s++) {
        const struct rs_system *rs = all[s];
        for (int i = 0; i < rs->ncmds; i++) {
            struct cmd_spec v;
            assert_true(cmd_lookup(rs->cmds[i].verb, rs->cmds[i].sub, rs,
                                   &v));
            run_filled(f, rs, &v);
        }
        /* /attack with every token of the system, each at its longest */
        char tokens[2048] = "";
        char buf[256];
        for (int i = 0; rs->attack_opts && rs->attack_opts[i].name; i++) {
            const struct rs_opt_spec *o = &rs->attack_opts[i];
            size_t at = strlen(tokens);
            if (o->val == RS_VAL_FLAG || o->val == RS_VAL_COUNT)
                snprintf(tokens + at, sizeof tokens - at, "%s ", o->name);
            else
                snprintf(tokens + at, sizeof tokens - at, "%s=\"%s\" ",
                         o->name, fill(o, 0, buf, 60));
        }
        fight(f, rs);
        run(f, GM, "attack", NULL, "attacker", npc, "target", hero,
            "damage", "4d6+3", tokens[0] ? "options" : NULL, tokens, NULL);
        /* the core commands with long values in this system's fight */
        fight(f, rs);
        run(f, GM, "combat", "condition", "name", hero, "condition",
            "A Very Long Condition Name Here", "rounds", "3", "custom",
            "true", NULL);
        run(f, GM, "combat", "set", "name", hero, "note",
            "Holding the door against the whole northern legion while the "
            "others flee through the long tunnel under the mountain pass "
            "with the wounded and the wagons and everything they own, "
            "singing", NULL);
        run(f, GM, "combat", "hp", "name", npc, "change", "-1000", NULL);
        run(f, GM, "combat", "next", NULL);
        run(f, GM, "combat", "status", NULL);
        run(f, GM, "combat", "remove", "name", hero, NULL);
        run(f, GM, "combat", "end", "confirm", "true", NULL);
    }
    print_message("%d commands run, %d refused, %d cut\n", f->runs,
                  f->refused, f->cut);
    assert_true(f->runs > 100);
    assert_int_equal(f->cut, 0);
    cmd_reply_cleanup(&f->reply);
    store_close(f->store);
    free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_command_with_long_names),
    };
    return cmocka_run_group_tests_name("long_replies", tests, NULL, NULL);
}
