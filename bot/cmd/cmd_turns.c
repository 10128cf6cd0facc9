/*
 * cmd_turns.c - running a fight: begin, next, pick, pass, status, undo,
 * end, notices, and ruleset commands.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_config.h"
#include "cmd_run.h"
#include "cmd_tally.h"
#include "custom_id.h"
#include "sbuf.h"
#include "rs_kit.h"
#include "enc_json.h"
#include "eng_text.h"
#include "render_enc.h"
#include "rs.h"
#include "store.h"

static bool require_running(struct cmd_run *run)
{
    enum i18n_lang lang = run->req->lang;
    if (run->enc->status == ENC_ST_RUNNING)
        return true;
    if (run->enc->status == ENC_ST_SETUP)
        cmd_fail(run, i18n_get(lang, "the fight has not begun "
                                               "yet\nTry: `/combat begin`"));
    else
        cmd_fail(run, i18n_get(lang, "this fight is over"));
    return false;
}

/* Call a ruleset op that takes only the call; fail with its diagnostic. */
static bool call_op(struct cmd_run *run,
                    enum eng_err (*op)(struct rs_call *c))
{
    struct rs_opt opts[CMD_MAX_OPTS];
    struct rs_call c;
    cmd_rs_call(run, &c, opts);
    if (op(&c) == ENG_OK)
        return true;
    cmd_fail_diag(run, &run->diag);
    return false;
}

void cmd_combat_begin(struct cmd_run *run)
{
    enum i18n_lang lang = run->req->lang;
    if (run->enc->status != ENC_ST_SETUP) {
        cmd_fail(run, run->enc->status == ENC_ST_RUNNING
                          ? i18n_get(lang, "the fight has already "
                                                     "begun")
                          : i18n_get(lang, "this fight is over"));
        return;
    }
    if (run->enc->ncs == 0) {
        cmd_fail(run, i18n_get(lang, "there is nobody to fight "
                                               "yet\nTry: `/combat add "
                                               "name:Goblin count:3`"));
        return;
    }
    if (!call_op(run, run->rs->ops->begin))
        return;
    cmd_finish(run, i18n_get(cmd_public_lang(run), "Roll for initiative!"),
               true);
}

void cmd_combat_next(struct cmd_run *run)
{
    enum i18n_lang lang = run->req->lang;
    if (!require_running(run))
        return;
    const struct enc_combatant *cur = enc_current(run->enc);
    if (cur != NULL && !cmd_may_act(run, cur))
        return;
    if (cur == NULL && !run->is_gm) {
        cmd_fail(run, i18n_get(lang, "nobody's turn is running; "
                                               "only the GM may move the "
                                               "fight on"));
        return;
    }
    if (!call_op(run, run->rs->ops->next))
        return;
    cmd_finish(run, i18n_get(cmd_public_lang(run), "Next turn"), true);
}

void cmd_combat_pick(struct cmd_run *run)
{
    enum i18n_lang lang = run->req->lang;
    if (!require_running(run))
        return;
    if (run->rs->ops->pick == NULL) {
        cmd_fail(run, i18n_get(lang, "the %s system has a fixed "
                                               "turn order; use /combat "
                                               "next"), run->rs->id);
        return;
    }
    struct enc_combatant *who = cmd_combatant(run, "name");
    if (who == NULL || !cmd_may_act(run, who))
        return;
    struct rs_opt opts[CMD_MAX_OPTS];
    struct rs_call c;
    cmd_rs_call(run, &c, opts);
    if (run->rs->ops->pick(&c, who) != ENG_OK) {
        cmd_fail_diag(run, &run->diag);
        return;
    }
    cmd_finish(run, i18n_get(cmd_public_lang(run), "Pick"), true);
}

void cmd_combat_pass(struct cmd_run *run)
{
    enum i18n_lang lang = run->req->lang;
    if (!require_running(run))
        return;
    if (run->rs->ops->pass == NULL) {
        cmd_fail(run, i18n_get(lang, "sides do not pass in the %s "
                                               "system; use /combat "
                                               "next"), run->rs->id);
        return;
    }
    if (!call_op(run, run->rs->ops->pass))
        return;
    cmd_finish(run, i18n_get(cmd_public_lang(run), "Pass"), true);
}

void cmd_combat_status(struct cmd_run *run)
{
    bool private = false;
    if (!cmd_opt_bool(run, "private", false, &private))
        return;
    struct cmd_reply *reply = run->reply;
    bool gm_view = run->is_gm &&
                   (private || run->req->source == CMD_SRC_CONSOLE);
    /* On Discord the same shape as the live tracker (the GM's private
     * view with the numbers); the console keeps its text. */
    if (run->req->source == CMD_SRC_DISCORD)
        render_tracker_v2(&reply->msg, run->enc, gm_view, run->req->now_ms,
                          NULL, private ? run->req->lang
                                        : cmd_public_lang(run));
    else
        render_tracker_at(&reply->msg, run->enc, gm_view, run->req->now_ms,
                          private ? run->req->lang : cmd_public_lang(run));
    reply->ephemeral = private;
}

