/*
 * cmd_picker.c - pickers: a private select offering what a typed command
 * would take, so a player chooses instead of typing a name (issue 31).
 *
 * /attack with no target answers the sender alone with a select of the
 * targets they may attack (cmd_attack_picker). The select's custom_id is a
 * picker's (custom_id.h): the fight, any version, the attacker preset and
 * target: filled by the choice. The choice comes back as the same request
 * as "/attack attacker:<who> target:<chosen>" with req.picker set, and runs
 * through cmd_attack like the typed command; cmd_attack_target_ok() then
 * refuses a target that died, left or went out of sight meanwhile.
 */
#include "cmd_picker.h"

#include "cmd_srvcond.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "custom_id.h"
#include "sbuf.h"
#include "rs_kit.h"

_Static_assert(ENC_MAX_ATTACKS <= CMD_PICKER_MAX,
               "every saved attack fits one picker");

/* Whether the sender of run may see c (the GM sees everyone; a player
 * every combatant but the hidden ones they do not own), as autocomplete. */
static bool sender_sees(const struct cmd_run *run,
                        const struct enc_combatant *c)
{
    return run->is_gm || !c->hidden ||
           (c->owner != 0 && c->owner == run->req->user_id);
}

bool cmd_attack_target_ok(const struct cmd_run *run,
                          const struct enc_combatant *attacker,
                          const struct enc_combatant *c)
{
    return c != attacker && !(c->flags & (ENC_CF_DOWN | ENC_CF_DEAD)) &&
           sender_sees(run, c);
}

/* Into names/values after the n already there: the options of req among
 * typed (NULL-ended) that the picker carries along; the new count. */
static int carry(const struct cmd_req *req, const char *const *typed,
                 const char **names, const char **values, int n)
{
    for (size_t i = 0; typed[i] != NULL; i++) {
        const char *v = cmd_req_opt(req, typed[i]);
        if (v == NULL)
            continue;
        if (n == CUSTOM_ID_MAX_PRESETS)
            return -1;
        names[n] = typed[i];
        values[n++] = v;
    }
    return n;
}

const struct rs_area *cmd_attack_area(const struct cmd_run *run,
                                      const struct enc_combatant *attacker,
                                      const char *with, const char *options)
{
    const struct rs_area *area = run->rs->area;
    if (area == NULL)
        return NULL;
    if (options == NULL && with != NULL) {
        const struct enc_attack *w = enc_attack_find(attacker, with);
        if (w != NULL && w->options[0] != '\0')
            options = w->options;
    }
    if (options == NULL)
        return NULL;
    struct rs_token toks[RS_MAX_TOKENS];
    char buf[RS_MAX_TOKENS_TEXT * 2 + 2];
    struct enc_diag d = {0};
    int n = 0;
    /* text the tokenizer refuses is not an area attack here: the attack
     * itself then gives the reason */
    if (rs_tokens(options, buf, sizeof buf, toks, RS_MAX_TOKENS, &n, &d) !=
        ENG_OK)
        return NULL;
    bool is_area = false;
    for (int i = 0; i < n; i++) {
        if (strcmp(toks[i].key, area->more) == 0)
            return NULL;                /* its others are named already */
        for (int k = 0; area->when[k] != NULL; k++)
            is_area = is_area || strcmp(toks[i].key, area->when[k]) == 0;
    }
    return is_area ? area : NULL;
}

/* The select of attacker's saved attacks into run's reply, under id. */
static void attack_select(struct cmd_run *run,
                          const struct enc_combatant *attacker,
                          const char *id, const char *who)
{
    enum i18n_lang lang = run->req->lang;
    struct msg *m = &run->reply->msg;
    run->reply->ephemeral = true;
    msg_set_content(m, i18n_get(lang, "Which of %s's attacks?"),
                    who ? who : "the attacker");
    msg_set_select(m, id, i18n_get(lang, "Choose an attack"));
    for (int i = 0; i < attacker->nattacks && i < CMD_PICKER_MAX; i++)
        msg_select_add(m, attacker->attacks[i].name,
                       attacker->attacks[i].name);
}

