/*
 * cmd.c - the command pipeline: validate, load, authorize, apply, commit,
 * reply.
 *
 * One command is one transaction. The encounter is loaded into a working
 * copy, the handler changes the copy, and only a successful handler's copy
 * is saved, as a new version, together with the interaction id; the reply
 * is handed back only after the commit. Any failure rolls back, so a refused
 * or failed command leaves the channel exactly as it was.
 */
#include "cmd.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_config.h"
#include "cmd_form.h"
#include "proposal.h"
#include "cmd_run.h"
#include "cmd_share.h"
#include "cmd_validate.h"
#include "rs_kit.h"
#include "enc_cache.h"
#include "enc_json.h"
#include "custom_id.h"
#include "eng_alloc.h"
#include "eng_text.h"
#include "render_enc.h"
#include "rs_data.h"
#include "sbuf.h"
#include "store.h"

/* Decode the channel's live encounter from the store into run->enc (NULL
 * when none), and keep a copy in the cache. */
static enum bot_err load_stored(struct cmd_run *run)
{
    char *doc = NULL;
    int64_t version = 0;
    struct cmd_ctx *ctx = run->ctx;
    enum bot_err err = store_enc_load(ctx->store, run->req->channel_id,
                                      &doc, &version);
    if (err == BOT_NOTFOUND)
        return BOT_OK;
    if (err != BOT_OK)
        return err;
    char why[160];
    err = enc_json_load(doc, &run->enc, why, sizeof why);
    free(doc);
    if (err != BOT_OK)
        return err;
    run->enc->version = version;
    run->rs = rs_find(run->enc->ruleset);
    if (run->rs == NULL)
        return BOT_INVALID;
    if (ctx->cache != NULL)     /* without memory simply not cached */
        enc_cache_put(ctx->cache, run->req->channel_id, enc_clone(run->enc),
                      run->req->now_ms);
    return BOT_OK;
}

/* Drop the channel's cached state unless it is the live one. Only this
 * process writes an unshared store, so what it committed last is live; a
 * shared store is asked for the live version (one cheap read). */
static enum bot_err cache_check_live(struct cmd_run *run)
{
    struct cmd_ctx *ctx = run->ctx;
    uint64_t ch = run->req->channel_id;
    int64_t version = 0;
    if (!store_shared(ctx->store) ||
        !enc_cache_version(ctx->cache, ch, run->req->now_ms, &version))
        return BOT_OK;
    int64_t live = 0;
    enum bot_err err = store_enc_version(ctx->store, ch, &live);
    if (err == BOT_OK && live == version)
        return BOT_OK;
    enc_cache_drop(ctx->cache, ch);
    return err == BOT_NOTFOUND ? BOT_OK : err;
}

/* Load the channel's live encounter into run->enc (NULL when none): a copy
 * of the cached state, or decoded from the store. */
static enum bot_err load_encounter(struct cmd_run *run)
{
    struct cmd_ctx *ctx = run->ctx;
    if (ctx->cache != NULL) {
        enum bot_err err = cache_check_live(run);
        if (err == BOT_OK)
            err = enc_cache_copy(ctx->cache, run->req->channel_id,
                                 run->req->now_ms, &run->enc);
        if (err != BOT_OK)
            return err;
        if (run->enc != NULL) {
            run->rs = rs_find(run->enc->ruleset);
            return run->rs != NULL ? BOT_OK : BOT_INVALID;
        }
    }
    return load_stored(run);
}

/* After a rollback or any doubt: the cache must not outlive the store. */
static void cache_forget(struct cmd_ctx *ctx, uint64_t channel)
{
    if (ctx->cache != NULL)
        enc_cache_drop(ctx->cache, channel);
}

