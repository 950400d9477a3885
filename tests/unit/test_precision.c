/* The precision rule (util/core/precision.h) on synthetic samples with known answers. */
#include "precision.h"
#include "check.h"

#include <math.h>
#include <stdlib.h>

static int near(double a, double b) { return fabs(a - b) < 1e-9 * (fabs(b) + 1); }

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A fixed generator, so that every run tests the same samples. */
static unsigned long long lcg_state = 12345;
static double uniform(void)
{
    lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(lcg_state >> 11) / 9007199254740992.0;
}

/* n samples of centre * (1 +- spread), uniform, sorted. */
static void fill(double *s, long n, double centre, double spread)
{
    for (long i = 0; i < n; i++) s[i] = centre * (1 + spread * (2 * uniform() - 1));
    qsort(s, (size_t)n, sizeof *s, cmp_double);
}

/* Over a grid of attempts: the reason a size stops is what stops it. A
   cap (AT_MOST) raised lets it go on where more time would not; a budget
   (OUT_OF_TIME) raised lets it go on where a higher cap would not. The
   closing report names the reason (bench_precision.c): it blamed
   --size-budget for -M's cap. */
static void stop_reasons(void)
{
    static const long ns[] = {1, 30, 100, 5000};
    static const double reached[] = {0.01, 0.03, 0.2, INFINITY}, lefts[] = {0.001, 0.05, 1, 1e3};
    static const long mosts[] = {30, 100, 7000, 1000000};
    for (size_t a = 0; a < 4; a++)
        for (size_t r = 0; r < 4; r++)
            for (size_t l = 0; l < 4; l++)
                for (size_t m = 0; m < 4; m++) {
                    long n = ns[a], most = mosts[m] > n ? mosts[m] : n, next, more;
                    double secs = 1e-4 * (double)n, left = lefts[l];
                    umb_precision_stop why = umb_precision_step(n, 10, reached[r], 0.02, secs, left, most, &next);
                    CHECK(next == umb_precision_next(n, 10, reached[r], 0.02, secs, left, most));
                    CHECK((why == UMB_PRECISION_AGAIN) == (next > 0));
                    CHECK((why == UMB_PRECISION_REACHED) == (reached[r] <= 0.02));
                    if (why == UMB_PRECISION_AT_MOST) {
                        CHECK(umb_precision_step(n, 10, reached[r], 0.02, secs, left, most * 100, &more) == UMB_PRECISION_AGAIN);
                        CHECK(umb_precision_step(n, 10, reached[r], 0.02, secs, left * 1e9, most, &more) != UMB_PRECISION_AGAIN);
                    }
                    if (why == UMB_PRECISION_OUT_OF_TIME) {
                        CHECK(umb_precision_step(n, 10, reached[r], 0.02, secs, left * 1e9, most * 1000, &more) == UMB_PRECISION_AGAIN);
                        CHECK(umb_precision_step(n, 10, reached[r], 0.02, secs, left, most * 1000, &more) != UMB_PRECISION_AGAIN);
                    }
                }
}

