/* test_hidden.c - the hidden-information matrix, tests/data/hidden.tsv.
 *
 * In every system's fight the GM hides an NPC. Each row is run on a fresh
 * copy of its system's fight by the GM and by a player, through
 * cmd_exec() as Discord sends commands, after the row's "before" lines.
 * What the players may read (every reply to a player, a GM's public reply,
 * the ids behind its buttons, the live tracker, the turn notice) must hold
 * none of the system's secret words: the hidden one's name, its numbers,
 * its side, its conditions; the setup's and the before lines' replies
 * too. The players' tracker marks one turn at a time. When the GM runs a
 * command about it that succeeds, or its turn starts, the GM reads its
 * name: privately, or in the copy for the GM channel. Some rows also say
 * what the players must still read (their own roll, the unseen row of the
 * tracker). Then every option of every command of the system is completed
 * as the player (no secret word among the choices) and as the GM (the
 * hidden one among the combatants). */
#include "support.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd_script.h"
#include "cmd_table.h"
#include "rs.h"

#define HIDDEN_FILE "hidden.tsv"
#define HIDDEN_SEED 42
#define HIDDEN_MAX_ROWS 256
#define HIDDEN_MAX_SECRETS 64
#define HIDDEN_TEXT 32768
#define HIDDEN_MAX_BEFORE 4      /* "before" lines one row may have */
#define HIDDEN_TURN_MARK "\xE2\x96\xB6"          /* the tracker's turn marker */
#define HIDDEN_UNSEEN_TURN "someone unseen's turn" /* its turn starts */

enum { U_GM = SCRIPT_GM, U_P1 = SCRIPT_P1 };

struct row {
    char system[32];
    char *line;           /* NULL for a run of turns */
    int turns;
    bool gm, player;
    const char *shows;    /* "shows": what the last public tracker holds */
    const char *want;     /* what the player's reply must hold, or NULL */
    char *before[HIDDEN_MAX_BEFORE];       /* set-up lines of this row */
    uint64_t before_user[HIDDEN_MAX_BEFORE];
    int nbefore;
    int lineno;
};

struct secret {
    char system[32];
    char *word;
};

static struct {
    char *text;
    struct script_setups setups;
    struct row rows[HIDDEN_MAX_ROWS];
    int nrows;
    struct secret secrets[HIDDEN_MAX_SECRETS];
    int nsecrets;
    int replies;          /* replies checked, the setups' too */
    int setup_replies;
    int completions;
} mx;

