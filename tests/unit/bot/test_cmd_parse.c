/* test_cmd_parse.c - the console grammar and the shared validator: every
 * good line gives exactly its request, every bad line exactly its error. */
#include "support.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd_parse.h"
#include "cmd_table.h"
#include "cmd_validate.h"

#define MAX_EXPECT_OPTS 8

struct good_case {
    const char *line;
    const char *command;
    const char *sub;                /* NULL: none */
    int nopts;
    const char *opts[MAX_EXPECT_OPTS][2];
};

static const struct good_case good[] = {
    {"/combat add name:\"Goblin Archer\" count:3 stats:\"ac=13 hp=7\"",
     "combat", "add", 3,
     {{"name", "Goblin Archer"}, {"count", "3"}, {"stats", "ac=13 hp=7"}}},
    {"combat next", "combat", "next", 0, {{0}}},
    {"  /roll dice:1d20+5   label:Stealth  ", "roll", NULL, 2,
     {{"dice", "1d20+5"}, {"label", "Stealth"}}},
    {"/COMBAT Add NAME:Bob", "combat", "add", 1, {{"name", "Bob"}}},
    {"/combat\tnext", "combat", "next", 0, {{0}}},
    {"/combat set name:Aria note:\"\"", "combat", "set", 2,
     {{"name", "Aria"}, {"note", ""}}},
    {"/combat add name:\"say \\\"hi\\\" \\\\ ok\"", "combat", "add", 1,
     {{"name", "say \"hi\" \\ ok"}}},
    {"/combat add name:Gob\"lin", "combat", "add", 1,
     {{"name", "Gob\"lin"}}},
    {"/roll dice:\"2d6 + 3\" secret:true", "roll", NULL, 2,
     {{"dice", "2d6 + 3"}, {"secret", "true"}}},
    {"/help", "help", NULL, 0, {{0}}},
    {"/help topic:dice", "help", NULL, 1, {{"topic", "dice"}}},
    {"/combat condition name:Aria condition:Poisoned value:-3 rounds:2 "
     "remove:false",
     "combat", "condition", 5,
     {{"name", "Aria"}, {"condition", "Poisoned"}, {"value", "-3"},
      {"rounds", "2"}, {"remove", "false"}}},
    {"/combat join name:\"Zo\xC3\xAB \xC3\x86rendil\" hp:+12", "combat",
     "join", 2, {{"name", "Zo\xC3\xAB \xC3\x86rendil"}, {"hp", "+12"}}},
    {"/attack target:\"Goblin 1\" damage:1d8+3", "attack", NULL, 2,
     {{"target", "Goblin 1"}, {"damage", "1d8+3"}}},
    {"/combat add name:\"@everyone <@123> Robert'); DROP TABLE x;--\"",
     "combat", "add", 1,
     {{"name", "@everyone <@123> Robert'); DROP TABLE x;--"}}},
    {"/combat add name:x count:20", "combat", "add", 2,
     {{"name", "x"}, {"count", "20"}}},
};

static void test_cmd_parse_good_lines(void **state)
{
    struct cmd_parsed *p = malloc(sizeof *p);
    char err[CMD_VALIDATE_ERR_MAX];
    (void)state;

    assert_non_null(p);
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        const struct good_case *g = &good[i];
        err[0] = '\0';
        if (!cmd_parse_line(p, g->line, strlen(g->line), err, sizeof err))
            fail_msg("line %zu `%s`: %s", i, g->line, err);
        assert_string_equal(p->req.command, g->command);
        if (g->sub == NULL)
            assert_null(p->req.sub);
        else
            assert_string_equal(p->req.sub, g->sub);
        assert_int_equal(p->req.nopts, g->nopts);
        for (int k = 0; k < g->nopts; k++) {
            assert_string_equal(p->req.opts[k].name, g->opts[k][0]);
            assert_string_equal(p->req.opts[k].value, g->opts[k][1]);
        }
        assert_int_equal(p->req.source, CMD_SRC_CONSOLE);
        assert_int_equal(p->req.expect_version, -1);
        assert_int_equal(p->req.channel_id, 0);
        assert_null(p->req.interaction_id);
    }
    free(p);
}