/* The first line of a history listing, copied. */
struct first_line {
    char *text;
    bool secret;
};

static enum bot_err take_first(void *ctx, const struct store_change_rec *r)
{
    struct first_line *f = ctx;
    if (f->text == NULL) {
        f->text = strdup(r->text);
        f->secret = r->secret;
    }
    return f->text != NULL ? BOT_OK : BOT_NOMEM;
}

/* Replace run->enc by the state before its last change (a step of the
 * undo chain). reopen: the last change was the end, taken back by
 * /combat reopen. */
static void step_back(struct cmd_run *run, bool reopen)
{
    enum i18n_lang lang = run->req->lang;
    struct encounter *e = run->enc;
    char *doc = NULL;
    int64_t found = 0;
    enum bot_err err = store_enc_load_before(run->ctx->store,
                                             run->req->channel_id,
                                             e->version, &doc, &found);
    /* The changes before the fold point were folded into a summary
     * (store.h, "bounds on a fight's history"): undo stops there. */
    struct store_hist_info hist = {0};
    if ((err == BOT_OK || err == BOT_NOTFOUND) &&
        store_hist_info(run->ctx->store, run->req->channel_id, &hist) ==
            BOT_OK &&
        hist.folded_to > 0 && (err == BOT_NOTFOUND || found < hist.folded_to)) {
        free(doc);
        if (err == BOT_NOTFOUND)
            cmd_fail(run, i18n_get(lang,
                                   "there is nothing more to undo: undo "
                                   "reaches the last %d changes, and this "
                                   "fight's changes up to version %lld were "
                                   "folded into a summary (see /combat "
                                   "history)"),
                     ENC_UNDO_DEPTH, (long long)hist.folded_to);
        else
            cmd_fail(run, i18n_get(lang,
                                   "undo cannot go further back: this fight's "
                                   "changes up to version %lld were folded "
                                   "into a summary to keep its history within "
                                   "its bound (see /combat history)"),
                     (long long)hist.folded_to);
        return;
    }
    if (err == BOT_NOTFOUND) {
        cmd_fail(run, i18n_get(lang,
                               "there is nothing to undo (the last %d changes "
                               "can be undone)"), ENC_UNDO_DEPTH);
        return;
    }
    struct encounter *old = NULL;
    char why[160];
    if (err == BOT_OK)
        err = enc_json_load(doc, &old, why, sizeof why);
    free(doc);
    if (err != BOT_OK) {
        cmd_fail(run, err == BOT_NOMEM
                          ? i18n_get(lang,
                                     "the bot ran out of memory; nothing was "
                                     "changed")
                          : i18n_get(lang,
                                     "the earlier state could not be read; "
                                     "nothing was changed"));
        return;
    }
    /* What is taken back, in the words its change left in the history:
     * the first change after the state undo returns to (the later ones
     * are undos of their own). The line this undo leaves is written in
     * the table's language, as every history line is (cmd.c). */
    enum i18n_lang pub = cmd_public_lang(run);
    struct first_line last = {NULL, false};
    if (!reopen)
        store_change_list(run->ctx->store, run->req->channel_id, found,
                          false, 1, NULL, take_first, &last);
    bool secret = !reopen && last.text != NULL && last.secret;
    char *what = reopen ? NULL
                 : last.text != NULL ? last.text
                                     : strdup(i18n_get(pub,
                                                       "the last change"));
    struct sbuf line;
    sbuf_init(&line, SIZE_MAX / 2);
    if (reopen)
        sbuf_add(&line, i18n_get(pub, "Reopened the fight"));
    else if (what != NULL)
        sbuf_addf(&line, i18n_get(pub, "Undid: %s"), what);
    run->change = (reopen || what != NULL) && sbuf_error(&line) == SBUF_OK
                      ? sbuf_take(&line) : NULL;
    sbuf_cleanup(&line);
    if (run->change == NULL) {
        free(what);
        enc_free(old);
        cmd_fail(run, i18n_get(lang,
                               "the bot ran out of memory; nothing was "
                               "changed"));
        return;
    }
    run->change_secret = secret;
    /* The restored state is saved as the next version, so buttons drawn
     * for any earlier version stay stale. */
    old->version = e->version;
    enc_free(e);
    run->enc = old;
    run->is_undo = true;
    struct rs_opt opts[CMD_MAX_OPTS];
    struct rs_call c;
    cmd_rs_call(run, &c, opts);
    if (reopen) {
        rs_say0(&c, NULL, i18n_get(pub, "The fight is back, as it was "
                                   "before it ended."));
    } else {
        if (secret)
            rs_say0(&c, NULL, i18n_get(pub, "Undid a change that only the "
                                       "GM sees."));
        RS_SAY(&c, NULL, i18n_get(pub, "Undid: {}"),
               RS_A_USER(what))->secret = secret;
    }
    free(what);
    cmd_finish(run, reopen ? i18n_get(pub, "Reopened")
                           : i18n_get(pub, "Undo"), true);
}

