/*
 * i18n_plural.h - gettext's Plural-Forms expression: parse once, evaluate
 * for a count (i18n.h).
 *
 * The language is C's expressions on one variable n: ?:, || && == != < >
 * <= >= + - * / %, unary !, parentheses and decimal numbers, as msgfmt
 * accepts them. The parser is strict and bounded, since its input is a file
 * we ship and any surprise there is a bug: at most I18N_PLURAL_MAX_LEN
 * bytes, I18N_PLURAL_MAX_NODES nodes and I18N_PLURAL_MAX_DEPTH nesting;
 * anything else (an unknown character, a number over 9 digits, trailing
 * text) is refused with a message. Division or remainder by zero
 * evaluates to 0 instead of trapping.
 *
 * Ownership: struct i18n_plural is a value the caller holds; nothing is
 * allocated.
 */
#ifndef I18N_PLURAL_H
#define I18N_PLURAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Longest expression, in bytes: Polish's is 87, Arabic's 112. */
#define I18N_PLURAL_MAX_LEN 256
/* Nodes of one parsed expression: Arabic's needs 35. */
#define I18N_PLURAL_MAX_NODES 64
/* Nesting of parentheses, ?: and !: bounds the parser's and the
 * evaluator's recursion on the C stack. */
#define I18N_PLURAL_MAX_DEPTH 16

struct i18n_plural_node {
    uint8_t op;              /* internal opcode */
    uint8_t a, b, c;         /* operand nodes */
    uint32_t num;            /* a number's value */
};

struct i18n_plural {
    struct i18n_plural_node node[I18N_PLURAL_MAX_NODES];
    uint8_t n;               /* nodes used */
    uint8_t root;
};

/* Parse expr[0..len) into out. Returns false with a message in err (the
 * byte offset included) when it is not one whole, bounded expression; out
 * is then unusable. */
bool i18n_plural_parse(const char *expr, size_t len, struct i18n_plural *out,
                       char *err, size_t errlen);

/* The expression's value for n. */
unsigned long i18n_plural_eval(const struct i18n_plural *p, unsigned long n);

/* Read "nplurals=N; plural=EXPR;" from a catalog's header (the text of
 * the msgid "" entry, header[0..len)): N must be 1..max. */
bool i18n_plural_header(const char *header, size_t len, unsigned max,
                        unsigned *nplurals, struct i18n_plural *out,
                        char *err, size_t errlen);

#endif
