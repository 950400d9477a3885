/* The link between two GPUs of this node (util/core/link.h describes it),
   read through NVML, which is loaded with dlopen("libnvidia-ml.so.1"), so
   that a machine without the driver still starts; without NVML the CUDA
   runtime says at least whether peer access is possible. topo.c reads
   them; topo_none.c stands in for a host-only build. */
#ifndef UMB_TOPO_H
#define UMB_TOPO_H

#include "link.h"

#include <stddef.h>

/* 1 when NVML is loaded and initialised; else 0 with the reason in why. */
int umb_topo_nvml(char *why, size_t n);
/* The link between the GPUs at PCI addresses a and b (as umb_gpu_desc's
   pci_bus; NVML finds them whatever CUDA_VISIBLE_DEVICES says). Never
   fails: kind UMB_LINK_UNKNOWN with the reason in link->why. The bound is
   nominal: NVLink links x umb_nvlink_gbs_per_link, PCIe the narrower of
   the two GPUs' umb_pcie_gbs; none for the same GPU. */
void umb_topo_link(const char *bus_a, const char *bus_b, umb_gpu_link *link);

#endif
