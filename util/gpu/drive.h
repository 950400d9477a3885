/* The harness of the single-node drivers in c/ (no MPI), as util/mpi/bench.h
   is the MPI programs': the common command line (sizes, --device,
   --numa-node, --format, --units, --repeat, --flush, --cputiming, --op,
   --grid, --block, --allow-oversubscription, -U, -h, -v; each driver takes the
   groups it measures with), start-up checks, host memory on a NUMA node,
   the header (GPUs, link, NUMA, versions) and the end. */
#ifndef UMB_DRIVE_H
#define UMB_DRIVE_H

#include "access.h"
#include "counters.h"
#include "fold.h"
#include "memkind.h"
#include "umb_numa.h"
#include "parse.h"
#include "output.h"

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

#define UMB_DRIVE_MAX_SIZES 4096
#define UMB_DRIVE_MAX_GPUS 64

/* The groups of the common command line (umb_drive_cli.common). --device N,
   --format, -U/--counters, -h and -v are always there. An own option may
   reuse the name of a common one the driver leaves out (umb_um's --size). */
enum {
    UMB_DRIVE_SIZES = 1 << 0,   /* -m MIN:MAX, --size LIST|quick, --start, --end, --step, --grow */
    UMB_DRIVE_ALL = 1 << 1,     /* --device all (without it: one GPU, made current by umb_drive_start) */
    UMB_DRIVE_HOST = 1 << 2,    /* --numa-node, --flush, --cputiming */
    UMB_DRIVE_UNITS = 1 << 3,   /* --units GB|GiB */
    UMB_DRIVE_REPEAT = 1 << 4,  /* -r, --repeat N */
    UMB_DRIVE_KERNEL = 1 << 5,  /* --op read|write, --grid N, --block N, --allow-oversubscription */
    /* umb_copy's, and what common = 0 means (so its cli needs no change) */
    UMB_DRIVE_COPY = UMB_DRIVE_SIZES | UMB_DRIVE_ALL | UMB_DRIVE_HOST | UMB_DRIVE_UNITS | UMB_DRIVE_REPEAT,
};

/* What a driver adds to the common command line. */
typedef struct {
    const char *program, *summary;
    const char *quick;              /* the `quick` size set, e.g. "4K,64K,1M" */
    int repeat;                     /* default --repeat */
    const struct option *own;       /* its long options (val >= 1000), {0} ends */
    /* Called for each of them; returns 0, or 1 with one line in err. */
    int (*own_parse)(void *ctx, int val, const char *name, const char *arg, char *err, size_t n);
    void *ctx;
    const char *own_usage;          /* its lines for -h */
    /* Optional: checks the options together, before any GPU is looked for;
       returns 0, or 1 with one line in err (exit 1). */
    int (*own_check)(void *ctx, char *err, size_t n);
    unsigned common;                /* the UMB_DRIVE_* groups it takes; 0: UMB_DRIVE_COPY */
    const char *own_short;          /* its short options for getopt ("f"; not h, v, U, r), passed to own_parse */
    long repeat_max;                /* --repeat's upper bound; 0: 100000 */
    const char *exit_usage;         /* the usage's "Exit status:" line; NULL: umb_copy's */
} umb_drive_cli;

typedef struct {
    size_t sizes[UMB_DRIVE_MAX_SIZES];
    int nsizes;
    char sizes_given[160];          /* as given, for the header */
    int all_devices, device;        /* --device all, or N (default 0) */
    int ndevices, devices[UMB_DRIVE_MAX_GPUS];  /* filled by umb_drive_start */
    int numa_node;                  /* -1: not bound */
    umb_format format;
    int gib;                        /* --units GiB */
    long repeat;
    int flush, cputiming, help, version;
    int counters;                   /* -U, --counters: CUPTI started by umb_drive_start */
    char counters_note[256];        /* why CUPTI's counters are off */
    umb_op op;                      /* UMB_DRIVE_KERNEL: --op (default read) */
    unsigned grid, block;           /* UMB_DRIVE_KERNEL: 0, 0: full occupancy, 256 threads */
    int allow_oversub;              /* UMB_DRIVE_KERNEL: --allow-oversubscription */
} umb_drive;

