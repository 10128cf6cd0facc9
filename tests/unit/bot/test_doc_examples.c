/*
 * Every example a newcomer reads is run, in the situation its page
 * describes, and must be accepted: the README, docs/players.md,
 * docs/discord-setup.md, docs/commands.md and the console's first screen.
 * The players' guide's translations (docs/players.<lang>.md) show exactly
 * its examples, in order, so its scenes run theirs too.
 *
 * An example is a command line in a code block of a page (a line starting
 * with `/`, or `> /` in a console transcript), or an inline `/command`
 * span with at least one `option:value` (a span with `...` or `<` is a
 * sketch, not an example). tests/data/doc-examples*.txt hold scenes: each
 * starts on a fresh store, names the page it stands for and where it
 * plays (a Discord server with nothing configured, or the console), and
 * runs console-syntax lines, every one of which must be accepted. Each
 * example must appear in a scene of its page, and the command and console
 * lines of each code block in the same order in one scene: a page cannot
 * gain or change an example without this test running it.
 *
 * Scene lines besides commands:
 *   :as NAME             act as NAME (in a server, a member with no
 *                        special permission, until :perm says otherwise)
 *   :gm on|off           that user's Manage Channels (the console's GM)
 *   :perm admin|manager|none   Administrator, Manage Server, or nothing
 *   :file KIND           the next import brings a valid export file of
 *                        KIND (characters, templates, macros or
 *                        conditions)
 *   :time +DUR           (console) move the clock on
 * In a server, a channel option written `#name` is a text channel of the
 * server and a role option written `@name` a role, as Discord's pickers
 * send them.
 */
#include "support.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd_parse.h"
#include "cmd_table.h"
#include "cmd_validate.h"
#include "console.h"
#include "eng_rng.h"
#include "render_text.h"
#include "sbuf.h"
#include "store.h"

#define DOC_SEED 42
#define DOC_MAX_LINE 1024
#define DOC_MAX_SCENES 64
#define DOC_MAX_SCENE_LINES 160
#define DOC_MAX_EXAMPLES 256
#define DOC_GUILD UINT64_C(880000000000000001)
#define DOC_CHANNEL UINT64_C(880000000000000077)
#define DOC_GM_CHANNEL "880000000000000555"
#define DOC_ROLE "880000000000000666"
#define DOC_NOW_MS INT64_C(1790000000000)

/* ---- files and pages ----------------------------------------------------- */

static char *slurp(const char *rel)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", FRAY_SOURCE_DIR, rel);
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* An example or a code block's line, with the block it came from (0: an
 * inline span). */
struct example {
    char text[DOC_MAX_LINE];
    int block;
};

struct examples {
    struct example e[DOC_MAX_EXAMPLES];
    int n;
};

/* Is s (len bytes) "/word" naming a command fray has? */
static bool names_command(const char *s, size_t len)
{
    char word[32];
    size_t i = 1;
    if (len < 2 || s[0] != '/')
        return false;
    while (i < len && i < sizeof word && s[i] >= 'a' && s[i] <= 'z')
        i++;
    if (i == 1 || i >= sizeof word || (i < len && s[i] != ' '))
        return false;
    memcpy(word, s + 1, i - 1);
    word[i - 1] = '\0';
    struct cmd_spec v;
    return cmd_lookup(word, NULL, NULL, &v) ||
           strcmp(word, "combat") == 0 || strcmp(word, "character") == 0 ||
           strcmp(word, "npc") == 0 || strcmp(word, "macro") == 0;
}

/* Does s hold an option with a value ("name:x")? A bare "systems:" names
 * an option; it is no example. */
static bool has_option_value(const char *s, size_t len)
{
    for (size_t i = 1; i + 1 < len; i++)
        if (s[i] == ':' && s[i + 1] != ' ' && s[i - 1] != ' ')
            return true;
    return false;
}

static void add_example(struct examples *x, const char *s, size_t len,
                        int block)
{
    while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\r'))
        len--;
    assert_true(x->n < DOC_MAX_EXAMPLES);
    assert_true(len < DOC_MAX_LINE);
    memcpy(x->e[x->n].text, s, len);
    x->e[x->n].text[len] = '\0';
    x->e[x->n].block = block;
    x->n++;
}

