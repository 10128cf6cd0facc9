/*
 * cmd_config.c - /config: per-server settings, kept in the store's
 * key/value table (one row per guild and setting).
 *
 *   gm_channel:<guild>   the channel id where secret rolls and the GM's
 *                        copies of hidden results are posted
 *   systems:<guild>      the rule systems the server plays, as
 *                        "teams,cards": their commands are registered in
 *                        that server only (docs/internals/commands.md,
 *                        "A command surface per server")
 *   npc_role:<guild>     the role whose members may manage the server's
 *                        NPC templates (besides Manage Server)
 *   sheet_writeback:<guild>  "off" when a fight's end must not write its
 *                        result to saved characters (absent: on)
 *   dice_dialect:<guild> whose dice syntax the server's rolls read, as
 *                        dice_dialect_name() spells it (absent: fray's)
 *   dice_dialect_user:<user>  a player's own choice, in every server and
 *                        in DMs; it wins over the server's (/macro dialect)
 *   proposals:<guild>    "off" when a player's change to another's
 *                        combatant is refused rather than proposed to
 *                        the GM (absent: on)
 *   proposal_expiry:<guild>  when waiting proposals lapse, as
 *                        proposal_expiry_name() spells it (absent: turn)
 *   language:<guild>     the language of fray's public messages, as
 *                        i18n_code() spells it (absent: Discord's
 *                        guild_locale)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_config.h"
#include "cmd_srvcond.h"
#include "cmd_run.h"
#include "eng_text.h"
#include "rs_kit.h"
#include "sbuf.h"
#include "snowflake.h"
#include "store.h"

#define CONFIG_KEY_GM_CHANNEL "gm_channel"
#define CONFIG_KEY_WRITEBACK "sheet_writeback"
#define CONFIG_KEY_NPC_ROLE "npc_role"
#define CONFIG_KEY_DICE "dice_dialect"
#define CONFIG_KEY_MY_DICE "dice_dialect_user"
#define CONFIG_KEY_PROPOSALS "proposals"
#define CONFIG_KEY_PROPOSAL_EXPIRY "proposal_expiry"
#define CONFIG_KEY_LANGUAGE "language"

static void gm_channel_key(char *key, size_t n, uint64_t guild)
{
    snprintf(key, n, "%s:%" PRIu64, CONFIG_KEY_GM_CHANNEL, guild);
}

static void systems_key(char *key, size_t n, uint64_t guild)
{
    snprintf(key, n, "%s:%" PRIu64, CMD_CONFIG_KEY_SYSTEMS, guild);
}

static void writeback_key(char *key, size_t n, uint64_t guild)
{
    snprintf(key, n, "%s:%" PRIu64, CONFIG_KEY_WRITEBACK, guild);
}

bool cmd_config_writeback(struct store *store, uint64_t guild)
{
    char key[STORE_MAX_KV_KEY];
    char *value = NULL;
    writeback_key(key, sizeof key, guild);
    bool on = store_kv_get(store, key, &value) != BOT_OK ||
              strcmp(value, "off") != 0;
    free(value);
    return on;
}

bool cmd_config_proposals(struct store *store, uint64_t guild)
{
    char key[STORE_MAX_KV_KEY];
    char *value = NULL;
    if (guild == 0)
        return true;
    snprintf(key, sizeof key, "%s:%" PRIu64, CONFIG_KEY_PROPOSALS, guild);
    bool on = store_kv_get(store, key, &value) != BOT_OK ||
              strcmp(value, "off") != 0;
    free(value);
    return on;
}

enum proposal_expiry cmd_config_proposal_expiry(struct store *store,
                                                uint64_t guild)
{
    char key[STORE_MAX_KV_KEY];
    char *value = NULL;
    enum proposal_expiry x = PROPOSAL_EXPIRE_TURN;
    if (guild == 0)
        return x;
    snprintf(key, sizeof key, "%s:%" PRIu64, CONFIG_KEY_PROPOSAL_EXPIRY,
             guild);
    if (store_kv_get(store, key, &value) == BOT_OK &&
        !proposal_expiry_parse(value, &x))
        x = PROPOSAL_EXPIRE_TURN;
    free(value);
    return x;
}

/* proposals: and proposal-expiry: (either or both, on their own): store
 * them and say what they mean now. */
