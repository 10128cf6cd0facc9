/*
 * cmd_complete.c - autocomplete: what a user may want in an option, best
 * matches first.
 *
 * The option's declared value kind (rs.h enum rs_val) says what it takes;
 * the candidates come from the channel's encounter (combatants, sides,
 * conditions in use, the attacker's saved attacks), the fight's system
 * (its conditions, choices, attack options), the registry (ruleset ids),
 * the help pages, or the store (the sender's saved characters, the
 * server's NPC templates). Only what the
 * sender may see is offered: hidden combatants' names, their conditions
 * and sides with nobody else in them stay out. Read-only: the encounter
 * comes from the cache or is decoded without a transaction, and nothing is
 * saved.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_macro.h"
#include "cmd_run.h"
#include "enc_cd.h"
#include "enc_cache.h"
#include "enc_json.h"
#include "eng_text.h"
#include "rs_data.h"
#include "rs_kit.h"
#include "store.h"

/* Candidates looked at for one answer (more than any list we offer:
 * ENC_MAX_COMBATANTS names, or a ruleset's conditions plus those in use). */
#define COMPLETE_MAX_CANDS 256

enum { SCORE_EXACT, SCORE_PREFIX, SCORE_WORD, SCORE_INSIDE, SCORE_ANY,
       SCORE_NONE };

struct cand {
    const char *label;
    const char *value;
    int score;
    int order;
};

struct cands {
    struct cand c[COMPLETE_MAX_CANDS];
    int n;
    const char *typed;
};

/* How well typed matches s (ASCII case ignored): exact, prefix, the start
 * of a later word, anywhere, or not at all. */
static int match(const char *s, const char *typed)
{
    size_t n = strlen(typed);
    if (n == 0)
        return SCORE_ANY;
    if (eng_text_casecmp(s, typed) == 0)
        return SCORE_EXACT;
    if (eng_text_ncasecmp(s, typed, n) == 0)
        return SCORE_PREFIX;
    int best = SCORE_NONE;
    for (const char *p = s + 1; *p != '\0' && best > SCORE_WORD; p++) {
        if (eng_text_ncasecmp(p, typed, n) != 0)
            continue;
        char before = p[-1];
        best = before == ' ' || before == '-' || before == '_' ||
                       before == '(' || before == '"'
                   ? SCORE_WORD
                   : SCORE_INSIDE;
    }
    return best;
}

static void add(struct cands *cs, const char *label, const char *value)
{
    if (cs->n >= COMPLETE_MAX_CANDS || value == NULL || value[0] == '\0')
        return;
    for (int i = 0; i < cs->n; i++)
        if (eng_text_casecmp(cs->c[i].value, value) == 0)
            return;
    int score = match(value, cs->typed);
    if (label != value && score == SCORE_NONE)
        score = match(label, cs->typed);
    if (score == SCORE_NONE)
        return;
    cs->c[cs->n] = (struct cand){label, value, score, cs->n};
    cs->n++;
}

static int cand_cmp(const void *a, const void *b)
{
    const struct cand *x = a, *y = b;
    if (x->score != y->score)
        return x->score - y->score;
    return x->order - y->order;
}

static bool emit(struct cands *cs, struct msg *out)
{
    qsort(cs->c, (size_t)cs->n, sizeof cs->c[0], cand_cmp);
    for (int i = 0; i < cs->n && out->select.noptions < MSG_MAX_SELECT; i++)
        if (!msg_select_add(out, cs->c[i].label, cs->c[i].value))
            return false;
    return true;
}

/* The channel's live encounter, or NULL (none, or unreadable): the cached
 * copy when it is the live state (this process's store, or a shared one
 * whose live version it matches), else decoded from the store, and then
 * kept in the cache, so that a user typing does not decode the fight at
 * every keystroke. The store holds only committed states here (commands
 * run and commit in one go, after which the cache is what was committed),
 * so what is decoded is what the next command would decode too. *owned
 * says whether the caller frees it. */
