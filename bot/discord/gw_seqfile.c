/*
 * gw_seqfile.c - the gateway's resume point beside the database
 * (gw_seqfile.h).
 */
#include "gw_seqfile.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static bool word_ok(const char *s)
{
    return s[0] != '\0' && strpbrk(s, " \n\r\t") == NULL;
}

bool gw_seqfile_format(char out[GW_SEQFILE_LEN], const char *key,
                       const char *session, int64_t seq)
{
    if (!word_ok(key) || !word_ok(session) || seq < 0)
        return false;
    int n = snprintf(out, GW_SEQFILE_LEN, GW_SEQFILE_MAGIC " %s %s %" PRId64,
                     key, session, seq);
    if (n < 0 || n >= GW_SEQFILE_LEN)
        return false;
    /* fixed size: a shorter record never leaves the tail of a longer one */
    memset(out + n, ' ', (size_t)(GW_SEQFILE_LEN - n - 1));
    out[GW_SEQFILE_LEN - 1] = '\n';
    return true;
}

bool gw_seqfile_parse(const char *buf, size_t len, const char *key,
                      const char *session, int64_t *seq)
{
    char want[GW_SEQFILE_LEN];
    if (len != GW_SEQFILE_LEN || buf[len - 1] != '\n' ||
        memchr(buf, '\0', len) != NULL)
        return false;
    int n = snprintf(want, sizeof want, GW_SEQFILE_MAGIC " %s %s ", key,
                     session);
    if (n < 0 || n >= GW_SEQFILE_LEN || memcmp(buf, want, (size_t)n) != 0)
        return false;
    int64_t v = 0;
    size_t i = (size_t)n, digits = 0;
    for (; i < len && buf[i] >= '0' && buf[i] <= '9'; i++, digits++) {
        int d = buf[i] - '0';
        if (v > (INT64_MAX - d) / 10)
            return false;
        v = v * 10 + d;
    }
    if (digits == 0)
        return false;
    for (; i < len - 1; i++)            /* then the padding alone */
        if (buf[i] != ' ')
            return false;
    *seq = v;
    return true;
}

bool gw_seqfile_write(const char *path, int *fd, const char *key,
                      const char *session, int64_t seq)
{
    char rec[GW_SEQFILE_LEN];
    if (!gw_seqfile_format(rec, key, session, seq)) {
        errno = EINVAL;
        return false;
    }
    if (*fd < 0)
        *fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    if (*fd < 0)
        return false;
    ssize_t w = pwrite(*fd, rec, sizeof rec, 0);
    if (w == (ssize_t)sizeof rec)
        return true;
    if (w >= 0)
        errno = ENOSPC;
    return false;
}

bool gw_seqfile_read(const char *path, const char *key, const char *session,
                     int64_t *seq)
{
    char buf[GW_SEQFILE_LEN + 1];
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    ssize_t n = pread(fd, buf, sizeof buf, 0);
    close(fd);
    return n > 0 && gw_seqfile_parse(buf, (size_t)n, key, session, seq);
}
