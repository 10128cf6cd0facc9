/*
 * cmd_form.h - forms (Discord modals) instead of option strings.
 *
 * A form command (/character create, /npc create, /combat add, /combat
 * join, /macro save, /character import, /npc import) sent with no options
 * at all, from a front end that shows forms (req.forms: Discord), answers
 * with a form (reply.form, form.h) instead of running: its fields come
 * from the command's own options (cmd_table.c) and, for stats, from the
 * ruleset's declared stats with their ranges. `system:` alone opens the
 * form of that system (a server that plays several). Any other partial
 * command runs as typed and is refused naming what is missing.
 *
 * The form's custom_id is the command layer's codec (custom_id.h):
 *
 *     v2:<command>/<sub>:<fight>.<CMD_FORM_VERSION>:form[=<system>]
 *
 * fight is the fight a /combat form was opened on (else 0), so a form
 * left open across fights is refused. A submitted form (discord/
 * interaction.c decodes it into the same options the typed command takes,
 * with req.form_version) runs through cmd_exec() like the typed command:
 * the same validation, limits and permissions; a refusal names the
 * option, which is the field's name.
 *
 * Nothing is read but the server's systems, the channel's fight and the
 * sender's own saved characters (or the server's templates, for the GM);
 * nothing is stored when a form opens. Hidden combatants never appear in
 * a form.
 *
 * Ownership: arguments borrowed; reply->form is the reply's (heap).
 */
#ifndef CMD_FORM_H
#define CMD_FORM_H

#include <stdbool.h>
#include <stdint.h>

#include "cmd.h"
#include "form.h"
#include "rs.h"

/* The version of the forms' custom_ids: a change to a form's fields that
 * an old open form would submit wrongly increments it. */
#define CMD_FORM_VERSION 1
#define CMD_FORM_ARG "form"          /* the custom_id's argument name */
/* Saved characters or templates a form's select offers: Discord's 25. */
#define CMD_FORM_CHOICES_MAX FORM_OPTIONS_MAX

/* What a form is built from, besides the command. */
struct cmd_form_in {
    const struct rs_system *rs;      /* whose stats it names, or NULL */
    uint64_t fight;                  /* the fight (combat forms), or 0 */
    bool in_guild;                   /* a server (server-wide options) */
    const char *choices[CMD_FORM_CHOICES_MAX]; /* saved characters or
                                                  templates for the select */
    int nchoices;
    enum i18n_lang lang;             /* the reader's: the form's words, its
                                        labels the option names Discord
                                        shows them */
};

/* Whether command/sub has a form. */
bool cmd_form_command(const char *command, const char *sub);

/* Whether req asks for a form: a form command with no options (or only
 * system:) from a front end that shows forms. */
bool cmd_form_wanted(const struct cmd_req *req);

/* Build command/sub's form from in into *out. Pure: for tests and the
 * console. Returns false when the command has no form. */
bool cmd_form_build(const char *command, const char *sub,
                    const struct cmd_form_in *in, struct form *out);

/* cmd_exec()'s first step: a form opens (reply->form, or a refusal when
 * it cannot: no fight, not the GM...), or a submitted form whose
 * custom_id is stale or not ours is refused. Returns true when *reply is
 * the answer; false: run the command as usual. */
bool cmd_form_exec(struct cmd_ctx *ctx, const struct cmd_req *req,
                   struct cmd_reply *reply);

#endif