void cmd_combat_undo(struct cmd_run *run)
{
    step_back(run, false);
}

/* Lines of /combat history as the sender may read them. */
struct history {
    struct sbuf b;
    bool gm;
    enum i18n_lang lang;         /* the reader's */
    size_t shown;
};

static enum bot_err history_line(void *ctx, const struct store_change_rec *c)
{
    struct history *h = ctx;
    char *text = cmd_change_line(c, h->lang);
    sbuf_addf(&h->b, "`v%" PRId64 "` <@%" PRIu64 ">: %s\n", c->version, c->by,
              c->secret && !h->gm
                  ? i18n_get(h->lang, "_a change only the GM sees_")
              : text != NULL ? text : "");
    free(text);
    h->shown++;
    return BOT_OK;
}

void cmd_combat_history(struct cmd_run *run)
{
    int64_t count = 10;
    if (!cmd_opt_int(run, "count", 10, &count))
        return;
    enum i18n_lang lang = run->req->lang;
    struct history h = {.gm = run->is_gm, .lang = lang};
    size_t total = 0;
    /* whole: the renderer folds a long list at Discord's limits */
    sbuf_init(&h.b, SIZE_MAX / 2);
    enum bot_err err = store_change_list(run->ctx->store,
                                         run->req->channel_id, 0, true,
                                         (size_t)count, &total,
                                         history_line, &h);
    if (err != BOT_OK) {
        sbuf_cleanup(&h.b);
        cmd_fail(run, i18n_get(lang, "the fight's history could not be "
                               "read"));
        return;
    }
    struct sbuf b = h.b;
    struct store_hist_info hist = {0};
    if (h.shown == 0)
        sbuf_add(&b, i18n_get(lang, "Nothing has happened in this fight "
                                    "yet."));
    else if (total > h.shown)
        sbuf_addf(&b, i18n_get(lang, "_\xE2\x80\xA6 and %zu earlier "
                                     "(count: shows more)_"),
                  total - h.shown);
    /* The summary may be past the page: say it is there. */
    if (total > h.shown &&
        store_hist_info(run->ctx->store, run->req->channel_id, &hist) ==
            BOT_OK && hist.folded_to > 0) {
        sbuf_add(&b, "\n");
        sbuf_addf(&b, i18n_get(lang, "_Changes up to v%lld were folded "
                                     "into a summary to keep the fight's "
                                     "history within its bound._"),
                  (long long)hist.folded_to);
    }
    struct msg_embed *em = msg_add_embed(&run->reply->msg, MSG_STYLE_INFO,
                                         i18n_get(lang, "What happened"));
    if (em != NULL)
        msg_embed_set_description(em, sbuf_str(&b));
    run->reply->ephemeral = true;
    sbuf_cleanup(&b);
}

/* The end's summary: the fight's numbers (cmd_tally.h). */
static void end_summary(struct cmd_run *run)
{
    struct rs_opt opts[CMD_MAX_OPTS];
    struct rs_call c;
    cmd_rs_call(run, &c, opts);
    cmd_tally_say(&c, cmd_public_lang(run));
}

void cmd_combat_end(struct cmd_run *run)
{
    struct encounter *e = run->enc;
    bool confirm = false;
    if (!cmd_opt_bool(run, "confirm", false, &confirm))
        return;
    if (!confirm) {
        /* Ending archives the fight for everyone: the GM says so twice. */
        char id[CUSTOM_ID_MAX + 1];
        int minutes = (int)(cmd_reopen_ms(run->ctx) / 60000);
        enum i18n_lang lang = run->req->lang;
        msg_set_content(&run->reply->msg,
                        i18n_nget(lang, "End **this fight** for everyone? It "
                                        "is archived, and you can bring it "
                                        "back with `/combat reopen` within %d "
                                        "minute. Press the button, or type "
                                        "`/combat end confirm:true`.",
                                  "End **this fight** for everyone? It is "
                                  "archived, and you can bring it back with "
                                  "`/combat reopen` within %d minutes. Press "
                                  "the button, or type `/combat end "
                                  "confirm:true`.", (unsigned long)minutes),
                        minutes);
        if (custom_id_make(id, sizeof id, "combat", "end",
                                       e->fight_id, e->version, "confirm",
                                       "true"))
            msg_add_button(&run->reply->msg,
                           i18n_get(lang, "End the fight"), id,
                           MSG_BTN_DANGER);
        run->reply->ephemeral = true;
        return;
    }
    end_summary(run);
    if (!cmd_writeback_end(run))
        return;
    e->status = ENC_ST_ENDED;
    e->current = 0;
    enc_emit(run->res, ENC_EV_END, 0);
    run->ended = true;
    cmd_finish(run, i18n_get(cmd_public_lang(run),
                             "The end"), true);
}

