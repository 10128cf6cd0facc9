/*
 * cmd_resource.c - /combat resource: a combatant's named counts that
 * reset (enc_res.h). Whoever may change the combatant's hp may change
 * them, and a player's change to another's goes to the GM as a proposal
 * like a change of hp (cmd_touch_of).
 */
#include <stdio.h>
#include <string.h>

#include "cmd_picker.h"
#include "cmd_run.h"
#include "enc_res.h"
#include "eng_text.h"
#include "rs.h"

/* "5-6" (or "5"): the lowest d6 face that recharges; 0 when absent, -1
 * when it is not that. */
static int32_t recharge_of(const char *s)
{
    if (s == NULL)
        return 0;
    int64_t lo;
    const char *dash = strchr(s, '-');
    char buf[8];
    size_t n = dash != NULL ? (size_t)(dash - s) : strlen(s);
    if (n == 0 || n >= sizeof buf)
        return -1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    if (!eng_text_to_int(buf, &lo) || lo < 1 || lo > 6)
        return -1;
    if (dash != NULL && strcmp(dash + 1, "6") != 0)
        return -1;
    return (int32_t)lo;
}

static enum enc_reset reset_of(const char *s)
{
    if (s != NULL && eng_text_casecmp(s, "turn") == 0)
        return ENC_RESET_TURN;
    if (s != NULL && eng_text_casecmp(s, "round") == 0)
        return ENC_RESET_ROUND;
    return ENC_RESET_NEVER;
}

void cmd_combat_resource(struct cmd_run *run)
{
    enum i18n_lang lang = run->req->lang;
    struct enc_combatant *who = cmd_combatant_to_change(run, "name");
    if (who == NULL)
        return;
    const char *name = cmd_req_opt(run->req, "resource");
    const char *action = cmd_req_opt(run->req, "action");
    if (action == NULL)
        action = "spend";
    if (name == NULL && eng_text_casecmp(action, "add") == 0) {
        cmd_fail(run, i18n_get(lang,
                               "resource: what to call the new one"));
        return;
    }
    if (name == NULL) {
        run->propose_for = 0;          /* a menu changes nothing */
        cmd_resource_picker(run, who); /* choose, not type */
        return;
    }
    int64_t max = 0, amount = 0;
    if (!cmd_opt_int(run, "max", 0, &max) ||
        !cmd_opt_int(run, "amount", 0, &amount))
        return;
    struct rs_opt opts[CMD_MAX_OPTS];
    struct rs_call c;
    cmd_rs_call(run, &c, opts);
    enum eng_err err;
    if (eng_text_casecmp(action, "add") == 0) {
        int32_t recharge = recharge_of(cmd_req_opt(run->req, "recharge"));
        if (recharge < 0) {
            cmd_fail(run, i18n_get(lang,
                                   "recharge: should be like 5-6 (the lowest "
                                   "d6 face that recharges it, then -6)"));
            return;
        }
        if (max == 0) {
            cmd_fail(run, i18n_get(lang,
                                   "max: how many it holds, 1 to %d\nTry: "
                                   "`/combat resource name:\"%s\" "
                                   "resource:\"%s\" action:add max:3 "
                                   "reset:turn`"),
                     ENC_MAX_RES_VALUE, who->name, name);
            return;
        }
        err = enc_res_add(&c, who, name, (int32_t)max,
                          reset_of(cmd_req_opt(run->req, "reset")),
                          recharge);
    } else if (eng_text_casecmp(action, "restore") == 0) {
        err = enc_res_restore(&c, who, name, (int32_t)amount);
    } else if (eng_text_casecmp(action, "remove") == 0) {
        err = enc_res_remove(&c, who, name);
    } else {
        err = enc_res_spend(&c, who, name, amount == 0 ? 1 : (int32_t)amount);
    }
    if (err != ENG_OK) {
        cmd_fail_diag(run, &run->diag);
        return;
    }
    cmd_finish(run, NULL, false);
}