static const char *store_problem(enum i18n_lang lang, enum bot_err err)
{
    switch (err) {
    case BOT_DB_FULL:
        return i18n_get(lang, "the bot's disk is full, so nothing was saved; "
                        "tell the bot's operator");
    case BOT_DB_BUSY:
        return i18n_get(lang, "the bot is busy; nothing was changed, try "
                        "again");
    case BOT_NOMEM:
        return i18n_get(lang, CMD_NOMEM_TEXT);
    case BOT_CONFLICT:
        return i18n_get(lang, "this fight kept changing under the command; "
                        "nothing was changed, try again");
    default:
        return i18n_get(lang, "the bot could not read or save this "
                        "channel's fight; nothing was changed");
    }
}

void cmd_reply_fail_store(struct cmd_reply *r, enum bot_err err)
{
    cmd_reply_error(r, store_problem(r->lang, err), NULL);
    r->duplicate = false;
    r->version = -1;
}

/* The line this change leaves in the fight's history (run->change): what
 * the handler said, else the first of its events, kept to
 * ENC_MAX_CHANGE_TEXT bytes with a visible ellipsis. History keeps text:
 * the line is written in the table's language of the time, as the
 * change's public message was. */
static bool record_change(struct cmd_run *run)
{
    struct sbuf text;
    bool secret = run->change_secret;
    sbuf_init(&text, SIZE_MAX / 2);
    if (run->change != NULL)
        sbuf_add(&text, run->change);
    else if (run->first_ok && run->detail != NULL)
        render_change_summary_of(&text, run->detail, &run->first, run->res,
                                 &secret, cmd_public_lang(run));
    else
        render_change_summary(&text, run->enc, run->res, &secret,
                              cmd_public_lang(run));
    /* An approved proposal is the GM's change and the player's: the line
     * names the player, the author (by) is the GM. One sentence with the
     * change's words in it, so a language may put the name first. */
    if (run->again != NULL && sbuf_error(&text) != SBUF_NOMEM) {
        enum i18n_lang pub = cmd_public_lang(run);
        struct sbuf with;
        sbuf_init(&with, SIZE_MAX / 2);
        sbuf_addf(&with, i18n_get(pub, "%1$s (proposed by %2$s)"),
                  sbuf_str(&text),
                  run->again->p.user_name[0] != '\0'
                      ? run->again->p.user_name
                      : i18n_get(pub, "a player"));
        sbuf_cleanup(&text);
        text = with;
    }
    if (sbuf_error(&text) == SBUF_NOMEM) {
        sbuf_cleanup(&text);
        return false;
    }
    const char *t = sbuf_str(&text);
    size_t n = strlen(t);
    bool cut = n > ENC_MAX_CHANGE_TEXT;
    if (cut)
        n = sbuf_utf8_cut(t, ENC_MAX_CHANGE_TEXT);
    char *line = malloc(n + 4);
    if (line != NULL) {
        memcpy(line, t, n);
        memcpy(line + n, cut ? "\xE2\x80\xA6" : "", cut ? 4 : 1);
    }
    sbuf_cleanup(&text);
    free(run->change);
    run->change = line;
    run->change_secret = secret;
    return line != NULL;
}

/* Keep the channel's timer row at the clock's next due time (store.h),
 * in the save's transaction; the front end re-arms from the reply. The
 * row keeps the language the clock's posts fall back to, as this command
 * knows it: the server's /config language: is read when the timer fires,
 * so a setting made since still wins, and no command pays a read. */
static enum bot_err clock_sync(struct cmd_run *run)
{
    int64_t next = enc_clock_next(run->enc);
    if (next == run->timer0)
        return BOT_OK;
    run->reply->clock_changed = true;
    run->reply->clock_due = next;
    return store_timer_set(run->ctx->store, run->req->channel_id,
                           run->req->guild_id, next,
                           cmd_public_fallback(run->req));
}

/* Room kept at the end of a detail for the note that it was cut. */
/* The notice of a fold, bytes: its longest wording in any language
 * (the pseudo-language's accents take two bytes a letter) with 19-digit
 * numbers. */
