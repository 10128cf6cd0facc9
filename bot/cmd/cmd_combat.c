/*
 * cmd_combat.c - setting a fight up: start, add, join, remove, set, note.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_config.h"
#include "cmd_run.h"
#include "cmd_sheet.h"
#include "msg.h"
#include "eng_text.h"
#include "rs.h"
#include "rs_kit.h"

/* Apply "k=v k=v" stats to who through the ruleset's check. */
static bool apply_stats(struct cmd_run *run, struct enc_combatant *who,
                        const char *text)
{
    struct enc_kv kv[ENC_MAX_STATS];
    int n = 0;
    if (enc_parse_stats(text, kv, ENC_MAX_STATS, &n, &run->diag) != ENG_OK) {
        cmd_fail_diag(run, &run->diag);
        return false;
    }
    struct rs_opt opts[CMD_MAX_OPTS];
    struct rs_call c;
    cmd_rs_call(run, &c, opts);
    for (int i = 0; i < n; i++) {
        if (rs_stat_check(&c, run->rs, who, kv[i].name, kv[i].value) !=
            ENG_OK) {
            cmd_fail_diag(run, &run->diag);
            return false;
        }
        if (enc_stat_set(who, kv[i].name, kv[i].value, &run->diag) !=
            ENG_OK) {
            cmd_fail_diag(run, &run->diag);
            return false;
        }
    }
    return true;
}

/* The settings through the system's declaration (rs_kit.h). */
static bool apply_settings(struct cmd_run *run, const char *text)
{
    struct rs_opt opts[CMD_MAX_OPTS];
    struct rs_call c;
    cmd_rs_call(run, &c, opts);
    if (rs_settings_apply(&c, run->rs, text) != ENG_OK) {
        cmd_fail_diag(run, &run->diag);
        return false;
    }
    return true;
}

/* thread:true: ask the front end to open a public thread for the fight,
 * or say why it runs here instead (the console, a thread already, or
 * fray lacking a permission: the GM reads which). */
static void start_thread(struct cmd_run *run, struct rs_call *c,
                         enum i18n_lang pub)
{
    const struct cmd_req *req = run->req;
    const char *why = NULL;
    uint64_t lack = req->app_perms_known ? CMD_PERM_THREADS & ~req->app_perms
                                         : 0;
    if (req->source != CMD_SRC_DISCORD) {
        why = N_("The console has no threads: the fight runs here.");
    } else if (req->parent_id != 0) {
        why = N_("This is a thread already: the fight runs here.");
    } else if (lack == CMD_PERM_THREADS) {
        /* Name what is missing, only that: the GM grants exactly it (in
         * the words Discord's permission settings use). */
        why = N_("fray may not open a thread in this channel: it needs the "
                 "Create Public Threads and Send Messages in Threads "
                 "permissions here. The fight runs in this channel "
                 "instead.");
    } else if (lack & CMD_PERM_CREATE_PUBLIC_THREADS) {
        why = N_("fray may not open a thread in this channel: it needs the "
                 "Create Public Threads permission here. The fight runs in "
                 "this channel instead.");
    } else if (lack != 0) {
        why = N_("fray may not open a thread in this channel: it needs the "
                 "Send Messages in Threads permission here. The fight runs "
                 "in this channel instead.");
    }
    if (why != NULL) {
        rs_say0(c, NULL, i18n_get(pub, why));
        return;
    }
    snprintf(run->reply->thread_name, sizeof run->reply->thread_name, "%s",
             run->enc->name[0] != '\0' ? run->enc->name
                                       : i18n_get(pub, "Fight"));
    rs_say0(c, NULL, i18n_get(pub, "The fight gets a thread of its own: its "
                              "tracker and turns are there, and commands "
                              "sent there act on it."));
}

