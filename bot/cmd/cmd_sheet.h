/*
 * cmd_sheet.h - what the saved-sheet commands (/character, /npc) and the
 * fight commands that read sheets (/combat join character:, /combat add
 * template:) share: loading and saving a sheet in the store, editing one
 * from a command's options, and showing one.
 *
 * Internal to bot/cmd_*.c. Ownership: a struct store_sheet filled here is
 * the caller's to store_sheet_cleanup(); everything else is borrowed.
 */
#ifndef CMD_SHEET_H
#define CMD_SHEET_H

#include <stdbool.h>

#include "cmd_run.h"
#include "sbuf.h"
#include "sheet_json.h"
#include "store.h"

/* The key of the sender's character name in this server (or of the
 * server's template name, kind STORE_SHEET_NPC). */
struct store_sheet_key cmd_sheet_key(const struct cmd_run *run,
                                     enum store_sheet_kind kind,
                                     const char *name);

/* Load the sheet k names and decode it into *sh; *row gets the row
 * (cleanup is the caller's, also on failure). Fails the command with a
 * message ("you have no character named X") when there is none or its
 * document cannot be read. */
bool cmd_sheet_load(struct cmd_run *run, const struct store_sheet_key *k,
                    struct store_sheet *row, struct sheet *sh);

/* Apply the edit options a sheet command was given to sh: stats:, hp:,
 * init:, note:, and attack: with roll:, damage:, options: (or remove:true),
 * each checked against sys. *changed says whether any was given. Fails the
 * command naming the bad option. */
bool cmd_sheet_edit(struct cmd_run *run, const struct rs_system *sys,
                    struct sheet *sh, bool *changed);

/* The sheet as reply text: its name (escaped), system, stats, tracks,
 * initiative, attacks and note, its labels in lang. */
void cmd_sheet_render(struct sbuf *b, enum i18n_lang lang, const char *name,
                      const struct sheet *sh);

/* The tracks of sh as "hp 17/24, harm 2" into b: those rs declares by
 * their word in lang (render_track_name()), the rest, and all when rs is
 * NULL, as the sheet keeps them. */
void cmd_sheet_tracks(struct sbuf *b, const struct sheet *sh,
                      const struct rs_system *rs, enum i18n_lang lang);

/* The lasting conditions of sh as "Wounded, Harm 2" into b. */
void cmd_sheet_conds(struct sbuf *b, const struct sheet *sh);

/* The private reply: a first line (or none), then the sheet. */
void cmd_sheet_reply(struct cmd_run *run, const char *first,
                     const char *name, const struct sheet *sh);

/* Whether name reads as a mention ("@everyone", "<@1>"): refused where
 * names enter (cmd_combat.c). */
bool cmd_name_is_mention_like(const char *name);

/* Check a name for a sheet as for a combatant (enc_check_name, no
 * mention look-alikes) into d; ENG_OK when it may be used. The one check
 * of a sheet's name: the commands (cmd_sheet_name_ok) and the imports
 * (cmd_xfer_sheet.c) call it. */
enum eng_err cmd_sheet_name_check(const char *name, const char *what,
                                  struct enc_diag *d);
/* The same, failing the command when the name may not be used. */
bool cmd_sheet_name_ok(struct cmd_run *run, const char *name,
                       const char *what);

#endif
