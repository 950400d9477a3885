/* gpu.h with the CUDA runtime (linked statically: no link dependency on libcuda). */
#include "gpu.h"

#include "error.h"
#include "kernels.h"

#include <ctype.h>
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CUDA_CHECK(call)                                                        \
    do {                                                                        \
        cudaError_t rc_ = (call);                                               \
        if (rc_ != cudaSuccess) umb_fatal(#call, __FILE__, __LINE__, cudaGetErrorString(rc_)); \
    } while (0)

static int device_in_use = -1;
static cudaStream_t stream;

int umb_gpu_built(void) { return 1; }

int umb_gpu_count(char *why, size_t n)
{
    int count = 0;
    cudaError_t rc = cudaGetDeviceCount(&count);
    if (rc != cudaSuccess) {
        snprintf(why, n, "%s (cudaGetDeviceCount: %s, %s)",
                 access("/proc/driver/nvidia/version", R_OK) ? "no NVIDIA driver is loaded" : "no usable CUDA GPU",
                 cudaGetErrorName(rc), cudaGetErrorString(rc));
        return 0;
    }
    if (count == 0) snprintf(why, n, "no CUDA GPU is visible (CUDA_VISIBLE_DEVICES=%s)",
                             getenv("CUDA_VISIBLE_DEVICES") ? getenv("CUDA_VISIBLE_DEVICES") : "unset");
    return count;
}

void umb_gpu_use(int device)
{
    CUDA_CHECK(cudaSetDevice(device));
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    device_in_use = device;
}

int umb_gpu_current(void) { return device_in_use; }

void umb_gpu_describe(int device, umb_gpu_desc *d)
{
    struct cudaDeviceProp p;
    memset(d, 0, sizeof *d);
    CUDA_CHECK(cudaGetDeviceProperties(&p, device));
    snprintf(d->name, sizeof d->name, "%s", p.name);
    CUDA_CHECK(cudaDeviceGetPCIBusId(d->pci_bus, (int)sizeof d->pci_bus, device));
    for (char *c = d->pci_bus; *c; c++) *c = (char)tolower((unsigned char)*c);
    d->cc_major = p.major;
    d->cc_minor = p.minor;
    d->total_memory = p.totalGlobalMem;
    d->concurrent_managed = p.concurrentManagedAccess;
    d->pageable_access = p.pageableMemoryAccess;
}

void umb_gpu_versions(char *buf, size_t n)
{
    int drv = 0, rt = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    snprintf(buf, n, "driver supports CUDA %d.%d, runtime %d.%d", drv / 1000, drv % 1000 / 10,
             rt / 1000, rt % 1000 / 10);
}

size_t umb_gpu_free_memory(void)
{
    size_t free_b = 0, total = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total));
    return free_b;
}

void *umb_gpu_alloc(umb_kind kind, size_t bytes, char *why, size_t n)
{
    void *p = NULL;
    cudaError_t rc;
    const char *call;
    switch (kind) {
    case UMB_P: rc = cudaMallocHost(&p, bytes); call = "cudaMallocHost"; break;
    case UMB_D: rc = cudaMalloc(&p, bytes); call = "cudaMalloc"; break;
    default: rc = cudaMallocManaged(&p, bytes, cudaMemAttachGlobal); call = "cudaMallocManaged"; break;
    }
    if (rc != cudaSuccess) {
        cudaGetLastError();  /* clear it: the caller reports and ends the job */
        snprintf(why, n, "%s of %zu bytes failed: %s", call, bytes, cudaGetErrorString(rc));
        return NULL;
    }
    return p;
}

void umb_gpu_free(umb_kind kind, void *p)
{
    if (kind == UMB_P) CUDA_CHECK(cudaFreeHost(p));
    else CUDA_CHECK(cudaFree(p));
}

static struct cudaMemLocation location(int on_gpu)
{
    struct cudaMemLocation loc;
    memset(&loc, 0, sizeof loc);
    loc.type = on_gpu ? cudaMemLocationTypeDevice : cudaMemLocationTypeHost;
    loc.id = on_gpu ? device_in_use : 0;
    return loc;
}

/* CUDA 13 renamed the cudaMemLocation forms (12.2+: *_v2) to the plain names. */
static cudaError_t advise_at(void *p, size_t bytes, enum cudaMemoryAdvise a, int on_gpu)
{
#if CUDART_VERSION >= 13000
    return cudaMemAdvise(p, bytes, a, location(on_gpu));
#else
    return cudaMemAdvise_v2(p, bytes, a, location(on_gpu));
#endif
}

void umb_gpu_advise(void *p, size_t bytes, unsigned a)
{
    if (a & UMB_ADV_PREFERRED_CPU) CUDA_CHECK(advise_at(p, bytes, cudaMemAdviseSetPreferredLocation, 0));
    if (a & UMB_ADV_PREFERRED_GPU) CUDA_CHECK(advise_at(p, bytes, cudaMemAdviseSetPreferredLocation, 1));
    if (a & UMB_ADV_ACCESSED_BY_GPU) CUDA_CHECK(advise_at(p, bytes, cudaMemAdviseSetAccessedBy, 1));
    if (a & UMB_ADV_ACCESSED_BY_CPU) CUDA_CHECK(advise_at(p, bytes, cudaMemAdviseSetAccessedBy, 0));
    if (a & UMB_ADV_READ_MOSTLY) CUDA_CHECK(advise_at(p, bytes, cudaMemAdviseSetReadMostly, 1));
}

void umb_gpu_unadvise(void *p, size_t bytes)
{
    CUDA_CHECK(advise_at(p, bytes, cudaMemAdviseUnsetPreferredLocation, 1));
    CUDA_CHECK(advise_at(p, bytes, cudaMemAdviseUnsetAccessedBy, 1));
    CUDA_CHECK(advise_at(p, bytes, cudaMemAdviseUnsetAccessedBy, 0));
    CUDA_CHECK(advise_at(p, bytes, cudaMemAdviseUnsetReadMostly, 1));
}

void umb_gpu_prefetch(void *p, size_t bytes, int to_gpu)
{
    if (!bytes) return;
#if CUDART_VERSION >= 13000
    CUDA_CHECK(cudaMemPrefetchAsync(p, bytes, location(to_gpu), 0, stream));
#else
    CUDA_CHECK(cudaMemPrefetchAsync_v2(p, bytes, location(to_gpu), 0, stream));
#endif
    CUDA_CHECK(cudaStreamSynchronize(stream));
}

void umb_gpu_touch(void *p, size_t bytes)
{
    CUDA_CHECK((cudaError_t)umb_kernel_touch(p, bytes, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
}

void umb_gpu_fill(void *p, size_t bytes, uint32_t seed)
{
    CUDA_CHECK((cudaError_t)umb_kernel_fill(p, bytes, seed, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
}

void umb_gpu_copy(void *dst, const void *src, size_t bytes)
{
    if (!bytes) return;
    CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
}
