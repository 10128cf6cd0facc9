/*
 * cmd_roll.c - /roll: dice outside (or inside) a fight.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_config.h"
#include "cmd_macro.h"
#include "cmd_roll.h"
#include "cmd_rollrec.h"
#include "cmd_run.h"
#include "dice.h"
#include "render_dice.h"
#include "sbuf.h"

/* Room for the rendered results of one /roll (Discord caps it at 2000
 * characters; the text renderer may use more for long pools). */
#define CMD_ROLL_TEXT CMD_ROLLREC_TEXT_MAX

/* The roll's embed in lang: who rolls, for what, and the dice (after
 * which saved roll, when one was used). */
static void roll_embed(struct msg *m, enum i18n_lang lang,
                       const struct cmd_req *req, const char *label,
                       bool secret, const char *text,
                       const struct cmd_macro_use *used,
                       const struct cmd_roll_how *how)
{
    bool re = how != NULL && how->reroll_of != NULL;
    char *who = msg_escape(req->user_name ? req->user_name : "someone");
    char *what = label != NULL ? msg_escape(label) : NULL;
    struct msg_embed *em = msg_add_embed(m, secret ? MSG_STYLE_SECRET
                                                   : MSG_STYLE_INFO,
                                         NULL);
    if (em != NULL) {
        struct sbuf title;
        sbuf_init(&title, SIZE_MAX / 2);
        /* literal formats, so gcc checks each against its arguments */
        if (what != NULL)
            sbuf_addf(&title,
                      secret ? (re ? i18n_get(lang, "%1$s rerolls in secret: "
                                              "%2$s")
                                   : i18n_get(lang, "%1$s rolls in secret: "
                                              "%2$s"))
                             : (re ? i18n_get(lang, "%1$s rerolls: %2$s")
                                   : i18n_get(lang, "%1$s rolls: %2$s")),
                      who ? who : "", what);
        else
            sbuf_addf(&title,
                      secret ? (re ? i18n_get(lang, "%s rerolls in secret")
                                   : i18n_get(lang, "%s rolls in secret"))
                             : (re ? i18n_get(lang, "%s rerolls")
                                   : i18n_get(lang, "%s rolls")),
                      who ? who : "");
        free(em->title);
        em->title = sbuf_error(&title) == SBUF_NOMEM
                        ? NULL : strdup(sbuf_str(&title));
        sbuf_cleanup(&title);
        if (used != NULL || re) {
            struct sbuf d;
            sbuf_init(&d, MSG_MAX_TEXT);
            if (used != NULL)
                sbuf_addf(&d, used->server
                                  ? i18n_get(lang, "`@%s` (the server's "
                                             "saved roll)")
                                  : i18n_get(lang, "`@%s` (your own saved "
                                             "roll)"),
                          used->m.name);
            if (used != NULL)
                sbuf_add(&d, "\n");
            if (re && how->link != NULL)
                sbuf_addf(&d, i18n_get(lang, "Reroll of [the roll](%s)"),
                          how->link);
            else if (re)
                sbuf_addf(&d, i18n_get(lang, "Reroll of roll #%s"),
                          how->reroll_of);
            if (re)
                sbuf_add(&d, "\n");
            sbuf_addf(&d, "%s", text);
            msg_embed_set_description(em, sbuf_error(&d) == SBUF_NOMEM
                                              ? text : sbuf_str(&d));
            sbuf_cleanup(&d);
        } else {
            msg_embed_set_description(em, text);
        }
    }
    free(who);
    free(what);
}

void cmd_roll(struct cmd_run *run)
{
    const struct cmd_req *req = run->req;
    const char *src = cmd_req_opt(req, "dice");
    const char *label = cmd_req_opt(req, "label");
    bool secret = false;
    if (!cmd_opt_bool(run, "secret", false, &secret))
        return;
    struct cmd_macro_use *used = malloc(sizeof *used);
    if (used == NULL) {
        cmd_fail(run, i18n_get(req->lang, "the bot ran out of memory"));
        return;
    }
    switch (cmd_macro_expand(run, src, label != NULL, used)) {
    case CMD_MACRO_NONE:
        free(used);
        used = NULL;
        break;
    case CMD_MACRO_USED:
        src = used->dice;
        break;
    case CMD_MACRO_REFUSED:
        free(used);
        return;
    }
    cmd_roll_dice(run, src, label, secret, used, NULL);
    free(used);
}

/* Remember the roll just shown (cmd_rollrec.h), under the interaction
 * that asked for it, so its message's menus find it. A roll that cannot
 * be remembered is still shown: its menus then say it is not known. */
