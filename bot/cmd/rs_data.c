#include "rs_data.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *rs_data_dir(const char *dir)
{
    if (dir != NULL && dir[0] != '\0')
        return dir;
    const char *env = getenv("FRAY_RULES_DIR");
    return env != NULL && env[0] != '\0' ? env : "config";
}

/* Read a whole small file; *text NULL and BOT_NOTFOUND when absent. */
static enum bot_err read_small(const char *path, char **text, size_t *len,
                               char *err, size_t errlen)
{
    *text = NULL;
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        if (errno == ENOENT)
            return BOT_NOTFOUND;
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return BOT_IO;
    }
    char *buf = malloc(RS_DATA_MAX_FILE + 1);
    if (buf == NULL) {
        fclose(f);
        return BOT_NOMEM;
    }
    size_t n = fread(buf, 1, RS_DATA_MAX_FILE + 1, f);
    bool bad = ferror(f) != 0;
    fclose(f);
    if (bad) {
        free(buf);
        snprintf(err, errlen, "%s: read error", path);
        return BOT_IO;
    }
    if (n > RS_DATA_MAX_FILE) {
        free(buf);
        snprintf(err, errlen, "%s: larger than %d bytes", path,
                 RS_DATA_MAX_FILE);
        return BOT_LIMIT;
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return BOT_OK;
}

enum bot_err rs_data_load(const char *dir, struct rs_data_set *set,
                          char *err, size_t errlen)
{
    memset(set, 0, sizeof *set);
    if (strlen(dir) > RS_DATA_MAX_DIR) {
        snprintf(err, errlen, "the rules folder path is too long (%zu bytes; "
                 "limit is %d)", strlen(dir), RS_DATA_MAX_DIR);
        return BOT_LIMIT;
    }
    size_t n;
    const struct rs_system *const *all = rs_all(&n);
    for (size_t i = 0; i < n && i < RS_DATA_MAX_SYSTEMS; i++) {
        const struct rs_system *rs = all[i];
        if (rs->data_file == NULL || rs->ops->version < 2 ||
            rs->ops->data_parse == NULL)
            continue;
        char path[RS_DATA_MAX_PATH];
        snprintf(path, sizeof path, "%s/%s", dir, rs->data_file);
        char *text = NULL;
        size_t len = 0;
        enum bot_err berr = read_small(path, &text, &len, err, errlen);
        if (berr == BOT_NOTFOUND)
            continue;
        if (berr != BOT_OK) {
            rs_data_free(set);
            return berr;
        }
        struct enc_diag d = {0};
        void *data = NULL;
        enum eng_err e = rs->ops->data_parse(text, len, &data, &d);
        free(text);
        if (e != ENG_OK) {
            snprintf(err, errlen, "%s: %s", path, d.msg);
            rs_data_free(set);
            return e == ENG_NOMEM ? BOT_NOMEM : BOT_CONFIG;
        }
        set->data[i] = data;
    }
    return BOT_OK;
}

void rs_data_free(struct rs_data_set *set)
{
    size_t n;
    const struct rs_system *const *all = rs_all(&n);
    for (size_t i = 0; i < n && i < RS_DATA_MAX_SYSTEMS; i++) {
        if (set->data[i] != NULL && all[i]->ops->version >= 2 &&
            all[i]->ops->data_free != NULL)
            all[i]->ops->data_free(set->data[i]);
        set->data[i] = NULL;
    }
}

const void *rs_data_get(const struct rs_data_set *set,
                        const struct rs_system *rs)
{
    int i = rs_index(rs);
    if (set == NULL || i < 0 || i >= RS_DATA_MAX_SYSTEMS)
        return NULL;
    return set->data[i];
}
