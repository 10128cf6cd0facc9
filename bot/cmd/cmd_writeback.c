/*
 * cmd_writeback.c - keeping what happened: when a fight ends, each saved
 * character that joined it (enc_combatant.sheet) gets its tracks as the
 * fight left them (hp, Resolve, Harm, stamina: every track its system
 * declares RS_TRACK; pools such as temporary hit points do not outlast a
 * fight), and the conditions it declares to outlast a fight
 * (RS_COND_LASTS: resolve's Wounded, tactical's wounds), and the stats
 * its rules change for good (rs_system.lasts: teams' death test
 * difficulty, resolve's Never the Same and ignores spent, factions'
 * destroyed armour). /combat reopen
 * puts the sheets back as they were, since the fight is live again and
 * will be written back when it ends once more.
 *
 * Each sheet keeps its document from before the write-back under a tag
 * naming the fight (store.h "saved sheets"), so the undo finds exactly the
 * sheets this fight changed, and a player's own later change (which drops
 * the kept document) is never overwritten by an undo.
 *
 * Runs inside the command's transaction: the end (or reopen) and the
 * sheets are saved together or not at all. A server turns it off with
 * /config writeback:false.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_config.h"
#include "cmd_run.h"
#include "cmd_sheet.h"
#include "rs_data.h"
#include "rs_kit.h"

/* The tag of fight e's write-back in its channel. */
static void fight_tag(const struct cmd_run *run, const struct encounter *e,
                      char tag[STORE_MAX_SHEET_TAG + 1])
{
    snprintf(tag, STORE_MAX_SHEET_TAG + 1, "fight:%" PRIu64 ":%" PRIu64,
             run->req->channel_id, e->fight_id);
}

/* Copy who's declared tracks onto sh; whether anything changed. */
static bool take_tracks(const struct rs_system *sys,
                        const struct enc_combatant *who, struct sheet *sh)
{
    bool changed = false;
    for (int i = 0; i < who->ntracks; i++) {
        const struct enc_track *t = &who->tracks[i];
        if (rs_stat_kind(sys, t->name) != RS_TRACK)
            continue;
        struct enc_track *have = sheet_track(sh, t->name);
        if (have == NULL && sh->ntracks == ENC_MAX_TRACKS)
            continue;
        bool added = have == NULL;
        if (added) {
            have = &sh->tracks[sh->ntracks++];
            enc_copy(have->name, sizeof have->name, t->name);
        }
        /* A sheet holds a track at most at its maximum (sheet_check): a
         * GM's change:=n above it stays in the fight. */
        int64_t cur = t->cur > t->max ? t->max : t->cur;
        if (added || have->cur != cur || have->max != t->max) {
            have->cur = cur;
            have->max = t->max;
            changed = true;
        }
    }
    return changed;
}

/* Replace sh's conditions by those of who's that outlast a fight
 * (RS_COND_LASTS); whether they changed. */
static bool take_conds(const struct rs_system *sys, const void *data,
                       const struct enc_combatant *who, struct sheet *sh)
{
    struct sheet_cond now[ENC_MAX_CONDITIONS];
    int n = 0;
    for (int i = 0; i < who->nconds; i++)
        if (sheet_cond_lasts(sys, data, who->conds[i].name)) {
            enc_copy(now[n].name, sizeof now[n].name, who->conds[i].name);
            now[n++].value = who->conds[i].value;
        }
    bool same = n == sh->nconds;
    for (int i = 0; same && i < n; i++)
        same = strcmp(now[i].name, sh->conds[i].name) == 0 &&
               now[i].value == sh->conds[i].value;
    memcpy(sh->conds, now, (size_t)n * sizeof now[0]);
    sh->nconds = n;
    return !same;
}

static struct enc_kv *sheet_stat(struct sheet *sh, const char *name)
{
    for (int i = 0; i < sh->nstats; i++)
        if (enc_name_eq(sh->stats[i].name, name))
            return &sh->stats[i];
    return NULL;
}

static const struct enc_stat *fight_stat(const struct enc_combatant *who,
                                         const char *name)
{
    for (int i = 0; i < who->nstats; i++)
        if (enc_name_eq(who->stats[i].name, name))
            return &who->stats[i];
    return NULL;
}

