/*
 * cmd_sheet.c - loading, editing and showing saved sheets for the
 * commands (cmd_sheet.h).
 */
#include "cmd_sheet.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eng_text.h"
#include "msg.h"
#include "rs_data.h"

struct store_sheet_key cmd_sheet_key(const struct cmd_run *run,
                                     enum store_sheet_kind kind,
                                     const char *name)
{
    return (struct store_sheet_key){
        .kind = kind,
        .guild = run->req->guild_id,
        .owner = kind == STORE_SHEET_CHAR ? run->req->user_id : 0,
        .name = name,
    };
}

bool cmd_sheet_load(struct cmd_run *run, const struct store_sheet_key *k,
                    struct store_sheet *row, struct sheet *sh)
{
    bool chr = k->kind == STORE_SHEET_CHAR;
    enum bot_err e =
        chr || cmd_sender_reads_npcs(run->ctx->store, run->req)
            ? store_sheet_get(run->ctx->store, k, row)
            : BOT_NOTFOUND;

    enum i18n_lang lang = run->req->lang;
    char *shown = msg_escape(k->name);
    char err[SHEET_MAX_ERR];
    bool ok = false;
    if (e == BOT_NOTFOUND)
        cmd_fail(run, chr ? i18n_get(lang, "you have no character named %s "
                                     "in this server (see /character "
                                     "list)")
                          : i18n_get(lang, "this server has no NPC template "
                                     "named %s (see /npc list)"),
                 shown ? shown : "that");
    else if (e != BOT_OK)
        cmd_fail(run, i18n_get(lang, "the saved sheets could not be read; "
                               "nothing was changed, try again"));
    else if (sheet_json_load(row->doc, sh, err, sizeof err) != BOT_OK)
        cmd_fail(run, i18n_get(lang, "the sheet of %s cannot be read (%s); "
                               "its owner can delete it"),
                 shown ? shown : "that", err);
    else
        ok = true;
    free(shown);
    return ok;
}

/* A name that reads as a Discord mention ("@everyone", "<@123>", "<#1>")
 * would look like a ping in every message that shows it, so it is refused
 * where names enter; everything else is shown escaped. */
bool cmd_name_is_mention_like(const char *name)
{
    static const char *const pats[] = {"@everyone", "@here", "<@", "<#",
                                       "</"};
    for (size_t i = 0; i < sizeof pats / sizeof pats[0]; i++)
        for (const char *p = name; *p; p++)
            if (eng_text_ncasecmp(p, pats[i], strlen(pats[i])) == 0)
                return true;
    return false;
}

enum eng_err cmd_sheet_name_check(const char *name, const char *what,
                                  struct enc_diag *d)
{
    if (enc_check_name(name, what, STORE_MAX_SHEET_NAME, d) != ENG_OK)
        return d->code;
    if (cmd_name_is_mention_like(name))
        return enc_fail(d, ENG_INVALID, "a name cannot look like a mention "
                        "(@everyone, @here, <@...>, <#...>); please choose "
                        "another");
    return ENG_OK;
}

bool cmd_sheet_name_ok(struct cmd_run *run, const char *name,
                       const char *what)
{
    if (cmd_sheet_name_check(name, what, &run->diag) != ENG_OK) {
        cmd_fail_diag(run, &run->diag);
        return false;
    }
    return true;
}

