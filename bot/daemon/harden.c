/*
 * harden.c - process hardening for `fray run` (harden.h).
 */
#include "harden.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>

enum bot_err harden_process(char *err, size_t errlen)
{
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) {
        snprintf(err, errlen, "cannot turn core dumps off: %s",
                 strerror(errno));
        return BOT_IO;
    }
    return BOT_OK;
}
