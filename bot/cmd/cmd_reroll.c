/*
 * cmd_reroll.c - what can be done with a roll fray posted (issue 31 part
 * 4): Discord's message menus Reroll, Explain and Apply damage, and the
 * console's /reroll, /explain and /apply.
 *
 * Each finds the roll's record (cmd_rollrec.h): the one the menu's message
 * names (option roll:, which Discord's decoder fills from the message's
 * interaction_metadata), a console number, or the channel's last roll.
 * Reroll rolls the same dice again, in the original's dialect, publicly
 * with a link to the original (a secret roll again in secret, and only
 * by who rolled it), and remembers the new roll too. Explain shows the
 * sender alone what the roll was: the dice as written, every die and
 * modifier, the total. Apply damage (the fight's GM) asks for targets
 * with a picker and takes the roll's total off each the way the fight's
 * system takes damage: its own /damage when it declares one (endurance
 * before health, Resolve before Wounded), else its harm track filling up
 * (the first of rs_system.harm, when damage raises it), else hp going down through what soaks it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_picker.h"
#include "cmd_roll.h"
#include "cmd_rollq.h"
#include "cmd_rollrec.h"
#include "cmd_run.h"
#include "custom_id.h"
#include "dur.h"
#include "rs_kit.h"
#include "sbuf.h"

/* https://discord.com/channels/<guild or @me>/<channel>/<message> */
#define REROLL_LINK_MAX 96
/* Digits of a record id that is a channel's roll number (the console's),
 * not an interaction's snowflake. */
#define REROLL_NUMBER_MAX 12

/* The record the request names, or NULL with the run failed saying why. */
static struct cmd_rollrec *find_roll(struct cmd_run *run)
{
    const struct cmd_req *req = run->req;
    enum i18n_lang lang = req->lang;
    const char *id = cmd_req_opt(req, "roll");
    if (id == NULL && req->target_message != 0) {
        cmd_fail(run, i18n_get(lang, "that message is not a roll fray "
                               "posted: Reroll, Explain and Apply damage "
                               "work on the answers of /roll"));
        return NULL;
    }
    if (id != NULL && !cmd_rollrec_id_ok(id)) {
        cmd_fail(run, i18n_nget(lang, "roll: is a roll's number (up to %d "
                                "digit)", "roll: is a roll's number (up to "
                                "%d digits)", CMD_ROLLREC_ID_MAX),
                 CMD_ROLLREC_ID_MAX);
        return NULL;
    }
    struct cmd_rollrec *r = malloc(sizeof *r);
    if (r == NULL) {
        cmd_fail(run, i18n_get(lang, "the bot ran out of memory"));
        return NULL;
    }
    /* answered but not written yet, else the store's */
    enum bot_err e = cmd_rollq_find(run->ctx->rollq, req->channel_id, id, r);
    if (e == BOT_NOTFOUND && run->ctx->store != NULL)
        e = cmd_rollrec_get(run->ctx->store, req->channel_id, id, r);
    if (e == BOT_OK && req->now_ms - r->at_ms > CMD_ROLLREC_KEEP_MS)
        e = BOT_LIMIT;
    if (e == BOT_OK && r->secret && r->user != req->user_id) {
        cmd_fail(run, i18n_get(lang, "that roll was secret: only who rolled "
                               "it may reroll or explain it"));
    } else if (e == BOT_LIMIT) {
        int days = (int)(CMD_ROLLREC_KEEP_MS / DUR_MS_DAY);
        cmd_fail(run, i18n_nget(lang, "that roll is too old: fray keeps "
                                "rolls for %d day", "that roll is too old: "
                                "fray keeps rolls for %d days",
                                (unsigned long)days),
                 days);
    } else if (e == BOT_NOTFOUND && id == NULL) {
        cmd_fail(run, i18n_get(lang, "there is no roll in this channel "
                               "yet"));
    } else if (e == BOT_NOTFOUND) {
        int days = (int)(CMD_ROLLREC_KEEP_MS / DUR_MS_DAY);
        cmd_fail(run, i18n_nget(lang, "fray does not remember that roll: it "
                                "keeps rolls for %1$d day (the console: a "
                                "channel's last %2$d)", "fray does not "
                                "remember that roll: it keeps rolls for %1$d "
                                "days (the console: a channel's last %2$d)",
                                (unsigned long)days),
                 days, CMD_ROLLREC_PER_CHANNEL);
    } else if (e != BOT_OK) {
        cmd_fail(run, i18n_get(lang, "the store could not read the roll "
                               "(%s)"),
                 bot_errname(e));
    } else {
        return r;
    }
    free(r);
    return NULL;
}

