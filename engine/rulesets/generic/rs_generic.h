/*
 * rs_generic.h - what the generic ruleset's files share (private to
 * engine/rulesets/generic).
 */
#ifndef RS_GENERIC_H
#define RS_GENERIC_H

#include "rs.h"
#include "turn.h"

extern const struct rs_system rs_generic;

/* The death_saves setting's key, and the temporary hit points' track. */
#define GEN_SET_DEATH_SAVES "death_saves"
/* The reroll setting's key: initiative rolled again each new round. */
#define GEN_SET_REROLL "reroll"
#define GEN_TEMP "temp"

/* Each combatant's death saves since it last went down. */
struct gen_comb {
    int64_t saves;
    int64_t fails;
};

/* A downed combatant's slot comes up: a player character's death save (or
 * their turn, with the setting off); an NPC is skipped. */
enum turn_down gen_down_turn(struct rs_call *c, struct enc_combatant *who);

/* ops: hp <= 0 is down; back above 0 clears the death saves (and death). */
void gen_after_track(struct rs_call *c, struct enc_combatant *who,
                     const char *track, int64_t before);
/* ops: temporary hit points take damage first; damage while down is a
 * death save failure. */
int64_t gen_soak(struct rs_call *c, struct enc_combatant *who,
                 const char *track, int64_t amount);
/* ops: a downed player character's death saves, on the tracker. */
void gen_status(const struct encounter *e, const struct enc_combatant *who,
                struct eng_buf *out, enc_tr_fn tr,
                const void *tr_ctx);

/* rs_generic.c: the ops that rs_generic_decl.c lists in gen_ops. */
enum eng_err gen_setup(struct rs_call *c, struct enc_combatant *who);
enum eng_err gen_check_stat(struct rs_call *c,
                            struct enc_combatant *who,
                            const char *name, int64_t value);
enum eng_err gen_begin(struct rs_call *c);
enum eng_err gen_next(struct rs_call *c);
enum eng_err gen_attack(struct rs_call *c, const struct rs_attack *a);
enum eng_err gen_timeout(struct rs_call *c);

#endif
