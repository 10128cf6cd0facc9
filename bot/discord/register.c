/*
 * register.c - Discord command definitions from the declarations.
 *
 * Two kinds of set (docs/internals/commands.md, "A command surface per
 * server"): the core commands, registered globally, with the options any
 * system adds to them; and the commands of the systems a server plays,
 * registered in that server. A verb several chosen systems share becomes
 * one command whose options are the union of theirs; the command layer
 * then holds each fight to its own system's declaration.
 */
#include "register.h"

#include <inttypes.h>
#include <link.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "cmd_form.h"
#include "cmd_table.h"
#include "eng_text.h"
#include "fnv.h"
#include "i18n.h"

/* Discord's "manage server" permission, as the string it wants: who may
 * see server-wide settings by default (admins can widen it). */
#define REGISTER_PERM_MANAGE_GUILD "32"

static json_t *desc(const char *help)
{
    char buf[REGISTER_DESC_MAX * 4 + 1];
    size_t n = 0, chars = 0;
    const char *s = help && *help ? help : "-";
    /* at most REGISTER_DESC_MAX code points */
    while (s[n] && n < sizeof buf - 1) {
        if (((unsigned char)s[n] & 0xC0) != 0x80) {
            if (chars == REGISTER_DESC_MAX)
                break;
            chars++;
        }
        buf[n] = s[n];
        n++;
    }
    buf[n] = '\0';
    return json_string(buf);
}

static size_t nchoices(const struct rs_opt_spec *o)
{
    size_t n = 0;
    while (o->choices != NULL && o->choices[n] != NULL)
        n++;
    return n;
}

static json_t *build_opt(const struct rs_opt_spec *o)
{
    json_t *jo = json_pack("{s:i, s:s, s:o, s:b}", "type", (int)o->type,
                           "name", o->name, "description", desc(o->help),
                           "required", o->required);
    if (jo == NULL)
        return NULL;
    if (o->type == RS_OPT_INTEGER && o->min < o->max) {
        json_object_set_new(jo, "min_value", json_integer(o->min));
        json_object_set_new(jo, "max_value", json_integer(o->max));
    }
    if (o->type == RS_OPT_STRING && o->max > 0) {
        json_object_set_new(jo, "min_length",
                            json_integer(o->min > 0 ? o->min : 0));
        json_object_set_new(jo, "max_length", json_integer(o->max));
    }
    if (o->type == RS_OPT_CHANNEL)   /* text and announcement channels */
        json_object_set_new(jo, "channel_types",
                            json_pack("[i,i]", CMD_CHANNEL_TEXT,
                                      CMD_CHANNEL_ANNOUNCEMENT));
    size_t nc = nchoices(o);
    if (o->val == RS_VAL_CHOICE && nc > 0 && nc <= REGISTER_CHOICES_MAX) {
        json_t *ch = json_array();
        for (size_t i = 0; ch != NULL && i < nc; i++)
            json_array_append_new(ch, json_pack("{s:s, s:s}", "name",
                                                o->choices[i], "value",
                                                o->choices[i]));
        json_object_set_new(jo, "choices", ch);
    } else if (cmd_complete_offers(o)) {
        json_object_set_new(jo, "autocomplete", json_true());
    }
    return jo;
}

static json_t *build_opts(const struct rs_opt_spec *opts, size_t n)
{
    json_t *arr = json_array();
    /* Discord wants required options first */
    for (int pass = 0; pass < 2 && arr; pass++)
        for (size_t i = 0; i < n; i++) {
            if (opts[i].required != (pass == 0))
                continue;
            json_t *jo = build_opt(&opts[i]);
            if (jo == NULL || json_array_append_new(arr, jo) != 0) {
                json_decref(arr);
                return NULL;
            }
        }
    return arr;
}

/* A global build marks the ctx it passes down (register_build): only
 * global commands carry integration_types. */
#define REG_CTX_GLOBAL (1u << 8)

