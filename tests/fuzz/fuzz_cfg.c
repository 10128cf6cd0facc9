/*
 * fuzz_cfg.c - the configuration file: cfg_load_string() and cfg_load()
 * (through a memfd, so the file reader runs on the same bytes without
 * touching the disk).
 *
 * Input: the file's contents. The string reader stops at the first NUL, as
 * a C string does; the file reader reads every byte.
 *
 * Properties checked (cfg.h):
 *  - an error is one terminated line ("file:line: [section] key: why");
 *  - an accepted file keeps backoff_min_ms <= backoff_max_ms, at most
 *    CFG_MAX_DEV_GUILDS guild ids and terminated strings;
 *  - when the input holds no NUL, cfg_load() and cfg_load_string() ("same
 *    as cfg_load() on text in memory") accept or refuse it alike and, when
 *    they accept it, produce the same struct cfg.
 */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cfg.h"
#include "fuzz.h"

static void check_error(const char *err, size_t cap)
{
    size_t n;

    FUZZ_CHECK(fuzz_terminated(err, cap));
    n = strlen(err);
    FUZZ_CHECK(n > 0);
    FUZZ_CHECK(memchr(err, '\n', n) == NULL);
}

static void check_cfg(const struct cfg *c)
{
    FUZZ_CHECK(c->gw_backoff_min_ms <= c->gw_backoff_max_ms);
    FUZZ_CHECK(c->ndev_guilds >= 0 && c->ndev_guilds <= CFG_MAX_DEV_GUILDS);
    FUZZ_CHECK(fuzz_terminated(c->db_path, sizeof c->db_path));
    FUZZ_CHECK(fuzz_terminated(c->api_base, sizeof c->api_base));
}

/* One memfd for the whole run; its /proc path is what cfg_load() opens. */
static const char *memfd_path(int *fd_out)
{
    static char path[64];
    static int fd = -1;

    if (fd < 0) {
        fd = memfd_create("fuzz.conf", MFD_CLOEXEC);
        if (fd < 0)
            return NULL;
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    *fd_out = fd;
    return path;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct cfg from_string, from_file;
    char err[CFG_MAX_ERR], ferr[CFG_MAX_ERR];
    enum bot_err e1, e2;
    const char *path;
    char *text;
    int fd;

    text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    memset(err, 0x55, sizeof err);
    e1 = cfg_load_string(&from_string, "fuzz.conf", text, err, sizeof err);
    free(text);
    if (e1 == BOT_OK)
        check_cfg(&from_string);
    else
        check_error(err, sizeof err);

    path = memfd_path(&fd);
    if (!path || ftruncate(fd, 0) != 0 ||
        pwrite(fd, data, size, 0) != (ssize_t)size)
        return 0;
    memset(ferr, 0x55, sizeof ferr);
    e2 = cfg_load(&from_file, path, ferr, sizeof ferr);
    if (e2 == BOT_OK)
        check_cfg(&from_file);
    else
        check_error(ferr, sizeof ferr);

    if (memchr(data, '\0', size) == NULL) {
        FUZZ_CHECK(e1 == e2);
        if (e1 == BOT_OK)
            FUZZ_CHECK(memcmp(&from_string, &from_file,
                              sizeof from_string) == 0);
    }
    return 0;
}