/* The examples of a Markdown page, code blocks numbered from 1. */
static void page_examples(const char *doc, struct examples *x)
{
    bool fenced = false, in_indent = false;
    int block = 0;
    x->n = 0;
    for (const char *line = doc; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        bool indented = len >= 4 && memcmp(line, "    ", 4) == 0;
        if (len >= 3 && memcmp(line, "```", 3) == 0) {
            fenced = !fenced;
            if (fenced)
                block++;
        } else if (fenced || indented) {
            if (!fenced && !in_indent)
                block++;
            const char *s = line;
            size_t n = len;
            while (n > 0 && *s == ' ')
                s++, n--;
            if (n >= 2 && s[0] == '>' && s[1] == ' ')
                s += 2, n -= 2;
            if (names_command(s, n) || (n > 1 && s[0] == ':' &&
                                        s[1] >= 'a' && s[1] <= 'z'))
                add_example(x, s, n, block);
        } else {
            /* inline spans: `/command ... option:value` */
            for (const char *p = memchr(line, '`', len); p != NULL;) {
                const char *q = memchr(p + 1, '`', (size_t)(line + len - p - 1));
                if (q == NULL)
                    break;
                size_t n = (size_t)(q - p - 1);
                const char *s = p + 1;
                if (names_command(s, n) && has_option_value(s, n) &&
                    memmem(s, n, "...", 3) == NULL && memchr(s, '<', n) == NULL)
                    add_example(x, s, n, 0);
                p = q + 1 < line + len ? memchr(q + 1, '`', (size_t)(line + len - q - 1))
                                       : NULL;
            }
        }
        if (!fenced)
            in_indent = indented || (in_indent && len == 0);
        line = end ? end + 1 : line + len;
    }
}

/* ---- scenes -------------------------------------------------------------- */

struct scene {
    char name[48];
    char page[64];
    bool console;
    int n;
    char *line[DOC_MAX_SCENE_LINES];
};

struct scenes {
    struct scene s[DOC_MAX_SCENES];
    int n;
    char *text;
};

/* The scene files: the user pages', and the command reference's. */
static const char *const scene_files[] = {
    "tests/data/doc-examples.txt",
    "tests/data/doc-examples-commands.txt",
};
#define DOC_NFILES (sizeof scene_files / sizeof *scene_files)

static void read_scenes(struct scenes *ss)
{
    memset(ss, 0, sizeof *ss);
    size_t len = 0;
    for (size_t i = 0; i < DOC_NFILES; i++) {
        char *t = slurp(scene_files[i]);
        size_t n = strlen(t);
        ss->text = realloc(ss->text, len + n + 2);
        assert_non_null(ss->text);
        memcpy(ss->text + len, t, n);
        len += n;
        ss->text[len++] = '\n';
        ss->text[len] = '\0';
        free(t);
    }
    struct scene *cur = NULL;
    for (char *line = ss->text; line && *line;) {
        char *end = strchr(line, '\n');
        if (end)
            *end = '\0';
        if (strncmp(line, "@scene ", 7) == 0) {
            assert_true(ss->n < DOC_MAX_SCENES);
            cur = &ss->s[ss->n++];
            char place[16] = "";
            if (sscanf(line + 7, "%47s %63s %15s", cur->name, cur->page,
                       place) != 3 ||
                (strcmp(place, "server") != 0 && strcmp(place, "console") != 0))
                fail_msg("bad scene line: %s", line);
            cur->console = strcmp(place, "console") == 0;
        } else if (line[0] != '#' && line[0] != '\0') {
            if (cur == NULL)
                fail_msg("a line before the first @scene: %s", line);
            assert_true(cur->n < DOC_MAX_SCENE_LINES);
            cur->line[cur->n++] = line;
        }
        line = end ? end + 1 : NULL;
    }
    assert_true(ss->n > 0);
}

/* Does scene s hold the block's lines in order? A console transcript (a
 * block with console lines, `:as alice`) is run as written, so it must
 * stand in the scene line for line; a block of separate examples may have
 * setup lines between them. */
