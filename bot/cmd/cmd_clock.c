/*
 * cmd_clock.c - the turn clock: /combat clock, and firing a due timer
 * (cmd.h cmd_clock_fire).
 *
 * The clock's settings and marks live in the encounter (enc_clock.h), so
 * a fired timer is a change like any command's: claimed, applied, saved
 * as a new version with its history line and the next timer, and
 * committed in one transaction. A timer another process claimed, or one
 * a later change made stale, does nothing.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_config.h"
#include "cmd_run.h"
#include "cmd_tally.h"
#include "dur.h"
#include "enc_cache.h"
#include "enc_json.h"
#include "render_enc.h"
#include "rs_data.h"
#include "rs_kit.h"
#include "sbuf.h"
#include "store.h"
#include "turn.h"

/* ---- /combat clock ------------------------------------------------------- */

/* Read duration option name into *ms (0 when absent); false after failing
 * the command with the parser's words. */
static bool opt_duration(struct cmd_run *run, const char *name, int64_t *ms)
{
    enum i18n_lang lang = run->req->lang;
    const char *v = cmd_req_opt(run->req, name);
    *ms = 0;
    if (v == NULL)
        return true;
    enum dur_err err = dur_parse(v, ms);
    if (err == DUR_OK)
        return true;
    cmd_fail(run, i18n_get(lang, "%s: %s"), name,
             i18n_get(lang, dur_strerror(err)));
    return false;
}

/* The clock's settings in a sentence ("Turn clock: ..."), or that it is
 * off, in lang: one message for each shape the settings take. */
static void clock_words(struct sbuf *t, const struct enc_clock *k,
                        enum i18n_lang lang)
{
    char a[DUR_MAX_TEXT + 1], b[DUR_MAX_TEXT + 1];
    dur_format(k->remind_ms, a, sizeof a);
    dur_format(k->act_ms, b, sizeof b);
    if (k->remind_ms == 0 && k->act_ms == 0)
        sbuf_add(t, i18n_get(lang, "The turn clock is off."));
    else if (k->act_ms == 0)
        sbuf_addf(t, i18n_get(lang, "Turn clock: whoever's turn it is gets a "
                                    "reminder after %s."), a);
    else if (k->remind_ms == 0 && k->autoskip)
        sbuf_addf(t, i18n_get(lang, "Turn clock: after %s the GM is told and "
                                    "the turn moves on."), b);
    else if (k->remind_ms == 0)
        sbuf_addf(t, i18n_get(lang, "Turn clock: after %s the GM is "
                                    "told."), b);
    else if (k->autoskip)
        sbuf_addf(t, i18n_get(lang, "Turn clock: whoever's turn it is gets a "
                                    "reminder after %1$s; after %2$s the GM "
                                    "is told and the turn moves on."), a, b);
    else
        sbuf_addf(t, i18n_get(lang, "Turn clock: whoever's turn it is gets a "
                                    "reminder after %1$s; after %2$s the GM "
                                    "is told."), a, b);
}

/* /combat clock without options: where the clock stands, changing
 * nothing. */
static void clock_show(struct cmd_run *run)
{
    const struct encounter *e = run->enc;
    enum i18n_lang lang = run->req->lang;
    struct sbuf t;
    char w[32];
    sbuf_init(&t, 512);
    clock_words(&t, &e->clock, lang);
    if (e->status == ENC_ST_RUNNING && e->clock.wait_ms > 0) {
        dur_format_rough_in(lang, run->req->now_ms - e->clock.wait_ms, w,
                            sizeof w);
        sbuf_addf(&t, i18n_get(lang, " This turn has waited %s."), w);
    }
    if (!enc_clock_on(e)) {
        sbuf_add(&t, "\n");
        sbuf_add(&t, i18n_get(lang, "Set it with `/combat clock remind:4h "
                                    "act:24h auto:true`."));
    }
    msg_set_content(&run->reply->msg, "%s", sbuf_str(&t));
    run->reply->ephemeral = true;
    sbuf_cleanup(&t);
}

