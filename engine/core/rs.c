/*
 * rs.c - the registry of rulesets.
 *
 * No dlopen and no self-registration: the rows are compiled in, generated
 * from the ruleset folders (rs_registry.h), and a test checks that every
 * row honours the rs.h contract.
 */
#include "rs.h"

#include <string.h>

#include "eng_text.h"
#include "rs_registry.h"

const struct rs_system *rs_find(const char *id)
{
    if (id == NULL)
        return NULL;
    for (size_t i = 0; i < rs_registry_rows; i++)
        if (eng_text_casecmp(rs_registry[i]->id, id) == 0)
            return rs_registry[i];
    return NULL;
}

int rs_index(const struct rs_system *s)
{
    for (size_t i = 0; i < rs_registry_rows; i++)
        if (rs_registry[i] == s)
            return (int)i;
    return -1;
}

const struct rs_system *const *rs_all(size_t *n)
{
    *n = rs_registry_rows;
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