#define CMD_FOLD_NOTICE_MAX 1024
#define DETAIL_NOTE "\n_\xE2\x80\xA6 more happened in this change than the " \
                    "history keeps_"

/* text (taken) kept to STORE_MAX_CHANGE_DETAIL bytes: cut after the last
 * whole line that fits, with a note. NULL (text freed) on no memory. */
static char *detail_cut(char *text)
{
    size_t n = text != NULL ? strlen(text) : 0;
    if (n <= STORE_MAX_CHANGE_DETAIL)
        return text;
    size_t keep = sbuf_utf8_cut(text, STORE_MAX_CHANGE_DETAIL -
                                      sizeof DETAIL_NOTE);
    while (keep > 0 && text[keep - 1] != '\n')
        keep--;
    keep = keep > 0 ? keep - 1 : 0;
    memcpy(text + keep, DETAIL_NOTE, sizeof DETAIL_NOTE);
    return text;
}

/* The events as a viewer saw them (markdown, every die); NULL on no
 * memory. *secret (when not NULL): whether the GM's view differs. */
static char *detail_of(struct cmd_run *run, bool gm, bool *secret)
{
    struct sbuf b;
    sbuf_init(&b, RENDER_EVENTS_MAX);
    bool s = render_events_text(&b, run->enc, run->res, gm,
                                cmd_public_lang(run));
    if (secret != NULL)
        *secret = s;
    char *out = sbuf_error(&b) == SBUF_NOMEM ? NULL : sbuf_take(&b);
    sbuf_cleanup(&b);
    return out;
}

/* What this change showed, for /combat recap and /combat log: the public
 * text and, when hidden numbers made them differ, the GM's. The reply
 * has usually rendered both already (reply_events keeps copies); else
 * (the console's GM, whose reply is the GM's view) they are rendered
 * here. */
static bool record_detail(struct cmd_run *run)
{
    if (!run->detail_kept) {
        bool secret = false;
        free(run->detail);
        free(run->gm_detail);
        run->gm_detail = NULL;
        run->detail = detail_of(run, false, &secret);
        if (run->detail != NULL && secret)
            run->gm_detail = detail_of(run, true, NULL);
        if (run->detail == NULL || (secret && run->gm_detail == NULL))
            return false;
    }
    run->detail = detail_cut(run->detail);
    run->gm_detail = detail_cut(run->gm_detail);
    return run->detail != NULL;
}

/* The notice of a fold (store.h, "bounds on a fight's history"), in the
 * words a GM reads: which bound, what went, where the rest is. */
static void fold_notice(enum i18n_lang lang, const struct store_fold *f,
                        char *buf, size_t n)
{
    if (f->why == STORE_FOLD_FIGHT)
        snprintf(buf, n, i18n_nget(lang, "This fight's history reached its "
                 "bound (%lld KB or %lld change): its oldest changes, up to "
                 "version %lld, were folded into a summary. /combat history "
                 "and /combat log keep the rest; /combat undo cannot go back "
                 "past it.", "This fight's history reached its bound (%lld "
                 "KB or %lld changes): its oldest changes, up to version "
                 "%lld, were folded into a summary. /combat history and "
                 "/combat log keep the rest; /combat undo cannot go back "
                 "past it.", (unsigned long)f->limit_lines),
                 (long long)(f->limit / 1024), (long long)f->limit_lines,
                 (long long)f->upto);
    else if (f->this_fight)
        snprintf(buf, n, i18n_get(lang, "This server's fights keep at most "
                 "%lld MB of history, and this fight had the most: its "
                 "oldest changes, up to version %lld, were folded into a "
                 "summary."),
                 (long long)(f->limit >> 20), (long long)f->upto);
    else
        snprintf(buf, n, i18n_get(lang, "This server's fights keep at most "
                 "%lld MB of history: the oldest changes of the fight with "
                 "the most (up to its version %lld) were folded into a "
                 "summary."),
                 (long long)(f->limit >> 20), (long long)f->upto);
}

