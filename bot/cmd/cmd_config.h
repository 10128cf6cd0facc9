/*
 * cmd_config.h - per-server settings that other parts of the bot read:
 * the systems a server plays (whose commands are registered there), and
 * whose dice syntax a roll reads (the server's, or a player's own).
 *
 * Ownership: the systems written to out are static descriptors.
 */
#ifndef CMD_CONFIG_H
#define CMD_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dice.h"
#include "i18n.h"
#include "rs.h"

struct store;
struct cmd_req;

#define CMD_CONFIG_KEY_SYSTEMS "systems"  /* + ":<guild>" */
/* What a server that never chose plays. */
#define CMD_CONFIG_DEFAULT_SYSTEM "generic"
/* Systems one server may play (every linked one, with room). */
#define CMD_CONFIG_MAX_SYSTEMS 16

/* The system a new fight, character or NPC template (what) plays:
 * system:, or the one system the server plays (generic on a new server);
 * refuses the command (NULL) when the server plays several. what is
 * "fight", "character" or "template": the refusal names it. */
struct cmd_run;
const struct rs_system *cmd_config_default_system(struct cmd_run *run,
                                                   const char *what);

/* The systems guild plays into out (at most max), in registry order.
 * A server that never chose (nor started a fight of a system with
 * commands of its own) plays generic alone, with *configured false: a new
 * server can make characters and fight at once. */
size_t cmd_config_systems(struct store *store, uint64_t guild,
                          const struct rs_system **out, size_t max,
                          bool *configured);

/* The role whose members may manage guild's NPC templates
 * (/config npc-role:), or 0 when none is set. */
uint64_t cmd_config_npc_role(struct store *store, uint64_t guild);

/* Whether a fight's end writes back to saved characters in guild (on
 * unless /config writeback:false; on when the store cannot say). */
bool cmd_config_writeback(struct store *store, uint64_t guild);

/* Whose dice syntax run's sender's rolls read (docs/dice.md, "Choosing a
 * dialect"): the user's own choice (/macro dialect), else the server's
 * (/config dice:), else fray's. guild 0 (a DM) skips the server. */
struct cmd_run;
enum dice_dialect cmd_config_roll_dialect(struct cmd_run *run);

/* The language of fray's public messages in guild (/config language:),
 * or fallback (Discord's guild_locale) when none is set or the store
 * cannot say. */
enum i18n_lang cmd_config_language(struct store *store, uint64_t guild,
                                   enum i18n_lang fallback);

/* The language a public reply of run speaks: the server's setting, else
 * Discord's language of the server; the reader's own in a DM or the
 * console. Reads the store only when a server asks, and once a command
 * (run->public_lang; /config language: forgets it when it writes), so a
 * reply that never calls it costs nothing and one that calls it often
 * (results, tracker, notice) pays one lookup. */
enum i18n_lang cmd_public_lang(struct cmd_run *run);

/* What cmd_public_lang() falls back to when the server set no language:
 * Discord's language of the server, or the reader's own in a DM or the
 * console. The turn clock's timer keeps it (store.h, struct store_timer):
 * a timer fires with no interaction to bring Discord's. Reads nothing. */
enum i18n_lang cmd_public_fallback(const struct cmd_req *req);

/* Parse "generic,teams" into out; 0 with a message in err (in lang) when a
 * name is unknown or the list is empty. */
size_t cmd_config_parse_systems(const char *text, enum i18n_lang lang,
                                const struct rs_system **out, size_t max,
                                char *err, size_t errlen);

#endif