void cmd_attack_picker(struct cmd_run *run,
                       const struct enc_combatant *attacker)
{
    enum i18n_lang lang = run->req->lang;
    /* what the picker carries: who attacks, and what else was typed */
    static const char *const typed[] = {"roll", "damage", "options",
                                        "with", NULL};
    const char *names[CUSTOM_ID_MAX_PRESETS] = {"attacker"};
    const char *values[CUSTOM_ID_MAX_PRESETS] = {attacker->name};
    int npresets = carry(run->req, typed, names, values, 1);
    /* Saved attacks and nothing typed: which attack first; its answer
     * (with:) comes back here for the target. One saved attack is the
     * one: no choice to make. */
    bool choose_attack = npresets == 1 && attacker->nattacks > 1;
    if (npresets == 1 && attacker->nattacks == 1) {
        names[npresets] = "with";
        values[npresets++] = attacker->attacks[0].name;
    }
    char *who = msg_escape(attacker->name);
    char id[CUSTOM_ID_MAX + 1];
    if (choose_attack) {
        if (!custom_id_make_picker(id, sizeof id, "attack", NULL,
                                   run->enc->fight_id, "with", names, values,
                                   npresets))
            cmd_fail(run, i18n_get(lang, "%s's name is too long for a picker "
                                         "(a menu's id holds %d bytes); type "
                                         "/attack attacker:<name> "
                                         "target:<name>"),
                     who ? who : "the attacker", CUSTOM_ID_MAX);
        else
            attack_select(run, attacker, id, who);
        free(who);
        return;
    }
    if (npresets < 0 ||
        !custom_id_make_picker(id, sizeof id, "attack", NULL,
                               run->enc->fight_id, "target", names, values,
                               npresets)) {
        cmd_fail(run, i18n_get(lang, "the attacker's name and the options "
                                     "given are too long for a picker (a "
                                     "menu's id holds %d bytes); give target: "
                                     "as well"),
                 CUSTOM_ID_MAX);
        free(who);
        return;
    }
    int n = 0;
    for (int i = 0; i < run->enc->ncs; i++)
        n += cmd_attack_target_ok(run, attacker, &run->enc->cs[i]);
    const char *with = NULL;
    for (int i = 0; i < npresets; i++)
        if (strcmp(names[i], "with") == 0)
            with = values[i];
    const struct rs_area *area = cmd_attack_area(
        run, attacker, with, cmd_req_opt(run->req, "options"));
    struct msg *m = &run->reply->msg;
    run->reply->ephemeral = true;
    if (n == 0) {
        cmd_fail(run, i18n_get(lang, "%s has nobody to attack"),
                 who ? who : "the attacker");
    } else if (n > CMD_PICKER_MAX) {
        msg_set_content(m, i18n_get(lang, "%s has %d possible targets, more "
                                          "than a picker holds (limit is %d); "
                                          "type the target: /attack "
                                          "target:<name>"),
                        who ? who : "the attacker", n, CMD_PICKER_MAX);
    } else {
        /* an area attack: everyone it hits in one choice, as many as the
         * system declares (a select holds CMD_PICKER_MAX) */
        int most = area == NULL ? 1 : area->max_targets;
        if (most > n)
            most = n;
        if (most > 1) {
            msg_set_content(m, i18n_get(lang,
                                        "Whom does %s's area attack hit? "
                                        "Choose up to %d; the first is the "
                                        "target"),
                            who ? who : "the attacker", most);
            msg_set_select(m, id, i18n_get(lang,
                                           "Choose the targets"));
            m->select.max_values = most;
        } else {
            msg_set_content(m, i18n_get(lang,
                                        "Whom does %s attack?"),
                            who ? who : "the attacker");
            msg_set_select(m, id, i18n_get(lang,
                                           "Choose a target"));
        }
        for (int i = 0; i < run->enc->ncs; i++) {
            const struct enc_combatant *c = &run->enc->cs[i];
            if (!cmd_attack_target_ok(run, attacker, c))
                continue;
            char label[ENC_MAX_NAME + 64];
            if (c->hidden)
                snprintf(label, sizeof label,
                         i18n_get(lang, "%s (hidden)"), c->name);
            else
                snprintf(label, sizeof label, "%s", c->name);
            msg_select_add(m, label, c->name);
        }
    }
    free(who);
}

void cmd_attack_with_picker(struct cmd_run *run,
                            const struct enc_combatant *attacker,
                            const struct enc_combatant *target)
{
    enum i18n_lang lang = run->req->lang;
    const char *names[] = {"attacker", "target"};
    const char *values[] = {attacker->name, target->name};
    char id[CUSTOM_ID_MAX + 1];
    char *who = msg_escape(attacker->name);
    if (!custom_id_make_picker(id, sizeof id, "attack", NULL,
                               run->enc->fight_id, "with", names, values, 2))
        cmd_fail(run, i18n_get(lang, "the names are too long for a picker (a "
                                     "menu's id holds %d bytes); type /attack "
                                     "target:<name> with:<attack>"),
                 CUSTOM_ID_MAX);
    else
        attack_select(run, attacker, id, who);
    free(who);
}