static bool scene_holds_block(const struct scene *s, const struct examples *x,
                              int block)
{
    int first = 0, n = 0;
    bool transcript = false;
    for (int i = 0; i < x->n && x->e[i].block != block; i++)
        first = i + 1;
    for (int i = first; i < x->n && x->e[i].block == block; i++, n++)
        transcript = transcript || x->e[i].text[0] == ':';
    if (!transcript) {
        int k = 0;
        for (int i = 0; i < s->n && k < n; i++)
            if (strcmp(s->line[i], x->e[first + k].text) == 0)
                k++;
        return k == n;
    }
    for (int i = 0; i + n <= s->n; i++) {
        int k = 0;
        while (k < n && strcmp(s->line[i + k], x->e[first + k].text) == 0)
            k++;
        if (k == n)
            return true;
    }
    return false;
}

/* Every example of page is in one of the scenes of scenes_of (the page
 * itself, or the English page a translation stands for), each block in
 * order. */
static void check_page_covered(const struct scenes *ss, const char *page,
                               const char *scenes_of)
{
    char *doc = slurp(page);
    static struct examples x;
    page_examples(doc, &x);
    free(doc);
    int nscenes = 0;
    for (int i = 0; i < ss->n; i++)
        nscenes += strcmp(ss->s[i].page, scenes_of) == 0;
    if (x.n > 0 && nscenes == 0)
        fail_msg("%s has %d examples and no scene", page, x.n);
    for (int i = 0; i < x.n; i++) {
        if (x.e[i].text[0] == ':')
            continue;         /* a console line: checked with its block */
        bool found = false;
        for (int k = 0; k < ss->n && !found; k++) {
            const struct scene *s = &ss->s[k];
            if (strcmp(s->page, scenes_of) != 0)
                continue;
            if (x.e[i].block > 0)
                found = scene_holds_block(s, &x, x.e[i].block);
            else
                for (int j = 0; j < s->n && !found; j++)
                    found = strcmp(s->line[j], x.e[i].text) == 0;
        }
        if (!found)
            fail_msg("%s: the example `%s`%s is run by no scene of "
                     "tests/data/doc-examples.txt", page, x.e[i].text,
                     x.e[i].block ? " (with its block's lines, in order)"
                                  : "");
    }
    printf("%s: %d examples, %d scenes\n", page, x.n, nscenes);
}

/* ---- running a scene in a server ---------------------------------------- */

struct player {
    char name[33];
    uint64_t perms;
    bool gm;
};

static const char *const export_files[][2] = {
    {"macros", "{\"fray\":\"export\",\"version\":1,\"kind\":\"macros\","
               "\"items\":[{\"name\":\"stealth\",\"dice\":\"1d20+7\"}]}"},
    {"characters",
     "{\"fray\":\"export\",\"version\":1,\"kind\":\"characters\",\"items\":"
     "[{\"name\":\"Aria\",\"sheet\":{\"v\":1,\"system\":\"generic\","
     "\"stats\":{\"ac\":15}}}]}"},
    {"templates",
     "{\"fray\":\"export\",\"version\":1,\"kind\":\"templates\",\"items\":"
     "[{\"name\":\"Bandit\",\"sheet\":{\"v\":1,\"system\":\"generic\","
     "\"stats\":{\"ac\":12}}}]}"},
    {"conditions",
     "{\"fray\":\"export\",\"version\":1,\"kind\":\"conditions\","
     "\"items\":[{\"name\":\"Dazzled\",\"description\":\"Sees stars\","
     "\"rounds\":1}]}"},
};

static const char *export_file(const char *kind)
{
    for (size_t i = 0; i < sizeof export_files / sizeof *export_files; i++)
        if (strcmp(export_files[i][0], kind) == 0)
            return export_files[i][1];
    fail_msg(":file %s: no such kind", kind);
    return NULL;
}