/* One lasting stat as the fight left it: its value, or, when the fight
 * has it no more (armour destroyed), none; said in what (", death_dc 15",
 * ", no shield"). Whether the sheet changed. */
static bool take_stat(struct sheet *sh, const struct enc_combatant *who,
                      const char *name, struct sbuf *what,
                      enum i18n_lang lang)
{
    const struct enc_stat *now = fight_stat(who, name);
    struct enc_kv *had = sheet_stat(sh, name);
    if (now == NULL && had != NULL) {
        sbuf_add(what, ", ");
        /* TRANSLATORS: a stat the fight took away (armour destroyed): "no
         * shield", the stat's name as the sheet keeps it */
        sbuf_addf(what, i18n_get(lang, "no %s"), had->name);
        *had = sh->stats[--sh->nstats];
        return true;
    }
    if (now == NULL || (had != NULL && had->value == now->value))
        return false;
    if (had == NULL) {
        if (sh->nstats == ENC_MAX_STATS)
            return false;
        had = &sh->stats[sh->nstats++];
        enc_copy(had->name, sizeof had->name, now->name);
    }
    had->value = now->value;
    sbuf_addf(what, ", %s %" PRId64, had->name, had->value);
    return true;
}

/* Whether name ends in suffix. */
static bool ends_in(const char *name, const char *suffix)
{
    size_t n = strlen(name), k = strlen(suffix);
    return n > k && strcmp(name + n - k, suffix) == 0;
}

/* The stats the system says outlast a fight (rs_system.lasts); whether
 * any changed, each said in what. RS_LAST_ALL takes every stat the sheet
 * holds that the fight still has; "*suffix" every stat of the fight whose
 * name ends in suffix. */
static bool take_lasting(const struct rs_system *sys,
                         const struct enc_combatant *who, struct sheet *sh,
                         struct sbuf *what, enum i18n_lang lang)
{
    bool changed = false;
    for (const struct rs_lasting *l = sys->lasts; l != NULL && l->stat;
         l++) {
        if (l->stat[0] == '*' && l->stat[1] != '\0') {
            for (int i = 0; i < who->nstats; i++)
                if (ends_in(who->stats[i].name, l->stat + 1))
                    changed |= take_stat(sh, who, who->stats[i].name, what,
                                         lang);
            continue;
        }
        if (strcmp(l->stat, RS_LAST_ALL) != 0) {
            changed |= take_stat(sh, who, l->stat, what, lang);
            continue;
        }
        /* Only what the fight still has: a stat it lost is for a named
         * entry to say. */
        for (int i = 0; i < sh->nstats; i++)
            if (fight_stat(who, sh->stats[i].name) != NULL) {
                char name[ENC_MAX_STAT_NAME + 1];
                enc_copy(name, sizeof name, sh->stats[i].name);
                changed |= take_stat(sh, who, name, what, lang);
            }
    }
    return changed;
}

/* Write who's result to its sheet; false when the store failed (the
 * command then fails). A sheet deleted meanwhile or of another system is
 * left alone. */
