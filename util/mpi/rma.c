/* The one-sided family (rma.h). Rank 1 exposes its buffer in a window
   (MPI_Win_create over the placed memory, as an application's); rank 0
   puts into it or gets from it, then MPI_Win_flush. Both ranks hold
   MPI_Win_lock_all for the whole run (passive target: OMB's lock_all and
   flush), and rank 1 calls MPI_Win_sync around its own accesses. */
#include "rma.h"

#include "error.h"
#include "laps.h"
#include "pattern.h"
#include "watchdog.h"
#include "window.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>

enum { TAG_READY = 110, TAG_DONE = 111 };

typedef struct {
    const umb_rma *r;
    umb_buffer buf;  /* rank 0: the origin; rank 1: the window's memory */
    MPI_Win win;
    int ops;         /* operations per flush: -W, or 1 */
    int slots;       /* buffers of the largest size in buf: ops, or 1 shared (umb_window_buffers) */
} rma_run;

static void issue(rma_run *x, size_t size)
{
    for (int j = 0; j < x->ops; j++) {
        size_t at = (size_t)(j % x->slots) * size;
        char *origin = (char *)x->buf.ptr + at;
        if (x->r->op == UMB_RMA_PUT)
            UMB_MPI_CHECK(MPI_Put(origin, (int)size, MPI_BYTE, 1, (MPI_Aint)at, (int)size, MPI_BYTE, x->win));
        else
            UMB_MPI_CHECK(MPI_Get(origin, (int)size, MPI_BYTE, 1, (MPI_Aint)at, (int)size, MPI_BYTE, x->win));
    }
}

/* The side that writes the data: rank 0's origin for a put, rank 1's window for a get. */
static int writer(const rma_run *x) { return x->r->op == UMB_RMA_PUT ? 0 : 1; }

static void fill(rma_run *x, size_t size, long i)
{
    for (int j = 0; j < x->slots; j++)
        umb_buffer_fill(&x->buf, (size_t)j * size, size, umb_pattern_seed(i * x->ops + j, size, writer(x)));
}

static int check(umb_bench *b, rma_run *x, size_t size, long i)
{
    int ok = 1;
    for (int j = 0; j < x->slots && ok; j++)  /* -c gives every operation its slot (umb_window_buffers) */
        ok = umb_bench_check(b, &x->buf, (size_t)j * size, size, i * x->ops + j, writer(x));
    return ok;
}

/* Per iteration: both ranks fill (-c) and place, rank 1 says ready, rank 0
   times its operations and the flush, then says done, and the side that
   received the data checks it. */
