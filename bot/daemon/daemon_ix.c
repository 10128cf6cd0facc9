/*
 * daemon_ix.c - interactions coming into `fray run`: the limits, stale
 * clicks, the probe of an earlier process's deferral, and the queue of the
 * group that commits together (daemon_reply.c runs and answers it).
 */
#include "daemon_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd_config.h"
#include "cmd_table.h"
#include "enc_cache.h"
#include "eng_text.h"
#include "gw.h"
#include "interaction.h"
#include "limit.h"
#include "multipart.h"
#include "render_discord.h"
#include "store.h"
#include "tracker.h"

static void limit_rates(const struct cfg *c, struct limit_rate *r)
{
    r[LIMIT_USER_COMMANDS] = (struct limit_rate){c->limit_user_burst,
                                                 c->limit_user_per_min};
    r[LIMIT_CHANNEL_COMMANDS] = (struct limit_rate){c->limit_channel_burst,
                                                    c->limit_channel_per_min};
    r[LIMIT_USER_AUTOCOMPLETE] = (struct limit_rate){
        c->limit_autocomplete_burst, c->limit_autocomplete_per_min};
    r[LIMIT_USER_SECRET] = (struct limit_rate){c->limit_secret_burst,
                                               c->limit_secret_per_min};
}

/* Whether it is over one of its limits ([limits] in the config, limit.h).
 * If not, it takes a token from each bucket it draws on: autocomplete from
 * its user's; anything else from its user's and its channel's, and a
 * secret roll (a GM-channel copy) from its user's secret bucket too. If it
 * is, text (cap bytes) says "slow down", an autocomplete is answered at
 * once with no choices, and nothing else happens: no store, no command, no
 * copy. Interactions only: the console does not come here. */
static bool over_limit(struct daemon *d, struct interaction *it,
                       int64_t rx_us, char *text, size_t cap)
{
    struct limit_rate rate[LIMIT_NKINDS];
    struct { enum limit_kind kind; uint64_t id; } use[3];
    int n = 0;
    int64_t now = daemon_now_ms(), wait = 0;
    const char *secret;
    struct pending_reply *p;

    if (d->limit == NULL)
        return false;
    limit_rates(d->cfg, rate);
    if (it->type == INTERACTION_AUTOCOMPLETE) {
        use[n].kind = LIMIT_USER_AUTOCOMPLETE;
        use[n++].id = it->req.user_id;
    } else {
        use[n].kind = LIMIT_USER_COMMANDS;
        use[n++].id = it->req.user_id;
        use[n].kind = LIMIT_CHANNEL_COMMANDS;
        use[n++].id = it->req.channel_id;
        secret = cmd_req_opt(&it->req, "secret");
        if (secret && strcmp(secret, "true") == 0) {
            use[n].kind = LIMIT_USER_SECRET;
            use[n++].id = it->req.user_id;
        }
    }
    for (int i = 0; i < n; i++) {
        int64_t w = use[i].id ? limit_wait_ms(d->limit, use[i].kind,
                                              use[i].id, &rate[use[i].kind],
                                              now)
                              : 0;
        if (w > wait)
            wait = w;
    }
    if (wait == 0) {
        for (int i = 0; i < n; i++)
            if (use[i].id)
                limit_take(d->limit, use[i].kind, use[i].id,
                           &rate[use[i].kind], now);
        return false;
    }
    /* private, so in the reader's language */
    snprintf(text, cap, i18n_get(it->req.lang, "Slow down: try again in "
                                 "%lld s."),
             (long long)((wait + 999) / 1000));
    /* Autocomplete changes nothing and never joins a group: its empty
     * list goes now. A command's refusal waits for its group's commit
     * (batch_add_as()). */
    if (it->type == INTERACTION_AUTOCOMPLETE &&
        (p = daemon_answer_private(d, it, rx_us, text)))
        p->limited = true;
    log_msg(d->log, LOG_LVL_DEBUG, "interaction %s /%s from user %" PRIu64
            " over its limit: try again in %lld ms", it->id, it->req.command,
            it->req.user_id, (long long)wait);
    return true;
}

/* Tell a channel that commands sent while the bot was reconnecting were
 * not applied: once per DAEMON_STALE_NOTICE_WINDOW_MS, a plain message
 * that pings no one. */
