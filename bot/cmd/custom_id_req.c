/*
 * custom_id_req.c - a control's custom_id and chosen value as the typed
 * request (custom_id_req.h).
 */
#include "custom_id_req.h"

#include <stdio.h>
#include <string.h>

bool cmd_req_add_opt(struct cmd_req *r, const char *name,
                     const char *value, char *why, size_t whylen)
{
    if (r->nopts >= CMD_MAX_OPTS) {
        snprintf(why, whylen, "too many options (limit is %d)", CMD_MAX_OPTS);
        return false;
    }
    if (strlen(value) > CMD_MAX_OPT_VALUE) {
        snprintf(why, whylen, "option %s is too long (limit is %d bytes)",
                 name, CMD_MAX_OPT_VALUE);
        return false;
    }
    r->opts[r->nopts].name = name;
    r->opts[r->nopts].value = value;
    r->nopts++;
    return true;
}

static bool add_presets(const struct custom_id *cid, struct cmd_req *req,
                        char *why, size_t whylen)
{
    for (int i = 0; i < cid->npresets; i++)
        if (!cmd_req_add_opt(req, cid->presets[i].name,
                             cid->presets[i].value, why, whylen))
            return false;
    return true;
}

bool custom_id_req(const struct custom_id *cid, bool is_select,
                   const char *value, struct cmd_req *req, char *why,
                   size_t whylen)
{
    req->command = cid->command;
    req->sub = cid->sub[0] ? cid->sub : NULL;
    req->expect_version = cid->version;
    req->expect_fight = cid->fight;
    if (cid->version == CUSTOM_ID_ANY_VERSION) {
        /* a picker: its fight, any version, as typed (custom_id.h) */
        req->expect_version = -1;
        req->picker = true;
    }
    if (!is_select && cid->select_name[0])   /* a picker's button: its */
        return add_presets(cid, req, why, whylen);  /* picker opens */
    if (!is_select)
        return !cid->opt_name[0] || !cid->has_value ||
               cmd_req_add_opt(req, cid->opt_name, cid->opt_value, why,
                               whylen);
    if (req->picker && value == NULL) {
        snprintf(why, whylen, "a picker's answer without a value");
        return false;
    }
    if (cid->select_name[0]) {
        if (!add_presets(cid, req, why, whylen))
            return false;
        return value == NULL ||
               cmd_req_add_opt(req, cid->select_name, value, why, whylen);
    }
    return !cid->opt_name[0] || value == NULL ||
           cmd_req_add_opt(req, cid->opt_name, value, why, whylen);
}

bool custom_id_req_values(const struct custom_id *cid,
                          const char *const *values, int n,
                          struct cmd_req *req, char *why, size_t whylen)
{
    if (n > 1 && (!cid->select_name[0] ||
                  cid->version != CUSTOM_ID_ANY_VERSION)) {
        snprintf(why, whylen, "this menu takes one choice, not %d", n);
        return false;
    }
    if (n - 1 > CMD_MAX_PICKED) {
        snprintf(why, whylen, "too many choices (limit is %d)",
                 CMD_MAX_PICKED + 1);
        return false;
    }
    if (!custom_id_req(cid, true, n > 0 ? values[0] : NULL, req, why,
                       whylen))
        return false;
    for (int i = 1; i < n; i++) {
        if (values[i] == NULL) {
            snprintf(why, whylen, "a picker's answer without a value");
            return false;
        }
        req->picked[req->npicked++] = values[i];
    }
    return true;
}
