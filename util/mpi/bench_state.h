/* What one rank knows of its run: its options, its GPU, its buffer kind,
   the library's CUDA-awareness, its output. The harness (bench.h), the
   families and the observers (observer.h) all read it; it calls nothing,
   so an observer sees the run without standing on the sweep that calls
   it (docs/architecture.md). */
#ifndef UMB_BENCH_STATE_H
#define UMB_BENCH_STATE_H

#include "findings.h"
#include "memkind.h"
#include "mpi_info.h"
#include "options.h"
#include "output.h"

typedef struct {
    const umb_cli *cli;
    umb_options opt;
    int rank, nranks;
    char host[256];
    umb_kind kind;           /* this rank's buffer kind */
    int gpu;                 /* GPU in use, -1 when none */
    char gpu_from[160];      /* how it was chosen, and CUDA_VISIBLE_DEVICES where it narrows what the rank sees */
    int local_rank;          /* the launcher's local rank (umb_env_local_rank), -1 when it gives none */
    const char *local_from;  /* its variable, NULL when none */
    umb_verdict aware;       /* may D go to this MPI (util/aware.h) */
    umb_aware_facts facts;
    char aware_why[384], ucx_version[32], pml[32];
    char buffers[64];        /* "MD MH": the kinds as given */
    umb_output out;
    int exit_code;
    char counters_note[256];  /* why CUPTI counters are off, with --counters */
    int pagemap_all;          /* 1: every rank can read pagemap; 0: another cannot; -1: this one cannot */
    char pagemap_why[160];
    char path_note[256];      /* why --path sees no copies, with --path */
    umb_rank_facts *ranks;    /* rank 0: what the header learnt of every rank */
    char no_gpu[512];         /* why this rank has no GPU where a buffer of the launch needs one ("": it has one) */
} umb_bench;

#endif
