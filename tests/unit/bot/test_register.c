/* test_register.c - every command set fray registers respects Discord's
 * rules, checked by the fake Discord's own validator (names, descriptions,
 * option order and types, choices, subcommand nesting, 25 options, 8000
 * characters a command, 100 commands): the global core set, every
 * combination of the systems a server may play, and a development server's
 * whole set. Within a set a name means one thing: no system verb is named
 * like a core command, and a verb several systems share agrees on each
 * option's type. The hash is stable. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_table.h"
#include "fake.h"
#include "register.h"
#include "rs.h"

static void check_valid(json_t *cmds, const char *what)
{
    json_t *errs = fake_validate_commands(cmds);
    if (errs != NULL) {
        char *s = json_dumps(errs, 0);
        fail_msg("%s: Discord would refuse it: %s", what, s);
    }
    assert_true(json_array_size(cmds) <= 100);
}

static bool is_core(const char *name)
{
    size_t n;
    const struct cmd_spec *t = cmd_table(&n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(t[i].command, name) == 0)
            return true;
    return false;
}

/* A verb's option types agree in every system of the set. */
static void check_agree(const struct rs_system *const *sys, size_t n,
                        const char *what)
{
    for (size_t s = 0; s < n; s++)
        for (int i = 0; i < sys[s]->ncmds; i++) {
            const struct rs_cmd *rc = &sys[s]->cmds[i];
            if (is_core(rc->verb))
                fail_msg("%s: %s names its /%s like a core command", what,
                         sys[s]->id, rc->verb);
            const struct rs_opt_spec *lists[16];
            size_t nl = 0;
            for (size_t q = 0; q < n; q++) {
                const struct rs_cmd *o = rs_cmd_find(sys[q], rc->verb,
                                                     rc->sub);
                if (o != NULL)
                    lists[nl++] = o->opts;
                /* one system's plain /x and another's /x sub cannot both
                 * be one Discord command */
                for (int k = 0; k < sys[q]->ncmds; k++)
                    if (strcmp(sys[q]->cmds[k].verb, rc->verb) == 0 &&
                        (sys[q]->cmds[k].sub == NULL) != (rc->sub == NULL))
                        fail_msg("%s: /%s is plain in one system and has "
                                 "subcommands in another", what, rc->verb);
            }
            struct rs_opt_spec out[64];
            bool conflict = false;
            cmd_merge_opts(lists, nl, out, 64, &conflict);
            if (conflict)
                fail_msg("%s: the systems' /%s options disagree on a type",
                         what, rc->verb);
        }
}

static void test_register_every_set_is_valid(void **state)
{
    (void)state;
    json_t *core = register_build(NULL, 0, REGISTER_CORE);
    check_valid(core, "the global set");
    /* eight slash commands; the rest are a roll's message menus */
    size_t slash = 0, menus = 0;
    json_t *cmd;
    size_t at;
    json_array_foreach(core, at, cmd) {
        json_int_t type = json_integer_value(json_object_get(cmd, "type"));
        slash += type == 1;
        menus += type == 3;
    }
    assert_true(slash <= 8);
    assert_int_equal(menus, CMD_MENU_COUNT);
    assert_int_equal(slash + menus, json_array_size(core));
    json_decref(core);

    size_t n;
    const struct rs_system *const *all = rs_all(&n);
    assert_true(n <= 12);
    int sets = 0;
    for (unsigned mask = 1; mask < (1u << n); mask++) {
        const struct rs_system *sys[16];
        size_t k = 0;
        char what[256] = "server playing";
        for (size_t i = 0; i < n; i++)
            if (mask & (1u << i)) {
                sys[k++] = all[i];
                strncat(what, " ", sizeof what - strlen(what) - 1);
                strncat(what, all[i]->id, sizeof what - strlen(what) - 1);
            }
        check_agree(sys, k, what);
        json_t *set = register_build(sys, k, REGISTER_GUILD);
        check_valid(set, what);
        json_t *c;
        size_t i;
        json_array_foreach(set, i, c)
            if (is_core(json_string_value(json_object_get(c, "name"))))
                fail_msg("%s: a server command is named like a core one",
                         what);
        json_decref(set);
        /* a development server gets everything as guild commands */
        set = register_build(sys, k, REGISTER_CORE | REGISTER_GUILD);
        check_valid(set, what);
        json_decref(set);
        sets++;
    }
    print_message("checked the global set and %d server sets\n", sets);
}

