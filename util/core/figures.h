/* The arithmetic from timed seconds to the figures a row prints, in one
   place and without MPI, so that a unit test (tests/unit/test_figures.c)
   gives each a known time and reads back a known figure: a factor of 2 in
   any of them keeps every shape a program's own run checks, and fails here. */
#ifndef UMB_FIGURES_H
#define UMB_FIGURES_H

#include "stats.h"

#include <stddef.h>

/* What each rank sends and receives per timed iteration (util/mpi/p2p). */
typedef enum {
    UMB_P2P_PING_PONG,  /* rank 0 sends one message, rank 1 sends it back (osu_latency) */
    UMB_P2P_WINDOW,     /* each sender posts a window of -W messages, its receiver acks it (osu_bw, osu_mbw_mr) */
    UMB_P2P_EXCHANGE,   /* both ranks post a window to each other (osu_bibw) */
} umb_p2p_motion;

/* Ping-pong: each time is a round trip in seconds; becomes one way in us. */
void umb_figures_one_way(double *times, long n, umb_stats *s);

/* One-sided latency: each time is one operation, in seconds; becomes us. */
void umb_figures_us(double *times, long n, umb_stats *s);

/* Bytes one timed iteration moves, summed over ranks: both ways for an
   exchange and a ping-pong, each pair's one way for a window. */
double umb_figures_payload(umb_p2p_motion m, size_t size, int window, int nranks);

/* Bandwidth: each time moved `bytes`; MB/s (10^6 bytes/s). */
void umb_figures_mbs(double *times, long n, double bytes, umb_stats *s);

/* Pairs (osu_mbw_mr): all[p * n + i] is pair p's window i, in seconds,
   each window `window` messages of `size` bytes. Avg and *messages_per_s
   are the sums of each pair's own rate (OMB's); the spread is over
   windows, of the pairs' summed rates, whose times are left in times[]. */
void umb_figures_pairs(const double *all, int pairs, long n, size_t size, int window, double *times, umb_stats *s,
                       double *messages_per_s);

/* A rank's mean of its times (seconds), in us. */
double umb_figures_mean_us(const double *times, long n);

/* Collectives (OMB's): samples are every rank's times in seconds (become
   us, for the percentiles); means[r] is rank r's mean in us. Avg is the
   mean of the means, Min and Max theirs; *slowest is the rank of Max (the
   lowest such rank where two tie). */
void umb_figures_collective(double *samples, long nsamples, const double *means, int nranks, umb_stats *s,
                            int *slowest);

#define UMB_GIB 1073741824.0
#define UMB_GB 1e9

/* A driver's rate: bytes over seconds in units of `unit` bytes/s (UMB_GB: GB/s, UMB_GIB: GiB/s). */
double umb_figures_rate(double bytes, double seconds, double unit);

/* umb_copy's four rates of `moved` bytes each way: out[0] the first
   direction over secs[0], out[1] the second over secs[1] (0 one way), out[2]
   both directions' bytes over secs[2] (the whole, by events), out[3] the
   same over cpu seconds (by the host's clock). */
void umb_figures_copy(double moved, const double secs[3], double cpu, int both_ways, double unit, double out[4]);

#endif