void cmd_combat_start(struct cmd_run *run)
{
    const struct cmd_req *req = run->req;
    if (run->enc != NULL) {
        cmd_fail(run, i18n_get(req->lang, "there is already a fight in this "
                               "channel; the GM can end it with /combat "
                               "end"));
        return;
    }
    const char *system = cmd_req_opt(req, "system");
    const struct rs_system *rs = system != NULL
                                     ? rs_find(system)
                                     : cmd_config_default_system(run, "fight");
    if (rs == NULL) {
        char ids[256];
        cmd_system_ids(ids, sizeof ids);
        if (system != NULL)
            cmd_fail(run, i18n_get(req->lang,
                                   "unknown system `%.16s`; choose one of: "
                                   "%s"), system, ids);
        return;
    }
    const char *name = cmd_req_opt(req, "name");
    if (name != NULL &&
        enc_check_name(name, N_("fight name"), ENC_MAX_ENC_NAME, &run->diag) !=
            ENG_OK) {
        cmd_fail_diag(run, &run->diag);
        return;
    }
    if (!cmd_live_quota_ok(run))
        return;
    run->enc = enc_new(rs, name ? name : "", req->user_id);
    if (run->enc == NULL) {
        cmd_fail(run, i18n_get(req->lang, "the bot ran out of memory; nothing "
                                          "was changed"));
        return;
    }
    run->rs = rs;
    run->is_gm = true;
    /* The fight's id goes into its buttons: the time it started is unique
     * per channel, and never 0 (the id of fights from before ids). */
    run->enc->fight_id = req->now_ms > 0 ? (uint64_t)req->now_ms : 1;
    const char *settings = cmd_req_opt(req, "settings");
    if (settings != NULL && !apply_settings(run, settings))
        return;
    if (!cmd_opt_bool(run, "trust", false, &run->enc->trust))
        return;
    struct rs_opt opts[CMD_MAX_OPTS];
    struct rs_call c;
    cmd_rs_call(run, &c, opts);
    enum i18n_lang pub = cmd_public_lang(run);
    RS_SAY(&c, NULL, i18n_get(pub, "{} rules. The GM adds NPCs with /combat "
                                   "add; players use /combat join."),
           RS_A_TEXT(rs->title));
    if (run->enc->trust)
        rs_say0(&c, NULL, i18n_get(pub, "Players may change the hp and "
                                        "conditions of anyone they can see."));
    bool thread = false;
    if (!cmd_opt_bool(run, "thread", false, &thread))
        return;
    if (thread)
        start_thread(run, &c, pub);
    /* A server sees the commands of the systems it plays: starting one it
     * has not played yet adds its commands there. */
    if (req->guild_id != 0)
        cmd_config_system_used(run, rs);
    cmd_finish(run, i18n_get(pub, "New fight"), false);
}

/* What a new combatant starts from besides the options: a saved sheet
 * (a character's, or a template's) and, for a character, its name, so
 * the fight's result can be written back to it. */
struct add_from {
    const struct sheet *sheet;   /* NULL: the options alone */
    const char *character;       /* NULL: not a saved character */
};

/* Create count combatants called name from the options, each from the
 * sheet first when there is one (the options given override it); owner 0
 * for NPCs. */