void cmd_combat_clock(struct cmd_run *run)
{
    struct encounter *e = run->enc;
    struct enc_clock *k = &e->clock;
    bool off = false, autoskip = false;
    int64_t remind = 0, act = 0;
    if (!cmd_opt_bool(run, "off", false, &off) ||
        !cmd_opt_bool(run, "auto", false, &autoskip) ||
        !opt_duration(run, "remind", &remind) ||
        !opt_duration(run, "act", &act))
        return;
    char a[DUR_MAX_TEXT + 1];
    enum i18n_lang lang = run->req->lang;
    if (off && (remind || act || cmd_req_opt(run->req, "auto") != NULL)) {
        cmd_fail(run, i18n_get(lang, "off: switches the clock off; give it "
                                     "alone\nTry: `/combat clock off:true`"));
        return;
    }
    if (run->req->nopts == 0) {
        clock_show(run);
        return;
    }
    if (!off && remind == 0 && act == 0) {
        cmd_fail(run, i18n_get(lang, "give remind:, act: or both (or "
                                     "off:true)\nTry: `/combat clock "
                                     "remind:4h act:24h auto:true`"));
        return;
    }
    if (autoskip && act == 0) {
        cmd_fail(run, i18n_get(lang, "auto: moves the turn on when act: runs "
                                     "out; give act: too"));
        return;
    }
    if (remind > 0 && act > 0 && act <= remind) {
        dur_format(remind, a, sizeof a);
        cmd_fail(run, i18n_get(lang, "act: must be longer than remind: (%s), "
                                     "or the reminder would come after the "
                                     "deadline"), a);
        return;
    }
    k->remind_ms = remind;
    k->act_ms = act;
    k->autoskip = autoskip;
    /* New settings count afresh in the running wait: what the old ones
     * did is done, what the new ones say is still to come. */
    k->done = 0;
    if (e->status == ENC_ST_RUNNING && k->wait_ms == 0)
        enc_clock_restart(e, run->req->now_ms);
    struct rs_opt opts[CMD_MAX_OPTS];
    struct rs_call c;
    cmd_rs_call(run, &c, opts);
    struct sbuf t;
    enum i18n_lang pub = cmd_public_lang(run);
    sbuf_init(&t, 512);
    clock_words(&t, k, pub);
    rs_say0(&c, NULL, sbuf_str(&t));
    sbuf_cleanup(&t);
    cmd_finish(run, i18n_get(pub, "Turn clock"), false);
}

/* ---- firing a timer ------------------------------------------------------ */

/* The link to the fight's tracker message, when the daemon keeps one
 * (CMD_TRACKER_KV_PREFIX "<channel>" -> "<id>[ nopin]") and the fight is in
 * a server; "" otherwise. The message is in where: the channel, or the
 * fight's thread (a link naming another channel does not resolve). */
static void tracker_link(struct store *store, uint64_t guild,
                         uint64_t channel, uint64_t where, char *buf,
                         size_t n)
{
    char key[64], *val = NULL;
    buf[0] = '\0';
    if (guild == 0)
        return;
    snprintf(key, sizeof key, CMD_TRACKER_KV_PREFIX "%" PRIu64, channel);
    if (store_kv_get(store, key, &val) != BOT_OK || val == NULL)
        return;
    uint64_t id = strtoull(val, NULL, 10);
    free(val);
    if (id != 0)
        snprintf(buf, n, "https://discord.com/channels/%" PRIu64 "/%" PRIu64
                 "/%" PRIu64, guild, where, id);
}

/* Whom the current wait is on: a combatant's turn, a side's pick, or the
 * next turn. */
enum wait_kind { WAIT_TURN, WAIT_PICK, WAIT_NEXT };

/* Whom the current wait is on, and in *who the name the table may read:
 * the combatant's (or the unseen label in lang; whole: as the GM reads it)
 * or the side's. *owned is what the caller frees. Each kind is a sentence
 * of its own in the catalogs. */
