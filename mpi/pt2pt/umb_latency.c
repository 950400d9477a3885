/* umb_latency: ping-pong latency between 2 ranks, with managed buffers
   placed before every round trip (docs/method.md). */
#include "bench.h"
#include "error.h"
#include "pattern.h"
#include "watchdog.h"

#include <mpi.h>

static const umb_cli cli = {
    .program = "umb_latency",
    .summary = "ping-pong latency between 2 ranks",
    .nbuffers = 2,
    .iters = 10000, .skip = 100, .iters_large = 1000, .skip_large = 10, .large_size = 8192,
    .max_size = (size_t)1 << 22,
    .buffers_per_rank = 2,
};

enum { TAG_DATA = 1, TAG_READY = 2 };
static const umb_metric latency = {"Avg Latency(us)", "Latency(us)", "latency_us", 0};

typedef struct {
    umb_buffer sbuf, rbuf;
} ping_pong;

/* One timed round trip per iteration. Before it, outside the timer: fill
   (-c), place (--place each), pre-post the receive, and rank 1 signals
   rank 0 that it is ready. */
static int handshake_loop(umb_bench *b, void *ctx, size_t size, long iters, long skip, double *times)
{
    ping_pong *pp = ctx;
    int peer = 1 - b->rank, valid = 1, place = umb_bench_place_each(b);
    MPI_Request req;
    for (long i = 0; i < skip + iters; i++) {
        umb_progress(size, i);
        if (b->opt.validate) umb_buffer_fill(&pp->sbuf, 0, size, umb_pattern_seed(i, size, b->rank));
        if (place) {
            umb_buffer_place(&pp->sbuf, size, b->opt.place_with);
            umb_buffer_place(&pp->rbuf, size, b->opt.place_with);
        }
        UMB_MPI_CHECK(MPI_Irecv(pp->rbuf.ptr, (int)size, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, &req));
        if (b->rank == 0) {
            UMB_MPI_CHECK(MPI_Recv(NULL, 0, MPI_BYTE, peer, TAG_READY, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            double t0 = MPI_Wtime();
            UMB_MPI_CHECK(MPI_Send(pp->sbuf.ptr, (int)size, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD));
            UMB_MPI_CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE));
            if (i >= skip) times[i - skip] = MPI_Wtime() - t0;
        } else {
            UMB_MPI_CHECK(MPI_Send(NULL, 0, MPI_BYTE, peer, TAG_READY, MPI_COMM_WORLD));
            UMB_MPI_CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE));
            UMB_MPI_CHECK(MPI_Send(pp->sbuf.ptr, (int)size, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD));
        }
        if (b->opt.validate && valid) valid = umb_bench_check(b, &pp->rbuf, 0, size, i, peer);
    }
    return valid;
}

/* OMB's loop: back-to-back round trips. Rank 0 marks each iteration once
   its send has returned, while the message is in flight (umb_laps). */
static void classic_loop(umb_bench *b, void *ctx, size_t size, long iters, long skip, double *times)
{
    ping_pong *pp = ctx;
    int peer = 1 - b->rank;
    umb_laps laps;
    umb_laps_init(&laps, times, skip);
    for (long i = 0; i < skip + iters; i++) {
        if (b->rank == 0) {
            umb_lap_open(&laps, i);
            UMB_MPI_CHECK(MPI_Send(pp->sbuf.ptr, (int)size, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD));
            umb_lap_mark(&laps, i);
            umb_progress(size, i);
            UMB_MPI_CHECK(MPI_Recv(pp->rbuf.ptr, (int)size, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        } else {
            umb_progress(size, i);
            UMB_MPI_CHECK(MPI_Recv(pp->rbuf.ptr, (int)size, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            UMB_MPI_CHECK(MPI_Send(pp->sbuf.ptr, (int)size, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD));
        }
    }
    if (b->rank == 0) umb_laps_close(&laps, iters);
}

static void place(umb_bench *b, void *ctx, size_t size)
{
    ping_pong *pp = ctx;
    umb_buffer_place(&pp->sbuf, size, b->opt.place_with);
    umb_buffer_place(&pp->rbuf, size, b->opt.place_with);
}

/* One-way latency in microseconds: round trip / 2. */
static void summarize(umb_bench *b, void *ctx, size_t size, double *times, long iters, umb_stats *s, umb_col *extra)
{
    (void)ctx, (void)size, (void)extra;
    if (b->rank != 0) return;
    for (long i = 0; i < iters; i++) times[i] *= 1e6 / 2;
    umb_stats_compute(times, iters, s);
}

/* A round trip: one message each way. */
static double payload(umb_bench *b, void *ctx, size_t size)
{
    (void)b, (void)ctx;
    return 2.0 * (double)size;
}

int main(int argc, char **argv)
{
    umb_bench b;
    ping_pong pp;
    umb_header h;
    umb_bench_init(&b, &cli, 2, argc, argv);
    umb_bench_alloc(&b, &pp.sbuf, b.opt.max_size);
    umb_bench_alloc(&b, &pp.rbuf, b.opt.max_size);

    umb_bench_header(&b, &h);
    const umb_sweep sweep = {
        .metric = &latency,
        .phase = "latency",
        .handshake = handshake_loop,
        .classic = classic_loop,
        .place = place,
        .summarize = summarize,
        .payload = payload,
        .loop_handshake = "handshake: per iteration, both ranks place and pre-post, rank 1 signals ready, then one timed round trip",
        .loop_classic = "classic OMB: back-to-back round trips",
        .units = "latency in microseconds, one-way = round trip / 2",
    };
    umb_bench_run(&b, &h, &sweep, &pp);
    umb_buffer_free(&pp.sbuf);
    umb_buffer_free(&pp.rbuf);
    return umb_bench_finish(&b);
}