static void load(void)
{
    char *save = NULL;
    int lineno = 0;
    struct row pending = {0};   /* "before" lines waiting for their row */
    if (mx.text != NULL)
        return;
    mx.text = support_read_data(HIDDEN_FILE, NULL);
    assert_non_null(mx.text);
    for (char *l = strtok_r(mx.text, "\n", &save); l != NULL;
         l = strtok_r(NULL, "\n", &save)) {
        char *f[5];
        lineno++;
        if (l[0] == '#' || l[0] == '\0')
            continue;
        int n = script_split_tabs(l, f, 5);
        if (strcmp(f[0], "setup") == 0 && n == 4) {
            script_setup_add(&mx.setups, f);
        } else if (strcmp(f[0], "secret") == 0 && n == 3) {
            assert_true(mx.nsecrets < HIDDEN_MAX_SECRETS);
            struct secret *s = &mx.secrets[mx.nsecrets++];
            snprintf(s->system, sizeof s->system, "%s", f[1]);
            s->word = f[2];
        } else if (strcmp(f[0], "before") == 0 && n == 4) {
            if (pending.nbefore == HIDDEN_MAX_BEFORE)
                fail_msg(HIDDEN_FILE ":%d: more than %d before lines", lineno,
                         HIDDEN_MAX_BEFORE);
            snprintf(pending.system, sizeof pending.system, "%s", f[1]);
            pending.before[pending.nbefore] = f[3];
            pending.before_user[pending.nbefore++] = script_actor(f[2]);
        } else if ((strcmp(f[0], "run") == 0 && (n == 4 || n == 5)) ||
                   (strcmp(f[0], "turns") == 0 && n == 3) ||
                   (strcmp(f[0], "shows") == 0 && n == 4)) {
            assert_true(mx.nrows < HIDDEN_MAX_ROWS);
            struct row *r = &mx.rows[mx.nrows++];
            if (pending.nbefore > 0 && strcmp(pending.system, f[1]) != 0)
                fail_msg(HIDDEN_FILE ":%d: its before lines are for %s",
                         lineno, pending.system);
            *r = pending;
            memset(&pending, 0, sizeof pending);
            snprintf(r->system, sizeof r->system, "%s", f[1]);
            r->lineno = lineno;
            if (f[0][0] == 't' || f[0][0] == 's') {
                r->turns = atoi(f[2]);
                r->gm = true;
                r->shows = f[0][0] == 's' ? f[3] : NULL;
            } else {
                r->line = f[3];
                r->want = n == 5 ? f[4] : NULL;
                r->gm = strcmp(f[2], "gm") == 0 || strcmp(f[2], "both") == 0;
                r->player = strcmp(f[2], "p1") == 0 ||
                            strcmp(f[2], "both") == 0;
            }
            if (script_setup_find(&mx.setups, r->system) == NULL)
                fail_msg(HIDDEN_FILE ":%d: no setup %s before it", lineno,
                         r->system);
        } else {
            fail_msg(HIDDEN_FILE ":%d: not a setup, secret, before, run, "
                     "turns or shows line", lineno);
        }
    }
    if (pending.nbefore > 0)
        fail_msg(HIDDEN_FILE ": before lines with no row after them");
}

/* Whether word is in text. A number counts only as a whole number, so
 * that a secret 37 is not found in a roll of 137 (the setups give the
 * hidden one numbers no other line of its fight should print). */
static bool has_word(const char *text, const char *word)
{
    size_t n = strlen(word);
    bool number = n > 0 && isdigit((unsigned char)word[0]) &&
                  isdigit((unsigned char)word[n - 1]);
    for (const char *p = strstr(text, word); p != NULL;
         p = strstr(p + 1, word)) {
        if (!number)
            return true;
        if ((p == text || !isdigit((unsigned char)p[-1])) &&
            !isdigit((unsigned char)p[n]))
            return true;
    }
    return false;
}

/* The first secret word of system in text, or NULL. */
static const char *leak(const char *system, const char *text)
{
    for (int i = 0; i < mx.nsecrets; i++)
        if (strcmp(mx.secrets[i].system, system) == 0 &&
            has_word(text, mx.secrets[i].word))
            return mx.secrets[i].word;
    return NULL;
}

/* m as the players' Discord clients receive it: its text, and what its
 * buttons and menu send back, which a client holds though it shows only
 * the labels. */
static void public_text(const struct msg *m, char *text, size_t cap)
{
    script_text(m, text, cap);
    size_t n = strlen(text);
    for (int i = 0; i < m->nbuttons && n < cap; i++) {
        const char *id = m->buttons[i].custom_id;
        n += (size_t)snprintf(text + n, cap - n, "\n%s", id ? id : "");
    }
    for (int i = 0; i < m->select.noptions && n < cap; i++)
        n += (size_t)snprintf(text + n, cap - n, "\n%s",
                              m->select.options[i].value);
}

static void check_public(const char *system, const char *what,
                         const struct msg *m, int lineno)
{
    static char text[HIDDEN_TEXT];
    if (m == NULL)
        return;
    public_text(m, text, sizeof text);
    const char *w = leak(system, text);
    if (w != NULL)
        fail_msg(HIDDEN_FILE ":%d: %s shows \"%s\" to the players:\n%s",
                 lineno, what, w, text);
}

/* The public tracker marks one turn: a hidden combatant's rows (one per
 * initiative card) must not all carry the marker. */
