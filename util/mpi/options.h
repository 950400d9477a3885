/* The MPI programs' command line in OMB style (README, "Options"). */
#ifndef UMB_OPTIONS_H
#define UMB_OPTIONS_H

#include "buffer.h"
#include "counters.h"
#include "memkind.h"
#include "output.h"
#include "parse.h"
#include "placement.h"
#include "precision.h"

#include <getopt.h>
#include <stddef.h>

/* Point-to-point pairs one launch takes (SRC DST SRC DST ...): the full
   set's 16, with room. */
#define UMB_MAX_PAIRS 32
#include <stdio.h>

/* A buffer kind of the MPI programs by either name (H P D MH MD, or
   pageable ... managed-device); M and managed are read as MH, as OMB
   (*was_m set). -1 when it is none of them. */
int umb_buffer_kind_parse(const char *s, umb_kind *k, int *was_m);

typedef enum { UMB_PLACE_EACH, UMB_PLACE_ONCE } umb_place_when;
/* --loop: which loop times the messages (docs/method.md); auto picks. */
typedef enum { UMB_LOOP_AUTO, UMB_LOOP_HANDSHAKE, UMB_LOOP_CLASSIC } umb_loop;

/* What a program accepts and its OMB defaults. */
typedef struct {
    const char *program;   /* umb_latency */
    const char *summary;   /* one line for -h and the header */
    int nbuffers;          /* positional buffer specs (SRC DST) */
    long iters, skip;      /* iterations and warm-up up to large_size */
    long iters_large, skip_large;
    size_t large_size;     /* sizes above this use the *_large counts */
    size_t max_size;       /* default largest message */
    /* What a rank holds, for -M (umb_memory_need); the family's main sets
       these from what it allocates (p2p.c, rma.c, coll.c): buffers of
       max_size per rank (each one per window slot where slots have their
       own, umb_window_buffers); of them, rank_blocks hold a block per rank
       (allgather's receive, alltoall's both); rooted: a rotating root of
       another kind makes every rank hold both kinds; gathers: rank 0
       gathers every rank's iteration times. */
    int buffers_per_rank, rank_blocks, rooted, gathers;
    int window;            /* default -W; 0: the program has no window */
    int collective;        /* takes -d, -k and the per-rank buffer options */
    /* What the library's own code does to the buffers inside the call (a
       reduction adds them; allgather and alltoall copy each rank's own
       block): on the CPU in a library built without CUDA. NULL: nothing. */
    const char *cpu_part;
    size_t min_size;       /* default smallest message, and the size of an element (4: floats); 0 means 1 */
    /* Options of the program or its family alone, declared where they are
       used: own_options (long, at most 16) and the getopt letters of
       own_short go to own_parse, never to the shared parsers; it returns 0,
       or 1 with one line in err. own_usage is their -h text. A new option
       of one family touches one file. */
    const struct option *own_options;
    const char *own_short;  /* getopt letters, e.g. "w:s:" */
    int (*own_parse)(int val, const char *arg, char *err, size_t n);
    const char *own_usage;
} umb_cli;

typedef struct {
    size_t min_size, max_size;
    long iters, skip, iters_large, skip_large;
    int window;            /* -W: messages in flight per iteration */
    int full, validate, help, version;
    int check_only;        /* --check-options: parse, say, exit (umb_bench_init) */
    int counters;          /* -U, --counters (OMB's -P is PAPI): UMB_COUNTERS_* */
    umb_place_check place_check;
    umb_format format;
    umb_place_with place_with;
    umb_place_when place_when;
    umb_loop loop;
    unsigned advise;
    int device;            /* -1: chosen from the launcher's local rank */
    double timeout;        /* seconds without progress; 0: off */
    size_t mem_limit;      /* -M, bytes per process */
    int assume_cuda_aware, allow_oversubscription;
    int path;              /* --path: the CUDA copies of every row (CUPTI) and UCX's protocol choices */
    int measure_bound;     /* --measure-bound: measure the path's bound in the run */
    int iters_given;       /* -i was given */
    int skip_given;        /* -x was given */
    double precision;      /* --precision as a fraction (0.02) */
    int precision_given;   /* 1: --precision P%, -1: --precision off, 0: the default */
    double size_budget;    /* --size-budget: seconds per size with a precision */
    double launch_budget;  /* --launch-budget: seconds the precision loop may take over the launch's sizes (0: none) */
    int nkinds;
    umb_kind kinds[2];     /* point-to-point: SRC DST of the pair that runs (umb_options_select_pair) */
    int npairs;            /* point-to-point: pairs given (SRC DST SRC DST ...), 1 when none */
    umb_kind pairs[UMB_MAX_PAIRS][2];
    unsigned m_given;      /* the pairs (bit k: pair k) with a buffer given as M */
    int pair;              /* point-to-point: the pair that runs (umb_options_select_pair) */
    const char *pair_files;  /* --pair-files PREFIX: each pair's output in its own file (pairs.c); NULL: stdout */
    /* Collectives: --root-buffer, --buffer (or -d), --buffers, -k. */
    umb_kind root_kind, other_kind;
    const char *buffer_list;  /* one kind per rank; its length is checked at start */
    int root, root_rotate;
    unsigned used_kinds;   /* every kind in use, as bits 1 << kind */
} umb_options;

/* Point-to-point: makes pair k (0..npairs-1) the one that runs: kinds and
   used_kinds become its own (docs/decisions.md, "One launch for many pairs"). */
