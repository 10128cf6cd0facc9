/*
 * cmd_validate.h - check a command request against the command table.
 *
 * Both front ends build a struct cmd_req (the console by parsing a typed
 * line, cmd_parse.c; Discord by decoding an interaction) and pass it through
 * cmd_validate() before cmd_exec(), so the same inputs are refused with the
 * same words on both. It checks what the table knows: the command and
 * subcommand exist, every option is known and given once, required options
 * are present, and each value has its type and bounds (integers within
 * [min, max], booleans "true"/"false", strings within their length, valid
 * UTF-8 without control characters). What needs the encounter (does that
 * combatant exist, may this user do that) is cmd_exec()'s job.
 *
 * Error texts are one line, lowercase, no trailing period, and are Discord
 * markdown like every other text in a msg (msg.h): anything that came from
 * the user is shown inside a `code span`, cut to CMD_VALIDATE_MAX_ECHO
 * bytes, with backticks, control characters and invalid UTF-8 replaced, so
 * it can neither break the markup nor run on for pages. When a name is
 * unknown the closest valid one is suggested ("did you mean `name`?").
 *
 * Ownership: arguments are borrowed for the call; nothing is kept. Every
 * function is pure (no I/O, no state) and thread-safe.
 */
#ifndef CMD_VALIDATE_H
#define CMD_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>

struct cmd_req;
struct cmd_spec;

/* Bytes of a user's input quoted back in an error before it is cut with
 * "...". Keeps an error to one readable line whatever was typed. */
#define CMD_VALIDATE_MAX_ECHO 40

/* Longest word compared for a "did you mean" suggestion, in bytes; longer
 * words get no suggestion (bounds the edit-distance table). */
#define CMD_VALIDATE_MAX_SUGGEST 64

/* Size of an error buffer that holds any message these functions write,
 * in any language: the longest (a list of CMD_VALIDATE_MAX_LIST bytes, an
 * echo, a command's example) takes about 400 bytes in English and under
 * 700 in the pseudo-language, whose accented letters take two bytes. */
#define CMD_VALIDATE_ERR_MAX 1024

/* Check req against the commands (cmd_table.h). On success *spec is the
 * command's view and true is returned; on failure false with a message in
 * err (when errlen > 0). Only command, sub and opts/nopts of req are looked
 * at. An option is accepted here when some fight could take it (a system's
 * option on a core command, or a verb's option in any system that has the
 * verb); the command layer then checks it against the fight's system. */
bool cmd_validate(const struct cmd_req *req, struct cmd_spec *spec,
                  char *err, size_t errlen);

/* The first half of cmd_validate(): only the command and subcommand. A
 * parser calls it as soon as it has read them, so a mistyped command is
 * reported as such rather than as a syntax error further on. */
bool cmd_validate_command(const struct cmd_req *req, struct cmd_spec *spec,
                          char *err, size_t errlen);

/* The candidate closest to word (case-insensitive edit distance, or word is
 * a prefix of it), or NULL when none is close enough to be a useful
 * suggestion. cands[i] may be NULL (skipped). */
const char *cmd_validate_closest(const char *word, const char *const *cands,
                                 size_t n);

/* True when s[0..n) is valid UTF-8 (no overlong forms, surrogates or code
 * points past U+10FFFF). */
bool cmd_validate_utf8(const char *s, size_t n);

/* Write s[0..n) to dst (dstlen > 0, always NUL-terminated) as it should
 * appear inside a code span of an error: at most CMD_VALIDATE_MAX_ECHO
 * bytes then "...", with '`' shown as '\'', control characters as '?' and
 * bytes that are not valid UTF-8 as '?'. Returns dst. */
char *cmd_validate_echo(char *dst, size_t dstlen, const char *s, size_t n);

#endif
