#include "stats.h"

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
}
