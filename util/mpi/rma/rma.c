/* The one-sided family (rma.h). Rank 1 exposes its buffer in a window
   (MPI_Win_create over the placed memory, as an application's, or a
   dynamic window with it attached); rank 0 puts into it or gets from it
   under one of OMB's synchronisations (-s): passive target (flush,
   flush_local, lock, lock_all) or active target (fence, pscw). Rank 1
   touches its window's memory (fill, place, check) only in an epoch of its
   own, between rank 0's. */
#include "rma.h"

#include "error.h"
#include "figures.h"
#include "laps.h"
#include "parse.h"
#include "pattern.h"
#include "watchdog.h"
#include "window/window.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>

enum { TAG_READY = 110, TAG_DONE = 111 };

typedef enum { SYNC_FLUSH, SYNC_FLUSH_LOCAL, SYNC_LOCK, SYNC_LOCK_ALL, SYNC_FENCE, SYNC_PSCW, SYNC_COUNT } rma_sync;

/* OMB's -s values, in its words, in rma_sync's order. */
static const char *const sync_names[] = {"flush", "flush_local", "lock", "lock_all", "fence", "pscw", NULL};

/* What each puts around rank 0's operation (or window of them), and the
   calls that open and close its timed part. */
static const struct {
    const char *how, *open, *close;
} syncs[SYNC_COUNT] = {
    [SYNC_FLUSH] = {"MPI_Win_lock_all, then MPI_Win_flush after each", NULL, "MPI_Win_flush"},
    [SYNC_FLUSH_LOCAL] = {"MPI_Win_lock_all, then MPI_Win_flush_local (local completion) after each", NULL,
                          "MPI_Win_flush_local"},
    [SYNC_LOCK] = {"MPI_Win_lock (shared) and MPI_Win_unlock around each", "MPI_Win_lock", "MPI_Win_unlock"},
    [SYNC_LOCK_ALL] = {"MPI_Win_lock_all and MPI_Win_unlock_all around each", "MPI_Win_lock_all", "MPI_Win_unlock_all"},
    [SYNC_FENCE] = {"MPI_Win_fence on both ranks around each", "MPI_Win_fence", "MPI_Win_fence"},
    [SYNC_PSCW] = {"MPI_Win_start and MPI_Win_complete (rank 1: MPI_Win_post and MPI_Win_wait) around each",
                   "MPI_Win_start", "MPI_Win_complete"},
};

/* -w and -s as parsed (own_parse has no context: one program, one run). */
static struct {
    rma_sync sync;
    int dynamic;  /* -w dynamic: MPI_Win_create_dynamic, rank 1's buffer attached */
} asked;

typedef struct {
    const umb_rma *r;
    umb_buffer buf;  /* rank 0: the origin; rank 1: the window's memory */
    MPI_Win win;
    MPI_Aint base;   /* the window's displacement of rank 1's buffer: its address in a dynamic window */
    MPI_Group peer;  /* the other rank, for pscw */
    int ops;         /* operations per synchronisation: -W, or 1 */
    int slots;       /* buffers of the largest size in buf: ops, or 1 shared (umb_window_buffers) */
} rma_run;

/* lock_all held by both ranks for the whole run. */
static int held_for_run(void) { return asked.sync == SYNC_FLUSH || asked.sync == SYNC_FLUSH_LOCAL; }

/* Rank 1 takes part in each of rank 0's epochs. */
static int active_target(void) { return asked.sync == SYNC_FENCE || asked.sync == SYNC_PSCW; }

static void origin_open(rma_run *x)
{
    switch (asked.sync) {
    case SYNC_LOCK: UMB_MPI_CHECK(MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, x->win)); break;
    case SYNC_LOCK_ALL: UMB_MPI_CHECK(MPI_Win_lock_all(0, x->win)); break;
    case SYNC_FENCE: UMB_MPI_CHECK(MPI_Win_fence(0, x->win)); break;
    case SYNC_PSCW: UMB_MPI_CHECK(MPI_Win_start(x->peer, 0, x->win)); break;
    default: break;
    }
}

static void origin_close(rma_run *x)
{
    switch (asked.sync) {
    case SYNC_FLUSH: UMB_MPI_CHECK(MPI_Win_flush(1, x->win)); break;
    case SYNC_FLUSH_LOCAL: UMB_MPI_CHECK(MPI_Win_flush_local(1, x->win)); break;
    case SYNC_LOCK: UMB_MPI_CHECK(MPI_Win_unlock(1, x->win)); break;
    case SYNC_LOCK_ALL: UMB_MPI_CHECK(MPI_Win_unlock_all(x->win)); break;
    case SYNC_FENCE: UMB_MPI_CHECK(MPI_Win_fence(0, x->win)); break;
    case SYNC_PSCW: UMB_MPI_CHECK(MPI_Win_complete(x->win)); break;
    default: break;
    }
}

