/* What the harness adds to one iteration of a back-to-back loop, in ns
   (docs/method.md, "What the harness costs"): MPI_Wtime, the per-iteration
   mark (umb_lap_mark), the loops' progress mark (umb_progress_loop), the
   full umb_progress (the watchdog's, counters' and placement log's mark,
   now only where the phase changes), and, for comparison, clock_gettime and
   the x86 time-stamp counter. usage: harness_cost [CALLS] (default 10^7);
   one process is enough. */
#include "bench.h"
#include "clock.h"
#include "watchdog.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double sink;

enum { WTIME, MARK, PROGRESS_LOOP, PROGRESS, GETTIME, TSC, NWHAT };
static const char *what[NWHAT] = {
    "MPI_Wtime", "umb_lap_mark (the lap clock and a store)", "umb_progress_loop (the loops' mark)",
    "umb_progress (where the phase changes)", "clock_gettime(CLOCK_MONOTONIC) (umb_now)",
    "rdtsc (x86 time-stamp counter)",
};

static double per_call_ns(int w, long calls)
{
    double sample[1];
    umb_laps laps;
    umb_laps_init(&laps, sample, 0);
    umb_lap_open(&laps, 0);
    double t0 = MPI_Wtime();
    for (long i = 0; i < calls; i++) {
        switch (w) {
        case WTIME: sink += MPI_Wtime(); break;
        case MARK: umb_lap_mark(&laps, 1); break;  /* writes sample[0] */
        case PROGRESS_LOOP: umb_progress_loop(8, i + 1, 0); break;  /* never the first iteration */
        case PROGRESS: umb_progress(8, i); break;
        case GETTIME: sink += umb_now(); break;
#if defined(__x86_64__)
        case TSC: sink += (double)__builtin_ia32_rdtsc(); break;
#endif
        }
    }
    sink += sample[0];
    return (MPI_Wtime() - t0) * 1e9 / (double)calls;
}

int main(int argc, char **argv)
{
    long calls = argc > 1 ? atol(argv[1]) : 10000000;
    if (calls < 1) {
        fprintf(stderr, "harness_cost: CALLS must be a positive number, got '%s'\n", argv[1]);
        return 1;
    }
    MPI_Init(&argc, &argv);
    umb_laps probe;
    umb_laps_init(&probe, NULL, 0);
    printf("harness_cost: the lap clock is %s\n", probe.tsc ? "the invariant time-stamp counter, scaled to MPI_Wtime per loop"
                                                           : "MPI_Wtime");
    for (int w = 0; w < NWHAT; w++) {
#if !defined(__x86_64__)
        if (w == TSC) continue;
#endif
        per_call_ns(w, calls / 10);  /* warm-up */
        printf("harness_cost: %-48s %6.2f ns per call (%ld calls)\n", what[w], per_call_ns(w, calls), calls);
    }
    MPI_Finalize();
    return sink == 42.0;  /* keeps the clock reads */
}