/* The request does not point into the line: it survives the line. */
static void test_cmd_parse_copies_strings(void **state)
{
    struct cmd_parsed *p = malloc(sizeof *p);
    char line[] = "/combat add name:Goblin count:2";
    char err[CMD_VALIDATE_ERR_MAX];
    (void)state;

    assert_non_null(p);
    assert_true(cmd_parse_line(p, line, strlen(line), err, sizeof err));
    memset(line, 'x', sizeof line - 1);
    assert_string_equal(p->req.command, "combat");
    assert_string_equal(p->req.opts[0].value, "Goblin");
    assert_string_equal(p->req.opts[1].value, "2");
    free(p);
}

struct bad_case {
    const char *line;
    size_t len;                     /* 0: strlen(line) */
    const char *err;
};

static const struct bad_case bad[] = {
    {"", 0, "no command given (try /help)"},
    {"   ", 0, "no command given (try /help)"},
    {"/", 0, "no command given (try /help)"},
    {"/ combat next", 0, "no command given (try /help)"},
    {"/atack target:x", 0,
     "unknown command `/atack` (did you mean `/attack`?)"},
    {"/comb", 0, "unknown command `/comb` (did you mean `/combat`?)"},
    {"/xyzzy", 0,
     "unknown command `/xyzzy` (every command is in /help topic:combat)"},
    {"/xyzzy foo bar", 0,
     "unknown command `/xyzzy` (every command is in /help topic:combat)"},
    {"/combat", 0,
     "/combat needs a subcommand (start, add, join, remove, set, begin, "
     "next, pick, pass, hp, condition, resource, countdown, event, status, "
     "undo, history, recap, share, log, end, reopen, settings, proposal, "
     "clock)"},
    {"/combat ad name:x", 0,
     "unknown subcommand `ad` for /combat (did you mean `add`?)"},
    {"/combat nxt", 0,
     "unknown subcommand `nxt` for /combat (did you mean `next`?)"},
    {"/combat fight", 0,
     "unknown subcommand `fight` for /combat (subcommands: start, add, "
     "join, remove, set, begin, next, pick, pass, hp, condition, "
     "resource, countdown, event, status, undo, history, recap, share, log, "
     "end, reopen, settings, proposal, clock)"},
    {"/combat stat", 0,
     "unknown subcommand `stat` for /combat (did you mean `start`?)"},
    {"/combat zzzzz", 0,
     "unknown subcommand `zzzzz` for /combat (subcommands: start, add, "
     "join, remove, set, begin, next, pick, pass, hp, condition, "
     "resource, countdown, event, status, undo, history, recap, share, log, "
     "end, reopen, settings, proposal, clock)"},
    {"/combat name:x", 0,
     "/combat needs a subcommand (start, add, join, remove, set, begin, "
     "next, pick, pass, hp, condition, resource, countdown, event, status, "
     "undo, history, recap, share, log, end, reopen, settings, proposal, "
     "clock)"},
    {"/help combat", 0,
     "/help has no subcommand `combat` (options are written name:value, "
     "e.g. `topic:combat`)"},
    {"/combat add nme:x", 0,
     "unknown option `nme` for /combat add (did you mean `name`?)"},
    {"/combat add name:x colour:red", 0,
     "unknown option `colour` for /combat add (options: name, template, "
     "count, side, init, hp, stats, hidden, group, major)"},
    {"/combat next now:1", 0,
     "unknown option `now`: /combat next takes no options"},
    {"/combat add n`me:x", 0,
     "unknown option `n'me` for /combat add (did you mean `name`?)"},
    {"/combat add name:x name:y", 0, "option `name` is given twice"},
    {"/combat add name:x NAME:y", 0, "option `name` is given twice"},
    {"/combat hp change:-3", 0,
     "missing required option `name` for /combat hp (example: `/combat hp "
     "name:\"Goblin 1\" change:-7`)"},
    {"/combat add name:x count:0", 0,
     "option `count` must be from 1 to 20, got `0`"},
    {"/combat add name:x count:1000", 0,
     "option `count` must be from 1 to 20, got `1000`"},
    {"/combat add name:x count:abc", 0,
     "option `count` must be a whole number, got `abc`"},
    {"/combat add name:x count:3.5", 0,
     "option `count` must be a whole number, got `3.5`"},
    {"/combat add name:x count:99999999999999999999", 0,
     "option `count` must be a whole number, got `99999999999999999999`"},
    {"/combat add name:x count:", 0,
     "option `count` is empty (it wants a whole number)"},
    {"/roll dice:1d6 secret:yes", 0,
     "option `secret` must be true or false, got `yes`"},
    {"/roll dice:1d6 secret:TRUE", 0,
     "option `secret` must be true or false, got `TRUE`"},
    {"/combat add name:", 0, "option `name` is empty"},
    {"/combat add name:\"\"", 0, "option `name` is empty"},
    {"/combat add name:\"Goblin", 0, "unterminated quote in option `name`"},
    {"/combat add name:\"Goblin\\", 0, "unterminated quote in option `name`"},
    {"/combat add name:\"a\\qb\"", 0,
     "unknown escape `\\q` in option `name` (inside quotes write `\\\"`, "
     "`\\\\` or `\\n`)"},
    {"/combat add name:\"a\"b", 0,
     "expected a space after the closing quote of option `name`"},
    {"/combat add Goblin", 0,
     "expected an option written name:value, got `Goblin`"},
    {"/combat add name:x \"Goblin Archer\"", 0,
     "expected an option written name:value, got `\"Goblin`"},
    {"/combat add :x", 0, "an option has no name before its `:` (got `:x`)"},
    {"/combat add name:\"two\\nlines\"", 0,
     "option `name` contains a line break"},
    {"/combat add name:\"tab\there\"", 0,
     "option `name` contains a control character"},
    {"/combat add name:\x7f", 0,
     "option `name` contains a control character"},
    {"/combat add name:x\0y", 20, "line contains a NUL byte"},
    {"/combat add name:\xff", 0, "line is not valid UTF-8"},
    {"/combat add name:\xc0\xaf", 0, "line is not valid UTF-8"},
    {"/combat add name:\xed\xa0\x80", 0, "line is not valid UTF-8"},
    {"/combat add name:\xf4\x90\x80\x80", 0, "line is not valid UTF-8"},
    {"/combat add name:\xe2\x82", 0, "line is not valid UTF-8"},
    {"/combat add name:x a:1 b:1 c:1 d:1 e:1 f:1 g:1 h:1 i:1 j:1 k:1 l:1 "
     "m:1 n:1 o:1 p:1", 0, "too many options (limit is 16)"},
    {"/combat add abcdefghijabcdefghijabcdefghijabc:1", 0,
     "option name `abcdefghijabcdefghijabcdefghijabc` is too long (limit is "
     "32 bytes)"},
    {"/combat add name:x abcdefghijabcdefghijabcdefghijab:1", 0,
     "unknown option `abcdefghijabcdefghijabcdefghijab` for /combat add "
     "(options: name, template, count, side, init, hp, stats, hidden, group, "
     "major)"},
    {"/combat add name:x abcdefghijabcdefghijabcdefghijab\x60yz:1", 0,
     "option name `abcdefghijabcdefghijabcdefghijab'yz` is too long (limit "
     "is 32 bytes)"},
};