/* contexts: 0 guild, 1 bot DM, 2 private channel. */
static json_t *contexts(unsigned ctx)
{
    json_t *a = json_array();
    if (ctx & CMD_CTX_GUILD)
        json_array_append_new(a, json_integer(0));
    if (ctx & CMD_CTX_DM) {
        json_array_append_new(a, json_integer(1));
        json_array_append_new(a, json_integer(2));
    }
    return a;
}

/* integration_types: 0 a server install, 1 a user's own install (where
 * the command also works without the bot, CMD_CTX_USER). */
static json_t *integration_types(unsigned ctx)
{
    return (ctx & CMD_CTX_USER) ? json_pack("[i,i]", 0, 1)
                                : json_pack("[i]", 0);
}

/* The contexts and install types c declares already, as CMD_CTX_* bits. */
static unsigned declared(json_t *c)
{
    unsigned ctx = 0;
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(c, "contexts"), i, v)
        ctx |= json_integer_value(v) == 0 ? CMD_CTX_GUILD : CMD_CTX_DM;
    json_array_foreach(json_object_get(c, "integration_types"), i, v)
        if (json_integer_value(v) == 1)
            ctx |= CMD_CTX_USER;
    return ctx;
}

/* The top-level object named name in cmds, created when new; a command
 * whose subcommands differ declares where any of them works (the command
 * layer holds each sub to its own contexts). */
static json_t *top(json_t *cmds, const char *name, const char *help,
                   unsigned ctx, bool has_subs, bool server)
{
    for (size_t j = 0; j < json_array_size(cmds); j++) {
        json_t *e = json_array_get(cmds, j);
        if (strcmp(json_string_value(json_object_get(e, "name")), name) != 0)
            continue;
        unsigned all = ctx | declared(e);
        json_object_set_new(e, "contexts", contexts(all));
        if (ctx & REG_CTX_GLOBAL)
            json_object_set_new(e, "integration_types",
                                integration_types(all));
        return e;
    }
    json_t *c = json_pack("{s:s, s:i, s:o, s:o, s:[]}", "name", name, "type",
                          1, "description", desc(has_subs ? name : help),
                          "contexts", contexts(ctx), "options");
    if (c == NULL || json_array_append_new(cmds, c) != 0)
        return NULL;
    if (ctx & REG_CTX_GLOBAL)
        json_object_set_new(c, "integration_types", integration_types(ctx));
    if (server)
        json_object_set_new(c, "default_member_permissions",
                            json_string(REGISTER_PERM_MANAGE_GUILD));
    return c;
}

/* Add one command (a sub when sub != NULL) with these options. */
static bool add_command(json_t *cmds, const char *command, const char *sub,
                        const char *help, unsigned ctx, bool server,
                        const struct rs_opt_spec *opts, size_t nopts)
{
    json_t *c = top(cmds, command, help, ctx, sub != NULL, server);
    json_t *jopts = c != NULL ? build_opts(opts, nopts) : NULL;
    if (jopts == NULL)
        return false;
    if (sub == NULL)
        return json_object_set_new(c, "options", jopts) == 0;
    json_t *s = json_pack("{s:i, s:s, s:o, s:o}", "type", 1, "name", sub,
                          "description", desc(help), "options", jopts);
    return s != NULL &&
           json_array_append_new(json_object_get(c, "options"), s) == 0;
}

/* A message's context menu (type 3, MESSAGE): a name as users read it,
 * no description, no options (the command layer finds the roll from the
 * message, cmd_reroll.c). */
static bool add_menu(json_t *cmds, const char *label, unsigned ctx)
{
    json_t *c = json_pack("{s:s, s:i, s:s, s:o}", "name", label, "type", 3,
                          "description", "", "contexts", contexts(ctx));
    if (c == NULL)
        return false;
    if (ctx & REG_CTX_GLOBAL)
        json_object_set_new(c, "integration_types", integration_types(ctx));
    return json_array_append_new(cmds, c) == 0;
}