/* Add the fold's notice under the reply, as small text. */
static void add_fold_notice(struct cmd_run *run)
{
    if (run->fold.why == STORE_FOLD_NONE)
        return;
    char note[CMD_FOLD_NOTICE_MAX];
    /* under the reply: the language of whoever reads the reply */
    fold_notice(run->reply->ephemeral ? run->req->lang : cmd_public_lang(run),
                &run->fold, note, sizeof note);
    struct msg *m = &run->reply->msg;
    if (m->v2 != NULL) {
        char line[CMD_FOLD_NOTICE_MAX + 8];
        snprintf(line, sizeof line, "-# %s", note);
        msg_v2_add(m->v2, MSG_V2_TEXT, line);
        return;
    }
    char *old = m->content;
    m->content = NULL;
    if (!msg_set_content(m, "%s%s-# %s", old != NULL ? old : "",
                         old != NULL && old[0] != '\0' ? "\n" : "", note))
        m->content = old;       /* no memory: the reply as it was */
    else
        free(old);
}

/* Save run->enc as the next version and record the interaction. */
static enum bot_err save_encounter(struct cmd_run *run)
{
    struct encounter *e = run->enc;
    e->version = run->loaded + 1;
    /* The combatants the command left alone are copied from the document
     * of the state it started from, when the cache still holds both. */
    const struct enc_json_doc *prev_doc = NULL;
    const struct encounter *prev =
        run->ctx->cache != NULL
            ? enc_cache_hot_doc(run->ctx->cache, run->req->channel_id,
                                &prev_doc)
            : NULL;
    if (prev != NULL && prev->version != run->loaded)
        prev = NULL;
    if (!enc_json_dump_doc(e, prev, prev_doc, &run->doc))
        return BOT_NOMEM;
    const char *doc = run->doc.text;
    /* A name past the store's bound is kept cut, not refused: the change
     * matters more than its author's whole name. */
    char name[STORE_MAX_CHANGE_NAME + 1] = "";
    const char *by = run->req->user_name ? run->req->user_name : "";
    size_t n = sbuf_utf8_cut(by, strnlen(by, STORE_MAX_CHANGE_NAME));
    memcpy(name, by, n);
    name[n] = '\0';
    struct store_change_rec line = {
        .version = e->version, .by = run->req->user_id,
        .at_ms = run->req->now_ms, .secret = run->change_secret,
        .text = run->change, .detail = run->detail,
        .gm_detail = run->gm_detail, .by_name = name,
    };
    /* An undo stores the restored state as a new version and consumes a
     * step of the undo chain; any other change pushes onto it. A change
     * to a running fight saves its history line in the same step (one
     * write of the fight's row fewer); a new fight first gets its
     * server, which its history's bound counts by. */
    bool with_line = !run->is_undo && run->loaded != 0 && run->change != NULL;
    enum bot_err err =
        run->is_undo ? store_enc_save_undo(run->ctx->store,
                                           run->req->channel_id, e->version,
                                           doc)
        : with_line  ? store_enc_save_line(run->ctx->store,
                                           run->req->channel_id, e->version,
                                           doc, &line)
                     : store_enc_save(run->ctx->store, run->req->channel_id,
                                      e->version, doc);
    if (err == BOT_OK && run->loaded == 0 && run->req->guild_id != 0)
        err = store_enc_set_guild(run->ctx->store, run->req->channel_id,
                                  run->req->guild_id);
    if (err == BOT_OK && run->change != NULL && !with_line) {
        err = store_change_add(run->ctx->store, run->req->channel_id, &line);
        store_hist_last_fold(run->ctx->store, &run->fold);
    } else if (with_line) {
        store_hist_last_fold(run->ctx->store, &run->fold);
    }
    if (err == BOT_OK && run->ended)
        err = cmd_recap_forget(run);
    if (err == BOT_OK && run->ended)
        err = cmd_share_forget(run->ctx->store, run->req->channel_id);
    if (err == BOT_OK && run->ended)
        err = proposal_forget_channel(run->ctx->store, run->req->channel_id);
    if (err == BOT_OK && run->ended)
        err = store_enc_archive(run->ctx->store, run->req->channel_id,
                                run->req->now_ms);
    if (err == BOT_OK)
        err = clock_sync(run);
    return err;
}

