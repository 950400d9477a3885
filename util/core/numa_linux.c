/* umb_numa.h with libnuma. */
#include "umb_numa.h"

#include "parse.h"

#include <numa.h>

int umb_numa_built(void) { return 1; }

int umb_numa_max_node(void) { return numa_available() < 0 ? -1 : numa_max_node(); }

int umb_numa_node_of_cpu(int cpu) { return numa_available() < 0 ? -1 : numa_node_of_cpu(cpu); }

int umb_numa_node_check(int node, char *why, size_t n)
{
    if (numa_available() < 0) return umb_errf(why, n, "NUMA is not available on this machine (numa_available() < 0)");
    int max = numa_max_node();
    long long free_b = 0;
    if (node < 0 || node > max || !numa_bitmask_isbitset(numa_all_nodes_ptr, (unsigned)node) ||
        numa_node_size64(node, &free_b) <= 0)
        return umb_errf(why, n, "no such NUMA node with memory; this machine has nodes 0..%d", max);
    return 0;
}

void *umb_numa_alloc(size_t bytes, int node) { return numa_alloc_onnode(bytes ? bytes : 1, node); }

void umb_numa_free(void *p, size_t bytes)
{
    if (p) numa_free(p, bytes ? bytes : 1);
}

int umb_numa_run_on(int node) { return numa_run_on_node(node) == 0 ? 0 : -1; }

void umb_numa_prefer(int node) { numa_set_preferred(node); }
