#include "eng_err.h"

static const char *const eng_err_msgs[] = {
#define ENG_ERR_MSG_(n, s) s,
    ENG_ERR_MAP(ENG_ERR_MSG_)
#undef ENG_ERR_MSG_
};

static const char *const eng_err_names[] = {
#define ENG_ERR_NAME_(n, s) #n,
    ENG_ERR_MAP(ENG_ERR_NAME_)
#undef ENG_ERR_NAME_
};

const char *eng_strerror(enum eng_err e)
{
    if ((unsigned)e >= ENG_ERR__COUNT)
        return "unknown error";
    return eng_err_msgs[e];
}

const char *eng_errname(enum eng_err e)
{
    if ((unsigned)e >= ENG_ERR__COUNT)
        return "UNKNOWN";
    return eng_err_names[e];
}
