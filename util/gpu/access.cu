#include "access.h"
#include "gpu_check.h"
#include "gpu_prefetch.h"

#include <cuda_runtime.h>
#include <pthread.h>
#include <unistd.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define DEFAULT_BLOCK 256
#define PAGE 4096
#define LINE 128

static const char *pattern_names[UMB_NPATTERNS] = {"grid", "block", "random"};

extern "C" const char *umb_pattern_name(umb_pattern p) { return pattern_names[p]; }

/* The sum of every 32-bit word a read kernel reads (mod 2^64; fold.h):
   the loads feed it, so the compiler cannot drop them, and the driver
   compares it with what was written (umb_access_sum). Reset before each run. */
__device__ unsigned long long access_sum;

__device__ __forceinline__ void fold(unsigned long long acc)
{
    for (int o = 16; o > 0; o /= 2) acc += __shfl_xor_sync(0xffffffffu, acc, o);
    if ((threadIdx.x & 31) == 0 && acc) atomicAdd(&access_sum, acc);
}

/* One element: write v (and its index), or add its words to acc. */
template <int WRITE>
__device__ __forceinline__ void visit(uint4 *p, size_t i, uint32_t v, unsigned long long &acc)
{
    if (WRITE) {
        p[i] = make_uint4(v, v, v, (uint32_t)i);
    } else {
        uint4 x = p[i];
        acc += (unsigned long long)x.x + x.y + x.z + x.w;
    }
}

template <int WRITE>
__global__ void grid_stride(uint4 *p, size_t n, uint32_t v)
{
    unsigned long long acc = 0;
    size_t stride = (size_t)gridDim.x * blockDim.x;
#pragma unroll 4  /* independent loads in flight per thread */
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride) {
        visit<WRITE>(p, i, v, acc);
    }
    if (!WRITE) fold(acc);
}

/* Each block its own contiguous range, a multiple of 32 elements (512 B),
   so every warp access is one aligned 512 B run. */
template <int WRITE>
__global__ void block_stride(uint4 *p, size_t n, uint32_t v)
{
    unsigned long long acc = 0;
    size_t chunk = (n + gridDim.x - 1) / gridDim.x;
    chunk = (chunk + 31) / 32 * 32;
    size_t start = blockIdx.x * chunk, end = start + chunk < n ? start + chunk : n;
#pragma unroll 4
    for (size_t i = start + threadIdx.x; i < end; i += blockDim.x) {
        visit<WRITE>(p, i, v, acc);
    }
    if (!WRITE) fold(acc);
}

__device__ __forceinline__ uint64_t splitmix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Per step a warp picks a random 4 KiB page and a random aligned 128 B line
   in it; its 32 lanes read (or write) the line's 32 words. */
template <int WRITE>
__global__ void random_warp(uint32_t *p, size_t pages, unsigned long steps, uint64_t seed)
{
    unsigned long long acc = 0;
    uint64_t warp = (blockIdx.x * (uint64_t)blockDim.x + threadIdx.x) / 32;
    unsigned lane = threadIdx.x & 31;
    for (unsigned long s = 0; s < steps; s++) {
        uint64_t h = splitmix(seed ^ (warp << 24) ^ s);  /* the same in every lane */
        size_t word = (size_t)(h % pages) * (PAGE / 4) + (size_t)((h >> 40) % (PAGE / LINE)) * (LINE / 4) + lane;
        if (WRITE) p[word] = (uint32_t)h;
        else acc += p[word];
    }
    if (!WRITE) fold(acc);
}

static cudaStream_t streams[2];
static cudaEvent_t ev_start, ev_stop, ev_mid;
static void *sum_addr;   /* access_sum's address, for the reset before each run */

static void init_once(void)
{
    if (streams[0]) return;
    for (int i = 0; i < 2; i++) UMB_CUDA_CHECK(cudaStreamCreateWithFlags(&streams[i], cudaStreamNonBlocking));
    UMB_CUDA_CHECK(cudaEventCreate(&ev_start));
    UMB_CUDA_CHECK(cudaEventCreate(&ev_stop));
    UMB_CUDA_CHECK(cudaEventCreateWithFlags(&ev_mid, cudaEventDisableTiming));
    UMB_CUDA_CHECK(cudaGetSymbolAddress(&sum_addr, access_sum));
}

