/*
 * check_say.c - one finding of `fray check` (check.h), for the offline
 * checks (cli_check.c) and the online ones (check_online.c) alike.
 */
#include <stdarg.h>
#include <stdio.h>

#include "check.h"

void check_say(struct check *ck, enum check_level lvl, const char *what,
               const char *fmt, ...)
{
    static const char *const tag[] = {"ok  ", "warn", "FAIL"};
    va_list ap;

    if (lvl == CHECK_WARN)
        ck->warnings++;
    else if (lvl == CHECK_FAIL)
        ck->failures++;
    fprintf(ck->out, "%s  %s: ", tag[lvl], what);
    va_start(ap, fmt);
    vfprintf(ck->out, fmt, ap);
    va_end(ap);
    fputc('\n', ck->out);
}
