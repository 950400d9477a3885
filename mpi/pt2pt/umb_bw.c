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

static const umb_metric bandwidth = {"Bandwidth (MB/s)", "Bandwidth (MB/s)", "bandwidth_mbs", 1};

typedef struct {
    umb_window w;  /* rank 0 sends from it, rank 1 receives into it */
    MPI_Request *reqs;
} stream;

/* One timed window per iteration. Before it, outside the timer: fill (-c),
   place every slot (--place each), rank 1 pre-posts all receives and
   signals ready. The timer runs from the first send to the ack. */
static int handshake_loop(umb_bench *b, void *ctx, size_t size, long iters, long skip, double *times)
{
    stream *st = ctx;
    int peer = 1 - b->rank, valid = 1, place = umb_bench_place_each(b);
    for (long i = 0; i < skip + iters; i++) {
        umb_progress(size, i);
        if (b->opt.validate && b->rank == 0) umb_window_fill(&st->w, size, i, b->rank);
        if (place) umb_window_place(&st->w, size, b->opt.place_with);
        if (b->rank == 0) {
            UMB_MPI_CHECK(MPI_Recv(NULL, 0, MPI_BYTE, peer, UMB_TAG_READY, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            double t0 = MPI_Wtime();
            umb_window_send_acked(&st->w, size, peer, st->reqs);
            if (i >= skip) times[i - skip] = MPI_Wtime() - t0;
        } else {
            umb_window_irecv(&st->w, size, peer, UMB_TAG_DATA, st->reqs);
            UMB_MPI_CHECK(MPI_Send(NULL, 0, MPI_BYTE, peer, UMB_TAG_READY, MPI_COMM_WORLD));
            umb_window_wait_and_ack(&st->w, peer, st->reqs);
            if (b->opt.validate && valid) valid = umb_window_check(b, &st->w, size, i, peer);
        }
    }
    return valid;
}

/* OMB's loop: windows back to back. Rank 0 marks each window once its
   sends are posted, while they are in flight (umb_laps). */
static void classic_loop(umb_bench *b, void *ctx, size_t size, long iters, long skip, double *times)
{
    stream *st = ctx;
    int peer = 1 - b->rank;
    umb_laps laps;
    umb_laps_init(&laps, times, skip);
    for (long i = 0; i < skip + iters; i++) {
        if (b->rank == 0) {
            umb_lap_open(&laps, i);
            umb_window_isend(&st->w, size, peer, UMB_TAG_DATA, st->reqs);
            umb_lap_mark(&laps, i);
            umb_progress(size, i);
            umb_window_wait_acked(&st->w, peer, st->reqs);
        } else {
            umb_progress(size, i);
            umb_window_irecv(&st->w, size, peer, UMB_TAG_DATA, st->reqs);
            umb_window_wait_and_ack(&st->w, peer, st->reqs);
        }
    }
    if (b->rank == 0) umb_laps_close(&laps, iters);
}

static void place(umb_bench *b, void *ctx, size_t size)
{
    umb_window_place(&((stream *)ctx)->w, size, b->opt.place_with);
}

static void summarize(umb_bench *b, void *ctx, size_t size, double *times, long iters, umb_stats *s, umb_col *extra)
{
    (void)extra;
    if (b->rank == 0) umb_window_rates(times, iters, (double)size * ((stream *)ctx)->w.window, s);
}

/* A window of messages one way. */
static double payload(umb_bench *b, void *ctx, size_t size)
{
    (void)b;
    return (double)size * ((stream *)ctx)->w.window;
}

int main(int argc, char **argv)
{
    umb_bench b;
    stream st;
    umb_header h;
    umb_bench_init(&b, &cli, 2, argc, argv);
    umb_window_alloc(&b, &st.w, b.opt.max_size);
    st.reqs = umb_xmalloc(sizeof(MPI_Request) * (size_t)st.w.window, "requests");

    umb_bench_header(&b, &h);
    if (b.rank == 0) umb_window_header(&h, &st.w, "per rank");
    const umb_sweep sweep = {
        .metric = &bandwidth,
        .phase = "bandwidth",
        .handshake = handshake_loop,
        .classic = classic_loop,
        .place = place,
        .summarize = summarize,
        .payload = payload,
        .loop_handshake = "handshake: per window, both ranks place, rank 1 pre-posts and signals ready, then one timed window and ack",
        .loop_classic = "classic OMB: windows back to back",
        .units = "MB/s = 10^6 bytes/s: size x window / time from first send to ack",
    };
    umb_bench_run(&b, &h, &sweep, &st);
    free(st.reqs);
    umb_window_free(&st.w);
    return umb_bench_finish(&b);
}
