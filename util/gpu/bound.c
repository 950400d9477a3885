/* bound.h with the CUDA runtime. Plain event-timed batches, as
   tests/tools/memcpy_loop: with 64 MiB copies the host queues the next
   copy long before the copy engine finishes one, so no stream hold is
   needed (docs/method.md). */
#include "bound.h"

#include "gpu.h"
#include "gpu_check.h"
#include "stats.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>

typedef struct {
    void *dst, *src;
    int dst_dev, src_dev;  /* -1: host; both >= 0: cudaMemcpyPeerAsync */
} copy_job;

/* The median GB/s of UMB_BOUND_REPS batches of UMB_BOUND_COPIES copies
   of UMB_BOUND_BYTES, after one untimed batch, on `stream`. */
static double timed(const copy_job *j, cudaStream_t stream)
{
    cudaEvent_t start, stop;
    double gbs[UMB_BOUND_REPS];
    umb_stats s;
    UMB_CUDA_CHECK(cudaEventCreate(&start));
    UMB_CUDA_CHECK(cudaEventCreate(&stop));
    for (int rep = -1; rep < UMB_BOUND_REPS; rep++) {
        float ms;
        UMB_CUDA_CHECK(cudaEventRecord(start, stream));
        for (int k = 0; k < UMB_BOUND_COPIES; k++) {
            if (j->src_dev >= 0 && j->dst_dev >= 0)
                UMB_CUDA_CHECK(cudaMemcpyPeerAsync(j->dst, j->dst_dev, j->src, j->src_dev, UMB_BOUND_BYTES, stream));
            else
                UMB_CUDA_CHECK(cudaMemcpyAsync(j->dst, j->src, UMB_BOUND_BYTES, cudaMemcpyDefault, stream));
        }
        UMB_CUDA_CHECK(cudaEventRecord(stop, stream));
        UMB_CUDA_CHECK(cudaEventSynchronize(stop));
        UMB_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
        if (rep >= 0) gbs[rep] = (double)UMB_BOUND_BYTES * UMB_BOUND_COPIES / (ms / 1e3) / 1e9;
    }
    UMB_CUDA_CHECK(cudaEventDestroy(start));
    UMB_CUDA_CHECK(cudaEventDestroy(stop));
    umb_stats_compute(gbs, UMB_BOUND_REPS, &s);
    return s.p50;
}

static void note(umb_measured_bound *b)
{
    b->bytes = UMB_BOUND_BYTES;
    b->copies = UMB_BOUND_COPIES;
    b->reps = UMB_BOUND_REPS;
}

/* A buffer of `kind` on GPU `gpu` (pinned memory: portable, any GPU). */
static void *alloc_on(int gpu, umb_kind kind, umb_measured_bound *b, const char *what)
{
    char why[128];
    umb_gpu_use(gpu);
    void *p = umb_gpu_alloc(kind, UMB_BOUND_BYTES, why, sizeof why);
    if (!p) snprintf(b->why, sizeof b->why, "%s on GPU %d: %s", what, gpu, why);
    return p;
}

int umb_bound_measure_host(int gpu, umb_measured_bound *b)
{
    int was = umb_gpu_current(), rc = -1;
    cudaStream_t s;
    b->gpu = gpu;
    void *host = alloc_on(gpu, UMB_P, b, "pinned memory");
    void *dev = host ? alloc_on(gpu, UMB_D, b, "device memory") : NULL;
    if (dev) {
        UMB_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        copy_job up = {dev, host, -1, -1}, down = {host, dev, -1, -1};
        b->htod_gbs = timed(&up, s);
        b->dtoh_gbs = timed(&down, s);
        UMB_CUDA_CHECK(cudaStreamDestroy(s));
        note(b);
        rc = 0;
    }
    if (dev) umb_gpu_free(UMB_D, dev);
    if (host) umb_gpu_free(UMB_P, host);
    if (was >= 0) umb_gpu_use(was);
    return rc;
}

int umb_bound_measure_peer(int from, int to, umb_measured_bound *b)
{
    int was = umb_gpu_current(), rc = -1, changed = 0;
    cudaStream_t s;
    b->peer_from = from, b->peer_to = to;
    void *dst = alloc_on(to, UMB_D, b, "device memory");
    void *src = dst ? alloc_on(from, UMB_D, b, "device memory") : NULL;
    if (src) {
        b->peer_access = from == to || umb_gpu_can_peer(from, to);
        if (from != to && b->peer_access) changed = umb_gpu_peer_access(from, to, 1);
        umb_gpu_use(from);  /* its copy engines copy */
        UMB_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        copy_job j = {dst, src, from == to ? -1 : to, from == to ? -1 : from};
        b->peer_gbs = timed(&j, s);
        UMB_CUDA_CHECK(cudaStreamDestroy(s));
        if (changed) umb_gpu_peer_access(from, to, 0);  /* as it was */
        note(b);
        rc = 0;
    }
    if (src) umb_gpu_free(UMB_D, src);
    if (dst) umb_gpu_free(UMB_D, dst);
    if (was >= 0) umb_gpu_use(was);
    return rc;
}
