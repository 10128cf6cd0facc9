/*
 * sheet_json.h - a saved sheet (a player's character or an NPC template)
 * and its JSON document, checked against its rule system.
 *
 * A sheet is what a combatant brings into a fight: its stats, its tracks
 * (hp, Resolve, Harm, stamina: whatever the system declares RS_TRACK) with
 * their current and maximum values, an initiative expression, its attacks
 * (struct enc_attack: name, roll, damage, the system's /attack options)
 * and a note. The store keeps the document as text (store.h "saved
 * sheets"); this module is the only reader and writer.
 *
 * Checking is in two steps. sheet_json_load() checks the document's shape
 * and every limit, naming the bad field ("stats.ac: ..."), so a damaged or
 * hand-edited row never reaches the engine. sheet_check() then checks the
 * sheet against its system by the same path a fight uses (sheet_apply():
 * the declared stats and their bounds, the system's own check_stat), and
 * each attack with sheet_attack_check(): dice the dice language accepts,
 * options the system declares for /attack. A sheet that passes joins a
 * fight of its system.
 *
 * The document (version 1), every member but "v" and "system" optional:
 *   {"v":1, "system":"generic", "stats":{"ac":15,"attack":5},
 *    "tracks":{"hp":{"cur":18,"max":24}}, "init":"+3",
 *    "attacks":[{"name":"Longsword","roll":"","damage":"1d8+3",
 *                "options":""}],
 *    "note":"...", "conds":[{"name":"Wounded","value":0}]}
 * conds are the conditions the system declares RS_COND_LASTS, which a
 * fight's end keeps on the sheet (resolve's Wounded).
 *
 * Ownership: sheet_json_dump() returns a malloc'd string the caller frees;
 * everything else fills caller-owned structs. Pure: no I/O.
 */
#ifndef SHEET_JSON_H
#define SHEET_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "bot_err.h"
#include "enc.h"
#include "rs.h"

struct sbuf;

#define SHEET_JSON_VERSION 1
/* Longest document written; the store's limit (STORE_MAX_SHEET_DOC) is
 * the same, and a full sheet is well under half of it. */
#define SHEET_JSON_MAX_DOC 32768
/* Room for a message naming a field and what is wrong with it. */
#define SHEET_MAX_ERR 320

/* A condition a saved character keeps after a fight (RS_COND_LASTS). */
struct sheet_cond {
    char name[ENC_MAX_COND_NAME + 1];
    int32_t value;           /* its value or stacks; 0: a flag */
};

struct sheet {
    char system[ENC_MAX_RS_ID + 1];
    struct enc_kv stats[ENC_MAX_STATS];        /* stats (and pools) */
    int nstats;
    struct enc_track tracks[ENC_MAX_TRACKS];   /* declared tracks */
    int ntracks;
    char init[ENC_MAX_INIT_EXPR + 1];          /* "": the system's default */
    struct enc_attack attacks[ENC_MAX_ATTACKS];
    int nattacks;
    char note[ENC_MAX_NOTE + 1];
    struct sheet_cond conds[ENC_MAX_CONDITIONS]; /* lasting conditions */
    int nconds;
};

/* An empty sheet of system sys. */
void sheet_init(struct sheet *sh, const struct rs_system *sys);

/* The document of sh; NULL on no memory. */
char *sheet_json_dump(const struct sheet *sh);

/* Parse doc into *out. BOT_INVALID with a one-line reason naming the
 * field in err (at least SHEET_MAX_ERR bytes is enough), BOT_NOMEM; *out
 * is then unspecified. */
enum bot_err sheet_json_load(const char *doc, struct sheet *out, char *err,
                             size_t errlen);

/* Set a stat or a track (a name sys declares RS_TRACK: both its current
 * and maximum value) on sh, checked as sheet_check() does. d says why
 * not. */
enum eng_err sheet_set(const struct rs_system *sys, const void *data,
                       struct sheet *sh, const char *name, int64_t value,
                       struct enc_diag *d);

/* Apply sh to who (a combatant of c->e, whose system is sys): stats
 * through rs_stat_check (the declared names and bounds, the system's
 * check_stat), tracks, initiative, attacks, note, and (when c->r records
 * events: a real fight) its lasting conditions. Pools are left as
 * stats for the caller's rs_stat_pools() after anything else it sets. */
enum eng_err sheet_apply(struct rs_call *c, const struct rs_system *sys,
                         const struct sheet *sh, struct enc_combatant *who);

/* Check sh against sys (data: the group's data for sys, or NULL): its
 * stats and tracks as sheet_apply() would set them (a track's current
 * value at most its maximum, as /character create and healing leave it),
 * and every attack. The one validator of a sheet: /character create|set,
 * /npc create and both imports call it. */
enum eng_err sheet_check(const struct rs_system *sys, const void *data,
                         const struct sheet *sh, struct enc_diag *d);

/* Check one attack for sys: a name (1..ENC_MAX_ATTACK_NAME bytes), a roll
 * and damage each empty, a whole number or dice the dice language
 * accepts, and options the system declares for /attack, none of them
 * naming a combatant (a saved attack outlives any fight). */
enum eng_err sheet_attack_check(const struct rs_system *sys, const void *data,
                                const struct enc_attack *a,
                                struct enc_diag *d);

/* Add a or replace sh's attack of the same name (case ignored); ENG_LIMIT
 * past ENC_MAX_ATTACKS. Unchecked: call sheet_attack_check() first. */
enum eng_err sheet_attack_put(struct sheet *sh, const struct enc_attack *a,
                              struct enc_diag *d);
/* Remove the attack called name; false when there is none. */
bool sheet_attack_remove(struct sheet *sh, const char *name);

/* Whether sys declares the condition called name RS_COND_LASTS. */
/* Whether sys (with data) declares a rest: a stat that lasts until the
 * character rests (RS_LAST_REST) or a condition a rest ends
 * (RS_COND_REST). */
bool sheet_has_rest(const struct rs_system *sys, const void *data);

/* What a rest gives back on sh: each RS_LAST_REST stat set to its rest
 * value (removed when that is 0), each RS_COND_REST condition gone, each
 * said in what ("ignores_spent 0", "Wounded ends"), comma separated.
 * Returns how many things changed. */
int sheet_rest(const struct rs_system *sys, const void *data,
               struct sheet *sh, struct sbuf *what);

bool sheet_cond_lasts(const struct rs_system *sys, const void *data,
                      const char *name);

/* The track called name, or NULL. */
struct enc_track *sheet_track(struct sheet *sh, const char *name);

#endif