/* stats:"k=v ..." and hp: onto sh. */
static bool edit_stats(struct cmd_run *run, const struct rs_system *sys,
                       const void *data, struct sheet *sh, bool *changed)
{
    const char *stats = cmd_req_opt(run->req, "stats");
    struct enc_kv kv[ENC_MAX_STATS];
    int n = 0;
    if (stats != NULL &&
        enc_parse_stats(stats, kv, ENC_MAX_STATS, &n, &run->diag) != ENG_OK) {
        cmd_fail_diag(run, &run->diag);
        return false;
    }
    int64_t hp = -1;
    if (!cmd_opt_int(run, "hp", -1, &hp))
        return false;
    if (hp >= 0 && n < ENC_MAX_STATS) {
        snprintf(kv[n].name, sizeof kv[n].name, "hp");
        kv[n++].value = hp;
    }
    for (int i = 0; i < n; i++)
        if (sheet_set(sys, data, sh, kv[i].name, kv[i].value, &run->diag) !=
            ENG_OK) {
            cmd_fail_diag(run, &run->diag);
            return false;
        }
    *changed = *changed || n > 0;
    return true;
}

/* attack: with roll:, damage:, options: (or remove:true) onto sh. */
static bool edit_attack(struct cmd_run *run, const struct rs_system *sys,
                        const void *data, struct sheet *sh, bool *changed)
{
    const struct cmd_req *req = run->req;
    const char *name = cmd_req_opt(req, "attack");
    const char *roll = cmd_req_opt(req, "roll");
    const char *damage = cmd_req_opt(req, "damage");
    const char *options = cmd_req_opt(req, "options");
    bool remove = false;
    if (!cmd_opt_bool(run, "remove", false, &remove))
        return false;
    if (name == NULL) {
        if (roll || damage || options || remove) {
            cmd_fail(run, i18n_get(run->req->lang, "roll:, damage:, "
                                   "options: and remove: are an attack's: "
                                   "name it with attack:"));
            return false;
        }
        return true;
    }
    *changed = true;
    if (remove) {
        if (roll || damage || options) {
            cmd_fail(run, i18n_get(run->req->lang, "remove:true takes the "
                                   "attack away; give roll:, damage: or "
                                   "options: without it to change the "
                                   "attack"));
            return false;
        }
        if (!sheet_attack_remove(sh, name)) {
            char *shown = msg_escape(name);
            cmd_fail(run, i18n_get(run->req->lang, "there is no attack "
                                   "named %s to remove"),
                     shown ? shown : "that");
            free(shown);
            return false;
        }
        return true;
    }
    struct enc_attack a;
    memset(&a, 0, sizeof a);
    /* A new value replaces; what is not given stays as it was. */
    for (int i = 0; i < sh->nattacks; i++)
        if (enc_name_eq(sh->attacks[i].name, name))
            a = sh->attacks[i];
    enc_copy(a.name, sizeof a.name, name);
    if (roll != NULL)
        enc_copy(a.roll, sizeof a.roll, roll);
    if (damage != NULL)
        enc_copy(a.damage, sizeof a.damage, damage);
    if (options != NULL)
        enc_copy(a.options, sizeof a.options, options);
    if (sheet_attack_check(sys, data, &a, &run->diag) != ENG_OK ||
        sheet_attack_put(sh, &a, &run->diag) != ENG_OK) {
        cmd_fail_diag(run, &run->diag);
        return false;
    }
    return true;
}

bool cmd_sheet_edit(struct cmd_run *run, const struct rs_system *sys,
                    struct sheet *sh, bool *changed)
{
    const void *data = rs_data_get(run->ctx->rs_data, sys);
    *changed = false;
    if (!edit_stats(run, sys, data, sh, changed) ||
        !edit_attack(run, sys, data, sh, changed))
        return false;
    const char *init = cmd_req_opt(run->req, "init");
    if (init != NULL) {
        enc_copy(sh->init, sizeof sh->init, init);
        *changed = true;
    }
    const char *note = cmd_req_opt(run->req, "note");
    if (note != NULL) {
        enc_copy(sh->note, sizeof sh->note, note);
        *changed = true;
    }
    return true;
}

/* text escaped into b ("?" when out of memory). */
static void add_escaped(struct sbuf *b, const char *text)
{
    char *e = msg_escape(text);
    sbuf_add(b, e ? e : "?");
    free(e);
}

