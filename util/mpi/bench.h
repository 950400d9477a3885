/* The harness every MPI benchmark shares: start-up checks, GPU choice,
   header, result rows, agreement on errors, and the end. A benchmark file
   keeps only its own communication loop. */
#ifndef UMB_BENCH_H
#define UMB_BENCH_H

#include "agree.h"
#include "bench_state.h"
#include "buffer.h"
#include "laps.h"
#include "mpi_check.h"
#include "stats.h"

#include <mpi.h>
#include <stdint.h>

/* Parses argv, picks the GPU, starts MPI and checks everything a run needs:
   usage, rank count (ranks > 0: exactly that many; < 0: a positive multiple
   of -ranks, 0: any), a GPU for GPU buffers (exit 77), a CUDA-aware MPI for D
   (exit 77). Answers -h and -v. Returns only when the benchmark may run. */
void umb_bench_init(umb_bench *b, const umb_cli *cli, int ranks, int argc, char **argv);

/* Collective: the header's common part (library, ranks, GPUs, buffers,
   placement...); rank 0 adds the program's own lines, then prints it. */
void umb_bench_header(umb_bench *b, umb_header *h);

/* Checks a received message, bytes [offset, offset + size) of buf, against
   the pattern of (iteration, size, key), the key naming its sender;
   reports the first wrong byte on stderr. Returns 1 when all match. */
int umb_bench_check(umb_bench *b, umb_buffer *buf, size_t offset, size_t size, long iteration, int key);

/* Collective: did every rank's check pass? Failures set exit status 2. */
int umb_bench_all_valid(umb_bench *b, int my_valid);

/* Whether the measured operation needs placement before every iteration. */
static inline int umb_bench_place_each(const umb_bench *b) { return umb_options_place_each(&b->opt); }
/* Whether the handshake loop runs: as --loop says, or where iterations need
   it (placement before each, or -c); otherwise OMB's back-to-back loop
   (docs/method.md). */
static inline int umb_bench_handshake(const umb_bench *b) { return umb_options_handshake(&b->opt); }


/* What a benchmark defines; umb_bench_sweep runs the message sizes. */
typedef struct {
    const umb_metric *metric;
    const char *phase;  /* named in --timeout messages */
    /* Each runs skip + iters iterations of one size and writes the timed
       ones' seconds to times[]. The handshake loop (umb_bench_handshake)
       returns 1 when every -c check on this rank passed; the classic loop
       is OMB's, back to back. */
    int (*handshake)(umb_bench *b, void *ctx, size_t size, long iters, long skip, double *times);
    void (*classic)(umb_bench *b, void *ctx, size_t size, long iters, long skip, double *times);
    /* --place once: places every buffer, once per size, before warm-up. */
    void (*place)(umb_bench *b, void *ctx, size_t size);
    /* Collective: turns the timed iterations into rank 0's row (s, extra). */
    void (*summarize)(umb_bench *b, void *ctx, size_t size, double *times, long iters, umb_stats *s,
                      umb_col *extra);
    /* Rank 0's row: avg of the metric, the extra columns (e.g. OMB's
       Messages/s) unless extra_last, min, max, p50, p99 and the iteration
       count, the extra columns where extra_last (a column OMB has not:
       OMB's columns keep their places), then the observers' (--counters). */
    int nextra, extra_last;
    umb_col extra[2];  /* titles and keys of the extra columns */
    /* Bytes this program hands the library per timed iteration, summed
       over ranks (the path's "per byte sent"); NULL: unknown. */
    double (*payload)(umb_bench *b, void *ctx, size_t size);
    /* The header's Loop line for each loop, and its Units line. */
    const char *loop_handshake, *loop_classic, *units;
} umb_sweep;

/* Rank 0 adds the sweep's Loop and Units lines to h; then the header is
   printed and the sweep runs. */
void umb_bench_run(umb_bench *b, umb_header *h, const umb_sweep *sw, void *ctx);

/* Prints the column line, then per size: the observers' begin, place
   (--place once), barrier, the loop, the observers' stop, agree on
   validity, the observers' end, summarize the kept iterations, print the
   row with the observers' columns; at the end, their reports. */
void umb_bench_sweep(umb_bench *b, const umb_sweep *sw, void *ctx);
/* NULL in every installed program. A test build sets it (tests/tools/
   slower.c) to change a size's kept times before they are summarized: a
   variable that changes a figure does not exist where nothing records it. */
extern void (*umb_times_hook)(size_t size, double *times, long n);

/* Collective: MPI_Finalize; returns the exit status. */
int umb_bench_finish(umb_bench *b);

/* Collective (pairs.c): makes pair k of the command line's the one that
   runs: its kinds, its buffers' names and whether it can run here. One pair
   in the launch: a skip ends the job (exit 77) and 0 comes back. Several:
   a skip writes the pair's end record with its reason, and 77 comes back. */
int umb_bench_pair(umb_bench *b, int k);
/* Collective: runs each pair through run(b, ctx), which allocates, writes
   the header and sweeps; each pair then ends with its own end record. Ends
   with MPI_Finalize; returns the exit status: the worst of the pairs that
   ran, or 77 when every pair was skipped. */
int umb_bench_pairs(umb_bench *b, void (*run)(umb_bench *b, void *ctx), void *ctx);

/* Collective, from umb_bench_init (bench_init.c): each observer's
   environment and prepare hooks, in bench.c's order. */
void umb_observers_prepare(umb_bench *b, char **argv);

#endif