/* Rank 1's part of rank 0's epoch, active target only. post is called
   before rank 1 says ready, so that rank 0's start need not wait for it;
   fence after, as both ranks must enter it. */
static void target_post(rma_run *x)
{
    if (asked.sync == SYNC_PSCW) UMB_MPI_CHECK(MPI_Win_post(x->peer, 0, x->win));
}

static void target_epoch(rma_run *x)
{
    if (asked.sync == SYNC_FENCE) {
        UMB_MPI_CHECK(MPI_Win_fence(0, x->win));
        UMB_MPI_CHECK(MPI_Win_fence(0, x->win));
    } else if (asked.sync == SYNC_PSCW) {
        UMB_MPI_CHECK(MPI_Win_wait(x->win));
    }
}

/* Rank 1's own accesses to its window's memory: under lock_all they are
   ordered with rank 0's by MPI_Win_sync; with lock or lock_all per
   operation, in an exclusive lock of its own; active target needs nothing
   between epochs. */
static void local_open(rma_run *x)
{
    if (held_for_run()) UMB_MPI_CHECK(MPI_Win_sync(x->win));
    else if (!active_target()) UMB_MPI_CHECK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, x->win));
}

static void local_close(rma_run *x)
{
    if (held_for_run()) UMB_MPI_CHECK(MPI_Win_sync(x->win));
    else if (!active_target()) UMB_MPI_CHECK(MPI_Win_unlock(1, x->win));
}

/* flush_local completes rank 0's side only: outside the timer, the data is
   completed at rank 1 too before rank 1 checks it or the run ends. */
static void complete_remote(rma_run *x)
{
    if (asked.sync == SYNC_FLUSH_LOCAL) UMB_MPI_CHECK(MPI_Win_flush(1, x->win));
}

static void issue(rma_run *x, size_t size)
{
    int count = UMB_MPI_COUNT(size);
    for (int j = 0; j < x->ops; j++) {
        size_t at = (size_t)(j % x->slots) * size;
        char *origin = (char *)x->buf.ptr + at;
        MPI_Aint disp = x->base + (MPI_Aint)at;
        if (x->r->op == UMB_RMA_PUT)
            UMB_MPI_CHECK(MPI_Put(origin, count, MPI_BYTE, 1, disp, count, MPI_BYTE, x->win));
        else
            UMB_MPI_CHECK(MPI_Get(origin, count, MPI_BYTE, 1, disp, count, MPI_BYTE, x->win));
    }
}

/* The side that writes the data: rank 0's origin for a put, rank 1's window for a get. */
static int writer(const rma_run *x) { return x->r->op == UMB_RMA_PUT ? 0 : 1; }

static void fill(rma_run *x, size_t size, long i)
{
    for (int j = 0; j < x->slots; j++)
        umb_buffer_fill(&x->buf, (size_t)j * size, size, umb_pattern_seed(i * x->ops + j, size, writer(x)));
}

/* -c gives every operation its slot (umb_window_buffers). */
static int check(umb_bench *b, rma_run *x, size_t size, long i)
{
    return umb_window_check_slots(b, &x->buf, x->slots, x->ops, size, i, writer(x));
}

/* Per iteration: both ranks fill (-c) and place, rank 1 says ready, rank 0
   times its synchronisation and operations, then says done, and the side
   that received the data checks it. */
