/*
 * store_pg_err.c - PostgreSQL's errors in the store's terms, for the
 * connection and statements (store_pg.c) and the schema (store_pg_schema.c):
 * an SQLSTATE as a bot_err, and libpq's connection message as one line
 * (store_pg_int.h).
 */
#include <stdio.h>
#include <string.h>

#include "store_pg_int.h"

enum bot_err store_pg_map_state(const char *st)
{
    if (!st || strlen(st) != 5)
        return BOT_DB;
    if (strcmp(st, "40001") == 0 || strcmp(st, "40P01") == 0 ||
        strcmp(st, "23505") == 0)
        return BOT_CONFLICT; /* serialization, deadlock, unique violation */
    if (strcmp(st, "53100") == 0)
        return BOT_DB_FULL;
    if (strcmp(st, "53200") == 0)
        return BOT_NOMEM;
    if (strcmp(st, "55P03") == 0 || strcmp(st, "57014") == 0)
        return BOT_DB_BUSY; /* lock_timeout, statement_timeout */
    if (strncmp(st, "XX", 2) == 0)
        return strcmp(st, "XX000") == 0 ? BOT_DB : BOT_DB_CORRUPT;
    if (strncmp(st, "54", 2) == 0)
        return BOT_LIMIT;
    if (strncmp(st, "28", 2) == 0)
        return BOT_AUTH;
    return BOT_DB;
}

/* The first line of libpq's connection message (no password in it). */
const char *store_pg_conn_reason(PGconn *conn, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s", conn ? PQerrorMessage(conn) : "out of memory");
    buf[strcspn(buf, "\r\n")] = '\0';
    return buf;
}