static int handshake_loop(umb_bench *b, void *ctx, size_t size, long iters, long skip, double *times)
{
    rma_run *x = ctx;
    int valid = 1, place = umb_bench_place_each(b);
    for (long i = 0; i < skip + iters; i++) {
        umb_progress(size, i);
        if (b->opt.validate && b->rank == writer(x)) fill(x, size, i);
        if (place) umb_buffer_place(&x->buf, (size_t)x->slots * size, b->opt.place_with);
        if (b->rank == 1) {
            UMB_MPI_CHECK(MPI_Win_sync(x->win));  /* its own writes, before rank 0 reaches the window */
            UMB_MPI_CHECK(MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_READY, MPI_COMM_WORLD));
            UMB_MPI_CHECK(MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_DONE, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            UMB_MPI_CHECK(MPI_Win_sync(x->win));  /* rank 0's puts, before its own reads */
        } else {
            UMB_MPI_CHECK(MPI_Recv(NULL, 0, MPI_BYTE, 1, TAG_READY, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            double t0 = MPI_Wtime();
            issue(x, size);
            UMB_MPI_CHECK(MPI_Win_flush(1, x->win));
            if (i >= skip) times[i - skip] = MPI_Wtime() - t0;
            UMB_MPI_CHECK(MPI_Send(NULL, 0, MPI_BYTE, 1, TAG_DONE, MPI_COMM_WORLD));
        }
        if (b->opt.validate && valid && b->rank != writer(x)) valid = check(b, x, size, i);
    }
    return valid;
}

/* OMB's loop: rank 0's operations and flushes back to back, marked once
   each iteration's operations are issued (umb_laps); rank 1 waits in MPI
   (a target without hardware one-sided support progresses there). */
static void classic_loop(umb_bench *b, void *ctx, size_t size, long iters, long skip, double *times)
{
    rma_run *x = ctx;
    if (b->rank == 1) {
        umb_progress(size, 0);
        UMB_MPI_CHECK(MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_DONE, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        return;
    }
    umb_laps laps;
    umb_laps_init(&laps, times, skip);
    for (long i = 0; i < skip + iters; i++) {
        umb_lap_open(&laps, i);
        issue(x, size);
        umb_lap_mark(&laps, i);
        umb_progress(size, i);
        UMB_MPI_CHECK(MPI_Win_flush(1, x->win));
    }
    umb_laps_close(&laps, iters);
    UMB_MPI_CHECK(MPI_Send(NULL, 0, MPI_BYTE, 1, TAG_DONE, MPI_COMM_WORLD));
}

static void place(umb_bench *b, void *ctx, size_t size)
{
    rma_run *x = ctx;
    umb_buffer_place(&x->buf, (size_t)x->slots * size, b->opt.place_with);
}

static void summarize(umb_bench *b, void *ctx, size_t size, double *times, long iters, umb_stats *s, umb_col *extra)
{
    rma_run *x = ctx;
    (void)extra;
    if (b->rank != 0) return;
    if (x->r->bandwidth) {
        umb_window_rates(times, iters, (double)size * x->ops, s);
        return;
    }
    for (long i = 0; i < iters; i++) times[i] *= 1e6;
    umb_stats_compute(times, iters, s);
}

static double payload(umb_bench *b, void *ctx, size_t size)
{
    (void)b;
    return (double)size * ((rma_run *)ctx)->ops;
}

/* Collective: the window over rank 1's buffer (rank 0 exposes none); a
   library that cannot make one ends the job as a skip, with what to try. */
static void open_window(umb_bench *b, rma_run *x, size_t bytes)
{
    char why[MPI_MAX_ERROR_STRING] = "", msg[MPI_MAX_ERROR_STRING + 400] = "";
    int len = 0;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = MPI_Win_create(b->rank == 1 ? x->buf.ptr : NULL, b->rank == 1 ? (MPI_Aint)bytes : 0, 1, MPI_INFO_NULL,
                            MPI_COMM_WORLD, &x->win);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    if (rc != MPI_SUCCESS) {
        MPI_Error_string(rc, why, &len);
        snprintf(msg, sizeof msg, "%s: rank %d on %s: this MPI cannot make a window (MPI_Win_create: %s); Open MPI: "
                 "try --mca osc ucx with --mca pml ucx, or another osc component (ompi_info | grep osc)",
                 b->cli->program, b->rank, b->host, why);
    }
    umb_agree(rc != MPI_SUCCESS ? UMB_EXIT_SKIP : 0, msg);
    UMB_MPI_CHECK(MPI_Win_lock_all(0, x->win));
}

/* OMB's -w and -s, as far as umbench measures them: the window lies on the
   placed buffer (MPI_Win_create), synchronised by lock_all and flush. */
static const struct option rma_options[] = {
    {"win-option", required_argument, 0, 'w'},
    {"sync-option", required_argument, 0, 's'},
    {0, 0, 0, 0},
};

static int rma_parse(int val, const char *a, char *err, size_t n)
{
    if (val == 'w' && strcmp(a, "create"))
        return umb_errf(err, n, "-w %s: accepted: create (the window lies on the placed buffer of the kind asked for; "
                        "allocate and dynamic windows are not measured)", a);
    if (val == 's' && strcmp(a, "flush"))
        return umb_errf(err, n, "-s %s: accepted: flush (MPI_Win_lock_all for the run, MPI_Win_flush after each "
                        "operation or window)", a);
    return 0;
}

int umb_rma_main(const umb_rma *r, int argc, char **argv)
{
    umb_bench b;
    rma_run x = {.r = r};
    umb_header h;
    umb_cli cli = *r->cli;
    cli.own_options = rma_options;
    cli.own_short = "w:s:";
    cli.own_parse = rma_parse;
    cli.own_usage = "  -w, --win-option create       the window: MPI_Win_create over rank 1's placed buffer (OMB's -w)\n"
                    "  -s, --sync-option flush       MPI_Win_lock_all for the run, MPI_Win_flush after each operation\n"
                    "                                (OMB's -s; its other synchronisations are not measured)\n";
    umb_bench_init(&b, &cli, 2, argc, argv);
    x.ops = r->bandwidth ? b.opt.window : 1;
    x.slots = r->bandwidth ? umb_window_buffers(&b.opt) : 1;
    size_t bytes = (size_t)x.slots * b.opt.max_size;
    umb_bench_alloc(&b, &x.buf, bytes ? bytes : 1);
    open_window(&b, &x, bytes);
    umb_bench_header(&b, &h);
    const char *call = r->op == UMB_RMA_PUT ? "MPI_Put" : "MPI_Get";
    if (b.rank == 0) {
        /* Window and Window buffers: the two-sided programs' lines (window.c), for -W and its slots. */
        umb_header_str(&h, "rma_window", "RMA window", "MPI_Win_create over rank 1's buffer (%zu bytes); MPI_Win_lock_all, "
                       "then MPI_Win_flush after each %s", bytes, r->bandwidth ? "window of operations" : "operation");
        if (r->bandwidth) umb_window_header(&h, x.ops, x.slots, "per rank", "operation");
    }
    char hs[256], cl[160], units[160];
    snprintf(hs, sizeof hs, "handshake: per iteration, both ranks place, rank 1 signals ready, rank 0 times %s%s and the "
             "flush, then signals done", r->bandwidth ? "a window of " : "one ", call);
    snprintf(cl, sizeof cl, "classic OMB: %s and flush back to back", call);
    snprintf(units, sizeof units, r->bandwidth ? "MB/s = 10^6 bytes/s: size x operations / time from the first %s to the "
             "flush's return" : "latency in microseconds: from %s to the flush's return", call);
    const umb_metric bw = {"Bandwidth (MB/s)", "Bandwidth (MB/s)", "bandwidth_mbs", 1};
    const umb_metric lat = {"Avg Latency(us)", "Latency(us)", "latency_us", 0};
    const umb_sweep sweep = {
        .metric = r->bandwidth ? &bw : &lat,
        .phase = r->op == UMB_RMA_PUT ? "put" : "get",
        .handshake = handshake_loop,
        .classic = classic_loop,
        .place = place,
        .summarize = summarize,
        .payload = payload,
        .loop_handshake = hs,
        .loop_classic = cl,
        .units = units,
    };
    umb_bench_run(&b, &h, &sweep, &x);
    UMB_MPI_CHECK(MPI_Win_unlock_all(x.win));
    UMB_MPI_CHECK(MPI_Win_free(&x.win));
    umb_buffer_free(&x.buf);
    return umb_bench_finish(&b);
}