int main(void)
{
    /* Ranks of the distribution-free 95% interval, as published tables give them. */
    CHECK(umb_median_interval_rank(5, 0.95) == 0);    /* [min, max] covers only 93.75% */
    CHECK(umb_median_interval_rank(6, 0.95) == 1);
    CHECK(umb_median_interval_rank(9, 0.95) == 2);
    CHECK(umb_median_interval_rank(20, 0.95) == 6);
    CHECK(umb_median_interval_rank(100, 0.95) == 40);
    CHECK(umb_median_interval_rank(1000, 0.95) == 469);
    CHECK(umb_median_interval_rank(5, 0.90) == 1);
    CHECK(umb_median_interval_rank(0, 0.95) == 0 && umb_median_interval_rank(1, 0.95) == 0);

    /* 1..100: the interval is [40, 61] around the median 50.5. */
    double v[100];
    for (int i = 0; i < 100; i++) v[i] = i + 1;
    double lo, hi;
    CHECK(umb_precision_interval(v, 100, UMB_PRECISION_MEDIAN, &lo, &hi) == 0 && lo == 40 && hi == 61);
    CHECK(near(umb_precision_reached(v, 100, UMB_PRECISION_MEDIAN), 10.5 / 50.5));
    CHECK(umb_precision_met(v, 100, UMB_PRECISION_MEDIAN, 0.21) && !umb_precision_met(v, 100, UMB_PRECISION_MEDIAN, 0.20));

    /* Too few samples: no interval, never met. */
    CHECK(umb_precision_interval(v, 5, UMB_PRECISION_MEDIAN, &lo, &hi) == -1);
    CHECK(isinf(umb_precision_reached(v, 5, UMB_PRECISION_MEDIAN)) && !umb_precision_met(v, 5, UMB_PRECISION_MEDIAN, 1e9));
    CHECK(isinf(umb_precision_reached(v, UMB_PRECISION_MEAN_MIN - 1, UMB_PRECISION_MEAN)));
    double zeros[10] = {0};
    CHECK(isinf(umb_precision_reached(zeros, 10, UMB_PRECISION_MEDIAN)));

    /* The mean: 99, 101, ... (n = 100): sd = sqrt(100/99), half-width 1.96 sd / 10 over 100. */
    double alt[100];
    for (int i = 0; i < 100; i++) alt[i] = i % 2 ? 101 : 99;
    CHECK(fabs(umb_precision_reached(alt, 100, UMB_PRECISION_MEAN) - 1.959964 * sqrt(100.0 / 99) / 10 / 100) < 1e-9);

    /* Low noise (+-1%) meets 2% with 1000 samples; high noise (+-50%) does not,
       and more samples of the same distribution narrow the interval. */
    static double s[1000], t[100];
    fill(s, 1000, 7.0, 0.01);
    CHECK(umb_precision_met(s, 1000, UMB_PRECISION_MEDIAN, 0.02) && umb_precision_met(s, 1000, UMB_PRECISION_MEAN, 0.02));
    fill(s, 1000, 7.0, 0.5);
    fill(t, 100, 7.0, 0.5);
    CHECK(!umb_precision_met(s, 1000, UMB_PRECISION_MEDIAN, 0.02));
    CHECK(umb_precision_reached(s, 1000, UMB_PRECISION_MEDIAN) < umb_precision_reached(t, 100, UMB_PRECISION_MEDIAN));
    CHECK(umb_precision_reached(s, 1000, UMB_PRECISION_MEAN) < umb_precision_reached(t, 100, UMB_PRECISION_MEAN));

    /* Coverage: of 2000 sets of 20 uniform samples (median 1.0), the interval
       holds the true median in at least 95% (exact: 95.9%), allowing 1.5% for chance. */
    int covered = 0;
    for (int rep = 0; rep < 2000; rep++) {
        double u[20];
        fill(u, 20, 1.0, 0.3);
        umb_precision_interval(u, 20, UMB_PRECISION_MEDIAN, &lo, &hi);
        covered += lo <= 1.0 && 1.0 <= hi;
    }
    CHECK(covered >= 0.935 * 2000 && covered < 2000);

    /* The next attempt: met is 0; +-4% for 2% needs 4 x 1.25 = 5 times the
       iterations; no interval doubles (at least 30); `most` at most; the
       budget cuts it, and stops it below 1.5 times. */
    CHECK(umb_precision_next(100, 10, 0.019, 0.02, 1.0, 10.0, 1000000) == 0);
    CHECK(umb_precision_next(100, 10, 0.04, 0.02, 0.011, 10.0, 1000000) == 500);
    CHECK(umb_precision_next(10, 0, INFINITY, 0.02, 0.001, 10.0, 1000000) == 30);
    CHECK(umb_precision_next(100, 0, INFINITY, 0.02, 0.001, 10.0, 1000000) == 200);
    CHECK(umb_precision_next(100, 0, 1.0, 0.02, 0.001, 1e9, 1000000) == 312500);
    CHECK(umb_precision_next(100, 0, 1.0, 0.02, 0.001, 1e9, 700) == 700);
    CHECK(umb_precision_next(100, 10, 0.04, 0.02, 1.1, 3.0, 1000000) == 290);  /* 10 ms each: 300 fit, less the warm-up */
    CHECK(umb_precision_next(100, 10, 0.04, 0.02, 1.1, 1.5, 1000000) == 0);    /* 140 fit: not worth another attempt */
    stop_reasons();
    /* The first attempt: at least the 30 a mean's interval needs (OMB's 20
       windows at 16 KiB gave none, so every such size ran twice); OMB's
       count where the budget cannot hold 30, no more than it holds. */
    CHECK(umb_precision_first(20, 2, 0, 3.0) == UMB_PRECISION_MEAN_MIN);      /* the first size: nothing known */
    CHECK(umb_precision_first(100, 10, 0, 3.0) == 100);
    CHECK(umb_precision_first(20, 2, 0.001, 3.0) == UMB_PRECISION_MEAN_MIN);  /* 2998 fit */
    CHECK(umb_precision_first(100, 10, 0.0234375, 3.0) == 100);              /* 128 fit: OMB's 100 */
    CHECK(umb_precision_first(100, 10, 0.0625, 3.0) == 38);                  /* 48 fit: 38 after warm-up */
    CHECK(umb_precision_first(20, 2, 0.117, 3.0) == 20);                     /* 23 after warm-up, fewer than 30: OMB's 20 */
    CHECK(umb_precision_first(20, 2, 0.25, 3.0) == 10);                      /* 12 fit: 10 after warm-up */
    CHECK(umb_precision_first(20, 2, 10.0, 3.0) == 1);                       /* none fits: one, measured */
    return check_done("test_precision");
}
