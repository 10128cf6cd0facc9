/*
 * cmd_share.c - /combat share and the page's view of a fight
 * (cmd_share.h).
 */
#include "cmd_share.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_config.h"
#include "cmd_run.h"
#include "enc_json.h"
#include "store.h"

#define KEY_MAX (sizeof CMD_SHARED_KV_PREFIX + RANDTOK_LEN + 24)

/* A row's value: "<a> <fight_id>", a being a channel or a token; a
 * token's row may end with " <language>" (i18n_code(): the table's when
 * the link was made; none is English, as rows made before it). */
static bool parse_row(const char *v, char *a, size_t acap, uint64_t *fight,
                      enum i18n_lang *lang)
{
    const char *sp = strchr(v, ' ');
    char *end;
    if (sp == NULL || (size_t)(sp - v) >= acap || sp == v)
        return false;
    memcpy(a, v, (size_t)(sp - v));
    a[sp - v] = '\0';
    *fight = strtoull(sp + 1, &end, 10);
    if (end == sp + 1)
        return false;
    *lang = I18N_EN;
    if (*end == ' ' && i18n_from_code(end + 1, lang))
        return true;
    return *end == '\0';
}

static enum bot_err token_row(struct store *s, const char *token,
                              uint64_t *channel, uint64_t *fight,
                              enum i18n_lang *lang)
{
    char key[KEY_MAX], ch[24], *val = NULL, *end;
    if (!randtok_valid(token))
        return BOT_NOTFOUND;
    snprintf(key, sizeof key, CMD_SHARE_KV_PREFIX "%s", token);
    enum bot_err err = store_kv_get(s, key, &val);
    if (err != BOT_OK)
        return err;
    bool ok = parse_row(val, ch, sizeof ch, fight, lang);
    free(val);
    if (!ok)
        return BOT_NOTFOUND;
    *channel = strtoull(ch, &end, 10);
    return *end == '\0' && *channel != 0 ? BOT_OK : BOT_NOTFOUND;
}

enum bot_err cmd_share_channel(struct store *s, const char *token,
                               uint64_t *channel)
{
    uint64_t fight;
    enum i18n_lang lang;
    return token_row(s, token, channel, &fight, &lang);
}

struct changes {
    struct cmd_share_view *v;
    bool nomem;
};

static enum bot_err take_change(void *ctx, const struct store_change_rec *c)
{
    struct changes *k = ctx;
    if (k->v->nchanges == CMD_SHARE_CHANGES)
        return BOT_OK;
    char *t = cmd_change_text(c, false, k->v->lang, &k->nomem);
    if (t != NULL)
        k->v->change[k->v->nchanges++] = t;
    return BOT_OK;
}

enum bot_err cmd_share_view_load(struct store *s, const char *token,
                                 struct cmd_share_view *v)
{
    uint64_t fight;
    char *doc = NULL, why[128];
    int64_t version;

    memset(v, 0, sizeof *v);
    enum bot_err err = token_row(s, token, &v->channel, &fight, &v->lang);
    if (err == BOT_OK)
        err = store_enc_load(s, v->channel, &doc, &version);
    if (err == BOT_OK) {
        err = enc_json_load(doc, &v->enc, why, sizeof why);
        free(doc);
    }
    if (err == BOT_OK &&
        (v->enc->fight_id != fight || v->enc->status == ENC_ST_ENDED))
        err = BOT_NOTFOUND;
    if (err == BOT_OK) {
        struct changes k = {.v = v};
        err = store_change_list(s, v->channel, 0, true, CMD_SHARE_CHANGES,
                                NULL, take_change, &k);
        if (err == BOT_OK && k.nomem)
            err = BOT_NOMEM;
    }
    if (err != BOT_OK)
        cmd_share_view_cleanup(v);
    return err;
}

void cmd_share_view_cleanup(struct cmd_share_view *v)
{
    if (v == NULL)
        return;
    enc_free(v->enc);
    for (int i = 0; i < v->nchanges; i++)
        free(v->change[i]);
    memset(v, 0, sizeof *v);
}

/* The channel's link row: its token and fight, BOT_NOTFOUND without. */
static enum bot_err channel_row(struct store *s, uint64_t channel,
                                char *token, uint64_t *fight)
{
    char key[KEY_MAX], *val = NULL;
    snprintf(key, sizeof key, CMD_SHARED_KV_PREFIX "%" PRIu64, channel);
    enum bot_err err = store_kv_get(s, key, &val);
    if (err != BOT_OK)
        return err;
    enum i18n_lang lang;
    bool ok = parse_row(val, token, RANDTOK_LEN + 1, fight, &lang);
    free(val);
    return ok && randtok_valid(token) ? BOT_OK : BOT_NOTFOUND;
}

