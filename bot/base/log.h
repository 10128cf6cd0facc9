/*
 * log.h - one line per event on stderr, readable by people and by journald.
 *
 * When stderr is the journal (systemd sets $JOURNAL_STREAM to the device and
 * inode of the stream it gave us) every line starts with an sd-daemon "<N>"
 * priority prefix and carries no timestamp (journald adds one); otherwise a
 * line reads "2026-08-06T12:00:00Z warn: text".
 *
 * Redaction: a log can hold secrets (the bot token). Every occurrence of a
 * secret in a formatted line is replaced by "[redacted]" before the line is
 * written, and a line cut at LOG_MAX_LINE never ends in a piece of a secret.
 * So no call site can leak the token, even by logging a URL or a payload.
 * CR and LF are written as spaces: one event is one line.
 *
 * Ownership: the caller owns the struct log (usually embedded in a larger
 * struct); log_set_secret() copies the secret, log_cleanup() wipes it.
 * Not thread-safe for log_set_secret(); log_msg() may be called from several
 * threads once secrets are set (each line is one fputs on an unbuffered or
 * line-buffered stream).
 */
#ifndef LOG_H
#define LOG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Bytes of one message, before the prefix: room for an error that names a
 * database path twice (STORE_MAX_ERR; daemon.c checks it) beside a
 * reason, which must never be cut. */
#define LOG_MAX_LINE 10240
#define LOG_MAX_SECRETS 4
#define LOG_MAX_SECRET_LEN 512   /* a Discord bot token is ~72 bytes */
#define LOG_MIN_SECRET_LEN 4     /* shorter "secrets" would redact noise */

/* Levels use syslog's numbers, the ones journald's "<N>" prefix expects. */
enum log_level {
    LOG_LVL_ERR = 3,
    LOG_LVL_WARN = 4,
    LOG_LVL_NOTICE = 5,
    LOG_LVL_INFO = 6,
    LOG_LVL_DEBUG = 7,
};

struct log {
    FILE *out;                   /* borrowed; stderr in production */
    enum log_level max;          /* lines above this level are dropped */
    bool journal;                /* "<N>" prefixes instead of timestamps */
    char secrets[LOG_MAX_SECRETS][LOG_MAX_SECRET_LEN + 1];
    size_t secret_len[LOG_MAX_SECRETS];
    int nsecrets;
};

/* Write to out (borrowed) at most level max. journal mode is detected from
 * $JOURNAL_STREAM against out's file descriptor. */
void log_init(struct log *lg, FILE *out, enum log_level max);

/* Force journal mode on or off (tests, or --log-format). */
void log_set_journal(struct log *lg, bool on);

/* Remember a secret to scrub from every line (copied). Returns false if the
 * secret is too short, too long, or LOG_MAX_SECRETS are already set. */
bool log_set_secret(struct log *lg, const char *secret);

/* Forget the secrets, overwriting their memory. */
void log_cleanup(struct log *lg);

void log_msg(struct log *lg, enum log_level level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void log_vmsg(struct log *lg, enum log_level level, const char *fmt,
              va_list ap) __attribute__((format(printf, 3, 0)));

/* Format a line exactly as log_msg() would write it, without the prefix and
 * newline, into out[cap] (for tests and for error strings that must be
 * redacted too). */
void log_format(const struct log *lg, char *out, size_t cap, const char *fmt,
                ...) __attribute__((format(printf, 4, 5)));

/* "err", "warn", "notice", "info", "debug" <-> level. parse returns false on
 * an unknown name. */
bool log_level_parse(const char *name, enum log_level *out);
const char *log_level_name(enum log_level level);

#endif