const struct encounter *cmd_enc_peek(struct cmd_ctx *ctx,
                                     const struct cmd_req *req, bool *owned)
{
    *owned = false;
    if (ctx->cache != NULL) {
        /* On a shared store another process may have moved the fight on:
         * the cached copy serves only when it is the live version. */
        int64_t cached = 0, live = 0;
        bool current =
            enc_cache_version(ctx->cache, req->channel_id, req->now_ms,
                              &cached) &&
            (!store_shared(ctx->store) ||
             (store_enc_version(ctx->store, req->channel_id, &live) ==
                  BOT_OK &&
              live == cached));
        struct encounter *e = NULL;
        if (current) {
            if (enc_cache_copy(ctx->cache, req->channel_id, req->now_ms,
                               &e) != BOT_OK)
                return NULL;
            if (e != NULL) {
                *owned = true;
                return e;
            }
        }
    }
    char *doc = NULL, why[160];
    int64_t version = 0;
    struct encounter *e = NULL;
    if (store_enc_load(ctx->store, req->channel_id, &doc, &version) !=
        BOT_OK)
        return NULL;
    if (enc_json_load(doc, &e, why, sizeof why) != BOT_OK)
        e = NULL;
    free(doc);
    if (e == NULL)
        return NULL;
    e->version = version;
    if (ctx->cache != NULL) {
        struct encounter *copy = enc_clone(e);
        if (copy != NULL)       /* else simply not cached */
            enc_cache_put(ctx->cache, req->channel_id, copy, req->now_ms);
    }
    *owned = true;
    return e;
}

/* Whether the sender may see c's name. */
static bool visible(const struct cmd_req *req, const struct encounter *e,
                    const struct enc_combatant *c, bool gm)
{
    (void)e;
    return gm || !c->hidden || (c->owner != 0 && c->owner == req->user_id);
}

static void add_combatants(struct cands *cs, const struct cmd_req *req,
                           const struct encounter *e, bool own_only)
{
    bool gm = cmd_sender_is_gm(req, e);
    for (int i = 0; i < e->ncs; i++) {
        const struct enc_combatant *c = &e->cs[i];
        bool mine = c->owner != 0 && c->owner == req->user_id;
        /* Players never learn hidden names, and pick only their own where
         * the command acts for a combatant. */
        if (own_only ? (gm || mine) : visible(req, e, c, gm))
            add(cs, c->name, c->name);
    }
}

/* The system's conditions, then those in use on combatants the sender may
 * see (a hidden combatant's conditions would give it away). */
static void add_conditions(struct cands *cs, const struct cmd_req *req,
                           const struct encounter *e,
                           const struct rs_system *rs, const void *data)
{
    int n = 0;
    const struct rs_cond_spec *list = rs_cond_specs(rs, data, &n);
    for (int i = 0; i < n; i++)
        if (!(list[i].flags & RS_COND_SYSTEM))
            add(cs, list[i].name, list[i].name);
    bool gm = cmd_sender_is_gm(req, e);
    for (int i = 0; e != NULL && i < e->ncs; i++)
        if (visible(req, e, &e->cs[i], gm))
            for (int k = 0; k < e->cs[i].nconds; k++)
                add(cs, e->cs[i].conds[k].name, e->cs[i].conds[k].name);
}

/* Sides that have someone the sender may see, or nobody yet. */
static void add_sides(struct cands *cs, const struct cmd_req *req,
                      const struct encounter *e)
{
    bool gm = cmd_sender_is_gm(req, e);
    for (int s = 0; s < e->nsides; s++) {
        bool shown = true;
        for (int i = 0; i < e->ncs; i++) {
            if (e->cs[i].side != s)
                continue;
            shown = visible(req, e, &e->cs[i], gm);
            if (shown)
                break;
        }
        if (shown)
            add(cs, e->sides[s].name, e->sides[s].name);
    }
}

/* Completions of the last word of a list typed so far: each candidate is
 * the whole text with its last word replaced ("sneak ad" -> "sneak adv"),
 * so choosing one keeps what was typed before. */
struct tail {
    char head[512];          /* what comes before the last word */
    const char *last;        /* the last word, borrowed from typed */
    char buf[COMPLETE_MAX_CANDS][160];
    int n;
};

static void tail_split(struct tail *t, const char *typed, const char *seps)
{
    const char *last = typed;
    for (const char *p = typed; *p; p++)
        if (strchr(seps, *p) != NULL)
            last = p + 1;
    size_t n = (size_t)(last - typed);
    if (n >= sizeof t->head)
        n = 0;
    memcpy(t->head, typed, n);
    t->head[n] = '\0';
    t->last = last;
    t->n = 0;
}

