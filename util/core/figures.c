#include "figures.h"

void umb_figures_one_way(double *times, long n, umb_stats *s)
{
    for (long i = 0; i < n; i++) times[i] *= 1e6 / 2;
    umb_stats_compute(times, n, s);
}

void umb_figures_us(double *times, long n, umb_stats *s)
{
    for (long i = 0; i < n; i++) times[i] *= 1e6;
    umb_stats_compute(times, n, s);
}

double umb_figures_payload(umb_p2p_motion m, size_t size, int window, int nranks)
{
    if (m == UMB_P2P_WINDOW) return (double)size * window * (nranks / 2);
    return 2.0 * (double)size * window;
}

void umb_figures_mbs(double *times, long n, double bytes, umb_stats *s)
{
    umb_stats_rate(times, n, bytes / 1e6, s);
}

void umb_figures_pairs(const double *all, int pairs, long n, size_t size, int window, double *times, umb_stats *s,
                       double *messages_per_s)
{
    double mb = (double)size * window / 1e6, sum_mbs = 0, sum_rate = 0;
    for (int p = 0; p < pairs; p++) {
        double total = 0;
        for (long i = 0; i < n; i++) total += all[p * n + i];
        sum_mbs += mb * (double)n / total;
        sum_rate += (double)window * (double)n / total;
    }
    /* Each window's aggregate rate, as the time it would take to move mb. */
    for (long i = 0; i < n; i++) {
        double rate = 0;
        for (int p = 0; p < pairs; p++) rate += mb / all[p * n + i];
        times[i] = mb / rate;
    }
    umb_stats_rate(times, n, mb, s);
    s->avg = sum_mbs;
    *messages_per_s = sum_rate;
}

double umb_figures_mean_us(const double *times, long n)
{
    double sum = 0;
    for (long i = 0; i < n; i++) sum += times[i] * 1e6;
    return sum / (double)n;
}

void umb_figures_collective(double *samples, long nsamples, const double *means, int nranks, umb_stats *s,
                            int *slowest)
{
    double sum = 0, lo = means[0];
    int at = 0;
    for (int r = 0; r < nranks; r++) {
        sum += means[r];
        if (means[r] < lo) lo = means[r];
        if (means[r] > means[at]) at = r;
    }
    umb_figures_us(samples, nsamples, s);
    s->avg = sum / nranks;
    s->min = lo;
    s->max = means[at];
    s->n = nsamples / nranks;
    *slowest = at;
}

double umb_figures_rate(double bytes, double seconds, double unit)
{
    return bytes / seconds / unit;
}

void umb_figures_copy(double moved, const double secs[3], double cpu, int both_ways, double unit, double out[4])
{
    double whole = (both_ways ? 2 : 1) * moved;
    out[0] = umb_figures_rate(moved, secs[0], unit);
    out[1] = both_ways ? umb_figures_rate(moved, secs[1], unit) : 0;
    out[2] = umb_figures_rate(whole, secs[2], unit);
    out[3] = umb_figures_rate(whole, cpu, unit);
}
