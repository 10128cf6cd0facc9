/* test_permissions.c - the permission matrix, tests/data/permissions.tsv.
 *
 * Every row is one command line, run on a freshly prepared fight (the
 * row's setup block, as the file describes) by each of the matrix's
 * columns through cmd_exec(). An allowed cell must succeed and save a new
 * version (or archive the fight, for /combat end, or bring it back, for
 * /combat reopen); a denied cell must be an ephemeral error that changes
 * nothing: the stored version and document are byte-identical before and after.
 * A server-wide setting (/config), and a command on saved sheets
 * (/character, /npc), is allowed when it succeeds and changes the server's
 * stored settings and sheets; denied, they stay the same too. Saved
 * rolls (/macro, /roll of one) touch no fight: allowed when accepted, and
 * for /macro save and delete when the stored saved rolls changed; denied,
 * they stay the same. An export or import (/character, /npc, /macro) is
 * allowed when it is answered and the fight stays as it was; an import
 * must also change what it imports into (the sender's characters or saved
 * rolls, the server's templates; its file is given as the daemon gives a
 * downloaded attachment). A command that only reads (/combat recap,
 * /combat log) is allowed when it is answered and the fight stays as it
 * was. A "propose" cell (a player's change to another's combatant) must
 * be a private answer that is no error, leaves the fight as it was and
 * stores one proposal more; a denied cell stores none.
 * Every command the table marks CMD_F_GM_ONLY or CMD_F_SERVER must have a
 * row, so a new such command fails this test until it is added.
 *
 * The missing and malformed columns get their permissions the way the
 * daemon does, through interaction_decode() of a member whose permissions
 * are absent, or "abc", negative, a number, empty or too big: each must
 * decode as unknown (perms_known false) and so never make anyone a GM. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd_parse.h"
#include "cmd_script.h"
#include "cmd_table.h"
#include "cmd_validate.h"
#include "eng_rng.h"
#include "interaction.h"
#include "proposal.h"
#include "render_text.h"
#include "sbuf.h"
#include "store.h"
#include "store_fixture.h"

#define MATRIX_FILE "permissions.tsv"
#define MATRIX_MAX_ROWS 128
#define MATRIX_SEED 42

enum { U_GM = SCRIPT_GM, U_P1 = SCRIPT_P1, U_P2 = SCRIPT_P2,
       U_ADMIN = SCRIPT_ADMIN,
       U_MOD = 1005, U_MANAGER = 1006 };

enum column {
    COL_ADMIN, COL_MANAGE, COL_SERVER, COL_GM, COL_OWN, COL_OTHER, COL_DM, COL_MISSING,
    COL_MALFORMED, COL__COUNT
};

static const char *const col_names[COL__COUNT] = {
    "administrator", "manage_channels", "manage_server", "gm", "player_own", "player_other",
    "dm", "missing_perms", "malformed_perms",
};

/* The member's permissions as Discord might send them, broken: each must
 * decode as unknown. NULL means the key is absent. */
static const char *const malformed_perms[] = {
    "\"abc\"", "\"-8\"", "8", "\"\"", "\"99999999999999999999999\"",
    "null", "[\"8\"]", "\"8 \"", "\"0x8\"",
};

struct row {
    char setup[32];
    char *line;
    int lineno;
    bool allow[COL__COUNT];
    bool propose[COL__COUNT];   /* "propose": goes to the GM instead */
};

struct matrix {
    char *text;                     /* the file, cut into lines in place */
    struct script_setups setups;
    struct row rows[MATRIX_MAX_ROWS];
    int nrows;
};

static struct matrix mx;

