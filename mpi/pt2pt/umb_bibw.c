/* umb_bibw: bidirectional bandwidth between rank 0 and rank 1, OMB's
   method: both ranks post a window of receives and a window of sends,
   then MPI_Waitall (docs/method.md). */
#include "bench.h"
#include "error.h"
#include "watchdog.h"
#include "window.h"

#include <mpi.h>
#include <stdlib.h>

static const umb_cli cli = {
    .program = "umb_bibw",
    .summary = "bidirectional bandwidth between rank 0 and rank 1 (windows of non-blocking sends both ways)",
    .nbuffers = 2,
    .iters = 100, .skip = 10, .iters_large = 20, .skip_large = 2, .large_size = 8192,
    .max_size = (size_t)1 << 22,
    .buffers_per_rank = 2,
    .window = 64,
};

enum { TAG_DATA = 100, TAG_READY = 102 };
static const umb_metric bandwidth = {"Bandwidth (MB/s)", "Bandwidth (MB/s)", "bandwidth_mbs"};

/* One timed pair of windows per iteration. Before it, outside the timer:
   fill (-c), place every slot (--place each), pre-post all receives, and
   exchange a ready message. Rank 0 times its sends and receives. */
static int handshake_loop(umb_bench *b, umb_window *sw, umb_window *rw, size_t size, long iters,
                          long skip, double *times, MPI_Request *reqs)
{
    int peer = 1 - b->rank, valid = 1, place = umb_bench_place_each(b), n = sw->window;
    for (long i = 0; i < skip + iters; i++) {
        umb_progress(size, i);
        if (b->opt.validate) umb_window_fill(sw, size, i, b->rank);
        if (place) {
            umb_window_place(sw, size, b->opt.place_with);
            umb_window_place(rw, size, b->opt.place_with);
        }
        umb_window_irecv(rw, size, peer, TAG_DATA, reqs);
        UMB_MPI_CHECK(MPI_Sendrecv(NULL, 0, MPI_BYTE, peer, TAG_READY, NULL, 0, MPI_BYTE, peer, TAG_READY,
                                   MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        double t0 = MPI_Wtime();
        umb_window_isend(sw, size, peer, TAG_DATA, reqs + n);
        UMB_MPI_CHECK(MPI_Waitall(2 * n, reqs, MPI_STATUSES_IGNORE));
        if (b->rank == 0 && i >= skip) times[i - skip] = MPI_Wtime() - t0;
        if (b->opt.validate && valid) valid = umb_window_check(b, rw, size, i, peer);
    }
    return valid;
}

/* OMB's loop: back to back; rank 0 reads the clock once per iteration. */
static void classic_loop(umb_bench *b, umb_window *sw, umb_window *rw, size_t size, long iters,
                         long skip, double *times, MPI_Request *reqs)
{
    int peer = 1 - b->rank, n = sw->window;
    double prev = 0;
    for (long i = 0; i < skip + iters; i++) {
        umb_progress(size, i);
        if (i == skip) prev = MPI_Wtime();
        umb_window_irecv(rw, size, peer, TAG_DATA, reqs);
        umb_window_isend(sw, size, peer, TAG_DATA, reqs + n);
        UMB_MPI_CHECK(MPI_Waitall(2 * n, reqs, MPI_STATUSES_IGNORE));
        if (i >= skip) {
            double now = MPI_Wtime();
            times[i - skip] = now - prev;
            prev = now;
        }
    }
}

int main(int argc, char **argv)
{
    umb_bench b;
    umb_window sw, rw;
    umb_header h;
    umb_bench_init(&b, &cli, 2, argc, argv);
    umb_window_alloc(&b, &sw, b.opt.max_size);
    umb_window_alloc(&b, &rw, b.opt.max_size);

    int handshake = umb_bench_place_each(&b) || b.opt.validate;
    umb_bench_header(&b, &h);
    if (b.rank == 0) {
        umb_header_num(&h, "window", "Window", b.opt.window);
        umb_header_str(&h, "window_buffers", "Window buffers", "%d per direction per rank (%s)", sw.nbuf,
                       sw.nbuf > 1 ? "one per message: every slot placed and checked on its own" : "one shared by all messages, as OMB");
        umb_header_str(&h, "loop", "Loop", "%s", handshake
            ? "handshake: per iteration, both ranks place and pre-post, exchange ready, then one timed pair of windows"
            : "classic OMB: pairs of windows back to back");
        umb_header_str(&h, "units", "Units", "MB/s = 10^6 bytes/s: 2 x size x window / time of both windows on rank 0");
    }
    umb_bench_header_print(&b, &h);
    umb_bench_columns(&b, &bandwidth, NULL, 0);

    long most = b.opt.iters > b.opt.iters_large ? b.opt.iters : b.opt.iters_large;
    double *times = umb_xmalloc(sizeof(double) * (size_t)most, "window times");
    MPI_Request *reqs = umb_xmalloc(sizeof(MPI_Request) * 2 * (size_t)sw.window, "requests");
    umb_progress_phase("bidirectional bandwidth");
    for (size_t size = b.opt.min_size; size <= b.opt.max_size; size = umb_size_next(size)) {
        long iters, skip;
        int valid = 1;
        umb_iterations(&b.opt, &cli, size, &iters, &skip);
        if (!umb_bench_place_each(&b)) {
            umb_window_place(&sw, size, b.opt.place_with);
            umb_window_place(&rw, size, b.opt.place_with);
        }
        UMB_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
        if (handshake) valid = handshake_loop(&b, &sw, &rw, size, iters, skip, times, reqs);
        else classic_loop(&b, &sw, &rw, size, iters, skip, times, reqs);
        valid = umb_bench_all_valid(&b, valid);
        umb_stats t, r;
        if (b.rank == 0) {
            umb_stats_compute(times, iters, &t);
            umb_stats_rate(times, iters, 2.0 * (double)size * sw.window / 1e6, &r);
        }
        umb_bench_row(&b, size, &r, &bandwidth, NULL, 0, valid);
    }
    free(reqs);
    free(times);
    umb_window_free(&sw);
    umb_window_free(&rw);
    return umb_bench_finish(&b);
}
