/*
 * eng_buf.h - a growable string with a ceiling, for text the engine hands
 * to front ends (a tracker status, a sentence part).
 *
 * Like curl's dynbuf: every buffer has a maximum; an append that would pass
 * it stops there and marks the buffer cut, and an allocation failure marks
 * it failed. Both are sticky, so a writer appends freely and checks once.
 *
 * Ownership: caller-allocated; eng_buf_init() starts it empty, and
 * eng_buf_cleanup() frees its memory. eng_buf_str() is borrowed until the
 * next append or cleanup.
 */
#ifndef ENG_BUF_H
#define ENG_BUF_H

#include <stdbool.h>
#include <stddef.h>

struct eng_buf {
    char *s;
    size_t len, cap, max;
    bool cut;                /* an append reached max */
    bool nomem;              /* an allocation failed */
};

void eng_buf_init(struct eng_buf *b, size_t max);
void eng_buf_cleanup(struct eng_buf *b);
void eng_buf_add(struct eng_buf *b, const char *s);
void eng_buf_addf(struct eng_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The text so far; "" when empty. */
const char *eng_buf_str(const struct eng_buf *b);

#endif
