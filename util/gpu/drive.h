/* What the single-node drivers in c/ share (no MPI): the common command
   line (sizes, --device, --numa-node, --format, --units, --repeat, --flush,
   --cputiming, -h, -v), start-up checks, host memory on a NUMA node, the
   PCIe limit, and the header with GPU, link, NUMA and versions. */
#ifndef UMB_DRIVE_H
#define UMB_DRIVE_H

#include "counters.h"
#include "memkind.h"
#include "parse.h"
#include "output.h"

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

#define UMB_DRIVE_MAX_SIZES 4096
#define UMB_DRIVE_MAX_GPUS 64

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
} umb_drive;

/* Parses argv: 0; 1 with one line in err naming the bad value and the
   accepted ones; 2 for an unknown option. Prints nothing. */
int umb_drive_parse(umb_drive *d, const umb_drive_cli *cli, int argc, char **argv, char *err, size_t n);
/* A comma-separated list of sizes, or "quick" (cli->quick). */
int umb_drive_size_list(umb_drive *d, const char *list, const char *quick, char *err, size_t n);
/* START to END by adding STEP (step > 0) or multiplying by FACTOR (> 1). */
int umb_drive_size_range(umb_drive *d, size_t start, size_t end, size_t step, double factor,
                         char *err, size_t n);
void umb_drive_usage(const umb_drive_cli *cli, FILE *f);

/* Parses; answers -h and -v (exit 0); bad input (own_check's too): one
   line, exit 1; checks --numa-node (exit 1) and binds to it; no GPU: one line, exit 77; checks
   --device and fills d->devices. Returns only when the run may start. */
void umb_drive_start(umb_drive *d, const umb_drive_cli *cli, int argc, char **argv);

/* The options umb_um and umb_oversub share, and their long forms (put
   UMB_KERNEL_OPTIONS in the option table, ":hvU" in the short ones). */
enum { UMB_KOPT_DEVICE = 900, UMB_KOPT_GRID, UMB_KOPT_BLOCK, UMB_KOPT_FORMAT, UMB_KOPT_ALLOW };
#define UMB_KERNEL_OPTIONS                                                                                      \
    {"device", required_argument, 0, UMB_KOPT_DEVICE}, {"grid", required_argument, 0, UMB_KOPT_GRID},          \
        {"block", required_argument, 0, UMB_KOPT_BLOCK}, {"format", required_argument, 0, UMB_KOPT_FORMAT},    \
        {"allow-oversubscription", no_argument, 0, UMB_KOPT_ALLOW}, {"counters", no_argument, 0, 'U'},        \
        {"help", no_argument, 0, 'h'}, {"version", no_argument, 0, 'v'}
typedef struct {
    int device;               /* default 0 */
    unsigned grid, block;     /* 0: full occupancy, 256 threads */
    umb_format format;
    int allow_oversub, counters, help, version;
    char counters_note[256];  /* why CUPTI's counters are off */
} umb_kernel_opts;
/* One getopt result ch with its argument; `given` is the option as
   written (argv[optind - 1]). Returns 0, 1 with the line in err, or 2
   for an option it does not know. */
int umb_kernel_opt(umb_kernel_opts *k, int ch, const char *arg, const char *given, char *err, size_t n);

/* The start of a driver with its own parser (umb_um, umb_oversub): the
   parse result (1: the line in err, exit 1; 2: with the usage), -h and -v
   (exit 0), no GPU (exit 77), a --device beyond the GPUs (exit 1); then
   --counters starts and the GPU is chosen. Returns the number of GPUs. */
int umb_drive_own_start(const char *program, int rc, const char *err, void (*usage)(FILE *), umb_kernel_opts *k);

/* Their header's first lines: program, date, host and CPUs, CUDA, the GPU. */
void umb_drive_own_header(umb_header *h, const char *program, const char *summary, int device);

/* 0 when NODE exists and has memory; else 1 with one line in err. */
int umb_numa_check(int node, char *err, size_t n);
/* Page-aligned pageable memory, on `node` when >= 0; NULL when refused. */
void *umb_host_alloc(size_t bytes, int node);
void umb_host_free(void *p, size_t bytes, int node);
/* Writes a buffer larger than the last-level cache (evicts it); returns its size. */
size_t umb_cache_flush(void);

/* One-direction PCIe limit in GB/s (10^9) from umb_pcie_link's text,
   using the maximum generation and width ("Gen5 x16" -> 63.0); writes
   "PCIe Gen5 x16: 32 GT/s x 16 lanes x 128/130 / 8" to desc. 0 when unknown. */
double umb_pcie_limit_gbs(const char *link, char *desc, size_t n);

/* The header: program, date, host and CPU binding, NUMA binding, CUDA
   versions, each GPU in use (name, bus, PCIe link and limit, NUMA node),
   sizes, repetitions, flush, units. The driver adds its own lines. */
void umb_drive_header(umb_header *h, const umb_drive *d, const umb_drive_cli *cli);
/* --counters: columns per timed repetition from a row's counts (bytes
   each way, GPU and CPU faults, thrashing, remote maps; what placement
   moved); NaN while CUPTI is off. Returns how many (8). */
int umb_drive_counter_cols(const umb_counts *moved, const umb_counts *placed, long reps, umb_col *cols);
/* --counters: refuses a build without CUPTI (exit 1); starts CUPTI when
   there is a GPU, else a one-line note. Call before any CUDA context. */
void umb_drive_counters_start(const char *program, char *note, size_t n);
/* "GB/s" or "GiB/s", and bytes per unit. */
const char *umb_drive_unit(const umb_drive *d);
double umb_drive_unit_bytes(const umb_drive *d);

#endif