static void add_combatants(struct cmd_run *run, uint64_t owner,
                           const char *name, const struct add_from *from)
{
    const struct cmd_req *req = run->req;
    struct encounter *e = run->enc;
    int64_t count = 1;
    bool hidden = false, group = false;
    if (!cmd_opt_int(run, "count", 1, &count) ||
        !cmd_opt_bool(run, "hidden", false, &hidden) ||
        !cmd_opt_bool(run, "group", false, &group))
        return;
    int side = -1;
    const char *side_name = cmd_req_opt(req, "side");
    if (side_name != NULL) {
        side = enc_side_get(e, side_name, &run->diag);
        if (side < 0) {
            cmd_fail_diag(run, &run->diag);
            return;
        }
    } else if (run->rs->flags & RS_F_SIDES_REQUIRED) {
        cmd_fail(run, i18n_get(req->lang, "the %s system needs a side for "
                                          "everyone: add "
                                          "side:<name>"), run->rs->id);
        return;
    }
    if (cmd_name_is_mention_like(name)) {
        cmd_fail(run, i18n_get(req->lang, "a name cannot look like a mention "
                                          "(@everyone, @here, <@...>, "
                                          "<#...>); please choose another"));
        return;
    }
    if (!run->is_gm && count == 1 && name != NULL) {
        /* A taken name refused to a player could confirm a hidden one. */
        struct rs_opt opts[CMD_MAX_OPTS];
        struct rs_call c;
        cmd_rs_call(run, &c, opts);
        rs_who_yield(&c, name);
    }
    uint32_t ids[ENC_MAX_COUNT];
    if (enc_add(e, name, (int)count, owner, side,
                &run->diag, ids) != ENG_OK) {
        if (run->diag.code == ENG_EXISTS)
            enc_hint(&run->diag, i18n_get(req->lang,
                                          "pick another name, or /combat "
                                          "remove the old one"));
        cmd_fail_diag(run, &run->diag);
        return;
    }
    const char *init = cmd_req_opt(req, "init");
    const char *stats = cmd_req_opt(req, "stats");
    int64_t hp = -1;
    if (!cmd_opt_int(run, "hp", -1, &hp))
        return;
    struct rs_opt opts[CMD_MAX_OPTS];
    struct rs_call c;
    for (int i = 0; i < count; i++) {
        struct enc_combatant *who = enc_by_id(e, ids[i]);
        who->hidden = hidden;
        if (group && count > 1)
            who->group = ids[0];
        cmd_rs_call(run, &c, opts);
        if (from->sheet != NULL &&
            sheet_apply(&c, run->rs, from->sheet, who) != ENG_OK) {
            cmd_fail_diag(run, &run->diag);
            return;
        }
        if (from->character != NULL)
            enc_copy(who->sheet, sizeof who->sheet, from->character);
        if (init != NULL)
            enc_copy(who->init_expr, sizeof who->init_expr, init);
        if (stats != NULL && !apply_stats(run, who, stats))
            return;
        if (hp >= 0 &&
            enc_track_set(who, "hp", hp, hp, &run->diag) != ENG_OK) {
            cmd_fail_diag(run, &run->diag);
            return;
        }
        cmd_rs_call(run, &c, opts);
        if (run->rs->ops->setup(&c, who) != ENG_OK ||
            rs_stat_pools(run->rs, who, &run->diag) != ENG_OK) {
            cmd_fail_diag(run, &run->diag);
            return;
        }
        enc_emit(run->res, ENC_EV_ADDED, who->id)->secret = who->hidden;
        if (e->status == ENC_ST_RUNNING) {
            cmd_rs_call(run, &c, opts);
            if (run->rs->ops->late_join != NULL &&
                run->rs->ops->late_join(&c, who) != ENG_OK) {
                cmd_fail_diag(run, &run->diag);
                return;
            }
        }
    }
    enum i18n_lang pub = cmd_public_lang(run);
    cmd_finish(run, count > 1 ? i18n_get(pub, "New combatants")
                              : i18n_get(pub, "New combatant"),
               false);
}

/* Add from a saved sheet (kind: the sender's character, or the server's
 * NPC template), copied; the options given override it, and name:
 * defaults to the sheet's. A character's combatant is the sender's and
 * remembers its sheet for the write-back. */