/* Parses argv: 0; 1 with one line in err naming the bad value and the
   accepted ones; 2 for an unknown option. Prints nothing. */
int umb_drive_parse(umb_drive *d, const umb_drive_cli *cli, int argc, char **argv, char *err, size_t n);
/* A comma-separated list of sizes, or "quick" (cli->quick). */
int umb_drive_size_list(umb_drive *d, const char *list, const char *quick, char *err, size_t n);
/* START to END by adding STEP (step > 0) or multiplying by FACTOR (> 1;
   2: the powers of two between), then END, always (umb_size_after). */
int umb_drive_size_range(umb_drive *d, size_t start, size_t end, size_t step, double factor,
                         char *err, size_t n);
/* The size options as given (NULL: not given), read together once all are seen. */
typedef struct {
    const char *m, *size, *start, *end, *step, *grow;
} umb_drive_size_args;
/* The sizes they give (drive_sizes.c): one of -m, --size or a range, else
   the quick set. 0, or 1 with one line in err. */
int umb_drive_sizes(umb_drive *d, const char *quick, const umb_drive_size_args *a, char *err, size_t n);
void umb_drive_usage(const umb_drive_cli *cli, FILE *f);

/* Parses; answers -h and -v (exit 0); bad input (own_check's too): one
   line, exit 1; checks --numa-node (exit 1) and binds to it; no GPU: one line, exit 77; checks
   --device and fills d->devices (a one-GPU driver's is then the current
   GPU). Returns only when the run may start. */
void umb_drive_start(umb_drive *d, const umb_drive_cli *cli, int argc, char **argv);

/* 0 when NODE exists and has memory; else 1 with one line in err
   ("--numa-node N: ..."; umb_numa.h's umb_numa_node_check). */
int umb_numa_check(int node, char *err, size_t n);
/* Page-aligned pageable memory, on `node` when >= 0; NULL when refused. */
void *umb_host_alloc(size_t bytes, int node);
void umb_host_free(void *p, size_t bytes, int node);
/* Writes a buffer larger than the last-level cache (evicts it); returns its size. */
size_t umb_cache_flush(void);

/* The header: program, date, host, CPU binding, NUMA binding (HOST),
   CUDA versions, each GPU in use (`gpus`: name, bus, PCIe link and limit,
   NUMA node, memory, pageable access; HMM in the table of a KERNEL
   driver), sizes (SIZES), repetitions (REPEAT), flush (HOST): a group's
   lines where the driver takes it. The driver adds its own lines. */
void umb_drive_header(umb_header *h, const umb_drive *d, const umb_drive_cli *cli);
/* --counters: columns per timed repetition from a row's counts (bytes
   each way, GPU and CPU faults, thrashing, remote maps; what placement
   moved); NaN while CUPTI is off. Returns how many (8). */
int umb_drive_counter_cols(const umb_counts *moved, const umb_counts *placed, long reps, umb_col *cols);
/* --counters: refuses a build without CUPTI (exit 1); starts CUPTI when
   there is a GPU, else a one-line note. Call before any CUDA context. */
void umb_drive_counters_start(const char *program, char *note, size_t n);
/* The end of a run of access kernels (umb_um, umb_oversub): the read check
   (fold.h) as {"type":"check"} or a '#' line, when anything was read (none
   with --op write), then the counters' footer. Returns the exit status:
   0, or UMB_EXIT_INVALID when a run's sum was not what was written. */
int umb_drive_end(const umb_drive *d, const umb_drive_cli *cli, const umb_fold_check *check);
/* The test hook (umb_fold_corrupt_word): when set, changes that word of
   [p, p + bytes) (a device-accessible pointer); a bad value or a word past
   the end: one line, exit 1. */
void umb_drive_corrupt(void *p, size_t bytes);
/* "GB/s" or "GiB/s", and bytes per unit. */
const char *umb_drive_unit(const umb_drive *d);
double umb_drive_unit_bytes(const umb_drive *d);

#endif