static const void *kernel_of(umb_pattern pat, umb_op op)
{
    int w = op == UMB_OP_WRITE;
    switch (pat) {
    case UMB_PAT_BLOCK: return w ? (const void *)block_stride<1> : (const void *)block_stride<0>;
    case UMB_PAT_RANDOM: return w ? (const void *)random_warp<1> : (const void *)random_warp<0>;
    default: return w ? (const void *)grid_stride<1> : (const void *)grid_stride<0>;
    }
}

extern "C" int umb_access_sm_count(void)
{
    int dev = 0, sms = 0;
    UMB_CUDA_CHECK(cudaGetDevice(&dev));
    UMB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    return sms;
}

extern "C" unsigned umb_access_default_grid(umb_pattern pat, umb_op op, unsigned block)
{
    int per_sm = 0;
    if (!block) block = DEFAULT_BLOCK;
    UMB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel_of(pat, op), (int)block, 0));
    if (per_sm < 1) per_sm = 1;
    return (unsigned)per_sm * (unsigned)umb_access_sm_count();
}

static void shape(const umb_access *a, unsigned *grid, unsigned *block)
{
    *block = a->block ? a->block : DEFAULT_BLOCK;
    *grid = a->grid ? a->grid : umb_access_default_grid(a->pattern, a->op, *block);
}

extern "C" double umb_access_bytes(const umb_access *a)
{
    if (a->pattern != UMB_PAT_RANDOM) return (double)(a->bytes / 16 * 16);
    unsigned grid, block;
    shape(a, &grid, &block);
    return (double)((size_t)grid * block / 32) * (double)a->steps * LINE;
}

extern "C" double umb_access_run(const umb_access *a)
{
    unsigned grid, block;
    float ms = 0;
    init_once();
    shape(a, &grid, &block);
    cudaStream_t s = streams[0];
    int w = a->op == UMB_OP_WRITE;
    size_t n = a->bytes / 16;
    uint32_t v = (uint32_t)a->seed;
    UMB_CUDA_CHECK(cudaMemsetAsync(sum_addr, 0, sizeof(unsigned long long), s));  /* before the timed region */
    UMB_CUDA_CHECK(cudaEventRecord(ev_start, s));
    switch (a->pattern) {
    case UMB_PAT_BLOCK:
        if (w) block_stride<1><<<grid, block, 0, s>>>((uint4 *)a->p, n, v);
        else block_stride<0><<<grid, block, 0, s>>>((uint4 *)a->p, n, v);
        break;
    case UMB_PAT_RANDOM:
        if (a->bytes >= PAGE) {
            if (w) random_warp<1><<<grid, block, 0, s>>>((uint32_t *)a->p, a->bytes / PAGE, a->steps, a->seed);
            else random_warp<0><<<grid, block, 0, s>>>((uint32_t *)a->p, a->bytes / PAGE, a->steps, a->seed);
        }
        break;
    default:
        if (w) grid_stride<1><<<grid, block, 0, s>>>((uint4 *)a->p, n, v);
        else grid_stride<0><<<grid, block, 0, s>>>((uint4 *)a->p, n, v);
        break;
    }
    UMB_CUDA_CHECK(cudaGetLastError());
    UMB_CUDA_CHECK(cudaEventRecord(ev_stop, s));
    UMB_CUDA_CHECK(cudaEventSynchronize(ev_stop));
    UMB_CUDA_CHECK(cudaEventElapsedTime(&ms, ev_start, ev_stop));
    return ms / 1e3;
}

extern "C" unsigned long long umb_access_sum(void)
{
    unsigned long long v = 0;
    UMB_CUDA_CHECK(cudaMemcpyFromSymbol(&v, access_sum, sizeof v));
    return v;
}

extern "C" unsigned long long umb_access_words(const umb_access *a)
{
    if (a->op == UMB_OP_WRITE) return 0;
    if (a->pattern != UMB_PAT_RANDOM) return (unsigned long long)(a->bytes / 16) * 4;
    if (a->bytes < PAGE) return 0;  /* nothing launched */
    unsigned grid, block;
    shape(a, &grid, &block);
    return (unsigned long long)grid * block * a->steps;  /* one word per thread per step */
}