/* The command named name in cmds, or NULL. */
static json_t *find_cmd(json_t *cmds, const char *name)
{
    json_t *c;
    size_t i;
    json_array_foreach(cmds, i, c)
        if (strcmp(json_string_value(json_object_get(c, "name")), name) == 0)
            return c;
    return NULL;
}

/* A posted roll's menus are MESSAGE commands (type 3) with no options:
 * Reroll and Explain wherever /roll works, a user's own install too;
 * Apply damage only in servers with fray in them (a fight's). */
static void test_register_roll_menus(void **state)
{
    (void)state;
    json_t *cmds = register_build(NULL, 0, REGISTER_CORE);
    static const char *const names[] = {CMD_MENU_REROLL, CMD_MENU_EXPLAIN,
                                        CMD_MENU_APPLY};
    for (size_t k = 0; k < 3; k++) {
        json_t *m = find_cmd(cmds, names[k]);
        assert_non_null(m);
        assert_int_equal(json_integer_value(json_object_get(m, "type")), 3);
        assert_null(json_object_get(m, "options"));
        json_t *it = json_object_get(m, "integration_types");
        json_t *ctx = json_object_get(m, "contexts");
        bool apply = k == 2;
        assert_int_equal(json_array_size(it), apply ? 1 : 2);
        assert_int_equal(json_array_size(ctx), apply ? 1 : 3);
        assert_int_equal(json_integer_value(json_array_get(ctx, 0)), 0);
    }
    assert_null(find_cmd(cmds, "reroll"));   /* no slash twin */
    json_decref(cmds);
}

/* The option named name among parent's options, or NULL. */
static json_t *find_opt(json_t *parent, const char *name)
{
    json_t *o;
    size_t i;
    json_array_foreach(json_object_get(parent, "options"), i, o)
        if (strcmp(json_string_value(json_object_get(o, "name")), name) == 0)
            return o;
    return NULL;
}

/* Discord asks for suggestions only for an option registered with
 * autocomplete: each option that names something of the fight (a
 * resource, a countdown, a condition, a combatant) is, or a player would
 * have to type it from memory; free text is not. */
static void test_register_names_autocomplete(void **state)
{
    (void)state;
    static const struct {
        const char *sub, *opt;
        bool completes;
    } want[] = {
        {"resource", "name", true},     {"resource", "resource", true},
        {"countdown", "name", true},    {"countdown", "of", true},
        {"condition", "condition", true}, {"hp", "name", true},
        {"set", "note", false},
    };
    json_t *cmds = register_build(NULL, 0, REGISTER_CORE);
    json_t *combat = find_cmd(cmds, "combat");
    assert_non_null(combat);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        json_t *sub = find_opt(combat, want[i].sub);
        json_t *o = sub != NULL ? find_opt(sub, want[i].opt) : NULL;
        if (o == NULL)
            fail_msg("/combat %s has no option %s", want[i].sub,
                     want[i].opt);
        if (json_is_true(json_object_get(o, "autocomplete")) !=
            want[i].completes)
            fail_msg("/combat %s %s: autocomplete should be %s",
                     want[i].sub, want[i].opt,
                     want[i].completes ? "on" : "off");
    }
    json_decref(cmds);
}

/* /config changes the whole server: Discord shows it by default only to
 * members with Manage Server (1 << 5), sent as a string; its gm-channel
 * offers only text and announcement channels (0 and 5), never threads or
 * voice. Commands of the table without CMD_F_SERVER carry no default. */
