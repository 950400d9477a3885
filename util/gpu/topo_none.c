/* topo.h for a host-only build: no NVML, no CUDA, no links to read. */
#include "topo.h"

#include <stdio.h>

int umb_topo_nvml(char *why, size_t n)
{
    snprintf(why, n, "this build has no CUDA (host-only build)");
    return 0;
}

void umb_topo_link(const char *bus_a, const char *bus_b, umb_gpu_link *link)
{
    umb_link_init(link);
    if (umb_pci_addr_same(bus_a, bus_b)) {
        link->kind = UMB_LINK_SAME;
        return;
    }
    snprintf(link->why, sizeof link->why, "not read: host-only build");
}