static enum wait_kind waiting_on(const struct encounter *e, bool whole,
                                 enum i18n_lang lang, const char **who,
                                 char **owned)
{
    const struct enc_combatant *cur = enc_by_id_c(e, e->current);
    *owned = NULL;
    *who = "";
    if (cur != NULL) {
        *owned = cur->hidden && !whole ? NULL : msg_escape(cur->name);
        *who = *owned != NULL ? *owned
               : whole        ? ""
                              : render_unseen(lang, false);
        return WAIT_TURN;
    }
    if (e->acting_side >= 0 && e->acting_side < e->nsides) {
        *owned = render_side_unseen(e, e->acting_side)
                     ? NULL : msg_escape(e->sides[e->acting_side].name);
        *who = *owned != NULL ? *owned : render_unseen_side(lang);
        return WAIT_PICK;
    }
    return WAIT_NEXT;
}

/* Mention who the wait is on: the owner of the running turn (the GM for
 * an NPC's), or the owners of the side that picks. */
static void mention_waiting(const struct encounter *e, struct msg *m,
                            struct sbuf *b)
{
    const struct enc_combatant *cur = enc_by_id_c(e, e->current);
    uint64_t users[MSG_MAX_MENTIONS];
    int n = 0;
    if (cur != NULL) {
        users[n++] = cur->owner != 0 ? cur->owner : e->gm;
    } else {
        for (int i = 0; i < e->ncs && n < MSG_MAX_MENTIONS; i++) {
            const struct enc_combatant *x = &e->cs[i];
            uint64_t u = x->owner != 0 ? x->owner : e->gm;
            bool seen = false;
            for (int k = 0; k < n; k++)
                seen |= users[k] == u;
            if (x->side == e->acting_side && turn_can_act(x) && !seen)
                users[n++] = u;
        }
    }
    for (int i = 0; i < n; i++)
        if (users[i] != 0 && msg_add_mention(m, users[i]))
            sbuf_addf(b, "<@%" PRIu64 "> ", users[i]);
}

/* What a firing did, for its history line. */
enum {
    FIRE_REMIND = 1u << 0,
    FIRE_ACT = 1u << 1,
    FIRE_MOVED = 1u << 2,
};

/* What the due items say, into the public content and the GM's notice. */
struct fire {
    struct cmd_ctx *ctx;
    const struct store_timer *t;
    int64_t now_ms;
    struct encounter *e;
    const struct rs_system *rs;
    struct enc_result *res;
    struct cmd_reply *reply;
    struct sbuf pub;         /* the content of the channel's message */
    struct sbuf gm;          /* the GM channel's notice, when there is one */
    uint64_t gm_channel;
    unsigned did;            /* FIRE_* : what the history line says */
    enum i18n_lang lang;     /* the table's: /config language:, else the
                                one the timer row keeps (a timer has no
                                interaction to bring Discord's) */
};

static void fire_remind(struct fire *f, int64_t waited)
{
    char w[32], link[160];
    dur_format_rough_in(f->lang, waited, w, sizeof w);
    mention_waiting(f->e, &f->reply->msg, &f->pub);
    const char *who;
    char *owned;
    enum wait_kind k = waiting_on(f->e, false, f->lang, &who, &owned);
    if (k == WAIT_TURN)
        sbuf_addf(&f->pub, i18n_get(f->lang,
                                    "still waiting: %1$s's turn (for "
                                    "%2$s)."), who, w);
    else if (k == WAIT_PICK)
        sbuf_addf(&f->pub, i18n_get(f->lang,
                                    "still waiting: the pick of %1$s (for "
                                    "%2$s)."), who, w);
    else
        sbuf_addf(&f->pub, i18n_get(f->lang,
                                    "still waiting: the next turn (for "
                                    "%s)."), w);
    free(owned);
    /* The tracker is where the fight is shown: its thread, if any. */
    uint64_t where = f->ctx->shown_in != NULL
                         ? f->ctx->shown_in(f->ctx->store, f->t->channel)
                         : 0;
    tracker_link(f->ctx->store, f->t->guild, f->t->channel,
                 where != 0 ? where : f->t->channel, link, sizeof link);
    if (link[0] != '\0')
        sbuf_addf(&f->pub, i18n_get(f->lang,
                                    " The tracker: %s"), link);
    f->did |= FIRE_REMIND;
}

