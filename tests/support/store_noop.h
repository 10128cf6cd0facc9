/*
 * store_noop.h - export callbacks that skip a kind of row, for tests that
 * read one part of a store_export() (its saved sheets, say).
 *
 * Ownership: nothing is kept; every argument is ignored.
 */
#ifndef TEST_STORE_NOOP_H
#define TEST_STORE_NOOP_H

#include "store.h"

enum bot_err store_noop_enc(void *ctx, const struct store_enc_rec *r);
enum bot_err store_noop_ix(void *ctx, const struct store_ix_rec *r);
enum bot_err store_noop_kv(void *ctx, const char *key, const char *value);

#endif
