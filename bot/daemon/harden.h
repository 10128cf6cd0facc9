/*
 * harden.h - what `fray run` does to its own process before the token is
 * in memory, so that the token does not leak out of it.
 *
 * Linux only (prctl). Process-wide; call once, from the main thread.
 */
#ifndef HARDEN_H
#define HARDEN_H

#include <stddef.h>

#include "bot_err.h"

/* Make the process not dumpable: no core file is written when it crashes
 * (a core would hold the token and the open encounters), and only root may
 * ptrace it or read its /proc/<pid>/ files such as environ and mem. The
 * systemd units add LimitCORE=0 for the same reason. BOT_OK, or BOT_IO
 * with the reason in err; the caller may carry on without it. */
enum bot_err harden_process(char *err, size_t errlen);

#endif
