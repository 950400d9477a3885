/* Statistics: mean, extremes, nearest-rank percentiles, sample deviation. */
#include "stats.h"
#include "check.h"

#include <math.h>
#include <stdlib.h>

static int near(double a, double b) { return fabs(a - b) < 1e-9 * (fabs(b) + 1); }

int main(void)
{
    umb_stats s;
    double one[] = {4.0};
    umb_stats_compute(one, 1, &s);
    CHECK(s.n == 1 && s.avg == 4 && s.min == 4 && s.max == 4 && s.p50 == 4 && s.p99 == 4 && s.stddev == 0);

    /* 1..100 shuffled: p50 = 50, p99 = 99 by nearest rank. */
    double v[100];
    for (int i = 0; i < 100; i++) v[i] = (double)((i * 37) % 100 + 1);
    umb_stats_compute(v, 100, &s);
    CHECK(s.n == 100 && near(s.avg, 50.5) && s.min == 1 && s.max == 100);
    CHECK(s.p50 == 50 && s.p99 == 99);
    CHECK(near(s.stddev, sqrt(841.666666666666667)));
    for (int i = 1; i < 100; i++) CHECK(v[i - 1] <= v[i]);  /* sorted in place */
    /* The median's 95% interval: order statistics 40 and 61 of 100 (the
       ranks of tests/unit/test_precision.c); none with 5 samples. */
    CHECK(s.p50_lo == 40 && s.p50_hi == 61);
    CHECK(s.p25 == 25 && s.p75 == 75);  /* the middle half, by nearest rank */

    /* Ten samples: p99 is the largest, p50 the fifth. */
    double w[] = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
    umb_stats_compute(w, 10, &s);
    CHECK(s.p50 == 5 && s.p99 == 10 && near(s.avg, 5.5));

    /* Rates: 4 windows of 100 bytes taking 1, 2, 2, 5 s. */
    double t[] = {2, 5, 1, 2};
    umb_stats_compute(t, 4, &s);
    umb_stats r;
    umb_stats_rate(t, 4, 100, &r);
    CHECK(r.n == 4 && near(r.avg, 40) && near(r.min, 20) && near(r.max, 100));
    CHECK(near(r.p50, 50) && near(r.p99, 20) && r.p99 <= r.p50);
    CHECK(isnan(r.p50_lo) && isnan(r.p50_hi));  /* 4 windows: too few for an interval */
    double many[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};  /* k = 2 of 9: times 2 and 8 */
    umb_stats r9;
    umb_stats_rate(many, 9, 100, &r9);
    CHECK(near(r9.p50_lo, 100.0 / 8) && near(r9.p50_hi, 100.0 / 2) && r9.p50_lo <= r9.p50 && r9.p50 <= r9.p50_hi);
    CHECK(near(r9.p25, 100.0 / 3) && near(r9.p75, 100.0 / 7) && r9.p75 <= r9.p25);  /* the quartile times 3 and 7 */
    /* Unsorted times give the same rates (it sorts them). */
    double u[] = {5, 1, 2, 2};
    umb_stats r2;
    umb_stats_rate(u, 4, 100, &r2);
    CHECK(near(r2.avg, r.avg) && near(r2.min, r.min) && near(r2.max, r.max) && near(r2.p50, r.p50) && near(r2.p99, r.p99));
    CHECK(near(r.stddev, sqrt(((50 - 55.0) * (50 - 55.0) * 2 + (20 - 55.0) * (20 - 55.0) + (100 - 55.0) * (100 - 55.0)) / 3)));

    umb_stats_compute(w, 0, &s);
    CHECK(s.n == 0 && s.avg == 0);
    return check_done("test_stats");
}