static void config_proposals(struct cmd_run *run, const char *on_text,
                             const char *expiry)
{
    struct store *store = run->ctx->store;
    uint64_t guild = run->req->guild_id;
    char key[STORE_MAX_KV_KEY];
    enum proposal_expiry x = PROPOSAL_EXPIRE_TURN;
    bool on = true;
    if (on_text != NULL && eng_text_casecmp(on_text, "on") != 0 &&
        eng_text_casecmp(on_text, "off") != 0) {
        cmd_fail(run, i18n_get(run->req->lang, "proposals: is on or off"));
        return;
    }
    if (expiry != NULL && !proposal_expiry_parse(expiry, &x)) {
        cmd_fail(run, i18n_get(run->req->lang, "proposal-expiry: is turn, "
                               "round or never"));
        return;
    }
    enum bot_err err = BOT_OK;
    if (on_text != NULL) {
        on = eng_text_casecmp(on_text, "on") == 0;
        snprintf(key, sizeof key, "%s:%" PRIu64, CONFIG_KEY_PROPOSALS, guild);
        err = on ? store_kv_delete(store, key) : store_kv_set(store, key,
                                                               "off");
    }
    if (err == BOT_OK && expiry != NULL) {
        snprintf(key, sizeof key, "%s:%" PRIu64, CONFIG_KEY_PROPOSAL_EXPIRY,
                 guild);
        err = x == PROPOSAL_EXPIRE_TURN
                  ? store_kv_delete(store, key)
                  : store_kv_set(store, key, proposal_expiry_name(x));
    }
    if (err != BOT_OK) {
        cmd_fail(run, i18n_get(run->req->lang, "the setting could not be "
                               "saved; nothing was changed"));
        return;
    }
    on = cmd_config_proposals(store, guild);
    x = cmd_config_proposal_expiry(store, guild);
    enum i18n_lang lang = run->req->lang;
    if (on)
        msg_set_content(&run->reply->msg, "%s",
                        x == PROPOSAL_EXPIRE_TURN
                            ? i18n_get(lang, "Saved. A player's change to a "
                                       "combatant that is not theirs goes "
                                       "to the GM as a proposal to approve "
                                       "or reject; proposals lapse when the "
                                       "turn moves on.")
                        : x == PROPOSAL_EXPIRE_ROUND
                            ? i18n_get(lang, "Saved. A player's change to a "
                                       "combatant that is not theirs goes "
                                       "to the GM as a proposal to approve "
                                       "or reject; proposals lapse when the "
                                       "round ends.")
                            : i18n_get(lang, "Saved. A player's change to a "
                                       "combatant that is not theirs goes "
                                       "to the GM as a proposal to approve "
                                       "or reject; proposals lapse only when "
                                       "the fight ends."));
    else
        msg_set_content(&run->reply->msg, "%s",
                        i18n_get(lang, "Saved. Proposals are off: a player "
                                 "may change only their own combatants (or "
                                 "anyone's in a fight with `/combat "
                                 "settings trust:true`)."));
    run->reply->ephemeral = true;
}

/* writeback: on its own: store it and say what it means. */
static void config_writeback(struct cmd_run *run)
{
    bool on = true;
    char key[STORE_MAX_KV_KEY];
    if (!cmd_opt_bool(run, "writeback", true, &on))
        return;
    writeback_key(key, sizeof key, run->req->guild_id);
    if ((on ? store_kv_delete(run->ctx->store, key)
            : store_kv_set(run->ctx->store, key, "off")) != BOT_OK) {
        cmd_fail(run, i18n_get(run->req->lang, "the setting could not be "
                               "saved; nothing was changed"));
        return;
    }
    msg_set_content(&run->reply->msg, "%s", on
                    ? i18n_get(run->req->lang, "Saved. When a fight ends, "
                               "what each saved character lost or regained "
                               "(its hp and other tracks) is written to its "
                               "sheet; `/combat reopen` puts the sheets "
                               "back.")
                    : i18n_get(run->req->lang, "Saved. Fights no longer "
                               "change saved characters: each joins with "
                               "its sheet as it is."));
    run->reply->ephemeral = true;
}

/* prefix:id into key, as snprintf("%s:%" PRIu64) writes it: a roll makes
 * three of these (two dice settings and the server's language), and
 * snprintf cost as much as a lookup. */
