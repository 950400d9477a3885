#include "coll.h"

#include "error.h"
#include "figures.h"
#include "watchdog.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const umb_collective *c;
    umb_coll_bufs set[2];   /* [1]: this rank's buffers when it is the root, if their kind differs */
    int nsets;
} coll_run;

static size_t blocks(int n, int nranks) { return n == UMB_PER_RANK ? (size_t)nranks : (size_t)n; }

static float element(int rank, size_t k, long i)
{
    return (float)((rank + 1) * 3 + (int)((k + (size_t)i) % 251));
}

/* Host copies of the float data; rank 0's sums stay below 2^24 up to
   about 2000 ranks, so they are exact. */
static float *scratch(size_t bytes)
{
    static float *p;
    static size_t have;
    if (bytes > have) {
        free(p);
        p = umb_xmalloc(bytes, "float scratch");
        have = bytes;
    }
    return p;
}

void umb_coll_fill_floats(umb_bench *b, umb_coll_bufs *bufs, size_t size, long i)
{
    size_t count = size / sizeof(float);
    float *v = scratch(size + 1);
    for (size_t k = 0; k < count; k++) v[k] = element(b->rank, k, i);
    umb_buffer_write(&bufs->send, v, count * sizeof(float));
}

int umb_coll_check_sum(umb_bench *b, umb_coll_bufs *bufs, size_t size, long i)
{
    size_t count = size / sizeof(float);
    float *v = scratch(size + 1);
    umb_buffer_read(&bufs->recv, v, count * sizeof(float));
    for (size_t k = 0; k < count; k++) {
        float want = 0;
        for (int r = 0; r < b->nranks; r++) want += element(r, k, i);
        if (v[k] != want) {
            fprintf(stderr, "%s: rank %d on %s: size %zu, iteration %ld: element %zu is %g, expected %g\n",
                    umb_program(), b->rank, b->host, size, i, k, (double)v[k], (double)want);
            return 0;
        }
    }
    return 1;
}

static int root_of(const umb_bench *b, const coll_run *r, long i)
{
    if (!r->c->rooted) return 0;
    return b->opt.root_rotate ? (int)(i % b->nranks) : b->opt.root;
}

static umb_coll_bufs *bufs_for(const umb_bench *b, coll_run *r, int root)
{
    return r->nsets > 1 && b->rank == root ? &r->set[1] : &r->set[0];
}

static void place_set(umb_bench *b, coll_run *r, umb_coll_bufs *s, size_t size)
{
    size_t sb = blocks(r->c->send_blocks, b->nranks) * size, rb = blocks(r->c->recv_blocks, b->nranks) * size;
    if (sb) umb_buffer_place(&s->send, sb, b->opt.place_with);
    if (rb) umb_buffer_place(&s->recv, rb, b->opt.place_with);
}

/* Per iteration, outside the timer: fill (-c), place (--place each), a
   barrier; then only the call is timed; then the check (-c). OMB's
   collectives also put a barrier between calls. */
static int coll_loop(umb_bench *b, void *ctx, size_t size, long iters, long skip, double *times)
{
    coll_run *r = ctx;
    int valid = 1, place = umb_bench_place_each(b);
    for (long i = 0; i < skip + iters; i++) {
        umb_progress(size, i);
        int root = root_of(b, r, i);
        umb_coll_bufs *s = bufs_for(b, r, root);
        if (b->opt.validate) r->c->fill(b, s, size, i, root);
        if (place) place_set(b, r, s, size);
        UMB_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
        double seconds = r->c->op(s, size, root);  /* the clock inside, around the MPI call alone */
        if (i >= skip) times[i - skip] = seconds;
        if (b->opt.validate && valid) valid = r->c->check(b, s, size, i, root);
    }
    return valid;
}

/* Without placement or -c the same loop is OMB's loop. */
static void plain_loop(umb_bench *b, void *ctx, size_t size, long iters, long skip, double *times)
{
    coll_loop(b, ctx, size, iters, skip, times);
}

static void place_all(umb_bench *b, void *ctx, size_t size)
{
    coll_run *r = ctx;
    for (int k = 0; k < r->nsets; k++) place_set(b, r, &r->set[k], size);
}

/* OMB's reduction: each rank's mean, gathered at rank 0, then their mean,
   MIN and MAX (umb_figures_collective). P50 and P99 are over every rank's
   samples. The row names the slowest rank (its column). */
