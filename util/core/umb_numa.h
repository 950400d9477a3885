/* NUMA: the few operations umbench needs, as gpu.h is for CUDA.
   numa_linux.c implements them with libnuma; a build without libnuma
   (configure --without-numa, or none found) links numa_none.c, which says
   so. No other file includes <numa.h> or tests HAVE_NUMA. No MPI, no CUDA.
   (Not "numa.h": util/core is on the include path, and that name would
   hide libnuma's own header.) */
#ifndef UMB_UMB_NUMA_H
#define UMB_UMB_NUMA_H

#include <stddef.h>

/* 1 when this build has libnuma. */
int umb_numa_built(void);
/* The highest node number; -1 when NUMA is not available (or no libnuma). */
int umb_numa_max_node(void);
/* The node of CPU `cpu`; -1 when unknown. */
int umb_numa_node_of_cpu(int cpu);
/* 0 when `node` exists and has memory; else 1 with the reason in why,
   one line, no option name ("no such NUMA node with memory; ..."). */
int umb_numa_node_check(int node, char *why, size_t n);
/* Page-aligned memory on `node` (mmap: the pages land there on first
   touch); NULL when refused, and always without libnuma. */
void *umb_numa_alloc(size_t bytes, int node);
void umb_numa_free(void *p, size_t bytes);
/* Runs this process on the node's CPUs: 0, or -1 with errno. */
int umb_numa_run_on(int node);
/* Later allocations (every allocator's) prefer the node's memory. */
void umb_numa_prefer(int node);

#endif
