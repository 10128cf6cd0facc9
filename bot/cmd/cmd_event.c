/*
 * cmd_event.c - /combat event: an event of the order, a lair action, a
 * hazard or a one-shot (enc_entry.h). The GM's alone: an event is the
 * table's scenery, nobody's character.
 */
#include <string.h>

#include "cmd_run.h"
#include "enc_entry.h"
#include "eng_text.h"

static enum enc_entry_kind kind_of(const char *s)
{
    if (s != NULL && eng_text_casecmp(s, "hazard") == 0)
        return ENC_ENTRY_HAZARD;
    if (s != NULL && eng_text_casecmp(s, "once") == 0)
        return ENC_ENTRY_ONCE;
    return ENC_ENTRY_LAIR;
}

void cmd_combat_event(struct cmd_run *run)
{
    const char *name = cmd_req_opt(run->req, "name");
    bool remove = false, hidden = false;
    int64_t round = 0;
    if (!cmd_opt_bool(run, "remove", false, &remove) ||
        !cmd_opt_bool(run, "hidden", false, &hidden) ||
        !cmd_opt_int(run, "round", 0, &round))
        return;
    struct rs_opt opts[CMD_MAX_OPTS];
    struct rs_call c;
    cmd_rs_call(run, &c, opts);
    enum eng_err err;
    if (remove) {
        err = enc_entry_remove(&c, name);
    } else {
        struct enc_entry_req q = {
            .name = name,
            .kind = kind_of(cmd_req_opt(run->req, "kind")),
            .at = cmd_req_opt(run->req, "at"),
            .round = (int32_t)round,
            .dice = cmd_req_opt(run->req, "dice"),
            .note = cmd_req_opt(run->req, "note"),
            .hidden = hidden,
        };
        err = enc_entry_add(&c, &q);
    }
    if (err != ENG_OK) {
        cmd_fail_diag(run, &run->diag);
        return;
    }
    cmd_finish(run, NULL, false);
}