static void say_refused(const struct scene *s, int i, const struct msg *m)
{
    struct sbuf b;
    sbuf_init(&b, RENDER_TEXT_MAX);
    render_text(m, NULL, &b);
    fail_msg("%s (%s): `%s` was refused:\n%s", s->page, s->name, s->line[i],
             sbuf_str(&b));
    sbuf_cleanup(&b);
}

/* line into out with the pickers' display forms as Discord sends them:
 * `gm-channel:#name` becomes the channel's id, `npc-role:@Role Name` (to
 * the end of the line) the role's. True when a channel was picked. */
static bool pick(const char *line, char *out, size_t cap)
{
    const char *c = strstr(line, "gm-channel:#");
    const char *r = strstr(line, "npc-role:@");
    if (c != NULL) {
        const char *end = c + strlen("gm-channel:#");
        end += strspn(end, "abcdefghijklmnopqrstuvwxyz0123456789-_");
        snprintf(out, cap, "%.*sgm-channel:%s%s", (int)(c - line), line,
                 DOC_GM_CHANNEL, end);
        return true;
    }
    if (r != NULL)
        snprintf(out, cap, "%.*snpc-role:%s", (int)(r - line), line,
                 DOC_ROLE);
    else
        snprintf(out, cap, "%s", line);
    return false;
}

static void run_server_scene(const struct scene *s)
{
    struct store *store;
    struct eng_rng rng;
    struct cmd_ctx ctx;
    char err[CMD_VALIDATE_ERR_MAX];
    struct player who = {"gm", 0, false};
    const char *file = NULL;

    assert_int_equal(store_open(":memory:", &store, err, sizeof err), BOT_OK);
    eng_rng_seed(&rng, DOC_SEED);
    memset(&ctx, 0, sizeof ctx);
    ctx.store = store;
    ctx.rng = &rng;
    ctx.web_url = "https://fray.example.org"; /* [web] on: /combat share */
    for (int i = 0; i < s->n; i++) {
        const char *l = s->line[i];
        if (strncmp(l, ":as ", 4) == 0) {
            snprintf(who.name, sizeof who.name, "%s", l + 4);
            who.perms = 0;
            who.gm = false;
            continue;
        }
        if (strcmp(l, ":gm on") == 0 || strcmp(l, ":gm off") == 0) {
            who.gm = strcmp(l, ":gm on") == 0;
            continue;
        }
        if (strncmp(l, ":perm ", 6) == 0) {
            const char *p = l + 6;
            who.perms = strcmp(p, "admin") == 0 ? CMD_PERM_ADMINISTRATOR
                        : strcmp(p, "manager") == 0 ? CMD_PERM_MANAGE_GUILD
                                                    : 0;
            continue;
        }
        if (strncmp(l, ":file ", 6) == 0) {
            file = export_file(l + 6);
            continue;
        }
        if (l[0] == ':')
            fail_msg("%s: `%s` has no meaning in a server scene", s->name, l);
        char picked[DOC_MAX_LINE + 64];
        bool channel = pick(l, picked, sizeof picked);
        l = picked;
        struct cmd_parsed *p = malloc(sizeof *p);
        assert_non_null(p);
        if (!cmd_parse_line(p, l, strlen(l), err, sizeof err))
            fail_msg("%s (%s): `%s` does not parse: %s", s->page, s->name, l,
                     err);
        p->req.source = CMD_SRC_DISCORD;
        p->req.guild_id = DOC_GUILD;
        p->req.channel_id = DOC_CHANNEL;
        p->req.user_id = console_user_id(who.name);
        p->req.user_name = who.name;
        p->req.perms = who.perms | (who.gm ? CMD_PERM_MANAGE_CHANNELS : 0);
        p->req.perms_known = true;
        p->req.expect_version = -1;
        p->req.now_ms = DOC_NOW_MS + i * 1000;
        if (channel)       /* Discord resolves the channel it sends */
            p->req.channels[p->req.nchannels++] = (struct cmd_channel){
                strtoull(DOC_GM_CHANNEL, NULL, 10), DOC_GUILD, 0};
        /* an import: a command's import, or /config file: (the
         * server's conditions) */
        if ((p->req.sub && strcmp(p->req.sub, "import") == 0) ||
            (strcmp(p->req.command, "config") == 0 &&
             cmd_req_opt(&p->req, "file") != NULL)) {
            if (file == NULL)
                fail_msg("%s: `%s` needs a :file line before it", s->name, l);
            p->req.file = file;
            p->req.file_len = strlen(file);
            file = NULL;
        }
        struct cmd_reply r;
        cmd_reply_init(&r);
        assert_true(cmd_exec(&ctx, &p->req, &r));
        if (r.is_error)
            say_refused(s, i, &r.msg);
        cmd_reply_cleanup(&r);
        free(p);
    }
    store_close(store);
}

