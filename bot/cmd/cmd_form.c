/*
 * cmd_form.c - forms built from the command table and the rulesets'
 * declarations (cmd_form.h).
 */
#include "cmd_form.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_config.h"
#include "cmd_run.h"
#include "cmd_table.h"
#include "custom_id.h"
#include "enc.h"
#include "eng_text.h"
#include "store.h"

#define P_SERVER_SYSTEM (1u << 0)   /* the form names the server's system */
#define P_FIGHT         (1u << 1)   /* ... the channel's fight's */
#define P_TEMPLATES     (1u << 2)   /* a select of the server's templates */
#define P_CHARACTERS    (1u << 3)   /* a select of the sender's characters */
#define P_GM            (1u << 4)   /* only the fight's GM gets the form */

/* One form: which options become fields, in order (at most
 * FORM_MAX_FIELDS used; the select, when there are choices, comes first
 * and replaces `drop`). */
struct plan {
    const char *command, *sub;
    const char *title;
    unsigned flags;
    const char *fields[FORM_MAX_FIELDS + 1];
    const char *select;              /* the select's option, or NULL */
    const char *drop;                /* the field the select replaces */
};

static const struct plan plans[] = {
    {"character", "create", N_("New character"), P_SERVER_SYSTEM,
     {"name", "hp", "stats", "attack", "damage", NULL}, NULL, NULL},
    {"npc", "create", N_("New NPC template"), P_SERVER_SYSTEM,
     {"name", "hp", "stats", "attack", "damage", NULL}, NULL, NULL},
    {"combat", "add", N_("Add to the fight"), P_FIGHT | P_TEMPLATES | P_GM,
     {"name", "count", "hp", "stats", "hidden", NULL}, "template", "hp"},
    {"combat", "join", N_("Join the fight"), P_FIGHT | P_CHARACTERS,
     {"name", "hp", "stats", "side", NULL}, "character", "side"},
    {"macro", "save", N_("Save a roll"), 0,
     {"name", "dice", "server", "replace", NULL}, NULL, NULL},
    {"character", "import", N_("Import characters"), 0,
     {"file", "replace", NULL}, NULL, NULL},
    {"npc", "import", N_("Import NPC templates"), 0,
     {"file", "replace", NULL}, NULL, NULL},
};

static const struct plan *plan_of(const char *command, const char *sub)
{
    if (command == NULL || sub == NULL)
        return NULL;
    for (size_t i = 0; i < sizeof plans / sizeof plans[0]; i++)
        if (strcmp(plans[i].command, command) == 0 &&
            strcmp(plans[i].sub, sub) == 0)
            return &plans[i];
    return NULL;
}

bool cmd_form_command(const char *command, const char *sub)
{
    return plan_of(command, sub) != NULL;
}

bool cmd_form_wanted(const struct cmd_req *req)
{
    const struct plan *p = plan_of(req->command, req->sub);
    if (!req->forms || req->form_version != 0 || p == NULL)
        return false;
    return req->nopts == 0 ||
           (req->nopts == 1 && (p->flags & P_SERVER_SYSTEM) &&
            strcmp(req->opts[0].name, "system") == 0);
}

static const struct rs_stat_spec *stat_of(const struct rs_system *rs,
                                          const char *name)
{
    for (const struct rs_stat_spec *s = rs ? rs->stats : NULL;
         s != NULL && s->name != NULL; s++)
        if (strcmp(s->name, name) == 0)
            return s;
    return NULL;
}

/* "ac=0..100 init=-100..100 …": the system's stats but hp (a field of
 * its own), with their ranges; folded visibly at max characters. Names
 * only (names_only) for the description. */
static void stats_text(const struct rs_system *rs, bool names_only,
                       const char *lead, char *out, size_t cap, int max)
{
    char buf[2048];
    size_t at = 0;
    int w = snprintf(buf, sizeof buf, "%s", lead);
    at = w > 0 ? (size_t)w : 0;
    for (const struct rs_stat_spec *s = rs ? rs->stats : NULL;
         s != NULL && s->name != NULL && at < sizeof buf; s++) {
        if (strcmp(s->name, "hp") == 0)
            continue;
        if (names_only)
            w = snprintf(buf + at, sizeof buf - at, "%s%s",
                         at > strlen(lead) ? ", " : "", s->name);
        else
            w = snprintf(buf + at, sizeof buf - at,
                         "%s%s=%" PRId64 "..%" PRId64,
                         at > strlen(lead) ? " " : "", s->name, s->min,
                         s->max);
        if (w < 0 || (size_t)w >= sizeof buf - at)
            break;
        at += (size_t)w;
    }
    form_copy(out, cap, buf, max);
}

