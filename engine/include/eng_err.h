/*
 * eng_err.h - the engine's error codes.
 *
 * One X-macro list generates the enum, eng_strerror() and eng_errname(), so
 * the three can never drift apart. Codes are appended only, never reordered:
 * they are stored in logs and counters by name and compared by value.
 */
#ifndef ENG_ERR_H
#define ENG_ERR_H

#define ENG_ERR_MAP(X)                                                      \
    X(OK, "no error")                                                       \
    X(NOMEM, "out of memory")                                               \
    X(SYNTAX, "syntax error")                                               \
    X(LIMIT, "a limit was exceeded")                                        \
    X(RANGE, "value out of range")                                          \
    X(NOTFOUND, "no such thing")                                            \
    X(STATE, "not allowed right now")                                       \
    X(EXISTS, "already exists")                                             \
    X(PERM, "permission denied")                                            \
    X(OVERFLOW, "arithmetic overflow")                                      \
    X(DIVZERO, "division by zero")                                          \
    X(INVALID, "invalid argument")

enum eng_err {
#define ENG_ERR_ENUM_(n, s) ENG_##n,
    ENG_ERR_MAP(ENG_ERR_ENUM_)
#undef ENG_ERR_ENUM_
    ENG_ERR__COUNT
};

/* A short lowercase description for people ("syntax error"). Never NULL. */
const char *eng_strerror(enum eng_err e);

/* The code's name for logs and counters ("SYNTAX"). Never NULL. */
const char *eng_errname(enum eng_err e);

#endif