static void check_tracker(const char *what, const struct msg *m, int lineno)
{
    static char text[HIDDEN_TEXT];
    int marks = 0;
    if (m == NULL)
        return;
    script_text(m, text, sizeof text);
    for (const char *p = strstr(text, HIDDEN_TURN_MARK); p != NULL;
         p = strstr(p + 1, HIDDEN_TURN_MARK))
        marks++;
    if (marks > 1)
        fail_msg(HIDDEN_FILE ":%d: %s: the players' tracker marks %d turns:"
                 "\n%s", lineno, what, marks, text);
}

/* What the players may read of reply r to a command sent by user. */
static void check_reply(const char *system, const char *line, uint64_t user,
                        const struct cmd_reply *r, int lineno)
{
    char what[512];
    snprintf(what, sizeof what, "\"%s\" as %s", line,
             user == U_GM ? "the GM" : "a player");
    if (user != U_GM || !r->ephemeral)
        check_public(system, what, &r->msg, lineno);
    if (r->file.data != NULL && (user != U_GM || !r->ephemeral)) {
        /* an attachment (/combat log) is read by everyone it reaches */
        const char *w = leak(system, r->file.data);
        if (w != NULL)
            fail_msg(HIDDEN_FILE ":%d: %s's file shows \"%s\" to the "
                     "players:\n%s", lineno, what, w, r->file.data);
    }
    check_public(system, what, r->tracker, lineno);
    check_tracker(what, r->tracker, lineno);
    /* a proposal's message for the GM goes to the fight's channel when
     * the server has no GM channel: public, buttons and all */
    check_public(system, what, r->notice, lineno);
    mx.replies++;
}

/* The GM ran a command about the hidden one and it went through: the GM
 * reads its name somewhere. */
static void check_gm_sees(const char *line, const struct cmd_reply *r,
                          int lineno)
{
    static char text[HIDDEN_TEXT];
    if (r->is_error || strstr(line, "Umbra") == NULL)
        return;
    if (r->gm_copy != NULL) {
        script_text(r->gm_copy, text, sizeof text);
        if (strstr(text, "Umbra") != NULL)
            return;
    }
    script_text(&r->msg, text, sizeof text);
    if (r->ephemeral && strstr(text, "Umbra") != NULL)
        return;
    fail_msg(HIDDEN_FILE ":%d: \"%s\" as the GM: the GM never reads Umbra "
             "(ephemeral %d, GM copy %s):\n%s", lineno, line, r->ephemeral,
             r->gm_copy ? "yes" : "none", text);
}

/* The players were told that someone unseen's turn starts: the GM is told
 * whose, in the GM channel's copy or privately. */
static void check_gm_turn(const char *line, const struct cmd_reply *r,
                          int lineno)
{
    static char text[HIDDEN_TEXT], copy[HIDDEN_TEXT];
    /* A turn starts with a change; a reply that changed nothing (a
     * recap) may quote an old turn's start, which the GM was told of. */
    if (!r->changed)
        return;
    script_text(&r->msg, text, sizeof text);
    if (strstr(text, HIDDEN_UNSEEN_TURN) == NULL)
        return;
    copy[0] = '\0';
    if (r->gm_copy != NULL)
        script_text(r->gm_copy, copy, sizeof copy);
    if (strstr(copy, "Umbra") != NULL)
        return;
    fail_msg(HIDDEN_FILE ":%d: \"%s\": Umbra's turn starts and the GM is "
             "not told (GM copy %s):\n%s", lineno, line,
             r->gm_copy ? "yes" : "none", text);
}

/* A setup or before line's reply (script_reply_fn): what the players may
 * read of it, and the GM reading Umbra when it is about it. */
static void check_step(void *arg, const char *line, uint64_t user,
                       const struct cmd_reply *r)
{
    const struct row *row = arg;
    check_reply(row->system, line, user, r, row->lineno);
    if (user == U_GM)
        check_gm_sees(line, r, row->lineno);
    check_gm_turn(line, r, row->lineno);
}