static int digits(int64_t v)
{
    int n = v < 0 ? 2 : 1;
    for (v = v < 0 ? -v : v; v >= 10; v /= 10)
        n++;
    return n;
}

/* One field from the option's declaration os. */
static void field_from(const struct rs_opt_spec *os,
                       const struct cmd_form_in *in,
                       struct form_field *f)
{
    char label[64];
    enum i18n_lang lang = in->lang;
    memset(f, 0, sizeof *f);
    eng_text_copy(f->name, sizeof f->name, os->name);
    /* the name and description registration gave the option in lang */
    snprintf(label, sizeof label, "%s",
             i18n_pget(lang, I18N_CTX_NAME, os->name));
    label[0] = (char)(label[0] >= 'a' && label[0] <= 'z' ? label[0] - 32
                                                          : label[0]);
    f->required = os->required;
    form_copy(f->description, sizeof f->description,
              os->help != NULL ? i18n_get(lang, os->help) : NULL,
              FORM_DESC_MAX);
    switch (os->type) {
    case RS_OPT_BOOLEAN:
        f->kind = FORM_CHECKBOX;
        break;
    case RS_OPT_ATTACHMENT:
        f->kind = FORM_FILE;
        f->required = true;
        break;
    case RS_OPT_INTEGER: {
        char ph[64];
        f->kind = FORM_TEXT;
        f->max_len = digits(os->min) > digits(os->max) ? digits(os->min)
                                                       : digits(os->max);
        snprintf(ph, sizeof ph, i18n_get(lang,
                                         "%lld to %lld"),
                 (long long)os->min, (long long)os->max);
        if (strcmp(os->name, "hp") == 0) {
            const struct rs_stat_spec *hp = stat_of(in->rs, "hp");
            snprintf(label, sizeof label, "%s",
                     i18n_get(lang, "Hit points (hp)"));
            if (hp != NULL) {
                snprintf(ph, sizeof ph, i18n_get(lang,
                                                 "%lld to %lld"),
                         (long long)hp->min, (long long)hp->max);
                form_copy(f->description, sizeof f->description, hp->help,
                          FORM_DESC_MAX);
            }
        }
        form_copy(f->placeholder, sizeof f->placeholder, ph,
                  FORM_PLACEHOLDER_MAX);
        break;
    }
    case RS_OPT_STRING:
    case RS_OPT_CHANNEL:
    case RS_OPT_ROLE:
        f->kind = FORM_TEXT;
        f->max_len = os->max > 0 && os->max < FORM_TEXT_MAX ? (int)os->max
                                                            : FORM_TEXT_MAX;
        if (os->val == RS_VAL_STATS) {
            f->kind = FORM_PARAGRAPH;
            if (in->rs != NULL) {
                char lead[160];
                snprintf(label, sizeof label, i18n_get(lang,
                                                       "Stats (%s)"),
                         in->rs->title);
                snprintf(lead, sizeof lead,
                         i18n_get(lang, "key=value; %s stats: "),
                         in->rs->title);
                stats_text(in->rs, true, lead, f->description,
                           sizeof f->description, FORM_DESC_MAX + 1);
                /* too many to name in 100 characters: say where they all
                 * are rather than cut the list */
                if (form_chars(f->description) > FORM_DESC_MAX) {
                    char more[256];
                    snprintf(more, sizeof more,
                             i18n_get(lang, "key=value; every %s stat is "
                                            "listed in /help topic:%s"),
                             in->rs->title, in->rs->id);
                    form_copy(f->description, sizeof f->description, more,
                              FORM_DESC_MAX);
                }
                stats_text(in->rs, false, "", f->placeholder,
                           sizeof f->placeholder, FORM_PLACEHOLDER_MAX);
            }
        }
        break;
    }
    form_copy(f->label, sizeof f->label, label, FORM_LABEL_MAX);
}

