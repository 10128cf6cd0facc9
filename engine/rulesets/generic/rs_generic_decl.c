/*
 * rs_generic_decl.c - the generic ruleset as fray knows it: its rs_system
 * (conditions, stats, settings, help) and its ops, together. The rules
 * themselves are in rs_generic.c (turns, attacks) and rs_generic_life.c
 * (going down, death saves).
 */
#include "rs.h"
#include "rs_generic.h"
#include "rs_kit.h"

/* The conditions d20 tables use, as reminders: fray tracks them and their
 * durations; what they do at the table is the GM's call. Their names are
 * the catalogs' (context "condition", po/glossary-<lang>.md "generic"):
 * shown in the table's language, typed in English or picked from the
 * list. */
static const struct rs_cond_spec gen_conds[] = {
    {NC_("condition", "Bleeding"), 0, 0, 0, 0, ENC_EXPIRE_END, "losing blood every turn"},
    {NC_("condition", "Blessed"), 0, 0, 0, 0, ENC_EXPIRE_END,
     "favoured: a bonus to attacks and saves"},
    {NC_("condition", "Blinded"), 0, 0, 0, 0, ENC_EXPIRE_END, "cannot see"},
    {NC_("condition", "Burning"), 0, 0, 0, 0, ENC_EXPIRE_END, "on fire until put out"},
    {NC_("condition", "Charmed"), 0, 0, 0, 0, ENC_EXPIRE_END,
     "will not harm whoever charmed them"},
    {NC_("condition", "Concentrating"), 0, 0, 0, 0, ENC_EXPIRE_END,
     "holding a spell; damage may break it"},
    {NC_("condition", "Cursed"), 0, 0, 0, 0, ENC_EXPIRE_END, "under a curse"},
    {NC_("condition", "Deafened"), 0, 0, 0, 0, ENC_EXPIRE_END, "cannot hear"},
    {NC_("condition", "Dodging"), 0, 0, 1, 1, ENC_EXPIRE_START,
     "attacks against them are harder until their next turn"},
    {NC_("condition", "Exhausted"), RS_COND_STACKS | RS_COND_VALUE, 1, 6, 0, ENC_EXPIRE_END,
     "a level of exhaustion (1 to 6)"},
    {NC_("condition", "Frightened"), 0, 0, 0, 0, ENC_EXPIRE_END,
     "cannot move closer to what frightens them"},
    {NC_("condition", "Grappled"), 0, 0, 0, 0, ENC_EXPIRE_END, "cannot move"},
    {NC_("condition", "Hasted"), 0, 0, 0, 0, ENC_EXPIRE_END, "acts faster"},
    {NC_("condition", "Hidden"), 0, 0, 0, 0, ENC_EXPIRE_END, "unseen by their foes"},
    {NC_("condition", "Incapacitated"), 0, 0, 0, 0, ENC_EXPIRE_END,
     "can take no actions or reactions"},
    {NC_("condition", "Invisible"), 0, 0, 0, 0, ENC_EXPIRE_END, "cannot be seen"},
    {NC_("condition", "Paralyzed"), 0, 0, 0, 0, ENC_EXPIRE_END,
     "cannot move or act; hits from close by are critical"},
    {NC_("condition", "Petrified"), 0, 0, 0, 0, ENC_EXPIRE_END, "turned to stone"},
    {NC_("condition", "Poisoned"), 0, 0, 0, 0, ENC_EXPIRE_END,
     "disadvantage on attacks and checks"},
    {NC_("condition", "Prone"), 0, 0, 0, 0, ENC_EXPIRE_END,
     "on the ground: melee hits them more easily, ranged less"},
    {NC_("condition", "Restrained"), 0, 0, 0, 0, ENC_EXPIRE_END,
     "cannot move; attacks against them are easier"},
    {NC_("condition", "Slowed"), 0, 0, 0, 0, ENC_EXPIRE_END, "acts and moves less"},
    {NC_("condition", "Stunned"), 0, 0, 0, 0, ENC_EXPIRE_END, "cannot act and barely moves"},
    {NC_("condition", "Unconscious"), 0, 0, 0, 0, ENC_EXPIRE_END,
     "out of it: drops what they hold and falls prone"},
};

static const struct rs_opt_spec gen_attack_opts[] = {
    RS_FLAG("adv", "Advantage: two d20s, the higher kept"),
    RS_FLAG("dis", "Disadvantage: two d20s, the lower kept"),
    RS_OPT_END,
};

static const struct rs_stat_spec gen_stats[] = {
    {"ac", RS_STAT, 0, 100, "armour class: what an attack must reach"},
    {"init", RS_STAT, -100, 100, "added to the d20 for initiative"},
    {"attack", RS_STAT, -100, 100, "added to the d20 of an attack"},
    {NC_("generic track", "hp"), RS_TRACK, 0, ENC_MAX_VALUE,
     "hit points; 0 is down"},
    /* GEN_TEMP, written out for the catalogs */
    {NC_("generic track", "temp"), RS_POOL, 0, ENC_MAX_VALUE,
     "temporary hit points: damage takes them first; they do not heal"},
    {NULL, RS_STAT, 0, 0, NULL},
};

