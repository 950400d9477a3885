/* The harness of the single-node drivers in c/ (no MPI), as util/mpi/bench.h
   is the MPI programs': the common command line (sizes, --device,
   --numa-node, --format, --units, --repeat, --flush, --cputiming, --op,
   --grid, --block, --allow-oversubscription, -U, -h, -v; each driver takes the
   groups it measures with), start-up checks, host memory on a NUMA node,
   the header (GPUs, link, NUMA, versions) and the end. */
#ifndef UMB_DRIVE_H
#define UMB_DRIVE_H

#include "drive_model.h"
#include "drive_header.h"
#include "drive_sizes.h"

/* Parses argv: 0; 1 with one line in err naming the bad value and the
   accepted ones; 2 for an unknown option. Prints nothing. */
int umb_drive_parse(umb_drive *d, const umb_drive_cli *cli, int argc, char **argv, char *err, size_t n);
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

/* "GB/s" or "GiB/s", and bytes per unit. */
const char *umb_drive_unit(const umb_drive *d);
double umb_drive_unit_bytes(const umb_drive *d);

#endif
