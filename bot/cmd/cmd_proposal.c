/*
 * cmd_proposal.c - players propose, the GM approves (issue 31, part 5):
 * a player's /combat hp or /combat condition on a combatant that is not
 * theirs becomes a proposal (proposal.h) with Approve and Reject buttons
 * for the GM; /combat proposal answers one, or lists those waiting.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_config.h"
#include "cmd_run.h"
#include "custom_id.h"
#include "eng_text.h"
#include "rs_kit.h"
#include "sbuf.h"
#include "store.h"

/* Whether user has a combatant in e: proposals are its players'. */
static bool plays_in(const struct encounter *e, uint64_t user)
{
    for (int i = 0; i < e->ncs; i++)
        if (e->cs[i].owner == user)
            return true;
    return false;
}

enum cmd_touch cmd_touch_of(struct cmd_run *run,
                            const struct enc_combatant *who)
{
    const struct cmd_req *req = run->req;
    if (run->enc->trust && !who->hidden)
        return CMD_TOUCH_YES;
    struct rs_opt opts[CMD_MAX_OPTS];
    struct rs_call c;
    cmd_rs_call(run, &c, opts);
    if (rs_may_act(&c, who))
        return CMD_TOUCH_YES;
    /* A hidden combatant stays the GM's: no proposal names it. */
    if (!who->hidden && !run->is_gm && !req->user_install &&
        plays_in(run->enc, req->user_id) &&
        cmd_config_proposals(run->ctx->store, req->guild_id))
        return CMD_TOUCH_PROPOSE;
    return cmd_may_act(run, who) ? CMD_TOUCH_YES : CMD_TOUCH_NO;
}

/* A player's text (a name, a value typed) as it reads, its markup
 * escaped (msg_escape): shown in the GM's message, never obeyed there,
 * so it cannot dress up or hide what Approve would do. */
static void add_shown(struct sbuf *b, const char *text)
{
    char *e = msg_escape(text);
    sbuf_add(b, e != NULL ? e : "?");
    free(e);
}

/* p as the command it runs, "/combat hp name:Orc change:-3", escaped. */
static void command_text(struct sbuf *b, const struct proposal *p)
{
    struct sbuf raw;
    sbuf_init(&raw, MSG_MAX_TEXT);
    sbuf_addf(&raw, "/combat %s", p->sub);
    for (int i = 0; i < p->nopts; i++) {
        const char *v = p->opts[i].value;
        bool quote = v[0] == '\0' || strchr(v, ' ') != NULL;
        sbuf_addf(&raw, " %s:%s%s%s", p->opts[i].name, quote ? "\"" : "",
                  v, quote ? "\"" : "");
    }
    add_shown(b, sbuf_str(&raw));
    sbuf_cleanup(&raw);
}

static const char *lapse_text(enum proposal_expiry x, enum i18n_lang lang)
{
    switch (x) {
    case PROPOSAL_EXPIRE_ROUND:
        return i18n_get(lang, "It lapses when the round ends.");
    case PROPOSAL_EXPIRE_NEVER:
        return i18n_get(lang, "It waits until the GM answers or the fight "
                              "ends.");
    case PROPOSAL_EXPIRE_TURN:
        break;
    }
    return i18n_get(lang, "It lapses when the turn moves on.");
}

static const char *proposer(const struct proposal *p)
{
    return p->user_name[0] != '\0' ? p->user_name : "a player";
}

/* msg_escape() makes a character at most 4 bytes ('@' and a zero-width
 * space). */
#define SHOWN_NAME_MAX (4 * PROPOSAL_NAME_MAX + 1)

/* proposer(p) escaped into out[SHOWN_NAME_MAX]. */
static void proposer_shown(const struct proposal *p, char *out)
{
    char *e = msg_escape(proposer(p));
    snprintf(out, SHOWN_NAME_MAX, "%s", e != NULL ? e : "a player");
    free(e);
}

