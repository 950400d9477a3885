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

enum { TAG_DATA = 100, TAG_ACK = 101 };
static const umb_metric bandwidth = {"MB/s", "Bandwidth (MB/s)", "bandwidth_mbs"};

/* One timed window per iteration and pair. Before it, outside the timer:
   fill (-c), place (--place each), receivers pre-post, then a barrier so
   every pair starts together. Each sender times its window and ack. */
static int handshake_loop(umb_bench *b, umb_window *w, int sender, int peer, size_t size, long iters,
                          long skip, double *times, MPI_Request *reqs)
{
    int valid = 1, place = umb_bench_place_each(b);
    char ack[4] = {0};
    for (long i = 0; i < skip + iters; i++) {
        umb_progress(size, i);
        if (b->opt.validate && sender) umb_window_fill(w, size, i, b->rank);
        if (place) umb_window_place(w, size, b->opt.place_with);
        if (!sender) umb_window_irecv(w, size, peer, TAG_DATA, reqs);
        UMB_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
        if (sender) {
            double t0 = MPI_Wtime();
            umb_window_isend(w, size, peer, TAG_DATA, reqs);
            UMB_MPI_CHECK(MPI_Waitall(w->window, reqs, MPI_STATUSES_IGNORE));
            UMB_MPI_CHECK(MPI_Recv(ack, 4, MPI_BYTE, peer, TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            if (i >= skip) times[i - skip] = MPI_Wtime() - t0;
        } else {
            UMB_MPI_CHECK(MPI_Waitall(w->window, reqs, MPI_STATUSES_IGNORE));
            UMB_MPI_CHECK(MPI_Send(ack, 4, MPI_BYTE, peer, TAG_ACK, MPI_COMM_WORLD));
            if (b->opt.validate && valid) valid = umb_window_check(b, w, size, i, peer);
        }
    }
    return valid;
}

/* OMB's loop: windows back to back after one barrier; each sender reads
   the clock once per window. */
static void classic_loop(umb_window *w, int sender, int peer, size_t size, long iters,
                         long skip, double *times, MPI_Request *reqs)
{
    char ack[4] = {0};
    double prev = 0;
    for (long i = 0; i < skip + iters; i++) {
        umb_progress(size, i);
        if (sender) {
            if (i == skip) prev = MPI_Wtime();
            umb_window_isend(w, size, peer, TAG_DATA, reqs);
            UMB_MPI_CHECK(MPI_Waitall(w->window, reqs, MPI_STATUSES_IGNORE));
            UMB_MPI_CHECK(MPI_Recv(ack, 4, MPI_BYTE, peer, TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            if (i >= skip) {
                double now = MPI_Wtime();
                times[i - skip] = now - prev;
                prev = now;
            }
        } else {
            umb_window_irecv(w, size, peer, TAG_DATA, reqs);
            UMB_MPI_CHECK(MPI_Waitall(w->window, reqs, MPI_STATUSES_IGNORE));
            UMB_MPI_CHECK(MPI_Send(ack, 4, MPI_BYTE, peer, TAG_ACK, MPI_COMM_WORLD));
        }
    }
}

/* Rank 0: aggregate rates from every sender's window times (all[s * iters + i]).
   Avg and Messages/s are OMB's: the sum of each sender's own rate. The
   spread is over windows, of the sum of the senders' rates in that window. */
static void aggregate(const double *all, int pairs, long iters, size_t size, int window,
                      umb_stats *bw, double *msg_rate)
{
    double mb = (double)size * window / 1e6, sum_bw = 0, sum_rate = 0;
    double *eff = umb_xmalloc(sizeof(double) * (size_t)iters, "window rates");
    for (int s = 0; s < pairs; s++) {
        double total = 0;
        for (long i = 0; i < iters; i++) total += all[s * iters + i];
        sum_bw += mb * (double)iters / total;
        sum_rate += (double)window * (double)iters / total;
    }
    /* Per window, the aggregate rate as an equivalent time for `mb`. */
    for (long i = 0; i < iters; i++) {
        double rate = 0;
        for (int s = 0; s < pairs; s++) rate += mb / all[s * iters + i];
        eff[i] = mb / rate;
    }
    umb_stats t;
    umb_stats_compute(eff, iters, &t);
    umb_stats_rate(eff, iters, mb, bw);
    bw->avg = sum_bw;
    *msg_rate = sum_rate;
    free(eff);
}

int main(int argc, char **argv)
{
    umb_bench b;
    umb_window w;
    umb_header h;
    umb_bench_init(&b, &cli, -2, argc, argv);
    int pairs = b.nranks / 2, sender = b.rank < pairs;
    int peer = sender ? b.rank + pairs : b.rank - pairs;
    umb_window_alloc(&b, &w, b.opt.max_size);

    int handshake = umb_bench_place_each(&b) || b.opt.validate;
    umb_bench_header(&b, &h);
    if (b.rank == 0) {
        umb_header_num(&h, "pairs", "Pairs", pairs);
        umb_header_num(&h, "window", "Window", b.opt.window);
        umb_header_str(&h, "window_buffers", "Window buffers", "%d per rank (%s)", w.nbuf,
                       w.nbuf > 1 ? "one per message: every slot placed and checked on its own" : "one shared by all messages, as OMB");
        umb_header_str(&h, "loop", "Loop", "%s", handshake
            ? "handshake: per window, every rank places, receivers pre-post, a barrier, then one timed window and ack per pair"
            : "classic OMB: windows back to back");
        umb_header_str(&h, "units", "Units", "MB/s = 10^6 bytes/s and messages/s, summed over the senders");
    }
    umb_bench_header_print(&b, &h);
    umb_col rate = {"Messages/s", "messages_per_s", 0, 2, 0};
    umb_bench_columns(&b, &bandwidth, &rate, 1);

    long most = b.opt.iters > b.opt.iters_large ? b.opt.iters : b.opt.iters_large;
    double *times = umb_xmalloc(sizeof(double) * (size_t)most, "window times");
    double *all = b.rank == 0 ? umb_xmalloc(sizeof(double) * (size_t)most * (size_t)b.nranks, "all window times") : NULL;
    MPI_Request *reqs = umb_xmalloc(sizeof(MPI_Request) * (size_t)w.window, "requests");
    umb_progress_phase("multi-pair bandwidth");
    for (size_t size = b.opt.min_size; size <= b.opt.max_size; size = umb_size_next(size)) {
        long iters, skip;
        int valid = 1;
        umb_iterations(&b.opt, &cli, size, &iters, &skip);
        if (!umb_bench_place_each(&b)) umb_window_place(&w, size, b.opt.place_with);
        UMB_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
        if (handshake) valid = handshake_loop(&b, &w, sender, peer, size, iters, skip, times, reqs);
        else classic_loop(&w, sender, peer, size, iters, skip, times, reqs);
        valid = umb_bench_all_valid(&b, valid);
        /* Senders are ranks 0..pairs-1: their times come first. */
        UMB_MPI_CHECK(MPI_Gather(times, (int)iters, MPI_DOUBLE, all, (int)iters, MPI_DOUBLE, 0, MPI_COMM_WORLD));
        umb_stats r;
        if (b.rank == 0) aggregate(all, pairs, iters, size, w.window, &r, &rate.value);
        umb_bench_row(&b, size, &r, &bandwidth, &rate, 1, valid);
    }
    free(reqs);
    free(all);
    free(times);
    umb_window_free(&w);
    return umb_bench_finish(&b);
}