static const struct rs_field gen_comb_fields[] = {
    RS_FIELD(struct gen_comb, saves, RS_F_I64, 0),
    RS_FIELD(struct gen_comb, fails, RS_F_I64, 0),
};

static const struct rs_setting_spec gen_settings[] = {
    {GEN_SET_DEATH_SAVES, RS_SET_BOOL, 0, 1, NULL, "off",
     "a downed player character's turn is a death save: d20, 10 or more "
     "succeeds, three of either decide, a natural 20 is back up with 1 hp; "
     "off, they get their turn and only NPCs are skipped"},
    {GEN_SET_REROLL, RS_SET_BOOL, 0, 1, NULL, "off",
     "everyone rolls initiative again at the start of each round after the "
     "first, and the order is sorted anew; off, the first roll holds for "
     "the whole fight"},
    {NULL, RS_SET_INT, 0, 0, NULL, NULL, NULL},
};

static const struct rs_help gen_help = {
    .kind = N_("A plain d20 tracker for any game: everyone rolls d20 + "
               "initiative once, turns go from highest to lowest in the same "
               "order every round (with `reroll=on`, everyone rolls again at "
               "each new round), and hit points and conditions are tracked."),
    .turns = N_("On your turn attack with `/attack`, then end it with "
                "`/combat next`. At 0 hp a combatant is down: an NPC's turns "
                "are skipped until it is healed; a player character still gets "
                "theirs, or, with `death_saves=on`, makes a death save on it "
                "(d20: 10 or more succeeds, three successes and they are "
                "stable, three failures and they die, a natural 20 and they "
                "are back with 1 hp)."),
    .attacks = N_("`/attack` rolls d20 + the attacker's `attack` stat (or the "
                  "`roll:` given) against the target's `ac`; `options:adv` "
                  "rolls two d20s and keeps the higher, `options:dis` the "
                  "lower (both: they cancel). A natural 20 "
                  "always hits and rolls the damage dice twice; a natural 1 "
                  "always misses. Damage comes off temporary hit points "
                  "(`temp`) first, then `hp`."),
    .clock = N_("When `/combat clock` runs out with `auto:true`, the running "
                "turn is skipped: the next in the order acts, as if `/combat "
                "next` had ended it."),
};

static const struct rs_ops gen_ops = {
    .version = RS_OPS_VERSION,
    .setup = gen_setup,               /* hp stat -> hp track */
    .check_stat = gen_check_stat,     /* ac, init bounds */
    .setting = NULL,                  /* death_saves: declared bounds */
    .begin = gen_begin,               /* 1d20 + init, highest first */
    .next = gen_next,                 /* fixed order; downed PCs' turns */
    .pick = NULL,                     /* not alternating */
    .pass = NULL,                     /* not alternating */
    .attack = gen_attack,             /* roll vs ac, damage to hp */
    .late_join = rs_d20_late_join,    /* rolls and slots into the order */
    .after_track = gen_after_track,   /* hp <= 0 is down */
    .status = gen_status,             /* a downed PC's death saves */
    .data_parse = NULL,               /* no data file */
    .data_free = NULL,
    .data_conds = NULL,               /* conditions: gen_conds */
    .cond_changed = NULL,             /* conditions are reminders only */
    .soak = gen_soak,                 /* temp first; a hit while down */
    .timeout = gen_timeout,           /* the turn is skipped */
};

/* Temporary hit points take damage first (the soak), then hit points. */
static const struct rs_harm_spec gen_harm[] = {
    {GEN_TEMP, false}, {"hp", false}, {NULL, false},
};

/* Where events of the order (/combat event) go here. */
static const struct rs_entry_spec gen_entries = {
    .counts = true,
    .low_first = false,
    .lo = -20,
    .hi = 99,
    .unique = false,
    .hazard_roll = "1d20",      /* a hazard rolls as a combatant does */
    .lair_at = 20,              /* the lair action's count, losing ties */
    .why = N_("initiative counts run highest first: an event at a count "
              "comes after everyone on that count (it loses ties, as a lair "
              "action on count 20 does), or at the start or end of the round"),
};

const struct rs_system rs_generic = {
    .version = RS_SYSTEM_VERSION,
    .id = "generic",
    .title = N_("Generic d20"),
    .summary = "d20 + init, highest first; attacks roll against ac; "
               "hp 0 is down",
    .flags = RS_F_OPEN_STATS,
    .ops = &gen_ops,
    .help = &gen_help,
    .cmds = NULL,
    .ncmds = 0,
    .exts = NULL,
    .attack_opts = gen_attack_opts,
    .conds = gen_conds,
    .nconds = (int)(sizeof gen_conds / sizeof gen_conds[0]),
    .settings = gen_settings,
    .stats = gen_stats,
    .comb_state = {sizeof(struct gen_comb), gen_comb_fields,
                   (int)(sizeof gen_comb_fields / sizeof gen_comb_fields[0])},
    .rank = 10,
    .harm = gen_harm,
    .entries = &gen_entries,
};