/* The GM's message: what is proposed, with Approve and Reject buttons
 * (their custom_ids name the proposal by channel, id and token), in the
 * GM channel or, without one, the fight's channel with a mention. */
static struct msg *gm_notice(const struct cmd_run *run,
                             const struct proposal *p, bool in_gm_channel,
                             enum i18n_lang lang)
{
    struct msg *m = malloc(sizeof *m);
    struct sbuf text;
    char ref[PROPOSAL_REF_MAX + 1], id[CUSTOM_ID_MAX + 1];
    if (m == NULL)
        return NULL;
    msg_init(m);
    sbuf_init(&text, MSG_MAX_TEXT);
    if (!in_gm_channel && run->enc->gm != 0 &&
        msg_add_mention(m, run->enc->gm))
        sbuf_addf(&text, "<@%" PRIu64 ">, ", run->enc->gm);
    struct sbuf who;
    sbuf_init(&who, MSG_MAX_TEXT);
    add_shown(&who, proposer(p));
    if (in_gm_channel)
        sbuf_addf(&text, i18n_get(lang, "**Proposal %1$lld** from %2$s in "
                                        "<#%3$llu>, for the GM to approve: "),
                  (long long)p->id, sbuf_str(&who),
                  (unsigned long long)p->channel);
    else
        sbuf_addf(&text, i18n_get(lang, "**Proposal %lld** from %s, for the "
                                        "GM to approve: "),
                  (long long)p->id, sbuf_str(&who));
    sbuf_cleanup(&who);
    command_text(&text, p);
    sbuf_add(&text, "\n");
    sbuf_addf(&text, i18n_get(lang, "Typed: `/combat proposal approve:%1$lld` "
                                    "or `reject:%1$lld` in the fight's "
                                    "channel."),
              (long long)p->id);
    msg_set_content(m, "%s", sbuf_str(&text));
    sbuf_cleanup(&text);
    proposal_ref_text(p, ref, sizeof ref);
    if (custom_id_make(id, sizeof id, "combat", "proposal", p->fight,
                       CUSTOM_ID_ANY_VERSION, "approve", ref))
        msg_add_button(m, i18n_get(lang, "Approve"), id, MSG_BTN_SUCCESS);
    if (custom_id_make(id, sizeof id, "combat", "proposal", p->fight,
                       CUSTOM_ID_ANY_VERSION, "reject", ref))
        msg_add_button(m, i18n_get(lang, "Reject"), id, MSG_BTN_DANGER);
    return m;
}

static void fail_store(struct cmd_run *run)
{
    enum i18n_lang lang = run->req->lang;
    cmd_fail(run, i18n_get(lang, "the proposals of this fight could not be "
                                 "read or saved; nothing was changed, try "
                                 "again"));
}

/* Copy the request into p: who, what, about whom, when. */
static void proposal_fill(struct cmd_run *run, const struct enc_combatant *who,
                          struct proposal *p)
{
    const struct cmd_req *req = run->req;
    const char *name = req->user_name != NULL ? req->user_name : "";
    size_t n = sbuf_utf8_cut(name, strnlen(name, PROPOSAL_NAME_MAX));
    p->guild = req->guild_id;
    p->channel = req->channel_id;
    p->fight = run->enc->fight_id;
    p->user = req->user_id;
    memcpy(p->user_name, name, n);
    p->target = who->id;
    snprintf(p->target_name, sizeof p->target_name, "%s", who->name);
    snprintf(p->sub, sizeof p->sub, "%s", req->sub);
    for (int i = 0; i < req->nopts && i < CMD_MAX_OPTS; i++) {
        snprintf(p->opts[i].name, sizeof p->opts[i].name, "%s",
                 req->opts[i].name);
        snprintf(p->opts[i].value, sizeof p->opts[i].value, "%s",
                 req->opts[i].value);
        p->nopts++;
    }
    p->turn_seq = run->enc->turn_seq;
    p->round = run->enc->round;
    p->at_ms = req->now_ms;
}