/* The systems that have command spec's verb, as "cards, teams". */
static void systems_with(const struct cmd_spec *spec, char *buf, size_t n)
{
    size_t nrs, at = 0;
    const struct rs_system *const *all = rs_all(&nrs);
    buf[0] = '\0';
    for (size_t k = 0; k < nrs; k++)
        if (rs_cmd_find(all[k], spec->command, spec->sub) != NULL) {
            int w = snprintf(buf + at, n - at, "%s%s", at ? ", " : "",
                             all[k]->id);
            if (w < 0 || (size_t)w >= n - at)
                break;
            at += (size_t)w;
        }
}

/* What only the fight's system can say: a ruleset command must be one of
 * its commands (then its own declaration applies: its options, its GM
 * rule), and an option a system adds to a core command must be this
 * system's. */
static bool check_system(struct cmd_run *run)
{
    const struct cmd_spec *spec = run->spec;
    char name[64], list[160];
    if (spec->rs != NULL) {
        if (rs_cmd_find(run->rs, spec->command, spec->sub) == NULL) {
            cmd_spec_name(spec, name, sizeof name);
            systems_with(spec, list, sizeof list);
            cmd_fail(run, i18n_get(run->req->lang, "%s is a command of the "
                     "%s system; this fight plays %s (see /help topic:%s)"),
                     name, list, run->rs->id, run->rs->id);
            return false;
        }
        if (spec->rs != run->rs &&
            cmd_lookup(spec->command, spec->sub, run->rs, &run->view))
            run->spec = &run->view;
        return true;
    }
    char key[64];
    cmd_core_key(spec, key, sizeof key);
    const struct rs_opt_spec *mine = rs_ext_opts(run->rs, key);
    struct rs_opt given[RS_MAX_EXT_OPTS];
    int ngiven = 0;
    for (int i = 0; i < run->req->nopts; i++) {
        const char *opt = run->req->opts[i].name;
        const struct rs_system *owner = cmd_ext_owner(spec, opt);
        if (owner == NULL)
            continue;
        bool ok = false;
        for (int k = 0; mine != NULL && mine[k].name != NULL && !ok; k++)
            ok = eng_text_casecmp(mine[k].name, opt) == 0;
        if (!ok) {
            cmd_fail(run, i18n_get(run->req->lang, "%s: is an option of the "
                     "%s system; this fight plays %s"), opt, owner->id,
                     run->rs->id);
            return false;
        }
        if (ngiven < RS_MAX_EXT_OPTS)
            given[ngiven++] = (struct rs_opt){opt, run->req->opts[i].value};
    }
    /* The system's own options on this core command, typed for it. */
    if (ngiven > 0) {
        struct rs_opt opts[CMD_MAX_OPTS];
        struct rs_call c;
        cmd_rs_call(run, &c, opts);
        if (rs_bind(&c, key, mine, given, ngiven, run->ext, RS_MAX_EXT_OPTS,
                    &run->next, &run->diag) != ENG_OK) {
            cmd_fail_diag(run, &run->diag);
            return false;
        }
    }
    return true;
}

bool cmd_run_as(struct cmd_run *run, const struct cmd_req *req)
{
    char err[CMD_VALIDATE_ERR_MAX];
    if (!cmd_validate(req, &run->view, err, sizeof err)) {
        cmd_fail(run, "%s", err);
        return false;
    }
    run->req = req;
    run->spec = &run->view;
    run->next = 0;
    if (!check_system(run))
        return false;
    run->spec->handler(run);
    return !run->failed;
}

