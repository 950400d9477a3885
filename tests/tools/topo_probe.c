/* The bound of a path on this machine (tests/gpu/topo.sh): every GPU's PCIe
   link and nominal bound, the link between GPU 0 and each GPU (itself too),
   and with --measure the bounds measured as --measure-bound does. With
   --topo FILE (nvidia-smi topo -m output) each link is compared with the
   table: kind, NVLink count and PCIe level must agree.

   With --farthest FILE it prints the two GPUs farthest apart in the table
   (umb_topo_farthest), "farthest A B ENTRY", and looks for no GPU
   (tests/gpu/sections/26-allgpus.sh).

   usage: topo_probe [--measure] [--topo FILE] | --farthest FILE
   Lines: "nvml yes|no WHY", "gpu I BUS PCIE_GBS LINK", "link 0 J KIND
   BOUND_GBS TEXT", "host I HTOD DTOH TEXT", "peer 0 J GBS ACCESS TEXT",
   "compare 0 J ok|skipped WHY|differs WHAT". Exit 0, 1 on bad input or a
   difference from the table, 77 without a GPU. */
#include "bound.h"
#include "gpu.h"
#include "link.h"
#include "sysinfo.h"
#include "topo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "topo_probe: cannot read %s\n", path);
        exit(1);
    }
    static char buf[1 << 20];
    size_t got = fread(buf, 1, sizeof buf - 1, f);
    buf[got] = '\0';
    fclose(f);
    return buf;
}

/* Table indices are NVML's (PCI bus order); CUDA's match them only in
   PCI_BUS_ID order over all GPUs. 1 when they do, else 0 and why. */
static int same_order(const umb_topo_matrix *m, int ngpus, char *why, size_t n)
{
    const char *order = getenv("CUDA_DEVICE_ORDER"), *visible = getenv("CUDA_VISIBLE_DEVICES");
    if (!order || strcmp(order, "PCI_BUS_ID")) snprintf(why, n, "CUDA_DEVICE_ORDER is not PCI_BUS_ID");
    else if (visible) snprintf(why, n, "CUDA_VISIBLE_DEVICES is set");
    else if (m->ngpus != ngpus) snprintf(why, n, "the table has %d GPUs, CUDA %d", m->ngpus, ngpus);
    else return 1;
    return 0;
}

/* 0 when link l agrees with the table's entry, else 1 and what differs. */
static int compare(const umb_gpu_link *l, const umb_topo_entry *e, char *what, size_t n)
{
    umb_gpu_link t;
    char mine[300], table[300];
    umb_topo_entry_link(e, &t);
    umb_link_format(l, mine, sizeof mine);
    umb_link_format(&t, table, sizeof table);
    int same = l->kind == t.kind && (t.kind != UMB_LINK_NVLINK || l->nvlinks == t.nvlinks) &&
               (t.kind != UMB_LINK_PCIE || l->level == t.level);
    if (!same) snprintf(what, n, "NVML: %s; nvidia-smi: %s", mine, table);
    return !same;
}

int main(int argc, char **argv)
{
    int measure = 0, differs = 0;
    const char *topo = NULL, *farthest = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--measure")) measure = 1;
        else if (!strcmp(argv[i], "--topo") && i + 1 < argc) topo = argv[++i];
        else if (!strcmp(argv[i], "--farthest") && i + 1 < argc) farthest = argv[++i];
        else {
            fprintf(stderr, "topo_probe: unknown argument %s (accepted: --measure, --topo FILE, --farthest FILE)\n", argv[i]);
            return 1;
        }
    }
    static umb_topo_matrix m;
    char why[256];
    if (farthest) {
        int a, b;
        umb_gpu_link l;
        if (umb_topo_parse(slurp(farthest), &m, why, sizeof why)) {
            fprintf(stderr, "topo_probe: --farthest %s: %s\n", farthest, why);
            return 1;
        }
        umb_topo_farthest(&m, &a, &b);
        if (a < 0) {
            fprintf(stderr, "topo_probe: --farthest %s: one GPU in the table\n", farthest);
            return 1;
        }
        umb_topo_entry_link(&m.e[a][b], &l);
        umb_link_format(&l, why, sizeof why);
        printf("farthest %d %d %s\n", a, b, why);
        return 0;
    }
    if (topo && umb_topo_parse(slurp(topo), &m, why, sizeof why)) {
        fprintf(stderr, "topo_probe: --topo %s: %s\n", topo, why);
        return 1;
    }
    int n = umb_gpu_count(why, sizeof why);
    if (n == 0) {
        fprintf(stderr, "topo_probe: %s\n", why);
        return 77;
    }
    int nvml = umb_topo_nvml(why, sizeof why);
    printf("nvml %s %s\n", nvml ? "yes" : "no", nvml ? "" : why);

    umb_gpu_desc d0;
    umb_gpu_describe(0, &d0);
    for (int j = 0; j < n; j++) {
        umb_gpu_desc d;
        char link[128], bound[200];
        umb_gpu_describe(j, &d);
        umb_pcie_link(d.pci_bus, link, sizeof link);
        umb_pcie_bound_text(link, bound, sizeof bound);
        printf("gpu %d %s %.3f %s: %s; bound %s\n", j, d.pci_bus, umb_pcie_gbs(link), d.name, link, bound);
    }
    int ordered = topo && same_order(&m, n, why, sizeof why);
    for (int j = 0; j < n; j++) {
        umb_gpu_desc d;
        umb_gpu_link l;
        char text[300], what[700];
        umb_gpu_describe(j, &d);
        umb_topo_link(d0.pci_bus, d.pci_bus, &l);
        umb_link_format(&l, text, sizeof text);
        printf("link 0 %d %s %.3f %s%s%s\n", j, umb_link_kind_name(l.kind), l.bound_gbs, text,
               l.kind != UMB_LINK_UNKNOWN && l.why[0] ? "; note: " : "", l.kind != UMB_LINK_UNKNOWN ? l.why : "");
        if (!topo) continue;
        if (!ordered) printf("compare 0 %d skipped %s\n", j, why);
        else if (compare(&l, &m.e[0][j], what, sizeof what)) printf("compare 0 %d differs %s\n", j, what), differs = 1;
        else printf("compare 0 %d ok\n", j);
    }
    for (int j = 0; measure && j < n; j++) {
        umb_measured_bound b;
        char text[300];
        umb_measured_init(&b);
        umb_bound_measure_host(j, &b);
        umb_measured_format(&b, text, sizeof text);
        printf("host %d %.3f %.3f %s\n", j, b.htod_gbs, b.dtoh_gbs, text);
        umb_measured_init(&b);
        umb_bound_measure_peer(0, j, &b);
        umb_measured_format(&b, text, sizeof text);
        printf("peer 0 %d %.3f %d %s\n", j, b.peer_gbs, b.peer_access, text);
    }
    return differs;
}
