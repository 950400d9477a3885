/* The back-to-back loops' per-iteration clock, read where the rank waits
   anyway: after an iteration's messages are under way, while they are in
   flight, so that the clock read stays off the messages' path
   (docs/method.md, "What the harness costs"). A sample runs from one mark to
   the next; the clock starts before the first timed iteration's messages
   and the last sample ends after the loop, so the samples add up to the
   whole timed loop, as OMB's one clock around it.

   The marks read the x86 time-stamp counter where it is invariant (17-24 ns
   against 40-54 ns for MPI_Wtime on the GPU machine), and umb_laps_close
   scales the samples so that they add up to the MPI_Wtime total of the
   loop; elsewhere, or with UMB_LAPS_CLOCK=wtime, they read MPI_Wtime.

   A mark only stores the clock's raw reading in the iteration's slot:
   umb_laps_close, after the loop, turns the readings into samples, so the
   timed path carries one clock read and one store per iteration, nothing
   more (issue 43). */
#ifndef UMB_LAPS_H
#define UMB_LAPS_H

#include <mpi.h>
#include <stdint.h>
#include <string.h>

typedef struct {
    double *times;            /* the samples; until umb_laps_close, the marks' raw readings */
    long skip;
    int tsc;                  /* 1: time-stamp counter ticks, scaled at the end */
    double start;             /* MPI_Wtime */
    uint64_t start_ticks;
} umb_laps;

static inline uint64_t umb_laps_ticks(void)
{
#if defined(__x86_64__)
    return __builtin_ia32_rdtsc();
#else
    return 0;
#endif
}

void umb_laps_init(umb_laps *l, double *times, long skip);

/* Before iteration i's messages: the first timed one starts the clock. */
static inline void umb_lap_open(umb_laps *l, long i)
{
    if (i != l->skip) return;
    l->start = MPI_Wtime();
    l->start_ticks = umb_laps_ticks();
}

/* Iteration i's messages are under way: the previous timed sample ends
   here. Its slot keeps the raw reading (the counter's bits, or MPI_Wtime). */
static inline void umb_lap_mark(umb_laps *l, long i)
{
    if (i <= l->skip) return;
    if (l->tsc) {
        uint64_t now = umb_laps_ticks();
        memcpy(&l->times[i - l->skip - 1], &now, sizeof now);
    } else {
        l->times[i - l->skip - 1] = MPI_Wtime();
    }
}

/* After the loop of `iters` timed iterations: ends the last sample and
   turns the readings into samples, in seconds of MPI_Wtime. */
void umb_laps_close(umb_laps *l, long iters);

#endif