static const char *dialect_key(char key[STORE_MAX_KV_KEY], const char *prefix,
                               uint64_t id)
{
    char digits[24];
    char *p = digits + sizeof digits;
    do {
        *--p = (char)('0' + id % 10);
        id /= 10;
    } while (id != 0);
    size_t plen = strlen(prefix), dlen = (size_t)(digits + sizeof digits - p);
    memcpy(key, prefix, plen);
    key[plen] = ':';
    memcpy(key + plen + 1, p, dlen);
    key[plen + 1 + dlen] = '\0';
    return key;
}

/* The dialect of the dice settings read (kv[0] the user's, kv[1] the
 * server's): the first that names one. */
static enum dice_dialect dialect_of(const struct store_kv_short *kv)
{
    enum dice_dialect d = DICE_DIALECT_FRAY;
    for (size_t i = 0; i < 2; i++)
        if (kv[i].found &&
            dice_dialect_parse(kv[i].value, strlen(kv[i].value), &d))
            return d;
    return DICE_DIALECT_FRAY;
}

/* The language a /config language: value names, or fallback. */
static enum i18n_lang language_of(const struct store_kv_short *kv,
                                  enum i18n_lang fallback)
{
    enum i18n_lang l = fallback;
    if (!kv->found || !i18n_from_code(kv->value, &l) || l == I18N_PSEUDO)
        return fallback;
    return l;
}

/* A public roll asks for the server's language too: the third key rides
 * in the same statement, so a roll in English pays no second lookup. */
enum dice_dialect cmd_config_roll_dialect(struct cmd_run *run)
{
    const struct cmd_req *req = run->req;
    char mine[STORE_MAX_KV_KEY], server[STORE_MAX_KV_KEY];
    char lang[STORE_MAX_KV_KEY];
    bool ask_lang = req->guild_id != 0 && !run->lang_known;
    struct store_kv_short kv[3] = {
        {.key = dialect_key(mine, CONFIG_KEY_MY_DICE, req->user_id)},
        {.key = req->guild_id != 0
                    ? dialect_key(server, CONFIG_KEY_DICE, req->guild_id)
                    : NULL},
        {.key = ask_lang ? dialect_key(lang, CONFIG_KEY_LANGUAGE,
                                       req->guild_id)
                         : NULL}};
    if (store_kv_get_short(run->ctx->store, kv, 3) != BOT_OK)
        return DICE_DIALECT_FRAY;      /* the language is read again later */
    if (ask_lang) {
        run->public_lang = language_of(&kv[2], req->guild_lang);
        run->lang_known = true;
    }
    return dialect_of(kv);
}

/* Store name under key, or forget it when forget: the reply says what the
 * rolls read now. */
static void dialect_save(struct cmd_run *run, const char *key,
                         const char *name, bool forget, bool server)
{
    enum i18n_lang lang = run->req->lang;
    enum dice_dialect d = DICE_DIALECT_FRAY;
    if (!forget && !dice_dialect_parse(name, strlen(name), &d)) {
        cmd_fail(run, i18n_get(lang, "unknown dice syntax `%.20s`: fray, "
                               "dicemaiden, roll20, foundry, avrae or "
                               "sidekick"),
                 name);
        return;
    }
    if ((forget ? store_kv_delete(run->ctx->store, key)
                : store_kv_set(run->ctx->store, key, dice_dialect_name(d))) !=
        BOT_OK) {
        cmd_fail(run, i18n_get(run->req->lang, "the setting could not be "
                               "saved; nothing was changed"));
        return;
    }
    if (forget)
        msg_set_content(&run->reply->msg, "%s",
                        server ? i18n_get(lang, "Saved. This server's dice "
                                          "read as the server's do again.")
                               : i18n_get(lang, "Saved. Your dice read as "
                                          "the server's do again."));
    else if (d == DICE_DIALECT_FRAY)
        msg_set_content(&run->reply->msg, "%s",
                        server ? i18n_get(lang, "Saved. This server's dice "
                                          "read as fray reads them "
                                          "(docs/dice.md).")
                               : i18n_get(lang, "Saved. Your dice read as "
                                          "fray reads them (docs/dice.md)."));
    else
        msg_set_content(&run->reply->msg,
                        server ? i18n_get(lang, "Saved. This server's dice "
                                          "read as %s reads them where the "
                                          "bots disagree (`e`, `r`, `k3`, "
                                          "comparisons...); a roll that used "
                                          "such a form says how it was read.")
                               : i18n_get(lang, "Saved. Your dice read as %s "
                                          "reads them where the bots "
                                          "disagree (`e`, `r`, `k3`, "
                                          "comparisons...); a roll that used "
                                          "such a form says how it was read."),
                        dice_dialect_title(d));
    run->reply->ephemeral = true;
}

