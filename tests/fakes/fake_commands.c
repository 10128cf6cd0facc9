/*
 * fake_commands.c - application command bulk overwrite: validation by
 * Discord's rules (application-commands.mdx) and storage of what was last
 * registered per scope ("global" or a guild id).
 */
#include "fake.h"

#include <stdio.h>
#include <string.h>

/* Decode one UTF-8 code point; returns bytes used (>= 1). */
static size_t utf8_next(const unsigned char *p, uint32_t *cp)
{
    if (p[0] < 0x80) {
        *cp = p[0];
        return 1;
    }
    size_t n = (p[0] & 0xE0) == 0xC0 ? 2 : (p[0] & 0xF0) == 0xE0 ? 3
             : (p[0] & 0xF8) == 0xF0 ? 4 : 1;
    uint32_t v = n == 2 ? p[0] & 0x1F : n == 3 ? p[0] & 0x0F : p[0] & 0x07;
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80) {
            *cp = 0xFFFD;
            return i;
        }
        v = (v << 6) | (p[i] & 0x3F);
    }
    *cp = v;
    return n;
}

/* ^[-_'\p{L}\p{N}]{1,32}$ in lowercase form. Non-ASCII code points are
 * taken as letters, except Latin-1 capitals (a cheap lowercase check). */
static bool chat_name_ok(const char *name)
{
    size_t n = 0;
    const unsigned char *p = (const unsigned char *)name;
    while (*p) {
        uint32_t cp;
        p += utf8_next(p, &cp);
        n++;
        if (cp < 0x80) {
            if (!((cp >= 'a' && cp <= 'z') || (cp >= '0' && cp <= '9') ||
                  cp == '-' || cp == '_' || cp == '\''))
                return false;
        } else if ((cp >= 0xC0 && cp <= 0xDE && cp != 0xD7) || cp < 0xA0) {
            return false;
        }
    }
    return n >= 1 && n <= FAKE_CMD_NAME_MAX;
}

static void err_at(json_t *errs, const char *base, const char *key,
                   const char *code, const char *msg)
{
    char path[160];
    fake_pathf(path, sizeof path, "%s%s%s", base, base[0] && key[0] ? "." : "",
             key);
    fake_err_add(errs, path, code, msg);
}

/* Discord's 32 locales (reference.mdx, Locales): the keys a
 * name_localizations or description_localizations map may hold. */
static const char *const locales[] = {
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it",
    "lt", "hu", "nl", "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr",
    "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko",
    NULL};

static bool locale_known(const char *k)
{
    for (size_t i = 0; locales[i] != NULL; i++)
        if (strcmp(locales[i], k) == 0)
            return true;
    return false;
}

enum l10n_kind { L10N_CHAT_NAME, L10N_ANY_NAME, L10N_TEXT };

/* obj's <key>_localizations, if any: an object of known locales to
 * strings, each obeying the rule of the field it localizes (a chat name's
 * pattern, 1..32 for other names, min..max for text). Returns how much
 * longer than the default the longest localization is: the 8000 total
 * counts only the longest (application-commands.mdx). */
static size_t check_l10n(json_t *errs, const char *base, const json_t *obj,
                         const char *key, enum l10n_kind kind, size_t min,
                         size_t max)
{
    char field[48];
    fake_pathf(field, sizeof field, "%s_localizations", key);
    const json_t *m = json_object_get(obj, field);
    if (m == NULL || json_is_null(m))
        return 0;
    if (!json_is_object(m)) {
        err_at(errs, base, field, "DICT_TYPE_CONVERT",
               "Only dictionaries may be used in a DictType");
        return 0;
    }
    const char *def = json_string_value(json_object_get(obj, key));
    size_t deflen = def ? fake_utf8_len(def) : 0, longest = deflen;
    const char *k;
    const json_t *v;
    json_object_foreach((json_t *)m, k, v) {
        char at[96];
        fake_pathf(at, sizeof at, "%s.%s", field, k);
        const char *s = json_string_value(v);
        if (!locale_known(k)) {
            err_at(errs, base, at, "ENUM_TYPE_COERCE",
                   "Value is not a valid enum value.");
            continue;
        }
        if (s == NULL) {
            err_at(errs, base, at, "BASE_TYPE_BAD_TYPE", "Must be a string.");
            continue;
        }
        size_t n = fake_utf8_len(s);
        if (kind == L10N_CHAT_NAME ? !chat_name_ok(s)
            : kind == L10N_ANY_NAME ? n < 1 || n > FAKE_CMD_NAME_MAX
                                    : n < min || n > max)
            err_at(errs, base, at, kind == L10N_TEXT ? "BASE_TYPE_BAD_LENGTH"
                   : "APPLICATION_COMMAND_INVALID_NAME",
                   kind == L10N_TEXT ? "Must be between 1 and 100 in length."
                                     : "Command name is invalid");
        if (n > longest)
            longest = n;
    }
    return longest - deflen;
}

