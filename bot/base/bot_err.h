/*
 * bot_err.h - error codes of the bot layer (I/O, storage, network).
 *
 * Same shape as eng_err.h: one X-macro list, append only, never reorder.
 */
#ifndef BOT_ERR_H
#define BOT_ERR_H

#define BOT_ERR_MAP(X)                                                      \
    X(OK, "no error")                                                       \
    X(NOMEM, "out of memory")                                               \
    X(IO, "input/output error")                                             \
    X(DB, "database error")                                                 \
    X(DB_FULL, "the disk is full")                                          \
    X(DB_BUSY, "the database is busy")                                      \
    X(DB_CORRUPT, "the database is damaged")                                \
    X(NOTFOUND, "not found")                                                \
    X(CONFLICT, "changed by someone else meanwhile")                        \
    X(CONFIG, "bad configuration")                                          \
    X(PROTOCOL, "protocol error")                                           \
    X(NET, "network error")                                                 \
    X(AUTH, "authentication failed")                                        \
    X(LIMIT, "a limit was exceeded")                                        \
    X(INVALID, "invalid input")                                             \
    X(LOCKED, "another fray owns this database")

enum bot_err {
#define BOT_ERR_ENUM_(n, s) BOT_##n,
    BOT_ERR_MAP(BOT_ERR_ENUM_)
#undef BOT_ERR_ENUM_
    BOT_ERR__COUNT
};

const char *bot_strerror(enum bot_err e);
const char *bot_errname(enum bot_err e);

#endif
