/* Kernels shared by every program (util/kernels.cu), callable from C.
   They return a cudaError_t as int; the stream is a cudaStream_t. */
#ifndef UMB_KERNELS_H
#define UMB_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Placement: rewrites one byte of every 4 KiB page in place. */
int umb_kernel_touch(void *p, size_t bytes, void *stream);
/* Fills every byte with umb_pattern_byte(seed, i). */
int umb_kernel_fill(void *p, size_t bytes, uint32_t seed, void *stream);

#ifdef __cplusplus
}
#endif
#endif
