/*
 * cmd_parse.h - turn one typed line into a command request.
 *
 * The console's grammar is what a Discord user types into the message box:
 *
 *   line   -> ws* '/'? WORD (ws+ WORD)? (ws+ option)* ws*
 *   option -> NAME ':' value
 *   value  -> '"' (char | '\"' | '\\' | '\n')* '"'     quoted: may hold spaces
 *           | [^ \t]*                                   bare: up to a space
 *
 * The first WORD is the command, a second bare WORD its subcommand. Names
 * are folded to lower case. After a quoted value comes a space or the end.
 * Then the request goes through cmd_validate() (cmd_validate.h): the command
 * table decides which commands, subcommands and options exist and what their
 * values must look like, exactly as for a Discord interaction.
 *
 * Errors are one line of Discord markdown like cmd_validate()'s, naming the
 * problem and the limit: a line over CMD_MAX_LINE bytes, a NUL byte, invalid
 * UTF-8, more than CMD_MAX_OPTS options, an unterminated quote, an unknown
 * escape, a word where an option was expected.
 *
 * Ownership: the request's strings point into the struct cmd_parsed that
 * holds it, which the caller provides (usually on the stack: about 5 KiB)
 * and must keep while the request is used. The line is borrowed for the
 * call and may be freed afterwards. No allocation, no I/O, no state.
 */
#ifndef CMD_PARSE_H
#define CMD_PARSE_H

#include <stdbool.h>
#include <stddef.h>

#include "cmd.h"

/* Storage for one parsed line. Each token is copied with its quotes and
 * escapes removed and a NUL added; every token but the first consumes a
 * separator byte of the line, an empty value ("x:") is the only token that
 * can need one byte more, so CMD_MAX_LINE + CMD_MAX_OPTS + 2 bytes suffice. */
#define CMD_PARSE_BUF (CMD_MAX_LINE + CMD_MAX_OPTS + 8)

struct cmd_parsed {
    struct cmd_req req;              /* public: the result */
    char buf[CMD_PARSE_BUF];         /* private: the strings req points to */
};

/* Parse line[0..len) (no trailing newline) into p->req. On success only
 * command, sub, opts and nopts are set; every other field of p->req is
 * zero except source (CMD_SRC_CONSOLE) and expect_version (-1), for the
 * caller to fill in. The request has passed cmd_validate().
 * On failure returns false with a message in err (errlen > 0; a buffer of
 * CMD_VALIDATE_ERR_MAX bytes holds any message) and *p is unspecified. */
bool cmd_parse_line(struct cmd_parsed *p, const char *line, size_t len,
                    char *err, size_t errlen);

/* The same, with the parser's own messages in lang (the console's
 * --lang), which p->req.lang then carries for the command's replies. The
 * checks of cmd_validate() still answer in English. */
bool cmd_parse_line_in(struct cmd_parsed *p, const char *line, size_t len,
                       enum i18n_lang lang, char *err, size_t errlen);

#endif