static void tail_add(struct cands *cs, struct tail *t, const char *word,
                     const char *suffix)
{
    if (t->n >= COMPLETE_MAX_CANDS || match(word, t->last) == SCORE_NONE)
        return;
    char *s = t->buf[t->n++];
    char tmp[sizeof t->buf[0]];
    snprintf(tmp, sizeof tmp, "%s%s%s", t->head, word, suffix);
    memcpy(s, tmp, sizeof tmp);
    const char *saved = cs->typed;
    cs->typed = "";           /* already matched on the last word */
    add(cs, s, s);
    cs->typed = saved;
}

/* A saved roll offered: its label and value kept in t's buffers until
 * emit() copies them. */
struct macro_sink {
    struct cands *cs;
    struct tail *t;
};

static void macro_cand(void *arg, const char *label, const char *value)
{
    struct macro_sink *k = arg;
    if (k->t->n + 2 > COMPLETE_MAX_CANDS)
        return;
    char *l = k->t->buf[k->t->n++], *v = k->t->buf[k->t->n++];
    snprintf(l, sizeof k->t->buf[0], "%s", label);
    snprintf(v, sizeof k->t->buf[0], "%s", value);
    add(k->cs, l, v);
}

/* Saved rolls for a dice option (only once "@" is typed: plain dice have
 * nothing to suggest) or a /macro name option (/macro delete: only those
 * the sender may delete). */
static void add_macros(struct cands *cs, struct tail *t, struct cmd_ctx *ctx,
                       const struct cmd_req *req, bool dice)
{
    struct macro_sink k = {cs, t};
    const char *typed = cs->typed;
    if (dice && typed[0] != '@')
        return;
    if (typed[0] == '@')
        typed++;
    t->n = 0;
    cmd_macro_complete(ctx, req, typed, dice,
                       req->sub != NULL && strcmp(req->sub, "delete") == 0,
                       macro_cand, &k);
}

/* Saved sheets' names, copied out of the store's rows: candidates keep
 * pointers until the answer is built. */
struct sheet_names {
    char name[STORE_MAX_SHEET_LIST][STORE_MAX_SHEET_NAME + 1];
    int n;
};

static enum bot_err keep_name(void *ctx, const struct store_sheet *sh)
{
    struct sheet_names *sn = ctx;
    if (sn->n < STORE_MAX_SHEET_LIST)
        enc_copy(sn->name[sn->n++], sizeof sn->name[0], sh->name);
    return BOT_OK;
}

/* The sender's characters in this server (kind STORE_SHEET_CHAR) or the
 * server's templates, whose names start with what was typed. */
static void add_sheets(struct cands *cs, struct cmd_ctx *ctx,
                       const struct cmd_req *req, enum store_sheet_kind kind,
                       struct sheet_names *sn)
{
    struct store_sheet_key k = {
        .kind = kind, .guild = req->guild_id,
        .owner = kind == STORE_SHEET_CHAR ? req->user_id : 0,
        .name = cs->typed};
    if (strlen(cs->typed) > STORE_MAX_SHEET_NAME ||
        store_sheet_list(ctx->store, &k, STORE_MAX_SHEET_LIST, NULL,
                         keep_name, sn) != BOT_OK)
        return;
    for (int i = 0; i < sn->n; i++)
        add(cs, sn->name[i], sn->name[i]);
}

/* The saved attacks of the combatant an /attack names with attacker:, or
 * else whose turn it is, when the sender may act for it. */
static void add_attacks(struct cands *cs, const struct cmd_req *req,
                        const struct encounter *e)
{
    const char *by = cmd_req_opt(req, "attacker");
    const struct enc_combatant *a = NULL;
    for (int i = 0; i < e->ncs && a == NULL; i++)
        if (by != NULL ? enc_name_eq(e->cs[i].name, by)
                       : e->cs[i].id == e->current)
            a = &e->cs[i];
    if (a == NULL || !(cmd_sender_is_gm(req, e) ||
                       (a->owner != 0 && a->owner == req->user_id)))
        return;
    for (int i = 0; i < a->nattacks; i++)
        add(cs, a->attacks[i].name, a->attacks[i].name);
}

