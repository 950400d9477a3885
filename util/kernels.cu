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
