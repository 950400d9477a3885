/* gpu.h with the CUDA runtime (linked statically: no link dependency on libcuda). */
#include "gpu.h"

#include "error.h"
#include "gpu_check.h"
#include "gpu_prefetch.h"
#include "kernels.h"

#include <ctype.h>
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_DEVICES 64

static int device_in_use = -1;
static cudaStream_t stream;                 /* the device in use's */
static cudaStream_t streams[MAX_DEVICES];   /* one per device, made on first use */

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
    if (device < 0 || device >= MAX_DEVICES)
        umb_fatal("umb_gpu_use", __FILE__, __LINE__, "GPU number out of range (0..63)");
    UMB_CUDA_CHECK(cudaSetDevice(device));
    if (!streams[device]) UMB_CUDA_CHECK(cudaStreamCreateWithFlags(&streams[device], cudaStreamNonBlocking));
    stream = streams[device];
    device_in_use = device;
}

int umb_gpu_current(void) { return device_in_use; }

void umb_gpu_describe(int device, umb_gpu_desc *d)
{
    struct cudaDeviceProp p;
    memset(d, 0, sizeof *d);
    UMB_CUDA_CHECK(cudaGetDeviceProperties(&p, device));
    snprintf(d->name, sizeof d->name, "%s", p.name);
    UMB_CUDA_CHECK(cudaDeviceGetPCIBusId(d->pci_bus, (int)sizeof d->pci_bus, device));
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
    UMB_CUDA_CHECK(cudaMemGetInfo(&free_b, &total));
    return free_b;
}

void *umb_gpu_alloc(umb_kind kind, size_t bytes, char *why, size_t n)
{
    void *p = NULL;
    cudaError_t rc;
    const char *call;
    switch (kind) {
    case UMB_P: rc = cudaMallocHost(&p, bytes); call = "cudaMallocHost"; break;
    case UMB_WC:
        /* Mapped and portable: kernels on any GPU reach it at its host address. */
        rc = cudaHostAlloc(&p, bytes, cudaHostAllocWriteCombined | cudaHostAllocPortable | cudaHostAllocMapped);
        call = "cudaHostAlloc";
        break;
    case UMB_D: rc = cudaMalloc(&p, bytes); call = "cudaMalloc"; break;
    case UMB_MH: case UMB_MD: case UMB_M:
        rc = cudaMallocManaged(&p, bytes, cudaMemAttachGlobal);
        call = "cudaMallocManaged";
        break;
    default:
        snprintf(why, n, "%s memory is not allocated by the CUDA runtime", umb_kind_long(kind));
        return NULL;
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
    if (kind == UMB_P || kind == UMB_WC) UMB_CUDA_CHECK(cudaFreeHost(p));
    else UMB_CUDA_CHECK(cudaFree(p));
}

int umb_gpu_register(void *p, size_t bytes, char *why, size_t n)
{
    void *dp = NULL;
    cudaError_t rc = cudaHostRegister(p, bytes, cudaHostRegisterMapped | cudaHostRegisterPortable);
    if (rc != cudaSuccess) {
        cudaGetLastError();
        snprintf(why, n, "cudaHostRegister of %zu bytes failed: %s", bytes, cudaGetErrorString(rc));
        return -1;
    }
    rc = cudaHostGetDevicePointer(&dp, p, 0);
    if (rc != cudaSuccess || dp != p) {
        cudaGetLastError();
        /* Kernels (sm copies, the check) use the host address: it must be the device's too. */
        if (rc != cudaSuccess) snprintf(why, n, "cudaHostGetDevicePointer failed: %s", cudaGetErrorString(rc));
        else snprintf(why, n, "registered memory has another address on GPU %d (no canUseHostPointerForRegisteredMem)",
                      device_in_use);
        UMB_CUDA_CHECK(cudaHostUnregister(p));
        return -1;
    }
    return 0;
}

void umb_gpu_unregister(void *p) { UMB_CUDA_CHECK(cudaHostUnregister(p)); }

/* A GPU (device >= 0) or the host (-1). */
static struct cudaMemLocation location_of(int device)
{
    struct cudaMemLocation loc;
    memset(&loc, 0, sizeof loc);
    loc.type = device >= 0 ? cudaMemLocationTypeDevice : cudaMemLocationTypeHost;
    loc.id = device >= 0 ? device : 0;
    return loc;
}

static struct cudaMemLocation location(int on_gpu) { return location_of(on_gpu ? device_in_use : -1); }

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
    if (a & UMB_ADV_PREFERRED_CPU) UMB_CUDA_CHECK(advise_at(p, bytes, cudaMemAdviseSetPreferredLocation, 0));
    if (a & UMB_ADV_PREFERRED_GPU) UMB_CUDA_CHECK(advise_at(p, bytes, cudaMemAdviseSetPreferredLocation, 1));
    if (a & UMB_ADV_ACCESSED_BY_GPU) UMB_CUDA_CHECK(advise_at(p, bytes, cudaMemAdviseSetAccessedBy, 1));
    if (a & UMB_ADV_ACCESSED_BY_CPU) UMB_CUDA_CHECK(advise_at(p, bytes, cudaMemAdviseSetAccessedBy, 0));
    if (a & UMB_ADV_READ_MOSTLY) UMB_CUDA_CHECK(advise_at(p, bytes, cudaMemAdviseSetReadMostly, 1));
}