/* The players' tracker after a "shows" row's last turn. */
static char last_tracker[HIDDEN_TEXT];

/* Each of the "|"-separated parts of want is in text. */
static void check_holds(const char *what, const char *want, const char *text,
                        int lineno)
{
    char w[HIDDEN_TEXT];
    char *save = NULL;
    snprintf(w, sizeof w, "%s", want);
    for (char *p = strtok_r(w, "|", &save); p != NULL;
         p = strtok_r(NULL, "|", &save))
        if (strstr(text, p) == NULL)
            fail_msg(HIDDEN_FILE ":%d: %s lacks \"%s\":\n%s", lineno, what,
                     p, text);
}

static void run_line(struct script_cell *c, const struct row *row,
                     const char *line, uint64_t user)
{
    struct cmd_parsed p;
    struct cmd_reply r;
    script_req(&p, line, user);
    cmd_reply_init(&r);
    assert_true(cmd_exec(&c->ctx, &p.req, &r));
    check_reply(row->system, line, user, &r, row->lineno);
    if (user == U_GM)
        check_gm_sees(line, &r, row->lineno);
    check_gm_turn(line, &r, row->lineno);
    if (row->shows != NULL && r.tracker != NULL)
        script_text(r.tracker, last_tracker, sizeof last_tracker);
    if (row->want != NULL && user != U_GM) {
        static char text[HIDDEN_TEXT];
        script_text(&r.msg, text, sizeof text);
        check_holds("the player's reply", row->want, text, row->lineno);
    }
    cmd_reply_cleanup(&r);
}

static void run_row(const struct row *row)
{
    const struct script_setup *s = script_setup_find(&mx.setups,
                                                     row->system);
    for (int who = 0; who < 2; who++) {
        uint64_t user = who == 0 ? U_GM : U_P1;
        if ((who == 0 && !row->gm) || (who == 1 && !row->player))
            continue;
        struct script_cell c;
        script_cell_prepare(&c, s, HIDDEN_SEED);
        for (int i = 0; i < row->nbefore; i++)
            script_cell_step(&c, row->before[i], row->before_user[i],
                             check_step, (void *)row);
        last_tracker[0] = '\0';
        if (row->line != NULL)
            run_line(&c, row, row->line, user);
        for (int t = 0; t < row->turns; t++)
            run_line(&c, row, "/combat next", U_GM);
        script_cell_close(&c);
    }
    /* What the players are shown, positively. */
    if (row->shows != NULL)
        check_holds("the players' tracker", row->shows, last_tracker,
                    row->lineno);
}

/* Each system's setup once, every reply checked as a row's would be. */
static void check_setup(const char *system)
{
    const struct script_setup *s = script_setup_find(&mx.setups, system);
    struct row row = {.lineno = 0};
    struct script_cell c;
    snprintf(row.system, sizeof row.system, "%s", system);
    mx.setup_replies += s->n;
    script_cell_prepare_checked(&c, s, HIDDEN_SEED, check_step, &row);
    script_cell_close(&c);
}

/* Complete option opt of command/sub with typed as user: no secret word
 * among a player's choices; the hidden one among the GM's when the option
 * names a combatant and typed leads to it. */