static void stale_notice(struct daemon *d, const struct cmd_req *req)
{
    uint64_t channel = req->channel_id;
    struct stale_notice *slot = NULL, *oldest = &d->stale_notices[0];
    int64_t now = daemon_now_ms();
    char path[REST_MAX_PATH], *text;
    struct msg m;

    if (channel == 0)
        return;
    for (int i = 0; i < DAEMON_STALE_NOTICE_CHANNELS; i++) {
        struct stale_notice *n = &d->stale_notices[i];
        if (n->at_ms && n->channel == channel) {
            slot = n;
            break;
        }
        if (n->at_ms < oldest->at_ms)
            oldest = n;
    }
    if (slot && now - slot->at_ms < DAEMON_STALE_NOTICE_WINDOW_MS)
        return;
    if (!slot)
        slot = oldest;
    slot->channel = channel;
    slot->at_ms = now;
    msg_init(&m);
    /* The table's words, read only when a notice goes out. */
    enum i18n_lang lang = cmd_config_language(d->store, req->guild_id,
                                              req->guild_lang);
    msg_set_content(&m, "%s", i18n_get(lang, DAEMON_STALE_NOTICE_TEXT));
    text = render_discord_message_text(&m, false, NULL);
    msg_cleanup(&m);
    snprintf(path, sizeof path, "/channels/%" PRIu64 "/messages", channel);
    if (!text || rest_submit(d->rest, "POST", path, text,
                             daemon_on_follow_done, d) != BOT_OK)
        log_msg(d->log, LOG_LVL_WARN, "cannot tell channel %" PRIu64
                " about commands not applied", channel);
    free(text);
}

/* An interaction older than DAEMON_IX_STALE_MS on arrival (a replay after
 * a reconnect or a restart, mostly) cannot be answered in time: Discord
 * already told the user the application did not respond, and would refuse
 * the callback. Applying it would change the fight behind the players'
 * backs (they will likely send it again), so it is dropped, counted, and
 * its channel told once. Returns true when it was. */
static bool drop_if_stale(struct daemon *d, const struct interaction *it)
{
    int64_t age = interaction_age_ms(it, daemon_wall_ms());
    bool live = d->gw && gw_get_state(d->gw) == GW_ST_READY;
    const char *cmd = it->req.command ? it->req.command : "?";

    if (age <= DAEMON_IX_STALE_MS)
        return false;
    d->stale++;
    metrics_interaction(&d->metrics, cmd, METRICS_STALE, 0);
    log_msg(d->log, LOG_LVL_NOTICE, "interaction %s /%s is %lld ms old on "
            "arrival (limit %d ms): not applied, not answered", it->id, cmd,
            (long long)age, DAEMON_IX_STALE_MS);
    /* Outside a resume's replay Discord sends an interaction as it makes
     * it: this one was held up here, or this host's clock is fast. */
    if (live)
        log_msg(d->log, LOG_LVL_WARN, "interaction %s came %lld ms after "
                "Discord made it on a live connection: is this host's clock "
                "fast, or was fray stalled?", it->id, (long long)age);
    if (it->type != INTERACTION_AUTOCOMPLETE)
        stale_notice(d, &it->req);
    return true;
}

/* A replayed interaction with a mark: the earlier process committed the
 * mark before sending its deferral, and may have died before the deferral
 * left. GET @original tells which: it exists once the interaction was
 * acknowledged (the webhook refuses it before). Meanwhile the interaction
 * waits outside the group. */
enum ack_state { ACK_UNKNOWN, ACK_YES, ACK_NO };

struct ack_probe {
    struct daemon *d;
    json_t *payload;                      /* owned reference */
    int64_t seq_before;
};

static void batch_add_as(struct daemon *d, json_t *payload,
                         enum ack_state ack, int64_t seq_before);

static void on_probe_done(void *ud, const struct rest_result *res)
{
    struct ack_probe *pr = ud;
    bool acked = res->err == BOT_OK && res->status >= 200 &&
                 res->status < 300;

    log_msg(pr->d->log, LOG_LVL_NOTICE, "a marked interaction was%s "
            "acknowledged before the restart (status %d)",
            acked ? "" : " not", res->status);
    if (!pr->d->done)
        batch_add_as(pr->d, pr->payload, acked ? ACK_YES : ACK_NO,
                     pr->seq_before);
    json_decref(pr->payload);
    free(pr);
}

