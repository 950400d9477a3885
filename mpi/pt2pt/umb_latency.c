/* umb_latency: ping-pong latency between 2 ranks, with managed buffers
   placed before every round trip (docs/method.md). */
#include "bench.h"
#include "error.h"
#include "pattern.h"
#include "watchdog.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static const umb_cli cli = {
    .program = "umb_latency",
    .summary = "ping-pong latency between 2 ranks",
    .nbuffers = 2,
    .iters = 10000, .skip = 100, .iters_large = 1000, .skip_large = 10, .large_size = 8192,
    .max_size = (size_t)1 << 22,
    .buffers_per_rank = 2,
};

enum { TAG_DATA = 1, TAG_READY = 2 };
static const umb_metric latency = {"Avg Latency(us)", "Latency(us)", "latency_us"};

/* One timed round trip per iteration. Before it, outside the timer: fill
   (-c), place (--place each), pre-post the receive, and rank 1 signals
   rank 0 that it is ready. */
static int handshake_loop(umb_bench *b, umb_buffer *sbuf, umb_buffer *rbuf, size_t size,
                          long iters, long skip, double *samples)
{
    int peer = 1 - b->rank, valid = 1, place = umb_bench_place_each(b);
    MPI_Request req;
    for (long i = 0; i < skip + iters; i++) {
        umb_progress(size, i);
        if (b->opt.validate) umb_buffer_fill(sbuf, size, umb_pattern_seed(i, size, b->rank));
        if (place) {
            umb_buffer_place(sbuf, size, b->opt.place_with);
            umb_buffer_place(rbuf, size, b->opt.place_with);
        }
        UMB_MPI_CHECK(MPI_Irecv(rbuf->ptr, (int)size, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, &req));
        if (b->rank == 0) {
            UMB_MPI_CHECK(MPI_Recv(NULL, 0, MPI_BYTE, peer, TAG_READY, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            double t0 = MPI_Wtime();
            UMB_MPI_CHECK(MPI_Send(sbuf->ptr, (int)size, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD));
            UMB_MPI_CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE));
            double t = MPI_Wtime() - t0;
            if (i >= skip) samples[i - skip] = t * 1e6 / 2;
        } else {
            UMB_MPI_CHECK(MPI_Send(NULL, 0, MPI_BYTE, peer, TAG_READY, MPI_COMM_WORLD));
            UMB_MPI_CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE));
            UMB_MPI_CHECK(MPI_Send(sbuf->ptr, (int)size, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD));
        }
        if (b->opt.validate && valid) valid = umb_bench_check(b, rbuf, size, i, peer);
    }
    return valid;
}

/* OMB's loop: back-to-back round trips; rank 0 reads the clock once per
   iteration for the percentiles. */
static void classic_loop(umb_bench *b, umb_buffer *sbuf, umb_buffer *rbuf, size_t size,
                         long iters, long skip, double *samples)
{
    int peer = 1 - b->rank;
    double prev = 0;
    for (long i = 0; i < skip + iters; i++) {
        umb_progress(size, i);
        if (b->rank == 0) {
            if (i == skip) prev = MPI_Wtime();
            UMB_MPI_CHECK(MPI_Send(sbuf->ptr, (int)size, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD));
            UMB_MPI_CHECK(MPI_Recv(rbuf->ptr, (int)size, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            if (i >= skip) {
                double now = MPI_Wtime();
                samples[i - skip] = (now - prev) * 1e6 / 2;
                prev = now;
            }
        } else {
            UMB_MPI_CHECK(MPI_Recv(rbuf->ptr, (int)size, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            UMB_MPI_CHECK(MPI_Send(sbuf->ptr, (int)size, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD));
        }
    }
}

int main(int argc, char **argv)
{
    umb_bench b;
    umb_buffer sbuf, rbuf;
    umb_header h;
    umb_bench_init(&b, &cli, 2, argc, argv);
    umb_bench_alloc(&b, &sbuf, b.opt.max_size);
    umb_bench_alloc(&b, &rbuf, b.opt.max_size);

    int handshake = umb_bench_place_each(&b) || b.opt.validate;
    umb_bench_header(&b, &h);
    if (b.rank == 0) {
        umb_header_str(&h, "loop", "Loop", "%s", handshake
            ? "handshake: per iteration, both ranks place and pre-post, rank 1 signals ready, then one timed round trip"
            : "classic OMB: back-to-back round trips");
        umb_header_str(&h, "units", "Units", "latency in microseconds, one-way = round trip / 2");
    }
    umb_bench_header_print(&b, &h);
    umb_bench_columns(&b, &latency, NULL, 0);

    double *samples = umb_xmalloc(sizeof(double) * (size_t)(b.opt.iters > b.opt.iters_large ? b.opt.iters : b.opt.iters_large),
                                  "latency samples");
    umb_progress_phase("latency");
    for (size_t size = b.opt.min_size; size <= b.opt.max_size; size = umb_size_next(size)) {
        long iters, skip;
        int valid = 1;
        umb_iterations(&b.opt, &cli, size, &iters, &skip);
        if (!umb_bench_place_each(&b)) {
            umb_buffer_place(&sbuf, size, b.opt.place_with);
            umb_buffer_place(&rbuf, size, b.opt.place_with);
        }
        UMB_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
        if (handshake) valid = handshake_loop(&b, &sbuf, &rbuf, size, iters, skip, samples);
        else classic_loop(&b, &sbuf, &rbuf, size, iters, skip, samples);
        valid = umb_bench_all_valid(&b, valid);
        umb_stats s;
        if (b.rank == 0) umb_stats_compute(samples, iters, &s);
        umb_bench_row(&b, size, &s, &latency, NULL, 0, valid);
    }
    free(samples);
    umb_buffer_free(&sbuf);
    umb_buffer_free(&rbuf);
    return umb_bench_finish(&b);
}
