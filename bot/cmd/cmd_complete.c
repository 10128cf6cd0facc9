/*
 * cmd_complete.c - autocomplete: what a user may want in an option, best
 * matches first.
 *
 * The option's enum cmd_complete (cmd_table.c) says what kind of value it
 * takes; the candidates come from the channel's encounter (combatants,
 * sides, conditions in use), the ruleset (its conditions), the registry
 * (ruleset ids) or the help pages. Read-only: the encounter is loaded
 * without a transaction and nothing is saved.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd_run.h"
#include "enc_json.h"
#include "eng_text.h"
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

/* Conditions each ruleset uses (the names its rules and docs give), offered
 * before those already on someone. Unknown rulesets get the common list. */
static const char *const conds_common[] = {
    "Bleeding", "Blessed", "Blinded", "Burning", "Charmed", "Concentrating",
    "Deafened", "Dodging", "Exhausted", "Frightened", "Grappled", "Hasted",
    "Hidden", "Incapacitated", "Invisible", "Paralyzed", "Petrified",
    "Poisoned", "Prone", "Restrained", "Slowed", "Stunned", "Unconscious",
    NULL,
};
static const char *const conds_factions[] = {
    "Concealed", "Grabbed", "Disarmed", "Broken", "Surrendered", NULL,
};
static const char *const conds_teams[] = {
    "guarding", "in cover", "waiting", "readied", "prone", NULL,
};
static const char *const conds_resolve[] = {
    "Defending", "Wounded", NULL,
};
static const char *const conds_tactical[] = {
    "Acid", "Afraid", "Berserk", "Blinded", "Corroded", "Distracted",
    "Encouraged", "Exhausted", "Fatigued", "Flanked", "Grappled", "Hidden",
    "Immobilized", "Injured", "Magnetized", "Paralyzed", "Poisoned", "Prone",
    "Shutdown", "Slowed", "Stunned", "Surprised", "Taunted", NULL,
};

static const struct {
    const char *ruleset;
    const char *const *conds;
} rs_conds[] = {
    {"factions", conds_factions},
    {"teams", conds_teams},
    {"resolve", conds_resolve},
    {"tactical", conds_tactical},
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

/* The channel's live encounter, or NULL (none, or unreadable). */
static struct encounter *load(struct cmd_ctx *ctx, const struct cmd_req *req)
{
    char *doc = NULL, why[160];
    int64_t version = 0;
    struct encounter *e = NULL;
    if (store_enc_load(ctx->store, req->channel_id, &doc, &version) !=
        BOT_OK)
        return NULL;
    if (enc_json_load(doc, &e, why, sizeof why) != BOT_OK)
        e = NULL;
    free(doc);
    return e;
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
        if (gm || mine || (!own_only && !c->hidden))
            add(cs, c->name, c->name);
    }
}

static void add_conditions(struct cands *cs, const struct encounter *e)
{
    const char *const *list = conds_common;
    for (size_t i = 0; e != NULL && i < sizeof rs_conds / sizeof rs_conds[0];
         i++)
        if (eng_text_casecmp(rs_conds[i].ruleset, e->ruleset) == 0)
            list = rs_conds[i].conds;
    for (const char *const *p = list; *p != NULL; p++)
        add(cs, *p, *p);
    for (int i = 0; e != NULL && i < e->ncs; i++)
        for (int k = 0; k < e->cs[i].nconds; k++)
            add(cs, e->cs[i].conds[k].name, e->cs[i].conds[k].name);
}

bool cmd_complete(struct cmd_ctx *ctx, const struct cmd_req *req,
                  const char *focused, struct msg *out)
{
    const struct cmd_spec *spec = req->command
                                      ? cmd_table_find(req->command, req->sub)
                                      : NULL;
    const struct cmd_opt_spec *os = spec && focused
                                        ? cmd_spec_opt(spec, focused)
                                        : NULL;
    if (os == NULL || os->complete == CMD_COMPLETE_NONE)
        return true;
    struct cands *cs = calloc(1, sizeof *cs);
    if (cs == NULL)
        return false;
    const char *typed = cmd_req_opt(req, focused);
    cs->typed = typed != NULL ? typed : "";
    struct encounter *e = NULL;
    const char *topics[64];
    size_t n;

    switch (os->complete) {
    case CMD_COMPLETE_NONE:
        break;
    case CMD_COMPLETE_COMBATANT:
    case CMD_COMPLETE_OWN_COMBATANT:
        if ((e = load(ctx, req)) != NULL)
            add_combatants(cs, req, e,
                           os->complete == CMD_COMPLETE_OWN_COMBATANT);
        break;
    case CMD_COMPLETE_CONDITION:
        e = load(ctx, req);
        add_conditions(cs, e);
        break;
    case CMD_COMPLETE_SIDE:
        if ((e = load(ctx, req)) != NULL)
            for (int i = 0; i < e->nsides; i++)
                add(cs, e->sides[i].name, e->sides[i].name);
        break;
    case CMD_COMPLETE_SYSTEM: {
        const struct rs_system *const *all = rs_all(&n);
        for (size_t i = 0; i < n; i++)
            add(cs, all[i]->title, all[i]->id);
        break;
    }
    case CMD_COMPLETE_HELP:
        n = cmd_help_topics(topics, sizeof topics / sizeof topics[0]);
        for (size_t i = 0; i < n; i++)
            add(cs, topics[i], topics[i]);
        break;
    }
    /* out copies every string: the encounter may go now. */
    bool ok = emit(cs, out);
    enc_free(e);
    free(cs);
    if (!ok)
        msg_cleanup(out);
    return ok;
}
