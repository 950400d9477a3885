/* What the header says about each rank's node: host, CPU binding, NUMA,
   the GPU's PCIe link, and the local rank the launcher gave. No MPI here. */
#ifndef UMB_SYSINFO_H
#define UMB_SYSINFO_H

#include <stddef.h>

void umb_hostname(char *buf, size_t n);
/* The CPUs this process may run on, as ranges: "0-3,8". */
void umb_cpu_binding(char *buf, size_t n);
/* 1 when this process may run on every online CPU (of more than one): not bound. */
int umb_cpu_unbound(void);
/* A parameter of the nvidia_uvm module ("uvm_perf_thrashing_nap"), from
   /sys/module/nvidia_uvm/parameters; 0, or -1 when it cannot be read. */
int umb_uvm_param(const char *name, char *buf, size_t n);
/* NUMA node(s) of those CPUs ("0", "0,1"), or "unknown" without libnuma. */
void umb_cpu_numa(char *buf, size_t n);
/* "Gen5 x16 (max Gen5 x16)" from /sys/bus/pci/devices/BUS/, or "unknown". */
void umb_pcie_link(const char *pci_bus, char *buf, size_t n);
/* NUMA node of a PCI device, -1 when unknown. */
int umb_pci_numa_node(const char *pci_bus);
/* The kernel driver's version ("580.95.05"), or "unknown". */
void umb_nvidia_driver(char *buf, size_t n);
/* The version in a /proc/driver/nvidia/version line. */
void umb_driver_version_from(const char *line, char *buf, size_t n);

#endif
