/* umb_copy's run state and its timed batches (docs/method.md, "The timed
   batch"): per-GPU streams and events, the buffers a combination copies
   (util buffers), placement of managed memory, the held stream, the
   repetitions of one size and their validation. */
#ifndef UMB_COPY_MEASURE_H
#define UMB_COPY_MEASURE_H

#include "buffer.h"
#include "copy_combos.h"
#include "counters.h"
#include "drive.h"
#include "output.h"
#include "stats.h"

#include <cuda_runtime_api.h>
#include <stddef.h>

#define COPY_MAX_COMBOS 512

typedef struct {
    int ready;
    cudaStream_t s[2];
    cudaEvent_t start[2], stop[2], go;
    double limit;  /* PCIe GB/s per direction, 0 unknown */
} copy_gpu;

/* Everything a run keeps, passed around (no file-level state). */
typedef struct {
    umb_drive drv;
    copy_opts opt;
    copy_combo combos[COPY_MAX_COMBOS];
    int ncombos;
    copy_gpu gpu[UMB_DRIVE_MAX_GPUS];
    volatile int *flag, *timed_out;  /* pinned, portable: the stream hold */
    umb_output out;
    int header_done, above_limit;
} copy_run;

/* The buffers of one combination on u->gpu (and u->peer), at the largest
   size; dst[i] is src[i] where the combination moves memory in place. */
typedef struct {
    umb_buffer own_src[2], own_dst[2];
    umb_buffer *src[2], *dst[2];  /* [1]: the second direction of bidir */
    int ndirs;
    int gpu, peer;                /* the GPU that runs the copies; peer: the other */
} copy_setup;

typedef struct {
    umb_stats rate[3];  /* per direction and total, in the unit */
    double cpu;         /* median host-clock rate of the whole batch */
    long copies;
    int valid;
    umb_counts moved, placed;  /* --counters: timed repetitions, placement */
    int movable;               /* managed: placed before every repetition */
    long reps, held, checked;  /* the placement check, over timed repetitions */
} copy_result;

/* Makes GPU g current (umb_gpu_use) and its streams and events ready. */
copy_gpu *copy_use_gpu(copy_run *r, int g);
/* The pinned flag that holds streams: allocated on the first GPU, freed. */
void copy_hold_open(copy_run *r);
void copy_hold_close(copy_run *r);

/* GPU memory a combination takes at `bytes` against what is free on each
   GPU: one line and exit 1 when it does not fit. */
void copy_check_memory(const copy_combo *c, int gpu, int peer, size_t bytes);
void copy_setup_alloc(const copy_run *r, const copy_combo *c, copy_setup *u, size_t bytes);
void copy_setup_free(copy_setup *u);

/* One size of combination ci: fill, a warm-up batch, --repeat timed
   ones (managed memory placed and checked before each), validation. */
void copy_measure(copy_run *r, int ci, const copy_combo *c, copy_setup *u, size_t size, copy_result *res);

#endif
