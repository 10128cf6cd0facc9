/*
 * version.c - `fray --version`.
 */
#include "version.h"

#include <curl/curl.h>
#include <jansson.h>
#include <libpq-fe.h>
#include <libwebsockets.h>
#include <openssl/crypto.h>
#include <sqlite3.h>
#include <string.h>
#include <zlib.h>

#include "fray_build_info.h"

#define VERSION_MAX_LIB 64

/* lws built from a tarball reports "4.1.6-" (the git part left empty) */
static const char *trim_dash(const char *v, char *buf, size_t cap)
{
    size_t n;
    snprintf(buf, cap, "%s", v ? v : "?");
    n = strlen(buf);
    while (n > 0 && (buf[n - 1] == '-' || buf[n - 1] == ' '))
        buf[--n] = '\0';
    return buf;
}

const char *version_commit(void)
{
    return FRAY_GIT_COMMIT;
}

void version_print(FILE *f)
{
    int pq = PQlibVersion();   /* 150013 for 15.13 */
    char lws[VERSION_MAX_LIB];

    fprintf(f, "fray %s\n", FRAY_VERSION);
    fprintf(f, "commit %s\n", version_commit());
    fprintf(f, "libwebsockets %s\n", trim_dash(lws_get_library_version(), lws,
                                               sizeof lws));
    fprintf(f, "libcurl %s\n", curl_version_info(CURLVERSION_NOW)->version);
    fprintf(f, "jansson %s\n", jansson_version_str());
    fprintf(f, "sqlite %s\n", sqlite3_libversion());
    fprintf(f, "libpq %d.%d\n", pq / 10000, pq % 10000);
    fprintf(f, "openssl %s\n", OpenSSL_version(OPENSSL_VERSION_STRING));
    fprintf(f, "zlib %s\n", zlibVersion());
}
