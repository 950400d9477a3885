/* util/gpu/topo.c against tests/tools/fake_nvml.c (a made-up machine per
   scenario; tests/unit/topo_nvml.sh runs each): NVLink counted directly
   and through NVSwitch, switches NVML cannot name, the version read
   through the architecture, PCIe with peer reads refused, and NVML that
   does not start. usage: test_topo SCENARIO */
#include "check.h"
#include "gpu.h"
#include "topo.h"

#include <math.h>
#include <stdio.h>

#define G(x) "00fe:1" #x ":00.0"

static void text_is(const umb_gpu_link *l, const char *want)
{
    char t[300];
    umb_link_format(l, t, sizeof t);
    CHECK_CONTAINS(t, want);
    if (strcmp(t, want)) printf("  got: %s\n", t);
}

int main(int argc, char **argv)
{
    umb_gpu_link l;
    char why[200];
    const char *s = argc > 1 ? argv[1] : "";
    if (!umb_gpu_built()) {
        printf("test_topo: host-only build, topo_none.c reads nothing\n");
        return 77;
    }
    umb_topo_link(G(0), "00fe:10:00.0", &l);
    CHECK(l.kind == UMB_LINK_SAME);  /* same address, any spelling: no NVML asked */
    if (!strcmp(s, "switch") || !strcmp(s, "hidden")) {
        CHECK(umb_topo_nvml(why, sizeof why) == 1);
        umb_topo_link(G(0), G(1), &l);
        CHECK(l.kind == UMB_LINK_NVLINK && l.nvlinks == 18 && l.nvlink_gen == 4 && l.level == UMB_LEVEL_NODE && l.peer == 1);
        CHECK(l.bound_gbs == 450 && l.why[0] == '\0');
        text_is(&l, "NV18 (NVLink 4, 18 links, 450 GB/s each way)");
        umb_topo_link(G(3), G(0), &l);
        CHECK(l.kind == UMB_LINK_NVLINK && l.nvlinks == 18 && l.level == UMB_LEVEL_SYS);
        umb_topo_link(G(0), G(7), &l);
        CHECK(l.kind == UMB_LINK_UNKNOWN);
        CHECK_CONTAINS(l.why, "NVML does not know GPU 00fe:17:00.0: Not Found");
    } else if (!strcmp(s, "direct")) {
        umb_topo_link(G(1), G(0), &l);
        CHECK(l.kind == UMB_LINK_NVLINK && l.nvlinks == 4 && l.level == UMB_LEVEL_PHB);
        /* NVML says 7 (5.0) on a compute capability 9.0 GPU: NVLink 4 it is. */
        CHECK(l.nvlink_gen == 4 && l.bound_gbs == 100);
        CHECK_CONTAINS(l.why, "NVML's NVLink version 7 read as NVLink 4, the generation of compute capability 9.0");
        text_is(&l, "NV4 (NVLink 4, 4 links, 100 GB/s each way)");
    } else if (!strcmp(s, "pcie")) {
        umb_topo_link(G(0), G(1), &l);
        CHECK(l.kind == UMB_LINK_PCIE && l.nvlinks == 0 && l.level == UMB_LEVEL_PHB && l.peer == 0);
        CHECK(isnan(l.bound_gbs));  /* no sysfs link for domain 00fe */
        CHECK_CONTAINS(l.why, "peer read: GPU not supported");
        text_is(&l, "PCIe, through the host bridge (PHB), peer access no");
    } else if (!strcmp(s, "fail")) {
        CHECK(umb_topo_nvml(why, sizeof why) == 0);
        CHECK_CONTAINS(why, "nvmlInit: Driver Not Loaded");
        umb_topo_link(G(0), G(1), &l);
        CHECK(l.kind == UMB_LINK_UNKNOWN);
        CHECK_CONTAINS(l.why, "nvmlInit: Driver Not Loaded; CUDA does not see GPU 00fe:10:00.0 either");
    } else if (!strcmp(s, "missing")) {
        CHECK(umb_topo_nvml(why, sizeof why) == 0);
        CHECK_CONTAINS(why, "cannot load NVML: libnvidia-ml.so.1");
        umb_topo_link(G(0), G(1), &l);
        CHECK(l.kind == UMB_LINK_UNKNOWN && l.peer == -1);
        text_is(&l, "unknown (cannot load NVML: libnvidia-ml.so.1");
    } else {
        fprintf(stderr, "test_topo: unknown scenario '%s' (accepted: switch, hidden, direct, pcie, fail, missing)\n", s);
        return 1;
    }
    char name[64];
    snprintf(name, sizeof name, "test_topo %s", s);
    return check_done(name);
}