/* The act deadline: the GM is told in the GM channel when there is one,
 * else mentioned here; with auto the system moves the fight on. */
static void fire_act(struct fire *f, int64_t waited)
{
    struct encounter *e = f->e;
    char w[32];
    dur_format_rough_in(f->lang, waited, w, sizeof w);
    struct sbuf *to = f->gm_channel != 0 ? &f->gm : &f->pub;
    if (to->len > 0)
        sbuf_add(to, "\n");
    if (f->gm_channel == 0 && e->gm != 0 &&
        msg_add_mention(&f->reply->msg, e->gm))
        sbuf_addf(to, "<@%" PRIu64 ">, ", e->gm);
    if (f->gm_channel != 0 && e->name[0] == '\0') {
        /* A whole phrase: "the fight" spliced into "In %s" would not
         * take its case in German or Polish. */
        sbuf_add(to, i18n_get(f->lang, "In the fight: "));
    } else if (f->gm_channel != 0) {
        /* The GM channel is the GM's: names are shown whole there. */
        char *name = msg_escape(e->name);
        sbuf_addf(to, i18n_get(f->lang, "In %s: "), name != NULL ? name : "");
        free(name);
    }
    const char *who;
    char *owned;
    enum wait_kind k = waiting_on(e, f->gm_channel != 0, f->lang, &who,
                                  &owned);
    enum i18n_lang l = f->lang;
    if (k == WAIT_TURN && e->clock.autoskip)
        sbuf_addf(to, i18n_get(l, "%1$s's turn has waited %2$s; the clock "
                                  "moves the fight on."), who, w);
    else if (k == WAIT_TURN)
        sbuf_addf(to, i18n_get(l, "%1$s's turn has waited %2$s. Move it on "
                                  "with /combat next, or wait."), who, w);
    else if (k == WAIT_PICK && e->clock.autoskip)
        sbuf_addf(to, i18n_get(l, "the pick of %1$s has waited %2$s; the "
                                  "clock moves the fight on."), who, w);
    else if (k == WAIT_PICK)
        sbuf_addf(to, i18n_get(l, "the pick of %1$s has waited %2$s. Move it "
                                  "on with /combat next, or wait."), who, w);
    else if (e->clock.autoskip)
        sbuf_addf(to, i18n_get(l, "the next turn has waited %s; the clock "
                                  "moves the fight on."), w);
    else
        sbuf_addf(to, i18n_get(l, "the next turn has waited %s. Move it on "
                                  "with /combat next, or wait."), w);
    free(owned);
    f->did |= FIRE_ACT;
    if (!e->clock.autoskip)
        return;
    struct enc_diag d;
    memset(&d, 0, sizeof d);
    struct rs_call c = {
        .e = e, .rng = f->ctx->rng, .r = f->res, .d = &d,
        .user = e->gm, .is_gm = true,
        .data = rs_data_get(f->ctx->rs_data, f->rs),
    };
    enum eng_err (*op)(struct rs_call *) =
        f->rs->ops->version >= 4 && f->rs->ops->timeout != NULL
            ? f->rs->ops->timeout : f->rs->ops->next;
    /* An event of the order (enc_entry.h) waits on nobody's action: the
     * clock moves on from it as /combat next does, in every system. */
    if (e->entry_on != 0)
        op = f->rs->ops->next;
    if (op(&c) != ENG_OK) {
        /* The rules allow nothing here (nobody can act): say so; the
         * GM decides. */
        RS_SAY(&c, NULL, i18n_get(f->lang, "The clock could not move the "
                                           "fight on: {}"),
               RS_A_USER(d.msg));
    }
    f->did |= FIRE_MOVED;
}