char *cmd_attack_area_options(struct cmd_run *run,
                              const struct enc_combatant *attacker,
                              const struct enc_combatant *target,
                              const char *with, const char *options)
{
    enum i18n_lang lang = run->req->lang;
    const struct cmd_req *req = run->req;
    const struct rs_area *area = cmd_attack_area(run, attacker, with,
                                                 options);
    if (area == NULL) {
        cmd_fail(run, i18n_get(lang, "only an area attack takes several "
                                     "targets; choose one, or give the "
                                     "attack's area in options: (see /help "
                                     "topic:%s)"),
                 run->rs->id);
        return NULL;
    }
    if (req->npicked + 1 > area->max_targets) {
        cmd_fail(run, i18n_get(lang,
                               "too many targets (limit is %d)"),
                 area->max_targets);
        return NULL;
    }
    struct sbuf b;
    sbuf_init(&b, CMD_MAX_OPT_VALUE);
    if (options != NULL)
        sbuf_addf(&b, "%s ", options);
    sbuf_addf(&b, "%s=", area->more);
    for (int i = 0; i < req->npicked; i++) {
        const struct enc_combatant *c = enc_by_name(run->enc,
                                                    req->picked[i]);
        bool twice = c == target;
        for (int k = 0; k < i && !twice; k++)
            twice = enc_by_name(run->enc, req->picked[k]) == c;
        if (c == NULL || twice || !cmd_attack_target_ok(run, attacker, c)) {
            /* chosen from the picker, but the fight has moved on since;
             * the name is the chooser's own */
            char *t = msg_escape(req->picked[i]);
            cmd_fail(run, i18n_get(lang,
                                   "%s can no longer be attacked (gone, down, "
                                   "out of sight or chosen twice); nothing "
                                   "happened: try /attack again"),
                     t ? t : "a target");
            free(t);
            sbuf_cleanup(&b);
            return NULL;
        }
        sbuf_addf(&b, "%s%s", i ? "," : "", c->name);
    }
    if (sbuf_error(&b) != SBUF_OK) {
        cmd_fail(run, sbuf_error(&b) == SBUF_NOMEM
                          ? i18n_get(lang, "out of memory")
                          : i18n_get(lang,
                                     "the targets' names are too long for one "
                                     "attack (limit is %d bytes)"),
                 CMD_MAX_OPT_VALUE);
        sbuf_cleanup(&b);
        return NULL;
    }
    return sbuf_take(&b);
}

/* The server's conditions offered with the system's: names copied here,
 * since the store's rows last only for the listing. */
struct srv_names {
    char name[CMD_PICKER_MAX][SRVCOND_NAME_MAX + 1];
    const char **list;
    int *n, *total;
    int k;
};

static void keep_srv(void *ctx, const char *name)
{
    struct srv_names *s = ctx;
    (*s->total)++;
    if (*s->n >= CMD_PICKER_MAX || s->k >= CMD_PICKER_MAX)
        return;
    enc_copy(s->name[s->k], sizeof s->name[0], name);
    s->list[(*s->n)++] = s->name[s->k++];
}

/* The id of a /combat <sub> picker for who, whose choice fills option
 * sub (condition, resource), carrying the typed options given into id
 * (CUSTOM_ID_MAX + 1 bytes); false, refused, when they do not fit. */
static bool combat_picker_id(struct cmd_run *run,
                             const struct enc_combatant *who,
                             const char *sub, const char *const *typed,
                             char *id)
{
    enum i18n_lang lang = run->req->lang;
    const char *names[CUSTOM_ID_MAX_PRESETS] = {"name"};
    const char *values[CUSTOM_ID_MAX_PRESETS] = {who->name};
    int npresets = carry(run->req, typed, names, values, 1);
    if (npresets >= 0 &&
        custom_id_make_picker(id, CUSTOM_ID_MAX + 1, "combat", sub,
                              run->enc->fight_id, sub, names, values,
                              npresets))
        return true;
    cmd_fail(run, i18n_get(lang, "the name and the options given are too many "
                                 "or too long for a picker (a menu's id holds "
                                 "%d bytes); give %s: as well"),
             CUSTOM_ID_MAX, sub);
    return false;
}

