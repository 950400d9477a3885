/* Statistics over per-iteration samples. */
#ifndef UMB_STATS_H
#define UMB_STATS_H

typedef struct {
    long n;
    double avg, min, max, p50, p99, stddev;
    double p50_lo, p50_hi;  /* the median's 95% interval (order statistics), NAN with fewer than 6 samples */
    double p25, p75;        /* the quartiles: the middle half of the samples, where a median lands as the mix of
                               fast and slow ones changes (util/core/findings.c) */
} umb_stats;

/* Sorts samples in place; percentiles are nearest-rank (docs/method.md). */
void umb_stats_compute(double *samples, long n, umb_stats *s);

/* Rates from per-sample times (each sample moved `amount`; sorts them in
   place): avg is amount / mean time (OMB's total over total), min and max
   the slowest and fastest sample, p50 and p99 the rates of the median and
   the 99th-percentile (slow) sample, so p99 <= p50 as a tail should be;
   p25 and p75 likewise the rates of the quartile times (p75 <= p25). */
void umb_stats_rate(double *times, long n, double amount, umb_stats *r);

#endif