extern "C" void umb_access_fill(void *p, size_t bytes, int value)
{
    init_once();
    UMB_CUDA_CHECK(cudaMemsetAsync(p, value, bytes, streams[0]));
    UMB_CUDA_CHECK(cudaStreamSynchronize(streams[0]));
}

extern "C" void umb_access_corrupt_word(void *p, size_t word)
{
    uint32_t w = 0;
    UMB_CUDA_CHECK(cudaMemcpy(&w, (uint32_t *)p + word, sizeof w, cudaMemcpyDefault));
    w += 1;
    UMB_CUDA_CHECK(cudaMemcpy((uint32_t *)p + word, &w, sizeof w, cudaMemcpyDefault));
}

extern "C" double umb_access_prefetch(void *p, size_t bytes, size_t chunk, int to_gpu)
{
    float ms = 0;
    int dev = -1;
    init_once();
    if (to_gpu) UMB_CUDA_CHECK(cudaGetDevice(&dev));
    if (!chunk || chunk > bytes) chunk = bytes;
    UMB_CUDA_CHECK(cudaEventRecord(ev_start, streams[0]));
    UMB_CUDA_CHECK(cudaStreamWaitEvent(streams[1], ev_start, 0));
    size_t k = 0;
    for (size_t off = 0; off < bytes; off += chunk, k++) {
        size_t len = bytes - off < chunk ? bytes - off : chunk;
        umb_gpu_prefetch_to((char *)p + off, len, dev, streams[k % 2]);
    }
    UMB_CUDA_CHECK(cudaEventRecord(ev_mid, streams[1]));
    UMB_CUDA_CHECK(cudaStreamWaitEvent(streams[0], ev_mid, 0));
    UMB_CUDA_CHECK(cudaEventRecord(ev_stop, streams[0]));
    UMB_CUDA_CHECK(cudaEventSynchronize(ev_stop));
    UMB_CUDA_CHECK(cudaEventElapsedTime(&ms, ev_start, ev_stop));
    return ms / 1e3;
}

extern "C" void *umb_access_register(void *p, size_t bytes)
{
    void *d = NULL;
    UMB_CUDA_CHECK(cudaHostRegister(p, bytes, cudaHostRegisterMapped));
    UMB_CUDA_CHECK(cudaHostGetDevicePointer(&d, p, 0));
    return d;
}

extern "C" void umb_access_unregister(void *p) { UMB_CUDA_CHECK(cudaHostUnregister(p)); }

extern "C" double umb_access_hbm_peak(void)
{
    int dev = 0, khz = 0, bits = 0;
    UMB_CUDA_CHECK(cudaGetDevice(&dev));
    if (cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&bits, cudaDevAttrGlobalMemoryBusWidth, dev) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return 2.0 * khz * 1e3 * bits / 8.0;
}

struct host_part {
    char *p;
    size_t bytes;
    int value;
};

static void *host_write_part(void *arg)
{
    struct host_part *h = (struct host_part *)arg;
    memset(h->p, h->value, h->bytes);
    return NULL;
}

extern "C" void umb_host_write(void *p, size_t bytes, int value)
{
    enum { MAX_THREADS = 8 };
    pthread_t t[MAX_THREADS];
    struct host_part part[MAX_THREADS];
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int n = cpus < 1 ? 1 : cpus > MAX_THREADS ? MAX_THREADS : (int)cpus, started = 0;
    size_t each = (bytes / n + PAGE - 1) / PAGE * PAGE;
    for (int i = 0; i < n; i++) {
        size_t off = (size_t)i * each;
        part[i].p = (char *)p + off;
        part[i].bytes = off >= bytes ? 0 : bytes - off < each ? bytes - off : each;
        part[i].value = value;
        if (i > 0 && pthread_create(&t[i], NULL, host_write_part, &part[i]) == 0) started |= 1 << i;
        else if (i > 0) host_write_part(&part[i]);  /* no thread: do it here */
    }
    host_write_part(&part[0]);
    for (int i = 1; i < n; i++)
        if (started & (1 << i)) pthread_join(t[i], NULL);
}