/* /config dice: on its own. */
static void config_dice(struct cmd_run *run, const char *name)
{
    char key[STORE_MAX_KV_KEY];
    snprintf(key, sizeof key, "%s:%" PRIu64, CONFIG_KEY_DICE,
             run->req->guild_id);
    dialect_save(run, key, name, false, true);
}

/* /macro dialect bot: a player's own choice; "server" forgets it. */
void cmd_config_my_dialect(struct cmd_run *run)
{
    char key[STORE_MAX_KV_KEY];
    const char *name = cmd_req_opt(run->req, "bot");
    snprintf(key, sizeof key, "%s:%" PRIu64, CONFIG_KEY_MY_DICE,
             run->req->user_id);
    dialect_save(run, key, name != NULL ? name : "server",
                 name == NULL || strcmp(name, "server") == 0, false);
}

/* Every public reply asks (a /roll among them), and the setting is
 * usually absent: the short read allocates nothing and formats no
 * message for a miss, as the dice settings' does. */
enum i18n_lang cmd_config_language(struct store *store, uint64_t guild,
                                   enum i18n_lang fallback)
{
    char key[STORE_MAX_KV_KEY];
    struct store_kv_short kv = {.key = guild != 0
                                           ? dialect_key(key,
                                                         CONFIG_KEY_LANGUAGE,
                                                         guild)
                                           : NULL};
    if (kv.key == NULL || store_kv_get_short(store, &kv, 1) != BOT_OK)
        return fallback;
    return language_of(&kv, fallback);
}

enum i18n_lang cmd_public_fallback(const struct cmd_req *req)
{
    return req->guild_id != 0 ? req->guild_lang : req->lang;
}

enum i18n_lang cmd_public_lang(struct cmd_run *run)
{
    const struct cmd_req *req = run->req;
    if (req->guild_id == 0)
        return req->lang;
    /* Once a command: its results, tracker and notice all ask. */
    if (!run->lang_known) {
        run->public_lang = cmd_config_language(run->ctx->store,
                                               req->guild_id,
                                               req->guild_lang);
        run->lang_known = true;
    }
    return run->public_lang;
}

/* A language's own name, for the confirmation. */
static const char *language_name(enum i18n_lang l)
{
    static const char *const names[I18N_COUNT] = {
        [I18N_EN] = "English", [I18N_DE] = "Deutsch",
        [I18N_FR] = ("Fran\xC3\xA7" "ais"), [I18N_ES] = "Espa\xC3\xB1ol",
        [I18N_PT_BR] = "Portugu\xC3\xAAs (Brasil)", [I18N_PL] = "Polski",
        [I18N_PSEUDO] = "pseudo"};
    return (unsigned)l < I18N_COUNT ? names[l] : "?";
}

/* /config language: on its own. The answer is public, in the language the
 * table now reads, so everyone at it sees what changed. */
static void config_language(struct cmd_run *run, const char *code)
{
    char key[STORE_MAX_KV_KEY];
    enum i18n_lang l = I18N_EN;
    bool forget = strcmp(code, "server") == 0;
    if (!forget && (!i18n_from_code(code, &l) || l == I18N_PSEUDO)) {
        cmd_fail(run, i18n_get(run->req->lang, "unknown language `%.20s`: "
                               "server, en, de, fr, es-ES, pt-BR or pl"),
                 code);
        return;
    }
    snprintf(key, sizeof key, "%s:%" PRIu64, CONFIG_KEY_LANGUAGE,
             run->req->guild_id);
    if ((forget ? store_kv_delete(run->ctx->store, key)
                : store_kv_set(run->ctx->store, key, i18n_code(l))) !=
        BOT_OK) {
        cmd_fail(run, i18n_get(run->req->lang, "the setting could not be "
                               "saved; nothing was changed"));
        return;
    }
    run->lang_known = false;     /* the setting just changed */
    enum i18n_lang now = cmd_public_lang(run);
    if (forget)
        msg_set_content(&run->reply->msg,
                        i18n_get(now, "Saved. fray's public messages "
                                      "here follow the server's language on "
                                      "Discord: %s."),
                        language_name(now));
    else
        msg_set_content(&run->reply->msg,
                        i18n_get(now, "Saved. fray's public messages "
                                      "here are in %s."),
                        language_name(now));
}