/* Apply what is due of f->e's clock (what it says goes to f's buffers). */
static void fire_apply(struct fire *f, unsigned due)
{
    struct encounter *e = f->e;
    int64_t waited = f->now_ms - e->clock.wait_ms;
    struct enc_wait before, after;
    enc_wait_of(e, &before);
    /* A deadline that came with its reminder still due: the reminder
     * is moot only when the fight moves on. */
    if ((due & ENC_CLOCK_REMIND) &&
        !((due & ENC_CLOCK_ACT) && e->clock.autoskip))
        fire_remind(f, waited);
    e->clock.done |= due;
    if (due & ENC_CLOCK_ACT)
        fire_act(f, waited);
    int64_t late = f->now_ms - f->t->due_ms;
    if (late >= CMD_CLOCK_LATE_MS) {
        char l[32];
        dur_format_rough_in(f->lang, late, l, sizeof l);
        sbuf_addf(f->pub.len ? &f->pub : &f->gm,
                  i18n_get(f->lang, " _(late by %s: fray was down)_"), l);
    }
    enc_wait_of(e, &after);
    /* The fight's numbers: what the clock's move did, and the wait it
     * ended. */
    cmd_tally_add(e, f->res);
    if (!enc_wait_eq(&before, &after)) {
        cmd_tally_wait(e, &before, f->now_ms);
        enc_clock_restart(e, f->now_ms);
    }
}

/* The history line of what f did, in the table's language: history keeps
 * text, written once in the language its readers had then (as every
 * command's line is, cmd.c). Each combination is a sentence of its own;
 * NULL when nothing was done. */
static const char *fire_line(const struct fire *f)
{
    enum i18n_lang l = f->lang;
    /* A move-on skips the reminder due with it (fire_apply). */
    if (f->did & FIRE_MOVED)
        return i18n_get(l, "Turn clock: the deadline, moved on");
    if (f->did == (FIRE_REMIND | FIRE_ACT))
        return i18n_get(l, "Turn clock: a reminder; the deadline");
    if (f->did & FIRE_ACT)
        return i18n_get(l, "Turn clock: the deadline");
    return f->did & FIRE_REMIND ? i18n_get(l, "Turn clock: a reminder")
                                : NULL;
}

/* Save f->e as the next version with its history line and next timer. */
static enum bot_err fire_save(struct fire *f, int64_t loaded)
{
    struct store *store = f->ctx->store;
    struct encounter *e = f->e;
    e->version = loaded + 1;
    char *doc = enc_json_dump(e);
    if (doc == NULL)
        return BOT_NOMEM;
    enum bot_err err = store_enc_save(store, f->t->channel, e->version, doc);
    free(doc);
    const char *text = fire_line(f);
    if (err == BOT_OK && text != NULL) {
        struct store_change_rec line = {
            .version = e->version, .by = e->gm, .at_ms = f->now_ms,
            .secret = false, .text = text,
        };
        err = store_change_add(store, f->t->channel, &line);
    }
    if (err == BOT_OK)
        err = store_timer_set(store, f->t->channel, f->t->guild,
                              enc_clock_next(e), f->t->lang);
    return err;
}

/* The channel's message: the content, the events of a move-on, and the
 * tracker for a front end that keeps one. */
static void fire_reply(struct fire *f, enum cmd_source src)
{
    struct cmd_reply *reply = f->reply;
    /* A turn the clock started is announced as /combat next's is. */
    struct sbuf turn;
    sbuf_init(&turn, SIZE_MAX / 2);
    if (cmd_turn_notice(reply, f->e, f->rs, f->res, src, &turn, f->lang))
        sbuf_addf(&f->pub, "%s%s", f->pub.len > 0 ? "\n" : "",
                  sbuf_str(&turn));
    sbuf_cleanup(&turn);
    if (f->pub.len > 0)
        msg_set_content(&reply->msg, "%s", sbuf_str(&f->pub));
    /* The channel's message is the table's, on the console too: a hidden
     * combatant stays unseen there, and the GM gets the full copy. */
    if (f->res->nev > 0) {
        const char *title = i18n_get(f->lang,
                                     "Turn clock");
        bool secret = render_events(&reply->msg, f->e, f->res, false, title,
                                     f->lang);
        if (secret &&
            (reply->gm_copy = malloc(sizeof *reply->gm_copy)) != NULL) {
            msg_init(reply->gm_copy);
            render_events(reply->gm_copy, f->e, f->res, true, title,
                          f->lang);
        }
    }
    if (f->gm.len > 0) {
        if (reply->gm_copy == NULL &&
            (reply->gm_copy = malloc(sizeof *reply->gm_copy)) != NULL)
            msg_init(reply->gm_copy);
        if (reply->gm_copy != NULL)
            msg_set_content(reply->gm_copy, "%s", sbuf_str(&f->gm));
    }
    reply->gm_channel = f->gm_channel;
    if (src == CMD_SRC_DISCORD) {
        reply->tracker = cmd_tracker_msg(f->e, f->rs, f->now_ms, f->lang);
        reply->tracker_mode = CMD_TRACKER_POST;
    }
}

