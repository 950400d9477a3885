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

static const umb_metric bandwidth = {"Bandwidth (MB/s)", "Bandwidth (MB/s)", "bandwidth_mbs", 1};

typedef struct {
    umb_window sw, rw;   /* each rank sends from sw and receives into rw */
    MPI_Request *reqs;   /* receives first, then sends */
} streams;

/* Both windows of one iteration, the receives already posted. */
static void exchange(streams *st, size_t size, int peer)
{
    umb_window_isend(&st->sw, size, peer, UMB_TAG_DATA, st->reqs + st->sw.window);
    UMB_MPI_CHECK(MPI_Waitall(2 * st->sw.window, st->reqs, MPI_STATUSES_IGNORE));
}

/* One timed pair of windows per iteration. Before it, outside the timer:
   fill (-c), place every slot (--place each), pre-post all receives, and
   exchange a ready message. Rank 0 times its sends and receives. */
static int handshake_loop(umb_bench *b, void *ctx, size_t size, long iters, long skip, double *times)
{
    streams *st = ctx;
    int peer = 1 - b->rank, valid = 1, place = umb_bench_place_each(b);
    for (long i = 0; i < skip + iters; i++) {
        umb_progress(size, i);
        if (b->opt.validate) umb_window_fill(&st->sw, size, i, b->rank);
        if (place) {
            umb_window_place(&st->sw, size, b->opt.place_with);
            umb_window_place(&st->rw, size, b->opt.place_with);
        }
        umb_window_irecv(&st->rw, size, peer, UMB_TAG_DATA, st->reqs);
        UMB_MPI_CHECK(MPI_Sendrecv(NULL, 0, MPI_BYTE, peer, UMB_TAG_READY, NULL, 0, MPI_BYTE, peer,
                                   UMB_TAG_READY, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        double t0 = MPI_Wtime();
        exchange(st, size, peer);
        if (b->rank == 0 && i >= skip) times[i - skip] = MPI_Wtime() - t0;
        if (b->opt.validate && valid) valid = umb_window_check(b, &st->rw, size, i, peer);
    }
    return valid;
}

/* OMB's loop: back to back. Each rank marks an iteration once its windows
   are posted, while they are in flight (umb_laps); rank 0's times count. */
static void classic_loop(umb_bench *b, void *ctx, size_t size, long iters, long skip, double *times)
{
    streams *st = ctx;
    int peer = 1 - b->rank;
    umb_laps laps;
    umb_laps_init(&laps, times, skip);
    for (long i = 0; i < skip + iters; i++) {
        umb_lap_open(&laps, i);
        umb_window_irecv(&st->rw, size, peer, UMB_TAG_DATA, st->reqs);
        umb_window_isend(&st->sw, size, peer, UMB_TAG_DATA, st->reqs + st->sw.window);
        umb_lap_mark(&laps, i);
        umb_progress(size, i);
        UMB_MPI_CHECK(MPI_Waitall(2 * st->sw.window, st->reqs, MPI_STATUSES_IGNORE));
    }
    umb_laps_close(&laps, iters);
}

static void place(umb_bench *b, void *ctx, size_t size)
{
    streams *st = ctx;
    umb_window_place(&st->sw, size, b->opt.place_with);
    umb_window_place(&st->rw, size, b->opt.place_with);
}

static void summarize(umb_bench *b, void *ctx, size_t size, double *times, long iters, umb_stats *s, umb_col *extra)
{
    (void)extra;
    if (b->rank == 0) umb_window_rates(times, iters, 2.0 * (double)size * ((streams *)ctx)->sw.window, s);
}

/* A window of messages each way. */
static double payload(umb_bench *b, void *ctx, size_t size)
{
    (void)b;
    return 2.0 * (double)size * ((streams *)ctx)->sw.window;
}

int main(int argc, char **argv)
{
    umb_bench b;
    streams st;
    umb_header h;
    umb_bench_init(&b, &cli, 2, argc, argv);
    umb_window_alloc(&b, &st.sw, b.opt.max_size);
    umb_window_alloc(&b, &st.rw, b.opt.max_size);
    st.reqs = umb_xmalloc(sizeof(MPI_Request) * 2 * (size_t)st.sw.window, "requests");

    umb_bench_header(&b, &h);
    if (b.rank == 0) umb_window_header(&h, &st.sw, "per direction per rank");
    const umb_sweep sweep = {
        .metric = &bandwidth,
        .phase = "bidirectional bandwidth",
        .handshake = handshake_loop,
        .classic = classic_loop,
        .place = place,
        .summarize = summarize,
        .payload = payload,
        .loop_handshake = "handshake: per iteration, both ranks place and pre-post, exchange ready, then one timed pair of windows",
        .loop_classic = "classic OMB: pairs of windows back to back",
        .units = "MB/s = 10^6 bytes/s: 2 x size x window / time of both windows on rank 0",
    };
    umb_bench_run(&b, &h, &sweep, &st);
    free(st.reqs);
    umb_window_free(&st.sw);
    umb_window_free(&st.rw);
    return umb_bench_finish(&b);
}
