#include "error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char program_name[64] = "umbench";
static char host_name[256] = "";
static int rank_id = -1;
static void (*abort_job)(int code);

void umb_error_context(const char *program, int rank, const char *host)
{
    if (program) snprintf(program_name, sizeof program_name, "%s", program);
    rank_id = rank;
    if (host) snprintf(host_name, sizeof host_name, "%s", host);
}

const char *umb_program(void) { return program_name; }

void umb_error_on_fatal(void (*end_job)(int code)) { abort_job = end_job; }

void umb_fatal(const char *call, const char *file, int line, const char *why)
{
    if (rank_id >= 0)
        fprintf(stderr, "%s: rank %d on %s: %s failed at %s:%d: %s\n", program_name,
                rank_id, host_name, call, file, line, why);
    else
        fprintf(stderr, "%s: %s failed at %s:%d: %s\n", program_name, call, file, line, why);
    fflush(stderr);
    if (abort_job) abort_job(UMB_EXIT_USAGE);
    exit(UMB_EXIT_USAGE);
}

void *umb_xmalloc(size_t bytes, const char *what)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        char why[128];
        snprintf(why, sizeof why, "out of host memory (%zu bytes asked for %s)", bytes, what);
        umb_fatal("malloc", __FILE__, __LINE__, why);
    }
    return p;
}