bool cmd_clock_fire(struct cmd_ctx *ctx, const struct store_timer *t,
                    int64_t now_ms, enum cmd_source src,
                    struct cmd_reply *reply, bool *fired)
{
    struct store *store = ctx->store;
    cmd_reply_init(reply);
    reply->channel_id = t->channel;
    *fired = false;
    bool claimed = false;
    enum bot_err err = store_begin(store);
    if (err == BOT_OK)
        err = store_timer_claim(store, t->channel, t->due_ms, &claimed);
    if (err != BOT_OK || !claimed) {
        store_rollback(store);
        return err == BOT_OK;
    }
    char *doc = NULL, why[160];
    int64_t version = 0;
    struct encounter *e = NULL;
    err = store_enc_load(store, t->channel, &doc, &version);
    if (err == BOT_OK)
        err = enc_json_load(doc, &e, why, sizeof why);
    free(doc);
    unsigned due = err == BOT_OK ? enc_clock_due(e, now_ms) : 0;
    if (err == BOT_NOTFOUND || err == BOT_INVALID || due == 0) {
        /* No fight, one that cannot be read, or nothing due any more (a
         * stale row): the claim stands, the row follows the state. */
        if (e != NULL)
            err = store_timer_set(store, t->channel, t->guild,
                                  enc_clock_next(e), t->lang);
        else
            err = BOT_OK;
        enc_free(e);
        err = err == BOT_OK ? store_commit(store) : err;
        if (err != BOT_OK)
            store_rollback(store);
        return err == BOT_OK;
    }
    if (err != BOT_OK) {
        store_rollback(store);
        return false;
    }
    e->version = version;
    struct fire f = {
        .ctx = ctx, .t = t, .now_ms = now_ms, .e = e,
        .rs = rs_find(e->ruleset), .reply = reply,
        .gm_channel = cmd_config_gm_channel(store, t->guild),
        .lang = cmd_config_language(store, t->guild, t->lang),
    };
    f.res = malloc(sizeof *f.res);
    if (f.res == NULL) {      /* (the document named a known system) */
        enc_free(e);
        store_rollback(store);
        return false;
    }
    enc_result_init(f.res);
    sbuf_init(&f.pub, SIZE_MAX / 2);
    sbuf_init(&f.gm, SIZE_MAX / 2);
    fire_apply(&f, due);
    bool nomem = f.res->nomem || sbuf_error(&f.pub) == SBUF_NOMEM ||
                 sbuf_error(&f.gm) == SBUF_NOMEM;
    err = nomem ? BOT_NOMEM : fire_save(&f, version);
    if (err == BOT_OK)
        err = store_commit(store);
    else
        store_rollback(store);
    if (ctx->cache != NULL)
        enc_cache_drop(ctx->cache, t->channel);
    if (err == BOT_OK) {
        *fired = true;
        reply->changed = true;
        reply->version = e->version;
        reply->clock_changed = true;
        reply->clock_due = enc_clock_next(e);
        fire_reply(&f, src);
    }
    sbuf_cleanup(&f.pub);
    sbuf_cleanup(&f.gm);
    enc_result_cleanup(f.res);
    free(f.res);
    enc_free(e);
    return err == BOT_OK || err == BOT_CONFLICT;
}
