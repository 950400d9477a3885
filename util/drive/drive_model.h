/* The single-node drivers' model (util/drive/drive.h): the groups of the
   common command line, what a driver adds to it, and a parsed run. Read by
   every file of the drivers' harness; calls nothing. */
#ifndef UMB_DRIVE_MODEL_H
#define UMB_DRIVE_MODEL_H

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
    int check_only;  /* --check-options: parse, check, exit; no GPU */
    int counters;                   /* -U, --counters: CUPTI started by umb_drive_start */
    char counters_note[256];        /* why CUPTI's counters are off */
    umb_op op;                      /* UMB_DRIVE_KERNEL: --op (default read) */
    unsigned grid, block;           /* UMB_DRIVE_KERNEL: 0, 0: full occupancy, 256 threads */
    int allow_oversub;              /* UMB_DRIVE_KERNEL: --allow-oversubscription */
} umb_drive;

/* The size options as given (NULL: not given), read together once all are seen. */
typedef struct {
    const char *m, *size, *start, *end, *step, *grow;
} umb_drive_size_args;

#endif
