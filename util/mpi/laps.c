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

void umb_laps_close(umb_laps *l, long iters)
{
    if (iters <= 0) return;
    if (!l->tsc) {
        l->times[iters - 1] = MPI_Wtime() - l->prev;
        return;
    }
    uint64_t now = umb_laps_ticks();
    double seconds = MPI_Wtime() - l->start, ticks = 0;
    l->times[iters - 1] = now > l->prev_ticks ? (double)(now - l->prev_ticks) : 0;
    for (long k = 0; k < iters; k++) ticks += l->times[k];
    /* The samples split the loop's MPI_Wtime total; all zero (a counter
       that did not move): an even split. */
    for (long k = 0; k < iters; k++) l->times[k] = ticks > 0 ? l->times[k] * seconds / ticks : seconds / (double)iters;
}
