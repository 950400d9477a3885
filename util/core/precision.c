#include "precision.h"

#include <math.h>

long umb_median_interval_rank(long n, double level)
{
    /* Each tail may hold at most (1 - level) / 2 of Binomial(n, 1/2): the
       chance that fewer than k samples fall below the median. */
    double tail = (1.0 - level) / 2.0, cdf = 0, logp = -(double)n * log(2.0);
    long k = 0;
    for (long j = 0; j <= n / 2; j++) {
        cdf += exp(logp);
        if (cdf > tail) break;
        k = j + 1;
        logp += log((double)(n - j) / (double)(j + 1));  /* P(X = j + 1) from P(X = j) */
    }
    return k;
}

static double mean_of(const double *s, long n)
{
    double sum = 0;
    for (long i = 0; i < n; i++) sum += s[i];
    return sum / (double)n;
}

int umb_precision_interval(const double *samples, long n, umb_precision_of of, double *lo, double *hi)
{
    if (of == UMB_PRECISION_MEDIAN) {
        long k = umb_median_interval_rank(n, UMB_PRECISION_LEVEL);
        if (k < 1) return -1;
        *lo = samples[k - 1];
        *hi = samples[n - k];
        return 0;
    }
    if (n < UMB_PRECISION_MEAN_MIN) return -1;
    double m = mean_of(samples, n), var = 0;
    for (long i = 0; i < n; i++) var += (samples[i] - m) * (samples[i] - m);
    double half = 1.959964 * sqrt(var / (double)(n - 1) / (double)n);
    *lo = m - half;
    *hi = m + half;
    return 0;
}

double umb_precision_reached(const double *samples, long n, umb_precision_of of)
{
    double lo, hi;
    if (umb_precision_interval(samples, n, of, &lo, &hi) != 0) return INFINITY;
    double centre = of == UMB_PRECISION_MEDIAN ? (n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2)
                                               : mean_of(samples, n);
    if (centre == 0) return INFINITY;
    return (hi - lo) / 2.0 / fabs(centre);
}

int umb_precision_met(const double *samples, long n, umb_precision_of of, double target)
{
    return umb_precision_reached(samples, n, of) <= target;
}

umb_precision_stop umb_precision_step(long n, long skip, double reached, double target, double seconds, double left,
                                      long most, long *next)
{
    *next = 0;
    if (reached <= target) return UMB_PRECISION_REACHED;
    if (n < 1) return UMB_PRECISION_OUT_OF_TIME;  /* not measured: its share of --launch-budget was spent */
    double want = isfinite(reached) ? ceil((double)n * (reached / target) * (reached / target) * 1.25) : 2.0 * (double)n;
    if (want < UMB_PRECISION_MEAN_MIN) want = UMB_PRECISION_MEAN_MIN;
    int capped = want > (double)most;
    if (capped) want = (double)most;
    double per = seconds / (double)(n + skip);  /* one iteration, warm-up alike */
    if (per > 0) {
        double fits = floor(left / per) - (double)skip;
        if (fits < want) {
            if (fits < 1.5 * (double)n) return UMB_PRECISION_OUT_OF_TIME;  /* a little more would not change the answer */
            want = fits;
            capped = 0;
        }
    }
    if (!(want > (double)n)) return capped ? UMB_PRECISION_AT_MOST : UMB_PRECISION_OUT_OF_TIME;
    *next = (long)want;
    return UMB_PRECISION_AGAIN;
}

long umb_precision_next(long n, long skip, double reached, double target, double seconds, double left, long most)
{
    long next;
    umb_precision_step(n, skip, reached, target, seconds, left, most, &next);
    return next;
}

long umb_precision_first(long iters, long skip, double per, double budget)
{
    long want = iters > UMB_PRECISION_MEAN_MIN ? iters : UMB_PRECISION_MEAN_MIN;
    if (!(per > 0)) return want;
    double fits = floor(budget / per) - (double)skip;
    if (fits >= (double)want) return want;
    if (fits >= UMB_PRECISION_MEAN_MIN) return (long)fits;
    /* No interval can come within the budget: the count it had, bounded. */
    if (fits < 1) return 1;
    return fits < (double)iters ? (long)fits : iters;
}