void cmd_reroll(struct cmd_run *run)
{
    const struct cmd_req *req = run->req;
    struct cmd_rollrec *r = find_roll(run);
    if (r == NULL)
        return;
    char link[REROLL_LINK_MAX];
    struct cmd_roll_how how = {.dialect = r->dialect, .reroll_of = r->id};
    if (req->target_message != 0) {
        char guild[24] = "@me";
        if (req->guild_id != 0)
            snprintf(guild, sizeof guild, "%" PRIu64, req->guild_id);
        snprintf(link, sizeof link,
                 "https://discord.com/channels/%s/%" PRIu64 "/%" PRIu64,
                 guild, req->thread_id ? req->thread_id : req->channel_id,
                 req->target_message);
        how.link = link;
    }
    cmd_roll_dice(run, r->expr, r->label[0] ? r->label : NULL, r->secret,
                  NULL, &how);
    free(r);
}

void cmd_explain(struct cmd_run *run)
{
    struct cmd_rollrec *r = find_roll(run);
    if (r == NULL)
        return;
    char *who = msg_escape(r->user_name);
    char *expr = msg_escape(r->expr);
    char *label = r->label[0] ? msg_escape(r->label) : NULL;
    enum i18n_lang lang = run->req->lang;
    struct msg *m = &run->reply->msg;
    run->reply->ephemeral = true;
    /* room for a name escaped and the words around it in any language;
     * a console roll has its number in the channel, a Discord one is
     * named by its message */
    char title[CMD_ROLLREC_NAME_MAX * 2 + 128];
    if (r->seq > 0)
        snprintf(title, sizeof title,
                 r->secret ? i18n_get(lang, "Roll #%1$lld by %2$s (secret)")
                           : i18n_get(lang, "Roll #%1$lld by %2$s"),
                 (long long)r->seq, who ? who : "someone");
    else
        snprintf(title, sizeof title,
                 r->secret ? i18n_get(lang, "Roll by %s (secret)")
                           : i18n_get(lang, "Roll by %s"),
                 who ? who : "someone");
    struct msg_embed *em = msg_add_embed(m, r->secret ? MSG_STYLE_SECRET
                                                      : MSG_STYLE_INFO,
                                         title);
    struct sbuf d;
    sbuf_init(&d, MSG_MAX_TEXT);
    if (em == NULL || who == NULL || expr == NULL) {
        cmd_fail(run, i18n_get(lang, "the bot ran out of memory"));
    } else {
        /* In a code span only a backtick is markup: the dice stand as
         * typed there, and escaped only when they hold one. */
        if (strchr(r->expr, '`') == NULL)
            sbuf_addf(&d, i18n_get(lang, "Dice: `%1$s`, read as %2$s "
                                   "dice"),
                      r->expr, dice_dialect_title(r->dialect));
        else
            sbuf_addf(&d, i18n_get(lang, "Dice: %1$s, read as %2$s dice"),
                      expr, dice_dialect_title(r->dialect));
        sbuf_add(&d, "\n");
        if (label != NULL) {
            sbuf_addf(&d, i18n_get(lang, "For: %s"), label);
            sbuf_add(&d, "\n");
        }
        /* a console roll's number says which; a snowflake says nothing */
        if (r->reroll_of[0] && strlen(r->reroll_of) <= REROLL_NUMBER_MAX)
            sbuf_addf(&d, i18n_get(lang, "A reroll of roll #%s"),
                      r->reroll_of);
        else if (r->reroll_of[0])
            sbuf_add(&d, i18n_get(lang, "A reroll of an earlier roll"));
        if (r->reroll_of[0])
            sbuf_add(&d, "\n");
        sbuf_addf(&d, "%s\n", r->text);
        if (r->rolls == 1) {
            sbuf_addf(&d, i18n_get(lang, "Total: **%lld**"),
                      (long long)r->total);
            sbuf_add(&d, "\n");
        }
        sbuf_add(&d, i18n_get(lang, "Marks: (3) a die that does not count, "
                              "8* a success, 1x a failure, 6! an "
                              "explosion"));
        if (sbuf_error(&d) == SBUF_NOMEM)
            cmd_fail(run, i18n_get(lang, "the bot ran out of memory"));
        else
            msg_embed_set_description(em, sbuf_str(&d));
    }
    sbuf_cleanup(&d);
    free(who);
    free(expr);
    free(label);
    free(r);
}

/* The choices of the Apply damage picker: everyone not dead (the GM
 * sees everyone). */
static bool may_take(const struct enc_combatant *c)
{
    return !(c->flags & ENC_CF_DEAD);
}