static void complete_one(struct script_cell *c, const char *system,
                         const char *command, const char *sub,
                         const struct rs_opt_spec *opt, const char *typed,
                         uint64_t user)
{
    static char text[HIDDEN_TEXT];
    struct cmd_req req = {
        .source = CMD_SRC_DISCORD, .command = command, .sub = sub,
        .channel_id = SCRIPT_CHANNEL, .guild_id = SCRIPT_GUILD,
        .user_id = user, .perms_known = true, .expect_version = -1,
        .now_ms = SCRIPT_NOW_MS,
        .opts = {{opt->name, typed}}, .nopts = 1,
    };
    struct msg m;
    msg_init(&m);
    assert_true(cmd_complete(&c->ctx, &req, opt->name, &m));
    size_t n = 0;
    text[0] = '\0';
    for (int i = 0; i < m.select.noptions && n + 1 < sizeof text; i++) {
        int w = snprintf(text + n, sizeof text - n, "%s=%s\n",
                         m.select.options[i].label,
                         m.select.options[i].value);
        if (w < 0 || (size_t)w >= sizeof text - n)
            break;
        n += (size_t)w;
    }
    mx.completions++;
    if (user != U_GM) {
        const char *w = leak(system, text);
        if (w != NULL)
            fail_msg("%s: /%s%s%s %s:%s completes \"%s\" for a player:\n%s",
                     system, command, sub ? " " : "", sub ? sub : "",
                     opt->name, typed, w, text);
    } else if (opt->val == RS_VAL_COMBATANT && typed[0] == 'U' &&
               strstr(text, "Umbra") == NULL) {
        fail_msg("%s: /%s%s%s %s:%s does not offer the GM Umbra:\n%s",
                 system, command, sub ? " " : "", sub ? sub : "", opt->name,
                 typed, text);
    }
    msg_cleanup(&m);
}

/* Every option of every command the system's fight has. */
static void complete_all(const char *system)
{
    const struct rs_system *rs = rs_find(system);
    struct script_cell c;
    struct cmd_spec *all = calloc(CMD_MAX_ALL, sizeof *all);
    assert_non_null(rs);
    assert_non_null(all);
    script_cell_prepare(&c, script_setup_find(&mx.setups, system),
                        HIDDEN_SEED);
    size_t n = cmd_list(all, CMD_MAX_ALL);
    for (size_t i = 0; i < n; i++) {
        if (all[i].rs != NULL && all[i].rs != rs)
            continue;
        struct cmd_spec spec;
        if (!cmd_lookup(all[i].command, all[i].sub, rs, &spec))
            continue;
        struct rs_opt_spec opts[CMD_MAX_SPEC_OPTS * 2];
        bool conflict;
        size_t no = spec.rs == NULL
                        ? cmd_core_opts(&spec, opts, CMD_MAX_SPEC_OPTS * 2,
                                        &conflict)
                        : 0;
        for (int k = 0; spec.rs != NULL && spec.opts != NULL &&
                        spec.opts[k].name != NULL; k++)
            opts[no++] = spec.opts[k];
        for (size_t k = 0; k < no; k++) {
            static const char *const typed[] = {"", "U", "Umb", "sha", "Gl"};
            for (size_t t = 0; t < sizeof typed / sizeof typed[0]; t++) {
                complete_one(&c, system, spec.command, spec.sub, &opts[k],
                             typed[t], U_P1);
                complete_one(&c, system, spec.command, spec.sub, &opts[k],
                             typed[t], U_GM);
            }
        }
    }
    free(all);
    script_cell_close(&c);
}

static void test_hidden_matrix(void **state)
{
    (void)state;
    load();
    assert_true(mx.nrows > 0);
    for (int i = 0; i < mx.nrows; i++)
        run_row(&mx.rows[i]);
    size_t nsys;
    const struct rs_system *const *sys = rs_all(&nsys);
    for (size_t i = 0; i < nsys; i++) {
        if (script_setup_find(&mx.setups, sys[i]->id) == NULL)
            fail_msg("the %s system has no fight in " HIDDEN_FILE,
                     sys[i]->id);
        check_setup(sys[i]->id);
        complete_all(sys[i]->id);
    }
    print_message("hidden-information matrix: %d rows, %d replies checked, "
                  "%d of them setups, %d completions\n", mx.nrows, mx.replies,
                  mx.setup_replies, mx.completions);
}

static int matrix_free(void **state)
{
    (void)state;
    free(mx.text);
    memset(&mx, 0, sizeof mx);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hidden_matrix),
    };
    return cmocka_run_group_tests(tests, NULL, matrix_free);
}