static void load_matrix(void)
{
    char *save = NULL;
    int lineno = 0;

    if (mx.text)
        return;
    mx.text = support_read_data(MATRIX_FILE, NULL);
    assert_non_null(mx.text);
    for (char *l = strtok_r(mx.text, "\n", &save); l;
         l = strtok_r(NULL, "\n", &save)) {
        char *f[3 + COL__COUNT];
        int n;
        lineno++;
        if (l[0] == '#' || l[0] == '\0')
            continue;
        n = script_split_tabs(l, f, 3 + COL__COUNT);
        if (strcmp(f[0], "setup") == 0 && n == 4) {
            script_setup_add(&mx.setups, f);
        } else if (strcmp(f[0], "row") == 0 && n == 3 + COL__COUNT) {
            struct row *r = &mx.rows[mx.nrows++];
            assert_true(mx.nrows <= MATRIX_MAX_ROWS);
            if (!script_setup_find(&mx.setups, f[1]))
                fail_msg(MATRIX_FILE ":%d: no setup %s before it", lineno,
                         f[1]);
            snprintf(r->setup, sizeof r->setup, "%s", f[1]);
            r->line = f[2];
            r->lineno = lineno;
            for (int c = 0; c < COL__COUNT; c++) {
                const char *v = f[3 + c];
                if (strcmp(v, "allow") != 0 && strcmp(v, "deny") != 0 &&
                    strcmp(v, "propose") != 0)
                    fail_msg(MATRIX_FILE ":%d: cell %s is \"%s\", not "
                             "allow, deny or propose", lineno, col_names[c],
                             v);
                r->allow[c] = strcmp(v, "allow") == 0;
                r->propose[c] = strcmp(v, "propose") == 0;
            }
        } else {
            fail_msg(MATRIX_FILE ":%d: not a setup or row line (%d fields)",
                     lineno, n);
        }
    }
}

/* Decode an interaction whose member has the given permissions (JSON
 * text, or NULL for none) and return what the decoder made of them. */
static void decode_perms(const char *perms_json, uint64_t *perms,
                         bool *known)
{
    char text[1024], why[256];
    struct interaction it;
    json_t *d;

    snprintf(text, sizeof text,
             "{\"id\":\"1200000000000000001\",\"application_id\":"
             "\"1100000000000000001\",\"type\":2,\"token\":\"tok\","
             "\"version\":1,\"guild_id\":\"88\",\"channel_id\":\"77\","
             "\"member\":{\"user\":{\"id\":\"1002\",\"username\":\"p1\"}"
             "%s%s},\"data\":{\"id\":\"1\",\"name\":\"roll\",\"type\":1,"
             "\"options\":[{\"name\":\"expr\",\"type\":3,\"value\":\"d6\"}]}}",
             perms_json ? ",\"permissions\":" : "",
             perms_json ? perms_json : "");
    d = json_loads(text, 0, NULL);
    assert_non_null(d);
    if (interaction_decode(d, SCRIPT_NOW_MS, &it, why, sizeof why) != BOT_OK)
        fail_msg("permissions %s: the interaction was refused: %s",
                 perms_json ? perms_json : "(absent)", why);
    json_decref(d);
    assert_int_equal(it.req.user_id, U_P1);
    *perms = it.req.perms;
    *known = it.req.perms_known;
    interaction_cleanup(&it);
}

static void test_malformed_perms_are_unknown(void **state)
{
    uint64_t perms;
    bool known;
    (void)state;

    decode_perms(NULL, &perms, &known);
    assert_false(known);
    for (size_t i = 0; i < sizeof malformed_perms / sizeof *malformed_perms;
         i++) {
        decode_perms(malformed_perms[i], &perms, &known);
        if (known)
            fail_msg("permissions %s decoded as known (%llu)",
                     malformed_perms[i], (unsigned long long)perms);
    }
    decode_perms("\"8\"", &perms, &known);        /* the control */
    assert_true(known);
    assert_int_equal(perms, CMD_PERM_ADMINISTRATOR);
}

/* Text appended to the settings' text (saved rolls, saved sheets). */
struct text_at {
    char *at;
    size_t left;
};

