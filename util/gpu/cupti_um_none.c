/* A build without CUPTI: --counters has nothing to load. */
#include "cupti_um.h"

#include <stdio.h>

int umb_cupti_built(void) { return 0; }

int umb_cupti_start(int um, int copies, char *why, size_t n)
{
    (void)um, (void)copies;
    snprintf(why, n, "this build has no CUPTI");
    return 0;
}

uint64_t umb_cupti_now(void) { return 0; }

uint64_t umb_cupti_drain(umb_um_sink sink, void *ctx)
{
    (void)sink, (void)ctx;
    return 0;
}

int umb_cupti_amount(int cupti_kind, uint64_t value, uint64_t *amount)
{
    (void)cupti_kind, (void)value, (void)amount;
    return -1;
}

int umb_cupti_copy_counter(int copy_kind)
{
    (void)copy_kind;
    return -1;
}
