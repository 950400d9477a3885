/* umb_mbw_mr: multi-pair bandwidth and message rate, OMB's osu_mbw_mr
   method: with 2N ranks, rank r < N sends windows to rank r + N
   (docs/method.md). */
#include "bench.h"
#include "error.h"
#include "watchdog.h"
#include "window.h"

#include <mpi.h>
#include <stdlib.h>

static const umb_cli cli = {
    .program = "umb_mbw_mr",
    .summary = "multi-pair bandwidth and message rate (ranks r < N send to r + N)",
    .nbuffers = 2,
    .iters = 100, .skip = 10, .iters_large = 20, .skip_large = 2, .large_size = 8192,
    .max_size = (size_t)1 << 22,
    .buffers_per_rank = 1,
    .window = 64,
};

static const umb_metric bandwidth = {"MB/s", "Bandwidth (MB/s)", "bandwidth_mbs", 1};

typedef struct {
    umb_window w;
    MPI_Request *reqs;
    int pairs, sender, peer;
    double *all;  /* rank 0: every rank's window times, rank by rank */
    long all_iters;  /* iterations `all` has room for (--precision grows them) */
} pair_streams;

/* One timed window per iteration and pair. Before it, outside the timer:
   fill (-c), place (--place each), receivers pre-post, then a barrier so
   every pair starts together. Each sender times its window and ack. */
static int handshake_loop(umb_bench *b, void *ctx, size_t size, long iters, long skip, double *times)
{
    pair_streams *ps = ctx;
    int valid = 1, place = umb_bench_place_each(b);
    for (long i = 0; i < skip + iters; i++) {
        umb_progress(size, i);
        if (b->opt.validate && ps->sender) umb_window_fill(&ps->w, size, i, b->rank);
        if (place) umb_window_place(&ps->w, size, b->opt.place_with);
        if (!ps->sender) umb_window_irecv(&ps->w, size, ps->peer, UMB_TAG_DATA, ps->reqs);
        UMB_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
        if (ps->sender) {
            double t0 = MPI_Wtime();
            umb_window_send_acked(&ps->w, size, ps->peer, ps->reqs);
            if (i >= skip) times[i - skip] = MPI_Wtime() - t0;
        } else {
            umb_window_wait_and_ack(&ps->w, ps->peer, ps->reqs);
            if (b->opt.validate && valid) valid = umb_window_check(b, &ps->w, size, i, ps->peer);
        }
    }
    return valid;
}

/* OMB's loop: windows back to back after one barrier; each sender marks a
   window once its sends are posted, while they are in flight (umb_laps). */
static void classic_loop(umb_bench *b, void *ctx, size_t size, long iters, long skip, double *times)
{
    pair_streams *ps = ctx;
    (void)b;
    umb_laps laps;
    umb_laps_init(&laps, times, skip);
    for (long i = 0; i < skip + iters; i++) {
        if (ps->sender) {
            umb_lap_open(&laps, i);
            umb_window_isend(&ps->w, size, ps->peer, UMB_TAG_DATA, ps->reqs);
            umb_lap_mark(&laps, i);
            umb_progress(size, i);
            umb_window_wait_acked(&ps->w, ps->peer, ps->reqs);
        } else {
            umb_progress(size, i);
            umb_window_irecv(&ps->w, size, ps->peer, UMB_TAG_DATA, ps->reqs);
            umb_window_wait_and_ack(&ps->w, ps->peer, ps->reqs);
        }
    }
    if (ps->sender) umb_laps_close(&laps, iters);
}

static void place(umb_bench *b, void *ctx, size_t size)
{
    umb_window_place(&((pair_streams *)ctx)->w, size, b->opt.place_with);
}

/* Collective: rank 0 gathers every sender's window times (senders are
   ranks 0..N-1, so theirs come first). Avg and Messages/s are OMB's: the
   sum of each sender's own rate. The spread is over windows, of the sum of
   the senders' rates in that window. */
static void summarize(umb_bench *b, void *ctx, size_t size, double *times, long iters, umb_stats *s, umb_col *extra)
{
    pair_streams *ps = ctx;
    if (b->rank == 0 && iters > ps->all_iters) {
        free(ps->all);
        ps->all = umb_xmalloc(sizeof(double) * (size_t)iters * (size_t)b->nranks, "all window times");
        ps->all_iters = iters;
    }
    UMB_MPI_CHECK(MPI_Gather(times, (int)iters, MPI_DOUBLE, ps->all, (int)iters, MPI_DOUBLE, 0, MPI_COMM_WORLD));
    if (b->rank != 0) return;
    double mb = (double)size * ps->w.window / 1e6, sum_bw = 0, sum_rate = 0;
    for (int p = 0; p < ps->pairs; p++) {
        double total = 0;
        for (long i = 0; i < iters; i++) total += ps->all[p * iters + i];
        sum_bw += mb * (double)iters / total;
        sum_rate += (double)ps->w.window * (double)iters / total;
    }
    /* Each window's aggregate rate, as the time it would take to move mb. */
    for (long i = 0; i < iters; i++) {
        double rate = 0;
        for (int p = 0; p < ps->pairs; p++) rate += mb / ps->all[p * iters + i];
        times[i] = mb / rate;
    }
    umb_window_rates(times, iters, mb * 1e6, s);
    s->avg = sum_bw;
    extra[0].value = sum_rate;
}

/* A window of messages from every sender. */
static double payload(umb_bench *b, void *ctx, size_t size)
{
    const pair_streams *ps = ctx;
    return (double)size * ps->w.window * (b->nranks / 2);
}

int main(int argc, char **argv)
{
    umb_bench b;
    pair_streams ps;
    umb_header h;
    umb_bench_init(&b, &cli, -2, argc, argv);
    ps.pairs = b.nranks / 2;
    ps.sender = b.rank < ps.pairs;
    ps.peer = ps.sender ? b.rank + ps.pairs : b.rank - ps.pairs;
    umb_window_alloc(&b, &ps.w, b.opt.max_size);
    ps.reqs = umb_xmalloc(sizeof(MPI_Request) * (size_t)ps.w.window, "requests");
    ps.all = NULL;
    ps.all_iters = 0;

    umb_bench_header(&b, &h);
    if (b.rank == 0) {
        umb_header_num(&h, "pairs", "Pairs", ps.pairs);
        umb_window_header(&h, &ps.w, "per rank");
    }
    const umb_sweep sweep = {
        .metric = &bandwidth,
        .phase = "multi-pair bandwidth",
        .handshake = handshake_loop,
        .classic = classic_loop,
        .place = place,
        .summarize = summarize,
        .payload = payload,
        .nextra = 1,
        .extra = {{.title = "Messages/s", .key = "messages_per_s", .decimals = 2}},
        .loop_handshake = "handshake: per window, every rank places, receivers pre-post, a barrier, then one timed window and ack per pair",
        .loop_classic = "classic OMB: windows back to back",
        .units = "MB/s = 10^6 bytes/s and messages/s, summed over the senders",
    };
    umb_bench_run(&b, &h, &sweep, &ps);
    free(ps.all);
    free(ps.reqs);
    umb_window_free(&ps.w);
    return umb_bench_finish(&b);
}
