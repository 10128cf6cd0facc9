/*
 * rs.c - the compiled-in registry of rulesets.
 *
 * One line per ruleset, no dlopen and no self-registration, so the list is
 * visible here and a test checks every row honours the rs.h contract.
 *
 * RS_OPTIONAL rows name rulesets that only some programs link (the toy
 * ruleset of tests/rulesets/toy, linked into the test build of fray): the
 * reference is weak, so a program without that ruleset simply does not
 * list it.
 */
#include "rs.h"

#include <string.h>

#include "eng_text.h"

#define RS_BUILTIN(id) extern const struct rs_system rs_##id;
#define RS_OPTIONAL(id) \
    extern const struct rs_system rs_##id __attribute__((weak));
#include "rs_registry.def"
#undef RS_BUILTIN
#undef RS_OPTIONAL

static const struct rs_system *const rs_registry[] = {
#define RS_BUILTIN(id) &rs_##id,
#define RS_OPTIONAL(id) &rs_##id,
#include "rs_registry.def"
#undef RS_BUILTIN
#undef RS_OPTIONAL
};

#define RS_ROWS (sizeof rs_registry / sizeof rs_registry[0])

const struct rs_system *rs_find(const char *id)
{
    if (id == NULL)
        return NULL;
    for (size_t i = 0; i < RS_ROWS; i++)
        if (rs_registry[i] != NULL &&
            eng_text_casecmp(rs_registry[i]->id, id) == 0)
            return rs_registry[i];
    return NULL;
}

int rs_index(const struct rs_system *s)
{
    int n = 0;
    for (size_t i = 0; i < RS_ROWS; i++) {
        if (rs_registry[i] == NULL)
            continue;
        if (rs_registry[i] == s)
            return n;
        n++;
    }
    return -1;
}

const struct rs_system *const *rs_all(size_t *n)
{
    /* Optional rows come last (rs_registry.def), so the linked rulesets
     * are the rows before the first missing one. */
    size_t k = 0;
    while (k < RS_ROWS && rs_registry[k] != NULL)
        k++;
    *n = k;
    return rs_registry;
}

const struct rs_cmd *rs_cmd_find(const struct rs_system *s, const char *verb,
                                 const char *sub)
{
    if (s == NULL || verb == NULL)
        return NULL;
    bool nosub = sub == NULL || sub[0] == '\0';
    for (int i = 0; i < s->ncmds; i++) {
        const struct rs_cmd *c = &s->cmds[i];
        if (eng_text_casecmp(c->verb, verb) != 0)
            continue;
        if (c->sub == NULL ? nosub
                           : !nosub && eng_text_casecmp(c->sub, sub) == 0)
            return c;
    }
    return NULL;
}

const struct rs_opt_spec *rs_ext_opts(const struct rs_system *s,
                                      const char *command)
{
    if (s == NULL || s->exts == NULL)
        return NULL;
    for (const struct rs_ext *x = s->exts; x->command != NULL; x++)
        if (eng_text_casecmp(x->command, command) == 0)
            return x->opts;
    return NULL;
}
