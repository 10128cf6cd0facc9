#include "bot_err.h"

static const char *const bot_err_msgs[] = {
#define BOT_ERR_MSG_(n, s) s,
    BOT_ERR_MAP(BOT_ERR_MSG_)
#undef BOT_ERR_MSG_
};

static const char *const bot_err_names[] = {
#define BOT_ERR_NAME_(n, s) #n,
    BOT_ERR_MAP(BOT_ERR_NAME_)
#undef BOT_ERR_NAME_
};

const char *bot_strerror(enum bot_err e)
{
    return (unsigned)e < BOT_ERR__COUNT ? bot_err_msgs[e] : "unknown error";
}

const char *bot_errname(enum bot_err e)
{
    return (unsigned)e < BOT_ERR__COUNT ? bot_err_names[e] : "UNKNOWN";
}
