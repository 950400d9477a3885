#include "laps.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An invariant counter ticks at one rate whatever the core's frequency or
   sleep state (Linux's constant_tsc and nonstop_tsc flags). */
static int invariant_tsc(void)
{
    static int known = -1;
    if (known >= 0) return known;
    const char *forced = getenv("UMB_LAPS_CLOCK");
    known = 0;
#if defined(__x86_64__)
    if (forced && !strcmp(forced, "wtime")) return known;
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[4096];
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "flags", 5)) {
            known = strstr(line, " constant_tsc") && strstr(line, " nonstop_tsc");
            break;
        }
    if (f) fclose(f);
#else
    (void)forced;
#endif
    return known;
}

void umb_laps_init(umb_laps *l, double *times, long skip)
{
    memset(l, 0, sizeof *l);
    l->times = times;
    l->skip = skip;
    l->tsc = invariant_tsc();
}

/* MPI_Wtime readings into the time since the one before. */
static void wtime_samples(umb_laps *l, long iters, double end)
{
    double prev = l->start;
    for (long k = 0; k < iters; k++) {
        double now = k < iters - 1 ? l->times[k] : end;
        l->times[k] = now - prev;
        prev = now;
    }
}

/* Counter readings into ticks since the latest reading before, then into
   seconds: the samples split the loop's MPI_Wtime total. A rank that moved
   to another CPU may read a counter a little behind (clock_gettime clamps
   the same way): such a step counts 0. All zero (a counter that did not
   move): an even split. */
static void tick_samples(umb_laps *l, long iters, uint64_t end, double seconds)
{
    uint64_t prev = l->start_ticks;
    double ticks = 0;
    for (long k = 0; k < iters; k++) {
        uint64_t now = end;
        if (k < iters - 1) memcpy(&now, &l->times[k], sizeof now);
        l->times[k] = now > prev ? (double)(now - prev) : 0;
        if (now > prev) prev = now;
        ticks += l->times[k];
    }
    for (long k = 0; k < iters; k++) l->times[k] = ticks > 0 ? l->times[k] * seconds / ticks : seconds / (double)iters;
}

void umb_laps_close(umb_laps *l, long iters)
{
    if (iters <= 0) return;
    uint64_t end_ticks = umb_laps_ticks();
    double end = MPI_Wtime();
    if (l->tsc) tick_samples(l, iters, end_ticks, end - l->start);
    else wtime_samples(l, iters, end);
}