static bool add_core(json_t *cmds, unsigned scope_ctx)
{
    size_t n;
    const struct cmd_spec *t = cmd_table(&n);
    for (size_t i = 0; i < n; i++) {
        const char *menu = cmd_menu_label(t[i].command);
        if (menu != NULL) {
            if (!add_menu(cmds, menu, (t[i].contexts & scope_ctx) |
                                          (scope_ctx & REG_CTX_GLOBAL)))
                return false;
            continue;
        }
        struct rs_opt_spec opts[CMD_MAX_SPEC_OPTS * 2];
        bool conflict;
        size_t no = cmd_core_opts(&t[i], opts, CMD_MAX_SPEC_OPTS * 2,
                                  &conflict);
        /* A form command's options are optional for Discord, so that it
         * sends the command without them and a form opens; the command
         * layer still requires them when typed (cmd_form.h). */
        if (cmd_form_command(t[i].command, t[i].sub))
            for (size_t k = 0; k < no; k++)
                opts[k].required = false;
        if (!add_command(cmds, t[i].command, t[i].sub, t[i].help,
                         (t[i].contexts & scope_ctx) |
                             (scope_ctx & REG_CTX_GLOBAL),
                         (t[i].flags & CMD_F_SERVER) != 0, opts, no))
            return false;
    }
    return true;
}

/* ---- localizations (docs/internals/i18n.md) ---------------------------- */

/* The description of a verb several chosen systems declare differently. */
#define SHARED_HELP N_("The fight's own system decides how it goes (%s)")

/* Set key_localizations on obj: each locale's catalog text for
 * (ctx, text), where it has one. The text stays what English registers;
 * desc() bounds a description at Discord's 100 characters. */
static bool localize(json_t *obj, const char *key, const char *ctx,
                     const char *text, bool is_desc,
                     const struct register_locale *locs, size_t nlocs)
{
    char field[40];
    snprintf(field, sizeof field, "%s_localizations", key);
    if (json_object_get(obj, field) != NULL || text == NULL || *text == '\0')
        return true;
    json_t *m = json_object();
    for (size_t i = 0; m != NULL && i < nlocs; i++) {
        if (!i18n_has(locs[i].lang, ctx, text))
            continue;
        const char *t = i18n_pget(locs[i].lang, ctx, text);
        json_object_set_new(m, locs[i].key,
                            is_desc ? desc(t) : json_string(t));
    }
    if (m == NULL)
        return false;
    if (json_object_size(m) == 0) {
        json_decref(m);
        return true;
    }
    return json_object_set_new(obj, field, m) == 0;
}

/* A command or option: its name, its description (a command with
 * subcommands describes itself by its name, top()), and its choices. */
static bool localize_one(json_t *o, bool top,
                         const struct register_locale *locs, size_t nlocs)
{
    const char *name = json_string_value(json_object_get(o, "name"));
    const char *d = json_string_value(json_object_get(o, "description"));
    bool menu = top && json_integer_value(json_object_get(o, "type")) == 3;
    if (!localize(o, "name", menu ? I18N_CTX_MENU : I18N_CTX_NAME, name,
                  false, locs, nlocs))
        return false;
    if (d != NULL && *d != '\0' &&
        !localize(o, "description", name && strcmp(d, name) == 0
                                        ? I18N_CTX_NAME : NULL,
                  d, true, locs, nlocs))
        return false;
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(o, "choices"), i, v)
        if (!localize(v, "name", I18N_CTX_CHOICE,
                      json_string_value(json_object_get(v, "name")), false,
                      locs, nlocs))
            return false;
    json_array_foreach(json_object_get(o, "options"), i, v)
        if (!localize_one(v, false, locs, nlocs))
            return false;
    return true;
}

static bool localize_all(json_t *cmds, const struct register_locale *locs,
                         size_t nlocs)
{
    size_t i;
    json_t *c;
    json_array_foreach(cmds, i, c)
        if (!localize_one(c, true, locs, nlocs))
            return false;
    return true;
}