static void apply_picker(struct cmd_run *run, const struct cmd_rollrec *r)
{
    const char *names[] = {"roll"};
    const char *values[] = {r->id};
    char id[CUSTOM_ID_MAX + 1];
    if (!custom_id_make_picker(id, sizeof id, "apply", NULL,
                               run->enc->fight_id, "target", names, values,
                               1)) {
        cmd_fail(run, i18n_get(run->req->lang, "that roll's id is too long "
                               "for a picker; type /apply roll:%s "
                               "target:<name>"),
                 r->id);
        return;
    }
    int n = 0;
    for (int i = 0; i < run->enc->ncs; i++)
        n += may_take(&run->enc->cs[i]);
    enum i18n_lang lang = run->req->lang;
    struct msg *m = &run->reply->msg;
    run->reply->ephemeral = true;
    if (n == 0) {
        cmd_fail(run, i18n_get(lang, "nobody in this fight can take "
                               "damage"));
    } else if (n > CMD_PICKER_MAX) {
        msg_set_content(m, i18n_nget(lang, "%1$d combatant could take it, "
                                     "more than a picker holds (limit is "
                                     "%2$d); type the target: /apply "
                                     "roll:%3$s target:<name>",
                                     "%1$d combatants could take it, more "
                                     "than a picker holds (limit is %2$d); "
                                     "type the target: /apply roll:%3$s "
                                     "target:<name>", (unsigned long)n),
                        n, CMD_PICKER_MAX, r->id);
    } else {
        msg_set_content(m, i18n_get(lang, "Who takes the %lld damage? Choose "
                                    "one or more; each takes all of it"),
                        (long long)r->total);
        msg_set_select(m, id, i18n_get(lang, "Choose the targets"));
        m->select.max_values = n;
        for (int i = 0; i < run->enc->ncs; i++) {
            const struct enc_combatant *c = &run->enc->cs[i];
            if (!may_take(c))
                continue;
            /* a name and the words of any language around it */
            char label[ENC_MAX_NAME + 64];
            if (c->hidden)
                snprintf(label, sizeof label, i18n_get(lang, "%s (hidden)"),
                         c->name);
            else
                snprintf(label, sizeof label, "%s", c->name);
            msg_select_add(m, label, c->name);
        }
    }
}

/* Damage n to who the way the fight's system takes it (above). */
static bool apply_damage(struct cmd_run *run, struct enc_combatant *who,
                         int64_t n)
{
    const struct rs_cmd *own = rs_cmd_find(run->rs, "damage", NULL);
    const struct rs_harm_spec *harm = run->rs->harm;  /* first it reaches */
    if (own == NULL)
        return harm != NULL && harm->track != NULL && harm->up
                   ? cmd_track_change(run, who, harm->track, '+', n)
                   : cmd_track_change(run, who, "hp", '-', n);
    char amount[24];
    snprintf(amount, sizeof amount, "%" PRId64, n);
    struct rs_opt opts[] = {{"name", who->name}, {"amount", amount}};
    struct rs_opt unused[CMD_MAX_OPTS];
    struct rs_call c;
    cmd_rs_call(run, &c, unused);
    c.opts = opts;
    c.nopts = 2;
    c.args = NULL;
    c.nargs = 0;
    if (rs_cmd_run(&c, run->rs, own) != ENG_OK) {
        cmd_fail_diag(run, &run->diag);
        return false;
    }
    return true;
}

/* The damage n to target: and to each further choice of the picker
 * (req.picked), in the order chosen, all or nothing: a target that is
 * gone, dead or chosen twice fails the run, and nothing is saved. */
static bool apply_all(struct cmd_run *run, int64_t n)
{
    const struct cmd_req *req = run->req;
    struct enc_combatant *who[CMD_MAX_PICKED + 1];
    int nwho = 0;
    if ((who[nwho++] = cmd_combatant(run, "target")) == NULL)
        return false;
    for (int i = 0; i < req->npicked; i++)
        who[nwho++] = enc_by_name(run->enc, req->picked[i]);
    for (int i = 0; i < nwho; i++) {
        bool twice = false;
        for (int k = 0; k < i && !twice; k++)
            twice = who[k] == who[i];
        if (who[i] != NULL && !twice && !(who[i]->flags & ENC_CF_DEAD))
            continue;
        /* chosen from the list, but the fight moved on since; the name
         * is the chooser's own */
        char *name = msg_escape(i == 0 ? who[0]->name : req->picked[i - 1]);
        enum i18n_lang lang = req->lang;
        cmd_fail(run, who[i] == NULL
                          ? i18n_get(lang, "%s is no longer in the fight: "
                                     "no damage was applied")
                      : twice ? i18n_get(lang, "%s is chosen twice: no "
                                         "damage was applied")
                              : i18n_get(lang, "%s is dead: no damage was "
                                         "applied"),
                 name ? name : "that one");
        free(name);
        return false;
    }
    for (int i = 0; i < nwho; i++)
        if (!apply_damage(run, who[i], n))
            return false;
    return true;
}

void cmd_apply(struct cmd_run *run)
{
    struct cmd_rollrec *r = find_roll(run);
    if (r == NULL)
        return;
    if (r->rolls != 1) {
        cmd_fail(run, i18n_nget(run->req->lang, "that roll has %u total; "
                                "damage is one number", "that roll has %u "
                                "totals; damage is one number", r->rolls),
                 r->rolls);
    } else if (r->total < 0 || r->total > ENC_MAX_VALUE) {
        cmd_fail(run, i18n_get(run->req->lang, "that roll's total is not an "
                               "amount of damage (0 to %d)"),
                 ENC_MAX_VALUE);
    } else if (cmd_req_opt(run->req, "target") == NULL) {
        apply_picker(run, r);
    } else if (apply_all(run, r->total)) {
        cmd_finish(run, NULL, false);
    }
    free(r);
}