static int handshake_loop(umb_bench *b, void *ctx, size_t size, long iters, long skip, double *times)
{
    rma_run *x = ctx;
    int valid = 1, place = umb_bench_place_each(b);
    for (long i = 0; i < skip + iters; i++) {
        umb_progress(size, i);
        if (b->rank == 1) local_open(x);
        if (b->opt.validate && b->rank == writer(x)) fill(x, size, i);
        if (place) umb_buffer_place(&x->buf, (size_t)x->slots * size, b->opt.place_with);
        if (b->rank == 1) {
            local_close(x);
            target_post(x);
            UMB_MPI_CHECK(MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_READY, MPI_COMM_WORLD));
            target_epoch(x);
            UMB_MPI_CHECK(MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_DONE, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            local_open(x);
        } else {
            UMB_MPI_CHECK(MPI_Recv(NULL, 0, MPI_BYTE, 1, TAG_READY, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            double t0 = MPI_Wtime();
            origin_open(x);
            issue(x, size);
            origin_close(x);
            if (i >= skip) times[i - skip] = MPI_Wtime() - t0;
            complete_remote(x);
            UMB_MPI_CHECK(MPI_Send(NULL, 0, MPI_BYTE, 1, TAG_DONE, MPI_COMM_WORLD));
        }
        if (b->opt.validate && valid && b->rank != writer(x)) valid = check(b, x, size, i);
        if (b->rank == 1) local_close(x);
    }
    return valid;
}

/* OMB's loop: rank 0's epochs back to back, marked once each iteration's
   operations are issued (umb_laps); rank 1 takes its part of each active
   target epoch, or else waits in MPI (a target without hardware one-sided
   support progresses there). */
static void classic_loop(umb_bench *b, void *ctx, size_t size, long iters, long skip, double *times)
{
    rma_run *x = ctx;
    if (b->rank == 1) {
        umb_progress(size, 0);
        for (long i = 0; i < skip + iters && active_target(); i++) {
            target_post(x);
            target_epoch(x);
        }
        UMB_MPI_CHECK(MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_DONE, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        return;
    }
    umb_laps laps;
    umb_laps_init(&laps, times, skip);
    for (long i = 0; i < skip + iters; i++) {
        umb_lap_open(&laps, i);
        origin_open(x);
        issue(x, size);
        umb_lap_mark(&laps, i);
        umb_progress_loop(size, i, skip);
        origin_close(x);
    }
    umb_laps_close(&laps, iters);
    complete_remote(x);
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
    if (x->r->bandwidth) umb_figures_mbs(times, iters, (double)size * x->ops, s);
    else umb_figures_us(times, iters, s);
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
    const char *call = asked.dynamic ? "MPI_Win_create_dynamic" : "MPI_Win_create";
    int len = 0, rc;
    void *mine = b->rank == 1 ? x->buf.ptr : NULL;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (asked.dynamic) {
        rc = MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &x->win);
        if (rc == MPI_SUCCESS && mine) {
            MPI_Win_set_errhandler(x->win, MPI_ERRORS_RETURN);
            rc = MPI_Win_attach(x->win, mine, (MPI_Aint)(bytes ? bytes : 1));
            call = "MPI_Win_attach";
        }
    } else {
        rc = MPI_Win_create(mine, mine ? (MPI_Aint)bytes : 0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &x->win);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    if (rc != MPI_SUCCESS) {
        MPI_Error_string(rc, why, &len);
        snprintf(msg, sizeof msg, "%s: rank %d on %s: this MPI cannot make a window (%s: %s); Open MPI: "
                 "try --mca osc ucx with --mca pml ucx, or another osc component (ompi_info | grep osc)",
                 b->cli->program, b->rank, b->host, call, why);
    }
    umb_agree(rc != MPI_SUCCESS ? UMB_EXIT_SKIP : 0, msg);
    MPI_Win_set_errhandler(x->win, MPI_ERRORS_ARE_FATAL);
    if (asked.dynamic) {  /* a dynamic window's displacement is the attached memory's address */
        if (mine) UMB_MPI_CHECK(MPI_Get_address(mine, &x->base));
        UMB_MPI_CHECK(MPI_Bcast(&x->base, 1, MPI_AINT, 1, MPI_COMM_WORLD));
    }
    MPI_Group world;
    int other = 1 - b->rank;
    UMB_MPI_CHECK(MPI_Comm_group(MPI_COMM_WORLD, &world));
    UMB_MPI_CHECK(MPI_Group_incl(world, 1, &other, &x->peer));
    UMB_MPI_CHECK(MPI_Group_free(&world));
    if (held_for_run()) UMB_MPI_CHECK(MPI_Win_lock_all(0, x->win));
}

static void close_window(umb_bench *b, rma_run *x)
{
    if (held_for_run()) UMB_MPI_CHECK(MPI_Win_unlock_all(x->win));
    if (asked.dynamic && b->rank == 1) UMB_MPI_CHECK(MPI_Win_detach(x->win, x->buf.ptr));
    UMB_MPI_CHECK(MPI_Win_free(&x->win));
    UMB_MPI_CHECK(MPI_Group_free(&x->peer));
}

/* OMB's -w and -s, as far as umbench measures them: the window lies on the
   placed buffer (created over it, or attached to a dynamic window). */
static const struct option rma_options[] = {
    {"win-option", required_argument, 0, 'w'},
    {"sync-option", required_argument, 0, 's'},
    {0, 0, 0, 0},
};

static int rma_parse(int val, const char *a, char *err, size_t n)
{
    static const char *const windows[] = {"create", "dynamic", NULL};
    if (val == 's') return umb_parse_word("-s", a, sync_names, (int *)&asked.sync, err, n);
    if (!strcmp(a, "allocate"))  /* OMB's third kind: say why it is not one of ours */
        return umb_errf(err, n, "-w allocate: accepted: create, dynamic (the window lies on the placed buffer of the kind "
                        "asked for; an allocated window's memory is MPI's own)");
    return umb_parse_word("-w", a, windows, &asked.dynamic, err, n);
}

/* One buffer pair: rank 1's window over its buffer, the header and the sweep (umb_bench_pairs). */
static void run_pair(umb_bench *b, void *ctx)
{
    rma_run *x = ctx;
    umb_header h;
    size_t bytes = (size_t)x->slots * b->opt.max_size;
    umb_bench_alloc(b, &x->buf, bytes ? bytes : 1);
    open_window(b, x, bytes);
    umb_bench_header(b, &h);
    const char *call = x->r->op == UMB_RMA_PUT ? "MPI_Put" : "MPI_Get";
    if (b->rank == 0) {
        /* Window and Window buffers: the two-sided programs' lines (window.c), for -W and its slots. */
        umb_header_str(&h, "rma_window", "RMA window", "%s (%zu bytes); %s %s",
                       asked.dynamic ? "MPI_Win_create_dynamic with rank 1's buffer attached" : "MPI_Win_create over rank 1's buffer",
                       bytes, syncs[asked.sync].how, x->r->bandwidth ? "window of operations" : "operation");
        umb_header_str(&h, "rma_sync", "RMA sync", "%s", sync_names[asked.sync]);
        if (x->r->bandwidth) umb_window_header(&h, x->ops, x->slots, "per rank", "operation");
    }
    const char *open = syncs[asked.sync].open, *close = syncs[asked.sync].close;
    char opened[64] = "", hs[256], cl[160], units[200];
    if (open) snprintf(opened, sizeof opened, "%s, ", open);
    snprintf(hs, sizeof hs, "handshake: per iteration, both ranks place, rank 1 signals ready, rank 0 times %s%s%s and "
             "%s, then signals done", opened, x->r->bandwidth ? "a window of " : "one ", call, close);
    snprintf(cl, sizeof cl, "classic OMB: %s%s and %s back to back", opened, call, close);
    snprintf(units, sizeof units, x->r->bandwidth ? "MB/s = 10^6 bytes/s: size x operations / time from %s%s to %s's "
             "return" : "latency in microseconds: from %s%s to %s's return", open || !x->r->bandwidth ? "" : "the first ",
             open ? open : call, close);
    const umb_metric bw = {"Bandwidth (MB/s)", "Bandwidth (MB/s)", "bandwidth_mbs", 1};
    const umb_metric lat = {"Avg Latency(us)", "Latency(us)", "latency_us", 0};
    const umb_sweep sweep = {
        .metric = x->r->bandwidth ? &bw : &lat,
        .phase = x->r->op == UMB_RMA_PUT ? "put" : "get",
        .handshake = handshake_loop,
        .classic = classic_loop,
        .place = place,
        .summarize = summarize,
        .payload = payload,
        .loop_handshake = hs,
        .loop_classic = cl,
        .units = units,
    };
    umb_bench_run(b, &h, &sweep, x);
    close_window(b, x);
    umb_buffer_free(&x->buf);
}

int umb_rma_main(const umb_rma *r, int argc, char **argv)
{
    umb_bench b;
    rma_run x = {.r = r};
    umb_cli cli = *r->cli;
    cli.own_options = rma_options;
    cli.own_short = "w:s:";
    cli.own_parse = rma_parse;
    cli.buffers_per_rank = 1;  /* rank 1's window of slots; rank 0's buffer as large (run_pair) */
    cli.own_usage = "  -w, --win-option create|dynamic\n"
                    "                                the window over rank 1's placed buffer: MPI_Win_create (default),\n"
                    "                                or MPI_Win_create_dynamic with the buffer attached (OMB's -w)\n"
                    "  -s, --sync-option flush|flush_local|lock|lock_all|fence|pscw\n"
                    "                                OMB's synchronisations (default flush: MPI_Win_lock_all for the\n"
                    "                                run, MPI_Win_flush after each operation; docs/method.md)\n";
    umb_bench_init(&b, &cli, 2, argc, argv);
    x.ops = r->bandwidth ? b.opt.window : 1;
    x.slots = r->bandwidth ? umb_window_buffers(&b.opt) : 1;
    return umb_bench_pairs(&b, run_pair, &x);
}