static void run_handler(struct cmd_run *run)
{
    const struct cmd_spec *spec = run->spec;
    const struct cmd_req *req = run->req;
    if ((spec->flags & CMD_F_NEEDS_ENC) && run->enc == NULL) {
        /* Undo right after an end means the end was the mistake. */
        bool undo = spec->sub != NULL && strcmp(spec->sub, "undo") == 0;
        cmd_reply_error(run->reply,
                        undo ? i18n_get(req->lang, "there is no fight in "
                                        "this channel to undo in; a fight "
                                        "that just ended can be brought "
                                        "back")
                             : i18n_get(req->lang, "there is no fight in "
                                        "this channel"),
                        undo ? "/combat reopen"
                             : "/combat start system:generic");
        run->failed = true;
        return;
    }
    /* The fight's own system decides what its command is (and whether
     * it is the GM's), so that check comes first. */
    if (run->enc != NULL && !check_system(run))
        return;
    spec = run->spec;
    if ((spec->flags & CMD_F_GM_ONLY) && run->enc != NULL && !run->is_gm) {
        char name[64];
        cmd_fail(run, i18n_get(req->lang, "only the GM may use %s (the GM "
                 "is whoever started the fight, or anyone with Manage "
                 "Channels)"),
                 cmd_spec_name(spec, name, sizeof name));
        return;
    }
    if ((req->expect_version >= 0 || req->picker) &&
        (run->enc == NULL || req->expect_fight != run->enc->fight_id)) {
        /* A button left from a fight that is over, or from an earlier
         * fight in this channel: it belongs to no fight there is. */
        cmd_fail(run, "%s", i18n_get(req->lang, "That button is from an "
                 "earlier fight in this channel; it does nothing now."));
        return;
    }
    if (req->expect_version >= 0 && run->enc != NULL &&
        req->expect_version != run->enc->version) {
        /* A button from an older tracker: show where things stand now and
         * change nothing. */
        msg_cleanup(&run->reply->msg);
        msg_set_content(&run->reply->msg, "%s", i18n_get(req->lang, "That "
                        "button is from an older state of the fight; here "
                        "is the current one."));
        render_tracker_at(&run->reply->msg, run->enc, run->is_gm,
                          run->req->now_ms, run->req->lang);
        run->reply->ephemeral = true;
        run->reply->is_error = true;
        run->failed = true;
        return;
    }
    spec->handler(run);
}

/* A GM copy goes to the guild's GM channel when one is configured. */
static void reply_route_gm_copy(struct cmd_ctx *ctx, const struct cmd_req *req,
                                struct cmd_reply *reply)
{
    /* a user install answers only through the interaction */
    if (reply->gm_copy != NULL && req->guild_id != 0 && !req->user_install)
        reply->gm_channel = cmd_config_gm_channel(ctx->store, req->guild_id);
}

/* Back to the state before the first try of req: no encounter, empty
 * reply. */
static void run_reset(struct cmd_run *run, const struct cmd_req *req)
{
    struct cmd_run fresh = {.ctx = run->ctx, .req = req,
                            .view = run->view, .reply = run->reply,
                            .res = run->res};
    enc_free(run->enc);
    enc_json_doc_free(&run->doc);
    free(run->again);
    free(run->change);
    free(run->detail);
    free(run->gm_detail);
    *run = fresh;
    run->spec = &run->view;
    enc_result_reset(run->res);
    uint64_t channel = run->reply->channel_id;
    enum i18n_lang lang = run->reply->lang;
    cmd_reply_cleanup(run->reply);
    run->reply->channel_id = channel;
    run->reply->lang = lang;
}

/* One try of a command that reads or changes the encounter, in its own
 * transaction. Returns true when the save met a newer state written by
 * someone else (BOT_CONFLICT): everything was rolled back and the command
 * may run again; otherwise the reply is final. */