static bool ack_probe_start(struct daemon *d, const struct interaction *it,
                            json_t *payload, int64_t seq_before)
{
    struct ack_probe *pr = calloc(1, sizeof *pr);
    char path[REST_MAX_PATH];

    if (!pr)
        return false;
    pr->d = d;
    pr->payload = json_incref(payload);
    pr->seq_before = seq_before;
    snprintf(path, sizeof path, "/webhooks/%s/%s/messages/@original",
             it->application_id, it->token);
    if (rest_submit(d->rest, "GET", path, NULL, on_probe_done, pr) !=
        BOT_OK) {
        json_decref(pr->payload);
        free(pr);
        return false;
    }
    log_msg(d->log, LOG_LVL_NOTICE, "interaction %s was marked acknowledged "
            "by an earlier process: asking Discord whether it was", it->id);
    return true;
}

/* Queue an interaction for the group that daemon_batch_flush() runs when
 * the loop has nothing more to read; autocomplete is answered at once (it
 * changes nothing). ack: what a probe said (ACK_UNKNOWN: none yet);
 * seq_before: the gateway sequence before its dispatch. */
static void batch_add_as(struct daemon *d, json_t *payload,
                         enum ack_state ack, int64_t seq_before)
{
    struct batch_item *b;
    char why[256];
    bool clicked = false, eph = false;

    /* A full group runs before the next dispatch joins, not as the last
     * one joins: the gateway saves that one's sequence number after this
     * returns, and it must be in the group's commit. Saved after it, a
     * kill in between would replay commands already answered. */
    if (d->nbatch == DAEMON_BATCH_MAX)
        daemon_batch_flush(d);
    b = &d->batch[d->nbatch];
    memset(b, 0, sizeof *b);
    b->rx_us = daemon_now_us();
    cmd_reply_init(&b->reply);
    if (interaction_decode(payload, daemon_wall_ms(), &b->it, why, sizeof why) !=
        BOT_OK) {
        log_msg(d->log, LOG_LVL_WARN, "interaction %s: %s", b->it.answerable
                ? "refused" : "ignored", why);
        if (b->it.answerable) {
            char text[DAEMON_REFUSAL_MAX + 256];
            /* why stays English: it is the log's line too */
            snprintf(text, sizeof text, i18n_get(b->it.req.lang, "That could "
                     "not be read (%s); nothing was done."), why);
            daemon_answer_private(d, &b->it, b->rx_us, text);
        }
        interaction_cleanup(&b->it);
        return;
    }
    b->it.req.now_ms = daemon_clock_ms(d);  /* the turn clock's time */
    /* Only a RESUME's replay can bring one an earlier process saw: live
     * traffic is not looked up. */
    if (ack == ACK_UNKNOWN && d->gw &&
        gw_get_state(d->gw) == GW_ST_RESUMING &&
        b->it.type != INTERACTION_AUTOCOMPLETE &&
        daemon_ack_lookup(d, b->it.id, &clicked, &eph) &&
        ack_probe_start(d, &b->it, payload, seq_before)) {
        interaction_cleanup(&b->it);
        return;
    }
    if (ack == ACK_YES) {
        daemon_ack_lookup(d, b->it.id, &clicked, &eph);
        b->acked_before = true;
        b->edit_clicked = clicked;
        b->defer_ephemeral = eph;
        log_msg(d->log, LOG_LVL_NOTICE, "interaction %s was acknowledged "
                "before a restart: answering through its webhook", b->it.id);
    }
    /* acknowledged in time by an earlier process: the webhook still takes
     * its answer (15 minutes) */
    if (!b->acked_before && drop_if_stale(d, &b->it)) {
        interaction_cleanup(&b->it);
        return;
    }
    /* One an earlier process acknowledged passed both checks then, and
     * its answer may go only through the webhook: a "slow down" callback
     * now would be a second callback (the replay counts against no
     * limit). A command refused here still joins the group, to be
     * answered after its commit: answered at once, it could go out before
     * the gateway sequence that covers it is saved, and a kill in between
     * would replay it into a second callback. */
    char refusal[DAEMON_REFUSAL_MAX] = "";
    bool limited = false;
    if (!b->acked_before) {
        if (daemon_answer_unreadable(d, &b->it, b->rx_us))
            snprintf(refusal, sizeof refusal, "%s",
                     i18n_get(b->it.req.lang, DAEMON_UNREADABLE_TEXT));
        else
            limited = over_limit(d, &b->it, b->rx_us, refusal,
                                 sizeof refusal);
    }
    if (refusal[0] != '\0' && b->it.type == INTERACTION_AUTOCOMPLETE) {
        interaction_cleanup(&b->it);
        return;
    }
    if (refusal[0] != '\0') {
        b->refused_early = true;
        b->limited = limited;
        b->reply.ephemeral = true;
        b->reply.is_error = true;
        msg_set_content(&b->reply.msg, "%s", refusal);
    } else if (b->it.type == INTERACTION_AUTOCOMPLETE) {
        daemon_answer_autocomplete(d, &b->it, b->rx_us);
        interaction_cleanup(&b->it);
        return;
    }
    if (!b->refused_early && !b->acked_before &&
        daemon_answer_form(d, &b->it, b->rx_us)) {
        interaction_cleanup(&b->it);
        return;
    }
    if (!b->refused_early && daemon_att_start(d, &b->it, payload, b->rx_us)) {
        interaction_cleanup(&b->it);
        return;
    }
    if (d->nbatch == 0) {
        d->batch_t0_ms = daemon_now_ms();
        d->group_seq0 = seq_before;
        /* Opened now, not at the flush, so that what the gateway saves per
         * dispatch (its sequence number) joins the group's one commit. */
        d->batch_txn = store_begin(d->store) == BOT_OK;
        if (d->batch_txn && d->gw)
            gw_seq_hold(d->gw, true);
        if (!d->batch_txn)
            log_msg(d->log, LOG_LVL_WARN, "cannot open a group "
                    "transaction (%s): committing one by one",
                    store_errmsg(d->store));
    } else if (seq_before < d->group_seq0) {
        d->group_seq0 = seq_before;     /* one back from a probe */
    }
    d->nbatch++;
}