void cmd_propose(struct cmd_run *run, const struct enc_combatant *who)
{
    run->propose_for = 0;
    struct cmd_ctx *ctx = run->ctx;
    const struct cmd_req *req = run->req;
    /* until: a hidden combatant would put its name in the GM's message,
     * which may be public: it is not there for the player, the same
     * answer as a name nobody has (the one lookup, cmd_combatant). */
    if (cmd_req_opt(req, "until") != NULL &&
        cmd_combatant(run, "until") == NULL)
        return;
    enum proposal_expiry x =
        cmd_config_proposal_expiry(ctx->store, req->guild_id);
    struct proposal_count n;
    struct proposal *p = calloc(1, sizeof *p);
    if (p == NULL) {
        cmd_fail(run, i18n_get(run->req->lang,
                               "the bot ran out of memory; nothing was "
                               "changed"));
        return;
    }
    if (proposal_sweep(ctx->store, req->channel_id, run->enc, x,
                       req->user_id, &n) != BOT_OK) {
        fail_store(run);
        goto out;
    }
    if (n.of_user >= PROPOSAL_MAX_PER_PLAYER) {
        cmd_fail(run, i18n_nget(req->lang,
                                "you have %d proposal waiting for the GM (the "
                                "limit is %d); nothing was sent. Wait for the "
                                "GM's answer.",
                                "you have %d proposals waiting for the GM "
                                "(the limit is %d); nothing was sent. Wait "
                                "for the GM's answer.",
                                (unsigned long)n.of_user),
                 n.of_user, PROPOSAL_MAX_PER_PLAYER);
        goto out;
    }
    if (n.waiting >= PROPOSAL_MAX_PER_FIGHT) {
        cmd_fail(run, i18n_nget(req->lang,
                                "this fight has %d proposal waiting for the "
                                "GM (the limit is %d); nothing was sent. Wait "
                                "for the GM's answers.",
                                "this fight has %d proposals waiting for the "
                                "GM (the limit is %d); nothing was sent. Wait "
                                "for the GM's answers.",
                                (unsigned long)n.waiting),
                 n.waiting, PROPOSAL_MAX_PER_FIGHT);
        goto out;
    }
    proposal_fill(run, who, p);
    uint64_t gm_channel = 0;
    if (req->source == CMD_SRC_DISCORD && req->guild_id != 0)
        gm_channel = cmd_config_gm_channel(ctx->store, req->guild_id);
    if (req->source == CMD_SRC_DISCORD)
        p->posted = gm_channel != 0 ? gm_channel
                    : req->thread_id != 0 ? req->thread_id
                                          : req->channel_id;
    enum bot_err err = proposal_next_id(ctx->store, req->channel_id,
                                        n.max_id, &p->id);
    if (err == BOT_OK) {
        proposal_token(p, ctx->rng);
        err = proposal_put(ctx->store, p);
    }
    /* Recorded with it: a replayed interaction (a gateway resume) is
     * answered "already done", not proposed twice. */
    if (err == BOT_OK && req->interaction_id != NULL)
        err = store_interaction_record(ctx->store, req->interaction_id,
                                       req->channel_id, run->loaded,
                                       req->now_ms);
    if (err != BOT_OK) {
        fail_store(run);
        goto out;
    }
    struct sbuf text;
    sbuf_init(&text, MSG_MAX_TEXT);
    msg_cleanup(&run->reply->msg);
    msg_init(&run->reply->msg);
    sbuf_addf(&text, i18n_get(req->lang, "Sent to the GM for approval "
                                         "(proposal %lld): "),
              (long long)p->id);
    command_text(&text, p);
    sbuf_addf(&text, ". %s", lapse_text(x, req->lang));
    if (req->source == CMD_SRC_CONSOLE) {
        sbuf_add(&text, "\n");
        sbuf_addf(&text, i18n_get(req->lang,
                                  "The GM answers with `/combat proposal "
                                  "approve:%1$lld` or `/combat proposal "
                                  "reject:%1$lld`."),
                  (long long)p->id);
    }
    msg_set_content(&run->reply->msg, "%s", sbuf_str(&text));
    sbuf_cleanup(&text);
    run->reply->ephemeral = true;
    run->keep = true;
    if (req->source == CMD_SRC_DISCORD) {
        run->reply->notice = gm_notice(run, p, gm_channel != 0,
                                       cmd_public_lang(run));
        run->reply->notice_channel = p->posted;
    }
out:
    free(p);
}