static void test_cmd_parse_bad_lines(void **state)
{
    struct cmd_parsed *p = malloc(sizeof *p);
    char err[CMD_VALIDATE_ERR_MAX];
    (void)state;

    assert_non_null(p);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const struct bad_case *b = &bad[i];
        size_t len = b->len ? b->len : strlen(b->line);
        snprintf(err, sizeof err, "(unset)");
        if (cmd_parse_line(p, b->line, len, err, sizeof err))
            fail_msg("line %zu `%s` was accepted", i, b->line);
        if (strcmp(err, b->err) != 0)
            fail_msg("line %zu `%s`:\n  got  %s\n  want %s", i, b->line,
                     err, b->err);
    }
    free(p);
}

/* Lines made at run time: lengths at and past each limit. */
static void test_cmd_parse_limits(void **state)
{
    struct cmd_parsed *p = malloc(sizeof *p);
    char *line = malloc(CMD_MAX_LINE + 64);
    char err[CMD_VALIDATE_ERR_MAX];
    const char *pre = "/combat set name:x note:";
    size_t n;
    (void)state;

    assert_non_null(p);
    assert_non_null(line);

    /* exactly CMD_MAX_LINE bytes parses (and fails later, on length) */
    n = (size_t)snprintf(line, CMD_MAX_LINE + 64, "/roll label:");
    memset(line + n, 'a', CMD_MAX_LINE - n);
    assert_false(cmd_parse_line(p, line, CMD_MAX_LINE, err, sizeof err));
    assert_string_equal(err, "option `label` is too long (limit is 1024 "
                        "bytes)");
    /* one more byte: refused before anything else */
    line[CMD_MAX_LINE] = 'a';
    assert_false(cmd_parse_line(p, line, CMD_MAX_LINE + 1, err, sizeof err));
    assert_string_equal(err, "line too long (limit is 4096 bytes)");

    /* a bare value of CMD_MAX_OPT_VALUE bytes is read; the table caps a
     * note at 200 bytes */
    n = strlen(pre);
    memcpy(line, pre, n);
    memset(line + n, 'b', CMD_MAX_OPT_VALUE);
    assert_false(cmd_parse_line(p, line, n + CMD_MAX_OPT_VALUE, err,
                                sizeof err));
    assert_string_equal(err, "option `note` is too long (limit is 200 "
                        "bytes)");
    assert_false(cmd_parse_line(p, line, n + CMD_MAX_OPT_VALUE + 1, err,
                                sizeof err));
    assert_string_equal(err, "option `note` is too long (limit is 1024 "
                        "bytes)");
    /* the same, quoted */
    line[n] = '"';
    memset(line + n + 1, 'b', CMD_MAX_OPT_VALUE + 1);
    line[n + CMD_MAX_OPT_VALUE + 2] = '"';
    assert_false(cmd_parse_line(p, line, n + CMD_MAX_OPT_VALUE + 3, err,
                                sizeof err));
    assert_string_equal(err, "option `note` is too long (limit is 1024 "
                        "bytes)");

    /* names: 64 bytes fit, 65 do not */
    n = (size_t)snprintf(line, CMD_MAX_LINE, "/combat add name:");
    memset(line + n, 'n', 65);
    assert_true(cmd_parse_line(p, line, n + 64, err, sizeof err));
    assert_int_equal(strlen(p->req.opts[0].value), 64);
    assert_false(cmd_parse_line(p, line, n + 65, err, sizeof err));
    assert_string_equal(err, "option `name` is too long (limit is 64 "
                        "bytes)");

    /* CMD_MAX_OPTS options are read; the 17th is refused */
    n = (size_t)snprintf(line, CMD_MAX_LINE, "/combat add");
    for (int i = 0; i < CMD_MAX_OPTS; i++)
        n += (size_t)snprintf(line + n, CMD_MAX_LINE - n, " name:%d", i);
    assert_false(cmd_parse_line(p, line, n, err, sizeof err));
    assert_string_equal(err, "option `name` is given twice");
    n += (size_t)snprintf(line + n, CMD_MAX_LINE - n, " name:x");
    assert_false(cmd_parse_line(p, line, n, err, sizeof err));
    assert_string_equal(err, "too many options (limit is 16)");

    /* an empty value for each of CMD_MAX_OPTS options: the worst case for
     * the parse buffer */
    n = (size_t)snprintf(line, CMD_MAX_LINE, "/combat condition");
    for (int i = 0; i < CMD_MAX_OPTS; i++)
        n += (size_t)snprintf(line + n, CMD_MAX_LINE - n, " %c:", 'a' + i);
    assert_false(cmd_parse_line(p, line, n, err, sizeof err));
    assert_string_equal(err, "unknown option `a` for /combat condition "
                        "(options: name, condition, value, rounds, remove, "
                        "until, ends, cap, custom)");
    free(line);
    free(p);
}

