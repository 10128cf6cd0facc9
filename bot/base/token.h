/*
 * token.h - where the Discord bot token comes from.
 *
 * Only two places, never the config file: the systemd credential
 * $CREDENTIALS_DIRECTORY/discord-token (LoadCredential=), then the
 * environment variable DISCORD_TOKEN. Surrounding whitespace is trimmed; a
 * token with inner whitespace or control characters is refused. Error
 * messages never contain the token.
 *
 * Ownership: the token is copied into the caller's buffer; wipe it with
 * token_wipe() when done.
 */
#ifndef TOKEN_H
#define TOKEN_H

#include <stddef.h>

#include "bot_err.h"

#define TOKEN_MAX_LEN 256            /* real tokens are ~72 bytes */
#define TOKEN_CREDENTIAL_NAME "discord-token"
#define TOKEN_ENV "DISCORD_TOKEN"

enum token_source { TOKEN_SRC_NONE = 0, TOKEN_SRC_CREDENTIAL, TOKEN_SRC_ENV };

/* Load the token into out[cap] (cap > TOKEN_MAX_LEN). BOT_OK with *src set;
 * BOT_NOTFOUND when neither place has one; BOT_INVALID (err says why,
 * without the token) when one is there but unusable; BOT_IO when the
 * credential file exists but cannot be read. */
enum bot_err token_load(char *out, size_t cap, enum token_source *src,
                        char *err, size_t errlen);

/* Load and check the token file at path (what systemd hands over as the
 * credential; `fray check` reads the service's file directly). BOT_OK,
 * BOT_NOTFOUND when there is no such file, BOT_INVALID or BOT_IO with err
 * (never the token). */
enum bot_err token_load_file(const char *path, char *out, size_t cap,
                             char *err, size_t errlen);

/* Trim and check a candidate token in place. Returns BOT_OK or BOT_INVALID
 * with a reason in err. */
enum bot_err token_clean(char *tok, char *err, size_t errlen);

/* Remove DISCORD_TOKEN from this process's environment once the token has
 * been copied: its bytes are overwritten in place, then the variable is
 * unset. unsetenv alone only unlinks it from environ; the string stays in
 * the initial environment block that /proc/<pid>/environ shows and that a
 * core dump holds. Child processes no longer inherit it either. */
void token_env_clear(void);

/* Overwrite a token buffer with zeros. */
void token_wipe(char *tok, size_t cap);

const char *token_source_name(enum token_source src);

#endif