static void npc_role_key(char *key, size_t n, uint64_t guild)
{
    snprintf(key, n, "%s:%" PRIu64, CONFIG_KEY_NPC_ROLE, guild);
}

/* The snowflake stored under key, or 0 (none, or unreadable). */
static uint64_t kv_snowflake(struct store *store, const char *key)
{
    char *value = NULL;
    uint64_t id = 0;
    if (store_kv_get(store, key, &value) == BOT_OK &&
        !snowflake_parse(value, &id))
        id = 0;
    free(value);
    return id;
}

uint64_t cmd_config_npc_role(struct store *store, uint64_t guild)
{
    char key[STORE_MAX_KV_KEY];
    npc_role_key(key, sizeof key, guild);
    return kv_snowflake(store, key);
}

/* npc-role: on its own (the validator checked it is a role id). */
static void config_npc_role(struct cmd_run *run, const char *role)
{
    char key[STORE_MAX_KV_KEY];
    npc_role_key(key, sizeof key, run->req->guild_id);
    if (store_kv_set(run->ctx->store, key, role) != BOT_OK) {
        cmd_fail(run, i18n_get(run->req->lang, "the setting could not be "
                               "saved; nothing was changed"));
        return;
    }
    msg_set_content(&run->reply->msg,
                    i18n_get(run->req->lang, "Saved. Members with <@&%s> "
                             "may manage the NPC templates (/npc), as well "
                             "as those with Manage Server."),
                    role);
    run->reply->ephemeral = true;
}

/* clear-npc-role:true, on its own: the templates and the server's saved
 * rolls go back to Manage Server alone. */
static void config_npc_role_clear(struct cmd_run *run)
{
    char key[STORE_MAX_KV_KEY];
    npc_role_key(key, sizeof key, run->req->guild_id);
    bool had = kv_snowflake(run->ctx->store, key) != 0;
    if (had && store_kv_delete(run->ctx->store, key) != BOT_OK) {
        cmd_fail(run, i18n_get(run->req->lang, "the setting could not be "
                               "saved; nothing was changed"));
        return;
    }
    msg_set_content(&run->reply->msg, "%s",
                    had ? i18n_get(run->req->lang, "Forgotten. Only members "
                                   "with Manage Server (or Administrator) "
                                   "manage the NPC templates (/npc) and the "
                                   "server's saved rolls now.")
                        : i18n_get(run->req->lang, "No NPC role was set. "
                                   "Only members with Manage Server (or "
                                   "Administrator) manage the NPC templates "
                                   "(/npc) and the server's saved rolls "
                                   "now."));
    run->reply->ephemeral = true;
}

uint64_t cmd_config_gm_channel(struct store *store, uint64_t guild)
{
    char key[STORE_MAX_KV_KEY];
    gm_channel_key(key, sizeof key, guild);
    return kv_snowflake(store, key);
}

void cmd_system_ids(char *buf, size_t n)
{
    size_t nrs, at = 0;
    const struct rs_system *const *all = rs_all(&nrs);
    buf[0] = '\0';
    for (size_t i = 0; i < nrs; i++) {
        int w = snprintf(buf + at, n - at, "%s%s", i ? ", " : "",
                         all[i]->id);
        if (w < 0 || (size_t)w >= n - at) {
            buf[at] = '\0';
            break;
        }
        at += (size_t)w;
    }
}

size_t cmd_config_parse_systems(const char *text, enum i18n_lang lang,
                                const struct rs_system **out, size_t max,
                                char *err, size_t errlen)
{
    size_t n = 0;
    const char *p = text;
    char id[ENC_MAX_RS_ID + 8];
    bool too_long;
    err[0] = '\0';
    while (rs_list_next(&p, id, sizeof id, &too_long)) {
        const struct rs_system *s = rs_find(id);
        if (s == NULL) {
            char ids[256];
            cmd_system_ids(ids, sizeof ids);
            snprintf(err, errlen,
                     i18n_get(lang, "unknown system `%.16s`; the systems "
                              "are: %s"),
                     id, ids);
            return 0;
        }
        bool dup = false;
        for (size_t k = 0; k < n; k++)
            dup = dup || out[k] == s;
        if (!dup && n < max)
            out[n++] = s;
    }
    if (too_long) {
        snprintf(err, errlen, "%s",
                 i18n_get(lang, "a system's name is too long"));
        return 0;
    }
    return n;
}

