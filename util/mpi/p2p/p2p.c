/* The two-sided point-to-point family (p2p.h). Every rank has a send and
   a receive window of its buffers: a ping-pong's windows hold one message;
   in a window motion a rank either sends or receives, from one window. */
#include "p2p.h"

#include "error.h"
#include "laps.h"
#include "watchdog.h"
#include "window/window.h"

#include <mpi.h>
#include <stdlib.h>

typedef struct {
    const umb_p2p *p;
    umb_window own[2];
    umb_window *sw, *rw;  /* send and receive windows (the same one in a window motion) */
    MPI_Request *reqs;    /* receives first, then sends */
    int peer, sender;     /* sender: a window motion's sending side; rank 0 otherwise */
    double *all;          /* pairs, rank 0: every rank's window times, rank by rank */
    long all_iters;       /* iterations `all` has room for (--precision grows them) */
} p2p_run;

/* Whether this rank sends data, and receives it (in a window motion, one or the other). */
static int sends(const p2p_run *x) { return x->p->motion != UMB_P2P_WINDOW || x->sender; }
static int receives(const p2p_run *x) { return x->p->motion != UMB_P2P_WINDOW || !x->sender; }

/* Receivers have posted their receives: every pair starts together (a
   barrier across pairs), or rank 1 tells rank 0 it is ready. */