/* Within one options array, in each locale: the names users see (the
 * localized one, else the default) are unique, and no localized name is
 * another option's default name. */
static void check_l10n_unique(json_t *errs, const char *ob, const json_t *opts)
{
    for (size_t l = 0; locales[l] != NULL; l++) {
        json_t *seen = json_object();
        size_t i, j;
        const json_t *o, *p;
        json_array_foreach(opts, i, o) {
            const char *def = json_string_value(json_object_get(o, "name"));
            const char *loc = json_string_value(json_object_get(
                json_object_get(o, "name_localizations"), locales[l]));
            const char *eff = loc ? loc : def;
            if (eff == NULL)
                continue;
            char b[160];
            fake_pathf(b, sizeof b, "%s.%zu.name_localizations.%s", ob, i,
                       locales[l]);
            if (json_object_get(seen, eff))
                fake_err_add(errs, b, "APPLICATION_COMMAND_OPTIONS_NAME_"
                             "ALREADY_EXISTS", "Option names must be unique");
            json_object_set_new(seen, eff, json_true());
            if (loc == NULL || (def && strcmp(loc, def) == 0))
                continue;
            json_array_foreach(opts, j, p) {
                const char *other = json_string_value(json_object_get(p,
                                                                      "name"));
                if (j != i && other && strcmp(other, loc) == 0)
                    fake_err_add(errs, b, "APPLICATION_COMMAND_OPTIONS_NAME_"
                                 "ALREADY_EXISTS", "Localized option name "
                                 "matches another option's name");
            }
        }
        json_decref(seen);
    }
}

static void check_text(json_t *errs, const char *base, const char *key,
                       const json_t *v, size_t min, size_t max, size_t *total)
{
    const char *s = json_string_value(v);
    if (s == NULL) {
        if (min > 0)
            err_at(errs, base, key, "BASE_TYPE_REQUIRED",
                   "This field is required");
        return;
    }
    size_t n = fake_utf8_len(s);
    *total += n;
    if (n < min || n > max) {
        char msg[64];
        snprintf(msg, sizeof msg, "Must be between %zu and %zu in length.",
                 min, max);
        err_at(errs, base, key, "BASE_TYPE_BAD_LENGTH", msg);
    }
}

static void check_choices(json_t *errs, const char *base, const json_t *o,
                          int type, size_t *total)
{
    const json_t *ch = json_object_get(o, "choices");
    if (ch == NULL)
        return;
    if (type != 3 && type != 4 && type != 10) {
        err_at(errs, base, "choices", "APPLICATION_COMMAND_OPTION_CHOICES",
               "Choices are only allowed for STRING, INTEGER and NUMBER");
        return;
    }
    if (json_is_true(json_object_get(o, "autocomplete")))
        err_at(errs, base, "autocomplete",
               "AUTOCOMPLETE_CANNOT_HAVE_CHOICES",
               "Autocomplete cannot be enabled with choices");
    if (json_array_size(ch) > FAKE_CHOICES_MAX)
        err_at(errs, base, "choices", "BASE_TYPE_MAX_LENGTH",
               "Must be 25 or fewer in length.");
    size_t i;
    const json_t *c;
    json_array_foreach(ch, i, c) {
        char cb[128];
        fake_pathf(cb, sizeof cb, "%s%schoices.%zu", base, base[0] ? "." : "",
                 i);
        check_text(errs, cb, "name", json_object_get(c, "name"), 1, 100,
                   total);
        *total += check_l10n(errs, cb, c, "name", L10N_TEXT, 1, 100);
        const json_t *v = json_object_get(c, "value");
        if (type == 3)
            check_text(errs, cb, "value", v, 1, 100, total);
        else if ((type == 4 && !json_is_integer(v)) ||
                 (type == 10 && !json_is_number(v)))
            err_at(errs, cb, "value", "BASE_TYPE_BAD_TYPE",
                   "Value does not match the option type");
    }
}

