#include "kernels.h"
#include "pattern.h"

#include <cuda_runtime.h>

#define TOUCH_STRIDE 4096  /* the smallest page size: covers 64 KiB and 2 MiB pages too */
#define THREADS 256

static unsigned blocks_for(size_t items)
{
    size_t b = (items + THREADS - 1) / THREADS;
    if (b > 4096) b = 4096;  /* grid-stride beyond this */
    return b ? (unsigned)b : 1;
}

__global__ void touch_pages(volatile unsigned char *p, size_t bytes)
{
    size_t pages = (bytes + TOUCH_STRIDE - 1) / TOUCH_STRIDE;
    for (size_t g = blockIdx.x * (size_t)blockDim.x + threadIdx.x; g < pages;
         g += (size_t)gridDim.x * blockDim.x) {
        size_t i = g * TOUCH_STRIDE;
        p[i] = p[i];  /* a write: the page migrates here and stays valid */
    }
}

__global__ void fill_pattern(unsigned char *p, size_t bytes, uint32_t seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < bytes;
         i += (size_t)gridDim.x * blockDim.x)
        p[i] = umb_pattern_byte(seed, i);
}

extern "C" int umb_kernel_touch(void *p, size_t bytes, void *stream)
{
    if (!bytes) return cudaSuccess;
    size_t pages = (bytes + TOUCH_STRIDE - 1) / TOUCH_STRIDE;
    touch_pages<<<blocks_for(pages), THREADS, 0, (cudaStream_t)stream>>>((unsigned char *)p, bytes);
    return cudaGetLastError();
}

extern "C" int umb_kernel_fill(void *p, size_t bytes, uint32_t seed, void *stream)
{
    if (!bytes) return cudaSuccess;
    fill_pattern<<<blocks_for(bytes), THREADS, 0, (cudaStream_t)stream>>>((unsigned char *)p, bytes, seed);
    return cudaGetLastError();
}

/* 16-byte loads and stores for the aligned body, bytes for the ends. */
__global__ void copy_bytes(unsigned char *dst, const unsigned char *src, size_t bytes)
{
    size_t stride = (size_t)gridDim.x * blockDim.x, first = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if ((((uintptr_t)dst ^ (uintptr_t)src) & 15) == 0) {
        size_t head = (16 - ((uintptr_t)src & 15)) & 15;
        if (head > bytes) head = bytes;
        size_t n16 = (bytes - head) / 16;
        const uint4 *s = (const uint4 *)(src + head);
        uint4 *d = (uint4 *)(dst + head);
        for (size_t i = first; i < n16; i += stride) d[i] = s[i];
        for (size_t i = first; i < head; i += stride) dst[i] = src[i];
        for (size_t i = head + n16 * 16 + first; i < bytes; i += stride) dst[i] = src[i];
    } else {
        for (size_t i = first; i < bytes; i += stride) dst[i] = src[i];
    }
}

extern "C" int umb_kernel_copy(void *dst, const void *src, size_t bytes, void *stream)
{
    if (!bytes) return cudaSuccess;
    int dev = 0, sms = 0;
    cudaError_t rc = cudaGetDevice(&dev);
    if (rc == cudaSuccess) rc = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (rc != cudaSuccess) return rc;
    size_t blocks = (bytes / 16 + 511) / 512;
    size_t most = (size_t)(sms > 0 ? sms : 1) * 4;  /* enough in flight to saturate HBM or PCIe */
    if (blocks > most) blocks = most;
    if (blocks < 1) blocks = 1;
    copy_bytes<<<(unsigned)blocks, 512, 0, (cudaStream_t)stream>>>((unsigned char *)dst,
                                                                 (const unsigned char *)src, bytes);
    return cudaGetLastError();
}

__device__ static unsigned long long global_ns(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__global__ void spin_on_flag(volatile int *flag, volatile int *timed_out, unsigned long long timeout_ns)
{
    unsigned long long start = global_ns();
    while (!*flag)
        if (global_ns() - start > timeout_ns) {
            *timed_out = 1;
            break;
        }
}

extern "C" int umb_kernel_spin(volatile int *flag, volatile int *timed_out, unsigned timeout_ms, void *stream)
{
    spin_on_flag<<<1, 1, 0, (cudaStream_t)stream>>>(flag, timed_out, (unsigned long long)timeout_ms * 1000000ull);
    return cudaGetLastError();
}

__global__ void check_pattern(const unsigned char *p, size_t bytes, uint32_t seed, unsigned long long *first_bad)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < bytes; i += (size_t)gridDim.x * blockDim.x)
        if (p[i] != umb_pattern_byte(seed, i)) {
            atomicMin(first_bad, (unsigned long long)i);
            return;
        }
}

extern "C" int umb_kernel_check(const void *p, size_t bytes, uint32_t seed, unsigned long long *first_bad, void *stream)
{
    if (!bytes) return cudaSuccess;
    check_pattern<<<blocks_for(bytes), THREADS, 0, (cudaStream_t)stream>>>((const unsigned char *)p, bytes, seed, first_bad);
    return cudaGetLastError();
}