/* ---- /combat proposal ---------------------------------------------------- */

struct listing {
    struct sbuf *b;
    struct proposal p;
    int n;
};

static enum bot_err list_row(void *ctx, const char *key, const char *value)
{
    struct listing *l = ctx;
    (void)key;
    if (!proposal_decode(value, &l->p))
        return BOT_OK;
    sbuf_addf(l->b, "\n**%" PRId64 ".** ", l->p.id);
    add_shown(l->b, proposer(&l->p));
    sbuf_add(l->b, ": ");
    command_text(l->b, &l->p);
    l->n++;
    return BOT_OK;
}

/* /combat proposal alone: what waits, lapsed ones cleared first. */
static void proposal_list(struct cmd_run *run, enum proposal_expiry x)
{
    const struct cmd_req *req = run->req;
    struct proposal_count n;
    char prefix[STORE_MAX_KV_KEY];
    struct sbuf b;
    struct listing *l = calloc(1, sizeof *l);
    if (l == NULL) {
        cmd_fail(run, i18n_get(run->req->lang,
                               "the bot ran out of memory; nothing was "
                               "changed"));
        return;
    }
    sbuf_init(&b, MSG_MAX_TEXT);
    l->b = &b;
    snprintf(prefix, sizeof prefix, PROPOSAL_KV_PREFIX "%" PRIu64 ":",
             req->channel_id);
    if (proposal_sweep(run->ctx->store, req->channel_id, run->enc, x, 0,
                       &n) != BOT_OK ||
        store_kv_scan(run->ctx->store, prefix, list_row, l) != BOT_OK) {
        fail_store(run);
    } else {
        enum i18n_lang lang = req->lang;
        msg_set_content(&run->reply->msg, "%s%s%s%s",
                        l->n == 0
                            ? i18n_get(lang,
                                       "No proposals wait for an answer.")
                            : i18n_get(lang,
                                       "Proposals waiting for the GM:"),
                        sbuf_str(&b),
                        l->n == 0 ? "" : "\n",
                        l->n == 0 ? ""
                                  : i18n_get(lang,
                                             "Answer with `/combat proposal "
                                             "approve:N` or `reject:N`."));
        run->reply->ephemeral = true;
        run->keep = n.lapsed > 0;
    }
    sbuf_cleanup(&b);
    free(l);
}

/* A refusal that still keeps what was done (a lapsed proposal deleted):
 * an error reply, but the transaction commits. */
static void refuse_kept(struct cmd_run *run, const char *text)
{
    cmd_reply_error(run->reply, text, NULL);
    run->keep = true;
}

/* Tell the proposer where the fight is (its channel, or its own thread)
 * when the GM answered elsewhere (the GM channel): the answer edits only
 * the GM's message. */
static void tell_proposer(struct cmd_run *run, const struct proposal *p,
                          bool approved)
{
    uint64_t fight_at = run->ctx->shown_in != NULL
                            ? run->ctx->shown_in(run->ctx->store, p->channel)
                            : 0;
    if (fight_at == 0)
        fight_at = p->channel;
    if (run->req->source != CMD_SRC_DISCORD || p->posted == 0 ||
        p->posted == p->channel || p->posted == fight_at)
        return;
    struct msg *m = malloc(sizeof *m);
    struct sbuf text;
    if (m == NULL)
        return;
    msg_init(m);
    sbuf_init(&text, MSG_MAX_TEXT);
    if (msg_add_mention(m, p->user))
        sbuf_addf(&text, "<@%" PRIu64 ">, ", p->user);
    enum i18n_lang pub = cmd_public_lang(run);
    if (approved)
        sbuf_addf(&text, i18n_get(pub, "the GM approved your proposal %lld: "),
                  (long long)p->id);
    else
        sbuf_addf(&text, i18n_get(pub, "the GM did not approve your proposal "
                                       "%lld: "),
                  (long long)p->id);
    command_text(&text, p);
    msg_set_content(m, "%s", sbuf_str(&text));
    sbuf_cleanup(&text);
    run->reply->notice = m;
    run->reply->notice_channel = fight_at;
}

