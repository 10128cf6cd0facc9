/*
 * store_fixture.h - what the store's tests share (test_store.c,
 * test_store_hist.c, test_store_sheet.c, test_store_macro.c,
 * test_store_timer.c, test_permissions.c, test_cmd_proposal.c): one /combat
 * undo done the way the command layer does it, and export callbacks for
 * the parts a test does not look at.
 *
 * Ownership: nothing is kept; the store is the caller's.
 */
#ifndef STORE_FIXTURE_H
#define STORE_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "store.h"

/* Load the live version, the one before it, and save that as the next
 * version with store_enc_save_undo(). The error of the first step that
 * failed, BOT_OK when all did. */
enum bot_err store_fx_undo_once(struct store *s, uint64_t channel);

/* store_export_cb members that accept every row and look at nothing
 * (for a test that reads one part of store_export(): its saved sheets,
 * say). */
enum bot_err store_fx_skip_enc(void *ctx, const struct store_enc_rec *r);
enum bot_err store_fx_skip_ix(void *ctx, const struct store_ix_rec *r);
enum bot_err store_fx_skip_kv(void *ctx, const char *key, const char *value);

/* How many key/value rows start with prefix (test_permissions.c and
 * test_cmd_proposal.c count waiting proposals); -1 when the scan fails. */
int store_fx_kv_count(struct store *s, const char *prefix);

/* Where a store test's store is: SQLite ":memory:", or with pg the test
 * cluster's database (pg_cluster.h; its group setup started it). */
const char *store_fx_location(bool pg);

/* cmocka setup: open the store at store_fx_location(pg) into *state and,
 * on PostgreSQL, run truncate (NULL: none) to empty the tables the suite
 * uses, after the open so that they exist. -1, having said why on
 * stderr, when either fails. */
int store_fx_open(void **state, bool pg, const char *truncate);
/* cmocka teardown: close *state. */
int store_fx_close(void **state);

/* What main() of a store suite returns: the suite is built twice, on
 * SQLite and (FRAY_STORE_PG) on the test cluster, which its group setup
 * starts and which, when PostgreSQL is not installed, skips it whole
 * (pg_cluster.h). tests: a CMUnitTest array. */
#ifdef FRAY_STORE_PG
#define STORE_FX_RUN(suite, tests)                                             \
    (pg_cluster_skip_main(suite)                                               \
         ? 0                                                                   \
         : cmocka_run_group_tests_name(suite, tests, pg_cluster_group_setup,   \
                                       pg_cluster_group_teardown))
#else
#define STORE_FX_RUN(suite, tests)                                             \
    cmocka_run_group_tests_name(suite, tests, NULL, NULL)
#endif

#endif
