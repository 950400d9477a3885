#include "copy_measure.h"

#include "clock.h"
#include "error.h"
#include "figures.h"
#include "gpu.h"
#include "gpu_check.h"
#include "gpu_prefetch.h"
#include "kernels.h"
#include "link.h"
#include "pattern.h"
#include "placement.h"
#include "sysinfo.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HOLD_TIMEOUT_MS 10000  /* nvbandwidth's spin-kernel timeout */

/* ---- per-GPU state ----------------------------------------------------- */

copy_gpu *copy_use_gpu(copy_run *r, int g)
{
    copy_gpu *st = &r->gpu[g];
    umb_gpu_use(g);
    if (st->ready) return st;
    for (int i = 0; i < 2; i++) {
        UMB_CUDA_CHECK(cudaStreamCreateWithFlags(&st->s[i], cudaStreamNonBlocking));
        UMB_CUDA_CHECK(cudaEventCreate(&st->start[i]));
        UMB_CUDA_CHECK(cudaEventCreate(&st->stop[i]));
    }
    UMB_CUDA_CHECK(cudaEventCreateWithFlags(&st->go, cudaEventDisableTiming));
    umb_gpu_desc d;
    char link[128];
    umb_gpu_describe(g, &d);
    umb_pcie_link(d.pci_bus, link, sizeof link);
    st->limit = umb_pcie_gbs(link);
    if (!(st->limit > 0)) st->limit = 0;  /* NAN: unknown */
    st->ready = 1;
    return st;
}

void copy_hold_open(copy_run *r)
{
    int *flag = NULL;
    umb_gpu_use(r->drv.devices[0]);
    UMB_CUDA_CHECK(cudaHostAlloc((void **)&flag, 2 * sizeof(int), cudaHostAllocPortable | cudaHostAllocMapped));
    r->flag = flag;
    r->timed_out = flag + 1;
}

void copy_hold_close(copy_run *r)
{
    UMB_CUDA_CHECK(cudaFreeHost((void *)r->flag));
    r->flag = r->timed_out = NULL;
}

/* ---- buffers ------------------------------------------------------------ */

void copy_check_memory(const copy_combo *c, int gpu, int peer, size_t bytes)
{
    int nbuf = 2;  /* at most two device or managed buffers per GPU */
    int gpus[2] = {gpu, c->dir == COPY_PEER ? peer : -1};
    for (int i = 0; i < 2 && gpus[i] >= 0; i++) {
        umb_gpu_use(gpus[i]);
        size_t free_b = umb_gpu_free_memory();
        /* Managed pages placed on the GPU count as well; keep a margin. */
        if ((double)bytes * nbuf > 0.8 * (double)free_b) {
            fprintf(stderr, "%s: %zu bytes (%s %s %s) need %d buffer(s) of that size on GPU %d, which has %zu bytes free; lower --size\n",
                    umb_program(), bytes, umb_kind_long(c->kind), copy_dir_name(c->dir), copy_meth_name(c->meth), nbuf, gpus[i], free_b);
            exit(UMB_EXIT_USAGE);
        }
    }
}

/* A util buffer of `kind` on `gpu`; pageable and registered memory on
   --numa-node. A failure ends the run. */
static umb_buffer *alloc_buf(const copy_run *r, umb_buffer *b, int kind, int gpu, size_t bytes)
{
    char why[256], line[400];
    umb_gpu_use(gpu);
    if (umb_buffer_alloc_on(b, (umb_kind)kind, bytes, r->drv.numa_node, why, sizeof why)) {
        snprintf(line, sizeof line, "%zu bytes of %s memory: %s", bytes, umb_kind_long((umb_kind)kind), why);
        umb_fatal("umb_buffer_alloc", __FILE__, __LINE__, line);
    }
    return b;
}

void copy_setup_alloc(const copy_run *r, const copy_combo *c, copy_setup *u, size_t bytes)
{
    copy_layout l;
    copy_layout_of(c, &l);
    u->ndirs = l.ndirs;
    for (int i = 0; i < l.ndirs; i++) {
        u->src[i] = alloc_buf(r, &u->own_src[i], l.src[i], u->gpu, bytes);
        u->dst[i] = l.dst[i] == COPY_SAME ? u->src[i]
                                          : alloc_buf(r, &u->own_dst[i], l.dst[i], c->dir == COPY_PEER ? u->peer : u->gpu, bytes);
    }
}

/* The GPU a buffer was allocated on becomes current (its stream for fill,
   check and free). */
static umb_buffer *on_its_gpu(umb_buffer *b)
{
    if (b->device >= 0) umb_gpu_use(b->device);
    return b;
}

void copy_setup_free(copy_setup *u)
{
    for (int i = 0; i < u->ndirs; i++) {
        if (u->dst[i] != u->src[i]) umb_buffer_free(on_its_gpu(u->dst[i]));
        umb_buffer_free(on_its_gpu(u->src[i]));
    }
}

