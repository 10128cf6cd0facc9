/*
 * cmd_countdown.c - /combat countdown: the GM's named counts the fight
 * runs down (enc_cd.h). One command, one name, and the option given says
 * what to do: rounds: or turns: with of: starts it, advance: counts it
 * down now, pause:, resume: and remove: do what they say.
 */
#include <stdio.h>

#include "cmd_run.h"
#include "enc_cd.h"
#include "rs.h"

/* The options that each say what to do; exactly one is given. */
static const char *const cd_actions[] = {"rounds", "turns", "advance",
                                         "pause", "resume", "remove"};
#define CD_NACTIONS (sizeof cd_actions / sizeof cd_actions[0])

void cmd_combat_countdown(struct cmd_run *run)
{
    enum i18n_lang lang = run->req->lang;
    const char *name = cmd_req_opt(run->req, "name");
    const char *act = NULL;
    for (size_t i = 0; i < CD_NACTIONS; i++) {
        if (cmd_req_opt(run->req, cd_actions[i]) == NULL)
            continue;
        if (act != NULL) {
            cmd_fail(run, i18n_get(lang,
                                   "%s: and %s: together: give one of "
                                   "rounds:, turns:, advance:, pause:, "
                                   "resume: or remove:"),
                     act, cd_actions[i]);
            return;
        }
        act = cd_actions[i];
    }
    if (act == NULL) {
        cmd_fail(run, i18n_get(lang,
                               "say what to do with it\nTry: `/combat "
                               "countdown name:\"%s\" rounds:3`, or advance:, "
                               "pause:, resume:, remove:"),
                 name);
        return;
    }
    int64_t rounds = 0, turns = 0, advance = 0;
    bool flag = false, hidden = false;
    if (!cmd_opt_int(run, "rounds", 0, &rounds) ||
        !cmd_opt_int(run, "turns", 0, &turns) ||
        !cmd_opt_int(run, "advance", 1, &advance) ||
        !cmd_opt_bool(run, "hidden", false, &hidden))
        return;
    bool adding = rounds != 0 || turns != 0;
    if (cmd_req_opt(run->req, "of") != NULL && turns == 0) {
        cmd_fail(run, i18n_get(lang,
                               "of: says whose turns count it: give turns: "
                               "too"));
        return;
    }
    if (turns != 0 && cmd_req_opt(run->req, "of") == NULL) {
        cmd_fail(run, i18n_get(lang,
                               "turns: counts someone's turns: say whose with "
                               "of:\nTry: `/combat countdown name:\"%s\" "
                               "turns:%d of:<who>`"),
                 name, (int)turns);
        return;
    }
    if (cmd_req_opt(run->req, "hidden") != NULL && !adding) {
        cmd_fail(run, i18n_get(lang,
                               "hidden: is for a new countdown (with rounds: "
                               "or turns:)"));
        return;
    }
    /* A false pause:, resume: or remove: asks for nothing. */
    if (!adding && act != cd_actions[2] &&
        (!cmd_opt_bool(run, act, false, &flag) || !flag)) {
        if (run->failed)
            return;
        cmd_fail(run, i18n_get(lang,
                               "%s:false does nothing: leave it out"), act);
        return;
    }
    uint32_t of = 0;
    if (turns != 0) {
        struct enc_combatant *who = cmd_combatant(run, "of");
        if (who == NULL)
            return;
        of = who->id;
    }
    struct rs_opt opts[CMD_MAX_OPTS];
    struct rs_call c;
    cmd_rs_call(run, &c, opts);
    enum eng_err err;
    if (adding)
        err = enc_cd_add(&c, name, (int32_t)(rounds != 0 ? rounds : turns),
                         of, hidden);
    else if (act == cd_actions[2])
        err = enc_cd_advance(&c, name, (int32_t)advance);
    else if (act == cd_actions[3] || act == cd_actions[4])
        err = enc_cd_pause(&c, name, act == cd_actions[3]);
    else
        err = enc_cd_remove(&c, name);
    if (err != ENG_OK) {
        cmd_fail_diag(run, &run->diag);
        return;
    }
    cmd_finish(run, NULL, false);
}