size_t cmd_config_systems(struct store *store, uint64_t guild,
                          const struct rs_system **out, size_t max,
                          bool *configured)
{
    char key[STORE_MAX_KV_KEY], err[320];
    char *value = NULL;
    size_t n = 0;
    systems_key(key, sizeof key, guild);
    *configured = store_kv_get(store, key, &value) == BOT_OK;
    if (*configured)
        n = cmd_config_parse_systems(value, I18N_EN, out, max, err,
                                     sizeof err);
    else if (max > 0 && (out[0] = rs_find(CMD_CONFIG_DEFAULT_SYSTEM)) != NULL)
        n = 1;
    free(value);
    return n;
}

const struct rs_system *cmd_config_default_system(struct cmd_run *run,
                                                   const char *what)
{
    const char *id = cmd_req_opt(run->req, "system");
    if (id != NULL)
        return rs_find(id); /* the validator checked the id */
    const struct rs_system *list[CMD_CONFIG_MAX_SYSTEMS];
    bool configured = false;
    size_t n = cmd_config_systems(run->ctx->store, run->req->guild_id, list,
                                  CMD_CONFIG_MAX_SYSTEMS, &configured);
    if (n == 1)
        return list[0];
    char ids[256];
    cmd_system_ids(ids, sizeof ids);
    enum i18n_lang lang = run->req->lang;
    cmd_fail(run, strcmp(what, "fight") == 0
                      ? i18n_get(lang, "give the fight's system with system: "
                                 "(%s)")
                  : strcmp(what, "template") == 0
                      ? i18n_get(lang, "give the template's system with "
                                 "system: (%s)")
                      : i18n_get(lang, "give the character's system with "
                                 "system: (%s)"),
             ids);
    return NULL;
}

/* Store the server's systems (registry order, so the text is canonical). */
static enum bot_err systems_save(struct store *store, uint64_t guild,
                                 const struct rs_system *const *list,
                                 size_t n)
{
    char key[STORE_MAX_KV_KEY], text[STORE_MAX_KV_VALUE];
    size_t nrs, at = 0;
    const struct rs_system *const *all = rs_all(&nrs);
    text[0] = '\0';
    for (size_t i = 0; i < nrs; i++)
        for (size_t k = 0; k < n; k++)
            if (list[k] == all[i]) {
                int w = snprintf(text + at, sizeof text - at, "%s%s",
                                 at ? "," : "", all[i]->id);
                if (w > 0 && (size_t)w < sizeof text - at)
                    at += (size_t)w;
            }
    systems_key(key, sizeof key, guild);
    return store_kv_set(store, key, text);
}

void cmd_config_system_used(struct cmd_run *run, const struct rs_system *rs)
{
    const struct rs_system *list[CMD_CONFIG_MAX_SYSTEMS];
    bool configured;
    uint64_t guild = run->req->guild_id;
    if (rs->ncmds == 0)
        return;          /* nothing of its own to register */
    size_t n = cmd_config_systems(run->ctx->store, guild, list,
                                  CMD_CONFIG_MAX_SYSTEMS, &configured);
    /* The first fight of a system of its own makes a new server that
     * system's: generic was only the default, and keeping it would make
     * every /character create ask which of the two. */
    if (!configured)
        n = 0;
    for (size_t i = 0; i < n; i++)
        if (list[i] == rs)
            return;
    if (n == CMD_CONFIG_MAX_SYSTEMS)
        return;
    list[n++] = rs;
    /* Inside the command's transaction: saved with the fight or not at
     * all. A failure here only means the commands come later. */
    if (systems_save(run->ctx->store, guild, list, n) == BOT_OK)
        run->reply->guild_commands = true;
}

