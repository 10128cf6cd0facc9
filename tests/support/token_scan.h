/*
 * token_scan.h - the suite's bot token and the check that no file the
 * tests leave behind contains it (token hygiene, docs/internals/daemon.md).
 *
 * Every ctest run makes one random token (token_setup writes it to
 * <build>/test-artifacts/token); the integration harness hands it to
 * fake-discord and fray, and token_check scans every file under
 * test-artifacts/ and ctest's LastTest.log for it. A leak is reported by
 * file name only: the token itself is never printed.
 *
 * What counts as a leak: the first TSCAN_NEEDLE_LEN bytes of the token
 * anywhere in a file, so a token cut short in a log line is caught too.
 * The token is random from its first byte, so those bytes occur nowhere
 * else by chance.
 *
 * Ownership: string arguments are borrowed; results go into caller
 * buffers. No globals: the recursive walk passes its state down.
 */
#ifndef TOKEN_SCAN_H
#define TOKEN_SCAN_H

#include <stddef.h>
#include <stdio.h>

#define TSCAN_TOKEN_CAP 96       /* buffer for a token, NUL included */
#define TSCAN_NEEDLE_LEN 16      /* token prefix that counts as a leak */
#define TSCAN_MAX_DEPTH 16       /* directory levels walked */

/* A new random token (from /dev/urandom) shaped like Discord's: three
 * dot-separated base64url parts. 0, or -1 when no randomness is readable. */
int tscan_token_new(char out[TSCAN_TOKEN_CAP]);

/* Write tok to path (mode 0600, through a temporary file and rename, so a
 * reader never sees half of it); creates path's parent directory if needed.
 * 0 or -1. */
int tscan_token_save(const char *path, const char *tok);

/* Read the token saved at path. 0, or -1 when absent or not a token. */
int tscan_token_load(const char *path, char out[TSCAN_TOKEN_CAP]);

/* Does the file at path hold the first TSCAN_NEEDLE_LEN bytes of tok?
 * 1 yes, 0 no, -1 when it cannot be read. */
int tscan_file(const char *path, const char *tok);

/* Scan path (a file, or a directory tree; symlinks are not followed),
 * except the file skip (may be NULL). Each file holding the token, and
 * each that cannot be read, is named on report (may be NULL). Returns how
 * many files hold it, or -1 when path cannot be scanned at all; *unreadable
 * (may be NULL) gets how many files could not be read. */
long tscan_path(const char *path, const char *tok, const char *skip,
                FILE *report, long *unreadable);

#endif
