/* Statistics over per-iteration samples. */
#ifndef UMB_STATS_H
#define UMB_STATS_H

typedef struct {
    long n;
    double avg, min, max, p50, p99, stddev;
} umb_stats;

/* Sorts samples in place; percentiles are nearest-rank (docs/method.md). */
void umb_stats_compute(double *samples, long n, umb_stats *s);

#endif