/* depth 0: options of a command; 1: of a group or subcommand. parent_type
 * is 0 for the command, else the SUB_COMMAND(1)/GROUP(2) holding them. */
static void check_options(json_t *errs, const char *base, const json_t *opts,
                          int parent_type, size_t *total)
{
    char ob[128];
    fake_pathf(ob, sizeof ob, "%s%soptions", base, base[0] ? "." : "");
    if (!json_is_array(opts)) {
        fake_err_add(errs, ob, "BASE_TYPE_BAD_TYPE", "Must be an array.");
        return;
    }
    if (json_array_size(opts) > FAKE_CMD_OPTIONS_MAX)
        fake_err_add(errs, ob, "BASE_TYPE_MAX_LENGTH",
                     "Must be 25 or fewer in length.");
    json_t *names = json_object();
    bool optional_seen = false, subs = false, plain = false;
    size_t i;
    const json_t *o;
    json_array_foreach(opts, i, o) {
        char b[160];
        fake_pathf(b, sizeof b, "%s.%zu", ob, i);
        int t = (int)json_integer_value(json_object_get(o, "type"));
        if (t < 1 || t > 11) {
            err_at(errs, b, "type", "BASE_TYPE_CHOICES",
                   "Value must be one of (1, 2, ..., 11).");
            continue;
        }
        const char *name = json_string_value(json_object_get(o, "name"));
        if (name == NULL || !chat_name_ok(name))
            err_at(errs, b, "name", "APPLICATION_COMMAND_INVALID_NAME",
                   "Command name is invalid");
        else if (json_object_get(names, name))
            err_at(errs, b, "name", "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_"
                   "EXISTS", "Option names must be unique");
        else
            json_object_set_new(names, name, json_true());
        if (name)
            *total += fake_utf8_len(name);
        *total += check_l10n(errs, b, o, "name", L10N_CHAT_NAME, 1, 32);
        check_text(errs, b, "description", json_object_get(o, "description"),
                   1, FAKE_CMD_DESC_MAX, total);
        *total += check_l10n(errs, b, o, "description", L10N_TEXT, 1,
                             FAKE_CMD_DESC_MAX);
        bool sub = t == 1 || t == 2;
        subs |= sub;
        plain |= !sub;
        if ((parent_type == 1 && sub) || (parent_type == 2 && t != 1))
            err_at(errs, b, "type", "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                   "Sub-command and sub-command group option types are "
                   "mutually exclusive to all other types");
        if (sub) {
            const json_t *inner = json_object_get(o, "options");
            if (inner)
                check_options(errs, b, inner, t, total);
            continue;
        }
        bool req = json_is_true(json_object_get(o, "required"));
        if (req && optional_seen)
            err_at(errs, b, "required",
                   "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                   "Required options must be placed before non-required "
                   "options");
        optional_seen |= !req;
        check_choices(errs, b, o, t, total);
        const json_t *mn = json_object_get(o, "min_length");
        const json_t *mx = json_object_get(o, "max_length");
        if ((mn || mx) && t != 3)
            err_at(errs, b, "min_length", "BASE_TYPE_BAD_TYPE",
                   "min_length/max_length are only valid for STRING");
        if (mn && (json_integer_value(mn) < 0 || json_integer_value(mn) > 6000))
            err_at(errs, b, "min_length", "NUMBER_TYPE_MAX",
                   "int value should be between 0 and 6000.");
        if (mx && (json_integer_value(mx) < 1 || json_integer_value(mx) > 6000))
            err_at(errs, b, "max_length", "NUMBER_TYPE_MAX",
                   "int value should be between 1 and 6000.");
        if (json_object_get(o, "channel_types") && t != 7)
            err_at(errs, b, "channel_types", "BASE_TYPE_BAD_TYPE",
                   "channel_types is only valid for CHANNEL");
    }
    check_l10n_unique(errs, ob, opts);
    if (subs && plain)
        fake_err_add(errs, ob, "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                     "Sub-command and sub-command group option types are "
                     "mutually exclusive to all other types");
    json_decref(names);
}