/* ---- one timed batch ---------------------------------------------------- */

/* Managed pages where the combination says they start; never timed.
   Prefetched, not touched: under repeated touches the driver's thrashing
   heuristics may leave pages where they are (docs/method.md). Then
   umb_buffer_place reads where they are (pagemap: managed-host all on the
   host, managed-device none), places again where they are not, and notes
   it in the placement log, as for the MPI programs. */
static void place_managed(copy_setup *u, size_t size)
{
    umb_gpu_use(u->gpu);
    umb_buffer_place(u->src[0], size, UMB_PLACE_PREFETCH);
    if (u->dst[0] != u->src[0]) umb_buffer_place(u->dst[0], size, UMB_PLACE_PREFETCH);
}

static void enqueue(const copy_combo *c, copy_setup *u, int dirn, size_t size, cudaStream_t s)
{
    void *dst = u->dst[dirn]->ptr, *src = u->src[dirn]->ptr;
    switch (c->meth) {
    case COPY_CE: UMB_CUDA_CHECK(cudaMemcpyAsync(dst, src, size, cudaMemcpyDefault, s)); break;
    case COPY_SM: case COPY_DEMAND: UMB_CUDA_CHECK(umb_kernel_copy(dst, src, size, s)); break;
    case COPY_PREFETCH: umb_gpu_prefetch_to(src, size, c->dir == COPY_HTOD ? u->gpu : -1, s); break;
    default: break;
    }
}

typedef struct {
    double secs[3];  /* per direction (bidir: [0] htod, [1] dtoh), [2] both */
    double cpu;      /* host clock, whole batch */
} timing;

/* The events' times: per stream, and for bidir both directions from the
   first start to the last stop. */
static void event_times(const copy_gpu *st, int two, timing *t)
{
    float ms;
    UMB_CUDA_CHECK(cudaEventElapsedTime(&ms, st->start[0], st->stop[0]));
    t->secs[0] = t->secs[2] = ms / 1e3;
    if (two) {
        float s1, e0, e1;
        UMB_CUDA_CHECK(cudaEventElapsedTime(&ms, st->start[1], st->stop[1]));
        t->secs[1] = ms / 1e3;
        /* All relative to start[0]. */
        UMB_CUDA_CHECK(cudaEventElapsedTime(&s1, st->start[0], st->start[1]));
        UMB_CUDA_CHECK(cudaEventElapsedTime(&e0, st->start[0], st->stop[0]));
        UMB_CUDA_CHECK(cudaEventElapsedTime(&e1, st->start[0], st->stop[1]));
        t->secs[2] = ((e0 > e1 ? e0 : e1) - (s1 < 0 ? s1 : 0)) / 1e3;
    }
}

static void batch(copy_run *r, const copy_combo *c, copy_setup *u, size_t size, long copies, timing *t)
{
    copy_gpu *st = copy_use_gpu(r, u->gpu);
    int two = c->dir == COPY_BIDIR, hold = copy_holdable(c);
    memset(t, 0, sizeof *t);
    if (c->meth == COPY_DEMAND && c->dir == COPY_DTOH) {
        /* Pages come to the host only through CPU faults: the CPU reads. */
        double t0 = umb_now();
        memcpy(u->dst[0]->ptr, u->src[0]->ptr, size);
        t->secs[0] = t->secs[2] = t->cpu = umb_now() - t0;
        return;
    }
    double t0 = umb_now();
    if (hold) {
        *r->flag = 0;
        *r->timed_out = 0;
        UMB_CUDA_CHECK(umb_kernel_spin(r->flag, r->timed_out, HOLD_TIMEOUT_MS, st->s[0]));
        if (two) {
            UMB_CUDA_CHECK(cudaEventRecord(st->go, st->s[0]));
            UMB_CUDA_CHECK(cudaStreamWaitEvent(st->s[1], st->go, 0));
        }
    }
    for (int i = 0; i <= two; i++) {
        UMB_CUDA_CHECK(cudaEventRecord(st->start[i], st->s[i]));
        for (long k = 0; k < copies; k++) enqueue(c, u, i, size, st->s[i]);
        UMB_CUDA_CHECK(cudaEventRecord(st->stop[i], st->s[i]));
    }
    if (hold) {
        __sync_synchronize();
        t0 = umb_now();
        *r->flag = 1;  /* the GPU sees this store through the pinned mapping */
    }
    for (int i = 0; i <= two; i++) UMB_CUDA_CHECK(cudaEventSynchronize(st->stop[i]));
    t->cpu = umb_now() - t0;
    if (hold && *r->timed_out)
        umb_fatal("the stream hold", __FILE__, __LINE__, "queueing the batch took longer than the 10 s hold: the host blocked while queueing (lower --copies)");
    event_times(st, two, t);
    /* A copy that is not held (pageable or managed memory, prefetch) may be
       carried out by the driver inside the call, outside the span its
       stream's events mark: an H200 timed a 1 MiB managed-host DtoH copy at
       266 GB/s by its events, 7.2 GB/s by the host. There the longer of the
       two clocks stands: never a figure the copy did not take
       (docs/method.md, "The timed batch"). */
    for (int i = 0; !hold && i < 3; i++)
        if (t->cpu > t->secs[i]) t->secs[i] = t->cpu;
}