/* A saved roll as "guild/user/name=dice;". */
static enum bot_err macro_line(void *ctx, const struct store_macro *m)
{
    struct text_at *t = ctx;
    int w = snprintf(t->at, t->left, "%llu/%llu/%s=%s;",
                     (unsigned long long)m->guild,
                     (unsigned long long)m->user, m->name, m->dice);
    assert_true(w > 0 && (size_t)w < t->left);
    t->at += w;
    t->left -= (size_t)w;
    return BOT_OK;
}

/* A saved sheet's row, its document whole. */
static enum bot_err sheet_text(void *ctx, const struct store_sheet *sh)
{
    struct text_at *t = ctx;
    int w = snprintf(t->at, t->left, "%d/%llu/%s/%d/%s;", (int)sh->kind,
                     (unsigned long long)sh->owner, sh->name, sh->used,
                     sh->doc);
    assert_true(w > 0 && (size_t)w < t->left);
    t->at += w;
    t->left -= (size_t)w;
    return BOT_OK;
}

/* The stored state: version and document (NULL doc when none), and the
 * server's settings (/config), everyone's saved rolls and every saved
 * sheet (/character, /npc) as one text. */
static void snapshot(struct script_cell *c, char **doc, int64_t *version,
                     char *settings, size_t n)
{
    static const char *const keys[] = {"gm_channel", "systems", "npc_role",
                                       "sheet_writeback", "proposals",
                                       "proposal_expiry", "language"};
    size_t at = 0;
    *doc = NULL;
    *version = 0;
    enum bot_err e = store_enc_load(c->store, SCRIPT_CHANNEL, doc, version);
    assert_true(e == BOT_OK || e == BOT_NOTFOUND);
    settings[0] = '\0';
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        char key[64], *value = NULL;
        snprintf(key, sizeof key, "%s:%llu", keys[i],
                 (unsigned long long)SCRIPT_GUILD);
        e = store_kv_get(c->store, key, &value);
        assert_true(e == BOT_OK || e == BOT_NOTFOUND);
        int w = snprintf(settings + at, n - at, "%s=%s;", keys[i],
                         value ? value : "");
        assert_true(w > 0 && (size_t)w < n - at);
        at += (size_t)w;
        free(value);
    }
    struct text_at t = {settings + at, n - at};
    const struct store_export_cb cb = {store_fx_skip_enc, store_fx_skip_ix,
                                       store_fx_skip_kv, sheet_text};
    assert_int_equal(store_macro_export(c->store, macro_line, &t), BOT_OK);
    assert_int_equal(store_export(c->store, &cb, &t), BOT_OK);
}

/* How many proposals wait in the matrix's channel. */
static int proposals_waiting(struct script_cell *c)
{
    char prefix[64];
    snprintf(prefix, sizeof prefix, PROPOSAL_KV_PREFIX "%llu:",
             (unsigned long long)SCRIPT_CHANNEL);
    int n = store_fx_kv_count(c->store, prefix);
    assert_true(n >= 0);
    return n;
}

/* An export or import (of the sender's or the server's things, outside
 * any fight). */
/* /config's export of the server's conditions and its import (file:). */
static bool config_file(const struct cmd_req *req, const char *opt)
{
    return strcmp(req->command, "config") == 0 &&
           cmd_req_opt(req, opt) != NULL;
}

static bool import_cmd(const struct cmd_req *req)
{
    return (req->sub && strcmp(req->sub, "import") == 0) ||
           config_file(req, "file");
}

static bool file_cmd(const struct cmd_req *req)
{
    return (req->sub && strcmp(req->sub, "export") == 0) ||
           import_cmd(req) || config_file(req, "export-conditions");
}

/* Whether the command of line is a server-wide setting (CMD_F_SERVER),
 * or changes saved sheets rather than a fight (/character, /npc other
 * than show and list, which only read): both are allowed when the stored
 * settings and sheets change. */