bool cmd_form_build(const char *command, const char *sub,
                    const struct cmd_form_in *in, struct form *out)
{
    const struct plan *p = plan_of(command, sub);
    struct cmd_spec spec;
    char title[128];
    bool select = p != NULL && p->select != NULL && in->nchoices > 0;

    if (p == NULL || !cmd_lookup(command, sub, NULL, &spec))
        return false;
    memset(out, 0, sizeof *out);
    if (in->rs != NULL && (p->flags & P_SERVER_SYSTEM))
        snprintf(title, sizeof title, "%s (%s)",
                 i18n_get(in->lang, p->title), in->rs->title);
    else
        snprintf(title, sizeof title, "%s", i18n_get(in->lang, p->title));
    form_copy(out->title, sizeof out->title, title, FORM_TITLE_MAX);
    if (!custom_id_make(out->custom_id, sizeof out->custom_id, command, sub,
                        in->fight, CMD_FORM_VERSION, CMD_FORM_ARG,
                        in->rs != NULL && (p->flags & P_SERVER_SYSTEM)
                            ? in->rs->id : NULL))
        return false;
    if (select) {
        const struct rs_opt_spec *os = cmd_spec_opt(&spec, p->select);
        struct form_field *f = &out->fields[out->nfields++];
        if (os == NULL)
            return false;
        field_from(os, in, f);
        f->kind = FORM_SELECT;
        f->required = false;
        for (int i = 0; i < in->nchoices && i < FORM_OPTIONS_MAX; i++) {
            form_copy(f->options[i].label, sizeof f->options[i].label,
                      in->choices[i], FORM_OPTION_MAX);
            /* names are at most ENC_MAX_NAME bytes: they fit whole */
            eng_text_copy(f->options[i].value, sizeof f->options[i].value,
                          in->choices[i]);
            f->noptions++;
        }
    }
    for (int i = 0; p->fields[i] != NULL && out->nfields < FORM_MAX_FIELDS;
         i++) {
        const struct rs_opt_spec *os;
        if (select && p->drop != NULL && strcmp(p->fields[i], p->drop) == 0)
            continue;
        /* server-wide saved rolls need a server */
        if (!in->in_guild && strcmp(p->fields[i], "server") == 0)
            continue;
        os = cmd_spec_opt(&spec, p->fields[i]);
        if (os == NULL)
            return false;
        field_from(os, in, &out->fields[out->nfields++]);
        /* with a select, the name may come from it */
        if (select && strcmp(os->name, "name") == 0)
            out->fields[out->nfields - 1].required = false;
    }
    return out->nfields > 0;
}

/* ---- opening one ---------------------------------------------------- */

struct choices {
    struct cmd_form_in *in;
    const char *system;
    char name[CMD_FORM_CHOICES_MAX][STORE_MAX_SHEET_NAME + 1];
};

static enum bot_err keep_choice(void *ctx, const struct store_sheet *sh)
{
    struct choices *c = ctx;
    struct cmd_form_in *in = c->in;
    if (in->nchoices < CMD_FORM_CHOICES_MAX && sh->system != NULL &&
        strcmp(sh->system, c->system) == 0) {
        eng_text_copy(c->name[in->nchoices], sizeof c->name[0], sh->name);
        in->choices[in->nchoices] = c->name[in->nchoices];
        in->nchoices++;
    }
    return BOT_OK;
}

static bool refuse(struct cmd_reply *reply, const char *text,
                   const char *hint)
{
    cmd_reply_error(reply, text, hint);
    return true;
}

/* A bare /combat join whose form would offer one choice, the saved
 * character the sender uses: the join runs as typed and brings it, one
 * interaction instead of the form's two. */
static bool join_without_form(struct cmd_ctx *ctx, const struct cmd_req *req,
                              const struct plan *p,
                              const struct cmd_form_in *in)
{
    char *used = NULL;
    bool same;
    if (!(p->flags & P_CHARACTERS) || in->nchoices != 1 ||
        store_sheet_use_get(ctx->store, req->guild_id, req->user_id,
                            &used) != BOT_OK)
        return false;
    same = eng_text_casecmp(used, in->choices[0]) == 0;
    free(used);
    return same;
}

