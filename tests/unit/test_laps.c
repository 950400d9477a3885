/* umb_laps (util/mpi/laps.h): a mark keeps the clock's raw reading, and
   umb_laps_close turns the readings into samples that add up to the loop's
   MPI_Wtime total, a step back of the counter counting 0. */
#include "check.h"
#include "laps.h"

#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <string.h>

enum { ITERS = 4 };

/* The only unit test that starts MPI: Open MPI's own allocations outlive
   MPI_Finalize, which LeakSanitizer (configure --enable-sanitizers, CI)
   reports as leaks of this test. The shell tests turn leak checks off the
   same way (tests/lib.sh); the other unit tests keep them. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "detect_leaks=0"; }

static void put_ticks(double *slot, uint64_t ticks) { memcpy(slot, &ticks, sizeof ticks); }

/* Counter readings 100, 50 (a step back) and 300 ticks after the start;
   the loop ends a million ticks after it and lasted one second. */
static void tick_samples(void)
{
    double times[ITERS];
    umb_laps l;
    umb_laps_init(&l, times, 2);
    l.tsc = 1;
    l.start_ticks = umb_laps_ticks() - 1000000;
    l.start = MPI_Wtime() - 1.0;
    put_ticks(&times[0], l.start_ticks + 100);
    put_ticks(&times[1], l.start_ticks + 50);
    put_ticks(&times[2], l.start_ticks + 300);
    umb_laps_close(&l, ITERS);
    double sum = 0;
    for (int k = 0; k < ITERS; k++) sum += times[k];
#if defined(__x86_64__)
    CHECK(times[0] > 0 && times[1] == 0 && times[2] == 2 * times[0]);
    CHECK(times[3] > 1000 * times[0]);
#endif
    CHECK(fabs(sum - 1.0) < 1e-3);
}

/* MPI_Wtime readings: each sample is the time since the one before. */
static void wtime_samples(void)
{
    double times[ITERS];
    umb_laps l;
    umb_laps_init(&l, times, 0);
    l.tsc = 0;
    l.start = MPI_Wtime() - 1.0;
    times[0] = l.start + 0.25;
    times[1] = l.start + 0.5;
    times[2] = l.start + 0.75;
    umb_laps_close(&l, ITERS);
    CHECK(fabs(times[0] - 0.25) < 1e-12 && fabs(times[1] - 0.25) < 1e-12 && fabs(times[2] - 0.25) < 1e-12);
    CHECK(times[3] >= 0.25 && times[3] < 1.25);
}

/* The marks themselves: iteration i (after the warm-up) fills slot i - skip - 1. */
static void marks(void)
{
    double times[ITERS] = {0};
    umb_laps l;
    umb_laps_init(&l, times, 1);
    for (long i = 0; i < 1 + ITERS; i++) {
        umb_lap_open(&l, i);
        umb_lap_mark(&l, i);
    }
    umb_laps_close(&l, ITERS);
    double sum = 0;
    for (int k = 0; k < ITERS; k++) {
        CHECK(times[k] >= 0);
        sum += times[k];
    }
    CHECK(sum >= 0 && sum < 1.0);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    tick_samples();
    wtime_samples();
    marks();
    MPI_Finalize();
    return check_done("test_laps");
}
