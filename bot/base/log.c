/*
 * log.c - stderr logging with journald prefixes and secret redaction.
 */
#include "log.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "sbuf.h"

#define LOG_REDACTED "[redacted]"
/* Room to format: a secret that starts inside the first LOG_MAX_LINE bytes
 * always ends inside this buffer, so it is found and replaced whole. */
#define LOG_FMT_CAP (LOG_MAX_LINE + LOG_MAX_SECRET_LEN + 1)

static const char *const level_names[] = {
    [LOG_LVL_ERR] = "err",     [LOG_LVL_WARN] = "warn",
    [LOG_LVL_NOTICE] = "notice", [LOG_LVL_INFO] = "info",
    [LOG_LVL_DEBUG] = "debug",
};

static bool stream_is_journal(FILE *out)
{
    const char *js = getenv("JOURNAL_STREAM");
    unsigned long long dev, ino;
    struct stat st;
    char *end;

    if (!js || !out)
        return false;
    dev = strtoull(js, &end, 10);
    if (end == js || *end != ':')
        return false;
    js = end + 1;
    ino = strtoull(js, &end, 10);
    if (end == js || *end != '\0')
        return false;
    if (fstat(fileno(out), &st) != 0)
        return false;
    return (unsigned long long)st.st_dev == dev &&
           (unsigned long long)st.st_ino == ino;
}

void log_init(struct log *lg, FILE *out, enum log_level max)
{
    memset(lg, 0, sizeof *lg);
    lg->out = out;
    lg->max = max;
    lg->journal = stream_is_journal(out);
}

void log_set_journal(struct log *lg, bool on)
{
    lg->journal = on;
}

bool log_set_secret(struct log *lg, const char *secret)
{
    size_t n = secret ? strlen(secret) : 0;

    if (n < LOG_MIN_SECRET_LEN || n > LOG_MAX_SECRET_LEN ||
        lg->nsecrets >= LOG_MAX_SECRETS)
        return false;
    memcpy(lg->secrets[lg->nsecrets], secret, n + 1);
    lg->secret_len[lg->nsecrets] = n;
    lg->nsecrets++;
    return true;
}

void log_cleanup(struct log *lg)
{
    /* volatile so the wipe is not optimised away */
    volatile char *p = (volatile char *)lg->secrets;
    for (size_t i = 0; i < sizeof lg->secrets; i++)
        p[i] = 0;
    memset(lg->secret_len, 0, sizeof lg->secret_len);
    lg->nsecrets = 0;
}

/* Which secret (if any) starts at s[0..n)? Returns its length or 0. */
static size_t secret_at(const struct log *lg, const char *s, size_t n)
{
    for (int i = 0; i < lg->nsecrets; i++) {
        size_t len = lg->secret_len[i];
        if (len <= n && memcmp(s, lg->secrets[i], len) == 0)
            return len;
    }
    return 0;
}

/* True when s[0..n) (n < a secret's length) is a prefix of some secret:
 * the cut end of a line must not show the start of the token. */
static bool secret_prefix(const struct log *lg, const char *s, size_t n)
{
    for (int i = 0; i < lg->nsecrets; i++)
        if (n < lg->secret_len[i] && memcmp(s, lg->secrets[i], n) == 0)
            return true;
    return false;
}

static void format_line(const struct log *lg, char *out, size_t cap,
                        const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));

static void format_line(const struct log *lg, char *out, size_t cap,
                        const char *fmt, va_list ap)
{
    char raw[LOG_FMT_CAP];
    struct sbuf sb;
    size_t n, limit, i;
    int w;

    if (cap == 0)
        return;
    w = vsnprintf(raw, sizeof raw, fmt, ap);
    n = w < 0 ? 0 : (size_t)w;
    if (n >= sizeof raw)
        n = sizeof raw - 1;
    limit = cap - 1 < LOG_MAX_LINE ? cap - 1 : LOG_MAX_LINE;

    sbuf_init(&sb, limit);
    for (i = 0; i < n && sb.len < limit;) {
        size_t slen = secret_at(lg, raw + i, n - i);
        if (slen) {
            sbuf_add(&sb, LOG_REDACTED);
            i += slen;
            continue;
        }
        /* near the cut, a partial secret is scrubbed too */
        if (n - i < LOG_MAX_SECRET_LEN && n == sizeof raw - 1 &&
            secret_prefix(lg, raw + i, n - i) && n - i >= LOG_MIN_SECRET_LEN) {
            sbuf_add(&sb, LOG_REDACTED);
            break;
        }
        sbuf_addc(&sb, raw[i] == '\n' || raw[i] == '\r' ? ' ' : raw[i]);
        i++;
    }
    /* the cut at `limit` may end inside a secret whose start we kept */
    if (sb.len == limit) {
        size_t keep = sb.len;
        for (size_t k = sb.len > LOG_MAX_SECRET_LEN ? sb.len - LOG_MAX_SECRET_LEN
                                                    : 0;
             k < sb.len; k++)
            if (sb.len - k >= LOG_MIN_SECRET_LEN &&
                secret_prefix(lg, sb.buf + k, sb.len - k)) {
                keep = k;
                break;
            }
        sb.len = sbuf_utf8_cut(sb.buf, keep);
        if (sb.buf)
            sb.buf[sb.len] = '\0';
    }
    snprintf(out, cap, "%s", sbuf_str(&sb));
    sbuf_cleanup(&sb);
}

void log_format(const struct log *lg, char *out, size_t cap, const char *fmt,
                ...)
{
    va_list ap;
    va_start(ap, fmt);
    format_line(lg, out, cap, fmt, ap);
    va_end(ap);
}

void log_vmsg(struct log *lg, enum log_level level, const char *fmt,
              va_list ap)
{
    char line[LOG_MAX_LINE + 1];
    char prefix[64];

    if (!lg || !lg->out || level > lg->max)
        return;
    format_line(lg, line, sizeof line, fmt, ap);
    if (lg->journal) {
        snprintf(prefix, sizeof prefix, "<%d>", (int)level);
    } else {
        struct tm tm;
        time_t now = time(NULL);
        char ts[32];
        gmtime_r(&now, &tm);
        strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", &tm);
        snprintf(prefix, sizeof prefix, "%s %s: ", ts,
                 log_level_name(level));
    }
    /* one write per line so threads do not interleave inside a line */
    {
        char full[sizeof prefix + sizeof line + 2];
        int n = snprintf(full, sizeof full, "%s%s\n", prefix, line);
        if (n > 0)
            fwrite(full, 1, strlen(full), lg->out);
        fflush(lg->out);
    }
}

void log_msg(struct log *lg, enum log_level level, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    log_vmsg(lg, level, fmt, ap);
    va_end(ap);
}

bool log_level_parse(const char *name, enum log_level *out)
{
    for (int i = LOG_LVL_ERR; i <= LOG_LVL_DEBUG; i++)
        if (name && strcmp(name, level_names[i]) == 0) {
            *out = (enum log_level)i;
            return true;
        }
    return false;
}

const char *log_level_name(enum log_level level)
{
    if (level < LOG_LVL_ERR || level > LOG_LVL_DEBUG)
        return "?";
    return level_names[level];
}
