/*
 * version.h - what `fray --version` prints: fray's version, the git commit
 * it was built from (cmake/build_info.cmake; "unknown" outside git) and the
 * versions of the libraries it runs with, as they report themselves at run
 * time (a package upgrade of a shared library shows here without a
 * rebuild).
 *
 * Ownership: the strings are static.
 */
#ifndef VERSION_H
#define VERSION_H

#include <stdio.h>

/* The commit, e.g. "1a2b3c4d5e6f" or "1a2b3c4d5e6f-dirty". */
const char *version_commit(void);

/* Write the whole report, one "name version" per line. */
void version_print(FILE *f);

#endif
