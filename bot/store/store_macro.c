/*
 * store_macro.c - store.h's saved rolls (macros): checks names, scopes
 * and lengths once for both backends, then dispatches to their ops
 * (store_sqlite_macro.c, store_pg_macro.c).
 */
#include <string.h>

#include "store_backend.h"

bool store_macro_name_ok(const char *name)
{
    size_t n = strnlen(name, STORE_MACRO_NAME_MAX + 1);
    if (n == 0 || n > STORE_MACRO_NAME_MAX || name[0] < 'a' || name[0] > 'z')
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
            return false;
    }
    return true;
}

/* One of guild and user names the scope, never both. */
static bool scope_ok(uint64_t guild, uint64_t user)
{
    return (guild == 0) != (user == 0);
}

static enum bot_err check_macro(struct store *s, const struct store_macro *m)
{
    if (!scope_ok(m->guild, m->user))
        return store__fail(s, BOT_INVALID, "a macro of no scope or of two");
    if (!store_macro_name_ok(m->name))
        return store__fail(s, BOT_INVALID, "a macro name outside [a-z0-9_] "
                           "or over %d bytes", STORE_MACRO_NAME_MAX);
    size_t n = strnlen(m->dice, sizeof m->dice);
    if (n == 0)
        return store__fail(s, BOT_INVALID, "macro %s: no dice", m->name);
    if (n > STORE_MACRO_DICE_MAX)
        return store__fail(s, BOT_LIMIT, "macro %s: dice over %d bytes",
                           m->name, STORE_MACRO_DICE_MAX);
    return BOT_OK;
}

enum bot_err store_macro_put(struct store *s, const struct store_macro *m,
                             bool replace)
{
    enum bot_err e = check_macro(s, m);
    return e != BOT_OK ? e : s->ops->macro_put(s, m, replace);
}

enum bot_err store_macro_get(struct store *s, uint64_t guild, uint64_t user,
                             const char *name, struct store_macro *out)
{
    if (!scope_ok(guild, user) || !store_macro_name_ok(name))
        return store__fail(s, BOT_NOTFOUND, "no such macro");
    return s->ops->macro_get(s, guild, user, name, out);
}

enum bot_err store_macro_delete(struct store *s, uint64_t guild,
                                uint64_t user, const char *name)
{
    if (!scope_ok(guild, user) || !store_macro_name_ok(name))
        return store__fail(s, BOT_NOTFOUND, "no such macro");
    return s->ops->macro_delete(s, guild, user, name);
}

enum bot_err store_macro_count(struct store *s, uint64_t guild, uint64_t user,
                               int64_t *n)
{
    if (!scope_ok(guild, user))
        return store__fail(s, BOT_INVALID, "a macro scope of none or two");
    return s->ops->macro_count(s, guild, user, n);
}

enum bot_err store_macro_list(struct store *s, uint64_t guild, uint64_t user,
                              const char *prefix, size_t max,
                              store_macro_fn *fn, void *ctx)
{
    if (!scope_ok(guild, user))
        return store__fail(s, BOT_INVALID, "a macro scope of none or two");
    if (max < 1)
        return store__fail(s, BOT_INVALID, "a macro list of none");
    /* A prefix no name can start with: nothing to find. */
    if (prefix[0] != '\0' && !store_macro_name_ok(prefix))
        return BOT_OK;
    return s->ops->macro_list(s, guild, user, prefix, max, fn, ctx);
}

enum bot_err store_macro_export(struct store *s, store_macro_fn *fn,
                                void *ctx)
{
    return s->ops->macro_export(s, fn, ctx);
}

enum bot_err store_import_macro(struct store *s, const struct store_macro *m)
{
    return store_macro_put(s, m, false);
}
