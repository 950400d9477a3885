/* umb_numa.h for a build without libnuma (configure --without-numa, or none
   found): no node is known, none can be chosen. */
#include "umb_numa.h"

#include "parse.h"

#include <errno.h>

int umb_numa_built(void) { return 0; }
int umb_numa_max_node(void) { return -1; }
int umb_numa_node_of_cpu(int cpu) { (void)cpu; return -1; }

int umb_numa_node_check(int node, char *why, size_t n)
{
    (void)node;
    return umb_errf(why, n, "this build has no libnuma (configure --with-numa; Debian: libnuma-dev)");
}

void *umb_numa_alloc(size_t bytes, int node)
{
    (void)bytes;
    (void)node;
    errno = ENOSYS;
    return NULL;
}

void umb_numa_free(void *p, size_t bytes) { (void)p; (void)bytes; }

int umb_numa_run_on(int node)
{
    (void)node;
    errno = ENOSYS;
    return -1;
}

void umb_numa_prefer(int node) { (void)node; }