static bool write_one(struct cmd_run *run, struct rs_call *c,
                      const struct enc_combatant *who, const char *tag)
{
    struct store_sheet_key k = {STORE_SHEET_CHAR, run->req->guild_id,
                                who->owner, who->sheet};
    struct store_sheet row = {0};
    struct sheet sh;
    char err[SHEET_MAX_ERR];
    enum bot_err e = store_sheet_get(run->ctx->store, &k, &row);
    bool ok = e == BOT_OK || e == BOT_NOTFOUND;
    const void *data = rs_data_get(run->ctx->rs_data, run->rs);
    bool mine = e == BOT_OK && enc_name_eq(row.system, run->rs->id) &&
                sheet_json_load(row.doc, &sh, err, sizeof err) == BOT_OK;
    /* the sentence is the table's: its list is written in that language
     * (tracks by their catalog word), and its template looked up when
     * drawn */
    enum i18n_lang lang = cmd_public_lang(run);
    struct sbuf lasting;
    sbuf_init(&lasting, MSG_MAX_TEXT);
    bool changed = mine && take_tracks(run->rs, who, &sh);
    changed = (mine && take_conds(run->rs, data, who, &sh)) || changed;
    changed = (mine && take_lasting(run->rs, who, &sh, &lasting, lang)) || changed;
    if (changed) {
        char *doc = sheet_json_dump(&sh);
        ok = doc != NULL &&
             store_sheet_update(run->ctx->store, &k, doc, tag, row.doc,
                                run->req->now_ms) == BOT_OK;
        free(doc);
        struct sbuf b;
        sbuf_init(&b, MSG_MAX_TEXT);
        cmd_sheet_tracks(&b, &sh, run->rs, lang);
        if (sh.nconds > 0)
            sbuf_add(&b, "; ");
        cmd_sheet_conds(&b, &sh);
        /* lasting's text starts ", ": a sheet without tracks drops it */
        sbuf_add(&b, sbuf_str(&lasting) + (b.len == 0 && lasting.len > 0
                                           ? 2 : 0));
        if (ok)
            RS_SAY(c, who, N_("{}'s saved sheet keeps it: {}."),
                   RS_A_WHO(who), RS_A_TEXT(sbuf_str(&b)));
        sbuf_cleanup(&b);
    }
    sbuf_cleanup(&lasting);
    store_sheet_cleanup(&row);
    return ok;
}

bool cmd_writeback_end(struct cmd_run *run)
{
    const struct encounter *e = run->enc;
    if (!cmd_config_writeback(run->ctx->store, run->req->guild_id))
        return true;
    char tag[STORE_MAX_SHEET_TAG + 1];
    fight_tag(run, e, tag);
    struct rs_opt opts[CMD_MAX_OPTS];
    struct rs_call c;
    cmd_rs_call(run, &c, opts);
    for (int i = 0; i < e->ncs; i++) {
        const struct enc_combatant *who = &e->cs[i];
        if (who->sheet[0] == '\0' || who->owner == 0)
            continue;
        if (!write_one(run, &c, who, tag)) {
            cmd_fail(run, i18n_get(run->req->lang, "the saved characters "
                                   "could not be updated; the fight goes "
                                   "on, try again"));
            return false;
        }
    }
    return true;
}

struct undo_ctx {
    struct cmd_run *run;
    struct rs_call *c;
    enum bot_err err;
};

static enum bot_err put_back(void *ctx, const struct store_sheet *sh)
{
    struct undo_ctx *u = ctx;
    struct cmd_run *run = u->run;
    /* Only this store's rows reach here, and only characters carry a
     * fight's tag. */
    struct store_sheet_key k = {sh->kind, sh->guild, sh->owner, sh->name};
    enum bot_err e = store_sheet_update(run->ctx->store, &k, sh->undo_doc,
                                        NULL, NULL, run->req->now_ms);
    if (e == BOT_OK) {
        const struct enc_combatant *who = NULL;
        for (int i = 0; i < run->enc->ncs && who == NULL; i++)
            if (run->enc->cs[i].owner == sh->owner &&
                enc_name_eq(run->enc->cs[i].sheet, sh->name))
                who = &run->enc->cs[i];
        if (who != NULL)
            RS_SAY(u->c, who, "{}'s saved sheet is back as it was before "
                   "the end.", RS_A_WHO(who));
    }
    return e;
}

bool cmd_writeback_undo(struct cmd_run *run)
{
    char tag[STORE_MAX_SHEET_TAG + 1];
    fight_tag(run, run->enc, tag);
    struct rs_opt opts[CMD_MAX_OPTS];
    struct rs_call c;
    cmd_rs_call(run, &c, opts);
    struct undo_ctx u = {run, &c, BOT_OK};
    if (store_sheet_tagged(run->ctx->store, run->req->guild_id, tag, put_back,
                           &u) != BOT_OK) {
        cmd_fail(run, i18n_get(run->req->lang, "the saved characters could "
                               "not be put back; nothing was changed, try "
                               "again"));
        return false;
    }
    return true;
}