void cmd_condition_picker(struct cmd_run *run,
                          const struct enc_combatant *who, bool remove)
{
    enum i18n_lang lang = run->req->lang;
    static const char *const typed[] = {"value", "rounds", "remove",
                                        "until", "ends", "cap", "custom",
                                        NULL};
    char id[CUSTOM_ID_MAX + 1];
    if (!combat_picker_id(run, who, "condition", typed, id))
        return;
    /* removing: what who has; giving: what the system declares that a
     * hand may give (a rule's own conditions are the rules') */
    const char *list[CMD_PICKER_MAX];
    int n = 0, total = 0;
    struct srv_names srv = {.k = 0};
    if (remove) {
        for (int k = 0; k < who->nconds; k++, total++)
            if (n < CMD_PICKER_MAX)
                list[n++] = who->conds[k].name;
    } else {
        int ns = 0;
        struct rs_opt opts[CMD_MAX_OPTS];
        struct rs_call c;
        cmd_rs_call(run, &c, opts);
        const struct rs_cond_spec *specs = rs_cond_specs(run->rs, c.data,
                                                         &ns);
        for (int k = 0; k < ns; k++) {
            if (specs[k].flags & RS_COND_SYSTEM)
                continue;
            total++;
            if (n < CMD_PICKER_MAX)
                list[n++] = specs[k].name;
        }
        /* then the server's own (cmd_srvcond.h), after the system's */
        srv.list = list;
        srv.n = &n;
        srv.total = &total;
        cmd_srvcond_each(run->ctx->store, run->req->guild_id, "",
                         CMD_PICKER_MAX, keep_srv, &srv);
    }
    char *name = msg_escape(who->name);
    struct msg *m = &run->reply->msg;
    run->reply->ephemeral = true;
    if (total == 0) {
        if (remove)
            cmd_fail(run, i18n_get(lang,
                                   "%s has no condition to remove"),
                     name ? name : "that one");
        else
            cmd_fail(run, i18n_get(lang,
                                   "the %s system declares no condition to "
                                   "give; name one with condition: and "
                                   "custom:true"),
                     run->rs->id);
    } else if (total > CMD_PICKER_MAX) {
        msg_set_content(m, i18n_get(lang,
                                    "There are %d conditions, more than a "
                                    "picker holds (limit is %d); type the "
                                    "condition: /combat condition name:<who> "
                                    "condition:<name>"),
                        total, CMD_PICKER_MAX);
    } else {
        msg_set_content(m, remove ? i18n_get(lang,
                                             "Which condition does %s lose?")
                                  : i18n_get(lang,
                                             "Which condition does %s get?"),
                        name ? name : "that one");
        msg_set_select(m, id, i18n_get(lang,
                                       "Choose a condition"));
        for (int k = 0; k < n; k++)
            msg_select_add(m, list[k], list[k]);
    }
    free(name);
}

void cmd_resource_picker(struct cmd_run *run,
                         const struct enc_combatant *who)
{
    enum i18n_lang lang = run->req->lang;
    static const char *const typed[] = {"action", "amount", NULL};
    char id[CUSTOM_ID_MAX + 1];
    if (!combat_picker_id(run, who, "resource", typed, id))
        return;
    char *name = msg_escape(who->name);
    if (who->nres == 0) {
        cmd_fail(run, i18n_get(lang,
                               "%s has no resources\nTry: `/combat resource "
                               "name:<who> resource:<name> action:add "
                               "max:<n>`"),
                 name ? name : "that one");
        free(name);
        return;
    }
    struct msg *m = &run->reply->msg;
    run->reply->ephemeral = true;
    msg_set_content(m, i18n_get(lang, "Which of %s's resources?"),
                    name ? name : "them");
    msg_set_select(m, id, i18n_get(lang, "Choose a resource"));
    /* ENC_MAX_RES is far below a select's CMD_PICKER_MAX options */
    for (int k = 0; k < who->nres; k++) {
        char label[ENC_MAX_RES_NAME + 64];
        snprintf(label, sizeof label, i18n_get(lang,
                                               "%s (%d of %d left)"),
                 who->res[k].name, (int)who->res[k].cur,
                 (int)who->res[k].max);
        msg_select_add(m, label, who->res[k].name);
    }
    free(name);
}