static bool try_stateful(struct cmd_run *run)
{
    struct cmd_ctx *ctx = run->ctx;
    const struct cmd_req *req = run->req;
    struct cmd_reply *reply = run->reply;

    enum bot_err berr = store_begin(ctx->store);
    if (berr == BOT_OK && req->interaction_id != NULL) {
        bool seen = false;
        berr = store_interaction_seen(ctx->store, req->interaction_id, &seen);
        if (berr == BOT_OK && seen) {
            store_rollback(ctx->store);
            reply->duplicate = true;
            msg_set_content(&reply->msg, "%s", i18n_get(req->lang, "That was "
                            "already done."));
            reply->ephemeral = true;
            return false;
        }
    }
    if (berr == BOT_OK)
        berr = load_encounter(run);
    if (berr != BOT_OK) {
        store_rollback(ctx->store);
        cache_forget(ctx, req->channel_id);
        cmd_reply_error(reply, store_problem(req->lang, berr), NULL);
        return false;
    }
    run->loaded = run->enc != NULL ? run->enc->version : 0;
    run->is_gm = cmd_sender_is_gm(req, run->enc);
    if (run->enc != NULL) {
        enc_wait_of(run->enc, &run->wait0);
        run->timer0 = enc_clock_next(run->enc);
    }

    run_handler(run);
    if (!run->failed && run->changed &&
        (!record_change(run) || !record_detail(run)))
        run->res->nomem = true;
    if (!run->failed && run->res->nomem) {
        /* Part of what happened could not be recorded: saving the change
         * would show the table less than the truth. */
        cmd_reply_error(reply, i18n_get(req->lang, CMD_NOMEM_TEXT), NULL);
        run->failed = true;
    }

    if (!run->failed && !run->changed && run->keep) {
        /* Bookkeeping of a read-only command: kept, or the command is
         * answered as if it had not been; no version, no cache change. */
        berr = store_commit(ctx->store);
        if (berr != BOT_OK) {
            cache_forget(ctx, req->channel_id);
            cmd_reply_error(reply, store_problem(req->lang, berr), NULL);
        }
        return false;
    }
    if (run->failed || !run->changed) {
        /* Read-only commands still record the interaction so a replay is
         * answered the same way; refusals are not recorded: the user may
         * simply try again. */
        store_rollback(ctx->store);
        return false;
    }

    berr = save_encounter(run);
    if (berr == BOT_OK && req->interaction_id != NULL)
        berr = store_interaction_record(ctx->store, req->interaction_id,
                                        req->channel_id, run->enc->version,
                                        req->now_ms);
    if (berr != BOT_OK)
        store_rollback(ctx->store);
    else
        berr = store_commit(ctx->store);  /* rolls back itself on failure */
    if (berr != BOT_OK) {
        cache_forget(ctx, req->channel_id);
        if (berr == BOT_CONFLICT)
            return true;
        cmd_reply_error(reply, store_problem(req->lang, berr), NULL);
        return false;
    }
    reply->changed = true;
    reply->version = run->enc->version;
    add_fold_notice(run);
    reply_route_gm_copy(ctx, req, reply);
    if (ctx->cache != NULL) {
        if (run->ended) {
            enc_cache_drop(ctx->cache, req->channel_id);
        } else {
            enc_cache_put(ctx->cache, req->channel_id, run->enc,
                          req->now_ms);
            run->enc = NULL;
            enc_cache_keep_doc(ctx->cache, req->channel_id, &run->doc);
        }
    }
    return false;
}

bool cmd_exec(struct cmd_ctx *ctx, const struct cmd_req *req,
              struct cmd_reply *reply)
{
    cmd_reply_init(reply);
    reply->channel_id = req->channel_id;
    reply->lang = req->lang;
    /* A form opens, or a submitted one is checked, before anything runs
     * (cmd_form.c): opening one reads and stores nothing. */
    if (cmd_form_exec(ctx, req, reply))
        return true;

