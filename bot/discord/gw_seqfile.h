/*
 * gw_seqfile.h - the gateway's resume point between commits, in a small
 * file beside an SQLite database.
 *
 * Every group of interactions saves the sequence the gateway would resume
 * from (docs/internals/daemon.md, "Answered at most once"). A group that
 * changed something saves it in its own commit. A group that changed
 * nothing (rolls, status, refusals) has nothing else to commit, and a
 * transaction of its own for the sequence cost SQLite a 4 KB page of its
 * log each time (17 us of CPU a group, `bench-rollrec`); so it is written
 * here instead, one pwrite of a fixed-size record, no flush: a killed
 * process keeps it (the kernel has it), as it kept the unsynced commit.
 *
 * The record names the store key of the shard's sequence and the session,
 * so a file left from another session or shard is ignored: at load the
 * resume point is the larger of the store's and the file's for the same
 * session (a session's sequence only grows). A torn or foreign file is
 * ignored: the store's sequence, flushed with the last change, stands, as
 * after a power cut before.
 *
 *     fray-gw-seq 1 <key> <session id> <seq>\n    (padded with spaces)
 *
 * Ownership: callers own the path and the descriptor.
 */
#ifndef GW_SEQFILE_H
#define GW_SEQFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GW_SEQFILE_MAGIC "fray-gw-seq 1"
/* The record's size: the magic, a key (GW_KV_KEY_MAX), a session id
 * (GW_MAX_SESSION_ID) and 19 digits fit with room. */
#define GW_SEQFILE_LEN 256
/* Appended to the database's path. */
#define GW_SEQFILE_SUFFIX "-gwseq"

/* The record into out (GW_SEQFILE_LEN bytes, no NUL); false when the
 * parts do not fit or hold a space. */
bool gw_seqfile_format(char out[GW_SEQFILE_LEN], const char *key,
                       const char *session, int64_t seq);

/* The sequence a record of key and session holds; false when buf is not
 * exactly such a record. */
bool gw_seqfile_parse(const char *buf, size_t len, const char *key,
                      const char *session, int64_t *seq);

/* Write the record to path through *fd (opened on first use, 0600, close
 * on exec; -1 for none yet), without a flush. false on an error: errno
 * says which. */
bool gw_seqfile_write(const char *path, int *fd, const char *key,
                      const char *session, int64_t seq);

/* The sequence path holds for key and session; false when there is no
 * such file or record. */
bool gw_seqfile_read(const char *path, const char *key, const char *session,
                     int64_t *seq);

#endif
