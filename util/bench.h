/* The harness every MPI benchmark shares: start-up checks, GPU choice,
   header, result rows, agreement on errors, and the end. A benchmark file
   keeps only its own communication loop. */
#ifndef UMB_BENCH_H
#define UMB_BENCH_H

#include "buffer.h"
#include "mpi_info.h"
#include "options.h"
#include "output.h"
#include "stats.h"

#include <stdint.h>

typedef struct {
    const umb_cli *cli;
    umb_options opt;
    int rank, nranks;
    char host[256];
    umb_kind kind;           /* this rank's buffer kind */
    int gpu;                 /* GPU in use, -1 when none */
    char gpu_from[64];       /* how it was chosen */
    umb_cuda_aware aware;
    const char *aware_how;
    char buffers[64];        /* "MD MH": the kinds as given */
    umb_output out;
    int exit_code;
} umb_bench;

/* Parses argv, picks the GPU, starts MPI and checks everything a run needs:
   usage, rank count (ranks > 0: exactly that many; < 0: a positive multiple
   of -ranks), a GPU for GPU buffers (exit 77), a CUDA-aware MPI for D
   (exit 77). Answers -h and -v. Returns only when the benchmark may run. */
void umb_bench_init(umb_bench *b, const umb_cli *cli, int ranks, int argc, char **argv);

/* Collective: when any rank passes a non-zero code, the lowest such rank
   prints its message (one line) and every rank exits with the highest code. */
void umb_agree(int code, const char *message);

/* Collective: allocates this rank's buffer of its kind, or ends the job
   cleanly with the reason. */
void umb_bench_alloc(umb_bench *b, umb_buffer *buf, size_t bytes);

/* Collective: the header's common part (library, ranks, GPUs, buffers,
   placement...); rank 0 adds the program's own lines, then prints it. */
void umb_bench_header(umb_bench *b, umb_header *h);
void umb_bench_header_print(umb_bench *b, umb_header *h);

/* Rank 0: the table's column line, then one row per size: avg of the
   metric, then `extra` columns (e.g. Messages/s), then min, max, p50, p99
   and the iteration count. */
void umb_bench_columns(umb_bench *b, const umb_metric *m, const umb_col *extra, int nextra);
void umb_bench_row(umb_bench *b, size_t size, const umb_stats *s, const umb_metric *m,
                   const umb_col *extra, int nextra, int valid);

/* Checks a received message against the pattern of (iteration, size,
   sender); reports the first wrong byte on stderr. Returns 1 when all match. */
int umb_bench_check(umb_bench *b, umb_buffer *buf, size_t size, long iteration, int sender);

/* Collective: did every rank's check pass? Failures set exit status 2. */
int umb_bench_all_valid(umb_bench *b, int my_valid);

/* Whether the measured operation needs placement before every iteration. */
int umb_bench_place_each(const umb_bench *b);

/* Collective: MPI_Finalize; returns the exit status. */
int umb_bench_finish(umb_bench *b);

#endif