/* "**Teams**: `/act`, `/react` ..." for the reply. */
static void describe_systems(struct sbuf *b, enum i18n_lang lang,
                             const struct rs_system *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        sbuf_addf(b, "\n**%s**:", list[i]->title);
        if (list[i]->ncmds == 0)
            sbuf_add(b, i18n_get(lang, " the core commands only"));
        for (int k = 0; k < list[i]->ncmds; k++) {
            const struct rs_cmd *c = &list[i]->cmds[k];
            bool seen = false;
            for (int j = 0; j < k && !seen; j++)
                seen = eng_text_casecmp(list[i]->cmds[j].verb, c->verb) == 0;
            if (!seen)
                sbuf_addf(b, "%s `/%s`", k ? "," : "", c->verb);
        }
    }
}

/* Whether id is a channel fray may post the GM's copies in: one Discord
 * resolved for this command (data.resolved.channels: the id alone proves
 * nothing), of this server, and a text or announcement channel (a voice
 * channel's chat, a thread or a forum is not where a GM keeps notes).
 * Refuses with a message otherwise. */
static bool gm_channel_ok(struct cmd_run *run, const char *id)
{
    const struct cmd_req *req = run->req;
    const struct cmd_channel *ch = NULL;
    uint64_t want = 0;
    if (snowflake_parse(id, &want))
        for (int i = 0; i < req->nchannels && ch == NULL; i++)
            if (req->channels[i].id == want)
                ch = &req->channels[i];
    if (ch == NULL || ch->guild_id != req->guild_id) {
        cmd_fail(run, i18n_get(run->req->lang, "gm-channel: pick a channel "
                               "of this server from the list; nothing was "
                               "changed"));
        return false;
    }
    if (ch->type != CMD_CHANNEL_TEXT && ch->type != CMD_CHANNEL_ANNOUNCEMENT) {
        cmd_fail(run, i18n_get(run->req->lang, "gm-channel: <#%llu> is not a "
                               "text channel; pick a text or announcement "
                               "channel"),
                 (unsigned long long)ch->id);
        return false;
    }
    return true;
}

static void config_systems(struct cmd_run *run, const char *text)
{
    const struct rs_system *list[CMD_CONFIG_MAX_SYSTEMS];
    char err[320];
    enum i18n_lang lang = run->req->lang;
    size_t n = cmd_config_parse_systems(text, lang, list,
                                        CMD_CONFIG_MAX_SYSTEMS, err,
                                        sizeof err);
    if (n == 0) {
        cmd_fail(run, "%s", err[0] ? err
                            : i18n_get(lang, "systems: name at least one, "
                                       "like systems:generic or "
                                       "systems:teams,cards"));
        return;
    }
    if (systems_save(run->ctx->store, run->req->guild_id, list, n) !=
        BOT_OK) {
        cmd_fail(run, i18n_get(run->req->lang, "the setting could not be "
                               "saved; nothing was changed"));
        return;
    }
    struct sbuf desc;
    sbuf_init(&desc, MSG_MAX_TEXT / 2);
    describe_systems(&desc, lang, list, n);
    msg_set_content(&run->reply->msg,
                    i18n_get(lang, "Saved. This server plays:%s\nEvery "
                             "server also has /roll, /combat, /attack, "
                             "/character, /npc, /config, /macro and /help. "
                             "The commands update in a few seconds."),
                    sbuf_str(&desc));
    sbuf_cleanup(&desc);
    run->reply->guild_commands = true;
}