/* Apply p as the command it was, in this run: the GM's own change,
 * attributed to both in the history. */
static void proposal_apply(struct cmd_run *run, const struct proposal *p)
{
    enum i18n_lang lang = run->req->lang;
    const struct cmd_req *req = run->req;
    struct cmd_again *g = calloc(1, sizeof *g);
    if (g == NULL) {
        cmd_fail(run, i18n_get(lang, "the bot ran out of memory; nothing was "
                                     "changed"));
        return;
    }
    g->p = *p;
    g->req = *req;
    g->req.command = "combat";
    g->req.sub = g->p.sub;
    g->req.nopts = g->p.nopts;
    for (int i = 0; i < g->p.nopts; i++)
        g->req.opts[i] = (struct cmd_opt){g->p.opts[i].name,
                                          g->p.opts[i].value};
    g->req.expect_version = -1;
    g->req.expect_fight = 0;
    g->req.picker = false;
    g->req.forms = false;
    g->req.form_version = 0;
    g->req.file = NULL;
    g->req.file_len = 0;
    g->req.nchannels = 0;
    snprintf(g->by, sizeof g->by, "%s, approved by %s", proposer(p),
             req->user_name != NULL && req->user_name[0] != '\0'
                 ? req->user_name : "the GM");
    g->req.user_name = g->by;
    run->again = g;
    if (!cmd_run_as(run, &g->req))
        return;
    struct msg *m = &run->reply->msg;
    char who[SHOWN_NAME_MAX];
    proposer_shown(p, who);
    if (m->content == NULL)
        msg_set_content(m, i18n_get(cmd_public_lang(run),
                                    "Approved: proposal %lld from %s."),
                        (long long)p->id, who);
    tell_proposer(run, &g->p, true);
}