/* The resources of the combatant in name:, when the sender may see it:
 * a hidden one's are the GM's and its owner's alone. */
static void add_resources(struct cands *cs, const struct cmd_req *req,
                          const struct encounter *e)
{
    const char *name = cmd_req_opt(req, "name");
    bool gm = cmd_sender_is_gm(req, e);
    for (int i = 0; name != NULL && i < e->ncs; i++) {
        const struct enc_combatant *c = &e->cs[i];
        if (!enc_name_eq(c->name, name) ||
            (c->hidden && !gm && c->owner != req->user_id))
            continue;
        for (int k = 0; k < c->nres; k++)
            add(cs, c->res[k].name, c->res[k].name);
    }
}

/* The fight's countdowns, a hidden one's name the GM's alone (the
 * command is the GM's, but autocomplete asks before that is checked). */
static void add_countdowns(struct cands *cs, const struct cmd_req *req,
                           const struct encounter *e)
{
    bool gm = cmd_sender_is_gm(req, e);
    for (int i = 0; i < e->ncds; i++)
        if (gm || !enc_cd_secret(e, &e->cds[i]))
            add(cs, e->cds[i].name, e->cds[i].name);
}

static void add_choices(struct cands *cs, const struct rs_opt_spec *os)
{
    for (int i = 0; os->choices != NULL && os->choices[i] != NULL; i++)
        add(cs, os->choices[i], os->choices[i]);
}

/* Kept beside cmd_complete() so that a kind it suggests for is never left
 * out of the registration (Discord asks only for options marked so). */
bool cmd_complete_offers(const struct rs_opt_spec *o)
{
    switch (o->val) {
    case RS_VAL_COMBATANT:
    case RS_VAL_OWN:
    case RS_VAL_SIDE:
    case RS_VAL_SIDE_ANY:
    case RS_VAL_CONDITION:
    case RS_VAL_SYSTEM:
    case RS_VAL_SYSTEMS:
    case RS_VAL_HELP:
    case RS_VAL_ATTACK_OPTS:
    case RS_VAL_SETTINGS:
    case RS_VAL_STATS:
    case RS_VAL_MACRO:
    case RS_VAL_DICE_MACRO:
    case RS_VAL_CHARACTER:
    case RS_VAL_ATTACK:
    case RS_VAL_TEMPLATE:
    case RS_VAL_SERVER_COND:
    case RS_VAL_RESOURCE:
    case RS_VAL_COUNTDOWN:
        return o->type == RS_OPT_STRING || o->type == RS_OPT_INTEGER;
    case RS_VAL_CHOICE:
        return o->choices == NULL;
    default:
        return false;
    }
}