static void test_register_config_needs_manage_server(void **state)
{
    (void)state;
    for (unsigned flags = REGISTER_CORE; flags <= (REGISTER_CORE |
                                                   REGISTER_GUILD); flags++) {
        if (!(flags & REGISTER_CORE))
            continue;
        json_t *cmds = register_build(NULL, 0, flags);
        json_t *config = find_cmd(cmds, "config");
        assert_non_null(config);
        json_t *dmp = json_object_get(config, "default_member_permissions");
        assert_true(json_is_string(dmp));
        assert_string_equal(json_string_value(dmp), "32");
        json_t *o;
        size_t i;
        bool seen = false;
        json_array_foreach(json_object_get(config, "options"), i, o) {
            if (strcmp(json_string_value(json_object_get(o, "name")),
                       "gm-channel") != 0)
                continue;
            seen = true;
            json_t *types = json_object_get(o, "channel_types");
            assert_int_equal(json_array_size(types), 2);
            assert_int_equal(json_integer_value(json_array_get(types, 0)), 0);
            assert_int_equal(json_integer_value(json_array_get(types, 1)), 5);
        }
        assert_true(seen);
        json_t *c;
        json_array_foreach(cmds, i, c) {
            const char *name = json_string_value(json_object_get(c, "name"));
            if (strcmp(name, "config") != 0 &&
                json_object_get(c, "default_member_permissions") != NULL)
                fail_msg("/%s has default_member_permissions: only server "
                         "settings should", name);
        }
        json_decref(cmds);
    }
}