void cmd_combat_proposal(struct cmd_run *run)
{
    enum i18n_lang lang = run->req->lang;
    const struct cmd_req *req = run->req;
    struct cmd_ctx *ctx = run->ctx;
    const char *approve = cmd_req_opt(req, "approve");
    const char *reject = cmd_req_opt(req, "reject");
    enum proposal_expiry x =
        cmd_config_proposal_expiry(ctx->store, req->guild_id);
    bool clicked = req->picker || req->expect_version >= 0;
    if (approve == NULL && reject == NULL) {
        proposal_list(run, x);
        return;
    }
    if (approve != NULL && reject != NULL) {
        cmd_fail(run, i18n_get(lang,
                               "give approve: or reject:, not both"));
        return;
    }
    const char *v = approve != NULL ? approve : reject;
    struct proposal_ref ref;
    if (!proposal_ref_parse(v, &ref)) {
        cmd_fail(run, i18n_get(lang,
                               "%1$s: give the proposal's number, like %1$s:2 "
                               "(see /combat proposal)"),
                 approve ? "approve" : "reject");
        return;
    }
    /* A click names its proposal whole: channel, id, token; a reference
     * given whole (typed or clicked) must be this fight's. */
    if ((clicked && ref.token[0] == '\0') ||
        (ref.channel != 0 && ref.channel != req->channel_id)) {
        cmd_fail(run, i18n_get(lang,
                               "That button is not one of this fight's "
                               "proposals; nothing was changed."));
        return;
    }
    struct proposal *p = calloc(1, sizeof *p);
    if (p == NULL) {
        cmd_fail(run, i18n_get(lang,
                               "the bot ran out of memory; nothing was "
                               "changed"));
        return;
    }
    char text[SHOWN_NAME_MAX + 512], who[SHOWN_NAME_MAX];
    enum bot_err err = proposal_get(ctx->store, req->channel_id, ref.id, p);
    if (err == BOT_NOTFOUND) {
        cmd_fail(run, i18n_get(lang,
                               "proposal %lld is not waiting for an answer: "
                               "it was answered, or it lapsed (see /combat "
                               "proposal)"),
                 (long long)ref.id);
    } else if (err != BOT_OK) {
        fail_store(run);
    } else if (p->guild != req->guild_id ||
               (ref.token[0] != '\0' && strcmp(p->token, ref.token) != 0)) {
        cmd_fail(run, i18n_get(lang,
                               "That button is not one of this fight's "
                               "proposals; nothing was changed."));
    } else if (proposal_delete(ctx->store, req->channel_id, p->id) !=
               BOT_OK) {
        fail_store(run);
    } else if (proposal_expired(p, run->enc, x)) {
        proposer_shown(p, who);
        if (x == PROPOSAL_EXPIRE_ROUND)
            snprintf(text, sizeof text, i18n_get(lang,
                                                 "Proposal %lld from %s has "
                                                 "lapsed: the round moved on "
                                                 "since it was sent, so "
                                                 "nothing was changed. It can "
                                                 "be sent again."),
                     (long long)p->id, who);
        else
            snprintf(text, sizeof text, i18n_get(lang,
                                                 "Proposal %lld from %s has "
                                                 "lapsed: the turn moved on "
                                                 "since it was sent, so "
                                                 "nothing was changed. It can "
                                                 "be sent again."),
                     (long long)p->id, who);
        refuse_kept(run, text);
    } else if (reject != NULL) {
        char *target = msg_escape(p->target_name);
        proposer_shown(p, who);
        msg_set_content(&run->reply->msg,
                        i18n_get(cmd_public_lang(run),
                                 "Not approved: proposal %lld from %s "
                                 "(`/combat %s` for %s). Nothing was "
                                 "changed."),
                        (long long)p->id, who, p->sub,
                        target != NULL ? target : "a combatant");
        free(target);
        run->keep = true;
        tell_proposer(run, p, false);
    } else {
        const struct enc_combatant *t = enc_by_id_c(run->enc, p->target);
        if (t == NULL || eng_text_casecmp(t->name, p->target_name) != 0) {
            snprintf(text, sizeof text, i18n_get(lang,
                                                 "Proposal %lld was not "
                                                 "applied: the combatant it "
                                                 "was for has left the "
                                                 "fight."),
                     (long long)p->id);
            refuse_kept(run, text);
        } else {
            proposal_apply(run, p);
        }
    }
    free(p);
}

bool cmd_proposal_route(struct store *store, const struct cmd_req *req,
                        struct cmd_req *moved)
{
    struct proposal_ref ref;
    const char *v;
    if (req->command == NULL || req->sub == NULL ||
        strcmp(req->command, "combat") != 0 ||
        strcmp(req->sub, "proposal") != 0)
        return false;
    v = cmd_req_opt(req, "approve");
    if (v == NULL)
        v = cmd_req_opt(req, "reject");
    if (v == NULL || !proposal_ref_parse(v, &ref) || ref.channel == 0 ||
        ref.channel == req->channel_id ||
        !(req->picker || req->expect_version >= 0))
        return false;
    /* Only the GM channel's buttons act elsewhere: anyone who manages
     * some other channel would otherwise be "the GM" there for a button
     * read off a message in the fight's channel. */
    if (req->guild_id == 0 || store == NULL ||
        cmd_config_gm_channel(store, req->guild_id) != req->channel_id)
        return false;
    *moved = *req;
    moved->channel_id = ref.channel;
    moved->parent_id = 0;
    moved->thread_id = 0;
    return true;
}