static void add_saved(struct cmd_run *run, enum store_sheet_kind kind,
                      const char *saved)
{
    bool chr = kind == STORE_SHEET_CHAR;
    struct store_sheet row = {0};
    struct sheet sh;
    struct store_sheet_key k = cmd_sheet_key(run, kind, saved);
    if (cmd_sheet_load(run, &k, &row, &sh)) {
        if (!enc_name_eq(row.system, run->rs->id)) {
            char *shown = msg_escape(row.name);
            enum i18n_lang lang = run->req->lang;
            const char *who = shown ? shown : "that";
            if (chr)
                cmd_fail(run, i18n_get(lang,
                                       "%s is a character of the %s system; "
                                       "this fight plays %s"),
                         who, row.system, run->rs->id);
            else
                cmd_fail(run, i18n_get(lang,
                                       "%s is a template of the %s system; "
                                       "this fight plays %s"),
                         who, row.system, run->rs->id);
            free(shown);
        } else {
            const char *name = cmd_req_opt(run->req, "name");
            const struct add_from from = {&sh, chr ? row.name : NULL};
            add_combatants(run, chr ? run->req->user_id : 0,
                           name != NULL ? name : row.name, &from);
        }
    }
    store_sheet_cleanup(&row);
}

void cmd_combat_add(struct cmd_run *run)
{
    enum i18n_lang lang = run->req->lang;
    const char *tpl = cmd_req_opt(run->req, "template");
    const char *name = cmd_req_opt(run->req, "name");
    if (tpl != NULL) {
        add_saved(run, STORE_SHEET_NPC, tpl);
    } else if (name == NULL) {
        cmd_fail(run, i18n_get(lang,
                               "give name: for new NPCs, or template: for "
                               "copies of one of this server's NPC templates "
                               "(/npc list)"));
    } else {
        const struct add_from none = {NULL, NULL};
        add_combatants(run, 0, name, &none);
    }
}

/* The saved character a join brings: character:, or with neither name:
 * nor character: the one the sender uses; NULL for a plain join. Fails
 * the command (returning NULL with run->failed) when it cannot be read or
 * plays another system. */
static const char *join_character(struct cmd_run *run, char **used)
{
    enum i18n_lang lang = run->req->lang;
    const char *chr = cmd_req_opt(run->req, "character");
    *used = NULL;
    if (chr != NULL || cmd_req_opt(run->req, "name") != NULL)
        return chr;
    enum bot_err e = store_sheet_use_get(run->ctx->store, run->req->guild_id,
                                         run->req->user_id, used);
    if (e == BOT_NOTFOUND)
        cmd_fail(run, i18n_get(lang,
                               "give name: for a new combatant, or character: "
                               "for one of your saved characters (/character "
                               "create)"));
    else if (e != BOT_OK)
        cmd_fail(run, i18n_get(lang,
                               "the saved characters could not be read; "
                               "nothing was changed, try again"));
    return *used;
}

void cmd_combat_join(struct cmd_run *run)
{
    enum i18n_lang lang = run->req->lang;
    if (run->enc->status == ENC_ST_ENDED) {
        cmd_fail(run, i18n_get(lang, "this fight is over"));
        return;
    }
    int own = 0;
    for (int i = 0; i < run->enc->ncs; i++)
        own += run->enc->cs[i].owner == run->req->user_id;
    if (own >= CMD_MAX_OWN_COMBATANTS && !run->is_gm) {
        cmd_fail(run, i18n_nget(lang,
                                "you already have %d combatant in this fight, "
                                "the most one player may bring; ask the GM to "
                                "add more",
                                "you already have %d combatants in this "
                                "fight, the most one player may bring; ask "
                                "the GM to add more", (unsigned long)own),
                 own);
        return;
    }
    char *used = NULL;
    const char *chr = join_character(run, &used);
    if (chr != NULL) {
        add_saved(run, STORE_SHEET_CHAR, chr);
    } else if (!run->failed) {
        const struct add_from none = {NULL, NULL};
        add_combatants(run, run->req->user_id, cmd_req_opt(run->req, "name"),
                       &none);
    }
    free(used);
}