void cmd_combat_reopen(struct cmd_run *run)
{
    const struct cmd_req *req = run->req;
    struct store *store = run->ctx->store;
    if (run->enc != NULL) {
        cmd_fail(run, i18n_get(req->lang, "this channel's fight is still on; "
                                          "there is nothing to reopen"));
        return;
    }
    if (!cmd_live_quota_ok(run))
        return;
    int64_t window = cmd_reopen_ms(run->ctx);
    enum bot_err err = store_enc_reopen(store, req->channel_id, req->now_ms,
                                        req->now_ms - window);
    if (err == BOT_NOTFOUND) {
        int minutes = (int)(window / 60000);
        cmd_fail(run, i18n_nget(req->lang, "no fight in this channel ended in "
                                           "the last %d minute; an older one "
                                           "stays archived",
                                "no fight in this channel ended in the last "
                                "%d minutes; an older one stays "
                                "archived", (unsigned long)minutes),
                 minutes);
        return;
    }
    char *doc = NULL, why[160];
    int64_t version = 0;
    struct encounter *ended = NULL;
    if (err == BOT_OK)
        err = store_enc_load(store, req->channel_id, &doc, &version);
    if (err == BOT_OK)
        err = enc_json_load(doc, &ended, why, sizeof why);
    free(doc);
    if (err != BOT_OK) {
        cmd_fail(run, i18n_get(req->lang, "the ended fight could not be read; "
                                          "nothing was changed"));
        return;
    }
    ended->version = version;
    if (!cmd_sender_is_gm(req, ended)) {
        enc_free(ended);
        cmd_fail(run, i18n_get(req->lang, "only the GM of that fight may "
                                          "reopen it"));
        return;
    }
    /* Back to the state before the end: the same step undo takes. */
    run->enc = ended;
    run->rs = rs_find(ended->ruleset);
    run->loaded = version;
    run->is_gm = true;
    if (cmd_writeback_undo(run))
        step_back(run, true);
}

/* The fight's switches the GM sets in one command (a slot of /combat saved
 * for each would leave too few under Discord's 25 subcommands). Each given
 * switch is set and said; at least one must be given. */
void cmd_combat_settings(struct cmd_run *run)
{
    enum i18n_lang lang = run->req->lang;
    const char *notices = cmd_req_opt(run->req, "notices");
    const char *trust = cmd_req_opt(run->req, "trust");
    if (notices == NULL && trust == NULL) {
        cmd_fail(run, i18n_get(lang,
                               "nothing to change: give notices: or trust:"));
        return;
    }
    bool on_notices = run->enc->notices, on_trust = run->enc->trust;
    if ((notices != NULL &&
         !cmd_opt_bool(run, "notices", true, &on_notices)) ||
        (trust != NULL && !cmd_opt_bool(run, "trust", true, &on_trust)))
        return;
    run->enc->notices = on_notices;
    run->enc->trust = on_trust;
    struct rs_opt opts[CMD_MAX_OPTS];
    struct rs_call c;
    cmd_rs_call(run, &c, opts);
    enum i18n_lang pub = cmd_public_lang(run);
    if (notices != NULL)
        rs_say0(&c, NULL, on_notices
                              ? i18n_get(pub,
                                         "Players will be mentioned when "
                                         "their turn starts.")
                              : i18n_get(pub,
                                         "Turn notices are off."));
    if (trust != NULL)
        rs_say0(&c, NULL, on_trust
                              ? i18n_get(pub,
                                         "Players may now change the hp and "
                                         "conditions of anyone they can see.")
                              : i18n_get(pub,
                                         "Players may change only their own "
                                         "characters."));
    cmd_finish(run, i18n_get(pub, "Fight settings"), false);
}

void cmd_rs_action(struct cmd_run *run)
{
    const struct rs_cmd *rc = run->spec->rcmd;
    struct rs_opt opts[CMD_MAX_OPTS];
    struct rs_call c;
    cmd_rs_call(run, &c, opts);
    if (rs_cmd_run(&c, run->rs, rc) != ENG_OK) {
        cmd_fail_diag(run, &run->diag);
        return;
    }
    if (rc->flags & RS_CMD_READONLY)
        cmd_show(run, NULL);
    else
        cmd_finish(run, NULL, false);
}
