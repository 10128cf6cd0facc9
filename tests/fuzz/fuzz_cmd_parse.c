/*
 * fuzz_cmd_parse.c - the console's command line: cmd_parse_line(), which
 * ends in cmd_validate(), and the helpers that quote user input back.
 *
 * Input: one typed line without its newline ("/combat add name:Orc hp:7"),
 * not terminated; the console hands over exactly such a buffer.
 *
 * Properties checked (cmd_parse.h, cmd_validate.h):
 *  - on failure the error is a non-empty terminated line of at most
 *    CMD_VALIDATE_ERR_MAX bytes with no CR or LF;
 *  - on success the request has a command, at most CMD_MAX_OPTS options,
 *    each with a name and a value, and passes cmd_validate() again;
 *  - cmd_validate_echo() always terminates within the buffer, and the
 *    echo is valid UTF-8 even when the input is not.
 * The "did you mean" search (cmd_validate_closest()) runs inside the
 * parser whenever a command, subcommand or option name is unknown.
 */
#include <string.h>

#include "cmd.h"
#include "cmd_parse.h"
#include "cmd_table.h"
#include "cmd_validate.h"
#include "fuzz.h"

static void check_error(const char *err, size_t cap)
{
    size_t n;

    FUZZ_CHECK(fuzz_terminated(err, cap));
    n = strlen(err);
    FUZZ_CHECK(n > 0);
    FUZZ_CHECK(memchr(err, '\n', n) == NULL && memchr(err, '\r', n) == NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct cmd_parsed p;
    char err[CMD_VALIDATE_ERR_MAX], echo[CMD_VALIDATE_MAX_ECHO * 2 + 8];
    const char *line = (const char *)data;

    memset(err, 0x55, sizeof err);
    if (!cmd_parse_line(&p, line, size, err, sizeof err)) {
        check_error(err, sizeof err);
    } else {
        const struct cmd_req *r = &p.req;
        FUZZ_CHECK(r->command != NULL && r->command[0] != '\0');
        FUZZ_CHECK(r->nopts >= 0 && r->nopts <= CMD_MAX_OPTS);
        for (int i = 0; i < r->nopts; i++)
            FUZZ_CHECK(r->opts[i].name != NULL && r->opts[i].value != NULL);
        struct cmd_spec spec;
        FUZZ_CHECK(cmd_validate(r, &spec, err, sizeof err));
    }

    memset(echo, 0x55, sizeof echo);
    cmd_validate_echo(echo, sizeof echo, line, size);
    FUZZ_CHECK(fuzz_terminated(echo, sizeof echo));
    FUZZ_CHECK(cmd_validate_utf8(echo, strlen(echo)));
    (void)cmd_validate_utf8(line, size);
    return 0;
}