static void summarize(umb_bench *b, void *ctx, size_t size, double *times, long iters, umb_stats *s, umb_col *extra)
{
    (void)ctx, (void)size;
    double mean = umb_figures_mean_us(times, iters), *means = NULL, *all = NULL;
    if (b->rank == 0) {
        means = umb_xmalloc(sizeof(double) * (size_t)b->nranks, "every rank's mean");
        all = umb_xmalloc(sizeof(double) * (size_t)iters * (size_t)b->nranks, "all samples");
    }
    UMB_MPI_CHECK(MPI_Gather(&mean, 1, MPI_DOUBLE, means, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD));
    UMB_MPI_CHECK(MPI_Gather(times, UMB_MPI_COUNT(iters), MPI_DOUBLE, all, UMB_MPI_COUNT(iters), MPI_DOUBLE, 0, MPI_COMM_WORLD));
    if (b->rank != 0) return;
    int slowest;
    umb_figures_collective(all, iters * b->nranks, means, b->nranks, s, &slowest);
    extra[0].value = slowest;
    free(means);
    free(all);
}

static void alloc_set(umb_bench *b, const umb_collective *c, umb_coll_bufs *s, umb_kind kind)
{
    memset(s, 0, sizeof *s);
    size_t sb = blocks(c->send_blocks, b->nranks) * b->opt.max_size, rb = blocks(c->recv_blocks, b->nranks) * b->opt.max_size;
    if (sb) umb_bench_alloc_kind(b, &s->send, kind, sb);
    if (rb) umb_bench_alloc_kind(b, &s->recv, kind, rb);
}

static double payload(umb_bench *b, void *ctx, size_t size)
{
    const coll_run *r = ctx;
    return r->c->payload ? r->c->payload(b->nranks, size) : NAN;
}

static void free_set(umb_coll_bufs *s)
{
    umb_buffer_free(&s->send);
    umb_buffer_free(&s->recv);
}

int umb_collective_main(const umb_collective *c, int argc, char **argv)
{
    static const umb_metric latency = {"Avg Latency(us)", "Latency(us)", "latency_us", 0};
    umb_bench b;
    umb_header h;
    coll_run r = {.c = c, .nsets = 1};
    /* What alloc_set allocates, for -M (umb_memory_need). */
    umb_cli cli = *c->cli;
    cli.buffers_per_rank = (c->send_blocks != 0) + (c->recv_blocks != 0);
    cli.rank_blocks = (c->send_blocks == UMB_PER_RANK) + (c->recv_blocks == UMB_PER_RANK);
    cli.rooted = c->rooted;
    cli.gathers = 1;
    umb_bench_init(&b, &cli, 0, argc, argv);
    const umb_options *o = &b.opt;

    /* With a rotating root whose kind differs, every rank holds both kinds. */
    r.nsets = c->rooted && o->root_rotate && !o->buffer_list && o->root_kind != o->other_kind ? 2 : 1;
    alloc_set(&b, c, &r.set[0], b.kind);
    if (r.nsets > 1) alloc_set(&b, c, &r.set[1], o->root_kind);

    umb_bench_header(&b, &h);
    if (b.rank == 0) {
        umb_header_str(&h, "collective", "Collective", "%s", c->call);
        if (c->rooted) {
            if (o->root_rotate) umb_header_str(&h, "root", "Root", "rotating: rank (iteration mod %d)", b.nranks);
            else umb_header_str(&h, "root", "Root", "rank %d", o->root);
        }
    }
    char loop[256];
    snprintf(loop, sizeof loop, "per iteration on every rank: fill (-c)%s, a barrier, then only %s is timed",
             umb_bench_place_each(&b) ? ", place" : "", c->call);
    const umb_sweep sweep = {
        .metric = &latency,
        .phase = c->call,
        .handshake = coll_loop,
        .classic = plain_loop,
        .place = place_all,
        .summarize = summarize,
        .payload = payload,
        .nextra = 1, .extra_last = 1,
        .extra = {{.title = "Slowest rank", .key = "slowest_rank", .decimals = 0, .full_only = 1}},
        .loop_handshake = loop,
        .loop_classic = loop,
        .units = "latency in microseconds. Avg: the mean over ranks of each rank's mean; "
                 "Min, Max: the fastest and slowest rank's mean (OMB); Slowest rank: whose mean is Max; P50, P99: over all ranks and iterations",
    };
    umb_bench_run(&b, &h, &sweep, &r);
    for (int k = 0; k < r.nsets; k++) free_set(&r.set[k]);
    return umb_bench_finish(&b);
}
