/*
 * rs_resolve_cmds.h - what the `resolve` declaration (rs_resolve_decl.c)
 * wires in besides the turn loop and Resolve: the command handlers, the
 * attack, and the character sheet's operations. Each is defined in the
 * file named beside it; the layers are listed in rs_resolve.h.
 *
 * Ownership: arguments are borrowed for the call.
 */
#ifndef RS_RESOLVE_CMDS_H
#define RS_RESOLVE_CMDS_H

#include "rs_resolve.h"

/* rs_resolve_fight.c: /attack (the attack operation) and /check. */
enum eng_err rsv_attack(struct rs_call *c, const struct rs_attack *a);
enum eng_err rsv_cmd_check(struct rs_call *c);

/* rs_resolve_act.c: the turn's own commands and the GM's. */
enum eng_err rsv_cmd_delay(struct rs_call *c);
enum eng_err rsv_cmd_move(struct rs_call *c);
enum eng_err rsv_cmd_act(struct rs_call *c);
enum eng_err rsv_cmd_momentum(struct rs_call *c);
enum eng_err rsv_cmd_defend(struct rs_call *c);
enum eng_err rsv_cmd_aim(struct rs_call *c);
enum eng_err rsv_cmd_assist(struct rs_call *c);
enum eng_err rsv_cmd_rally(struct rs_call *c);
enum eng_err rsv_cmd_hold(struct rs_call *c);
enum eng_err rsv_cmd_trigger(struct rs_call *c);
enum eng_err rsv_cmd_escape(struct rs_call *c);
enum eng_err rsv_cmd_damage(struct rs_call *c);
enum eng_err rsv_cmd_rest(struct rs_call *c);

/* rs_resolve_fate.c: /fate. */
enum eng_err rsv_cmd_fate(struct rs_call *c);

/* rs_resolve_sheet.c: the setup, check_stat and status operations. */
enum eng_err rsv_setup(struct rs_call *c, struct enc_combatant *who);
enum eng_err rsv_check_stat(struct rs_call *c, struct enc_combatant *who,
                            const char *name, int64_t value);
void rsv_status(const struct encounter *e, const struct enc_combatant *who,
                struct eng_buf *out, enc_tr_fn tr,
                const void *tr_ctx);

/* The choices of /act kind:, /hold action: and /fate fate:, in the order
 * the handlers index them. */
extern const char *const rsv_act_kinds[];
extern const char *const rsv_hold_kinds[];
extern const char *const rsv_fates[];

#endif