bool cmd_complete(struct cmd_ctx *ctx, const struct cmd_req *req,
                  const char *focused, struct msg *out)
{
    struct cmd_spec spec;
    bool owned = false;
    const struct encounter *e = NULL;
    if (req->command == NULL || focused == NULL ||
        !cmd_lookup(req->command, req->sub, NULL, &spec))
        return true;
    /* A command that needs no fight may still name a fight's combatant
     * (/npc save from:). */
    const struct rs_opt_spec *first = cmd_spec_opt(&spec, focused);
    if ((spec.flags & CMD_F_NEEDS_ENC) ||
        (first != NULL && (first->val == RS_VAL_COMBATANT ||
                           first->val == RS_VAL_OWN)))
        e = cmd_enc_peek(ctx, req, &owned);
    const struct rs_system *rs = e != NULL ? rs_find(e->ruleset) : NULL;
    /* The fight's own declaration of the option, when it has one. */
    if (rs != NULL)
        cmd_lookup(req->command, req->sub, rs, &spec);
    const struct rs_opt_spec *os = cmd_spec_opt(&spec, focused);
    struct cands *cs = calloc(1, sizeof *cs);
    struct tail *t = calloc(1, sizeof *t);
    struct sheet_names *sn = calloc(1, sizeof *sn);
    if (cs == NULL || t == NULL || sn == NULL) {
        free(cs);
        free(t);
        free(sn);
        if (owned)
            enc_free((struct encounter *)e);
        return false;
    }
    const char *typed = cmd_req_opt(req, focused);
    cs->typed = typed != NULL ? typed : "";
    const char *topics[64];
    size_t n;
    size_t nrs;
    const struct rs_system *const *all = rs_all(&nrs);
    const void *data = rs != NULL ? rs_data_get(ctx->rs_data, rs) : NULL;

    switch (os != NULL ? os->val : RS_VAL_TEXT) {
    case RS_VAL_COMBATANT:
    case RS_VAL_OWN:
        if (e != NULL)
            add_combatants(cs, req, e, os->val == RS_VAL_OWN);
        break;
    case RS_VAL_CONDITION:
        add_conditions(cs, req, e, rs != NULL ? rs : all[0], data);
        /* the server's own, after the system's: never in their place */
        add_sheets(cs, ctx, req, STORE_SHEET_COND, sn);
        break;
    case RS_VAL_SIDE:
    case RS_VAL_SIDE_ANY:
        if (e != NULL)
            add_sides(cs, req, e);
        break;
    case RS_VAL_SYSTEM:
        for (size_t i = 0; i < nrs; i++)
            add(cs, all[i]->title, all[i]->id);
        break;
    case RS_VAL_SYSTEMS:
        tail_split(t, cs->typed, ",");
        for (size_t i = 0; i < nrs; i++)
            tail_add(cs, t, all[i]->id, "");
        break;
    case RS_VAL_HELP:
        n = cmd_help_topics(topics, sizeof topics / sizeof topics[0]);
        for (size_t i = 0; i < n; i++)
            add(cs, topics[i], topics[i]);
        break;
    case RS_VAL_CHOICE:
        add_choices(cs, os);
        break;
    case RS_VAL_ATTACK_OPTS:
        tail_split(t, cs->typed, " ,");
        for (int i = 0; rs != NULL && rs->attack_opts != NULL &&
                        rs->attack_opts[i].name != NULL; i++) {
            const struct rs_opt_spec *o = &rs->attack_opts[i];
            bool word = o->val == RS_VAL_FLAG || o->val == RS_VAL_COUNT;
            tail_add(cs, t, o->name, word ? "" : "=");
        }
        break;
    case RS_VAL_SETTINGS: {
        const struct rs_system *sys = rs_find(cmd_req_opt(req, "system"));
        tail_split(t, cs->typed, " ,");
        for (const struct rs_setting_spec *p = sys ? sys->settings : NULL;
             p != NULL && p->key != NULL; p++)
            tail_add(cs, t, p->key, "=");
        break;
    }
    case RS_VAL_MACRO:
    case RS_VAL_DICE_MACRO:
        add_macros(cs, t, ctx, req, os->val == RS_VAL_DICE_MACRO);
        break;
    case RS_VAL_STATS:
        tail_split(t, cs->typed, " ,");
        for (const struct rs_stat_spec *p = rs ? rs->stats : NULL;
             p != NULL && p->name != NULL; p++)
            tail_add(cs, t, p->name, "=");
        break;
    case RS_VAL_CHARACTER:
        add_sheets(cs, ctx, req, STORE_SHEET_CHAR, sn);
        break;
    case RS_VAL_TEMPLATE:
        /* Their names stay with those who may read and use them. */
        if (cmd_sender_reads_npcs(ctx->store, req))
            add_sheets(cs, ctx, req, STORE_SHEET_NPC, sn);
        break;
    case RS_VAL_ATTACK:
        if (e != NULL)
            add_attacks(cs, req, e);
        break;
    case RS_VAL_SERVER_COND:
        add_sheets(cs, ctx, req, STORE_SHEET_COND, sn);
        break;
    case RS_VAL_RESOURCE:
        if (e != NULL)
            add_resources(cs, req, e);
        break;
    case RS_VAL_COUNTDOWN:
        if (e != NULL)
            add_countdowns(cs, req, e);
        break;
    default:
        break;
    }
    /* out copies every string: the encounter, t and sn may go now. */
    bool ok = emit(cs, out);
    if (owned)
        enc_free((struct encounter *)e);
    free(cs);
    free(t);
    free(sn);
    if (!ok)
        msg_cleanup(out);
    return ok;
}
