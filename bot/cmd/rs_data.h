/*
 * rs_data.h - rulesets' data files, read once at startup.
 *
 * A ruleset may keep tables a group can rename or extend without
 * recompiling (tactical's effects and conditions): rs_system.data_file
 * names the file, looked for in a rules directory (--rules DIR, then
 * $FRAY_RULES_DIR, then ./config). A missing file means the built-in table;
 * a file that does not parse stops startup with the line that is wrong.
 *
 * Ownership: the set owns the parsed data until rs_data_free(); commands
 * borrow it through cmd_ctx.
 */
#ifndef RS_DATA_H
#define RS_DATA_H

#include <stddef.h>

#include "bot_err.h"
#include "rs.h"

#define RS_DATA_MAX_SYSTEMS 16
#define RS_DATA_MAX_FILE (64 * 1024)   /* bytes in one data file */
/* Longest rules folder path rs_data_load takes, in bytes. */
#define RS_DATA_MAX_DIR 2048
/* A data file's path: the folder and a ruleset's short file name. */
#define RS_DATA_MAX_PATH (RS_DATA_MAX_DIR + 64)
/* Room for any rs_data_load error: "<file>: line N: why", so the file's
 * path is never cut. */
#define RS_DATA_MAX_ERR (RS_DATA_MAX_PATH + 512)

struct rs_data_set {
    void *data[RS_DATA_MAX_SYSTEMS];   /* by rs_index(); NULL = built in */
};

/* The directory to read: dir when given, else $FRAY_RULES_DIR, else
 * "config". Never NULL. */
const char *rs_data_dir(const char *dir);

/* Read and parse every ruleset's data file found in dir. On error returns
 * BOT_CONFIG (or BOT_IO, BOT_LIMIT) with "file: line N: why" in err (size
 * it RS_DATA_MAX_ERR) and the set empty. */
enum bot_err rs_data_load(const char *dir, struct rs_data_set *set,
                          char *err, size_t errlen);
void rs_data_free(struct rs_data_set *set);

/* The data for rs, or NULL for its built-in tables (set may be NULL). */
const void *rs_data_get(const struct rs_data_set *set,
                        const struct rs_system *rs);

#endif