/* A user's long input is cut in the message, never pasted whole. */
static void test_cmd_parse_error_echo_is_cut(void **state)
{
    struct cmd_parsed *p = malloc(sizeof *p);
    char err[CMD_VALIDATE_ERR_MAX];
    const char *line = "/combat add name:x count:"
                       "1234567890123456789012345678901234567890123456789";
    (void)state;

    assert_non_null(p);
    assert_false(cmd_parse_line(p, line, strlen(line), err, sizeof err));
    assert_string_equal(err, "option `count` must be a whole number, got "
                        "`1234567890123456789012345678901234567890...`");
    free(p);
}

/* What the Discord side hands over after decoding an interaction. */
static void test_cmd_validate_requests(void **state)
{
    struct cmd_req req;
    char err[CMD_VALIDATE_ERR_MAX];
    (void)state;

    memset(&req, 0, sizeof req);
    req.command = "combat";
    req.sub = "add";
    req.opts[0] = (struct cmd_opt){"name", "Goblin"};
    req.opts[1] = (struct cmd_opt){"count", "3"};
    req.nopts = 2;
    struct cmd_spec spec;
    assert_true(cmd_validate(&req, &spec, err, sizeof err));
    assert_string_equal(spec.sub, "add");

    req.opts[0].value = "Gob\x01lin";
    assert_false(cmd_validate(&req, &spec, err, sizeof err));
    assert_string_equal(err, "option `name` contains a control character");
    req.opts[0].value = "Gob\xc3";
    assert_false(cmd_validate(&req, &spec, err, sizeof err));
    assert_string_equal(err, "option `name` is not valid UTF-8");
    req.opts[0].value = NULL;
    assert_false(cmd_validate(&req, &spec, err, sizeof err));
    assert_string_equal(err, "option `name` is empty");
    req.opts[0].value = "Goblin";

    req.opts[1].name = "";
    assert_false(cmd_validate(&req, &spec, err, sizeof err));
    assert_string_equal(err, "an option has no name");
    req.opts[1].name = "count";

    req.sub = NULL;
    assert_false(cmd_validate(&req, &spec, err, sizeof err));
    assert_string_equal(err, "/combat needs a subcommand (start, add, join, "
                        "remove, set, begin, next, pick, pass, hp, "
                        "condition, resource, countdown, event, status, "
                        "undo, history, recap, share, log, end, reopen, "
                        "settings, proposal, clock)");
    req.command = NULL;
    assert_false(cmd_validate(&req, &spec, err, sizeof err));
    assert_string_equal(err, "no command given (try /help)");

    /* err may be absent */
    assert_false(cmd_validate(&req, &spec, NULL, 0));

    /* a tiny buffer is cut, never overrun */
    req.command = "combat";
    req.sub = "fight";
    char small[8];
    assert_false(cmd_validate(&req, &spec, small, sizeof small));
    assert_string_equal(small, "unknown");
}