/* A submitted form: its custom_id must be one of today's forms. */
static bool check_submit(struct cmd_ctx *ctx, const struct cmd_req *req,
                         struct cmd_reply *reply)
{
    const struct plan *p = plan_of(req->command, req->sub);
    if (req->form_version != CMD_FORM_VERSION || p == NULL)
        return refuse(reply, i18n_get(req->lang,
                                      "that form is out of date or not one of "
                                      "fray's: nothing was done; give the "
                                      "command again"),
                      "/help");
    if (p->flags & P_FIGHT) {
        bool owned = false;
        const struct encounter *e = cmd_enc_peek(ctx, req, &owned);
        bool same = e != NULL && e->fight_id == req->expect_fight;
        if (owned)
            enc_free((struct encounter *)e);
        if (!same)
            return refuse(reply, i18n_get(req->lang,
                                          "that form was opened for a fight "
                                          "that is over: nothing was done; "
                                          "give the command again"),
                          NULL);
    }
    return false;
}

bool cmd_form_exec(struct cmd_ctx *ctx, const struct cmd_req *req,
                   struct cmd_reply *reply)
{
    struct cmd_form_in in = {.in_guild = req->guild_id != 0,
                             .lang = req->lang};
    struct choices ch = {.in = &in};
    const struct plan *p;

    if (req->form_version != 0)
        return check_submit(ctx, req, reply);
    if (!cmd_form_wanted(req))
        return false;
    p = plan_of(req->command, req->sub);
    if (p->flags & P_SERVER_SYSTEM) {
        const char *id = cmd_req_opt(req, "system");
        const struct rs_system *list[CMD_CONFIG_MAX_SYSTEMS];
        bool configured = false;
        size_t n = id ? 0
                      : cmd_config_systems(ctx->store, req->guild_id, list,
                                           CMD_CONFIG_MAX_SYSTEMS,
                                           &configured);
        in.rs = id ? rs_find(id) : n == 1 ? list[0] : NULL;
        if (in.rs == NULL && id != NULL)
            return false;          /* the validator names the bad system */
        if (in.rs == NULL) {
            char ids[256], text[400];
            cmd_system_ids(ids, sizeof ids);
            snprintf(text, sizeof text, i18n_get(req->lang,
                                                 "this server plays several "
                                                 "systems: give system: alone "
                                                 "to open its form (%s)"),
                     ids);
            return refuse(reply, text, NULL);
        }
    }
    if (p->flags & P_FIGHT) {
        bool owned = false, gm;
        const struct encounter *e = cmd_enc_peek(ctx, req, &owned);
        if (e == NULL)
            return refuse(reply, i18n_get(req->lang,
                                          "there is no fight in this channel"),
                          "/combat start system:generic");
        in.rs = e->sys;
        in.fight = e->fight_id;
        gm = cmd_sender_is_gm(req, e);
        if (owned)
            enc_free((struct encounter *)e);
        if ((p->flags & P_GM) && !gm) {
            char text[400];
            snprintf(text, sizeof text, i18n_get(req->lang,
                                                 "only the GM may use /%s %s "
                                                 "(the GM is whoever started "
                                                 "the fight, or anyone with "
                                                 "Manage Channels)"),
                     p->command, p->sub);
            return refuse(reply, text, NULL);
        }
    }
    if (in.rs != NULL && (p->flags & (P_TEMPLATES | P_CHARACTERS)) &&
        ((p->flags & P_CHARACTERS) ||
         cmd_sender_reads_npcs(ctx->store, req))) {
        bool chars = (p->flags & P_CHARACTERS) != 0;
        struct store_sheet_key k = {
            .kind = chars ? STORE_SHEET_CHAR : STORE_SHEET_NPC,
            .guild = req->guild_id, .owner = chars ? req->user_id : 0,
            .name = ""};
        ch.system = in.rs->id;
        /* a store that fails leaves the select out: the name field stays */
        (void)store_sheet_list(ctx->store, &k, STORE_MAX_SHEET_LIST, NULL,
                               keep_choice, &ch);
        if (join_without_form(ctx, req, p, &in))
            return false;
    }
    reply->form = malloc(sizeof *reply->form);
    if (reply->form == NULL ||
        !cmd_form_build(req->command, req->sub, &in, reply->form)) {
        free(reply->form);
        reply->form = NULL;
        return refuse(reply, i18n_get(req->lang,
                                      "that form could not be made"),
                      NULL);
    }
    reply->ephemeral = true;
    return true;
}