/* ---- running a scene in the console ------------------------------------- */

/* Empty and remove the directory dir (files only: the exports a console
 * scene wrote). */
static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    for (struct dirent *e = readdir(d); e != NULL; e = readdir(d)) {
        char path[512];
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        assert_int_equal(unlink(path), 0);
    }
    closedir(d);
    assert_int_equal(rmdir(dir), 0);
}

/* Run lines through the console itself, as user (GM or not); each must be
 * accepted. The console's file: paths (an export's file:aria.json) are
 * relative to a fresh directory, removed afterwards. */
static void run_console_lines(const char *what, char *const *lines, int n,
                              const char *user, bool gm)
{
    struct store *store;
    struct eng_rng rng;
    struct console con;
    char err[STORE_MAX_ERR], *out = NULL, dir[] = "/tmp/fray-doc-XXXXXX";
    size_t outlen = 0;
    char *cwd = getcwd(NULL, 0);  /* as long as the build folder's path */
    assert_non_null(cwd);
    assert_non_null(mkdtemp(dir));
    assert_int_equal(chdir(dir), 0);
    FILE *f = open_memstream(&out, &outlen);
    assert_non_null(f);
    assert_int_equal(store_open(":memory:", &store, err, sizeof err), BOT_OK);
    eng_rng_seed(&rng, DOC_SEED);
    assert_true(console_init(&con, store, &rng, f, user, gm, true));
    for (int i = 0; i < n; i++) {
        int before = con.refused;
        long at = ftell(f);
        enum console_status st = console_line(&con, lines[i], strlen(lines[i]));
        fflush(f);
        if (st == CONSOLE_FATAL || con.refused != before) {
            assert_int_equal(chdir(cwd), 0);
            remove_dir(dir);
            fail_msg("%s: `%s` was refused:\n%s", what, lines[i],
                     out + at);
        }
    }
    fclose(f);
    free(out);
    store_close(store);
    assert_int_equal(chdir(cwd), 0);
    free(cwd);
    remove_dir(dir);
}

static void run_console_scene(const struct scene *s)
{
    char what[128];
    snprintf(what, sizeof what, "%s (%s)", s->page, s->name);
    /* The README's `fray console --gm`: the default user, made GM. */
    run_console_lines(what, s->line, s->n, "gm", true);
}

/* ---- tests --------------------------------------------------------------- */

static const char *const pages[] = {"README.md", "docs/players.md",
                                    "docs/discord-setup.md",
                                    "docs/commands.md"};

/* The players' guide in each language: the same examples, typed in
 * English (they work in every language), run by docs/players.md's
 * scenes. */
static const char *const players_translated[] = {
    "docs/players.de.md", "docs/players.fr.md", "docs/players.es-ES.md",
    "docs/players.pt-BR.md", "docs/players.pl.md"};

static void test_every_page_example_is_in_a_scene(void **state)
{
    (void)state;
    static struct scenes ss;
    read_scenes(&ss);
    for (size_t i = 0; i < sizeof pages / sizeof *pages; i++)
        check_page_covered(&ss, pages[i], pages[i]);
    for (size_t i = 0; i < sizeof players_translated /
                           sizeof *players_translated; i++)
        check_page_covered(&ss, players_translated[i], "docs/players.md");
    free(ss.text);
}

/* A translated guide shows exactly the English guide's examples, block by
 * block and in order: translating a page never drops, adds or changes a
 * command a reader would copy. */
