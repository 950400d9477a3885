/* The one cudaMemPrefetchAsync call (gpu_cuda.c), for C and CUDA C++: the
   cudaMemLocation form, which CUDA 12.2 named cudaMemPrefetchAsync_v2 and
   CUDA 13 renamed to the plain name. CUDA builds only. */
#ifndef UMB_GPU_PREFETCH_H
#define UMB_GPU_PREFETCH_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Queues a prefetch of the managed range [p, p + bytes) to GPU `device`,
   or to the host for device -1, on `stream` (a cudaStream_t). Does not
   wait; a failure ends the run (UMB_CUDA_CHECK). */
void umb_gpu_prefetch_to(void *p, size_t bytes, int device, void *stream);

#ifdef __cplusplus
}
#endif
#endif
