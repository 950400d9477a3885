/* umb_bw: unidirectional bandwidth, rank 0 to rank 1, OMB's method: a
   window of non-blocking sends, MPI_Waitall, then a short ack
   (docs/method.md). */
#include "bench.h"
#include "error.h"
#include "watchdog.h"
#include "window.h"

#include <mpi.h>
#include <stdlib.h>

static const umb_cli cli = {
    .program = "umb_bw",
    .summary = "unidirectional bandwidth from rank 0 to rank 1 (a window of non-blocking sends, then an ack)",
    .nbuffers = 2,
    .iters = 100, .skip = 10, .iters_large = 20, .skip_large = 2, .large_size = 8192,
    .max_size = (size_t)1 << 22,
    .buffers_per_rank = 1,
    .window = 64,
};

enum { TAG_DATA = 100, TAG_ACK = 101, TAG_READY = 102 };
static const umb_metric bandwidth = {"Bandwidth (MB/s)", "Bandwidth (MB/s)", "bandwidth_mbs"};

/* One timed window per iteration. Before it, outside the timer: fill (-c),
   place every slot (--place each), rank 1 pre-posts all receives and
   signals ready. The timer runs from the first send to the ack. */
static int handshake_loop(umb_bench *b, umb_window *w, size_t size, long iters, long skip,
                          double *times, MPI_Request *reqs)
{
    int peer = 1 - b->rank, valid = 1, place = umb_bench_place_each(b);
    char ack[4] = {0};
    for (long i = 0; i < skip + iters; i++) {
        umb_progress(size, i);
        if (b->opt.validate && b->rank == 0) umb_window_fill(w, size, i, b->rank);
        if (place) umb_window_place(w, size, b->opt.place_with);
        if (b->rank == 0) {
            UMB_MPI_CHECK(MPI_Recv(NULL, 0, MPI_BYTE, peer, TAG_READY, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            double t0 = MPI_Wtime();
            umb_window_isend(w, size, peer, TAG_DATA, reqs);
            UMB_MPI_CHECK(MPI_Waitall(w->window, reqs, MPI_STATUSES_IGNORE));
            UMB_MPI_CHECK(MPI_Recv(ack, 4, MPI_BYTE, peer, TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            if (i >= skip) times[i - skip] = MPI_Wtime() - t0;
        } else {
            umb_window_irecv(w, size, peer, TAG_DATA, reqs);
            UMB_MPI_CHECK(MPI_Send(NULL, 0, MPI_BYTE, peer, TAG_READY, MPI_COMM_WORLD));
            UMB_MPI_CHECK(MPI_Waitall(w->window, reqs, MPI_STATUSES_IGNORE));
            UMB_MPI_CHECK(MPI_Send(ack, 4, MPI_BYTE, peer, TAG_ACK, MPI_COMM_WORLD));
            if (b->opt.validate && valid) valid = umb_window_check(b, w, size, i, peer);
        }
    }
    return valid;
}

/* OMB's loop: windows back to back; rank 0 reads the clock once per window. */
static void classic_loop(umb_bench *b, umb_window *w, size_t size, long iters, long skip,
                         double *times, MPI_Request *reqs)
{
    int peer = 1 - b->rank;
    char ack[4] = {0};
    double prev = 0;
    for (long i = 0; i < skip + iters; i++) {
        umb_progress(size, i);
        if (b->rank == 0) {
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

int main(int argc, char **argv)
{
    umb_bench b;
    umb_window w;
    umb_header h;
    umb_bench_init(&b, &cli, 2, argc, argv);
    /* Rank 0 only sends and rank 1 only receives: one window each. */
    umb_window_alloc(&b, &w, b.opt.max_size);

    int handshake = umb_bench_place_each(&b) || b.opt.validate;
    umb_bench_header(&b, &h);
    if (b.rank == 0) {
        umb_header_num(&h, "window", "Window", b.opt.window);
        umb_header_str(&h, "window_buffers", "Window buffers", "%d per rank (%s)", w.nbuf,
                       w.nbuf > 1 ? "one per message: every slot placed and checked on its own" : "one shared by all messages, as OMB");
        umb_header_str(&h, "loop", "Loop", "%s", handshake
            ? "handshake: per window, both ranks place, rank 1 pre-posts and signals ready, then one timed window and ack"
            : "classic OMB: windows back to back");
        umb_header_str(&h, "units", "Units", "MB/s = 10^6 bytes/s: size x window / time from first send to ack");
    }
    umb_bench_header_print(&b, &h);
    umb_bench_columns(&b, &bandwidth, NULL, 0);

    long most = b.opt.iters > b.opt.iters_large ? b.opt.iters : b.opt.iters_large;
    double *times = umb_xmalloc(sizeof(double) * (size_t)most, "window times");
    MPI_Request *reqs = umb_xmalloc(sizeof(MPI_Request) * (size_t)w.window, "requests");
    umb_progress_phase("bandwidth");
    for (size_t size = b.opt.min_size; size <= b.opt.max_size; size = umb_size_next(size)) {
        long iters, skip;
        int valid = 1;
        umb_iterations(&b.opt, &cli, size, &iters, &skip);
        if (!umb_bench_place_each(&b)) umb_window_place(&w, size, b.opt.place_with);
        UMB_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
        if (handshake) valid = handshake_loop(&b, &w, size, iters, skip, times, reqs);
        else classic_loop(&b, &w, size, iters, skip, times, reqs);
        valid = umb_bench_all_valid(&b, valid);
        umb_stats t, r;
        if (b.rank == 0) {
            umb_stats_compute(times, iters, &t);
            umb_stats_rate(times, iters, (double)size * w.window / 1e6, &r);
        }
        umb_bench_row(&b, size, &r, &bandwidth, NULL, 0, valid);
    }
    free(reqs);
    free(times);
    umb_window_free(&w);
    return umb_bench_finish(&b);
}