static void ready(umb_bench *b, p2p_run *x)
{
    if (x->p->pairs) UMB_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    else if (x->p->motion == UMB_P2P_EXCHANGE)
        UMB_MPI_CHECK(MPI_Sendrecv(NULL, 0, MPI_BYTE, x->peer, UMB_TAG_READY, NULL, 0, MPI_BYTE, x->peer,
                                   UMB_TAG_READY, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    else if (b->rank == 0)
        UMB_MPI_CHECK(MPI_Recv(NULL, 0, MPI_BYTE, x->peer, UMB_TAG_READY, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    else
        UMB_MPI_CHECK(MPI_Send(NULL, 0, MPI_BYTE, x->peer, UMB_TAG_READY, MPI_COMM_WORLD));
}

/* The handshake loop's timed part (the receives posted); returns whether this rank timed it. */
static int timed(umb_bench *b, p2p_run *x, size_t size)
{
    int n = x->sw->window;
    switch (x->p->motion) {
    case UMB_P2P_PING_PONG:
        if (!x->sender) {
            UMB_MPI_CHECK(MPI_Wait(&x->reqs[0], MPI_STATUS_IGNORE));
            UMB_MPI_CHECK(MPI_Send(x->sw->buf[0].ptr, UMB_MPI_COUNT(size), MPI_BYTE, x->peer, UMB_TAG_DATA, MPI_COMM_WORLD));
            return 0;
        }
        UMB_MPI_CHECK(MPI_Send(x->sw->buf[0].ptr, UMB_MPI_COUNT(size), MPI_BYTE, x->peer, UMB_TAG_DATA, MPI_COMM_WORLD));
        UMB_MPI_CHECK(MPI_Wait(&x->reqs[0], MPI_STATUS_IGNORE));
        return 1;
    case UMB_P2P_WINDOW:
        if (x->sender) umb_window_send_acked(x->sw, size, x->peer, x->reqs);
        else umb_window_wait_and_ack(x->rw, x->peer, x->reqs);
        return x->sender;
    case UMB_P2P_EXCHANGE:
        umb_window_isend(x->sw, size, x->peer, UMB_TAG_DATA, x->reqs + n);
        UMB_MPI_CHECK(MPI_Waitall(2 * n, x->reqs, MPI_STATUSES_IGNORE));
        return b->rank == 0;
    }
    return 0;
}

/* One timed iteration at a time. Before it, outside the timer: fill (-c),
   place (--place each), post the receives, and the ready signal; after it,
   the receiving side checks every byte (-c). */
static int handshake_loop(umb_bench *b, void *ctx, size_t size, long iters, long skip, double *times)
{
    p2p_run *x = ctx;
    int valid = 1, place = umb_bench_place_each(b);
    for (long i = 0; i < skip + iters; i++) {
        umb_progress(size, i);
        if (b->opt.validate && sends(x)) umb_window_fill(x->sw, size, i, b->rank);
        if (place) umb_window_place(x->sw, size, b->opt.place_with);
        if (place && x->rw != x->sw) umb_window_place(x->rw, size, b->opt.place_with);
        if (receives(x)) umb_window_irecv(x->rw, size, x->peer, UMB_TAG_DATA, x->reqs);
        ready(b, x);
        double t0 = MPI_Wtime();
        if (timed(b, x, size) && i >= skip) times[i - skip] = MPI_Wtime() - t0;
        if (b->opt.validate && valid && receives(x)) valid = umb_window_check(b, x->rw, size, i, x->peer);
    }
    return valid;
}

/* OMB's loops, back to back, one per motion so that nothing but the
   messages and the marks runs per iteration. A timing rank marks each
   iteration once its messages are under way, while they are in flight
   (umb_laps); the other marks progress before it waits. */
static void ping_pong_classic(p2p_run *x, size_t size, long iters, long skip, umb_laps *laps)
{
    void *sbuf = x->sw->buf[0].ptr, *rbuf = x->rw->buf[0].ptr;
    int peer = x->peer, count = UMB_MPI_COUNT(size);
    if (!x->sender) {
        for (long i = 0; i < skip + iters; i++) {
            umb_progress_loop(size, i, skip);
            UMB_MPI_CHECK(MPI_Recv(rbuf, count, MPI_BYTE, peer, UMB_TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            UMB_MPI_CHECK(MPI_Send(sbuf, count, MPI_BYTE, peer, UMB_TAG_DATA, MPI_COMM_WORLD));
        }
        return;
    }
    for (long i = 0; i < skip + iters; i++) {
        umb_lap_open(laps, i);
        UMB_MPI_CHECK(MPI_Send(sbuf, count, MPI_BYTE, peer, UMB_TAG_DATA, MPI_COMM_WORLD));
        umb_lap_mark(laps, i);
        umb_progress_loop(size, i, skip);
        UMB_MPI_CHECK(MPI_Recv(rbuf, count, MPI_BYTE, peer, UMB_TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    }
}

static void window_classic(p2p_run *x, size_t size, long iters, long skip, umb_laps *laps)
{
    if (!x->sender) {
        for (long i = 0; i < skip + iters; i++) {
            umb_progress_loop(size, i, skip);
            umb_window_irecv(x->rw, size, x->peer, UMB_TAG_DATA, x->reqs);
            umb_window_wait_and_ack(x->rw, x->peer, x->reqs);
        }
        return;
    }
    for (long i = 0; i < skip + iters; i++) {
        umb_lap_open(laps, i);
        umb_window_isend(x->sw, size, x->peer, UMB_TAG_DATA, x->reqs);
        umb_lap_mark(laps, i);
        umb_progress_loop(size, i, skip);
        umb_window_wait_acked(x->sw, x->peer, x->reqs);
    }
}

static void exchange_classic(p2p_run *x, size_t size, long iters, long skip, umb_laps *laps)
{
    int n = x->sw->window;
    for (long i = 0; i < skip + iters; i++) {
        umb_lap_open(laps, i);
        umb_window_irecv(x->rw, size, x->peer, UMB_TAG_DATA, x->reqs);
        umb_window_isend(x->sw, size, x->peer, UMB_TAG_DATA, x->reqs + n);
        umb_lap_mark(laps, i);
        umb_progress_loop(size, i, skip);
        UMB_MPI_CHECK(MPI_Waitall(2 * n, x->reqs, MPI_STATUSES_IGNORE));
    }
}

static void classic_loop(umb_bench *b, void *ctx, size_t size, long iters, long skip, double *times)
{
    p2p_run *x = ctx;
    umb_laps laps;
    (void)b;
    umb_laps_init(&laps, times, skip);
    switch (x->p->motion) {
    case UMB_P2P_PING_PONG: ping_pong_classic(x, size, iters, skip, &laps); break;
    case UMB_P2P_WINDOW: window_classic(x, size, iters, skip, &laps); break;
    case UMB_P2P_EXCHANGE: exchange_classic(x, size, iters, skip, &laps); break;
    }
    if (x->p->motion == UMB_P2P_EXCHANGE || x->sender) umb_laps_close(&laps, iters);
}

static void place(umb_bench *b, void *ctx, size_t size)
{
    p2p_run *x = ctx;
    umb_window_place(x->sw, size, b->opt.place_with);
    if (x->rw != x->sw) umb_window_place(x->rw, size, b->opt.place_with);
}

/* Bytes one timed iteration moves, summed over ranks. */
static double payload(umb_bench *b, void *ctx, size_t size)
{
    const p2p_run *x = ctx;
    return umb_figures_payload(x->p->motion, size, x->sw->window, b->nranks);
}

/* Collective, pairs: rank 0 gathers every sender's window times (senders
   are ranks 0..N-1, so theirs come first). Avg and Messages/s are OMB's:
   the sum of each sender's own rate. The spread is over windows, of the sum
   of the senders' rates in that window. */
static void summarize_pairs(umb_bench *b, p2p_run *x, size_t size, double *times, long iters, umb_stats *s,
                            umb_col *extra)
{
    if (b->rank == 0 && iters > x->all_iters) {
        free(x->all);
        x->all = umb_xmalloc(sizeof(double) * (size_t)iters * (size_t)b->nranks, "all window times");
        x->all_iters = iters;
    }
    UMB_MPI_CHECK(MPI_Gather(times, UMB_MPI_COUNT(iters), MPI_DOUBLE, x->all, UMB_MPI_COUNT(iters), MPI_DOUBLE, 0, MPI_COMM_WORLD));
    if (b->rank == 0) umb_figures_pairs(x->all, b->nranks / 2, iters, size, x->sw->window, times, s, &extra[0].value);
}

/* Latency: one-way, round trip / 2, in microseconds; bandwidth: MB/s of
   what rank 0 moved in each iteration. */
static void summarize(umb_bench *b, void *ctx, size_t size, double *times, long iters, umb_stats *s, umb_col *extra)
{
    p2p_run *x = ctx;
    if (x->p->pairs) {
        summarize_pairs(b, x, size, times, iters, s, extra);
        return;
    }
    if (b->rank != 0) return;
    if (x->p->motion == UMB_P2P_PING_PONG) umb_figures_one_way(times, iters, s);
    else umb_figures_mbs(times, iters, payload(b, ctx, size), s);
}

/* One buffer pair: its buffers, header and sweep (umb_bench_pairs). */
static void run_pair(umb_bench *b, void *ctx)
{
    p2p_run *x = ctx;
    const umb_p2p *p = x->p;
    umb_header h;
    umb_window_alloc(b, &x->own[0], b->opt.max_size);
    x->sw = x->rw = &x->own[0];
    if (p->motion != UMB_P2P_WINDOW) {
        umb_window_alloc(b, &x->own[1], b->opt.max_size);
        x->rw = &x->own[1];
    }
    x->reqs = umb_xmalloc(sizeof(MPI_Request) * 2 * (size_t)x->sw->window, "requests");

    umb_bench_header(b, &h);
    if (b->rank == 0 && p->pairs) umb_header_num(&h, "pairs", "Pairs", b->nranks / 2);
    if (b->rank == 0 && p->window_per) umb_window_header(&h, x->sw->window, x->sw->nbuf, p->window_per, "message");
    umb_sweep sweep = {
        .metric = p->metric,
        .phase = p->phase,
        .handshake = handshake_loop,
        .classic = classic_loop,
        .place = place,
        .summarize = summarize,
        .payload = payload,
        .nextra = p->nextra,
        .loop_handshake = p->loop_handshake,
        .loop_classic = p->loop_classic,
        .units = p->units,
    };
    for (int i = 0; i < p->nextra; i++) sweep.extra[i] = p->extra[i];
    umb_bench_run(b, &h, &sweep, x);
    free(x->reqs);
    umb_window_free(&x->own[0]);
    if (x->rw != x->sw) umb_window_free(&x->own[1]);
}

int umb_p2p_main(const umb_p2p *p, int argc, char **argv)
{
    umb_bench b;
    p2p_run x = {.p = p};
    /* What run_pair allocates, for -M (umb_memory_need): a window to send
       from and one to receive in, but one window in a window motion. */
    umb_cli cli = *p->cli;
    cli.buffers_per_rank = p->motion == UMB_P2P_WINDOW ? 1 : 2;
    cli.gathers = p->pairs;
    umb_bench_init(&b, &cli, p->pairs ? -2 : 2, argc, argv);
    int pairs = b.nranks / 2;
    x.sender = p->motion == UMB_P2P_WINDOW ? b.rank < pairs : b.rank == 0;
    x.peer = p->pairs ? (b.rank < pairs ? b.rank + pairs : b.rank - pairs) : 1 - b.rank;
    int status = umb_bench_pairs(&b, run_pair, &x);
    free(x.all);
    return status;
}
