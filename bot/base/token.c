/*
 * token.c - load the bot token from a systemd credential or the environment.
 */
#include "token.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
           c == '\f';
}

enum bot_err token_clean(char *tok, char *err, size_t errlen)
{
    size_t n = strlen(tok), start = 0;

    while (n > 0 && is_space(tok[n - 1]))
        n--;
    while (start < n && is_space(tok[start]))
        start++;
    memmove(tok, tok + start, n - start);
    n -= start;
    tok[n] = '\0';
    if (n == 0) {
        snprintf(err, errlen, "the token is empty");
        return BOT_INVALID;
    }
    if (n > TOKEN_MAX_LEN) {
        snprintf(err, errlen, "the token is too long (limit is %d bytes)",
                 TOKEN_MAX_LEN);
        return BOT_INVALID;
    }
    if (strncmp(tok, "Bot ", 4) == 0) {
        snprintf(err, errlen,
                 "the token starts with \"Bot \": store the token alone");
        return BOT_INVALID;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)tok[i];
        if (c <= 0x20 || c >= 0x7f) {
            snprintf(err, errlen,
                     "the token contains a space or control character at "
                     "byte %zu",
                     i);
            return BOT_INVALID;
        }
    }
    return BOT_OK;
}

void token_wipe(char *tok, size_t cap)
{
    volatile char *p = tok;
    for (size_t i = 0; i < cap; i++)
        p[i] = 0;
}

void token_env_clear(void)
{
    /* Every copy of the variable (an environment may hold it twice), the
     * one getenv finds and any after it: unsetenv removes them all. */
    size_t nlen = strlen(TOKEN_ENV);
    for (char **e = environ; e && *e; e++) {
        if (strncmp(*e, TOKEN_ENV, nlen) != 0 || (*e)[nlen] != '=')
            continue;
        /* volatile: the compiler must not drop stores to memory that
         * nothing reads afterwards */
        volatile char *p = *e + nlen + 1;
        for (size_t i = 0; p[i]; i++)
            p[i] = '\0';
    }
    unsetenv(TOKEN_ENV);
}

static enum bot_err load_file(const char *path, char *out, size_t cap,
                              char *err, size_t errlen)
{
    FILE *f = fopen(path, "re");
    size_t n;

    if (!f) {
        if (errno == ENOENT)
            return BOT_NOTFOUND;
        snprintf(err, errlen, "cannot read credential %s: %s", path,
                 strerror(errno));
        return BOT_IO;
    }
    n = fread(out, 1, cap - 1, f);
    if (ferror(f)) {
        fclose(f);
        snprintf(err, errlen, "cannot read credential %s", path);
        return BOT_IO;
    }
    if (n == cap - 1 && fgetc(f) != EOF) {
        fclose(f);
        snprintf(err, errlen, "credential %s is too long (limit is %d bytes)",
                 path, TOKEN_MAX_LEN);
        return BOT_INVALID;
    }
    fclose(f);
    out[n] = '\0';
    if (memchr(out, '\0', n)) {
        snprintf(err, errlen, "credential %s contains a NUL byte", path);
        return BOT_INVALID;
    }
    return BOT_OK;
}

enum bot_err token_load_file(const char *path, char *out, size_t cap,
                             char *err, size_t errlen)
{
    char why[160];
    enum bot_err e = load_file(path, out, cap, err, errlen);
    if (e == BOT_OK) {
        e = token_clean(out, why, sizeof why);
        if (e == BOT_OK)
            return BOT_OK;
        snprintf(err, errlen, "credential %s: %s", path, why);
    }
    token_wipe(out, cap);
    return e;
}

enum bot_err token_load(char *out, size_t cap, enum token_source *src,
                        char *err, size_t errlen)
{
    const char *dir = getenv("CREDENTIALS_DIRECTORY");
    const char *env = getenv(TOKEN_ENV);
    char why[160];
    enum bot_err e;

    *src = TOKEN_SRC_NONE;
    if (cap <= TOKEN_MAX_LEN + 2) {
        snprintf(err, errlen, "token buffer too small");
        return BOT_INVALID;
    }
    if (dir && *dir) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, TOKEN_CREDENTIAL_NAME);
        e = token_load_file(path, out, cap, err, errlen);
        if (e == BOT_OK)
            *src = TOKEN_SRC_CREDENTIAL;
        if (e != BOT_NOTFOUND)
            return e;
    }
    if (env && *env) {
        if (strlen(env) >= cap - 1) {
            snprintf(err, errlen, "%s is too long (limit is %d bytes)",
                     TOKEN_ENV, TOKEN_MAX_LEN);
            return BOT_INVALID;
        }
        snprintf(out, cap, "%s", env);
        e = token_clean(out, why, sizeof why);
        if (e != BOT_OK) {
            token_wipe(out, cap);
            snprintf(err, errlen, "%s: %s", TOKEN_ENV, why);
            return e;
        }
        *src = TOKEN_SRC_ENV;
        return BOT_OK;
    }
    snprintf(err, errlen, "no token: set %s or the systemd credential %s",
             TOKEN_ENV, TOKEN_CREDENTIAL_NAME);
    return BOT_NOTFOUND;
}

const char *token_source_name(enum token_source src)
{
    switch (src) {
    case TOKEN_SRC_CREDENTIAL: return "systemd credential";
    case TOKEN_SRC_ENV: return "environment";
    case TOKEN_SRC_NONE: break;
    }
    return "none";
}
