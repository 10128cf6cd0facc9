/*
 * register.c - Discord command definitions from the one command table.
 */
#include "register.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cmd_table.h"

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

static json_t *build_opts(const struct cmd_spec *sp)
{
    json_t *arr = json_array();
    /* Discord wants required options first */
    for (int pass = 0; pass < 2 && arr; pass++)
        for (int i = 0; i < CMD_MAX_SPEC_OPTS && sp->opts[i].name; i++) {
            const struct cmd_opt_spec *o = &sp->opts[i];
            json_t *jo;
            if (o->required != (pass == 0))
                continue;
            jo = json_pack("{s:i, s:s, s:o, s:b}", "type", (int)o->type,
                           "name", o->name, "description", desc(o->help),
                           "required", o->required);
            if (!jo || json_array_append_new(arr, jo) != 0) {
                json_decref(arr);
                return NULL;
            }
            if (o->type == CMD_OPT_INTEGER && o->min < o->max) {
                json_object_set_new(jo, "min_value", json_integer(o->min));
                json_object_set_new(jo, "max_value", json_integer(o->max));
            }
            if (o->type == CMD_OPT_STRING && o->max > 0) {
                json_object_set_new(jo, "min_length",
                                    json_integer(o->min > 0 ? o->min : 0));
                json_object_set_new(jo, "max_length", json_integer(o->max));
            }
            if (o->type == CMD_OPT_CHANNEL)   /* text, news, threads */
                json_object_set_new(jo, "channel_types",
                                    json_pack("[i,i,i,i,i]", 0, 5, 10, 11,
                                              12));
            if (o->complete != CMD_COMPLETE_NONE &&
                (o->type == CMD_OPT_STRING || o->type == CMD_OPT_INTEGER))
                json_object_set_new(jo, "autocomplete", json_true());
        }
    return arr;
}

json_t *register_build(void)
{
    size_t n = 0;
    const struct cmd_spec *t = cmd_table(&n);
    json_t *cmds = json_array();

    for (size_t i = 0; i < n && cmds; i++) {
        json_t *c = NULL, *opts;
        size_t j;
        /* one command object per distinct name, first row wins */
        for (j = 0; j < json_array_size(cmds); j++) {
            json_t *e = json_array_get(cmds, j);
            if (strcmp(json_string_value(json_object_get(e, "name")),
                       t[i].command) == 0) {
                c = e;
                break;
            }
        }
        if (!c) {
            c = json_pack("{s:s, s:i, s:o, s:[i], s:[]}", "name",
                          t[i].command, "type", 1, "description",
                          desc(t[i].sub ? t[i].command : t[i].help),
                          "contexts", 0, "options");
            if (!c || json_array_append_new(cmds, c) != 0)
                goto fail;
        }
        opts = build_opts(&t[i]);
        if (!opts)
            goto fail;
        if (t[i].sub) {
            json_t *sub = json_pack("{s:i, s:s, s:o, s:o}", "type", 1, "name",
                                    t[i].sub, "description", desc(t[i].help),
                                    "options", opts);
            if (!sub || json_array_append_new(json_object_get(c, "options"),
                                              sub) != 0)
                goto fail;
        } else {
            json_object_set_new(c, "options", opts);
        }
    }
    return cmds;
fail:
    json_decref(cmds);
    return NULL;
}

void register_hash(const char *text, char out[17])
{
    uint64_t h = UINT64_C(14695981039346656037);
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        h ^= *p;
        h *= UINT64_C(1099511628211);
    }
    snprintf(out, 17, "%016" PRIx64, h);
}