static bool server_wide(const struct cmd_req *req)
{
    const char *command = req->command;
    if (strcmp(command, "character") == 0 || strcmp(command, "npc") == 0)
        return !(req->sub && (strcmp(req->sub, "show") == 0 ||
                              strcmp(req->sub, "list") == 0));
    size_t n;
    const struct cmd_spec *t = cmd_table(&n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(t[i].command, command) == 0)
            return (t[i].flags & CMD_F_SERVER) != 0;
    return false;
}

/* Saved rolls (/macro, and /roll of one) touch no fight: allowed means
 * accepted, and for save and delete that the saved rolls changed. */
static bool macro_cmd(const char *command)
{
    return strcmp(command, "macro") == 0 || strcmp(command, "roll") == 0;
}

/* A command that reads the fight and saves nothing (/combat recap, /combat
 * log): allowed means answered, not refused, with the state unchanged. */
static bool read_only(const struct cmd_req *req)
{
    struct cmd_spec spec;
    return cmd_lookup(req->command, req->sub, NULL, &spec) &&
           !(spec.flags & CMD_F_MUTATES);
}

/* Discord resolves a channel option: here every one names a text channel
 * of the server. */
static void resolve_channels(struct cmd_req *req)
{
    for (int i = 0; i < req->nopts; i++)
        if (strcmp(req->opts[i].name, "gm-channel") == 0 &&
            req->nchannels < CMD_MAX_CHANNELS)
            req->channels[req->nchannels++] = (struct cmd_channel){
                strtoull(req->opts[i].value, NULL, 10), SCRIPT_GUILD, 0};
}

/* Who a column is: user, permissions, guild. */
static void column_req(struct cmd_parsed *p, enum column col,
                       const char *malformed)
{
    switch (col) {
    case COL_ADMIN:
        p->req.user_id = U_ADMIN;
        p->req.perms = CMD_PERM_ADMINISTRATOR;
        break;
    case COL_MANAGE:
        p->req.user_id = U_MOD;
        p->req.perms = CMD_PERM_MANAGE_CHANNELS;
        break;
    case COL_SERVER:
        p->req.user_id = U_MANAGER;
        p->req.perms = CMD_PERM_MANAGE_GUILD;
        break;
    case COL_GM:
        p->req.user_id = U_GM;
        break;
    case COL_OWN:
        p->req.user_id = U_P1;
        break;
    case COL_OTHER:
        p->req.user_id = U_P2;
        break;
    case COL_DM:
        p->req.user_id = U_P1;
        p->req.guild_id = 0;
        p->req.perms_known = false;
        break;
    case COL_MISSING:
        p->req.user_id = U_P1;
        decode_perms(NULL, &p->req.perms, &p->req.perms_known);
        break;
    case COL_MALFORMED:
        p->req.user_id = U_P1;
        decode_perms(malformed, &p->req.perms, &p->req.perms_known);
        break;
    default:
        fail_msg("column %d", (int)col);
    }
}

/* The file every /macro import row brings, as the daemon hands over a
 * downloaded attachment. */
static const char rolls[] =
    "{\"fray\":\"export\",\"version\":1,\"kind\":\"macros\","
    "\"items\":[{\"name\":\"stealth\",\"dice\":\"1d20+7\"}]}";
#define SHEET_FILE(kind, name)                                               \
    "{\"fray\":\"export\",\"version\":1,\"kind\":\"" kind "\","        \
    "\"items\":[{\"name\":\"" name "\",\"sheet\":{\"v\":1,"              \
    "\"system\":\"generic\",\"stats\":{\"ac\":15}}}]}"
static const char chars[] = SHEET_FILE("characters", "Aria");
static const char npcs[] = SHEET_FILE("templates", "Bandit");
/* The file every /config file: row brings (the server's conditions). */
static const char conds[] =
    "{\"fray\":\"export\",\"version\":1,\"kind\":\"conditions\","
    "\"items\":[{\"name\":\"Dazzled\",\"description\":\"Sees stars\","
    "\"rounds\":1}]}";

