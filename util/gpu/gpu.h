/* The one seam between CUDA and everything else. gpu_cuda.c implements it
   with the CUDA runtime; gpu_none.c stands in for a host-only build.
   Every call is synchronous and checks its CUDA calls (a failure ends the job). */
#ifndef UMB_GPU_H
#define UMB_GPU_H

#include "memkind.h"

#include <stddef.h>
#include <stdint.h>

typedef struct {
    char name[256];
    char pci_bus[32];          /* lower case, as in /sys/bus/pci/devices */
    int cc_major, cc_minor;
    size_t total_memory;
    int concurrent_managed;    /* GPU and CPU may touch managed memory at once */
    int pageable_access;       /* HMM: the GPU may read malloc memory */
} umb_gpu_desc;

int umb_gpu_built(void);
/* Number of usable GPUs; 0 with the reason in why. */
int umb_gpu_count(char *why, size_t n);
/* Makes `device` current, with its own stream for the calls below (one
   per device, kept: switching back and forth creates none). */
void umb_gpu_use(int device);
int umb_gpu_current(void);
void umb_gpu_describe(int device, umb_gpu_desc *d);
/* "driver 13.0, runtime 13.0" */
void umb_gpu_versions(char *buf, size_t n);
size_t umb_gpu_free_memory(void);

/* P, WC (write-combined pinned, mapped and portable), D, MH and MD
   (managed) memory, on the GPU in use; NULL with why when it cannot be had. */
void *umb_gpu_alloc(umb_kind kind, size_t bytes, char *why, size_t n);
void umb_gpu_free(umb_kind kind, void *p);
/* REG: page-locks host memory for every GPU (cudaHostRegister, mapped and
   portable); kernels must reach it at its host address. 0, or -1 with why. */
int umb_gpu_register(void *p, size_t bytes, char *why, size_t n);
void umb_gpu_unregister(void *p);
void umb_gpu_advise(void *p, size_t bytes, unsigned advise);
/* Clears every hint: preferred location, accessed-by (GPU and CPU), read-mostly. */
void umb_gpu_unadvise(void *p, size_t bytes);
/* Moves managed pages with cudaMemPrefetchAsync (to the GPU in use or to the host). */
void umb_gpu_prefetch(void *p, size_t bytes, int to_gpu);
/* A kernel rewrites one byte of every page in place: the pages migrate to the GPU, data kept. */
void umb_gpu_touch(void *p, size_t bytes);
/* A kernel writes umb_pattern_byte(seed, i) to every byte. */
void umb_gpu_fill(void *p, size_t bytes, uint32_t seed);
/* A kernel compares every byte with umb_pattern_byte(seed, i) (memory the
   GPU reads at its host address: WC, REG): the first wrong offset, or -1. */
long umb_gpu_check(const void *p, size_t bytes, uint32_t seed);
/* cudaDeviceCanAccessPeer: 1 when GPU a may map GPU b's memory. */
int umb_gpu_can_peer(int a, int b);
/* Peer access between GPUs a and b on or off, both ways (needs
   umb_gpu_can_peer to turn it on); 1 when either way changed, 0 when both
   already were so. Leaves GPU a in use. */
int umb_gpu_peer_access(int a, int b, int on);
/* cudaMemcpy either way between host and GPU memory (checking D and MD,
   writing data into them); the runtime tells the direction from the pointers. */
void umb_gpu_copy(void *dst, const void *src, size_t bytes);

#endif
