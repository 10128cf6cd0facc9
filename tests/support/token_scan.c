/*
 * token_scan.c - the suite token and the leak scan (token_scan.h).
 */
#include "token_scan.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TSCAN_CHUNK (64 * 1024)  /* bytes read at a time */

static const char b64url[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

int tscan_token_new(char out[TSCAN_TOKEN_CAP])
{
    /* 26 + 6 + 38 characters with two dots: the length of a real token */
    static const size_t parts[] = {26, 6, 38};
    unsigned char rnd[26 + 6 + 38];
    size_t got = 0, k = 0;
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

    if (fd < 0)
        return -1;
    while (got < sizeof rnd) {
        ssize_t n = read(fd, rnd + got, sizeof rnd - got);
        if (n <= 0 && errno != EINTR) {
            close(fd);
            return -1;
        }
        if (n > 0)
            got += (size_t)n;
    }
    close(fd);
    /* The first part encodes the bot's id, a snowflake in 19 decimal
     * digits, as a real token's does (fray check reads it back). */
    char id[19];
    for (size_t i = 0; i < sizeof id; i++)
        id[i] = (char)('0' + (i == 0 ? 1 + rnd[i] % 9 : rnd[i] % 10));
    for (size_t i = 0; i < sizeof id; i += 3) {
        unsigned v = (unsigned)(unsigned char)id[i] << 16;
        size_t left = sizeof id - i;
        if (left > 1)
            v |= (unsigned)(unsigned char)id[i + 1] << 8;
        if (left > 2)
            v |= (unsigned char)id[i + 2];
        for (size_t j = 0; j < (left >= 3 ? 4 : left + 1); j++)
            out[k++] = b64url[(v >> (18 - 6 * j)) & 63];
    }
    for (size_t p = 1, r = parts[0]; p < sizeof parts / sizeof parts[0]; p++) {
        out[k++] = '.';
        for (size_t i = 0; i < parts[p]; i++)
            out[k++] = b64url[rnd[r++] & 63];
    }
    out[k] = '\0';
    return 0;
}

static int mkdir_parent(const char *path)
{
    char dir[PATH_MAX];
    char *slash;

    if (snprintf(dir, sizeof dir, "%s", path) >= (int)sizeof dir)
        return -1;
    slash = strrchr(dir, '/');
    if (slash == NULL || slash == dir)
        return 0;
    *slash = '\0';
    if (mkdir(dir, 0700) == 0 || errno == EEXIST)
        return 0;
    if (errno != ENOENT || mkdir_parent(dir) != 0)
        return -1;
    return mkdir(dir, 0700) == 0 || errno == EEXIST ? 0 : -1;
}

int tscan_token_save(const char *path, const char *tok)
{
    char tmp[PATH_MAX];
    size_t len = strlen(tok);
    int fd;

    if (mkdir_parent(path) != 0 ||
        snprintf(tmp, sizeof tmp, "%s.%ld", path, (long)getpid()) >=
            (int)sizeof tmp)
        return -1;
    fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    if (write(fd, tok, len) != (ssize_t)len || close(fd) != 0 ||
        rename(tmp, path) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

int tscan_token_load(const char *path, char out[TSCAN_TOKEN_CAP])
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n;

    if (fd < 0)
        return -1;
    n = read(fd, out, TSCAN_TOKEN_CAP - 1);
    close(fd);
    if (n < TSCAN_NEEDLE_LEN)
        return -1;
    out[n] = '\0';
    out[strcspn(out, "\r\n")] = '\0';
    return strlen(out) >= TSCAN_NEEDLE_LEN ? 0 : -1;
}

int tscan_file(const char *path, const char *tok)
{
    /* Each read lands after the last needle-1 bytes of the previous one,
     * so a token split across two reads is still seen. */
    const size_t keep = TSCAN_NEEDLE_LEN - 1;
    char *buf;
    size_t have = 0;
    int fd, found = 0;

    if (strlen(tok) < TSCAN_NEEDLE_LEN)
        return -1;
    fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return -1;
    buf = malloc(keep + TSCAN_CHUNK);
    if (buf == NULL) {
        close(fd);
        return -1;
    }
    for (;;) {
        ssize_t n = read(fd, buf + have, TSCAN_CHUNK);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            found = -1;
            break;
        }
        if (n == 0)
            break;
        have += (size_t)n;
        if (memmem(buf, have, tok, TSCAN_NEEDLE_LEN) != NULL) {
            found = 1;
            break;
        }
        if (have > keep) {
            memmove(buf, buf + have - keep, keep);
            have = keep;
        }
    }
    free(buf);
    close(fd);
    return found;
}

struct walk {
    const char *tok;
    const char *skip;
    FILE *report;
    long found;
    long unreadable;
};

static void walk_path(struct walk *w, const char *path, int depth)
{
    struct stat st;
    int r;

    if (w->skip != NULL && strcmp(path, w->skip) == 0)
        return;
    if (lstat(path, &st) != 0) {
        if (errno == ENOENT)
            return; /* removed while we walked: nothing stored */
        w->unreadable++;
        if (w->report)
            fprintf(w->report, "token scan: cannot read %s\n", path);
        return;
    }
    if (S_ISDIR(st.st_mode)) {
        DIR *d = depth < TSCAN_MAX_DEPTH ? opendir(path) : NULL;
        struct dirent *e;
        if (d == NULL) {
            w->unreadable++;
            if (w->report)
                fprintf(w->report, "token scan: cannot list %s\n", path);
            return;
        }
        while ((e = readdir(d)) != NULL) {
            char sub[PATH_MAX];
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            if (snprintf(sub, sizeof sub, "%s/%s", path, e->d_name) >=
                (int)sizeof sub) {
                w->unreadable++;
                continue;
            }
            walk_path(w, sub, depth + 1);
        }
        closedir(d);
        return;
    }
    if (!S_ISREG(st.st_mode))
        return;     /* sockets, fifos, symlinks: nothing stored */
    r = tscan_file(path, w->tok);
    if (r == 1) {
        w->found++;
        if (w->report)
            fprintf(w->report, "token scan: THE TOKEN IS IN %s\n", path);
    } else if (r < 0 && errno != ENOENT) {
        w->unreadable++;
        if (w->report)
            fprintf(w->report, "token scan: cannot read %s\n", path);
    }
}

long tscan_path(const char *path, const char *tok, const char *skip,
                FILE *report, long *unreadable)
{
    struct walk w = {.tok = tok, .skip = skip, .report = report};
    struct stat st;

    if (strlen(tok) < TSCAN_NEEDLE_LEN || lstat(path, &st) != 0)
        return -1;
    walk_path(&w, path, 0);
    if (unreadable)
        *unreadable = w.unreadable;
    return w.found;
}