static void run_cell(const struct row *row, enum column col,
                     const char *malformed)
{
    const struct script_setup *s = script_setup_find(&mx.setups, row->setup);
    struct script_cell c;
    struct cmd_parsed p;
    struct cmd_reply r;
    char *before, *after, text[4096], set0[8192], set1[8192];
    int64_t v0, v1;

    script_cell_prepare(&c, s, MATRIX_SEED);
    script_req(&p, row->line, U_P1);
    resolve_channels(&p.req);
    column_req(&p, col, malformed);
    if (import_cmd(&p.req)) {
        p.req.file = strcmp(p.req.command, "macro") == 0 ? rolls
                     : strcmp(p.req.command, "npc") == 0 ? npcs
                     : strcmp(p.req.command, "config") == 0 ? conds
                                                             : chars;
        p.req.file_len = strlen(p.req.file);
    }
    snapshot(&c, &before, &v0, set0, sizeof set0);
    int waiting0 = proposals_waiting(&c);
    cmd_reply_init(&r);
    assert_true(cmd_exec(&c.ctx, &p.req, &r));
    snapshot(&c, &after, &v1, set1, sizeof set1);
    int waiting1 = proposals_waiting(&c);
    script_text(&r.msg, text, sizeof text);
    bool settled = strcmp(set0, set1) == 0;
    if (row->propose[col]) {
        /* a private answer, the fight as it was, one proposal more */
        bool same = v0 == v1 && before && after &&
                    strcmp(before, after) == 0;
        if (r.is_error || !r.ephemeral || r.changed || !same || !settled ||
            waiting1 != waiting0 + 1)
            fail_msg(MATRIX_FILE ":%d %s as %s%s%s: proposed, but error %d "
                     "ephemeral %d changed %d, state %s, proposals %d -> "
                     "%d:\n%s", row->lineno, row->line, col_names[col],
                     malformed ? " " : "", malformed ? malformed : "",
                     r.is_error, r.ephemeral, r.changed,
                     same && settled ? "the same" : "CHANGED", waiting0,
                     waiting1, text);
    } else if (row->allow[col] && file_cmd(&p.req)) {
        bool same = v0 == v1 && ((!before && !after) ||
                                 (before && after &&
                                  strcmp(before, after) == 0));
        bool imported = !import_cmd(&p.req) || !settled;
        if (r.is_error || !same || !imported)
            fail_msg(MATRIX_FILE ":%d %s as %s%s%s: allowed, but %s:\n%s",
                     row->lineno, row->line, col_names[col],
                     malformed ? " " : "", malformed ? malformed : "",
                     r.is_error ? "refused"
                     : !same    ? "the fight changed"
                                : "nothing was imported",
                     text);
    } else if (row->allow[col] && macro_cmd(p.req.command)) {
        bool writes = p.req.sub != NULL && (strcmp(p.req.sub, "save") == 0 ||
                                            strcmp(p.req.sub, "delete") == 0);
        if (r.is_error || (writes && settled))
            fail_msg(MATRIX_FILE ":%d %s as %s%s%s: allowed, but %s:\n%s",
                     row->lineno, row->line, col_names[col],
                     malformed ? " " : "", malformed ? malformed : "",
                     r.is_error ? "refused" : "the saved rolls did not "
                     "change", text);
    } else if (row->allow[col] && server_wide(&p.req)) {
        if (r.is_error || settled)
            fail_msg(MATRIX_FILE ":%d %s as %s%s%s: allowed, but %s:\n%s",
                     row->lineno, row->line, col_names[col],
                     malformed ? " " : "", malformed ? malformed : "",
                     r.is_error ? "refused" : "the settings did not change",
                     text);
    } else if (row->allow[col] && read_only(&p.req)) {
        bool same = v0 == v1 && ((!before && !after) ||
                                 (before && after &&
                                  strcmp(before, after) == 0));
        if (r.is_error || r.changed || !same || !settled)
            fail_msg(MATRIX_FILE ":%d %s as %s%s%s: allowed, but %s:\n%s",
                     row->lineno, row->line, col_names[col],
                     malformed ? " " : "", malformed ? malformed : "",
                     r.is_error ? "refused" : "what is stored changed",
                     text);
    } else if (row->allow[col]) {
        /* a new version, or the fight archived (/combat end) or back
         * from the archive (/combat reopen) */
        bool saved = v1 == v0 + 1 || (before && !after) ||
                     (!before && after);
        if (r.is_error || !r.changed || !saved)
            fail_msg(MATRIX_FILE ":%d %s as %s%s%s: allowed, but %s "
                     "(version %lld -> %lld):\n%s", row->lineno, row->line,
                     col_names[col], malformed ? " " : "",
                     malformed ? malformed : "",
                     r.is_error ? "refused" : "nothing changed",
                     (long long)v0, (long long)v1, text);
    } else {
        bool same = v0 == v1 && ((!before && !after) ||
                                 (before && after &&
                                  strcmp(before, after) == 0));
        if (!r.is_error || !r.ephemeral || r.changed || !same || !settled ||
            waiting1 > waiting0)
            fail_msg(MATRIX_FILE ":%d %s as %s%s%s: denied, but error %d "
                     "ephemeral %d changed %d, state %s:\n%s", row->lineno,
                     row->line, col_names[col], malformed ? " " : "",
                     malformed ? malformed : "", r.is_error, r.ephemeral,
                     r.changed, same && settled ? "the same" : "CHANGED",
                     text);
    }
    free(before);
    free(after);
    cmd_reply_cleanup(&r);
    script_cell_close(&c);
}