/* SHARED_HELP's localizations on the (sub)command just added. */
static void shared_help_l10n(json_t *cmds, const char *verb, const char *sub,
                             const char *ids,
                             const struct register_locale *locs, size_t nlocs)
{
    json_t *c = NULL, *o;
    size_t i;
    json_array_foreach(cmds, i, o)
        if (strcmp(json_string_value(json_object_get(o, "name")), verb) == 0)
            c = o;
    if (c != NULL && sub != NULL)
        json_array_foreach(json_object_get(c, "options"), i, o)
            if (strcmp(json_string_value(json_object_get(o, "name")), sub) == 0)
                c = o;
    if (c == NULL)
        return;
    json_t *m = json_object();
    for (size_t k = 0; m != NULL && k < nlocs; k++) {
        char buf[REGISTER_DESC_MAX * 4 + 1];
        if (!i18n_has(locs[k].lang, NULL, SHARED_HELP))
            continue;
        snprintf(buf, sizeof buf, i18n_get(locs[k].lang, SHARED_HELP), ids);
        json_object_set_new(m, locs[k].key, desc(buf));
    }
    json_object_set_new(c, "description_localizations", m);
}

/* Every distinct verb (and sub) of the chosen systems, once, with the
 * union of their options. */
static bool add_systems(json_t *cmds, const struct rs_system *const *sys,
                        size_t nsys, const struct register_locale *locs,
                        size_t nlocs)
{
    for (size_t s = 0; s < nsys; s++)
        for (int i = 0; i < sys[s]->ncmds; i++) {
            const struct rs_cmd *rc = &sys[s]->cmds[i];
            bool done = false;
            for (size_t p = 0; p < s && !done; p++)
                done = rs_cmd_find(sys[p], rc->verb, rc->sub) != NULL;
            if (done)
                continue;
            const struct rs_opt_spec *lists[CMD_CONFIG_SYSTEMS_MAX];
            const char *owners[CMD_CONFIG_SYSTEMS_MAX];
            size_t nl = 0;
            bool same_help = true;
            for (size_t q = s; q < nsys && nl < CMD_CONFIG_SYSTEMS_MAX; q++) {
                const struct rs_cmd *o = rs_cmd_find(sys[q], rc->verb,
                                                     rc->sub);
                if (o == NULL)
                    continue;
                same_help = same_help && strcmp(o->help, rc->help) == 0;
                owners[nl] = sys[q]->id;
                lists[nl++] = o->opts;
            }
            struct rs_opt_spec opts[CMD_MAX_SPEC_OPTS * 2];
            bool conflict;
            size_t no = cmd_merge_opts(lists, nl, opts,
                                       CMD_MAX_SPEC_OPTS * 2, &conflict);
            char help[REGISTER_DESC_MAX + 1], ids[REGISTER_DESC_MAX + 1];
            if (same_help) {
                snprintf(help, sizeof help, "%s", rc->help);
            } else {
                int at = 0;
                for (size_t k = 0; k < nl && at >= 0 &&
                                   (size_t)at < sizeof ids; k++)
                    at += snprintf(ids + at, sizeof ids - (size_t)at,
                                   "%s%s", k ? ", " : "", owners[k]);
                snprintf(help, sizeof help, i18n_get(I18N_EN, SHARED_HELP),
                         ids);
            }
            if (!add_command(cmds, rc->verb, rc->sub, help, CMD_CTX_GUILD,
                             false, opts, no))
                return false;
            if (!same_help)
                shared_help_l10n(cmds, rc->verb, rc->sub, ids, locs, nlocs);
        }
    return true;
}

/* Discord's keys are i18n_code()'s; Latin American Spanish (es-419)
 * falls back to es-ES by itself, so it needs no key of its own. */