static void test_register_hash_stable(void **state)
{
    (void)state;
    json_t *cmds = register_build(NULL, 0, REGISTER_CORE);
    char *a = json_dumps(cmds, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(cmds);
    cmds = register_build(NULL, 0, REGISTER_CORE);
    char *b = json_dumps(cmds, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(cmds);
    char h1[17], h2[17];
    register_hash(a, h1);
    register_hash(b, h2);
    assert_string_equal(h1, h2);
    assert_int_equal(strlen(h1), 16);
    register_hash("x", h2);
    assert_string_not_equal(h1, h2);
    free(a);
    free(b);
}

/* A set is known unchanged by its inputs: the same build, application,
 * flags and systems give the same hash, and a change in any gives
 * another (a new build is a new build id). */
static void test_register_input_hash(void **state)
{
    (void)state;
    char build[REGISTER_BUILD_ID_MAX], again[REGISTER_BUILD_ID_MAX];
    /* the test binary is linked like fray, with a build id */
    assert_true(register_build_id(build));
    assert_true(strlen(build) >= 16);
    assert_true(strspn(build, "0123456789abcdef") == strlen(build));
    assert_true(register_build_id(again));
    assert_string_equal(build, again);

    size_t n = 0;
    const struct rs_system *const *all = rs_all(&n);
    assert_true(n >= 2);
    const struct rs_system *swapped[2] = {all[1], all[0]};
    char base[17], h[17];
    register_input_hash(build, "1", all, 2, REGISTER_GUILD, base);
    assert_int_equal(strlen(base), 16);
    register_input_hash(build, "1", all, 2, REGISTER_GUILD, h);
    assert_string_equal(base, h);
    register_input_hash("ff", "1", all, 2, REGISTER_GUILD, h);
    assert_string_not_equal(base, h);
    register_input_hash(build, "2", all, 2, REGISTER_GUILD, h);
    assert_string_not_equal(base, h);
    register_input_hash(build, "1", all, 2, REGISTER_GUILD | REGISTER_CORE,
                        h);
    assert_string_not_equal(base, h);
    register_input_hash(build, "1", all, 1, REGISTER_GUILD, h);
    assert_string_not_equal(base, h);
    register_input_hash(build, "1", swapped, 2, REGISTER_GUILD, h);
    assert_string_not_equal(base, h);
}

/* The contexts of the command named name in cmds, as a bit set of Discord's
 * context numbers (1 << n); fails when it is missing. */
static unsigned list_of(json_t *cmds, const char *name, const char *key)
{
    for (size_t i = 0; i < json_array_size(cmds); i++) {
        json_t *c = json_array_get(cmds, i);
        if (strcmp(json_string_value(json_object_get(c, "name")), name) != 0)
            continue;
        json_t *ctx = json_object_get(c, key);
        if (ctx == NULL)
            return 0;
        assert_true(json_is_array(ctx));
        unsigned bits = 0;
        for (size_t k = 0; k < json_array_size(ctx); k++)
            bits |= 1u << json_integer_value(json_array_get(ctx, k));
        return bits;
    }
    fail_msg("no /%s registered", name);
    return 0;
}

static unsigned contexts_of(json_t *cmds, const char *name)
{
    return list_of(cmds, name, "contexts");
}

/* The integration_types of /name (1 << 0 server install, 1 << 1 a
 * user's own install); 0 when it declares none. */
static unsigned installs_of(json_t *cmds, const char *name)
{
    return list_of(cmds, name, "integration_types");
}

/* What works in a DM with the bot is declared so (context 1, and 2 for a
 * private channel) and everything else is for servers only (context 0):
 * /roll and /help reach a DM, /combat and /config never do, and a server's
 * own set of a system's verbs never claims DMs. */
static void test_register_contexts(void **state)
{
    (void)state;
    json_t *core = register_build(NULL, 0, REGISTER_CORE);
    assert_non_null(core);
    unsigned everywhere = 1u << 0 | 1u << 1 | 1u << 2;
    assert_int_equal(contexts_of(core, "roll"), everywhere);
    assert_int_equal(contexts_of(core, "help"), everywhere);
    assert_int_equal(contexts_of(core, "combat"), 1u << 0);
    assert_int_equal(contexts_of(core, "config"), 1u << 0);
    /* a user's own install (discord-interface-2026.md 3.3, 3.4): /roll,
     * /macro, /character (show, list) and /help are declared for both
     * installs; a fight and the settings need fray in the server */
    unsigned both = 1u << 0 | 1u << 1;
    assert_int_equal(installs_of(core, "roll"), both);
    assert_int_equal(installs_of(core, "macro"), both);
    assert_int_equal(installs_of(core, "help"), both);
    assert_int_equal(installs_of(core, "character"), both);
    assert_int_equal(contexts_of(core, "character"), 1u << 0);
    assert_int_equal(contexts_of(core, "macro"), everywhere);
    assert_int_equal(installs_of(core, "combat"), 1u << 0);
    assert_int_equal(installs_of(core, "attack"), 1u << 0);
    assert_int_equal(installs_of(core, "config"), 1u << 0);
    check_valid(core, "the global set with its installs");
    json_decref(core);
    size_t n;
    const struct rs_system *const *all = rs_all(&n);
    json_t *set = register_build(all, n, REGISTER_GUILD);
    assert_non_null(set);
    assert_true(json_array_size(set) > 0);
    for (size_t i = 0; i < json_array_size(set); i++) {
        const char *name = json_string_value(
            json_object_get(json_array_get(set, i), "name"));
        assert_int_equal(contexts_of(set, name), 1u << 0);
        /* integration_types apply only to global commands */
        assert_int_equal(installs_of(set, name), 0);
    }
    json_decref(set);
}

/* ---- localizations (docs/internals/i18n.md) ---------------------------- */

/* Whether every name, description and choice in o (and below) carries a
 * localization under each key; the first that lacks one goes to miss. */
static bool localized(const json_t *o, bool top, const char *const *keys,
                      size_t nkeys, char *miss, size_t n)
{
    const char *name = json_string_value(json_object_get(o, "name"));
    const char *d = json_string_value(json_object_get(o, "description"));
    bool menu = top && json_integer_value(json_object_get(o, "type")) == 3;
    for (size_t k = 0; k < nkeys; k++) {
        if (!json_object_get(json_object_get(o, "name_localizations"),
                             keys[k]) ||
            (!menu && d && *d &&
             !json_object_get(json_object_get(o, "description_localizations"),
                              keys[k]))) {
            snprintf(miss, n, "%s (%s)", name, keys[k]);
            return false;
        }
        size_t i;
        const json_t *c;
        json_array_foreach(json_object_get(o, "choices"), i, c)
            if (!json_object_get(json_object_get(c, "name_localizations"),
                                 keys[k])) {
                snprintf(miss, n, "%s's choice %s (%s)", name,
                         json_string_value(json_object_get(c, "name")),
                         keys[k]);
                return false;
            }
    }
    size_t i;
    const json_t *c;
    json_array_foreach(json_object_get(o, "options"), i, c)
        if (!localized(c, false, keys, nkeys, miss, n))
            return false;
    return true;
}

static void check_localized(json_t *set, const char *const *keys,
                            size_t nkeys, const char *what)
{
    char miss[160];
    size_t i;
    const json_t *c;
    json_array_foreach(set, i, c)
        if (!localized(c, true, keys, nkeys, miss, sizeof miss))
            fail_msg("%s: no localization for %s", what, miss);
}

/* Every set registers every name, description and choice in de, fr,
 * es-ES, pt-BR and pl, and Discord's rules hold in each (the fake checks
 * each locale: names' pattern and case, 1-32, unique among their
 * command's options and apart from the others' default names;
 * descriptions 1-100 characters; the 8000 characters a command with its
 * longest localizations). */
static void test_register_localized_every_locale(void **state)
{
    (void)state;
    size_t nl, n;
    const struct register_locale *locs = register_locales(&nl);
    const char *keys[8];
    assert_int_equal(nl, 5);
    for (size_t k = 0; k < nl; k++)
        keys[k] = locs[k].key;
    const struct rs_system *const *all = rs_all(&n);
    json_t *core = register_build(NULL, 0, REGISTER_CORE);
    check_valid(core, "the global set");
    check_localized(core, keys, nl, "the global set");
    json_decref(core);
    /* every system alone, and all together (where shared verbs take the
     * composed description) */
    for (size_t i = 0; i <= n; i++) {
        json_t *set = i < n ? register_build(&all[i], 1, REGISTER_GUILD)
                            : register_build(all, n, REGISTER_GUILD);
        const char *what = i < n ? all[i]->id : "every system";
        check_valid(set, what);
        check_localized(set, keys, nl, what);
        json_decref(set);
    }
}

/* Whether s has a letter the pseudo-language made (any byte over 0x7f):
 * plain ASCII means the text skipped the catalogs. */
static bool pseudo_text(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s >= 0x80)
            return true;
    return false;
}

/* Each localized string of o is the pseudo-language's, and no description
 * was cut at Discord's 100 characters (the pseudo-language closes each
 * with ']', which a cut loses). */
static void check_pseudo(const json_t *o, const char *what)
{
    static const char *const fields[] = {"name_localizations",
                                         "description_localizations"};
    for (size_t f = 0; f < 2; f++) {
        const char *s = json_string_value(
            json_object_get(json_object_get(o, fields[f]), "de"));
        if (s == NULL)
            continue;
        if (!pseudo_text(s))
            fail_msg("%s: %s untranslated: %s", what, fields[f], s);
        const char *d = json_string_value(json_object_get(o, "description"));
        const char *name = json_string_value(json_object_get(o, "name"));
        /* a command with subcommands is described by its name (top()) */
        if (f == 1 && strcmp(d, name) != 0 && s[strlen(s) - 1] != ']')
            fail_msg("%s: the description overflows 100 characters once "
                     "40%% longer: %s", what,
                     json_string_value(json_object_get(o, "description")));
    }
    size_t i;
    const json_t *c;
    json_array_foreach(json_object_get(o, "choices"), i, c)
        check_pseudo(c, what);
    json_array_foreach(json_object_get(o, "options"), i, c)
        check_pseudo(c, what);
}

/* The pseudo-language (accented, 40 %% longer) registered under "de": the
 * fake still accepts every set, every string is the pseudo-language's
 * (none bypasses the catalogs) and no description overflows once
 * translated. */
static void test_register_pseudo_language(void **state)
{
    (void)state;
    static const struct register_locale qps[] = {{"de", I18N_PSEUDO}};
    static const char *const key[] = {"de"};
    size_t n;
    const struct rs_system *const *all = rs_all(&n);
    for (size_t i = 0; i <= n + 1; i++) {
        json_t *set = i < n ? register_build_in(&all[i], 1, REGISTER_GUILD,
                                                qps, 1)
                      : i == n ? register_build_in(all, n, REGISTER_GUILD,
                                                   qps, 1)
                               : register_build_in(NULL, 0, REGISTER_CORE,
                                                   qps, 1);
        const char *what = i < n ? all[i]->id : i == n ? "every system"
                                                        : "the global set";
        check_valid(set, what);
        check_localized(set, key, 1, what);
        size_t k;
        const json_t *c;
        json_array_foreach(set, k, c)
            check_pseudo(c, what);
        json_decref(set);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_register_every_set_is_valid),
        cmocka_unit_test(test_register_roll_menus),
        cmocka_unit_test(test_register_names_autocomplete),
        cmocka_unit_test(test_register_hash_stable),
        cmocka_unit_test(test_register_input_hash),
        cmocka_unit_test(test_register_config_needs_manage_server),
        cmocka_unit_test(test_register_contexts),
        cmocka_unit_test(test_register_localized_every_locale),
        cmocka_unit_test(test_register_pseudo_language),
    };
    return cmocka_run_group_tests_name("register", tests, NULL, NULL);
}