/* integration_types ([0, 1]: guild, user install) and contexts ([0, 1,
 * 2]: guild, the bot's DM, other DMs; no BOT_DM on guild commands): an
 * array of distinct known values. */
static void check_enum_list(json_t *errs, const char *b, const json_t *c,
                            const char *key, int max, int banned)
{
    const json_t *a = json_object_get(c, key);
    unsigned seen = 0;
    size_t i;
    const json_t *v;
    if (a == NULL || json_is_null(a))
        return;
    if (!json_is_array(a)) {
        err_at(errs, b, key, "BASE_TYPE_BAD_TYPE", "Must be an array.");
        return;
    }
    json_array_foreach(a, i, v) {
        char p[64];
        json_int_t n = json_integer_value(v);
        fake_pathf(p, sizeof p, "%s.%zu", key, i);
        if (!json_is_integer(v) || n < 0 || n > max)
            err_at(errs, b, p, "BASE_TYPE_CHOICES", max == 1
                   ? "Value must be one of (0, 1)."
                   : "Value must be one of (0, 1, 2).");
        else if (n == banned)
            err_at(errs, b, p, "APPLICATION_COMMAND_CONTEXT_INVALID",
                   "Guild commands do not support the BOT_DM context");
        else if (seen & (1u << n))
            err_at(errs, b, p, "BASE_TYPE_DUPLICATE", "Duplicate value");
        else
            seen |= 1u << n;
    }
}

/* A permission bit set: a string of decimal digits, or null. */
static bool perms_ok(const json_t *p)
{
    const char *s = json_string_value(p);
    if (p == NULL || json_is_null(p))
        return true;
    if (s == NULL || *s == '\0' || strlen(s) > 20)
        return false;
    return strspn(s, "0123456789") == strlen(s);
}

json_t *fake_validate_commands(const json_t *arr)
{
    return fake_validate_commands_scope(arr, false);
}