static const struct register_locale default_locales[] = {
    {"de", I18N_DE}, {"fr", I18N_FR}, {"es-ES", I18N_ES},
    {"pt-BR", I18N_PT_BR}, {"pl", I18N_PL},
};

const struct register_locale *register_locales(size_t *n)
{
    *n = sizeof default_locales / sizeof default_locales[0];
    return default_locales;
}

json_t *register_build_in(const struct rs_system *const *systems, size_t n,
                          unsigned flags, const struct register_locale *locs,
                          size_t nlocs)
{
    json_t *cmds = json_array();
    unsigned ctx = (flags & REGISTER_GUILD)
                       ? CMD_CTX_GUILD
                       : CMD_CTX_GUILD | CMD_CTX_DM | CMD_CTX_USER |
                             REG_CTX_GLOBAL;
    if (cmds == NULL)
        return NULL;
    if (((flags & REGISTER_CORE) && !add_core(cmds, ctx)) ||
        !add_systems(cmds, systems, n, locs, nlocs) ||
        !localize_all(cmds, locs, nlocs)) {
        json_decref(cmds);
        return NULL;
    }
    return cmds;
}

json_t *register_build(const struct rs_system *const *systems, size_t n,
                       unsigned flags)
{
    size_t nlocs;
    const struct register_locale *locs = register_locales(&nlocs);
    return register_build_in(systems, n, flags, locs, nlocs);
}

void register_hash(const char *text, char out[17])
{
    snprintf(out, 17, "%016" PRIx64, fnv_str(FNV_BASIS, text));
}

void register_input_hash(const char *build_id, const char *app,
                         const struct rs_system *const *systems, size_t n,
                         unsigned flags, char out[17])
{
    char num[16];
    /* each part ends in a separator no part contains, so two different
     * lists cannot run together into one text */
    uint64_t h = fnv_str(fnv_str(FNV_BASIS, build_id), "\n");
    h = fnv_str(fnv_str(h, app ? app : ""), "\n");
    snprintf(num, sizeof num, "%u\n", flags);
    h = fnv_str(h, num);
    for (size_t i = 0; i < n; i++)
        h = fnv_str(fnv_str(h, systems[i]->id), "\n");
    snprintf(out, 17, "%016" PRIx64, h);
}

struct build_id {
    char *out;
    bool found;
};

/* The build id is a note in the program's own segments: the first
 * object dl_iterate_phdr() reports is the program. */
static int on_object(struct dl_phdr_info *info, size_t size, void *ud)
{
    struct build_id *b = ud;
    (void)size;
    for (int i = 0; i < info->dlpi_phnum && !b->found; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_NOTE)
            continue;
        const unsigned char *p =
            (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
        const unsigned char *end = p + ph->p_memsz;
        while ((size_t)(end - p) >= sizeof(ElfW(Nhdr))) {
            const ElfW(Nhdr) *nh = (const void *)p;
            const unsigned char *name = p + sizeof *nh;
            size_t name_pad = (nh->n_namesz + 3u) & ~(size_t)3;
            size_t desc_pad = (nh->n_descsz + 3u) & ~(size_t)3;
            if ((size_t)(end - name) < name_pad + nh->n_descsz)
                break;
            const unsigned char *id = name + name_pad;
            if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
                memcmp(name, "GNU", 4) == 0 && nh->n_descsz > 0 &&
                nh->n_descsz * 2 < REGISTER_BUILD_ID_MAX) {
                for (size_t k = 0; k < nh->n_descsz; k++)
                    snprintf(b->out + 2 * k, 3, "%02x", id[k]);
                b->found = true;
                break;
            }
            if ((size_t)(end - id) < desc_pad)
                break;
            p = id + desc_pad;
        }
    }
    return 1;   /* the program only */
}

bool register_build_id(char out[REGISTER_BUILD_ID_MAX])
{
    struct build_id b = {.out = out, .found = false};
    out[0] = '\0';
    dl_iterate_phdr(on_object, &b);
    return b.found;
}