void umb_gpu_unadvise(void *p, size_t bytes)
{
    UMB_CUDA_CHECK(advise_at(p, bytes, cudaMemAdviseUnsetPreferredLocation, 1));
    UMB_CUDA_CHECK(advise_at(p, bytes, cudaMemAdviseUnsetAccessedBy, 1));
    UMB_CUDA_CHECK(advise_at(p, bytes, cudaMemAdviseUnsetAccessedBy, 0));
    UMB_CUDA_CHECK(advise_at(p, bytes, cudaMemAdviseUnsetReadMostly, 1));
}

/* CUDA 13 renamed the cudaMemLocation form (12.2+: *_v2) to the plain name. */
void umb_gpu_prefetch_to(void *p, size_t bytes, int device, void *s)
{
#if CUDART_VERSION >= 13000
    UMB_CUDA_CHECK(cudaMemPrefetchAsync(p, bytes, location_of(device), 0, (cudaStream_t)s));
#else
    UMB_CUDA_CHECK(cudaMemPrefetchAsync_v2(p, bytes, location_of(device), 0, (cudaStream_t)s));
#endif
}

void umb_gpu_prefetch(void *p, size_t bytes, int to_gpu)
{
    if (!bytes) return;
    umb_gpu_prefetch_to(p, bytes, to_gpu ? device_in_use : -1, stream);
    UMB_CUDA_CHECK(cudaStreamSynchronize(stream));
}

void umb_gpu_touch(void *p, size_t bytes)
{
    UMB_CUDA_CHECK(umb_kernel_touch(p, bytes, stream));
    UMB_CUDA_CHECK(cudaStreamSynchronize(stream));
}

void umb_gpu_fill(void *p, size_t bytes, uint32_t seed)
{
    UMB_CUDA_CHECK(umb_kernel_fill(p, bytes, seed, stream));
    UMB_CUDA_CHECK(cudaStreamSynchronize(stream));
}

long umb_gpu_check(const void *p, size_t bytes, uint32_t seed)
{
    unsigned long long first = ~0ull, *bad = NULL;
    if (!bytes) return -1;
    UMB_CUDA_CHECK(cudaMalloc((void **)&bad, sizeof *bad));
    UMB_CUDA_CHECK(cudaMemcpyAsync(bad, &first, sizeof first, cudaMemcpyHostToDevice, stream));
    UMB_CUDA_CHECK(umb_kernel_check(p, bytes, seed, bad, stream));
    UMB_CUDA_CHECK(cudaMemcpyAsync(&first, bad, sizeof first, cudaMemcpyDeviceToHost, stream));
    UMB_CUDA_CHECK(cudaStreamSynchronize(stream));
    UMB_CUDA_CHECK(cudaFree(bad));
    return first == ~0ull ? -1 : (long)first;
}

void umb_gpu_copy(void *dst, const void *src, size_t bytes)
{
    if (!bytes) return;
    UMB_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, stream));
    UMB_CUDA_CHECK(cudaStreamSynchronize(stream));
}

int umb_gpu_can_peer(int a, int b)
{
    int can = 0;
    UMB_CUDA_CHECK(cudaDeviceCanAccessPeer(&can, a, b));
    return can;
}

int umb_gpu_peer_access(int a, int b, int on)
{
    int g[2] = {a, b}, changed = 0;
    for (int i = 1; i >= 0; i--) {  /* a last: it stays in use */
        umb_gpu_use(g[i]);
        cudaError_t rc = on ? cudaDeviceEnablePeerAccess(g[1 - i], 0) : cudaDeviceDisablePeerAccess(g[1 - i]);
        if (rc == cudaErrorPeerAccessAlreadyEnabled || rc == cudaErrorPeerAccessNotEnabled) {
            cudaGetLastError();
            continue;
        }
        UMB_CUDA_CHECK(rc);
        changed = 1;
    }
    return changed;
}