json_t *fake_validate_commands_scope(const json_t *arr, bool guild)
{
    json_t *errs = json_object();
    if (!json_is_array(arr)) {
        fake_err_add(errs, "", "BASE_TYPE_BAD_TYPE", "Must be an array.");
        return errs;
    }
    json_t *names = json_object();
    int counts[5] = { 0 };
    size_t i;
    const json_t *c;
    json_array_foreach(arr, i, c) {
        char b[24];
        fake_pathf(b, sizeof b, "%zu", i);
        if (!json_is_object(c)) {
            fake_err_add(errs, b, "MODEL_TYPE_CONVERT",
                         "Only dictionaries may be used in a ModelType");
            continue;
        }
        const json_t *jt = json_object_get(c, "type");
        int t = jt ? (int)json_integer_value(jt) : 1;
        if (t < 1 || t > 4) {
            err_at(errs, b, "type", "BASE_TYPE_CHOICES",
                   "Value must be one of (1, 2, 3, 4).");
            continue;
        }
        counts[t]++;
        size_t total = 0;
        const char *name = json_string_value(json_object_get(c, "name"));
        if (name == NULL)
            err_at(errs, b, "name", "BASE_TYPE_REQUIRED",
                   "This field is required");
        else if (t == 1 ? !chat_name_ok(name)
                        : fake_utf8_len(name) < 1 ||
                              fake_utf8_len(name) > FAKE_CMD_NAME_MAX)
            err_at(errs, b, "name", "APPLICATION_COMMAND_INVALID_NAME",
                   "Command name is invalid");
        if (name) {
            char key[64];
            fake_pathf(key, sizeof key, "%d:%s", t, name);
            if (json_object_get(names, key))
                err_at(errs, b, "name", "APPLICATION_COMMANDS_DUPLICATE_NAME",
                       "Application command names must be unique");
            json_object_set_new(names, key, json_true());
            total += fake_utf8_len(name);
        }
        total += check_l10n(errs, b, c, "name",
                            t == 1 ? L10N_CHAT_NAME : L10N_ANY_NAME, 1, 32);
        const json_t *desc = json_object_get(c, "description");
        if (t == 1) {
            check_text(errs, b, "description", desc, 1, FAKE_CMD_DESC_MAX,
                       &total);
            total += check_l10n(errs, b, c, "description", L10N_TEXT, 1,
                                FAKE_CMD_DESC_MAX);
        }
        else if (json_string_value(desc) && json_string_value(desc)[0])
            err_at(errs, b, "description", "BASE_TYPE_BAD_LENGTH",
                   "Context menu commands cannot have a description");
        const json_t *opts = json_object_get(c, "options");
        if (opts && t != 1)
            err_at(errs, b, "options", "BASE_TYPE_BAD_TYPE",
                   "Only CHAT_INPUT commands can have options");
        else if (opts)
            check_options(errs, b, opts, 0, &total);
        const json_t *perms = json_object_get(c, "default_member_permissions");
        if (!perms_ok(perms))
            err_at(errs, b, "default_member_permissions", "BASE_TYPE_BAD_TYPE",
                   "Must be a string bitfield or null.");
        check_enum_list(errs, b, c, "integration_types", 1, -1);
        check_enum_list(errs, b, c, "contexts", 2, guild ? 1 : -1);
        if (guild && t == 4)
            err_at(errs, b, "type", "APPLICATION_COMMAND_TYPE_INVALID",
                   "An entry point command is global only");
        if (total > FAKE_CMD_TOTAL_MAX)
            fake_err_add(errs, b, "APPLICATION_COMMAND_TOO_LARGE",
                         "Command exceeds maximum size (8000)");
    }
    if (counts[1] > FAKE_CMD_CHAT_MAX || counts[2] > FAKE_CMD_CTX_MAX ||
        counts[3] > FAKE_CMD_CTX_MAX || counts[4] > 1)
        fake_err_add(errs, "", "APPLICATION_COMMANDS_MAX",
                     "Maximum number of application commands reached "
                     "(100 chat input, 15 user, 15 message)");
    json_decref(names);
    if (json_object_size(errs) > 0)
        return errs;
    json_decref(errs);
    return NULL;
}

json_t *fake_commands_store(struct fake_server *s, const char *scope,
                            const json_t *arr, const char *guild_id)
{
    json_t *old = json_object_get(s->commands, scope);
    json_t *out = json_array();
    size_t i;
    const json_t *c;
    json_array_foreach(arr, i, c) {
        json_t *n = json_deep_copy(c);
        const char *name = json_string_value(json_object_get(n, "name"));
        int type = json_object_get(n, "type")
                       ? (int)json_integer_value(json_object_get(n, "type"))
                       : 1;
        json_object_set_new(n, "type", json_integer(type));
        const char *keep = json_string_value(json_object_get(n, "id"));
        size_t j;
        const json_t *o;
        json_array_foreach(old, j, o)
            if (!keep && name &&
                strcmp(json_string_value(json_object_get(o, "name")), name) ==
                    0 &&
                json_integer_value(json_object_get(o, "type")) == type)
                keep = json_string_value(json_object_get(o, "id"));
        char id[24], ver[24];
        fake_snowflake(s, id);
        fake_snowflake(s, ver);
        json_object_set_new(n, "id", json_string(keep ? keep : id));
        json_object_set_new(n, "application_id", json_string(s->opt.app_id));
        json_object_set_new(n, "version", json_string(ver));
        if (guild_id)
            json_object_set_new(n, "guild_id", json_string(guild_id));
        if (!json_object_get(n, "default_member_permissions"))
            json_object_set_new(n, "default_member_permissions", json_null());
        if (!json_object_get(n, "nsfw"))
            json_object_set_new(n, "nsfw", json_false());
        json_array_append_new(out, n);
    }
    json_object_set_new(s->commands, scope, out);
    return out;
}