static void test_translated_guides_keep_the_examples(void **state)
{
    (void)state;
    static struct examples en, tr;
    char *doc = slurp("docs/players.md");
    page_examples(doc, &en);
    free(doc);
    assert_true(en.n >= 10);
    for (size_t i = 0; i < sizeof players_translated /
                           sizeof *players_translated; i++) {
        doc = slurp(players_translated[i]);
        page_examples(doc, &tr);
        free(doc);
        if (tr.n != en.n)
            fail_msg("%s has %d examples, docs/players.md %d",
                     players_translated[i], tr.n, en.n);
        for (int k = 0; k < en.n; k++)
            if (strcmp(tr.e[k].text, en.e[k].text) != 0 ||
                tr.e[k].block != en.e[k].block)
                fail_msg("%s: example %d is `%s`, docs/players.md's `%s`",
                         players_translated[i], k + 1, tr.e[k].text,
                         en.e[k].text);
    }
}

static void test_every_scene_is_accepted(void **state)
{
    (void)state;
    static struct scenes ss;
    read_scenes(&ss);
    for (int i = 0; i < ss.n; i++) {
        if (ss.s[i].console)
            run_console_scene(&ss.s[i]);
        else
            run_server_scene(&ss.s[i]);
    }
    printf("%d scenes run\n", ss.n);
    free(ss.text);
}

/* The first screen's lines, run as `fray run` opens the console: user
 * "gm", without the GM's permissions. */
static void test_console_first_screen_is_accepted(void **state)
{
    (void)state;
    char text[] = CONSOLE_WELCOME;
    char *lines[16];
    int n = 0;
    /* the example lines are the indented ones */
    for (char *l = strtok(text, "\n"); l != NULL; l = strtok(NULL, "\n"))
        if (strncmp(l, "  /", 3) == 0 && n < 16)
            lines[n++] = l + 2;
    assert_true(n >= 3);
    run_console_lines("the console's first screen", lines, n, "gm", false);
}

/* The checker itself: a page example nobody runs is found, and a refused
 * line fails (the harness must be able to say no). */
static void test_checker_finds_a_missing_example(void **state)
{
    (void)state;
    static struct examples x;
    page_examples("Text `/roll dice:2d6` and `/combat status` and\n"
                  "`/config systems:` and\n"
                  "`/combat start ... thread:true`.\n\n"
                  "    /combat add name:Orc hp:9\n"
                  "    > :as alice\n"
                  "    > /combat join name:Aria hp:5\n", &x);
    assert_int_equal(x.n, 4);
    assert_string_equal(x.e[0].text, "/roll dice:2d6");
    assert_int_equal(x.e[0].block, 0);
    assert_string_equal(x.e[1].text, "/combat add name:Orc hp:9");
    assert_string_equal(x.e[2].text, ":as alice");
    assert_string_equal(x.e[3].text, "/combat join name:Aria hp:5");
    assert_int_equal(x.e[3].block, x.e[1].block);
    struct scene s = {"t", "p", false, 3,
                      {"/combat join name:Aria hp:5", ":as alice",
                       "/combat add name:Orc hp:9"}};
    /* out of order: not held */
    assert_false(scene_holds_block(&s, &x, x.e[1].block));
    s.line[0] = "/combat add name:Orc hp:9";
    s.line[2] = "/combat join name:Aria hp:5";
    assert_true(scene_holds_block(&s, &x, x.e[1].block));
    /* a transcript with a line between its lines is not the one written */
    struct scene t = {"t", "p", false, 4,
                      {"/combat add name:Orc hp:9", ":as alice", ":as bob",
                       "/combat join name:Aria hp:5"}};
    assert_false(scene_holds_block(&t, &x, x.e[1].block));
    /* a line of the block missing (the console's :as): not held */
    s.line[1] = "/combat status";
    assert_false(scene_holds_block(&s, &x, x.e[1].block));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_checker_finds_a_missing_example),
        cmocka_unit_test(test_every_page_example_is_in_a_scene),
        cmocka_unit_test(test_translated_guides_keep_the_examples),
        cmocka_unit_test(test_every_scene_is_accepted),
        cmocka_unit_test(test_console_first_screen_is_accepted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
