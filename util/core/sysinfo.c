#define _GNU_SOURCE
#include "sysinfo.h"

#include "umb_numa.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void umb_hostname(char *buf, size_t n)
{
    if (gethostname(buf, n) != 0) snprintf(buf, n, "unknown");
    buf[n - 1] = '\0';
}

static int allowed_cpus(cpu_set_t *set)
{
    CPU_ZERO(set);
    return sched_getaffinity(0, sizeof *set, set) == 0;
}

void umb_cpu_binding(char *buf, size_t n)
{
    cpu_set_t set;
    size_t used = 0;
    buf[0] = '\0';
    if (!allowed_cpus(&set)) {
        snprintf(buf, n, "unknown");
        return;
    }
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (!CPU_ISSET(c, &set)) continue;
        int last = c;
        while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, &set)) last++;
        if (used < n)
            used += (size_t)(last > c ? snprintf(buf + used, n - used, "%s%d-%d", used ? "," : "", c, last)
                                      : snprintf(buf + used, n - used, "%s%d", used ? "," : "", c));
        c = last;
    }
    if (used >= n && n > 4) strcpy(buf + n - 4, "...");
}

int umb_cpu_unbound(void)
{
    cpu_set_t set;
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    if (!allowed_cpus(&set) || online <= 1) return 0;
    return CPU_COUNT(&set) >= online;
}

void umb_cpu_numa(char *buf, size_t n)
{
    cpu_set_t set;
    int max = umb_numa_max_node();
    size_t used = 0;
    snprintf(buf, n, "unknown");
    if (max < 0 || !allowed_cpus(&set)) return;
    for (int node = 0; node <= max && node < 1024; node++) {
        for (int c = 0; c < CPU_SETSIZE; c++) {
            if (CPU_ISSET(c, &set) && umb_numa_node_of_cpu(c) == node) {
                if (used < n) used += (size_t)snprintf(buf + used, n - used, "%s%d", used ? "," : "", node);
                break;
            }
        }
    }
}

static int read_line(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    int ok = fgets(buf, (int)n, f) != NULL;
    fclose(f);
    if (!ok) return -1;
    buf[strcspn(buf, "\n")] = '\0';
    return 0;
}

int umb_uvm_param(const char *name, char *buf, size_t n)
{
    char path[160];
    snprintf(path, sizeof path, "/sys/module/nvidia_uvm/parameters/%s", name);
    return read_line(path, buf, n);
}

/* "32.0 GT/s PCIe" -> 5 */
static int pcie_gen(const char *speed)
{
    double gts = atof(speed);
    static const double gen_gts[] = {2.5, 5, 8, 16, 32, 64};
    for (int g = 0; g < 6; g++)
        if (gts > 0 && gts <= gen_gts[g] + 0.1) return g + 1;
    return 0;
}

void umb_pcie_link(const char *bus, char *buf, size_t n)
{
    char path[256], cur_s[64], cur_w[16], max_s[64], max_w[16];
#define SYS(file, out) (snprintf(path, sizeof path, "/sys/bus/pci/devices/%s/" file, bus), read_line(path, out, sizeof out))
    if (SYS("current_link_speed", cur_s) || SYS("current_link_width", cur_w) ||
        SYS("max_link_speed", max_s) || SYS("max_link_width", max_w)) {
        snprintf(buf, n, "unknown (no link attributes in /sys/bus/pci/devices/%s)", bus);
        return;
    }
#undef SYS
    /* Idle GPUs train their link down: the current speed can read lower. */
    snprintf(buf, n, "Gen%d x%s (max Gen%d x%s)", pcie_gen(cur_s), cur_w, pcie_gen(max_s), max_w);
}

int umb_pci_numa_node(const char *bus)
{
    char path[256], line[32];
    snprintf(path, sizeof path, "/sys/bus/pci/devices/%s/numa_node", bus);
    return read_line(path, line, sizeof line) ? -1 : atoi(line);
}

void umb_nvidia_driver(char *buf, size_t n)
{
    char line[512];
    snprintf(buf, n, "unknown");
    if (read_line("/proc/driver/nvidia/version", line, sizeof line)) return;
    umb_driver_version_from(line, buf, n);
}

/* "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release ..."
   The first word of digits and dots with a dot in it is the version. */
void umb_driver_version_from(const char *line, char *buf, size_t n)
{
    snprintf(buf, n, "unknown");
    for (const char *p = line; *p;) {
        size_t len = strcspn(p, " \t");
        if (len && strspn(p, "0123456789.") == len && memchr(p, '.', len) && p[0] != '.') {
            snprintf(buf, n, "%.*s", (int)len, p);
            return;
        }
        p += len;
        p += strspn(p, " \t");
    }
}
