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
   loop; elsewhere, or with UMB_LAPS_CLOCK=wtime, they read MPI_Wtime. */
#ifndef UMB_LAPS_H
#define UMB_LAPS_H

#include <mpi.h>
#include <stdint.h>

typedef struct {
    double *times;
    long skip;
    int tsc;                  /* 1: time-stamp counter ticks, scaled at the end */
    double start, prev;       /* MPI_Wtime */
    uint64_t prev_ticks;
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
    l->start = l->prev = MPI_Wtime();
    l->prev_ticks = umb_laps_ticks();
}

/* Iteration i's messages are under way: ends the previous timed sample. */
static inline void umb_lap_mark(umb_laps *l, long i)
{
    if (i <= l->skip) return;
    if (l->tsc) {
        /* A rank that moves to another CPU may read a counter a little
           behind (clock_gettime clamps the same way): such a step counts 0. */
        uint64_t now = umb_laps_ticks();
        l->times[i - l->skip - 1] = now > l->prev_ticks ? (double)(now - l->prev_ticks) : 0;
        if (now > l->prev_ticks) l->prev_ticks = now;
    } else {
        double now = MPI_Wtime();
        l->times[i - l->skip - 1] = now - l->prev;
        l->prev = now;
    }
}

/* After the loop of `iters` timed iterations: ends the last sample and
   turns ticks into seconds of MPI_Wtime. */
void umb_laps_close(umb_laps *l, long iters);

#endif
