/*
 * support.h - helpers shared by the unit tests.
 *
 * cmocka needs these headers in this order; every test includes this file
 * first instead of repeating them.
 */
#ifndef TEST_SUPPORT_H
#define TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

/* Read a whole file under tests/data into a NUL-terminated heap string.
 * Returns NULL when the file cannot be read; the caller frees. */
char *support_read_data(const char *relpath, size_t *len_out);

#endif
