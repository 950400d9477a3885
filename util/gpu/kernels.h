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
/* SM copy: every SM of the current GPU copies, 16 bytes per load where aligned. */
int umb_kernel_copy(void *dst, const void *src, size_t bytes, void *stream);
/* Holds a stream: one thread spins until *flag (pinned host memory) is
   non-zero, or timeout_ms passes; then *timed_out is set to 1 (so a host
   that blocks while queueing never hangs the run). */
int umb_kernel_spin(volatile int *flag, volatile int *timed_out, unsigned timeout_ms, void *stream);
/* Compares every byte with umb_pattern_byte(seed, i) on the GPU (it can
   read pinned, write-combined and registered host memory, device and
   managed memory); atomicMin's the first wrong offset into *first_bad (device
   memory, set to ~0 by the caller). */
int umb_kernel_check(const void *p, size_t bytes, uint32_t seed, unsigned long long *first_bad, void *stream);

#ifdef __cplusplus
}
#endif
#endif