/* ---- one size ----------------------------------------------------------- */

/* The sources get the pattern (seeded by combination, size and
   direction), the destinations the poison. */
static void prepare(int ci, copy_setup *u, size_t size)
{
    for (int i = 0; i < u->ndirs; i++) {
        umb_buffer_fill(on_its_gpu(u->src[i]), 0, size, umb_pattern_seed(ci, size, i));
        if (u->dst[i] != u->src[i]) umb_buffer_fill(on_its_gpu(u->dst[i]), 0, size, UMB_PATTERN_POISON);
    }
}

/* Every byte of every destination: 1 when all match. */
static int validate(int ci, const copy_combo *c, copy_setup *u, size_t size)
{
    int valid = 1;
    for (int i = 0; i < u->ndirs; i++) {
        unsigned got, want;
        long at = umb_buffer_check(on_its_gpu(u->dst[i]), 0, size, umb_pattern_seed(ci, size, i), &got, &want);
        if (at < 0) continue;
        fprintf(stderr, "%s: validation failed: %s %s %s, %zu bytes: byte %ld is wrong\n",
                umb_program(), umb_kind_long(c->kind), copy_dir_name(c->dir), copy_meth_name(c->meth), size, at);
        valid = 0;
    }
    return valid;
}

/* Timed repetition rep's placement, from the placement log: counts whether
   the first placements held; 0 when the pages were still not in place
   (the repetition is left out, as the MPI programs' enforce check does). */
static int tally_placement(copy_result *res, long rep)
{
    if (!res->movable) return 1;
    const umb_place_rec *p = &umb_placement_timed()[rep];
    if (!p->any) return 1;
    res->held += p->held;
    res->checked += p->checked;
    return p->placed;
}

/* rates[0..2]: per direction and total; rates[3]: the host clock. */
static void summarize(double *rates[4], long kept, copy_result *res)
{
    umb_stats s;
    for (int i = 0; i < 3; i++) umb_stats_compute(rates[i], kept, &res->rate[i]);
    umb_stats_compute(rates[3], kept, &s);
    res->cpu = kept ? s.p50 : NAN;
    for (int i = 0; i < 3 && !kept; i++)  /* nothing placed: nothing measured */
        res->rate[i].avg = res->rate[i].min = res->rate[i].max = res->rate[i].p50 = res->rate[i].p99 = res->rate[i].stddev = NAN;
    for (int i = 0; i < 4; i++) free(rates[i]);
}

void copy_measure(copy_run *r, int ci, const copy_combo *c, copy_setup *u, size_t size, copy_result *res)
{
    long copies = copy_count(c, &r->opt, size), reps = r->drv.repeat, kept = 0;
    int two = c->dir == COPY_BIDIR;
    double unit = umb_drive_unit_bytes(&r->drv), moved = (double)size * (double)copies, *rates[4];
    for (int i = 0; i < 4; i++) rates[i] = umb_xmalloc(sizeof(double) * (size_t)reps, "rates");
    memset(res, 0, sizeof *res);
    res->movable = umb_kind_is_managed(c->kind);
    res->reps = reps;
    res->copies = copies;
    prepare(ci, u, size);
    umb_counters_size_begin(1);        /* rep -1 is the warm-up */
    umb_placement_size_begin(1, reps);
    for (long rep = -1; rep < reps; rep++) {  /* rep -1: the untimed warm-up */
        timing t;
        umb_counters_iteration(rep + 1);
        umb_placement_iteration(rep + 1);
        if (res->movable) place_managed(u, size);
        if (r->drv.flush) {
            umb_phase was = umb_counters_enter(UMB_PH_CHECK);  /* untimed, not counted */
            umb_cache_flush();
            umb_counters_leave(was);
        }
        batch(r, c, u, size, copies, &t);
        if (rep < 0 || !tally_placement(res, rep)) continue;
        double four[4];
        umb_figures_copy(moved, t.secs, t.cpu, two, unit, four);
        for (int k = 0; k < 4; k++) rates[k][kept] = four[k];
        kept++;
    }
    umb_counts ph[UMB_NPHASES];
    umb_counters_size_end(ph);
    res->moved = ph[UMB_PH_MEASURED];
    res->placed = ph[UMB_PH_PLACE];
    res->valid = validate(ci, c, u, size);
    summarize(rates, kept, res);
}
