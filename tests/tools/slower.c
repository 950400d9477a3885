/* The findings' test hook, linked into tests/tools/umb_latency_slower only
   (never installed): UMB_TEST_SLOWER=SIZE:FACTOR:PERCENT multiplies
   PERCENT% of the kept iterations at SIZE (spread evenly) by FACTOR once
   they are timed, so that a step of a known shape shows on any machine
   (tests/mpi/findings.sh); unset, or another size: nothing. */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>

static void slower(size_t size, double *times, long n)
{
    const char *s = getenv("UMB_TEST_SLOWER");
    size_t at;
    double factor, pct;
    char end;
    if (!s || sscanf(s, "%zu:%lf:%lf%c", &at, &factor, &pct, &end) != 3 || at != size || !(pct >= 0 && pct <= 100))
        return;
    for (long i = 0; i < n; i++)  /* iteration i is one of them where the share's count steps up */
        if ((long)((double)(i + 1) * pct / 100) > (long)((double)i * pct / 100)) times[i] *= factor;
}

__attribute__((constructor)) static void set_hook(void) { umb_times_hook = slower; }