void umb_options_select_pair(umb_options *o, int k);

/* --pair-files: pair k's file, PREFIX then k + 1 and its kinds ("3-MD-MH"). Returns snprintf's length. */
int umb_pair_file_name(const umb_options *o, int k, char *buf, size_t n);
/* --pair-files PREFIX where a file can be made of each pair's name: 0, else
   1 and the line in err (a program without pairs, empty, too long, a folder
   that cannot take files). */
int umb_pair_files_check(const umb_options *o, const umb_cli *cli, char *err, size_t n);

/* The i-th kind of a --buffers list, or -1 past its end. */
int umb_list_kind(const char *list, int i, umb_kind *k);
int umb_list_length(const char *list);
/* Whether any rank's buffer is of a kind that pred accepts (used_kinds). */
int umb_options_uses(const umb_options *o, int (*pred)(umb_kind));
/* Whether managed buffers are placed before every measured operation. */
int umb_options_place_each(const umb_options *o);
/* The precision that ends each size (a fraction; 0: fixed counts): as
   --precision says, else UMB_DEFAULT_MANAGED_PRECISION for managed buffers
   placed before each iteration without -i (docs/method.md), else 0. */
double umb_options_precision(const umb_options *o);
/* --launch-budget with what it cannot share: 0, or 1 and the line in err. */
int umb_options_check_shared(const umb_options *o, char *err, size_t n);
/* Whether the run checks placement: managed buffers and --place-check not off. */
int umb_options_checks_placement(const umb_options *o);
/* Whether the handshake loop runs (--loop, or placement before each, or -c). */
int umb_options_handshake(const umb_options *o);

/* -i and -x: at most this many. A size's iteration records (times, flags,
   placement records, rank 0's gathered samples) are held in memory, and
   their counts go to MPI as int (3 flags per iteration too). */
#define UMB_MAX_ITERS 100000000L

/* The largest message size `cli`'s program can run: its MPI calls take an
   int count of its elements (bytes, or min_size-byte elements). Sizes
   above it are refused at parse time (-m), never cut. */
size_t umb_largest_size(const umb_cli *cli);

/* -M's default: OMB's 512M counted one copy of the buffers alone; this sum also
   counts D and MD's host copies and the iteration records (docs/method.md). */
#define UMB_DEFAULT_MEM_LIMIT ((size_t)2 << 30)
/* -M's top: 1 TiB a process, what a large node holds (docs/method.md, "Memory (`-M`)"). */
#define UMB_MEM_LIMIT_MAX ((size_t)1 << 40)

/* A launch's memory per rank, as -M counts it: the most any rank holds. */
typedef struct {
    size_t buffers;        /* message buffers in whole pages, doubled by D and MD's host copies */
    size_t arrays;         /* slot records, requests, -c's host floats */
    size_t per_iteration;  /* per timed iteration: records, and rank 0's gather of every rank's times */
    long iterations;       /* the most one attempt at a size times (a precision loop grows within -M) */
    size_t records;        /* per_iteration x iterations */
    size_t total;          /* the sum: SIZE_MAX where it passes size_t */
    int nranks;            /* the ranks counted */
} umb_memory;
/* nranks 0: not known (--check-options, the parser): the fewest a launch
   of cli's program has (1 for the collectives, 2 otherwise). */
void umb_memory_need(const umb_options *o, const umb_cli *cli, int nranks, umb_memory *m);
/* 0 when the need is within -M; else 1 and one line in err naming the
   bytes needed, the limit, and what to lower or raise. */
int umb_memory_check(const umb_options *o, const umb_cli *cli, int nranks, char *err, size_t n);
/* The most timed iterations one attempt may take within -M (0: none). */
long umb_memory_iterations(const umb_options *o, const umb_cli *cli, int nranks);
#define UMB_DEFAULT_SIZE_BUDGET 3.0              /* --size-budget, seconds */
#define UMB_DEFAULT_MANAGED_PRECISION 0.05       /* placed managed buffers without -i */
#define UMB_PRECISION_FIRST_ITERS UMB_PRECISION_MEAN_MIN  /* a precision's first attempt without -i: the fewest with an interval */

/* Parses argv. Returns 0; 1 with one line in err (no newline) naming the
   bad value and the accepted ones; or 2 for an unknown option (the caller
   adds the usage). Writes nothing, calls no MPI. */
int umb_options_parse(umb_options *o, const umb_cli *cli, int argc, char **argv,
                      char *err, size_t errlen);

/* Full usage text. */
void umb_usage(const umb_cli *cli, FILE *f);




/* Buffers per direction a rank holds: one per window slot when a buffer is
   managed (so no slot sees pages another already moved) or with -c (so
   every message can be checked), else one shared by all slots, as OMB. */
int umb_window_buffers(const umb_options *o);
/* This rank's buffer kind. Point-to-point: ranks in the first half take
   the first kind, the rest the second (OMB). Collectives: the --buffers
   list, else the root's kind for a fixed root, the others' for the rest. */
umb_kind umb_kind_of_rank(const umb_options *o, int rank, int nranks, int collective);
/* The kinds as given, for the header: "MD MH" (point-to-point), or for
   collectives "all MH", "root MD, others MH", "MD,MH,MH,MD". */
void umb_describe_buffers(const umb_options *o, int collective, char *buf, size_t n);
/* Iterations and warm-up for one size (with a precision: its first attempt). */
void umb_iterations(const umb_options *o, const umb_cli *cli, size_t size,
                    long *iters, long *skip);

#endif