static void test_matrix_cells(void **state)
{
    int cells = 0;
    (void)state;

    load_matrix();
    assert_true(mx.nrows > 0);
    for (int i = 0; i < mx.nrows; i++)
        for (int col = 0; col < COL__COUNT; col++) {
            if (col == COL_MALFORMED) {
                for (size_t k = 0; k < sizeof malformed_perms /
                                           sizeof *malformed_perms; k++)
                    run_cell(&mx.rows[i], (enum column)col,
                             malformed_perms[k]);
            } else {
                run_cell(&mx.rows[i], (enum column)col, NULL);
            }
            cells++;
        }
    print_message("permission matrix: %d rows, %d cells\n", mx.nrows, cells);
}

/* Every GM-only command of the table has a row (by command and sub). */
static void test_matrix_covers_gm_only(void **state)
{
    size_t n;
    const struct cmd_spec *t = cmd_table(&n);
    (void)state;

    load_matrix();
    for (size_t i = 0; i < n; i++) {
        bool found = false;
        if (!(t[i].flags & (CMD_F_GM_ONLY | CMD_F_SERVER)))
            continue;
        for (int k = 0; k < mx.nrows && !found; k++) {
            struct cmd_parsed p;
            script_req(&p, mx.rows[k].line, U_P1);
            found = strcmp(p.req.command, t[i].command) == 0 &&
                    ((!p.req.sub && !t[i].sub) ||
                     (p.req.sub && t[i].sub &&
                      strcmp(p.req.sub, t[i].sub) == 0));
        }
        if (!found)
            fail_msg("/%s%s%s is GM-only or server-wide but has no row in "
                     "tests/data/"
                     MATRIX_FILE, t[i].command, t[i].sub ? " " : "",
                     t[i].sub ? t[i].sub : "");
    }
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
        cmocka_unit_test(test_malformed_perms_are_unknown),
        cmocka_unit_test(test_matrix_covers_gm_only),
        cmocka_unit_test(test_matrix_cells),
    };
    return cmocka_run_group_tests(tests, NULL, matrix_free);
}