enum bot_err cmd_share_forget(struct store *s, uint64_t channel)
{
    char key[KEY_MAX], token[RANDTOK_LEN + 1];
    uint64_t fight;
    enum bot_err err = channel_row(s, channel, token, &fight);
    if (err == BOT_NOTFOUND)
        return BOT_OK;
    if (err == BOT_OK) {
        snprintf(key, sizeof key, CMD_SHARE_KV_PREFIX "%s", token);
        err = store_kv_delete(s, key);
    }
    if (err == BOT_OK) {
        snprintf(key, sizeof key, CMD_SHARED_KV_PREFIX "%" PRIu64, channel);
        err = store_kv_delete(s, key);
    }
    return err;
}

/* A new link for channel's fight, its page in lang (the table's): both
 * rows. */
static enum bot_err share_new(struct store *s, uint64_t channel,
                              uint64_t fight, enum i18n_lang lang,
                              char *token)
{
    char key[KEY_MAX], val[KEY_MAX];
    if (!randtok_new(token, RANDTOK_LEN + 1))
        return BOT_IO;
    snprintf(key, sizeof key, CMD_SHARE_KV_PREFIX "%s", token);
    snprintf(val, sizeof val, "%" PRIu64 " %" PRIu64 "%s%s", channel, fight,
             lang != I18N_EN ? " " : "", lang != I18N_EN ? i18n_code(lang)
                                                         : "");
    enum bot_err err = store_kv_set(s, key, val);
    if (err == BOT_OK) {
        snprintf(key, sizeof key, CMD_SHARED_KV_PREFIX "%" PRIu64, channel);
        snprintf(val, sizeof val, "%s %" PRIu64, token, fight);
        err = store_kv_set(s, key, val);
    }
    return err;
}

void cmd_combat_share(struct cmd_run *run)
{
    struct store *s = run->ctx->store;
    uint64_t channel = run->req->channel_id, fight = 0;
    char token[RANDTOK_LEN + 1];
    bool revoke = false;
    const char *base = run->ctx->web_url;

    if (!cmd_opt_bool(run, "revoke", false, &revoke))
        return;
    run->reply->ephemeral = true;
    enum i18n_lang lang = run->req->lang;
    enum bot_err err = channel_row(s, channel, token, &fight);
    if (err != BOT_OK && err != BOT_NOTFOUND) {
        cmd_fail(run, i18n_get(lang, "the bot could not read the fight's "
                                     "link; try again"));
        return;
    }
    bool have = err == BOT_OK && fight == run->enc->fight_id;
    if (revoke) {
        if (err == BOT_OK && cmd_share_forget(s, channel) != BOT_OK) {
            cmd_fail(run, i18n_get(lang, "the link could not be revoked; try "
                                         "again"));
            return;
        }
        run->keep = true;
        msg_set_content(&run->reply->msg, "%s", have
                        ? i18n_get(lang, "The link is revoked: open pages now "
                                         "say the fight is no longer shared. "
                                         "`/combat share` makes a new one.")
                        : i18n_get(lang, "This fight had no link to revoke."));
        return;
    }
    if (base == NULL || base[0] == '\0') {
        cmd_fail(run, i18n_get(lang, "the web page is off on this fray: its "
                                     "operator turns it on with [web] listen "
                                     "and public_url (docs/web.md)"));
        return;
    }
    if (!have) {
        if ((err == BOT_OK && cmd_share_forget(s, channel) != BOT_OK) ||
            share_new(s, channel, run->enc->fight_id, cmd_public_lang(run),
                      token) != BOT_OK) {
            cmd_fail(run, i18n_get(lang, "the link could not be made; try "
                                         "again"));
            return;
        }
        run->keep = true;
    }
    size_t n = strlen(base);
    msg_set_content(&run->reply->msg,
                    i18n_get(lang, "Anyone with this link can watch the "
                                   "fight, read-only, as the players see it "
                                   "(hidden combatants stay "
                                   "unseen):\n%.*s/s/%s\nIt stops working "
                                   "when the fight ends; `/combat share "
                                   "revoke:true` ends it now."),
                    (int)(n > 0 && base[n - 1] == '/' ? n - 1 : n), base,
                    token);
}
