#include "stats.h"

#include "precision.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Nearest rank: the smallest sample with at least p% of samples at or below it. */
static double percentile(const double *sorted, long n, double p)
{
    long rank = (long)ceil(p / 100.0 * (double)n);
    if (rank < 1) rank = 1;
    return sorted[rank - 1];
}

void umb_stats_compute(double *samples, long n, umb_stats *s)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    if (n <= 0) return;
    qsort(samples, (size_t)n, sizeof *samples, cmp_double);
    double sum = 0;
    for (long i = 0; i < n; i++) sum += samples[i];
    s->avg = sum / (double)n;
    double var = 0;
    for (long i = 0; i < n; i++) var += (samples[i] - s->avg) * (samples[i] - s->avg);
    s->stddev = n > 1 ? sqrt(var / (double)(n - 1)) : 0;
    s->min = samples[0];
    s->max = samples[n - 1];
    s->p50 = percentile(samples, n, 50);
    s->p99 = percentile(samples, n, 99);
    s->p25 = percentile(samples, n, 25);
    s->p75 = percentile(samples, n, 75);
    if (umb_precision_interval(samples, n, UMB_PRECISION_MEDIAN, &s->p50_lo, &s->p50_hi)) s->p50_lo = s->p50_hi = NAN;
}

void umb_stats_rate(double *t, long n, double amount, umb_stats *r)
{
    memset(r, 0, sizeof *r);
    r->n = n;
    if (n <= 0) return;
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    double sum = 0, mean_rate = 0, var = 0;
    for (long i = 0; i < n; i++) {
        sum += t[i];
        mean_rate += amount / t[i];
    }
    mean_rate /= (double)n;
    for (long i = 0; i < n; i++) var += (amount / t[i] - mean_rate) * (amount / t[i] - mean_rate);
    r->avg = amount * (double)n / sum;
    r->min = amount / t[n - 1];
    r->max = amount / t[0];
    r->p50 = amount / percentile(t, n, 50);
    r->p99 = amount / percentile(t, n, 99);
    r->p25 = amount / percentile(t, n, 25);
    r->p75 = amount / percentile(t, n, 75);
    r->stddev = n > 1 ? sqrt(var / (double)(n - 1)) : 0;
    double lo, hi;  /* of the times: the rates turn over */
    if (umb_precision_interval(t, n, UMB_PRECISION_MEDIAN, &lo, &hi) == 0) r->p50_lo = amount / hi, r->p50_hi = amount / lo;
    else r->p50_lo = r->p50_hi = NAN;
}
