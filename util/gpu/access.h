/* Access kernels for umb_um and umb_oversub (util/access.cu), callable from
   C, and the few timed GPU steps those programs need. Every call checks its
   CUDA calls (a failure ends the program through umb_fatal). */
#ifndef UMB_ACCESS_H
#define UMB_ACCESS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* grid: thread i reads element i, i + all threads, ...;
   block: each block a contiguous range, its warps read 512 B-aligned runs;
   random: each warp reads 128 B (aligned) of a random 4 KiB page per step. */
typedef enum { UMB_PAT_GRID, UMB_PAT_BLOCK, UMB_PAT_RANDOM, UMB_NPATTERNS } umb_pattern;
typedef enum { UMB_OP_READ, UMB_OP_WRITE } umb_op;

const char *umb_pattern_name(umb_pattern p);    /* "grid", "block", "random" */

typedef struct {
    umb_pattern pattern;
    umb_op op;
    void *p;              /* a device-accessible pointer */
    size_t bytes;         /* a multiple of 16 */
    unsigned grid, block; /* 0: the defaults (full occupancy, 256 threads) */
    unsigned long steps;  /* random: steps per warp */
    unsigned long seed;   /* random: which pages; write: the value written */
} umb_access;

/* Blocks that fill the GPU in use at full occupancy for this kernel. */
unsigned umb_access_default_grid(umb_pattern pat, umb_op op, unsigned block);

/* Bytes one pass really reads or writes: bytes, or for random warps x
   steps x 128 (the grid and block in use). */
double umb_access_bytes(const umb_access *a);

/* One pass, timed with CUDA events on the stream around the kernel only.
   Returns seconds. A read adds up every 32-bit word it reads (mod 2^64):
   umb_access_sum, to compare with what was written (fold.h). */
double umb_access_run(const umb_access *a);
/* The last run's sum, and how many words it read (0 for a write). */
unsigned long long umb_access_sum(void);
unsigned long long umb_access_words(const umb_access *a);

/* The GPU sets every byte of [p, p + bytes) to `value` (cudaMemset). */
void umb_access_fill(void *p, size_t bytes, int value);
/* Adds 1 to the 32-bit word at index `word` (the tests' broken word). */
void umb_access_corrupt_word(void *p, size_t word);

/* cudaMemPrefetchAsync of [p, p + bytes) to the GPU in use (to_gpu) or to
   the host, in chunks of `chunk` bytes alternating between two streams
   (chunk 0: one call). Timed with events; returns seconds. */
double umb_access_prefetch(void *p, size_t bytes, size_t chunk, int to_gpu);


/* Registers host memory (mapped) so kernels can read it; returns the
   device pointer. */
void *umb_access_register(void *p, size_t bytes);
void umb_access_unregister(void *p);

/* The CPU writes `value` to every byte (memset, split over up to 8
   threads so that page faults are served in parallel). */
void umb_host_write(void *p, size_t bytes, int value);

/* Theoretical memory bandwidth of the GPU in use in bytes/s (2 x memory
   clock x bus width), 0 when the device does not report it. */
double umb_access_hbm_peak(void);
/* The GPU's streaming multiprocessors. */
int umb_access_sm_count(void);

#ifdef __cplusplus
}
#endif
#endif