static void test_cmd_validate_closest(void **state)
{
    const char *const names[] = {"Goblin 1", "Goblin 2", NULL, "Aria",
                                 "Bram the Bold"};
    (void)state;

    assert_string_equal(cmd_validate_closest("goblin 2", names, 5),
                        "Goblin 2");
    assert_string_equal(cmd_validate_closest("Gobln 1", names, 5),
                        "Goblin 1");
    assert_string_equal(cmd_validate_closest("arja", names, 5), "Aria");
    assert_string_equal(cmd_validate_closest("Bram", names, 5),
                        "Bram the Bold");
    assert_null(cmd_validate_closest("Zed", names, 5));
    assert_null(cmd_validate_closest("", names, 5));
    assert_null(cmd_validate_closest("x", names, 0));
}

static void test_cmd_validate_utf8_and_echo(void **state)
{
    char buf[CMD_VALIDATE_MAX_ECHO + 8];
    (void)state;

    assert_true(cmd_validate_utf8("", 0));
    assert_true(cmd_validate_utf8("\xf0\x9f\x8e\xb2 d20", 8));
    assert_false(cmd_validate_utf8("\xe0\x80\x80", 3));     /* overlong */
    assert_false(cmd_validate_utf8("\x80", 1));
    assert_string_equal(cmd_validate_echo(buf, sizeof buf, "a`b\nc\xff", 6),
                        "a'b?c?");
    /* a multibyte character is never split by the cut */
    char in[64];
    memset(in, 'a', 39);
    memcpy(in + 39, "\xc3\xa9zz", 4);
    assert_string_equal(cmd_validate_echo(buf, sizeof buf, in, 43),
                        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...");
    assert_string_equal(cmd_validate_echo(buf, 4, "abcdef", 6), "abc");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cmd_parse_good_lines),
        cmocka_unit_test(test_cmd_parse_copies_strings),
        cmocka_unit_test(test_cmd_parse_bad_lines),
        cmocka_unit_test(test_cmd_parse_limits),
        cmocka_unit_test(test_cmd_parse_error_echo_is_cut),
        cmocka_unit_test(test_cmd_validate_requests),
        cmocka_unit_test(test_cmd_validate_closest),
        cmocka_unit_test(test_cmd_validate_utf8_and_echo),
    };
    return cmocka_run_group_tests_name("cmd_parse", tests, NULL, NULL);
}
