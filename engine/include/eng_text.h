/*
 * eng_text.h - text helpers the engine needs without libc locale or I/O.
 *
 * Case folding is ASCII only, on purpose: names are compared the same way on
 * every machine, whatever the locale. Everything here borrows its arguments.
 */
#ifndef ENG_TEXT_H
#define ENG_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

int eng_text_casecmp(const char *a, const char *b);
int eng_text_ncasecmp(const char *a, const char *b, size_t n);
void eng_text_lower(char *s);

/* Room for any int64_t in decimal, sign included (no terminator). */
#define ENG_TEXT_I64_MAX 20

/* v in decimal, written at the end of buf: returns where it starts; it
 * runs to buf + ENG_TEXT_I64_MAX, unterminated. For renderers that write
 * many numbers, where snprintf costs ten times this. */
char *eng_text_i64(int64_t v, char buf[ENG_TEXT_I64_MAX]);

/* Copy src into dst of size n (n >= 1), always terminated; a cut falls on a
 * UTF-8 character boundary. */
void eng_text_copy(char *dst, size_t n, const char *src);

/* True if s[0..len) is well-formed UTF-8 (no overlongs, no surrogates, no
 * NUL bytes). */
bool eng_text_valid_utf8(const char *s, size_t len);

/* Parse an optional sign and decimal digits. Returns the first byte after
 * the number, or NULL when there is no number or it overflows int64. */
const char *eng_text_parse_int(const char *s, int64_t *out);

/* Parse a whole string as an integer (optional sign, digits, surrounding
 * spaces allowed). */
bool eng_text_to_int(const char *s, int64_t *out);

/* Levenshtein distance of two short strings, ignoring ASCII case; strings
 * longer than 64 bytes compare by their first 64. */
size_t eng_text_distance(const char *a, const char *b);

/* True for "true/yes/on/1" (*out = true) and "false/no/off/0". */
bool eng_text_to_bool(const char *s, bool *out);

#endif
