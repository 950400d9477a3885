/* Every figure a row prints, from known times (util/core/figures.h): a
   known time in, the known figure out to the last digit the table prints
   (2 decimals). A factor of 2 anywhere (a round trip for one way, one
   direction for both) fails here though it keeps every shape a program's
   own run checks (issue 70). */
#include "check.h"
#include "figures.h"

#include <math.h>

/* The value as the table prints it (output.c: "%.*f", 2 decimals). */
#define FIG(value, text)                                     \
    do {                                                     \
        char got_[64];                                       \
        snprintf(got_, sizeof got_, "%.2f", (double)(value)); \
        if (strcmp(got_, text))                              \
            fprintf(stderr, "%s:%d: %s is %s, expected %s\n", __FILE__, __LINE__, #value, got_, text); \
        CHECK(!strcmp(got_, text));                          \
    } while (0)

static void latency(void)
{
    /* umb_latency: round trips of 10, 20, 30 us are one-way 5, 10, 15 us. */
    double rt[] = {30e-6, 10e-6, 20e-6};
    umb_stats s;
    umb_figures_one_way(rt, 3, &s);
    FIG(s.p50, "10.00");
    FIG(s.avg, "10.00");
    FIG(s.min, "5.00");
    FIG(s.max, "15.00");
    /* One-sided latency: one operation per time, no halving. */
    double op[] = {3e-6, 1.5e-6, 2.25e-6};
    umb_figures_us(op, 3, &s);
    FIG(s.p50, "2.25");
    FIG(s.min, "1.50");
    FIG(s.max, "3.00");
}

static void bandwidth(void)
{
    umb_stats s;
    /* The payload of one timed iteration, summed over ranks. */
    FIG(umb_figures_payload(UMB_P2P_PING_PONG, 1000, 1, 2), "2000.00");
    FIG(umb_figures_payload(UMB_P2P_WINDOW, 1000, 64, 2), "64000.00");     /* umb_bw: one way */
    FIG(umb_figures_payload(UMB_P2P_EXCHANGE, 1000, 64, 2), "128000.00");  /* umb_bibw: both ways */
    FIG(umb_figures_payload(UMB_P2P_WINDOW, 1000, 64, 8), "256000.00");    /* umb_mbw_mr: 4 pairs */
    /* umb_bw and umb_bibw: a window of 64 messages of 1 MiB in 10 ms. */
    double t1[] = {0.01}, t2[] = {0.01};
    umb_figures_mbs(t1, 1, umb_figures_payload(UMB_P2P_WINDOW, 1 << 20, 64, 2), &s);
    FIG(s.p50, "6710.89");
    umb_figures_mbs(t2, 1, umb_figures_payload(UMB_P2P_EXCHANGE, 1 << 20, 64, 2), &s);
    FIG(s.p50, "13421.77");
    /* MB/s = 10^6 bytes/s; Avg is the bytes over the summed time (not the mean rate). */
    double t[] = {2e-3, 1e-3};
    umb_figures_mbs(t, 2, 64000, &s);
    FIG(s.max, "64.00");
    FIG(s.min, "32.00");
    FIG(s.avg, "42.67");
    /* One-sided bandwidth: size x operations per window (rma.c). */
    double w[] = {4e-3};
    umb_figures_mbs(w, 1, 4096.0 * 64, &s);
    FIG(s.p50, "65.54");
}

static void pairs(void)
{
    /* umb_mbw_mr, 2 pairs, windows of 10 messages of 1000 bytes: pair 0
       takes 1 ms a window (10 MB/s, 10000 messages/s), pair 1 2 ms (5 MB/s). */
    double all[] = {1e-3, 1e-3, 2e-3, 2e-3}, times[2], rate = 0;
    umb_stats s;
    umb_figures_pairs(all, 2, 2, 1000, 10, times, &s, &rate);
    FIG(s.avg, "15.00");
    FIG(s.p50, "15.00");
    FIG(rate, "15000.00");
    /* Uneven windows: Avg is the sum of each pair's own rate over its total time. */
    double uneven[] = {1e-3, 3e-3, 2e-3, 2e-3};
    umb_figures_pairs(uneven, 2, 2, 1000, 10, times, &s, &rate);
    FIG(s.avg, "10.00");
    FIG(rate, "10000.00");
    FIG(s.max, "15.00");   /* window 0: 10 + 5 MB/s */
    FIG(s.min, "8.33");    /* window 1: 3.33 + 5 MB/s */
}

static void collective(void)
{
    double mine[] = {1e-6, 3e-6, 2e-6};
    FIG(umb_figures_mean_us(mine, 3), "2.00");
    /* 4 ranks' means; ranks 1 and 2 tie for the slowest: the row names rank 1. */
    double means[] = {4, 9, 9, 1};
    double samples[8] = {4e-6, 4e-6, 9e-6, 9e-6, 9e-6, 9e-6, 1e-6, 1e-6};
    umb_stats s;
    int slowest = -1;
    umb_figures_collective(samples, 8, means, 4, &s, &slowest);
    FIG(s.avg, "5.75");
    FIG(s.min, "1.00");
    FIG(s.max, "9.00");
    FIG(s.p50, "4.00");  /* over all 8 samples (stats.c percentile) */
    CHECK(slowest == 1);
    CHECK(s.n == 2);
    double later[] = {1, 2, 7};
    double three[3] = {1e-6, 2e-6, 7e-6};
    umb_figures_collective(three, 3, later, 3, &s, &slowest);
    CHECK(slowest == 2);
    FIG(s.avg, "3.33");
}

static void drivers(void)
{
    FIG(umb_figures_rate(1e9, 0.5, UMB_GB), "2.00");
    FIG(umb_figures_rate(1073741824.0, 0.25, UMB_GIB), "4.00");
    FIG(umb_figures_rate(1e9, 1, UMB_GIB), "0.93");
    double secs[3] = {1, 0.5, 2}, out[4];
    umb_figures_copy(1e9, secs, 4, 1, UMB_GB, out);  /* both ways: 2e9 bytes over the whole */
    FIG(out[0], "1.00");
    FIG(out[1], "2.00");
    FIG(out[2], "1.00");
    FIG(out[3], "0.50");
    umb_figures_copy(1e9, secs, 4, 0, UMB_GB, out);
    FIG(out[1], "0.00");
    FIG(out[2], "0.50");
    FIG(out[3], "0.25");
}

int main(void)
{
    latency();
    bandwidth();
    pairs();
    collective();
    drivers();
    return check_done("test_figures");
}