void cmd_combat_remove(struct cmd_run *run)
{
    struct enc_combatant *who = cmd_combatant(run, "name");
    if (who == NULL || !cmd_may_act(run, who))
        return;
    bool was_current = run->enc->current == who->id;
    if (enc_remove(run->enc, who->id, run->res, &run->diag) != ENG_OK) {
        cmd_fail_diag(run, &run->diag);
        return;
    }
    if (was_current && run->enc->status == ENC_ST_RUNNING) {
        /* The turn passes on as if it had ended. */
        struct rs_opt opts[CMD_MAX_OPTS];
        struct rs_call c;
        cmd_rs_call(run, &c, opts);
        if (run->rs->ops->next(&c) != ENG_OK) {
            cmd_fail_diag(run, &run->diag);
            return;
        }
    }
    enum i18n_lang pub = cmd_public_lang(run);
    cmd_finish(run, i18n_get(pub, "Combatant removed"), was_current);
}

void cmd_combat_set(struct cmd_run *run)
{
    const struct cmd_req *req = run->req;
    struct enc_combatant *who = cmd_combatant(run, "name");
    if (who == NULL || !cmd_may_act(run, who))
        return;
    const char *stats = cmd_req_opt(req, "stats");
    const char *side = cmd_req_opt(req, "side");
    const char *hidden = cmd_req_opt(req, "hidden");
    const char *note = cmd_req_opt(req, "note");
    if (stats == NULL && side == NULL && hidden == NULL && note == NULL) {
        cmd_fail(run, i18n_get(req->lang, "nothing to change: give stats:, "
                                          "side:, hidden: or note:"));
        return;
    }
    /* "-" clears: Discord cannot send an empty option. */
    if (note != NULL && strcmp(note, "-") == 0)
        note = "";
    if (note != NULL && note[0] != '\0' &&
        enc_check_name(note, N_("note"), ENC_MAX_NOTE, &run->diag) != ENG_OK) {
        cmd_fail_diag(run, &run->diag);
        return;
    }
    if ((hidden != NULL || side != NULL) && !run->is_gm) {
        cmd_fail(run, i18n_get(req->lang, "only the GM may move or hide a "
                                          "combatant"));
        return;
    }
    if (stats != NULL) {
        if (!apply_stats(run, who, stats))
            return;
        if (rs_stat_pools(run->rs, who, &run->diag) != ENG_OK) {
            cmd_fail_diag(run, &run->diag);
            return;
        }
        /* hp given as a stat changes the maximum and keeps the damage
         * already taken. */
        int64_t *hp = enc_stat(who, "hp");
        if (hp != NULL) {
            const struct enc_track *t = enc_track(who, "hp");
            int64_t taken = t != NULL ? t->max - t->cur : 0;
            int64_t max = *hp;
            enc_stat_remove(who, "hp");
            if (enc_track_set(who, "hp", max - taken < 0 ? 0 : max - taken,
                              max, &run->diag) != ENG_OK) {
                cmd_fail_diag(run, &run->diag);
                return;
            }
        }
    }
    if (side != NULL) {
        int s = enc_side_get(run->enc, side, &run->diag);
        if (s < 0) {
            cmd_fail_diag(run, &run->diag);
            return;
        }
        who->side = s;
    }
    bool hide = false;
    if (hidden != NULL) {
        if (!cmd_opt_bool(run, "hidden", false, &hide))
            return;
        who->hidden = hide;
    }
    if (stats != NULL || side != NULL || hidden != NULL) {
        struct enc_event *ev = enc_emit(run->res, ENC_EV_STAT, who->id);
        ev->secret = who->hidden;
        if (stats != NULL)
            ev->text = enc_result_strdup(run->res, stats, CMD_MAX_OPT_VALUE);
    }
    if (note != NULL) {
        enc_copy(who->note, sizeof who->note, note);
        enc_emit(run->res, ENC_EV_NOTE, who->id)->secret = who->hidden;
    }
    enum i18n_lang pub = cmd_public_lang(run);
    cmd_finish(run, note != NULL && stats == NULL && side == NULL &&
                            hidden == NULL
                        ? i18n_get(pub, "Note")
                        : i18n_get(pub, "Combatant updated"),
               false);
}