/* One part of an attack's line: ", label value" (no comma first). The
 * value is escaped, so it is not put in a code span, where Discord would
 * show the escapes. */
static void render_part(struct sbuf *b, bool *first, const char *label,
                        const char *value)
{
    if (value[0] == '\0')
        return;
    sbuf_addf(b, "%s%s ", *first ? " " : ", ", label);
    add_escaped(b, value);
    *first = false;
}

static void render_attack(struct sbuf *b, enum i18n_lang lang,
                          const struct enc_attack *a)
{
    bool first = true;
    sbuf_add(b, "\n- **");
    add_escaped(b, a->name);
    sbuf_add(b, "**:");
    render_part(b, &first, "roll", a->roll);
    render_part(b, &first, "damage", a->damage);
    render_part(b, &first, "options", a->options);
    if (first)
        sbuf_add(b, i18n_get(lang, " the system's own roll, no damage "
                             "dice"));
}

void cmd_sheet_tracks(struct sbuf *b, const struct sheet *sh,
                      const struct rs_system *rs, enum i18n_lang lang)
{
    for (int i = 0; i < sh->ntracks; i++) {
        const struct enc_track *t = &sh->tracks[i];
        sbuf_addf(b, "%s%s %lld", i ? ", " : "",
                  render_track_name(rs, t->name, lang), (long long)t->cur);
        if (t->max > 0) /* 0: a track without a maximum (Harm) */
            sbuf_addf(b, "/%lld", (long long)t->max);
    }
}

void cmd_sheet_conds(struct sbuf *b, const struct sheet *sh)
{
    for (int i = 0; i < sh->nconds; i++) {
        sbuf_add(b, i ? ", " : "");
        add_escaped(b, sh->conds[i].name);
        if (sh->conds[i].value != 0)
            sbuf_addf(b, " %d", (int)sh->conds[i].value);
    }
}

void cmd_sheet_render(struct sbuf *b, enum i18n_lang lang, const char *name,
                      const struct sheet *sh)
{
    sbuf_add(b, "**");
    add_escaped(b, name);
    sbuf_addf(b, "** (%s)", sh->system);
    if (sh->ntracks > 0)
        sbuf_add(b, "\n");
    cmd_sheet_tracks(b, sh, rs_find(sh->system), lang);
    for (int i = 0; i < sh->nstats; i++)
        sbuf_addf(b, "%s%s%s %lld", i == 0 ? "\n" : ", ",
                  i == 0 ? i18n_get(lang, "Stats: ") : "",
                  sh->stats[i].name, (long long)sh->stats[i].value);
    if (sh->init[0] != '\0') {
        sbuf_add(b, "\n");
        sbuf_add(b, i18n_get(lang, "Initiative: "));
        add_escaped(b, sh->init);
    }
    if (sh->nattacks > 0) {
        sbuf_add(b, "\n");
        sbuf_add(b, i18n_get(lang, "Attacks:"));
    }
    for (int i = 0; i < sh->nattacks; i++)
        render_attack(b, lang, &sh->attacks[i]);
    if (sh->nconds > 0) {
        sbuf_add(b, "\n");
        sbuf_add(b, i18n_get(lang, "Conditions: "));
        cmd_sheet_conds(b, sh);
    }
    if (sh->note[0] != '\0') {
        sbuf_add(b, "\n");
        sbuf_add(b, i18n_get(lang, "Note: "));
        add_escaped(b, sh->note);
    }
}

void cmd_sheet_reply(struct cmd_run *run, const char *first,
                     const char *name, const struct sheet *sh)
{
    struct sbuf b;
    sbuf_init(&b, MSG_MAX_TEXT);
    if (first != NULL)
        sbuf_addf(&b, "%s\n", first);
    cmd_sheet_render(&b, run->req->lang, name, sh);
    msg_set_content(&run->reply->msg, "%s", sbuf_str(&b));
    sbuf_cleanup(&b);
    run->reply->ephemeral = true;
}