static void batch_add(struct daemon *d, json_t *payload)
{
    batch_add_as(d, payload, ACK_UNKNOWN, d->gw ? gw_seq_before(d->gw) : 0);
}

/* Old acknowledgement marks, collected by the key scan (deleting during
 * the scan would disturb it). */
#define PRUNE_MARKS_MAX 256            /* per pass; the next pass takes more */
struct prune_marks {
    int64_t before_ms;
    int n;
    char key[PRUNE_MARKS_MAX][STORE_MAX_KV_KEY];
};

static enum bot_err old_mark(void *ctx, const char *key, const char *value)
{
    struct prune_marks *pm = ctx;
    int clicked, eph;
    long long ms;

    if (pm->n == PRUNE_MARKS_MAX)
        return BOT_LIMIT;
    if (sscanf(value, "%d %d %lld", &clicked, &eph, &ms) != 3 ||
        ms < pm->before_ms)
        snprintf(pm->key[pm->n++], STORE_MAX_KV_KEY, "%s", key);
    return BOT_OK;
}

void daemon_ix_prune(struct daemon *d)
{
    /* 32 KiB: on the heap, not the stack, and not a static either */
    struct prune_marks *pm = malloc(sizeof *pm);
    enum bot_err e;

    if (!pm) {
        log_msg(d->log, LOG_LVL_WARN, "no memory to prune acknowledgement "
                "marks: trying again at the next pass");
        return;
    }
    pm->before_ms = daemon_wall_ms() - DAEMON_IX_KEEP_MS;
    pm->n = 0;
    e = store_kv_scan(d->store, DAEMON_ACK_KEY_PREFIX, old_mark, pm);
    if (e != BOT_OK && e != BOT_LIMIT)
        log_msg(d->log, LOG_LVL_WARN, "cannot scan acknowledgement marks: "
                "%s", store_errmsg(d->store));
    for (int i = 0; i < pm->n; i++)
        store_kv_delete(d->store, pm->key[i]);
    free(pm);
}

bool daemon_on_dispatch(void *ud, const char *t, json_t *payload)
{
    struct daemon *d = ud;

    if (d->stopping)
        return false;   /* not applied: the next session replays it */
    if (strcmp(t, "INTERACTION_CREATE") == 0) {
        d->in_dispatch = true;
        batch_add(d, payload);
        d->in_dispatch = false;
    }
    return true;
}
