/*
 * token_check.c - the token-hygiene steps of the test suite
 * (tests/support/token_scan.h):
 *
 *   token_check new FILE            write a fresh random token to FILE
 *   token_check scan FILE PATH...   fail (status 1) when any file under the
 *                                   PATHs, FILE itself aside, holds it
 *
 * ctest runs `new` before the integration tests (fixture setup) and `scan`
 * after them (fixture cleanup); scripts/test scans LastTest.log again once
 * ctest has closed it. A PATH that does not exist is skipped: a run of only
 * unit tests leaves no artifacts.
 */
#include <stdio.h>
#include <string.h>

#include "token_scan.h"

int main(int argc, char **argv)
{
    char tok[TSCAN_TOKEN_CAP];
    long leaks = 0, unreadable = 0, scanned = 0;

    if (argc == 3 && strcmp(argv[1], "new") == 0) {
        if (tscan_token_new(tok) != 0 || tscan_token_save(argv[2], tok) != 0) {
            fprintf(stderr, "token_check: cannot write a token to %s\n",
                    argv[2]);
            return 1;
        }
        memset(tok, 0, sizeof tok);
        printf("token_check: a fresh test token is in %s\n", argv[2]);
        return 0;
    }
    if (argc < 4 || strcmp(argv[1], "scan") != 0) {
        fprintf(stderr, "usage: token_check new FILE | "
                        "token_check scan FILE PATH...\n");
        return 2;
    }
    if (tscan_token_load(argv[2], tok) != 0) {
        fprintf(stderr, "token_check: no test token in %s\n", argv[2]);
        return 1;
    }
    for (int i = 3; i < argc; i++) {
        long bad = 0;
        long n = tscan_path(argv[i], tok, argv[2], stderr, &bad);
        if (n < 0) {
            printf("token_check: %s does not exist, skipped\n", argv[i]);
            continue;
        }
        scanned++;
        leaks += n;
        unreadable += bad;
    }
    memset(tok, 0, sizeof tok);
    printf("token_check: %ld path(s) scanned, %ld file(s) hold the token, "
           "%ld unreadable\n", scanned, leaks, unreadable);
    return leaks > 0 || unreadable > 0 ? 1 : 0;
}