    char err[CMD_VALIDATE_ERR_MAX];
    struct cmd_run run = {
        .ctx = ctx,
        .req = req,
        .reply = reply,
    };
    if (!cmd_validate(req, &run.view, err, sizeof err)) {
        cmd_reply_error(reply, err, "/help");
        return true;
    }
    run.spec = &run.view;
    cmd_diag_lang(&run);
    /* An answer to a proposal clicked in the GM channel acts on the
     * fight its button names (cmd_proposal.c checks the rest). */
    struct cmd_req moved;
    if (cmd_proposal_route(ctx->store, req, &moved)) {
        req = &moved;
        run.req = req;
        reply->channel_id = req->channel_id;
    }
    const struct cmd_spec *spec = run.spec;
    /* Discord delivers a command only where it is declared; one that
     * arrives elsewhere all the same (an old registration) is refused
     * as such, not run in a channel with no server behind it. */
    if (req->source == CMD_SRC_DISCORD && req->guild_id == 0 &&
        !(spec->contexts & CMD_CTX_DM)) {
        cmd_reply_error(reply, i18n_get(req->lang, "this command works in a "
                        "server's channel; here, in a DM with fray, you can "
                        "roll dice, keep your saved rolls (/macro) and read "
                        "the help"), "/roll dice:2d6+3");
        return true;
    }
    /* Installed by the user alone, fray has no bot in this server: a
     * fight, a setting or a sheet's change would need one. */
    if (req->source == CMD_SRC_DISCORD && req->user_install &&
        !(spec->contexts & CMD_CTX_USER)) {
        cmd_reply_error(reply, i18n_get(req->lang, CMD_USER_INSTALL_REFUSAL),
                        "/roll dice:2d6+3");
        return true;
    }
    /* A server-wide setting is the server managers', whatever the
     * member may do in this one channel. Without a server (the console)
     * the handler says there is nothing to set. */
    if ((spec->flags & CMD_F_SERVER) && req->guild_id != 0 &&
        !cmd_sender_manages_server(req)) {
        char name[64];
        cmd_fail(&run, i18n_get(req->lang, "%s needs the Manage Server "
                 "permission (or Administrator): it changes fray for the "
                 "whole server"),
                 cmd_spec_name(spec, name, sizeof name));
        return true;
    }
    bool own_res = ctx->result == NULL;
    run.res = own_res ? eng_malloc(sizeof *run.res) : ctx->result;
    if (run.res == NULL) {
        cmd_reply_error(reply, i18n_get(req->lang, CMD_NOMEM_TEXT), NULL);
        return true;
    }
    enc_result_init(run.res);

    bool stateful = (spec->flags & (CMD_F_NEEDS_ENC | CMD_F_MUTATES)) != 0;
    if (!stateful) {
        run.is_gm = cmd_sender_is_gm(req, NULL);
        spec->handler(&run);
        enc_result_cleanup(run.res);
        if (own_res)
            eng_free(run.res);
        reply_route_gm_copy(ctx, req, reply);
        return true;
    }

    for (int attempt = 1; try_stateful(&run); attempt++) {
        if (attempt == CMD_MAX_ATTEMPTS) {
            cmd_reply_error(reply, store_problem(req->lang, BOT_CONFLICT),
                            NULL);
            break;
        }
        /* Another writer got there first: start over on its state. */
        run_reset(&run, req);
        if (cmd_validate(req, &run.view, err, sizeof err))
            run.spec = &run.view;
    }
    enc_free(run.enc);
    enc_json_doc_free(&run.doc);
    free(run.again);
    free(run.change);
    free(run.detail);
    free(run.gm_detail);
    enc_result_cleanup(run.res);
    if (own_res)
        eng_free(run.res);
    return true;
}