void cmd_config(struct cmd_run *run)
{
    const struct cmd_req *req = run->req;
    struct cmd_reply *reply = run->reply;
    enum i18n_lang lang = req->lang;
    if (req->guild_id == 0) {
        cmd_fail(run, req->source == CMD_SRC_CONSOLE
                 ? i18n_get(lang, "/config sets a Discord server's settings; "
                            "the console has no server")
                 : i18n_get(lang, "/config works in a server's channels, not "
                            "in direct messages"));
        return;
    }
    /* Who may: cmd_exec() checked the table's CMD_F_SERVER (Manage Server
     * or Administrator) before calling us. */
    if (cmd_srvcond_config(run))     /* the server's own conditions */
        return;
    const char *channel = cmd_req_opt(req, "gm-channel");
    const char *systems = cmd_req_opt(req, "systems");
    bool clear = false;
    if (!cmd_opt_bool(run, "clear", false, &clear))
        return;
    if (channel != NULL && clear) {
        cmd_fail(run, i18n_get(lang, "give gm-channel: or clear:true, not "
                               "both"));
        return;
    }
    const char *npc_role = cmd_req_opt(req, "npc-role");
    bool clear_role = false;
    if (!cmd_opt_bool(run, "clear-npc-role", false, &clear_role))
        return;
    if (npc_role != NULL || clear_role) {
        if (channel != NULL || clear || systems != NULL ||
            cmd_req_opt(req, "writeback") != NULL ||
            (npc_role != NULL && clear_role)) {
            cmd_fail(run, npc_role != NULL && clear_role
                              ? i18n_get(lang, "give npc-role: or "
                                         "clear-npc-role:true, not both")
                          : npc_role != NULL
                              ? i18n_get(lang, "set npc-role: on its own")
                              : i18n_get(lang, "give clear-npc-role:true on "
                                         "its own"));
            return;
        }
        if (clear_role)
            config_npc_role_clear(run);
        else
            config_npc_role(run, npc_role);
        return;
    }
    const char *language = cmd_req_opt(req, "language");
    if (language != NULL) {
        if (channel != NULL || clear || systems != NULL ||
            cmd_req_opt(req, "writeback") != NULL ||
            cmd_req_opt(req, "dice") != NULL ||
            cmd_req_opt(req, "proposals") != NULL ||
            cmd_req_opt(req, "proposal-expiry") != NULL) {
            cmd_fail(run, i18n_get(lang, "set language: on its own"));
            return;
        }
        config_language(run, language);
        return;
    }
    const char *proposals = cmd_req_opt(req, "proposals");
    const char *expiry = cmd_req_opt(req, "proposal-expiry");
    if (proposals != NULL || expiry != NULL) {
        if (channel != NULL || clear || systems != NULL ||
            cmd_req_opt(req, "writeback") != NULL ||
            cmd_req_opt(req, "dice") != NULL) {
            cmd_fail(run, i18n_get(lang, "set proposals: and proposal-expiry: on their own"));
            return;
        }
        config_proposals(run, proposals, expiry);
        return;
    }
    const char *dice = cmd_req_opt(req, "dice");
    if (dice != NULL) {
        if (channel != NULL || clear || systems != NULL ||
            cmd_req_opt(req, "writeback") != NULL) {
            cmd_fail(run, i18n_get(lang, "set dice: on its own"));
            return;
        }
        config_dice(run, dice);
        return;
    }
    if (cmd_req_opt(req, "writeback") != NULL) {
        if (channel != NULL || clear || systems != NULL) {
            cmd_fail(run, i18n_get(lang, "set writeback: on its own"));
            return;
        }
        config_writeback(run);
        return;
    }
    if (systems != NULL) {
        if (channel != NULL || clear) {
            cmd_fail(run, i18n_get(lang, "set systems: on its own"));
            return;
        }
        config_systems(run, systems);
        reply->ephemeral = true;
        return;
    }
    if (channel != NULL && !gm_channel_ok(run, channel))
        return;
    char key[STORE_MAX_KV_KEY];
    gm_channel_key(key, sizeof key, req->guild_id);
    enum bot_err err = BOT_OK;
    if (channel != NULL)
        err = store_kv_set(run->ctx->store, key, channel);
    else if (clear)
        err = store_kv_delete(run->ctx->store, key);
    if (err != BOT_OK) {
        cmd_fail(run, i18n_get(run->req->lang, "the setting could not be "
                               "saved; nothing was changed"));
        return;
    }
    uint64_t gm = cmd_config_gm_channel(run->ctx->store, req->guild_id);
    unsigned long long gml = gm;
    if (gm != 0)
        msg_set_content(&reply->msg,
                        channel ? i18n_get(lang, "Saved. <#%llu> is the GM "
                                           "channel: secret rolls and the "
                                           "GM's copies of hidden results "
                                           "are posted there.")
                                : i18n_get(lang, "<#%llu> is the GM channel: "
                                           "secret rolls and the GM's copies "
                                           "of hidden results are posted "
                                           "there."),
                        gml);
    else
        msg_set_content(&reply->msg, "%s",
                        clear ? i18n_get(lang, "Cleared. No GM channel is "
                                         "set: secret rolls are shown only "
                                         "to whoever rolls. Set one with "
                                         "`/config gm-channel:#channel`.")
                              : i18n_get(lang, "No GM channel is set: secret "
                                         "rolls are shown only to whoever "
                                         "rolls. Set one with `/config "
                                         "gm-channel:#channel`."));
    reply->ephemeral = true;
}