static void remember(struct cmd_run *run, const char *src, size_t len,
                     const char *label, bool secret,
                     enum dice_dialect dialect, const struct dice_result *res,
                     unsigned n, const char *text,
                     const struct cmd_roll_how *how)
{
    const struct cmd_req *req = run->req;
    /* on the stack: a heap block of kilobytes per roll slowed the
     * allocator for the next message's small blocks (cmd_rollrec_encode) */
    struct cmd_rollrec rec = {0}, *r = &rec;
    if (run->ctx->store == NULL || len >= sizeof r->expr)
        return;
    if (req->interaction_id != NULL && cmd_rollrec_id_ok(req->interaction_id))
        snprintf(r->id, sizeof r->id, "%s", req->interaction_id);
    r->guild = req->guild_id;
    r->channel = req->channel_id;
    r->user = req->user_id;
    snprintf(r->user_name, sizeof r->user_name, "%s",
             req->user_name ? req->user_name : "someone");
    r->at_ms = req->now_ms;
    memcpy(r->expr, src, len);
    r->dialect = dialect;
    snprintf(r->label, sizeof r->label, "%s", label ? label : "");
    r->secret = secret;
    r->rolls = n;
    r->total = res[0].total;
    snprintf(r->text, sizeof r->text, "%s", text);
    if (how != NULL && how->reroll_of != NULL)
        snprintf(r->reroll_of, sizeof r->reroll_of, "%s", how->reroll_of);
    if (run->ctx->rollrec_later) {      /* the front end writes it */
        struct cmd_rollrec_row row;
        if (cmd_rollrec_row_of(r, &row)) {
            free(run->reply->rollrec.json);
            run->reply->rollrec = row;
            return;
        }
    }
    (void)cmd_rollrec_put(run->ctx->store, r);
}

void cmd_roll_dice(struct cmd_run *run, const char *src, const char *label,
                   bool secret, const struct cmd_macro_use *used,
                   const struct cmd_roll_how *how)
{
    const struct cmd_req *req = run->req;
    /* The reply is markdown wherever it goes: the console shows it as
     * text (render_text.h), with the same marks as Discord and `fray
     * roll`. Errors keep their plain layout in the console (the caret
     * lines are not a code block there). */
    bool discord = req->source == CMD_SRC_DISCORD;
    enum render_dice_style style = discord ? RENDER_DICE_DISCORD
                                           : RENDER_DICE_TEXT;
    enum render_dice_style shown = discord ? RENDER_DICE_DISCORD
                                           : RENDER_DICE_MARKDOWN;
    size_t len = strlen(src);
    size_t dice_len, label_at;
    enum dice_dialect dialect = how != NULL
                                    ? how->dialect
                                    : cmd_config_roll_dialect(run);
    if (dice_split_label_as(src, len, dialect, &dice_len, &label_at)) {
        /* "2d6+3 fire": the words name the roll, as label: would. */
        if (label != NULL) {
            cmd_fail(run, i18n_get(req->lang, "`%s` after the dice is a "
                                   "label, and label: gives another; give "
                                   "one of them"),
                     src + label_at);
            return;
        }
        if (strlen(src + label_at) > DICE_MAX_LABEL) {
            cmd_fail(run, i18n_nget(req->lang,
                                    "the words after the dice are a label, "
                                    "at most %d byte",
                                    "the words after the dice are a label, "
                                    "at most %d bytes",
                                    DICE_MAX_LABEL),
                     DICE_MAX_LABEL);
            return;
        }
        label = src + label_at;
        len = dice_len;
    }
    /* a dice error is the roller's (only the translator is set: zeroing
     * the message's bytes would cost every roll) */
    struct dice_diag diag;
    diag.tr = i18n_tr;
    diag.tr_ctx = &req->lang;
    struct dice_expr *expr = NULL;
    /* The text and a single roll's result live on the stack: as 4 and 10
     * KiB allocations they cost more than the roll (each sent the
     * allocator to tidy its small free blocks first). */
    char text[CMD_ROLL_TEXT];
    struct dice_result one;
    if (dice_parse_as(src, len, dialect, &expr, &diag) != ENG_OK) {
        render_dice_error(text, CMD_ROLL_TEXT, style, req->lang, src, len,
                          &diag);
        cmd_fail(run, "%s", text);
        return;
    }
    unsigned n = dice_expr_repeat(expr);
    struct dice_result *res = n == 1 ? &one : malloc(n * sizeof *res);
    if (res == NULL) {
        dice_expr_free(expr);
        cmd_fail(run, i18n_get(req->lang, "the bot ran out of memory"));
        return;
    }
    for (unsigned i = 0; i < n; i++) {
        if (dice_roll(expr, run->ctx->rng, &res[i], &diag) != ENG_OK) {
            render_dice_error(text, CMD_ROLL_TEXT, style, req->lang, src, len,
                              &diag);
            cmd_fail(run, "%s", text);
            goto out;
        }
    }
    /* a secret roll is the roller's; its GM copy, as a roll for all, the
     * table's (one read of the server's setting, only when shown); the
     * dice's notes speak the roll's own reader (the copy shows them so) */
    bool gm_copy = secret && req->source == CMD_SRC_DISCORD;
    enum i18n_lang table = !secret || gm_copy ? cmd_public_lang(run)
                                              : req->lang;
    render_dice(text, CMD_ROLL_TEXT, shown, secret ? req->lang : table, src,
                len, res, n);
    roll_embed(&run->reply->msg, secret ? req->lang : table, req, label,
               secret, text, used, how);
    remember(run, src, len, label, secret, dialect, res, n, text, how);
    run->reply->ephemeral = secret;
    /* In Discord a secret roll is private to the roller, and the GM
     * channel, if the server has one, gets a copy. */
    if (gm_copy) {
        struct msg *copy = malloc(sizeof *copy);
        if (copy != NULL) {
            msg_init(copy);
            roll_embed(copy, table, req, label, secret, text, used, how);
            run->reply->gm_copy = copy;
        }
    }
out:
    if (res != &one)
        free(res);
    dice_expr_free(expr);
}
